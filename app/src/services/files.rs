//! Game files: reading PGN (one game or many), XQF and FEN text from a file, a drop or the
//! clipboard; writing PGN atomically; listing a folder's game files.

use crate::services::storage::write_atomically;
use crate::state::study::{GameEntry, GameList};
use chuhe_core::record::{Record, tag};
use chuhe_core::{Notation, Position, encoding, pgn, xqf};
use std::fmt;
use std::path::{Path, PathBuf};

/// The extensions Chuhe opens.
pub const GAME_EXTENSIONS: [&str; 5] = ["pgn", "xqf", "fen", "txt", "PGN"];

/// What a file or a text held.
pub enum Loaded {
    /// One game.
    One(Record),
    /// Several: the user chooses.
    Many(GameList),
}

/// Why a file or text could not be opened.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read.
    Io(std::io::Error),
    /// A PGN game could not be read.
    Pgn(pgn::PgnError),
    /// An XQF file could not be read.
    Xqf(xqf::XqfError),
    /// The text is neither a FEN nor a game.
    NotAGame,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => e.fmt(f),
            LoadError::Pgn(e) => e.fmt(f),
            LoadError::Xqf(e) => e.fmt(f),
            LoadError::NotAGame => f.write_str("no FEN or PGN game found"),
        }
    }
}

/// Reads the file at `path`.
pub fn load_file(path: &Path) -> Result<Loaded, LoadError> {
    let bytes = std::fs::read(path).map_err(LoadError::Io)?;
    let mut loaded = load_bytes(path, &bytes)?;
    if let Loaded::Many(list) = &mut loaded {
        list.path = Some(path.to_owned());
    }
    Ok(loaded)
}

/// Reads a file's bytes: XQF by its magic bytes or extension, else text in any of the
/// encodings Chinese game files use.
pub fn load_bytes(path: &Path, bytes: &[u8]) -> Result<Loaded, LoadError> {
    let is_xqf = bytes.starts_with(b"XQ")
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("xqf"));
    if is_xqf {
        // The lenient reader keeps every good branch of a damaged file.
        let (record, _problems) = xqf::read_lenient(bytes).map_err(LoadError::Xqf)?;
        return Ok(Loaded::One(record));
    }
    load_text(&encoding::decode(bytes).text)
}

/// Reads a text: a FEN (a set-up position), or PGN with one or more games.
pub fn load_text(text: &str) -> Result<Loaded, LoadError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(LoadError::NotAGame);
    }
    if !trimmed.contains('[')
        && !trimmed.contains('\n')
        && let Ok(position) = trimmed.parse::<Position>()
    {
        return Ok(Loaded::One(Record::new(position)));
    }
    let mut games = Vec::new();
    let mut unreadable = 0;
    let mut first_error = None;
    for game in pgn::read_games(text) {
        match game {
            Ok(record) => games.push(record),
            Err(e) => {
                unreadable += 1;
                first_error.get_or_insert(e);
            }
        }
    }
    match (games.len(), first_error) {
        (0, Some(e)) => Err(LoadError::Pgn(e)),
        (0, None) => Err(LoadError::NotAGame),
        (1, _) if unreadable == 0 => Ok(Loaded::One(games.remove(0))),
        _ => Ok(Loaded::Many(GameList {
            path: None,
            games: games.into_iter().map(game_entry).collect(),
            unreadable,
            filter: String::new(),
        })),
    }
}

fn game_entry(record: Record) -> GameEntry {
    let headers = record.headers();
    let search_text = [
        tag::RED,
        tag::BLACK,
        tag::EVENT,
        tag::DATE,
        tag::OPENING,
        tag::VARIATION,
        tag::ECCO,
        tag::RESULT,
    ]
    .iter()
    .filter_map(|name| headers.get(name))
    .collect::<Vec<_>>()
    .join(" ")
    .to_lowercase();
    GameEntry {
        record,
        search_text,
    }
}

/// Whether `entry` matches every word of the search text.
pub fn matches(entry: &GameEntry, filter: &str) -> bool {
    filter
        .to_lowercase()
        .split_whitespace()
        .all(|word| entry.search_text.contains(word))
}

/// The record as PGN, moves in `notation`.
pub fn to_pgn(record: &Record, notation: Notation) -> String {
    let mut out = String::new();
    pgn::write_game(record, notation, &mut out);
    out
}

/// Saves the record as PGN at `path`, atomically.
pub fn save_pgn(path: &Path, record: &Record, notation: Notation) -> std::io::Result<()> {
    write_atomically(path, to_pgn(record, notation).as_bytes())
}

/// The game files in `dir`, sorted by name.
pub fn game_files_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.extension().is_some_and(|e| {
                    let e = e.to_string_lossy().to_lowercase();
                    matches!(e.as_str(), "pgn" | "xqf" | "fen")
                })
        })
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fen_line_opens_as_a_set_up_position() {
        let fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1";
        let Ok(Loaded::One(record)) = load_text(fen) else {
            panic!("a FEN opens as one game");
        };
        assert_eq!(record.start().to_string(), fen);
        assert_eq!(record.move_count(), 0);
    }

    #[test]
    fn several_games_open_as_a_searchable_list() {
        let text = "[Red \"胡荣华\"]\n[Black \"柳大华\"]\n\n1. h2e2 h9g7 *\n\n\
                    [Red \"许银川\"]\n[Black \"吕钦\"]\n[Event \"全国赛\"]\n\n1. b2e2 *\n";
        let Ok(Loaded::Many(list)) = load_text(text) else {
            panic!("two games open as a list");
        };
        assert_eq!(list.games.len(), 2);
        let found: Vec<_> = list.games.iter().filter(|g| matches(g, "吕钦")).collect();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].record.headers().get("Red"), Some("许银川"));
        assert_eq!(
            list.games.iter().filter(|g| matches(g, "全国 许")).count(),
            1
        );
    }

    #[test]
    fn text_that_is_no_game_is_refused() {
        assert!(matches!(load_text("  "), Err(LoadError::NotAGame)));
        // The rook on a0 is blocked by its own pawn on a3.
        assert!(load_text("1. a0a5 *").is_err());
    }

    #[test]
    fn a_saved_game_reads_back_the_same() {
        let mut record = Record::default();
        let a = record
            .add_move(record.root(), "h2e2".parse().unwrap())
            .unwrap();
        record.add_move(a, "h9g7".parse().unwrap()).unwrap();
        record.set_comment(a, "中炮").unwrap();
        let dir = std::env::temp_dir().join(format!("chuhe-files-{}", std::process::id()));
        let path = dir.join("game.pgn");
        save_pgn(&path, &record, Notation::Chinese).unwrap();
        let Ok(Loaded::One(read)) = load_file(&path) else {
            panic!("the saved game opens");
        };
        assert_eq!(read.main_line_moves(), record.main_line_moves());
        assert_eq!(read.annotation(read.main_line()[0]).comment, "中炮");
    }
}

//! Game files: reading PGN (one game or many), XQF and FEN text from a file, a drop or the
//! clipboard; writing PGN atomically; listing a folder's game files.

use crate::state::study::{GameEntry, GameList, UnreadableGame};
use crate::words::problems;
use chuhe_core::gamefile::{self, FileGame};
use chuhe_core::record::tag;
use std::path::Path;

/// The game as a DhtmlXQ block, for the clipboard.
pub use chuhe_core::dhtmlxq::write as to_dhtmlxq;
pub use chuhe_core::gamefile::{
    ReadError as LoadError, game_files_in, save_as_written, save_into, save_pgn, to_pgn,
};

/// What a file or a text held.
pub enum Loaded {
    /// One game (perhaps only up to where it breaks off).
    One(Box<GameEntry>),
    /// Several, or some unreadable: the user chooses.
    Many(GameList),
}

/// Reads the file at `path`.
pub fn load_file(path: &Path) -> Result<Loaded, LoadError> {
    let mut loaded = loaded(gamefile::read_file(path)?)?;
    if let Loaded::Many(list) = &mut loaded {
        list.path = Some(path.to_owned());
    }
    Ok(loaded)
}

/// Reads a text: a FEN (a set-up position), or PGN with one or more games.
pub fn load_text(text: &str) -> Result<Loaded, LoadError> {
    loaded(gamefile::read_text(text)?)
}

/// One game opens on the board (a game that breaks off opens up to the break); several,
/// or some unreadable, go to the chooser, which lists the unreadable ones too; none
/// readable is the first game's error.
fn loaded(games: gamefile::Games) -> Result<Loaded, LoadError> {
    let mut good = Vec::new();
    let mut unreadable = Vec::new();
    let mut first_error = None;
    for (i, game) in games.into_iter().enumerate() {
        match game {
            Ok(game) => good.push(game_entry(game)),
            Err(e) => {
                unreadable.push(UnreadableGame {
                    number: e.game().unwrap_or(i + 1),
                    problem: problems::read_error(&e),
                });
                first_error.get_or_insert(e);
            }
        }
    }
    match (good.len(), first_error) {
        (0, Some(e)) => Err(e),
        (0, None) => Err(LoadError::NotAGame),
        (1, _) if unreadable.is_empty() => Ok(Loaded::One(Box::new(good.remove(0)))),
        _ => Ok(Loaded::Many(GameList {
            path: None,
            games: good,
            unreadable,
            filter: String::new(),
        })),
    }
}

fn game_entry(game: FileGame) -> GameEntry {
    let FileGame {
        record,
        partial,
        form,
    } = game;
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
        form,
        partial: partial.as_ref().map(problems::read_error),
        search_text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhe_core::Notation;
    use chuhe_core::record::Record;

    #[test]
    fn a_fen_line_opens_as_a_set_up_position() {
        let fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1";
        let Ok(Loaded::One(game)) = load_text(fen) else {
            panic!("a FEN opens as one game");
        };
        let record = game.record;
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
        let found: Vec<_> = list.games.iter().filter(|g| g.matches("吕钦")).collect();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].record.headers().get("Red"), Some("许银川"));
        assert_eq!(
            list.games.iter().filter(|g| g.matches("全国 许")).count(),
            1
        );
    }

    #[test]
    fn text_that_is_no_game_is_refused() {
        // Blank text is refused as empty.
        assert!(matches!(load_text("  "), Err(LoadError::Empty)));
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
        let Ok(Loaded::One(game)) = load_file(&path) else {
            panic!("the saved game opens");
        };
        let read = game.record;
        assert_eq!(read.main_line_moves(), record.main_line_moves());
        assert_eq!(read.annotation(read.main_line()[0]).comment, "中炮");
    }
}

//! The files a worksheet is made from on the command line: FEN lists (one FEN a line,
//! optionally a tab and a title; blank lines and `#` comments skipped), puzzle RON (a set or
//! one puzzle, as the app keeps them) and PGN (one position per game with a `FEN` tag; its
//! `Event` is the title, its `Goal` tag and moves the goal and answer).

use super::Entry;
use crate::pgn;
use crate::puzzle::{Puzzle, PuzzleError, PuzzleSet};
use crate::{Position, PositionFenError};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a worksheet's input could not be read: which file, where, and what was wrong.
#[derive(Debug)]
pub struct InputError {
    /// The file.
    pub path: PathBuf,
    /// What was wrong.
    pub kind: InputErrorKind,
}

/// What was wrong with an input file.
#[derive(Debug)]
pub enum InputErrorKind {
    /// It could not be read.
    Io(std::io::Error),
    /// It is not UTF-8 text.
    NotText,
    /// A line of a FEN list is not a legal position.
    Fen {
        /// 1-based line.
        line: usize,
        /// Why.
        error: PositionFenError,
    },
    /// A puzzle of a RON file is wrong.
    Puzzle(PuzzleError),
    /// The file holds no position.
    Empty,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.kind {
            InputErrorKind::Io(e) => write!(f, "{path}: {e}"),
            InputErrorKind::NotText => write!(f, "{path}: not UTF-8 text"),
            InputErrorKind::Fen { line, error } => write!(f, "{path}:{line}: bad FEN: {error}"),
            InputErrorKind::Puzzle(e) => write!(f, "{path}: {e}"),
            InputErrorKind::Empty => write!(f, "{path}: no position in the file"),
        }
    }
}

impl std::error::Error for InputError {}

/// The positions of one file, and the games of a PGN that were skipped (with why).
#[derive(Debug, Default)]
pub struct Read {
    /// The positions, in file order.
    pub entries: Vec<Entry>,
    /// Games that could not be used, each saying where and why.
    pub skipped: Vec<String>,
}

/// Reads the positions of `path`: RON by its `.ron` name, PGN by `.pgn` or its tags,
/// anything else as a FEN list.
pub fn read_path(path: &Path) -> Result<Read, InputError> {
    let error = |kind| InputError {
        path: path.to_owned(),
        kind,
    };
    let bytes = std::fs::read(path).map_err(|e| error(InputErrorKind::Io(e)))?;
    let text = String::from_utf8(bytes).map_err(|_| error(InputErrorKind::NotText))?;
    // A byte-order mark (Windows editors write one) would hide the `[` of a tag file.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let read = match extension.as_deref() {
        Some("ron") => read_ron(text).map_err(|e| error(InputErrorKind::Puzzle(e)))?,
        Some("pgn") => read_pgn(text),
        _ if text.trim_start().starts_with('[') => read_pgn(text),
        _ => read_fen_list(text)
            .map_err(|(line, e)| error(InputErrorKind::Fen { line, error: e }))?,
    };
    if read.entries.is_empty() && read.skipped.is_empty() {
        return Err(error(InputErrorKind::Empty));
    }
    Ok(read)
}

/// A FEN list: each line a FEN, optionally a tab or a `;` (as EPD files comment a
/// position) and a title. The error gives the line.
pub fn read_fen_list(text: &str) -> Result<Read, (usize, PositionFenError)> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_start_matches('\u{feff}');
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let (fen, title) = line
            .split_once('\t')
            .or_else(|| line.split_once(';'))
            .unwrap_or((line, ""));
        let position: Position = fen.trim().parse().map_err(|e| (i + 1, e))?;
        entries.push(Entry::new(title.trim(), position));
    }
    Ok(Read {
        entries,
        skipped: Vec::new(),
    })
}

/// A puzzle RON file: a set, or a single puzzle.
pub fn read_ron(text: &str) -> Result<Read, PuzzleError> {
    let puzzles = match PuzzleSet::from_ron(text) {
        Ok(set) => set.puzzles,
        Err(set_error) => vec![Puzzle::from_ron(text).map_err(|_| set_error)?],
    };
    Ok(Read {
        entries: puzzles.iter().map(Entry::from_puzzle).collect(),
        skipped: Vec::new(),
    })
}

/// A PGN text: a position for each game with a start position. A game without a `Goal`
/// tag or moves has its goal left for the solver.
pub fn read_pgn(text: &str) -> Read {
    let mut read = Read::default();
    for (i, game) in pgn::read_games(text).enumerate() {
        let fallback = format!("game {}", i + 1);
        let record = match game {
            Ok(record) => record,
            Err(e) => {
                read.skipped.push(format!("{fallback}: {e}"));
                continue;
            }
        };
        match Puzzle::from_record(&record, &fallback) {
            Ok(puzzle) => {
                let mut entry = Entry::from_puzzle(&puzzle);
                if record.headers().get("Goal").is_none() && puzzle.solution.is_empty() {
                    entry.goal = None;
                }
                read.entries.push(entry);
            }
            Err(e) => read.skipped.push(e.to_string()),
        }
    }
    read
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Goal;

    #[test]
    fn a_fen_list_has_titles_after_a_tab_and_says_which_line_is_bad() {
        let text = "# homework\n4k4/4a4/9/9/9/9/9/9/7R1/3K5 w - - 0 1\t车的杀法\n\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n";
        let read = read_fen_list(text).unwrap();
        assert_eq!(read.entries.len(), 2);
        assert_eq!(read.entries[0].title, "车的杀法");
        assert_eq!(read.entries[1].title, "");
        let (line, _) = read_fen_list("\n\n4k4/9 w\n").unwrap_err();
        assert_eq!(line, 3);
    }

    #[test]
    fn a_fen_list_takes_titles_after_a_semicolon_as_epd_files_write_them() {
        let text =
            "9/2Cca4/3k1C3/4P1p2/4N1b2/4R1r2/4c1n2/3p1n3/2rNK4/9 w - - 0 1 ; 第001局：月上柳梢\n";
        let read = read_fen_list(text).unwrap();
        assert_eq!(read.entries.len(), 1);
        assert_eq!(read.entries[0].title, "第001局：月上柳梢");
    }

    #[test]
    fn a_tag_file_behind_a_byte_order_mark_is_read_as_tags() {
        let dir = std::env::temp_dir().join(format!("chuhe-worksheet-bom-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.fen");
        let text = "\u{feff}[FEN_INDEX \"a-001\"]\n[Event \"第001局 气吞关右\"]\n\
                    [FEN \"2baka3/3P3N1/bN7/7nc/9/4C1P2/P5n1P/B3R3B/4Apr2/2RAK3c w - - 0 1\"]\n";
        std::fs::write(&path, text).unwrap();
        let read = read_path(&path);
        let _ = std::fs::remove_dir_all(&dir);
        let read = read.unwrap();
        assert_eq!(read.entries.len(), 1, "{:?}", read.skipped);
        assert_eq!(read.entries[0].title, "第001局 气吞关右");
    }

    #[test]
    fn pgn_games_give_their_goal_and_moves_or_leave_them_to_the_solver() {
        let text = "[Event \"一\"]\n[FEN \"4k4/4a4/9/9/9/9/9/9/7R1/3K5 w - - 0 1\"]\n\
                    [Goal \"mate 2\"]\n\n1. h1e1 e9f9 2. e1e8 *\n\n\
                    [Event \"二\"]\n[FEN \"4k4/4a4/9/9/9/9/9/9/7R1/3K5 w - - 0 1\"]\n\n*\n\n\
                    [Event \"开局\"]\n\n1. h2e2 *\n";
        let read = read_pgn(text);
        assert_eq!(read.entries.len(), 2, "{:?}", read.skipped);
        assert_eq!(
            read.entries[0].goal,
            Some(Goal::Mate {
                moves: 2,
                checks_only: false
            })
        );
        assert_eq!(read.entries[0].answer.as_ref().map(Vec::len), Some(3));
        assert_eq!(read.entries[1].title, "二");
        assert_eq!(read.entries[1].goal, None);
        assert_eq!(
            read.skipped.len(),
            1,
            "the game from the start is no exercise"
        );
    }
}

//! Reading game files of any kind Chuhe knows (PGN in any encoding, XQF), and headless
//! conversion for `chuhe-engine convert`. A game that cannot be read is reported with the
//! file, the game number and where in the game; the other games go on.

use crate::gamefile::{self, Damage};
use crate::notation::Notation;
use crate::pgn;
use crate::record::Record;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a game could not be read: the game file reader's error (only its `Io`, `Pgn` and
/// `Xqf` kinds arise here).
pub use crate::gamefile::ReadError;

/// A game that failed, with the file it is in.
#[derive(Debug)]
pub struct GameFailure {
    /// The file.
    pub file: PathBuf,
    /// Why (the error names the game number and the place in the game).
    pub error: ReadError,
}

impl fmt::Display for GameFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.error)
    }
}

/// Reads every game of a file's bytes: an XQF file (starting `XQ`) holds one game, refused
/// at its first problem; a PGN file any number (in UTF-8, GBK/GB18030 or Big5, detected).
/// Each item is a game or why it failed.
pub fn read_games(bytes: &[u8]) -> Vec<Result<Record, ReadError>> {
    gamefile::games(bytes, None, Damage::Refuse)
}

/// What `convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// PGN with moves in this notation, every game with its variations and comments.
    Pgn(Notation),
    /// One FEN per game: the position at the end of its main line.
    Fen,
}

/// How a conversion went.
#[derive(Debug, Default)]
pub struct Summary {
    /// Games read and written.
    pub converted: usize,
    /// The games that could not be read, in order.
    pub failures: Vec<GameFailure>,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games converted, {} failed",
            self.converted,
            self.failures.len()
        )
    }
}

/// Reads every game of `inputs` and appends it to `out` as `target`. Each failure is
/// passed to `report` as it happens (and kept in the summary).
pub fn convert(
    inputs: &[PathBuf],
    target: Target,
    out: &mut String,
    mut report: impl FnMut(&GameFailure),
) -> Summary {
    let mut summary = Summary::default();
    let mut fail = |summary: &mut Summary, file: &Path, error: ReadError| {
        let failure = GameFailure {
            file: file.to_owned(),
            error,
        };
        report(&failure);
        summary.failures.push(failure);
    };
    for path in inputs {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                fail(&mut summary, path, ReadError::Io(e));
                continue;
            }
        };
        for game in read_games(&bytes) {
            match game {
                Ok(record) => {
                    write_record(&record, target, out);
                    summary.converted += 1;
                }
                Err(e) => fail(&mut summary, path, e),
            }
        }
    }
    summary
}

fn write_record(record: &Record, target: Target, out: &mut String) {
    match target {
        Target::Pgn(notation) => pgn::write_game(record, notation, out),
        Target::Fen => {
            let end = record.line_end(record.root());
            if let Some(pos) = record.position_at(end) {
                out.push_str(&pos.to_string());
                out.push('\n');
            }
        }
    }
}

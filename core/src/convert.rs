//! Reading game files of any kind Chuhe knows (PGN in any encoding, XQF), and headless
//! conversion for `chuhe-engine convert`. A game that cannot be read is reported with the
//! file, the game number and where in the game; the other games go on.

use crate::gamefile::{self, Damage};
use crate::notation::Notation;
use crate::pgn;
use crate::record::Record;
use std::fmt;
use std::io::{self, Write};
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

/// Atomic writes live in [`crate::atomic`]; kept here for the callers that know them here.
pub use crate::atomic::write_atomically;

const USAGE: &str = "usage: chuhe-engine convert INPUT... [--to pgn|fen] \
    [--notation chinese|chinese-traditional|wxf|iccs] [-o OUTPUT]";

/// `chuhe-engine convert INPUT... [--to pgn|fen] [--notation chinese|chinese-traditional|wxf|iccs]
/// [-o OUTPUT]`: converts every game of the inputs (PGN moves in Chinese unless told
/// otherwise; `fen` writes each game's final main-line position), printing each failure and
/// a summary line on standard error. The output goes to OUTPUT (written atomically) or
/// standard output. Fails when any game failed.
pub fn command(args: &[String]) -> Result<(), String> {
    let mut inputs = Vec::new();
    let mut to_fen = false;
    let mut notation = Notation::Chinese;
    let mut output: Option<PathBuf> = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--to" => {
                to_fen = match value("--to")?.as_str() {
                    "pgn" => false,
                    "fen" => true,
                    other => return Err(format!("unknown --to {other:?}\n{USAGE}")),
                }
            }
            "--notation" => {
                notation = match value("--notation")?.as_str() {
                    "chinese" => Notation::Chinese,
                    "chinese-traditional" => Notation::ChineseTraditional,
                    "wxf" => Notation::Wxf,
                    // PGN files write ICCS as `H2-E2`.
                    "iccs" => Notation::IccsPgn,
                    other => return Err(format!("unknown --notation {other:?}\n{USAGE}")),
                }
            }
            "-o" | "--output" => output = Some(PathBuf::from(value("-o")?)),
            s if s.starts_with('-') && s.len() > 1 => {
                return Err(format!("unknown option {s:?}\n{USAGE}"));
            }
            s => inputs.push(PathBuf::from(s)),
        }
    }
    if inputs.is_empty() {
        return Err(format!("convert needs at least one input file\n{USAGE}"));
    }
    let stderr = io::stderr();
    let mut out = String::new();
    let target = if to_fen {
        Target::Fen
    } else {
        Target::Pgn(notation)
    };
    let summary = convert(&inputs, target, &mut out, |failure| {
        let _ = writeln!(stderr.lock(), "{failure}");
    });
    match &output {
        Some(path) => write_atomically(path, out.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => io::stdout()
            .lock()
            .write_all(out.as_bytes())
            .map_err(|e| format!("cannot write the output: {e}"))?,
    }
    if summary.failures.is_empty() {
        let _ = writeln!(stderr.lock(), "{summary}");
        Ok(())
    } else {
        Err(summary.to_string())
    }
}

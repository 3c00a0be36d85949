//! `chuhe-engine convert INPUT... [--to pgn|fen] [--notation chinese|chinese-traditional|wxf|iccs]
//! [-o OUTPUT]`: converts every game of the inputs (PGN moves in Chinese unless told
//! otherwise; `fen` writes each game's final main-line position), printing each failure and
//! a summary line on standard error. The output goes to OUTPUT (written atomically) or
//! standard output. Fails when any game failed.

use chuhe_core::atomic::write_atomically;
use chuhe_core::convert::{Target, convert};
use chuhe_core::notation::Notation;
use std::io::{self, Write};
use std::path::PathBuf;

const USAGE: &str = "usage: chuhe-engine convert INPUT... [--to pgn|fen] \
    [--notation chinese|chinese-traditional|wxf|iccs] [-o OUTPUT]";

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

//! `chuhe-engine classify FILE...`: for each game of the files, numbered from 1 across
//! them all, prints its number, ECCO code, opening and variation names, tab-separated. A
//! game without a code (from a set-up position, or without moves) prints `-`; a game that
//! cannot be read prints `-` too and is reported on standard error.

use chuhe_core::convert::read_games;
use chuhe_core::library::openings::ecco;
use std::io::Write;

pub fn command(args: &[String], out: &mut impl Write) -> Result<(), String> {
    if args.is_empty() || args.iter().any(|a| a.starts_with('-')) {
        return Err("usage: chuhe-engine classify FILE...".to_owned());
    }
    let table = ecco::builtin()?;
    let mut number = 0;
    let mut failures = 0;
    for path in args {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        for game in read_games(&bytes) {
            number += 1;
            let line = match game {
                Ok(record) => match table.classify(record.start(), &record.main_line_moves()) {
                    Some(c) => format!("{number}\t{}\t{}\t{}", c.code, c.opening, c.variation),
                    None => format!("{number}\t-\t\t"),
                },
                Err(e) => {
                    failures += 1;
                    eprintln!("{path}: {e}");
                    format!("{number}\t-\t\t")
                }
            };
            writeln!(out, "{line}").map_err(|e| e.to_string())?;
        }
    }
    if failures > 0 {
        eprintln!("{failures} of {number} games could not be read");
    }
    Ok(())
}

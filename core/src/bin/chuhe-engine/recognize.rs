//! `chuhe-engine recognize IMAGE... [--json]`: reads the position of every board in each
//! picture, one line per board, pictures in the order given. Text: `<path>\t<FEN>`, or
//! `<path>\terror: <why>` when a picture gave none. With `--json`, one object per line:
//! `{"file", "fen", "confidence", "uncertain", "board": {"x", "y", "width", "height"},
//! "flipped"}` or `{"file", "error"}`. FENs have Red to move; points are in ICCS. The exit
//! status is 0 only when every picture gave a position.

use chuhe_core::recognize::{self, Reading};
use chuhe_core::{Color, Setup};
use serde::Serialize;
use std::io::Write;

const USAGE: &str = "usage: chuhe-engine recognize IMAGE... [--json]";

#[derive(Serialize)]
struct Area {
    x: u32,
    y: u32,
    width: u32,
    height: u32,
}

#[derive(Serialize)]
struct Found<'a> {
    file: &'a str,
    fen: String,
    confidence: f64,
    uncertain: Vec<String>,
    board: Area,
    flipped: bool,
}

#[derive(Serialize)]
struct Failed<'a> {
    file: &'a str,
    error: String,
}

pub fn command(args: &[String], out: &mut impl Write) -> Result<(), String> {
    let json = args.iter().any(|a| a == "--json");
    let paths: Vec<&String> = args.iter().filter(|a| *a != "--json").collect();
    if paths.is_empty() || paths.iter().any(|a| a.starts_with('-')) {
        return Err(USAGE.to_owned());
    }
    let mut failed = 0;
    for path in &paths {
        let read = std::fs::read(path)
            .map_err(|e| format!("cannot read the file: {e}"))
            .and_then(|bytes| recognize::read_bytes(&bytes).map_err(|e| e.to_string()));
        let lines = match read {
            Ok(readings) => readings
                .iter()
                .map(|r| line(path, r, json))
                .collect::<Result<Vec<_>, _>>()?,
            Err(why) => {
                failed += 1;
                vec![if json {
                    serde_json::to_string(&Failed {
                        file: path,
                        error: why,
                    })
                    .map_err(|e| e.to_string())?
                } else {
                    format!("{path}\terror: {why}")
                }]
            }
        };
        for l in lines {
            writeln!(out, "{l}").map_err(|e| e.to_string())?;
        }
    }
    if failed > 0 {
        return Err(format!(
            "{failed} of {} pictures gave no position",
            paths.len()
        ));
    }
    Ok(())
}

/// The line of one board read from `path`.
fn line(path: &str, reading: &Reading, json: bool) -> Result<String, String> {
    let fen = Setup {
        board: reading.board,
        side_to_move: Color::Red,
        ..Setup::empty()
    }
    .to_string();
    if !json {
        return Ok(format!("{path}\t{fen}"));
    }
    let a = reading.area;
    serde_json::to_string(&Found {
        file: path,
        fen,
        // Four places are all a confidence says; more would be noise in the output.
        confidence: (f64::from(reading.confidence) * 1e4).round() / 1e4,
        uncertain: reading.uncertain.iter().map(|s| s.to_string()).collect(),
        board: Area {
            x: a.x,
            y: a.y,
            width: a.width,
            height: a.height,
        },
        flipped: reading.flipped,
    })
    .map_err(|e| e.to_string())
}

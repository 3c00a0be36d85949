//! `chuhe-engine`: Chuhe's engine on the command line.
//!
//! With no arguments it speaks UCI on standard input and output. Subcommands:
//! `perft DEPTH [FEN]` counts the legal move tree and prints the time taken; `bench
//! [DEPTH]` searches the fixed bench positions and prints the node count and speed;
//! `eval FEN` prints the static evaluation term by term.
//! `solve` proves mates exactly (see `chuhe_core::solver::cli`). `classify FILE...` prints
//! each game's ECCO code and names; `library --json` prints the built-in library. `tb`
//! generates, counts and probes endgame tables (see `chuhe_core::tb::cli`).

use chuhe_core::Position;
use chuhe_core::search::eval;
use chuhe_core::uci::{Uci, write_perft};
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: chuhe-engine                 speak UCI on stdin/stdout
       chuhe-engine perft DEPTH [FEN]  count legal move paths DEPTH plies deep
       chuhe-engine bench [DEPTH]      search the bench positions, print nodes and speed
       chuhe-engine eval FEN           print the static evaluation term by term
       chuhe-engine convert INPUT... [--to pgn|fen] [--notation chinese|chinese-traditional|wxf|iccs] [-o OUTPUT]
                                       convert PGN/XQF game files, replaying every move
       chuhe-engine solve --fen FEN --mate N [--json] [--checks-only | --quiet-moves Q] [--time-limit S]
                                       prove the shortest mate within N moves, exactly
       chuhe-engine solve (--wukong FILE | --fens FILE) --mate N [--checks-only | --quiet-moves Q] [--time-limit S]
                                       solve a puzzle file, print the time distribution
       chuhe-engine classify FILE...   print each game's number, ECCO code, opening and variation
       chuhe-engine library --json     print the built-in library as one JSON document
       chuhe-engine tb stats MATERIAL [--json]
                                       endgame table counts (MATERIAL like \"KR v KAA\", Red first)
       chuhe-engine tb probe FEN [--json]
                                       endgame table value, distance to mate and best moves
       chuhe-engine tb bench [MATERIAL,...]
                                       time and memory to generate endgame tables";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => {
            let stdin = io::stdin();
            Uci::with_output(io::stdout())
                .run(stdin.lock())
                .map_err(|e| e.to_string())
        }
        Some("perft") => perft(&args[1..]),
        Some("convert") => chuhe_core::convert::command(&args[1..]),
        Some("bench") => bench(&args[1..]),
        Some("eval") => eval(&args[1..]),
        Some("solve") => chuhe_core::solver::cli::command(&args[1..], &mut io::stdout().lock()),
        Some("classify") => {
            chuhe_core::library::openings::classify_command(&args[1..], &mut io::stdout().lock())
        }
        Some("library") => library(&args[1..]),
        Some("tb") => chuhe_core::tb::cli::command(&args[1..], &mut io::stdout().lock()),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command {other:?}\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chuhe-engine: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `library --json`: the whole built-in library as one JSON object, a key per part.
fn library(args: &[String]) -> Result<(), String> {
    if args != ["--json"] {
        return Err(format!("library takes --json\n{USAGE}"));
    }
    let mut doc = serde_json::Map::new();
    doc.insert(
        "openings".to_owned(),
        chuhe_core::library::openings::to_json()?,
    );
    let patterns = chuhe_core::library::patterns::export().map_err(|e| e.to_string())?;
    doc.insert(
        "patterns".to_owned(),
        serde_json::to_value(patterns).map_err(|e| e.to_string())?,
    );
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    println!("{text}");
    Ok(())
}

fn bench(args: &[String]) -> Result<(), String> {
    let depth = match args.first() {
        Some(d) => d
            .parse()
            .map_err(|_| format!("bench depth {d:?} is not a number"))?,
        None => chuhe_core::bench::DEFAULT_DEPTH,
    };
    chuhe_core::bench::run(depth, &mut io::stdout().lock()).map_err(|e| e.to_string())?;
    Ok(())
}

/// `eval FEN`: the static evaluation of a position term by term, in centipawns for Red
/// (middlegame and endgame weights, before the phase blends them).
fn eval(args: &[String]) -> Result<(), String> {
    if args.is_empty() {
        return Err(format!("eval needs a FEN\n{USAGE}"));
    }
    let b = eval::breakdown(&fen_of(args)?);
    let out = &mut io::stdout().lock();
    let mut write = || -> io::Result<()> {
        writeln!(out, "{:<24}{:>8}{:>8}", "term (Red)", "mg", "eg")?;
        for (name, s) in &b.terms {
            writeln!(out, "{name:<24}{:>8}{:>8}", s.0, s.1)?;
        }
        let total = b.total();
        writeln!(out, "{:<24}{:>8}{:>8}", "total", total.0, total.1)?;
        writeln!(
            out,
            "phase {}/{}, endgame scale {}/{}",
            b.phase,
            eval::PHASE_MAX,
            b.scale,
            eval::SCALE_ONE
        )?;
        writeln!(out, "Evaluation (Red): {} cp", b.red)
    };
    write().map_err(|e| e.to_string())
}

/// The position of a FEN given as the rest of the command line (its fields may arrive as
/// separate arguments when it is not quoted).
fn fen_of(args: &[String]) -> Result<Position, String> {
    args.join(" ")
        .parse::<Position>()
        .map_err(|e| e.to_string())
}

fn perft(args: &[String]) -> Result<(), String> {
    let Some(depth) = args.first() else {
        return Err(format!("perft needs a depth\n{USAGE}"));
    };
    let depth: u32 = depth
        .parse()
        .map_err(|_| format!("perft depth {depth:?} is not a number"))?;
    let mut pos = if args.len() > 1 {
        fen_of(&args[1..])?
    } else {
        Position::startpos()
    };
    let out = &mut io::stdout().lock();
    let start = Instant::now();
    let nodes = write_perft(&mut pos, depth, out).map_err(|e| e.to_string())?;
    let elapsed = start.elapsed();
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "Time: {ms} ms").map_err(|e| e.to_string())?;
    writeln!(out, "Nodes/second: {nps}").map_err(|e| e.to_string())?;
    Ok(())
}

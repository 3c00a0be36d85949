//! `chuhe-engine`: Chuhe's engine on the command line.
//!
//! With no arguments it speaks UCI on standard input and output. Subcommands:
//! `perft DEPTH [FEN]` counts the legal move tree and prints the time taken; `bench
//! [DEPTH] [--tablebases] [--hce]` searches the fixed bench positions (without the endgame
//! tables unless asked, with the built-in network unless `--hce`) and prints the node
//! count and speed;
//! `eval FEN` prints the static evaluation term by term.
//! `solve` proves mates exactly (see [`solve`]). `classify FILE...` prints each game's
//! ECCO code and names; `library --json` prints the built-in library. `tb` generates,
//! counts and probes endgame tables (see [`tb`]). `db` imports game collections and asks
//! them what was played from a position (see [`db`]). `worksheet` prints positions as a
//! PDF worksheet with an answer key (see [`worksheet`]). `recognize` reads the position of
//! every board in pictures (see [`recognize`]).
//!
//! Each subcommand is a module here that reads its arguments and prints; the work itself
//! (searching, solving, converting, classifying, the tables) is the library's.

mod bench;
mod classify;
mod convert;
mod db;
mod eval;
mod library;
mod perft;
mod recognize;
mod solve;
mod tb;
mod worksheet;

use chuhe_core::Position;
use chuhe_core::uci::Uci;
use std::io;
use std::process::ExitCode;

const USAGE: &str = "usage: chuhe-engine                 speak UCI on stdin/stdout
       chuhe-engine perft DEPTH [FEN]  count legal move paths DEPTH plies deep
       chuhe-engine bench [DEPTH] [--tablebases] [--hce]
                                       search the bench positions, print nodes and speed
                                       (--hce: with the hand-written evaluation)
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
                                       time and memory to generate endgame tables
       chuhe-engine tb generate MATERIAL
                                       generate an endgame table into the cache (up to
                                       three rooks, horses, cannons and pawns)
       chuhe-engine db import DB INPUT...
                                       import game files and folders into a collection
       chuhe-engine db explore DB (--fen FEN | --moves ICCS...) [--fold-mirror] [--json]
                                       the moves played from a position and their results
       chuhe-engine db generate DB --games N [--seed S]
                                       add N random legal games (a test collection)
       chuhe-engine db bench DB [--positions N] [--seed S]
                                       time next-move statistics over a collection
       chuhe-engine worksheet INPUT... -o OUT.pdf [--per-page N] [--title TEXT] [--no-answers]
                                       print FEN lists, puzzle RON or PGN as a PDF worksheet
                                       (1, 2, 4, 6, 9 or 12 diagrams a page) with the answers
       chuhe-engine recognize IMAGE... [--json]
                                       read the position of every board in PNG/JPEG/BMP/WebP
                                       pictures: one line per board (several for a page of
                                       diagrams, same path), `PATH<tab>FEN` or
                                       `PATH<tab>error: WHY`; exit status 1 if any gave none";

fn main() -> ExitCode {
    quiet_on_closed_output();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => {
            let stdin = io::stdin();
            Uci::with_output(io::stdout())
                .run(stdin.lock())
                .map_err(|e| e.to_string())
        }
        Some("perft") => perft::command(&args[1..]),
        Some("convert") => convert::command(&args[1..]),
        Some("bench") => bench::command(&args[1..]),
        Some("eval") => eval::command(&args[1..]),
        Some("solve") => solve::command(&args[1..], &mut io::stdout().lock()),
        Some("classify") => classify::command(&args[1..], &mut io::stdout().lock()),
        Some("library") => library::command(&args[1..]),
        Some("tb") => tb::command(&args[1..], &mut io::stdout().lock()),
        Some("db") => db::command(&args[1..], &mut io::stdout().lock()),
        Some("worksheet") => worksheet::command(&args[1..]),
        Some("recognize") => recognize::command(&args[1..], &mut io::stdout().lock()),
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

/// The position of a FEN given as the rest of the command line (its fields may arrive as
/// separate arguments when it is not quoted).
fn fen_of(args: &[String]) -> Result<Position, String> {
    args.join(" ")
        .parse::<Position>()
        .map_err(|e| e.to_string())
}

/// A closed output (`chuhe-engine library --json | head`) ends the program quietly, as it
/// ends any Unix tool: Rust ignores SIGPIPE, so without this every print after the reader
/// left would panic.
fn quiet_on_closed_output() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default before any thread starts
    // touches no memory of the program's.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

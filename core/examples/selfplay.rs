//! Self-play games for fitting the evaluation (see `tune_eval.rs`).
//!
//! `cargo run --release -p chuhe-core --example selfplay -- GAMES NODES OUT [SEED]`
//! plays GAMES games at NODES nodes a move from the balanced openings of
//! `../shared/data/openings/match_openings.tsv`, choosing the first moves at random among
//! the nearly best so no two games repeat, and appends one line per game to OUT:
//! `FEN<TAB>result<TAB>moves` (result `1-0`, `0-1` or `1/2-1/2`, moves in ICCS).
//! Games end by mate or 困毙, by the engine's verdict on a repetition, by the natural move
//! limit, or are adjudicated once both sides see a score beyond ±1500 (or a mate) for
//! four plies in a row.

use chuhe_core::search::{Engine, Limits, Options, Score, SearchRoot};
use chuhe_core::{Color, Move, Position};
use std::collections::HashMap;
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: selfplay GAMES NODES OUT [SEED]");
        std::process::exit(2);
    }
    let games: usize = args[0].parse().expect("GAMES is a number");
    let nodes: u64 = args[1].parse().expect("NODES is a number");
    let mut seed: u64 = args
        .get(3)
        .map_or(1, |s| s.parse().expect("SEED is a number"));
    let openings: Vec<Position> = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/data/openings/match_openings.tsv"
    ))
    .expect("the shared openings")
    .lines()
    .skip(1)
    .filter_map(|l| l.split('\t').next()?.parse().ok())
    .collect();
    // Appended to game by game, not written atomically: a long run that is stopped keeps
    // the games it finished, and a second run adds to the first.
    let mut out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args[2])
        .expect("OUT can be written");
    let mut engine = Engine::new(Options::default());
    let mut random = Engine::new(Options {
        multipv: 4,
        ..Options::default()
    });
    for g in 0..games {
        let start = openings[g % openings.len()].clone();
        let mut root = SearchRoot::new(start.clone());
        let mut moves: Vec<Move> = Vec::new();
        let mut seen: HashMap<u64, u32> = HashMap::new();
        let mut decided = 0;
        engine.new_game();
        let result = loop {
            let pos = root.position().clone();
            if pos.legal_moves().is_empty() {
                break if pos.side_to_move() == Color::Red {
                    "0-1"
                } else {
                    "1-0"
                };
            }
            let count = seen.entry(pos.hash()).or_insert(0);
            *count += 1;
            if *count >= 3 || pos.halfmove_clock() >= 120 || moves.len() >= 400 {
                break "1/2-1/2";
            }
            let m = if moves.len() < 4 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let r = random.search(&root, Limits::depth(4));
                let best = r.report.lines[0].score;
                let near: Vec<Move> = r
                    .report
                    .lines
                    .iter()
                    .filter(|l| match (best, l.score) {
                        (Score::Cp(b), Score::Cp(v)) => b - v <= 40,
                        _ => l.score == best,
                    })
                    .map(|l| l.moves[0])
                    .collect();
                near[(seed % near.len() as u64) as usize]
            } else {
                let r = engine.search(&root, Limits::nodes(nodes));
                let score = r.report.lines[0].score;
                let red = r.report.lines[0].score_for_red(pos.side_to_move());
                let big = match red {
                    Score::Cp(v) => v.abs() >= 1500,
                    Score::Mate(_) => true,
                };
                decided = if big { decided + 1 } else { 0 };
                if decided >= 4 {
                    break if red > Score::Cp(0) { "1-0" } else { "0-1" };
                }
                // A repetition the engine judges (a draw, or a loss for 长将) ends it.
                if score == Score::Cp(0) && pos.halfmove_clock() >= 4 && *count >= 2 {
                    break "1/2-1/2";
                }
                r.best_move.expect("a legal move exists")
            };
            moves.push(m);
            root.play(m).expect("the engine plays legal moves");
        };
        let text: Vec<String> = moves.iter().map(Move::to_string).collect();
        writeln!(out, "{start}\t{result}\t{}", text.join(" ")).expect("OUT can be written");
        eprintln!("game {}: {result} in {} plies", g + 1, moves.len());
    }
}

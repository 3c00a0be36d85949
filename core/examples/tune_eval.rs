//! Fits the evaluation weights to game results (Texel's method, `search::tune`).
//!
//! `cargo run --release -p chuhe-core --example tune_eval -- [--epochs N] [--rate R]
//!  [--l2 X] [--freeze-pst | --only-pst] [--start weights.rs] [--out weights.rs] FILES…`
//!
//! FILES are PGN files (such as `../shared/data/games/ccpd/*.pgn`: their decided and drawn
//! games with a `Result` tag, moves in any notation Chuhe reads) or self-play files from
//! the `selfplay` example. From each
//! game it takes the quiet positions after the first ten plies, labelled with the game's
//! result, fits the scaling constant to the current weights, then the weights, and writes
//! the new `weights.rs` (to stdout without `--out`).

use chuhe_core::notation::parse_any;
use chuhe_core::search::eval::layout;
use chuhe_core::search::tune::{
    FitSettings, Sample, current_weights, error, fit, fit_k, is_quiet, weights_source,
};
use chuhe_core::{Move, Position};

/// The positions of one game: every quiet one after the opening.
fn game_samples(start: Position, moves: &[Move], result: f64, samples: &mut Vec<Sample>) {
    let mut pos = start;
    for (ply, &m) in moves.iter().enumerate() {
        let Ok(next) = pos.play(m) else { return };
        pos = next;
        if ply >= 10 && is_quiet(&pos) {
            samples.push(Sample::new(&pos, result));
        }
    }
}

/// The main lines of the games in a PGN text with a known result, read leniently: tags,
/// then move text whose moves are in any notation; a game stops at its first unreadable
/// move.
fn pgn_games_of(text: &str) -> Vec<(Position, Vec<Move>, f64)> {
    let mut games = Vec::new();
    let mut start = Position::startpos();
    let mut result = None;
    let mut moves = Vec::new();
    let mut pos = start.clone();
    let mut broken = false;
    let mut in_tags = true;
    let mut finish = |start: &Position, moves: &mut Vec<Move>, result: Option<f64>| {
        if let Some(r) = result
            && !moves.is_empty()
        {
            games.push((start.clone(), std::mem::take(moves), r));
        }
        moves.clear();
    };
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[') {
            if !in_tags {
                finish(&start, &mut moves, result);
                start = Position::startpos();
                result = None;
                broken = false;
                in_tags = true;
            }
            let (name, value) = tag.split_once(' ').unwrap_or((tag, ""));
            let value = value.trim_end_matches(']').trim_matches('"');
            match name {
                "FEN" => start = value.parse().unwrap_or_else(|_| Position::startpos()),
                "Result" => {
                    result = match value {
                        "1-0" => Some(1.0),
                        "0-1" => Some(0.0),
                        "1/2-1/2" => Some(0.5),
                        _ => None,
                    }
                }
                _ => {}
            }
            pos = start.clone();
            continue;
        }
        in_tags = false;
        if broken || line.starts_with('{') {
            continue;
        }
        for token in line.split_whitespace() {
            if token.ends_with('.') || token.chars().all(|c| c.is_ascii_digit() || c == '.') {
                continue;
            }
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                break;
            }
            match parse_any(&pos, token) {
                Ok((m, _)) => {
                    pos = pos.play(m).expect("parsed moves are legal");
                    moves.push(m);
                }
                Err(_) => {
                    broken = true;
                    break;
                }
            }
        }
    }
    finish(&start, &mut moves, result);
    games
}

/// The weights written in a `weights.rs` (every `S(mg, eg)` after the table's name), to
/// start a fit from a prior other than the built-in weights.
fn weights_of(source: &str) -> Vec<(f64, f64)> {
    let table = source
        .split_once("WEIGHTS")
        .expect("a weights.rs with a WEIGHTS table")
        .1;
    let weights: Vec<(f64, f64)> = table
        .split("S(")
        .skip(1)
        .map(|entry| {
            let (pair, _) = entry.split_once(')').expect("S(mg, eg)");
            let (mg, eg) = pair.split_once(',').expect("S(mg, eg)");
            let mg: f64 = mg.trim().parse().expect("a whole number");
            (mg, eg.trim().parse().expect("a whole number"))
        })
        .collect();
    assert_eq!(weights.len(), layout::COUNT, "one weight per feature");
    weights
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut epochs = 2000;
    let mut rate = 1.0;
    let mut l2 = 0.0;
    // Each piece has exactly one mobility entry and each side one palace-attack entry, so
    // a table could shift as a whole into the material values (or cancel between the
    // sides): one entry of each stays fixed as its anchor.
    let mut frozen = vec![
        layout::MOB_ROOK + 7..layout::MOB_ROOK + 8,
        layout::MOB_HORSE + 4..layout::MOB_HORSE + 5,
        layout::MOB_CANNON + 7..layout::MOB_CANNON + 8,
        layout::PALACE_ATTACK..layout::PALACE_ATTACK + 1,
    ];
    let mut pst_kept = false;
    let mut only_pst = false;
    let mut out = None;
    let mut start = None;
    let mut files = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--epochs" => {
                epochs = args[i + 1].parse().expect("--epochs N");
                i += 1;
            }
            "--rate" => {
                rate = args[i + 1].parse().expect("--rate R");
                i += 1;
            }
            "--l2" => {
                l2 = args[i + 1].parse().expect("--l2 X");
                i += 1;
            }
            "--freeze-pst" => {
                frozen.push(layout::PST..layout::MOB_ROOK);
                pst_kept = true;
            }
            "--only-pst" => {
                frozen.push(0..layout::PST);
                frozen.push(layout::MOB_ROOK..layout::COUNT);
                only_pst = true;
            }
            "--start" => {
                start = Some(args[i + 1].clone());
                i += 1;
            }
            "--out" => {
                out = Some(args[i + 1].clone());
                i += 1;
            }
            f => files.push(f.to_string()),
        }
        i += 1;
    }
    // Every tenth game is held out to see whether the fit generalises.
    let mut samples = Vec::new();
    let mut held_out = Vec::new();
    let (mut pgn_games, mut selfplay_games) = (0, 0);
    for f in &files {
        let bytes = std::fs::read(f).expect("a readable file");
        let text = String::from_utf8_lossy(&bytes);
        if f.ends_with(".pgn") || f.ends_with(".PGN") {
            for (start, moves, result) in pgn_games_of(&text) {
                if moves.len() >= 20 {
                    pgn_games += 1;
                    let into = if (pgn_games + selfplay_games) % 10 == 9 {
                        &mut held_out
                    } else {
                        &mut samples
                    };
                    game_samples(start, &moves, result, into);
                }
            }
        } else {
            for line in text.lines() {
                let mut parts = line.split('\t');
                let (Some(fen), Some(result), Some(moves)) =
                    (parts.next(), parts.next(), parts.next())
                else {
                    continue;
                };
                let Ok(start) = fen.parse::<Position>() else {
                    continue;
                };
                let result = match result {
                    "1-0" => 1.0,
                    "0-1" => 0.0,
                    _ => 0.5,
                };
                let moves: Vec<Move> = moves
                    .split_whitespace()
                    .filter_map(|m| m.parse().ok())
                    .collect();
                selfplay_games += 1;
                let into = if (pgn_games + selfplay_games) % 10 == 9 {
                    &mut held_out
                } else {
                    &mut samples
                };
                game_samples(start, &moves, result, into);
            }
        }
    }
    eprintln!(
        "{} positions (and {} held out) from {pgn_games} PGN games and {selfplay_games} self-play games",
        samples.len(),
        held_out.len()
    );
    let mut weights = match &start {
        Some(path) => weights_of(&std::fs::read_to_string(path).expect("a readable --start file")),
        None => current_weights(),
    };
    let k = fit_k(&samples, &weights);
    let held_out_before = error(&held_out, &weights, k);
    let before = error(&samples, &weights, k);
    eprintln!("k = {k:.4}, error {before:.6}");
    let settings = FitSettings {
        k,
        epochs,
        learning_rate: rate,
        l2,
        frozen: &frozen,
        // A missing advisor or elephant is never good for its side, whatever attacks it.
        penalties: &[
            layout::KS_ADVISOR..layout::KS_ADVISOR + 4,
            layout::KS_ELEPHANT..layout::KS_ELEPHANT + 4,
        ],
    };
    fit(&samples, &mut weights, settings, |epoch, e| {
        if epoch % 100 == 0 {
            eprintln!("epoch {epoch}: error {e:.6}");
        }
    });
    let after = error(&samples, &weights, k);
    let held_out_after = error(&held_out, &weights, k);
    eprintln!("held out: error {held_out_before:.6} before, {held_out_after:.6} after");
    let provenance = format!(
        "Generated by `core/examples/tune_eval.rs`: fitted by Texel's method (least squares of\n\
         the logistic of the evaluation against game results, k = {k:.4}, ridge {l2:e}{},\n\
         missing advisors and elephants held to penalties) over {} quiet\n\
         positions from {pgn_games} PGN games and {selfplay_games} self-play or match games{}; mean squared\n\
         error {before:.6} before, {after:.6} after {epochs} epochs; on {} held-out\n\
         positions {held_out_before:.6} before, {held_out_after:.6} after.",
        if pst_kept {
            ", piece-square tables kept"
        } else if only_pst {
            ", only the piece-square tables fitted"
        } else {
            ""
        },
        samples.len(),
        match &start {
            Some(path) => format!(",\nstarting from the weights in {path}"),
            None => String::new(),
        },
        held_out.len()
    );
    let source = weights_source(&weights, &provenance);
    match out {
        Some(path) => {
            chuhe_core::atomic::write_atomically(std::path::Path::new(&path), source.as_bytes())
                .expect("the output can be written")
        }
        None => print!("{source}"),
    }
}

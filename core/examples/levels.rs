//! The playing levels against each other: each level plays the next one up from balanced
//! openings, both colours, to show that every level is stronger than the one below.
//! Usage: `cargo run --release -p chuhe-core --example levels -- OPENINGS.tsv [PAIRS] [MS] [FROM]`
//! (the openings file is `../shared/data/openings/match_openings.tsv`; PAIRS openings
//! per match, each played with both colours; level 6 thinks MS milliseconds a move,
//! 1000 by default — the app gives it 3 s without a clock; FROM: the weaker level of the
//! first match, 1 by default).

use chuhe_core::play::{self, Level, Rng};
use chuhe_core::search::{Engine, Options, SearchRoot};
use chuhe_core::{Color, Game, Position};
use std::time::Duration;

/// Plies after which an unfinished game is scored a draw.
const MAX_PLIES: usize = 300;

/// Plays one game; the score of `red` (1, ½ or 0).
fn game(start: &Position, red: Level, black: Level, full_ms: u64, rng: &mut Rng) -> f64 {
    let mut engines =
        [red, black].map(|l| Engine::new(play::engine_options(l, &Options::default())));
    let levels = [red, black];
    let mut game = Game::new(start.clone());
    let mut moves = Vec::new();
    while moves.len() < MAX_PLIES {
        if let Some(outcome) = game.outcome() {
            return match outcome.winner {
                Some(Color::Red) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
        }
        let side = game.position().side_to_move().index();
        let root = SearchRoot::from_moves(start.clone(), &moves).expect("legal moves");
        let level = levels[side];
        let mut limits = play::limits(level, game.position().side_to_move(), None);
        if level == Level::FULL {
            limits.movetime = Some(Duration::from_millis(full_ms));
        }
        let result = engines[side].search(&root, limits);
        let Some((m, _)) = play::choose_from(&result, level, rng) else {
            break;
        };
        game.play(m).expect("the engine plays legal moves");
        moves.push(m);
    }
    0.5
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: levels OPENINGS.tsv [PAIRS]");
        std::process::exit(2);
    };
    let pairs: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let full_ms: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let from: u8 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(path).expect("the openings file");
    let openings: Vec<Position> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next()?.parse().ok())
        .take(pairs)
        .collect();
    let mut rng = Rng::new(2026);
    for pair in Level::ALL.windows(2) {
        let (weak, strong) = (pair[0], pair[1]);
        if weak.number() < from {
            continue;
        }
        let mut score = 0.0;
        let mut games = 0;
        for start in &openings {
            score += game(start, strong, weak, full_ms, &mut rng);
            score += 1.0 - game(start, weak, strong, full_ms, &mut rng);
            games += 2;
        }
        println!(
            "level {} vs level {}: {score}/{games} ({:.1}%)",
            strong.number(),
            weak.number(),
            100.0 * score / games as f64
        );
    }
}

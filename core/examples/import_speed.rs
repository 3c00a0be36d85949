//! Import speed: reads game files as `chuhe-engine convert` does (decoding, parsing,
//! replaying every move through the rules) without writing anything, and prints games per
//! second. A benchmark, not a test:
//!
//! ```text
//! cargo run --release -p chuhe-core --example import_speed -- ../shared/data/games/ccpd/*.pgn
//! ```

use chuhe_core::convert::read_games;
use std::time::Instant;

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: import_speed FILE...");
        std::process::exit(2);
    }
    // The files are read into memory first: the benchmark measures decoding, parsing and
    // replaying, not the disk.
    let files: Vec<Vec<u8>> = paths
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_else(|e| panic!("{p}: {e}")))
        .collect();
    let rounds = 20;
    let mut best = f64::INFINITY;
    let (mut games, mut failed, mut moves) = (0, 0, 0);
    for _ in 0..rounds {
        let start = Instant::now();
        (games, failed, moves) = (0, 0, 0);
        for bytes in &files {
            for game in read_games(bytes) {
                match game {
                    Ok(record) => {
                        games += 1;
                        moves += record.move_count();
                    }
                    Err(_) => failed += 1,
                }
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{games} games ({failed} failed, {moves} moves) in {:.1} ms (best of {rounds}): \
         {:.0} games/s, {:.0} moves/s",
        best * 1e3,
        games as f64 / best,
        moves as f64 / best
    );
}

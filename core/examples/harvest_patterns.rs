//! A tool for building the pattern library: proves the mates of puzzle files, plays each
//! main line to the end and names the patterns the final position shows; `--minimise`
//! strips pieces from a position while the mate (and the pattern's shape) survives.
//!
//! ```text
//! cargo run --release -p chuhe-core --example harvest_patterns -- scan FILE MAXN [--checks-only]
//! cargo run --release -p chuhe-core --example harvest_patterns -- minimise ID FEN
//! cargo run --release -p chuhe-core --example harvest_patterns -- prove FEN MAXN
//! cargo run --release -p chuhe-core --example harvest_patterns -- random ID ATTACKERS DEFENDERS MINN MAXN TRIES SEED
//! ```
//! Output: one JSON object per line.

use chuhe_core::library::patterns::recognise;
use chuhe_core::solver::{SolveOptions, Solver, Verdict};
use chuhe_core::{Move, PieceKind, Position, Setup};
use std::time::Duration;

fn final_of(pos: &Position, line: &[Move]) -> Position {
    let mut p = pos.clone();
    for &m in line {
        p.play_unchecked(m);
    }
    p
}

fn report(solver: &mut Solver, src: &str, pos: &Position, opts: &SolveOptions) {
    let s = solver.solve(pos, opts);
    let Verdict::Mate(k) = s.verdict else {
        return;
    };
    let fin = final_of(pos, &s.line);
    let rec = recognise(&fin, s.line.last().copied());
    let pieces = pos.board().pieces().count();
    let line: Vec<String> = s.line.iter().map(|m| format!("\"{m}\"")).collect();
    println!(
        "{{\"src\":{:?},\"fen\":\"{}\",\"mate_in\":{k},\"line\":[{}],\"check\":{},\"rec\":{:?},\"pieces\":{pieces},\"cooked\":{},\"ms\":{}}}",
        src,
        pos,
        line.join(","),
        fin.is_check(),
        rec,
        s.is_cooked(),
        s.elapsed.as_millis()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut solver = Solver::new(22);
    match args[0].as_str() {
        "scan" => {
            let text = std::fs::read_to_string(&args[1]).unwrap();
            let max: u32 = args[2].parse().unwrap();
            let checks = args.iter().any(|a| a == "--checks-only");
            let mut opts = if checks {
                SolveOptions::checks_only(max)
            } else {
                SolveOptions::mate_in(max)
            };
            opts.time_limit = Some(Duration::from_millis(1500));
            let mut items: Vec<(String, String)> = Vec::new();
            if args[1].ends_with(".json") {
                let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                for o in v.as_array().unwrap() {
                    items.push((
                        format!(
                            "wukong {} ({})",
                            o["id"].as_str().unwrap_or(""),
                            o["description"]
                                .as_str()
                                .unwrap_or("")
                                .replace('\n', "; ")
                                .trim()
                        ),
                        o["fen"].as_str().unwrap_or("").to_string(),
                    ));
                }
            } else {
                let mut name = String::new();
                for l in text.lines() {
                    let l = l.trim_start_matches('\u{feff}');
                    if let Some(r) = l.strip_prefix("[EVENT \"") {
                        name = r.trim_end_matches("\"]").to_string();
                    } else if let Some(r) = l.strip_prefix("[FEN \"") {
                        items.push((name.clone(), r.trim_end_matches("\"]").to_string()));
                    } else if let Some((fen, n)) = l.split_once(" ; ") {
                        items.push((n.to_string(), fen.to_string()));
                    }
                }
            }
            for (src, fen) in items {
                if let Ok(pos) = fen.parse::<Position>() {
                    report(&mut solver, &src, &pos, &opts);
                }
            }
        }
        "prove" => {
            let pos: Position = args[1].parse().unwrap();
            let max: u32 = args[2].parse().unwrap();
            report(&mut solver, "prove", &pos, &SolveOptions::mate_in(max));
        }
        "minimise" => {
            let id: u8 = args[1].parse().unwrap();
            let pos: Position = args[2].parse().unwrap();
            let mut setup = pos.to_setup();
            let mut opts = SolveOptions::mate_in(6);
            opts.time_limit = Some(Duration::from_millis(3000));
            let ok = |solver: &mut Solver, s: &Setup| -> Option<u32> {
                let p = Position::from_setup(s).ok()?;
                let sol = solver.solve(&p, &opts);
                let Verdict::Mate(k) = sol.verdict else {
                    return None;
                };
                // The final position of a line the time limit cut is not a mate.
                if !sol.line_complete {
                    return None;
                }
                let fin = final_of(&p, &sol.line);
                if (id != 36) != fin.is_check() {
                    return None;
                }
                recognise(&fin, sol.line.last().copied())
                    .contains(&id)
                    .then_some(k)
            };
            let Some(mut best) = ok(&mut solver, &setup) else {
                eprintln!("does not show pattern {id}");
                return;
            };
            loop {
                let mut changed = false;
                let squares: Vec<_> = setup.board.pieces().collect();
                for (sq, piece) in squares {
                    if piece.kind == PieceKind::General {
                        continue;
                    }
                    let mut trial = setup.clone();
                    trial.board.set(sq, None);
                    if let Some(k) = ok(&mut solver, &trial)
                        && k <= best
                    {
                        setup = trial;
                        best = k;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            let p = Position::from_setup(&setup).unwrap();
            report(&mut solver, "minimised", &p, &SolveOptions::mate_in(best));
        }
        "random" => random(&mut solver, &args[1..]),
        _ => eprintln!("scan | prove | minimise | random"),
    }
}

/// A small xorshift generator: the tool needs no statistical quality, only variety.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Random positions with the given material (Red attacking, Black's general in its
/// palace), kept when the shortest mate is MINN..=MAXN moves and ends in pattern ID.
fn random(solver: &mut Solver, args: &[String]) {
    use chuhe_core::{Color, Piece, can_stand_on};
    let id: u8 = args[0].parse().unwrap();
    let attackers: Vec<PieceKind> = args[1]
        .chars()
        .map(|c| PieceKind::from_fen_char(c).unwrap())
        .collect();
    let defenders: Vec<PieceKind> = args[2]
        .chars()
        .filter(|&c| c != '-')
        .map(|c| PieceKind::from_fen_char(c).unwrap())
        .collect();
    let min: u32 = args[3].parse().unwrap();
    let max: u32 = args[4].parse().unwrap();
    let tries: usize = args[5].parse().unwrap();
    let mut rng = Rng(args[6].parse::<u64>().unwrap() | 1);
    let mut opts = SolveOptions::mate_in(max);
    opts.time_limit = Some(Duration::from_millis(400));
    let mut found = 0;
    for _ in 0..tries {
        let mut setup = Setup::empty();
        let place = |setup: &mut Setup, piece: Piece, rng: &mut Rng, near: bool| {
            for _ in 0..200 {
                let sq = chuhe_core::Square::ALL[rng.below(90)];
                // Attacking pieces mostly near the enemy palace, where mates happen.
                if near && piece.color == Color::Red && sq.rank().index() < 4 && rng.below(4) != 0 {
                    continue;
                }
                if setup.board.get(sq).is_none() && can_stand_on(piece, sq) {
                    setup.board.set(sq, Some(piece));
                    return;
                }
            }
        };
        place(
            &mut setup,
            Piece::new(Color::Black, PieceKind::General),
            &mut rng,
            true,
        );
        place(
            &mut setup,
            Piece::new(Color::Red, PieceKind::General),
            &mut rng,
            true,
        );
        for &k in &defenders {
            place(&mut setup, Piece::new(Color::Black, k), &mut rng, true);
        }
        for &k in &attackers {
            place(&mut setup, Piece::new(Color::Red, k), &mut rng, true);
        }
        let Ok(pos) = Position::from_setup(&setup) else {
            continue;
        };
        let s = solver.solve(&pos, &opts);
        let Verdict::Mate(k) = s.verdict else {
            continue;
        };
        if k < min || !s.line_complete {
            continue;
        }
        let fin = final_of(&pos, &s.line);
        if (id != 36) != fin.is_check() {
            continue;
        }
        if !recognise(&fin, s.line.last().copied()).contains(&id) {
            continue;
        }
        report(solver, "random", &pos, &SolveOptions::mate_in(k));
        found += 1;
        if found >= 8 {
            break;
        }
    }
}

//! `chuhe-engine db ...`: game collections.
//!
//! - `db import DB INPUT...`: imports game files and folders (PGN in any encoding, XQF,
//!   CBR/CBL/CBF, DhtmlXQ), then prints `imported: <games> games, <positions> positions,
//!   <failed> failed`; each failure goes to standard error with where and why;
//! - `db explore DB (--fen FEN | --moves ICCS...) [--fold-mirror] [--json]`: the moves
//!   played from the position, most played first, with their results;
//! - `db generate DB --games N [--seed S]`: adds N random legal games (for benchmarks);
//! - `db bench DB [--positions N] [--seed S]`: times next-move statistics for N positions
//!   drawn from the collection's games and prints the median, p99 and slowest.

use chuhe_core::db::{Collection, Explore, GeneratorOptions, MoveStats, random_games};
use chuhe_core::notation::parse_move;
use chuhe_core::{Notation, Position};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

const USAGE: &str = "usage: chuhe-engine db import DB INPUT...
       chuhe-engine db explore DB (--fen FEN | --moves ICCS...) [--fold-mirror] [--json]
       chuhe-engine db generate DB --games N [--seed S]
       chuhe-engine db bench DB [--positions N] [--seed S]";

/// Runs `db` with its arguments, printing to `out`.
pub fn command(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let (Some(verb), Some(db)) = (args.first(), args.get(1)) else {
        return Err(USAGE.to_owned());
    };
    let rest = &args[2..];
    let open = || Collection::open(&PathBuf::from(db)).map_err(|e| e.to_string());
    match verb.as_str() {
        "import" => {
            if rest.is_empty() {
                return Err(USAGE.to_owned());
            }
            let mut collection = open()?;
            let inputs: Vec<PathBuf> = rest.iter().map(PathBuf::from).collect();
            let cancel = AtomicBool::new(false);
            let started = Instant::now();
            let report = collection
                .import_paths(&inputs, &cancel, &mut |p| {
                    eprint!(
                        "\r{} / {} files, {} games, {} positions",
                        p.files_done, p.files_total, p.games, p.positions
                    );
                })
                .map_err(|e| e.to_string())?;
            eprintln!();
            for failure in &report.failures {
                eprintln!("failed: {failure}");
            }
            let p = &report.progress;
            if p.duplicates > 0 {
                eprintln!("{} duplicate games merged", p.duplicates);
            }
            eprintln!("{:.2} s", started.elapsed().as_secs_f64());
            writeln!(
                out,
                "imported: {} games, {} positions, {} failed",
                p.games, p.positions, p.failed
            )
            .map_err(io)
        }
        "explore" => {
            let collection = open()?;
            let json = rest.iter().any(|a| a == "--json");
            let fold = rest.iter().any(|a| a == "--fold-mirror");
            let pos = position_of(rest)?;
            let explore = collection.explore(&pos, fold).map_err(|e| e.to_string())?;
            if json {
                let text = serde_json::to_string(&ExploreJson::new(&pos, &explore))
                    .map_err(|e| e.to_string())?;
                writeln!(out, "{text}").map_err(io)
            } else {
                print_table(&pos, &explore, out).map_err(io)
            }
        }
        "generate" => {
            let games: usize = option(rest, "--games")?.ok_or(USAGE)?;
            let seed: u64 = option(rest, "--seed")?.unwrap_or(1);
            let mut collection = open()?;
            let options = GeneratorOptions {
                seed,
                games,
                ..GeneratorOptions::default()
            };
            let started = Instant::now();
            let cancel = AtomicBool::new(false);
            let report = collection
                .import_records(random_games(&options), "generated", &cancel, &mut |p| {
                    eprint!("\r{} games, {} positions", p.games, p.positions)
                })
                .map_err(|e| e.to_string())?;
            eprintln!();
            let p = &report.progress;
            writeln!(
                out,
                "generated: {} games, {} positions in {:.1} s",
                p.games,
                p.positions,
                started.elapsed().as_secs_f64()
            )
            .map_err(io)
        }
        "bench" => {
            let count: usize = option(rest, "--positions")?.unwrap_or(1000);
            let seed: u64 = option(rest, "--seed")?.unwrap_or(1);
            let collection = open()?;
            let positions = collection
                .sample_positions(count, seed)
                .map_err(|e| e.to_string())?;
            let mut times = Vec::with_capacity(positions.len());
            let mut games = 0;
            for pos in &positions {
                let t = Instant::now();
                let e = collection.explore(pos, false).map_err(|e| e.to_string())?;
                times.push(t.elapsed().as_secs_f64() * 1000.0);
                games += e.total.games;
            }
            if times.is_empty() {
                return Err("the collection holds no game".into());
            }
            times.sort_by(f64::total_cmp);
            let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
            writeln!(
                out,
                "explore: {} positions ({} games in all), median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
                times.len(),
                games,
                at(0.5),
                at(0.99),
                at(1.0)
            )
            .map_err(io)
        }
        _ => Err(USAGE.to_owned()),
    }
}

/// The value of `--name VALUE`, if given.
fn option<T: std::str::FromStr>(args: &[String], name: &str) -> Result<Option<T>, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(None),
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .map(Some)
            .ok_or_else(|| format!("{name} needs a number")),
    }
}

/// The position of `--fen FEN` (its fields may come as separate arguments) or of
/// `--moves ICCS...` played from the start.
fn position_of(args: &[String]) -> Result<Position, String> {
    let value = |name: &str| -> Option<Vec<&str>> {
        let i = args.iter().position(|a| a == name)?;
        Some(
            args[i + 1..]
                .iter()
                .take_while(|a| !a.starts_with("--"))
                .map(String::as_str)
                .collect(),
        )
    };
    match (value("--fen"), value("--moves")) {
        (Some(fen), None) => fen
            .join(" ")
            .parse::<Position>()
            .map_err(|e| format!("bad FEN: {e}")),
        (None, Some(moves)) => {
            let mut pos = Position::startpos();
            for (i, text) in moves.iter().enumerate() {
                let m = parse_move(&pos, text, Notation::Iccs)
                    .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
                pos = pos
                    .play(m)
                    .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            }
            Ok(pos)
        }
        _ => Err(format!("give either --fen or --moves\n{USAGE}")),
    }
}

#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    mv: String,
    games: u64,
    red_wins: u64,
    draws: u64,
    black_wins: u64,
}

#[derive(Serialize)]
struct ExploreJson {
    fen: String,
    games: u64,
    red_wins: u64,
    draws: u64,
    black_wins: u64,
    moves: Vec<MoveJson>,
}

impl ExploreJson {
    fn new(pos: &Position, e: &Explore) -> ExploreJson {
        ExploreJson {
            fen: pos.to_string(),
            games: e.total.games,
            red_wins: e.total.red_wins,
            draws: e.total.draws,
            black_wins: e.total.black_wins,
            moves: e
                .moves
                .iter()
                .map(|m| MoveJson {
                    mv: m.mv.map(|m| m.to_string()).unwrap_or_default(),
                    games: m.games,
                    red_wins: m.red_wins,
                    draws: m.draws,
                    black_wins: m.black_wins,
                })
                .collect(),
        }
    }
}

fn percent(part: u64, s: &MoveStats) -> f64 {
    let all = s.decided();
    if all == 0 {
        0.0
    } else {
        100.0 * part as f64 / all as f64
    }
}

fn print_table(pos: &Position, e: &Explore, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "{pos}")?;
    writeln!(out, "{} games", e.total.games)?;
    writeln!(
        out,
        "{:<8}{:<14}{:>8}{:>8}{:>8}{:>8}{:>8}{:>6}",
        "move", "", "games", "red%", "draw%", "black%", "year", "last"
    )?;
    for m in &e.moves {
        let Some(mv) = m.mv else { continue };
        let chinese = chuhe_core::notation::format_move(pos, mv, Notation::Chinese);
        writeln!(
            out,
            "{:<8}{:<14}{:>8}{:>8.1}{:>8.1}{:>8.1}{:>8}{:>6}",
            mv.to_string(),
            chinese,
            m.games,
            percent(m.red_wins, m),
            percent(m.draws, m),
            percent(m.black_wins, m),
            m.average_year()
                .map(|y| format!("{y:.0}"))
                .unwrap_or_default(),
            m.last_year.map(|y| y.to_string()).unwrap_or_default()
        )?;
    }
    Ok(())
}

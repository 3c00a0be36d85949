//! Training data for the evaluation network (see `core/src/search/nnue/data.rs` for the
//! format, and the README for the commands that made the shipped network).
//!
//! ```text
//! cargo run --release -p chuhe-core --example nnue_data -- selfplay OUT --games N
//!     [--nodes 5000] [--threads 2] [--seed 1] [--eval-file NET]
//! cargo run --release -p chuhe-core --example nnue_data -- label OUT INPUT...
//!     [--nodes 1500] [--threads 2]
//! ```
//!
//! `selfplay` plays games of the engine against itself at a fixed number of nodes a
//! move (with the network `--eval-file` when given, else the hand-written evaluation),
//! each from a different start: a line of the built-in opening library cut at a random
//! depth and then two to five random moves, or six to ten random moves from the start
//! position; a start the engine scores beyond ±2.5 pawns is drawn again. Every quiet
//! position after the start (not in check, and the engine's move not a capture, its
//! score within ±20 pawns and no mate) is recorded with the engine's score and, once the
//! game is over, its result.
//!
//! `label` reads game files and folders (PGN, XQF, CCBridge, DhtmlXQ …: master games
//! such as the CCPD set), keeps each game once, and records its quiet main-line
//! positions with a search's score and the game's result (games without one are left
//! out).
//!
//! Both append to OUT (a stopped run keeps what it wrote, a second adds to the first),
//! use `--threads` threads, and give the same positions for the same arguments (the
//! order of games in OUT may vary with the threads).

use chuhe_core::search::nnue::Network;
use chuhe_core::search::nnue::data::{DataWriter, Outcome, Sample};
use chuhe_core::search::{Engine, Limits, Options, Score, SearchRoot};
use chuhe_core::{Color, Move, Position};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

const USAGE: &str = "usage: nnue_data selfplay OUT --games N [--nodes 5000] [--threads 2] [--seed 1] [--eval-file NET]
       nnue_data label OUT INPUT... [--nodes 1500] [--threads 2]";

/// Scores beyond this many centipawns are not recorded (the game is decided).
const RECORD_LIMIT: i32 = 2000;

struct Args {
    command: String,
    out: PathBuf,
    inputs: Vec<PathBuf>,
    games: usize,
    nodes: Option<u64>,
    threads: usize,
    seed: u64,
    network: Option<Arc<Network>>,
}

fn parse() -> Result<Args, String> {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let mut args = Args {
        command: raw.first().cloned().ok_or(USAGE)?,
        out: PathBuf::from(raw.get(1).ok_or(USAGE)?),
        inputs: Vec::new(),
        games: 0,
        nodes: None,
        threads: 2,
        seed: 1,
        network: None,
    };
    let mut i = 2;
    while i < raw.len() {
        let value = |i: usize| raw.get(i + 1).ok_or(format!("{} needs a value", raw[i]));
        let number = |i: usize| -> Result<u64, String> {
            value(i)?
                .parse()
                .map_err(|_| format!("{} needs a number", raw[i]))
        };
        match raw[i].as_str() {
            "--games" => args.games = number(i)? as usize,
            "--nodes" => args.nodes = Some(number(i)?),
            "--threads" => args.threads = number(i)?.max(1) as usize,
            "--seed" => args.seed = number(i)?,
            "--eval-file" => {
                let path = value(i)?;
                let net = Network::load(std::path::Path::new(path))
                    .map_err(|e| format!("{path}: {e}"))?;
                args.network = Some(Arc::new(net));
            }
            other if other.starts_with("--") => return Err(format!("unknown option {other}")),
            input => {
                args.inputs.push(PathBuf::from(input));
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    Ok(args)
}

fn main() {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let writer = match DataWriter::append(&args.out) {
        Ok(w) => Mutex::new(w),
        Err(e) => {
            eprintln!("{}: {e}", args.out.display());
            std::process::exit(1);
        }
    };
    let result = match args.command.as_str() {
        "selfplay" if args.games > 0 => selfplay(&args, &writer),
        "label" if !args.inputs.is_empty() => label(&args, &writer),
        _ => Err(USAGE.to_string()),
    };
    let flushed = writer
        .into_inner()
        .map_err(|_| "a thread failed".to_string())
        .and_then(|mut w| w.flush().map_err(|e| e.to_string()));
    if let Err(e) = result.and(flushed) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

/// xorshift64*: the example's own seeded numbers.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

fn engine_options(args: &Args) -> Options {
    Options {
        // Without tables, so the data does not depend on the user's cache.
        tablebases: false,
        use_nnue: args.network.is_some(),
        network: args.network.clone(),
        ..Options::default()
    }
}

/// The score for the side to move in centipawns, or `None` for a mate or a score
/// beyond the recording limit.
fn recordable(score: Score) -> Option<i32> {
    match score {
        Score::Cp(v) if v.abs() <= RECORD_LIMIT => Some(v),
        _ => None,
    }
}

fn is_quiet(pos: &Position, m: Move) -> bool {
    !pos.is_check() && pos.piece_at(m.to).is_none()
}

/// The shared progress: games and positions written, and when it began.
struct Progress {
    games: AtomicUsize,
    positions: AtomicUsize,
    started: Instant,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            games: AtomicUsize::new(0),
            positions: AtomicUsize::new(0),
            started: Instant::now(),
        }
    }

    fn add(&self, positions: usize) {
        let games = self.games.fetch_add(1, Ordering::Relaxed) + 1;
        let total = self.positions.fetch_add(positions, Ordering::Relaxed) + positions;
        if games.is_multiple_of(100) {
            let secs = self.started.elapsed().as_secs_f64();
            eprintln!(
                "{games} games, {total} positions, {:.0} positions/s",
                total as f64 / secs
            );
        }
    }

    fn finish(&self) {
        let secs = self.started.elapsed().as_secs_f64();
        let (games, total) = (
            self.games.load(Ordering::Relaxed),
            self.positions.load(Ordering::Relaxed),
        );
        println!("{games} games, {total} positions in {secs:.1} s");
    }
}

/// Writes one game's samples at once, so games from several threads do not mix.
fn write_game(writer: &Mutex<DataWriter>, samples: &[Sample]) -> Result<(), String> {
    let mut w = writer.lock().map_err(|_| "a thread failed")?;
    for s in samples {
        w.write(s).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn selfplay(args: &Args, writer: &Mutex<DataWriter>) -> Result<(), String> {
    let book = chuhe_core::library::openings::builtin().map_err(|e| e.to_string())?;
    let lines: Vec<&[Move]> = book.nodes.iter().map(|n| n.moves.as_slice()).collect();
    let next = AtomicUsize::new(0);
    let progress = Progress::new();
    let nodes = args.nodes.unwrap_or(5000);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..args.threads)
            .map(|_| {
                s.spawn(|| -> Result<(), String> {
                    let mut engine = Engine::new(engine_options(args));
                    loop {
                        let g = next.fetch_add(1, Ordering::Relaxed);
                        if g >= args.games {
                            return Ok(());
                        }
                        // Each game's numbers come from the seed and its number alone.
                        let mut rng = Rng::new(args.seed.wrapping_mul(1_000_003) ^ g as u64);
                        let samples = play_game(&mut engine, &mut rng, &lines, nodes);
                        write_game(writer, &samples)?;
                        progress.add(samples.len());
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().map_err(|_| "a thread panicked".to_string())?)
    })?;
    progress.finish();
    Ok(())
}

/// A start drawn at random: a library line cut short and a few random moves, or random
/// moves alone; drawn again until the engine calls it roughly even.
fn random_start(engine: &mut Engine, rng: &mut Rng, lines: &[&[Move]]) -> SearchRoot {
    loop {
        let mut root = SearchRoot::new(Position::startpos());
        let random_plies = if rng.below(2) == 0 {
            let line = lines[rng.below(lines.len())];
            let cut = rng.below(line.len() + 1);
            for &m in &line[..cut] {
                if root.play(m).is_err() {
                    break;
                }
            }
            2 + rng.below(4)
        } else {
            6 + rng.below(5)
        };
        let mut ok = true;
        for _ in 0..random_plies {
            let moves = root.position().legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            let m = moves[rng.below(moves.len())];
            root.play(m)
                .unwrap_or_else(|e| unreachable!("a legal move: {e}"));
        }
        if !ok {
            continue;
        }
        engine.new_game();
        let r = engine.search(&root, Limits::nodes(3000));
        if matches!(r.report.lines.first().map(|l| l.score), Some(Score::Cp(v)) if v.abs() <= 250) {
            return root;
        }
    }
}

fn play_game(engine: &mut Engine, rng: &mut Rng, lines: &[&[Move]], nodes: u64) -> Vec<Sample> {
    let mut root = random_start(engine, rng, lines);
    engine.new_game();
    // (position, score for its side to move); the outcome comes at the end.
    let mut recorded: Vec<(Position, i16)> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let (mut decided, mut quiet_draw, mut plies) = (0, 0, 0);
    let winner: Option<Color> = loop {
        let pos = root.position().clone();
        let us = pos.side_to_move();
        if pos.legal_moves().is_empty() {
            break Some(!us);
        }
        let count = seen.entry(pos.hash()).or_insert(0);
        *count += 1;
        if *count >= 3 || pos.halfmove_clock() >= 120 || plies >= 400 {
            break None;
        }
        let r = engine.search(&root, Limits::nodes(nodes));
        let (Some(line), Some(best)) = (r.report.lines.first(), r.best_move) else {
            break None;
        };
        let score = line.score;
        let red = line.score_for_red(us);
        decided = match red {
            Score::Cp(v) if v.abs() < 1500 => 0,
            _ => decided + 1,
        };
        if decided >= 4 {
            break Some(if red > Score::Cp(0) {
                Color::Red
            } else {
                Color::Black
            });
        }
        quiet_draw = match score {
            Score::Cp(v) if v.abs() <= 8 && plies >= 100 => quiet_draw + 1,
            _ => 0,
        };
        // A repetition the engine judges drawn, or a long stretch both call even.
        if quiet_draw >= 16 || (score == Score::Cp(0) && *count >= 2) {
            break None;
        }
        if let Some(v) = recordable(score).filter(|_| is_quiet(&pos, best)) {
            recorded.push((pos, v as i16));
        }
        root.play(best)
            .unwrap_or_else(|e| unreachable!("the engine plays legal moves: {e}"));
        plies += 1;
    };
    recorded
        .into_iter()
        .map(|(position, score)| {
            let outcome = match winner {
                None => Outcome::Draw,
                Some(c) if c == position.side_to_move() => Outcome::Win,
                Some(_) => Outcome::Loss,
            };
            Sample {
                position,
                score,
                outcome,
            }
        })
        .collect()
}

fn label(args: &Args, writer: &Mutex<DataWriter>) -> Result<(), String> {
    use chuhe_core::gamefile::{self, Damage};
    let mut files = Vec::new();
    for input in &args.inputs {
        game_files(input, &mut files).map_err(|e| format!("{}: {e}", input.display()))?;
    }
    eprintln!("{} files", files.len());
    let next = AtomicUsize::new(0);
    let seen_games: Mutex<HashSet<u64>> = Mutex::new(HashSet::new());
    let progress = Progress::new();
    let nodes = args.nodes.unwrap_or(1500);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..args.threads)
            .map(|_| {
                s.spawn(|| -> Result<(), String> {
                    let mut engine = Engine::new(engine_options(args));
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(path) = files.get(i) else {
                            return Ok(());
                        };
                        let Ok(bytes) = std::fs::read(path) else {
                            eprintln!("{}: cannot be read", path.display());
                            continue;
                        };
                        for record in gamefile::games(&bytes, Some(path), Damage::Refuse)
                            .into_iter()
                            .flatten()
                        {
                            let Some(winner) = (match record.headers().result() {
                                chuhe_core::record::GameResult::RedWins => Some(Some(Color::Red)),
                                chuhe_core::record::GameResult::BlackWins => {
                                    Some(Some(Color::Black))
                                }
                                chuhe_core::record::GameResult::Draw => Some(None),
                                chuhe_core::record::GameResult::Unknown => None,
                            }) else {
                                continue;
                            };
                            let moves = record.main_line_moves();
                            let key = game_key(record.start(), &moves);
                            let fresh = seen_games
                                .lock()
                                .map_err(|_| "a thread failed")?
                                .insert(key);
                            if !fresh {
                                continue;
                            }
                            let samples =
                                label_game(&mut engine, record.start(), &moves, winner, nodes);
                            write_game(writer, &samples)?;
                            progress.add(samples.len());
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().map_err(|_| "a thread panicked".to_string())?)
    })?;
    progress.finish();
    Ok(())
}

/// The game files at `path`: the file itself, or those in the folder and below, in
/// name order.
fn game_files(path: &std::path::Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if !path.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for e in entries {
        if e.is_dir() {
            game_files(&e, out)?;
        } else if chuhe_core::gamefile::has_game_file_extension(&e) {
            out.push(e);
        }
    }
    Ok(())
}

/// One number for a game's start and moves, to keep each game once.
fn game_key(start: &Position, moves: &[Move]) -> u64 {
    let mut h = start.hash();
    for m in moves {
        h = (h ^ (m.from.index() as u64) << 8 ^ m.to.index() as u64)
            .wrapping_mul(0x100_0000_01B3)
            .rotate_left(17);
    }
    h
}

fn label_game(
    engine: &mut Engine,
    start: &Position,
    moves: &[Move],
    winner: Option<Color>,
    nodes: u64,
) -> Vec<Sample> {
    let mut root = SearchRoot::new(start.clone());
    engine.new_game();
    let mut samples = Vec::new();
    for (ply, &m) in moves.iter().enumerate() {
        let pos = root.position().clone();
        // The first plies of master games are the same few openings.
        if ply >= 8 && !pos.is_check() {
            let r = engine.search(&root, Limits::nodes(nodes));
            if let (Some(line), Some(best)) = (r.report.lines.first(), r.best_move)
                && let Some(v) = recordable(line.score).filter(|_| is_quiet(&pos, best))
            {
                let outcome = match winner {
                    None => Outcome::Draw,
                    Some(c) if c == pos.side_to_move() => Outcome::Win,
                    Some(_) => Outcome::Loss,
                };
                samples.push(Sample {
                    position: pos,
                    score: v as i16,
                    outcome,
                });
            }
        }
        if root.play(m).is_err() {
            break;
        }
    }
    samples
}

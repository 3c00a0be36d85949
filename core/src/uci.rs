//! The UCI protocol as Xiangqi engines speak it (Pikafish's dialect), for `chuhe-engine`.
//!
//! Commands: `uci`, `isready`, `setoption name <id> [value <x>]`, `ucinewgame`,
//! `position startpos|fen <FEN> [moves …]`, `go` (with `depth`, `nodes`, `movetime`,
//! `wtime`/`btime`/`winc`/`binc`/`movestogo`, `infinite`, `mate`, `searchmoves`, `ponder`,
//! or `perft N`), `stop`, `ponderhit`, `quit`, and `d` (print the board and FEN). Moves are
//! ICCS coordinates with ranks 0–9 (`h2e2`).
//!
//! The search runs on its own threads, so `isready`, `stop` and `ponderhit` are answered
//! while it thinks; its `info` and `bestmove` lines come from the search thread. Anything
//! unknown or malformed is answered with an `info string error: …` line and the engine
//! carries on with its previous state. At the end of input a search with limits is allowed
//! to finish (so `echo "go depth 10" | chuhe-engine` prints its move); `quit` stops at once.

use crate::perft::divide;
use crate::search::nnue::{self, Network};
use crate::search::{
    Engine, Event, Limits, MoveLimitReading, Options, PvLine, Report, ScoreBound, SearchRoot,
};
use crate::{Move, Position, Rules, Square};
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The `EvalFile` value that names the network built into the program (its default).
const EMBEDDED_NETWORK: &str = "<embedded>";

/// Where the engine's output goes, shared with the search thread.
type Sink = Arc<Mutex<Box<dyn Write + Send>>>;

fn lock(sink: &Sink) -> MutexGuard<'_, Box<dyn Write + Send>> {
    // A panic while writing cannot leave the writer in a state worth refusing.
    sink.lock().unwrap_or_else(|e| e.into_inner())
}

/// The weakest and strongest `UCI_Elo`; the levels between map linearly onto the skill
/// levels 0–20 (a rough scale, not measured against rated players).
const ELO_MIN: u32 = 1000;
const ELO_MAX: u32 = 2600;

/// The engine's protocol state: the current position with its history, the options, and
/// the search engine.
pub struct Uci {
    sink: Sink,
    root: SearchRoot,
    engine: Engine,
    skill_level: u8,
    limit_strength: bool,
    elo: u32,
    /// Whether the natural move limit applies, and after how many moves (each side)
    /// without a capture: 60 by the Chinese rules; a referee may count 50.
    move_limit_on: bool,
    move_limit: u32,
    /// Whether the current search may end by itself (not `infinite`, not pondering).
    search_is_finite: bool,
}

/// What the caller should do after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was received.
    Quit,
}

impl Uci {
    /// A fresh engine at the start position, writing to `out`.
    pub fn with_output(out: impl Write + Send + 'static) -> Uci {
        Uci {
            sink: Arc::new(Mutex::new(Box::new(out))),
            root: SearchRoot::new(Position::startpos()),
            // Playing under some GUI's or referee's idea of the chase rules, the engine
            // does not count on winning by the opponent's chases.
            engine: Engine::new(Options {
                trust_chase_wins: false,
                ..Options::default()
            }),
            skill_level: 20,
            limit_strength: false,
            elo: ELO_MAX,
            move_limit_on: true,
            move_limit: Rules::CHINESE_MOVE_LIMIT_PLIES / 2,
            search_is_finite: true,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.root.position()
    }

    /// Reads commands from `input` until `quit` or end of input.
    pub fn run(&mut self, input: impl BufRead) -> io::Result<()> {
        for line in input.lines() {
            let line = match line {
                Ok(l) => l,
                // Not UTF-8: say so and go on with the next line.
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    self.say("info string error: input is not UTF-8")?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            if self.handle(&line)? == Flow::Quit {
                return Ok(());
            }
        }
        if !self.search_is_finite {
            self.engine.signal_stop();
        }
        self.engine.wait();
        Ok(())
    }

    fn say(&self, line: &str) -> io::Result<()> {
        let mut out = lock(&self.sink);
        writeln!(out, "{line}")?;
        out.flush()
    }

    /// Handles one command line.
    pub fn handle(&mut self, line: &str) -> io::Result<Flow> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(Flow::Continue);
        };
        let args: Vec<&str> = words.collect();
        match command {
            "uci" => self.say(&uci_banner())?,
            "isready" => self.say("readyok")?,
            "setoption" => {
                if let Err(e) = self.set_option(&args) {
                    self.say(&format!("info string error: {e}"))?;
                }
            }
            "ucinewgame" => {
                self.engine.new_game();
                self.root = SearchRoot::new(Position::startpos());
            }
            "position" => match parse_position_with_history(&args) {
                Ok(root) => {
                    self.engine.stop();
                    self.root = root;
                }
                Err(e) => self.say(&format!("info string error: {e}"))?,
            },
            "go" => self.go(&args)?,
            "stop" => self.engine.signal_stop(),
            "ponderhit" => self.engine.ponderhit(),
            "d" => {
                self.engine.stop();
                write_board(self.root.position(), &mut *lock(&self.sink))?;
            }
            "quit" => {
                self.engine.stop();
                return Ok(Flow::Quit);
            }
            other => self.say(&format!("info string error: unknown command {other:?}"))?,
        }
        lock(&self.sink).flush()?;
        Ok(Flow::Continue)
    }

    fn set_option(&mut self, args: &[&str]) -> Result<(), String> {
        let value_at = args.iter().position(|&w| w.eq_ignore_ascii_case("value"));
        let (name, value) = match (args.first(), value_at) {
            (Some(n), Some(v)) if n.eq_ignore_ascii_case("name") => {
                (args[1..v].join(" "), args[v + 1..].join(" "))
            }
            (Some(n), None) if n.eq_ignore_ascii_case("name") => {
                (args[1..].join(" "), String::new())
            }
            _ => return Err("expected 'setoption name <id> [value <x>]'".into()),
        };
        let number = |min: u64, max: u64| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| {
                    format!("option {name:?} needs a number from {min} to {max}, not {value:?}")
                })
        };
        let boolean = || -> Result<bool, String> {
            match value.to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(format!(
                    "option {name:?} needs true or false, not {value:?}"
                )),
            }
        };
        let mut options = self.engine.options().clone();
        match name.to_ascii_lowercase().as_str() {
            "hash" => options.hash_mb = number(1, 65_536)? as usize,
            "threads" => options.threads = number(1, 256)? as usize,
            "multipv" => options.multipv = number(1, 128)? as usize,
            "clear hash" => {
                self.engine.new_game();
                return Ok(());
            }
            // The engine ponders when the GUI says `go ponder`; the option only tells the
            // GUI that it can.
            "ponder" => {
                boolean()?;
                return Ok(());
            }
            "skill level" => self.skill_level = number(0, 20)? as u8,
            "uci_limitstrength" => self.limit_strength = boolean()?,
            "uci_elo" => self.elo = number(ELO_MIN as u64, ELO_MAX as u64)? as u32,
            "move overhead" => options.move_overhead = Duration::from_millis(number(0, 5000)?),
            "sixty move rule" => self.move_limit_on = boolean()?,
            "move limit" => self.move_limit = number(10, 500)? as u32,
            "repetition count" => options.rules.repetitions = number(3, 4)? as u8,
            "move limit checks" => {
                options.move_limit_reading = match value.to_ascii_lowercase().as_str() {
                    "claimant" => MoveLimitReading::Claimant,
                    "most" => MoveLimitReading::MostChecks,
                    _ => {
                        return Err(format!(
                            "option {name:?} needs Claimant or Most, not {value:?}"
                        ));
                    }
                }
            }
            "evalfile" => {
                options.network = if value.is_empty() || value == "<empty>" {
                    None
                } else if value == EMBEDDED_NETWORK {
                    Some(nnue::embedded())
                } else {
                    let net = Network::load(Path::new(&value)).map_err(|e| e.to_string())?;
                    Some(Arc::new(net))
                };
            }
            "use nnue" => options.use_nnue = boolean()?,
            _ => return Err(format!("unknown option {name:?}")),
        }
        options.rules.move_limit_plies = self.move_limit_on.then_some(2 * self.move_limit);
        options.skill_level = if self.limit_strength {
            ((self.elo - ELO_MIN) * 20 / (ELO_MAX - ELO_MIN)) as u8
        } else {
            self.skill_level
        };
        self.engine.set_options(options);
        Ok(())
    }

    fn go(&mut self, args: &[&str]) -> io::Result<()> {
        if let ["perft", depth] = args {
            match depth.parse::<u32>() {
                Ok(d) => {
                    self.engine.stop();
                    let mut pos = self.root.position().clone();
                    write_perft(&mut pos, d, &mut *lock(&self.sink))?;
                }
                Err(_) => self.say(&format!(
                    "info string error: perft depth {depth:?} is not a number"
                ))?,
            }
            return Ok(());
        }
        let limits = match parse_go(args, self.root.position()) {
            Ok(l) => l,
            Err(e) => return self.say(&format!("info string error: {e}")),
        };
        let options = self.engine.options();
        if options.use_nnue && options.network.is_none() {
            self.say(
                "info string error: Use NNUE is on but no network is loaded (set EvalFile); \
                 searching with the hand-written evaluation",
            )?;
        }
        self.search_is_finite = !limits.infinite && !limits.ponder;
        let sink = self.sink.clone();
        self.engine.start(&self.root, limits, move |event| {
            // A closed output means the GUI is gone; nothing is left to tell it.
            let _ = write_event(&mut *lock(&sink), &event);
        });
        Ok(())
    }
}

/// The reply to `uci`: the engine's name and its options.
fn uci_banner() -> String {
    let d = Options::default();
    [
        format!("id name Chuhe {}", env!("CARGO_PKG_VERSION")),
        "id author the Chuhe developers".into(),
        format!(
            "option name Hash type spin default {} min 1 max 65536",
            d.hash_mb
        ),
        format!(
            "option name Threads type spin default {} min 1 max 256",
            d.threads
        ),
        format!(
            "option name MultiPV type spin default {} min 1 max 128",
            d.multipv
        ),
        "option name Clear Hash type button".into(),
        "option name Ponder type check default false".into(),
        format!(
            "option name Skill Level type spin default {} min 0 max 20",
            d.skill_level
        ),
        "option name UCI_LimitStrength type check default false".into(),
        format!("option name UCI_Elo type spin default {ELO_MAX} min {ELO_MIN} max {ELO_MAX}"),
        format!(
            "option name Move Overhead type spin default {} min 0 max 5000",
            d.move_overhead.as_millis()
        ),
        "option name Sixty Move Rule type check default true".into(),
        format!(
            "option name Move Limit type spin default {} min 10 max 500",
            Rules::CHINESE_MOVE_LIMIT_PLIES / 2
        ),
        format!(
            "option name Repetition Count type spin default {} min 3 max 4",
            d.rules.repetitions
        ),
        // Whose checks the move limit's count leaves out: the claimant's (the rules), or
        // those of the side that gave most, drawn without a claim (Fairy-Stockfish).
        "option name Move Limit Checks type combo default Claimant var Claimant var Most".into(),
        // The evaluation network: the built-in one, a weights file or none, and whether to
        // evaluate with it.
        format!("option name EvalFile type string default {EMBEDDED_NETWORK}"),
        format!("option name Use NNUE type check default {}", d.use_nnue),
        "uciok".into(),
    ]
    .join("\n")
}

/// Parses the arguments of `go` (other than `perft`).
pub fn parse_go(args: &[&str], pos: &Position) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut i = 0;
    let number = |i: usize| -> Result<u64, String> {
        let word = args
            .get(i + 1)
            .ok_or_else(|| format!("go {} needs a number", args[i]))?;
        word.parse()
            .map_err(|_| format!("go {}: {word:?} is not a number", args[i]))
    };
    let millis = |i: usize| number(i).map(Duration::from_millis);
    while i < args.len() {
        match args[i] {
            "depth" => limits.depth = Some(number(i)?.min(u32::MAX as u64) as u32),
            "nodes" => limits.nodes = Some(number(i)?),
            "movetime" => limits.movetime = Some(millis(i)?),
            "mate" => limits.mate = Some(number(i)?.min(u32::MAX as u64) as u32),
            "wtime" => limits.time[0] = Some(millis(i)?),
            "btime" => limits.time[1] = Some(millis(i)?),
            "winc" => limits.increment[0] = millis(i)?,
            "binc" => limits.increment[1] = millis(i)?,
            "movestogo" => limits.moves_to_go = Some(number(i)?.min(u32::MAX as u64) as u32),
            "infinite" => {
                limits.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                limits.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                i += 1;
                while let Some(m) = args.get(i).and_then(|w| w.parse::<Move>().ok()) {
                    if !pos.is_legal(m) {
                        return Err(format!("searchmoves: {m} is not legal here"));
                    }
                    limits.search_moves.push(m);
                    i += 1;
                }
                continue;
            }
            other => return Err(format!("go: unknown or misplaced word {other:?}")),
        }
        i += 2;
    }
    Ok(limits)
}

/// Writes a search event as UCI lines: `info` for iterations (and, after three seconds,
/// for aspiration re-searches), `bestmove … [ponder …]` at the end.
fn write_event(out: &mut dyn Write, event: &Event) -> io::Result<()> {
    match event {
        Event::Iteration(report) => write_info(out, report)?,
        Event::Bound(report) if report.elapsed >= Duration::from_secs(3) => {
            write_info(out, report)?
        }
        Event::Bound(_) | Event::Progress(_) => return Ok(()),
        Event::Done(result) => {
            if result.report.depth == 0 {
                write_info(out, &result.report)?;
            }
            match (result.best_move, result.ponder) {
                (Some(m), Some(p)) => writeln!(out, "bestmove {m} ponder {p}")?,
                (Some(m), None) => writeln!(out, "bestmove {m}")?,
                (None, _) => writeln!(out, "bestmove (none)")?,
            }
        }
    }
    out.flush()
}

fn write_info(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    for line in &report.lines {
        writeln!(out, "{}", info_line(report, line))?;
    }
    Ok(())
}

/// One `info` line for `line` of `report`.
pub fn info_line(report: &Report, line: &PvLine) -> String {
    let bound = match line.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    let pv: Vec<String> = line.moves.iter().map(Move::to_string).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} hashfull {} time {} pv {}",
        line.depth,
        line.seldepth,
        line.multipv,
        line.score,
        report.nodes,
        report.nps,
        report.hashfull,
        report.elapsed.as_millis(),
        pv.join(" ")
    )
    .trim_end()
    .to_string()
}

/// Parses the arguments of `position`: `startpos` or `fen <FEN>`, then `moves m1 m2 …`.
pub fn parse_position(args: &[&str]) -> Result<Position, String> {
    parse_position_with_history(args).map(|root| root.position().clone())
}

/// Like [`parse_position`], keeping the positions the moves pass through (for the
/// repetition rules).
pub fn parse_position_with_history(args: &[&str]) -> Result<SearchRoot, String> {
    let moves_at = args
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(args.len());
    let (spec, moves) = (&args[..moves_at], args.get(moves_at + 1..).unwrap_or(&[]));
    let start =
        match spec {
            ["startpos"] => Position::startpos(),
            ["fen", fen @ ..] if !fen.is_empty() => fen
                .join(" ")
                .parse::<Position>()
                .map_err(|e| e.to_string())?,
            _ => return Err(
                "expected 'position startpos' or 'position fen <FEN>', then optionally 'moves …'"
                    .into(),
            ),
        };
    let mut root = SearchRoot::new(start);
    for (i, text) in moves.iter().enumerate() {
        let m: Move = text
            .parse()
            .map_err(|e| format!("move {} {text:?}: {e}", i + 1))?;
        root.play(m)
            .map_err(|e| format!("move {} {text:?}: {e}", i + 1))?;
    }
    Ok(root)
}

/// Writes `go perft` output: one `<move>: <count>` line per root move, a blank line, then
/// `Nodes searched: <total>`. Returns the total.
pub fn write_perft(pos: &mut Position, depth: u32, out: &mut impl Write) -> io::Result<u64> {
    let split = divide(pos, depth);
    let total = if depth == 0 {
        1
    } else {
        split.iter().map(|&(_, n)| n).sum()
    };
    for (m, n) in &split {
        writeln!(out, "{m}: {n}")?;
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    Ok(total)
}

/// Writes the board as text (Black at the top, ICCS coordinates around it), the FEN and
/// the hash key.
pub fn write_board(pos: &Position, out: &mut impl Write) -> io::Result<()> {
    writeln!(out)?;
    for rank in (0..10u8).rev() {
        write!(out, " {rank} ")?;
        for file in 0..9u8 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let c = pos.piece_at(sq).map_or('.', |p| p.fen_char());
            write!(out, " {c}")?;
        }
        writeln!(out)?;
        if rank == 5 {
            writeln!(out, "    ~~~~~~~~~~~~~~~~~")?;
        }
    }
    writeln!(out, "    a b c d e f g h i")?;
    writeln!(out)?;
    writeln!(out, "Fen: {pos}")?;
    writeln!(out, "Key: {:016X}", pos.hash())?;
    let checkers = pos.checkers_of(pos.side_to_move());
    let names: Vec<String> = checkers.iter().map(|s| s.to_string()).collect();
    writeln!(out, "Checkers: {}", names.join(" "))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose bytes the test can read while the engine holds it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn go_parses_every_limit() {
        let pos = Position::startpos();
        let l = parse_go(
            &"wtime 60000 btime 30000 winc 1000 binc 500 movestogo 20"
                .split(' ')
                .collect::<Vec<_>>(),
            &pos,
        )
        .unwrap();
        assert_eq!(
            l.time,
            [Some(Duration::from_secs(60)), Some(Duration::from_secs(30))]
        );
        assert_eq!(
            l.increment,
            [Duration::from_secs(1), Duration::from_millis(500)]
        );
        assert_eq!(l.moves_to_go, Some(20));
        let l = parse_go(&["depth", "7", "nodes", "5000", "mate", "3"], &pos).unwrap();
        assert_eq!((l.depth, l.nodes, l.mate), (Some(7), Some(5000), Some(3)));
        let l = parse_go(&["infinite", "searchmoves", "h2e2", "b0c2"], &pos).unwrap();
        assert!(l.infinite);
        assert_eq!(l.search_moves.len(), 2);
        let l = parse_go(&["ponder", "movetime", "100"], &pos).unwrap();
        assert!(l.ponder && l.movetime == Some(Duration::from_millis(100)));
        assert!(parse_go(&["depth", "x"], &pos).is_err());
        assert!(parse_go(&["depth"], &pos).is_err());
        assert!(parse_go(&["searchmoves", "a0a5"], &pos).is_err());
        assert!(parse_go(&["sideways"], &pos).is_err());
    }

    #[test]
    fn options_are_listed_and_set() {
        let out = Shared::default();
        let mut uci = Uci::with_output(out.clone());
        uci.handle("uci").unwrap();
        let text = out.text();
        for name in [
            "Hash",
            "Threads",
            "MultiPV",
            "Clear Hash",
            "Ponder",
            "Skill Level",
            "UCI_LimitStrength",
            "UCI_Elo",
            "Sixty Move Rule",
            "Move Limit",
            "Repetition Count",
            "Move Limit Checks",
            "EvalFile",
            "Use NNUE",
        ] {
            assert!(text.contains(&format!("option name {name} type")), "{name}");
        }
        for cmd in [
            "setoption name Hash value 8",
            "setoption name Threads value 2",
            "setoption name MultiPV value 3",
            "setoption name Clear Hash",
            "setoption name Sixty Move Rule value false",
            "setoption name Repetition Count value 4",
            "setoption name UCI_LimitStrength value true",
            "setoption name UCI_Elo value 1800",
        ] {
            uci.handle(cmd).unwrap();
        }
        let o = uci.engine.options();
        assert_eq!((o.hash_mb, o.threads, o.multipv), (8, 2, 3));
        assert_eq!(o.rules.move_limit_plies, None);
        assert_eq!(o.rules.repetitions, 4);
        assert_eq!(o.skill_level, 10);
        // A referee's 50-move rule: the limit counts once the rule is back on.
        uci.handle("setoption name Move Limit value 50").unwrap();
        assert_eq!(uci.engine.options().rules.move_limit_plies, None);
        uci.handle("setoption name Sixty Move Rule value true")
            .unwrap();
        assert_eq!(uci.engine.options().rules.move_limit_plies, Some(100));
        assert_eq!(
            uci.engine.options().move_limit_reading,
            MoveLimitReading::Claimant
        );
        uci.handle("setoption name Move Limit Checks value Most")
            .unwrap();
        assert_eq!(
            uci.engine.options().move_limit_reading,
            MoveLimitReading::MostChecks
        );
        uci.handle("setoption name Repetition Count value 5")
            .unwrap();
        uci.handle("setoption name Frobnicate value 1").unwrap();
        assert_eq!(out.text().matches("info string error").count(), 2);
    }

    #[test]
    fn isready_is_answered_while_searching_and_stop_gives_the_move() {
        let out = Shared::default();
        let mut uci = Uci::with_output(out.clone());
        uci.handle("position startpos moves h2e2").unwrap();
        uci.handle("go infinite").unwrap();
        uci.handle("isready").unwrap();
        assert!(out.text().contains("readyok"));
        assert!(!out.text().contains("bestmove"));
        uci.handle("stop").unwrap();
        uci.engine.wait();
        let text = out.text();
        let last = text.lines().last().unwrap();
        assert!(last.starts_with("bestmove "), "{text}");
        let m: Move = last.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(uci.position().is_legal(m));
    }

    #[test]
    fn the_network_is_loaded_by_evalfile_and_switched_by_use_nnue() {
        let out = Shared::default();
        let mut uci = Uci::with_output(out.clone());
        // The built-in network is loaded and used from the start.
        let built_in = nnue::embedded();
        assert_eq!(uci.engine.options().network.as_deref(), Some(&*built_in));
        assert!(uci.engine.options().active_network().is_some());
        // On with no network: said at the search, which keeps the hand-written evaluation.
        uci.handle("setoption name EvalFile value <empty>").unwrap();
        assert!(uci.engine.options().network.is_none());
        uci.handle("setoption name Use NNUE value true").unwrap();
        uci.handle("go depth 2").unwrap();
        uci.engine.wait();
        assert!(
            out.text()
                .contains("info string error: Use NNUE is on but no network is loaded"),
            "{}",
            out.text()
        );
        let dir = std::env::temp_dir().join(format!("chuhe-uci-nnue-{}", std::process::id()));
        let path = dir.join("net 1.nnue");
        let net = Network::random(4);
        net.save(&path).unwrap();
        uci.handle(&format!("setoption name EvalFile value {}", path.display()))
            .unwrap();
        assert_eq!(uci.engine.options().network.as_deref(), Some(&net));
        assert!(uci.engine.options().active_network().is_some());
        uci.handle("setoption name Use NNUE value false").unwrap();
        assert!(uci.engine.options().active_network().is_none());
        // A damaged file is refused and the loaded network stays.
        let mut bytes = net.to_bytes();
        bytes.truncate(1000);
        std::fs::write(&path, &bytes).unwrap();
        let before = out.text().matches("info string error").count();
        uci.handle(&format!("setoption name EvalFile value {}", path.display()))
            .unwrap();
        let text = out.text();
        assert_eq!(text.matches("info string error").count(), before + 1);
        assert!(text.contains("ends at byte 1000"), "{text}");
        assert_eq!(uci.engine.options().network.as_deref(), Some(&net));
        uci.handle("setoption name EvalFile value <empty>").unwrap();
        assert!(uci.engine.options().network.is_none());
        // The default's name brings the built-in network back.
        uci.handle("setoption name EvalFile value <embedded>")
            .unwrap();
        assert_eq!(uci.engine.options().network.as_deref(), Some(&*built_in));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

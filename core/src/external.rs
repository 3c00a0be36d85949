//! External UCI engines (Pikafish and the like) as an analysis service with the same
//! updates as the built-in one ([`crate::analysis::Update`]).
//!
//! An engine is another program, so nothing it does may take the caller down: it may fail
//! to start, never answer, die in the middle of a search or write lines that make no
//! sense. Every wait here is bounded; a silent engine is killed and reported as
//! [`ExternalError::NotResponding`], a dead one as [`ExternalError::Exited`], and a line
//! that cannot be read (an unknown move in a PV, say) is dropped and reported as an
//! [`ExternalEvent::Warning`] while the analysis goes on.
//!
//! The engine is given the game's start position and its moves (`position fen … moves …`),
//! not only the current position, so that it can apply the repetition rules.

use crate::analysis::{UPDATES_PER_SECOND, Update};
use crate::search::{PvLine, Report, Score, ScoreBound};
use crate::{Color, Move, Position};
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The longest line read from an engine; anything beyond is cut (an engine writing
/// megabytes without a newline must not eat the memory).
const MAX_LINE: u64 = 64 * 1024;

/// How to start an external engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The program.
    pub path: PathBuf,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// `setoption` values sent after the handshake, by option name.
    pub options: Vec<(String, String)>,
    /// How long the engine may take to answer `uci` and `isready`, and to stop.
    pub timeout: Duration,
}

impl EngineConfig {
    /// A program with no arguments or options and a 10-second timeout.
    pub fn new(path: impl Into<PathBuf>) -> EngineConfig {
        EngineConfig {
            path: path.into(),
            args: Vec::new(),
            options: Vec::new(),
            timeout: Duration::from_secs(10),
        }
    }
}

/// An option the engine declares (`option name … type …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Its name, as the engine spells it.
    pub name: String,
    /// Its type and range.
    pub kind: OptionKind,
}

/// The UCI option types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// On or off.
    Check { default: bool },
    /// A whole number in a range.
    Spin { default: i64, min: i64, max: i64 },
    /// One of several words.
    Combo {
        default: String,
        choices: Vec<String>,
    },
    /// An action without a value.
    Button,
    /// Free text (often a path).
    Text { default: String },
}

/// What the engine says of itself during the handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    /// `id name`.
    pub name: String,
    /// `id author`.
    pub author: String,
    /// The options it declares, in its order.
    pub options: Vec<EngineOption>,
}

impl EngineInfo {
    /// The declared option called `name` (UCI option names are case-insensitive).
    pub fn option(&self, name: &str) -> Option<&EngineOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }
}

/// Why an external engine cannot be used (any more).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExternalError {
    /// The program could not be started.
    Spawn { path: PathBuf, reason: String },
    /// It did not finish the handshake (`uciok`, `readyok`) in time.
    NoHandshake { waited: Duration },
    /// It stopped answering (no `bestmove` after `stop`, no `readyok`).
    NotResponding { waited: Duration },
    /// It ended, with this exit code if it had one.
    Exited { code: Option<i32> },
    /// Writing to it failed.
    Io { reason: String },
}

impl fmt::Display for ExternalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExternalError::Spawn { path, reason } => {
                write!(f, "cannot start {}: {reason}", path.display())
            }
            ExternalError::NoHandshake { waited } => {
                write!(f, "no answer to the UCI handshake within {waited:?}")
            }
            ExternalError::NotResponding { waited } => {
                write!(f, "the engine stopped answering (waited {waited:?})")
            }
            ExternalError::Exited { code: Some(code) } => {
                write!(f, "the engine exited with code {code}")
            }
            ExternalError::Exited { code: None } => write!(f, "the engine was killed"),
            ExternalError::Io { reason } => write!(f, "cannot talk to the engine: {reason}"),
        }
    }
}

impl std::error::Error for ExternalError {}

/// Something the engine wrote that Chuhe could not use; the analysis goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalWarning {
    /// The line, cut to 200 characters.
    pub line: String,
    /// What was wrong with it.
    pub reason: WarningReason,
}

/// Why a line was dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WarningReason {
    /// A move in it is not a legal move (or not a move at all) where it stands.
    BadMove(String),
    /// A number or score that does not parse.
    BadValue(String),
    /// Not a line of the protocol.
    Unknown,
}

/// What [`ExternalAnalysis::poll`] hands on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExternalEvent {
    /// The engine's current view, as the built-in service reports it.
    Update(Update),
    /// A line was dropped.
    Warning(ExternalWarning),
    /// The engine failed; it has been stopped and this analysis is over.
    Failed(ExternalError),
}

/// A line from the engine, or its end.
enum Incoming {
    Line(String),
    Closed,
}

/// A running external engine, analysing on request.
pub struct ExternalAnalysis {
    config: EngineConfig,
    info: EngineInfo,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Incoming>,
    /// The analysed position, its side to move, and when the analysis began.
    current: Option<Current>,
    multipv: usize,
    analysis_id: u64,
    failed: bool,
    last_sent: Option<Instant>,
    /// The state of the analysis last stopped, for [`ExternalAnalysis::stop`].
    last_state: Option<Update>,
}

struct Current {
    position: Position,
    started: Instant,
    state: Update,
    dirty: bool,
}

impl ExternalAnalysis {
    /// Starts the program and completes the UCI handshake (`uci` … `uciok`, the options,
    /// `isready` … `readyok`), waiting at most the configured timeout for each answer.
    pub fn start(config: EngineConfig) -> Result<ExternalAnalysis, ExternalError> {
        let mut child = Command::new(&config.path)
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ExternalError::Spawn {
                path: config.path.clone(),
                reason: e.to_string(),
            })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = channel();
        std::thread::Builder::new()
            .name("chuhe-external-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let mut bytes = Vec::new();
                    match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut bytes) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Incoming::Closed);
                            return;
                        }
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&bytes).trim().to_owned();
                            if tx.send(Incoming::Line(line)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(|e| ExternalError::Io {
                reason: e.to_string(),
            })?;
        let mut engine = ExternalAnalysis {
            config,
            info: EngineInfo::default(),
            child,
            stdin,
            lines,
            current: None,
            multipv: 1,
            analysis_id: 0,
            failed: false,
            last_sent: None,
            last_state: None,
        };
        engine.handshake().inspect_err(|_| engine.kill())?;
        Ok(engine)
    }

    fn handshake(&mut self) -> Result<(), ExternalError> {
        self.send("uci")?;
        let timeout = self.config.timeout;
        let mut info = EngineInfo::default();
        self.wait_for(timeout, |line| {
            if let Some(name) = line.strip_prefix("id name ") {
                info.name = name.trim().to_owned();
            } else if let Some(author) = line.strip_prefix("id author ") {
                info.author = author.trim().to_owned();
            } else if let Some(option) = parse_option(line) {
                info.options.push(option);
            }
            line == "uciok"
        })
        .map_err(|e| match e {
            ExternalError::NotResponding { waited } => ExternalError::NoHandshake { waited },
            e => e,
        })?;
        if info.name.is_empty() {
            info.name = self
                .config
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
        }
        self.info = info;
        for (name, value) in self.config.options.clone() {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.ready().map_err(|e| match e {
            ExternalError::NotResponding { waited } => ExternalError::NoHandshake { waited },
            e => e,
        })
    }

    /// What the engine said of itself.
    pub fn info(&self) -> &EngineInfo {
        &self.info
    }

    /// Asks for this many lines (when the engine has a `MultiPV` option).
    pub fn set_multipv(&mut self, lines: usize) -> Result<(), ExternalError> {
        self.multipv = lines.max(1);
        if self.info.option("MultiPV").is_some() {
            let restart = self.current.is_some();
            self.halt()?;
            self.send(&format!("setoption name MultiPV value {}", self.multipv))?;
            if restart {
                self.go()?;
            }
        }
        Ok(())
    }

    /// Analyses the position after `moves` from `start` until stopped (`go infinite`).
    /// A running analysis is stopped first. The moves are legal moves of the game; an
    /// illegal one is refused before anything is sent.
    pub fn analyse(&mut self, start: &Position, moves: &[Move]) -> Result<(), ExternalError> {
        let mut position = start.clone();
        for &m in moves {
            position = position.play(m).map_err(|e| ExternalError::Io {
                reason: format!("illegal move {m} in the game: {e}"),
            })?;
        }
        self.halt()?;
        let mut command = format!("position fen {start}");
        if !moves.is_empty() {
            command.push_str(" moves");
            for m in moves {
                command.push(' ');
                command.push_str(&m.to_string());
            }
        }
        self.send(&command)?;
        self.analysis_id += 1;
        let side = position.side_to_move();
        self.current = Some(Current {
            position,
            started: Instant::now(),
            state: empty_update(self.analysis_id, side),
            dirty: false,
        });
        self.go()
    }

    fn go(&mut self) -> Result<(), ExternalError> {
        if let Some(current) = &mut self.current {
            current.started = Instant::now();
        }
        self.send("go infinite")
    }

    /// Stops the analysis and returns its last state, waiting at most the configured
    /// timeout for the engine's `bestmove`.
    pub fn stop(&mut self) -> Result<Option<Update>, ExternalError> {
        let was = self.current.is_some();
        self.halt()?;
        Ok(was
            .then(|| self.last_state.take())
            .flatten()
            .map(|mut last| {
                last.finished = true;
                last
            }))
    }

    /// Sends `stop` and reads up to the `bestmove` (the lines on the way still count).
    fn halt(&mut self) -> Result<(), ExternalError> {
        let Some(current) = self.current.take() else {
            return Ok(());
        };
        self.send("stop")?;
        let mut current = current;
        let timeout = self.config.timeout;
        let result = self.wait_for(timeout, |line| {
            if line.starts_with("bestmove") {
                return true;
            }
            // Lines that cannot be read were reported while the analysis ran.
            let _ = apply_info(&mut current, line);
            false
        });
        current.state.report.elapsed = current.started.elapsed();
        self.last_state = Some(current.state);
        result.inspect_err(|_| {
            self.failed = true;
            self.kill();
        })
    }

    /// Reads lines until `done` says so, or the timeout, or the end of the engine.
    fn wait_for(
        &mut self,
        timeout: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<(), ExternalError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Incoming::Line(line)) => {
                    if done(&line) {
                        return Ok(());
                    }
                }
                Ok(Incoming::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.exited());
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(ExternalError::NotResponding { waited: timeout });
                }
            }
        }
    }

    fn ready(&mut self) -> Result<(), ExternalError> {
        self.send("isready")?;
        let timeout = self.config.timeout;
        self.wait_for(timeout, |line| line == "readyok")
    }

    /// What happened since the last call: at most about ten updates a second (the newest
    /// state), warnings, or the engine's failure. Never blocks.
    pub fn poll(&mut self) -> Vec<ExternalEvent> {
        let mut events = Vec::new();
        if self.failed {
            return events;
        }
        loop {
            match self.lines.try_recv() {
                Ok(Incoming::Line(line)) => {
                    if let Some(current) = &mut self.current
                        && let Err(w) = apply_info(current, &line)
                    {
                        events.push(ExternalEvent::Warning(w));
                    }
                }
                Ok(Incoming::Closed) | Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    let error = self.exited();
                    self.failed = true;
                    self.current = None;
                    events.push(ExternalEvent::Failed(error));
                    return events;
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => break,
            }
        }
        let interval = Duration::from_secs(1) / UPDATES_PER_SECOND;
        if let Some(current) = &mut self.current
            && current.dirty
            && self.last_sent.is_none_or(|t| t.elapsed() >= interval)
        {
            current.dirty = false;
            current.state.report.elapsed = current.started.elapsed();
            self.last_sent = Some(Instant::now());
            events.push(ExternalEvent::Update(current.state.clone()));
        }
        events
    }

    /// Whether an analysis is running.
    pub fn is_running(&self) -> bool {
        self.current.is_some()
    }

    fn send(&mut self, command: &str) -> Result<(), ExternalError> {
        let result = writeln!(self.stdin, "{command}").and_then(|()| self.stdin.flush());
        result.map_err(|e| {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                self.exited()
            } else {
                ExternalError::Io {
                    reason: e.to_string(),
                }
            }
        })
    }

    /// The engine's exit, waiting a moment for it to be reaped.
    fn exited(&mut self) -> ExternalError {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    return ExternalError::Exited {
                        code: status.code(),
                    };
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => {
                    self.kill();
                    return ExternalError::Exited { code: None };
                }
            }
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ExternalAnalysis {
    fn drop(&mut self) {
        // A polite quit first; an engine that ignores it is killed after a moment.
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + Duration::from_millis(300);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

fn empty_update(analysis_id: u64, side_to_move: Color) -> Update {
    Update {
        analysis_id,
        report: Report {
            depth: 0,
            seldepth: 0,
            nodes: 0,
            nps: 0,
            hashfull: 0,
            elapsed: Duration::ZERO,
            side_to_move,
            lines: Vec::new(),
        },
        finished: false,
    }
}

/// The first words of the lines an engine may write while it analyses.
const KNOWN_LINES: &[&str] = &[
    "info",
    "bestmove",
    "readyok",
    "id",
    "option",
    "uciok",
    "copyprotection",
    "registration",
];

fn warning(line: &str, reason: WarningReason) -> ExternalWarning {
    ExternalWarning {
        line: line.chars().take(200).collect(),
        reason,
    }
}

/// Takes an `info` line into the analysis state. Lines of other kinds are ignored when
/// the protocol knows them and reported when it does not.
fn apply_info(current: &mut Current, line: &str) -> Result<(), ExternalWarning> {
    let mut words = line.split_whitespace().peekable();
    let Some(first) = words.next() else {
        return Ok(());
    };
    if first != "info" {
        return if KNOWN_LINES.contains(&first) {
            Ok(())
        } else {
            Err(warning(line, WarningReason::Unknown))
        };
    }
    let mut depth = None;
    let mut multipv = 1usize;
    let mut score = None;
    let mut bound = ScoreBound::Exact;
    let mut pv: Option<Vec<Move>> = None;
    let mut stats: Vec<(&str, u64)> = Vec::new();
    let number = |word: Option<&str>, key: &str| -> Result<u64, ExternalWarning> {
        word.and_then(|w| w.parse::<u64>().ok())
            .ok_or_else(|| warning(line, WarningReason::BadValue(key.to_owned())))
    };
    while let Some(key) = words.next() {
        match key {
            "depth" => depth = Some(number(words.next(), key)? as u32),
            "multipv" => multipv = number(words.next(), key)?.max(1) as usize,
            "seldepth" | "nodes" | "nps" | "hashfull" | "time" => {
                stats.push((key, number(words.next(), key)?));
            }
            "score" => {
                let kind = words.next();
                let value = words
                    .next()
                    .and_then(|w| w.parse::<i32>().ok())
                    .ok_or_else(|| warning(line, WarningReason::BadValue("score".into())))?;
                score = Some(match kind {
                    Some("cp") => Score::Cp(value),
                    Some("mate") => Score::Mate(value),
                    _ => return Err(warning(line, WarningReason::BadValue("score".into()))),
                });
                match words.peek() {
                    Some(&"lowerbound") => {
                        bound = ScoreBound::Lower;
                        words.next();
                    }
                    Some(&"upperbound") => {
                        bound = ScoreBound::Upper;
                        words.next();
                    }
                    _ => {}
                }
            }
            "pv" => {
                let mut position = current.position.clone();
                let mut moves = Vec::new();
                for word in words.by_ref() {
                    let legal = word
                        .parse::<Move>()
                        .ok()
                        .and_then(|m| position.play(m).ok().map(|next| (m, next)));
                    let Some((m, next)) = legal else {
                        return Err(warning(line, WarningReason::BadMove(word.to_owned())));
                    };
                    moves.push(m);
                    position = next;
                }
                pv = Some(moves);
            }
            // The rest of the line is free text.
            "string" => break,
            // currmove, currmovenumber, tbhits, cpuload, wdl …: not shown.
            _ => {}
        }
    }
    let state = &mut current.state.report;
    let mut line_seldepth = None;
    for (key, value) in stats {
        match key {
            "seldepth" => {
                state.seldepth = value as u32;
                line_seldepth = Some(value as u32);
            }
            "nodes" => state.nodes = value,
            "nps" => state.nps = value,
            "hashfull" => state.hashfull = value as u32,
            _ => {}
        }
    }
    if let (Some(score), Some(moves)) = (score, pv)
        && !moves.is_empty()
    {
        let depth = depth.unwrap_or(state.depth);
        if multipv == 1 {
            state.depth = depth;
        }
        let line = PvLine {
            multipv,
            depth,
            // The line's own when the engine says it, else the deepest so far.
            seldepth: line_seldepth.unwrap_or(state.seldepth),
            score,
            bound,
            moves,
        };
        match state.lines.iter_mut().find(|l| l.multipv == multipv) {
            Some(old) => *old = line,
            None => {
                state.lines.push(line);
                state.lines.sort_by_key(|l| l.multipv);
            }
        }
    }
    current.dirty = true;
    Ok(())
}

/// Reads `option name <name words> type <kind> [default …] [min …] [max …] [var …]…`.
fn parse_option(line: &str) -> Option<EngineOption> {
    let rest = line.strip_prefix("option name ")?;
    let (name, rest) = rest.split_once(" type ")?;
    let mut words = rest.split_whitespace();
    let kind = words.next()?;
    // Values may hold spaces (`default <empty>`, paths); collect them per keyword.
    let mut default = String::new();
    let mut min = 0i64;
    let mut max = 0i64;
    let mut choices = Vec::new();
    let mut key = "";
    let mut value = Vec::new();
    let mut flush = |key: &str, value: &mut Vec<&str>| {
        let text = value.join(" ");
        value.clear();
        match key {
            "default" => default = text,
            "min" => min = text.parse().unwrap_or(0),
            "max" => max = text.parse().unwrap_or(0),
            "var" => choices.push(text),
            _ => {}
        }
    };
    for word in words {
        if matches!(word, "default" | "min" | "max" | "var") {
            flush(key, &mut value);
            key = word;
        } else {
            value.push(word);
        }
    }
    flush(key, &mut value);
    let default = if default == "<empty>" {
        String::new()
    } else {
        default
    };
    let kind = match kind {
        "check" => OptionKind::Check {
            default: default == "true",
        },
        "spin" => OptionKind::Spin {
            default: default.parse().unwrap_or(min),
            min,
            max,
        },
        "combo" => OptionKind::Combo { default, choices },
        "button" => OptionKind::Button,
        "string" => OptionKind::Text { default },
        _ => return None,
    };
    Some(EngineOption {
        name: name.trim().to_owned(),
        kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_with_their_ranges_and_choices() {
        let spin = parse_option("option name Hash type spin default 16 min 1 max 33554432");
        assert_eq!(
            spin.unwrap(),
            EngineOption {
                name: "Hash".into(),
                kind: OptionKind::Spin {
                    default: 16,
                    min: 1,
                    max: 33554432
                }
            }
        );
        let combo = parse_option(
            "option name Repetition Rule type combo default Asian Rule var Asian Rule var Chinese Rule",
        )
        .unwrap();
        assert_eq!(
            combo.kind,
            OptionKind::Combo {
                default: "Asian Rule".into(),
                choices: vec!["Asian Rule".into(), "Chinese Rule".into()]
            }
        );
        let text = parse_option("option name EvalFile type string default <empty>").unwrap();
        assert_eq!(text.name, "EvalFile");
        assert_eq!(
            text.kind,
            OptionKind::Text {
                default: String::new()
            }
        );
        assert_eq!(
            parse_option("option name Clear Hash type button")
                .unwrap()
                .name,
            "Clear Hash"
        );
        assert_eq!(parse_option("option name X type slider default 1"), None);
        assert_eq!(parse_option("option garbage"), None);
    }

    fn current(fen: &str) -> Current {
        let position: Position = fen.parse().unwrap();
        let side = position.side_to_move();
        Current {
            position,
            started: Instant::now(),
            state: empty_update(1, side),
            dirty: false,
        }
    }

    #[test]
    fn info_lines_fill_the_lines_with_scores_for_both_sides() {
        let mut c =
            current("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
        apply_info(
            &mut c,
            "info depth 7 seldepth 11 multipv 2 score cp 25 upperbound nodes 5000 nps 100000 hashfull 3 time 50 pv h7e7 h0g2",
        )
        .unwrap();
        apply_info(&mut c, "info depth 7 multipv 1 score mate 3 pv b9c7").unwrap();
        let s = &c.state.report;
        assert_eq!(
            (s.depth, s.seldepth, s.nodes, s.nps, s.hashfull),
            (7, 11, 5000, 100000, 3)
        );
        assert_eq!(s.lines.len(), 2);
        assert_eq!(s.lines[0].score, Score::Mate(3));
        assert_eq!(s.lines[0].score_for_red(s.side_to_move), Score::Mate(-3));
        assert_eq!(s.lines[1].score_for_red(s.side_to_move), Score::Cp(-25));
        assert_eq!((s.lines[0].seldepth, s.lines[1].seldepth), (11, 11));
        assert_eq!(s.lines[1].bound, ScoreBound::Upper);
        assert_eq!(s.lines[1].moves.len(), 2);
        assert!(c.dirty);
    }

    #[test]
    fn unreadable_lines_are_reported_not_taken() {
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let mut c = current(start);
        let bad_move = apply_info(&mut c, "info depth 3 score cp 20 pv h2e2 h2e2").unwrap_err();
        assert_eq!(bad_move.reason, WarningReason::BadMove("h2e2".into()));
        let not_a_move = apply_info(&mut c, "info depth 3 score cp 20 pv z9z9").unwrap_err();
        assert_eq!(not_a_move.reason, WarningReason::BadMove("z9z9".into()));
        let bad_score = apply_info(&mut c, "info depth 3 score cp lots pv h2e2").unwrap_err();
        assert_eq!(bad_score.reason, WarningReason::BadValue("score".into()));
        let noise = apply_info(&mut c, "\u{fffd}\u{fffd} bzzt").unwrap_err();
        assert_eq!(noise.reason, WarningReason::Unknown);
        assert!(c.state.report.lines.is_empty());
        apply_info(&mut c, "info string NNUE evaluation using nn.bin").unwrap();
        apply_info(&mut c, "bestmove h2e2").unwrap();
        assert!(c.state.report.lines.is_empty());
    }
}

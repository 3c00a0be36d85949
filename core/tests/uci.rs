//! The `chuhe-engine` binary as other tools see it: the UCI dialogue and the `perft`
//! subcommand's output format.

use std::io::Write;
use std::process::{Command, Stdio};

fn engine(args: &[&str], input: &str) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

#[test]
fn handshake() {
    let (out, _, ok) = engine(&[], "uci\nisready\nquit\n");
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("id name Chuhe"));
    assert!(lines.contains(&"uciok"));
    assert_eq!(lines.last(), Some(&"readyok"));
}

#[test]
fn go_perft_prints_each_root_move_then_the_total() {
    let (out, _, ok) = engine(&[], "position startpos\ngo perft 2\nquit\n");
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    let blank = lines
        .iter()
        .position(|l| l.is_empty())
        .expect("a blank line");
    let mut sum = 0;
    for l in &lines[..blank] {
        let (m, n) = l.split_once(": ").expect("<move>: <count>");
        assert_eq!(m.len(), 4, "{l}");
        sum += n.parse::<u64>().unwrap();
    }
    assert_eq!(lines[blank + 1], format!("Nodes searched: {sum}"));
    // The published counts: 44 moves from the start, 1,920 positions two plies deep.
    assert_eq!(blank, 44, "{out}");
    assert_eq!(sum, 1920);
}

#[test]
fn position_fen_and_d() {
    let fen = "3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w - - 0 1";
    let (out, _, _) = engine(&[], &format!("position fen {fen} moves d6e6\nd\nquit\n"));
    assert!(
        out.contains("Fen: 3k5/4P4/4b4/4C4/4c4/9/9/9/9/5K3 b - - 1 1"),
        "{out}"
    );
    assert!(out.contains("Key: "));
}

#[test]
fn bad_input_gets_an_error_line_and_the_engine_goes_on() {
    let input = "\
        frobnicate\n\
        position fen rnbakabnr/9/1c5c1/pXp1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\n\
        position startpos moves h2e2 e6e5 zz\n\
        position startpos moves a0a5\n\
        position\n\
        go perft x\n\
        go depth x\n\
        isready\n\
        d\n\
        quit\n";
    let (out, _, ok) = engine(&[], input);
    assert!(ok);
    let errors: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 7, "{out}");
    assert!(errors[1].contains("byte 19"), "{}", errors[1]);
    assert!(errors[3].contains("a0a5"), "{}", errors[3]);
    assert!(out.contains("readyok"));
    // The bad commands left the start position in place.
    assert!(
        out.contains("Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
    );
}

#[test]
fn perft_subcommand() {
    let (out, _, ok) = engine(&["perft", "3"], "");
    assert!(ok);
    assert!(out.contains("\n\nNodes searched: 79666\nTime: "), "{out}");
    assert!(out.lines().last().unwrap().starts_with("Nodes/second: "));
    let (out, _, ok) = engine(&["perft", "2", "4k4/9/9/9/9/9/9/9/9/3K5", "w"], "");
    assert!(ok);
    assert!(out.contains("Nodes searched: "), "{out}");
    let (_, err, ok) = engine(&["perft", "2", "not a fen"], "");
    assert!(!ok);
    assert!(err.contains("FEN error"), "{err}");
}

#[test]
fn eval_subcommand() {
    let fen = "2Raka3/6r2/9/p3NP2p/6p2/7R1/P4nP1P/4B4/3rA4/1cBAK2N1 w - - 1 32";
    let (out, _, ok) = engine(&["eval", fen], "");
    assert!(ok, "{out}");
    let pos: chuhe_core::Position = fen.parse().unwrap();
    // Red is to move, so Red's evaluation is the side to move's.
    let expected = chuhe_core::search::eval::evaluate(&pos);
    assert!(
        out.ends_with(&format!("Evaluation (Red): {expected} cp\n")),
        "{out}"
    );
    let material = out.lines().find(|l| l.starts_with("material")).unwrap();
    assert_eq!(material.split_whitespace().count(), 3, "{material}");
    let (_, err, ok) = engine(&["eval", "not a fen"], "");
    assert!(!ok);
    assert!(err.contains("FEN error"), "{err}");
    let (_, err, ok) = engine(&["eval"], "");
    assert!(!ok);
    assert!(err.contains("eval needs a FEN"), "{err}");
}

/// A running engine driven line by line, as a GUI drives it.
struct Session {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(std::time::Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no {prefix:?} line; got {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }
}

fn bestmove(lines: &[String]) -> (String, Option<String>) {
    let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert_eq!(words[0], "bestmove", "{lines:?}");
    let ponder = (words.get(2) == Some(&"ponder")).then(|| words[3].to_string());
    (words[1].to_string(), ponder)
}

#[test]
fn a_gui_session() {
    let mut s = Session::start();
    s.send("uci");
    let banner = s.until("uciok");
    assert!(
        banner
            .iter()
            .any(|l| l == "option name MultiPV type spin default 1 min 1 max 128")
    );
    s.send("setoption name Hash value 32");
    s.send("setoption name Threads value 2");
    s.send("isready");
    s.until("readyok");
    s.send("ucinewgame");
    s.send("position startpos moves h2e2 h9g7");
    s.send("go depth 6");
    let lines = s.until("bestmove");
    // Every iteration is reported, in UCI's format, with a legal principal variation.
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 6, "{lines:?}");
    for (d, info) in infos.iter().enumerate() {
        let w: Vec<&str> = info.split_whitespace().collect();
        assert_eq!(w[2], (d + 1).to_string());
        for key in [
            "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
        ] {
            assert!(w.contains(&key), "{key} missing: {info}");
        }
        let pv = &w[w.iter().position(|&x| x == "pv").unwrap() + 1..];
        let mut pos = chuhe_core::Position::startpos();
        for m in ["h2e2", "h9g7"] {
            pos = pos.play(m.parse().unwrap()).unwrap();
        }
        for m in pv {
            pos = pos.play(m.parse().unwrap()).expect("the pv is legal");
        }
    }
    let (best, ponder) = bestmove(&lines);
    assert_eq!(
        Some(&best.as_str()),
        infos
            .last()
            .unwrap()
            .split_whitespace()
            .skip_while(|&w| w != "pv")
            .nth(1)
            .as_ref()
    );
    assert!(ponder.is_some());

    // Multi-PV: one line per rank at each depth.
    s.send("setoption name MultiPV value 3");
    s.send("position startpos");
    s.send("go depth 4");
    let lines = s.until("bestmove");
    let last_depth: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    assert_eq!(last_depth.len(), 3, "{lines:?}");
    for (i, l) in last_depth.iter().enumerate() {
        assert!(l.contains(&format!(" multipv {} ", i + 1)), "{l}");
    }
    s.send("setoption name MultiPV value 1");

    // Fixed time, a clock, and a node count all end by themselves.
    s.send("go movetime 200");
    bestmove(&s.until("bestmove"));
    s.send("go wtime 2000 btime 2000 winc 100 binc 100 movestogo 20");
    bestmove(&s.until("bestmove"));
    s.send("go nodes 5000");
    bestmove(&s.until("bestmove"));

    // Infinite analysis waits for stop, answering isready meanwhile.
    s.send("go infinite");
    s.send("isready");
    let lines = s.until("readyok");
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    s.send("stop");
    bestmove(&s.until("bestmove"));

    // Pondering waits for the opponent's move; ponderhit turns the clock on.
    s.send("position startpos moves h2e2");
    s.send("go ponder wtime 1000 btime 1000");
    s.send("isready");
    s.until("readyok");
    s.send("ponderhit");
    bestmove(&s.until("bestmove"));

    // searchmoves restricts the root; mate finds the mate.
    s.send("position startpos");
    s.send("go depth 3 searchmoves a3a4");
    assert_eq!(bestmove(&s.until("bestmove")).0, "a3a4");
    s.send("position fen 2Rckab1C/4a4/4R3n/p5p2/9/2N6/2P5P/C5r2/4K4/2B2A3 w - - 0 1");
    s.send("go mate 1");
    let lines = s.until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1 ")),
        "{lines:?}"
    );
    assert_eq!(bestmove(&lines).0, "e7e8");

    // No legal move: mated, and nothing to play.
    s.send("position fen 3k5/9/3P5/9/9/9/9/9/9/4K4 b - - 0 1");
    s.send("go depth 2");
    let lines = s.until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("score mate 0")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove (none)");

    s.send("quit");
    assert!(s.child.wait().unwrap().success());
}

#[test]
fn end_of_input_lets_a_limited_search_finish() {
    let (out, _, ok) = engine(&[], "position startpos\ngo depth 5\n");
    assert!(ok);
    assert!(out.contains("info depth 5 "), "{out}");
    assert!(out.lines().last().unwrap().starts_with("bestmove "));
}

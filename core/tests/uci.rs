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
        go depth 3\n\
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

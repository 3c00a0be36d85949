//! `chuhe-engine solve` driven as a program: the `--json` line and the text report.
//! (The JSON is parsed and checked field by field in chuhe-tests; here the binary's own
//! output is checked for the contracted fields and values.)

use std::process::Command;

fn solve(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .arg("solve")
        .args(args)
        .output()
        .expect("chuhe-engine runs");
    (
        out.status.success(),
        String::from_utf8(out.stdout).expect("UTF-8 output"),
        String::from_utf8(out.stderr).expect("UTF-8 errors"),
    )
}

// 1. 车二平五 (pinning the advisor) 将5平6 2. 车五进七: the unique mate in two.
const MATE_IN_TWO: &str = "4k4/4a4/9/9/9/9/9/9/7R1/3K5 w - - 0 1";

#[test]
fn json_is_one_object_with_the_contracted_fields() {
    let (ok, out, err) = solve(&["--fen", MATE_IN_TWO, "--mate", "3", "--json"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    let json = lines[0];
    let prefix = format!(
        "{{\"fen\":\"{MATE_IN_TWO}\",\"mate_in\":2,\"first_moves\":[\"h1e1\"],\"line\":[\"h1e1\",\"e9f9\",\"e1e8\"],\"nodes\":"
    );
    assert!(json.starts_with(&prefix), "{json}");
    let rest = &json[prefix.len()..];
    let (nodes, ms) = rest
        .strip_suffix('}')
        .and_then(|r| r.split_once(",\"ms\":"))
        .unwrap_or_else(|| panic!("{json}"));
    assert!(nodes.parse::<u64>().unwrap() > 0, "{json}");
    ms.parse::<u64>().unwrap_or_else(|_| panic!("{json}"));
}

#[test]
fn json_says_null_without_a_mate() {
    let (ok, out, err) = solve(&["--fen", MATE_IN_TWO, "--mate", "1", "--json"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("\"mate_in\":null,\"first_moves\":[],\"line\":[],"),
        "{out}"
    );
}

#[test]
fn text_report_names_the_line_in_chinese_and_iccs() {
    let (ok, out, err) = solve(&["--fen", MATE_IN_TWO, "--mate", "3"]);
    assert!(ok, "{err}");
    assert!(out.contains("mate in 2\n"), "{out}");
    assert!(
        out.contains("line: 1. 车二平五 将５平６ 2. 车五进七\n"),
        "{out}"
    );
    assert!(out.contains("line (ICCS): h1e1 e9f9 e1e8\n"), "{out}");
    assert!(out.contains("first moves: h1e1 车二平五\n"), "{out}");
    assert!(out.contains("nodes: "), "{out}");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for args in [
        &["--fen", "not a fen", "--mate", "2"][..],
        &["--fen", MATE_IN_TWO][..],
        &["--fen", MATE_IN_TWO, "--mate", "zero"][..],
        &["--wukong", "/nonexistent/file.json", "--mate", "2"][..],
        &["--fen", MATE_IN_TWO, "--pns"][..],
    ] {
        let (ok, _, err) = solve(args);
        assert!(!ok, "{args:?}");
        assert!(err.starts_with("chuhe-engine: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

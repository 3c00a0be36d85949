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
fn a_composed_position_is_solved_with_a_warning_on_stderr() {
    // MATE_IN_TWO with a Red pawn on its own back rank and an elephant across the river.
    let fen = "4k4/4a4/B8/9/9/9/9/9/7R1/P2K5 w - - 0 1";
    let (ok, out, err) = solve(&["--fen", fen, "--mate", "3", "--json"]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    let prefix = format!(
        "{{\"fen\":\"{fen}\",\"mate_in\":2,\"first_moves\":[\"h1e1\"],\"line\":[\"h1e1\",\"e9f9\",\"e1e8\"],\"nodes\":"
    );
    assert!(out.starts_with(&prefix), "{out}");
    let warnings: Vec<&str> = err.lines().collect();
    assert_eq!(warnings.len(), 2, "{err}");
    assert!(warnings.iter().all(|w| w.starts_with("warning: ")), "{err}");
    assert!(err.contains("a0") && err.contains("a7"), "{err}");
    // A general outside its palace is still refused.
    let (ok, _, err) = solve(&[
        "--fen",
        "4k4/9/9/9/9/9/9/9/7R1/6K2 w - - 0 1",
        "--mate",
        "2",
    ]);
    assert!(!ok && err.contains("g0"), "{err}");
    // A batch names the puzzle the warning is about.
    let dir = std::env::temp_dir().join(format!("chuhe-solve-composed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("composed.fen");
    std::fs::write(&list, format!("{MATE_IN_TWO}\n{fen}\n")).unwrap();
    let (ok, out, err) = solve(&["--fens", list.to_str().unwrap(), "--mate", "3"]);
    assert!(ok, "{err}");
    assert!(out.contains("line 2"), "{out}");
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(
        err.lines().all(|l| l.starts_with("warning: line 2: ")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    // An ordinary position warns of nothing.
    let (ok, _, err) = solve(&["--fen", MATE_IN_TWO, "--mate", "3", "--json"]);
    assert!(ok && err.is_empty(), "{err}");
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

#[test]
fn a_batch_ends_with_the_solved_by_time_and_the_slowest_ten() {
    let dir = std::env::temp_dir().join(format!("chuhe-solve-summary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("twelve.fen");
    // Eleven mates in two and one position without a mate in one.
    let mut fens = vec![MATE_IN_TWO; 11];
    fens.push("4k4/4a4/4b4/9/9/9/9/9/7R1/3K5 w - - 0 1");
    std::fs::write(&list, fens.join("\n")).unwrap();
    let (ok, out, err) = solve(&[
        "--fens",
        list.to_str().unwrap(),
        "--mate",
        "2",
        "--time-limit",
        "30",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("solved within 1 s: "))
        .unwrap_or_else(|| panic!("{out}"));
    // How many took under 1 s or 5 s depends on the machine; the rest does not.
    let counts: Vec<usize> = lines[at]
        .split("; ")
        .map(|part| part.rsplit(": ").next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 4, "{}", lines[at]);
    assert!(
        counts[0] <= counts[1] && counts[1] <= counts[2],
        "{}",
        lines[at]
    );
    assert!(
        lines[at].ends_with("; within the limit (30 s): 11; not solved: 1"),
        "{}",
        lines[at]
    );
    assert_eq!(lines[at + 1], "slowest ten:", "{out}");
    let slowest = &lines[at + 2..at + 12];
    let ms = |l: &str| -> u64 {
        let (_, ms) = l.rsplit_once('\t').unwrap();
        ms.strip_suffix(" ms").unwrap().parse().unwrap()
    };
    for (i, l) in slowest.iter().enumerate() {
        assert!(l.starts_with("  line "), "{out}");
        assert!(
            l.contains("\tmate 2\t") || l.contains("\tnone<=2\t"),
            "{out}"
        );
        if i > 0 {
            assert!(ms(l) <= ms(slowest[i - 1]), "{out}");
        }
    }
    assert!(!lines[at + 12].starts_with("  "), "ten, not more: {out}");
    // Where the system tells each thread's CPU time, the same counts by it.
    if std::path::Path::new("/proc/thread-self/schedstat").exists() {
        let cpu = lines[at + 12];
        assert!(cpu.starts_with("by CPU time: solved within 1 s: "), "{out}");
        assert!(
            cpu.ends_with("; within the limit (30 s): 11; not solved: 1"),
            "{out}"
        );
    }
}

//! `chuhe-engine library --json` driven as a program: one JSON document holding the whole
//! opening tree and all 36 checkmate patterns, for checking the content outside the app.

use std::process::Command;

#[test]
fn library_json_holds_the_opening_tree_and_the_36_patterns() {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .args(["library", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    let nodes = doc["openings"]["nodes"].as_array().expect("opening nodes");
    assert!(nodes.len() > 150, "{} opening nodes", nodes.len());
    let patterns = doc["patterns"].as_array().expect("patterns");
    assert_eq!(patterns.len(), 36);
    for pattern in patterns {
        let examples = pattern["examples"].as_array().expect("examples");
        assert!(examples.len() >= 2, "{pattern}");
        for example in examples {
            assert!(
                example["fen"].is_string() && example["line"].is_array(),
                "{example}"
            );
        }
    }
}

#[test]
fn library_without_json_is_refused_with_the_usage() {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .args(["library"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--json"));
}

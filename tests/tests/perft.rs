//! Move generation against independent reference counts: every row of
//! `../shared/data/perft.tsv` (Fairy-Stockfish, cross-checked with Pikafish, ElephantEye and
//! pyffish) and the positions of `notation/perft_xiangqi.json`.

use chuhe_core::Position;
use chuhe_core::perft::perft;
use chuhe_tests::shared_data;

#[test]
fn every_row_of_perft_tsv_matches() {
    let text = std::fs::read_to_string(shared_data("perft.tsv")).expect("readable");
    let mut rows = 0;
    let mut mismatches = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 3, "line {}: expected fen, depth, nodes", i + 1);
        let mut pos: Position = cols[0]
            .parse()
            .unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let depth: u32 = cols[1].parse().expect("depth");
        let expected: u64 = cols[2].parse().expect("nodes");
        let got = perft(&mut pos, depth);
        if got != expected {
            mismatches.push(format!(
                "{} depth {depth}: expected {expected}, got {got}",
                cols[0]
            ));
        }
        rows += 1;
    }
    assert!(rows >= 100, "perft.tsv has {rows} rows, expected about 107");
    assert!(
        mismatches.is_empty(),
        "perft mismatches:\n{}",
        mismatches.join("\n")
    );
}

/// Entries above this many nodes are benchmarks (`chuhe-engine perft`), not tests.
const TEST_NODE_LIMIT: u64 = 60_000_000;

#[test]
fn perft_xiangqi_json_positions_match() {
    let text =
        std::fs::read_to_string(shared_data("notation/perft_xiangqi.json")).expect("readable");
    let entries: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let entries = entries.as_array().expect("a list of positions");
    let mut checked = 0;
    for e in entries {
        let fen = e["fen"].as_str().expect("fen");
        let nodes = e["nodes"].as_object().expect("nodes by depth");
        for (depth, expected) in nodes {
            let depth: u32 = depth.parse().expect("depth");
            let expected = expected.as_u64().expect("count");
            if expected > TEST_NODE_LIMIT {
                continue;
            }
            let mut pos: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(perft(&mut pos, depth), expected, "{fen} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} counts checked");
}

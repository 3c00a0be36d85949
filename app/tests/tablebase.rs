//! Endgame tables in the app, driven like a user: paste a KR v K position, read the
//! table's verdict, practise it against the table's defence until mate.

// Its own test binary: the app's tables are process-wide and cached in the directory of the
// first app opened in the process, which is this test's only here.
#[allow(dead_code)]
#[path = "app/common.rs"]
mod common;

use common::{open_in, temp_dir, wait_for};
use egui::Event;
use egui_kittest::kittest::Queryable as _;
use std::time::Duration;

#[test]
fn kr_v_k_verdict_and_practice() {
    let dir = temp_dir("tablebase", "kr_v_k");
    let mut harness = open_in(&dir);
    // Red mates in 3 plies, two of its moves, whoever moves would lose for Black: 例胜.
    harness.event(Event::Paste("4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1".into()));
    harness.run_ok();
    // The small table is fetched in the background as soon as the board shows it.
    wait_for(&mut harness, Duration::from_secs(120), |app| {
        let pos = app.state.position();
        app.state.tablebase.analysis_of(pos).is_some()
    });
    harness.run_ok();
    harness.get_by_label_contains("例胜：红方 2 步杀");
    // The material is named in words, not as the code KR v K.
    harness.get_by_label("车 对 单将");
    // Cached in the app's own data directory, not the user's.
    assert!(dir.join("tablebases").join("KR_K.chtb").exists());
    // Every move is listed with its outcome; the fastest wins are marked.
    assert_eq!(
        harness.query_all_by_label_contains("最快胜").count(),
        2,
        "i0i8 and i0e0 both mate in 3 plies"
    );
    // The moves say their distance the same way.
    assert_eq!(
        harness
            .query_all_by_label_contains("最快胜  红方 2 步杀")
            .count(),
        2
    );
    // Every legal move has its value, slower wins marked apart from the fastest.
    let app = harness.state();
    let pos = app.state.position();
    let analysis = app.state.tablebase.analysis_of(pos).unwrap();
    assert_eq!(analysis.moves.len(), pos.legal_moves().len());
    assert!(harness.query_all_by_label_contains("  胜  ").count() >= 1);

    harness.get_by_label("与残局库对练").click();
    harness.run_ok();
    harness.get_by_label_contains("你执红方");
    // Play a fastest win from the list; the table answers for Black.
    harness
        .get_all_by_label_contains("最快胜")
        .next()
        .unwrap()
        .click();
    wait_for(&mut harness, Duration::from_secs(30), |app| {
        app.state.position().side_to_move() == chuhe_core::Color::Red
            && app.state.position().to_string() != "4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1"
    });
    harness.run_ok();
    assert!(harness.query_by_label_contains("失着").is_none());
    harness.get_by_label_contains("：红方 1 步杀");
    // The mate itself ends the practice as a win.
    harness
        .get_all_by_label_contains("最快胜")
        .next()
        .unwrap()
        .click();
    wait_for(&mut harness, Duration::from_secs(30), |app| {
        app.state.study.derived.outcome.is_some()
    });
    harness.run_ok();
    harness.run_ok();
    harness.get_by_label("你赢了！");
    the_table_can_move_first();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Practice with the table playing the side to move. (Called from the test above: the
/// program's tables live in the first app's directory, so one test owns them.)
fn the_table_can_move_first() {
    let dir = temp_dir("tablebase", "table_first");
    let mut harness = open_in(&dir);
    let start = "4k4/9/9/9/9/9/9/9/9/3K4R b - - 0 1";
    harness.event(Event::Paste(start.into()));
    harness.run_ok();
    wait_for(&mut harness, Duration::from_secs(120), |app| {
        let pos = app.state.position();
        app.state.tablebase.analysis_of(pos).is_some()
    });
    harness.run_ok();
    // Black to move loses whoever moves: the verdict names the winner, Red.
    harness.get_by_label_contains("例胜：红方 ");
    harness.get_by_label("我执另一方（残局库先走）").click();
    // The table defends for Black at once; the user has Red.
    wait_for(&mut harness, Duration::from_secs(30), |app| {
        app.state.position().side_to_move() == chuhe_core::Color::Red
    });
    harness.run_ok();
    harness.get_by_label_contains("你执红方");
    assert!(harness.query_by_label_contains("失着").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

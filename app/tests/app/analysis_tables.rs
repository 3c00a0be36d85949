//! Endgame tables made for the analysis: with the engine analysing a position of more
//! pieces than the tables fetched unasked (but within the tables' scope), its table is
//! made in the background, the analysis panel says so and can stop it, and the search
//! uses the table once it is there, without the app starting again.
//!
//! The app's tables are process-wide (cached in the directory of the first app opened in
//! this binary), so each test here uses a material no other test makes.

use crate::common::{open_in, temp_dir, wait_for};
use chuhe::actions::{Action, EngineAction};
use chuhe_core::search::Score;
use chuhe_core::tb::{self, Material};
use egui::Event;
use egui_kittest::kittest::Queryable as _;
use std::time::Duration;

#[test]
fn analysing_a_six_piece_ending_makes_its_table_and_the_search_uses_it() {
    let dir = temp_dir("analysis_tables", "kr_v_kaab");
    let mut harness = open_in(&dir);
    // Rook against two advisors and an elephant: six pieces, one more than the tables
    // fetched unasked, and a win by mate that no search sees from here in seconds.
    let fen = "3akab2/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
    harness.event(Event::Paste(fen.into()));
    harness.run_ok();
    let material: Material = "KR v KAAB".parse().unwrap();
    assert_eq!(
        harness.state().state.tablebase.generating,
        None,
        "not made unasked without the analysis"
    );
    assert!(harness.query_by_label_contains("后台生成残局库").is_none());

    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .apply(&ctx, Action::Engine(EngineAction::ToggleAnalysis));
    wait_for(&mut harness, Duration::from_secs(30), |app| {
        app.state.tablebase.generating.is_some()
    });
    assert_eq!(
        harness.state().state.tablebase.generating.as_ref(),
        Some(&material)
    );
    // The frame that started it shows it in the analysis panel, in words.
    harness.get_by_label_contains("后台生成残局库：车 对");

    // Once made, the analysis starts again on the board with the table: the engine's
    // line is the table's mate, at the table's distance.
    let pos: chuhe_core::Position = fen.parse().unwrap();
    let table_mate = || {
        let plies = tb::global().probe(&pos)?.dtm()?;
        Some(Score::Mate((i32::from(plies) + 1) / 2))
    };
    wait_for(&mut harness, Duration::from_secs(300), |app| {
        app.state.tablebase.generating.is_none()
            && table_mate().is_some_and(|mate| {
                app.state.visible_engine().is_some_and(|view| {
                    view.update
                        .report
                        .lines
                        .first()
                        .is_some_and(|line| line.score == mate)
                })
            })
    });
    assert!(harness.state().state.tablebase.error.is_none());
    // Written whole to the app's cache of tables.
    let file = tb::global().file_of(&material).unwrap();
    assert!(file.exists(), "{}", file.display());
    harness.run_ok();
    assert!(harness.query_by_label_contains("后台生成残局库").is_none());
    harness
        .state_mut()
        .apply(&ctx, Action::Engine(EngineAction::ToggleAnalysis));
    harness.run_ok();
}

#[test]
fn a_table_made_for_the_analysis_can_be_stopped() {
    let dir = temp_dir("analysis_tables", "stop");
    let mut harness = open_in(&dir);
    // Horse against full defenders: seven pieces, a table of seconds, not frames.
    harness.event(Event::Paste(
        "2bakab2/9/9/9/9/9/9/9/N8/3K5 w - - 0 1".into(),
    ));
    harness.run_ok();
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .apply(&ctx, Action::Engine(EngineAction::ToggleAnalysis));
    wait_for(&mut harness, Duration::from_secs(30), |app| {
        app.state.tablebase.generating.is_some()
    });
    harness.get_by_label("停止生成").click();
    harness.step();
    assert_eq!(harness.state().state.tablebase.generating, None);
    // Stopped for good: the board still shows the material, and it is not started again.
    for _ in 0..20 {
        harness.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(harness.state().state.tablebase.generating, None);
    assert!(harness.query_by_label_contains("后台生成残局库").is_none());
    let material: Material = "KN v KAABB".parse().unwrap();
    assert!(tb::global().loaded(&material).is_none());
    harness
        .state_mut()
        .apply(&ctx, Action::Engine(EngineAction::ToggleAnalysis));
    harness.run_ok();
}

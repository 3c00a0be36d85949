//! External UCI engines in the real app: one that analyses (its lines arrive in the panel
//! under its own name, from the game's moves), one that dies and one that hangs mid-search
//! (the user is told in plain words, and the app goes on).

use crate::common;
use chuhe::actions::*;

use chuhe::ChuheApp;
use chuhe::settings::{ExternalEngine, Settings};
use common::{key, open_with_settings, temp_dir, wait_for};
use egui::{Event, Key};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::path::PathBuf;
use std::time::Duration;

/// Settings with `engine` chosen for analysis.
fn with_engine(engine: ExternalEngine) -> Settings {
    let mut settings = Settings::default();
    settings.engine.external.push(engine);
    settings.engine.active_external = Some(0);
    settings
}

/// The app with `script` (a shell "engine") chosen for analysis; its command log.
fn open_with_engine(name: &str, script: &str) -> (Harness<'static, ChuheApp>, PathBuf) {
    let dir = temp_dir("external", name);
    let log = dir.join("commands.log");
    let settings = with_engine(ExternalEngine {
        name: "sh".into(),
        path: "sh".into(),
        args: vec![
            "-c".into(),
            script.replace("LOG", &log.display().to_string()),
        ],
        options: vec![("Hash".into(), "32".into())],
    });
    (open_with_settings(&dir, &settings), log)
}

fn paste(harness: &mut Harness<'_, ChuheApp>, text: &str) {
    harness.event(Event::Paste(text.into()));
    harness.run_ok();
}

/// Logs what it is told; answers every search with 炮二平五 or, once Red has played
/// 炮二平五, with 马8进7.
const FAKE: &str = r#"
while read cmd; do
  echo "$cmd" >> "LOG"
  case "$cmd" in
    uci) echo "id name Fake Pikafish"; echo "option name Hash type spin default 16 min 1 max 1024"; echo "option name MultiPV type spin default 1 min 1 max 5"; echo uciok ;;
    isready) echo readyok ;;
    position*) pos="$cmd" ;;
    go*) case "$pos" in
           *h2e2) echo "info depth 9 seldepth 12 multipv 1 score cp -15 nodes 90000 nps 900000 pv h9g7" ;;
           *) echo "info depth 9 seldepth 12 multipv 1 score cp 30 nodes 90000 nps 900000 pv h2e2" ;;
         esac ;;
    stop) echo "bestmove h2e2" ;;
    quit) exit 0 ;;
  esac
done"#;

#[test]
fn an_external_engine_analyses_under_its_name_from_the_game_moves() {
    let (mut harness, log) = open_with_engine("fake", FAKE);
    key(&mut harness, Key::Space);
    wait_for(&mut harness, Duration::from_secs(20), |app| {
        app.state.visible_engine().is_some_and(|e| {
            e.update
                .report
                .lines
                .first()
                .is_some_and(|l| l.moves.len() == 1)
        })
    });
    harness.step();
    harness.get_by_label_contains("Fake Pikafish");
    harness.get_by_label_contains("炮二平五");
    // Its name replaces the file name in the settings.
    assert_eq!(
        harness.state().state.settings.engine.external[0].name,
        "Fake Pikafish"
    );

    // After a move on the board it is given the start position and the move, and its
    // answer for Black is shown from Red's point of view.
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(
        &ctx,
        chuhe::actions::Action::Study(StudyAction::PlayMove("h2e2".parse().unwrap())),
    );
    wait_for(&mut harness, Duration::from_secs(20), |app| {
        app.state.visible_engine().is_some_and(|e| {
            e.update.report.lines.first().and_then(|l| l.moves.first())
                == Some(&"h9g7".parse().unwrap())
        })
    });
    harness.step();
    // Black's files in full-width digits, as Chinese records write them.
    harness.get_by_label_contains("马８进７");
    harness.get_by_label_contains("+0.15");
    key(&mut harness, Key::Space);
    let commands = std::fs::read_to_string(&log).unwrap();
    assert!(
        commands.contains("setoption name Hash value 32"),
        "{commands}"
    );
    assert!(
        commands.contains(
            "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2"
        ),
        "{commands}"
    );
    assert!(commands.contains("go infinite"), "{commands}");
}

/// Dies when asked to search.
const CRASHER: &str = r#"
while read cmd; do
  case "$cmd" in
    uci) echo "id name Crasher"; echo uciok ;;
    isready) echo readyok ;;
    go*) exit 9 ;;
  esac
done"#;

#[test]
fn an_engine_that_crashes_is_reported_and_the_app_goes_on() {
    let (mut harness, _) = open_with_engine("crash", CRASHER);
    key(&mut harness, Key::Space);
    wait_for(&mut harness, Duration::from_secs(20), |app| {
        matches!(
            app.state.analysis.engine_status,
            Some(chuhe::services::analysis::EngineStatus::Failed(_))
        )
    });
    harness.run_ok();
    harness.get_by_label_contains("引擎意外退出（退出码 9）");
    // The board still works.
    paste(&mut harness, "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    assert_eq!(
        harness.state().state.position().to_string(),
        "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"
    );
}

#[test]
fn a_missing_engine_program_is_named_in_the_message() {
    let settings = with_engine(ExternalEngine::from_path("/no/such/pikafish".into()));
    let mut harness = open_with_settings(&temp_dir("external", "missing"), &settings);
    key(&mut harness, Key::Space);
    wait_for(&mut harness, Duration::from_secs(20), |app| {
        app.state.analysis.engine_status.is_some()
    });
    harness.run_ok();
    harness.get_by_label_contains("无法启动引擎 /no/such/pikafish");
}

/// Analyses, then hangs: it never answers `stop` (nor anything after it).
const HANGER: &str = r#"
while read cmd; do
  case "$cmd" in
    uci) echo "id name Hanger"; echo uciok ;;
    isready) echo readyok ;;
    go*) echo "info depth 3 seldepth 3 multipv 1 score cp 12 nodes 300 nps 3000 pv h2e2" ;;
    stop) exec sleep 1000 ;;
  esac
done"#;

#[test]
fn an_engine_that_hangs_mid_search_is_reported_and_the_board_never_waits_for_it() {
    let (mut harness, _) = open_with_engine("hang", HANGER);
    key(&mut harness, Key::Space);
    wait_for(&mut harness, Duration::from_secs(20), |app| {
        app.state
            .analysis
            .engine
            .as_ref()
            .is_some_and(|e| !e.update.report.lines.is_empty())
    });
    // Stopping: the engine never answers, but the board goes on at once.
    key(&mut harness, Key::Space);
    paste(&mut harness, "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    assert_eq!(
        harness.state().state.position().to_string(),
        "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"
    );
    assert!(
        matches!(
            harness.state().state.analysis.engine_status,
            Some(chuhe::services::analysis::EngineStatus::External(_))
        ),
        "the board moved on before the engine's timeout"
    );
    // After its timeout the engine is given up and the user told.
    wait_for(&mut harness, Duration::from_secs(40), |app| {
        matches!(
            app.state.analysis.engine_status,
            Some(chuhe::services::analysis::EngineStatus::Failed(_))
        )
    });
    harness.run_ok();
    harness.get_by_label_contains("引擎停止了响应");
}

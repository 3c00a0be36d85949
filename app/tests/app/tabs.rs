//! Several games open at once as tabs, and the autosave of everything in them: drives the
//! real app with egui_kittest, each test with its own data directory.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::*;
use chuhe::state::Dialog;
use chuhe_core::Move;
use chuhe_core::record::{Arrow, MarkColor, Nag};
use common::{main_line, open_in, temp_dir};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::path::Path;

fn apply(harness: &mut Harness<'_, ChuheApp>, action: impl Into<Action>) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action.into());
    harness.run_ok();
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// A one-game PGN file with these players and moves.
fn game_file(dir: &Path, name: &str, red: &str, black: &str, moves: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    let text = format!("[Red \"{red}\"]\n[Black \"{black}\"]\n\n{moves} *\n");
    std::fs::write(&path, text).unwrap();
    path
}

/// The active tab's index and how many there are.
fn tabs(harness: &Harness<'_, ChuheApp>) -> (usize, usize) {
    let state = &harness.state().state;
    (state.tabs.active, state.tab_count())
}

fn shortcut(harness: &mut Harness<'_, ChuheApp>, modifiers: Modifiers, key: Key) {
    harness.key_press_modifiers(modifiers, key);
    harness.run_ok();
}

/// Clicks into the field labelled `label` and types `text`, leaving the focus there.
fn type_into(harness: &mut Harness<'_, ChuheApp>, label: &str, text: &str) {
    harness.get_by_label(label).click();
    harness.run_ok();
    harness.get_by_label(label).type_text(text);
    harness.run_ok();
}

/// Runs frames, with no input, for `seconds` of egui's clock (which the harness steps a
/// quarter second a frame, however fast the frames run).
fn frames_for(harness: &mut Harness<'_, ChuheApp>, seconds: f32) {
    for _ in 0..(seconds / 0.25).ceil() as usize {
        harness.step();
    }
}

#[test]
fn a_comment_still_being_typed_a_glyph_a_header_and_a_mark_survive_a_kill() {
    let dir = temp_dir("tabs", "kill");
    let mut harness = open_in(&dir);
    apply(&mut harness, StudyAction::PlayMove(mv("h2e2")));
    let arrow = Arrow {
        from: "b0".parse().unwrap(),
        to: "c2".parse().unwrap(),
        color: MarkColor::Green,
    };
    apply(&mut harness, StudyAction::ToggleArrow(arrow));
    harness.get_by_label("!").click();
    harness.run_ok();
    type_into(&mut harness, "红方", "胡荣华");
    frames_for(&mut harness, 1.5);
    assert_eq!(
        harness.state().state.study.record.headers().get("Red"),
        Some("胡荣华"),
        "written into the record once the typing pauses, the field still focused"
    );
    assert!(harness.get_by_label("红方").is_focused());
    // The comment field keeps the focus: nothing is left or pressed after typing.
    type_into(&mut harness, "注释", "当头炮");
    frames_for(&mut harness, 3.0);
    assert!(harness.get_by_label("注释").is_focused());

    // The process is killed here: no quit, no shutdown, the first window still open. A
    // second start on the same data directory offers the work back.
    let mut reopened = open_in(&dir);
    assert_eq!(reopened.state().state.dialog, Some(Dialog::RestoreAutosave));
    reopened.get_by_label("恢复").click();
    reopened.run_ok();
    let study = &reopened.state().state.study;
    assert_eq!(main_line(&reopened), ["h2e2"]);
    let node = study.record.main_line()[0];
    let annotation = study.record.annotation(node);
    assert_eq!(annotation.comment, "当头炮");
    assert_eq!(annotation.nags, [Nag::GOOD]);
    assert_eq!(annotation.arrows, [arrow]);
    assert_eq!(study.record.headers().get("Red"), Some("胡荣华"));
    assert!(study.dirty, "restored work still needs saving");
    drop(harness);
}

#[test]
fn every_open_game_is_autosaved_and_restored_with_the_one_on_the_board() {
    let dir = temp_dir("tabs", "restore-all");
    let file = game_file(&dir, "a.pgn", "甲", "乙", "1. h2e2 h9g7");
    let mut harness = open_in(&dir);
    apply(&mut harness, FileAction::Open(file.clone()));
    apply(&mut harness, TabAction::New);
    apply(&mut harness, StudyAction::PlayMove(mv("b0c2")));
    apply(&mut harness, TabAction::New);
    apply(&mut harness, StudyAction::PlayMove(mv("c3c4")));
    apply(&mut harness, TabAction::Switch(1));
    frames_for(&mut harness, 2.0);

    let mut reopened = open_in(&dir);
    reopened.get_by_label("恢复").click();
    reopened.run_ok();
    let state = &reopened.state().state;
    assert_eq!(tabs(&reopened), (1, 3));
    let games: Vec<(Vec<String>, bool)> = state
        .all_tabs()
        .map(|s| {
            let moves = s
                .record
                .main_line_moves()
                .into_iter()
                .map(|m| m.to_string());
            (moves.collect(), s.dirty)
        })
        .collect();
    assert_eq!(
        games,
        [
            (vec!["h2e2".to_owned(), "h9g7".to_owned()], false),
            (vec!["b0c2".to_owned()], true),
            (vec!["c3c4".to_owned()], true),
        ]
    );
    assert_eq!(
        state.all_tabs().next().unwrap().file.as_deref(),
        Some(&*file)
    );
    assert!(
        state.all_tabs().all(|s| s
            .record
            .headers()
            .iter()
            .all(|(name, _)| !name.starts_with("Chuhe"))),
        "the autosave's own headers are taken off"
    );
    drop(harness);
}

#[test]
fn two_games_open_in_tabs_switch_by_click_and_keys_and_a_dirty_one_asks_before_closing() {
    let dir = temp_dir("tabs", "switch");
    let a = game_file(&dir, "a.pgn", "甲", "乙", "1. h2e2");
    let b = game_file(&dir, "b.pgn", "丙", "丁", "1. b0c2");
    let mut harness = open_in(&dir);
    apply(&mut harness, FileAction::Open(a));
    assert_eq!(tabs(&harness), (0, 1), "the empty tab is reused");
    apply(&mut harness, FileAction::Open(b));
    assert_eq!(
        tabs(&harness),
        (1, 2),
        "the other game opens beside the first"
    );
    assert_eq!(main_line(&harness), ["b0c2"]);

    harness.get_by_label("甲 – 乙").click();
    harness.run_ok();
    assert_eq!(tabs(&harness), (0, 2));
    assert_eq!(main_line(&harness), ["h2e2"]);
    // The analysis follows the game on the board.
    apply(&mut harness, EngineAction::ToggleAnalysis);
    shortcut(&mut harness, Modifiers::COMMAND, Key::Tab);
    assert_eq!(main_line(&harness), ["b0c2"]);
    let app = harness.state();
    let study = &app.state.study;
    assert_eq!(
        app.state.bookkeeping.analysed,
        Some((study.generation, study.cursor))
    );
    apply(&mut harness, EngineAction::ToggleAnalysis);
    shortcut(
        &mut harness,
        Modifiers::COMMAND | Modifiers::SHIFT,
        Key::Tab,
    );
    assert_eq!(main_line(&harness), ["h2e2"]);

    // An edit marks the tab; closing it asks, and 取消 keeps it.
    apply(&mut harness, StudyAction::End);
    apply(&mut harness, StudyAction::PlayMove(mv("h9g7")));
    harness.get_by_label("甲 – 乙 *");
    harness.get_all_by_label("×").next().unwrap().click();
    harness.run_ok();
    assert_eq!(
        harness.state().state.dialog,
        Some(Dialog::UnsavedOnCloseTab)
    );
    harness.get_by_label("取消").click();
    harness.run_ok();
    assert_eq!(tabs(&harness), (0, 2));
    assert_eq!(main_line(&harness), ["h2e2", "h9g7"]);

    // Closing the other tab (clean) asks nothing and leaves the edited game.
    harness.get_all_by_label("×").nth(1).unwrap().click();
    harness.run_ok();
    assert!(harness.state().state.dialog.is_none());
    assert_eq!(tabs(&harness), (0, 1));
    assert_eq!(main_line(&harness), ["h2e2", "h9g7"]);

    // Ctrl+W on the edited one asks too; 放弃修改 closes it, leaving an empty game.
    shortcut(&mut harness, Modifiers::COMMAND, Key::W);
    assert_eq!(
        harness.state().state.dialog,
        Some(Dialog::UnsavedOnCloseTab)
    );
    harness.get_by_label("放弃修改").click();
    harness.run_ok();
    let state = &harness.state().state;
    assert_eq!(tabs(&harness), (0, 1));
    assert!(state.study.is_blank());
}

#[test]
fn a_library_line_a_diagram_and_a_puzzle_open_in_new_tabs_beside_the_game_studied() {
    let dir = temp_dir("tabs", "library");
    let mut harness = open_in(&dir);
    apply(&mut harness, StudyAction::PlayMove(mv("h2e2")));

    apply(&mut harness, OpeningsAction::Show(1));
    assert!(harness.state().state.dialog.is_none(), "nothing to ask");
    assert_eq!(tabs(&harness), (1, 2));
    assert!(!main_line(&harness).is_empty());

    apply(&mut harness, KnowledgeAction::Open("rule-horse".into()));
    apply(&mut harness, KnowledgeAction::ToBoard);
    assert_eq!(tabs(&harness), (2, 3));
    let (_, entry) = chuhe_core::knowledge::entry("rule-horse").unwrap();
    assert_eq!(
        harness.state().state.study.record.start().to_string(),
        entry.diagrams[0].fen
    );

    apply(&mut harness, PuzzleAction::ToggleBrowser);
    apply(
        &mut harness,
        PresentationAction::PresentPuzzle { set: 0, index: 0 },
    );
    assert_eq!(tabs(&harness), (3, 4));
    let puzzle = harness.state().state.puzzles.sets[0].set.puzzles[0].clone();
    assert_eq!(harness.state().state.study.record.start(), &puzzle.position);

    // A game chosen from a file of several.
    let one = std::fs::read_to_string(game_file(&dir, "one.pgn", "甲", "乙", "1. h2e2")).unwrap();
    let two = std::fs::read_to_string(game_file(&dir, "two.pgn", "丙", "丁", "1. b0c2")).unwrap();
    let both = dir.join("both.pgn");
    std::fs::write(&both, format!("{one}\n{two}")).unwrap();
    apply(&mut harness, FileAction::Open(both));
    assert_eq!(tabs(&harness), (3, 4), "the list is offered first");
    apply(&mut harness, FileAction::ChooseGame(1));
    assert_eq!(tabs(&harness), (4, 5));
    assert_eq!(main_line(&harness), ["b0c2"]);

    // The game studied first is still there, with its unsaved move.
    apply(&mut harness, TabAction::Switch(0));
    assert_eq!(main_line(&harness), ["h2e2"]);
    assert!(harness.state().state.study.dirty);
}

#[test]
fn quitting_with_several_edited_games_saves_each_of_them_to_its_file() {
    let dir = temp_dir("tabs", "quit");
    let a = game_file(&dir, "a.pgn", "甲", "乙", "1. h2e2");
    let b = game_file(&dir, "b.pgn", "丙", "丁", "1. b0c2");
    let mut harness = open_in(&dir);
    for (path, reply) in [(&a, "h9g7"), (&b, "h9g7")] {
        apply(&mut harness, FileAction::Open(path.clone()));
        apply(&mut harness, StudyAction::End);
        apply(&mut harness, StudyAction::PlayMove(mv(reply)));
    }
    assert!(harness.state().state.all_tabs().all(|s| s.dirty));
    apply(&mut harness, WindowAction::RequestQuit);
    assert_eq!(harness.state().state.dialog, Some(Dialog::UnsavedOnQuit));
    harness.get_by_label("全部保存").click();
    harness.run_ok();
    for path in [a, b] {
        let saved = std::fs::read_to_string(&path).unwrap();
        assert!(
            saved.contains("马８进７") || saved.contains("h9g7"),
            "{saved}"
        );
    }
    assert!(!harness.state().state.any_dirty());
    assert!(harness.state().state.bookkeeping.allowed_to_close);
    assert!(
        !dir.join("autosave.pgn").exists(),
        "nothing is left unsaved"
    );
}

#[test]
fn a_game_to_play_a_paste_and_a_new_game_open_in_new_tabs_and_a_folder_steps_in_its_own() {
    let dir = temp_dir("tabs", "new-work");
    let a = game_file(&dir, "a.pgn", "甲", "乙", "1. h2e2");
    let folder = dir.join("games");
    std::fs::create_dir_all(&folder).unwrap();
    game_file(&folder, "b.pgn", "丙", "丁", "1. b0c2");
    game_file(&folder, "c.pgn", "戊", "己", "1. c3c4");
    let mut harness = open_in(&dir);
    apply(&mut harness, FileAction::Open(a));
    assert_eq!(tabs(&harness), (0, 1));

    // 对局 ▸ 与电脑对弈 starts the game beside the one studied, which stays.
    harness.get_by_label("对局").click();
    harness.run_ok();
    harness.get_by_label("与电脑对弈…").click();
    harness.run_ok();
    harness.get_by_label("开始对局").click();
    harness.run_ok();
    assert!(harness.state().state.dialog.is_none());
    assert_eq!(tabs(&harness), (1, 2));
    assert!(harness.state().state.play.is_some());
    apply(&mut harness, TabAction::Switch(0));
    assert_eq!(main_line(&harness), ["h2e2"]);

    // A paste over edited work opens beside it: nothing is lost, so nothing is asked.
    apply(&mut harness, StudyAction::End);
    apply(&mut harness, StudyAction::PlayMove(mv("h9g7")));
    harness.event(egui::Event::Paste("1. g3g4 *".into()));
    harness.run_ok();
    assert!(harness.state().state.dialog.is_none());
    assert_eq!(tabs(&harness), (1, 3));
    assert_eq!(main_line(&harness), ["g3g4"]);

    // 新对局 too; a paste then takes that empty tab.
    apply(&mut harness, FileAction::New);
    assert_eq!(tabs(&harness), (2, 4));
    harness.event(egui::Event::Paste("1. i3i4 *".into()));
    harness.run_ok();
    assert_eq!(tabs(&harness), (2, 4), "the empty tab is reused");
    assert_eq!(main_line(&harness), ["i3i4"]);

    // A folder is stepped through in its own tab; a paste there opens beside it, and
    // stepping replaces only the folder's game.
    apply(&mut harness, FileAction::OpenFolder(folder));
    assert_eq!(tabs(&harness), (3, 5));
    assert_eq!(main_line(&harness), ["b0c2"]);
    harness.event(egui::Event::Paste("1. a3a4 *".into()));
    harness.run_ok();
    assert_eq!(tabs(&harness), (4, 6));
    apply(&mut harness, TabAction::Switch(3));
    shortcut(&mut harness, Modifiers::NONE, Key::PageDown);
    assert_eq!(tabs(&harness), (3, 6));
    assert_eq!(main_line(&harness), ["c3c4"]);
    // An edited folder game is asked about before it is stepped away from.
    apply(&mut harness, StudyAction::End);
    apply(&mut harness, StudyAction::PlayMove(mv("h9g7")));
    shortcut(&mut harness, Modifiers::NONE, Key::PageUp);
    assert_eq!(harness.state().state.dialog, Some(Dialog::UnsavedOnReplace));
    harness.get_by_label("取消").click();
    harness.run_ok();

    // Every game is where it was left.
    let games: Vec<Vec<String>> = harness
        .state()
        .state
        .all_tabs()
        .map(|s| {
            s.record
                .main_line_moves()
                .iter()
                .map(|m| m.to_string())
                .collect()
        })
        .collect();
    assert_eq!(
        games,
        [
            vec!["h2e2", "h9g7"],
            vec!["g3g4"],
            vec!["i3i4"],
            vec!["c3c4", "h9g7"],
            vec!["a3a4"],
            vec![],
        ]
    );
    assert!(harness.state().state.all_tabs().next().unwrap().dirty);
}

#[test]
fn a_tab_is_titled_by_the_games_title_or_event_cut_short_and_whole_on_hover() {
    let dir = temp_dir("tabs", "titles");
    let composed = dir.join("001.pgn");
    std::fs::write(
        &composed,
        "[Title \"七星聚会\"]\n[Red \"甲\"]\n[Black \"乙\"]\n\n1. h2e2 *\n",
    )
    .unwrap();
    let event = "1987年第三屆七星杯中國象棋國際邀請賽 076 兩翼齊動";
    let endgame = dir.join("002.pgn");
    std::fs::write(&endgame, format!("[Event \"{event}\"]\n\n1. h2e2 *\n")).unwrap();
    let mut harness = open_in(&dir);
    apply(&mut harness, FileAction::Open(composed));
    apply(&mut harness, FileAction::Open(endgame.clone()));
    // (The file of the game on the board is named elsewhere too; the other's nowhere.)
    harness.get_by_label("七星聚会");
    assert!(harness.query_by_label("001.pgn").is_none());
    // The event is too long for a tab: cut short, and whole on hover with the file.
    assert!(harness.query_by_label(event).is_none());
    harness.get_by_label("1987年第三屆七星杯中國…").hover();
    harness.run_ok();
    harness.get_by_label(&format!("{event}\n{}", endgame.display()));
}

#[test]
fn the_quit_question_names_every_edited_game_and_gives_them_all_up_at_once() {
    let dir = temp_dir("tabs", "quit-list");
    let a = game_file(&dir, "a.pgn", "甲", "乙", "1. h2e2");
    let b = game_file(&dir, "b.pgn", "丙", "丁", "1. b0c2");
    let mut harness = open_in(&dir);
    apply(&mut harness, FileAction::Open(a.clone()));
    apply(&mut harness, StudyAction::End);
    apply(&mut harness, StudyAction::PlayMove(mv("h9g7")));
    apply(&mut harness, FileAction::Open(b));
    apply(&mut harness, TabAction::New);
    apply(&mut harness, StudyAction::PlayMove(mv("c3c4")));
    apply(&mut harness, WindowAction::RequestQuit);
    assert_eq!(harness.state().state.dialog, Some(Dialog::UnsavedOnQuit));
    // One question for all of them, naming the two edited games and not the other.
    harness.get_by_label_contains("以下 2 局有未保存的修改");
    harness.get_by_label("• 甲 – 乙");
    harness.get_by_label("• 未命名");
    assert!(harness.query_by_label("• 丙 – 丁").is_none());
    harness.get_by_label("全部放弃");

    // 取消 stays, the work as it was.
    harness.get_by_label("取消").click();
    harness.run_ok();
    let state = &harness.state().state;
    assert!(state.dialog.is_none());
    assert!(!state.bookkeeping.allowed_to_close);
    assert_eq!(state.all_tabs().filter(|s| s.dirty).count(), 2);

    // 全部放弃 quits at once, nothing written.
    apply(&mut harness, WindowAction::RequestQuit);
    harness.get_by_label("全部放弃").click();
    harness.run_ok();
    assert!(harness.state().state.bookkeeping.allowed_to_close);
    assert_eq!(
        std::fs::read_to_string(&a).unwrap(),
        "[Red \"甲\"]\n[Black \"乙\"]\n\n1. h2e2 *\n"
    );
}

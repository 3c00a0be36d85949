//! Presentation mode for a class: F5 (or the menu bar's button) turns the window into a
//! projector view — high contrast, only the board, engine hidden — PageUp/PageDown (what
//! presentation clickers send) step through the moves, Esc ends it, and nothing of it is
//! saved as the user's settings.

use crate::common;

use chuhe::actions::*;
use chuhe::services::storage::Storage;
use chuhe::theme::ThemeChoice;
use common::{key, open_in, temp_dir};
use egui::Key;
use egui_kittest::kittest::Queryable as _;

#[test]
fn presentation_mode_shows_the_board_for_a_class_and_gives_everything_back() {
    let dir = temp_dir("presentation", "class");
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    for m in ["h2e2", "h9g7", "h0g2"] {
        harness.state_mut().apply(
            &ctx,
            Action::Study(StudyAction::PlayMove(m.parse().unwrap())),
        );
    }
    key(&mut harness, Key::Home);
    let root = harness.state().state.study.record.root();
    assert_eq!(harness.state().state.study.cursor, root);
    let theme_before = harness.state().state.settings.theme;
    assert_ne!(theme_before, ThemeChoice::HighContrast);

    // The menu bar's button starts it.
    harness.get_by_label("▶ 演示").click();
    harness.run_ok();
    let state = &harness.state().state;
    assert!(state.presentation.is_some());
    assert_eq!(state.settings.theme, ThemeChoice::HighContrast);
    assert!(state.settings.layout.board_only && state.analysis.engine_hidden);

    // The clicker's keys step through the game.
    key(&mut harness, Key::PageDown);
    key(&mut harness, Key::PageDown);
    let state = &harness.state().state;
    assert_eq!(state.study.record.moves_to(state.study.cursor).len(), 2);
    key(&mut harness, Key::PageUp);
    let state = &harness.state().state;
    assert_eq!(state.study.record.moves_to(state.study.cursor).len(), 1);

    // A setting changed meanwhile is saved, the projector's theme is not.
    harness
        .state_mut()
        .apply(&ctx, Action::View(ViewAction::ToggleSounds));
    let saved = Storage::in_dir(dir.clone()).load_settings().0;
    assert!(saved.mute);
    assert_eq!(saved.theme, theme_before);
    assert!(!saved.layout.board_only);

    // The move's comment is shown large under the board.
    let cursor = harness.state().state.study.cursor;
    harness.state_mut().apply(
        &ctx,
        Action::Study(StudyAction::SetComment(cursor, "当头炮，先声夺人".into())),
    );
    harness.run_ok();
    harness.get_by_label("当头炮，先声夺人");

    // Esc gives everything back.
    key(&mut harness, Key::Escape);
    let state = &harness.state().state;
    assert!(state.presentation.is_none());
    assert_eq!(state.settings.theme, theme_before);
    assert!(!state.settings.layout.board_only && !state.analysis.engine_hidden);
    // F5 toggles it too.
    key(&mut harness, Key::F5);
    assert!(harness.state().state.presentation.is_some());
    key(&mut harness, Key::F5);
    assert!(harness.state().state.presentation.is_none());
}

#[test]
fn the_audience_window_shows_the_board_while_the_teacher_previews_the_next_move() {
    let dir = temp_dir("presentation", "audience");
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    for m in ["h2e2", "h9g7"] {
        harness.state_mut().apply(
            &ctx,
            Action::Study(StudyAction::PlayMove(m.parse().unwrap())),
        );
    }
    key(&mut harness, Key::Home);
    let root = harness.state().state.study.record.root();
    harness.state_mut().apply(
        &ctx,
        Action::Study(StudyAction::SetComment(root, "开局".into())),
    );
    // F6 opens it (the View menu has it too).
    key(&mut harness, Key::F6);
    assert!(harness.state().state.audience);
    // Under test the second window is drawn inside the first, titled as on the desktop.
    harness.get_by_label("楚河 · 观众");
    // The teacher's window previews the next move; the teacher's window keeps its panels.
    harness.get_by_label_contains("下一步：1. 炮二平五");
    assert!(!harness.state().state.settings.layout.board_only);
    // Stepping moves both: the record is the same.
    key(&mut harness, Key::ArrowRight);
    harness.get_by_label_contains("下一步：1... 马８进７");
    // The class reads the move just played and whose turn it is over its board (the
    // teacher's window, not presenting, has no such caption).
    harness.get_by_label("第 1 回合 红方 炮二平五 — 黑方走棋");
    key(&mut harness, Key::ArrowRight);
    harness.get_by_label("没有下一步了。");
    // F6 again closes it (under test the drawn-in window covers the teacher's button).
    harness.get_by_label("关闭观众窗口");
    key(&mut harness, Key::F6);
    assert!(!harness.state().state.audience);
    assert!(harness.query_by_label("楚河 · 观众").is_none());
}

#[test]
fn a_puzzle_solution_is_revealed_one_move_at_a_time_in_presentation_mode() {
    let dir = temp_dir("presentation", "reveal");
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(
        &ctx,
        Action::Puzzle(chuhe::actions::PuzzleAction::ToggleBrowser),
    );
    harness.run_ok();
    // The first puzzle whose solution is at least two moves long.
    let index = harness.state().state.puzzles.sets[0]
        .set
        .puzzles
        .iter()
        .position(|p| p.to_record().main_line().len() >= 3)
        .expect("a longer puzzle");
    let puzzle = harness.state().state.puzzles.sets[0].set.puzzles[index].clone();
    harness.state_mut().apply(
        &ctx,
        Action::Presentation(PresentationAction::PresentPuzzle { set: 0, index }),
    );
    harness.run_ok();
    let state = &harness.state().state;
    assert!(state.presentation.as_ref().is_some_and(|p| p.show_moves));
    assert_eq!(state.study.record.start(), &puzzle.position);
    assert_eq!(state.study.cursor, state.study.record.root());
    let solution = state.study.record.main_line();
    assert!(solution.len() >= 2);
    let texts: Vec<String> = solution
        .iter()
        .map(|&node| {
            state
                .study
                .derived
                .tokens
                .iter()
                .find_map(|t| match t {
                    chuhe::state::study::MoveToken::Move(item) if item.node == node => {
                        Some(format!("{} {}", item.number, item.text))
                    }
                    _ => None,
                })
                .unwrap()
        })
        .collect();
    // Nothing of the solution is shown before the teacher steps.
    for text in &texts {
        assert!(
            harness.query_by_label_contains(text).is_none(),
            "{text} shown"
        );
    }
    // Each PageDown reveals one more move, and only that one.
    for shown in 1..=2 {
        key(&mut harness, Key::PageDown);
        for (i, text) in texts.iter().enumerate() {
            let visible = harness.query_by_label_contains(text).is_some();
            assert_eq!(visible, i < shown, "after {shown} steps, move {i} ({text})");
        }
    }
    // M hides the list again.
    key(&mut harness, Key::M);
    assert!(
        !harness
            .state()
            .state
            .presentation
            .as_ref()
            .unwrap()
            .show_moves
    );
}

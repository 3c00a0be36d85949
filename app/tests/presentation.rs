//! Presentation mode for a class: F5 (or the menu bar's button) turns the window into a
//! projector view — high contrast, only the board, engine hidden — PageUp/PageDown (what
//! presentation clickers send) step through the moves, Esc ends it, and nothing of it is
//! saved as the user's settings.

mod common;

use chuhe::actions::Action;
use chuhe::settings::Storage;
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
        harness
            .state_mut()
            .apply(&ctx, Action::PlayMove(m.parse().unwrap()));
    }
    key(&mut harness, Key::Home);
    let root = harness.state().state.record.root();
    assert_eq!(harness.state().state.cursor, root);
    let theme_before = harness.state().state.settings.theme;
    assert_ne!(theme_before, ThemeChoice::HighContrast);

    // The menu bar's button starts it.
    harness.get_by_label("▶ 演示").click();
    harness.run_ok();
    let state = &harness.state().state;
    assert!(state.presentation.is_some());
    assert_eq!(state.settings.theme, ThemeChoice::HighContrast);
    assert!(state.settings.layout.board_only && state.engine_hidden);

    // The clicker's keys step through the game.
    key(&mut harness, Key::PageDown);
    key(&mut harness, Key::PageDown);
    let state = &harness.state().state;
    assert_eq!(state.record.moves_to(state.cursor).len(), 2);
    key(&mut harness, Key::PageUp);
    let state = &harness.state().state;
    assert_eq!(state.record.moves_to(state.cursor).len(), 1);

    // A setting changed meanwhile is saved, the projector's theme is not.
    harness.state_mut().apply(&ctx, Action::ToggleSounds);
    let saved = Storage::in_dir(dir.clone()).load_settings().0;
    assert!(saved.mute);
    assert_eq!(saved.theme, theme_before);
    assert!(!saved.layout.board_only);

    // The move's comment is shown large under the board.
    let cursor = harness.state().state.cursor;
    harness
        .state_mut()
        .apply(&ctx, Action::SetComment(cursor, "当头炮，先声夺人".into()));
    harness.run_ok();
    harness.get_by_label("当头炮，先声夺人");

    // Esc gives everything back.
    key(&mut harness, Key::Escape);
    let state = &harness.state().state;
    assert!(state.presentation.is_none());
    assert_eq!(state.settings.theme, theme_before);
    assert!(!state.settings.layout.board_only && !state.engine_hidden);
    // F5 toggles it too.
    key(&mut harness, Key::F5);
    assert!(harness.state().state.presentation.is_some());
    key(&mut harness, Key::F5);
    assert!(harness.state().state.presentation.is_none());
}

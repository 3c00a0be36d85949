//! One way of saying things across the app, driven like a user: scores in the unit the
//! user picks, mates as "红方 N 步杀" in the engine's lines as in the endgame tables.

use crate::common;

use chuhe::settings::ScoreUnit;
use common::{key, open_in, temp_dir, wait_for};
use egui::{Event, Key};
use egui_kittest::kittest::Queryable as _;
use std::time::Duration;

#[test]
fn the_score_unit_is_chosen_in_the_view_menu() {
    let mut harness = open_in(&temp_dir("wording", "unit"));
    assert_eq!(harness.state().state.settings.score_unit, ScoreUnit::Pawns);
    harness.get_by_label("视图").click();
    harness.run();
    harness.get_by_label("以百分之一兵为单位（+123）").click();
    harness.run_ok();
    assert_eq!(
        harness.state().state.settings.score_unit,
        ScoreUnit::Centipawns
    );
}

#[test]
fn the_engines_mate_is_said_in_the_winners_moves() {
    let mut harness = open_in(&temp_dir("wording", "mate"));
    // Red mates in two moves (three plies) with the rook.
    harness.event(Event::Paste("4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1".into()));
    harness.run_ok();
    key(&mut harness, Key::Space);
    wait_for(&mut harness, Duration::from_secs(60), |app| {
        app.state.visible_engine().is_some_and(|e| {
            e.update
                .report
                .lines
                .first()
                .is_some_and(|l| l.score == chuhe_core::search::Score::Mate(2))
        })
    });
    harness.step();
    harness.get_by_label_contains("1. 红方 2 步杀");
    key(&mut harness, Key::Space);
}

#[test]
fn the_game_puzzles_have_chinese_titles_in_the_chinese_interface() {
    let mut harness = open_in(&temp_dir("wording", "puzzles"));
    harness.get_by_label("残局").click();
    harness.run();
    harness.get_by_label("残局题库…").click();
    harness.run_ok();
    harness.get_by_label_contains("实战杀局").click();
    harness.run_ok();
    // The first one was cut from LE Thien Vi – BI BingJian, World Championships 1997.
    harness.get_by_label("1. 1997 年世界象棋锦标赛 — 红方先走，1 步杀");
    assert!(harness.query_by_label_contains("BingJian").is_none());
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(
        &ctx,
        chuhe::actions::Action::View(chuhe::actions::ViewAction::SetLanguage(
            chuhe::i18n::Language::En,
        )),
    );
    harness.run_ok();
    // English readers get the players' names as the source gives them.
    harness.get_by_label_contains("1. LE Thien Vi - BI BingJian — ");
}

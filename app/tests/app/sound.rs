//! The sounds of play: which sound each move asks for, and that muting silences them.
//! (Whether a device plays them is the platform's business; CI machines have none.)

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::*;
use chuhe::state::study::Sound;
use common::{open_in, temp_dir};
use egui::{Event, Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

fn open(name: &str) -> Harness<'static, ChuheApp> {
    open_in(&temp_dir("sound", name))
}

fn act(harness: &mut Harness<'_, ChuheApp>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
    harness.run_ok();
}

fn play(harness: &mut Harness<'_, ChuheApp>, m: &str) -> Option<Sound> {
    harness.state_mut().state.study.last_sound = None;
    act(
        harness,
        Action::Study(StudyAction::PlayMove(m.parse().unwrap())),
    );
    harness.state().state.study.last_sound
}

#[test]
fn moves_captures_checks_and_mates_each_have_their_sound() {
    let mut harness = open("kinds");
    // Red: rook a1, cannon b2; Black: general e9, a pawn on a5 and a horse on h9.
    harness.event(Event::Paste(
        "4k2n1/9/9/9/p8/9/9/1C7/R8/3K5 w - - 0 1".into(),
    ));
    harness.run_ok();
    assert_eq!(play(&mut harness, "b2b5"), Some(Sound::Move));
    assert_eq!(play(&mut harness, "h9g7"), Some(Sound::Move));
    assert_eq!(play(&mut harness, "a1a5"), Some(Sound::Capture));
    assert_eq!(play(&mut harness, "g7f5"), Some(Sound::Move));
    // 车一进四 to the top rank is check.
    assert_eq!(play(&mut harness, "a5a9"), Some(Sound::Check));

    // Stepping back is silent; stepping forward again is heard.
    harness.state_mut().state.study.last_sound = None;
    harness.key_press_modifiers(Modifiers::NONE, Key::ArrowLeft);
    harness.run_ok();
    assert_eq!(harness.state().state.study.last_sound, None);
    harness.key_press_modifiers(Modifiers::NONE, Key::ArrowRight);
    harness.run_ok();
    assert_eq!(harness.state().state.study.last_sound, Some(Sound::Check));
}

#[test]
fn a_mate_sounds_the_end_and_muting_silences_everything() {
    let mut harness = open("mute");
    harness.event(Event::Paste("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1".into()));
    harness.run_ok();
    assert_eq!(play(&mut harness, "a1a2"), Some(Sound::Move));
    assert_eq!(play(&mut harness, "d9d8"), Some(Sound::Move));
    act(&mut harness, Action::Study(StudyAction::Back));
    act(&mut harness, Action::Study(StudyAction::Back));

    // The View menu's switch turns them off, and it is remembered.
    harness.get_by_label("视图").click();
    harness.run_ok();
    harness.get_by_label("走子音效").click();
    harness.run_ok();
    assert!(harness.state().state.settings.mute);
    assert_eq!(play(&mut harness, "a1d1"), None);

    act(&mut harness, Action::View(ViewAction::ToggleSounds));
    act(&mut harness, Action::Study(StudyAction::Back));
    // 车一平六 is mate: the general on d9 has nowhere to go (e9 faces Red's general).
    assert_eq!(play(&mut harness, "a1d1"), Some(Sound::GameEnd));
}

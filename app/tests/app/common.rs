//! What the app's test files share: a private directory per test, the app opened on it,
//! keys, and waiting for the app to reach a state.

use chuhe::ChuheApp;
use chuhe::services::storage::Storage;
use chuhe::settings::Settings;
use egui::{Key, Modifiers, Vec2};
use egui_kittest::Harness;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// An empty directory of its own for the test `name` of the file `file`.
pub fn temp_dir(file: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhe-{file}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The app in a laptop-sized window, its files kept in `dir`, its welcome put away.
pub fn open_in(dir: &Path) -> Harness<'static, ChuheApp> {
    put_welcome_away(dir);
    open_fresh(dir)
}

/// On a first start in `dir`, the welcome is put away beforehand (as its button does), so
/// that the board takes the clicks of the tests about everything else; the welcome's own
/// tests start with [`open_fresh`].
pub fn put_welcome_away(dir: &Path) {
    let storage = Storage::in_dir(dir.to_owned());
    if storage.settings_path().is_some_and(|p| !p.exists()) {
        let (first, _) = storage.load_settings();
        let settings = Settings {
            show_welcome: false,
            ..first
        };
        storage.save_settings(&settings).unwrap();
    }
}

/// The app in a laptop-sized window, its files kept in `dir`, as a person starts it.
pub fn open_fresh(dir: &Path) -> Harness<'static, ChuheApp> {
    let dir = dir.to_owned();
    // The app settles in a few frames, but a background result (fonts, a service starting)
    // landing between them can ask for one or two more: more room than kittest's four
    // steps, so a busy machine does not fail a test that has nothing to do with it.
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1200.0, 800.0))
        .with_max_steps(16)
        .build_eframe(move |cc| ChuheApp::with_storage(cc, Storage::in_dir(dir.clone())));
    harness.run();
    harness
}

/// The app opened on `dir` with `settings` saved there first.
pub fn open_with_settings(dir: &Path, settings: &Settings) -> Harness<'static, ChuheApp> {
    Storage::in_dir(dir.to_owned())
        .save_settings(settings)
        .unwrap();
    open_in(dir)
}

/// Presses `key` and lets the app settle.
pub fn key(harness: &mut Harness<'_, ChuheApp>, key: Key) {
    harness.key_press_modifiers(Modifiers::NONE, key);
    harness.run_ok();
}

/// Steps the app until `done`, for at most `limit`.
pub fn wait_for(
    harness: &mut Harness<'_, ChuheApp>,
    limit: Duration,
    done: impl Fn(&ChuheApp) -> bool,
) {
    let start = Instant::now();
    while !done(harness.state()) {
        assert!(start.elapsed() < limit, "timed out");
        std::thread::sleep(Duration::from_millis(20));
        harness.step();
    }
}

/// The main line's moves of the game on the board, in ICCS.
pub fn main_line(harness: &Harness<'_, ChuheApp>) -> Vec<String> {
    let record = &harness.state().state.study.record;
    record
        .main_line_moves()
        .iter()
        .map(|m| m.to_string())
        .collect()
}

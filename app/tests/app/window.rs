//! The window opens where and as large as it was when last closed.

use chuhe::services::storage::Storage;
use chuhe::settings::Layout;
use chuhe::{ChuheApp, DEFAULT_WINDOW_SIZE, native_options_for};
use egui::Vec2;
use egui_kittest::Harness;

#[test]
fn the_window_size_is_remembered_for_the_next_start() {
    let dir = std::env::temp_dir().join(format!("chuhe-window-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let storage = Storage::in_dir(dir.clone());
    let first = native_options_for(&storage.load_settings().0.layout);
    assert_eq!(
        first.viewport.inner_size,
        Some(Vec2::from(DEFAULT_WINDOW_SIZE))
    );

    let opened = dir.clone();
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1000.0, 700.0))
        .build_eframe(move |cc| ChuheApp::with_storage(cc, Storage::in_dir(opened.clone())));
    harness.run();
    harness.state_mut().remember_window();

    let layout = storage.load_settings().0.layout;
    assert_eq!(layout.window_size, Some([1000.0, 700.0]));
    assert!(!layout.maximized);
    let next = native_options_for(&layout);
    assert_eq!(next.viewport.inner_size, Some(Vec2::new(1000.0, 700.0)));
}

#[test]
fn a_nonsense_size_in_the_settings_opens_the_default_window() {
    let layout = Layout {
        window_size: Some([f32::NAN, 12.0]),
        window_position: Some([f32::INFINITY, 0.0]),
        ..Layout::default()
    };
    let options = native_options_for(&layout);
    assert_eq!(
        options.viewport.inner_size,
        Some(Vec2::from(DEFAULT_WINDOW_SIZE))
    );
    assert_eq!(options.viewport.position, None);
}

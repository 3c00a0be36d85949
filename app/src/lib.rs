//! Chuhe (楚河), a desktop Xiangqi study app: the egui user interface over `chuhe-core`.
//!
//! The app is a library so that tests drive the real window with egui_kittest; the
//! `chuhe` binary only opens it. The state ([`state`]) is apart from the drawing
//! ([`panels`], [`board`]); every change goes through one [`actions::Action`] type and one
//! `apply`; colours live in [`theme`], strings in `locales/` through [`i18n`], settings in
//! [`settings`].

pub mod actions;
pub mod app;
pub mod board;
pub mod editor;
pub mod engine;
pub mod files;
pub mod fonts;
pub mod i18n;
pub mod jobs;
pub mod panels;
pub mod puzzles;
pub mod review;
pub mod settings;
pub mod shortcuts;
pub mod state;
pub mod theme;

pub use app::ChuheApp;

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The window title.
pub const APP_TITLE: &str = "Chuhe (楚河)";

/// How the native window opens.
pub fn native_options() -> eframe::NativeOptions {
    eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(APP_TITLE)
            .with_app_id("chuhe")
            .with_inner_size([1100.0, 780.0])
            .with_min_inner_size([280.0, 280.0])
            .with_drag_and_drop(true),
        ..Default::default()
    }
}

/// Time since the process started (strictly: since the first call, which `main` makes
/// first thing), for the time-to-first-frame measurement.
pub fn process_age() -> Duration {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

//! Chuhe (楚河), a desktop Xiangqi study app: the egui user interface over `chuhe-core`.
//!
//! The app is a library so that tests drive the real window with egui_kittest; the
//! `chuhe` binary only opens it. Data flows one way, one layer per job:
//!
//! - [`state`]: plain data, one struct per feature; no drawing, threads or I/O.
//! - [`panels`]: draw from the state and push [`actions::Action`]s; they never change the
//!   state, never import the commands or each other (shared drawing is in [`widgets`]).
//! - [`commands`]: one `apply` per feature, the only code that changes the state.
//! - [`services`]: threads and I/O (analysis, review, background work, files, sound,
//!   pictures); their results come back as actions.
//!
//! Beside them: colours by role in [`theme`], strings in `locales/` through [`i18n`], the
//! settings' data in [`settings`].

pub mod actions;
pub mod app;
pub mod commands;
pub mod fonts;
pub mod i18n;
pub mod panels;
pub mod services;
pub mod settings;
pub mod state;
pub mod theme;
pub mod widgets;
pub mod words;

pub use app::ChuheApp;

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The window title.
pub const APP_TITLE: &str = "Chuhe (楚河)";

/// The window's size when there is none to restore.
pub const DEFAULT_WINDOW_SIZE: [f32; 2] = [1100.0, 780.0];

/// How the native window opens: where and as large as it was when last closed.
pub fn native_options() -> eframe::NativeOptions {
    let (settings, _) = services::storage::Storage::from_environment().load_settings();
    native_options_for(&settings.layout)
}

/// How the native window opens, given the remembered layout.
pub fn native_options_for(layout: &settings::Layout) -> eframe::NativeOptions {
    // A size from a bigger screen than this one is clamped by the window system.
    let size = layout
        .window_size
        .filter(|[w, h]| w.is_finite() && h.is_finite() && *w >= 280.0 && *h >= 280.0)
        .unwrap_or(DEFAULT_WINDOW_SIZE);
    let mut viewport = egui::ViewportBuilder::default()
        .with_title(APP_TITLE)
        .with_app_id("chuhe")
        .with_inner_size(size)
        .with_min_inner_size([280.0, 280.0])
        .with_maximized(layout.maximized)
        .with_drag_and_drop(true);
    if let Some(position) = layout
        .window_position
        .filter(|[x, y]| x.is_finite() && y.is_finite())
    {
        viewport = viewport.with_position(position);
    }
    eframe::NativeOptions {
        viewport,
        ..Default::default()
    }
}

/// The game file named on the command line (`chuhe FILE`, as a desktop entry's
/// `Exec=chuhe %f` runs it): the first argument after the program's name.
pub fn file_argument(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Option<std::path::PathBuf> {
    args.into_iter().nth(1).map(std::path::PathBuf::from)
}

/// Time since the process started (strictly: since the first call, which `main` makes
/// first thing), for the time-to-first-frame measurement.
pub fn process_age() -> Duration {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

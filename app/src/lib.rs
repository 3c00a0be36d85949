//! Chuhe (楚河), a desktop Xiangqi study app: the egui user interface over `chuhe-core`.
//!
//! The app is a library so that tests drive the real window with egui_kittest; the
//! `chuhe` binary only opens it.

pub mod app;
pub mod board;
pub mod fonts;
pub mod theme;

pub use app::ChuheApp;

/// The window title.
pub const APP_TITLE: &str = "Chuhe (楚河)";

/// How the native window opens.
pub fn native_options() -> eframe::NativeOptions {
    eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(APP_TITLE)
            .with_app_id("chuhe")
            .with_inner_size([720.0, 760.0])
            .with_min_inner_size([280.0, 280.0]),
        ..Default::default()
    }
}

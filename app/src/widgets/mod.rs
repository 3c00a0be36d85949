//! Drawing and input shared by the panels: the board, its interaction controller, the
//! keyboard shortcuts.

pub mod board;
pub mod board_input;
pub mod board_menu;
pub mod draft;
pub mod quiz;
pub mod shortcuts;
pub mod text;

use crate::i18n::I18n;
use crate::state::State;
use crate::theme::Palette;
use chuhe_core::{Move, Position};

/// What the panels draw from: the state, the translations, and the frame time.
pub struct View<'a> {
    /// Everything shown.
    pub state: &'a State,
    /// The translations, in the interface language.
    pub i18n: &'a I18n,
    /// The app's mean work per frame, in milliseconds (for the status bar).
    pub frame_ms: f64,
    /// egui's clock this frame, in seconds (for what fades).
    pub now: f64,
}

impl View<'_> {
    /// The colours of the panels' words and marks in the chosen theme.
    pub fn palette(&self) -> Palette {
        self.state.settings.theme.theme().palette
    }

    /// How `m`, played from `position`, is written in the notation the study uses: every
    /// panel that names a move writes it so.
    pub fn move_text(&self, position: &Position, m: Move) -> String {
        chuhe_core::notation::format_move(position, m, self.state.settings.notation.notation())
    }

    /// A numbered line of moves from `position`, written as [`View::move_text`] writes a
    /// move.
    pub fn line_text(&self, position: &Position, line: &[Move]) -> String {
        crate::words::text::line_text(position, line, self.state.settings.notation.notation())
    }
}

/// The key in egui's memory of the area floating windows may use.
const WINDOW_AREA: &str = "chuhe window area";

/// Notes the area floating windows may use this frame: the window under the menu bar.
pub fn remember_window_area(ctx: &egui::Context, area: egui::Rect) {
    ctx.data_mut(|d| d.insert_temp(egui::Id::unique(WINDOW_AREA), area));
}

/// The area floating windows and dialogs are kept inside, so none covers the menu bar:
/// what [`remember_window_area`] noted, or the whole window before the first layout.
pub fn window_area(ctx: &egui::Context) -> egui::Rect {
    ctx.data(|d| d.get_temp(egui::Id::unique(WINDOW_AREA)))
        .unwrap_or_else(|| ctx.content_rect())
}

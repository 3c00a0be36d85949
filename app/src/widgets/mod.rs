//! Drawing and input shared by the panels: the board, its interaction controller, the
//! keyboard shortcuts.

pub mod board;
pub mod board_input;
pub mod draft;
pub mod problems;
pub mod shortcuts;
pub mod text;

use crate::i18n::I18n;
use crate::state::State;
use crate::theme::Palette;

/// What the panels draw from: the state, the translations, and the frame time.
pub struct View<'a> {
    /// Everything shown.
    pub state: &'a State,
    /// The translations, in the interface language.
    pub i18n: &'a I18n,
    /// The app's mean work per frame, in milliseconds (for the status bar).
    pub frame_ms: f64,
}

impl View<'_> {
    /// The colours of the panels' words and marks in the chosen theme.
    pub fn palette(&self) -> Palette {
        self.state.settings.theme.theme().palette
    }
}

//! How the board and moves are shown.

use super::Ctx;
use crate::actions::*;
use crate::i18n::Language;
use crate::settings::MoveNotation;

impl Ctx<'_> {
    /// Carries out a view action.
    pub(super) fn view(&mut self, action: ViewAction) {
        match action {
            ViewAction::Flip => match &mut self.state.play {
                // Turning the board in a game turns the game's view, not the study's.
                Some(game) => game.flipped = !game.flipped,
                None => self.change_settings(|s| s.flipped = !s.flipped),
            },
            ViewAction::SetCoordinates(c) => self.change_settings(|s| s.coordinates = c),
            ViewAction::ToggleDestinations => {
                self.change_settings(|s| s.show_destinations = !s.show_destinations)
            }
            ViewAction::ToggleSounds => self.change_settings(|s| s.mute = !s.mute),
            ViewAction::SetTheme(theme) => {
                self.change_settings(|s| s.theme = theme);
                self.services.apply_visuals(self.state);
            }
            ViewAction::SetScoreUnit(unit) => self.change_settings(|s| s.score_unit = unit),
            ViewAction::SetNotation(n) => {
                self.change_settings(|s| s.notation = n);
                self.state.refresh();
            }
            ViewAction::SetLanguage(language) => {
                self.services.i18n.set_language(language);
                // Chinese moves follow the script of the interface.
                self.change_settings(|s| {
                    s.language = language;
                    s.notation = match (language, s.notation) {
                        (Language::ZhTw, MoveNotation::Chinese) => MoveNotation::ChineseTraditional,
                        (Language::ZhCn, MoveNotation::ChineseTraditional) => MoveNotation::Chinese,
                        (_, notation) => notation,
                    };
                });
                self.state.refresh();
            }
            ViewAction::ToggleBoardOnly => {
                self.change_settings(|s| s.layout.board_only = !s.layout.board_only)
            }

            ViewAction::ToggleSidePanel => {
                self.state.side_panel_shown = !self.state.side_panel_shown
            }
            ViewAction::SetSidePanelWidth(width) => {
                self.change_settings(|s| s.layout.side_panel_width = width)
            }
            ViewAction::ToggleFrameTime => {
                self.change_settings(|s| s.show_frame_time = !s.show_frame_time)
            }
            ViewAction::DismissToast(id) => self.state.toasts.dismiss(id),
            ViewAction::DismissWelcome => self.change_settings(|s| s.show_welcome = false),
        }
    }
}

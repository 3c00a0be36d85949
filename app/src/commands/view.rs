//! How the board and moves are shown.

use super::SettingsMut;
use crate::actions::*;
use crate::i18n::{I18n, Language};
use crate::settings::MoveNotation;
use crate::state::study::Study;

/// What the view's choices change: the settings, the turn of a game in play's board, the
/// side panel, the toasts, the moves as written (in the notation and language chosen).
pub(super) struct Viewing<'a> {
    pub settings: SettingsMut<'a>,
    pub play: Option<&'a mut crate::state::play::Match>,
    pub side_panel_shown: &'a mut bool,
    pub toasts: &'a mut crate::state::toasts::Toasts,
    pub study: &'a mut Study,
    pub i18n: &'a mut I18n,
    pub ui: &'a egui::Context,
}

impl Viewing<'_> {
    /// Carries out a view action.
    pub(super) fn run(mut self, action: ViewAction) {
        let settings = &mut self.settings;
        match action {
            ViewAction::Flip => match self.play {
                // Turning the board in a game turns the game's view, not the study's.
                Some(game) => game.flipped = !game.flipped,
                None => settings.change(|s| s.flipped = !s.flipped),
            },
            ViewAction::SetCoordinates(c) => settings.change(|s| s.coordinates = c),
            ViewAction::ToggleDestinations => {
                settings.change(|s| s.show_destinations = !s.show_destinations)
            }
            ViewAction::ToggleSounds => settings.change(|s| s.mute = !s.mute),
            ViewAction::SetTheme(theme) => {
                settings.change(|s| s.theme = theme);
                crate::services::apply_visuals(self.ui, theme);
            }
            ViewAction::SetScoreUnit(unit) => settings.change(|s| s.score_unit = unit),
            ViewAction::SetNotation(n) => {
                settings.change(|s| s.notation = n);
                self.study.refresh(settings.get());
            }
            ViewAction::SetLanguage(language) => {
                self.i18n.set_language(language);
                // Chinese moves follow the script of the interface.
                settings.change(|s| {
                    s.language = language;
                    s.notation = match (language, s.notation) {
                        (Language::ZhTw, MoveNotation::Chinese) => MoveNotation::ChineseTraditional,
                        (Language::ZhCn, MoveNotation::ChineseTraditional) => MoveNotation::Chinese,
                        (_, notation) => notation,
                    };
                });
                self.study.refresh(settings.get());
            }
            ViewAction::ToggleBoardOnly => {
                settings.change(|s| s.layout.board_only = !s.layout.board_only)
            }
            ViewAction::ToggleSidePanel => *self.side_panel_shown = !*self.side_panel_shown,
            ViewAction::SetSidePanelWidth(width) => {
                settings.change(|s| s.layout.side_panel_width = width)
            }
            ViewAction::ToggleFrameTime => {
                settings.change(|s| s.show_frame_time = !s.show_frame_time)
            }
            ViewAction::DismissToast(id) => self.toasts.dismiss(id),
            ViewAction::DismissWelcome => settings.change(|s| s.show_welcome = false),
        }
    }
}

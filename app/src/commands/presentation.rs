//! Presentation mode and the audience window.

use super::Ctx;
use crate::actions::*;
use crate::theme::ThemeChoice;

impl Ctx<'_> {
    /// Carries out a presentation action.
    pub(super) fn presentation(&mut self, action: PresentationAction) {
        match action {
            PresentationAction::Toggle => {
                if self.state.presentation.is_some() {
                    self.end_presentation();
                } else {
                    self.start_presentation();
                }
            }
            PresentationAction::End => self.end_presentation(),
            PresentationAction::ToggleAudience => self.state.audience = !self.state.audience,
            PresentationAction::ToggleMoves => {
                if let Some(p) = &mut self.state.presentation {
                    p.show_moves = !p.show_moves;
                }
            }
            PresentationAction::PresentPuzzle { set, index } => {
                let Some(puzzle) = self
                    .state
                    .puzzles
                    .sets
                    .get(set)
                    .and_then(|s| s.set.puzzles.get(index))
                else {
                    return;
                };
                let record = puzzle.to_record();
                self.state.puzzles.browser_open = false;
                self.open_record(record, None);
                self.state.study.folder = None;
                // The solver's side at the bottom, as in solve mode.
                let black =
                    self.state.study.record.start().side_to_move() == chuhe_core::Color::Black;
                if self.state.settings.flipped != black {
                    self.push(Action::View(ViewAction::Flip));
                }
                if self.state.presentation.is_none() {
                    self.start_presentation();
                }
                if let Some(p) = &mut self.state.presentation {
                    p.show_moves = true;
                }
            }
        }
    }
}

impl Ctx<'_> {
    pub(super) fn start_presentation(&mut self) {
        let settings = &mut self.state.settings;
        self.state.presentation = Some(crate::state::presentation::Presentation {
            theme: settings.theme,
            board_only: settings.layout.board_only,
            engine_hidden: self.state.analysis.engine_hidden,
            show_moves: false,
        });
        // Not through change_settings: these are the projector's, not the user's choices.
        settings.theme = ThemeChoice::HighContrast;
        settings.layout.board_only = true;
        self.state.analysis.engine_hidden = true;
        self.services.apply_visuals(self.state);
        self.services
            .ui
            .send_viewport_cmd(egui::ViewportCommand::Fullscreen(true));
    }

    pub(super) fn end_presentation(&mut self) {
        let Some(before) = self.state.presentation.take() else {
            return;
        };
        self.state.settings.theme = before.theme;
        self.state.settings.layout.board_only = before.board_only;
        self.state.analysis.engine_hidden = before.engine_hidden;
        self.services.apply_visuals(self.state);
        self.services
            .ui
            .send_viewport_cmd(egui::ViewportCommand::Fullscreen(false));
    }
}

//! Presentation mode and the audience window.

use super::Queue;
use crate::actions::*;
use crate::settings::Settings;
use crate::state::presentation::Presentation;
use crate::theme::ThemeChoice;

/// What presenting changes: the mode itself, the audience window, the settings it sets
/// for the projector (and puts back after), whether the engine is hidden; the puzzles, to
/// present one.
pub(super) struct Presenting<'a> {
    pub presentation: &'a mut Option<Presentation>,
    pub audience: &'a mut bool,
    /// Not a `SettingsMut`: the theme and layout set here are the projector's, not the
    /// user's choices, and are not saved.
    pub settings: &'a mut Settings,
    pub engine_hidden: &'a mut bool,
    pub puzzles: &'a mut crate::state::puzzles::Puzzles,
    pub ui: &'a egui::Context,
    pub queue: &'a mut Queue,
}

impl Presenting<'_> {
    /// Carries out a presentation action.
    pub(super) fn run(mut self, action: PresentationAction) {
        match action {
            PresentationAction::Toggle => {
                if self.presentation.is_some() {
                    self.end();
                } else {
                    self.start();
                }
            }
            PresentationAction::End => self.end(),
            PresentationAction::ToggleAudience => *self.audience = !*self.audience,
            PresentationAction::ToggleMoves => {
                if let Some(p) = self.presentation {
                    p.show_moves = !p.show_moves;
                }
            }
            PresentationAction::PresentPuzzle { set, index } => {
                let Some(puzzle) = self
                    .puzzles
                    .sets
                    .get(set)
                    .and_then(|s| s.set.puzzles.get(index))
                else {
                    return;
                };
                let record = puzzle.to_record();
                // The solver's side at the bottom, as in solve mode.
                let black = record.start().side_to_move() == chuhe_core::Color::Black;
                let root = record.root();
                self.puzzles.browser_open = false;
                self.queue
                    .push(TabAction::Open(OpenGame::new(record, root)).into());
                if self.settings.flipped != black {
                    self.queue.push(ViewAction::Flip.into());
                }
                if self.presentation.is_none() {
                    self.start();
                }
                if let Some(p) = self.presentation {
                    p.show_moves = true;
                }
            }
        }
    }

    fn start(&mut self) {
        let settings = &mut *self.settings;
        *self.presentation = Some(Presentation {
            theme: settings.theme,
            board_only: settings.layout.board_only,
            engine_hidden: *self.engine_hidden,
            show_moves: false,
        });
        settings.theme = ThemeChoice::HighContrast;
        settings.layout.board_only = true;
        *self.engine_hidden = true;
        crate::services::apply_visuals(self.ui, settings.theme);
        self.ui
            .send_viewport_cmd(egui::ViewportCommand::Fullscreen(true));
    }

    fn end(&mut self) {
        let Some(before) = self.presentation.take() else {
            return;
        };
        self.settings.theme = before.theme;
        self.settings.layout.board_only = before.board_only;
        *self.engine_hidden = before.engine_hidden;
        crate::services::apply_visuals(self.ui, self.settings.theme);
        self.ui
            .send_viewport_cmd(egui::ViewportCommand::Fullscreen(false));
    }
}

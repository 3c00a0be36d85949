//! Quitting and the dialogs about unsaved work.

use super::Ctx;
use crate::actions::*;
use crate::state::Dialog;

impl Ctx<'_> {
    /// Carries out a window action.
    pub(super) fn window(&mut self, action: WindowAction) {
        match action {
            WindowAction::RequestQuit => {
                if self.state.study.dirty {
                    self.state.dialog = Some(Dialog::UnsavedOnQuit);
                } else {
                    self.quit();
                }
            }
            WindowAction::SaveAndQuit => {
                self.state.dialog = None;
                self.apply(Action::File(FileAction::Save));
                if !self.state.study.dirty {
                    self.quit();
                }
            }
            WindowAction::DiscardAndQuit => {
                self.state.study.dirty = false;
                self.quit();
            }
            WindowAction::DiscardAndContinue => {
                if let Some(Dialog::UnsavedOnReplace) = self.state.dialog.take()
                    && let Some(next) = self.services.held.take()
                {
                    self.state.study.dirty = false;
                    self.apply(next);
                }
            }
            WindowAction::SaveAndContinue => {
                self.state.dialog = None;
                self.apply(Action::File(FileAction::Save));
                // Saved (not cancelled in the file dialog, not failed): go on; otherwise the
                // held action is dropped and the work stays on the board, unsaved.
                let next = self.services.held.take();
                if !self.state.study.dirty
                    && let Some(next) = next
                {
                    self.apply(next);
                }
            }
            WindowAction::CloseDialog => {
                self.state.dialog = None;
                self.services.held = None;
            }
        }
    }
}

impl Ctx<'_> {
    pub(super) fn quit(&mut self) {
        if !self.state.study.dirty {
            self.remove_autosave();
        }
        self.services.allowed_to_close = true;
        self.services
            .ui
            .send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

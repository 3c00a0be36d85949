//! Quitting and the dialogs about unsaved work.

use super::Ctx;
use crate::actions::*;
use crate::state::Dialog;
use crate::state::file_chooser::AfterSave;

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
                self.save_then(AfterSave::Quit);
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
                // Goes on once saved (perhaps after a file is chosen); a cancelled or failed
                // save drops the held action and the work stays on the board, unsaved.
                self.save_then(AfterSave::Continue);
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

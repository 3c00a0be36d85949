//! Quitting and the dialogs about unsaved work.

use super::Ctx;
use crate::actions::*;
use crate::state::Dialog;

impl Ctx<'_> {
    /// Carries out a window action.
    pub(super) fn window(&mut self, action: WindowAction) {
        match action {
            WindowAction::RequestQuit => {
                if self.state.any_dirty() {
                    self.state.dialog = Some(Dialog::UnsavedOnQuit);
                } else {
                    self.quit();
                }
            }
            WindowAction::SaveAndQuit => {
                self.state.dialog = None;
                self.save_every_tab();
                if !self.state.any_dirty() {
                    self.quit();
                }
            }
            WindowAction::DiscardAndQuit => {
                self.state.study.dirty = false;
                for study in &mut self.state.tabs.others {
                    study.dirty = false;
                }
                self.quit();
            }
            WindowAction::DiscardAndContinue => {
                if let Some(Dialog::UnsavedOnReplace | Dialog::UnsavedOnCloseTab) =
                    self.state.dialog.take()
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
    /// Saves each game with unsaved changes, each brought to the board in turn (one without
    /// a file asks where); stops at the first that stays unsaved, on the board to be seen.
    fn save_every_tab(&mut self) {
        let count = self.state.tab_count();
        for at in 0..count {
            if self.state.all_tabs().nth(at).is_some_and(|s| s.dirty) {
                self.apply(Action::Tabs(TabAction::Switch(at)));
                self.apply(Action::File(FileAction::Save));
                if self.state.study.dirty {
                    return;
                }
            }
        }
    }

    pub(super) fn quit(&mut self) {
        if !self.state.any_dirty() {
            self.remove_autosave();
        }
        self.services.allowed_to_close = true;
        self.services
            .ui
            .send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

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
                if self.state.any_dirty() {
                    self.state.dialog = Some(Dialog::UnsavedOnQuit);
                } else {
                    self.quit();
                }
            }
            WindowAction::SaveAndQuit => {
                self.state.dialog = None;
                self.save_dirty_tabs_then_quit();
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
                    && let Some(next) = self.queue.held.take()
                {
                    self.state.study.dirty = false;
                    self.push(next);
                }
            }
            WindowAction::SaveAndContinue => {
                self.state.dialog = None;
                // Goes on once saved (perhaps after a file is chosen); a cancelled or failed
                // save drops the held action and the work stays on the board, unsaved.
                self.push(Action::File(FileAction::SaveThen(AfterSave::Continue)));
            }
            WindowAction::CloseDialog => {
                self.state.dialog = None;
                self.queue.held = None;
            }
            WindowAction::Ask(dialog) => self.state.dialog = Some(dialog),
            WindowAction::Dismiss => self.state.dialog = None,
        }
    }
}

impl Ctx<'_> {
    /// Saves the first game with unsaved changes, brought to the board (one without a
    /// file asks where, perhaps in the in-app browser); once it is saved the next one
    /// follows, and when none is left the app quits. A cancelled or failed save stops
    /// there, that game on the board to be seen.
    fn save_dirty_tabs_then_quit(&mut self) {
        let dirty = (0..self.state.tab_count())
            .find(|&at| self.state.all_tabs().nth(at).is_some_and(|s| s.dirty));
        match dirty {
            Some(at) => {
                self.switch_tab(at);
                self.push(Action::File(FileAction::SaveThen(AfterSave::Quit)));
            }
            None => self.quit(),
        }
    }

    fn quit(&mut self) {
        if !self.state.any_dirty() {
            self.remove_autosave();
        }
        self.state.bookkeeping.allowed_to_close = true;
        self.services
            .ui
            .send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

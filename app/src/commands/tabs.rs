//! The tabs: switching games, opening new ones beside the others, closing them.

use super::Ctx;
use crate::actions::*;
use crate::state::Dialog;

impl Ctx<'_> {
    /// Carries out a tab action.
    pub(super) fn tabs(&mut self, action: TabAction) {
        let count = self.state.tab_count();
        let active = self.state.tabs.active;
        match action {
            TabAction::New => {
                self.leave_game();
                self.state.new_tab();
            }
            TabAction::Switch(to) => self.switch_tab(to),
            TabAction::Next => self.switch_tab((active + 1) % count),
            TabAction::Previous => self.switch_tab((active + count - 1) % count),
            TabAction::Close(at) => self.close_tab(at),
            TabAction::CloseActive => self.close_tab(active),
            TabAction::Open(game) => {
                let cursor = game.cursor;
                self.open_record(std::sync::Arc::unwrap_or_clone(game.record), None);
                self.start_at(cursor);
            }
            TabAction::Replace(game) => {
                let cursor = game.cursor;
                let record = std::sync::Arc::unwrap_or_clone(game.record);
                self.state.replace_record(record, None);
                self.start_at(cursor);
            }
        }
    }

    /// A made game just put on the board shows `cursor`; it belongs to no folder.
    fn start_at(&mut self, cursor: chuhe_core::record::NodeId) {
        self.state.study.cursor = cursor;
        self.state.refresh();
        self.state.study.folder = None;
    }

    /// Closes tab `at`. Its game is brought to the board first, so that a question about
    /// unsaved changes is asked about the game in sight (and 保存 saves that one).
    fn close_tab(&mut self, at: usize) {
        self.switch_tab(at);
        if self.state.tabs.active != at {
            return;
        }
        if self.state.study.dirty {
            self.state.dialog = Some(Dialog::UnsavedOnCloseTab);
            self.queue.held = Some(Action::Tabs(TabAction::Close(at)));
            return;
        }
        self.leave_game();
        self.state.close_active_tab();
    }
}

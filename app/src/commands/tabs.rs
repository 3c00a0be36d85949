//! The tabs: switching games, opening new ones beside the others, closing them.

use super::Ctx;
use crate::actions::*;
use crate::state::Dialog;
use chuhe_core::record::Record;
use std::path::PathBuf;

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
        }
    }

    /// Puts tab `to`'s game on the board.
    fn switch_tab(&mut self, to: usize) {
        if to != self.state.tabs.active && to < self.state.tab_count() {
            self.leave_game();
            self.state.switch_tab(to);
        }
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
            self.services.held = Some(Action::Tabs(TabAction::Close(at)));
            return;
        }
        self.leave_game();
        self.state.close_active_tab();
    }

    /// What the game on the board leaves behind when another takes its place: the
    /// engine's view of it, a review of it (the analysis then follows the new game).
    fn leave_game(&mut self) {
        self.engine(EngineAction::CancelReview);
        self.state.analysis.engine = None;
        self.state.notice = None;
    }

    /// Opens `record` as a game of its own: in a new tab, unless the tab on the board holds
    /// an empty, untouched game, which it replaces.
    pub(super) fn open_record(&mut self, record: Record, file: Option<PathBuf>) {
        self.blank_tab();
        self.state.replace_record(record, file);
    }

    /// Puts an empty, untouched game on the board: the one there, or a new tab's.
    pub(super) fn blank_tab(&mut self) {
        if !self.state.study.is_blank() {
            self.leave_game();
            self.state.new_tab();
        }
    }
}

//! The study board: moving through the game, playing moves into the record, editing it.

use super::Ctx;
use crate::actions::*;
use crate::services::files::{self};
use crate::state::Notice;
use crate::state::pick::{self, Click};
use crate::state::study::Sound;
use chuhe_core::record::{NodeId, Record};
use chuhe_core::{Move, Square};

impl Ctx<'_> {
    /// Carries out a study action.
    pub(super) fn study(&mut self, action: StudyAction) {
        let cursor = self.state.study.cursor;
        match action {
            StudyAction::ClickPoint(square) => self.click_point(square),
            StudyAction::PlayMove(m) => self.play_move(m),
            StudyAction::Deselect => self.state.study.selected = None,
            StudyAction::ToggleArrow(arrow) => {
                self.edit(|r| r.toggle_arrow(cursor, arrow).map(|_| ()))
            }
            StudyAction::ToggleCircle(circle) => {
                self.edit(|r| r.toggle_circle(cursor, circle).map(|_| ()))
            }
            StudyAction::ClearMarks => self.edit(|r| r.clear_marks(cursor).map(|_| ())),

            StudyAction::GoTo(node) => self.go_to(node),
            StudyAction::Back => {
                if let Some(parent) = self.state.study.record.parent(cursor) {
                    self.go_to(parent);
                }
            }
            StudyAction::Forward => {
                if let Some(next) = self.state.study.record.main_child(cursor) {
                    self.go_to(next);
                }
            }
            StudyAction::Start => self.go_to(self.state.study.record.root()),
            StudyAction::End => self.go_to(self.state.study.record.line_end(cursor)),
            StudyAction::PreviousVariation => {
                if let Some(other) = self.state.study.record.previous_sibling(cursor) {
                    self.go_to(other);
                }
            }
            StudyAction::NextVariation => {
                if let Some(other) = self.state.study.record.next_sibling(cursor) {
                    self.go_to(other);
                }
            }

            StudyAction::DeleteFrom(node) => {
                if let Ok(parent) = self.state.study.record.delete_from(node) {
                    if !self.state.study.record.is_live(self.state.study.cursor) {
                        self.state.study.cursor = parent;
                    }
                    self.edited();
                }
            }
            StudyAction::PromoteVariation(node) => {
                self.edit(|r| r.promote_variation(node).map(|_| ()))
            }
            StudyAction::MakeMainLine(node) => self.edit(|r| r.make_main_line(node).map(|_| ())),
            StudyAction::SetComment(node, text) => {
                self.edit(|r| r.set_comment(node, &text).map(|_| ()))
            }
            StudyAction::ToggleNag(node, nag) => self.edit(|r| r.toggle_nag(node, nag).map(|_| ())),
            StudyAction::SetHeader(name, value) => {
                let changed = if value.trim().is_empty() {
                    self.state.study.record.remove_header(&name)
                } else {
                    self.state.study.record.set_header(&name, &value)
                };
                if changed {
                    self.edited();
                }
            }
            StudyAction::Undo => {
                if self.state.study.record.undo() {
                    self.edited();
                }
            }
            StudyAction::Redo => {
                if self.state.study.record.redo() {
                    self.edited();
                }
            }
            StudyAction::PlayLine(node, moves) => self.play_line(node, &moves),

            StudyAction::CopyFen => {
                self.services
                    .ui
                    .copy_text(self.state.position().to_string());
                self.state.notice = Some(Notice::Message("notice-copied-fen"));
            }
            StudyAction::CopyPgn => {
                let notation = self.state.settings.notation.notation();
                self.services
                    .ui
                    .copy_text(files::to_pgn(&self.state.study.record, notation));
                self.state.notice = Some(Notice::Message("notice-copied-pgn"));
            }
            StudyAction::CopyDhtmlXq => {
                self.services
                    .ui
                    .copy_text(files::to_dhtmlxq(&self.state.study.record));
                self.state.notice = Some(Notice::Message("notice-copied-dhtmlxq"));
            }
            StudyAction::ToggleVariation(first) => self.toggle_variation(first),
        }
    }
}

impl Ctx<'_> {
    /// A first click picks up one of the mover's pieces; a second click on another of
    /// them picks that up instead, anywhere else it tries the move.
    pub(super) fn click_point(&mut self, square: Square) {
        let position = self.state.position();
        match pick::click(position, self.state.study.selected, square) {
            Click::PutDown => self.state.study.selected = None,
            Click::PickUp(square) => {
                self.state.study.selected = Some(square);
                self.state.notice = None;
            }
            Click::Move(m) => self.play_move(m),
            Click::Miss => {
                if let Err(illegal) = position.check_move(Move::new(square, square)) {
                    // Only a click on a piece says why it cannot move: an empty point
                    // is just a miss.
                    if position.piece_at(square).is_some() {
                        self.state.notice = Some(Notice::Illegal(illegal.reason));
                    }
                }
            }
        }
    }

    /// Plays `m` after the cursor (a new variation if the cursor has a continuation that
    /// differs), or says why it is illegal.
    pub(super) fn play_move(&mut self, m: Move) {
        self.state.study.selected = None;
        if !self.state.match_allows_move() {
            return;
        }
        if self.state.study.derived.outcome.is_some() {
            self.state.notice = Some(Notice::Message("notice-game-over"));
            return;
        }
        if let Err(illegal) = self.state.position().check_move(m) {
            self.state.notice = Some(Notice::Illegal(illegal.reason));
            return;
        }
        let cursor = self.state.study.cursor;
        let had = self
            .state
            .study
            .record
            .children(cursor)
            .any(|c| self.state.study.record.move_at(c) == Some(m));
        match self.state.study.record.add_move(cursor, m) {
            Ok(node) => {
                self.state.study.cursor = node;
                self.state.notice = None;
                if !had {
                    self.edited();
                } else {
                    self.state.refresh();
                }
                if self.state.play.is_some() {
                    let mover = !self.state.position().side_to_move();
                    self.push(Action::Play(PlayAction::Moved(mover)));
                }
            }
            Err(_) => self.state.notice = Some(Notice::Message("notice-edit-failed")),
        }
    }

    pub(super) fn play_line(&mut self, node: NodeId, moves: &[Move]) {
        let mut at = node;
        let mut first = None;
        for &m in moves {
            match self.state.study.record.add_move(at, m) {
                Ok(next) => {
                    first.get_or_insert(next);
                    at = next;
                }
                Err(_) => break,
            }
        }
        if let Some(first) = first {
            self.state.study.cursor = first;
            self.edited();
        }
    }

    /// Opens or closes a variation. Closing the one the board is inside brings the board
    /// back to its first move, which stays in view.
    fn toggle_variation(&mut self, first: NodeId) {
        let study = &mut self.state.study;
        if !study.record.is_live(first) {
            return;
        }
        if !study.collapsed.remove(&first) {
            study.collapsed.insert(first);
            if study.cursor != first && study.record.path(study.cursor).contains(&first) {
                study.cursor = first;
                study.selected = None;
            }
        }
        self.state.refresh();
    }

    pub(super) fn go_to(&mut self, node: NodeId) {
        if self.state.study.record.is_live(node) {
            self.state.study.cursor = node;
            self.state.study.selected = None;
            self.state.refresh();
        }
    }

    /// Makes an undoable edit of the record.
    pub(super) fn edit(
        &mut self,
        edit: impl FnOnce(&mut Record) -> Result<(), chuhe_core::record::EditError>,
    ) {
        match edit(&mut self.state.study.record) {
            Ok(()) => self.edited(),
            Err(_) => self.state.notice = Some(Notice::Message("notice-edit-failed")),
        }
    }

    pub(super) fn edited(&mut self) {
        self.state.mark_edited();
        self.state.refresh();
    }

    /// A move made on the board or stepped to (one move on from where the board was) is
    /// heard: a tap, a capture's knock, a check's tone, or the end of the game.
    pub(super) fn sound_of_play(&mut self) {
        let now = (self.state.study.generation, self.state.study.cursor);
        let before = std::mem::replace(&mut self.state.bookkeeping.sound_cursor, now);
        if before == now
            || before.0 != now.0
            || self.state.study.record.parent(now.1) != Some(before.1)
            || self.state.settings.mute
        {
            return;
        }
        let record = &self.state.study.record;
        let (Some(m), Some(earlier)) = (record.move_at(now.1), record.position_at(before.1)) else {
            return;
        };
        let position = self.state.position();
        let sound =
            if self.state.study.derived.outcome.is_some() || position.legal_moves().is_empty() {
                Sound::GameEnd
            } else if position.is_check() {
                Sound::Check
            } else if earlier.piece_at(m.to).is_some() {
                Sound::Capture
            } else {
                Sound::Move
            };
        self.state.study.last_sound = Some(sound);
        self.services.sounds.play(sound);
    }
}

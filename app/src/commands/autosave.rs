//! The autosave: every open game, with its unsaved changes (moves, comments, glyphs,
//! headers, marks), written to one PGN file soon after each change, so a crash or a kill
//! loses at most a second or two of work; brought back at the next start.

use super::Ctx;
use crate::services::AUTOSAVE_INTERVAL;
use crate::services::files::{self, Loaded};
use crate::state::Notice;
use crate::words::problems;
use chuhe_core::record::Record;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;

/// Headers the autosave adds to each game and takes off again when restoring: which tab
/// was on the board, the file the game came from, and whether it had been saved.
const ACTIVE_TAG: &str = "ChuheActiveTab";
const FILE_TAG: &str = "ChuheFile";
const SAVED_TAG: &str = "ChuheSaved";

/// One game of the autosave, as written and as read back.
struct Saved {
    record: Record,
    file: Option<PathBuf>,
    dirty: bool,
    active: bool,
}

impl Saved {
    /// The game as one PGN game, the tab's facts in headers of its own.
    fn to_pgn(&self) -> String {
        let mut record = self.record.clone();
        if self.active {
            record.set_header(ACTIVE_TAG, "true");
        }
        if let Some(file) = &self.file {
            record.set_header(FILE_TAG, &file.to_string_lossy());
        }
        if !self.dirty {
            record.set_header(SAVED_TAG, "true");
        }
        files::to_pgn(&record, chuhe_core::Notation::Iccs)
    }

    /// A game read back, its tab's headers taken off.
    fn from_record(mut record: Record) -> Saved {
        let mut take = |name: &str| {
            let value = record.headers().get(name).map(str::to_owned);
            record.remove_header(name);
            value
        };
        let active = take(ACTIVE_TAG).is_some();
        let file = take(FILE_TAG).filter(|f| !f.is_empty()).map(PathBuf::from);
        let dirty = take(SAVED_TAG).is_none();
        Saved {
            record,
            file,
            dirty,
            active,
        }
    }
}

impl Ctx<'_> {
    /// What the autosave would hold now, in one number: which tab is on the board and,
    /// for each tab, which record it holds, how far it was edited and whether it is saved.
    fn autosave_stamp(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.state.tabs.active.hash(&mut hasher);
        for study in self.state.all_tabs() {
            (study.generation, study.edits, study.dirty).hash(&mut hasher);
        }
        hasher.finish()
    }

    /// Brings the autosaved games back, each in its tab, the one that was on the board
    /// on it again; or throws them away.
    pub(super) fn restore_autosave(&mut self, restore: bool) {
        let Some(path) = self.services.storage.autosave_path() else {
            return;
        };
        if !restore {
            self.remove_autosave();
            return;
        }
        let records = match files::load_file(&path) {
            Ok(Loaded::One(game)) => vec![game.record],
            Ok(Loaded::Many(list)) => list.games.into_iter().map(|g| g.record).collect(),
            Err(_) => Vec::new(),
        };
        if records.is_empty() {
            self.state.notice = Some(Notice::Message("notice-restore-failed"));
            return;
        }
        self.blank_tab();
        let first = self.state.tabs.active;
        let mut on_board = first;
        for (i, record) in records.into_iter().enumerate() {
            let saved = Saved::from_record(record);
            if i > 0 {
                self.state.new_tab();
            }
            self.state.replace_record(saved.record, saved.file);
            if saved.dirty {
                // Restored work is unsaved work.
                self.state.mark_edited();
            }
            if saved.active {
                on_board = first + i;
            }
        }
        self.state.switch_tab(on_board);
        self.state.notice = Some(Notice::Message("notice-restored"));
    }

    pub(super) fn remove_autosave(&mut self) {
        self.services.storage.remove_autosave();
        self.state.bookkeeping.autosaved = self.autosave_stamp();
    }

    /// After a game was saved: the autosave keeps the others' unsaved work, or goes when
    /// there is none.
    pub(super) fn autosave_after_saving(&mut self) {
        if self.state.any_dirty() {
            self.autosave(true);
        } else {
            self.remove_autosave();
        }
    }

    /// Writes every open game to the autosave file when there is unsaved work it does not
    /// hold yet: at once after a quiet while, otherwise at most once per
    /// [`AUTOSAVE_INTERVAL`] (`force`: now). Asks for a frame when a write is due, since
    /// no input may come to run one.
    pub(super) fn autosave(&mut self, force: bool) {
        if !self.state.any_dirty() {
            return;
        }
        let stamp = self.autosave_stamp();
        if self.state.bookkeeping.autosaved == stamp {
            return;
        }
        // egui's clock: the frames' own time, which tests step as they please.
        let now = self.services.ui.input(|i| i.time);
        let since = now - self.state.bookkeeping.last_autosave;
        if !force && since < AUTOSAVE_INTERVAL.as_secs_f64() {
            self.services.ui.request_repaint_after(
                AUTOSAVE_INTERVAL.saturating_sub(std::time::Duration::from_secs_f64(since)),
            );
            return;
        }
        if self.services.storage.autosave_path().is_none() {
            return;
        }
        self.state.bookkeeping.last_autosave = now;
        let active = self.state.tabs.active;
        let text = self
            .state
            .all_tabs()
            .enumerate()
            .map(|(i, study)| {
                Saved {
                    record: study.record.clone(),
                    file: study.file.clone(),
                    dirty: study.dirty,
                    active: i == active,
                }
                .to_pgn()
            })
            .collect::<Vec<_>>()
            .join("\n\n");
        match self.services.storage.write_autosave(&text) {
            Ok(()) => self.state.bookkeeping.autosaved = stamp,
            Err(e) => self.state.notice = Some(Notice::Problem(problems::autosave_failed(&e))),
        }
    }
}

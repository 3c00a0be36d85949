//! Opening and saving game files.

use super::Ctx;
use crate::actions::*;
use crate::services::files::{self, LoadError, Loaded};
use crate::state::Notice;
use crate::state::file_chooser::{AfterSave, FilePurpose};
use crate::state::study::Folder;
use chuhe_core::record::Record;
use std::path::PathBuf;

impl Ctx<'_> {
    /// Carries out a files action.
    pub(super) fn files(&mut self, action: FileAction) {
        match action {
            FileAction::New => {
                self.state.replace_record(Record::default(), None);
                self.state.study.folder = None;
            }
            FileAction::OpenDialog => self.choose_file(FilePurpose::OpenGame, None),
            FileAction::OpenFolderDialog => self.choose_file(FilePurpose::OpenFolder, None),
            FileAction::Open(path) => self.open(&path),
            FileAction::OpenFolder(dir) => self.open_folder(&dir),
            FileAction::ChooseGame(index) => {
                if let Some(list) = self.state.study.game_list.take()
                    && let Some(entry) = list.games.into_iter().nth(index)
                {
                    self.state.replace_record(entry.record, list.path);
                }
            }
            FileAction::CloseGameList => self.state.study.game_list = None,
            FileAction::FilterGames(filter) => {
                if let Some(list) = &mut self.state.study.game_list {
                    list.filter = filter;
                }
            }
            FileAction::PreviousFile => self.step_file(-1),
            FileAction::NextFile => self.step_file(1),
            FileAction::Save => self.save_then(AfterSave::Stay),
            FileAction::SaveAsDialog => self.choose_file(
                FilePurpose::SaveGame(AfterSave::Stay),
                Some("game.pgn".to_owned()),
            ),
            FileAction::Paste(text) => match files::load_text(&text) {
                Ok(loaded) => self.loaded(loaded, None),
                Err(e) => self.load_failed(&e),
            },
            FileAction::RestoreAutosave(restore) => {
                self.state.dialog = None;
                self.restore_autosave(restore);
                // A file named on the command line waited for this answer.
                if let Some(next) = self.services.held.take() {
                    self.apply(next);
                }
            }
        }
    }
}

impl Ctx<'_> {
    pub(super) fn open(&mut self, path: &std::path::Path) {
        match files::load_file(path) {
            Ok(loaded) => {
                self.change_settings(|s| s.remember_file(path));
                self.loaded(loaded, Some(path.to_owned()));
            }
            Err(e) => self.load_failed(&e),
        }
    }

    pub(super) fn loaded(&mut self, loaded: Loaded, path: Option<PathBuf>) {
        match loaded {
            Loaded::One(record) => {
                self.state.replace_record(record, path);
                self.state.notice = None;
            }
            Loaded::Many(mut list) => {
                list.path = path;
                self.state.study.game_list = Some(list);
            }
        }
    }

    pub(super) fn load_failed(&mut self, error: &LoadError) {
        self.state.notice = Some(Notice::WithArg(
            "notice-open-failed",
            "error",
            error.to_string(),
        ));
    }

    pub(super) fn open_folder(&mut self, dir: &std::path::Path) {
        match files::game_files_in(dir) {
            Ok(files) if !files.is_empty() => {
                let first = files[0].clone();
                self.state.study.folder = Some(Folder { files, current: 0 });
                self.open(&first);
            }
            Ok(_) => self.state.notice = Some(Notice::Message("notice-folder-empty")),
            Err(e) => self.load_failed(&LoadError::Io(e)),
        }
    }

    pub(super) fn step_file(&mut self, step: isize) {
        let Some(folder) = &mut self.state.study.folder else {
            return;
        };
        let next = folder.current as isize + step;
        if next < 0 || next >= folder.files.len() as isize {
            return;
        }
        folder.current = next as usize;
        let path = folder.files[folder.current].clone();
        self.open(&path);
    }

    pub(super) fn save_to(&mut self, path: &std::path::Path) {
        let notation = self.state.settings.notation.notation();
        // The file says which opening the game is (ECCO, Opening, Variation headers).
        if chuhe_core::library::openings::write_headers(&mut self.state.study.record) {
            self.state.refresh();
        }
        match files::save_pgn(path, &self.state.study.record, notation) {
            Ok(()) => {
                self.state.study.file = Some(path.to_owned());
                self.state.study.dirty = false;
                self.change_settings(|s| s.remember_file(path));
                self.remove_autosave();
                self.state.notice = Some(Notice::WithArg(
                    "notice-saved",
                    "path",
                    path.display().to_string(),
                ));
            }
            Err(e) => {
                self.state.notice = Some(Notice::WithArg(
                    "notice-save-failed",
                    "error",
                    e.to_string(),
                ))
            }
        }
    }
}

pub(super) fn is_pgn(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

impl Ctx<'_> {
    /// Brings the autosaved game back, or throws it away.
    pub(super) fn restore_autosave(&mut self, restore: bool) {
        let Some(path) = self.services.storage.autosave_path() else {
            return;
        };
        if restore {
            match crate::services::files::load_file(&path) {
                Ok(crate::services::files::Loaded::One(record)) => {
                    self.state.replace_record(record, None);
                    // Restored work is unsaved work.
                    self.state.mark_edited();
                    self.state.notice = Some(Notice::Message("notice-restored"));
                }
                Ok(crate::services::files::Loaded::Many(_)) | Err(_) => {
                    self.state.notice = Some(Notice::Message("notice-restore-failed"));
                }
            }
        }
        if !restore {
            self.remove_autosave();
        }
    }

    pub(super) fn remove_autosave(&mut self) {
        if let Some(path) = self.services.storage.autosave_path() {
            // Absent already is fine.
            let _ = std::fs::remove_file(path);
        }
        self.services.autosaved_edits = self.state.study.edits;
    }

    /// Writes unsaved changes to the autosave file now and then.
    pub(super) fn autosave(&mut self, force: bool) {
        if !self.state.study.dirty || self.services.autosaved_edits == self.state.study.edits {
            return;
        }
        if !force && self.services.last_autosave.elapsed() < crate::services::AUTOSAVE_INTERVAL {
            return;
        }
        let Some(path) = self.services.storage.autosave_path() else {
            return;
        };
        self.services.last_autosave = std::time::Instant::now();
        let text =
            crate::services::files::to_pgn(&self.state.study.record, chuhe_core::Notation::Iccs);
        match crate::services::storage::write_atomically(&path, text.as_bytes()) {
            Ok(()) => self.services.autosaved_edits = self.state.study.edits,
            Err(e) => {
                self.state.notice = Some(Notice::WithArg(
                    "notice-autosave-failed",
                    "error",
                    e.to_string(),
                ))
            }
        }
    }
}

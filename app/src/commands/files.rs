//! Opening and saving game files.

use super::Ctx;
use crate::actions::*;
use crate::services::files::{self, LoadError, Loaded};
use crate::state::Notice;
use crate::state::study::Folder;
use chuhe_core::record::Record;
use std::path::PathBuf;

impl Ctx<'_> {
    /// Carries out a files action.
    pub(super) fn files(&mut self, action: FileAction) {
        match action {
            FileAction::New => self.open_record(Record::default(), None),
            FileAction::OpenDialog => {
                let picked = rfd::FileDialog::new()
                    .add_filter(
                        self.services.i18n.tr("filter-games"),
                        &files::GAME_EXTENSIONS,
                    )
                    .pick_file();
                if let Some(path) = picked {
                    self.apply(Action::File(FileAction::Open(path)));
                }
            }
            FileAction::OpenFolderDialog => {
                if let Some(dir) = rfd::FileDialog::new().pick_folder() {
                    self.apply(Action::File(FileAction::OpenFolder(dir)));
                }
            }
            FileAction::Open(path) => self.open(&path, Place::NewTab),
            FileAction::OpenFolder(dir) => self.open_folder(&dir),
            FileAction::ChooseGame(index) => {
                if let Some(list) = self.state.study.game_list.take()
                    && let Some(entry) = list.games.into_iter().nth(index)
                {
                    self.open_record(entry.record, list.path);
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
            FileAction::Save => match self.state.study.file.clone() {
                Some(path) if is_pgn(&path) => self.save_to(&path),
                _ => self.apply(Action::File(FileAction::SaveAsDialog)),
            },
            FileAction::SaveAsDialog => {
                let picked = rfd::FileDialog::new()
                    .add_filter("PGN", &["pgn"])
                    .set_file_name("game.pgn")
                    .save_file();
                if let Some(path) = picked {
                    self.save_to(&path);
                }
            }
            FileAction::Paste(text) => match files::load_text(&text) {
                Ok(loaded) => self.loaded(loaded, None, Place::InPlace),
                Err(e) => self.load_failed(&e),
            },
            FileAction::RestoreAutosave(restore) => {
                self.state.dialog = None;
                self.restore_autosave(restore);
            }
        }
    }
}

impl Ctx<'_> {
    pub(super) fn open(&mut self, path: &std::path::Path, place: Place) {
        match files::load_file(path) {
            Ok(loaded) => {
                self.change_settings(|s| s.remember_file(path));
                self.loaded(loaded, Some(path.to_owned()), place);
            }
            Err(e) => self.load_failed(&e),
        }
    }

    pub(super) fn loaded(&mut self, loaded: Loaded, path: Option<PathBuf>, place: Place) {
        match loaded {
            Loaded::One(record) => {
                match place {
                    Place::NewTab => self.open_record(record, path),
                    Place::InPlace => self.state.replace_record(record, path),
                }
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
                // The folder is stepped through in a tab of its own.
                self.blank_tab();
                self.state.study.folder = Some(Folder { files, current: 0 });
                self.open(&first, Place::InPlace);
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
        self.open(&path, Place::InPlace);
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
                self.autosave_after_saving();
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

/// Where an opened game goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// A tab of its own (the tab on the board, when that holds an empty, untouched game).
    NewTab,
    /// In place of the game on the board (the user was asked about unsaved changes).
    InPlace,
}

fn is_pgn(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

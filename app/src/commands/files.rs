//! Opening and saving game files.

use super::Ctx;
use crate::actions::*;
use crate::services::files::{self, LoadError, Loaded};
use crate::state::Notice;
use crate::state::file_chooser::{AfterSave, FilePurpose};
use crate::state::study::{Folder, GameEntry, Study};
use crate::words::problems;
use chuhe_core::record::Record;
use std::path::PathBuf;

impl Ctx<'_> {
    /// Carries out a files action.
    pub(super) fn files(&mut self, action: FileAction) {
        match action {
            FileAction::New => self.open_record(Record::default(), None),
            FileAction::OpenDialog => {
                self.queue
                    .ask_for_file(FilePurpose::OpenGame, None, |path| {
                        FileAction::Open(path).into()
                    })
            }
            FileAction::OpenFolderDialog => {
                self.queue
                    .ask_for_file(FilePurpose::OpenFolder, None, |path| {
                        FileAction::OpenFolder(path).into()
                    })
            }
            FileAction::Open(path) => self.open(&path, Place::NewTab),
            FileAction::OpenFolder(dir) => self.open_folder(&dir),
            FileAction::ChooseGame(index) => {
                if let Some(list) = self.state.study.game_list.take()
                    && let Some(entry) = list.games.into_iter().nth(index)
                {
                    self.open_game(entry, list.path, Place::NewTab);
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
            FileAction::SaveThen(after) => self.save_then(after),
            FileAction::SaveTo(path, after) => {
                self.save_to(&path);
                self.after_save(after);
            }
            FileAction::SaveAsDialog => self.ask_where_to_save(AfterSave::Stay),
            FileAction::Paste(text) => match files::load_text(&text) {
                Ok(loaded) => self.loaded(loaded, None, Place::NewTab),
                Err(e) => self.load_failed(&e),
            },
            FileAction::RestoreAutosave(restore) => {
                self.state.dialog = None;
                self.restore_autosave(restore);
                // A file named on the command line waited for this answer.
                if let Some(next) = self.queue.held.take() {
                    self.push(next);
                }
            }
        }
    }
}

impl Ctx<'_> {
    /// Saves the game to its file, or asks where first; then does what `after` says once
    /// the work is in its file.
    fn save_then(&mut self, after: AfterSave) {
        match save_in_place(&self.state.study) {
            Some(path) => {
                self.save_to(&path);
                self.after_save(after);
            }
            _ => self.ask_where_to_save(after),
        }
    }

    /// Asks where to save the game; `after` follows the save.
    fn ask_where_to_save(&mut self, after: AfterSave) {
        self.queue.ask_for_file(
            FilePurpose::SaveGame(after),
            Some("game.pgn".to_owned()),
            move |path| FileAction::SaveTo(path, after).into(),
        );
    }

    /// After a save: go on or quit only if the work is in its file; a failed save keeps
    /// the work on the board and drops what would have replaced it.
    fn after_save(&mut self, after: AfterSave) {
        let saved = !self.state.study.dirty;
        match after {
            AfterSave::Stay => {}
            AfterSave::Continue => {
                let next = self.queue.held.take();
                if saved && let Some(next) = next {
                    self.push(next);
                }
            }
            AfterSave::Quit => {
                if saved {
                    // The other tabs' unsaved games are saved in turn before quitting.
                    self.push(Action::Window(WindowAction::SaveAndQuit));
                }
            }
        }
    }

    fn open(&mut self, path: &std::path::Path, place: Place) {
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
            Loaded::One(game) => {
                self.open_game(*game, path, place);
                self.state.notice = None;
            }
            Loaded::Many(mut list) => {
                list.path = path;
                self.state.study.game_list = Some(list);
            }
        }
    }

    /// Puts a game on the board with what its file was and where it breaks off.
    fn open_game(&mut self, game: GameEntry, path: Option<PathBuf>, place: Place) {
        if place == Place::NewTab {
            self.blank_tab();
        }
        self.state.replace_record(game.record, path);
        self.state.study.form = game.form;
        self.state.study.partial = game.partial;
    }

    pub(super) fn load_failed(&mut self, error: &LoadError) {
        self.tell_failure(Notice::Problem(problems::open_failed(error)));
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

    fn save_to(&mut self, path: &std::path::Path) {
        let study = &mut self.state.study;
        let back_into_its_file = study.file.as_deref() == Some(path) && path.exists();
        let saved = match &mut study.form {
            // A game read from a PGN file is written as that file wrote it, with the
            // headers it had and those the user added; back into its own file it takes
            // its old place, beside the file's other games.
            Some(form) if back_into_its_file => files::save_into(path, &study.record, form),
            Some(form) => {
                let saved = files::save_as_written(path, &study.record, form);
                if saved.is_ok() {
                    // Elsewhere it is that file's only game.
                    form.game = 1;
                }
                saved
            }
            None => {
                // A new file says which opening the game is (ECCO, Opening, Variation).
                if chuhe_core::library::openings::write_headers(&mut study.record) {
                    self.state.refresh();
                }
                let notation = self.state.settings.notation.notation();
                files::save_pgn(path, &self.state.study.record, notation)
            }
        };
        match saved {
            Ok(()) => {
                self.state.study.file = Some(path.to_owned());
                self.state.study.dirty = false;
                // The new file holds all of the game there is.
                self.state.study.partial = None;
                self.change_settings(|s| s.remember_file(path));
                self.autosave_after_saving();
                self.state.notice = Some(Notice::WithArg(
                    "notice-saved",
                    "path",
                    path.display().to_string(),
                ));
            }
            Err(e) => self.tell_failure(Notice::Problem(problems::save_failed(&e))),
        }
    }
}

/// Where an opened game goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// A tab of its own (the tab on the board, when that holds an empty, untouched game).
    NewTab,
    /// In place of the game on the board: a folder's next file in the folder's tab (the
    /// user was asked about unsaved changes).
    InPlace,
}

/// The file Save writes without asking: the study's own, if it is PGN and was read whole.
/// An XQF cannot be written back, and writing a game read only up to a break over its
/// file would lose the text after the break: both ask for a name instead.
fn save_in_place(study: &Study) -> Option<PathBuf> {
    study
        .file
        .clone()
        .filter(|path| is_pgn(path) && study.partial.is_none())
}

fn is_pgn(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;
    use crate::words::problem::Problem;

    #[test]
    fn save_writes_in_place_only_a_pgn_read_whole() {
        let mut study = Study::new(&Settings::default());
        assert_eq!(save_in_place(&study), None, "a new game asks for a name");
        study.file = Some(PathBuf::from("/games/a.PGN"));
        assert_eq!(save_in_place(&study), study.file);
        study.partial = Some(Problem::new("file-error-empty"));
        assert_eq!(
            save_in_place(&study),
            None,
            "a broken file is not overwritten"
        );
        study.partial = None;
        study.file = Some(PathBuf::from("/games/a.xqf"));
        assert_eq!(save_in_place(&study), None);
    }
}

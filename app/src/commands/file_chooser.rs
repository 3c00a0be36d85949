//! Choosing files and folders: the desktop's dialog when its portal answers, the in-app
//! browser otherwise, and what each chosen path is for.

use super::Ctx;
use crate::actions::*;
use crate::services::file_chooser::{self, Answer};
use crate::state::Notice;
use crate::state::file_chooser::{AfterSave, ChooserKind, FileBrowser, FilePurpose, FileRequest};
use std::path::PathBuf;

impl Ctx<'_> {
    /// Asks the user for a path for `purpose`, offering `file_name` when saving. The
    /// answer comes back as [`FileChooserAction::Chosen`] (at once from the desktop's
    /// dialog, later from the in-app browser).
    fn choose_file(&mut self, purpose: FilePurpose, file_name: Option<String>) {
        let settings = &self.state.settings;
        // Saving starts where the user last saved, if it can still be written to, else in
        // Documents; opening starts where a file was last read.
        let folder = match purpose.kind() {
            ChooserKind::Save => settings
                .last_save_folder
                .clone()
                .filter(|f| file_chooser::is_writable_folder(f))
                .unwrap_or_else(|| self.services.file_chooser.documents()),
            ChooserKind::Open | ChooserKind::Folder => settings
                .last_folder
                .clone()
                .filter(|f| file_chooser::is_folder(f))
                .unwrap_or_else(file_chooser::home),
        };
        let i18n = &self.services.i18n;
        let filter_name = match purpose {
            FilePurpose::OpenGame | FilePurpose::ImportGames => i18n.tr("filter-games"),
            FilePurpose::NewCollection | FilePurpose::OpenCollection => {
                i18n.tr("filter-collections")
            }
            FilePurpose::OpenPicture => i18n.tr("filter-pictures"),
            _ => purpose
                .extensions()
                .first()
                .map(|e| e.to_uppercase())
                .unwrap_or_default(),
        };
        let request = FileRequest {
            title: i18n.tr(purpose.title_id()),
            purpose,
            file_name,
            folder: Some(folder.clone()),
            filter_name,
            all_files_name: i18n.tr("chooser-all-files"),
        };
        match self.services.file_chooser.ask(&request) {
            Answer::Chosen(path) => {
                self.file_chooser(FileChooserAction::Chosen(request.purpose, path))
            }
            Answer::Cancelled => self.file_chooser(FileChooserAction::Cancelled(request.purpose)),
            Answer::NoPortal => {
                self.state.file_browser = Some(FileBrowser::new(
                    request.purpose,
                    folder.clone(),
                    request.file_name.unwrap_or_default(),
                ));
                self.browse(folder);
            }
        }
    }

    /// Carries out a file-chooser action.
    pub(super) fn file_chooser(&mut self, action: FileChooserAction) {
        match action {
            FileChooserAction::Ask(purpose, file_name) => self.choose_file(purpose, file_name),
            FileChooserAction::Chosen(purpose, path) => self.chosen(purpose, path),
            FileChooserAction::Cancelled(purpose) => {
                self.state.file_browser = None;
                if purpose == FilePurpose::SaveGame(AfterSave::Continue) {
                    // Not saved: the work stays, and what would have replaced it is dropped.
                    self.queue.held = None;
                }
            }
            FileChooserAction::Browse(folder) => self.browse(folder),
            FileChooserAction::Parent => {
                if let Some(parent) = self
                    .state
                    .file_browser
                    .as_ref()
                    .and_then(|b| b.folder.parent())
                    .map(PathBuf::from)
                {
                    self.browse(parent);
                }
            }
            FileChooserAction::Home => self.browse(file_chooser::home()),
            FileChooserAction::EditPath(text) => {
                if let Some(browser) = &mut self.state.file_browser {
                    browser.path_text = text;
                }
            }
            FileChooserAction::AllFiles(all) => {
                if let Some(browser) = &mut self.state.file_browser {
                    browser.all_files = all;
                    let folder = browser.folder.clone();
                    self.browse(folder);
                }
            }
            FileChooserAction::SetFileName(name) => {
                if let Some(browser) = &mut self.state.file_browser {
                    browser.file_name = name;
                    browser.replace = None;
                }
            }
            FileChooserAction::Activate(name) => {
                let Some(browser) = &mut self.state.file_browser else {
                    return;
                };
                let path = browser.folder.join(&name);
                if file_chooser::is_folder(&path) {
                    self.browse(path);
                } else {
                    browser.file_name = name;
                    self.confirm_browser();
                }
            }
            FileChooserAction::Confirm => self.confirm_browser(),
            FileChooserAction::Replace(replace) => {
                let Some(browser) = &mut self.state.file_browser else {
                    return;
                };
                let path = browser.replace.take();
                if replace && let Some(path) = path {
                    let purpose = browser.purpose.clone();
                    self.chosen(purpose, path);
                }
            }
        }
    }

    /// Shows `folder` in the in-app browser (or says why it cannot be read).
    fn browse(&mut self, folder: PathBuf) {
        let Some(browser) = &mut self.state.file_browser else {
            return;
        };
        match file_chooser::list_folder(&folder, &browser.purpose, browser.all_files) {
            Ok(entries) => {
                browser.entries = entries;
                browser.path_text = folder.display().to_string();
                browser.folder = folder;
                browser.error = None;
                browser.replace = None;
            }
            // The folder shown stays; the path bar keeps what was typed, to correct it.
            Err(e) => {
                browser.error = Some(Notice::WithArg(
                    "chooser-unreadable",
                    "error",
                    format!("{}: {e}", folder.display()),
                ))
            }
        }
    }

    /// The browser's confirm button or Enter (outside the path bar, whose Enter goes to
    /// the folder typed): a folder named goes in; a file to save over is asked about; a
    /// missing file to open is said so.
    fn confirm_browser(&mut self) {
        let Some(browser) = &mut self.state.file_browser else {
            return;
        };
        let Some(path) = browser.chosen_path() else {
            return;
        };
        let kind = browser.purpose.kind();
        if kind != ChooserKind::Folder && file_chooser::is_folder(&path) {
            self.browse(path);
            return;
        }
        match kind {
            ChooserKind::Open if !file_chooser::exists(&path) => {
                browser.error = Some(Notice::WithArg(
                    "chooser-no-file",
                    "name",
                    path.display().to_string(),
                ));
            }
            ChooserKind::Save if file_chooser::exists(&path) => browser.replace = Some(path),
            _ => {
                let purpose = browser.purpose.clone();
                self.chosen(purpose, path);
            }
        }
    }

    /// The user chose `path` for `purpose`: its folder is remembered (as the last folder
    /// saved to, or read from) and the purpose's own action follows.
    fn chosen(&mut self, purpose: FilePurpose, path: PathBuf) {
        self.state.file_browser = None;
        let kind = purpose.kind();
        let folder = match kind {
            ChooserKind::Folder => Some(path.clone()),
            ChooserKind::Open | ChooserKind::Save => path.parent().map(PathBuf::from),
        };
        if let Some(folder) = folder {
            let settings = &self.state.settings;
            match kind {
                ChooserKind::Save if settings.last_save_folder.as_ref() != Some(&folder) => {
                    self.change_settings(|s| s.last_save_folder = Some(folder))
                }
                ChooserKind::Open | ChooserKind::Folder
                    if settings.last_folder.as_ref() != Some(&folder) =>
                {
                    self.change_settings(|s| s.last_folder = Some(folder))
                }
                _ => {}
            }
        }
        match purpose {
            FilePurpose::OpenGame => self.push(Action::File(FileAction::Open(path))),
            FilePurpose::OpenFolder => self.push(Action::File(FileAction::OpenFolder(path))),
            FilePurpose::SaveGame(after) => {
                self.push(Action::File(FileAction::SaveTo(path, after)))
            }
            FilePurpose::AddEngine => self.push(Action::Engine(EngineAction::AddEngine(path))),
            FilePurpose::ImportPuzzles => self.push(Action::Puzzle(PuzzleAction::Import(path))),
            FilePurpose::ExportPuzzles(set) => {
                self.push(Action::Puzzle(PuzzleAction::Export(set, path)))
            }
            FilePurpose::ExportDiagram(options) => {
                self.push(Action::Export(ExportAction::Png(path, options)))
            }
            FilePurpose::ClubCsv => self.push(Action::Club(ClubAction::ExportCsv(path))),
            FilePurpose::ClubPng => self.push(Action::Club(ClubAction::ExportPng(path))),
            FilePurpose::ExportTraining => self.push(Action::Train(TrainAction::Export(path))),
            FilePurpose::ImportTraining => self.push(Action::Train(TrainAction::Import(path))),
            FilePurpose::NewCollection => {
                self.push(Action::Collections(CollectionAction::Create(path)))
            }
            FilePurpose::OpenCollection => {
                self.push(Action::Collections(CollectionAction::Open(path)))
            }
            FilePurpose::ImportGames | FilePurpose::ImportFolder => {
                self.push(Action::Collections(CollectionAction::Import(vec![path])))
            }
            FilePurpose::Worksheet(options) => {
                self.push(Action::Worksheet(WorksheetAction::Write(path, options)))
            }
            FilePurpose::OpenPicture => self.push(Action::Picture(PictureAction::Open(path))),
            FilePurpose::ClassRecord => self.push(Action::Class(ClassAction::SaveRecord(path))),
            FilePurpose::OpenClassRecord => {
                self.push(Action::Club(ClubAction::OpenClassRecord(path)))
            }
        }
    }
}

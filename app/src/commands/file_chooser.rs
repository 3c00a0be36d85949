//! Choosing files and folders: the desktop's dialog when its portal answers, the in-app
//! browser otherwise, and what each chosen path is for.

use super::{Queue, SettingsMut};
use crate::actions::file_chooser::Then;
use crate::actions::*;
use crate::services::file_chooser::{self, Answer};
use crate::state::Notice;
use crate::state::file_chooser::{AfterSave, ChooserKind, FileBrowser, FilePurpose, FileRequest};
use std::path::PathBuf;

/// What choosing a file works on: the in-app browser, the folders remembered in the
/// settings, the desktop's dialog.
pub(super) struct Choosing<'a> {
    pub browser: &'a mut Option<FileBrowser>,
    pub settings: SettingsMut<'a>,
    pub chooser: &'a mut file_chooser::FileChooser,
    pub i18n: &'a crate::i18n::I18n,
    pub queue: &'a mut Queue,
}

impl Choosing<'_> {
    /// Asks the user for a path for `purpose`, offering `file_name` when saving; `then`
    /// follows the path chosen (at once from the desktop's dialog, later from the in-app
    /// browser, which keeps it in the queue meanwhile).
    fn choose_file(&mut self, purpose: FilePurpose, file_name: Option<String>, then: Then) {
        let settings = self.settings.get();
        // Saving starts where the user last saved, if it can still be written to, else in
        // Documents; opening starts where a file was last read.
        let folder = match purpose.kind() {
            ChooserKind::Save => settings
                .last_save_folder
                .clone()
                .filter(|f| file_chooser::is_writable_folder(f))
                .unwrap_or_else(|| self.chooser.documents()),
            ChooserKind::Open | ChooserKind::Folder => settings
                .last_folder
                .clone()
                .filter(|f| file_chooser::is_folder(f))
                .unwrap_or_else(file_chooser::home),
        };
        let i18n = self.i18n;
        let filter_name = match purpose.filter_id() {
            Some(id) => i18n.tr(id),
            None => purpose
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
        match self.chooser.ask(&request) {
            Answer::Chosen(path) => {
                self.queue.then_chosen = Some((request.purpose.clone(), then));
                self.chosen(request.purpose, path)
            }
            Answer::Cancelled => self.cancelled(&request.purpose),
            Answer::NoPortal => {
                self.queue.then_chosen = Some((request.purpose.clone(), then));
                *self.browser = Some(FileBrowser::new(
                    request.purpose,
                    folder.clone(),
                    request.file_name.unwrap_or_default(),
                ));
                self.browse(folder);
            }
        }
    }

    /// Carries out a file-chooser action.
    pub(super) fn run(&mut self, action: FileChooserAction) {
        match action {
            FileChooserAction::Ask(purpose, file_name, then) => {
                self.choose_file(purpose, file_name, then)
            }
            FileChooserAction::Chosen(purpose, path) => self.chosen(purpose, path),
            FileChooserAction::Cancelled(purpose) => self.cancelled(&purpose),
            FileChooserAction::Browse(folder) => self.browse(folder),
            FileChooserAction::Parent => {
                if let Some(parent) = self
                    .browser
                    .as_ref()
                    .and_then(|b| b.folder.parent())
                    .map(PathBuf::from)
                {
                    self.browse(parent);
                }
            }
            FileChooserAction::Home => self.browse(file_chooser::home()),
            FileChooserAction::EditPath(text) => {
                if let Some(browser) = self.browser {
                    browser.path_text = text;
                }
            }
            FileChooserAction::AllFiles(all) => {
                if let Some(browser) = self.browser {
                    browser.all_files = all;
                    let folder = browser.folder.clone();
                    self.browse(folder);
                }
            }
            FileChooserAction::SetFileName(name) => {
                if let Some(browser) = self.browser {
                    browser.file_name = name;
                    browser.replace = None;
                }
            }
            FileChooserAction::Activate(name) => {
                let Some(browser) = self.browser else {
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
                let Some(browser) = self.browser else {
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

    /// The user closed the chooser without choosing.
    fn cancelled(&mut self, purpose: &FilePurpose) {
        *self.browser = None;
        self.queue.then_chosen = None;
        if *purpose == FilePurpose::SaveGame(AfterSave::Continue) {
            // Not saved: the work stays, and what would have replaced it is dropped.
            self.queue.held = None;
        }
    }

    /// Shows `folder` in the in-app browser (or says why it cannot be read).
    fn browse(&mut self, folder: PathBuf) {
        let Some(browser) = self.browser else {
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
        let Some(browser) = self.browser else {
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
    /// saved to, or read from) and the follow-up asked with it comes next.
    fn chosen(&mut self, purpose: FilePurpose, path: PathBuf) {
        *self.browser = None;
        let kind = purpose.kind();
        let folder = match kind {
            ChooserKind::Folder => Some(path.clone()),
            ChooserKind::Open | ChooserKind::Save => path.parent().map(PathBuf::from),
        };
        if let Some(folder) = folder {
            let settings = self.settings.get();
            match kind {
                ChooserKind::Save if settings.last_save_folder.as_ref() != Some(&folder) => {
                    self.settings.change(|s| s.last_save_folder = Some(folder))
                }
                ChooserKind::Open | ChooserKind::Folder
                    if settings.last_folder.as_ref() != Some(&folder) =>
                {
                    self.settings.change(|s| s.last_folder = Some(folder))
                }
                _ => {}
            }
        }
        // The follow-up asked with this purpose; a path chosen for no question asked (an
        // answer come too late, a browser left from before) does nothing.
        if let Some((asked, then)) = self.queue.then_chosen.take()
            && asked == purpose
        {
            self.queue.push(then.with(&path));
        }
    }
}

//! Choosing files and folders: the answer (from the desktop's dialog or the in-app
//! browser) and what the user does in the in-app browser.

use crate::state::file_chooser::FilePurpose;
use std::path::PathBuf;

/// A path chosen, or the user moving about the in-app file browser.
#[derive(Clone, Debug, PartialEq)]
pub enum FileChooserAction {
    /// Ask the user for a path for this purpose, offering this file name when saving.
    Ask(FilePurpose, Option<String>),
    /// The path the user chose, and what for: the purpose's own action follows.
    Chosen(FilePurpose, PathBuf),
    /// The user closed the chooser without choosing.
    Cancelled(FilePurpose),
    /// Show this folder.
    Browse(PathBuf),
    /// Show the folder above.
    Parent,
    /// Show the home folder.
    Home,
    /// The path bar's text changed.
    EditPath(String),
    /// List every file, or only the purpose's.
    AllFiles(bool),
    /// The file-name field changed (typed, or a file clicked).
    SetFileName(String),
    /// A folder or file double-clicked: a folder opens, a file is chosen.
    Activate(String),
    /// The confirm button or Enter: choose what the browser shows.
    Confirm,
    /// The answer to "replace the existing file?".
    Replace(bool),
}

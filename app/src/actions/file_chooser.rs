//! Choosing files and folders: the answer (from the desktop's dialog or the in-app
//! browser) and what the user does in the in-app browser.

use super::Action;
use crate::state::file_chooser::FilePurpose;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What the feature that asked does with the path the user chose: its own action, made
/// from the path. The asking feature says it, so the chooser needs to know no feature.
#[derive(Clone)]
pub struct Then(Arc<dyn Fn(PathBuf) -> Action + Send + Sync>);

impl Then {
    /// The follow-up `make` builds from the chosen path.
    pub fn new(make: impl Fn(PathBuf) -> Action + Send + Sync + 'static) -> Then {
        Then(Arc::new(make))
    }

    /// The action that follows `path` chosen.
    pub fn with(&self, path: &Path) -> Action {
        (self.0)(path.to_path_buf())
    }
}

impl std::fmt::Debug for Then {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Then(..)")
    }
}

/// Two follow-ups are the same when they are the same one asked for.
impl PartialEq for Then {
    fn eq(&self, other: &Then) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A path chosen, or the user moving about the in-app file browser.
#[derive(Clone, Debug, PartialEq)]
pub enum FileChooserAction {
    /// Ask the user for a path for this purpose, offering this file name when saving; what
    /// follows the path chosen.
    Ask(FilePurpose, Option<String>, Then),
    /// The path the user chose, and what for: the follow-up asked with it comes next.
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

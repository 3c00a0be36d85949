//! Clubs on disk: one RON file per club in a directory (the app's data directory, or any
//! directory a test gives), every save atomic — written to a temporary file, flushed, then
//! renamed over the old one — so a crash while a result is entered leaves either the old
//! file or the new, never half of one.

use super::{Club, ClubError};
use crate::atomic::write_atomically;
use crate::ron_error::RonError;
use std::path::{Path, PathBuf};

/// The directory the clubs are kept in.
#[derive(Clone, Debug)]
pub struct ClubStore {
    dir: PathBuf,
}

impl ClubStore {
    /// Clubs kept in `dir` (created when the first club is saved).
    pub fn new(dir: PathBuf) -> ClubStore {
        ClubStore { dir }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The club files, sorted by name (none when the directory does not exist yet).
    pub fn list(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "ron"))
            .collect();
        files.sort();
        files
    }

    /// A file name no club uses yet: `club-1.ron`, `club-2.ron` …
    pub fn new_path(&self) -> PathBuf {
        (1..)
            .map(|i| self.dir.join(format!("club-{i}.ron")))
            .find(|p| !p.exists())
            .expect("some number is free")
    }

    /// Reads a club file.
    pub fn load(path: &Path) -> Result<Club, ClubError> {
        let text = std::fs::read_to_string(path)?;
        parse(&text)
    }

    /// Saves a club to `path`, atomically.
    pub fn save(path: &Path, club: &Club) -> Result<(), ClubError> {
        write_atomically(path, to_ron(club).as_bytes())?;
        Ok(())
    }
}

/// A club as RON.
pub fn to_ron(club: &Club) -> String {
    ron::ser::to_string_pretty(club, ron::ser::PrettyConfig::new())
        .expect("a club is plain data that RON can always write")
}

/// Reads a club from RON text, with where and why when it is not one, and checks that it
/// hangs together.
pub fn parse(text: &str) -> Result<Club, ClubError> {
    let club: Club = ron::from_str(text).map_err(|e| {
        let e = RonError::from(&e);
        ClubError::Parse {
            line: e.line,
            column: e.column,
            reason: e.kind,
        }
    })?;
    club.check()?;
    Ok(club)
}

//! Where Chuhe keeps its files: settings as RON in the OS config directory, the autosave
//! in the data directory, every write atomic (a temporary file, then a rename), so a crash
//! mid-write never leaves half a file.

use crate::i18n::Language;
use crate::settings::Settings;
use crate::state::club::ClubFile;
use crate::words::problem::Problem;
use crate::words::problems;
use chuhe_core::club::{Club, ClubError, ClubStore};
use chuhe_core::training::store::{TrainingData, TrainingError, TrainingStore};
use std::io;
use std::path::{Path, PathBuf};

/// Where Chuhe keeps its files.
#[derive(Clone, Debug)]
pub struct Storage {
    config_dir: Option<PathBuf>,
    data_dir: Option<PathBuf>,
    /// The language of a first start, when there are no settings yet.
    first_language: Language,
}

/// Why the settings could not be read.
#[derive(Debug)]
pub struct SettingsError {
    /// The settings file.
    pub path: PathBuf,
    /// What was wrong, to be put into the user's words.
    pub problem: Problem,
}

impl Storage {
    /// The OS's directories for Chuhe (`~/.config/chuhe` and `~/.local/share/chuhe` on
    /// Linux), or `$CHUHE_HOME` when set (for tests, screenshots and portable use).
    pub fn from_environment() -> Storage {
        let first_language = Language::from_environment();
        if let Some(home) = std::env::var_os("CHUHE_HOME") {
            return Storage::in_dir(PathBuf::from(home)).with_first_language(first_language);
        }
        match directories::ProjectDirs::from("", "", "chuhe") {
            Some(dirs) => Storage {
                config_dir: Some(dirs.config_dir().to_owned()),
                data_dir: Some(dirs.data_dir().to_owned()),
                first_language,
            },
            None => Storage {
                config_dir: None,
                data_dir: None,
                first_language,
            },
        }
    }

    /// The same places, with `language` for a first start (the default language otherwise).
    pub fn with_first_language(self, language: Language) -> Storage {
        Storage {
            first_language: language,
            ..self
        }
    }

    /// Where the endgame tables are cached: `tablebases` in the data directory.
    pub fn tablebase_dir(&self) -> Option<PathBuf> {
        self.data_dir.as_ref().map(|d| d.join("tablebases"))
    }

    /// Everything in one directory.
    pub fn in_dir(dir: PathBuf) -> Storage {
        Storage {
            config_dir: Some(dir.clone()),
            data_dir: Some(dir),
            first_language: Language::default(),
        }
    }

    /// The settings file.
    pub fn settings_path(&self) -> Option<PathBuf> {
        self.config_dir.as_ref().map(|d| d.join("settings.ron"))
    }

    /// A file or directory in the data directory (the user's puzzles, the progress on them).
    pub fn data_path(&self, name: &str) -> Option<PathBuf> {
        self.data_dir.as_ref().map(|d| d.join(name))
    }

    /// The autosaved game.
    pub fn autosave_path(&self) -> Option<PathBuf> {
        self.data_dir.as_ref().map(|d| d.join("autosave.pgn"))
    }

    /// Reads the settings: the defaults when there is no file yet; the defaults and the
    /// reason when the file cannot be read, after moving it aside as `settings.ron.bad` so
    /// the next save does not destroy what the user may want to repair.
    pub fn load_settings(&self) -> (Settings, Option<SettingsError>) {
        let first = Settings::first_start(self.first_language);
        let Some(path) = self.settings_path() else {
            return (first, None);
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return (first, None),
            Err(e) => {
                let problem = problems::io_error(&e);
                return (Settings::default(), Some(SettingsError { path, problem }));
            }
        };
        match ron::from_str::<Settings>(&text) {
            Ok(settings) => (settings, None),
            Err(e) => {
                // Keeping the bad file is best effort: the defaults apply either way.
                let _ = std::fs::rename(&path, path.with_extension("ron.bad"));
                let problem = Problem::new("settings-error-parse")
                    .text("line", e.span.start.line)
                    .text("column", e.span.start.col);
                (Settings::default(), Some(SettingsError { path, problem }))
            }
        }
    }

    /// Writes the settings atomically.
    pub fn save_settings(&self, settings: &Settings) -> io::Result<()> {
        let Some(path) = self.settings_path() else {
            return Ok(());
        };
        let text = ron::ser::to_string_pretty(settings, ron::ser::PrettyConfig::default())
            .map_err(io::Error::other)?;
        write_atomically(&path, text.as_bytes())
    }
}

/// The user's own files in the data directory: the autosave, the training file, the
/// clubs. Each is read and written here, so that the commands do no file I/O of their own.
impl Storage {
    /// Writes the autosave file atomically (nothing to do without a data directory).
    pub fn write_autosave(&self, text: &str) -> io::Result<()> {
        match self.autosave_path() {
            Some(path) => write_atomically(&path, text.as_bytes()),
            None => Ok(()),
        }
    }

    /// Removes the autosave file; one already absent is fine.
    pub fn remove_autosave(&self) {
        if let Some(path) = self.autosave_path() {
            // Absent already is fine; any other failure leaves a file the next start offers
            // to restore, which loses nothing.
            let _ = std::fs::remove_file(path);
        }
    }

    /// The training store in the data directory.
    fn training_store(&self) -> Option<TrainingStore> {
        self.data_path(TRAINING_FILE).map(TrainingStore::new)
    }

    /// Reads the training file (`None` without a data directory). A damaged one is moved
    /// aside as `training.ron.bad`, so the next save does not destroy what could be
    /// repaired.
    pub fn load_training(&self) -> Option<Result<TrainingData, TrainingError>> {
        let store = self.training_store()?;
        let loaded = store.load();
        if let Err(TrainingError::Parse { .. }) = &loaded {
            // Best effort: the fresh state applies either way.
            let _ = std::fs::rename(store.path(), store.path().with_extension("ron.bad"));
        }
        Some(loaded)
    }

    /// Writes the training file atomically (nothing to do without a data directory).
    pub fn save_training(&self, data: &TrainingData) -> Result<(), TrainingError> {
        match self.training_store() {
            Some(store) => store.save(data),
            None => Ok(()),
        }
    }

    /// The clubs' folder.
    fn clubs_dir(&self) -> Option<PathBuf> {
        self.data_path("clubs")
    }

    /// The club files, with each club's name or what is wrong with it (put as a problem
    /// by `describe`).
    pub fn list_clubs(&self, describe: fn(&ClubError) -> Problem) -> Vec<ClubFile> {
        let Some(dir) = self.clubs_dir() else {
            return Vec::new();
        };
        ClubStore::new(dir)
            .list()
            .into_iter()
            .map(|path| {
                let name = ClubStore::load(&path)
                    .map(|c| c.name)
                    .map_err(|e| describe(&e));
                ClubFile { path, name }
            })
            .collect()
    }

    /// A path for a new club file (`None` without a data directory).
    pub fn new_club_path(&self) -> Option<PathBuf> {
        self.clubs_dir().map(|dir| ClubStore::new(dir).new_path())
    }
}

/// Reads the club file at `path`.
pub fn load_club(path: &Path) -> Result<Club, ClubError> {
    ClubStore::load(path)
}

/// Writes `club` to `path` atomically.
pub fn save_club(path: &Path, club: &Club) -> Result<(), ClubError> {
    ClubStore::save(path, club)
}

/// Writes the training state to `path` for another machine.
pub fn export_training(path: &Path, data: &TrainingData) -> Result<(), TrainingError> {
    chuhe_core::training::store::export(path, data)
}

/// Reads training state exported to `path`.
pub fn import_training(path: &Path) -> Result<TrainingData, TrainingError> {
    chuhe_core::training::store::import(path)
}

/// When the file at `path` was last changed, if that can be read.
pub fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Writes `text` to `path` atomically.
pub fn write_text(path: &Path, text: &str) -> io::Result<()> {
    write_atomically(path, text.as_bytes())
}

/// The text of the file at `path`.
pub fn read_text(path: &Path) -> io::Result<String> {
    std::fs::read_to_string(path)
}

/// The training file in the data directory.
pub const TRAINING_FILE: &str = "training.ron";

/// Every file the app writes goes through the core's atomic write.
pub use chuhe_core::atomic::write_atomically;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Language;
    use crate::settings::{EngineSettings, MoveNotation, RECENT_FILES};
    use std::path::Path;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("chuhe-settings-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn settings_round_trip_through_ron() {
        let storage = Storage::in_dir(temp_dir("round-trip"));
        let mut settings = Settings {
            language: Language::En,
            notation: MoveNotation::Wxf,
            flipped: true,
            ..Settings::default()
        };
        settings.remember_file(Path::new("/games/a.pgn"));
        storage.save_settings(&settings).unwrap();
        let (read, error) = storage.load_settings();
        assert!(error.is_none());
        assert_eq!(read, settings);
    }

    #[test]
    fn a_corrupt_settings_file_is_reported_set_aside_and_replaced_by_defaults() {
        let dir = temp_dir("corrupt");
        let storage = Storage::in_dir(dir.clone());
        std::fs::write(dir.join("settings.ron"), "(language: Klingon, notation: [").unwrap();
        let (settings, error) = storage.load_settings();
        assert_eq!(settings, Settings::default());
        let error = error.expect("the problem is reported");
        assert!(error.path.ends_with("settings.ron"));
        assert!(dir.join("settings.ron.bad").exists());
    }

    #[test]
    fn a_first_start_speaks_the_locales_language_with_its_notation() {
        for (locale, language, notation) in [
            ("en_US.UTF-8", Language::En, MoveNotation::Wxf),
            (
                "zh_TW.Big5",
                Language::ZhTw,
                MoveNotation::ChineseTraditional,
            ),
            ("zh_HK", Language::ZhTw, MoveNotation::ChineseTraditional),
            ("zh_CN.UTF-8", Language::ZhCn, MoveNotation::Chinese),
        ] {
            assert_eq!(Language::from_locale(locale), Some(language), "{locale}");
            let dir = temp_dir(&format!("first-{locale}"));
            let storage = Storage::in_dir(dir.clone()).with_first_language(language);
            let (settings, error) = storage.load_settings();
            assert!(error.is_none());
            assert_eq!((settings.language, settings.notation), (language, notation));
            // Once settings are saved, the user's choices hold, whatever the locale.
            let chosen = Settings {
                notation: MoveNotation::Iccs,
                ..settings
            };
            storage.save_settings(&chosen).unwrap();
            let (read, _) = Storage::in_dir(dir)
                .with_first_language(Language::En)
                .load_settings();
            assert_eq!(read, chosen);
        }
        for other in ["C.UTF-8", "POSIX", "de_DE.UTF-8", ""] {
            assert_eq!(Language::from_locale(other), None, "{other}");
        }
    }

    #[test]
    fn missing_fields_take_their_defaults() {
        let dir = temp_dir("partial");
        std::fs::write(dir.join("settings.ron"), "(flipped: true)").unwrap();
        let (settings, error) = Storage::in_dir(dir).load_settings();
        assert!(error.is_none());
        assert!(settings.flipped);
        assert_eq!(settings.engine, EngineSettings::default());
    }

    #[test]
    fn recent_files_put_the_newest_first_without_repeats() {
        let mut settings = Settings::default();
        for i in 0..12 {
            settings.remember_file(Path::new(&format!("/g/{i}.pgn")));
        }
        settings.remember_file(Path::new("/g/5.pgn"));
        assert_eq!(settings.recent_files.len(), RECENT_FILES);
        assert_eq!(settings.recent_files[0], Path::new("/g/5.pgn"));
        assert_eq!(
            settings
                .recent_files
                .iter()
                .filter(|p| p.ends_with("5.pgn"))
                .count(),
            1
        );
    }
}

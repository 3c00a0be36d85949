//! The user's settings and where Chuhe keeps its files: settings as RON in the OS config
//! directory, the autosave in the data directory, every write atomic (a temporary file, then
//! a rename), so a crash mid-write never leaves half a file.

use crate::board::Coordinates;
use crate::i18n::Language;
use crate::theme::ThemeChoice;
use chuhe_core::Notation;
use serde::{Deserialize, Serialize};
use std::io;
use std::path::{Path, PathBuf};

/// How many files the recent-files menu remembers.
pub const RECENT_FILES: usize = 10;

/// The notations offered for the move list, the engine lines and saving.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveNotation {
    /// 炮二平五 in simplified characters.
    #[default]
    Chinese,
    /// 炮二平五 in traditional characters.
    ChineseTraditional,
    /// C2.5.
    Wxf,
    /// h2e2.
    Iccs,
}

impl MoveNotation {
    /// Every choice, in menu order.
    pub const ALL: [MoveNotation; 4] = [
        MoveNotation::Chinese,
        MoveNotation::ChineseTraditional,
        MoveNotation::Wxf,
        MoveNotation::Iccs,
    ];

    /// The core's notation.
    pub const fn notation(self) -> Notation {
        match self {
            MoveNotation::Chinese => Notation::Chinese,
            MoveNotation::ChineseTraditional => Notation::ChineseTraditional,
            MoveNotation::Wxf => Notation::Wxf,
            MoveNotation::Iccs => Notation::Iccs,
        }
    }

    /// The key of its name in the translations.
    pub const fn message_id(self) -> &'static str {
        match self {
            MoveNotation::Chinese => "notation-chinese",
            MoveNotation::ChineseTraditional => "notation-chinese-traditional",
            MoveNotation::Wxf => "notation-wxf",
            MoveNotation::Iccs => "notation-iccs",
        }
    }
}

/// The engines' settings: the built-in one's options, the external engines the user
/// added and which engine analyses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EngineSettings {
    /// Lines shown while analysing (1–5).
    pub multipv: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Thinking time per position in a whole-game review, in milliseconds.
    pub review_ms: u64,
    /// External UCI engines, in the order they were added.
    pub external: Vec<ExternalEngine>,
    /// The external engine that analyses instead of the built-in one.
    pub active_external: Option<usize>,
}

impl EngineSettings {
    /// The external engine chosen for analysis, if any (and if it still exists).
    pub fn active(&self) -> Option<&ExternalEngine> {
        self.active_external.and_then(|i| self.external.get(i))
    }
}

/// An external UCI engine the user added.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ExternalEngine {
    /// The name it gave in the handshake (the file name until then).
    pub name: String,
    /// The program.
    pub path: PathBuf,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// Option values the user set, sent with `setoption` after each start.
    pub options: Vec<(String, String)>,
}

impl ExternalEngine {
    /// A program, named after its file until it says its name.
    pub fn from_path(path: PathBuf) -> ExternalEngine {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        ExternalEngine {
            name,
            path,
            ..ExternalEngine::default()
        }
    }

    /// How the core starts it.
    pub fn config(&self) -> chuhe_core::external::EngineConfig {
        let mut config = chuhe_core::external::EngineConfig::new(self.path.clone());
        config.args = self.args.clone();
        config.options = self.options.clone();
        config
    }
}

impl Default for EngineSettings {
    fn default() -> EngineSettings {
        EngineSettings {
            multipv: 3,
            hash_mb: 64,
            threads: 1,
            review_ms: 300,
            external: Vec::new(),
            active_external: None,
        }
    }
}

/// Which panels show round the board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Layout {
    /// Only the board, for classes and projectors (F11).
    pub board_only: bool,
    /// The headers above the move list.
    pub show_headers: bool,
    /// Width of the panel with the moves and the analysis, in points.
    pub side_panel_width: f32,
    /// The window's inner size when it was last closed, in points.
    pub window_size: Option<[f32; 2]>,
    /// Where the window's outer corner was, when the platform tells (not on Wayland).
    pub window_position: Option<[f32; 2]>,
    /// Whether the window was maximised.
    pub maximized: bool,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            board_only: false,
            show_headers: true,
            side_panel_width: 360.0,
            window_size: None,
            window_position: None,
            maximized: false,
        }
    }
}

/// Everything the user sets, saved between runs. Fields missing from an older file take
/// their defaults.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The language of the interface.
    pub language: Language,
    /// The notation of moves.
    pub notation: MoveNotation,
    /// The board and pieces.
    pub theme: ThemeChoice,
    /// How the points are labelled.
    pub coordinates: Coordinates,
    /// Black at the bottom.
    pub flipped: bool,
    /// Show where the selected piece may go.
    pub show_destinations: bool,
    /// No sounds for moves, captures, checks and the end of a game.
    pub mute: bool,
    /// The engine's settings.
    pub engine: EngineSettings,
    /// The panels.
    pub layout: Layout,
    /// Files opened lately, newest first.
    pub recent_files: Vec<PathBuf>,
    /// The checkmate-pattern examples solved in practice (pattern 9, example 1 is 9-1).
    pub patterns_solved: Vec<String>,
}

impl Settings {
    /// Puts `path` first among the recent files.
    pub fn remember_file(&mut self, path: &Path) {
        self.recent_files.retain(|p| p != path);
        self.recent_files.insert(0, path.to_owned());
        self.recent_files.truncate(RECENT_FILES);
    }
}

/// Where Chuhe keeps its files.
#[derive(Clone, Debug)]
pub struct Storage {
    config_dir: Option<PathBuf>,
    data_dir: Option<PathBuf>,
}

/// Why the settings could not be read.
#[derive(Debug)]
pub struct SettingsError {
    /// The settings file.
    pub path: PathBuf,
    /// What was wrong, as the reader says.
    pub message: String,
}

impl Storage {
    /// The OS's directories for Chuhe (`~/.config/chuhe` and `~/.local/share/chuhe` on
    /// Linux), or `$CHUHE_HOME` when set (for tests, screenshots and portable use).
    pub fn from_environment() -> Storage {
        if let Some(home) = std::env::var_os("CHUHE_HOME") {
            return Storage::in_dir(PathBuf::from(home));
        }
        match directories::ProjectDirs::from("", "", "chuhe") {
            Some(dirs) => Storage {
                config_dir: Some(dirs.config_dir().to_owned()),
                data_dir: Some(dirs.data_dir().to_owned()),
            },
            None => Storage {
                config_dir: None,
                data_dir: None,
            },
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
        let Some(path) = self.settings_path() else {
            return (Settings::default(), None);
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return (Settings::default(), None),
            Err(e) => {
                let message = e.to_string();
                return (Settings::default(), Some(SettingsError { path, message }));
            }
        };
        match ron::from_str::<Settings>(&text) {
            Ok(settings) => (settings, None),
            Err(e) => {
                // Keeping the bad file is best effort: the defaults apply either way.
                let _ = std::fs::rename(&path, path.with_extension("ron.bad"));
                let message = e.to_string();
                (Settings::default(), Some(SettingsError { path, message }))
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

/// Every file the app writes goes through the core's atomic write.
pub use chuhe_core::atomic::write_atomically;

#[cfg(test)]
mod tests {
    use super::*;

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

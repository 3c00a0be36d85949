//! The user's settings: plain data, kept as RON by the storage service.

use crate::i18n::Language;
use crate::theme::ThemeChoice;
use chuhe_core::Notation;
use serde::{Deserialize, Serialize};
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

    /// What a reader of `language` expects: Chinese in the script of the interface, WXF
    /// (the notation of English books and the World Xiangqi Federation) in English.
    pub const fn for_language(language: Language) -> MoveNotation {
        match language {
            Language::ZhCn => MoveNotation::Chinese,
            Language::ZhTw => MoveNotation::ChineseTraditional,
            Language::En => MoveNotation::Wxf,
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

/// How many lines the analysis may show: the panel offers these and the command keeps to
/// them.
pub const MULTIPV_RANGE: std::ops::RangeInclusive<usize> = 1..=5;

/// The engines' settings: the built-in one's options, the external engines the user
/// added and which engine analyses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EngineSettings {
    /// Lines shown while analysing (within [`MULTIPV_RANGE`]).
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
    /// Sized to the machine: an analysis uses all but one core (the window keeps one to
    /// stay responsive) and a hash table in proportion to the memory.
    fn default() -> EngineSettings {
        let machine = Machine::this();
        EngineSettings {
            multipv: 3,
            hash_mb: machine.hash_mb(),
            threads: machine.threads(),
            review_ms: 300,
            external: Vec::new(),
            active_external: None,
        }
    }
}

/// What the engine's defaults are sized to: the machine's cores and memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    /// Cores (hardware threads) the process may use.
    pub cores: usize,
    /// Total memory in bytes, where the system tells.
    pub memory: Option<u64>,
}

/// The hash table when the machine's memory is unknown, in MiB.
const FALLBACK_HASH_MB: usize = 64;
/// The least default hash table, in MiB.
const MIN_HASH_MB: usize = 16;
/// The largest default hash table, in MiB: more helps analysis little and takes memory
/// the rest of the system needs.
const MAX_HASH_MB: usize = 1024;

impl Machine {
    /// This computer, asked once.
    pub fn this() -> Machine {
        static THIS: std::sync::OnceLock<Machine> = std::sync::OnceLock::new();
        *THIS.get_or_init(|| Machine {
            cores: std::thread::available_parallelism().map_or(1, usize::from),
            memory: total_memory(),
        })
    }

    /// Search threads: every core but one, at least one.
    pub fn threads(self) -> usize {
        self.cores.saturating_sub(1).max(1)
    }

    /// The hash table in MiB: a sixteenth of the memory, rounded down to a power of two,
    /// between [`MIN_HASH_MB`] and [`MAX_HASH_MB`].
    pub fn hash_mb(self) -> usize {
        let Some(memory) = self.memory else {
            return FALLBACK_HASH_MB;
        };
        let sixteenth = (memory / 16 / (1 << 20)).min(MAX_HASH_MB as u64) as usize;
        match sixteenth.checked_ilog2() {
            Some(log) => (1usize << log).max(MIN_HASH_MB),
            None => MIN_HASH_MB,
        }
    }
}

/// The machine's total memory in bytes: `MemTotal` in `/proc/meminfo` on Linux, nothing
/// elsewhere (the hash table then takes [`FALLBACK_HASH_MB`]).
fn total_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_total(&text)
}

/// `MemTotal:  16318772 kB` in the text of `/proc/meminfo`, in bytes.
fn mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line["MemTotal:".len()..].split_whitespace();
    let amount: u64 = words.next()?.parse().ok()?;
    let unit = match words.next() {
        Some("kB") => 1024,
        None => 1,
        Some(_) => return None,
    };
    amount.checked_mul(unit)
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
    /// The new-game dialog's last choices, offered again the next time.
    pub play: PlayChoices,
    /// How evaluations are written.
    pub score_unit: ScoreUnit,
    /// The folder a file was last opened from (or the folder last chosen), where the next
    /// open dialog starts.
    pub last_folder: Option<PathBuf>,
    /// The folder a file was last saved to, where the next save dialog starts (a folder
    /// read from, a CD or a download folder, may be no place to write).
    pub last_save_folder: Option<PathBuf>,
    /// The game collections (棋谱库) open when the app was last closed, reopened at start.
    pub collections: Vec<PathBuf>,
    /// Whether the explorer panel (对局统计) is shown beside the board.
    pub explorer_open: bool,
    /// Whether the explorer counts a position's left–right mirror with it.
    pub explorer_fold_mirror: bool,
    /// The worksheet dialog's last choices, offered again the next time.
    pub worksheet: WorksheetChoices,
    /// Whether the welcome shows on the empty board: set on a first start, cleared once
    /// the user dismisses it (a settings file from before the welcome has it off).
    pub show_welcome: bool,
    /// Whether the status bar shows the time the app takes per frame (for developers).
    pub show_frame_time: bool,
}

/// What the worksheet dialog was last set to when a worksheet was saved: a teacher prints
/// for the same class on the same paper week after week. The date is not kept (it is a
/// new day), nor where the positions come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct WorksheetChoices {
    /// The title (empty: the language's own default title).
    pub title: String,
    /// The class.
    pub class: String,
    /// The paper.
    pub paper: chuhe_core::worksheet::Paper,
    /// Diagrams a page.
    pub per_page: usize,
    /// Answer pages follow.
    pub answers: bool,
    /// A hint under each position.
    pub hints: bool,
    /// The answers' notation.
    pub notation: MoveNotation,
    /// Black and white rather than colour.
    pub black_and_white: bool,
}

impl Default for WorksheetChoices {
    fn default() -> WorksheetChoices {
        WorksheetChoices {
            title: String::new(),
            class: String::new(),
            paper: chuhe_core::worksheet::Paper::A4,
            per_page: 6,
            answers: true,
            hints: false,
            notation: MoveNotation::Chinese,
            black_and_white: true,
        }
    }
}

/// What the new-game dialog was last set to, in plain values that read well in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayChoices {
    /// Against the engine rather than two people at the board.
    pub against_engine: bool,
    /// The engine's level, 1–6.
    pub level: u8,
    /// The person took Black.
    pub play_black: bool,
    /// The game started from the position on the board.
    pub from_board: bool,
    /// The clock.
    pub clock: ClockName,
    /// The length of a sudden-death game, in minutes.
    pub sudden_minutes: u32,
    /// The engine's help was allowed.
    pub assist: bool,
}

impl Default for PlayChoices {
    fn default() -> PlayChoices {
        PlayChoices {
            against_engine: true,
            level: chuhe_core::play::Level::default().number(),
            play_black: false,
            from_board: false,
            clock: ClockName::None,
            sudden_minutes: 15,
            assist: false,
        }
    }
}

/// A clock choice by name (sudden death's length is kept apart).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClockName {
    /// No clock.
    #[default]
    None,
    /// 90 minutes for 40 moves, then 15 for every 10.
    Classical,
    /// 60 minutes for 30 moves, then 10 for every 10.
    Standard,
    /// 10 minutes for 40 moves, then 5 for every 50.
    Rapid,
    /// 5 minutes for every 30 moves.
    Repeating,
    /// The whole game in so many minutes.
    SuddenDeath,
    /// The 2007 trial control.
    Trial2007,
}

impl Settings {
    /// The settings of a first start (no settings file yet) in `language`: the defaults,
    /// with the notation that language's readers expect.
    pub fn first_start(language: Language) -> Settings {
        Settings {
            language,
            notation: MoveNotation::for_language(language),
            show_welcome: true,
            ..Settings::default()
        }
    }

    /// Puts `path` first among the recent files.
    pub fn remember_file(&mut self, path: &Path) {
        self.recent_files.retain(|p| p != path);
        self.recent_files.insert(0, path.to_owned());
        self.recent_files.truncate(RECENT_FILES);
    }
}

/// How an evaluation is written: in pawns (`+1.23`) or centipawns (`+123`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScoreUnit {
    /// `+1.23`: a pawn before the river is 1.
    #[default]
    Pawns,
    /// `+123`, as UCI engines report.
    Centipawns,
}

impl ScoreUnit {
    /// Every choice, in menu order.
    pub const ALL: [ScoreUnit; 2] = [ScoreUnit::Pawns, ScoreUnit::Centipawns];

    /// The key of its name in the translations.
    pub const fn message_id(self) -> &'static str {
        match self {
            ScoreUnit::Pawns => "score-unit-pawns",
            ScoreUnit::Centipawns => "score-unit-centipawns",
        }
    }
}

/// How the points are labelled round the board (the board description's choice).
pub use chuhe_core::diagram::Coordinates;

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1 << 30;

    fn machine(cores: usize, memory: Option<u64>) -> Machine {
        Machine { cores, memory }
    }

    #[test]
    fn analysis_leaves_one_core_to_the_window() {
        assert_eq!(machine(1, None).threads(), 1);
        assert_eq!(machine(2, None).threads(), 1);
        assert_eq!(machine(8, None).threads(), 7);
        assert_eq!(machine(0, None).threads(), 1);
    }

    #[test]
    fn the_hash_table_is_a_sixteenth_of_memory_as_a_power_of_two_up_to_a_gibibyte() {
        assert_eq!(machine(4, Some(2 * GIB)).hash_mb(), 128);
        // 3 GiB / 16 = 192 MiB, rounded down to 128.
        assert_eq!(machine(4, Some(3 * GIB)).hash_mb(), 128);
        assert_eq!(machine(4, Some(8 * GIB)).hash_mb(), 512);
        assert_eq!(machine(4, Some(64 * GIB)).hash_mb(), 1024);
        assert_eq!(machine(4, Some(GIB / 8)).hash_mb(), 16);
        assert_eq!(machine(4, Some(0)).hash_mb(), 16);
        assert_eq!(machine(4, None).hash_mb(), 64);
    }

    #[test]
    fn meminfo_gives_the_total_in_bytes() {
        let text = "MemTotal:       24410516 kB\nMemFree:          517620 kB\n";
        assert_eq!(mem_total(text), Some(24_410_516 * 1024));
        assert_eq!(mem_total("MemFree: 5 kB\n"), None);
        assert_eq!(mem_total("MemTotal: lots kB\n"), None);
        assert_eq!(mem_total("MemTotal: 5 MB\n"), None);
    }

    #[test]
    fn a_settings_file_keeps_the_engine_values_it_stored() {
        let text = "(engine: (hash_mb: 64, threads: 1))";
        let settings: Settings = ron::from_str(text).unwrap();
        assert_eq!((settings.engine.hash_mb, settings.engine.threads), (64, 1));
        // Left out, they are sized to the machine.
        let settings: Settings = ron::from_str("(engine: (multipv: 2))").unwrap();
        let this = Machine::this();
        assert_eq!(settings.engine.threads, this.threads());
        assert_eq!(settings.engine.hash_mb, this.hash_mb());
        assert_eq!(settings.engine.multipv, 2);
    }
}

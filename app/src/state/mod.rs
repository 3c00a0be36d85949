//! The app's state: plain data, one struct per feature, no drawing, no threads, no I/O.
//! Panels draw from it; only the commands change it; the services' results reach it as
//! actions. What is derived from the record for display (the position, how the game
//! ended, the move list) is kept up to date by [`State::refresh`] after every change.

pub mod analysis;
pub mod class;
pub mod club;
pub mod collections;
pub mod editor;
pub mod export;
pub mod file_chooser;
pub mod knowledge;
pub mod openings;
pub mod patterns;
pub mod pick;
pub mod picture;
pub mod play;
pub mod presentation;
pub mod puzzles;
pub mod study;
pub mod tablebase;
pub mod tabs;
pub mod toasts;
pub mod training;
pub mod worksheet;

use crate::settings::Settings;
use chuhe_core::IllegalReason;
use chuhe_core::Position;
use chuhe_core::record::{NodeId, Record};
use std::path::PathBuf;

/// Something to tell the user, put into words when drawn so it follows the language.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// A move was refused.
    Illegal(IllegalReason),
    /// A message without arguments, by id.
    Message(&'static str),
    /// A message with one argument, by id.
    WithArg(&'static str, &'static str, String),
    /// A problem with a file, with where and why.
    Problem(crate::words::problem::Problem),
}

/// A dialog that waits for an answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialog {
    /// Quitting with unsaved changes: save, discard or stay.
    UnsavedOnQuit,
    /// Replacing a record with unsaved changes by what the user asked for (which the
    /// commands keep until the answer): go on (losing them) or stay.
    UnsavedOnReplace,
    /// An autosaved game was found at start: the last session ended with unsaved changes.
    RestoreAutosave,
    /// Leaving the position editor would lose the arrangement: leave or stay.
    LeaveEditor,
    /// Resigning the game in play: a misclick must not end it.
    ConfirmResign,
    /// Offering a draw in the game in play.
    ConfirmDrawOffer,
    /// Closing a tab whose game has unsaved changes (the commands keep the closing until
    /// the answer): save, discard or keep the tab.
    UnsavedOnCloseTab,
}

impl State {
    /// The settings as the user chose them: presentation mode's changes taken out.
    pub fn settings_to_save(&self) -> Settings {
        let mut settings = self.settings.clone();
        if let Some(p) = &self.presentation {
            settings.theme = p.theme;
            settings.layout.board_only = p.board_only;
        }
        settings
    }
}

/// Everything the app knows, apart from services (engine, files) and egui.
pub struct State {
    /// The user's settings.
    pub settings: Settings,
    /// The game being studied and where the user is in it.
    pub study: study::Study,
    /// The engine's analysis of the board and the whole-game review.
    pub analysis: analysis::AnalysisState,
    /// The last thing to tell the user, in the status bar.
    pub notice: Option<Notice>,
    /// What matters enough to be shown where the user is looking.
    pub toasts: toasts::Toasts,
    /// A dialog waiting for an answer.
    pub dialog: Option<Dialog>,
    /// Presentation mode (F5), with what it changed, to put back when it ends.
    pub presentation: Option<presentation::Presentation>,
    /// Whether the audience window (the projector's board) is open.
    pub audience: bool,
    /// The opening browser.
    pub openings: openings::OpeningsBrowser,
    /// The position editor, while it is open (the record stays as it was).
    pub editor: Option<editor::Editor>,
    /// Puzzle sets, progress and solve mode.
    pub puzzles: puzzles::Puzzles,
    /// The checkmate-pattern browser.
    pub patterns: patterns::PatternsState,
    /// A game being played against the engine or hot-seat.
    pub play: Option<play::Match>,
    /// The new-game dialog, while it is open.
    pub play_setup: Option<play::PlaySetup>,
    /// The diagram export dialog, while it is open.
    pub export_dialog: Option<export::ExportOptions>,
    /// The worksheet dialog, when open.
    pub worksheet_dialog: Option<worksheet::WorksheetOptions>,
    /// The positions the collection browser last sent to the worksheet dialog.
    pub worksheet_games: Vec<chuhe_core::worksheet::Entry>,
    /// The knowledge reference window and the board-lines overlay.
    pub knowledge: knowledge::KnowledgeState,
    /// The club manager.
    pub club: club::ClubState,
    /// The class following the board in their browsers.
    pub class: class::ClassState,
    /// Endgame tables: the verdict of the board's position, practice, the browser.
    pub tablebase: tablebase::TbState,
    /// The games open in other tabs.
    pub tabs: tabs::Tabs,
    /// Whether the side panel is shown in a window too narrow to show it always.
    pub side_panel_shown: bool,
    /// The in-app file browser, while it is open.
    pub file_browser: Option<file_chooser::FileBrowser>,
    /// Training: the Train home, the round and its drill.
    pub training: training::TrainingState,
    /// Game collections: the explorer, the browser, an import.
    pub collections: collections::CollectionsState,
    /// A picture being read, and the correction view of what was read.
    pub picture: picture::PictureState,
    /// What the commands note between actions.
    pub bookkeeping: Bookkeeping,
}

/// What the commands note between one action and the next, beside what the user sees:
/// what the services were last asked for, what is saved, whether the window may close.
#[derive(Clone, Debug)]
pub struct Bookkeeping {
    /// The node the analysis service was last pointed at, with the record's generation.
    pub analysed: Option<(u64, NodeId)>,
    /// The record and node the last sound was for (or the board was at).
    pub sound_cursor: (u64, NodeId),
    /// Whether the settings changed and are to be saved after this action.
    pub settings_changed: bool,
    /// Whether the window may close (the user answered the unsaved-changes question).
    pub allowed_to_close: bool,
    /// When the autosave file was last written, by egui's clock (seconds).
    pub last_autosave: f64,
    /// What the autosave file holds, as the commands stamp the open games.
    pub autosaved: u64,
    /// The status bar's notice as last seen, and since when (egui's clock, seconds): it
    /// clears once it has been there a while.
    pub notice_since: (Option<Notice>, f64),
}

impl Bookkeeping {
    /// Nothing asked, saved or heard yet.
    fn new() -> Bookkeeping {
        Bookkeeping {
            analysed: None,
            sound_cursor: (0, Record::default().root()),
            settings_changed: false,
            allowed_to_close: false,
            last_autosave: f64::NEG_INFINITY,
            autosaved: 0,
            notice_since: (None, 0.0),
        }
    }
}

impl State {
    /// An empty record from the start position.
    pub fn new(settings: Settings) -> State {
        State {
            study: study::Study::new(&settings),
            settings,
            analysis: Default::default(),
            notice: None,
            toasts: Default::default(),
            dialog: None,
            presentation: None,
            audience: false,
            openings: Default::default(),
            editor: None,
            puzzles: Default::default(),
            patterns: Default::default(),
            play: None,
            play_setup: None,
            export_dialog: None,
            worksheet_dialog: None,
            worksheet_games: Vec::new(),
            knowledge: Default::default(),
            club: Default::default(),
            class: Default::default(),
            tablebase: Default::default(),
            tabs: Default::default(),
            side_panel_shown: false,
            file_browser: None,
            training: Default::default(),
            collections: Default::default(),
            picture: Default::default(),
            bookkeeping: Bookkeeping::new(),
        }
        .with_sound_cursor()
    }

    /// The sound cursor starts where the board is: opening is not a move to be heard.
    fn with_sound_cursor(mut self) -> State {
        self.bookkeeping.sound_cursor = (self.study.generation, self.study.cursor);
        self
    }

    /// The position on the board.
    pub fn position(&self) -> &Position {
        &self.study.derived.position
    }

    /// Recomputes what is derived from the record (after any change to it, the cursor or
    /// the notation).
    pub fn refresh(&mut self) {
        self.study.refresh(&self.settings);
    }

    /// Replaces the record (a file was opened, a new game started).
    pub fn replace_record(&mut self, record: Record, file: Option<PathBuf>) {
        self.study.replace_record(record, file, &self.settings);
        self.study.generation = self.fresh_generation();
        self.analysis.engine = None;
    }

    /// Notes that the record was edited.
    pub fn mark_edited(&mut self) {
        self.study.mark_edited();
    }

    /// The engine's latest view of the position on the board, unless hidden.
    pub fn visible_engine(&self) -> Option<&analysis::EngineView> {
        if self.analysis.engine_hidden || self.engine_help_barred() {
            return None;
        }
        self.analysis
            .engine
            .as_ref()
            .filter(|e| e.node == self.study.cursor)
    }
}

//! Everything the user can do, and everything the services report, as one [`Action`] type:
//! an enum of the features' actions. Clicks, drags, keys, menus, the services' results and
//! the tests all produce actions; the commands carry them out.

pub mod class;
pub mod club;
pub mod collections;
pub mod editor;
pub mod file_chooser;
pub mod knowledge;
pub mod patterns;
pub mod picture;
pub mod play;
pub mod puzzles;
pub mod tablebase;
pub mod tabs;
pub mod training;

pub use class::ClassAction;
pub use club::ClubAction;
pub use collections::CollectionAction;
pub use editor::EditorAction;
pub use file_chooser::FileChooserAction;
pub use knowledge::KnowledgeAction;
pub use patterns::PatternAction;
pub use picture::PictureAction;
pub use play::PlayAction;
pub use puzzles::PuzzleAction;
pub use tablebase::TbAction;
pub use tabs::{OpenGame, TabAction};
pub use training::TrainAction;

use crate::i18n::Language;
use crate::settings::{Coordinates, EngineSettings, MoveNotation};
use crate::state::analysis::{EngineStatus, PositionReview};
use crate::state::export::ExportOptions;
use crate::state::file_chooser::AfterSave;
use crate::theme::ThemeChoice;
use chuhe_core::analysis::Update;
use chuhe_core::record::{Arrow, Circle, Nag, NodeId};
use chuhe_core::{Move, Square};
use std::path::PathBuf;

/// One thing the user asked for, or a service reported.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The study board: moving through the game and editing it.
    Study(StudyAction),
    /// Game files.
    File(FileAction),
    /// How things are shown.
    View(ViewAction),
    /// Analysis and review.
    Engine(EngineAction),
    /// Teaching.
    Presentation(PresentationAction),
    /// The opening browser.
    Openings(OpeningsAction),
    /// Diagram export.
    Export(ExportAction),
    /// Printable worksheets.
    Worksheet(WorksheetAction),
    /// The window and its dialogs.
    Window(WindowAction),
    /// The position editor.
    Editor(EditorAction),
    /// Puzzles.
    Puzzle(PuzzleAction),
    /// A game being played (against the engine or hot-seat).
    Play(PlayAction),
    /// The checkmate-pattern browser.
    Patterns(PatternAction),
    /// The knowledge reference and the board-lines overlay.
    Knowledge(KnowledgeAction),
    /// The club manager.
    Club(ClubAction),
    /// The class following the board in their browsers.
    Class(ClassAction),
    /// The endgame tables.
    Tablebase(TbAction),
    /// The tabs: several games open at once.
    Tabs(TabAction),
    /// Choosing a file or folder.
    FileChooser(FileChooserAction),
    /// Training: the Train home and its drills.
    Train(TrainAction),
    /// Game collections: the explorer, the browser, imports.
    Collections(CollectionAction),
    /// Telling the user something.
    Feedback(FeedbackAction),
    /// A position read from a picture, and its correction.
    Picture(PictureAction),
}

impl Action {
    /// Whether it only moves through the game (the keys of a presentation clicker).
    pub fn steps(&self) -> bool {
        matches!(
            self,
            Action::Study(
                StudyAction::Back
                    | StudyAction::Forward
                    | StudyAction::Start
                    | StudyAction::End
                    | StudyAction::PreviousVariation
                    | StudyAction::NextVariation
            )
        )
    }

    /// Whether, done by the user, it moves on from what the last notice was about: a step
    /// or an edit in the game, a file, a tab, a move in play. (Changing how things look,
    /// the language say, leaves the notice to be read in the new words.)
    pub fn moves_on(&self) -> bool {
        matches!(
            self,
            Action::Study(_) | Action::File(_) | Action::Tabs(_) | Action::Play(_)
        )
    }

    /// Whether the action replaces the record, so unsaved changes would be lost: only
    /// stepping through a folder, which replaces the folder's own game in its tab. (A new
    /// game, a game to play, an opened or pasted game, a library line, a puzzle or a
    /// diagram put on the board, and a game chosen from a list open in a tab of their own,
    /// so they are not asked about.)
    pub fn replaces_record(&self) -> bool {
        matches!(
            self,
            Action::File(FileAction::PreviousFile | FileAction::NextFile)
        )
    }
}

macro_rules! from_feature {
    ($($feature:ident => $variant:ident),* $(,)?) => {
        $(impl From<$feature> for Action {
            fn from(action: $feature) -> Action {
                Action::$variant(action)
            }
        })*
    };
}

from_feature! {
    StudyAction => Study,
    FileAction => File,
    ViewAction => View,
    EngineAction => Engine,
    PresentationAction => Presentation,
    OpeningsAction => Openings,
    FeedbackAction => Feedback,
    ExportAction => Export,
    WorksheetAction => Worksheet,
    WindowAction => Window,
    EditorAction => Editor,
    PuzzleAction => Puzzle,
    PlayAction => Play,
    PatternAction => Patterns,
    KnowledgeAction => Knowledge,
    ClubAction => Club,
    ClassAction => Class,
    TbAction => Tablebase,
    TabAction => Tabs,
    FileChooserAction => FileChooser,
    TrainAction => Train,
    CollectionAction => Collections,
    PictureAction => Picture,
}

/// Moving through the game on the board and editing its record.
#[derive(Clone, Debug, PartialEq)]
pub enum StudyAction {
    /// A click on a point: pick up a piece, or move the picked-up piece there.
    ClickPoint(Square),
    /// A move by drag (or from elsewhere): played after the cursor, or refused with the
    /// reason.
    PlayMove(Move),
    /// Put the picked-up piece back.
    Deselect,
    /// Draw or remove an arrow on the current move.
    ToggleArrow(Arrow),
    /// Circle or uncircle a point on the current move.
    ToggleCircle(Circle),
    /// Remove the current move's arrows and circles.
    ClearMarks,
    /// Go to a move (the root for the start).
    GoTo(NodeId),
    /// ← One move back.
    Back,
    /// → One move on, along the main continuation.
    Forward,
    /// Home: the start position.
    Start,
    /// End: the end of the current line.
    End,
    /// ↑ The previous alternative to the current move.
    PreviousVariation,
    /// ↓ The next alternative to the current move.
    NextVariation,
    /// Delete the move and everything after it.
    DeleteFrom(NodeId),
    /// Move a variation one place up.
    PromoteVariation(NodeId),
    /// Make the line through the move the main line.
    MakeMainLine(NodeId),
    /// Set the comment after a move (on the root: before the first move).
    SetComment(NodeId, String),
    /// Add or remove a glyph.
    ToggleNag(NodeId, Nag),
    /// Set a header (an empty value removes it).
    SetHeader(String, String),
    /// Take back the last edit.
    Undo,
    /// Make again the last edit taken back.
    Redo,
    /// Play an engine line from a node into the record as a variation.
    PlayLine(NodeId, Vec<Move>),
    /// Copy the position as FEN.
    CopyFen,
    /// Copy the game as PGN.
    CopyPgn,
    /// Copy the game as DhtmlXQ, the text forums' web boards show.
    CopyDhtmlXq,
    /// Show a variation of the move list (named by its first move) whole, or only its
    /// first move.
    ToggleVariation(NodeId),
}

/// Opening, choosing and saving game files, pasting a game or position.
#[derive(Clone, Debug, PartialEq)]
pub enum FileAction {
    /// A new game from the start position.
    New,
    /// Choose a file to open.
    OpenDialog,
    /// Choose a folder whose game files to step through.
    OpenFolderDialog,
    /// Open a file.
    Open(PathBuf),
    /// Open the first game file of a folder, to step through the others.
    OpenFolder(PathBuf),
    /// Open the game at this index of the game list.
    ChooseGame(usize),
    /// Close the game list without choosing.
    CloseGameList,
    /// Search the game list for this text.
    FilterGames(String),
    /// The previous game file of the folder.
    PreviousFile,
    /// The next game file of the folder.
    NextFile,
    /// Save to the record's file (asks for one if it has none).
    Save,
    /// Choose a file to save to.
    SaveAsDialog,
    /// Save to the record's file (asking for one if it has none), then do what the
    /// purpose says once the work is in its file.
    SaveThen(AfterSave),
    /// Save to this file, then do what the purpose says once the work is in it.
    SaveTo(PathBuf, AfterSave),
    /// Open a FEN or PGN text (pasted).
    Paste(String),
    /// Bring back the autosaved game (`true`) or throw it away.
    RestoreAutosave(bool),
}

/// How the board and moves are shown: the settings of the view.
#[derive(Clone, Debug, PartialEq)]
pub enum ViewAction {
    /// Turn the board round.
    Flip,
    /// Label the points in another style.
    SetCoordinates(Coordinates),
    /// Show or hide the selected piece's legal destinations.
    ToggleDestinations,
    /// Turn the sounds of play on or off.
    ToggleSounds,
    /// Change the board and pieces.
    SetTheme(ThemeChoice),
    /// Change the notation of moves.
    SetNotation(MoveNotation),
    /// Write evaluations in pawns or centipawns.
    SetScoreUnit(crate::settings::ScoreUnit),
    /// Change the interface language.
    SetLanguage(Language),
    /// Only the board, or the whole window.
    ToggleBoardOnly,
    /// The side panel was resized to this width.
    SetSidePanelWidth(f32),
    /// Show or hide the side panel in a window too narrow to show it always.
    ToggleSidePanel,
    /// Show or hide the frame time in the status bar (a developer's figure).
    ToggleFrameTime,
    /// Take away a toast, by its number.
    DismissToast(u64),
    /// Put the welcome away for good.
    DismissWelcome,
}

/// The analysing engine and the whole-game review, and what they report.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineAction {
    /// Start or stop analysing the position on the board.
    ToggleAnalysis,
    /// Hide or show everything the engine says.
    ToggleEngineHidden,
    /// Show this many engine lines (1–5).
    SetMultiPv(usize),
    /// Change the engine's settings: hash size, threads, review time, the external
    /// engines and which one analyses.
    SetEngineSettings(EngineSettings),
    /// Choose an external engine's program to add.
    AddEngineDialog,
    /// Add an external engine and analyse with it.
    AddEngine(PathBuf),
    /// Start the chosen engine again (after it failed).
    RestartEngine,
    /// An endgame table came into memory: the analysis starts again on the position so
    /// that its search uses it at once.
    TablesAdded,
    /// Review the whole main line.
    StartReview,
    /// Stop a review, keeping nothing of it.
    CancelReview,
    /// The analysis service's latest word on this node of the record.
    Analysed(NodeId, Box<Update>),
    /// What the analysing engine said of itself (its name, a failure, a warning).
    Status(EngineStatus),
    /// How far the review has come: positions done, of all.
    ReviewProgress(usize, usize),
    /// The review covered every position: its findings, in main-line order.
    Reviewed(Vec<PositionReview>),
}

/// Teaching: presentation mode and the audience window.
#[derive(Clone, Debug, PartialEq)]
pub enum PresentationAction {
    /// Presentation mode (F5): full screen, the board as large as it goes, high contrast,
    /// large coordinates, engine hidden; the move list on F11.
    Toggle,
    /// Leave presentation mode (Esc).
    End,
    /// In presentation mode, shows or hides the list of the moves revealed so far.
    ToggleMoves,
    /// Opens or closes the audience window (a second window for the projector).
    ToggleAudience,
    /// Puts a puzzle's solution in a new game and presents it to a class, the position
    /// first, the solution revealed one move at a time.
    PresentPuzzle {
        /// The set's index.
        set: usize,
        /// The puzzle's index in it.
        index: usize,
    },
}

/// The opening browser.
#[derive(Clone, Debug, PartialEq)]
pub enum OpeningsAction {
    /// Show or hide the opening browser.
    Toggle,
    /// Search the opening tree by name.
    Search(String),
    /// Put an opening's line on the board, with its notes, as a new game.
    Show(usize),
    /// Choose, in the browser, the named opening the moves up to the cursor reached.
    Which,
    /// Open the browser at this opening.
    Select(usize),
}

/// Telling the user something, from any feature.
#[derive(Clone, Debug, PartialEq)]
pub enum FeedbackAction {
    /// In the status bar.
    Say(crate::state::Notice),
    /// In the status bar and in a toast that stays until dismissed.
    Fail(crate::state::Notice),
    /// In the status bar and in a toast that fades.
    Done(crate::state::Notice),
    /// Clear the status bar if it still says this (a "working…" that is over).
    Clear(crate::state::Notice),
    /// Clear the status bar: what it says is about what came before.
    Quiet,
}

/// Exporting the board as a PNG diagram.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportAction {
    /// Opens (with the options) or closes (`None`) the diagram export dialog.
    Dialog(Option<ExportOptions>),
    /// Asks where to save the diagram, then exports it.
    PngDialog(ExportOptions),
    /// Exports the board as a PNG diagram to the path.
    Png(PathBuf, ExportOptions),
    /// The export finished: the file written, or why not.
    Finished(Result<PathBuf, crate::words::problem::Problem>),
}

/// Making a printable worksheet (PDF) of positions.
#[derive(Clone, Debug, PartialEq)]
pub enum WorksheetAction {
    /// Opens (with the choices) or closes (`None`) the worksheet dialog.
    Dialog(Option<crate::state::worksheet::WorksheetOptions>),
    /// Asks where to save the worksheet, then writes it.
    SaveDialog(crate::state::worksheet::WorksheetOptions),
    /// Writes the worksheet to the path.
    Write(PathBuf, crate::state::worksheet::WorksheetOptions),
    /// The worksheet was written (the file), or why not.
    Finished(Result<PathBuf, crate::words::problem::Problem>),
    /// The collections service read the listed games' positions: open the dialog with
    /// them, or say why not.
    CollectionGames(Result<Vec<chuhe_core::worksheet::Entry>, crate::words::problem::Problem>),
}

/// Quitting and answering the app's dialogs.
#[derive(Clone, Debug, PartialEq)]
pub enum WindowAction {
    /// The user asked to close the window.
    RequestQuit,
    /// Save, then quit.
    SaveAndQuit,
    /// Quit without saving.
    DiscardAndQuit,
    /// Go on with an action that replaces unsaved work (the user agreed).
    DiscardAndContinue,
    /// Save the unsaved work, then go on with the action that replaces it.
    SaveAndContinue,
    /// Close a dialog without doing anything.
    CloseDialog,
    /// Ask the user this question.
    Ask(crate::state::Dialog),
    /// Take the dialog away, its question answered elsewhere (an action held for it stays).
    Dismiss,
}

//! The app's state, apart from any drawing: the record being studied and where the user is
//! in it, the selection, what the engine last said, open dialogs, and what is derived from
//! the record for display (the position, how the game ended, the move list's text), kept
//! up to date by [`AppState::refresh`] after every change.

use crate::settings::Settings;
use chuhe_core::analysis::Update;
use chuhe_core::notation::format_move;
use chuhe_core::record::{MoveNumber, NodeId, Record};
use chuhe_core::{Game, IllegalReason, Move, Outcome, Position, Square};
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
}

/// A dialog that waits for an answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialog {
    /// Quitting with unsaved changes: save, discard or stay.
    UnsavedOnQuit,
    /// Replacing a record with unsaved changes by `next`: go on (losing them) or stay.
    UnsavedOnReplace(Box<crate::actions::Action>),
    /// An autosaved game was found at start: the last session ended with unsaved changes.
    RestoreAutosave,
    /// Leaving the position editor would lose the arrangement: leave or stay.
    LeaveEditor,
}

/// One game of a multi-game file, as the chooser lists it.
#[derive(Clone, Debug)]
pub struct GameEntry {
    /// The game.
    pub record: Record,
    /// Red, Black, event, date, opening, ECCO and result, in one lowercase text to search.
    pub search_text: String,
}

/// The games of a multi-game file, waiting for the user to choose one.
#[derive(Clone, Debug)]
pub struct GameList {
    /// The file they came from.
    pub path: Option<PathBuf>,
    /// The games that could be read.
    pub games: Vec<GameEntry>,
    /// How many games could not be read.
    pub unreadable: usize,
    /// What the user typed in the search field.
    pub filter: String,
}

/// The game files of a folder, to step through.
#[derive(Clone, Debug, PartialEq)]
pub struct Folder {
    /// The files, sorted by name.
    pub files: Vec<PathBuf>,
    /// The one open.
    pub current: usize,
}

/// The opening browser: whether it is shown, the search text and the chosen node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpeningsBrowser {
    /// Whether the panel is shown.
    pub open: bool,
    /// What the user typed in the search field.
    pub query: String,
    /// The node chosen (an index into the built-in opening tree).
    pub selected: Option<usize>,
    /// Counts requests to unfold the tree down to the chosen node.
    pub reveal: u64,
}

/// What presentation mode changed for the projector: the settings before it (so that they,
/// not the projector's, are what is saved) and whether the engine was hidden.
#[derive(Clone, Debug, PartialEq)]
pub struct Presentation {
    /// The theme before.
    pub theme: crate::theme::ThemeChoice,
    /// Whether only the board was shown before.
    pub board_only: bool,
    /// Whether the engine was hidden before.
    pub engine_hidden: bool,
    /// Whether the moves played so far are listed beside the board (only those: the
    /// rest of the line is revealed one move at a time).
    pub show_moves: bool,
}

impl AppState {
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

/// The latest analysis and the record node it is about.
#[derive(Clone, Debug)]
pub struct EngineView {
    /// The analysed node.
    pub node: NodeId,
    /// The position there.
    pub position: Position,
    /// What the engine last said.
    pub update: Update,
    /// For each line of the update, the checkmate patterns its forced mate ends in (empty
    /// when it is no mate for the side to move or shows none): worked out once per
    /// update, not on every frame that draws it.
    pub mate_patterns: Vec<Vec<chuhe_core::library::patterns::PatternId>>,
}

/// How far a whole-game review has come.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewProgress {
    /// Positions analysed.
    pub done: usize,
    /// Positions to analyse.
    pub total: usize,
}

/// One move of the move list, with its text in the chosen notation.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveItem {
    /// The node the move leads to.
    pub node: NodeId,
    /// Its number, shown before Red's moves and at the start of a line.
    pub number: MoveNumber,
    /// The move in the chosen notation.
    pub text: String,
    /// The assessment glyphs (`!`, `?!` …) and other NAGs.
    pub glyphs: String,
    /// Whether it lies on the main line.
    pub main_line: bool,
    /// Whether it carries a comment.
    pub commented: bool,
}

/// The move list as a flow of moves and brackets, variations inline as in PGN.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveToken {
    /// A move.
    Move(MoveItem),
    /// `(`: a variation starts, at this depth (1 for a variation of the main line).
    Open(usize),
    /// `)`: a variation ends.
    Close(usize),
    /// The comment after a move, shown in the list.
    Comment(NodeId, String),
}

/// What is derived from the record for display.
#[derive(Clone, Debug)]
pub struct Derived {
    /// The position at the cursor.
    pub position: Position,
    /// How the game ended at the cursor, judged along the path from the start.
    pub outcome: Option<Outcome>,
    /// The move list.
    pub tokens: Vec<MoveToken>,
    /// The deepest named opening position the moves up to the cursor pass through.
    pub opening: Option<chuhe_core::library::openings::Recognition>,
    /// The ECCO code of the main line.
    pub ecco: Option<chuhe_core::library::openings::ecco::Classification>,
}

/// Everything the app knows, apart from services (engine, files) and egui.
pub struct AppState {
    /// The user's settings.
    pub settings: Settings,
    /// The game being studied.
    pub record: Record,
    /// The node shown on the board.
    pub cursor: NodeId,
    /// The piece picked up by a first click.
    pub selected: Option<Square>,
    /// The last thing to tell the user.
    pub notice: Option<Notice>,
    /// The file the record came from or was saved to.
    pub file: Option<PathBuf>,
    /// A folder being stepped through.
    pub folder: Option<Folder>,
    /// Whether the record changed since it was loaded or saved.
    pub dirty: bool,
    /// Counts the record's changes, so the autosave knows whether it is behind.
    pub edits: u64,
    /// Counts replacements of the record: node ids of an earlier record mean nothing.
    pub generation: u64,
    /// Whether the engine analyses the position on the board.
    pub analysing: bool,
    /// Whether eval, lines and arrows are hidden (for self-study and classes).
    pub engine_hidden: bool,
    /// The latest analysis.
    pub engine: Option<EngineView>,
    /// Presentation mode (F5), with what it changed, to put back when it ends.
    pub presentation: Option<Presentation>,
    /// The last sound of play asked for (heard only when there is a sound device).
    pub last_sound: Option<crate::sound::Sound>,
    /// What the analysing engine last said of itself (its name, a failure, a warning).
    pub engine_status: Option<crate::engine::EngineStatus>,
    /// The external engine's last unreadable line, shown until the engine changes.
    pub engine_warning: Option<chuhe_core::external::ExternalWarning>,
    /// A whole-game review under way.
    pub review: Option<ReviewProgress>,
    /// A multi-game file's games to choose from.
    pub game_list: Option<GameList>,
    /// A dialog waiting for an answer.
    pub dialog: Option<Dialog>,
    /// The opening browser.
    pub openings: OpeningsBrowser,
    /// Derived from the record.
    pub derived: Derived,
    /// The position editor, while it is open (the record stays as it was).
    pub editor: Option<crate::editor::Editor>,
    /// Puzzle sets, progress and solve mode.
    pub puzzles: crate::puzzles::Puzzles,
    /// The checkmate-pattern browser.
    pub patterns: crate::panels::patterns::PatternsState,
    /// A game being played against the engine or hot-seat.
    pub play: Option<crate::play::Match>,
    /// The new-game dialog, while it is open.
    pub play_setup: Option<crate::play::PlaySetup>,
    /// The diagram export dialog, while it is open.
    pub export_dialog: Option<crate::export::ExportOptions>,
    /// Whether the audience window (the projector's board) is open.
    pub audience: bool,
    // Knowledge reference (issue 10).
    /// The knowledge reference window and the board-lines overlay.
    pub knowledge: crate::panels::knowledge::KnowledgeState,
    // Club (issue 10).
    /// The club manager.
    pub club: crate::club::ClubState,
    /// Endgame tables: the verdict of the board's position, practice, the browser.
    pub tablebase: crate::tablebase::TbState,
}

impl AppState {
    /// An empty record from the start position.
    pub fn new(settings: Settings) -> AppState {
        let record = Record::default();
        let derived = derive(&record, record.root(), &settings);
        AppState {
            settings,
            cursor: record.root(),
            record,
            selected: None,
            notice: None,
            file: None,
            folder: None,
            dirty: false,
            edits: 0,
            generation: 0,
            analysing: false,
            engine_hidden: false,
            engine: None,
            presentation: None,
            last_sound: None,
            engine_status: None,
            engine_warning: None,
            review: None,
            game_list: None,
            dialog: None,
            openings: OpeningsBrowser::default(),
            derived,
            editor: None,
            puzzles: Default::default(),
            patterns: Default::default(),
            play: None,
            play_setup: None,
            export_dialog: None,
            audience: false,
            knowledge: Default::default(),
            club: Default::default(),
            tablebase: Default::default(),
        }
    }

    /// The position on the board.
    pub fn position(&self) -> &Position {
        &self.derived.position
    }

    /// Recomputes what is derived from the record (after any change to it, the cursor or
    /// the notation).
    pub fn refresh(&mut self) {
        if !self.record.is_live(self.cursor) {
            self.cursor = self.record.root();
        }
        self.derived = derive(&self.record, self.cursor, &self.settings);
    }

    /// Replaces the record (a file was opened, a new game started).
    pub fn replace_record(&mut self, record: Record, file: Option<PathBuf>) {
        self.record = record;
        self.record.clear_history();
        self.cursor = self.record.root();
        self.selected = None;
        self.file = file;
        self.dirty = false;
        self.edits += 1;
        self.generation += 1;
        self.engine = None;
        self.refresh();
    }

    /// Notes that the record was edited.
    pub fn mark_edited(&mut self) {
        self.dirty = true;
        self.edits += 1;
    }

    /// The engine's latest view of the position on the board, unless hidden.
    pub fn visible_engine(&self) -> Option<&EngineView> {
        if self.engine_hidden {
            return None;
        }
        self.engine.as_ref().filter(|e| e.node == self.cursor)
    }
}

fn derive(record: &Record, cursor: NodeId, settings: &Settings) -> Derived {
    let mut game = Game::new(record.start().clone());
    for m in record.moves_to(cursor) {
        // Every move in a record was checked when it entered.
        let _ = game.play(m);
    }
    let openings = chuhe_core::library::openings::builtin().ok();
    Derived {
        position: game.position().clone(),
        outcome: game.outcome(),
        tokens: move_tokens(record, settings),
        opening: openings.and_then(|b| b.recognize(record.start(), &record.moves_to(cursor))),
        ecco: chuhe_core::library::openings::ecco::classify(
            record.start(),
            &record.main_line_moves(),
        ),
    }
}

/// The move list in PGN order: each node's main continuation, then its variations in
/// brackets, then the rest of the line.
fn move_tokens(record: &Record, settings: &Settings) -> Vec<MoveToken> {
    let notation = settings.notation.notation();
    let mut tokens = Vec::new();
    let root = record.root();
    let start = record.start().clone();
    let root_comment = record.annotation(root).comment.clone();
    if !root_comment.is_empty() {
        tokens.push(MoveToken::Comment(root, root_comment));
    }
    line_tokens(record, root, start, 0, notation, &mut tokens);
    tokens
}

/// The tokens of the line continuing from `parent` (at `position`), `depth` brackets deep.
fn line_tokens(
    record: &Record,
    parent: NodeId,
    position: Position,
    depth: usize,
    notation: chuhe_core::Notation,
    tokens: &mut Vec<MoveToken>,
) {
    let mut parent = parent;
    let mut position = position;
    loop {
        let children: Vec<NodeId> = record.children(parent).collect();
        let Some(&main) = children.first() else {
            return;
        };
        let after_main = push_move(record, main, &position, depth == 0, notation, tokens);
        for &variation in &children[1..] {
            tokens.push(MoveToken::Open(depth + 1));
            let after = push_move(record, variation, &position, false, notation, tokens);
            line_tokens(record, variation, after, depth + 1, notation, tokens);
            tokens.push(MoveToken::Close(depth + 1));
        }
        parent = main;
        position = after_main;
    }
}

/// Pushes the move `node` (played at `position`) and its comment; returns the position
/// after it.
fn push_move(
    record: &Record,
    node: NodeId,
    position: &Position,
    main_line: bool,
    notation: chuhe_core::Notation,
    tokens: &mut Vec<MoveToken>,
) -> Position {
    let mv: Move = record
        .move_at(node)
        .unwrap_or(Move::new(Square::ALL[0], Square::ALL[0]));
    let annotation = record.annotation(node);
    let glyphs = annotation
        .nags
        .iter()
        .map(|n| n.glyph().map_or_else(|| n.to_string(), str::to_owned))
        .collect::<Vec<_>>()
        .join(" ");
    tokens.push(MoveToken::Move(MoveItem {
        node,
        number: MoveNumber::before(position),
        text: format_move(position, mv, notation),
        glyphs,
        main_line,
        commented: !annotation.comment.is_empty(),
    }));
    if !annotation.comment.is_empty() {
        tokens.push(MoveToken::Comment(node, annotation.comment.clone()));
    }
    let mut next = position.clone();
    next.play_unchecked(mv);
    next
}

//! The study: the record being studied, where the user is in it, the file it came from,
//! and what is derived from it for display.

pub mod move_list;

use crate::settings::Settings;
use crate::words::problem::Problem;
use chuhe_core::Outcome;
use chuhe_core::gamefile::TextForm;
use chuhe_core::notation::format_move;
use chuhe_core::record::{MoveNumber, Nag, NodeId, Record, Token};
use chuhe_core::{Game, Position, Square};
use move_list::{MoveRow, move_rows};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The study board's state.
pub struct Study {
    /// The game being studied.
    pub record: Record,
    /// The node shown on the board.
    pub cursor: NodeId,
    /// The piece picked up by a first click.
    pub selected: Option<Square>,
    /// The file the record came from or was saved to.
    pub file: Option<PathBuf>,
    /// How that file wrote the game, to save it the same way (a PGN file's only).
    pub form: Option<TextForm>,
    /// Where and why the game's file breaks off, when only the moves before that point
    /// could be read.
    pub partial: Option<Problem>,
    /// A folder being stepped through.
    pub folder: Option<Folder>,
    /// Whether the record changed since it was loaded or saved.
    pub dirty: bool,
    /// Counts the record's changes, so the autosave knows whether it is behind.
    pub edits: u64,
    /// Which record this is, unique across tabs (the state hands out a new one whenever
    /// the record is replaced): node ids of another record mean nothing.
    pub generation: u64,
    /// A multi-game file's games to choose from.
    pub game_list: Option<GameList>,
    /// The variations of the move list showing only their first move, named by it. The
    /// move on the board is never hidden in one: moving there opens them.
    pub collapsed: BTreeSet<NodeId>,
    /// Derived from the record.
    pub derived: Derived,
    /// The last sound of play asked for (heard only when there is a sound device).
    pub last_sound: Option<Sound>,
    /// A game in play in this tab, paused while another tab is on the board (the game of
    /// the tab on the board is [`crate::state::State::play`]).
    pub paused_play: Option<crate::state::play::Match>,
}

/// What happened on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sound {
    /// A quiet move.
    Move,
    /// A capture.
    Capture,
    /// A move that gives check.
    Check,
    /// A move that ends the game (mate, 困毙, a rule's verdict).
    GameEnd,
}

impl Study {
    /// An empty record from the start position.
    pub fn new(settings: &Settings) -> Study {
        let record = Record::default();
        let collapsed = BTreeSet::new();
        let derived = derive(&record, record.root(), &collapsed, settings);
        Study {
            collapsed,
            cursor: record.root(),
            record,
            selected: None,
            file: None,
            form: None,
            partial: None,
            folder: None,
            dirty: false,
            edits: 0,
            generation: 0,
            game_list: None,
            derived,
            last_sound: None,
            paused_play: None,
        }
    }

    /// Recomputes what is derived from the record.
    pub fn refresh(&mut self, settings: &Settings) {
        if !self.record.is_live(self.cursor) {
            self.cursor = self.record.root();
        }
        // The variations the move on the board lies in open, so the list can show it; one
        // that starts with it can stay closed, as its first move is shown.
        for node in self.record.path(self.cursor) {
            if node != self.cursor {
                self.collapsed.remove(&node);
            }
        }
        self.derived = derive(&self.record, self.cursor, &self.collapsed, settings);
    }

    /// Replaces the record (a file was opened, a new game started).
    pub fn replace_record(&mut self, record: Record, file: Option<PathBuf>, settings: &Settings) {
        self.record = record;
        self.record.clear_history();
        self.cursor = self.record.root();
        self.selected = None;
        self.collapsed.clear();
        self.file = file;
        // What the previous file was has nothing to do with this record; opening a file
        // sets these again.
        self.form = None;
        self.partial = None;
        self.dirty = false;
        self.edits += 1;
        self.refresh(settings);
    }

    /// Notes that the record was edited.
    pub fn mark_edited(&mut self) {
        self.dirty = true;
        self.edits += 1;
    }
}

/// One game of a multi-game file, as the chooser lists it.
#[derive(Clone, Debug)]
pub struct GameEntry {
    /// The game.
    pub record: Record,
    /// How the file wrote it.
    pub form: Option<TextForm>,
    /// Where and why it breaks off, when it was read only up to there.
    pub partial: Option<Problem>,
    /// Red, Black, event, date, opening, ECCO and result, in one lowercase text to search.
    pub search_text: String,
}

/// A game of a multi-game file that could not be read at all.
#[derive(Clone, Debug, PartialEq)]
pub struct UnreadableGame {
    /// Its number in the file, from 1.
    pub number: usize,
    /// Where and why.
    pub problem: Problem,
}

impl GameEntry {
    /// Whether the game matches every word of the search text.
    pub fn matches(&self, filter: &str) -> bool {
        filter
            .to_lowercase()
            .split_whitespace()
            .all(|word| self.search_text.contains(word))
    }
}

/// The games of a multi-game file, waiting for the user to choose one.
#[derive(Clone, Debug)]
pub struct GameList {
    /// The file they came from.
    pub path: Option<PathBuf>,
    /// The games that could be read.
    pub games: Vec<GameEntry>,
    /// The games that could not be read.
    pub unreadable: Vec<UnreadableGame>,
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
    /// Whether it starts a line the engine put in ([`Nag::ENGINE_LINE`]).
    pub engine: bool,
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
    /// The move list in rows, as it is drawn.
    pub rows: Vec<MoveRow>,
    /// The deepest named opening position the moves up to the cursor pass through.
    pub opening: Option<chuhe_core::library::openings::Recognition>,
    /// The ECCO code of the main line.
    pub ecco: Option<chuhe_core::library::openings::ecco::Classification>,
    /// The ECCO code of the moves up to the cursor (the explorer's position).
    pub ecco_here: Option<chuhe_core::library::openings::ecco::Classification>,
}

pub fn derive(
    record: &Record,
    cursor: NodeId,
    collapsed: &BTreeSet<NodeId>,
    settings: &Settings,
) -> Derived {
    let game = record
        .game_at(cursor)
        .unwrap_or_else(|| Game::new(record.start().clone()));
    let openings = chuhe_core::library::openings::builtin().ok();
    let tokens = move_tokens(record, settings);
    let moves_here = record.moves_to(cursor);
    Derived {
        position: game.position().clone(),
        outcome: game.outcome(),
        rows: move_rows(&tokens, cursor, collapsed),
        tokens,
        opening: openings.and_then(|b| b.recognize(record.start(), &moves_here)),
        ecco: chuhe_core::library::openings::ecco::classify(
            record.start(),
            &record.main_line_moves(),
        ),
        ecco_here: chuhe_core::library::openings::ecco::classify(record.start(), &moves_here),
    }
}

/// The move list in PGN order (the record's tokens), each move in the chosen notation.
pub fn move_tokens(record: &Record, settings: &Settings) -> Vec<MoveToken> {
    let notation = settings.notation.notation();
    record
        .tokens()
        .map(|token| match token {
            Token::Move {
                node,
                mv,
                before,
                number,
                main_line,
                ..
            } => {
                let annotation = record.annotation(node);
                // The engine's mark is drawn as a label of its own, not as `$220`.
                let glyphs = annotation
                    .nags
                    .iter()
                    .filter(|&&n| n != Nag::ENGINE_LINE)
                    .map(|n| n.glyph().map_or_else(|| n.to_string(), str::to_owned))
                    .collect::<Vec<_>>()
                    .join(" ");
                MoveToken::Move(MoveItem {
                    node,
                    number,
                    text: format_move(&before, mv, notation),
                    glyphs,
                    main_line,
                    commented: !annotation.comment.is_empty(),
                    engine: annotation.nags.contains(&Nag::ENGINE_LINE),
                })
            }
            Token::Open(depth) => MoveToken::Open(depth),
            Token::Close(depth) => MoveToken::Close(depth),
            Token::Comment(node) => {
                MoveToken::Comment(node, record.annotation(node).comment.clone())
            }
        })
        .collect()
}

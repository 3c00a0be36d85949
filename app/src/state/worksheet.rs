//! The worksheet dialog's choices: which positions, and how they are printed.

use chuhe_core::Notation;
use chuhe_core::worksheet::Paper;

/// Where a worksheet's positions come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorksheetSource {
    /// The position on the board.
    Board,
    /// A loaded puzzle set, by index.
    Puzzles(usize),
    /// The 36 checkmate patterns' positions.
    Patterns,
    /// The game's positions after the commented or marked moves of its main line.
    Game,
    /// The positions of the games the collection browser listed (kept in the state's
    /// `worksheet_games`, read by the collections service).
    Collection,
}

/// What the user chose in the worksheet dialog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorksheetOptions {
    /// The positions.
    pub source: WorksheetSource,
    /// The title at the top of each page.
    pub title: String,
    /// The class in the header (a line to fill in when empty).
    pub class: String,
    /// The date in the header (a line to fill in when empty).
    pub date: String,
    /// A4 or Letter.
    pub paper: Paper,
    /// Diagrams a page (1, 2, 4, 6, 9 or 12).
    pub per_page: usize,
    /// Whether answer pages follow.
    pub answers: bool,
    /// Whether each position with an answer gets a hint (the piece that moves first).
    pub hints: bool,
    /// The answers' notation.
    pub notation: Notation,
    /// Black and white rather than colour.
    pub black_and_white: bool,
}

impl WorksheetOptions {
    /// The dialog's first choices for `source`, titled `title`.
    pub fn new(source: WorksheetSource, title: String) -> WorksheetOptions {
        WorksheetOptions {
            source,
            title,
            class: String::new(),
            date: String::new(),
            paper: Paper::A4,
            per_page: 6,
            answers: true,
            hints: false,
            notation: Notation::Chinese,
            black_and_white: true,
        }
    }
}

/// The notations offered for the answers.
pub const NOTATIONS: [Notation; 4] = [
    Notation::Chinese,
    Notation::ChineseTraditional,
    Notation::Wxf,
    Notation::Iccs,
];

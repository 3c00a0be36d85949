//! Puzzles: the browser, solve mode, the user's collections.

use crate::state::puzzles::Judgement;
use chuhe_core::{Move, Square};
use std::path::PathBuf;

/// Everything the user can do with puzzles.
#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleAction {
    /// Read the sets again when next wanted (one of them changed on disk).
    Reload,
    /// Open or close the list of puzzles.
    ToggleBrowser,
    /// Show this set's puzzles in the list.
    ShowSet(usize),
    /// Solve a puzzle of a set.
    Start {
        /// The set's index.
        set: usize,
        /// The puzzle's index in it.
        index: usize,
    },
    /// Replay a set, the missed puzzles first.
    Replay(usize),
    /// A click on the board in solve mode.
    Click(Square),
    /// A move tried by drag.
    Move(Move),
    /// Show more of the hint.
    Hint,
    /// Back to the puzzle's start.
    Restart,
    /// The next puzzle (of the replay, or of the set).
    Next,
    /// Leave solve mode (back to the game, which solve mode never touched).
    Leave,
    /// Choose a PGN file of puzzles to import.
    ImportDialog,
    /// Import a PGN file of puzzles as a collection.
    Import(PathBuf),
    /// Choose where to export a set as PGN.
    ExportDialog(usize),
    /// Export a set as PGN to a file.
    Export(usize, PathBuf),
    /// The solver judged the user's move.
    Judged(Judgement),
    /// The solver found a winning move for the hint (or none).
    HintFound(Option<Move>),
}

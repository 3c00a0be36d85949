//! Training: the Train home, the daily round and its drills, repertoires and endgame
//! positions added to it, export and import.

use chuhe_core::training::schedule::Grade;
use chuhe_core::{Color, Move, Square};
use std::path::PathBuf;

/// What the user asks of training.
#[derive(Clone, Debug, PartialEq)]
pub enum TrainAction {
    /// Open or close the Train home.
    ToggleHome,
    /// New items brought in a day.
    SetNewPerDay(u32),
    /// Start today's round.
    StartRound,
    /// Drill every line of a repertoire (by id) now, due or not.
    DrillRepertoire(String),
    /// A click on the drill's board.
    Click(Square),
    /// A move dragged on the drill's board.
    Move(Move),
    /// Show a right move (counts as a hint).
    Hint,
    /// Give the item up (graded Again).
    GiveUp,
    /// Change the grade of the item just done.
    Regrade(Grade),
    /// The next item of the round.
    Next,
    /// Stop the round (what was graded stays).
    StopRound,
    /// Show an item's history in the home (or none).
    ShowHistory(Option<String>),
    /// Mark the game on the board (every variation) as the user's repertoire for a side.
    MarkStudy(Color),
    /// Mark a branch of the built-in opening tree (node index) as repertoire for a side.
    MarkOpening(usize, Color),
    /// Remove a repertoire (by id) and the memory of its lines.
    RemoveRepertoire(String),
    /// Add the board's position (in an endgame table, won for the side to move).
    AddEndgame,
    /// Choose where to export the training state.
    ExportDialog,
    /// Export the training state to a file.
    Export(PathBuf),
    /// Choose a training file to import.
    ImportDialog,
    /// Merge an exported training state into this one.
    Import(PathBuf),
    /// The endgame table a drill waited for was fetched.
    TableReady,
}

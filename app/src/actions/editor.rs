//! The position editor and the composer's solver.

use crate::state::editor::{PuzzleInfo, SolveOutput, Tool};
use chuhe_core::solver::ProgressReport;
use chuhe_core::{Color, Piece, Position, Square};

/// Everything the user can do in the editor.
#[derive(Clone, Debug, PartialEq)]
pub enum EditorAction {
    /// Open the editor on the position on the board.
    Open,
    /// Leave the editor (asks first when the arrangement was changed).
    Leave,
    /// Leave without asking.
    LeaveNow,
    /// Choose what a click does.
    SetTool(Tool),
    /// A click on a point, with the current tool.
    Click(Square),
    /// Put a piece on a point (from the palette by drag).
    Place(Square, Piece),
    /// Take the piece off a point.
    Remove(Square),
    /// Move a piece from one point to another (by drag), taking whatever stood there.
    MovePiece(Square, Square),
    /// Empty the board.
    Clear,
    /// The start position.
    StartPosition,
    /// Mirror left–right.
    Mirror,
    /// Swap the colours (the board turned round, the other side to move).
    SwapColors,
    /// Choose the side to move.
    SetSideToMove(Color),
    /// The text in the FEN field changed.
    SetFenText(String),
    /// Set up the position of the FEN field (or pasted).
    ApplyFen(String),
    /// Take back the last change of the arrangement.
    Undo,
    /// Make the change taken back again.
    Redo,
    /// Start a new game from this position (refused when illegal).
    Play,
    /// Start a new game from this position and analyse it (refused when illegal).
    Analyse,
    /// The composer's view: the most moves to look for a mate in.
    SetMateMoves(u32),
    /// The composer's view: only mates by consecutive checks.
    SetChecksOnly(bool),
    /// Run the solver on the position.
    Solve,
    /// Stop the solver.
    CancelSolve,
    /// The title, source and author of a puzzle to save.
    SetPuzzleInfo(PuzzleInfo),
    /// Save the position and the proved mate as one of the user's puzzles.
    SaveAsPuzzle,
    /// How far the composer's solver has got.
    Progress(ProgressReport),
    /// The composer's solver answered for this position.
    Solved(Position, Box<SolveOutput>),
}

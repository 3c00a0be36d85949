use crate::state::patterns::Defence;
use chuhe_core::library::patterns::PatternId;
use chuhe_core::{Move, Square};
/// What the user asks of the pattern browser.
#[derive(Clone, Debug, PartialEq)]
pub enum PatternAction {
    /// Show the gallery (opens the browser).
    Gallery,
    /// Close the browser, back to the game.
    Close,
    /// Put the browser out of sight (something else takes the board); practice waits.
    Hide,
    /// Open example `1` (0-based) of pattern `0`.
    Open(PatternId, usize),
    /// Show the solution up to this many plies.
    Step(usize),
    /// Start practising the open example (again).
    Practise,
    /// Back from practice to reading.
    StopPractice,
    /// A click on the practice board.
    Click(Square),
    /// A move dragged on the practice board.
    Move(Move),
    /// Show the next winning move.
    Hint,
    /// The defence was worked out.
    Defended(Defence),
}

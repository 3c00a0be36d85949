use chuhe_core::knowledge::Hit;
/// What the user asks of the reference.
#[derive(Clone, Debug, PartialEq)]
pub enum KnowledgeAction {
    /// Open or close the window.
    Toggle,
    /// The search box changed.
    Search(String),
    /// Read the entry with this id (its first diagram, at the start).
    Open(String),
    /// Show the entry's diagram with this index.
    Diagram(usize),
    /// Show the diagram after this many moves of its line.
    Step(usize),
    /// Put the diagram and its line on the main board, as a new game.
    ToBoard,
    /// Open a search result: an entry here, or the opening or pattern in its browser.
    OpenHit(Hit),
    /// Switch the board-lines overlay on the main board.
    ToggleBoardLines,
    /// A frame of the window's settling passed (a new window measures itself unseen
    /// first, and until it is drawn a click would reach the board under it).
    Settled,
}

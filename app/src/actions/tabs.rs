//! The tab bar: several games open at once, one of them on the board.

use chuhe_core::record::{NodeId, Record};
use std::sync::Arc;

/// What the user asks of the tabs. Indices count every tab, the active one included, in
/// the order the tab bar shows them.
#[derive(Clone, Debug, PartialEq)]
pub enum TabAction {
    /// Open an empty game in a new tab (`+`).
    New,
    /// Put this tab's game on the board.
    Switch(usize),
    /// The next tab (Ctrl+Tab), the first after the last.
    Next,
    /// The previous tab (Ctrl+Shift+Tab), the last before the first.
    Previous,
    /// Close this tab; one with unsaved changes asks first.
    Close(usize),
    /// Close the tab on the board (Ctrl+W).
    CloseActive,
    /// Open a game made by a feature (a library line, a diagram) as a game of its own.
    Open(OpenGame),
    /// Put a game made by a feature in place of the one on the board (whose unsaved
    /// changes the feature asked about).
    Replace(OpenGame),
}

/// A game a feature made, to open beside the others with the cursor at `cursor`.
#[derive(Clone, Debug)]
pub struct OpenGame {
    /// The game.
    pub record: Arc<Record>,
    /// Where the cursor starts.
    pub cursor: NodeId,
}

impl OpenGame {
    /// `record` to open at `cursor`.
    pub fn new(record: Record, cursor: NodeId) -> OpenGame {
        OpenGame {
            record: Arc::new(record),
            cursor,
        }
    }
}

/// Two requests are the same when they open the same game made once (a record has no
/// equality of its own).
impl PartialEq for OpenGame {
    fn eq(&self, other: &OpenGame) -> bool {
        Arc::ptr_eq(&self.record, &other.record) && self.cursor == other.cursor
    }
}

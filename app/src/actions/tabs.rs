//! The tab bar: several games open at once, one of them on the board.

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
}

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

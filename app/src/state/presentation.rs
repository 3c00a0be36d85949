/// What presentation mode changed for the projector: the settings before it (so that they,
/// not the projector's, are what is saved) and whether the engine was hidden.
#[derive(Clone, Debug, PartialEq)]
pub struct Presentation {
    /// The theme before.
    pub theme: crate::theme::ThemeChoice,
    /// Whether only the board was shown before.
    pub board_only: bool,
    /// Whether the engine was hidden before.
    pub engine_hidden: bool,
    /// Whether the moves played so far are listed beside the board (only those: the
    /// rest of the line is revealed one move at a time).
    pub show_moves: bool,
}

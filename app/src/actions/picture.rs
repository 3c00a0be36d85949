//! Reading a position from a picture, and correcting what was read.

use crate::state::picture::{Outcome, Picture};
use chuhe_core::{Color, Square};
use std::path::PathBuf;

/// Everything the user can do with a picture of a board, and the reader's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum PictureAction {
    /// Choose a picture file to read (File ▸ 识图).
    OpenDialog,
    /// Read the picture in this file (chosen, or dropped on the window).
    Open(PathBuf),
    /// Read a picture pasted from the clipboard.
    Paste(Picture),
    /// The reader answered, about the file it was given (none when pasted).
    Read(Option<PathBuf>, Box<Outcome>),
    /// Show this board of the several found.
    Choose(usize),
    /// A click on a point: the next likelier piece there.
    Cycle(Square),
    /// A right click on a point: back to the piece before.
    CycleBack(Square),
    /// Whose move it is.
    SetSideToMove(Color),
    /// Open the board shown, as corrected, in the editor.
    Accept,
    /// Add every board found, as corrected, to a puzzle set.
    AddAllToPuzzles,
    /// Close the correction view, keeping nothing.
    Cancel,
}

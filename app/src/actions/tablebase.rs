//! The endgame tables: practice, the browser, and what the tables' service reports.

use crate::state::tablebase::Want;
use chuhe_core::tb::{Analysis, Material};

/// What the user asks of the endgame tables.
#[derive(Clone, Debug, PartialEq)]
pub enum TbAction {
    /// Load or generate the table of this material in the background.
    Generate(Material),
    /// Stop making the table being made.
    StopGenerating,
    /// Practise the board's position against the table: the user plays the side to move,
    /// or with `table_first` the other side (the table moves first).
    StartPractice {
        /// Whether the table plays the side to move.
        table_first: bool,
    },
    /// End practice.
    StopPractice,
    /// Show or hide the endgame browser.
    ToggleBrowser,
    /// Choose the browser's material.
    BrowserMaterial(String),
    /// Choose which verdict the browser's random position has.
    BrowserWant(Want),
    /// Put a random position of the chosen material and verdict on the board.
    BrowserRandom,
    /// Put the table's longest win on the board.
    BrowserLongest,
    /// The table being made is done (or failed, with why).
    Generated(Result<(), crate::words::problem::Problem>),
    /// How far the table being made has come: its material and the fraction done.
    Progress(String, f32),
    /// What the loaded tables say of the position (its FEN).
    Analysed(String, Option<Box<Analysis>>),
}

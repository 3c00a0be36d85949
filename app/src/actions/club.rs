use crate::state::club::Draft;
use chuhe_core::club::{GameResult, GradeGroup, PlayerId};
use std::path::PathBuf;
/// Something done in the club manager (on the club open and the group shown).
#[derive(Clone, Debug, PartialEq)]
pub enum ClubAction {
    /// Show or hide the window.
    Toggle,
    /// The forms changed.
    EditDraft(Draft),
    /// Create a club named as the draft says.
    NewClub,
    /// Open a club file.
    Open(PathBuf),
    /// Add the draft's player.
    AddPlayer,
    /// Remove a player who plays in no tournament.
    RemovePlayer(PlayerId),
    /// Show a group's tournament.
    ShowGroup(GradeGroup),
    /// Show a round.
    ShowRound(usize),
    /// Start the group's tournament as the draft says (round robin or Swiss).
    CreateTournament,
    /// Enter or clear a result.
    SetResult {
        /// Round, 0-based.
        round: usize,
        /// Board, 0-based.
        board: usize,
        /// The result.
        result: Option<GameResult>,
    },
    /// Set the fouls of a game.
    SetFouls {
        /// Round, 0-based.
        round: usize,
        /// Board, 0-based.
        board: usize,
        /// Fouls on Red.
        red: u32,
        /// Fouls on Black.
        black: u32,
    },
    /// Pair the next Swiss round.
    PairNextRound,
    /// Cancel the group's tournament (before any result).
    CancelTournament,
    /// Attach the game on the board to a pairing.
    AttachGame {
        /// Round, 0-based.
        round: usize,
        /// Board, 0-based.
        board: usize,
    },
    /// Put a pairing's attached game on the board.
    OpenGame {
        /// Round, 0-based.
        round: usize,
        /// Board, 0-based.
        board: usize,
    },
    /// Choose where to export the group's pairings and standings as CSV.
    ExportCsvDialog,
    /// Choose where to export them as a PNG page.
    ExportPngDialog,
    /// Export as CSV to a file.
    ExportCsv(PathBuf),
    /// Export as PNG to a file.
    ExportPng(PathBuf),
    /// Choose a class record whose scores to show beside the players.
    OpenClassRecordDialog,
    /// Read a class record's scores (saved by the class window) for the players list.
    OpenClassRecord(PathBuf),
}

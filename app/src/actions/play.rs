//! Playing a game against the engine or hot-seat.

use crate::state::play::PlaySetup;
use chuhe_core::search::Score;
use chuhe_core::{Color, Move};

/// What the user does with a game in play.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayAction {
    /// Opens the new-game dialog (against the engine, or hot-seat).
    OpenSetup {
        /// Against the engine.
        against_engine: bool,
    },
    /// Changes what the dialog shows.
    EditSetup(PlaySetup),
    /// Closes the dialog.
    CloseSetup,
    /// Starts the game the dialog describes.
    Start(PlaySetup),
    /// The game `Start` opened a record for begins on it.
    Begin(PlaySetup),
    /// Asks whether to resign (resigning ends the game: one click must not).
    AskResign,
    /// Asks whether to offer a draw.
    AskDrawOffer,
    /// Takes back the last move (and the engine's reply to it).
    TakeBack,
    /// The side to move (a person) offers a draw.
    OfferDraw,
    /// The offer is accepted (hot-seat: by the other person).
    AcceptDraw,
    /// The offer is declined.
    DeclineDraw,
    /// The person to move resigns (against the engine: the person, whoever is to move).
    Resign,
    /// Leaves the game (the record stays, with the moves played).
    Leave,
    /// Switches the engine's help (analysis, arrow, hints) in the game on or off.
    SetAssist(bool),
    /// A frame passed: check the clock's flag and whether the rules ended the game.
    Tick,
    /// A person's move was added at the end of the game, by `Color`: the clock is pressed.
    Moved(Color),
    /// The engine started thinking about its move.
    EngineThinking,
    /// The engine chose its move (with its evaluation), or found none, for the game in
    /// play in the record of this generation (a move for another tab's game is not
    /// played).
    EngineMoved(u64, Option<(Move, Score)>),
}

//! Training in the app: the Train home (due items per kind, new items a day, the streak,
//! the chart, each item's history) and the drill of the round under way.

use crate::words::problem::Problem;
use chuhe_core::training::Item;
use chuhe_core::training::drill::Drill;
use chuhe_core::training::schedule::Grade;
use chuhe_core::training::store::TrainingData;
use chuhe_core::{Move, Square};
use std::time::Instant;

/// What the drill says after the user's last move, put into words when drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrillMessage {
    /// Right; the other side answered with this move.
    Right(Option<Move>),
    /// Wrong: the move was taken back.
    Wrong(Move),
    /// Another line of the repertoire plays this move, not this one.
    OtherLine(Move),
    /// The endgame table is being fetched.
    WaitingForTable,
    /// The item is done.
    Done,
    /// The item was given up, or the win took too long.
    Failed,
}

/// One item being drilled, and how the attempt goes.
pub struct DrillSession {
    /// The drill.
    pub drill: Drill,
    /// When the attempt started (its time decides between easy, good and hard).
    pub started: Instant,
    /// The piece picked up by a click.
    pub selected: Option<Square>,
    /// The last message.
    pub message: Option<DrillMessage>,
    /// The hint shown, if one was asked for.
    pub hint: Option<Move>,
    /// A move waiting for the endgame table.
    pub pending: Option<Move>,
    /// Once the item is over: the grade the attempt earned and the one recorded.
    pub graded: Option<(Grade, Grade)>,
}

/// Everything training holds.
#[derive(Default)]
pub struct TrainingState {
    /// Whether the Train home replaces the board.
    pub open: bool,
    /// Whether the training file was read.
    pub loaded: bool,
    /// The training state as on disk.
    pub data: TrainingData,
    /// Every item there is to train, built when the home opens.
    pub catalogue: Vec<Item>,
    /// The items of the round still to do (indices into the catalogue).
    pub queue: Vec<usize>,
    /// Items of the round done so far, and how many it had.
    pub round_progress: (usize, usize),
    /// The item being drilled.
    pub session: Option<DrillSession>,
    /// The item whose history the home shows (by key).
    pub selected: Option<String>,
    /// What went wrong with the training file, put into words when drawn.
    pub problem: Option<Problem>,
}

impl TrainingState {
    /// The catalogue's item of `key`.
    pub fn item(&self, key: &str) -> Option<&Item> {
        self.catalogue.iter().find(|i| i.id == key)
    }
}

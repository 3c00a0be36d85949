//! The class: students following the teacher's board in their browsers.

use crate::state::class::quiz::{Ask, RoundSource};
use chuhe_core::Move;
use chuhe_core::quiz::Answer;
use std::path::PathBuf;

/// What the user asks of the class, and what its server reports.
#[derive(Clone, Debug, PartialEq)]
pub enum ClassAction {
    /// Open a class (and show its window).
    Start,
    /// End the class and every student's connection.
    Stop,
    /// Show or hide the class window.
    ToggleWindow,
    /// The port the next class opens on.
    SetPort(u16),
    /// The join code the next class uses (four digits).
    SetCode(String),
    /// How many students follow the board now.
    Students(usize),
    /// The address the next class binds to (unspecified: all local interfaces).
    SetBind(std::net::IpAddr),
    /// Ask the class about the board's position.
    Ask(Ask),
    /// The solver or engine worked out the answer to question `index` of the record: the
    /// right moves, and for a mate in how many.
    Judged {
        /// The question, by its place in the record.
        index: usize,
        /// The moves to a mate, for a mate question (`None`: none found).
        mate: Option<u32>,
        /// The right moves.
        correct: Vec<Move>,
    },
    /// A student's answer to question `id` arrived.
    Answered(u64, Answer),
    /// The teacher marks a move right, or no longer right.
    ToggleCorrect(Move),
    /// Show the answer and the chart to the class.
    Reveal,
    /// The round's next question, or (outside a round) take the question away.
    Next,
    /// Take the question away (the scores stay).
    EndQuestion,
    /// Send puzzles to the class as a round and ask the first.
    SendRound(RoundSource),
    /// Choose where to save the class's record.
    SaveRecordDialog,
    /// Save the class's record as CSV.
    SaveRecord(PathBuf),
}

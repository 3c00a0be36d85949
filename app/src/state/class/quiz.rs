//! The class's quiz: the questions asked and answered (the record), the question open, and
//! the round of puzzles the teacher steps through.

use chuhe_core::quiz::{ClassRecord, Kind, Question};
use chuhe_core::{Move, Position};

/// The quiz as the teacher's window shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QuizState {
    /// Every question of the class, with its answers: the scores are added up over them.
    pub record: ClassRecord,
    /// The question the class sees.
    pub open: Option<OpenQuestion>,
    /// The round being stepped through.
    pub round: Option<Round>,
}

impl QuizState {
    /// The question the class sees, from the record.
    pub fn question(&self) -> Option<&Question> {
        self.record.questions.get(self.open.as_ref()?.index)
    }
}

/// The question the class sees.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenQuestion {
    /// Where it is in the record.
    pub index: usize,
    /// Whether the solver or the engine is still working out the answer.
    pub judging: bool,
    /// Whether the answer and the chart are shown (answers are closed then).
    pub revealed: bool,
    /// Whether the teacher set the answer (then the solver's, coming late, is not taken).
    pub set_by_teacher: bool,
}

impl OpenQuestion {
    /// The number the class knows the question by.
    pub fn id(&self) -> u64 {
        self.index as u64 + 1
    }
}

/// What the teacher asks of the board's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// 找最佳着法.
    BestMove,
    /// 几步杀: the solver says in how many.
    Mate,
}

/// Where a round's questions come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundSource {
    /// A puzzle set, by index (the 36 patterns are one of the built-in sets).
    PuzzleSet(usize),
    /// The training items due (all of them when none is due).
    Training,
}

/// A sequence of questions the teacher steps through.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// The round's name (the set's).
    pub name: String,
    /// Its questions.
    pub items: Vec<RoundItem>,
    /// The item asked last.
    pub at: usize,
}

/// One question of a round.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundItem {
    /// Its title.
    pub title: String,
    /// The position.
    pub position: Position,
    /// What is asked.
    pub kind: Kind,
    /// The answer the source knows (a puzzle's solution), if any: then no solver is run.
    pub correct: Vec<Move>,
}

//! One attempt at an item: the user's moves judged against the item's task, the other
//! side's moves played for them, and what happened (mistakes, hints, moves that were right
//! but not the best) kept for the grade.
//!
//! An endgame item is judged by the endgame tables: the drill asks the caller for a
//! position's table analysis through a function, so the app can answer from the tables in
//! memory (and fetch a missing one) and a test from a table it built.

use super::schedule::Grade;
use super::{Item, Task};
use crate::puzzle::{SolutionNode, TreeAnswer, tree_after, tree_answer};
use crate::tb::Analysis;
use crate::{Color, Move, Position};

/// A drill's source of endgame-table analyses (`None`: the table is not at hand).
pub type TableLookup<'a> = &'a dyn Fn(&Position) -> Option<Analysis>;

/// A lookup that never has a table (for items that need none).
pub fn no_tables(_: &Position) -> Option<Analysis> {
    None
}

/// An endgame item fails when the win takes this many plies more than the shortest.
const TABLE_SLACK_PLIES: usize = 20;

/// Seconds per move of the user's at or under which a right first try is easy.
pub const EASY_SECONDS_PER_MOVE: u32 = 5;
/// Seconds per move of the user's over which a right first try is only hard.
pub const SLOW_SECONDS_PER_MOVE: u32 = 30;

/// What the drill made of a move of the user's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Right; the other side answered with this move (if any).
    Right(Option<Move>),
    /// Right, and the item is done.
    Done,
    /// Wrong: the move was not played (a mistake).
    Wrong,
    /// Another line of the repertoire plays this move here, not this line: not played, not
    /// a mistake.
    OtherLine,
    /// Not a legal move: ignored.
    Illegal,
    /// The endgame table for this position is not at hand: fetch it and try again.
    NeedTable(Position),
    /// The win took too long: the item is over, failed.
    TooLong,
}

/// What happened in an attempt, for its grade.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Attempt {
    /// Wrong moves tried.
    pub mistakes: u32,
    /// Hints taken.
    pub hints: u32,
    /// Moves that were right but not the best (an endgame won the long way).
    pub inexact: u32,
    /// The user's right moves.
    pub moves: u32,
    /// Whether the item was given up or ran out of moves.
    pub failed: bool,
    /// Seconds the attempt took.
    pub seconds: u32,
}

impl Attempt {
    /// The grade the attempt earns: wrong (or given up) is [`Grade::Again`]; a hint, an
    /// inexact move or more than [`SLOW_SECONDS_PER_MOVE`] a move is [`Grade::Hard`];
    /// at most [`EASY_SECONDS_PER_MOVE`] a move is [`Grade::Easy`]; otherwise
    /// [`Grade::Good`].
    pub fn grade(&self) -> Grade {
        let moves = self.moves.max(1);
        if self.failed || self.mistakes > 0 {
            Grade::Again
        } else if self.hints > 0 || self.inexact > 0 || self.seconds > SLOW_SECONDS_PER_MOVE * moves
        {
            Grade::Hard
        } else if self.seconds <= EASY_SECONDS_PER_MOVE * moves {
            Grade::Easy
        } else {
            Grade::Good
        }
    }
}

/// One attempt at an item.
#[derive(Clone, Debug)]
pub struct Drill {
    /// The item.
    pub item: Item,
    /// The moves played so far from the item's start (both sides').
    pub moves: Vec<Move>,
    /// The position on the board.
    pub position: Position,
    /// What happened so far.
    pub attempt: Attempt,
    /// Whether the item is over (done or failed).
    pub finished: bool,
    /// The plies the endgame's win should take from the start, once known.
    table_plies: Option<usize>,
}

impl Drill {
    /// Starts `item`: when the other side moves first (a repertoire for Black), its move
    /// is played at once.
    pub fn new(item: Item) -> Drill {
        let mut drill = Drill {
            position: item.start.clone(),
            item,
            moves: Vec::new(),
            attempt: Attempt::default(),
            finished: false,
            table_plies: None,
        };
        if let Task::Line { moves, user, .. } = &drill.item.task
            && drill.position.side_to_move() != *user
            && let Some(&first) = moves.first()
        {
            drill.play(first);
        }
        drill
    }

    /// The side the user plays.
    pub fn user(&self) -> Color {
        self.item.user()
    }

    fn play(&mut self, mv: Move) {
        self.position.play_unchecked(mv);
        self.moves.push(mv);
    }

    /// A right move for the user now (the hint's move), without counting a hint.
    pub fn expected(&self, table: TableLookup) -> Option<Move> {
        if self.finished {
            return None;
        }
        match &self.item.task {
            Task::Tree(tree) => tree_after(tree, &self.moves)?.first().map(|n| n.mv),
            Task::Line { moves, .. } => moves.get(self.moves.len()).copied(),
            Task::Table => table(&self.position)?.best_moves().next().map(|m| m.mv),
        }
    }

    /// Shows the user a right move: counted as a hint.
    pub fn hint(&mut self, table: TableLookup) -> Option<Move> {
        let mv = self.expected(table)?;
        self.attempt.hints += 1;
        Some(mv)
    }

    /// Gives the item up: it is over and failed.
    pub fn give_up(&mut self) {
        if !self.finished {
            self.finished = true;
            self.attempt.failed = true;
        }
    }

    /// Judges the user's move `mv`: plays it and the other side's answer when right.
    pub fn try_move(&mut self, mv: Move, table: TableLookup) -> Answer {
        if self.finished || self.position.side_to_move() != self.user() {
            return Answer::Illegal;
        }
        if self.position.play(mv).is_err() {
            return Answer::Illegal;
        }
        let answer = match self.item.task.clone() {
            Task::Tree(tree) => self.try_tree(&tree, mv),
            Task::Line {
                moves, elsewhere, ..
            } => self.try_line(mv, &moves, &elsewhere),
            Task::Table => self.try_table(mv, table),
        };
        match answer {
            Answer::Wrong => self.attempt.mistakes += 1,
            Answer::Right(_) => self.attempt.moves += 1,
            Answer::Done => {
                self.attempt.moves += 1;
                self.finished = true;
            }
            Answer::TooLong => {
                self.attempt.failed = true;
                self.finished = true;
            }
            Answer::OtherLine | Answer::Illegal | Answer::NeedTable(_) => {}
        }
        answer
    }

    fn try_tree(&mut self, tree: &[SolutionNode], mv: Move) -> Answer {
        match tree_answer(tree, &self.moves, mv) {
            TreeAnswer::Wrong => Answer::Wrong,
            TreeAnswer::Reply(reply) => {
                self.play(mv);
                self.play(reply);
                Answer::Right(Some(reply))
            }
            TreeAnswer::Solved(last) => {
                self.play(mv);
                if let Some(reply) = last {
                    self.play(reply);
                }
                Answer::Done
            }
        }
    }

    fn try_line(&mut self, mv: Move, line: &[Move], elsewhere: &[Vec<Move>]) -> Answer {
        let ply = self.moves.len();
        if line.get(ply) != Some(&mv) {
            let other = elsewhere.get(ply).is_some_and(|o| o.contains(&mv));
            return if other {
                Answer::OtherLine
            } else {
                Answer::Wrong
            };
        }
        self.play(mv);
        match line.get(ply + 1) {
            Some(&reply) if ply + 2 < line.len() => {
                self.play(reply);
                Answer::Right(Some(reply))
            }
            Some(&reply) => {
                self.play(reply);
                Answer::Done
            }
            None => Answer::Done,
        }
    }

    fn try_table(&mut self, mv: Move, table: TableLookup) -> Answer {
        let Some(here) = table(&self.position) else {
            return Answer::NeedTable(self.position.clone());
        };
        let plies = *self
            .table_plies
            .get_or_insert_with(|| usize::from(here.value.dtm().unwrap_or(0)));
        let Some(value) = here.moves.iter().find(|m| m.mv == mv).map(|m| m.value) else {
            return Answer::Illegal;
        };
        if !value.is_win() {
            return Answer::Wrong;
        }
        let mut after = self.position.clone();
        after.play_unchecked(mv);
        if !after.has_legal_move() {
            self.play(mv);
            return Answer::Done;
        }
        let Some(there) = table(&after) else {
            return Answer::NeedTable(after);
        };
        let best = here.best_moves().next().map(|m| m.value.rank());
        if Some(value.rank()) != best {
            self.attempt.inexact += 1;
        }
        self.play(mv);
        // The defence that holds out longest: the table's best move for the loser.
        let Some(reply) = there.moves.first().map(|m| m.mv) else {
            return Answer::Done;
        };
        self.play(reply);
        if self.moves.len() > plies + TABLE_SLACK_PLIES {
            return Answer::TooLong;
        }
        Answer::Right(Some(reply))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color;
    use crate::training::{Kind, Repertoire};

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn grades_follow_what_happened() {
        let fast = Attempt {
            moves: 3,
            seconds: 9,
            ..Attempt::default()
        };
        assert_eq!(fast.grade(), Grade::Easy);
        let steady = Attempt {
            seconds: 40,
            ..fast
        };
        assert_eq!(steady.grade(), Grade::Good);
        let slow = Attempt {
            seconds: 200,
            ..fast
        };
        assert_eq!(slow.grade(), Grade::Hard);
        let hinted = Attempt { hints: 1, ..fast };
        assert_eq!(hinted.grade(), Grade::Hard);
        let wrong = Attempt {
            mistakes: 1,
            ..fast
        };
        assert_eq!(wrong.grade(), Grade::Again);
        let given_up = Attempt {
            failed: true,
            ..fast
        };
        assert_eq!(given_up.grade(), Grade::Again);
    }

    #[test]
    fn a_black_repertoire_line_starts_with_reds_move_played() {
        let start = Position::startpos();
        let rep = Repertoire::from_lines(
            "b",
            "屏风马",
            Color::Black,
            &start,
            vec![vec![mv("h2e2"), mv("h9g7"), mv("h0g2"), mv("i9h9")]],
        );
        let item = rep.items().remove(0);
        assert_eq!(item.kind, Kind::Opening);
        let mut drill = Drill::new(item);
        assert_eq!(drill.moves, vec![mv("h2e2")]);
        assert_eq!(drill.try_move(mv("b9c7"), &no_tables), Answer::Wrong);
        assert_eq!(
            drill.try_move(mv("h9g7"), &no_tables),
            Answer::Right(Some(mv("h0g2")))
        );
        assert_eq!(drill.try_move(mv("i9h9"), &no_tables), Answer::Done);
        assert!(drill.finished);
        assert_eq!(drill.attempt.mistakes, 1);
        assert_eq!(drill.attempt.grade(), Grade::Again);
    }
}

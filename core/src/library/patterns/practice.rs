//! Practice of one example: the user plays the attacker, the mate prover answers each move
//! with the defender's strongest reply ([`crate::solver::defend`]), and the answer decides
//! what happens to the move: a mate solves the example, a reply that still loses is played,
//! a reply that escapes takes the move back as a failed try, and no answer takes it back
//! unjudged.

use super::{Example, replay};
use crate::solver::Defence;
use crate::{Move, Position};

/// One example being practised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Practice {
    /// The position on the practice board.
    pub position: Position,
    /// The attacker's moves still allowed to mate.
    pub left: u32,
    /// The last move played.
    pub last: Option<Move>,
    /// A winning move, for the hint.
    pub hint: Option<Move>,
    /// The position before the user's move waiting for the prover, and that move.
    pub pending: Option<(Position, Move)>,
    /// How it went: `Some(true)` solved, `Some(false)` the last try failed.
    pub result: Option<bool>,
}

impl Practice {
    /// Practice of `ex` from its start, the example's first move as the hint; the
    /// example's own error when its line does not replay.
    pub fn new(ex: &Example) -> Result<Practice, String> {
        let (start, line) = replay(ex)?;
        Ok(Practice {
            position: start,
            left: ex.mate_in,
            last: None,
            hint: line.first().copied(),
            pending: None,
            result: None,
        })
    }

    /// Whether the user may move: not while a move waits for the prover, nor once solved.
    pub fn can_move(&self) -> bool {
        self.pending.is_none() && self.result != Some(true)
    }

    /// Plays the user's move `m` if it is legal and the user may move; returns the
    /// position after it and the attacker's moves left (that one included), for the
    /// prover to answer ([`Practice::defended`]).
    pub fn play(&mut self, m: Move) -> Option<(Position, u32)> {
        if !self.can_move() {
            return None;
        }
        let next = self.position.play(m).ok()?;
        self.pending = Some((self.position.clone(), m));
        self.position = next.clone();
        self.last = Some(m);
        self.result = None;
        Some((next, self.left))
    }

    /// Takes in the prover's answer to the move waiting for it; true when it solved the
    /// example. Without a move waiting, nothing happens.
    pub fn defended(&mut self, defence: Defence) -> bool {
        let Some((before, _)) = self.pending.take() else {
            return false;
        };
        match defence {
            Defence::Finished => {
                self.result = Some(true);
                true
            }
            Defence::Reply { reply, left, hint } => {
                if let Ok(next) = self.position.play(reply) {
                    self.position = next;
                    self.last = Some(reply);
                    self.left = left;
                    self.hint = hint;
                }
                false
            }
            Defence::Escapes { .. } => {
                // The user tries again from where they were.
                self.position = before;
                self.last = None;
                self.result = Some(false);
                false
            }
            Defence::Unknown => {
                // The prover stopped without an answer: the move is taken back unjudged.
                self.position = before;
                self.last = None;
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::patterns::library;
    use crate::solver::defend;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    fn prove(after: &Position, left: u32) -> Defence {
        defend(after, left, Arc::new(AtomicBool::new(false)))
    }

    /// The first example mating in two or more, and its line.
    fn example() -> (&'static Example, Vec<Move>) {
        let ex = library()
            .unwrap()
            .iter()
            .flat_map(|p| &p.examples)
            .find(|ex| ex.mate_in >= 2)
            .expect("an example mating in two");
        (ex, replay(ex).unwrap().1)
    }

    #[test]
    fn the_book_line_against_the_prover_solves_the_example() {
        let (ex, line) = example();
        let mut practice = Practice::new(ex).unwrap();
        assert_eq!(practice.hint, Some(line[0]));
        for _ in 0..ex.mate_in {
            let hint = practice.hint.expect("a winning move");
            let (after, left) = practice.play(hint).unwrap();
            assert_eq!(practice.play(hint), None, "one move at a time");
            let solved = practice.defended(prove(&after, left));
            assert_eq!(practice.pending, None);
            if solved {
                assert_eq!(practice.result, Some(true));
                assert!(!practice.position.has_legal_move());
                assert!(!practice.can_move());
                return;
            }
            // The defender answered; the user is to move again with one move fewer.
            assert_eq!(practice.left, left - 1);
            assert_eq!(practice.position.side_to_move(), !after.side_to_move());
        }
        panic!("not solved in {} moves", ex.mate_in);
    }

    #[test]
    fn a_move_the_defence_refutes_is_taken_back_as_a_failed_try() {
        let (ex, line) = example();
        let mut practice = Practice::new(ex).unwrap();
        let start = practice.position.clone();
        // Some legal move other than the book's that the prover refutes.
        let wrong = start
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| m != line[0])
            .find_map(|m| {
                let after = start.play(m).unwrap();
                match prove(&after, ex.mate_in) {
                    Defence::Escapes { defence, why } => Some((m, defence, why)),
                    _ => None,
                }
            });
        let (m, defence, why) = wrong.expect("a move that lets the defender out");
        let (after, left) = practice.play(m).unwrap();
        assert_eq!(left, ex.mate_in);
        assert_eq!(practice.last, Some(m));
        let answer = prove(&after, left);
        assert_eq!(answer, Defence::Escapes { defence, why });
        assert!(!practice.defended(answer));
        assert_eq!(practice.position, start);
        assert_eq!(practice.last, None);
        assert_eq!(practice.result, Some(false));
        assert_eq!(practice.left, ex.mate_in, "a failed try costs no move");
        // And the user tries again: the book move is taken.
        assert!(practice.play(line[0]).is_some());
        assert_eq!(practice.result, None);
    }

    #[test]
    fn without_an_answer_the_move_is_taken_back_unjudged() {
        let (ex, line) = example();
        let mut practice = Practice::new(ex).unwrap();
        let start = practice.position.clone();
        practice.play(line[0]).unwrap();
        assert!(!practice.defended(Defence::Unknown));
        assert_eq!(practice.position, start);
        assert_eq!((practice.last, practice.result), (None, None));
        // An answer with no move waiting changes nothing.
        let before = practice.clone();
        assert!(!practice.defended(Defence::Finished));
        assert_eq!(practice, before);
        // An illegal move is not played.
        let illegal = Move::new(line[0].to, line[0].from);
        assert_eq!(practice.play(illegal), None);
        assert_eq!(practice, before);
    }
}

//! Practice against a table's perfect play: the user plays one side of a position in a
//! table, the table answers each move with its best, and each move of the user's is
//! judged by how the user stands after it — a move that turns a win into a draw or a
//! loss, or a draw into a loss, is a mistake (失着). A game the rules end is won, lost
//! or drawn.

use super::{Analysis, TbValue};
use crate::{Color, Move, Outcome, Position};

/// How a position stands for one side: lost, drawn or won, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// Lost.
    Loss,
    /// Drawn.
    Draw,
    /// Won.
    Win,
}

impl Class {
    /// The class of `value`, for the side it belongs to (a win by the rule is a win).
    pub fn of(value: TbValue) -> Class {
        if value.is_win() {
            Class::Win
        } else if value.is_loss() {
            Class::Loss
        } else {
            Class::Draw
        }
    }

    /// The class of the same position for the other side.
    pub fn reversed(self) -> Class {
        match self {
            Class::Win => Class::Loss,
            Class::Loss => Class::Win,
            Class::Draw => Class::Draw,
        }
    }
}

/// What the practice says after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PracticeMessage {
    /// The user's move turned a position of the first class into one of the second.
    Mistake(Class, Class),
    /// The game is over: the user won.
    Won,
    /// The game is over: the user lost.
    Lost,
    /// The game is over: drawn.
    Drawn,
}

/// A practice game against the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Practice {
    /// The side the user plays.
    pub user: Color,
    /// How the user stood at the start, and after their last move.
    pub standing: Class,
    /// The position last judged (its FEN), so each position is judged once.
    pub judged: String,
    /// What the last move did, or how the game ended.
    pub message: Option<PracticeMessage>,
}

impl Practice {
    /// Practice from `pos`, whose analysis is `here`: the user plays the side to move, or
    /// with `table_first` the other side, and the table moves first.
    pub fn new(pos: &Position, here: &Analysis, table_first: bool) -> Practice {
        let class = Class::of(here.value);
        Practice {
            user: if table_first {
                !pos.side_to_move()
            } else {
                pos.side_to_move()
            },
            standing: if table_first { class.reversed() } else { class },
            // With the table to move, the first step answers at once.
            judged: if table_first {
                String::new()
            } else {
                pos.to_string()
            },
            message: None,
        }
    }

    /// Judges `pos`, the position now on the board, once: `outcome` is how the rules
    /// ended the game there, if they did, and `analysis` its table analysis (`None`: not
    /// at hand yet, so the position is judged again when asked again). After a move of
    /// the user's, sets the message and returns the table's answer, its best move.
    pub fn step(
        &mut self,
        pos: &Position,
        outcome: Option<Outcome>,
        analysis: Option<&Analysis>,
    ) -> Option<Move> {
        let fen = pos.to_string();
        if self.judged == fen {
            return None;
        }
        self.judged = fen;
        if let Some(outcome) = outcome {
            self.message = Some(match outcome.winner {
                Some(c) if c == self.user => PracticeMessage::Won,
                Some(_) => PracticeMessage::Lost,
                None => PracticeMessage::Drawn,
            });
            return None;
        }
        let Some(analysis) = analysis else {
            self.judged.clear();
            return None;
        };
        if pos.side_to_move() == self.user {
            return None;
        }
        // The user just moved: how do they stand now?
        let now = Class::of(analysis.value).reversed();
        self.message =
            (now < self.standing).then_some(PracticeMessage::Mistake(self.standing, now));
        self.standing = now;
        analysis.best_moves().next().map(|best| best.mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::tb::Tablebases;

    /// Red's rook and general against the bare general: Red mates in 3 plies.
    const KR_K: &str = "4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1";

    fn tables() -> Tablebases {
        Tablebases::new(None)
    }

    fn analyse(tbs: &Tablebases, pos: &Position) -> Analysis {
        tbs.analyse_generating(pos, &mut |_| true).unwrap()
    }

    #[test]
    fn classes_order_worst_first_and_reverse_for_the_other_side() {
        assert_eq!(Class::of(TbValue::Win(3)), Class::Win);
        assert_eq!(Class::of(TbValue::RuleLoss), Class::Loss);
        assert_eq!(Class::of(TbValue::Draw), Class::Draw);
        assert!(Class::Loss < Class::Draw && Class::Draw < Class::Win);
        assert_eq!(Class::Win.reversed(), Class::Loss);
        assert_eq!(Class::Draw.reversed(), Class::Draw);
    }

    #[test]
    fn best_play_is_answered_and_the_mate_wins() {
        let tbs = tables();
        let mut game = Game::new(KR_K.parse().unwrap());
        let here = analyse(&tbs, game.position());
        let mut practice = Practice::new(game.position(), &here, false);
        assert_eq!((practice.user, practice.standing), (Color::Red, Class::Win));
        // The start is not judged again: the user is to move.
        let start = game.position().clone();
        assert_eq!(practice.step(&start, None, Some(&here)), None);
        for _ in 0..10 {
            let pos = game.position().clone();
            let best = analyse(&tbs, &pos).best_moves().next().unwrap().mv;
            game.play(best).unwrap();
            let after = game.position().clone();
            let answer = practice.step(&after, game.outcome(), Some(&analyse(&tbs, &after)));
            if game.outcome().is_some() {
                assert_eq!(answer, None);
                assert_eq!(practice.message, Some(PracticeMessage::Won));
                return;
            }
            assert_eq!(practice.message, None, "a best move is no mistake");
            assert_eq!(practice.standing, Class::Win);
            let answer = answer.expect("the table answers");
            // Judged once: asked again about the same position, nothing more happens.
            assert_eq!(
                practice.step(&after, None, Some(&analyse(&tbs, &after))),
                None
            );
            game.play(answer).unwrap();
        }
        panic!("no mate in ten moves");
    }

    #[test]
    fn a_move_that_throws_the_win_away_is_a_mistake() {
        let tbs = tables();
        // The rook on the general's neighbouring rank, Red to move.
        let pos: Position = "4k4/8R/9/9/9/9/9/9/9/3K5 w - - 0 1".parse().unwrap();
        let here = analyse(&tbs, &pos);
        let mut practice = Practice::new(&pos, &here, false);
        assert_eq!(practice.standing, Class::Win);
        // A rook move the bare general captures (e8): only a draw is left.
        let blunder = here
            .moves
            .iter()
            .find(|m| Class::of(m.value) == Class::Draw)
            .expect("a move that gives the rook away")
            .mv;
        let after = pos.play(blunder).unwrap();
        let there = analyse(&tbs, &after);
        let answer = practice.step(&after, None, Some(&there));
        assert_eq!(
            practice.message,
            Some(PracticeMessage::Mistake(Class::Win, Class::Draw))
        );
        assert_eq!(practice.standing, Class::Draw);
        assert_eq!(answer, there.best_moves().next().map(|m| m.mv));
        assert!(answer.is_some());
    }

    #[test]
    fn with_the_table_first_it_answers_at_once_and_waits_for_a_missing_table() {
        let tbs = tables();
        let pos: Position = "4k4/9/9/9/9/9/9/9/9/3K4R b - - 0 1".parse().unwrap();
        let here = analyse(&tbs, &pos);
        let mut practice = Practice::new(&pos, &here, true);
        // Black to move loses: the user has Red, and wins.
        assert_eq!((practice.user, practice.standing), (Color::Red, Class::Win));
        // The table is not at hand yet: nothing happens, and the position waits.
        assert_eq!(practice.step(&pos, None, None), None);
        let answer = practice.step(&pos, None, Some(&here));
        assert_eq!(answer, here.best_moves().next().map(|m| m.mv));
        assert_eq!(practice.message, None);
        // A game the rules ended for the other side is lost.
        let outcome = Outcome {
            winner: Some(Color::Black),
            reason: crate::EndReason::Checkmate,
        };
        let after = pos.play(answer.unwrap()).unwrap();
        assert_eq!(practice.step(&after, Some(outcome), None), None);
        assert_eq!(practice.message, Some(PracticeMessage::Lost));
    }
}

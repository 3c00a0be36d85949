//! A game: a start position and the legal moves played from it, and how it ends by the
//! official rules — checkmate (将死), no legal move (困毙), the natural move limit (自然限着)
//! and repetition judged by the 棋例 (see [`crate::repetition`]).
//!
//! The end is reported as an [`Outcome`] value, never as text, so the app can put it into
//! the user's language.

use crate::repetition::{ForbiddenKind, RepetitionJudgement};
use crate::{Color, IllegalMove, Move, Position};
use std::fmt;

/// The rules a [`Game`] is judged by. The defaults are the official ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// How many times a position must have occurred (the current occurrence included) for
    /// the repetition to be judged: 3 by the rules (4.2.3, 第24条). Seed 000 argues for 4,
    /// an author's opinion that a setting may offer. Values below 2 are read as 2.
    pub repetitions: u8,
    /// The natural move limit (自然限着, 4.2.4) in plies without a capture: `Some(120)`, 60
    /// moves by each side, by the rules; `None` turns it off (for studies and puzzles).
    pub move_limit_plies: Option<u32>,
    /// When the moves towards the natural limit are counted, at most this many of the
    /// claimant's checks count (23.3: 最多只计10着); its further checks do not count as moves.
    pub move_limit_counted_checks: u32,
}

impl Rules {
    /// The natural move limit of the Chinese rules: 60 moves by each side.
    pub const CHINESE_MOVE_LIMIT_PLIES: u32 = 120;

    /// How many occurrences complete a repetition: [`Rules::repetitions`], read as at
    /// least 2.
    pub fn repetition_count(&self) -> usize {
        self.repetitions.max(2) as usize
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            repetitions: 3,
            move_limit_plies: Some(Rules::CHINESE_MOVE_LIMIT_PLIES),
            move_limit_counted_checks: 10,
        }
    }
}

/// How a game ended: who won (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The side that won, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// `loser` lost for `reason`.
    pub(crate) fn loss(loser: Color, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(!loser),
            reason,
        }
    }

    /// A draw for `reason`.
    pub(crate) fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }
}

/// Why a game ended, as a value the app translates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// 将死: the side to move is in check and has no legal move. It loses.
    Checkmate,
    /// 困毙: the side to move is not in check but has no legal move. Unlike chess's
    /// stalemate, it loses.
    Stalemate,
    /// 自然限着: the natural move limit passed without a capture (60 moves each by default).
    /// A draw.
    MoveLimit,
    /// 长将判负: one side checked with every move of a repeated cycle while the other did
    /// not (26.1). The checking side loses.
    PerpetualCheck,
    /// 禁止着法: one side attacked with every move of a repeated cycle (长杀, 长捉, 一将一捉 …)
    /// while the other's moves were allowed (26.4). The attacking side loses; `kind` says
    /// what it did.
    ForbiddenRepetition {
        /// What the losing side's moves were.
        kind: ForbiddenKind,
    },
    /// 不变作和: a repeated cycle in which both sides' moves were allowed, or both forbidden,
    /// or both sides checked perpetually (26.2, 26.3). A draw.
    RepetitionDraw,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::Checkmate => f.write_str("checkmate"),
            EndReason::Stalemate => f.write_str("no legal move (stalemate loses)"),
            EndReason::MoveLimit => f.write_str("natural move limit without a capture"),
            EndReason::PerpetualCheck => f.write_str("perpetual check"),
            EndReason::ForbiddenRepetition { kind } => write!(f, "forbidden repetition: {kind}"),
            EndReason::RepetitionDraw => f.write_str("repetition with no side to blame"),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(color) => write!(f, "{color} wins: {}", self.reason),
            None => write!(f, "draw: {}", self.reason),
        }
    }
}

/// A game: the start position, the legal moves played from it and the positions they
/// lead to, judged by [`Rules`].
///
/// ```
/// use chuhe_core::{EndReason, Game, Move, Position};
/// // The rook checks along the d file; e9 faces Red's general, so Black has no escape.
/// let start: Position = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1".parse().unwrap();
/// let mut game = Game::new(start);
/// assert_eq!(game.outcome(), None);
/// game.play("a1d1".parse::<Move>().unwrap()).unwrap();
/// let outcome = game.outcome().unwrap();
/// assert_eq!(outcome.reason, EndReason::Checkmate);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    /// `positions[0]` is the start; `positions[i]` follows `moves[i - 1]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game from `start` under the official [`Rules`].
    pub fn new(start: Position) -> Game {
        Game::with_rules(start, Rules::default())
    }

    /// A game from `start` under `rules`.
    pub fn with_rules(start: Position, rules: Rules) -> Game {
        Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The rules the game is judged by.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rules; the next [`Game::outcome`] uses them.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.positions[self.positions.len() - 1]
    }

    /// Every position of the game, the start first and the current last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays `m` if it is legal in the current position. Moves are accepted after the game
    /// has ended too, so a study can go on; [`Game::outcome`] judges the position reached.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        let next = self.position().play(m)?;
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Takes back the last move, returning it (`None` at the start position).
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// How the game has ended in the current position, or `None` while it goes on.
    ///
    /// Checkmate and 困毙 come first (a mate on the last ply before the move limit wins),
    /// then repetition, then the natural move limit.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if !pos.has_legal_move() {
            let reason = if pos.is_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            return Some(Outcome::loss(pos.side_to_move(), reason));
        }
        if let Some(judgement) = self.judge_repetition() {
            return Some(judgement.outcome);
        }
        self.move_limit_reached()
            .then(|| Outcome::draw(EndReason::MoveLimit))
    }

    /// The ply where the repetition completed by the current position starts, if the
    /// current position has occurred [`Rules::repetitions`] times: the cycle to judge is
    /// `moves()[start..]`, from the earliest of those occurrences to now.
    pub fn repetition_start(&self) -> Option<usize> {
        let n = self.moves.len();
        let current = self.position();
        let needed = self.rules.repetition_count();
        // A capture changes the material for good, so only positions since the last one
        // can recur; the same side is to move only an even number of plies apart.
        let reach = (current.halfmove_clock() as usize).min(n);
        let mut count = 1;
        let mut ply = n;
        while n - ply + 2 <= reach {
            ply -= 2;
            if self.positions[ply].same_arrangement(current) {
                count += 1;
                if count == needed {
                    return Some(ply);
                }
            }
        }
        None
    }

    /// The 棋例 judgement of the repetition completed by the current position, if any (see
    /// [`Game::repetition_start`]).
    pub fn judge_repetition(&self) -> Option<RepetitionJudgement> {
        let start = self.repetition_start()?;
        Some(RepetitionJudgement::judge_history(
            &self.positions[start..],
            &self.moves[start..],
        ))
    }

    /// Whether the natural move limit has passed: a side could claim the draw (23.3), with
    /// its checks beyond [`Rules::move_limit_counted_checks`] not counted as moves. Plies
    /// before the start position are only known by its counter, so they count as quiet.
    fn move_limit_reached(&self) -> bool {
        let Some(limit) = self.rules.move_limit_plies else {
            return false;
        };
        let plies = self.position().halfmove_clock();
        if plies < limit {
            return false;
        }
        let n = self.moves.len();
        let window = (plies as usize).min(n);
        let mut checks = [0u32; 2];
        for ply in n - window + 1..=n {
            if self.positions[ply].is_check() {
                checks[self.positions[ply - 1].side_to_move().index()] += 1;
            }
        }
        checks.iter().any(|&c| {
            let uncounted = c.saturating_sub(self.rules.move_limit_counted_checks);
            plies.saturating_sub(2 * uncounted) >= limit
        })
    }
}

impl Default for Game {
    /// A game from the start position under the official rules.
    fn default() -> Game {
        Game::new(Position::startpos())
    }
}

impl Position {
    /// Whether the pieces and the side to move are the same (the counters may differ).
    pub(crate) fn same_arrangement(&self, other: &Position) -> bool {
        self.hash == other.hash && self.side == other.side && self.cells == other.cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_arrangement_ignores_the_counters() {
        let a: Position = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1".parse().unwrap();
        let b: Position = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 37 20".parse().unwrap();
        let c: Position = "4k4/9/9/9/9/9/9/9/9/R2K5 b - - 0 1".parse().unwrap();
        assert!(a.same_arrangement(&b));
        assert!(!a.same_arrangement(&c));
    }

    #[test]
    fn the_move_limit_holds_if_either_side_may_claim_it() {
        // Red's one check, with no checks allowed, keeps only Red from claiming.
        let start: Position = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 119 60".parse().unwrap();
        let rules = Rules {
            move_limit_counted_checks: 0,
            ..Rules::default()
        };
        let mut game = Game::with_rules(start, rules);
        game.play("a1a9".parse().unwrap()).unwrap();
        assert!(game.position().is_check());
        assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::MoveLimit)));
    }
}

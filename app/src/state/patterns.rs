//! The checkmate-pattern browser's state: the open pattern and example, and practice.

use super::pick::Click;
use chuhe_core::library::patterns::{self, Example, Pattern, PatternId};
use chuhe_core::{Move, Position, Square};

pub use chuhe_core::solver::Defence;

/// Practice of one example: the core's practice (position, moves left, hint, the move
/// waiting for the prover, how it went) and what the board shows of it.
#[derive(Debug)]
pub struct Practice {
    /// The example played against the prover.
    pub game: patterns::Practice,
    /// The picked-up piece.
    pub selected: Option<Square>,
    /// Whether the hint is shown.
    pub hint_shown: bool,
}

impl std::ops::Deref for Practice {
    type Target = patterns::Practice;

    fn deref(&self) -> &patterns::Practice {
        &self.game
    }
}

/// The browser's state.
#[derive(Debug, Default)]
pub struct PatternsState {
    /// Whether the browser replaces the board.
    pub open: bool,
    /// The open pattern and example (0-based).
    pub selected: Option<(PatternId, usize)>,
    /// Plies of the solution shown.
    pub step: usize,
    /// Practice under way.
    pub practice: Option<Practice>,
}

impl Practice {
    /// A click on the practice board: picks up a piece, or plays the picked-up one there.
    /// A move played is returned with the attacker's moves left, for the prover to answer.
    pub fn click(&mut self, square: Square) -> Option<(Position, u32)> {
        let p = self;
        if !p.game.can_move() {
            return None;
        }
        match super::pick::click(&p.position, p.selected, square) {
            Click::PutDown => {
                p.selected = None;
                None
            }
            Click::PickUp(square) => {
                p.selected = Some(square);
                None
            }
            Click::Move(m) => p.play(m),
            Click::Miss => None,
        }
    }

    /// Plays `m` (a click's second point, or a drag) if it is legal and no move waits for
    /// the prover; returns it as [`Practice::click`] does. Any picked-up piece is put down.
    pub fn play(&mut self, m: Move) -> Option<(Position, u32)> {
        if !self.game.can_move() {
            return None;
        }
        self.selected = None;
        let played = self.game.play(m)?;
        self.hint_shown = false;
        Some(played)
    }
}

/// The key under which a solved example is kept in the settings.
pub fn solved_key(id: PatternId, example: usize) -> String {
    format!("{id}-{}", example + 1)
}

pub fn example(id: PatternId, index: usize) -> Option<(&'static Pattern, &'static Example)> {
    let p = patterns::pattern(id)?;
    Some((p, p.examples.get(index)?))
}

//! The mate prover for pattern practice, in the background, and naming the patterns a
//! mate shows.

use crate::actions::{Action, PatternAction};
use crate::services::work::{Work, WorkKey};
use crate::state::patterns::Defence;
use chuhe_core::library::patterns::{self, PatternId};
use chuhe_core::solver::{SolveOptions, Solver};
use chuhe_core::{Move, MoveList, Position};

/// Starts the prover on the defender's answer to the attacker's move that led to `after`.
pub fn start_defence(work: &mut Work, after: Position, left: u32) {
    work.start(
        WorkKey::PatternDefence,
        "chuhe pattern defence",
        move |_| Action::Patterns(PatternAction::Defended(defend(&after, left))),
    );
}

/// The defender's answer to the attacker's move that led to `pos` (defender to move), the
/// attacker having `left` moves, that one included, to mate.
pub fn defend(pos: &Position, left: u32) -> Defence {
    let mut replies = MoveList::new();
    pos.legal_moves_into(&mut replies);
    if replies.is_empty() {
        return Defence::Finished;
    }
    let left = left.saturating_sub(1);
    let mut solver = Solver::new(PRACTICE_TABLE_BITS);
    // Fixes the solver's options (no quiet-move limit) for `mates_within`.
    solver.solve(pos, &SolveOptions::mate_in(1));
    let mut best: Option<(Move, u32, Position)> = None;
    for &r in replies.iter() {
        let Ok(after) = pos.play(r) else { continue };
        let Some(shortest) = (1..=left).find(|&d| solver.mates_within(&after, d)) else {
            return Defence::Escapes;
        };
        if best.as_ref().is_none_or(|(_, s, _)| shortest > *s) {
            best = Some((r, shortest, after));
        }
    }
    match best {
        Some((reply, left, after)) => Defence::Reply {
            reply,
            left,
            hint: solver.mating_move(&after, left),
        },
        None => Defence::Finished,
    }
}

/// Transposition table of the practice prover: 2^18 entries (4 MiB) is plenty for the
/// library's short mates.
const PRACTICE_TABLE_BITS: u32 = 18;

/// The patterns a mate shows: `moves` from `position` are played out (as far as they are
/// legal); if they end the game, the shape rules name the final position.
pub fn mate_patterns(position: &Position, moves: &[Move]) -> Vec<PatternId> {
    let mut pos = position.clone();
    let mut last = None;
    for &m in moves {
        match pos.play(m) {
            Ok(next) => pos = next,
            Err(_) => return Vec::new(),
        }
        last = Some(m);
        if !pos.has_legal_move() {
            break;
        }
    }
    patterns::recognise(&pos, last)
}

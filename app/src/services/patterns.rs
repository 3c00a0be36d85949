//! The mate prover for pattern practice, in the background: the defender's answer to
//! the user's move comes back as an action.

use crate::actions::{Action, PatternAction};
use crate::services::work::{Work, WorkKey};
use chuhe_core::Position;
use chuhe_core::solver;

/// Starts the prover on the defender's answer to the attacker's move that led to `after`.
pub fn start_defence(work: &mut Work, after: Position, left: u32) {
    work.start(
        WorkKey::PatternDefence,
        "chuhe pattern defence",
        move |stop| Action::Patterns(PatternAction::Defended(solver::defend(&after, left, stop))),
    );
}

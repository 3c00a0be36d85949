//! Whole-game review as a service: the core's review runs on its own thread; this keeps
//! what it found so far and reports its progress, then its findings, as actions.

use crate::actions::{Action, EngineAction};
use chuhe_core::review::{PositionReview, Review as CoreReview};
use chuhe_core::search::Options;
use chuhe_core::{Move, Position};
use std::time::Duration;

/// A review running in the background.
pub struct Review {
    review: CoreReview,
    /// What it found so far.
    found: Vec<PositionReview>,
}

impl Review {
    /// Starts reviewing the positions after each of `moves` from `start` (and `start`
    /// itself), thinking `per_position` on each.
    pub fn start(
        start: Position,
        moves: Vec<Move>,
        options: Options,
        per_position: Duration,
    ) -> Review {
        Review {
            review: CoreReview::start(start, moves, options, per_position),
            found: Vec::new(),
        }
    }

    /// How many positions it covers.
    pub fn total(&self) -> usize {
        self.review.total
    }

    /// Its progress as an action, and its findings once it covered every position.
    pub fn poll_action(&mut self) -> Vec<Action> {
        let new = self.review.poll();
        if new.is_empty() {
            return Vec::new();
        }
        self.found.extend(new);
        let total = self.review.total;
        let mut actions = vec![Action::Engine(EngineAction::ReviewProgress(
            self.found.len(),
            total,
        ))];
        if self.found.len() >= total {
            actions.push(Action::Engine(EngineAction::Reviewed(std::mem::take(
                &mut self.found,
            ))));
        }
        actions
    }

    /// Stops the review and waits for its thread (within one engine check, milliseconds).
    pub fn cancel(&mut self) {
        self.review.cancel();
    }
}

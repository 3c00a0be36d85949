//! When an item comes back: FSRS (the Free Spaced Repetition Scheduler) through the
//! `rs-fsrs` crate, with its default parameters and no fuzz, so one history always gives
//! one schedule. [`Memory`] is the crate's card as Chuhe stores it (times in whole seconds
//! since 1970, UTC), so the file does not depend on the crate's own serialisation.

use chrono::{DateTime, Utc};
use rs_fsrs::{Card, FSRS, Parameters, Rating, State};
use serde::{Deserialize, Serialize};

/// How an attempt went, as FSRS rates a review.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Grade {
    /// Wrong: forgotten (重来).
    Again,
    /// Right with a hint, or slowly (困难).
    Hard,
    /// Right at the first try (良好).
    Good,
    /// Right at the first try, quickly (简单).
    Easy,
}

impl Grade {
    /// The four grades, worst first.
    pub const ALL: [Grade; 4] = [Grade::Again, Grade::Hard, Grade::Good, Grade::Easy];

    /// The crate's rating.
    pub fn rating(self) -> Rating {
        match self {
            Grade::Again => Rating::Again,
            Grade::Hard => Rating::Hard,
            Grade::Good => Rating::Good,
            Grade::Easy => Rating::Easy,
        }
    }

    /// Whether the item was remembered (any grade but [`Grade::Again`]).
    pub fn passed(self) -> bool {
        self != Grade::Again
    }
}

/// Where a card is in FSRS's learning cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Never reviewed.
    New,
    /// In its first short steps.
    Learning,
    /// Remembered, on long intervals.
    Review,
    /// Forgotten after it was remembered, back in short steps.
    Relearning,
}

/// An item's memory state as FSRS keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    /// When it is due next (seconds since 1970, UTC).
    pub due: i64,
    /// FSRS stability: days until recall falls to 90 %.
    pub stability: f64,
    /// FSRS difficulty, 1 to 10.
    pub difficulty: f64,
    /// Days between the last two reviews.
    pub elapsed_days: i64,
    /// Days from the last review to the due date.
    pub scheduled_days: i64,
    /// Reviews so far.
    pub reps: i32,
    /// Times forgotten after it was remembered.
    pub lapses: i32,
    /// Where it is in the cycle.
    pub phase: Phase,
    /// The last review (seconds since 1970, UTC).
    pub last_review: i64,
}

fn time(seconds: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(seconds, 0).unwrap_or_default()
}

impl Memory {
    /// The crate's card of this state.
    pub fn card(&self) -> Card {
        Card {
            due: time(self.due),
            stability: self.stability,
            difficulty: self.difficulty,
            elapsed_days: self.elapsed_days,
            scheduled_days: self.scheduled_days,
            reps: self.reps,
            lapses: self.lapses,
            state: match self.phase {
                Phase::New => State::New,
                Phase::Learning => State::Learning,
                Phase::Review => State::Review,
                Phase::Relearning => State::Relearning,
            },
            last_review: time(self.last_review),
        }
    }

    /// The state of a crate's card.
    pub fn of(card: &Card) -> Memory {
        Memory {
            due: card.due.timestamp(),
            stability: card.stability,
            difficulty: card.difficulty,
            elapsed_days: card.elapsed_days,
            scheduled_days: card.scheduled_days,
            reps: card.reps,
            lapses: card.lapses,
            phase: match card.state {
                State::New => Phase::New,
                State::Learning => Phase::Learning,
                State::Review => Phase::Review,
                State::Relearning => Phase::Relearning,
            },
            last_review: card.last_review.timestamp(),
        }
    }

    /// The chance of recalling it at `now`, as FSRS estimates it (0 for a new item).
    pub fn retrievability(&self, now: i64) -> f64 {
        self.card().get_retrievability(time(now))
    }
}

/// A card never reviewed, as of `now`.
pub fn new_card(now: i64) -> Card {
    Card {
        due: time(now),
        last_review: time(now),
        ..Card::default()
    }
}

/// The scheduler: the crate's default parameters (90 % retention, short-term steps, no fuzz).
pub fn scheduler() -> FSRS {
    FSRS::new(Parameters::default())
}

/// The memory state after a review graded `grade` at `now` (seconds since 1970), from the
/// state before it (`None`: the first review).
pub fn review(before: Option<&Memory>, grade: Grade, now: i64) -> Memory {
    let card = before.map(Memory::card).unwrap_or_else(|| new_card(now));
    Memory::of(&scheduler().next(card, time(now), grade.rating()).card)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memory_round_trips_through_the_crates_card() {
        let m = review(None, Grade::Good, 1_700_000_000);
        let m = review(Some(&m), Grade::Hard, 1_700_086_400);
        assert_eq!(Memory::of(&m.card()), m);
        assert!(m.due > 1_700_086_400);
        assert_eq!(m.reps, 2);
    }

    #[test]
    fn a_wrong_answer_comes_back_sooner_than_a_right_one() {
        let now = 1_700_000_000;
        let first = review(None, Grade::Good, now);
        let later = first.due + 3 * 86_400;
        let mut remembered = review(Some(&first), Grade::Good, later);
        for _ in 0..3 {
            remembered = review(Some(&remembered), Grade::Good, remembered.due);
        }
        let forgotten = review(Some(&remembered), Grade::Again, remembered.due);
        let kept = review(Some(&remembered), Grade::Good, remembered.due);
        assert!(forgotten.due < kept.due);
        assert_eq!(forgotten.lapses, remembered.lapses + 1);
    }
}

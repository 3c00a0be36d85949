//! Time management: how long to think about a move, from the clock (time left, increment,
//! moves to the next control) or a fixed time per move.
//!
//! There are two budgets. The *optimum* is what a move should normally take; iterative
//! deepening does not start an iteration it could not hope to finish within it, and
//! stretches or shrinks it by how stable the best move has been. The *maximum* is never
//! exceeded: the search checks it every few thousand nodes.

use super::limits::Limits;
use crate::Color;
use std::time::{Duration, Instant};

/// The time budget of one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TimeManager {
    start: Instant,
    /// `None`: no time limit.
    optimum: Option<Duration>,
    maximum: Option<Duration>,
}

impl TimeManager {
    /// Plans the search of `side` under `limits`; `overhead` (for the GUI and the pipe, per
    /// move) is kept back from a clock, not from a fixed time a move.
    pub fn new(limits: &Limits, side: Color, overhead: Duration, start: Instant) -> TimeManager {
        let (optimum, maximum) = if let Some(t) = limits.movetime {
            // As Stockfish and Pikafish read it: all of a fixed time is thinking time.
            let t = t.max(Duration::from_millis(1));
            (Some(t), Some(t))
        } else if let Some(left) = limits.time[side.index()] {
            let inc = limits.increment[side.index()];
            let moves_to_go = limits.moves_to_go.unwrap_or(30).clamp(1, 50);
            // Never plan on the overhead of every move still to play before the control.
            let usable = left
                .saturating_sub(overhead * moves_to_go.min(10))
                .max(Duration::from_millis(1));
            let (optimum, maximum) = if moves_to_go == 1 {
                (usable * 7 / 10, usable * 9 / 10)
            } else {
                let optimum = (usable / moves_to_go + inc * 3 / 4).min(usable / 2);
                (optimum, (optimum * 5).min(usable * 4 / 5))
            };
            (Some(optimum), Some(maximum.max(optimum)))
        } else {
            (None, None)
        };
        TimeManager {
            start,
            optimum,
            maximum,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard limit has passed.
    pub fn past_maximum(&self) -> bool {
        self.maximum.is_some_and(|m| self.elapsed() >= m)
    }

    /// Whether to start no further iteration. `stability` scales the optimum: below 1
    /// when the best move has stayed the same for several iterations, above 1 when it has
    /// just changed.
    pub fn past_optimum(&self, stability: f64) -> bool {
        self.optimum
            .is_some_and(|o| self.elapsed().as_secs_f64() >= o.as_secs_f64() * stability)
    }

    /// Whether there is a time limit at all.
    pub fn is_timed(&self) -> bool {
        self.maximum.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn budgets() {
        let now = Instant::now();
        let fixed = TimeManager::new(&Limits::movetime(ms(500)), Color::Red, ms(20), now);
        assert_eq!(
            (fixed.optimum, fixed.maximum),
            (Some(ms(500)), Some(ms(500)))
        );

        let mut clock = Limits {
            time: [Some(ms(60_000)), Some(ms(1_000))],
            increment: [ms(1_000), ms(0)],
            ..Limits::default()
        };
        let red = TimeManager::new(&clock, Color::Red, ms(10), now);
        let (o, m) = (red.optimum.unwrap(), red.maximum.unwrap());
        // About a thirtieth of the clock plus most of the increment; the maximum stays
        // well inside the clock.
        assert!(o > ms(2_000) && o < ms(3_500), "{o:?}");
        assert!(m >= o && m <= ms(48_000), "{m:?}");
        let black = TimeManager::new(&clock, Color::Black, ms(10), now);
        assert!(black.maximum.unwrap() < ms(1_000));

        clock.moves_to_go = Some(1);
        let last = TimeManager::new(&clock, Color::Red, ms(10), now);
        assert!(last.maximum.unwrap() < ms(60_000));
        assert!(last.optimum.unwrap() > ms(30_000));

        let none = TimeManager::new(&Limits::depth(5), Color::Red, ms(10), now);
        assert!(!none.is_timed() && !none.past_maximum() && !none.past_optimum(1.0));
    }
}

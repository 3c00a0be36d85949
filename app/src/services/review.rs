//! Whole-game review: the engine goes over every position of the main line on a
//! background thread, and the UI polls the results; then each move is judged by how much
//! it lost against the engine's choice.

use crate::actions::{Action, EngineAction};
pub use crate::state::analysis::PositionReview;
use chuhe_core::search::{Engine, Limits, Options, Score, SearchRoot};
use chuhe_core::{Move, Position};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;
use std::time::Duration;

/// A review running in the background.
pub struct Review {
    cancel: Arc<AtomicBool>,
    rx: Receiver<PositionReview>,
    handle: Option<JoinHandle<()>>,
    /// How many positions it covers.
    pub total: usize,
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
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        let total = moves.len() + 1;
        let stop = cancel.clone();
        let handle = std::thread::Builder::new()
            .name("chuhe-review".into())
            .spawn(move || {
                let mut engine = Engine::new(options);
                for index in 0..total {
                    let Ok(root) = SearchRoot::from_moves(start.clone(), &moves[..index]) else {
                        return;
                    };
                    let side = root.position().side_to_move();
                    engine.start(&root, Limits::movetime(per_position), |_| {});
                    while engine.is_searching() {
                        if stop.load(Ordering::Relaxed) {
                            engine.stop();
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    let Some(result) = engine.wait() else {
                        return;
                    };
                    let best = result.report.lines.first();
                    // With no legal move the side to move has lost (将死 or 困毙): the
                    // value of a mate against it, which `Mate(0)` cannot sign.
                    let score_red = match (best, side) {
                        (Some(line), _) => line.score_for_red(side),
                        (None, chuhe_core::Color::Red) => Score::Mate(-1),
                        (None, chuhe_core::Color::Black) => Score::Mate(1),
                    };
                    let review = PositionReview {
                        index,
                        score_red,
                        depth: result.report.depth,
                        line: best.map(|l| l.moves.clone()).unwrap_or_default(),
                    };
                    if tx.send(review).is_err() {
                        return;
                    }
                }
            })
            .expect("the review thread starts");
        Review {
            cancel,
            rx,
            handle: Some(handle),
            total,
            found: Vec::new(),
        }
    }

    /// The positions reviewed since the last call. Never blocks.
    pub fn poll(&self) -> Vec<PositionReview> {
        self.rx.try_iter().collect()
    }

    /// Its progress as an action, and its findings once it covered every position.
    pub fn poll_action(&mut self) -> Vec<Action> {
        let new = self.poll();
        if new.is_empty() {
            return Vec::new();
        }
        self.found.extend(new);
        let mut actions = vec![Action::Engine(EngineAction::ReviewProgress(
            self.found.len(),
            self.total,
        ))];
        if self.found.len() >= self.total {
            actions.push(Action::Engine(EngineAction::Reviewed(std::mem::take(
                &mut self.found,
            ))));
        }
        actions
    }

    /// Stops the review and waits for its thread (within one engine check, milliseconds).
    pub fn cancel(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        if let Some(handle) = self.handle.take() {
            // A panic in the review thread has already been reported on stderr; the UI
            // goes on without the review.
            let _ = handle.join();
        }
    }
}

impl Drop for Review {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// How bad a move was, by what it lost against the engine's best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// `?!`: lost at least [`INACCURACY_CP`].
    Inaccuracy,
    /// `?`: lost at least [`MISTAKE_CP`].
    Mistake,
    /// `??`: lost at least [`BLUNDER_CP`].
    Blunder,
}

/// Centipawns lost that make an inaccuracy, a mistake and a blunder. Xiangqi values run
/// higher than chess's (a rook is about 900–1000), so the thresholds are set a little above
/// Lichess's.
pub const INACCURACY_CP: i32 = 80;
/// See [`INACCURACY_CP`].
pub const MISTAKE_CP: i32 = 180;
/// See [`INACCURACY_CP`].
pub const BLUNDER_CP: i32 = 350;

/// A score as a number of centipawns from Red's view, mates as large values, so that the
/// loss of a move can be measured; clamped so a mate does not dwarf everything.
pub fn clamped_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-2000, 2000),
        Score::Mate(n) if n > 0 => 2000,
        Score::Mate(n) if n < 0 => -2000,
        // Mate(0) (already mated) carries no side: the reviewer never passes it.
        Score::Mate(_) => 0,
    }
}

/// Judges a move by the values (Red's view) before and after it, for the side that made it.
pub fn judge(before: Score, after: Score, mover: chuhe_core::Color) -> Option<Judgement> {
    let sign = match mover {
        chuhe_core::Color::Red => 1,
        chuhe_core::Color::Black => -1,
    };
    let lost = sign * (clamped_cp(before) - clamped_cp(after));
    if lost >= BLUNDER_CP {
        Some(Judgement::Blunder)
    } else if lost >= MISTAKE_CP {
        Some(Judgement::Mistake)
    } else if lost >= INACCURACY_CP {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhe_core::Color;

    #[test]
    fn moves_are_judged_by_what_the_mover_lost() {
        assert_eq!(judge(Score::Cp(20), Score::Cp(10), Color::Red), None);
        assert_eq!(
            judge(Score::Cp(20), Score::Cp(-80), Color::Red),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(
            judge(Score::Cp(0), Score::Cp(200), Color::Black),
            Some(Judgement::Mistake)
        );
        assert_eq!(
            judge(Score::Cp(100), Score::Mate(-3), Color::Red),
            Some(Judgement::Blunder)
        );
        // A gain for the mover is never an error.
        assert_eq!(judge(Score::Cp(0), Score::Cp(500), Color::Red), None);
    }

    #[test]
    fn a_review_covers_every_position_and_can_be_cancelled() {
        let moves: Vec<Move> = ["h2e2", "h9g7"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let mut review = Review::start(
            Position::startpos(),
            moves,
            Options::default(),
            Duration::from_millis(20),
        );
        let mut seen = Vec::new();
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while seen.len() < 3 && std::time::Instant::now() < deadline {
            seen.extend(review.poll());
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(seen.iter().map(|r| r.index).collect::<Vec<_>>(), [0, 1, 2]);
        assert!(seen.iter().all(|r| !r.line.is_empty()));
        review.cancel();

        let long: Vec<Move> = ["h2e2"].iter().map(|m| m.parse().unwrap()).collect();
        let mut slow = Review::start(
            Position::startpos(),
            long,
            Options::default(),
            Duration::from_secs(60),
        );
        let started = std::time::Instant::now();
        slow.cancel();
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "cancel is prompt"
        );
    }
}

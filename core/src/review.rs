//! Whole-game review: the engine goes over every position of a game's main line on a
//! background thread ([`Review`]); then each move is judged by how much it lost against the
//! engine's choice ([`judge`]), and [`annotate`] writes the verdicts into the record: the
//! evaluation after each move, `?!`, `?` or `??` on the moves that lost, and the engine's
//! better move as a variation marked [`Nag::ENGINE_LINE`].

use crate::record::{Evaluation, Nag, Record};
use crate::search::{Engine, Limits, Options, Score, SearchRoot};
use crate::{Color, Move, Position};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;
use std::time::Duration;

/// What the engine found in one position of the main line.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionReview {
    /// The position's index: 0 is the start, `i` follows the `i`-th move.
    pub index: usize,
    /// Its value from Red's point of view.
    pub score_red: Score,
    /// The depth searched.
    pub depth: u32,
    /// The engine's line, best move first (empty with no legal move).
    pub line: Vec<Move>,
}

/// A review running in the background.
pub struct Review {
    cancel: Arc<AtomicBool>,
    rx: Receiver<PositionReview>,
    handle: Option<JoinHandle<()>>,
    /// How many positions it covers.
    pub total: usize,
}

impl Review {
    /// Starts reviewing the positions after each of `moves` from `start` (and `start`
    /// itself), thinking `per_position` on each. The results come in position order.
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
                    // value of a mate against it. The engine reports such a root as
                    // `Mate(0)`, which carries no side and would make the mating move
                    // look like it threw the win away.
                    let finished = !root.position().has_legal_move();
                    let score_red = match (best, side) {
                        (Some(line), _) if !finished => line.score_for_red(side),
                        (_, Color::Red) => Score::Mate(-1),
                        (_, Color::Black) => Score::Mate(1),
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
        }
    }

    /// The positions reviewed since the last call. Never blocks.
    pub fn poll(&self) -> Vec<PositionReview> {
        self.rx.try_iter().collect()
    }

    /// Stops the review and waits for its thread (within one engine check, milliseconds).
    pub fn cancel(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        if let Some(handle) = self.handle.take() {
            // A panic in the review thread has already been reported on stderr; the caller
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

impl Judgement {
    /// The glyph that marks it: `?!`, `?` or `??`.
    pub fn nag(self) -> Nag {
        match self {
            Judgement::Inaccuracy => Nag::DUBIOUS,
            Judgement::Mistake => Nag::MISTAKE,
            Judgement::Blunder => Nag::BLUNDER,
        }
    }
}

/// Centipawns lost that make an inaccuracy, a mistake and a blunder. Xiangqi values run
/// higher than chess's (a rook is about 900–1000), so the thresholds are set a little above
/// Lichess's.
pub const INACCURACY_CP: i32 = 80;
/// See [`INACCURACY_CP`].
pub const MISTAKE_CP: i32 = 180;
/// See [`INACCURACY_CP`].
pub const BLUNDER_CP: i32 = 350;

/// How many moves of the engine's line the better-move variation shows.
pub const BETTER_LINE_MOVES: usize = 6;

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
pub fn judge(before: Score, after: Score, mover: Color) -> Option<Judgement> {
    let sign = match mover {
        Color::Red => 1,
        Color::Black => -1,
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

/// Writes a finished review into `record`'s main line; `results[i]` is what the engine
/// found in the position after the main line's `i`-th move (0: the start), as [`Review`]
/// sends them. Each move gets the evaluation of the position it leads to; a move that lost
/// enough ([`judge`]) gets `?!`, `?` or `??` unless it is already assessed, and, when the
/// engine preferred another move, the engine's line (up to [`BETTER_LINE_MOVES`] moves) as
/// a variation whose first move carries [`Nag::ENGINE_LINE`]. Moves past the last result
/// are left as they are.
pub fn annotate(record: &mut Record, results: &[PositionReview]) {
    for (i, node) in record.main_line().into_iter().enumerate() {
        let (Some(before), Some(after)) = (results.get(i), results.get(i + 1)) else {
            break;
        };
        let eval = Evaluation {
            score: after.score_red,
            depth: Some(after.depth),
        };
        let _ = record.set_eval(node, Some(eval));
        let Some(number) = record.move_number(node) else {
            continue;
        };
        let Some(judgement) = judge(before.score_red, after.score_red, number.color) else {
            continue;
        };
        let assessed = record
            .annotation(node)
            .nags
            .iter()
            .any(|n| n.is_move_assessment());
        if !assessed {
            let _ = record.toggle_nag(node, judgement.nag());
        }
        // The engine's better move, as a variation of the move played, marked as the
        // engine's unless the line was already there (someone's own analysis).
        if let Some(parent) = record.parent(node)
            && let Some(&best) = before.line.first()
            && Some(best) != record.move_at(node)
        {
            let known = record
                .children(parent)
                .any(|c| record.move_at(c) == Some(best));
            let mut at = parent;
            for &m in before.line.iter().take(BETTER_LINE_MOVES) {
                match record.add_move(at, m) {
                    Ok(next) => {
                        if !known && at == parent {
                            let _ = record.toggle_nag(next, Nag::ENGINE_LINE);
                        }
                        at = next;
                    }
                    Err(_) => break,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect()
    }

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
    fn each_threshold_is_reached_at_its_value_and_not_one_below() {
        let cases = [
            (INACCURACY_CP - 1, None),
            (INACCURACY_CP, Some(Judgement::Inaccuracy)),
            (MISTAKE_CP - 1, Some(Judgement::Inaccuracy)),
            (MISTAKE_CP, Some(Judgement::Mistake)),
            (BLUNDER_CP - 1, Some(Judgement::Mistake)),
            (BLUNDER_CP, Some(Judgement::Blunder)),
        ];
        for (lost, expected) in cases {
            // Red loses by the value going down, Black by its going up.
            assert_eq!(
                judge(Score::Cp(100), Score::Cp(100 - lost), Color::Red),
                expected,
                "Red losing {lost}"
            );
            assert_eq!(
                judge(Score::Cp(-100), Score::Cp(-100 + lost), Color::Black),
                expected,
                "Black losing {lost}"
            );
        }
        assert_eq!(
            [
                Judgement::Inaccuracy,
                Judgement::Mistake,
                Judgement::Blunder
            ]
            .map(Judgement::nag),
            [Nag::DUBIOUS, Nag::MISTAKE, Nag::BLUNDER]
        );
    }

    #[test]
    fn values_are_clamped_so_a_lost_position_loses_nothing_more() {
        assert_eq!(clamped_cp(Score::Cp(5000)), 2000);
        assert_eq!(clamped_cp(Score::Cp(-5000)), -2000);
        assert_eq!(clamped_cp(Score::Mate(3)), 2000);
        assert_eq!(clamped_cp(Score::Mate(-1)), -2000);
        // Already a mate against Red: throwing more away is no error.
        assert_eq!(judge(Score::Mate(-5), Score::Mate(-2), Color::Red), None);
        assert_eq!(judge(Score::Cp(2500), Score::Cp(2000), Color::Red), None);
        // Walking into a mate from a won position is the worst of blunders.
        assert_eq!(
            judge(Score::Mate(4), Score::Mate(-4), Color::Red),
            Some(Judgement::Blunder)
        );
    }

    fn result(index: usize, cp: i32, line: &str) -> PositionReview {
        PositionReview {
            index,
            score_red: Score::Cp(cp),
            depth: 10 + index as u32,
            line: moves(line),
        }
    }

    #[test]
    fn annotate_writes_evals_glyphs_and_the_better_line() {
        let mut record = Record::default();
        let mut at = record.root();
        for m in moves("h2e2 h9g7 h0g2 i9h9 i0h0") {
            at = record.add_move(at, m).unwrap();
        }
        let main = record.main_line();
        // The third move already carries `!`: the review leaves it.
        record.toggle_nag(main[2], Nag::GOOD).unwrap();
        let results = [
            result(0, 20, "h2e2 h9g7"),
            // Red gained: no glyph.
            result(1, 30, "b9c7 h0g2 a9b9 i0h0 h9g7 b0c2 i9h9 h0h4"),
            // Black lost 200 (a mistake) against b9c7: the engine's line becomes a
            // variation, six moves of it.
            result(2, 230, "h0g2 i9h9"),
            // Red lost 430, but its move is already assessed; the engine played it too.
            result(3, -200, "i9h9"),
            // Black gained.
            result(4, -250, "i0h0"),
            // The fifth move's result never came: it is left as it is.
        ];
        annotate(&mut record, &results);
        let main = record.main_line();
        assert_eq!(main.len(), 5, "the main line is unchanged");
        let nags: Vec<Vec<Nag>> = main
            .iter()
            .map(|&n| record.annotation(n).nags.clone())
            .collect();
        assert_eq!(
            nags,
            [vec![], vec![Nag::MISTAKE], vec![Nag::GOOD], vec![], vec![]]
        );
        for (i, (&node, cp)) in main.iter().zip([30, 230, -200, -250]).enumerate() {
            assert_eq!(
                record.annotation(node).eval,
                Some(Evaluation {
                    score: Score::Cp(cp),
                    depth: Some(11 + i as u32),
                }),
                "move {}",
                i + 1
            );
        }
        assert_eq!(record.annotation(main[4]).eval, None);
        // One variation: b9c7 and five more, beside h9g7.
        assert_eq!(record.line_count(), 2);
        let better = record.next_sibling(main[1]).unwrap();
        let mut line = vec![better];
        line.extend(record.line_after(better));
        let line: Vec<Move> = line.iter().map(|&n| record.move_at(n).unwrap()).collect();
        assert_eq!(line, moves("b9c7 h0g2 a9b9 i0h0 h9g7 b0c2"));
        // Its first move says the engine put it there; the moves played say nothing.
        assert_eq!(record.annotation(better).nags, [Nag::ENGINE_LINE]);
        assert!(
            record
                .line_after(better)
                .iter()
                .chain(&main)
                .all(|&n| !record.annotation(n).nags.contains(&Nag::ENGINE_LINE))
        );
    }

    #[test]
    fn a_line_already_in_the_record_is_not_marked_as_the_engines() {
        let mut record = Record::default();
        let first = record.add_move(record.root(), moves("h2e2")[0]).unwrap();
        // The user's own analysis already has the engine's choice.
        let own = record.add_move(record.root(), moves("b2e2")[0]).unwrap();
        let results = [result(0, 20, "b2e2 h9g7"), result(1, -300, "h9g7")];
        annotate(&mut record, &results);
        assert_eq!(record.main_line(), [first]);
        assert_eq!(record.children(record.root()).count(), 2);
        assert!(!record.annotation(own).nags.contains(&Nag::ENGINE_LINE));
    }

    #[test]
    fn a_review_covers_every_position_and_can_be_cancelled() {
        let mut review = Review::start(
            Position::startpos(),
            moves("h2e2 h9g7"),
            Options::default(),
            Duration::from_millis(20),
        );
        assert_eq!(review.total, 3);
        let mut seen = Vec::new();
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while seen.len() < 3 && std::time::Instant::now() < deadline {
            seen.extend(review.poll());
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(seen.iter().map(|r| r.index).collect::<Vec<_>>(), [0, 1, 2]);
        assert!(seen.iter().all(|r| !r.line.is_empty()));
        review.cancel();

        let mut slow = Review::start(
            Position::startpos(),
            moves("h2e2"),
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

    #[test]
    fn a_mated_position_is_valued_as_a_mate_against_the_side_to_move() {
        // Red's rook mates on the back rank: the last position has no legal move.
        let start: Position = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1".parse().unwrap();
        let review = Review::start(
            start.clone(),
            moves("a1d1"),
            Options::default(),
            Duration::from_millis(20),
        );
        let mut seen = Vec::new();
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while seen.len() < 2 && std::time::Instant::now() < deadline {
            seen.extend(review.poll());
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(seen.len(), 2);
        assert_eq!(seen[1].score_red, Score::Mate(1));
        assert!(seen[1].line.is_empty());
        // So the mating move is no error.
        let mut record = Record::new(start);
        let mate = record.add_move(record.root(), moves("a1d1")[0]).unwrap();
        annotate(&mut record, &seen);
        assert!(record.annotation(mate).nags.is_empty());
        assert_eq!(
            record.annotation(mate).eval.map(|e| e.score),
            Some(Score::Mate(1))
        );
    }
}

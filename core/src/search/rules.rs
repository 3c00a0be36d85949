//! The rules of the game inside the search (domain.md §4): a repeated position is judged
//! by the 棋例 — a side that checked with every move of the cycle (长将) loses, unless
//! the other side did too — otherwise it is a draw; the natural move limit (60 moves each
//! without a capture) draws; a side with no legal move loses (困毙), like a mated one.
//!
//! Perpetual check is judged along the path from the check flags alone. Chases (长捉) and
//! mate threats (长杀) need every move of the cycle classified, which the rules module does
//! (`crate::repetition`); that costs far more than a node, so the search asks it only for
//! cycles that close within [`FULL_JUDGEMENT_PLIES`] of the root (where the engine's
//! choice between repeating and deviating is made), and remembers its verdicts. Deeper
//! cycles without a perpetual checker are scored as draws.

use super::score::{Value, mate_in, mated_in};
use crate::repetition::RepetitionJudgement;
use crate::{Color, EndReason, Move, Position};
use std::collections::HashMap;

/// Cycles that close at most this many plies from the root get the rules module's full
/// judgement (chases and mate threats as well as checks).
pub(crate) const FULL_JUDGEMENT_PLIES: usize = 8;

/// One position on the path from the game's start to the current search node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PathEntry {
    /// The position's hash.
    pub hash: u64,
    /// Whether the side to move there is in check: the move into it gave check.
    pub in_check: bool,
    /// Whether it was reached by a null move: no repetition reaches across one.
    pub null: bool,
    /// The move that reached it (`None` for the first position known).
    pub mv: Option<Move>,
}

/// The rules module's verdict on a cycle: who wins, and whether by perpetual check (the
/// rule every program applies alike) rather than by chases or mate threats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Verdict {
    winner: Color,
    by_check: bool,
}

/// The rules module's verdicts on cycles, remembered by the cycle.
#[derive(Default)]
pub(crate) struct CycleJudge {
    verdicts: HashMap<u64, Option<Verdict>>,
}

impl CycleJudge {
    /// Forgets every verdict (a new search).
    pub fn clear(&mut self) {
        self.verdicts.clear();
    }

    /// Who wins the cycle whose positions (after each of its moves) are `cycle`, ending
    /// in `pos`, and how: `None` for a draw.
    fn verdict(&mut self, pos: &Position, cycle: &[PathEntry]) -> Option<Verdict> {
        let key = cycle.iter().fold(0u64, |k, e| {
            k.rotate_left(7) ^ e.hash.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        });
        *self.verdicts.entry(key).or_insert_with(|| {
            let moves: Option<Vec<Move>> = cycle.iter().map(|e| e.mv).collect();
            let moves = moves?;
            // No capture happens inside a cycle, so stepping each piece back recovers
            // where the cycle began.
            let mut setup = pos.to_setup();
            for m in moves.iter().rev() {
                let piece = setup.board.set(m.to, None);
                setup.board.set(m.from, piece);
                setup.side_to_move = !setup.side_to_move;
            }
            let start = Position::from_setup(&setup).ok()?;
            let judgement = RepetitionJudgement::judge(&start, &moves).ok()?;
            Some(Verdict {
                winner: judgement.outcome.winner?,
                by_check: judgement.outcome.reason == EndReason::PerpetualCheck,
            })
        })
    }
}

/// The judgement of the last position of `path` if it repeats an earlier one, as a value
/// for its side to move at `ply` plies from the root (`path`'s last `ply` entries are
/// the search's own). `reversible` is the number of plies since the last capture (no
/// repetition reaches across a capture).
///
/// When the position has occurred `needed` times (the rules' count), the cycle from the
/// earliest of those occurrences is judged, as the referee judges it. Before that, a
/// cycle that begins at or after the root counts at its first repetition: the search
/// assumes that a cycle a side entered once it would enter again, and the side that could
/// leave it had its other moves searched where the cycle began. A cycle reaching back
/// into the game before the root does not count yet: the side that entered it can still
/// leave it, and its moves there have not been searched.
///
/// With `full`, the rules module judges the cycle; a win it gives to the side `distrust`
/// for the other side's chases or mate threats (not for perpetual check) counts as a draw:
/// programs and referees judge chases differently, and a player is safer not to count on
/// the verdict (its own forbidden chases still lose).
pub(crate) fn repetition_value(
    path: &[PathEntry],
    reversible: usize,
    ply: usize,
    needed: usize,
    full: Option<(&Position, &mut CycleJudge, Option<Color>)>,
) -> Option<Value> {
    let n = path.len() - 1;
    let now = path[n];
    let root = n.saturating_sub(ply);
    let earliest = n - reversible.min(n);
    let mut occurrences = 1;
    // Where the cycle to judge begins: the occurrence that completes the rules' count (the
    // referee's cycle), or failing that the most recent one if the search made it.
    let mut start = None;
    // Positions with the same side to move lie an even number of plies back; four plies
    // is the shortest cycle.
    let mut i = n;
    while i >= earliest + 2 {
        i -= 2;
        if path[i + 1].null || path[i + 2].null {
            break;
        }
        if i + 4 <= n && path[i].hash == now.hash {
            occurrences += 1;
            if occurrences == needed || (occurrences == 2 && i >= root) {
                start = Some(i);
            }
            if occurrences == needed {
                break;
            }
        }
    }
    let cycle = &path[start? + 1..=n];
    let by_checks = judge_cycle(cycle, ply);
    Some(match full {
        Some((pos, judge, distrust)) if by_checks == 0 => match judge.verdict(pos, cycle) {
            Some(v) if !v.by_check && Some(v.winner) == distrust => 0,
            Some(v) if v.winner == pos.side_to_move() => mate_in(ply),
            Some(_) => mated_in(ply),
            None => 0,
        },
        _ => by_checks,
    })
}

/// Judges the cycle whose positions (after each of its moves) are `cycle`, the last one
/// being the current position. Moves into entries at even distance from the end were
/// made by the side not to move now ("they"), the others by the side to move ("we").
fn judge_cycle(cycle: &[PathEntry], ply: usize) -> Value {
    let n = cycle.len();
    let their_checks = (0..n).rev().step_by(2).all(|j| cycle[j].in_check);
    let our_checks = (0..n).rev().skip(1).step_by(2).all(|j| cycle[j].in_check);
    match (our_checks, their_checks) {
        // They checked perpetually and we did not: they lose when the cycle closes.
        (false, true) => mate_in(ply),
        (true, false) => mated_in(ply),
        _ => 0,
    }
}

/// Whether the natural move limit may be reached: `limit` plies without a capture, before
/// the checks are looked at.
#[inline]
pub(crate) fn move_limit_reached(halfmove_clock: u32, limit: Option<u32>) -> bool {
    limit.is_some_and(|l| halfmove_clock >= l)
}

/// Who can have the draw of the natural move limit at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LimitDraw {
    /// Nobody: play goes on.
    None,
    /// Drawn: both sides could claim it, or the referee draws by itself.
    Drawn,
    /// Only this side could claim it: it takes the draw or plays on, as suits it.
    Claimable(Color),
}

/// The natural move limit at the last position of `path` (`side` to move, `clock` plies
/// without a capture): the moves are counted with each side's checks beyond
/// `rules.move_limit_counted_checks` left out, two plies each (a check does not count as
/// a move, 23.3), as [`crate::Game`] counts them. Plies before the path's start count as
/// quiet.
pub(crate) fn move_limit_draw(
    path: &[PathEntry],
    side: Color,
    clock: u32,
    rules: &crate::Rules,
    reading: super::MoveLimitReading,
) -> LimitDraw {
    let Some(limit) = rules.move_limit_plies else {
        return LimitDraw::None;
    };
    if clock < limit {
        return LimitDraw::None;
    }
    let n = path.len() - 1;
    let window = (clock as usize).min(n);
    let mut checks = [0u32; 2];
    for (k, e) in path.iter().enumerate().skip(n + 1 - window) {
        if e.in_check {
            // The move into entry k was made by the side to move at k - 1: the side to
            // move now if that lies an even number of plies back.
            let mover = if (n + 1 - k).is_multiple_of(2) {
                side
            } else {
                !side
            };
            checks[mover.index()] += 1;
        }
    }
    let counted = |c: u32| {
        let uncounted = c.saturating_sub(rules.move_limit_counted_checks);
        clock.saturating_sub(2 * uncounted) >= limit
    };
    match reading {
        super::MoveLimitReading::MostChecks => {
            if counted(checks[0].max(checks[1])) {
                LimitDraw::Drawn
            } else {
                LimitDraw::None
            }
        }
        super::MoveLimitReading::Claimant => match (counted(checks[0]), counted(checks[1])) {
            (true, true) => LimitDraw::Drawn,
            (false, false) => LimitDraw::None,
            (red, _) => LimitDraw::Claimable(if red { Color::Red } else { Color::Black }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path of `n` quiet plies, then the last `checks` as given (oldest first), with
    /// Red to move at its end when `n + checks.len()` is even.
    fn limit_path(quiet: usize, checks: &[bool]) -> Vec<PathEntry> {
        let mut path: Vec<PathEntry> = (0..=quiet).map(|i| entry(i as u64, false)).collect();
        path.extend(
            checks
                .iter()
                .enumerate()
                .map(|(i, &c)| entry(1000 + i as u64, c)),
        );
        path
    }

    #[test]
    fn the_move_limit_counts_each_sides_checks_in_its_reading() {
        use super::super::MoveLimitReading::{Claimant, MostChecks};
        let rules = crate::Rules {
            move_limit_counted_checks: 1,
            ..crate::Rules::default()
        };
        let draw = |path: &[PathEntry], clock, reading| {
            move_limit_draw(path, Color::Red, clock, &rules, reading)
        };
        // 120 quiet plies: drawn in both readings; 119: not yet.
        let quiet = limit_path(120, &[]);
        assert_eq!(draw(&quiet, 120, Claimant), LimitDraw::Drawn);
        assert_eq!(draw(&quiet, 120, MostChecks), LimitDraw::Drawn);
        assert_eq!(draw(&quiet, 119, Claimant), LimitDraw::None);
        // Red to move at the end: the moves into the last entries were Black's, Red's,
        // Black's, ... going back. Black checked three times (two beyond the one that
        // counts): Black's count is 116, so only Red may claim; the referee that leaves
        // out the checks of the side that gave most plays on.
        let black_checks = limit_path(114, &[false, true, false, true, false, true]);
        assert_eq!(
            draw(&black_checks, 120, Claimant),
            LimitDraw::Claimable(Color::Red)
        );
        assert_eq!(draw(&black_checks, 120, MostChecks), LimitDraw::None);
        assert_eq!(draw(&black_checks, 124, MostChecks), LimitDraw::Drawn);
        // Red checked twice: one beyond the one that counts, so only Black may claim.
        let red_checks = limit_path(114, &[true, false, true, false, false, false]);
        assert_eq!(
            draw(&red_checks, 120, Claimant),
            LimitDraw::Claimable(Color::Black)
        );
        assert_eq!(
            draw(&red_checks, 121, Claimant),
            LimitDraw::Claimable(Color::Black)
        );
        assert_eq!(draw(&red_checks, 122, Claimant), LimitDraw::Drawn);
        // Both checked beyond what counts: nobody may claim yet.
        let both = limit_path(114, &[true, true, true, true, false, false]);
        assert_eq!(draw(&both, 120, Claimant), LimitDraw::None);
        // Checks before the last capture (older than the clock) do not count: ten checks
        // just before the clock's 120 plies, then the same ten inside them.
        let mut before = limit_path(130, &[]);
        for e in &mut before[1..=10] {
            e.in_check = true;
        }
        assert_eq!(draw(&before, 120, Claimant), LimitDraw::Drawn);
        let inside = limit_path(120, &[true; 10]);
        assert_eq!(inside.len(), before.len());
        assert_eq!(draw(&inside, 120, Claimant), LimitDraw::None);
    }

    fn entry(hash: u64, in_check: bool) -> PathEntry {
        PathEntry {
            hash,
            in_check,
            null: false,
            mv: None,
        }
    }

    #[test]
    fn perpetual_check_loses_and_a_plain_cycle_draws() {
        let path = |checks: [bool; 5]| {
            let hashes = [1, 2, 3, 4, 1];
            std::array::from_fn::<_, 5, _>(|i| entry(hashes[i], checks[i]))
        };
        // Entries are the positions after each move; the last was reached by their move.
        // The whole cycle lies in the search (4 plies from the root): its first repetition
        // counts. Our moves (into positions 2 and 4) both checked, theirs did not: we lose.
        let ours = path([false, true, false, true, false]);
        assert_eq!(repetition_value(&ours, 10, 4, 3, None), Some(mated_in(4)));
        // Their moves (into 3 and back into 1) both checked: we win.
        let theirs = path([true, false, true, false, true]);
        assert_eq!(repetition_value(&theirs, 10, 4, 3, None), Some(mate_in(4)));
        assert_eq!(repetition_value(&path([false; 5]), 10, 4, 3, None), Some(0));
        assert_eq!(repetition_value(&path([true; 5]), 10, 4, 3, None), Some(0));
        // A check among our moves is not enough: one quiet move breaks the perpetual.
        let one = path([false, true, false, false, false]);
        assert_eq!(repetition_value(&one, 10, 4, 3, None), Some(0));
        // A capture three plies ago: the cycle cannot reach back.
        assert_eq!(repetition_value(&theirs, 3, 4, 3, None), None);
        // The earlier occurrence further back: a longer cycle, judged the same way.
        let long = [
            entry(1, false),
            entry(2, true),
            entry(3, false),
            entry(4, true),
            entry(1, false),
            entry(5, true),
            entry(3, false),
            entry(4, true),
            entry(1, false),
        ];
        assert_eq!(repetition_value(&long, 10, 8, 3, None), Some(mated_in(8)));
    }

    #[test]
    fn at_the_rules_count_the_referees_cycle_is_judged() {
        // Position 1 occurs at entries 0, 4 and 8. Their moves into 4, 6 and 8 check, their
        // move into 2 does not; ours never do. The cycle from entry 4 is their perpetual
        // check, the cycle from entry 0 is not.
        let checks = [false, false, false, false, true, false, true, false, true];
        let hashes = [1, 2, 3, 4, 1, 2, 3, 4, 1];
        let path: Vec<_> = (0..9).map(|i| entry(hashes[i], checks[i])).collect();
        // The search began at entry 4. Entry 8 is the third occurrence: the game ends
        // there, and the referee judges the whole cycle from entry 0: a draw, not the
        // win the search's own cycle would promise.
        assert_eq!(repetition_value(&path, 10, 4, 3, None), Some(0));
        // With four occurrences needed the game goes on; the search's cycle counts.
        assert_eq!(repetition_value(&path, 10, 4, 4, None), Some(mate_in(4)));
        // Begun at entry 6, the search has no cycle of its own.
        assert_eq!(repetition_value(&path, 10, 2, 3, None), Some(0));
        assert_eq!(repetition_value(&path, 10, 2, 4, None), None);
    }

    #[test]
    fn a_cycle_from_before_the_root_counts_at_the_rules_count() {
        // Position 1 occurs at entries 0, 4 and 8; their moves (into 2, 4, 6, 8) all check.
        let checks = [true, false, true, false, true, false, true, false, true];
        let hashes = [1, 2, 3, 4, 1, 2, 3, 4, 1];
        let path: Vec<_> = (0..9).map(|i| entry(hashes[i], checks[i])).collect();
        // The search began at entry 2: entry 0 is before the root, so the second
        // occurrence only counts if two are needed.
        assert_eq!(repetition_value(&path[..5], 10, 2, 3, None), None);
        assert_eq!(
            repetition_value(&path[..5], 10, 2, 2, None),
            Some(mate_in(2))
        );
        // The third occurrence completes the rules' count wherever the root is.
        assert_eq!(repetition_value(&path, 10, 2, 3, None), Some(mate_in(2)));
        assert_eq!(repetition_value(&path, 10, 2, 4, None), None);
        // With the root at entry 4 the cycle from there lies in the search: it counts.
        assert_eq!(repetition_value(&path, 10, 4, 4, None), Some(mate_in(4)));
    }

    #[test]
    fn no_repetition_across_a_null_move() {
        let mut path = [
            entry(1, false),
            entry(2, false),
            entry(3, false),
            entry(4, false),
            entry(1, false),
        ];
        path[2].null = true;
        assert_eq!(repetition_value(&path, 10, 4, 3, None), None);
    }
}

//! The defender's strongest reply to an attacker's move, worked out with the prover: the
//! reply that holds out longest against the mate, or one that escapes it, and why. Solve
//! mode judges a user's move by it ([`judge`]) and pattern practice answers with it
//! ([`defend`]); both go through [`strongest_reply`], so they agree.
//!
//! The replies are tried in the order most likely to refute ([`strongest_first`]: general
//! moves, captures, blocks, the rest), so an escape, when there is one, is usually found
//! after one or two searches, and the escape shown is the plainest one.

use super::{SolveOptions, Solver, Verdict};
use crate::{Move, MoveList, PieceKind, Position};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The prover's table for one judgement: 2^18 entries (4 MiB) is plenty for the short mates
/// of puzzles and patterns.
const TABLE_BITS: u32 = 18;

/// What a defender's move does, said of a reply that refutes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// The general steps out of the net.
    GeneralEscapes,
    /// It captures an attacking piece.
    Captures(PieceKind),
    /// It interposes against the check.
    Blocks,
    /// Any other defence.
    Defends,
}

/// What the defender's move `m` in `pos` does.
pub fn refutation(pos: &Position, m: Move) -> Refutation {
    let moving = pos.piece_at(m.from).map(|p| p.kind);
    if moving == Some(PieceKind::General) {
        Refutation::GeneralEscapes
    } else if let Some(captured) = pos.piece_at(m.to) {
        Refutation::Captures(captured.kind)
    } else if pos.is_check() {
        Refutation::Blocks
    } else {
        Refutation::Defends
    }
}

/// The defender's `replies` in `pos`, those most likely to refute first: general moves,
/// captures, blocks, the rest; in generation order within each group.
pub fn strongest_first(pos: &Position, replies: &MoveList) -> Vec<Move> {
    let mut moves: Vec<Move> = replies.iter().copied().collect();
    moves.sort_by_key(|m| match refutation(pos, *m) {
        Refutation::GeneralEscapes => 0,
        Refutation::Captures(_) => 1,
        Refutation::Blocks => 2,
        Refutation::Defends => 3,
    });
    moves
}

/// The defender's answer to an attacker's move, as [`strongest_reply`] works it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defence {
    /// The defender has no legal move: the attacker's move mated (or, by 困毙, won).
    Finished,
    /// Every reply still loses in time: the one that holds out longest.
    Reply {
        /// The reply that delays the mate longest (ties: the first in
        /// [`strongest_first`] order).
        reply: Move,
        /// The attacker's moves to mate after it (the shortest mate).
        left: u32,
        /// An attacker's move after the reply that mates in `left`.
        hint: Option<Move>,
    },
    /// This reply escapes the mate within the moves left.
    Escapes {
        /// The refuting reply (the first found in [`strongest_first`] order).
        defence: Move,
        /// What it does.
        why: Refutation,
    },
    /// The prover ran out of time (or was stopped) before it could decide.
    Unknown,
}

/// The defender's strongest reply in `after` (the defender to move, just after the
/// attacker's move), the attacker having `left` moves to mate after the reply.
///
/// `history` holds the hashes of the positions before `after` (the game so far): a line
/// that returns to one of them, or to `after`, proves nothing. `opts` gives the quiet-move
/// budget and the time limit of each reply's search (its `max_moves` is replaced by
/// `left`); `solver`'s stop flag, if set, stops it. With `left` 0 any reply escapes, and
/// the strongest-looking one is returned without a search.
pub fn strongest_reply(
    solver: &mut Solver,
    after: &Position,
    history: &[u64],
    left: u32,
    opts: &SolveOptions,
) -> Defence {
    let replies = after.legal_moves();
    if replies.is_empty() {
        return Defence::Finished;
    }
    let ordered = strongest_first(after, &replies);
    if left == 0 {
        let defence = ordered[0];
        return Defence::Escapes {
            defence,
            why: refutation(after, defence),
        };
    }
    let mut history = history.to_vec();
    history.push(after.hash());
    let opts = SolveOptions {
        max_moves: left,
        ..*opts
    };
    let mut best: Option<(Move, u32, Option<Move>)> = None;
    for r in ordered {
        let mut next = after.clone();
        next.play_unchecked(r);
        let solution = solver.solve_after(&next, &history, &opts);
        match solution.verdict {
            Verdict::Mate(k) => {
                if best.is_none_or(|(_, b, _)| k > b) {
                    best = Some((r, k, solution.line.first().copied()));
                }
            }
            Verdict::NoMate => {
                return Defence::Escapes {
                    defence: r,
                    why: refutation(after, r),
                };
            }
            Verdict::Unknown { .. } => return Defence::Unknown,
        }
    }
    match best {
        Some((reply, left, hint)) => Defence::Reply { reply, left, hint },
        None => Defence::Unknown,
    }
}

/// Pattern practice's answer to the attacker's move that led to `after` (defender to
/// move), the attacker having `left` moves, that one included, to mate: any move of the
/// attacker's counts, there is no time limit, and setting `stop` abandons the work
/// ([`Defence::Unknown`]).
pub fn defend(after: &Position, left: u32, stop: Arc<AtomicBool>) -> Defence {
    let mut solver = Solver::new(TABLE_BITS);
    solver.set_stop(stop);
    strongest_reply(
        &mut solver,
        after,
        &[],
        left.saturating_sub(1),
        &SolveOptions::mate_in(left),
    )
}

/// A move of the user's that does not solve a puzzle, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wrong {
    /// The puzzle asks for consecutive checks and the move is not one.
    NotCheck,
    /// A puzzle without a mate goal is solved by its solution's moves, and this is not one
    /// (the solver is not asked: the app finds it by the solution tree).
    NotInSolution,
    /// After the move, this defence escapes the mate within the moves left.
    Refuted {
        /// The defence.
        defence: Move,
        /// What the defence does.
        why: Refutation,
    },
}

/// What the solver concluded about a move of the user's in a mate puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The move mates (or leaves the defender without a move): solved.
    Mates,
    /// Right: the defender answers `reply`, and the mate is still on in `moves_left`.
    Right {
        /// The best defence.
        reply: Move,
        /// The solver's moves left after the defence.
        moves_left: u32,
    },
    /// Wrong, and why.
    Wrong(Wrong),
    /// The solver could not decide in time.
    Unknown,
}

/// Judges the user's move `m` in `pos` with `moves_left` moves (`m` included) to mate (see
/// [`Judgement`]); `history` holds the hashes of the positions so far, `pos` last. `opts`
/// gives the quiet-move budget and the time limit of each defence's search; setting
/// `stop` abandons the work ([`Judgement::Unknown`]).
pub fn judge(
    pos: &Position,
    history: &[u64],
    m: Move,
    moves_left: u32,
    opts: SolveOptions,
    stop: Arc<AtomicBool>,
) -> Judgement {
    let Ok(after) = pos.play(m) else {
        return Judgement::Unknown;
    };
    if !after.has_legal_move() {
        return Judgement::Mates;
    }
    // A quiet move spends a budget of none; with no moves left, any reply refutes anyway.
    if moves_left > 1 && opts.quiet_moves == Some(0) && !after.is_check() {
        return Judgement::Wrong(Wrong::NotCheck);
    }
    let mut solver = Solver::new(TABLE_BITS);
    solver.set_stop(stop);
    match strongest_reply(
        &mut solver,
        &after,
        history,
        moves_left.saturating_sub(1),
        &opts,
    ) {
        Defence::Finished => Judgement::Mates,
        Defence::Reply { reply, left, .. } => Judgement::Right {
            reply,
            moves_left: left,
        },
        Defence::Escapes { defence, why } => Judgement::Wrong(Wrong::Refuted { defence, why }),
        Defence::Unknown => Judgement::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::patterns;
    use crate::puzzle::{Goal, Puzzle, PuzzleSet};

    fn no_stop() -> Arc<AtomicBool> {
        Arc::new(AtomicBool::new(false))
    }

    /// Some real mate-in-2 and mate-in-3 puzzles of the built-in sets (games and classic
    /// compositions, with and without the checks-only rule).
    fn real_puzzles() -> Vec<Puzzle> {
        let mut chosen = Vec::new();
        for text in [
            include_str!("../../../assets/puzzles/wukong.ron"),
            include_str!("../../../assets/puzzles/shiqingyaqu.ron"),
        ] {
            let set = PuzzleSet::from_ron(text).unwrap();
            for moves in [2, 3, 4] {
                chosen.extend(
                    set.puzzles
                        .iter()
                        .filter(|p| matches!(p.goal, Goal::Mate { moves: n, .. } if n == moves))
                        .take(3)
                        .cloned(),
                );
            }
        }
        assert!(chosen.len() >= 9, "{} puzzles", chosen.len());
        chosen
    }

    fn play(pos: &Position, moves: &[Move]) -> Position {
        let mut pos = pos.clone();
        for &m in moves {
            pos = pos.play(m).unwrap();
        }
        pos
    }

    #[test]
    fn the_ladder_is_right_and_a_lone_check_is_refuted_by_the_general() {
        // Red rooks on a1 and b0 against the bare general on e9: b0b8 first is the ladder,
        // a1a9 is not mate (the general steps down).
        let pos: Position = "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1".parse().unwrap();
        let history = [pos.hash()];
        let opts = SolveOptions::mate_in(2);
        let right = judge(&pos, &history, "b0b8".parse().unwrap(), 2, opts, no_stop());
        assert!(
            matches!(right, Judgement::Right { moves_left: 1, .. }),
            "{right:?}"
        );
        let wrong = judge(&pos, &history, "a1a9".parse().unwrap(), 2, opts, no_stop());
        let Judgement::Wrong(Wrong::Refuted { defence, why }) = wrong else {
            panic!("{wrong:?}");
        };
        assert_eq!(why, Refutation::GeneralEscapes);
        let escaped = play(&pos, &["a1a9".parse().unwrap(), defence]);
        assert_eq!(
            Solver::new(16)
                .solve(&escaped, &SolveOptions::mate_in(1))
                .verdict,
            Verdict::NoMate
        );
        // With no move left, a move that does not mate is refuted without a search.
        let last = judge(&pos, &history, "b0b8".parse().unwrap(), 1, opts, no_stop());
        assert!(
            matches!(last, Judgement::Wrong(Wrong::Refuted { .. })),
            "{last:?}"
        );
    }

    #[test]
    fn a_right_move_is_answered_by_the_reply_that_holds_out_longest() {
        let mut solver = Solver::new(18);
        for p in real_puzzles() {
            let opts = p.goal.solve_options().unwrap();
            let n = opts.max_moves;
            let m = p.solution[0].mv;
            let judgement = judge(&p.position, &[p.position.hash()], m, n, opts, no_stop());
            let Judgement::Right { reply, moves_left } = judgement else {
                panic!("{}: {judgement:?}", p.id);
            };
            assert_eq!(moves_left, n - 1, "{}", p.id);
            // No reply holds out longer than the one chosen, and the chosen one holds out
            // that long.
            let after = play(&p.position, &[m]);
            let history = [p.position.hash(), after.hash()];
            let rest = SolveOptions {
                max_moves: n - 1,
                ..opts
            };
            for r in after.legal_moves().iter().copied() {
                let verdict = solver
                    .solve_after(&play(&after, &[r]), &history, &rest)
                    .verdict;
                let Verdict::Mate(k) = verdict else {
                    panic!("{}: {r} escapes: {verdict:?}", p.id);
                };
                assert!(k <= moves_left, "{}: {r} holds out {k}", p.id);
                if r == reply {
                    assert_eq!(k, moves_left, "{}", p.id);
                }
            }
        }
    }

    #[test]
    fn a_wrong_move_is_refuted_by_a_defence_that_escapes() {
        let mut solver = Solver::new(18);
        let mut refuted = 0;
        for p in real_puzzles() {
            let opts = p.goal.solve_options().unwrap();
            let n = opts.max_moves;
            let winning = solver.solve(&p.position, &opts).first_moves;
            let checks_only = opts.quiet_moves == Some(0);
            let wrong_moves = p
                .position
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| !winning.contains(m))
                .take(4)
                .collect::<Vec<_>>();
            for m in wrong_moves {
                let after = play(&p.position, &[m]);
                let judgement = judge(&p.position, &[p.position.hash()], m, n, opts, no_stop());
                match judgement {
                    Judgement::Wrong(Wrong::NotCheck) => {
                        assert!(checks_only && !after.is_check(), "{}: {m}", p.id)
                    }
                    Judgement::Wrong(Wrong::Refuted { defence, why }) => {
                        assert_eq!(why, refutation(&after, defence), "{}", p.id);
                        let escaped = play(&after, &[defence]);
                        let history = [p.position.hash(), after.hash()];
                        let rest = SolveOptions {
                            max_moves: n - 1,
                            ..opts
                        };
                        assert_eq!(
                            solver.solve_after(&escaped, &history, &rest).verdict,
                            Verdict::NoMate,
                            "{}: {m} {defence} does not escape",
                            p.id
                        );
                        refuted += 1;
                    }
                    other => panic!("{}: {m}: {other:?}", p.id),
                }
            }
        }
        assert!(refuted >= 10, "{refuted} refutations checked");
    }

    #[test]
    fn the_mating_move_mates() {
        for p in real_puzzles() {
            let opts = p.goal.solve_options().unwrap();
            let line = p.main_line();
            let before = play(&p.position, &line[..line.len() - 1]);
            let judgement = judge(
                &before,
                &[before.hash()],
                *line.last().unwrap(),
                1,
                opts,
                no_stop(),
            );
            assert_eq!(judgement, Judgement::Mates, "{}", p.id);
        }
    }

    #[test]
    fn practice_defends_the_patterns_to_the_end_and_hints_a_mating_move() {
        let mut solver = Solver::new(18);
        let mut checked = 0;
        for pattern in patterns::library().unwrap() {
            let ex = &pattern.examples[0];
            if !(2..=3).contains(&ex.mate_in) {
                continue;
            }
            let (start, line) = patterns::replay(ex).unwrap();
            let after = play(&start, &line[..1]);
            let defence = defend(&after, ex.mate_in, no_stop());
            let Defence::Reply {
                reply,
                left,
                hint: Some(hint),
            } = defence
            else {
                panic!("pattern {}: {defence:?}", pattern.id);
            };
            assert_eq!(left, ex.mate_in - 1, "pattern {}", pattern.id);
            let replied = play(&after, &[reply]);
            let mates = solver
                .solve(&replied, &SolveOptions::mate_in(left))
                .first_moves;
            assert!(mates.contains(&hint), "pattern {}: {hint}", pattern.id);
            // The mating move itself finishes the practice.
            let mated = play(&start, &line);
            assert_eq!(defend(&mated, 1, no_stop()), Defence::Finished);
            let winning = solver
                .solve(&start, &SolveOptions::mate_in(ex.mate_in))
                .first_moves;
            // A move that does not win (where there is one) is met by an escape.
            let wrong = start
                .legal_moves()
                .iter()
                .copied()
                .find(|m| !winning.contains(m));
            if let Some(wrong) = wrong {
                let after_wrong = play(&start, &[wrong]);
                let Defence::Escapes { defence, .. } = defend(&after_wrong, ex.mate_in, no_stop())
                else {
                    panic!("pattern {}: {wrong} is not refuted", pattern.id);
                };
                let rest = SolveOptions::mate_in(ex.mate_in - 1);
                let escaped = play(&after_wrong, &[defence]);
                assert_eq!(
                    solver.solve(&escaped, &rest).verdict,
                    Verdict::NoMate,
                    "pattern {}",
                    pattern.id
                );
            }
            checked += 1;
        }
        assert!(checked >= 5, "{checked} patterns checked");
    }

    #[test]
    fn every_built_in_puzzles_first_move_is_judged_right() {
        // The judge (every defence solved for the moves left) agrees with the proved
        // solution trees.
        let sets = [
            include_str!("../../../assets/puzzles/wukong.ron"),
            include_str!("../../../assets/puzzles/shiqingyaqu.ron"),
        ]
        .map(|text| PuzzleSet::from_ron(text).unwrap());
        let patterns = crate::puzzle::pattern_set().unwrap();
        for p in sets.iter().chain([&patterns]).flat_map(|s| &s.puzzles) {
            let opts = p.goal.solve_options().unwrap();
            let judgement = judge(
                &p.position,
                &[p.position.hash()],
                p.solution[0].mv,
                opts.max_moves,
                opts,
                no_stop(),
            );
            let ok = match judgement {
                Judgement::Mates => opts.max_moves == 1,
                Judgement::Right { moves_left, .. } => moves_left == opts.max_moves - 1,
                _ => false,
            };
            assert!(ok, "{}: {judgement:?}", p.id);
        }
    }
}

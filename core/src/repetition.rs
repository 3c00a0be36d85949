//! 棋例, the repetition rules (第24–29条): what a move does — check (将), chase (捉), mate
//! threat (杀) or idle (闲) — and how a cycle of repeated positions is judged from what each
//! side did in it.
//!
//! A side that checks with every move of the cycle (长将) loses, unless the other side does
//! too. A side whose every move attacks — checks, mate threats, chases — plays forbidden
//! moves (禁止着法: 长杀, 长捉, 一将一杀, 一将一捉, 一杀一捉); one with an idle move among them
//! plays allowed moves (允许着法). Forbidden against allowed loses; both the same is a draw.
//!
//! What counts as a chase (28.3, 29):
//! - after the move, the mover (if it moved again) could legally capture an enemy piece of
//!   value (25.3: not the general, not a pawn that has not crossed the river);
//! - the capturer is not the general (27.1) nor a pawn (27.2: a pawn's own chases are idle,
//!   unless both sides attack perpetually);
//! - the target is unprotected: the opponent would have no legal recapture on its point, so
//!   a defender that is pinned, a general that may not recapture, or a cannon whose screen
//!   was the capturer are false roots (假根, 28.16) — or the capturer is worth less than the
//!   target (rook > horse = cannon > advisor = elephant; a crossed pawn's value floats, so
//!   no gain is counted on it), which wins material through the exchange (29.1);
//! - the target cannot take the capturer at once: that is an offer of exchange (兑) or a
//!   piece offered (献), both idle (28.5, 28.6);
//! - the capture would not let the opponent mate at once (29.4);
//! - the chase is new: the same piece did not already threaten the same target before the
//!   move (29.2), counting a threat that a check only held up as already there.
//!
//! A side chases perpetually (长捉) only if one and the same enemy piece, or several, is
//! chased by each of its chasing moves: "连续捉一子或数子" (28.12) read as a continuing chase
//! of the same pieces. A rook fleeing a chase that threatens a different piece at each stop
//! is not chasing perpetually; the reference cases (Fairy-Stockfish, after the Asian rule
//! book) rule the same.
//!
//! Not applied: 27.3 (a move occupying a key defensive point that makes a simple draw, whose
//! chase of an advisor or elephant counts as idle) needs a judgement of the whole position;
//! gains through longer exchange sequences than one capture and recapture (29.1) are not
//! searched.

use crate::game::{EndReason, Outcome};
use crate::{Color, IllegalMove, Move, MoveList, Piece, PieceKind, Position, Square};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How many checking moves the mate-threat search (杀, 28.2) looks ahead: a move threatens
/// mate if, were the mover to move again, it could mate with this many checks or fewer.
pub const MATE_THREAT_CHECKS: u8 = 3;

/// What a move does, by the heaviest of its effects (27.4: 杀兼捉按捉, 捉兼兑按捉).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveClass {
    /// 将: the move attacks the enemy general.
    Check,
    /// 捉: the move creates a threat to win an enemy piece of value (see the module notes).
    Chase {
        /// Where the chased pieces stand, after the move, in point order.
        targets: Vec<Square>,
    },
    /// 杀: the move threatens to mate at once or by consecutive checks (up to
    /// [`MATE_THREAT_CHECKS`] of them), a threat that was not there before it.
    MateThreat,
    /// A chase by a pawn itself (兵(卒)本身捉吃): idle (27.2), but counted as a chase when the
    /// other side attacks with every move of the cycle too (相互长打).
    PawnChase {
        /// Where the chased pieces stand, after the move, in point order.
        targets: Vec<Square>,
    },
    /// 闲: none of the above (including 兑 offering an exchange, 献 offering a piece, 拦
    /// blocking and 跟 following, 28.9).
    Idle,
}

impl MoveClass {
    /// What the legal move `m` does in `pos`.
    ///
    /// ```
    /// use chuhe_core::{MoveClass, Position};
    /// // The rook steps beside the lone horse, which nothing protects.
    /// let pos: Position = "3k5/9/9/9/9/4n4/9/9/R8/4K4 w - - 0 1".parse().unwrap();
    /// let class = MoveClass::of(&pos, "a1a4".parse().unwrap()).unwrap();
    /// assert_eq!(class, MoveClass::Chase { targets: vec!["e4".parse().unwrap()] });
    /// ```
    pub fn of(pos: &Position, m: Move) -> Result<MoveClass, IllegalMove> {
        let after = pos.play(m)?;
        Ok(Effects::of(pos, m, &after).class())
    }

    /// Whether the move is an attack (打, 28.4): a check, a mate threat or a chase.
    pub fn is_attack(&self) -> bool {
        matches!(
            self,
            MoveClass::Check | MoveClass::MateThreat | MoveClass::Chase { .. }
        )
    }
}

/// What one side's moves over a repeated cycle amount to. (Serde: the knowledge
/// reference's 棋例 examples state it in RON.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Conduct {
    /// 长将: every move was a check.
    PerpetualCheck,
    /// 禁止着法: every move attacked, not only with checks.
    Forbidden(ForbiddenKind),
    /// 允许着法: at least one move was idle (数将一闲, 数捉一闲 … are allowed).
    Allowed,
}

/// The kinds of forbidden move sequence (25.2), by which attacks make them up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ForbiddenKind {
    /// 长杀: a mate threat with every move.
    PerpetualMateThreat,
    /// 长捉: a chase of the same piece (or pieces) with every move.
    PerpetualChase,
    /// 一将一杀: checks and mate threats.
    CheckAndMateThreat,
    /// 一将一捉: checks and chases.
    CheckAndChase,
    /// 一杀一捉: mate threats and chases.
    MateThreatAndChase,
    /// 将、杀、捉 all three in turn.
    CheckMateThreatAndChase,
}

impl ForbiddenKind {
    /// The kind made up of these attacks; `None` if there are only checks (that is
    /// [`Conduct::PerpetualCheck`]) or none.
    fn from_attacks(check: bool, mate_threat: bool, chase: bool) -> Option<ForbiddenKind> {
        use ForbiddenKind::*;
        Some(match (check, mate_threat, chase) {
            (false, true, false) => PerpetualMateThreat,
            (false, false, true) => PerpetualChase,
            (true, true, false) => CheckAndMateThreat,
            (true, false, true) => CheckAndChase,
            (false, true, true) => MateThreatAndChase,
            (true, true, true) => CheckMateThreatAndChase,
            (_, false, false) => return None,
        })
    }
}

impl fmt::Display for ForbiddenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ForbiddenKind::PerpetualMateThreat => "perpetual mate threat",
            ForbiddenKind::PerpetualChase => "perpetual chase",
            ForbiddenKind::CheckAndMateThreat => "checks and mate threats",
            ForbiddenKind::CheckAndChase => "checks and chases",
            ForbiddenKind::MateThreatAndChase => "mate threats and chases",
            ForbiddenKind::CheckMateThreatAndChase => "checks, mate threats and chases",
        })
    }
}

/// The 棋例 judgement of a cycle of moves that leads back to the position it started from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepetitionJudgement {
    /// What each move of the cycle did, in order.
    pub classes: Vec<MoveClass>,
    /// What Red's and Black's moves amounted to, by [`Color::index`].
    conduct: [Conduct; 2],
    /// The result: a loss for 长将 or a forbidden side against an allowed one, else a draw.
    pub outcome: Outcome,
}

impl RepetitionJudgement {
    /// Judges the cycle of `moves` played from `start`. The moves should lead back to
    /// `start` (as [`crate::Game::judge_repetition`] ensures); the judgement only looks at
    /// what the moves do.
    ///
    /// ```
    /// use chuhe_core::{Color, EndReason, Move, Position, RepetitionJudgement};
    /// // Red's rook checks along whichever rank Black's general steps to.
    /// let start: Position = "4k4/8R/9/9/9/9/9/9/9/3K5 w - - 0 1".parse().unwrap();
    /// let moves: Vec<Move> = ["i8i9", "e9e8", "i9i8", "e8e9"]
    ///     .iter().map(|m| m.parse().unwrap()).collect();
    /// let judgement = RepetitionJudgement::judge(&start, &moves).unwrap();
    /// assert_eq!(judgement.outcome.reason, EndReason::PerpetualCheck);
    /// assert_eq!(judgement.outcome.winner, Some(Color::Black));
    /// ```
    pub fn judge(start: &Position, moves: &[Move]) -> Result<RepetitionJudgement, IllegalMove> {
        let mut positions = Vec::with_capacity(moves.len() + 1);
        positions.push(start.clone());
        for &m in moves {
            let next = positions[positions.len() - 1].play(m)?;
            positions.push(next);
        }
        Ok(RepetitionJudgement::judge_history(&positions, moves))
    }

    /// Judges `moves`, where `positions[i + 1]` is `positions[i]` after `moves[i]`.
    pub(crate) fn judge_history(positions: &[Position], moves: &[Move]) -> RepetitionJudgement {
        debug_assert_eq!(positions.len(), moves.len() + 1);
        // Pieces are known by the point they stood on when the cycle began, so a chase of
        // one piece is seen as the same chase wherever that piece has moved to. No capture
        // happens inside a cycle: the material at its ends is the same.
        let mut identity: [Option<u8>; 90] = [None; 90];
        for sq in Square::ALL {
            if positions[0].piece_at(sq).is_some() {
                identity[sq.index() as usize] = Some(sq.index());
            }
        }
        let mut classes = Vec::with_capacity(moves.len());
        let mut sides: [Vec<TrackedEffects>; 2] = [Vec::new(), Vec::new()];
        for (i, &m) in moves.iter().enumerate() {
            let (from, to) = (m.from.index() as usize, m.to.index() as usize);
            identity[to] = identity[from].take();
            let effects = Effects::of(&positions[i], m, &positions[i + 1]);
            classes.push(effects.class());
            let ids = |targets: &[Square]| -> Vec<u8> {
                targets
                    .iter()
                    .filter_map(|t| identity[t.index() as usize])
                    .collect()
            };
            let tracked = TrackedEffects {
                chased: ids(&effects.chased),
                pawn_chased: ids(&effects.pawn_chased),
                effects,
            };
            sides[positions[i].side_to_move().index()].push(tracked);
        }
        let conduct = both_conducts(&sides);
        let outcome = verdict(conduct);
        RepetitionJudgement {
            classes,
            conduct,
            outcome,
        }
    }

    /// What `color`'s moves in the cycle amounted to.
    pub fn conduct(&self, color: Color) -> Conduct {
        self.conduct[color.index()]
    }
}

/// What Red's and Black's moves of a cycle amount to, by [`Color::index`].
fn both_conducts(sides: &[Vec<TrackedEffects>; 2]) -> [Conduct; 2] {
    let mut conduct = [0, 1].map(|i| side_conduct(&sides[i], false));
    // 27.2: a pawn's own chases count when the other side attacks perpetually (相互长打).
    for (us, them) in [(0, 1), (1, 0)] {
        if conduct[us] == Conduct::Allowed && matches!(conduct[them], Conduct::Forbidden(_)) {
            conduct[us] = side_conduct(&sides[us], true);
        }
    }
    conduct
}

/// The result of a cycle from both sides' conduct (第24条, 第26条).
fn verdict(conduct: [Conduct; 2]) -> Outcome {
    use Conduct::*;
    let [red, black] = conduct;
    match (red, black) {
        (PerpetualCheck, PerpetualCheck) => Outcome::draw(EndReason::RepetitionDraw),
        (PerpetualCheck, _) => Outcome::loss(Color::Red, EndReason::PerpetualCheck),
        (_, PerpetualCheck) => Outcome::loss(Color::Black, EndReason::PerpetualCheck),
        (Forbidden(kind), Allowed) => {
            Outcome::loss(Color::Red, EndReason::ForbiddenRepetition { kind })
        }
        (Allowed, Forbidden(kind)) => {
            Outcome::loss(Color::Black, EndReason::ForbiddenRepetition { kind })
        }
        _ => Outcome::draw(EndReason::RepetitionDraw),
    }
}

/// One move's effects with the chased pieces named by their identity in the cycle.
struct TrackedEffects {
    effects: Effects,
    chased: Vec<u8>,
    pawn_chased: Vec<u8>,
}

impl TrackedEffects {
    fn targets(&self, pawn_chases_count: bool) -> impl Iterator<Item = u8> + '_ {
        let pawns: &[u8] = if pawn_chases_count {
            &self.pawn_chased
        } else {
            &[]
        };
        self.chased.iter().chain(pawns).copied()
    }
}

/// What one side's moves of a cycle amount to.
///
/// Every move must attack for the side to be forbidden. A chasing move counts as an attack
/// only if it chases a piece that every chasing move (that is neither a check nor a mate
/// threat) chases: 长捉 is of the same piece or pieces. 27.4 decides what a move that both
/// threatens mate and chases one of those pieces is: a chase.
fn side_conduct(moves: &[TrackedEffects], pawn_chases_count: bool) -> Conduct {
    if !moves.is_empty() && moves.iter().all(|m| m.effects.check) {
        return Conduct::PerpetualCheck;
    }
    let not_checks = || moves.iter().filter(|m| !m.effects.check);
    let only_chases: Vec<&TrackedEffects> = not_checks()
        .filter(|m| !m.effects.mate_threat && m.targets(pawn_chases_count).next().is_some())
        .collect();
    // The pieces chased throughout; when every non-check is a mate threat, those its
    // threats chase throughout (which only decides how the moves are named).
    let basis: Vec<&TrackedEffects> = if only_chases.is_empty() {
        not_checks()
            .filter(|m| m.targets(pawn_chases_count).next().is_some())
            .collect()
    } else {
        only_chases
    };
    let common: Vec<u8> = match basis.split_first() {
        Some((first, rest)) => first
            .targets(pawn_chases_count)
            .filter(|&id| {
                rest.iter()
                    .all(|m| m.targets(pawn_chases_count).any(|t| t == id))
            })
            .collect(),
        None => Vec::new(),
    };
    let (mut check, mut mate_threat, mut chase) = (false, false, false);
    for m in moves {
        if m.effects.check {
            check = true;
        } else if m.targets(pawn_chases_count).any(|t| common.contains(&t)) {
            chase = true;
        } else if m.effects.mate_threat {
            mate_threat = true;
        } else {
            return Conduct::Allowed;
        }
    }
    ForbiddenKind::from_attacks(check, mate_threat, chase)
        .map_or(Conduct::Allowed, Conduct::Forbidden)
}

/// Everything a move does that the 棋例 ask about.
struct Effects {
    /// 将.
    check: bool,
    /// 杀, a new one.
    mate_threat: bool,
    /// Where the pieces it newly chases stand (capturers other than pawns).
    chased: Vec<Square>,
    /// Where the pieces it newly chases with pawns stand.
    pawn_chased: Vec<Square>,
}

impl Effects {
    /// The effects of `m`, played in `before` to reach `after`.
    fn of(before: &Position, m: Move, after: &Position) -> Effects {
        if after.is_check() {
            // A check outweighs whatever else the move does (27.4).
            return Effects {
                check: true,
                mate_threat: false,
                chased: Vec::new(),
                pawn_chased: Vec::new(),
            };
        }
        // "If the mover could move again": the same board with the mover to move.
        let again = after.with_side_swapped();
        let old: Vec<Capture> = before
            .chase_captures()
            .into_iter()
            .filter(|c| c.target != m.to)
            .map(|c| Capture {
                attacker: if c.attacker == m.from {
                    m.to
                } else {
                    c.attacker
                },
                ..c
            })
            .collect();
        let mut chased = Vec::new();
        let mut pawn_chased = Vec::new();
        for c in again.chase_captures() {
            if old.contains(&c) {
                continue;
            }
            let list = if c.by_pawn {
                &mut pawn_chased
            } else {
                &mut chased
            };
            if !list.contains(&c.target) {
                list.push(c.target);
            }
        }
        chased.sort();
        pawn_chased.sort();
        let mate_threat = again.clone().mates_by_checks(MATE_THREAT_CHECKS)
            && !before.clone().mates_by_checks(MATE_THREAT_CHECKS);
        Effects {
            check: false,
            mate_threat,
            chased,
            pawn_chased,
        }
    }

    /// The heaviest effect (27.4).
    fn class(&self) -> MoveClass {
        if self.check {
            MoveClass::Check
        } else if !self.chased.is_empty() {
            MoveClass::Chase {
                targets: self.chased.clone(),
            }
        } else if self.mate_threat {
            MoveClass::MateThreat
        } else if !self.pawn_chased.is_empty() {
            MoveClass::PawnChase {
                targets: self.pawn_chased.clone(),
            }
        } else {
            MoveClass::Idle
        }
    }
}

/// A capture the side to move threatens that would count as a chase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Capture {
    attacker: Square,
    target: Square,
    by_pawn: bool,
}

/// The rank of a piece's value for deciding whether a capture wins material (25.3): rook
/// above horse and cannon, above advisor and elephant. `None` where no gain is counted:
/// the general, and pawns (worth nothing before the river, a floating value after it).
fn value_rank(kind: PieceKind) -> Option<u8> {
    match kind {
        PieceKind::Rook => Some(3),
        PieceKind::Horse | PieceKind::Cannon => Some(2),
        PieceKind::Advisor | PieceKind::Elephant => Some(1),
        PieceKind::General | PieceKind::Pawn => None,
    }
}

/// Whether `piece` on `square` counts as a piece of value (子力, 25.3): everything but the
/// general and a pawn that has not crossed the river.
fn has_value(piece: Piece, square: Square) -> bool {
    match piece.kind {
        PieceKind::General => false,
        PieceKind::Pawn => !square.rank().is_own_half(piece.color),
        _ => true,
    }
}

impl Position {
    /// The captures the side to move could make that chase (module notes), without the
    /// newness test, which needs the position before the move.
    ///
    /// When the side to move is in check, a capture that leaves only that check standing
    /// counts too: the threat was there and the check merely held it up, so answering the
    /// check does not make it a new chase (29.2).
    fn chase_captures(&self) -> Vec<Capture> {
        let us = self.side;
        let checkers = self.checkers_of(us);
        // The same board with the opponent to move: can the target strike back at once?
        let reply = self.with_side_swapped();
        let mut candidates = MoveList::new();
        self.pseudo_legal_moves(&mut candidates);
        let mut found = Vec::new();
        for &m in candidates.iter() {
            let (Some(attacker), Some(target)) = (self.piece_at(m.from), self.piece_at(m.to))
            else {
                continue;
            };
            if attacker.kind == PieceKind::General || !has_value(target, m.to) {
                continue;
            }
            if reply.is_legal(Move::new(m.to, m.from)) {
                continue;
            }
            let mut taken = self.clone();
            taken.play_unchecked(m);
            let still_checking = taken.checkers_of(us);
            if still_checking.iter().any(|s| !checkers.contains(s)) {
                continue;
            }
            let wins_by_value = matches!(
                (value_rank(attacker.kind), value_rank(target.kind)),
                (Some(a), Some(t)) if a < t
            );
            let wins = wins_by_value || !taken.legal_moves().iter().any(|r| r.to == m.to);
            // 29.4 asks about a capture actually made, so only where it is legal.
            let mated = still_checking.is_empty() && taken.mates_by_checks(1);
            if wins && !mated {
                found.push(Capture {
                    attacker: m.from,
                    target: m.to,
                    by_pawn: attacker.kind == PieceKind::Pawn,
                });
            }
        }
        found
    }

    /// Whether the side to move mates with at most `checks` moves, each of them a check,
    /// whatever the opponent replies. The position is restored before returning.
    fn mates_by_checks(&mut self, checks: u8) -> bool {
        if checks == 0 {
            return false;
        }
        for &m in self.legal_moves().iter() {
            let undo = self.play_unchecked(m);
            let mated = self.is_check() && {
                let replies = self.legal_moves();
                replies.iter().all(|&r| {
                    let reply_undo = self.play_unchecked(r);
                    let still = self.mates_by_checks(checks - 1);
                    self.unplay(r, reply_undo);
                    still
                })
            };
            self.unplay(m, undo);
            if mated {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(fen: &str, m: &str) -> MoveClass {
        let pos: Position = fen.parse().unwrap();
        MoveClass::of(&pos, m.parse().unwrap()).unwrap()
    }

    fn chase(targets: &[&str]) -> MoveClass {
        MoveClass::Chase {
            targets: targets.iter().map(|t| t.parse().unwrap()).collect(),
        }
    }

    #[test]
    fn a_check_outweighs_a_chase() {
        // i1i9 checks along rank 9 and would also reach the horse on a9 after the general.
        assert_eq!(
            class("n3k4/9/9/9/9/9/9/9/8R/3K5 w - - 0 1", "i1i9"),
            MoveClass::Check
        );
    }

    #[test]
    fn a_protected_piece_is_not_chased_by_a_stronger_one() {
        let unprotected = "3k5/9/9/9/9/4n4/9/9/R8/4K4 w - - 0 1";
        assert_eq!(class(unprotected, "a1a4"), chase(&["e4"]));
        // Black's rook on e8 would take back on e4.
        let protected = "3k5/4r4/9/9/9/4n4/9/9/R8/4K4 w - - 0 1";
        assert_eq!(class(protected, "a1a4"), MoveClass::Idle);
    }

    #[test]
    fn a_weaker_piece_chases_a_protected_rook() {
        // The horse takes the rook on b5 and loses itself to the rook on b9: a gain (29.1).
        assert_eq!(
            class("1r2k4/9/9/9/1r7/9/9/4N4/9/3K5 w - - 0 1", "e2d4"),
            chase(&["b5"])
        );
    }

    #[test]
    fn offering_an_exchange_is_idle() {
        // 兑: the rook on a5 may take Red's rook first.
        assert_eq!(
            class("4k4/9/9/9/r8/9/9/9/9/1R1K5 w - - 0 1", "b0b5"),
            MoveClass::Idle
        );
    }

    #[test]
    fn the_generals_own_chase_is_idle() {
        // 27.1: the general attacks the lone horse on e1.
        assert_eq!(
            class("5k3/9/9/9/9/9/9/9/4n4/3K5 w - - 0 1", "d0d1"),
            MoveClass::Idle
        );
    }

    #[test]
    fn a_pawns_own_chase_is_a_pawn_chase() {
        // 27.2: the crossed pawn steps beside the horse.
        assert_eq!(
            class("4k4/9/9/9/n1P6/9/9/9/9/3K5 w - - 0 1", "c5b5"),
            MoveClass::PawnChase {
                targets: vec!["a5".parse().unwrap()]
            }
        );
    }

    #[test]
    fn only_pawns_across_the_river_are_pieces_of_value() {
        assert_eq!(
            class("4k4/9/9/p8/9/9/9/9/9/3K4R w - - 0 1", "i0i6"),
            MoveClass::Idle
        );
        assert_eq!(
            class("4k4/9/9/9/9/p8/9/9/9/3K4R w - - 0 1", "i0i4"),
            chase(&["a4"])
        );
    }

    #[test]
    fn an_attack_that_was_already_there_is_no_new_chase() {
        // 29.2: the rook attacked the cannon on a5 from a0 already.
        assert_eq!(
            class("4k4/9/9/9/c8/9/9/9/9/R2K5 w - - 0 1", "a0a1"),
            MoveClass::Idle
        );
    }

    #[test]
    fn a_capture_that_allows_mate_at_once_is_no_chase() {
        // 29.4: after Rxa6 Black mates with Rd8 (d1 stays on the file, e0 faces Black's
        // general, and the pawn on c6 keeps the rook off the d file).
        assert_eq!(
            class("4k4/8r/9/n1p6/9/9/9/9/2R6/3K5 w - - 0 1", "c1a1"),
            MoveClass::Idle
        );
        assert_eq!(
            class("4k4/9/9/n1p6/9/9/9/9/2R6/3K5 w - - 0 1", "c1a1"),
            chase(&["a6"])
        );
    }

    #[test]
    fn a_threat_of_mate_by_checks_is_a_mate_threat() {
        // From i9 the rook threatens Rf9 mate (the horse cannot cover f8).
        assert_eq!(
            class("9/9/5k3/5n3/7c1/9/8R/9/9/4K4 w - - 0 1", "i3i9"),
            MoveClass::MateThreat
        );
    }

    /// A move's effects with the chased pieces given by identity.
    fn effects(
        check: bool,
        mate_threat: bool,
        chased: &[u8],
        pawn_chased: &[u8],
    ) -> TrackedEffects {
        TrackedEffects {
            effects: Effects {
                check,
                mate_threat,
                chased: Vec::new(),
                pawn_chased: Vec::new(),
            },
            chased: chased.to_vec(),
            pawn_chased: pawn_chased.to_vec(),
        }
    }

    fn check() -> TrackedEffects {
        effects(true, false, &[], &[])
    }

    fn idle() -> TrackedEffects {
        effects(false, false, &[], &[])
    }

    fn chases(ids: &[u8]) -> TrackedEffects {
        effects(false, false, ids, &[])
    }

    fn threat(ids: &[u8]) -> TrackedEffects {
        effects(false, true, ids, &[])
    }

    #[test]
    fn checks_alone_are_perpetual_check_and_one_idle_move_allows() {
        assert_eq!(
            side_conduct(&[check(), check()], false),
            Conduct::PerpetualCheck
        );
        assert_eq!(side_conduct(&[check(), idle()], false), Conduct::Allowed);
    }

    #[test]
    fn perpetual_chase_is_of_the_same_piece() {
        use ForbiddenKind::*;
        assert_eq!(
            side_conduct(&[chases(&[3]), chases(&[3, 8])], false),
            Conduct::Forbidden(PerpetualChase)
        );
        assert_eq!(
            side_conduct(&[chases(&[3]), chases(&[8])], false),
            Conduct::Allowed
        );
    }

    #[test]
    fn mixed_attacks_are_forbidden() {
        use ForbiddenKind::*;
        assert_eq!(
            side_conduct(&[check(), chases(&[3])], false),
            Conduct::Forbidden(CheckAndChase)
        );
        assert_eq!(
            side_conduct(&[check(), threat(&[])], false),
            Conduct::Forbidden(CheckAndMateThreat)
        );
        assert_eq!(
            side_conduct(&[threat(&[]), chases(&[3])], false),
            Conduct::Forbidden(MateThreatAndChase)
        );
        assert_eq!(
            side_conduct(&[check(), threat(&[]), chases(&[3])], false),
            Conduct::Forbidden(CheckMateThreatAndChase)
        );
    }

    #[test]
    fn a_mate_threat_that_chases_is_named_a_chase() {
        use ForbiddenKind::*;
        // 27.4 杀兼捉按捉; threats chasing different pieces stay threats.
        assert_eq!(
            side_conduct(&[threat(&[3]), threat(&[3])], false),
            Conduct::Forbidden(PerpetualChase)
        );
        assert_eq!(
            side_conduct(&[threat(&[3]), threat(&[8])], false),
            Conduct::Forbidden(PerpetualMateThreat)
        );
    }

    #[test]
    fn pawn_chases_count_against_perpetual_attacks() {
        let pawn = |ids: &[u8]| effects(false, false, &[], ids);
        let red = vec![chases(&[40]), chases(&[40])];
        // 27.2: Black's pawn chases the same piece each move while Red chases perpetually.
        let mutual = both_conducts(&[red, vec![pawn(&[5]), pawn(&[5])]]);
        assert_eq!(
            mutual,
            [Conduct::Forbidden(ForbiddenKind::PerpetualChase); 2]
        );
        assert_eq!(verdict(mutual).winner, None);
        // Against allowed moves the pawn's chases are idle.
        let alone = both_conducts(&[vec![idle(), chases(&[40])], vec![pawn(&[5]), pawn(&[5])]]);
        assert_eq!(alone, [Conduct::Allowed; 2]);
    }

    #[test]
    fn perpetual_check_loses_even_against_a_chase() {
        let outcome = verdict([
            Conduct::PerpetualCheck,
            Conduct::Forbidden(ForbiddenKind::PerpetualChase),
        ]);
        assert_eq!(outcome.winner, Some(Color::Black));
        assert_eq!(outcome.reason, EndReason::PerpetualCheck);
    }
}

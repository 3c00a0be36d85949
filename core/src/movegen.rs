//! Legal move generation.
//!
//! Moves are generated pseudo-legally from the step tables, then filtered. Most moves
//! cannot expose the own general, so the filter only plays out the few that might: moves
//! of the general, moves from a point that shields the general (a rook or flying-general
//! pin, one of a cannon's two screens, a horse's leg), moves onto the empty line between
//! the general and an enemy cannon (that would give the cannon its screen), and every
//! move when in check. This keeps perft fast without giving up exactness.

use crate::position::{BitIter, bit, code, general_attacked};
use crate::tables::{
    ADVISOR_MOVES, ELEPHANT_MOVES, GENERAL_MOVES, HORSE_ATTACKERS, HORSE_MOVES, PAWN_ATTACKERS,
    PAWN_MOVES, RAY_MASKS, RAYS, is_vertical, nearest,
};
use crate::{Color, Move, MoveList, PieceKind, Position, Square};
use std::fmt;

impl Position {
    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Fills `list` with every legal move of the side to move (clearing it first).
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        self.legal_moves_by_piece::<false>(list);
    }

    /// Fills `list` (cleared first) with the legal moves of the side to move a piece at a
    /// time, stopping after the first piece that has any when `FIRST_PIECE_ONLY`.
    #[inline]
    fn legal_moves_by_piece<const FIRST_PIECE_ONLY: bool>(&self, list: &mut MoveList) {
        list.clear();
        let us = self.side;
        let them = !us;
        let k = self.generals[us.index()];
        let mut scratch = self.cells;
        let occ = self.occupied[0] | self.occupied[1];
        // In check every move is played out; else those of the general and of a piece
        // that may shield it, and those onto a point that may open a line to it.
        let (from_mask, to_mask) = match self.shield_masks(k, them) {
            Some((from_mask, to_mask)) => (from_mask | bit(k), to_mask),
            None => (u128::MAX, 0),
        };
        for from in BitIter(self.occupied[us.index()]) {
            let start = list.len();
            self.piece_moves(from, list);
            if from_mask & bit(from) != 0 {
                retain_safe(list, start, &mut scratch, occ, k, them, u128::MAX);
            } else if FIRST_PIECE_ONLY && to_mask != 0 {
                retain_safe(list, start, &mut scratch, occ, k, them, to_mask);
            }
            if FIRST_PIECE_ONLY && !list.is_empty() {
                return;
            }
        }
        // The moves onto the open lines in one pass, when they were not tested above.
        if !FIRST_PIECE_ONLY && to_mask != 0 {
            retain_safe(list, 0, &mut scratch, occ, k, them, to_mask);
        }
    }

    /// Fills `list` (cleared first) with the legal moves of the first piece of the side to
    /// move that has any: empty exactly when the side has no legal move.
    pub fn some_legal_moves_into(&self, list: &mut MoveList) {
        self.legal_moves_by_piece::<true>(list);
    }

    /// Every legal move of the piece on `from` (empty if there is none of the side to move).
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut list = self.legal_moves();
        let mut keep = 0;
        for i in 0..list.len() {
            if list[i].from == from {
                list.set(keep, list[i]);
                keep += 1;
            }
        }
        list.truncate(keep);
        list
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// Whether the side to move has any legal move, found without generating them all
    /// (the search asks at every node where a move-limit claim depends on it).
    pub fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.legal_moves_by_piece::<true>(&mut list);
        !list.is_empty()
    }

    /// [`Position::has_legal_move`] for a side to move that is not in check (the caller
    /// knows it: the search does), answered first by a quick test that settles almost
    /// every position without looking for pins: out of check, a piece off the general's
    /// rank, file and horse-leg points, moving to a point off its rank and file, can
    /// neither open a line to the general (rook, cannon, flying general), nor unblock a
    /// horse's leg, nor give a cannon its screen, so its move is legal.
    pub fn has_legal_move_out_of_check(&self) -> bool {
        let k = self.generals[self.side.index()];
        let lines = RAY_MASKS[k as usize]
            .iter()
            .fold(0u128, |acc, &ray| acc | ray);
        let h = &HORSE_ATTACKERS[k as usize];
        let legs = (0..h.len as usize).fold(0u128, |acc, i| acc | bit(h.via[i]));
        let mut list = MoveList::new();
        for from in BitIter(self.occupied[self.side.index()] & !(lines | legs | bit(k))) {
            list.clear();
            self.piece_moves(from, &mut list);
            if list.iter().any(|m| lines & bit(m.to.index()) == 0) {
                return true;
            }
        }
        self.has_legal_move()
    }

    /// The pseudo-legal moves: every move by the rules of movement (blocked legs, eyes,
    /// screens, palace and river respected), ignoring the safety of the own general.
    pub(crate) fn pseudo_legal_moves(&self, list: &mut MoveList) {
        for from in BitIter(self.occupied[self.side.index()]) {
            self.piece_moves(from, list);
        }
    }

    /// Appends the pseudo-legal moves of the piece of the side to move on point `from`.
    #[inline]
    fn piece_moves(&self, from: u8, list: &mut MoveList) {
        let c = self.side.index();
        let cells = &self.cells;
        let own = self.occupied[c];
        let f = from as usize;
        let kind = cells[f] - 1 - 7 * c as u8;
        let sq = Square::from_index_unchecked(from);
        match kind {
            // General, advisor, pawn: fixed steps, blocked only by own pieces.
            0 => push_steps(
                list,
                sq,
                &GENERAL_MOVES[c][f].to[..GENERAL_MOVES[c][f].len as usize],
                own,
            ),
            1 => push_steps(
                list,
                sq,
                &ADVISOR_MOVES[c][f].to[..ADVISOR_MOVES[c][f].len as usize],
                own,
            ),
            6 => push_steps(
                list,
                sq,
                &PAWN_MOVES[c][f].to[..PAWN_MOVES[c][f].len as usize],
                own,
            ),
            2 => {
                let st = &ELEPHANT_MOVES[c][f];
                for k in 0..st.len as usize {
                    let to = st.to[k];
                    if cells[st.via[k] as usize] == 0 && own & bit(to) == 0 {
                        list.push(Move::new(sq, Square::from_index_unchecked(to)));
                    }
                }
            }
            3 => {
                let st = &HORSE_MOVES[f];
                for k in 0..st.len as usize {
                    let to = st.to[k];
                    if cells[st.via[k] as usize] == 0 && own & bit(to) == 0 {
                        list.push(Move::new(sq, Square::from_index_unchecked(to)));
                    }
                }
            }
            4 => {
                for ray in &RAYS[f] {
                    for &to in &ray.sq[..ray.len as usize] {
                        if cells[to as usize] == 0 {
                            list.push(Move::new(sq, Square::from_index_unchecked(to)));
                        } else {
                            if own & bit(to) == 0 {
                                list.push(Move::new(sq, Square::from_index_unchecked(to)));
                            }
                            break;
                        }
                    }
                }
            }
            _ => {
                for ray in &RAYS[f] {
                    let squares = &ray.sq[..ray.len as usize];
                    let mut i = 0;
                    while i < squares.len() && cells[squares[i] as usize] == 0 {
                        list.push(Move::new(sq, Square::from_index_unchecked(squares[i])));
                        i += 1;
                    }
                    // Jump the screen to the next piece: a capture if it is an enemy.
                    i += 1;
                    while i < squares.len() {
                        let to = squares[i];
                        if cells[to as usize] != 0 {
                            if own & bit(to) == 0 {
                                list.push(Move::new(sq, Square::from_index_unchecked(to)));
                            }
                            break;
                        }
                        i += 1;
                    }
                }
            }
        }
    }

    /// For the side to move with its general on `k`: `None` if it is in check; otherwise
    /// the points whose piece may be shielding the general (moving it may expose a check),
    /// and the empty points between the general and an enemy cannon with no screen (moving
    /// there gives the cannon its screen). One scan answers both questions.
    ///
    /// The first three pieces on each line from the general are found with bit scans.
    pub(crate) fn shield_masks(&self, k: u8, them: Color) -> Option<(u128, u128)> {
        let cells = &self.cells;
        let occ = self.occupied[0] | self.occupied[1];
        let rook = code(them, PieceKind::Rook);
        let cannon = code(them, PieceKind::Cannon);
        let general = code(them, PieceKind::General);
        let (mut from_mask, mut to_mask) = (0u128, 0u128);
        for (d, &ray) in RAY_MASKS[k as usize].iter().enumerate() {
            let blockers = ray & occ;
            if blockers == 0 {
                continue;
            }
            let s1 = nearest(blockers, d);
            let p1 = cells[s1];
            if p1 == rook || (p1 == general && is_vertical(d)) {
                return None;
            }
            let beyond1 = RAY_MASKS[s1][d];
            if p1 == cannon {
                // The empty points between the general and the cannon.
                to_mask |= ray ^ beyond1 ^ bit(s1 as u8);
            }
            let behind1 = beyond1 & occ;
            if behind1 == 0 {
                continue;
            }
            let s2 = nearest(behind1, d);
            let p2 = cells[s2];
            if p2 == cannon {
                return None;
            }
            if p2 == rook || (p2 == general && is_vertical(d)) {
                from_mask |= bit(s1 as u8);
            }
            let behind2 = RAY_MASKS[s2][d] & occ;
            if behind2 != 0 && cells[nearest(behind2, d)] == cannon {
                from_mask |= bit(s1 as u8) | bit(s2 as u8);
            }
        }
        let horse = code(them, PieceKind::Horse);
        let h = &HORSE_ATTACKERS[k as usize];
        for i in 0..h.len as usize {
            if cells[h.to[i] as usize] == horse {
                if cells[h.via[i] as usize] == 0 {
                    return None;
                }
                from_mask |= bit(h.via[i]);
            }
        }
        let pawn = code(them, PieceKind::Pawn);
        let pw = &PAWN_ATTACKERS[them.index()][k as usize];
        for i in 0..pw.len as usize {
            if cells[pw.to[i] as usize] == pawn {
                return None;
            }
        }
        Some((from_mask, to_mask))
    }

    /// Explains why `m` is not legal, or `Ok` if it is.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        let fail = |reason| Err(IllegalMove { mv: m, reason });
        let Some(piece) = self.piece_at(m.from) else {
            return fail(IllegalReason::NoPiece);
        };
        if piece.color != self.side {
            return fail(IllegalReason::NotYourPiece);
        }
        if self.piece_at(m.to).is_some_and(|p| p.color == self.side) {
            return fail(IllegalReason::OwnPieceOnTarget);
        }
        if let Some(reason) = self.movement_problem(m, piece.kind) {
            return fail(reason);
        }
        let mut scratch = self.cells;
        let k = self.generals[self.side.index()];
        if !safe_after(
            &mut scratch,
            self.occupied[0] | self.occupied[1],
            m,
            k,
            !self.side,
        ) {
            let mut after = self.clone();
            after.play_unchecked(m);
            let mover_general = after.generals[self.side.index()];
            let facing =
                crate::position::attackers_of_general(&after.cells, mover_general, !self.side)
                    .any(|s| s == after.generals[(!self.side).index()]);
            return fail(if facing {
                IllegalReason::GeneralsWouldFace
            } else if self.is_check() {
                IllegalReason::StillInCheck
            } else {
                IllegalReason::ExposesGeneral
            });
        }
        Ok(())
    }

    /// Why the piece of `kind` on `m.from` cannot make the step `m` by the rules of
    /// movement, ignoring checks; `None` if it can.
    fn movement_problem(&self, m: Move, kind: PieceKind) -> Option<IllegalReason> {
        let us = self.side;
        let (ff, fr) = (m.from.file().index() as i8, m.from.rank().index() as i8);
        let (tf, tr) = (m.to.file().index() as i8, m.to.rank().index() as i8);
        let (df, dr) = (tf - ff, tr - fr);
        let empty = |f: i8, r: i8| {
            Square::from_coords(f as u8, r as u8).is_some_and(|s| self.piece_at(s).is_none())
        };
        let between = || -> usize {
            let (sf, sr) = (df.signum(), dr.signum());
            let n = df.abs().max(dr.abs());
            (1..n).filter(|&i| !empty(ff + sf * i, fr + sr * i)).count()
        };
        use IllegalReason::*;
        match kind {
            PieceKind::General => {
                if df.abs() + dr.abs() != 1 {
                    Some(WrongShape)
                } else if !m.to.in_palace(us) {
                    Some(LeavesPalace)
                } else {
                    None
                }
            }
            PieceKind::Advisor => {
                if df.abs() != 1 || dr.abs() != 1 {
                    Some(WrongShape)
                } else if !m.to.in_palace(us) || !m.from.in_palace(us) {
                    Some(LeavesPalace)
                } else {
                    None
                }
            }
            PieceKind::Elephant => {
                if df.abs() != 2 || dr.abs() != 2 {
                    Some(WrongShape)
                } else if !m.to.rank().is_own_half(us) || !m.from.rank().is_own_half(us) {
                    Some(CrossesRiver)
                } else if !empty(ff + df / 2, fr + dr / 2) {
                    Some(ElephantEyeBlocked)
                } else {
                    None
                }
            }
            PieceKind::Horse => {
                let shape = (df.abs() == 1 && dr.abs() == 2) || (df.abs() == 2 && dr.abs() == 1);
                if !shape {
                    Some(WrongShape)
                } else {
                    let (lf, lr) = if dr.abs() == 2 {
                        (0, dr / 2)
                    } else {
                        (df / 2, 0)
                    };
                    (!empty(ff + lf, fr + lr)).then_some(HorseLegBlocked)
                }
            }
            PieceKind::Rook => {
                if df != 0 && dr != 0 {
                    Some(WrongShape)
                } else {
                    (between() > 0).then_some(PathBlocked)
                }
            }
            PieceKind::Cannon => {
                if df != 0 && dr != 0 {
                    Some(WrongShape)
                } else {
                    let screens = between();
                    match (self.piece_at(m.to).is_some(), screens) {
                        (false, 0) | (true, 1) => None,
                        (false, _) => Some(PathBlocked),
                        (true, 0) => Some(CannonNeedsScreen),
                        (true, _) => Some(CannonTooManyScreens),
                    }
                }
            }
            PieceKind::Pawn => {
                let fwd = if us == Color::Red { 1 } else { -1 };
                if dr == fwd && df == 0 {
                    None
                } else if dr == 0 && df.abs() == 1 {
                    (m.from.rank().is_own_half(us)).then_some(PawnSidewaysBeforeRiver)
                } else if dr == -fwd && df == 0 {
                    Some(PawnBackwards)
                } else {
                    Some(WrongShape)
                }
            }
        }
    }
}

#[inline]
fn push_steps(list: &mut MoveList, from: Square, targets: &[u8], own: u128) {
    for &to in targets {
        if own & bit(to) == 0 {
            list.push(Move::new(from, Square::from_index_unchecked(to)));
        }
    }
}

/// Keeps, of `list[start..]`, the moves that do not land on `to_mask` or that leave the
/// mover's general (on `k`) safe.
#[inline]
fn retain_safe(
    list: &mut MoveList,
    start: usize,
    scratch: &mut [u8; 90],
    occ: u128,
    k: u8,
    them: Color,
    to_mask: u128,
) {
    let mut keep = start;
    for i in start..list.len() {
        let m = list[i];
        if to_mask & bit(m.to.index()) == 0 || safe_after(scratch, occ, m, k, them) {
            list.set(keep, m);
            keep += 1;
        }
    }
    list.truncate(keep);
}

/// Plays `m` on the scratch board (whose occupied points are `occ`), asks whether the
/// mover's general (on `k` unless it is the piece moving) is attacked, and restores the
/// board.
#[inline]
fn safe_after(cells: &mut [u8; 90], occ: u128, m: Move, k: u8, them: Color) -> bool {
    let (from, to) = (m.from.index() as usize, m.to.index() as usize);
    let moving = cells[from];
    let captured = cells[to];
    cells[to] = moving;
    cells[from] = 0;
    let general = if from == k as usize { to as u8 } else { k };
    let occ_after = (occ & !bit(from as u8)) | bit(to as u8);
    let safe = !general_attacked(cells, occ_after, general, them);
    cells[from] = moving;
    cells[to] = captured;
    safe
}

/// A move that cannot be played, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move tried.
    pub mv: Move,
    /// Why it is refused.
    pub reason: IllegalReason,
}

/// Why a move is illegal, as a value the app can put into the user's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalReason {
    /// There is no piece on the starting point.
    NoPiece,
    /// The piece belongs to the side not to move.
    NotYourPiece,
    /// The target holds a piece of the mover's own side.
    OwnPieceOnTarget,
    /// The piece does not move in that shape (e.g. a horse moving straight).
    WrongShape,
    /// The general or an advisor would leave the palace (九宫).
    LeavesPalace,
    /// An elephant may not cross the river (象不过河).
    CrossesRiver,
    /// The elephant's eye is blocked (塞象眼).
    ElephantEyeBlocked,
    /// The horse's leg is blocked (蹩马腿).
    HorseLegBlocked,
    /// A piece stands in the way of the rook or cannon.
    PathBlocked,
    /// A cannon captures only by jumping exactly one piece (炮架); there is none.
    CannonNeedsScreen,
    /// A cannon captures only by jumping exactly one piece; there are more.
    CannonTooManyScreens,
    /// A pawn moves sideways only after crossing the river.
    PawnSidewaysBeforeRiver,
    /// A pawn never moves backwards.
    PawnBackwards,
    /// The two generals would face each other on an open file (白脸将).
    GeneralsWouldFace,
    /// The mover is in check and this move does not answer it.
    StillInCheck,
    /// The move would expose the mover's general to check.
    ExposesGeneral,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.mv, self.reason)
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalReason::*;
        f.write_str(match self {
            NoPiece => "there is no piece on the starting point",
            NotYourPiece => "that piece belongs to the other side",
            OwnPieceOnTarget => "the target holds one of your own pieces",
            WrongShape => "the piece does not move that way",
            LeavesPalace => "the general and advisors must stay in the palace",
            CrossesRiver => "the elephant may not cross the river",
            ElephantEyeBlocked => "the elephant's eye is blocked",
            HorseLegBlocked => "the horse's leg is blocked",
            PathBlocked => "a piece is in the way",
            CannonNeedsScreen => "a cannon captures only by jumping exactly one piece",
            CannonTooManyScreens => "a cannon captures by jumping exactly one piece, not more",
            PawnSidewaysBeforeRiver => "a pawn moves sideways only after crossing the river",
            PawnBackwards => "a pawn never moves backwards",
            GeneralsWouldFace => "the generals would face each other",
            StillInCheck => "your general is in check",
            ExposesGeneral => "the move would expose your general to check",
        })
    }
}

impl std::error::Error for IllegalMove {}

#[cfg(test)]
mod tests {
    use crate::{MoveList, Position};

    #[test]
    fn some_legal_moves_are_legal_and_none_only_when_there_are_none() {
        for (fen, any) in [
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                true,
            ),
            // In check: only the moves that answer it.
            ("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1", true),
            // Mated by the rook on the back rank, the other rook guarding the file.
            ("R3k4/9/9/9/9/9/9/9/9/3KR4 b - - 0 1", false),
            // No move, not in check (困毙): the rook holds d8, the facing generals e9.
            ("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", false),
        ] {
            let pos: Position = fen.parse().unwrap();
            let all = pos.legal_moves();
            let mut some = MoveList::new();
            pos.some_legal_moves_into(&mut some);
            assert_eq!(!some.is_empty(), any, "{fen}");
            assert_eq!(all.is_empty(), some.is_empty(), "{fen}");
            assert!(some.iter().all(|m| all.contains(m)), "{fen}");
            assert!(some.iter().all(|m| some[0].from == m.from), "{fen}");
        }
    }
}

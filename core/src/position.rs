//! A validated, playable position: the board, the side to move, the move counters and an
//! incrementally updated Zobrist hash. Legal move generation lives in `movegen.rs`.

use crate::setup::{InvalidSetup, Setup};
use crate::tables::{
    HORSE_ATTACKER_MASK, HORSE_ATTACKERS, PAWN_ATTACKERS, RAY_MASKS, RAYS, is_vertical, nearest,
};
use crate::{Board, Color, Move, Piece, PieceKind, Square, zobrist};
use std::fmt;

/// Board code of a piece (see [`Piece::code`]); 0 is an empty point.
pub(crate) const fn code(color: Color, kind: PieceKind) -> u8 {
    Piece::new(color, kind).code()
}

#[inline]
pub(crate) const fn bit(sq: u8) -> u128 {
    1u128 << sq
}

/// The information [`Position::unplay`] needs to take a move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    halfmove_clock: u32,
    hash: u64,
}

impl Undo {
    /// The piece the move captured, if any.
    pub fn captured(&self) -> Option<Piece> {
        (self.captured != 0).then(|| Piece::from_code(self.captured))
    }
}

/// A legal position: exactly one general each, every piece on a point it can reach, the
/// generals not facing, and the side that is not to move not in check.
///
/// ```
/// use chuhe_core::Position;
/// let pos = Position::startpos();
/// assert_eq!(pos.legal_moves().len(), 44);
/// assert_eq!(pos.to_string(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) cells: [u8; 90],
    pub(crate) occupied: [u128; 2],
    pub(crate) generals: [u8; 2],
    pub(crate) side: Color,
    pub(crate) hash: u64,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
}

impl Position {
    /// The start position, Red to move.
    pub fn startpos() -> Position {
        Position::from_setup_unchecked(&Setup::startpos())
    }

    /// Validates `setup`; on failure the error lists every problem at once.
    pub fn from_setup(setup: &Setup) -> Result<Position, InvalidSetup> {
        setup.validate()?;
        Ok(Position::from_setup_unchecked(setup))
    }

    /// Builds the position without validation. The caller guarantees one general per side
    /// (every other rule violation only makes the game odd, not the code unsafe).
    pub(crate) fn from_setup_unchecked(setup: &Setup) -> Position {
        let mut pos = Position {
            cells: [0; 90],
            occupied: [0; 2],
            generals: [0; 2],
            side: setup.side_to_move,
            hash: 0,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number.max(1),
        };
        for (sq, piece) in setup.board.pieces() {
            let s = sq.index();
            pos.cells[s as usize] = piece.code();
            pos.occupied[piece.color.index()] |= bit(s);
            if piece.kind == PieceKind::General {
                pos.generals[piece.color.index()] = s;
            }
        }
        pos.hash = pos.compute_hash();
        pos
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Color::Black {
            zobrist::SIDE_KEY
        } else {
            0
        };
        for (s, &c) in self.cells.iter().enumerate() {
            if c != 0 {
                h ^= zobrist::piece_key(c, s as u8);
            }
        }
        h
    }

    /// The arrangement, side to move and counters as an editable [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board(),
            side_to_move: self.side,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    /// The pieces on the board.
    pub fn board(&self) -> Board {
        let mut b = Board::empty();
        for sq in Square::ALL {
            b.set(sq, self.piece_at(sq));
        }
        b
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let c = self.cells[sq.index() as usize];
        (c != 0).then(|| Piece::from_code(c))
    }

    /// Whose move it is.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Where `color`'s general stands.
    #[inline]
    pub fn general(&self, color: Color) -> Square {
        Square::from_index_unchecked(self.generals[color.index()])
    }

    /// The Zobrist hash of the position (pieces and side to move; not the counters).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plies played since the last capture (for the natural move limit).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and increasing after each Black move.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// Points holding pieces of `color`.
    pub fn squares_of_color(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        BitIter(self.occupied[color.index()]).map(Square::from_index_unchecked)
    }

    /// Whether the side to move is in check (this includes facing generals, which a legal
    /// position never has for the side not to move).
    pub fn is_check(&self) -> bool {
        general_attacked(
            &self.cells,
            self.occupied[0] | self.occupied[1],
            self.generals[self.side.index()],
            !self.side,
        )
    }

    /// The pieces that give check to `color`'s general, including the other general when
    /// the two face each other on an open file.
    pub fn checkers_of(&self, color: Color) -> Vec<Square> {
        attackers_of_general(&self.cells, self.generals[color.index()], !color)
            .map(Square::from_index_unchecked)
            .collect()
    }

    /// Plays `m` in place without checking it; `m` must be legal (or at least move a piece
    /// of the side to move onto a point not holding a general). Returns what
    /// [`Position::unplay`] needs.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Undo {
        let from = m.from.index();
        let to = m.to.index();
        let piece = self.cells[from as usize];
        let captured = self.cells[to as usize];
        let undo = Undo {
            captured,
            halfmove_clock: self.halfmove_clock,
            hash: self.hash,
        };
        let us = self.side.index();
        self.hash ^=
            zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to) ^ zobrist::SIDE_KEY;
        if captured != 0 {
            self.hash ^= zobrist::piece_key(captured, to);
            self.occupied[us ^ 1] &= !bit(to);
            self.halfmove_clock = 0;
        } else {
            self.halfmove_clock += 1;
        }
        self.cells[from as usize] = 0;
        self.cells[to as usize] = piece;
        self.occupied[us] ^= bit(from) | bit(to);
        if piece == code(Color::Red, PieceKind::General)
            || piece == code(Color::Black, PieceKind::General)
        {
            self.generals[us] = to;
        }
        if self.side == Color::Black {
            self.fullmove_number += 1;
        }
        self.side = !self.side;
        undo
    }

    /// Takes back `m`, which must be the last move played with [`Position::play_unchecked`].
    #[inline]
    pub fn unplay(&mut self, m: Move, undo: Undo) {
        self.side = !self.side;
        if self.side == Color::Black {
            self.fullmove_number -= 1;
        }
        let from = m.from.index();
        let to = m.to.index();
        let us = self.side.index();
        let piece = self.cells[to as usize];
        self.cells[from as usize] = piece;
        self.cells[to as usize] = undo.captured;
        self.occupied[us] ^= bit(from) | bit(to);
        if undo.captured != 0 {
            self.occupied[us ^ 1] |= bit(to);
        }
        if piece == code(Color::Red, PieceKind::General)
            || piece == code(Color::Black, PieceKind::General)
        {
            self.generals[us] = from;
        }
        self.halfmove_clock = undo.halfmove_clock;
        self.hash = undo.hash;
    }

    /// The position after the legal move `m`, or an error saying why it is not legal.
    pub fn play(&self, m: Move) -> Result<Position, crate::IllegalMove> {
        self.check_move(m)?;
        let mut next = self.clone();
        next.play_unchecked(m);
        Ok(next)
    }

    /// The same position with the other side to move, as if the side to move passed.
    /// Used to ask what a side threatens; the result may not be a legal position.
    pub(crate) fn with_side_swapped(&self) -> Position {
        let mut p = self.clone();
        p.side = !p.side;
        p.hash ^= zobrist::SIDE_KEY;
        p
    }
}

/// Iterates over the set bits of a 90-bit point set.
pub(crate) struct BitIter(pub u128);

impl Iterator for BitIter {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let s = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(s)
        }
    }
}

/// Whether the general on `target` is attacked by a piece of `them`, on the board `cells`
/// whose occupied points (both sides) are `occ`. Counts the flying general: the enemy
/// general first on the same file.
///
/// This runs after every move of the search (is it check?) and for every move that might
/// expose the own general, so the files and ranks are read with bit scans of `occ`: one
/// scan finds the first piece (a rook, or the general on the file), one more the piece
/// behind it (a cannon, with exactly the first as its screen).
#[inline]
pub(crate) fn general_attacked(cells: &[u8; 90], occ: u128, target: u8, them: Color) -> bool {
    let rook = code(them, PieceKind::Rook);
    let cannon = code(them, PieceKind::Cannon);
    let general = code(them, PieceKind::General);
    let t = target as usize;
    for (d, &ray) in RAY_MASKS[t].iter().enumerate() {
        let blockers = ray & occ;
        if blockers == 0 {
            continue;
        }
        let first = nearest(blockers, d);
        let p = cells[first];
        if p == rook || (p == general && is_vertical(d)) {
            return true;
        }
        let behind = RAY_MASKS[first][d] & occ;
        if behind != 0 && cells[nearest(behind, d)] == cannon {
            return true;
        }
    }
    // Most of the time no piece at all stands a horse's jump away.
    if HORSE_ATTACKER_MASK[t] & occ != 0 {
        let horse = code(them, PieceKind::Horse);
        let h = &HORSE_ATTACKERS[t];
        for k in 0..h.len as usize {
            if cells[h.to[k] as usize] == horse && cells[h.via[k] as usize] == 0 {
                return true;
            }
        }
    }
    let pawn = code(them, PieceKind::Pawn);
    let pw = &PAWN_ATTACKERS[them.index()][t];
    for k in 0..pw.len as usize {
        if cells[pw.to[k] as usize] == pawn {
            return true;
        }
    }
    false
}

/// Every piece of `them` attacking the general on `target` (slow path: lists them all).
pub(crate) fn attackers_of_general(cells: &[u8; 90], target: u8, them: Color) -> BitIter {
    let rook = code(them, PieceKind::Rook);
    let cannon = code(them, PieceKind::Cannon);
    let general = code(them, PieceKind::General);
    let t = target as usize;
    let mut found = 0u128;
    for (d, ray) in RAYS[t].iter().enumerate() {
        let mut seen = 0;
        for &s in &ray.sq[..ray.len as usize] {
            let p = cells[s as usize];
            if p == 0 {
                continue;
            }
            seen += 1;
            if seen == 1 && (p == rook || (p == general && is_vertical(d))) {
                found |= bit(s);
            }
            if seen == 2 {
                if p == cannon {
                    found |= bit(s);
                }
                break;
            }
        }
    }
    let horse = code(them, PieceKind::Horse);
    let h = &HORSE_ATTACKERS[t];
    for k in 0..h.len as usize {
        if cells[h.to[k] as usize] == horse && cells[h.via[k] as usize] == 0 {
            found |= bit(h.to[k]);
        }
    }
    let pawn = code(them, PieceKind::Pawn);
    let pw = &PAWN_ATTACKERS[them.index()][t];
    for k in 0..pw.len as usize {
        if cells[pw.to[k] as usize] == pawn {
            found |= bit(pw.to[k]);
        }
    }
    BitIter(found)
}

impl fmt::Display for Position {
    /// The FEN of the position.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl std::str::FromStr for Position {
    type Err = crate::fen::PositionFenError;

    /// Reads a FEN and validates the position.
    fn from_str(s: &str) -> Result<Position, Self::Err> {
        let setup: Setup = s.parse()?;
        Ok(Position::from_setup(&setup)?)
    }
}

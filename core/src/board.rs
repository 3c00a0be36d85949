//! A plain arrangement of pieces on the 90 points, with no rules attached. It is what a
//! [`crate::Setup`] holds and what an editor changes.

use crate::{Color, Piece, PieceKind, Square};

/// The pieces on the board: at most one on each point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    points: [Option<Piece>; 90],
}

impl Board {
    /// A board with no pieces.
    pub const fn empty() -> Board {
        Board { points: [None; 90] }
    }

    /// The start position's arrangement.
    pub fn startpos() -> Board {
        use PieceKind::*;
        let mut b = Board::empty();
        let back = [
            Rook, Horse, Elephant, Advisor, General, Advisor, Elephant, Horse, Rook,
        ];
        for (f, &kind) in back.iter().enumerate() {
            b.set_coords(f as u8, 0, Some(Piece::new(Color::Red, kind)));
            b.set_coords(f as u8, 9, Some(Piece::new(Color::Black, kind)));
        }
        for f in [1, 7] {
            b.set_coords(f, 2, Some(Piece::new(Color::Red, Cannon)));
            b.set_coords(f, 7, Some(Piece::new(Color::Black, Cannon)));
        }
        for f in [0, 2, 4, 6, 8] {
            b.set_coords(f, 3, Some(Piece::new(Color::Red, Pawn)));
            b.set_coords(f, 6, Some(Piece::new(Color::Black, Pawn)));
        }
        b
    }

    fn set_coords(&mut self, file: u8, rank: u8, piece: Option<Piece>) {
        if let Some(sq) = Square::from_coords(file, rank) {
            self.set(sq, piece);
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.points[sq.index() as usize]
    }

    /// Puts `piece` on `sq` (or empties it with `None`), returning what was there.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) -> Option<Piece> {
        std::mem::replace(&mut self.points[sq.index() as usize], piece)
    }

    /// Every occupied point with its piece, in point order (`a0`, `b0`, …).
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::ALL
            .into_iter()
            .filter_map(|sq| self.get(sq).map(|p| (sq, p)))
    }

    /// The points holding `piece`, in point order.
    pub fn squares_of(&self, piece: Piece) -> Vec<Square> {
        self.pieces()
            .filter(|&(_, p)| p == piece)
            .map(|(s, _)| s)
            .collect()
    }

    /// The left–right mirror image.
    pub fn mirrored(&self) -> Board {
        let mut b = Board::empty();
        for (sq, p) in self.pieces() {
            b.set(sq.mirror(), Some(p));
        }
        b
    }

    /// The same position seen from the other side: turned upside down and every piece's
    /// colour swapped (so a Red attack becomes the same Black attack).
    pub fn colors_swapped(&self) -> Board {
        let mut b = Board::empty();
        for (sq, p) in self.pieces() {
            b.set(sq.flip().mirror(), Some(Piece::new(!p.color, p.kind)));
        }
        b
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

//! The network's inputs: which of the 7,560 input features a piece on a point switches
//! on, as seen by one side (its perspective).
//!
//! A perspective sees the board from its own side: Red as the board stands, Black with
//! the board turned 180° (files and ranks reversed) and the colours swapped, so "own" and
//! "enemy" replace Red and Black. The own general's point picks one of six buckets and
//! whether the board is also mirrored left–right:
//! - mirrored when the own general stands right of the centre file (file f of its own
//!   palace), so that it is always on file d or e;
//! - on the centre file e both halves are equally near, and the board itself decides: the
//!   first pair of points, scanning the ranks from the perspective's own back rank and
//!   each rank from the centre outwards (d–f, c–g, b–h, a–i), whose two pieces differ
//!   picks the half holding the "larger" piece (by [`slot`] + 1, an empty point being 0)
//!   to be the left one. A position and its mirror image then see the same inputs, so the
//!   evaluation is exactly symmetric, and in most games an early asymmetry near the back
//!   rank keeps the choice steady (a change of choice costs a refresh, not a mistake).
//!
//! The bucket is the general's rank in its palace (0–2 from its own back rank) × its file
//! after the mirror (d or e): `bucket = 2·rank + (file − 3)`.
//!
//! A feature is (bucket, piece slot, oriented point): `(bucket · 14 + slot) · 90 + point`,
//! where the slot is the piece's kind (general 0, advisor 1, elephant 2, horse 3, rook 4,
//! cannon 5, pawn 6), plus 7 for an enemy piece, and the point is `rank · 9 + file` on the
//! oriented (turned, then mirrored) board. The own general is never a feature: it is the
//! bucket.

use crate::{Color, Piece, PieceKind, Position, Square};

/// Buckets of the own general's point: 3 ranks × 2 files of the palace.
pub const BUCKETS: usize = 6;
/// Piece slots: 7 kinds, own and enemy.
pub const PIECE_SLOTS: usize = 14;
/// Points of the board.
pub const POINTS: usize = 90;
/// Input features of one perspective.
pub const INPUTS: usize = BUCKETS * PIECE_SLOTS * POINTS;

/// How one side sees the board: its colour, its general's bucket, and whether the board
/// is mirrored. Two positions with the same view of a side have its general on the same
/// point, so their inputs differ only by the other pieces that moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    perspective: Color,
    bucket: u8,
    mirrored: bool,
}

/// The point `sq` as `perspective` sees it (turned for Black), before any mirror.
#[inline]
fn oriented(sq: u8, perspective: Color) -> u8 {
    match perspective {
        Color::Red => sq,
        Color::Black => 89 - sq,
    }
}

/// The slot of the piece with board code `code` (1..=14) for `perspective`.
#[inline]
fn slot_of_code(code: u8, perspective: Color) -> usize {
    let c = (code - 1) as usize;
    let (color, kind) = (c / 7, c % 7);
    let enemy = color != perspective.index();
    kind + 7 * enemy as usize
}

/// The slot of `piece` for `perspective`: its kind (general 0 … pawn 6), plus 7 for an
/// enemy piece.
pub fn slot(piece: Piece, perspective: Color) -> usize {
    slot_of_code(piece.code(), perspective)
}

impl View {
    /// How `perspective` sees `pos`.
    pub fn of(pos: &Position, perspective: Color) -> View {
        let g = oriented(pos.generals[perspective.index()], perspective);
        let (file, rank) = (g % 9, g / 9);
        let mirrored = match file {
            0..=3 => false,
            5..=8 => true,
            _ => centre_mirror(pos, perspective),
        };
        let file = if mirrored { 8 - file } else { file };
        // A legal position has the general in its palace; clamping keeps a bad setup in
        // range instead of reading out of bounds.
        let bucket = 2 * rank.min(2) + file.clamp(3, 4) - 3;
        View {
            perspective,
            bucket,
            mirrored,
        }
    }

    /// The side whose view this is.
    pub fn perspective(self) -> Color {
        self.perspective
    }

    /// The general's bucket, 0..6.
    pub fn bucket(self) -> usize {
        self.bucket as usize
    }

    /// Whether the board is seen mirrored left–right.
    pub fn mirrored(self) -> bool {
        self.mirrored
    }

    /// The feature `piece` on `sq` switches on, or `None` for the perspective's own
    /// general (which is the bucket, not a feature).
    pub fn feature(self, piece: Piece, sq: Square) -> Option<usize> {
        let own_general = piece.color == self.perspective && piece.kind == PieceKind::General;
        (!own_general).then(|| self.feature_of_code(piece.code(), sq.index()))
    }

    /// [`View::feature`] by board code and point index; the caller leaves out the own
    /// general.
    #[inline]
    pub(crate) fn feature_of_code(self, code: u8, sq: u8) -> usize {
        let p = oriented(sq, self.perspective);
        let p = if self.mirrored {
            p - p % 9 + 8 - p % 9
        } else {
            p
        };
        (self.bucket as usize * PIECE_SLOTS + slot_of_code(code, self.perspective)) * POINTS
            + p as usize
    }

    /// Every feature `pos` switches on for this view (which must be `pos`'s own).
    pub(crate) fn features<'a>(self, pos: &'a Position) -> impl Iterator<Item = usize> + 'a {
        let own_general = pos.generals[self.perspective.index()];
        pos.cells
            .iter()
            .enumerate()
            .filter(move |&(sq, &code)| code != 0 && sq as u8 != own_general)
            .map(move |(sq, &code)| self.feature_of_code(code, sq as u8))
    }
}

/// Every feature `pos` switches on for `perspective`, in no particular order: the inputs a
/// trainer sets to 1.
pub fn active_features(pos: &Position, perspective: Color) -> Vec<usize> {
    View::of(pos, perspective).features(pos).collect()
}

/// Whether `perspective`, whose general stands on the centre file, sees the board
/// mirrored: the first differing pair of points from its back rank decides (see the
/// module's notes), an exactly symmetric board not.
fn centre_mirror(pos: &Position, perspective: Color) -> bool {
    let rel = |file: u8, rank: u8| {
        let code = pos.cells[oriented(rank * 9 + file, perspective) as usize];
        if code == 0 {
            0
        } else {
            slot_of_code(code, perspective) + 1
        }
    };
    for rank in 0..10 {
        for d in 1..=4 {
            let (left, right) = (rel(4 - d, rank), rel(4 + d, rank));
            if left != right {
                return left < right;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    #[test]
    fn buckets_follow_the_general_and_fold_the_right_half() {
        // Red's general on d0, e1, f2; Black's on d9 (its own right half: mirrored).
        let cases = [
            ("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", Color::Red, 0, false),
            ("3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1", Color::Red, 3, false),
            ("3k5/9/9/9/9/9/9/5K3/9/9 w - - 0 1", Color::Red, 4, true),
            ("3k5/9/9/9/9/9/9/5K3/9/9 w - - 0 1", Color::Black, 0, true),
            ("9/4k4/9/9/9/9/9/5K3/9/9 w - - 0 1", Color::Black, 3, false),
        ];
        for (fen, side, bucket, mirrored) in cases {
            let v = View::of(&pos(fen), side);
            assert_eq!(
                (v.bucket(), v.mirrored()),
                (bucket, mirrored),
                "{fen} {side:?}"
            );
        }
    }

    #[test]
    fn features_are_distinct_and_in_range_and_leave_out_the_own_general() {
        let p = Position::startpos();
        for side in [Color::Red, Color::Black] {
            let mut f = active_features(&p, side);
            assert_eq!(f.len(), 31);
            assert!(f.iter().all(|&i| i < INPUTS));
            f.sort_unstable();
            f.dedup();
            assert_eq!(f.len(), 31);
        }
        // The start position looks the same to both sides.
        let mut red = active_features(&p, Color::Red);
        let mut black = active_features(&p, Color::Black);
        red.sort_unstable();
        black.sort_unstable();
        assert_eq!(red, black);
    }

    #[test]
    fn a_general_on_the_centre_file_mirrors_by_the_first_asymmetry() {
        // Red's horse on b0 is gone: the right half (h0 still holds one) is "larger".
        let left_gone =
            pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w - - 0 1");
        let right_gone =
            pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R w - - 0 1");
        let a = View::of(&left_gone, Color::Red);
        let b = View::of(&right_gone, Color::Red);
        assert_ne!(a.mirrored(), b.mirrored());
        let mut fa = active_features(&left_gone, Color::Red);
        let mut fb = active_features(&right_gone, Color::Red);
        fa.sort_unstable();
        fb.sort_unstable();
        assert_eq!(fa, fb, "mirror images see the same inputs");
    }
}

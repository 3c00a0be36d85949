//! Numbering the placements of a material.
//!
//! Every piece kind of a side forms a group; a group of one piece is numbered by its point
//! among the points that kind may stand on (the general in its palace, an advisor or
//! elephant on its own points, a pawn on a point it can reach, never behind its start
//! rank); a group of two alike pieces is numbered by the unordered pair of points. The
//! index of a placement is the mixed-radix number of its groups, the two generals first.
//! Placements with two pieces on one point, or that are illegal for the side to move, are
//! inside the numbering and marked illegal in the table.

use super::material::Material;
use crate::setup::can_stand_on;
use crate::{Color, Piece, PieceKind, Square};

const NONE: u16 = u16::MAX;

#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub piece: Piece,
    /// 1 or 2 alike pieces.
    pub count: usize,
    /// Points the piece may stand on.
    pub domain: Vec<u8>,
    /// Point to its place in `domain`, or `NONE`.
    pub map: [u16; 90],
    /// How many numbers the group takes.
    pub size: usize,
    /// The index's multiplier for this group.
    pub stride: usize,
    /// Where its pieces start in the placement's piece list.
    pub first: usize,
    /// For a pair: number to the two points (lower place in `domain` first).
    pub pairs: Vec<(u8, u8)>,
}

/// The numbering of one material's placements (for one side to move).
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub groups: Vec<Group>,
    /// The piece of each slot of a placement, generals first (Red's, then Black's).
    pub pieces: Vec<Piece>,
    /// Placements per side to move.
    pub size: usize,
    /// The group of each slot.
    pub slot_group: Vec<usize>,
}

impl Layout {
    pub fn new(material: &Material) -> Layout {
        let mut kinds: Vec<(Piece, usize)> = vec![
            (Piece::new(Color::Red, PieceKind::General), 1),
            (Piece::new(Color::Black, PieceKind::General), 1),
        ];
        for color in Color::ALL {
            for &k in material.pieces(color) {
                let p = Piece::new(color, k);
                match kinds.last_mut() {
                    Some((last, n)) if *last == p => *n += 1,
                    _ => kinds.push((p, 1)),
                }
            }
        }
        let mut groups = Vec::new();
        let mut pieces = Vec::new();
        let mut stride = 1usize;
        // The last group varies fastest; the generals are the slowest digits, so a sweep
        // over the indices keeps the generals (and their legality) unchanged for long runs.
        let mut rev = Vec::new();
        for &(piece, count) in kinds.iter().rev() {
            let domain: Vec<u8> = Square::ALL
                .iter()
                .filter(|&&s| can_stand_on(piece, s))
                .map(|s| s.index())
                .collect();
            let mut map = [NONE; 90];
            for (i, &s) in domain.iter().enumerate() {
                map[s as usize] = i as u16;
            }
            let n = domain.len();
            let size = if count == 1 { n } else { n * (n - 1) / 2 };
            let mut pairs = Vec::new();
            if count == 2 {
                // Numbered j (j - 1) / 2 + i for i < j, as `encode` computes it.
                for j in 0..n {
                    for i in 0..j {
                        pairs.push((domain[i], domain[j]));
                    }
                }
            }
            rev.push(Group {
                piece,
                count,
                domain,
                map,
                size,
                stride,
                first: 0,
                pairs,
            });
            stride *= size;
        }
        assert!(
            stride <= u32::MAX as usize,
            "a table of the scope numbers under 2^32"
        );
        rev.reverse();
        for g in &mut rev {
            g.first = pieces.len();
            for _ in 0..g.count {
                pieces.push(g.piece);
            }
        }
        groups.extend(rev);
        let mut slot_group = Vec::new();
        for (gi, g) in groups.iter().enumerate() {
            for _ in 0..g.count {
                slot_group.push(gi);
            }
        }
        Layout {
            groups,
            pieces,
            size: stride,
            slot_group,
        }
    }

    /// The points of the placement `index`, one per slot of `pieces`.
    #[inline]
    pub fn decode(&self, index: usize, squares: &mut [u8; 7]) {
        // 32-bit division is several times quicker than 64-bit, and every table of the
        // scope has fewer than 2^32 placements (the largest about 1.6 * 10^8).
        let mut index = index as u32;
        for g in self.groups.iter().rev() {
            let size = g.size as u32;
            let d = (index % size) as usize;
            index /= size;
            if g.count == 1 {
                squares[g.first] = g.domain[d];
            } else {
                let (a, b) = g.pairs[d];
                squares[g.first] = a;
                squares[g.first + 1] = b;
            }
        }
    }

    /// The number of an unordered pair of places in a group's domain.
    #[inline]
    pub fn pair(a: u16, b: u16) -> usize {
        let (i, j) = if a < b { (a, b) } else { (b, a) };
        j as usize * (j as usize - 1) / 2 + i as usize
    }

    /// The index of the placement with `squares` (one per slot), or `None` if a piece
    /// stands where it may not or two alike pieces share a point.
    #[inline]
    pub fn encode(&self, squares: &[u8]) -> Option<usize> {
        let mut index = 0;
        for g in &self.groups {
            let a = g.map[squares[g.first] as usize];
            if a == NONE {
                return None;
            }
            let d = if g.count == 1 {
                a as usize
            } else {
                let b = g.map[squares[g.first + 1] as usize];
                if b == NONE || a == b {
                    return None;
                }
                let (i, j) = if a < b { (a, b) } else { (b, a) };
                j as usize * (j as usize - 1) / 2 + i as usize
            };
            index += d * g.stride;
        }
        Some(index)
    }

    /// The index of an arrangement given as (piece, point) pairs in any order; `None` if
    /// the pieces are not this material's.
    pub fn encode_pieces(&self, list: &[(Piece, u8)]) -> Option<usize> {
        if list.len() != self.pieces.len() {
            return None;
        }
        let mut squares = [0u8; 7];
        for g in &self.groups {
            let mut k = 0;
            for &(p, s) in list {
                if p == g.piece {
                    if k == g.count {
                        return None;
                    }
                    squares[g.first + k] = s;
                    k += 1;
                }
            }
            if k != g.count {
                return None;
            }
        }
        self.encode(&squares[..self.pieces.len()])
    }
}

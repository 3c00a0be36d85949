//! Material balances for the endgame search of a collection: which pieces each side has,
//! written `车马兵 vs 车士象全` or `KRNP v KRAABB`, packed into one number.

use crate::{Color, PieceKind, Position};
use std::fmt;
use std::str::FromStr;

/// The pieces each side has besides its general, packed: per side 13 bits (chariots,
/// horses, cannons, advisors, elephants two bits each, soldiers three), Red's low.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MaterialKey(u32);

/// Positions with at most this many pieces (generals included) are indexed by material:
/// the endgame, where a balance is worth searching for.
pub const MAX_INDEXED_PIECES: u32 = 16;

/// The kinds counted, in the order of their bits (the general is always there).
const KINDS: [(PieceKind, u32); 6] = [
    (PieceKind::Rook, 0),
    (PieceKind::Horse, 2),
    (PieceKind::Cannon, 4),
    (PieceKind::Advisor, 6),
    (PieceKind::Elephant, 8),
    (PieceKind::Pawn, 10),
];

fn most(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::Pawn => 5,
        PieceKind::General => 1,
        _ => 2,
    }
}

impl MaterialKey {
    /// The balance of `pos`.
    pub fn of(pos: &Position) -> MaterialKey {
        let mut counts = [[0u32; 6]; 2];
        for color in Color::ALL {
            for sq in pos.squares_of_color(color) {
                if let Some(p) = pos.piece_at(sq)
                    && let Some(i) = KINDS.iter().position(|k| k.0 == p.kind)
                {
                    counts[color.index()][i] += 1;
                }
            }
        }
        MaterialKey::from_counts(&counts)
    }

    fn from_counts(counts: &[[u32; 6]; 2]) -> MaterialKey {
        let mut key = 0;
        for (side, c) in counts.iter().enumerate() {
            for (i, &(kind, shift)) in KINDS.iter().enumerate() {
                key |= c[i].min(most(kind)) << (shift + 13 * side as u32);
            }
        }
        MaterialKey(key)
    }

    fn count(self, color: Color, i: usize) -> u32 {
        let (_, shift) = KINDS[i];
        let bits = if i == 5 { 7 } else { 3 };
        (self.0 >> (shift + 13 * color.index() as u32)) & bits
    }

    /// All pieces on the board, both generals included.
    pub fn pieces(self) -> u32 {
        2 + Color::ALL
            .iter()
            .map(|&c| (0..6).map(|i| self.count(c, i)).sum::<u32>())
            .sum::<u32>()
    }

    /// The packed number, as stored.
    pub fn to_bits(self) -> u32 {
        self.0
    }
}

/// Text that is not a material balance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MaterialKeyError {
    /// No `v` (or `vs`, `对`) between Red's and Black's pieces.
    MissingSeparator,
    /// A character that names no piece, at this character offset.
    BadPiece {
        /// Offset in the text, in characters.
        at: usize,
        /// The character.
        piece: char,
    },
    /// More of one kind than a side owns.
    TooMany {
        /// The side.
        color: Color,
        /// The kind.
        kind: PieceKind,
    },
}

impl fmt::Display for MaterialKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaterialKeyError::MissingSeparator => {
                f.write_str("no \"vs\" between Red's and Black's pieces")
            }
            MaterialKeyError::BadPiece { at, piece } => {
                write!(f, "{piece:?} at character {at} is not a piece")
            }
            MaterialKeyError::TooMany { color, kind } => {
                write!(f, "{color:?} cannot have that many of {kind:?}")
            }
        }
    }
}

impl std::error::Error for MaterialKeyError {}

impl FromStr for MaterialKey {
    type Err = MaterialKeyError;

    /// Reads `车马兵 vs 车士象全`, `车马兵对车士象全` or `KRNP v KRAABB` (letters in either case;
    /// the general may be left out; 全 (as in 士象全) stands for both advisors and both elephants, 单/双 before
    /// a piece for one or two of it, as Chinese endgame names write them).
    fn from_str(s: &str) -> Result<MaterialKey, MaterialKeyError> {
        let chars: Vec<char> = s.chars().collect();
        let sep = chars
            .iter()
            .position(|&c| matches!(c, 'v' | 'V' | '对' | '對' | '-' | '_'))
            .ok_or(MaterialKeyError::MissingSeparator)?;
        let mut after = sep + 1;
        if chars.get(after).is_some_and(|c| matches!(c, 's' | 'S')) {
            after += 1;
        }
        let mut counts = [[0u32; 6]; 2];
        for (side, range) in [(0, 0..sep), (1, after..chars.len())] {
            let color = Color::ALL[side];
            let mut times = 1;
            for i in range {
                let c = chars[i];
                if c.is_whitespace() {
                    continue;
                }
                let kind = match c.to_ascii_uppercase() {
                    'K' | '帅' | '帥' | '将' | '將' => Some(PieceKind::General),
                    'R' | '车' | '車' | '俥' => Some(PieceKind::Rook),
                    'N' | 'H' | '马' | '馬' | '傌' => Some(PieceKind::Horse),
                    'C' | '炮' | '砲' | '包' => Some(PieceKind::Cannon),
                    'A' | '士' | '仕' => Some(PieceKind::Advisor),
                    'B' | 'E' | '象' | '相' => Some(PieceKind::Elephant),
                    'P' | '兵' | '卒' => Some(PieceKind::Pawn),
                    // 士象全: both advisors and both elephants, whatever came before.
                    '全' => {
                        counts[side][3] = 2;
                        counts[side][4] = 2;
                        times = 1;
                        None
                    }
                    '单' | '單' => {
                        times = 1;
                        continue;
                    }
                    '双' | '雙' => {
                        times = 2;
                        continue;
                    }
                    '三' => {
                        times = 3;
                        continue;
                    }
                    _ => return Err(MaterialKeyError::BadPiece { at: i, piece: c }),
                };
                if let Some(kind) = kind {
                    if kind != PieceKind::General {
                        let k = KINDS.iter().position(|x| x.0 == kind).unwrap_or(0);
                        counts[side][k] += times;
                    }
                    times = 1;
                }
            }
            for (k, &(kind, _)) in KINDS.iter().enumerate() {
                if counts[side][k] > most(kind) {
                    return Err(MaterialKeyError::TooMany { color, kind });
                }
            }
        }
        Ok(MaterialKey::from_counts(&counts))
    }
}

impl fmt::Display for MaterialKey {
    /// `KRNP v KRAABB`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters = ['R', 'N', 'C', 'A', 'B', 'P'];
        let side = |c: Color| -> String {
            let mut s = String::from("K");
            for (i, l) in letters.iter().enumerate() {
                for _ in 0..self.count(c, i) {
                    s.push(*l);
                }
            }
            s
        };
        write!(f, "{} v {}", side(Color::Red), side(Color::Black))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_and_letter_names_read_the_same() {
        let a: MaterialKey = "车马兵 vs 车士象全".parse().unwrap();
        let b: MaterialKey = "KRNP v KRAABB".parse().unwrap();
        let c: MaterialKey = "車馬兵對車士象全".parse().unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a.to_string(), "KRNP v KRAABB");
        assert_eq!(a.pieces(), 10);
        let d: MaterialKey = "双车 v 车炮".parse().unwrap();
        assert_eq!(d.to_string(), "KRR v KRC");
    }

    #[test]
    fn the_start_position_has_full_material() {
        let key = MaterialKey::of(&Position::startpos());
        assert_eq!(key.pieces(), 32);
        assert_eq!(key, "KRRNNCCAABBPPPPP v KRRNNCCAABBPPPPP".parse().unwrap());
    }

    #[test]
    fn bad_balances_say_why() {
        assert_eq!(
            "车马兵".parse::<MaterialKey>(),
            Err(MaterialKeyError::MissingSeparator)
        );
        assert_eq!(
            "车x v 车".parse::<MaterialKey>(),
            Err(MaterialKeyError::BadPiece { at: 1, piece: 'x' })
        );
        assert!(matches!(
            "RRR v K".parse::<MaterialKey>(),
            Err(MaterialKeyError::TooMany { .. })
        ));
    }
}

//! Material signatures such as `KR v KAA`: which pieces each side has, Red first.

use crate::{Color, Piece, PieceKind, Position};
use std::fmt;
use std::str::FromStr;

/// The most pieces a table may hold, both generals included.
pub const MAX_PIECES: usize = 7;
/// The most attacking pieces (rook, horse, cannon, pawn) a table may hold, both sides
/// together, for the tables Chuhe makes by itself (the app's background job, `tb probe`).
pub const MAX_ATTACKERS: usize = 2;
/// The most attacking pieces of a table made only when asked for by name
/// ([`Material::new_on_request`]): a seven-piece table of three attackers has up to about
/// 1.2 * 10^9 placements a side and takes some 9 GB while it is generated, which nothing
/// should start unasked. Once cached, such a table is probed like any other.
pub const MAX_ATTACKERS_ON_REQUEST: usize = 3;

/// The pieces of a table besides the two generals, Red's and Black's, each in the canonical
/// order rook, horse, cannon, pawn, advisor, elephant (`KRN v KAABB`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    sides: [Vec<PieceKind>; 2],
}

/// Order of the letters in a canonical signature.
fn order(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::Rook => 0,
        PieceKind::Horse => 1,
        PieceKind::Cannon => 2,
        PieceKind::Pawn => 3,
        PieceKind::Advisor => 4,
        PieceKind::Elephant => 5,
        PieceKind::General => 6,
    }
}

pub(crate) fn is_attacker(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon | PieceKind::Pawn
    )
}

/// Why a material signature cannot be read or is outside what the tables cover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MaterialError {
    /// No ` v ` between Red's and Black's pieces.
    MissingSeparator,
    /// A character that is not a piece letter, at this character offset.
    BadLetter {
        /// Offset in the text (in characters).
        at: usize,
        /// The character.
        letter: char,
    },
    /// A side's pieces do not start with exactly one `K`.
    General {
        /// The side.
        color: Color,
    },
    /// More of one kind than a side owns (two advisors, two elephants, ...).
    TooMany {
        /// The side.
        color: Color,
        /// The kind.
        kind: PieceKind,
    },
    /// More than [`MAX_PIECES`] pieces.
    TooManyPieces(usize),
    /// More than [`MAX_ATTACKERS`] attacking pieces.
    TooManyAttackers(usize),
    /// More than two alike pieces on a side (the numbering groups one or two).
    ThreeAlike {
        /// The side.
        color: Color,
        /// The kind.
        kind: PieceKind,
    },
}

impl fmt::Display for MaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaterialError::MissingSeparator => f.write_str(
                "expected Red's and Black's pieces separated by \" v \", such as KR v KAA",
            ),
            MaterialError::BadLetter { at, letter } => write!(
                f,
                "{letter:?} at character {at} is not a piece letter (K A B R N C P)"
            ),
            MaterialError::General { color } => {
                write!(f, "{color:?}'s pieces must start with exactly one K")
            }
            MaterialError::TooMany { color, kind } => write!(
                f,
                "{color:?} has more than {} {}",
                kind.count_in_set(),
                kind.fen_char()
            ),
            MaterialError::TooManyPieces(n) => write!(
                f,
                "{n} pieces: tables hold at most {MAX_PIECES} (both generals included)"
            ),
            MaterialError::TooManyAttackers(n) => write!(
                f,
                "{n} rooks, horses, cannons and pawns: tables hold at most {MAX_ATTACKERS} ({MAX_ATTACKERS_ON_REQUEST} when generated on request)"
            ),
            MaterialError::ThreeAlike { color, kind } => write!(
                f,
                "{color:?} has more than two {}: tables hold at most two alike pieces a side",
                kind.fen_char()
            ),
        }
    }
}

impl std::error::Error for MaterialError {}

impl Material {
    /// Builds a material from each side's pieces besides the general, checking the scope.
    pub fn new(red: &[PieceKind], black: &[PieceKind]) -> Result<Material, MaterialError> {
        Material::within(red, black, MAX_ATTACKERS)
    }

    /// Like [`Material::new`], up to [`MAX_ATTACKERS_ON_REQUEST`] attacking pieces: for a
    /// table asked for by name.
    pub fn new_on_request(
        red: &[PieceKind],
        black: &[PieceKind],
    ) -> Result<Material, MaterialError> {
        Material::within(red, black, MAX_ATTACKERS_ON_REQUEST)
    }

    fn within(
        red: &[PieceKind],
        black: &[PieceKind],
        max_attackers: usize,
    ) -> Result<Material, MaterialError> {
        let mut sides = [red.to_vec(), black.to_vec()];
        for (c, side) in sides.iter_mut().enumerate() {
            let color = Color::ALL[c];
            side.sort_by_key(|&k| order(k));
            for kind in PieceKind::ALL {
                let n = side.iter().filter(|&&k| k == kind).count();
                if kind == PieceKind::General && n > 0 {
                    return Err(MaterialError::General { color });
                }
                if n > kind.count_in_set() {
                    return Err(MaterialError::TooMany { color, kind });
                }
            }
        }
        let total = 2 + sides[0].len() + sides[1].len();
        if total > MAX_PIECES {
            return Err(MaterialError::TooManyPieces(total));
        }
        let attackers = sides.iter().flatten().filter(|&&k| is_attacker(k)).count();
        if attackers > max_attackers {
            return Err(MaterialError::TooManyAttackers(attackers));
        }
        for (c, side) in sides.iter().enumerate() {
            for &kind in side {
                if side.iter().filter(|&&k| k == kind).count() > 2 {
                    let color = Color::ALL[c];
                    return Err(MaterialError::ThreeAlike { color, kind });
                }
            }
        }
        Ok(Material { sides })
    }

    /// The material on the board of `pos`, if it is within the scope of the tables Chuhe
    /// makes by itself.
    pub fn of(pos: &Position) -> Option<Material> {
        Material::of_within(pos, MAX_ATTACKERS)
    }

    /// The material on the board of `pos`, if a table of it can be had on request (for
    /// probing what is cached).
    pub fn of_on_request(pos: &Position) -> Option<Material> {
        Material::of_within(pos, MAX_ATTACKERS_ON_REQUEST)
    }

    fn of_within(pos: &Position, max_attackers: usize) -> Option<Material> {
        let mut sides: [Vec<PieceKind>; 2] = [Vec::new(), Vec::new()];
        let n = pos.occupied[0].count_ones() + pos.occupied[1].count_ones();
        if n as usize > MAX_PIECES {
            return None;
        }
        for (c, side) in sides.iter_mut().enumerate() {
            for s in crate::position::BitIter(pos.occupied[c]) {
                let kind = crate::Piece::from_code(pos.cells[s as usize]).kind;
                if kind != PieceKind::General {
                    side.push(kind);
                }
            }
        }
        Material::within(&sides[0], &sides[1], max_attackers).ok()
    }

    /// `color`'s pieces besides the general, in canonical order.
    pub fn pieces(&self, color: Color) -> &[PieceKind] {
        &self.sides[color.index()]
    }

    /// Number of pieces, both generals included.
    pub fn piece_count(&self) -> usize {
        2 + self.sides[0].len() + self.sides[1].len()
    }

    /// The material after `piece` is captured (`None` if there is no such piece).
    pub fn without(&self, piece: Piece) -> Option<Material> {
        let side = &self.sides[piece.color.index()];
        let i = side.iter().position(|&k| k == piece.kind)?;
        let mut sides = self.sides.clone();
        sides[piece.color.index()].remove(i);
        Some(Material { sides })
    }

    /// The same material with the colours swapped.
    pub fn swapped(&self) -> Material {
        Material {
            sides: [self.sides[1].clone(), self.sides[0].clone()],
        }
    }

    /// The signature without spaces, for file names (`KR_KAA`).
    pub fn file_stem(&self) -> String {
        self.to_string().replace(" v ", "_")
    }

    /// Every material of the scope with at least one attacking piece... for the browser:
    /// a short list of the classic endings.
    pub fn classics() -> Vec<Material> {
        [
            "KR v K",
            "KR v KA",
            "KR v KAA",
            "KR v KB",
            "KN v K",
            "KN v KA",
            "KN v KAA",
            "KN v KB",
            "KC v KA",
            "KP v K",
            "KP v KA",
            "KP v KB",
            "KP v KAB",
            "KPP v KAA",
            "KR v KN",
            "KR v KC",
            "KR v KP",
            "KN v KP",
            "KRP v KAA",
            "KCA v KAA",
            "KNP v KA",
        ]
        .iter()
        .filter_map(|s| s.parse().ok())
        .collect()
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters = |side: &[PieceKind]| side.iter().map(|k| k.fen_char()).collect::<String>();
        write!(
            f,
            "K{} v K{}",
            letters(&self.sides[0]),
            letters(&self.sides[1])
        )
    }
}

impl FromStr for Material {
    type Err = MaterialError;

    /// Reads `KR v KAA` (also `KRvKAA`, `KR vs KAA`, `KR_KAA`; letters upper or lower case).
    fn from_str(s: &str) -> Result<Material, MaterialError> {
        Material::parse_within(s, MAX_ATTACKERS)
    }
}

impl Material {
    /// Reads a signature as [`FromStr`] does, up to [`MAX_ATTACKERS_ON_REQUEST`] attacking
    /// pieces: for a table asked for by name.
    pub fn parse_on_request(s: &str) -> Result<Material, MaterialError> {
        Material::parse_within(s, MAX_ATTACKERS_ON_REQUEST)
    }

    fn parse_within(s: &str, max_attackers: usize) -> Result<Material, MaterialError> {
        let chars: Vec<char> = s.chars().collect();
        // The separator is a `v` (or `vs`, or `_`, or `-`); the pieces of a side never contain it.
        let mut sep = None;
        for (i, &c) in chars.iter().enumerate() {
            if matches!(c, 'v' | 'V' | '_' | '-') {
                sep = Some(i);
                break;
            }
        }
        let Some(sep) = sep else {
            return Err(MaterialError::MissingSeparator);
        };
        let mut after = sep + 1;
        if chars.get(after).is_some_and(|c| matches!(c, 's' | 'S')) {
            after += 1;
        }
        let mut sides: [Vec<PieceKind>; 2] = [Vec::new(), Vec::new()];
        let parts = [(0, sep), (after, chars.len())];
        for (c, &(start, end)) in parts.iter().enumerate() {
            let color = Color::ALL[c];
            let mut generals = 0;
            for (i, &ch) in chars.iter().enumerate().take(end).skip(start) {
                if ch.is_whitespace() {
                    continue;
                }
                let kind = match ch.to_ascii_uppercase() {
                    'K' => PieceKind::General,
                    'A' => PieceKind::Advisor,
                    'B' => PieceKind::Elephant,
                    'R' => PieceKind::Rook,
                    'N' => PieceKind::Horse,
                    'C' => PieceKind::Cannon,
                    'P' => PieceKind::Pawn,
                    _ => return Err(MaterialError::BadLetter { at: i, letter: ch }),
                };
                if kind == PieceKind::General {
                    generals += 1;
                } else {
                    sides[c].push(kind);
                }
            }
            if generals != 1 {
                return Err(MaterialError::General { color });
            }
        }
        Material::within(&sides[0], &sides[1], max_attackers)
    }
}

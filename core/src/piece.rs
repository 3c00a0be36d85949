//! Piece kinds and coloured pieces, with their letters (FEN) and characters (汉字).

use crate::Color;
use std::fmt;

/// The seven kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// 帅/将, the general (king). FEN `K`.
    General = 0,
    /// 仕/士, the advisor. FEN `A`.
    Advisor = 1,
    /// 相/象, the elephant. FEN `B` (also read as `E`).
    Elephant = 2,
    /// 马, the horse. FEN `N` (also read as `H`).
    Horse = 3,
    /// 车, the chariot (rook). FEN `R`.
    Rook = 4,
    /// 炮, the cannon. FEN `C`.
    Cannon = 5,
    /// 兵/卒, the soldier (pawn). FEN `P`.
    Pawn = 6,
}

impl PieceKind {
    /// All kinds, general first.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// How many of this kind one side has in a full set (1 general, 5 pawns, 2 of the rest).
    pub const fn count_in_set(self) -> usize {
        match self {
            PieceKind::General => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// The upper-case FEN letter (`K A B N R C P`).
    pub const fn fen_char(self) -> char {
        match self {
            PieceKind::General => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// Reads a FEN letter of either case; `E` and `H` are accepted for elephant and horse.
    pub const fn from_fen_char(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::General,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Rook,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }

    #[inline]
    pub(crate) const fn from_index(i: u8) -> PieceKind {
        PieceKind::ALL[i as usize]
    }
}

/// A piece of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind it is.
    pub kind: PieceKind,
}

impl Piece {
    /// Makes a piece.
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// The FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.kind.fen_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter (case gives the colour).
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        match PieceKind::from_fen_char(c) {
            Some(kind) => {
                let color = if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                };
                Some(Piece { color, kind })
            }
            None => None,
        }
    }

    /// The piece's character in simplified Chinese: 帅仕相马车炮兵 for Red, 将士象马车炮卒 for Black.
    ///
    /// ```
    /// use chuhe_core::{Color, Piece, PieceKind};
    /// assert_eq!(Piece::new(Color::Red, PieceKind::Elephant).hanzi(), '相');
    /// assert_eq!(Piece::new(Color::Black, PieceKind::Pawn).hanzi(), '卒');
    /// ```
    pub const fn hanzi(self) -> char {
        match (self.color, self.kind) {
            (Color::Red, PieceKind::General) => '帅',
            (Color::Red, PieceKind::Advisor) => '仕',
            (Color::Red, PieceKind::Elephant) => '相',
            (Color::Red, PieceKind::Pawn) => '兵',
            (Color::Black, PieceKind::General) => '将',
            (Color::Black, PieceKind::Advisor) => '士',
            (Color::Black, PieceKind::Elephant) => '象',
            (Color::Black, PieceKind::Pawn) => '卒',
            (_, PieceKind::Horse) => '马',
            (_, PieceKind::Rook) => '车',
            (_, PieceKind::Cannon) => '炮',
        }
    }

    /// The piece's character in traditional Chinese (zh-TW): 帥仕相傌俥炮兵 for Red,
    /// 將士象馬車砲卒 for Black.
    pub const fn hanzi_traditional(self) -> char {
        match (self.color, self.kind) {
            (Color::Red, PieceKind::General) => '帥',
            (Color::Red, PieceKind::Advisor) => '仕',
            (Color::Red, PieceKind::Elephant) => '相',
            (Color::Red, PieceKind::Horse) => '傌',
            (Color::Red, PieceKind::Rook) => '俥',
            (Color::Red, PieceKind::Cannon) => '炮',
            (Color::Red, PieceKind::Pawn) => '兵',
            (Color::Black, PieceKind::General) => '將',
            (Color::Black, PieceKind::Advisor) => '士',
            (Color::Black, PieceKind::Elephant) => '象',
            (Color::Black, PieceKind::Horse) => '馬',
            (Color::Black, PieceKind::Rook) => '車',
            (Color::Black, PieceKind::Cannon) => '砲',
            (Color::Black, PieceKind::Pawn) => '卒',
        }
    }

    /// A dense code 1..=14 used by the board array (0 is an empty point).
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        1 + self.color as u8 * 7 + self.kind as u8
    }

    /// Inverse of [`Piece::code`]; `code` must be in 1..=14.
    #[inline]
    pub(crate) const fn from_code(code: u8) -> Piece {
        let c = code - 1;
        Piece {
            color: if c >= 7 { Color::Black } else { Color::Red },
            kind: PieceKind::from_index(c % 7),
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

//! Files, ranks and points of the board in ICCS coordinates: files `a`–`i` from Red's left,
//! ranks `0`–`9` from Red's side, so `h2e2` is 炮二平五.
//!
//! A [`Square`] is always one of the 90 points; there is no off-board value to check for.

use crate::Color;
use std::fmt;
use std::str::FromStr;

/// A file (vertical line), `a`–`i` from Red's left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank (horizontal line), `0`–`9` from Red's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

/// One of the 90 points of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl File {
    /// Number of files.
    pub const COUNT: usize = 9;

    /// File from 0 (`a`) to 8 (`i`).
    pub const fn new(index: u8) -> Option<File> {
        if index < 9 { Some(File(index)) } else { None }
    }

    /// 0 for `a` … 8 for `i`.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The ICCS letter, `a`–`i`.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// Reads an ICCS file letter of either case.
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='i' => Some(File(c as u8 - b'a')),
            'A'..='I' => Some(File(c as u8 - b'A')),
            _ => None,
        }
    }

    /// The file number as `color` counts it, 1–9 from that player's right (中线 is 5):
    /// Red's file `a` is 九 (9), Black's file `a` is 1.
    ///
    /// ```
    /// use chuhe_core::{Color, File};
    /// let h = File::from_char('h').unwrap();
    /// assert_eq!(h.number_for(Color::Red), 2); // 炮二
    /// assert_eq!(h.number_for(Color::Black), 8);
    /// ```
    pub const fn number_for(self, color: Color) -> u8 {
        match color {
            Color::Red => 9 - self.0,
            Color::Black => self.0 + 1,
        }
    }

    /// Inverse of [`File::number_for`].
    pub const fn from_number(number: u8, color: Color) -> Option<File> {
        if number < 1 || number > 9 {
            return None;
        }
        Some(match color {
            Color::Red => File(9 - number),
            Color::Black => File(number - 1),
        })
    }

    /// Left–right mirror image (`a` ↔ `i`).
    pub const fn mirror(self) -> File {
        File(8 - self.0)
    }
}

impl Rank {
    /// Number of ranks.
    pub const COUNT: usize = 10;

    /// Rank from 0 (Red's back rank) to 9 (Black's back rank).
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 10 { Some(Rank(index)) } else { None }
    }

    /// 0 … 9 from Red's side.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The ICCS digit, `0`–`9`.
    pub const fn char(self) -> char {
        (b'0' + self.0) as char
    }

    /// Reads an ICCS rank digit.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '0'..='9' => Some(Rank(c as u8 - b'0')),
            _ => None,
        }
    }

    /// The rank counted from `color`'s own side, 0 = its back rank (底线).
    pub const fn relative_to(self, color: Color) -> u8 {
        match color {
            Color::Red => self.0,
            Color::Black => 9 - self.0,
        }
    }

    /// Whether this rank is on `color`'s own half of the river.
    pub const fn is_own_half(self, color: Color) -> bool {
        self.relative_to(color) <= 4
    }

    /// Top–bottom mirror image (0 ↔ 9).
    pub const fn flip(self) -> Rank {
        Rank(9 - self.0)
    }
}

impl Square {
    /// Number of points.
    pub const COUNT: usize = 90;

    /// Every point, in order of rank then file (`a0`, `b0`, … `i9`).
    pub const ALL: [Square; 90] = {
        let mut all = [Square(0); 90];
        let mut i = 0;
        while i < 90 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The point at `file` and `rank`.
    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank.0 * 9 + file.0)
    }

    /// The point with index `rank * 9 + file`, if below 90.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 90 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The point at file and rank indices, if both are on the board.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 90);
        Square(index)
    }

    /// `rank * 9 + file`, 0..90.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The file of this point.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 % 9)
    }

    /// The rank of this point.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / 9)
    }

    /// The point moved by `(df, dr)` files and ranks, if still on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = (self.0 % 9) as i8 + df;
        let r = (self.0 / 9) as i8 + dr;
        if f >= 0 && f < 9 && r >= 0 && r < 10 {
            Some(Square((r * 9 + f) as u8))
        } else {
            None
        }
    }

    /// Left–right mirror image.
    pub const fn mirror(self) -> Square {
        Square::new(self.file().mirror(), self.rank())
    }

    /// Top–bottom mirror image (used to swap the colours of a position).
    pub const fn flip(self) -> Square {
        Square::new(self.file(), self.rank().flip())
    }

    /// Whether this point is inside `color`'s palace (九宫): files d–f, its three back ranks.
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.0 % 9;
        let r = Rank(self.0 / 9).relative_to(color);
        f >= 3 && f <= 5 && r <= 2
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Square {
    /// ICCS name such as `h2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

/// A string that is not an ICCS point name such as `e0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a point name (expected a file a–i and a rank 0–9, such as e0)")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (File::from_char(f), Rank::from_char(r)) {
                (Some(f), Some(r)) => Ok(Square::new(f, r)),
                _ => Err(ParseSquareError),
            },
            _ => Err(ParseSquareError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
    }

    #[test]
    fn file_numbers_count_from_each_players_right() {
        let a = File::from_char('a').unwrap();
        assert_eq!(a.number_for(Color::Red), 9);
        assert_eq!(a.number_for(Color::Black), 1);
        for n in 1..=9 {
            for c in Color::ALL {
                assert_eq!(File::from_number(n, c).unwrap().number_for(c), n);
            }
        }
    }

    #[test]
    fn palaces() {
        let inside: Vec<String> = Square::ALL
            .iter()
            .filter(|s| s.in_palace(Color::Black))
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            inside,
            ["d7", "e7", "f7", "d8", "e8", "f8", "d9", "e9", "f9"]
        );
    }
}

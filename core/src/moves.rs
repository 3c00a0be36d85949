//! The move type shared by every notation, and a fixed-capacity move list.

use crate::Square;
use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

/// A move from one point to another. Whether it is legal depends on a position; the
/// notations (ICCS here, Chinese and WXF elsewhere) all parse into and print from this type.
///
/// `Display` and `FromStr` use ICCS coordinates:
/// ```
/// use chuhe_core::Move;
/// let m: Move = "h2e2".parse().unwrap(); // 炮二平五
/// assert_eq!(m.to_string(), "h2e2");
/// assert_eq!("H2-E2".parse::<Move>(), Ok(m));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes (an empty point, or an enemy piece it captures).
    pub to: Square,
}

impl Move {
    /// Makes a move.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Text that is not a coordinate move such as `h2e2` (or the PGN form `H2-E2`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError;

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a coordinate move (expected four characters such as h2e2)")
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let (a, b) = match s.len() {
            4 if s.is_ascii() => (&s[..2], &s[2..]),
            5 if s.is_ascii() && &s[2..3] == "-" => (&s[..2], &s[3..]),
            _ => return Err(ParseMoveError),
        };
        match (a.parse::<Square>(), b.parse::<Square>()) {
            (Ok(from), Ok(to)) if from != to => Ok(Move { from, to }),
            _ => Err(ParseMoveError),
        }
    }
}

/// The most moves a side can have in any position is well under this.
const CAPACITY: usize = 256;

/// A list of moves on the stack, filled by move generation.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; CAPACITY],
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        let a = Square::ALL[0];
        MoveList {
            len: 0,
            moves: [Move::new(a, a); CAPACITY],
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        debug_assert!(self.len < CAPACITY);
        // The bound is never reached (a side has at most about 120 pseudo-legal moves);
        // the check keeps this safe without `unsafe`.
        if self.len < CAPACITY {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub(crate) fn truncate(&mut self, len: usize) {
        self.len = len.min(self.len);
    }

    #[inline]
    pub(crate) fn set(&mut self, i: usize, m: Move) {
        self.moves[i] = m;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

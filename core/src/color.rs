//! The two sides. Red (红方) moves first and starts on ranks 0–4; Black (黑方) on ranks 5–9.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Not;

/// A side: Red (红) or Black (黑).
/// Stored by name (`Red`, `Black`), as training keeps a repertoire's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Color {
    /// 红方, moves first, starts at the bottom (ranks 0–4).
    Red = 0,
    /// 黑方, starts at the top (ranks 5–9).
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// 0 for Red, 1 for Black: an index for per-side tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter: `w` for Red (the engine convention), `b` for Black.
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

//! Search values: centipawns from the side to move's point of view, with a band at the top
//! and bottom for mates found at a known distance, and the [`Score`] shown to users (and
//! kept in game records).

use std::fmt;

/// A search value in centipawns for the side to move.
pub(crate) type Value = i32;

/// Deeper than any search goes (extensions included); sizes the per-ply stacks.
pub(crate) const MAX_PLY: usize = 128;
/// Above every real value: the initial window.
pub(crate) const INFINITE: Value = 32_000;
/// The value of mating at once (at ply 0); a mate `n` plies from the root is `MATE - n`.
pub(crate) const MATE: Value = 31_000;
/// Values at or beyond this are mates (or losses by rule, which end the game alike).
pub(crate) const MATE_IN_MAX_PLY: Value = MATE - MAX_PLY as Value;
/// Marks "no value" (an unknown static evaluation).
pub(crate) const NONE: Value = 32_001;

/// The value of mating `ply` plies from the root.
#[inline]
pub(crate) const fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// The value of being mated `ply` plies from the root.
#[inline]
pub(crate) const fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// Whether `v` is a mate score (for either side).
#[inline]
pub(crate) const fn is_mate(v: Value) -> bool {
    v.abs() >= MATE_IN_MAX_PLY
}

/// A score as engines report it, from one side's point of view: the side to move in a
/// search's lines, Red in a record's [`Evaluation`](crate::record::Evaluation) (PGN's
/// `[%eval]`).
///
/// ```
/// use chuhe_core::search::Score;
/// assert_eq!(Score::Cp(35).to_string(), "cp 35");
/// assert_eq!(Score::Mate(-2).to_string(), "mate -2");
/// assert!(Score::Mate(3) > Score::Cp(900));
/// assert!(Score::Mate(1) > Score::Mate(3));
/// assert!(Score::Mate(-1) < Score::Mate(-4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (a pawn before the river is about 100).
    Cp(i32),
    /// Mate in this many moves of the winner: positive when the side it belongs to mates,
    /// negative when it is mated. A loss by the repetition rules (长将) counts as a mate at
    /// the move that completes the cycle. `Mate(0)`: already mated (or 困毙).
    Mate(i32),
}

impl Score {
    /// Converts an internal value (mate distances in plies from the root).
    pub(crate) fn from_value(v: Value) -> Score {
        if v >= MATE_IN_MAX_PLY {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_IN_MAX_PLY {
            Score::Mate(-((MATE + v + 1) / 2))
        } else {
            Score::Cp(v)
        }
    }

    /// The same score from the other side's point of view.
    pub fn negate(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
        }
    }

    /// A number that orders scores (higher is better for the side the score belongs to).
    fn rank(self) -> i64 {
        match self {
            Score::Cp(cp) => cp as i64,
            Score::Mate(n) if n > 0 => 1_000_000 - n as i64,
            Score::Mate(n) => -1_000_000 - n as i64,
        }
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Score) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl fmt::Display for Score {
    /// The UCI form: `cp 35`, `mate 3`, `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_values_convert_to_moves() {
        // Mating with the first move is one ply deep: mate in 1.
        assert_eq!(Score::from_value(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_value(mate_in(5)), Score::Mate(3));
        // Mated after the opponent's reply to our move: two plies, mated in 1.
        assert_eq!(Score::from_value(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_value(mated_in(0)), Score::Mate(0));
        // A loss by rule on the opponent's reply to our move (长将 completed by it).
        assert_eq!(Score::from_value(mated_in(1)), Score::Mate(-1));
        assert_eq!(Score::from_value(123), Score::Cp(123));
        assert!(is_mate(mated_in(40)) && !is_mate(2_000));
    }
}

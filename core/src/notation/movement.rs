//! What the file-based notations (Chinese, WXF, the short record) say after naming the
//! piece: the direction, 进/退/平, and one number, which is the destination file for a
//! sideways move and for every move of the horse, elephant and advisor (they change file
//! whenever they move), and the number of ranks for the general, rook, cannon and pawn
//! moving along their file. This module turns that into points and finds the one legal move
//! a description names.

use super::{NotationError, NotationErrorKind, Reader};
use crate::{Color, File, IllegalMove, Move, PieceKind, Position, Square};

/// The direction of a move from the mover's side: 进 towards the enemy, 退 back, 平 along
/// the rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Action {
    Forward,
    Backward,
    Sideways,
}

impl Action {
    /// The direction of `m` for `color`.
    pub(super) fn of(m: Move, color: Color) -> Action {
        let from = m.from.rank().relative_to(color);
        let to = m.to.rank().relative_to(color);
        match to.cmp(&from) {
            std::cmp::Ordering::Greater => Action::Forward,
            std::cmp::Ordering::Less => Action::Backward,
            std::cmp::Ordering::Equal => Action::Sideways,
        }
    }
}

/// Whether the last number of a `kind` move is always a file (马相仕 move diagonally).
fn moves_diagonally(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Horse | PieceKind::Elephant | PieceKind::Advisor
    )
}

/// The number written after the action for `m`, a move of a `kind` piece of `color`.
pub(super) fn number_of(m: Move, kind: PieceKind, color: Color) -> u8 {
    if moves_diagonally(kind) || Action::of(m, color) == Action::Sideways {
        m.to.file().number_for(color)
    } else {
        m.to.rank().index().abs_diff(m.from.rank().index())
    }
}

/// Where a `kind` piece of `color` on `from` lands moving `action` with `number`, if that
/// is a point of the board reached by a step of the piece's shape (not yet checked against
/// the other pieces).
pub(super) fn destination(
    color: Color,
    kind: PieceKind,
    from: Square,
    action: Action,
    number: u8,
) -> Option<Square> {
    let forward: i8 = match color {
        Color::Red => 1,
        Color::Black => -1,
    };
    let sign = match action {
        Action::Forward => forward,
        Action::Backward => -forward,
        Action::Sideways => {
            let file = File::from_number(number, color)?;
            return (!moves_diagonally(kind) && file != from.file())
                .then(|| Square::new(file, from.rank()));
        }
    };
    if !moves_diagonally(kind) {
        let steps = i8::try_from(number).ok()?;
        return from.offset(0, sign * steps);
    }
    let file = File::from_number(number, color)?;
    let df = file.index() as i8 - from.file().index() as i8;
    let ranks = match (kind, df.abs()) {
        (PieceKind::Advisor, 1) => 1,
        (PieceKind::Elephant, 2) => 2,
        (PieceKind::Horse, 1) => 2,
        (PieceKind::Horse, 2) => 1,
        _ => return None,
    };
    from.offset(df, sign * ranks)
}

/// The moves a description could mean, sorted by legality.
#[derive(Default)]
pub(super) struct Candidates {
    legal: Vec<Move>,
    illegal: Vec<IllegalMove>,
}

impl Candidates {
    /// The moves of the pieces on `origins` (all of the side to move) that go `action` with
    /// `number`.
    pub(super) fn new(
        pos: &Position,
        kind: PieceKind,
        origins: &[Square],
        action: Action,
        number: u8,
    ) -> Candidates {
        let color = pos.side_to_move();
        let mut c = Candidates::default();
        for &from in origins {
            if let Some(to) = destination(color, kind, from, action, number) {
                c.push(pos, Move::new(from, to));
            }
        }
        c
    }

    /// Adds `m` to the legal or the illegal moves.
    pub(super) fn push(&mut self, pos: &Position, m: Move) {
        match pos.check_move(m) {
            Ok(()) => self.legal.push(m),
            Err(e) => self.illegal.push(e),
        }
    }

    /// Whether some move fits at all, legal or not.
    pub(super) fn is_empty(&self) -> bool {
        self.legal.is_empty() && self.illegal.is_empty()
    }

    /// Whether exactly one legal move fits.
    pub(super) fn is_unique(&self) -> bool {
        self.legal.len() == 1
    }

    /// Takes in the moves of `other` as well.
    pub(super) fn extend(&mut self, other: Candidates) {
        self.legal.extend(other.legal);
        self.illegal.extend(other.illegal);
    }

    /// The one legal move, or why there is none or more than one. `origin_at` is where the
    /// piece was named, `number_at` where the number was.
    pub(super) fn settle(
        self,
        reader: Reader<'_>,
        origin_at: usize,
        number_at: usize,
    ) -> Result<Move, NotationError> {
        match (self.legal.len(), self.illegal.first()) {
            (1, _) => Ok(self.legal[0]),
            (0, Some(&e)) => Err(reader.error(origin_at, NotationErrorKind::Illegal(e))),
            (0, None) => Err(reader.error(number_at, NotationErrorKind::ImpossibleMove)),
            _ => Err(reader.error(
                origin_at,
                NotationErrorKind::Ambiguous {
                    candidates: self.legal,
                },
            )),
        }
    }
}

/// A move as a file-based notation describes it: the pieces its origin can name, the
/// direction and the number.
pub(super) struct Described {
    pub kind: PieceKind,
    pub origins: Vec<Square>,
    pub action: Action,
    pub number: u8,
}

impl Described {
    /// The one legal move described; no origins means no piece fits the name.
    pub(super) fn settle(
        self,
        pos: &Position,
        reader: Reader<'_>,
        origin_at: usize,
        number_at: usize,
    ) -> Result<Move, NotationError> {
        if self.origins.is_empty() {
            return Err(reader.error(origin_at, NotationErrorKind::NoSuchPiece));
        }
        Candidates::new(pos, self.kind, &self.origins, self.action, self.number)
            .settle(reader, origin_at, number_at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn destinations_follow_each_pieces_shape() {
        use PieceKind::*;
        let d = |color, kind, from, action, n| destination(color, kind, sq(from), action, n);
        assert_eq!(
            d(Color::Red, Cannon, "h2", Action::Sideways, 5),
            Some(sq("e2"))
        );
        assert_eq!(
            d(Color::Black, Horse, "h9", Action::Forward, 7),
            Some(sq("g7"))
        );
        assert_eq!(
            d(Color::Red, Horse, "h0", Action::Forward, 1),
            Some(sq("i2"))
        );
        assert_eq!(
            d(Color::Red, Elephant, "c0", Action::Forward, 5),
            Some(sq("e2"))
        );
        assert_eq!(
            d(Color::Black, Advisor, "d9", Action::Forward, 5),
            Some(sq("e8"))
        );
        assert_eq!(
            d(Color::Black, Rook, "a9", Action::Forward, 2),
            Some(sq("a7"))
        );
        assert_eq!(d(Color::Red, Rook, "a0", Action::Backward, 1), None);
        assert_eq!(d(Color::Red, Horse, "h0", Action::Sideways, 3), None);
        assert_eq!(d(Color::Red, Horse, "h0", Action::Forward, 5), None);
        assert_eq!(d(Color::Red, Rook, "a0", Action::Sideways, 9), None);
    }

    #[test]
    fn numbers_are_files_or_counts() {
        use PieceKind::*;
        let m = |s: &str| s.parse::<Move>().unwrap();
        assert_eq!(number_of(m("h2e2"), Cannon, Color::Red), 5);
        assert_eq!(number_of(m("h2h9"), Cannon, Color::Red), 7);
        assert_eq!(number_of(m("h9g7"), Horse, Color::Black), 7);
        assert_eq!(number_of(m("a9a7"), Rook, Color::Black), 2);
    }
}

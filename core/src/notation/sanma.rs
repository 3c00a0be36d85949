//! 一字三码 (the seed's 第九节, 新编棋步的读法与记法): one piece character and three
//! digits — the file the piece stands on, the file it goes to and the rank it goes to, all
//! counted from the mover's side: 马325, 将451, 车220. Ranks run 1 (the mover's back rank)
//! to 10 (the enemy's back rank), and 10 is written 0 "为不出现两位横码".
//!
//! "当车、马、炮、相象、士仕，双子在同列且都能同达落子点的情况下略去第一数，用进、退区别":
//! when two like pieces on one file can both reach the point, the first digit is dropped
//! and 进/退 tells them apart (马进25, 马退25). One of them always advances and the other
//! retreats, so this is always enough; pawns and the general never need it.

use super::hanzi::{self, piece_kind};
use super::input::Input;
use super::movement::{Action, Candidates};
use super::stacks::Stacks;
use super::{Expected, NotationError, NotationErrorKind, Reader, digit};
use crate::{Color, File, Move, Position, Rank, Square};

/// Writes the legal move `m` of `pos`.
pub(super) fn format(pos: &Position, m: Move) -> String {
    let Some(piece) = pos.piece_at(m.from) else {
        return m.to_string();
    };
    let color = piece.color;
    let stacks = Stacks::new(pos, color, piece.kind);
    let same_file_reaches = stacks
        .file(m.from.file().number_for(color))
        .iter()
        .any(|&other| other != m.from && pos.is_legal(Move::new(other, m.to)));
    let mut out = String::new();
    out.push(piece.hanzi());
    if same_file_reaches {
        hanzi::write_action(&mut out, Action::of(m, color), false);
    } else {
        out.push(digit(m.from.file().number_for(color)));
    }
    out.push(digit(m.to.file().number_for(color)));
    out.push(digit((m.to.rank().relative_to(color) + 1) % 10));
    out
}

/// A digit 0–9 (0 being rank 10), ASCII or full-width.
fn read_digit(c: char) -> Option<u8> {
    c.to_digit(10).map(|d| d as u8)
}

/// Reads 马325 or 马进25.
pub(super) fn parse(pos: &Position, reader: Reader<'_>) -> Result<Move, NotationError> {
    let mut inp = Input::open(reader)?;
    let color = pos.side_to_move();
    let origin_at = inp.offset();
    let kind = inp.expect(reader, Expected::Piece, piece_kind)?;
    enum Origin {
        File(u8),
        Direction(Action),
    }
    let origin = inp.expect(reader, Expected::Origin, |c| match hanzi::action(c) {
        Some(Action::Sideways) => None,
        Some(action) => Some(Origin::Direction(action)),
        None => read_digit(c).filter(|&d| d > 0).map(Origin::File),
    })?;
    let file_at = inp.offset();
    let to_file = inp.expect(reader, Expected::Number, |c| {
        read_digit(c).and_then(|d| File::from_number(d, color))
    })?;
    let rank = inp.expect(reader, Expected::Number, read_digit)?;
    inp.expect_end(reader)?;
    let Some(to) = to_square(to_file, rank, color) else {
        return Err(reader.error(file_at, NotationErrorKind::ImpossibleMove));
    };
    let stacks = Stacks::new(pos, color, kind);
    let origins: Vec<Square> = match origin {
        Origin::File(n) => stacks.file(n).to_vec(),
        Origin::Direction(action) => (1..=9)
            .flat_map(|n| stacks.file(n).iter().copied())
            .filter(|&from| Action::of(Move::new(from, to), color) == action)
            .collect(),
    };
    if origins.is_empty() {
        return Err(reader.error(origin_at, NotationErrorKind::NoSuchPiece));
    }
    let mut candidates = Candidates::default();
    for from in origins.into_iter().filter(|&from| from != to) {
        candidates.push(pos, Move::new(from, to));
    }
    candidates.settle(reader, origin_at, file_at)
}

/// The point on `file` at `rank` counted from `color`'s back rank (1–10, 0 meaning 10).
fn to_square(file: File, rank: u8, color: Color) -> Option<Square> {
    let relative = if rank == 0 { 9 } else { rank - 1 };
    let index = match color {
        Color::Red => relative,
        Color::Black => 9 - relative,
    };
    Some(Square::new(file, Rank::new(index)?))
}

#[cfg(test)]
mod tests {
    use super::super::{Notation, parse_move};
    use super::*;

    #[test]
    fn the_seeds_examples() {
        // 马325: a red horse from file 3 to file 2, rank 5 (马三进二 from g2).
        let pos: Position =
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/6P2/P1P1P3P/1C4NC1/9/RNBAKAB1R w - - 0 1"
                .parse()
                .unwrap();
        let m = parse_move(&pos, "马325", Notation::YiZiSanMa).unwrap();
        assert_eq!(m.to_string(), "g2h4");
        assert_eq!(format(&pos, m), "马325");
        // 将451: the general from file 4 to file 5, rank 1.
        let pos: Position = "3k5/9/9/9/4P4/9/9/9/9/4K4 b - - 0 1".parse().unwrap();
        let m = parse_move(&pos, "将451", Notation::YiZiSanMa).unwrap();
        assert_eq!(m.to_string(), "d9e9");
        // 车220: a red rook from file 2 to the enemy's back rank, written 0.
        let pos: Position = "4k4/9/9/9/4P4/9/9/9/9/4K2R1 w - - 0 1".parse().unwrap();
        let m = parse_move(&pos, "车220", Notation::YiZiSanMa).unwrap();
        assert_eq!(m.to_string(), "h0h9");
        assert_eq!(format(&pos, m), "车220");
    }

    #[test]
    fn the_first_digit_is_dropped_when_both_pieces_reach_the_point() {
        // Red rooks on d0 and d6 can both go to d3; only the one on d6 reaches a6.
        let pos: Position = "4k4/9/9/3R5/4P4/9/9/9/9/3RK4 w - - 0 1".parse().unwrap();
        let up: Move = "d0d3".parse().unwrap();
        let down: Move = "d6d3".parse().unwrap();
        assert_eq!(format(&pos, up), "车进64");
        assert_eq!(format(&pos, down), "车退64");
        assert_eq!(parse_move(&pos, "车进64", Notation::YiZiSanMa), Ok(up));
        assert_eq!(parse_move(&pos, "車退64", Notation::YiZiSanMa), Ok(down));
        let err = parse_move(&pos, "车664", Notation::YiZiSanMa).unwrap_err();
        assert!(matches!(err.kind, NotationErrorKind::Ambiguous { .. }));
        assert_eq!(format(&pos, "d6a6".parse().unwrap()), "车697");
    }
}

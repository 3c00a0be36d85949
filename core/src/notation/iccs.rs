//! ICCS coordinates: the from and to points, files `a`–`i` from Red's left and ranks `0`–`9`
//! from Red's side. Engines write `h2e2`, PGN files `H2-E2`; both are read in either case.

use super::input::Input;
use super::{Expected, NotationError, NotationErrorKind, Reader};
use crate::{File, Move, Position, Rank, Square};

/// `h2e2`.
pub(super) fn format(m: Move) -> String {
    m.to_string()
}

/// `H2-E2`.
pub(super) fn format_pgn(m: Move) -> String {
    format!("{}-{}", m.from, m.to).to_ascii_uppercase()
}

/// Whether normalised characters look like a coordinate move (letter, digit, optional `-`,
/// letter, digit).
pub(super) fn has_shape(chars: &[char]) -> bool {
    let coords: Vec<char> = match chars {
        [a, b, '-', c, d] | [a, b, c, d] => vec![*a, *b, *c, *d],
        _ => return false,
    };
    File::from_char(coords[0]).is_some()
        && Rank::from_char(coords[1]).is_some()
        && File::from_char(coords[2]).is_some()
        && Rank::from_char(coords[3]).is_some()
}

/// Reads `h2e2` or `H2-E2` and checks the move is legal.
pub(super) fn parse(pos: &Position, reader: Reader<'_>) -> Result<Move, NotationError> {
    let mut inp = Input::open(reader)?;
    let from = read_square(&mut inp, reader)?;
    if inp.peek() == Some('-') {
        inp.bump();
    }
    let to = read_square(&mut inp, reader)?;
    inp.expect_end(reader)?;
    let m = Move::new(from, to);
    pos.check_move(m)
        .map(|()| m)
        .map_err(|e| reader.error(0, NotationErrorKind::Illegal(e)))
}

fn read_square(inp: &mut Input, reader: Reader<'_>) -> Result<Square, NotationError> {
    let file = inp.expect(reader, Expected::Coordinate, File::from_char)?;
    let rank = inp.expect(reader, Expected::Coordinate, Rank::from_char)?;
    Ok(Square::new(file, rank))
}

//! The WXF notation, the World Xiangqi Federation's letter form of the Chinese record:
//! piece letter, file, `+` (进) / `-` (退) / `.` (平), number, as in `C2.5`, `H2+3`.
//!
//! Pieces sharing a file follow the WXF's published "Official Xiangqi piece names and
//! notation": "the digit denoting the file position of the tandem pieces is replaced by +
//! for front piece, and – for rear piece" (`R+.3`, `C--1`), and its special cases for
//! tandem pawns: three on a file are `P+`, `P3` (the mid-pawn, "neither front nor rear",
//! keeps the normal notation) and `P-`; four are `++`, `P+`, `P-`, `--`; five add the mid
//! pawn `P3`; with tandem pawns on two files "the first digit denotes the file of the pawn
//! to move": `3+.4`, `33.4`, `3-.4`, `7+.6`, `7-.6`. Advisors and elephants keep their file
//! (`A6+5`): the direction already tells which one moves.
//!
//! Read as well: `=` for `.`, either case, full-width characters, `+C-2` (sign first),
//! a missing `.` (`C25`), `N`/`B` for horse/elephant, xqbase's `Pa`…`Pe` for the first to
//! fifth pawn, and Fairy-Stockfish's forms: `15=6` (first pawn counted from the front, on
//! file 5) and a file digit for tandem pieces when only one of them can make the move.

use super::input::Input;
use super::movement::{self, Action, Described};
use super::stacks::Stacks;
use super::{Expected, NotationError, Reader, digit};
use crate::{Move, PieceKind, Position, Square};

/// Writes the legal move `m` of `pos`.
pub(super) fn format(pos: &Position, m: Move) -> String {
    let Some(piece) = pos.piece_at(m.from) else {
        return m.to_string();
    };
    let (color, kind) = (piece.color, piece.kind);
    let stacks = Stacks::new(pos, color, kind);
    let place = stacks.place(m.from);
    let file = digit(place.file);
    let letter = letter(kind);
    let last = place.count.saturating_sub(1);
    let mut out = String::new();
    match kind {
        PieceKind::General | PieceKind::Advisor | PieceKind::Elephant => {
            out.extend([letter, file]);
        }
        _ if place.count < 2 => out.extend([letter, file]),
        PieceKind::Pawn if stacks.shared_count() >= 2 => {
            let second = match (place.count, place.index) {
                (_, 0) => '+',
                (3, 1) => file,
                _ => '-',
            };
            out.extend([file, second]);
        }
        PieceKind::Pawn => out.extend(match (place.count, place.index) {
            (4 | 5, 0) => ['+', '+'],
            (4 | 5, 1) | (2 | 3, 0) => [letter, '+'],
            (4 | 5, i) if i == last => ['-', '-'],
            (3, 1) | (5, 2) => [letter, file],
            _ => [letter, '-'],
        }),
        _ => out.extend([letter, if place.index == 0 { '+' } else { '-' }]),
    }
    out.push(match Action::of(m, color) {
        Action::Forward => '+',
        Action::Backward => '-',
        Action::Sideways => '.',
    });
    out.push(digit(movement::number_of(m, kind, color)));
    out
}

/// The WXF letter of a kind (upper case).
fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::General => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

/// How a WXF text names the moving piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// `C2`: the piece on a file.
    File(PieceKind, u8),
    /// `R+`, `P-` (or `+R`): the front or rear one of a shared file.
    Sign(PieceKind, Sign),
    /// `++`, `--`: the foremost or rearmost of four or five pawns on a file.
    Extreme(Sign),
    /// `3+`, `3-`: front or rear pawn of file 3, with pawns stacked on two files.
    FileSign(u8, Sign),
    /// Two digits: `33` is the mid pawn of file 3 when pawns are stacked on two files;
    /// Fairy-Stockfish writes `15` for the first pawn from the front on file 5.
    Digits(u8, u8),
    /// xqbase's `Pa`…`Pe`: the first to fifth pawn.
    Nth(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sign {
    Plus,
    Minus,
}

/// One symbol of a WXF text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Symbol {
    Piece(PieceKind),
    Digit(u8),
    Sign(Sign),
    Dot,
    Ordinal(u8),
}

fn symbol(c: char) -> Option<Symbol> {
    Some(match c.to_ascii_uppercase() {
        '1'..='9' => Symbol::Digit(c as u8 - b'0'),
        '+' => Symbol::Sign(Sign::Plus),
        '-' => Symbol::Sign(Sign::Minus),
        '.' | '=' => Symbol::Dot,
        'K' => Symbol::Piece(PieceKind::General),
        'A' => Symbol::Piece(PieceKind::Advisor),
        'E' | 'B' => Symbol::Piece(PieceKind::Elephant),
        'H' | 'N' => Symbol::Piece(PieceKind::Horse),
        'R' => Symbol::Piece(PieceKind::Rook),
        'C' => Symbol::Piece(PieceKind::Cannon),
        'P' => Symbol::Piece(PieceKind::Pawn),
        _ => return None,
    })
}

/// Reads a WXF move.
pub(super) fn parse(pos: &Position, reader: Reader<'_>) -> Result<Move, NotationError> {
    let mut inp = Input::open(reader)?;
    let origin_at = inp.offset();
    let origin = read_origin(&mut inp, reader)?;
    // The action; a missing one (C25) is a sideways move.
    let action = if inp.remaining() == 1 {
        Action::Sideways
    } else {
        inp.expect(reader, Expected::Action, |c| match symbol(c)? {
            Symbol::Sign(Sign::Plus) => Some(Action::Forward),
            Symbol::Sign(Sign::Minus) => Some(Action::Backward),
            Symbol::Dot => Some(Action::Sideways),
            _ => None,
        })?
    };
    let number_at = inp.offset();
    let number = inp.expect(reader, Expected::Number, |c| match symbol(c)? {
        Symbol::Digit(n) => Some(n),
        _ => None,
    })?;
    inp.expect_end(reader)?;
    let kind = match origin {
        Origin::File(kind, _) | Origin::Sign(kind, _) => kind,
        _ => PieceKind::Pawn,
    };
    let stacks = Stacks::new(pos, pos.side_to_move(), kind);
    Described {
        kind,
        origins: origins(&stacks, origin),
        action,
        number,
    }
    .settle(pos, reader, origin_at, number_at)
}

/// Reads the two symbols naming the piece.
fn read_origin(inp: &mut Input, reader: Reader<'_>) -> Result<Origin, NotationError> {
    let first = inp.expect(reader, Expected::Piece, |c| {
        symbol(c).filter(|s| !matches!(s, Symbol::Dot))
    })?;
    inp.expect(reader, Expected::Origin, |c| {
        // After a P, the lower-case letters a…e are xqbase's ordinals.
        let second = match (first, c) {
            (Symbol::Piece(PieceKind::Pawn), 'a'..='e') => Symbol::Ordinal(c as u8 - b'a' + 1),
            _ => symbol(c)?,
        };
        Some(match (first, second) {
            (Symbol::Piece(kind), Symbol::Digit(n)) => Origin::File(kind, n),
            (Symbol::Piece(kind), Symbol::Sign(s)) | (Symbol::Sign(s), Symbol::Piece(kind)) => {
                Origin::Sign(kind, s)
            }
            (Symbol::Piece(_), Symbol::Ordinal(n)) => Origin::Nth(n),
            (Symbol::Sign(a), Symbol::Sign(b)) if a == b => Origin::Extreme(a),
            (Symbol::Digit(f), Symbol::Sign(s)) => Origin::FileSign(f, s),
            (Symbol::Digit(a), Symbol::Digit(b)) => Origin::Digits(a, b),
            _ => return None,
        })
    })
}

/// The pieces a WXF origin can name. As in the Chinese record, a plain file number names
/// every piece on the file and the move decides (Fairy-Stockfish writes `R1+1` when only
/// one of two rooks on file 1 can advance one point) — except that `P3` with three or five
/// pawns on file 3 is the middle pawn, as the WXF rules write it.
fn origins(stacks: &Stacks, origin: Origin) -> Vec<Square> {
    let one = |sq: Option<&Square>| sq.copied().into_iter().collect::<Vec<_>>();
    match origin {
        Origin::File(kind, n) => {
            let file = stacks.file(n);
            if kind == PieceKind::Pawn && file.len() >= 3 && file.len() % 2 == 1 {
                one(file.get(file.len() / 2))
            } else {
                file.to_vec()
            }
        }
        Origin::Sign(_, sign) => stacks
            .shared_files()
            .filter_map(|file| {
                let n = file.len();
                file.get(match (sign, n >= 4) {
                    (Sign::Plus, false) => 0,
                    (Sign::Plus, true) => 1,
                    (Sign::Minus, false) => n - 1,
                    (Sign::Minus, true) => n - 2,
                })
            })
            .copied()
            .collect(),
        Origin::Extreme(sign) => stacks
            .shared_files()
            .filter(|file| file.len() >= 4)
            .filter_map(|file| match sign {
                Sign::Plus => file.first(),
                Sign::Minus => file.last(),
            })
            .copied()
            .collect(),
        Origin::FileSign(n, sign) => {
            let file = stacks.file(n);
            if file.len() < 2 {
                return Vec::new();
            }
            one(match sign {
                Sign::Plus => file.first(),
                Sign::Minus => file.last(),
            })
        }
        Origin::Digits(a, b) => {
            let mid = stacks.file(a);
            // The WXF's `33` exists only with pawns stacked on two files; there it wins over
            // Fairy-Stockfish's reading (the third pawn of file 3).
            if a == b && mid.len() == 3 && stacks.shared_count() >= 2 {
                one(mid.get(1))
            } else {
                // Fairy-Stockfish: the a-th pawn from the front of file b.
                let file = stacks.file(b);
                if file.len() >= 2 {
                    one(usize::from(a).checked_sub(1).and_then(|i| file.get(i)))
                } else {
                    Vec::new()
                }
            }
        }
        Origin::Nth(n) => stacks.nth_in_reading_order(n).into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Notation, parse_move};
    use super::*;

    fn check(fen: &str, iccs: &str, wxf: &str, also: &[&str]) {
        let pos: Position = fen.parse().unwrap();
        let m: Move = iccs.parse().unwrap();
        assert_eq!(format(&pos, m), wxf, "{fen} {iccs}");
        for text in std::iter::once(&wxf).chain(also) {
            assert_eq!(parse_move(&pos, text, Notation::Wxf), Ok(m), "{fen} {text}");
        }
    }

    #[test]
    fn plain_moves_and_dialects() {
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        check(
            start,
            "h2e2",
            "C2.5",
            &["C2=5", "c2.5", "C25", "Ｃ２．５", " C 2 = 5 "],
        );
        check(start, "h0g2", "H2+3", &["N2+3", "h2+3"]);
        check(start, "c0e2", "E7+5", &["B7+5"]);
        check(start, "h2h9", "C2+7", &[]);
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        check(black, "h9g7", "H8+7", &["h8+7"]);
    }

    #[test]
    fn tandem_pieces() {
        // Red cannons on d5 and d3 (file 6).
        let fen = "5k3/9/9/9/3C5/9/3C5/9/9/4K4 w - - 0 1";
        check(fen, "d5a5", "C+.9", &["+C.9", "C+=9", "c+.9"]);
        check(fen, "d3d2", "C--1", &["-C-1"]);
        // Pawns, three on file 3 (g) of Red: P+, P3, P-.
        let fen = "3k5/9/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1";
        check(fen, "g7f7", "P+.4", &["+P.4", "1 3=4"]);
        check(fen, "g6f6", "P3.4", &["23=4"]);
        check(fen, "g5f5", "P-.4", &["-P.4", "33=4"]);
    }
}

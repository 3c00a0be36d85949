//! FEN, as used by UCI Xiangqi engines:
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! Ranks are listed from Black's back rank (9) down to Red's (0), files `a`–`i` left to
//! right. Reading is tolerant of what real files contain: `w` or `r` for Red and `b` for
//! Black, `E`/`H` for elephant/horse, missing trailing fields. Errors say at which byte.

use crate::setup::InvalidSetup;
use crate::{Board, Color, Piece, Setup, Square};
use std::fmt;
use std::str::FromStr;

/// Why a FEN could not be read, and the byte offset where the problem starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// Byte offset into the text.
    pub offset: usize,
    /// What is wrong there.
    pub kind: FenErrorKind,
}

/// The kinds of FEN error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenErrorKind {
    /// The text is empty.
    Empty,
    /// A character that is neither a piece letter, a digit 1–9 nor `/`.
    UnexpectedChar(char),
    /// A rank describes more than nine points.
    RankTooLong,
    /// A rank describes fewer than nine points.
    RankTooShort,
    /// More or fewer than ten ranks.
    WrongRankCount(usize),
    /// The side to move is not `w`, `r` or `b`.
    InvalidSide,
    /// A move counter is not a number.
    InvalidCounter,
    /// Text after the last field.
    TrailingText,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FEN error at byte {}: ", self.offset)?;
        match &self.kind {
            FenErrorKind::Empty => f.write_str("the text is empty"),
            FenErrorKind::UnexpectedChar(c) => write!(f, "unexpected character {c:?}"),
            FenErrorKind::RankTooLong => f.write_str("a rank has more than 9 points"),
            FenErrorKind::RankTooShort => f.write_str("a rank has fewer than 9 points"),
            FenErrorKind::WrongRankCount(n) => write!(f, "{n} ranks instead of 10"),
            FenErrorKind::InvalidSide => f.write_str("the side to move must be w, r or b"),
            FenErrorKind::InvalidCounter => f.write_str("a move counter is not a number"),
            FenErrorKind::TrailingText => f.write_str("unexpected text after the FEN"),
        }
    }
}

impl std::error::Error for FenError {}

/// A FEN that could not be read, or that describes an illegal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionFenError {
    /// The text is not a FEN.
    Fen(FenError),
    /// The FEN is well formed but the position is not legal.
    Invalid(InvalidSetup),
}

impl From<FenError> for PositionFenError {
    fn from(e: FenError) -> Self {
        PositionFenError::Fen(e)
    }
}

impl From<InvalidSetup> for PositionFenError {
    fn from(e: InvalidSetup) -> Self {
        PositionFenError::Invalid(e)
    }
}

impl fmt::Display for PositionFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionFenError::Fen(e) => e.fmt(f),
            PositionFenError::Invalid(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PositionFenError {}

/// Splits on ASCII whitespace, keeping each field's byte offset.
fn fields(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            if let Some(st) = start.take() {
                out.push((st, &s[st..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push((st, &s[st..]));
    }
    out
}

fn parse_board(text: &str, base: usize) -> Result<Board, FenError> {
    let mut board = Board::empty();
    let mut rank_index = 0usize; // 0 = the first rank written, Black's back rank
    let mut file = 0u8;
    let err = |offset: usize, kind| {
        Err(FenError {
            offset: base + offset,
            kind,
        })
    };
    for (i, c) in text.char_indices() {
        match c {
            '/' => {
                if file < 9 {
                    return err(i, FenErrorKind::RankTooShort);
                }
                rank_index += 1;
                file = 0;
                if rank_index > 9 {
                    return err(i, FenErrorKind::WrongRankCount(text.split('/').count()));
                }
            }
            '1'..='9' => {
                file += c as u8 - b'0';
                if file > 9 {
                    return err(i, FenErrorKind::RankTooLong);
                }
            }
            _ => {
                let Some(piece) = Piece::from_fen_char(c) else {
                    return err(i, FenErrorKind::UnexpectedChar(c));
                };
                if file >= 9 {
                    return err(i, FenErrorKind::RankTooLong);
                }
                let square =
                    Square::from_coords(file, 9 - rank_index as u8).expect("file < 9, rank <= 9");
                board.set(square, Some(piece));
                file += 1;
            }
        }
    }
    if rank_index < 9 {
        return err(text.len(), FenErrorKind::WrongRankCount(rank_index + 1));
    }
    if file < 9 {
        return err(text.len(), FenErrorKind::RankTooShort);
    }
    Ok(board)
}

impl FromStr for Setup {
    type Err = FenError;

    /// Reads a FEN (board, side, then optional `-` `-` fields and the two counters).
    fn from_str(s: &str) -> Result<Setup, FenError> {
        let f = fields(s);
        let Some(&(board_at, board_text)) = f.first() else {
            return Err(FenError {
                offset: 0,
                kind: FenErrorKind::Empty,
            });
        };
        let board = parse_board(board_text, board_at)?;
        let mut setup = Setup {
            board,
            ..Setup::empty()
        };
        let mut rest = f[1..].iter().peekable();
        if let Some(&(at, side)) = rest.next() {
            setup.side_to_move = match side {
                "w" | "W" | "r" | "R" => Color::Red,
                "b" | "B" => Color::Black,
                _ => {
                    return Err(FenError {
                        offset: at,
                        kind: FenErrorKind::InvalidSide,
                    });
                }
            };
        }
        // Chess-style castling and en-passant fields, always `-` in Xiangqi, may be absent.
        for _ in 0..2 {
            if rest.peek().is_some_and(|&&(_, t)| t == "-") {
                rest.next();
            }
        }
        let counter = |at: usize, t: &str| {
            t.parse::<u32>().map_err(|_| FenError {
                offset: at,
                kind: FenErrorKind::InvalidCounter,
            })
        };
        if let Some(&(at, t)) = rest.next() {
            setup.halfmove_clock = counter(at, t)?;
        }
        if let Some(&(at, t)) = rest.next() {
            setup.fullmove_number = counter(at, t)?.max(1);
        }
        if let Some(&(at, _)) = rest.next() {
            return Err(FenError {
                offset: at,
                kind: FenErrorKind::TrailingText,
            });
        }
        Ok(setup)
    }
}

impl fmt::Display for Setup {
    /// Writes the engine FEN, e.g. `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let sq = Square::from_coords(file, rank).expect("on the board");
                match self.board.get(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.fen_char())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(
            f,
            " {} - - {} {}",
            self.side_to_move.fen_char(),
            self.halfmove_clock,
            self.fullmove_number
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PieceKind, Position};

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn start_position_round_trips() {
        let setup: Setup = START.parse().unwrap();
        assert_eq!(setup, Setup::startpos());
        assert_eq!(setup.to_string(), START);
        assert_eq!(Position::startpos().to_string(), START);
    }

    #[test]
    fn tolerant_reading() {
        let red_r: Setup = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r"
            .parse()
            .unwrap();
        assert_eq!(
            red_r.to_string(),
            START,
            "`r` means Red; missing fields take defaults"
        );
        let letters: Setup = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w"
            .parse()
            .unwrap();
        assert_eq!(letters.to_string(), START, "E and H are elephant and horse");
        let black: Setup = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
            .parse()
            .unwrap();
        assert_eq!(black.side_to_move, Color::Black);
        assert_eq!(black.halfmove_clock, 1);
        let no_dashes: Setup = "4k4/9/9/9/9/9/9/9/9/4K4 b 7 30".parse().unwrap();
        assert_eq!(no_dashes.to_string(), "4k4/9/9/9/9/9/9/9/9/4K4 b - - 7 30");
        let e4 = "e4".parse::<Square>().unwrap();
        let one_pawn: Setup = "4k4/9/9/9/9/9/9/9/9/4K4 w".parse().unwrap();
        assert_eq!(one_pawn.board.get(e4), None);
        let pawn: Setup = "4k4/9/9/9/9/4P4/9/9/9/4K4 w".parse().unwrap();
        assert_eq!(pawn.board.get(e4).map(|p| p.kind), Some(PieceKind::Pawn));
    }

    fn error(fen: &str) -> FenError {
        fen.parse::<Setup>().expect_err(fen)
    }

    #[test]
    fn errors_name_the_byte_offset() {
        assert_eq!(error("").kind, FenErrorKind::Empty);
        let e = error("rnbakabnr/9/1c5c1/pXp1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
        assert_eq!((e.offset, e.kind), (19, FenErrorKind::UnexpectedChar('X')));
        let e = error("rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
        assert_eq!((e.offset, e.kind), (9, FenErrorKind::RankTooLong));
        let e = error("rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
        assert_eq!((e.offset, e.kind), (11, FenErrorKind::RankTooShort));
        let e = error("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w");
        assert_eq!((e.offset, e.kind), (57, FenErrorKind::WrongRankCount(9)));
        let e = error("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR/9 w");
        assert_eq!(e.offset, 59);
        let e = error("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x");
        assert_eq!((e.offset, e.kind), (60, FenErrorKind::InvalidSide));
        let e = error("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - z 1");
        assert_eq!((e.offset, e.kind), (66, FenErrorKind::InvalidCounter));
        let e =
            error("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 extra");
        assert_eq!((e.offset, &e.kind), (70, &FenErrorKind::TrailingText));
        assert!(e.to_string().contains("byte 70"));
    }

    #[test]
    fn illegal_positions_are_refused_with_their_problems() {
        match "4k4/9/9/9/9/9/9/9/9/4K4 w".parse::<Position>() {
            Err(PositionFenError::Invalid(e)) => {
                assert!(
                    e.problems
                        .iter()
                        .any(|p| matches!(p, crate::SetupProblem::GeneralsFacing { .. }))
                )
            }
            other => panic!("expected an invalid position, got {other:?}"),
        }
    }
}

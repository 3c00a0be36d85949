//! The short record (简写记录) of the 1999 rules, 7.5: the full record without its action
//! word, in digits for both sides — 炮2 5 for 炮二平五, 马8 7 for 马8进7.
//!
//! On a score sheet 进 and 退 are told apart by a short line drawn under the last digit (进)
//! or above it (退); a bare digit is 平. The seed's copy of rule 7.5 lost those lines
//! ("炮8 4" there is 炮8进4), so the marks are written with combining characters: U+0332
//! COMBINING LOW LINE for 进 (`炮8 4̲`) and U+0305 COMBINING OVERLINE for 退 (`炮8 4̅`);
//! U+0331/U+0333 and U+0304/U+033F are read as the same marks. A bare digit is read as 平
//! and, when no sideways move fits (a horse's move, or text that lost its marks), as the one
//! legal 进 or 退 move that fits.
//!
//! The rule shows no piece sharing a file; the place words of the full record stand in for
//! the piece's file there: 前车 4̲ (前车进四), 二兵 4 (二兵平四), 前7 6 (前七平六).

use super::chinese;
use super::hanzi::{self, numeral};
use super::input::Input;
use super::movement::{self, Action, Candidates};
use super::stacks::{Origin, Stacks, chinese_origin};
use super::{Expected, NotationError, NotationErrorKind, Reader, digit};
use crate::{Move, Position};

/// The mark under a digit meaning 进.
const FORWARD_MARK: char = '\u{0332}';
/// The mark above a digit meaning 退.
const BACKWARD_MARK: char = '\u{0305}';

fn mark(c: char) -> Option<Action> {
    match c {
        '\u{0332}' | '\u{0331}' | '\u{0333}' => Some(Action::Forward),
        '\u{0305}' | '\u{0304}' | '\u{033F}' => Some(Action::Backward),
        _ => None,
    }
}

/// Writes the legal move `m` of `pos`.
pub(super) fn format(pos: &Position, m: Move) -> String {
    let Some(piece) = pos.piece_at(m.from) else {
        return m.to_string();
    };
    let stacks = Stacks::new(pos, piece.color, piece.kind);
    let mut out = String::new();
    match chinese_origin(&stacks, piece.kind, m.from) {
        Origin::File(n) => {
            out.push(piece.hanzi());
            out.push(digit(n));
        }
        Origin::Word(word) => {
            hanzi::write_stack_word(&mut out, word, false);
            out.push(piece.hanzi());
        }
        Origin::FileWord(n, word) => {
            hanzi::write_stack_word(&mut out, word, false);
            out.push(digit(n));
        }
    }
    out.push(' ');
    out.push(digit(movement::number_of(m, piece.kind, piece.color)));
    match Action::of(m, piece.color) {
        Action::Forward => out.push(FORWARD_MARK),
        Action::Backward => out.push(BACKWARD_MARK),
        Action::Sideways => {}
    }
    out
}

/// Reads a short-record move.
pub(super) fn parse(pos: &Position, reader: Reader<'_>) -> Result<Move, NotationError> {
    let mut inp = Input::open(reader)?;
    let origin_at = inp.offset();
    let (kind, origin) = chinese::read_origin(&mut inp, reader)?;
    let number_at = inp.offset();
    let number = inp.expect(reader, Expected::Number, numeral)?;
    let action = match inp.peek().and_then(mark) {
        Some(action) => {
            inp.bump();
            Some(action)
        }
        None => None,
    };
    inp.expect_end(reader)?;
    let stacks = Stacks::new(pos, pos.side_to_move(), kind);
    let origins = stacks.origins(origin);
    if origins.is_empty() {
        return Err(reader.error(origin_at, NotationErrorKind::NoSuchPiece));
    }
    let candidates = |action| Candidates::new(pos, kind, &origins, action, number);
    let found = match action {
        Some(action) => candidates(action),
        None => {
            let sideways = candidates(Action::Sideways);
            if sideways.is_unique() {
                sideways
            } else {
                let mut either = candidates(Action::Forward);
                either.extend(candidates(Action::Backward));
                if either.is_unique() || sideways.is_empty() {
                    either
                } else {
                    sideways
                }
            }
        }
    };
    found.settle(reader, origin_at, number_at)
}

#[cfg(test)]
mod tests {
    use super::super::{Notation, parse_move};
    use super::*;

    /// Rule 7.5's example game, full and short, with the 进 marks the seed's copy lost.
    #[test]
    fn the_rules_example_game() {
        let full = [
            "炮二平五",
            "马8进7",
            "马二进三",
            "车9平8",
            "车一平二",
            "炮8进4",
        ];
        let short = ["炮2 5", "马8 7̲", "马2 3̲", "车9 8", "车1 2", "炮8 4̲"];
        let mut pos = Position::startpos();
        for (full, short) in full.into_iter().zip(short) {
            let m = parse_move(&pos, full, Notation::Chinese).unwrap();
            assert_eq!(format(&pos, m), short);
            assert_eq!(parse_move(&pos, short, Notation::ShortRecord), Ok(m));
            pos = pos.play(m).unwrap();
        }
    }

    #[test]
    fn bare_digits_are_sideways_first() {
        let pos: Position = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
            .parse()
            .unwrap();
        let m = |s: &str| s.parse::<Move>().unwrap();
        // A horse never moves sideways: the bare digit is its one legal move.
        assert_eq!(
            parse_move(&pos, "马8 7", Notation::ShortRecord),
            Ok(m("h9g7"))
        );
        // A cannon can: without the mark 炮8 4 is 炮8平4.
        assert_eq!(
            parse_move(&pos, "炮8 4", Notation::ShortRecord),
            Ok(m("h7d7"))
        );
        assert_eq!(
            parse_move(&pos, "炮8 4̲", Notation::ShortRecord),
            Ok(m("h7h3"))
        );
        assert_eq!(
            parse_move(&pos, "炮8 1̅", Notation::ShortRecord),
            Ok(m("h7h8"))
        );
    }
}

//! The traditional Chinese notation (中文纵线记谱): piece, its file, 进/退/平, then the
//! destination file or the number of ranks, as in 炮二平五 马８进７; pieces sharing a file
//! are named by their place (前车进一, 中兵平四, 前七平六). Written in simplified or
//! traditional characters; read in either, with every common variant.

use super::hanzi::{self, numeral, piece_kind, stack_word};
use super::input::Input;
use super::movement::{self, Action, Described};
use super::stacks::{Origin, StackWord, Stacks, chinese_origin};
use super::{Expected, NotationError, Reader};
use crate::{Move, Piece, PieceKind, Position};

/// Which characters to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Script {
    /// zh-CN: 帅仕相马车炮兵 / 将士象马车炮卒, 进, 后.
    Simplified,
    /// zh-TW: 帥仕相傌俥炮兵 / 將士象馬車砲卒, 進, 後.
    Traditional,
}

/// Writes the legal move `m` of `pos`.
pub(super) fn format(pos: &Position, m: Move, script: Script) -> String {
    let Some(piece) = pos.piece_at(m.from) else {
        return m.to_string();
    };
    let traditional = script == Script::Traditional;
    let color = piece.color;
    let stacks = Stacks::new(pos, color, piece.kind);
    let mut out = String::new();
    let hanzi = |p: Piece| {
        if traditional {
            p.hanzi_traditional()
        } else {
            p.hanzi()
        }
    };
    match chinese_origin(&stacks, piece.kind, m.from) {
        Origin::File(n) => {
            out.push(hanzi(piece));
            hanzi::write_number(&mut out, n, color);
        }
        Origin::Word(word) => {
            hanzi::write_stack_word(&mut out, word, traditional);
            out.push(hanzi(piece));
        }
        Origin::FileWord(n, word) => {
            hanzi::write_stack_word(&mut out, word, traditional);
            hanzi::write_number(&mut out, n, color);
        }
    }
    hanzi::write_action(&mut out, Action::of(m, color), traditional);
    hanzi::write_number(&mut out, movement::number_of(m, piece.kind, color), color);
    out
}

/// Reads a Chinese move: 炮二平五, 前车进一, 车前进一, 一兵平四, 前七平六, 前兵七平六, in
/// any script and with digits or numerals for either side.
pub(super) fn parse(pos: &Position, reader: Reader<'_>) -> Result<Move, NotationError> {
    let mut inp = Input::open(reader)?;
    let origin_at = inp.offset();
    let (kind, origin) = read_origin(&mut inp, reader)?;
    let action = inp.expect(reader, Expected::Action, hanzi::action)?;
    let number_at = inp.offset();
    let number = inp.expect(reader, Expected::Number, numeral)?;
    inp.expect_end(reader)?;
    let stacks = Stacks::new(pos, pos.side_to_move(), kind);
    Described {
        kind,
        origins: stacks.origins(origin),
        action,
        number,
    }
    .settle(pos, reader, origin_at, number_at)
}

/// Reads the part naming the piece: 炮二, 前车, 车前, 一兵, 前七, 前兵七 (also used by the
/// short record, which names pieces the same way).
pub(super) fn read_origin(
    inp: &mut Input,
    reader: Reader<'_>,
) -> Result<(PieceKind, Origin), NotationError> {
    let at = inp.offset();
    let first = inp.expect(reader, Expected::Piece, Some)?;
    if let Some(kind) = piece_kind(first) {
        // 炮二…, or 车前… as some books write a piece sharing its file.
        let origin = inp.expect(reader, Expected::Origin, |c| {
            numeral(c)
                .map(Origin::File)
                .or_else(|| stack_word(c).map(Origin::Word))
        })?;
        return Ok((kind, origin));
    }
    // A place word: 前/中/后, or an ordinal 一…五 (only before a piece).
    let word = stack_word(first);
    let ordinal = numeral(first).filter(|&n| n <= 5).map(StackWord::Nth);
    let Some(word) = word.or(ordinal) else {
        return Err(reader.unexpected(at, first, Expected::Piece));
    };
    enum Next {
        Piece(PieceKind),
        File(u8),
    }
    let next = inp.expect(reader, Expected::Piece, |c| {
        piece_kind(c).map(Next::Piece).or_else(|| {
            // 前七平六: pawns stacked on two files, the file in place of 兵.
            numeral(c).filter(|_| ordinal.is_none()).map(Next::File)
        })
    })?;
    Ok(match next {
        Next::File(n) => (PieceKind::Pawn, Origin::FileWord(n, word)),
        Next::Piece(kind) => {
            // 前兵七平六: the older form keeps the piece and adds the file, which is then
            // followed by the action (or, in the short record, by another number).
            let file = inp.peek().and_then(numeral).filter(|_| {
                inp.peek_at(1)
                    .is_some_and(|c| hanzi::action(c).is_some() || numeral(c).is_some())
            });
            match file {
                Some(n) => {
                    inp.bump();
                    (kind, Origin::FileWord(n, word))
                }
                None => (kind, Origin::Word(word)),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Notation, NotationErrorKind, parse_move};
    use super::*;

    fn check(fen: &str, iccs: &str, simplified: &str, traditional: &str) {
        let pos: Position = fen.parse().unwrap();
        let m: Move = iccs.parse().unwrap();
        assert_eq!(
            format(&pos, m, Script::Simplified),
            simplified,
            "{fen} {iccs}"
        );
        assert_eq!(
            format(&pos, m, Script::Traditional),
            traditional,
            "{fen} {iccs}"
        );
        for text in [simplified, traditional] {
            assert_eq!(parse_move(&pos, text, Notation::Chinese), Ok(m), "{text}");
        }
    }

    #[test]
    fn opening_moves() {
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        check(start, "h2e2", "炮二平五", "炮二平五");
        check(start, "h0g2", "马二进三", "傌二進三");
        check(start, "i0i1", "车一进一", "俥一進一");
        check(start, "c3c4", "兵七进一", "兵七進一");
        check(start, "f0e1", "仕四进五", "仕四進五");
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        check(black, "h9g7", "马８进７", "馬８進７");
        check(black, "b7b0", "炮２进７", "砲２進７");
        check(black, "e9e8", "将５进１", "將５進１");
    }

    #[test]
    fn place_words_and_variants() {
        // Two red rooks on file 六 (d): d5 in front of d2.
        let fen = "5k3/9/9/9/3R5/9/9/3R5/9/4K4 w - - 0 1";
        check(fen, "d5d8", "前车进三", "前俥進三");
        check(fen, "d2f2", "后车平四", "後俥平四");
        let pos: Position = fen.parse().unwrap();
        let rear = "d2f2".parse::<Move>().unwrap();
        for text in ["後車平四", "车后平四", "後车平4", "后 車 平 ４", "後伡平四"]
        {
            assert_eq!(
                parse_move(&pos, text, Notation::Chinese),
                Ok(rear),
                "{text}"
            );
        }
        let err = parse_move(&pos, "车六平四", Notation::Chinese).unwrap_err();
        assert!(
            matches!(err.kind, NotationErrorKind::Ambiguous { .. }),
            "{err}"
        );
    }
}

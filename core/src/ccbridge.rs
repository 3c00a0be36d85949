//! 象棋桥 (CCBridge) game files: `.cbr`, one game ("CCBridge Record"), and `.cbl`, a
//! library of games ("CCBridge Library").
//!
//! A record is little-endian binary: the magic at 0, the title and the other header
//! strings as UTF-16 from 0xB4 (see `HEADER_FIELDS`), the
//! result at 0x81C (a 32-bit number: 1 Red won, 2 Black won, 3 drawn, 0 not recorded), the
//! start position at 0x848 (90 bytes, one a point, row by row from Black's back rank,
//! `0x11..=0x17` Red's rook, horse, elephant, advisor, general, cannon, pawn and
//! `0x21..=0x27` Black's), then the move tree from 0x8A6. Each move is four bytes: flags
//! (1 the line ends here, 2 an alternative follows this move's subtree, 4 a comment
//! follows), an unused byte, the from and the to point (indices into the 90 points); a
//! comment is a 32-bit byte length and UTF-16 text. The first record is the start's own
//! (no move, only its flags and comment). A library is a 101952-byte header, its name as
//! UTF-16 at 0x40, then one record in each 4096-byte slot. A library's section heading is
//! a record with an empty board and no move.

use crate::Square;
use crate::record::tag;
use crate::record::{GameResult, MoveNumber, NodeId, Record};
use crate::{Board, Color, IllegalReason, InvalidSetup, Move, Piece, PieceKind, Position, Setup};
use std::fmt;

/// The magic a record starts with.
pub const RECORD_MAGIC: &[u8] = b"CCBridge Record\0";
/// The magic a library starts with.
pub const LIBRARY_MAGIC: &[u8] = b"CCBridgeLibrary\0";

/// The header strings (UTF-16, NUL-ended, each in a field of its own size in units) and
/// their tags. The bytes after a string's NUL are left over from memory, never read.
const HEADER_FIELDS: [(&str, usize, usize); 8] = [
    ("Title", 0xB4, 64),
    (tag::EVENT, 0x2B4, 64),
    (tag::DATE, 0x374, 32),
    (tag::SITE, 0x3B4, 32),
    (tag::RED, 0x434, 32),
    ("RedTeam", 0x474, 32),
    (tag::BLACK, 0x514, 32),
    ("BlackTeam", 0x554, 32),
];
const RESULT_AT: usize = 0x81C;
const BOARD_AT: usize = 0x848;
const MOVES_AT: usize = 0x8A6;
const LIBRARY_NAME_AT: usize = 0x40;
const LIBRARY_NAME_UNITS: usize = 64;
const LIBRARY_GAMES_AT: usize = 101_952;
const LIBRARY_SLOT: usize = 4096;

/// Why a CCBridge file, or one game in it, could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CcbridgeError {
    /// The byte offset in the file.
    pub offset: usize,
    /// The game's number in a library, from 1 (1 for a `.cbr`).
    pub game: usize,
    /// The number of the move being read, when the problem is in the moves.
    pub move_number: Option<MoveNumber>,
    /// What is wrong.
    pub kind: CcbridgeErrorKind,
}

/// The kinds of CCBridge error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CcbridgeErrorKind {
    /// The bytes do not start with a CCBridge magic.
    NotCcbridge,
    /// The file ends before the data that should be at the offset.
    Truncated,
    /// A point of the start position holds a byte that is no piece.
    BadPiece(u8),
    /// The start position is not legal.
    InvalidSetup(InvalidSetup),
    /// A move's points are off the board.
    BadSquares {
        /// The from byte.
        from: u8,
        /// The to byte.
        to: u8,
    },
    /// A move is not legal in its position.
    IllegalMove {
        /// The move.
        mv: Move,
        /// Why it is illegal.
        reason: IllegalReason,
    },
    /// A library holds no game.
    NoGames,
    /// A `.cbf` file lacks the element or attribute named, or it is not closed.
    CbfMissing(&'static str),
    /// A `.cbf` move is not `XY-XY` (file 0-8, row 0-9 from Black's side).
    CbfBadMove(String),
    /// A `.cbf` start position (FEN) does not read.
    CbfBadFen(String),
}

impl fmt::Display for CcbridgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, byte {}: ", self.game, self.offset)?;
        if let Some(n) = self.move_number {
            write!(f, "move {n}: ")?;
        }
        match &self.kind {
            CcbridgeErrorKind::NotCcbridge => f.write_str("not a CCBridge file"),
            CcbridgeErrorKind::Truncated => f.write_str("the file ends too early"),
            CcbridgeErrorKind::BadPiece(b) => write!(f, "byte {b:#04x} is no piece"),
            CcbridgeErrorKind::InvalidSetup(e) => write!(f, "the start position is not legal: {e}"),
            CcbridgeErrorKind::BadSquares { from, to } => {
                write!(f, "points {from} and {to} are not both on the board")
            }
            CcbridgeErrorKind::IllegalMove { mv, reason } => {
                write!(f, "{mv} is not legal: {reason:?}")
            }
            CcbridgeErrorKind::NoGames => f.write_str("the library holds no game"),
            CcbridgeErrorKind::CbfMissing(what) => write!(f, "no {what}"),
            CcbridgeErrorKind::CbfBadMove(text) => write!(f, "move {text:?} does not read"),
            CcbridgeErrorKind::CbfBadFen(text) => write!(f, "FEN {text:?} does not read"),
        }
    }
}

impl std::error::Error for CcbridgeError {}

/// A library: its name and its games, each read or why not.
#[derive(Debug)]
pub struct Library {
    /// The library's name.
    pub name: String,
    /// The games in order.
    pub games: Vec<Result<Record, CcbridgeError>>,
}

/// Whether `bytes` start as a CCBridge record or library.
pub fn is_ccbridge(bytes: &[u8]) -> bool {
    bytes.starts_with(RECORD_MAGIC) || bytes.starts_with(LIBRARY_MAGIC)
}

/// Reads a `.cbr` file: one game.
pub fn read_record(bytes: &[u8]) -> Result<Record, CcbridgeError> {
    read_record_at(bytes, 0, 1)
}

/// Reads a `.cbl` file: its name and every game (a game that fails does not stop the others).
pub fn read_library(bytes: &[u8]) -> Result<Library, CcbridgeError> {
    let fail = |offset, kind| CcbridgeError {
        offset,
        game: 0,
        move_number: None,
        kind,
    };
    if !bytes.starts_with(LIBRARY_MAGIC) {
        return Err(fail(0, CcbridgeErrorKind::NotCcbridge));
    }
    if bytes.len() <= LIBRARY_GAMES_AT {
        return Err(fail(bytes.len(), CcbridgeErrorKind::NoGames));
    }
    let name = utf16_string(bytes, LIBRARY_NAME_AT, LIBRARY_NAME_UNITS);
    let mut games = Vec::new();
    let mut at = LIBRARY_GAMES_AT;
    while at < bytes.len() {
        let end = (at + LIBRARY_SLOT).min(bytes.len());
        let number = games.len() + 1;
        games.push(read_record_at(&bytes[..end], at, number));
        at = end;
    }
    Ok(Library { name, games })
}

/// Reads the record starting at `start` in `bytes` (which end where the record must), as
/// game `game`; offsets in errors are into `bytes`.
fn read_record_at(bytes: &[u8], start: usize, game: usize) -> Result<Record, CcbridgeError> {
    let fail = |offset, kind| CcbridgeError {
        offset,
        game,
        move_number: None,
        kind,
    };
    if !bytes[start.min(bytes.len())..].starts_with(RECORD_MAGIC) {
        return Err(fail(start, CcbridgeErrorKind::NotCcbridge));
    }
    let board_bytes = slice(bytes, start + BOARD_AT, 90).ok_or(fail(
        (start + BOARD_AT).min(bytes.len()),
        CcbridgeErrorKind::Truncated,
    ))?;
    let mut board = Board::empty();
    for (i, &b) in board_bytes.iter().enumerate() {
        if b == 0 {
            continue;
        }
        let piece = piece(b).ok_or(fail(start + BOARD_AT + i, CcbridgeErrorKind::BadPiece(b)))?;
        board.set(point(i as u8).expect("90 points"), Some(piece));
    }
    let root = entry(bytes, start + MOVES_AT, game)?;
    // The side to move is the side whose piece makes the first move; with no move, Red.
    let first = if root.continues {
        entry(bytes, root.next, game).ok()
    } else {
        None
    };
    let side_to_move = first
        .and_then(|e| point(e.from))
        .and_then(|sq| board.get(sq))
        .map_or(Color::Red, |p| p.color);
    // A library's section headings are records with an empty board, no move and only a
    // title and comment: they are kept as games from the start position.
    if board.pieces().next().is_none() && !root.continues {
        board = Board::startpos();
    }
    let setup = Setup {
        board,
        side_to_move,
        halfmove_clock: 0,
        fullmove_number: 1,
    };
    let position = Position::from_setup(&setup)
        .map_err(|e| fail(start + BOARD_AT, CcbridgeErrorKind::InvalidSetup(e)))?;
    let mut record = Record::new(position.clone());
    for (name, at, units) in HEADER_FIELDS {
        let value = one_line(&utf16_string(bytes, start + at, units));
        if !value.is_empty() {
            record.headers_mut().set(name, &value);
        }
    }
    // The result field lies before the board, which was read whole.
    let result = slice(bytes, start + RESULT_AT, 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .map_or(GameResult::Unknown, result_of);
    set_result(&mut record, result);
    if !root.comment.is_empty() {
        record.annotation_mut(record.root()).comment = root.comment;
    }
    // The records are in pre-order: the stack holds what the next record hangs from. An
    // alternative's parent is pushed before the continuation, so the whole subtree of a
    // move comes before its alternative, as in the file.
    let mut expected: Vec<(NodeId, Position)> = Vec::new();
    if root.continues {
        expected.push((record.root(), position));
    }
    let mut at = root.next;
    while let Some((parent, pos)) = expected.pop() {
        let e = entry(bytes, at, game).map_err(|mut e| {
            e.move_number = Some(MoveNumber::before(&pos));
            e
        })?;
        let bad = |kind| CcbridgeError {
            offset: at,
            game,
            move_number: Some(MoveNumber::before(&pos)),
            kind,
        };
        let (Some(from), Some(to)) = (point(e.from), point(e.to)) else {
            return Err(bad(CcbridgeErrorKind::BadSquares {
                from: e.from,
                to: e.to,
            }));
        };
        let mv = Move::new(from, to);
        let (node, after) = record
            .push_checked(parent, &pos, mv, &e.comment)
            .map_err(|err| {
                bad(CcbridgeErrorKind::IllegalMove {
                    mv,
                    reason: err.reason,
                })
            })?;
        at = e.next;
        if e.alternative {
            expected.push((parent, pos));
        }
        if e.continues {
            expected.push((node, after));
        }
    }
    Ok(record)
}

/// Whether `bytes` are a `.cbf` file (the XML form): UTF-8 text holding its root element.
pub fn is_cbf(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(512)];
    head.windows(CBF_ROOT.len())
        .any(|w| w == CBF_ROOT.as_bytes())
}

const CBF_ROOT: &str = "<ChineseChessRecord";

/// The `.cbf` header elements read, and their tags.
const CBF_FIELDS: [(&str, &str); 10] = [
    ("Name", "Title"),
    ("Contest", tag::EVENT),
    ("Round", tag::ROUND),
    ("Date", tag::DATE),
    ("Site", tag::SITE),
    ("Red", tag::RED),
    ("RedTeam", "RedTeam"),
    ("Black", tag::BLACK),
    ("BlackTeam", "BlackTeam"),
    ("ECCO", "ECCO"),
];

/// Reads a `.cbf` file, the XML form of a record: the header elements, the result
/// (`<RecordResult>`, coded as in a record), the start FEN and the main line, each
/// `<Move value="XY-XY">` (the first, `00-00`, is the start's own) with its comment as
/// CDATA, up to the one marked `end="1"`. Offsets in errors are bytes into the file.
pub fn read_cbf(bytes: &[u8]) -> Result<Record, CcbridgeError> {
    let fail = |offset, kind| CcbridgeError {
        offset,
        game: 1,
        move_number: None,
        kind,
    };
    let bom = if bytes.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    };
    let text = match std::str::from_utf8(&bytes[bom..]) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&bytes[bom..bom + e.valid_up_to()]).unwrap_or(""),
    };
    let at = |i: usize| i + bom;
    if !text.contains(CBF_ROOT) {
        return Err(fail(0, CcbridgeErrorKind::NotCcbridge));
    }
    let head_end = text.find("</Head>").ok_or(fail(
        at(text.len()),
        CcbridgeErrorKind::CbfMissing("</Head>"),
    ))?;
    let head = &text[..head_end];
    let fen = element(head, "FEN").unwrap_or_default();
    let start = if fen.is_empty() {
        Position::startpos()
    } else {
        fen.parse::<Position>().map_err(|_| {
            fail(
                at(head.find("<FEN>").unwrap_or(0)),
                CcbridgeErrorKind::CbfBadFen(fen.clone()),
            )
        })?
    };
    let mut record = Record::new(start.clone());
    for (element_name, tag_name) in CBF_FIELDS {
        if let Some(value) = element(head, element_name).filter(|v| !v.is_empty()) {
            record.headers_mut().set(tag_name, &one_line(&value));
        }
    }
    let result = element(head, "RecordResult")
        .and_then(|v| v.parse::<u32>().ok())
        .map_or(GameResult::Unknown, result_of);
    set_result(&mut record, result);
    let mut parent = record.root();
    let mut pos = start;
    let mut rest = head_end;
    let mut first = true;
    while let Some(found) = text[rest..].find("<Move ") {
        let open = rest + found;
        let close = text[open..]
            .find('>')
            .map(|i| open + i)
            .ok_or(fail(at(open), CcbridgeErrorKind::CbfMissing("'>'")))?;
        let tag_text = &text[open..close];
        let value = attribute(tag_text, "value")
            .ok_or(fail(at(open), CcbridgeErrorKind::CbfMissing("value")))?;
        let ends = attribute(tag_text, "end").is_some_and(|v| v == "1");
        let (comment, next) = if tag_text.ends_with('/') {
            (String::new(), close + 1)
        } else {
            let end = text[close..]
                .find("</Move>")
                .map(|i| close + i)
                .ok_or(fail(at(open), CcbridgeErrorKind::CbfMissing("</Move>")))?;
            let inner = text[close + 1..end].trim();
            let inner = inner
                .strip_prefix("<![CDATA[")
                .and_then(|c| c.strip_suffix("]]>"))
                .unwrap_or(inner);
            (clean(inner), end + "</Move>".len())
        };
        if first && value == "00-00" {
            if !comment.is_empty() {
                record.annotation_mut(record.root()).comment = comment;
            }
        } else {
            let bad = |kind| CcbridgeError {
                offset: at(open),
                game: 1,
                move_number: Some(MoveNumber::before(&pos)),
                kind,
            };
            let mv = cbf_move(value).ok_or(bad(CcbridgeErrorKind::CbfBadMove(value.to_owned())))?;
            if let Err(e) = pos.check_move(mv) {
                return Err(bad(CcbridgeErrorKind::IllegalMove {
                    mv,
                    reason: e.reason,
                }));
            }
            parent = record.push_child(parent, mv);
            if !comment.is_empty() {
                record.annotation_mut(parent).comment = comment;
            }
            pos.play_unchecked(mv);
        }
        first = false;
        rest = next;
        if ends {
            break;
        }
    }
    Ok(record)
}

/// The text of `<name>text</name>` in `xml` (`<name />` is empty), entities decoded.
fn element(xml: &str, name: &str) -> Option<String> {
    let open = format!("<{name}>");
    let start = xml.find(&open)? + open.len();
    let end = start + xml[start..].find(&format!("</{name}>"))?;
    Some(unescape(xml[start..end].trim()))
}

/// The value of `name="value"` in a tag's text.
fn attribute<'a>(tag_text: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag_text.find(&key)? + key.len();
    let end = start + tag_text[start..].find('"')?;
    Some(&tag_text[start..end])
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// A `.cbf` move `XY-XY`: file 0-8 from Red's left, row 0-9 from Black's side.
fn cbf_move(text: &str) -> Option<Move> {
    let b = text.as_bytes();
    if b.len() != 5 || b[2] != b'-' {
        return None;
    }
    let square = |x: u8, y: u8| {
        let (x, y) = (x.checked_sub(b'0')?, y.checked_sub(b'0')?);
        (y <= 9).then(|| Square::from_coords(x, 9 - y)).flatten()
    };
    Some(Move::new(square(b[0], b[1])?, square(b[3], b[4])?))
}

/// The result as both forms store it (the record's field, the `.cbf` `<RecordResult>`):
/// 1 Red won, 2 Black won, 3 drawn; 0 is a game whose result was never entered.
fn result_of(code: u32) -> GameResult {
    match code {
        1 => GameResult::RedWins,
        2 => GameResult::BlackWins,
        3 => GameResult::Draw,
        _ => GameResult::Unknown,
    }
}

/// Sets the Result tag when the file recorded one. The title often says a result too
/// ("红先负"), but it is free text typed by hand and now and then disagrees with the
/// field, so the field alone is read.
fn set_result(record: &mut Record, result: GameResult) {
    if result != GameResult::Unknown {
        record.headers_mut().set(tag::RESULT, result.as_pgn());
    }
}

struct Entry {
    from: u8,
    to: u8,
    continues: bool,
    alternative: bool,
    comment: String,
    next: usize,
}

fn entry(bytes: &[u8], at: usize, game: usize) -> Result<Entry, CcbridgeError> {
    let truncated = |offset: usize| CcbridgeError {
        offset: offset.min(bytes.len()),
        game,
        move_number: None,
        kind: CcbridgeErrorKind::Truncated,
    };
    let head = slice(bytes, at, 4).ok_or(truncated(at))?;
    let (flags, from, to) = (head[0], head[2], head[3]);
    let mut next = at + 4;
    let mut comment = String::new();
    if flags & 4 != 0 {
        let len = slice(bytes, next, 4).ok_or(truncated(next))?;
        let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
        next += 4;
        let text = slice(bytes, next, len).ok_or(truncated(next))?;
        comment = clean(&decode_utf16(text));
        next += len;
    }
    Ok(Entry {
        from,
        to,
        continues: flags & 1 == 0,
        alternative: flags & 2 != 0,
        comment,
        next,
    })
}

fn slice(bytes: &[u8], at: usize, len: usize) -> Option<&[u8]> {
    at.checked_add(len).and_then(|end| bytes.get(at..end))
}

/// The point of index `i` (0 Black's back rank's left, row by row down to Red's).
fn point(i: u8) -> Option<Square> {
    (i < 90)
        .then(|| Square::from_coords(i % 9, 9 - i / 9))
        .flatten()
}

fn piece(b: u8) -> Option<Piece> {
    let color = match b >> 4 {
        1 => Color::Red,
        2 => Color::Black,
        _ => return None,
    };
    let kind = match b & 0x0f {
        1 => PieceKind::Rook,
        2 => PieceKind::Horse,
        3 => PieceKind::Elephant,
        4 => PieceKind::Advisor,
        5 => PieceKind::General,
        6 => PieceKind::Cannon,
        7 => PieceKind::Pawn,
        _ => return None,
    };
    Some(Piece::new(color, kind))
}

/// UTF-16LE text, up to its first NUL.
fn decode_utf16(bytes: &[u8]) -> String {
    let units = bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .take_while(|&u| u != 0);
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// A NUL-ended UTF-16 string at `at` of at most `units` units, trimmed; empty if cut off.
fn utf16_string(bytes: &[u8], at: usize, units: usize) -> String {
    let end = (at + units * 2).min(bytes.len());
    bytes
        .get(at..end)
        .map(|b| clean(&decode_utf16(b)))
        .unwrap_or_default()
}

/// Text as shown: Windows line ends made `\n`, white space trimmed at both ends.
fn clean(text: &str) -> String {
    text.replace("\r\n", "\n").trim().to_owned()
}

/// A header's value on one line, as every game file keeps its headers: a line break
/// (from a damaged file, or a title typed over two lines) becomes a space.
fn one_line(value: &str) -> String {
    value
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_bytes_are_refused_where_they_go_wrong_never_with_a_panic() {
        // The shared reference data, as the other readers' tests find it: its absence
        // fails the test rather than passing it silently.
        let dir = std::env::var_os("CHUHE_SHARED_DATA").map_or_else(
            || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
            std::path::PathBuf::from,
        );
        let path = dir.join("formats/walker8088_cchess_testdata/test.cbr");
        let bytes = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "reference data {} is absent ({e}): set CHUHE_SHARED_DATA",
                path.display()
            )
        });
        assert!(read_record(&bytes).is_ok());
        for len in (0..bytes.len()).step_by(7) {
            let cut = &bytes[..len];
            let e = read_record(cut).expect_err("a cut record has no end");
            assert!(e.offset <= len, "{e} at cut {len}");
        }
        let mut garbage = bytes.clone();
        for i in MOVES_AT..garbage.len() {
            garbage[i] = garbage[i].wrapping_mul(31).wrapping_add(7);
            let _ = read_record(&garbage);
        }
        let mut bad_piece = bytes.clone();
        bad_piece[BOARD_AT] = 0x19;
        let e = read_record(&bad_piece).unwrap_err();
        assert_eq!(
            (e.offset, e.kind),
            (BOARD_AT, CcbridgeErrorKind::BadPiece(0x19))
        );
        assert_eq!(
            read_library(&bytes).unwrap_err().kind,
            CcbridgeErrorKind::NotCcbridge
        );
    }
}

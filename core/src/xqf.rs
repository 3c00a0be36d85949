//! XQF, the binary game format of XQStudio (象棋演播室), read in every version: 1.0 (plain,
//! version byte 10) and the later, encrypted ones (11 and up).
//!
//! # Layout
//! A 1024-byte header: `XQ`, the version, the keys (bytes 3–15), the 32 piece places
//! (`x * 10 + y`, 0xFF or anything past 89 for a captured piece; Red then Black, each as
//! 车马相士帅士相马车炮炮兵兵兵兵兵), the result (0x33) and length-prefixed GB18030
//! strings: title (0x50), event (0xD0), date (0x110), site (0x120), Red (0x130), Black
//! (0x140), time rule (0x150), Red's and Black's time (0x190, 0x1A0), commentator (0x1D0)
//! and author (0x1E0). From 0x400 the moves follow in pre-order: each record is a move,
//! then the subtree of its continuation, then the subtree of its next alternative. The first
//! record is an empty move whose comment is the comment before the first move.
//!
//! Version 10 records are 8 bytes: from (`+ 0x18`), to (`+ 0x20`), a flag byte (high nibble:
//! a continuation follows, low nibble: an alternative follows), a reserved byte and the
//! 32-bit length of the comment that follows. From version 11 the file is encrypted with
//! keys derived from header bytes 3–15: piece places and move coordinates are offset by
//! key bytes (from version 12 the piece places are also rotated), every byte from 0x400 is
//! offset by a 32-byte key stream, the flag byte says `0x80` continuation, `0x40`
//! alternative, `0x20` comment, and the comment length (present only with `0x20`) is offset
//! by a key too.
//!
//! The file is hostile input: every read is bounds-checked, and every move is replayed
//! through the rules.

use crate::encoding::decode_gb18030;
use crate::record::{GameResult, MoveNumber, NodeId, Record, tag};
use crate::{
    Board, Color, IllegalReason, InvalidSetup, Move, Piece, PieceKind, Position, Setup, Square,
};
use std::fmt;

/// Why an XQF file (or a move in it) could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XqfError {
    /// The byte offset in the file.
    pub offset: usize,
    /// The number of the move being read, when the problem is in the moves.
    pub move_number: Option<MoveNumber>,
    /// What is wrong.
    pub kind: XqfErrorKind,
}

/// The kinds of XQF error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XqfErrorKind {
    /// The file is shorter than the 1024-byte header.
    TooShort(usize),
    /// The file does not start with `XQ`.
    NotXqf,
    /// A move record or comment runs past the end of the file.
    Truncated,
    /// Two pieces are placed on one point.
    TwoPiecesOnOnePoint(Square),
    /// The start position is not legal.
    InvalidSetup(InvalidSetup),
    /// A move's coordinates (decrypted) are off the board.
    BadSquares {
        /// The decoded from-coordinate byte (`x * 10 + y`).
        from: u8,
        /// The decoded to-coordinate byte.
        to: u8,
    },
    /// A move is not legal in its position.
    IllegalMove {
        /// The move.
        mv: Move,
        /// Why it is illegal.
        reason: IllegalReason,
    },
}

impl fmt::Display for XqfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.move_number {
            write!(f, "move {n} ")?;
        }
        write!(f, "(byte {}): ", self.offset)?;
        match &self.kind {
            XqfErrorKind::TooShort(n) => {
                write!(f, "{n} bytes is too short for an XQF file (header is 1024)")
            }
            XqfErrorKind::NotXqf => f.write_str("not an XQF file (it does not start with XQ)"),
            XqfErrorKind::Truncated => f.write_str("the file ends inside a move record"),
            XqfErrorKind::TwoPiecesOnOnePoint(sq) => write!(f, "two pieces are placed on {sq}"),
            XqfErrorKind::InvalidSetup(e) => e.fmt(f),
            XqfErrorKind::BadSquares { from, to } => {
                write!(f, "move coordinates {from:02} → {to:02} are off the board")
            }
            XqfErrorKind::IllegalMove { mv, reason } => write!(f, "illegal move {mv}: {reason}"),
        }
    }
}

impl std::error::Error for XqfError {}

const HEADER_LEN: usize = 0x400;

/// The text the key stream of versions 11 and later is cut from.
const KEY_TEXT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The piece kinds of the 16 places of each side.
const PLACE_KINDS: [PieceKind; 16] = {
    use PieceKind::*;
    [
        Rook, Horse, Elephant, Advisor, General, Advisor, Elephant, Horse, Rook, Cannon, Cannon,
        Pawn, Pawn, Pawn, Pawn, Pawn,
    ]
};

/// The decryption keys of one file (all zero for version 10).
struct Keys {
    version: u8,
    piece: u8,
    from: u8,
    to: u8,
    comment_len: u32,
    stream: [u8; 32],
}

/// The key step XQStudio applies to each key byte: (54·b² + 221)·seed, modulo 256.
fn key_step(b: u8, seed: u8) -> u8 {
    let b = u32::from(b);
    ((54 * b * b + 221).wrapping_mul(u32::from(seed)) & 0xff) as u8
}

impl Keys {
    fn new(header: &[u8]) -> Keys {
        let version = header[2];
        if version <= 10 {
            return Keys {
                version,
                piece: 0,
                from: 0,
                to: 0,
                comment_len: 0,
                stream: [0; 32],
            };
        }
        let (mask, or) = (header[3], &header[8..12]);
        let (sum, xy, xyf, xyt) = (header[12], header[13], header[14], header[15]);
        let piece = key_step(xy, xy);
        let from = key_step(xyf, piece);
        let to = key_step(xyt, from);
        let comment_len = (u32::from(sum) * 256 + u32::from(xy)) % 32000 + 767;
        let stream_keys = [
            (sum & mask) | or[0],
            (xy & mask) | or[1],
            (xyf & mask) | or[2],
            (xyt & mask) | or[3],
        ];
        let mut stream = [0u8; 32];
        for (i, s) in stream.iter_mut().enumerate() {
            *s = KEY_TEXT[i] & stream_keys[i % 4];
        }
        Keys {
            version,
            piece,
            from,
            to,
            comment_len,
            stream,
        }
    }
}

/// One move record, decoded.
struct Entry {
    /// Decoded coordinate bytes (`x * 10 + y` when on the board).
    from: u8,
    to: u8,
    has_continuation: bool,
    has_alternative: bool,
    comment: String,
    /// Where the next record starts.
    next: usize,
}

/// The decrypted file and its keys.
struct Reader {
    data: Vec<u8>,
    keys: Keys,
}

impl Reader {
    fn bytes(&self, at: usize, len: usize) -> Result<&[u8], XqfError> {
        at.checked_add(len)
            .and_then(|end| self.data.get(at..end))
            .ok_or(XqfError {
                offset: at,
                move_number: None,
                kind: XqfErrorKind::Truncated,
            })
    }

    fn u32_at(&self, at: usize) -> Result<u32, XqfError> {
        let b = self.bytes(at, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn entry(&self, at: usize) -> Result<Entry, XqfError> {
        let head = self.bytes(at, 4)?;
        let (raw_from, raw_to, flags) = (head[0], head[1], head[2]);
        let mut next = at + 4;
        let (has_continuation, has_alternative, comment_len) = if self.keys.version <= 10 {
            let len = self.u32_at(next)?;
            next += 4;
            (flags & 0xf0 != 0, flags & 0x0f != 0, len as usize)
        } else {
            let len = if flags & 0x20 != 0 {
                let stored = self.u32_at(next)?;
                next += 4;
                stored.wrapping_sub(self.keys.comment_len) as i32
            } else {
                0
            };
            (flags & 0x80 != 0, flags & 0x40 != 0, len.max(0) as usize)
        };
        let comment = if comment_len > 0 {
            let text = self.bytes(next, comment_len)?;
            next += comment_len;
            clean_comment(&decode_gb18030(text))
        } else {
            String::new()
        };
        Ok(Entry {
            from: raw_from.wrapping_sub(0x18).wrapping_sub(self.keys.from),
            to: raw_to.wrapping_sub(0x20).wrapping_sub(self.keys.to),
            has_continuation,
            has_alternative,
            comment,
            next,
        })
    }
}

/// Comment text as stored: Windows line ends made `\n`, ASCII space trimmed at both ends.
fn clean_comment(text: &str) -> String {
    text.replace("\r\n", "\n")
        .trim_matches(|c: char| c.is_ascii_whitespace() || c == '\0')
        .to_owned()
}

/// The point of a coordinate byte `x * 10 + y`, if on the board.
fn square(xy: u8) -> Option<Square> {
    (xy < 90)
        .then(|| Square::from_coords(xy / 10, xy % 10))
        .flatten()
}

/// A length-prefixed header string at `at` holding at most `max` bytes.
fn header_string(header: &[u8], at: usize, max: usize) -> String {
    let len = usize::from(header[at]).min(max);
    let text = decode_gb18030(&header[at + 1..at + 1 + len]);
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

/// Reads an XQF file. Any problem, including one illegal move in one variation, fails the
/// whole file; [`read_lenient`] keeps what can be kept.
///
/// ```
/// let bytes = std::fs::read(concat!(
///     env!("CARGO_MANIFEST_DIR"),
///     "/../../shared/data/formats/xqf_eleeye/XQFEXAMA.XQF"
/// ));
/// # let Ok(bytes) = bytes else { return };
/// let record = chuhe_core::xqf::read(&bytes).unwrap();
/// assert_eq!(record.headers().get("Red"), Some("柳大华"));
/// ```
pub fn read(bytes: &[u8]) -> Result<Record, XqfError> {
    let (record, problems) = parse(bytes, true)?;
    match problems.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(record),
    }
}

/// Reads an XQF file as far as it can: a move that is not legal is left out with
/// everything after it (its alternatives are kept), a truncated file keeps the moves
/// before the cut, and each problem is listed. Only a file with no usable header or start
/// position fails.
pub fn read_lenient(bytes: &[u8]) -> Result<(Record, Vec<XqfError>), XqfError> {
    parse(bytes, false)
}

fn parse(bytes: &[u8], strict: bool) -> Result<(Record, Vec<XqfError>), XqfError> {
    let fail = |offset, kind| XqfError {
        offset,
        move_number: None,
        kind,
    };
    if bytes.len() < HEADER_LEN {
        return Err(fail(0, XqfErrorKind::TooShort(bytes.len())));
    }
    if &bytes[..2] != b"XQ" {
        return Err(fail(0, XqfErrorKind::NotXqf));
    }
    let header = &bytes[..HEADER_LEN];
    let keys = Keys::new(header);
    let mut data = bytes.to_vec();
    for (i, b) in data.iter_mut().enumerate().skip(HEADER_LEN) {
        *b = b.wrapping_sub(keys.stream[i % 32]);
    }
    let reader = Reader { data, keys };

    let board = read_board(header, &reader.keys)?;
    let root_entry = reader.entry(HEADER_LEN)?;
    // The side to move is the side whose piece makes the first move; with no move, Red.
    let first = if root_entry.has_continuation {
        reader.entry(root_entry.next).ok()
    } else {
        None
    };
    let side_to_move = first
        .as_ref()
        .and_then(|e| square(e.from))
        .and_then(|sq| board.get(sq))
        .map_or(Color::Red, |p| p.color);
    let setup = Setup {
        board,
        side_to_move,
        halfmove_clock: 0,
        fullmove_number: 1,
    };
    let start =
        Position::from_setup(&setup).map_err(|e| fail(0x10, XqfErrorKind::InvalidSetup(e)))?;

    let mut record = Record::new(start.clone());
    read_headers(header, record.headers_mut());
    if !root_entry.comment.is_empty() {
        record.annotation_mut(record.root()).comment = root_entry.comment;
    }

    let mut problems = Vec::new();
    // The records are in pre-order, so they are read one after another; the stack says
    // what the next one hangs from: the node before it and that node's position, or
    // `None` below a move that was left out. A record's alternative is pushed before its
    // continuation, so the continuation's whole subtree is read first, as in the file.
    let mut expected: Vec<Option<(NodeId, Position)>> = Vec::new();
    if root_entry.has_continuation {
        expected.push(Some((record.root(), start)));
    }
    let mut at = root_entry.next;
    while let Some(parent) = expected.pop() {
        let entry = match reader.entry(at) {
            Ok(e) => e,
            Err(mut e) => {
                // Nothing after a cut can be placed: stop here.
                e.move_number = parent.as_ref().map(|(_, p)| MoveNumber::before(p));
                problems.push(e);
                break;
            }
        };
        let node = match &parent {
            Some((parent_id, pos)) => match play(&mut record, *parent_id, pos, &entry, at) {
                Ok(child) => Some(child),
                Err(e) => {
                    problems.push(e);
                    if strict {
                        break;
                    }
                    None
                }
            },
            None => None,
        };
        at = entry.next;
        if entry.has_alternative {
            expected.push(parent);
        }
        if entry.has_continuation {
            expected.push(node);
        }
    }
    Ok((record, problems))
}

/// Checks and plays the move of `entry` after `parent` (whose position is `pos`), with its
/// comment; returns the new node and its position.
fn play(
    record: &mut Record,
    parent: NodeId,
    pos: &Position,
    entry: &Entry,
    at: usize,
) -> Result<(NodeId, Position), XqfError> {
    let fail = |kind| XqfError {
        offset: at,
        move_number: Some(MoveNumber::before(pos)),
        kind,
    };
    let (Some(from), Some(to)) = (square(entry.from), square(entry.to)) else {
        return Err(fail(XqfErrorKind::BadSquares {
            from: entry.from,
            to: entry.to,
        }));
    };
    let mv = Move::new(from, to);
    record
        .push_checked(parent, pos, mv, &entry.comment)
        .map_err(|e| {
            fail(XqfErrorKind::IllegalMove {
                mv,
                reason: e.reason,
            })
        })
}

/// The start position's pieces, decrypted.
fn read_board(header: &[u8], keys: &Keys) -> Result<Board, XqfError> {
    let raw = &header[0x10..0x30];
    let mut places = [0u8; 32];
    if keys.version >= 12 {
        for (i, &b) in raw.iter().enumerate() {
            places[(usize::from(keys.piece) + i + 1) % 32] = b;
        }
    } else {
        places.copy_from_slice(raw);
    }
    let mut board = Board::empty();
    for (i, &p) in places.iter().enumerate() {
        let Some(sq) = square(p.wrapping_sub(keys.piece)) else {
            continue;
        };
        let color = if i < 16 { Color::Red } else { Color::Black };
        let piece = Piece::new(color, PLACE_KINDS[i % 16]);
        if board.set(sq, Some(piece)).is_some() {
            return Err(XqfError {
                offset: 0x10 + i,
                move_number: None,
                kind: XqfErrorKind::TwoPiecesOnOnePoint(sq),
            });
        }
    }
    Ok(board)
}

/// The header strings and the result, as PGN tags (empty strings are left out).
fn read_headers(header: &[u8], headers: &mut crate::record::Headers) {
    let fields: [(&str, usize, usize); 11] = [
        ("Title", 0x50, 63),
        (tag::EVENT, 0xd0, 63),
        (tag::DATE, 0x110, 15),
        (tag::SITE, 0x120, 15),
        (tag::RED, 0x130, 15),
        (tag::BLACK, 0x140, 15),
        ("TimeControl", 0x150, 63),
        ("RedTime", 0x190, 15),
        ("BlackTime", 0x1a0, 15),
        ("Annotator", 0x1d0, 15),
        ("Author", 0x1e0, 15),
    ];
    for (name, at, max) in fields {
        let value = header_string(header, at, max);
        if !value.is_empty() {
            headers.set(name, &value);
        }
    }
    let result = match header[0x33] {
        1 => GameResult::RedWins,
        2 => GameResult::BlackWins,
        3 | 4 => GameResult::Draw,
        _ => GameResult::Unknown,
    };
    headers.set(tag::RESULT, result.as_pgn());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start position's piece places, as XQF 1.0 lists them.
    const START: [u8; 32] = [
        80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, 9, 19, 29, 39, 49, 59, 69,
        79, 89, 17, 77, 6, 26, 46, 66, 86,
    ];

    /// A version-10 file: `records` are (from, to, flags, comment), coordinates as `x*10+y`.
    fn v10(places: [u8; 32], records: &[(u8, u8, u8, &str)]) -> Vec<u8> {
        let mut f = vec![0u8; HEADER_LEN];
        f[..3].copy_from_slice(b"XQ\x0a");
        f[0x10..0x30].copy_from_slice(&places);
        f[0x33] = 2;
        let red = encoding_rs::GB18030.encode("柳大华").0;
        f[0x130] = red.len() as u8;
        f[0x131..0x131 + red.len()].copy_from_slice(&red);
        for &(from, to, flags, comment) in records {
            let text = encoding_rs::GB18030.encode(comment).0;
            f.extend_from_slice(&[from + 0x18, to + 0x20, flags, 0]);
            f.extend_from_slice(&(text.len() as u32).to_le_bytes());
            f.extend_from_slice(&text);
        }
        f
    }

    /// Root, 炮二平五 (with an alternative 兵七进一), 马８进７.
    fn sample() -> Vec<u8> {
        v10(
            START,
            &[
                (0, 0, 0xf0, "开局"),
                (72, 42, 0xff, ""),
                (79, 67, 0x00, "屏风马"),
                (23, 24, 0x00, "仙人指路\r\n"),
            ],
        )
    }

    #[test]
    fn a_version_10_file_with_an_alternative() {
        let r = read(&sample()).unwrap();
        let root = r.root();
        assert_eq!(r.annotation(root).comment, "开局");
        let first: Vec<String> = r
            .children(root)
            .map(|c| r.move_at(c).unwrap().to_string())
            .collect();
        assert_eq!(first, ["h2e2", "c3c4"]);
        let alt = r.children(root).nth(1).unwrap();
        assert_eq!(r.annotation(alt).comment, "仙人指路");
        let main = r.main_line();
        assert_eq!(r.move_at(main[1]).unwrap().to_string(), "h9g7");
        assert_eq!(r.annotation(main[1]).comment, "屏风马");
        assert_eq!(r.headers().get("Red"), Some("柳大华"));
        assert_eq!(r.headers().result(), GameResult::BlackWins);
        assert_eq!(r.start(), &Position::startpos());
    }

    #[test]
    fn broken_files_give_errors_never_panics() {
        let good = sample();
        // The root record: 8 bytes and its 4-byte comment.
        let root_end = HEADER_LEN + 12;
        for len in 0..good.len() {
            let cut = &good[..len];
            let strict = read(cut);
            let lenient = read_lenient(cut);
            if len < root_end {
                assert!(strict.is_err() && lenient.is_err(), "{len}");
            } else {
                // The header and the root are intact: the lenient reader keeps a record.
                let (_, problems) = lenient.unwrap();
                assert_eq!(problems.is_empty(), strict.is_ok());
            }
        }
        assert_eq!(read(b"XQ").unwrap_err().kind, XqfErrorKind::TooShort(2));
        let mut not = good.clone();
        not[0] = b'P';
        assert_eq!(read(&not).unwrap_err().kind, XqfErrorKind::NotXqf);

        let huge = v10(START, &[(0, 0, 0xf0, ""), (72, 42, 0, "")]);
        let mut huge = huge;
        let len_at = HEADER_LEN + 8 + 4;
        huge[len_at..len_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = read(&huge).unwrap_err();
        assert_eq!(
            (e.kind, e.offset),
            (XqfErrorKind::Truncated, HEADER_LEN + 16)
        );

        let mut doubled = START;
        doubled[1] = doubled[0];
        let e = read(&v10(doubled, &[(0, 0, 0, "")])).unwrap_err();
        assert_eq!(
            e.kind,
            XqfErrorKind::TwoPiecesOnOnePoint("i0".parse().unwrap())
        );

        let e = read(&v10(START, &[(0, 0, 0xf0, ""), (95, 42, 0, "")])).unwrap_err();
        assert_eq!(e.kind, XqfErrorKind::BadSquares { from: 95, to: 42 });
        assert_eq!(e.move_number.unwrap().to_string(), "1.");

        let mut no_general = START;
        no_general[4] = 0xff;
        let e = read(&v10(no_general, &[(0, 0, 0, "")])).unwrap_err();
        assert!(matches!(e.kind, XqfErrorKind::InvalidSetup(_)));
    }

    #[test]
    fn illegal_moves_fail_strictly_and_are_dropped_leniently() {
        // 炮二平五, then its continuation 车九进二 (illegal: the pawn blocks) with the
        // alternative 马８进７.
        let bytes = v10(
            START,
            &[
                (0, 0, 0xf0, ""),
                (72, 42, 0xf0, ""),
                (0, 2, 0x0f, "x"),
                (79, 67, 0x00, ""),
            ],
        );
        let e = read(&bytes).unwrap_err();
        assert_eq!(e.offset, HEADER_LEN + 16);
        assert_eq!(e.move_number.unwrap().to_string(), "1...");
        assert!(matches!(
            e.kind,
            XqfErrorKind::IllegalMove {
                reason: IllegalReason::NotYourPiece,
                ..
            }
        ));
        assert!(e.to_string().contains("a0a2"));
        let (r, problems) = read_lenient(&bytes).unwrap();
        assert_eq!(problems, [e]);
        let line: Vec<String> = r.main_line_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(line, ["h2e2", "h9g7"]);
        assert_eq!(r.line_count(), 1);
    }

    #[test]
    fn key_step_matches_the_formula() {
        for b in 0..=255u8 {
            let expected =
                (((((u32::from(b) * u32::from(b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) * 7) & 0xff;
            assert_eq!(u32::from(key_step(b, 7)), expected);
        }
    }
}

//! Move notations (记谱法): every way Chuhe reads and writes a single move. Each notation
//! prints and parses relative to a [`Position`] and over the one [`Move`] type; a printed
//! move always parses back to the same move.
//!
//! | [`Notation`] | Red | Black | used by |
//! |---|---|---|---|
//! | `Iccs` | `h2e2` | `h9g7` | UCI/UCCI engines, Chuhe's engine |
//! | `IccsPgn` | `H2-E2` | `H9-G7` | PGN files with `[Format "ICCS"]` |
//! | `Wxf` | `C2.5` | `H8+7` | the World Xiangqi Federation's letter notation |
//! | `Chinese` | `炮二平五` | `马８进７` | books, PGN, the app in zh-CN |
//! | `ChineseTraditional` | `炮二平五` | `馬８進７` | the app in zh-TW |
//! | `ShortRecord` | `炮2 5` | `马8 7̲` | the short score sheet of rule 7.5 |
//! | `YiZiSanMa` | `炮253` | `马873` | 一字三码, the seed's 第九节 |
//!
//! # Canonical output
//! - Chinese: Red writes its numbers 一…九, Black full-width digits １…９ (the xqbase/PGN
//!   convention, so a Black move never looks like a Red one); zh-TW uses 帥仕相傌俥炮兵 and
//!   將士象馬車砲卒 with 進/退/平 and 後.
//! - WXF: upper-case letters `K A E H R C P` for both sides and `.` for a sideways move, as
//!   the WXF's published notation writes it (`=` is read as well).
//! - Short record: the digits of rule 7.5 for both sides; the rule marks 进 with a short line
//!   under the last digit and 退 with a line above it, written here with U+0332 COMBINING LOW
//!   LINE and U+0305 COMBINING OVERLINE (`车1 2` is 平, `炮8 4̲` is 进, `炮8 4̅` is 退).
//! - 一字三码: ASCII digits; the mover's hanzi (帅/将 …), like the seed's examples.
//!
//! # Pieces that share a file (同一纵线)
//! Two rooks, horses or cannons on one file are named 前/后 instead of by their file
//! (前车进一, WXF `R+.3`, `C--1`). Advisors and elephants never are: the direction already
//! tells which one moves (仕六进五, `A6+5`). Pawns follow the WXF's "Special cases for tandem
//! pawns", whose Chinese counterpart is the common practice:
//!
//! | pawns on the file | Chinese | WXF |
//! |---|---|---|
//! | 2 | 前兵, 后兵 | `P+`, `P-` |
//! | 3 | 前兵, 中兵, 后兵 | `P+`, `P3` ("the mid-pawn is neither front nor rear"), `P-` |
//! | 4 | 一兵 二兵 三兵 四兵 (front to back) | `++`, `P+`, `P-`, `--` |
//! | 5 | 一兵 … 五兵 | `++`, `P+`, `P3`, `P-`, `--` |
//! | two files with ≥ 2 each | 前七, 中七, 后七, 前三, 后三 (兵 dropped for the file) | `7+`, `77`, `7-`, `3+`, `3-` ("the first digit denotes the file") |
//!
//! # Tolerant reading
//! Every parser accepts full-width characters, spaces, simplified and traditional forms
//! (后/後, 进/進, 车/車/俥, 炮/砲/包 …), Chinese numerals or digits for either side, WXF in
//! either case with `=` or `.`, `+C-2` as well as `C+-2`, and the forms other programs
//! write: xqbase's 一兵…五兵 counted over both files, Fairy-Stockfish's `15=6` (first pawn of
//! file 5), 前兵七平六 with the piece kept. A file number where the rules want 前/后
//! (车四平二 with two rooks on file 四) is accepted when only one of the pieces there can
//! make the move, as real game files do; otherwise the text is [ambiguous].
//!
//! [ambiguous]: NotationErrorKind::Ambiguous

mod chinese;
mod hanzi;
mod iccs;
mod input;
mod movement;
mod sanma;
mod short_record;
mod spelling;
mod stacks;
mod wxf;

pub use spelling::Spelling;

use crate::{IllegalMove, Move, Position};
use std::fmt;

/// The notations Chuhe reads and writes (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// ICCS coordinates as engines write them: `h2e2`.
    Iccs,
    /// ICCS coordinates as PGN files write them: `H2-E2`.
    IccsPgn,
    /// The WXF letter notation: `C2.5`, `H2+3`, `R+.3`.
    Wxf,
    /// Traditional Chinese notation in simplified characters: `炮二平五`, `马８进７`.
    Chinese,
    /// Traditional Chinese notation in traditional characters (zh-TW): `炮二平五`, `馬８進７`.
    ChineseTraditional,
    /// The short record of the 1999 rules, 7.5 (简写记录): `炮2 5`.
    ShortRecord,
    /// 一字三码: piece, origin file, destination file and rank: `马325`.
    YiZiSanMa,
}

impl Notation {
    /// Every notation.
    pub const ALL: [Notation; 7] = [
        Notation::Iccs,
        Notation::IccsPgn,
        Notation::Wxf,
        Notation::Chinese,
        Notation::ChineseTraditional,
        Notation::ShortRecord,
        Notation::YiZiSanMa,
    ];

    /// A short English name (`"iccs"`, `"wxf"`, `"chinese"` …), the inverse of `FromStr`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "iccs",
            Notation::IccsPgn => "iccs-pgn",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
            Notation::ChineseTraditional => "chinese-traditional",
            Notation::ShortRecord => "short-record",
            Notation::YiZiSanMa => "yizisanma",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Notation {
    type Err = UnknownNotation;

    /// Reads a name given by [`Notation::name`].
    fn from_str(s: &str) -> Result<Notation, UnknownNotation> {
        Notation::ALL
            .into_iter()
            .find(|n| n.name() == s)
            .ok_or(UnknownNotation)
    }
}

/// A name that is not one of [`Notation::name`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownNotation;

impl fmt::Display for UnknownNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown notation (expected one of ")?;
        for (i, n) in Notation::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(n.name())?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownNotation {}

/// Writes the legal move `m` of `pos` in notation `n`.
///
/// `m` must be legal in `pos` (a move from the position's own move list or from
/// [`parse_move`]); for any other move this returns its ICCS coordinates rather than guess.
/// [`try_format_move`] says so instead.
///
/// ```
/// use chuhe_core::Position;
/// use chuhe_core::notation::{Notation, format_move};
/// let pos = Position::startpos();
/// let m = "h2e2".parse().unwrap();
/// assert_eq!(format_move(&pos, m, Notation::Chinese), "炮二平五");
/// assert_eq!(format_move(&pos, m, Notation::Wxf), "C2.5");
/// assert_eq!(format_move(&pos, m, Notation::ShortRecord), "炮2 5");
/// ```
pub fn format_move(pos: &Position, m: Move, n: Notation) -> String {
    try_format_move(pos, m, n).unwrap_or_else(|_| m.to_string())
}

/// Writes `m` in notation `n`, or says why `m` is not a legal move of `pos`.
pub fn try_format_move(pos: &Position, m: Move, n: Notation) -> Result<String, IllegalMove> {
    pos.check_move(m)?;
    Ok(match n {
        Notation::Iccs => iccs::format(m),
        Notation::IccsPgn => iccs::format_pgn(m),
        Notation::Wxf => wxf::format(pos, m),
        Notation::Chinese => chinese::format(pos, m, chinese::Script::Simplified),
        Notation::ChineseTraditional => chinese::format(pos, m, chinese::Script::Traditional),
        Notation::ShortRecord => short_record::format(pos, m),
        Notation::YiZiSanMa => sanma::format(pos, m),
    })
}

/// Reads one move written in notation `n` and finds it among the legal moves of `pos`.
///
/// Reading is tolerant (see the [module documentation](self)); [`Notation::Chinese`] and
/// [`Notation::ChineseTraditional`] read the same texts, as do [`Notation::Iccs`] and
/// [`Notation::IccsPgn`].
///
/// ```
/// use chuhe_core::Position;
/// use chuhe_core::notation::{Notation, parse_move};
/// let pos = Position::startpos();
/// let m = parse_move(&pos, "炮二平五", Notation::Chinese).unwrap();
/// assert_eq!(m.to_string(), "h2e2");
/// assert_eq!(parse_move(&pos, "Ｃ２＝５", Notation::Wxf), Ok(m));
/// let err = parse_move(&pos, "炮二平五", Notation::Wxf).unwrap_err();
/// assert_eq!(err.offset, 0);
/// ```
pub fn parse_move(pos: &Position, text: &str, n: Notation) -> Result<Move, NotationError> {
    let reader = Reader { notation: n, text };
    match n {
        Notation::Iccs | Notation::IccsPgn => iccs::parse(pos, reader),
        Notation::Wxf => wxf::parse(pos, reader),
        Notation::Chinese | Notation::ChineseTraditional => chinese::parse(pos, reader),
        Notation::ShortRecord => short_record::parse(pos, reader),
        Notation::YiZiSanMa => sanma::parse(pos, reader),
    }
}

/// Reads one move in whichever notation it is written, and says which one that is.
///
/// The notation is told from the characters ([`detect_notation`]), so a PGN reader can hand
/// over each move as it finds it.
///
/// ```
/// use chuhe_core::Position;
/// use chuhe_core::notation::{Notation, parse_any};
/// let pos = Position::startpos();
/// let (m, n) = parse_any(&pos, "H2-E2").unwrap();
/// assert_eq!((m.to_string(), n), ("h2e2".to_string(), Notation::IccsPgn));
/// assert_eq!(parse_any(&pos, "炮二平五").unwrap().1, Notation::Chinese);
/// assert_eq!(parse_any(&pos, "马二进三").unwrap().1, Notation::Chinese);
/// assert_eq!(parse_any(&pos, "馬二進三").unwrap().1, Notation::ChineseTraditional);
/// assert_eq!(parse_any(&pos, "马233").unwrap().1, Notation::YiZiSanMa);
/// ```
pub fn parse_any(pos: &Position, text: &str) -> Result<(Move, Notation), NotationError> {
    match detect_notation(text) {
        Some(n) => parse_move(pos, text, n).map(|m| (m, n)),
        None => Err(NotationError {
            notation: None,
            text: text.to_string(),
            offset: 0,
            kind: if text.trim().is_empty() {
                NotationErrorKind::Empty
            } else {
                NotationErrorKind::Unrecognized
            },
        }),
    }
}

/// The notation a move text is written in, told from its characters alone: ICCS by its
/// shape (`h2e2`, `H2-E2`), WXF for other plain letters and signs, the Chinese record by its
/// action word in third place (traditional when a character only zh-TW uses appears),
/// 一字三码 by three digits after the piece or by 进/退 right after it, and the short
/// record for the rest. `None` for an empty text or one that starts with none of these.
pub fn detect_notation(text: &str) -> Option<Notation> {
    let chars: Vec<char> = input::Input::new(text).chars().collect();
    let first = *chars.first()?;
    if chars.iter().all(char::is_ascii) {
        return Some(if iccs::has_shape(&chars) {
            if chars.contains(&'-') {
                Notation::IccsPgn
            } else {
                Notation::Iccs
            }
        } else {
            Notation::Wxf
        });
    }
    let starts_chinese = hanzi::piece_kind(first).is_some()
        || hanzi::stack_word(first).is_some()
        || hanzi::numeral(first).is_some();
    if !starts_chinese {
        return None;
    }
    let action_at = chars.iter().position(|&c| hanzi::action(c).is_some());
    Some(match action_at {
        Some(1) => Notation::YiZiSanMa,
        Some(_) if chars.iter().any(|&c| hanzi::is_traditional_only(c)) => {
            Notation::ChineseTraditional
        }
        Some(_) => Notation::Chinese,
        None if chars.len() == 4 && chars[1..].iter().all(char::is_ascii_digit) => {
            Notation::YiZiSanMa
        }
        None => Notation::ShortRecord,
    })
}

/// A move text that could not be read: in which notation, where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// The notation it was read as; `None` when [`parse_any`] could not tell.
    pub notation: Option<Notation>,
    /// The text as given.
    pub text: String,
    /// Byte offset in `text` where reading stopped (the length of `text` when it ended too
    /// early); always on a character boundary.
    pub offset: usize,
    /// Why.
    pub kind: NotationErrorKind,
}

impl NotationError {
    /// The offset counted in characters rather than bytes (for a caret under the text).
    pub fn char_offset(&self) -> usize {
        self.text
            .char_indices()
            .take_while(|&(i, _)| i < self.offset)
            .count()
    }
}

/// Why a move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationErrorKind {
    /// Nothing but spaces.
    Empty,
    /// A character that cannot stand there (an unknown piece character, a letter where a
    /// number belongs …).
    UnexpectedChar {
        /// The character found.
        found: char,
        /// What could stand there.
        expected: Expected,
    },
    /// The text stops before the move is complete.
    UnexpectedEnd {
        /// What was still needed.
        expected: Expected,
    },
    /// The side to move has no piece that fits: none of that kind on the file, or no like
    /// pieces sharing a file for 前/后 to choose from.
    NoSuchPiece,
    /// The piece cannot move that way at all: a horse moving sideways, a rook leaving the
    /// board, a horse "advancing" to a file three away.
    ImpossibleMove,
    /// More than one legal move fits the text: the rules want 前/后 (or the like) here.
    Ambiguous {
        /// The legal moves that fit.
        candidates: Vec<Move>,
    },
    /// The text names a move that is not legal here.
    Illegal(IllegalMove),
    /// [`parse_any`]: the text is in none of the notations.
    Unrecognized,
}

/// What a parser was looking for when it met something else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Expected {
    /// A piece (帅 车 马 … or `K R H …`).
    Piece,
    /// A file number (一…九, 1…9) or a position word (前 中 后).
    Origin,
    /// 进, 退 or 平 (`+`, `-`, `.`).
    Action,
    /// A number: a destination file, a count of ranks, a rank.
    Number,
    /// An ICCS file letter `a`–`i` or rank digit `0`–`9`.
    Coordinate,
    /// Nothing more: the move was complete.
    End,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Piece => "a piece",
            Expected::Origin => "a file number or 前/中/后",
            Expected::Action => "进, 退 or 平 (+, - or .)",
            Expected::Number => "a number",
            Expected::Coordinate => "a coordinate (a–i, 0–9)",
            Expected::End => "the end of the move",
        })
    }
}

impl fmt::Display for NotationErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationErrorKind::Empty => f.write_str("no move given"),
            NotationErrorKind::UnexpectedChar { found, expected } => {
                write!(f, "found {found:?} where {expected} belongs")
            }
            NotationErrorKind::UnexpectedEnd { expected } => {
                write!(f, "the move stops where {expected} belongs")
            }
            NotationErrorKind::NoSuchPiece => f.write_str("no piece of the side to move fits"),
            NotationErrorKind::ImpossibleMove => f.write_str("that piece cannot move that way"),
            NotationErrorKind::Ambiguous { candidates } => {
                f.write_str("ambiguous: it could be ")?;
                for (i, m) in candidates.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" or ")?;
                    }
                    write!(f, "{m}")?;
                }
                Ok(())
            }
            NotationErrorKind::Illegal(e) => write!(f, "{e}"),
            NotationErrorKind::Unrecognized => f.write_str("not a move in any known notation"),
        }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.notation {
            Some(n) => write!(f, "{n} move {:?}", self.text)?,
            None => write!(f, "move {:?}", self.text)?,
        }
        write!(f, " at byte {}: {}", self.offset, self.kind)
    }
}

impl std::error::Error for NotationError {}

/// The ASCII digit of `n` (0–9).
fn digit(n: u8) -> char {
    char::from(b'0' + n % 10)
}

/// The notation and text being read, to build errors from.
#[derive(Clone, Copy)]
struct Reader<'a> {
    notation: Notation,
    text: &'a str,
}

impl Reader<'_> {
    fn error(&self, offset: usize, kind: NotationErrorKind) -> NotationError {
        NotationError {
            notation: Some(self.notation),
            text: self.text.to_string(),
            offset,
            kind,
        }
    }

    /// `found` at `offset` where `expected` belongs.
    fn unexpected(&self, offset: usize, found: char, expected: Expected) -> NotationError {
        self.error(
            offset,
            NotationErrorKind::UnexpectedChar { found, expected },
        )
    }

    /// The text ended at `offset` where `expected` belongs.
    fn end(&self, offset: usize, expected: Expected) -> NotationError {
        self.error(offset, NotationErrorKind::UnexpectedEnd { expected })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for n in Notation::ALL {
            assert_eq!(n.name().parse::<Notation>(), Ok(n));
            assert_eq!(n.to_string(), n.name());
        }
        assert_eq!("pgn".parse::<Notation>(), Err(UnknownNotation));
    }

    #[test]
    fn notations_are_told_apart_by_their_characters() {
        for (text, n) in [
            ("h2e2", Some(Notation::Iccs)),
            ("H2-E2", Some(Notation::IccsPgn)),
            ("C2.5", Some(Notation::Wxf)),
            ("++.4", Some(Notation::Wxf)),
            ("3+.4", Some(Notation::Wxf)),
            ("炮二平五", Some(Notation::Chinese)),
            ("前七平六", Some(Notation::Chinese)),
            ("後炮平６", Some(Notation::ChineseTraditional)),
            ("炮2 5", Some(Notation::ShortRecord)),
            ("前车 4\u{332}", Some(Notation::ShortRecord)),
            ("马325", Some(Notation::YiZiSanMa)),
            ("马进25", Some(Notation::YiZiSanMa)),
            ("", None),
            ("★", None),
        ] {
            assert_eq!(detect_notation(text), n, "{text}");
        }
    }
}

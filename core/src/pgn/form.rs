//! The form of a PGN game as a file wrote it — its tags and their order, how its moves are
//! spelt, whether it puts one move per line, its line ends — so that saving the game keeps
//! what the file was (see [`super::write_game_as`]).

use crate::notation::{Notation, Spelling, detect_notation};
use crate::record::{GameResult, NodeId};
use crate::{Move, Position};

/// How one game of a PGN text was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnForm {
    /// The tags in the file's order, with the values the file gave them.
    pub tags: Vec<(String, String)>,
    /// The notation of the moves and the characters the file spells them with.
    pub spelling: Spelling,
    /// Whether every Red move of the main line starts a line (`1. 炮二平五 马８进７` on a
    /// line of its own, as xqbase and most Chinese programs write).
    pub move_per_line: bool,
    /// Whether the lines end in CR LF.
    pub crlf: bool,
    /// The result the moves end with (`1-0`, `*` …), if they end with one.
    pub result_token: Option<GameResult>,
    /// Whether that result stands on a line of its own.
    pub result_on_own_line: bool,
    /// Whether a blank line comes before it.
    pub result_after_blank_line: bool,
    /// What follows the number before a Black move that has one (`...` in PGN, `.` or
    /// `…` in some Chinese files).
    pub black_number_suffix: String,
    /// The moves the file wrote otherwise than its spelling would (a shorthand where the
    /// rules want 前/后, another disambiguation), by node, in node order: written back as
    /// the file had them while the node still holds that move.
    pub(super) written: Vec<(NodeId, Move, String)>,
}

impl PgnForm {
    /// The form Chuhe gives a new game: moves in `notation`, the tags it has.
    pub fn new(notation: Notation) -> PgnForm {
        PgnForm {
            tags: Vec::new(),
            spelling: Spelling::new(written_notation(notation)),
            move_per_line: false,
            crlf: false,
            result_token: Some(GameResult::Unknown),
            result_on_own_line: false,
            result_after_blank_line: false,
            black_number_suffix: "...".to_owned(),
            written: Vec::new(),
        }
    }

    /// The text of move `mv` of `pos` at `node`: as the file wrote it, if it did.
    pub fn spell(&self, pos: &Position, node: NodeId, mv: Move) -> String {
        match self.written.binary_search_by_key(&node, |&(n, _, _)| n) {
            Ok(i) if self.written[i].1 == mv => self.written[i].2.clone(),
            _ => self.spelling.format(pos, mv),
        }
    }

    /// Whether the file had the tag `name` (in any case, for the names Chuhe knows).
    pub fn has_tag(&self, name: &str) -> bool {
        self.tags
            .iter()
            .any(|(n, _)| crate::record::tag::canonical(n) == name)
    }
}

/// The notation a PGN's moves are written back in when they were read as `notation`:
/// Chinese in Chuhe's simplified characters (a file's other characters are its spelling),
/// and the short record, whose moves hold a space, as Chinese too.
pub(super) fn written_notation(notation: Notation) -> Notation {
    match notation {
        Notation::ChineseTraditional | Notation::ShortRecord => Notation::Chinese,
        n => n,
    }
}

/// The notation to write moves in that a file wrote like `token`.
pub(super) fn notation_of(token: &str) -> Notation {
    written_notation(detect_notation(token).unwrap_or(Notation::Chinese))
}

/// The text from the start of its line to `at`, when that is short enough to be no more
/// than a move number (looking no further keeps a file of one long line cheap to read).
pub(super) fn line_before(text: &str, at: usize) -> Option<&str> {
    const LOOK_BACK: usize = 32;
    let mut from = at.saturating_sub(LOOK_BACK);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let before = &text[from..at];
    match before.rfind('\n') {
        Some(k) => Some(&before[k + 1..]),
        None => (from == 0).then_some(before),
    }
}

/// The dots of the move number that `before` (the text before a move) ends with, if it
/// ends with one: `.` of `1.`, `...` of `12...`.
pub(super) fn number_suffix(before: &str) -> Option<&str> {
    let word = before
        .trim_end()
        .rsplit(char::is_whitespace)
        .next()
        .unwrap_or("");
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let dots = &word[digits..];
    (digits > 0 && !dots.is_empty() && dots.chars().all(|c| c == '.' || c == '…')).then_some(dots)
}

/// Whether `text` (what stands before a move on its line) is nothing or a move number
/// (`12.`, `12...`, `12…`).
pub(super) fn only_a_move_number(text: &str) -> bool {
    let text = text.trim();
    let digits = text.trim_end_matches(['.', '…']);
    text.is_empty()
        || (digits.len() < text.len()
            && !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit()))
}

//! The form of a PGN game as a file wrote it — its tags and their order, how its moves are
//! spelt, whether it puts one move per line, its line ends — so that saving the game keeps
//! what the file was (see [`super::write_game_as`]).

use crate::notation::{Notation, Spelling, detect_notation};
use crate::record::GameResult;

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
        }
    }

    /// Whether the file had the tag `name`.
    pub fn has_tag(&self, name: &str) -> bool {
        self.tags.iter().any(|(n, _)| n == name)
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

//! Problems with files in the user's language: the core's typed read errors and the
//! system's I/O errors mapped to Fluent messages with their line, move, byte and offending
//! text, so that no English string of the code reaches a Chinese interface.

use super::text::illegal_id;
use crate::state::problem::Problem;
use chuhe_core::Color;
use chuhe_core::gamefile::ReadError;
use chuhe_core::notation::{Expected, NotationError, NotationErrorKind};
use chuhe_core::pgn::{PgnError, PgnErrorKind};
use chuhe_core::record::MoveNumber;
use chuhe_core::xqf::{XqfError, XqfErrorKind};
use std::io;

/// A file could not be opened, or one of its games not read.
pub fn open_failed(error: &ReadError) -> Problem {
    Problem::new("notice-open-failed").with("error", read_error(error))
}

/// A file could not be written.
pub fn save_failed(error: &io::Error) -> Problem {
    Problem::new("notice-save-failed").with("error", io_error(error))
}

/// Unsaved work could not be kept in the autosave file.
pub fn autosave_failed(error: &io::Error) -> Problem {
    Problem::new("notice-autosave-failed").with("error", io_error(error))
}

/// Why a file or a game in it could not be read, and where.
pub fn read_error(error: &ReadError) -> Problem {
    match error {
        ReadError::Io(e) => io_error(e),
        ReadError::Empty => Problem::new("file-error-empty"),
        ReadError::NotAGame => Problem::new("file-error-not-a-game"),
        ReadError::Undecodable(closest) => {
            Problem::new("file-error-undecodable").text("encoding", closest)
        }
        ReadError::Pgn(e) => pgn_error(e),
        ReadError::Xqf(e) => xqf_error(e),
    }
}

/// A system error: its kind in words, else its code (the system's own text is English).
pub fn io_error(error: &io::Error) -> Problem {
    let id = match error.kind() {
        io::ErrorKind::NotFound => "io-error-not-found",
        io::ErrorKind::PermissionDenied => "io-error-permission-denied",
        io::ErrorKind::IsADirectory => "io-error-is-a-directory",
        io::ErrorKind::ReadOnlyFilesystem => "io-error-read-only",
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => "io-error-storage-full",
        io::ErrorKind::FileTooLarge => "io-error-too-large",
        _ => {
            return match error.raw_os_error() {
                Some(code) => Problem::new("io-error-code").text("code", code),
                None => Problem::new("io-error-other"),
            };
        }
    };
    Problem::new(id)
}

fn pgn_error(e: &PgnError) -> Problem {
    let problem = match e.move_number {
        Some(number) => move_problem("file-error-pgn-move", number),
        None => Problem::new("file-error-pgn"),
    };
    // The game's number is the chooser's to show, beside its row.
    problem
        .text("line", e.line)
        .text("offset", e.offset)
        .text("text", &e.text)
        .with("reason", pgn_reason(&e.kind))
}

/// A message that names a move by its number and side.
fn move_problem(id: &'static str, number: MoveNumber) -> Problem {
    let side = match number.color {
        Color::Red => "file-error-red",
        Color::Black => "file-error-black",
    };
    Problem::new(id)
        .text("move", number.number)
        .with("side", Problem::new(side))
}

fn pgn_reason(kind: &PgnErrorKind) -> Problem {
    match kind {
        PgnErrorKind::BadTag => Problem::new("pgn-error-bad-tag"),
        PgnErrorKind::UnterminatedComment => Problem::new("pgn-error-unclosed-comment"),
        PgnErrorKind::UnterminatedVariation => Problem::new("pgn-error-unclosed-variation"),
        PgnErrorKind::UnmatchedParenthesis => Problem::new("pgn-error-unmatched-parenthesis"),
        PgnErrorKind::VariationWithoutMove => Problem::new("pgn-error-variation-without-move"),
        PgnErrorKind::BadFen(_) => Problem::new("pgn-error-bad-fen"),
        PgnErrorKind::UnreadableMove(e) => {
            Problem::new("pgn-error-unreadable-move").with("why", notation_reason(e))
        }
        PgnErrorKind::IllegalMove(reason) => {
            Problem::new("pgn-error-illegal-move").with("why", Problem::new(illegal_id(*reason)))
        }
    }
}

fn notation_reason(e: &NotationError) -> Problem {
    match &e.kind {
        NotationErrorKind::Empty => Problem::new("notation-error-empty"),
        NotationErrorKind::UnexpectedChar { found, expected } => {
            Problem::new("notation-error-unexpected-char")
                .text("found", found)
                .with("expected", expected_problem(*expected))
        }
        NotationErrorKind::UnexpectedEnd { expected } => {
            Problem::new("notation-error-unexpected-end")
                .with("expected", expected_problem(*expected))
        }
        NotationErrorKind::NoSuchPiece => Problem::new("notation-error-no-such-piece"),
        NotationErrorKind::ImpossibleMove => Problem::new("notation-error-impossible"),
        NotationErrorKind::Ambiguous { .. } => Problem::new("notation-error-ambiguous"),
        NotationErrorKind::Illegal(illegal) => Problem::new(illegal_id(illegal.reason)),
        NotationErrorKind::Unrecognized => Problem::new("notation-error-unrecognized"),
    }
}

fn expected_problem(expected: Expected) -> Problem {
    Problem::new(match expected {
        Expected::Piece => "notation-expected-piece",
        Expected::Origin => "notation-expected-origin",
        Expected::Action => "notation-expected-action",
        Expected::Number => "notation-expected-number",
        Expected::Coordinate => "notation-expected-coordinate",
        Expected::End => "notation-expected-end",
    })
}

fn xqf_error(e: &XqfError) -> Problem {
    let problem = match e.move_number {
        Some(number) => move_problem("file-error-xqf-move", number),
        None => Problem::new("file-error-xqf"),
    };
    let reason = match &e.kind {
        XqfErrorKind::TooShort(size) => Problem::new("xqf-error-too-short").text("size", size),
        XqfErrorKind::NotXqf => Problem::new("xqf-error-not-xqf"),
        XqfErrorKind::Truncated => Problem::new("xqf-error-truncated"),
        XqfErrorKind::TwoPiecesOnOnePoint(square) => {
            Problem::new("xqf-error-two-pieces").text("square", square)
        }
        XqfErrorKind::InvalidSetup(_) => Problem::new("xqf-error-invalid-setup"),
        XqfErrorKind::BadSquares { .. } => Problem::new("xqf-error-bad-squares"),
        XqfErrorKind::IllegalMove { mv, reason } => Problem::new("xqf-error-illegal-move")
            .text("text", mv)
            .with("why", Problem::new(illegal_id(*reason))),
    };
    problem.text("offset", e.offset).with("reason", reason)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{I18n, Language};
    use crate::state::problem::ProblemArg;
    use crate::widgets::text::problem_text;

    #[test]
    fn a_system_error_without_words_of_its_own_shows_its_code() {
        // EIO has no kind of its own: its code is all that can be said.
        let problem = io_error(&io::Error::from_raw_os_error(5));
        assert_eq!(problem.id, "io-error-code");
        assert_eq!(problem.args, [("code", ProblemArg::Text("5".into()))]);
        let words = problem_text(
            &I18n::new(Language::ZhCn),
            &save_failed(&io::Error::from_raw_os_error(5)),
        );
        assert_eq!(words, "无法保存：系统错误（代码 5）");
        let made_up = io::Error::other("disk on fire");
        assert_eq!(io_error(&made_up).id, "io-error-other");
    }

    #[test]
    fn a_pgn_error_names_its_line_move_and_text_in_each_language() {
        let games: Vec<_> = chuhe_core::pgn::read_games("\n1. 炮二平五 马８进８ *").collect();
        let error = ReadError::Pgn(games[0].clone().unwrap_err());
        let problem = open_failed(&error);
        for (language, expected) in [
            (
                Language::ZhCn,
                "无法打开：第 2 行，第 1 回合黑方：读不懂的着法（这个棋子不能这样走）「马８进８」",
            ),
            (
                Language::ZhTw,
                "無法開啟：第 2 行，第 1 回合黑方：讀不懂的著法（這個棋子不能這樣走）「马８进８」",
            ),
            (
                Language::En,
                "Could not open: line 2, move 1 (Black): unreadable move (that piece cannot move that way) “马８进８”",
            ),
        ] {
            assert_eq!(problem_text(&I18n::new(language), &problem), expected);
        }
    }
}

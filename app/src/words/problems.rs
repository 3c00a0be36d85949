//! Problems with files in the user's language: the core's typed read errors and the
//! system's I/O errors mapped to Fluent messages with their line, move, byte and offending
//! text, so that no English string of the code reaches a Chinese interface.

use super::text::illegal_id;
use crate::words::problem::Problem;
use chuhe_core::ccbridge::{CcbridgeError, CcbridgeErrorKind};
use chuhe_core::club::{ClubError, Inconsistency};
use chuhe_core::dhtmlxq::{DhtmlXqError, DhtmlXqErrorKind};
use chuhe_core::gamefile::ReadError;
use chuhe_core::notation::{Expected, NotationError, NotationErrorKind};
use chuhe_core::pgn::{PgnError, PgnErrorKind};
use chuhe_core::puzzle::{PuzzleError, PuzzleErrorKind};
use chuhe_core::record::MoveNumber;
use chuhe_core::ron_error::{RonError, RonErrorKind};
use chuhe_core::tb::TbError;
use chuhe_core::xqf::{XqfError, XqfErrorKind};
use chuhe_core::{Color, FenError, FenErrorKind, PositionFenError};
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
        ReadError::Ccbridge(e) => ccbridge_error(e),
        ReadError::DhtmlXq(e) => dhtmlxq_error(e),
    }
}

/// A system error: its kind in words, else its code (the system's own text is English).
pub fn io_error(error: &io::Error) -> Problem {
    let id = match error.kind() {
        io::ErrorKind::NotFound => "io-error-not-found",
        io::ErrorKind::PermissionDenied => "io-error-permission-denied",
        io::ErrorKind::IsADirectory => "io-error-is-a-directory",
        io::ErrorKind::NotADirectory => "io-error-not-a-directory",
        // Most often a file standing where a folder is to be made.
        io::ErrorKind::AlreadyExists => "io-error-already-exists",
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

fn ccbridge_error(e: &CcbridgeError) -> Problem {
    let problem = match e.move_number {
        Some(number) => move_problem("file-error-ccbridge-move", number),
        None => Problem::new("file-error-ccbridge"),
    };
    // The XQF reasons that mean the same are shared; the rest are CCBridge's own.
    let reason = match &e.kind {
        CcbridgeErrorKind::NotCcbridge => Problem::new("ccbridge-error-not-ccbridge"),
        CcbridgeErrorKind::Truncated => Problem::new("xqf-error-truncated"),
        CcbridgeErrorKind::BadPiece(byte) => {
            Problem::new("ccbridge-error-bad-piece").text("byte", format!("{byte:#04x}"))
        }
        CcbridgeErrorKind::InvalidSetup(_) => Problem::new("xqf-error-invalid-setup"),
        CcbridgeErrorKind::BadSquares { .. } => Problem::new("xqf-error-bad-squares"),
        CcbridgeErrorKind::IllegalMove { mv, reason } => Problem::new("xqf-error-illegal-move")
            .text("text", mv)
            .with("why", Problem::new(illegal_id(*reason))),
        CcbridgeErrorKind::NoGames => Problem::new("ccbridge-error-no-games"),
        CcbridgeErrorKind::CbfMissing(what) => {
            Problem::new("ccbridge-error-cbf-missing").text("what", what)
        }
        CcbridgeErrorKind::CbfBadMove(text) => {
            Problem::new("ccbridge-error-cbf-bad-move").text("text", text)
        }
        CcbridgeErrorKind::CbfBadFen(text) => {
            Problem::new("ccbridge-error-cbf-bad-fen").text("text", text)
        }
    };
    problem
        .text("game", e.game)
        .text("offset", e.offset)
        .with("reason", reason)
}

fn dhtmlxq_error(e: &DhtmlXqError) -> Problem {
    let reason = match &e.kind {
        DhtmlXqErrorKind::NoBoard => Problem::new("dhtmlxq-error-no-board"),
        DhtmlXqErrorKind::Unclosed => Problem::new("dhtmlxq-error-unclosed"),
        DhtmlXqErrorKind::BadBoard => Problem::new("dhtmlxq-error-bad-board"),
        DhtmlXqErrorKind::BadPosition(_) => Problem::new("dhtmlxq-error-bad-position"),
        DhtmlXqErrorKind::BadMoves => Problem::new("dhtmlxq-error-bad-moves"),
        DhtmlXqErrorKind::IllegalMove { mv, reason } => Problem::new("dhtmlxq-error-illegal-move")
            .text("text", mv)
            .with("why", Problem::new(illegal_id(*reason))),
        DhtmlXqErrorKind::NoParent => Problem::new("dhtmlxq-error-no-parent"),
    };
    Problem::new("file-error-dhtmlxq")
        .text("tag", &e.tag)
        .text("offset", e.offset)
        .with("reason", reason)
}

/// A FEN that does not read: at which byte, and what is wrong there.
pub fn fen_error(e: &FenError) -> Problem {
    let reason = match &e.kind {
        FenErrorKind::Empty => Problem::new("fen-error-empty"),
        FenErrorKind::UnexpectedChar(c) => {
            Problem::new("fen-error-unexpected-char").text("char", c)
        }
        FenErrorKind::RankTooLong => Problem::new("fen-error-rank-too-long"),
        FenErrorKind::RankTooShort => Problem::new("fen-error-rank-too-short"),
        FenErrorKind::WrongRankCount(n) => Problem::new("fen-error-rank-count").text("count", n),
        FenErrorKind::InvalidSide => Problem::new("fen-error-side"),
        FenErrorKind::InvalidCounter => Problem::new("fen-error-counter"),
        FenErrorKind::TrailingText => Problem::new("fen-error-trailing"),
    };
    // Bytes count from 0 in the core; people count characters from 1.
    Problem::new("fen-error")
        .text("offset", e.offset + 1)
        .with("reason", reason)
}

fn position_fen_error(e: &PositionFenError) -> Problem {
    match e {
        PositionFenError::Fen(e) => fen_error(e),
        PositionFenError::Invalid(_) => Problem::new("fen-error-illegal-position"),
    }
}

/// A RON file (a puzzle, a club) that does not read: its line and column, and why.
pub fn ron_error(line: usize, column: usize, kind: &RonErrorKind) -> Problem {
    Problem::new("ron-error")
        .text("line", line)
        .text("column", column)
        .with("reason", ron_reason(kind))
}

fn ron_reason(kind: &RonErrorKind) -> Problem {
    match kind {
        RonErrorKind::UnexpectedEnd => Problem::new("ron-error-unexpected-end"),
        RonErrorKind::UnexpectedChar(c) => {
            Problem::new("ron-error-unexpected-char").text("char", c)
        }
        RonErrorKind::MissingField(name) => {
            Problem::new("ron-error-missing-field").text("name", name)
        }
        RonErrorKind::UnknownField(name) => {
            Problem::new("ron-error-unknown-field").text("name", name)
        }
        RonErrorKind::DuplicateField(name) => {
            Problem::new("ron-error-duplicate-field").text("name", name)
        }
        RonErrorKind::UnknownVariant(name) => {
            Problem::new("ron-error-unknown-variant").text("name", name)
        }
        RonErrorKind::WrongValue => Problem::new("ron-error-wrong-value"),
        RonErrorKind::Unclosed => Problem::new("ron-error-unclosed"),
        RonErrorKind::TrailingText => Problem::new("ron-error-trailing"),
        RonErrorKind::Malformed => Problem::new("ron-error-malformed"),
    }
}

/// Why a puzzle could not be taken, naming the puzzle.
pub fn puzzle_error(e: &PuzzleError) -> Problem {
    let after = |path: &[String], reason: Problem| {
        if path.is_empty() {
            reason
        } else {
            Problem::new("puzzle-error-after")
                .text("moves", path.join(" "))
                .with("reason", reason)
        }
    };
    let reason = match &e.kind {
        PuzzleErrorKind::Syntax(RonError { line, column, kind }) => ron_error(*line, *column, kind),
        PuzzleErrorKind::Fen(e) => position_fen_error(e),
        PuzzleErrorKind::BadMove { path, text } => after(
            path,
            Problem::new("puzzle-error-bad-move").text("text", text),
        ),
        PuzzleErrorKind::IllegalMove { path, mv } => after(
            path,
            Problem::new("puzzle-error-illegal-move").text("text", mv),
        ),
        PuzzleErrorKind::NoPosition => Problem::new("puzzle-error-no-position"),
        PuzzleErrorKind::BadGoal(goal) => Problem::new("puzzle-error-bad-goal").text("goal", goal),
        PuzzleErrorKind::Pgn(e) => pgn_error(e),
        PuzzleErrorKind::Library(_) => Problem::new("puzzle-error-library"),
    };
    Problem::new("puzzle-error")
        .text("puzzle", &e.puzzle)
        .with("reason", reason)
}

/// A problem with the file `file` (a puzzle that does not read, a diagram not written).
pub fn in_file(file: &std::path::Path, error: Problem) -> Problem {
    Problem::new("file-problem")
        .text("file", file.display())
        .with("error", error)
}

/// Why a club file or a change to a club failed.
pub fn club_error(e: &ClubError) -> Problem {
    match e {
        ClubError::Io(e) => Problem::new("club-error-io").with("error", io_error(e)),
        ClubError::Parse {
            line,
            column,
            reason,
        } => Problem::new("club-error-parse")
            .text("line", line)
            .text("column", column)
            .with("error", ron_reason(reason)),
        ClubError::Inconsistent(what) => {
            Problem::new("club-error-inconsistent").with("error", inconsistency(what))
        }
        ClubError::TooFewPlayers => Problem::new("club-error-too-few"),
        ClubError::BadRoundCount => Problem::new("club-error-rounds"),
        ClubError::GroupTaken => Problem::new("club-error-group-taken"),
        ClubError::NoSuchGame => Problem::new("club-error-no-game"),
        ClubError::RoundIncomplete => Problem::new("club-error-round-incomplete"),
        ClubError::AllRoundsPaired => Problem::new("club-error-all-paired"),
        ClubError::NoPairing => Problem::new("club-error-no-pairing"),
        ClubError::NotSwiss => Problem::new("club-error-not-swiss"),
        ClubError::PlayerInTournament => Problem::new("club-error-player-plays"),
        ClubError::NoSuchPlayer => Problem::new("club-error-no-player"),
        ClubError::HasResults => Problem::new("club-error-has-results"),
    }
}

/// Why a collection could not be opened, read or written.
pub fn db_error(e: &chuhe_core::db::DbError) -> Problem {
    use chuhe_core::db::DbError;
    match e {
        DbError::Sqlite { path, source } => {
            let reason = match source.sqlite_error_code() {
                Some(rusqlite_code::NotADatabase) => Problem::new("collection-error-not-database"),
                Some(rusqlite_code::DatabaseCorrupt) => Problem::new("collection-error-damaged"),
                Some(rusqlite_code::DiskFull) => Problem::new("collection-error-disk-full"),
                Some(rusqlite_code::ReadOnly | rusqlite_code::PermissionDenied) => {
                    Problem::new("io-error-permission-denied")
                }
                Some(rusqlite_code::CannotOpen) => Problem::new("collection-error-cannot-open"),
                Some(rusqlite_code::DatabaseBusy | rusqlite_code::DatabaseLocked) => {
                    Problem::new("collection-error-busy")
                }
                _ => Problem::new("collection-error-sqlite").text("code", sqlite_code(source)),
            };
            in_file(path, reason)
        }
        DbError::NotACollection { path } => {
            in_file(path, Problem::new("collection-error-not-ours"))
        }
        DbError::NewerVersion { path, found } => in_file(
            path,
            Problem::new("collection-error-newer").text("version", found),
        ),
        DbError::OlderVersion { path, found } => in_file(
            path,
            Problem::new("collection-error-older").text("version", found),
        ),
        DbError::DamagedGame { id, .. } => {
            Problem::new("collection-error-damaged-game").text("id", id)
        }
        DbError::NoSuchGame { id } => Problem::new("collection-error-no-game").text("id", id),
    }
}

use chuhe_core::db::SqliteCode as rusqlite_code;

/// SQLite's own number for an error it gave (its text is English).
fn sqlite_code(e: &chuhe_core::db::SqliteError) -> String {
    match e {
        chuhe_core::db::SqliteError::SqliteFailure(f, _) => f.extended_code.to_string(),
        _ => "-".to_owned(),
    }
}

/// A file, or one game of it, that could not be imported into a collection.
pub fn import_failure(f: &chuhe_core::db::ImportFailure) -> Problem {
    use chuhe_core::db::ImportProblem;
    let reason = match &f.problem {
        ImportProblem::Io(e) => io_error(e),
        ImportProblem::Read(e) => read_error(e),
        ImportProblem::NoGames => Problem::new("collection-import-no-games"),
    };
    in_file(&f.file, reason)
}

/// Background work ended without its answer (its thread died).
pub fn work_lost() -> Problem {
    Problem::new("work-lost")
}

fn inconsistency(what: &Inconsistency) -> Problem {
    match what {
        Inconsistency::SharedPlayerId => Problem::new("club-inconsistent-shared-id"),
        Inconsistency::TwoTournamentsInGroup => Problem::new("club-inconsistent-two-tournaments"),
        Inconsistency::UnknownPlayer(p) => {
            Problem::new("club-inconsistent-unknown-player").text("player", p)
        }
        Inconsistency::PlayerEnteredTwice => Problem::new("club-inconsistent-entered-twice"),
        Inconsistency::TooManyRounds => Problem::new("club-inconsistent-too-many-rounds"),
        Inconsistency::NotPairedOnce { round, player } => {
            Problem::new("club-inconsistent-not-paired-once")
                .text("round", round)
                .text("player", player)
        }
    }
}

/// Why an endgame table could not be made.
pub fn tb_error(e: &TbError) -> Problem {
    match e {
        TbError::Material(_) => Problem::new("tb-error-material"),
        TbError::TooLong => Problem::new("tb-error-too-long"),
        TbError::Cancelled => Problem::new("tb-error-cancelled"),
        TbError::NotInScope => Problem::new("tb-error-not-in-scope"),
    }
}

/// Why a class record could not be read, in the user's words, with its line.
pub fn class_record_error(error: &chuhe_core::quiz::RecordError) -> Problem {
    use chuhe_core::quiz::RecordErrorKind;
    let problem = match &error.kind {
        RecordErrorKind::NotARecord => Problem::new("class-record-not-a-record"),
        RecordErrorKind::Unclosed => Problem::new("class-record-unclosed"),
        RecordErrorKind::TooFewCells(n) => {
            Problem::new("class-record-too-few-cells").text("count", n)
        }
        RecordErrorKind::BadPoints(points) => {
            Problem::new("class-record-bad-points").text("points", points)
        }
    };
    problem.text("line", error.line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{I18n, Language};
    use crate::words::problem::ProblemArg;
    use crate::words::text::problem_text;

    /// The words of ASCII letters in `text` once the values it quotes are taken out: what
    /// would be English inside a Chinese message (FEN is the format's name, and single
    /// letters are the FEN's own `w`, `r`, `b`).
    fn english_words(text: &str, values: &[&str]) -> Vec<String> {
        let mut rest = text.to_owned();
        for value in values {
            rest = rest.replace(value, " ");
        }
        rest.split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| w.len() > 1 && *w != "FEN")
            .map(str::to_owned)
            .collect()
    }

    fn zh(problem: &Problem) -> String {
        problem_text(&I18n::new(Language::ZhCn), problem)
    }

    fn assert_chinese(problem: &Problem, values: &[&str]) -> String {
        let text = zh(problem);
        assert!(
            english_words(&text, values).is_empty(),
            "English in {text:?}: {:?}",
            english_words(&text, values)
        );
        text
    }

    #[test]
    fn every_ron_error_is_in_chinese_with_its_line_and_column() {
        let kinds = [
            RonErrorKind::UnexpectedEnd,
            RonErrorKind::UnexpectedChar('x'),
            RonErrorKind::MissingField("goal".into()),
            RonErrorKind::UnknownField("colour".into()),
            RonErrorKind::DuplicateField("fen".into()),
            RonErrorKind::UnknownVariant("Winn".into()),
            RonErrorKind::WrongValue,
            RonErrorKind::Unclosed,
            RonErrorKind::TrailingText,
            RonErrorKind::Malformed,
        ];
        for kind in &kinds {
            let text = assert_chinese(&ron_error(7, 12, kind), &["goal", "colour", "fen", "Winn"]);
            assert!(text.starts_with("第 7 行第 12 列："), "{text}");
        }
    }

    #[test]
    fn every_fen_error_is_in_chinese_with_where_it_is() {
        let kinds = [
            FenErrorKind::Empty,
            FenErrorKind::UnexpectedChar('x'),
            FenErrorKind::RankTooLong,
            FenErrorKind::RankTooShort,
            FenErrorKind::WrongRankCount(4),
            FenErrorKind::InvalidSide,
            FenErrorKind::InvalidCounter,
            FenErrorKind::TrailingText,
        ];
        for kind in kinds {
            let text = assert_chinese(&fen_error(&FenError { offset: 9, kind }), &[]);
            assert!(text.starts_with("第 10 个字符处："), "{text}");
        }
        let typed: FenError = "3k5/9/9/x".parse::<chuhe_core::Setup>().unwrap_err();
        assert_eq!(
            zh(&fen_error(&typed)),
            format!(
                "第 {} 个字符处：「x」不是棋子字母、数字或「/」",
                typed.offset + 1
            )
        );
        let illegal = "9/9/9/9/9/9/9/9/9/9 w"
            .parse::<chuhe_core::Position>()
            .unwrap_err();
        assert_chinese(&position_fen_error(&illegal), &[]);
    }

    #[test]
    fn every_puzzle_error_is_in_chinese_naming_the_puzzle() {
        let file = "(\n  id: \"x\",\n  fen: \"3k5/9/9/9/9/9/9/9/9/4K4 w\",\n  goal: Winn,\n)";
        let broken = chuhe_core::puzzle::Puzzle::from_ron(file).unwrap_err();
        let text = assert_chinese(&puzzle_error(&broken), &["Winn"]);
        assert!(text.starts_with("题目 #1：第 4 行第 "), "{text}");
        assert!(text.ends_with("「Winn」不是允许的取值"), "{text}");
        let games: Vec<_> = chuhe_core::pgn::read_games("1. 炮二平五 马８进８ *").collect();
        let pgn = games[0].clone().unwrap_err();
        let fen = "9/9 w".parse::<chuhe_core::Position>().unwrap_err();
        let path = vec!["h2e2".to_owned(), "h9g7".to_owned()];
        for kind in [
            PuzzleErrorKind::Fen(fen),
            PuzzleErrorKind::BadMove {
                path: Vec::new(),
                text: "z9z9".into(),
            },
            PuzzleErrorKind::IllegalMove {
                path: path.clone(),
                mv: "e0e2".into(),
            },
            PuzzleErrorKind::NoPosition,
            PuzzleErrorKind::BadGoal("checkmate soon".into()),
            PuzzleErrorKind::Pgn(Box::new(pgn)),
            PuzzleErrorKind::Library("broken".into()),
        ] {
            let error = PuzzleError {
                puzzle: "#7".into(),
                kind,
            };
            let text = assert_chinese(
                &puzzle_error(&error),
                &["#7", "z9z9", "e0e2", "h2e2", "h9g7", "checkmate soon"],
            );
            assert!(text.starts_with("题目 #7："), "{text}");
        }
        let in_a_file = in_file(std::path::Path::new("my/set.ron"), puzzle_error(&broken));
        let text = assert_chinese(&in_a_file, &["my/set.ron", "Winn"]);
        assert!(text.starts_with("my/set.ron：题目 #1：第 4 行"), "{text}");
    }

    #[test]
    fn every_club_and_table_error_is_in_chinese() {
        let errors = [
            ClubError::Io(io::Error::from(io::ErrorKind::NotADirectory)),
            ClubError::Parse {
                line: 3,
                column: 17,
                reason: RonErrorKind::WrongValue,
            },
            ClubError::Inconsistent(Inconsistency::SharedPlayerId),
            ClubError::Inconsistent(Inconsistency::TwoTournamentsInGroup),
            ClubError::Inconsistent(Inconsistency::UnknownPlayer(99)),
            ClubError::Inconsistent(Inconsistency::PlayerEnteredTwice),
            ClubError::Inconsistent(Inconsistency::TooManyRounds),
            ClubError::Inconsistent(Inconsistency::NotPairedOnce {
                round: 2,
                player: 7,
            }),
            ClubError::TooFewPlayers,
            ClubError::BadRoundCount,
            ClubError::GroupTaken,
            ClubError::NoSuchGame,
            ClubError::RoundIncomplete,
            ClubError::AllRoundsPaired,
            ClubError::NoPairing,
            ClubError::NotSwiss,
            ClubError::PlayerInTournament,
            ClubError::NoSuchPlayer,
            ClubError::HasResults,
        ];
        for error in &errors {
            assert_chinese(&club_error(error), &[]);
        }
        assert_eq!(
            zh(&club_error(&errors[0])),
            "无法读写俱乐部文件：路径中有一段是文件，不是文件夹"
        );
        assert_eq!(
            zh(&club_error(&errors[1])),
            "俱乐部文件第 3 行第 17 列有误：取值类型不对"
        );
        assert_eq!(
            zh(&club_error(&errors[7])),
            "俱乐部文件内容前后不一致：第 2 轮的配对中，7 号棋手不在本赛事或出现了两次"
        );
        for error in [
            TbError::Material(chuhe_core::tb::MaterialError::MissingSeparator),
            TbError::TooLong,
            TbError::Cancelled,
            TbError::NotInScope,
        ] {
            assert_chinese(&tb_error(&error), &[]);
        }
        assert_chinese(&work_lost(), &[]);
    }

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

    #[test]
    fn a_class_record_that_cannot_be_read_says_why_in_chinese() {
        let error = chuhe_core::quiz::read_scores("name,points\n").unwrap_err();
        let problem =
            Problem::new("club-class-record-bad").with("error", class_record_error(&error));
        let text = assert_chinese(&problem, &[]);
        assert!(text.contains("第 1 行"), "{text}");
    }

    #[test]
    fn dhtmlxq_errors_name_the_tag_and_byte_in_chinese() {
        let text = "[DhtmlXQ][DhtmlXQ_movelist]7748[/DhtmlXQ_movelist][/DhtmlXQ]";
        let error = ReadError::DhtmlXq(chuhe_core::dhtmlxq::read(text).unwrap_err());
        let words = assert_chinese(&read_error(&error), &["DhtmlXQ", "movelist", "h2e1"]);
        assert!(words.contains("movelist"), "{words}");
        assert!(words.contains("27"), "{words}");
        assert!(words.contains("不合规则的着法"), "{words}");
        for broken in [
            "[DhtmlXQ][DhtmlXQ_binit]12[/DhtmlXQ_binit]",
            "[DhtmlXQ][DhtmlXQ_movelist]77",
            "[DhtmlXQ][DhtmlXQ_movelist]7x47[/DhtmlXQ_movelist]",
            "[DhtmlXQ][DhtmlXQ_move_0_7_1]7747[/DhtmlXQ_move_0_7_1]",
        ] {
            let error = ReadError::DhtmlXq(chuhe_core::dhtmlxq::read(broken).unwrap_err());
            assert_chinese(
                &read_error(&error),
                &["DhtmlXQ", "binit", "movelist", "move_0_7_1"],
            );
        }
    }
}

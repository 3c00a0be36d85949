//! Game files, read one way for every caller (the app, `chuhe-engine convert`, the
//! library builders): XQF told by its magic bytes or its name, else text in any encoding
//! Chinese game files come in (see [`crate::encoding`]) holding one FEN or any number of
//! PGN games. A file is either refused as a whole (it cannot be read, is empty, holds no
//! game, or is not text in any encoding) or read into games, each a record or the
//! [`ReadError`] that says where in it the problem is; the other games go on. A PGN game
//! that breaks after some moves is kept up to the break, with the error beside it
//! ([`FileGame::partial`]), and keeps how the file wrote it ([`TextForm`]) so that saving
//! it writes the file the same way.

use crate::ccbridge::{self, CcbridgeError};
use crate::dhtmlxq::{self, DhtmlXqError};
use crate::encoding::{self, TextEncoding, decode};
use crate::notation::Notation;
use crate::pgn::{self, PgnError, PgnForm, PgnGame};
use crate::record::{MoveNumber, Record};
use crate::xqf::{self, XqfError};
use crate::{Position, atomic};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The extensions of the files Chuhe opens, for file dialogs (some match case-sensitively,
/// hence `PGN` too).
pub const GAME_EXTENSIONS: [&str; 12] = [
    "pgn", "xqf", "fen", "txt", "PGN", "cbr", "cbl", "cbf", "CBR", "CBL", "CBF", "dhtmlxq",
];

/// The extensions [`game_files_in`] lists (in any case): the files that are games by name.
pub const GAME_FILE_EXTENSIONS: [&str; 7] = ["pgn", "xqf", "fen", "cbr", "cbl", "cbf", "dhtmlxq"];

/// The games of a file, in order: each a game read (whole or up to a break) or why none
/// of it could be read.
pub type Games = Vec<Result<FileGame, ReadError>>;

/// One game of a file as [`read`] reads it.
#[derive(Debug)]
pub struct FileGame {
    /// The game: all of it, or, when [`FileGame::partial`] is set, what was read before
    /// the problem.
    pub record: Record,
    /// Where and why the game breaks off, when only part of it could be read: the moves
    /// after that point are missing.
    pub partial: Option<ReadError>,
    /// How the file wrote the game, for a PGN game; `None` for XQF, DhtmlXQ and FEN, which are
    /// saved as PGN in the notation the user chooses.
    pub form: Option<TextForm>,
}

/// How a PGN game's file was written: the game's own form and the file's encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextForm {
    /// Tags, spelling of the moves, line layout.
    pub pgn: PgnForm,
    /// The encoding of the file.
    pub encoding: TextEncoding,
    /// Whether the file starts with a byte-order mark (UTF-16 always does).
    pub bom: bool,
    /// The game's number in the file, from 1: where [`save_into`] puts it back.
    pub game: usize,
}

/// Why a file, or one game in it, could not be read. [`ReadError::Io`], [`ReadError::Empty`],
/// [`ReadError::NotAGame`] and [`ReadError::Undecodable`] refuse a whole file;
/// [`ReadError::Pgn`] and [`ReadError::Xqf`] are one game's, and say where in it.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read at all.
    Io(io::Error),
    /// The file or text holds nothing but white space.
    Empty,
    /// The text holds neither a FEN nor a PGN game.
    NotAGame,
    /// The bytes are not text in any encoding Chuhe reads (this is the closest, and it
    /// had invalid bytes), and no game could be read from them.
    Undecodable(TextEncoding),
    /// A PGN game is malformed or has an illegal move.
    Pgn(PgnError),
    /// An XQF file (one game) is malformed or has an illegal move.
    Xqf(XqfError),
    /// A CCBridge (象棋桥) record, or one game of a library, is malformed or has an
    /// illegal move.
    Ccbridge(CcbridgeError),
    /// A DhtmlXQ text (one game) is malformed or has an illegal move.
    DhtmlXq(DhtmlXqError),
}

impl ReadError {
    /// Whether the error is one game's (the file's other games may have been read), not the
    /// whole file's.
    pub fn is_per_game(&self) -> bool {
        matches!(
            self,
            ReadError::Pgn(_) | ReadError::Xqf(_) | ReadError::Ccbridge(_) | ReadError::DhtmlXq(_)
        )
    }

    /// The game's number in its file, from 1.
    pub fn game(&self) -> Option<usize> {
        match self {
            ReadError::Pgn(e) => Some(e.game),
            ReadError::Xqf(_) | ReadError::DhtmlXq(_) => Some(1),
            ReadError::Ccbridge(e) => Some(e.game),
            _ => None,
        }
    }

    /// The line of the problem (PGN, from 1).
    pub fn line(&self) -> Option<usize> {
        match self {
            ReadError::Pgn(e) => Some(e.line),
            _ => None,
        }
    }

    /// The byte offset of the problem: into the file for XQF, into the decoded (UTF-8)
    /// text for PGN.
    pub fn offset(&self) -> Option<usize> {
        match self {
            ReadError::Pgn(e) => Some(e.offset),
            ReadError::Xqf(e) => Some(e.offset),
            ReadError::Ccbridge(e) => Some(e.offset),
            ReadError::DhtmlXq(e) => Some(e.offset),
            _ => None,
        }
    }

    /// The number of the move being read, when the problem is in the moves.
    pub fn move_number(&self) -> Option<MoveNumber> {
        match self {
            ReadError::Pgn(e) => e.move_number,
            ReadError::Xqf(e) => e.move_number,
            ReadError::Ccbridge(e) => e.move_number,
            _ => None,
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "cannot read the file: {e}"),
            ReadError::Empty => f.write_str("the file is empty"),
            ReadError::NotAGame => f.write_str("no FEN or PGN game found"),
            ReadError::Undecodable(closest) => write!(
                f,
                "not text in any encoding Chuhe reads (not even {closest}), and no game in it"
            ),
            ReadError::Pgn(e) => e.fmt(f),
            ReadError::Xqf(e) => write!(f, "game 1, {e}"),
            ReadError::Ccbridge(e) => e.fmt(f),
            ReadError::DhtmlXq(e) => write!(f, "game 1, {e}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// What to do with an XQF file whose moves are partly damaged (an illegal move in a
/// variation, a cut): keep what reads, or refuse the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Damage {
    /// Keep every move that reads (a move that is not legal is left out with what follows
    /// it): what a user opening the file wants to see.
    #[default]
    Keep,
    /// Refuse the game at its first problem: what a conversion wants, so that nothing is
    /// lost silently.
    Refuse,
}

/// Whether `bytes` (named `name`, if known) are an XQF file: by the magic bytes, or by the
/// name for a file too damaged to have them.
pub fn is_xqf(bytes: &[u8], name: Option<&Path>) -> bool {
    bytes.starts_with(b"XQ")
        || name
            .and_then(Path::extension)
            .is_some_and(|e| e.eq_ignore_ascii_case("xqf"))
}

/// Reads a file's bytes (named `name`, if known): an XQF file is one game, with every move
/// that reads; text is a FEN on one line (a game from that position) or PGN games. Refuses
/// a file that is empty, holds no game, or is not text in any encoding and yields no game.
pub fn read(bytes: &[u8], name: Option<&Path>) -> Result<Games, ReadError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ReadError::Empty);
    }
    if let Some(games) = ccbridge_games(bytes) {
        return games.map(|games| {
            games
                .into_iter()
                .map(|g| {
                    g.map(|record| FileGame {
                        record,
                        partial: None,
                        form: None,
                    })
                })
                .collect()
        });
    }
    if is_xqf(bytes, name) {
        // The lenient reader keeps every good branch of a damaged file; the first problem
        // says what is missing.
        return Ok(vec![
            xqf::read_lenient(bytes)
                .map(|(record, problems)| FileGame {
                    record,
                    partial: problems.into_iter().next().map(ReadError::Xqf),
                    form: None,
                })
                .map_err(ReadError::Xqf),
        ]);
    }
    let decoded = decode(bytes);
    let bom = decoded.encoding != TextEncoding::Utf8 || bytes.starts_with(b"\xef\xbb\xbf");
    let games = read_text_in(&decoded.text, decoded.encoding, bom);
    let none_read = match &games {
        Ok(games) => games.iter().all(Result::is_err),
        Err(_) => true,
    };
    if decoded.had_errors && none_read {
        return Err(ReadError::Undecodable(decoded.encoding));
    }
    games
}

/// Reads the file at `path` (see [`read`]).
pub fn read_file(path: &Path) -> Result<Games, ReadError> {
    let bytes = std::fs::read(path).map_err(ReadError::Io)?;
    read(&bytes, Some(path))
}

/// Reads a text (pasted, dropped): a FEN on one line, or PGN with one or more games.
pub fn read_text(text: &str) -> Result<Games, ReadError> {
    read_text_in(text, TextEncoding::Utf8, false)
}

/// Reads a text that came from a file in `encoding` (see [`read_text`]).
fn read_text_in(text: &str, encoding: TextEncoding, bom: bool) -> Result<Games, ReadError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(ReadError::Empty);
    }
    if is_dhtmlxq(trimmed) {
        return Ok(vec![read_dhtmlxq(trimmed)]);
    }
    if !trimmed.contains('[')
        && !trimmed.contains('\n')
        && let Ok(position) = trimmed.parse::<Position>()
    {
        return Ok(vec![Ok(FileGame {
            record: Record::new(position),
            partial: None,
            form: None,
        })]);
    }
    let games: Games = pgn::read_games_as_written(text)
        .map(|game| file_game(game, encoding, bom))
        .collect();
    if games.is_empty() {
        return Err(ReadError::NotAGame);
    }
    Ok(games)
}

/// A PGN game read as far as it goes: whole, kept up to its break if any move was read
/// before it, else unreadable.
fn file_game(game: PgnGame, encoding: TextEncoding, bom: bool) -> Result<FileGame, ReadError> {
    let PgnGame {
        number,
        record,
        error,
        form,
    } = game;
    if let Some(e) = &error
        && record.move_count() == 0
    {
        return Err(ReadError::Pgn(e.clone()));
    }
    Ok(FileGame {
        record,
        partial: error.map(ReadError::Pgn),
        form: Some(TextForm {
            pgn: form,
            encoding,
            bom,
            game: number,
        }),
    })
}

/// Every game of a file's bytes as they are, nothing refused as a whole and no FEN line
/// taken for a game: an XQF file (by its magic bytes, or by `name`) is one game, taken as
/// `damage` says; anything else is decoded and read as PGN (empty text has no game).
pub fn games(bytes: &[u8], name: Option<&Path>, damage: Damage) -> Vec<Result<Record, ReadError>> {
    if let Some(games) = ccbridge_games(bytes) {
        return games.unwrap_or_else(|e| vec![Err(e)]);
    }
    if is_xqf(bytes, name) {
        return vec![read_xqf(bytes, damage)];
    }
    let text = decode(bytes).text;
    if is_dhtmlxq(&text) {
        return vec![read_dhtmlxq(&text).map(|g| g.record)];
    }
    pgn::read_games(&text)
        .map(|g| g.map_err(ReadError::Pgn))
        .collect()
}

/// The games of a CCBridge record or its XML form (one) or library (any number), told by
/// their magic or root element;
/// `None` for any other file. A library whose header cannot be read is refused as a whole.
fn ccbridge_games(bytes: &[u8]) -> Option<Result<Vec<Result<Record, ReadError>>, ReadError>> {
    if bytes.starts_with(ccbridge::LIBRARY_MAGIC) {
        Some(
            ccbridge::read_library(bytes)
                .map(|library| {
                    library
                        .games
                        .into_iter()
                        .map(|g| g.map_err(ReadError::Ccbridge))
                        .collect()
                })
                .map_err(ReadError::Ccbridge),
        )
    } else if bytes.starts_with(ccbridge::RECORD_MAGIC) {
        Some(Ok(vec![
            ccbridge::read_record(bytes).map_err(ReadError::Ccbridge),
        ]))
    } else if ccbridge::is_cbf(bytes) {
        Some(Ok(vec![
            ccbridge::read_cbf(bytes).map_err(ReadError::Ccbridge),
        ]))
    } else {
        None
    }
}

/// Whether a text is a DhtmlXQ (UBB) game, as forums and web boards write it.
pub fn is_dhtmlxq(text: &str) -> bool {
    text.contains("[DhtmlXQ")
}

fn read_dhtmlxq(text: &str) -> Result<FileGame, ReadError> {
    dhtmlxq::read(text)
        .map(|record| FileGame {
            record,
            partial: None,
            form: None,
        })
        .map_err(ReadError::DhtmlXq)
}

fn read_xqf(bytes: &[u8], damage: Damage) -> Result<Record, ReadError> {
    match damage {
        // The lenient reader keeps every good branch of a damaged file.
        Damage::Keep => xqf::read_lenient(bytes).map(|(record, _problems)| record),
        Damage::Refuse => xqf::read(bytes),
    }
    .map_err(ReadError::Xqf)
}

/// The record as PGN, moves in `notation`.
pub fn to_pgn(record: &Record, notation: Notation) -> String {
    let mut out = String::new();
    pgn::write_game(record, notation, &mut out);
    out
}

/// Saves the record as PGN at `path`, atomically.
pub fn save_pgn(path: &Path, record: &Record, notation: Notation) -> io::Result<()> {
    atomic::write_atomically(path, to_pgn(record, notation).as_bytes())
}

/// The record as the bytes of a PGN file of `form`: written as the file wrote it
/// ([`pgn::write_game_as`]), in its encoding — in UTF-8 if that encoding cannot hold
/// every character the record now has.
pub fn to_bytes_as(record: &Record, form: &TextForm) -> Vec<u8> {
    let mut text = String::new();
    pgn::write_game_as(record, &form.pgn, &mut text);
    encoding::encode(&text, form.encoding, form.bom)
}

/// Saves the record at `path` as a PGN file of `form`, atomically.
pub fn save_as_written(path: &Path, record: &Record, form: &TextForm) -> io::Result<()> {
    atomic::write_atomically(path, &to_bytes_as(record, form))
}

/// Saves the record back into the PGN file at `path` it was read from, as game
/// [`TextForm::game`]: the file's other games, and the blank lines between games, stay as
/// they are. A file that no longer has that many games gets the game at its end rather
/// than lose any.
pub fn save_into(path: &Path, record: &Record, form: &TextForm) -> io::Result<()> {
    let bytes = std::fs::read(path)?;
    let text = decode(&bytes).text;
    let mut game = String::new();
    pgn::write_game_as(record, &form.pgn, &mut game);
    let game = game.trim_end();
    let spans = pgn::game_spans(&text);
    let whole = match form.game.checked_sub(1).and_then(|i| spans.get(i)) {
        Some(span) => {
            let old = &text[span.clone()];
            let gap = &old[old.trim_end().len()..];
            [&text[..span.start], game, gap, &text[span.end..]].concat()
        }
        None => {
            let line_end = if form.pgn.crlf { "\r\n" } else { "\n" };
            let kept = text.trim_end();
            let gap = if kept.is_empty() { "" } else { line_end };
            [kept, gap, gap, game, line_end].concat()
        }
    };
    atomic::write_atomically(path, &encoding::encode(&whole, form.encoding, form.bom))
}

/// Whether `path` has a game file's extension ([`GAME_FILE_EXTENSIONS`], any case).
pub fn has_game_file_extension(path: &Path) -> bool {
    path.extension().is_some_and(|e| {
        GAME_FILE_EXTENSIONS
            .iter()
            .any(|g| e.eq_ignore_ascii_case(g))
    })
}

/// The game files in `dir` (by their extension, [`GAME_FILE_EXTENSIONS`]), sorted by name.
pub fn game_files_in(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && has_game_file_extension(p))
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xqf::XqfErrorKind;
    use encoding_rs::{BIG5, GBK};

    /// A file of the shared reference data (`$CHUHE_SHARED_DATA`, or `../shared/data`
    /// beside the project); its absence fails the test rather than passing it silently.
    fn shared(relative: &str) -> Vec<u8> {
        let dir = std::env::var_os("CHUHE_SHARED_DATA").map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
            PathBuf::from,
        );
        let path = dir.join(relative);
        std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "reference data {} is absent ({e}): set CHUHE_SHARED_DATA",
                path.display()
            )
        })
    }

    fn records(games: Games) -> Vec<Record> {
        games.into_iter().map(|g| g.unwrap().record).collect()
    }

    #[test]
    fn a_broken_game_is_kept_up_to_its_break_and_the_others_are_read() {
        let text = "[Event \"one\"]\n1. 炮二平五 马８进７ *\n\n\
                    [Event \"two\"]\n1. 炮二平五 马８进７\n2. 马二进三 马８进８ 3. 车一平二 *\n\n\
                    [Event \"three\"]\n1. 兵七进一 *\n\n\
                    [Event \"four\"]\n1. 兵七进九 *\n";
        let games = read(text.as_bytes(), Some(Path::new("games.pgn"))).unwrap();
        assert_eq!(games.len(), 4);
        let first = games[0].as_ref().unwrap();
        assert_eq!(first.record.main_line().len(), 2);
        assert!(first.partial.is_none());
        assert_eq!(
            games[2].as_ref().unwrap().record.headers().get("Event"),
            Some("three")
        );
        // The second game breaks at its fourth move: the three before it are kept, with
        // its tags, and the error says where.
        let broken = games[1].as_ref().unwrap();
        assert_eq!(broken.record.headers().get("Event"), Some("two"));
        let kept: Vec<String> = broken
            .record
            .main_line_moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(kept, ["h2e2", "h9g7", "h0g2"]);
        let error = broken.partial.as_ref().unwrap();
        assert!(error.is_per_game());
        assert_eq!(error.game(), Some(2));
        assert_eq!(error.line(), Some(6));
        assert_eq!(
            error.move_number().map(|n| n.to_string()).as_deref(),
            Some("2...")
        );
        let offset = error.offset().unwrap();
        assert!(text[offset..].starts_with("马８进８"), "{offset}");
        assert!(
            error.to_string().starts_with("game 2, line 6, move 2..."),
            "{error}"
        );
        // A game that breaks before its first move has nothing to keep.
        let error = games[3].as_ref().unwrap_err();
        assert_eq!((error.game(), error.line()), (Some(4), Some(12)));
    }

    #[test]
    fn a_game_broken_inside_a_variation_keeps_its_main_line() {
        let text = "1. h2e2 h9g7 (1... h7e7 2. h0g2 (2. zz)) 2. h0g2 *";
        let games = read_text(text).unwrap();
        let broken = games[0].as_ref().unwrap();
        assert_eq!(broken.record.main_line().len(), 2);
        assert_eq!(broken.record.line_count(), 2);
        let Some(ReadError::Pgn(error)) = &broken.partial else {
            panic!("{:?}", broken.partial);
        };
        assert_eq!(error.text, "zz");
    }

    #[test]
    fn a_fen_line_is_a_game_from_that_position() {
        let fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1";
        let games = records(read_text(fen).unwrap());
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].start().to_string(), fen);
        assert_eq!(games[0].move_count(), 0);
        // A file of it too (a .fen file); not so in the plain game list of a conversion.
        assert_eq!(read(fen.as_bytes(), None).unwrap().len(), 1);
        assert!(games_of_text(fen).iter().all(Result::is_err));
    }

    fn games_of_text(text: &str) -> Vec<Result<Record, ReadError>> {
        games(text.as_bytes(), None, Damage::Refuse)
    }

    #[test]
    fn files_with_no_game_are_refused_as_a_whole() {
        for empty in [&b""[..], b"  \n\t ", "\u{feff}".as_bytes()] {
            assert!(
                matches!(read(empty, None), Err(ReadError::Empty)),
                "{empty:?}"
            );
        }
        assert!(matches!(read_text(" \n "), Err(ReadError::Empty)));
        // A byte-order mark is no game; a lone comment is (a start position with a note).
        assert!(matches!(read_text("\u{feff}\n"), Err(ReadError::NotAGame)));
        assert_eq!(read_text("{just a note}").unwrap().len(), 1);
        // Bytes that are no text in any encoding (invalid in UTF-8, GB18030 and Big5).
        let binary: Vec<u8> = (0..64).flat_map(|_| [0xff, 0x80, 0xfe, 0x7f]).collect();
        let error = read(&binary, Some(Path::new("picture.pgn"))).unwrap_err();
        assert!(matches!(error, ReadError::Undecodable(_)), "{error}");
        assert!(!error.is_per_game());
        assert_eq!(
            (error.game(), error.line(), error.offset()),
            (None, None, None)
        );
        let missing = read_file(Path::new("/nonexistent/chuhe/game.pgn")).unwrap_err();
        assert!(matches!(missing, ReadError::Io(_)));
        assert!(missing.to_string().starts_with("cannot read the file"));
    }

    #[test]
    fn gbk_and_big5_text_reads_as_its_utf8_original() {
        let simplified =
            "[Red \"许银川\"]\n[Black \"吕钦\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n";
        let traditional =
            "[Red \"許銀川\"]\n[Black \"呂欽\"]\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ *\n";
        let utf8 = records(read(simplified.as_bytes(), None).unwrap());
        for (text, encoding, red) in [(simplified, GBK, "许银川"), (traditional, BIG5, "許銀川")]
        {
            let (bytes, _, unmappable) = encoding.encode(text);
            assert!(!unmappable);
            assert!(std::str::from_utf8(&bytes).is_err(), "not UTF-8 any more");
            let games = records(read(&bytes, Some(Path::new("game.pgn"))).unwrap());
            assert_eq!(games.len(), 1);
            assert_eq!(games[0].headers().get("Red"), Some(red));
            assert_eq!(games[0].main_line_moves(), utf8[0].main_line_moves());
        }
    }

    /// A UTF-8 file cut inside a character (here two bytes into the full-width numeral of a
    /// move of game 174) reads as the same file cut at the character before: the games up
    /// to the cut whole, the last one refused where the cut leaves its move unfinished.
    #[test]
    fn a_utf8_file_cut_inside_a_character_reads_up_to_the_cut() {
        let bytes = shared("games/ccpd/中局.utf8.pgn");
        let cut = &bytes[..105_300];
        let boundary = std::str::from_utf8(cut).unwrap_err().valid_up_to();
        assert!(boundary < cut.len(), "the cut falls inside a character");
        let read_cut = games(cut, None, Damage::Refuse);
        let at_boundary = games(&bytes[..boundary], None, Damage::Refuse);
        assert_eq!(read_cut.len(), at_boundary.len());
        let whole = games(&bytes, None, Damage::Refuse);
        let (last, before) = read_cut.split_last().unwrap();
        assert!(before.len() > 100);
        for (i, game) in before.iter().enumerate() {
            assert_eq!(
                game.as_ref().unwrap(),
                whole[i].as_ref().unwrap(),
                "game {}",
                i + 1
            );
        }
        let (e, e_at_boundary) = (
            last.as_ref().unwrap_err(),
            at_boundary.last().unwrap().as_ref().unwrap_err(),
        );
        assert_eq!(e.to_string(), e_at_boundary.to_string());
        assert_eq!(e.game(), Some(read_cut.len()));
        // Opened (damage kept), the last game keeps its moves up to the cut.
        let opened = read(cut, None).unwrap();
        assert_eq!(opened.len(), read_cut.len());
        assert!(opened.last().unwrap().as_ref().unwrap().partial.is_some());
    }

    #[test]
    fn real_gb18030_and_big5_files_read() {
        let gbk = shared("games/eleeye_ccgc/01.宝岛一号(先负)相眼竞技(A1-A2).PGN");
        let games = records(read(&gbk, None).unwrap());
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].headers().get("Red"), Some("宝岛一号"));
        assert!(games[0].main_line().len() > 20);
        let big5 = shared("games/ccpd/raw_big5/對局__大師對局__以賽事分類__五羊杯__00000035.pgn");
        assert!(std::str::from_utf8(&big5).is_err());
        let games = records(read(&big5, None).unwrap());
        assert_eq!(games.len(), 1);
        assert!(games[0].main_line().len() > 20);
        assert!(
            !games[0]
                .headers()
                .get("Red")
                .unwrap_or("")
                .contains('\u{fffd}')
        );
    }

    #[test]
    fn xqf_files_read_by_their_magic_or_their_name() {
        let bytes = shared("formats/xqf_eleeye/XQFEXAMA.XQF");
        let games = records(read(&bytes, None).unwrap());
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].headers().get("Red"), Some("柳大华"));
        // The same through a path.
        let dir = std::env::temp_dir().join(format!("chuhe-gamefile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.xqf");
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read_file(&path).unwrap().len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
        // A file that lost its magic is still read as XQF by its name, and refused with
        // where and why.
        let mut damaged = bytes.clone();
        damaged[0] = b'x';
        let games = read(&damaged, Some(Path::new("game.XQF"))).unwrap();
        let error = games[0].as_ref().unwrap_err();
        assert!(error.is_per_game());
        assert_eq!((error.game(), error.offset()), (Some(1), Some(0)));
    }

    #[test]
    fn a_damaged_xqf_keeps_what_reads_or_is_refused_at_the_first_problem() {
        let bytes = shared("formats/walker8088_cchess_testdata/BadMoveTest3.xqf");
        let kept = read(&bytes, None).unwrap();
        assert!(kept[0].is_ok());
        let refused = games(&bytes, None, Damage::Refuse);
        let error = refused[0].as_ref().unwrap_err();
        let ReadError::Xqf(xqf) = error else {
            panic!("{error}");
        };
        assert!(
            matches!(xqf.kind, XqfErrorKind::IllegalMove { .. }),
            "{xqf}"
        );
        assert!(error.move_number().is_some() && error.offset().unwrap() >= 0x400);
        // The conversion's reader refuses it the same way.
        assert_eq!(
            crate::convert::read_games(&bytes)[0]
                .as_ref()
                .unwrap_err()
                .to_string(),
            error.to_string()
        );
    }

    #[test]
    fn a_truncated_file_names_the_byte_or_line_where_it_ends() {
        let bytes = shared("formats/xqf_eleeye/XQFEXAMA.XQF");
        let whole = records(read(&bytes, None).unwrap()).remove(0);
        // Cut inside the moves: the moves before the cut are kept, or the game refused at
        // the cut.
        let cut = &bytes[..0x400 + (bytes.len() - 0x400) / 2];
        let kept = records(read(cut, None).unwrap()).remove(0);
        assert!(kept.move_count() < whole.move_count());
        let refused = games(cut, None, Damage::Refuse);
        let error = refused[0].as_ref().unwrap_err();
        let ReadError::Xqf(xqf) = error else {
            panic!("{error}");
        };
        assert_eq!(xqf.kind, XqfErrorKind::Truncated);
        assert!(error.offset().unwrap() <= cut.len(), "{error}");
        assert!(error.to_string().contains("byte"), "{error}");
        // Cut inside the header: nothing to keep.
        let header = read(&bytes[..500], None).unwrap();
        let error = header[0].as_ref().unwrap_err();
        assert!(error.to_string().contains("too short"), "{error}");
        // A PGN cut inside a comment keeps the move before it.
        let text = "[Event \"cut\"]\n\n1. 炮二平五 {中炮，最常见的";
        let games = read(text.as_bytes(), None).unwrap();
        let cut = games[0].as_ref().unwrap();
        assert_eq!(cut.record.move_count(), 1);
        let error = cut.partial.as_ref().unwrap();
        assert_eq!(error.line(), Some(3));
        assert!(text[error.offset().unwrap()..].starts_with('{'), "{error}");
    }

    #[test]
    fn a_folder_lists_its_game_files_by_name() {
        let dir = std::env::temp_dir().join(format!("chuhe-game-files-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub.pgn")).unwrap();
        for name in ["b.XQF", "a.pgn", "notes.txt", "c.fen", "d.png"] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        let names: Vec<String> = game_files_in(&dir)
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.pgn", "b.XQF", "c.fen"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_saved_game_reads_back_the_same() {
        let mut record = Record::default();
        let a = record
            .add_move(record.root(), "h2e2".parse().unwrap())
            .unwrap();
        record.add_move(a, "h9g7".parse().unwrap()).unwrap();
        record.set_comment(a, "中炮").unwrap();
        let dir = std::env::temp_dir().join(format!("chuhe-save-pgn-{}", std::process::id()));
        let path = dir.join("game.pgn");
        save_pgn(&path, &record, Notation::Chinese).unwrap();
        let read = records(read_file(&path).unwrap()).remove(0);
        assert_eq!(read.main_line_moves(), record.main_line_moves());
        assert_eq!(read.annotation(read.main_line()[0]).comment, "中炮");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unchanged_big5_file_is_saved_as_it_was() {
        let dir =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/games/ccpd/raw_big5");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("reference data {} is absent ({e})", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert_eq!(files.len(), 12);
        let mut identical = 0;
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            let games = read(&bytes, None).unwrap();
            let game = games[0].as_ref().unwrap();
            let form = game.form.as_ref().unwrap();
            assert_eq!(form.encoding, TextEncoding::Big5);
            let saved = to_bytes_as(&game.record, form);
            identical += usize::from(saved == bytes);
            // Big5 still, and the same text but for runs of spaces (some of these files
            // put two spaces between moves here and there): the same characters, tags
            // in the same order and no other, one move per line, `1.` before a Black
            // first move, a blank line before the result.
            let before = decode(&bytes);
            let after = decode(&saved);
            assert_eq!(after.encoding, TextEncoding::Big5, "{}", path.display());
            let spaces = |text: &str| {
                text.split(' ')
                    .filter(|w| !w.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            assert_eq!(
                spaces(&after.text),
                spaces(&before.text),
                "{}",
                path.display()
            );
            let again = records(read(&saved, None).unwrap()).remove(0);
            assert_eq!(again.main_line_moves(), game.record.main_line_moves());
        }
        assert_eq!(
            identical, 7,
            "the files with single spaces come back byte for byte"
        );
    }

    #[test]
    fn saving_keeps_the_notation_line_ends_and_tags_of_the_file() {
        let text = "[Event \"练习\"]\r\n[Red \"甲\"]\r\n\r\n1. h2e2 h9g7 2. h0g2 i9h9 1-0\r\n";
        let games = read(text.as_bytes(), Some(Path::new("a.pgn"))).unwrap();
        let game = games[0].as_ref().unwrap();
        let form = game.form.as_ref().unwrap();
        // Unchanged, the file comes back as it was: no Game, Format or Result tag added.
        assert_eq!(
            String::from_utf8(to_bytes_as(&game.record, form)).unwrap(),
            text
        );
        // Edited: the user's tag is added; the new move is spelt like the others.
        let mut record = game.record.clone();
        let last = *record.main_line().last().unwrap();
        record.add_move(last, "b0c2".parse().unwrap()).unwrap();
        record.set_header("Black", "乙");
        let saved = String::from_utf8(to_bytes_as(&record, form)).unwrap();
        assert_eq!(
            saved,
            "[Event \"练习\"]\r\n[Red \"甲\"]\r\n[Black \"乙\"]\r\n\r\n\
             1. h2e2 h9g7 2. h0g2 i9h9 3. b0c2 1-0\r\n"
        );
        // A UTF-8 file with a byte-order mark keeps it; pasted text has none to keep.
        let with_bom = [b"\xef\xbb\xbf".as_slice(), text.as_bytes()].concat();
        let games = read(&with_bom, None).unwrap();
        let game = games[0].as_ref().unwrap();
        assert_eq!(
            to_bytes_as(&game.record, game.form.as_ref().unwrap()),
            with_bom
        );
        let pasted = read_text(text).unwrap();
        assert!(!pasted[0].as_ref().unwrap().form.as_ref().unwrap().bom);
    }

    #[test]
    fn a_game_saved_back_into_its_file_leaves_the_other_games_as_they_were() {
        let first = "[Event \"一\"]\n\n1. 炮二平五 马８进７\n2. 马二进三 *\n\n\n";
        let second = "[Event \"二\"]\n[Red \"甲\"]\n\n1. 兵七进一 卒７进１ *\n\n";
        let third = "[Event \"三\"]\n1. h2e2 {注} *\n";
        let dir = std::env::temp_dir().join(format!("chuhe-save-into-{}", std::process::id()));
        let path = dir.join("three.pgn");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, [first, second, third].concat()).unwrap();
        let games = read_file(&path).unwrap();
        let game = games[1].as_ref().unwrap();
        let form = game.form.as_ref().unwrap();
        assert_eq!(form.game, 2);
        // Unchanged, the file stays as it was.
        save_into(&path, &game.record, form).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            [first, second, third].concat()
        );
        let mut record = game.record.clone();
        let last = *record.main_line().last().unwrap();
        record.add_move(last, "b0c2".parse().unwrap()).unwrap();
        save_into(&path, &record, form).unwrap();
        let edited = "[Event \"二\"]\n[Red \"甲\"]\n\n1. 兵七进一 卒７进１ 2. 马八进七 *\n\n";
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            [first, edited, third].concat()
        );
        // A file that lost the game gets it back at its end.
        std::fs::write(&path, first).unwrap();
        save_into(&path, &record, form).unwrap();
        let again = read_file(&path).unwrap();
        assert_eq!(again.len(), 2);
        assert_eq!(again[1].as_ref().unwrap().record.main_line().len(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dhtmlxq_text_is_read_as_one_game_from_bytes_paste_and_the_library_reader() {
        let text = "论坛 [DhtmlXQ][DhtmlXQ_red]甲[/DhtmlXQ_red]\
                    [DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\
                    [DhtmlXQ_move_0_2_1]7062[/DhtmlXQ_move_0_2_1][/DhtmlXQ]";
        let (gbk, _, _) = GBK.encode(text);
        let from_file = records(read(&gbk, Some(Path::new("game.dhtmlxq"))).unwrap());
        let pasted = records(read_text(text).unwrap());
        let listed: Vec<Record> = games(&gbk, None, Damage::Refuse)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        for got in [&from_file, &pasted, &listed] {
            assert_eq!(got.len(), 1);
            assert_eq!(got[0].main_line().len(), 2);
            assert_eq!(got[0].line_count(), 2);
            assert_eq!(got[0].headers().get("Red"), Some("甲"));
        }
        // A broken one is one game's error, with where it is.
        let broken = "[DhtmlXQ][DhtmlXQ_movelist]7748[/DhtmlXQ_movelist]";
        let games = read_text(broken).unwrap();
        let error = games[0].as_ref().unwrap_err();
        assert!(error.is_per_game());
        assert_eq!(error.offset(), broken.find("7748"));
    }

    #[test]
    fn dhtmlxq_files_are_listed_as_games() {
        let dir = std::env::temp_dir().join(format!("chuhe-dhtmlxq-list-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.DhtmlXQ"), "[DhtmlXQ][/DhtmlXQ]").unwrap();
        std::fs::write(dir.join("b.html"), "").unwrap();
        let files = game_files_in(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(files, vec![dir.join("a.DhtmlXQ")]);
        assert!(GAME_EXTENSIONS.contains(&"dhtmlxq"));
    }
}

//! PGN for Xiangqi, as xqbase (象棋百科全书) and the programs that follow it write it:
//! `[Game "Chinese Chess"]`, the usual tags, `[FEN]` for set-up positions and
//! `[Format "Chinese"|"WXF"|"ICCS"]` naming the notation of the moves.
//!
//! Reading takes any number of games from one text, with variations `( … )`, comments
//! `{ … }` and `;`, glyphs (`$n`, `!`, `?`, `!!`, `??`, `!?`, `?!`) and the comment commands
//! `[%cal]`, `[%csl]`, `[%clk]` and `[%eval]`, which become the typed fields of an
//! [`Annotation`]. Every move is replayed through the rules. A game that cannot be read
//! gives a [`PgnError`] saying where and why, and the next game is read as if nothing had
//! happened. Text after a game's result (xqbase files end with a banner) is ignored.
//! [`read_games_as_written`] reads the same games as far as each goes (a game that breaks
//! keeps its tags and the moves before the break) together with how the file wrote it, a
//! [`PgnForm`], and [`write_game_as`] writes a game back in that form.
//!
//! Comments: the first comment after a move is that move's comment; further comments before
//! the next move, comments after the move's variations, and comments at the start of a
//! variation are the next move's `comment_before` (at the end of a line they join the last
//! move's comment). Writing follows the same rule, so what Chuhe writes reads back the same;
//! a comment holding `}`, which a `{ }` comment cannot, is written as `;` comments on
//! consecutive lines, which are read as one comment of several lines.
//!
//! ```
//! use chuhe_core::pgn;
//! let text = "[Game \"Chinese Chess\"]\n[Red \"许银川\"]\n[Format \"ICCS\"]\n\n\
//!             1. h2e2 {中炮} h9g7 (1... h7e7 $5) 2. h0g2 *\n";
//! let games: Vec<_> = pgn::read_games(text).collect();
//! let record = games[0].as_ref().unwrap();
//! assert_eq!(record.headers().get("Red"), Some("许银川"));
//! assert_eq!(record.main_line().len(), 3);
//! assert_eq!(record.line_count(), 2);
//! ```

pub mod form;

pub use form::PgnForm;

use crate::notation::{self, Notation, NotationError, NotationErrorKind, Spelling};
use crate::record::{
    Annotation, Arrow, Circle, Evaluation, GameResult, MarkColor, MoveNumber, Nag, NodeId, Record,
    tag,
};
use crate::search::Score;
use crate::{Color, IllegalReason, Move, Position, PositionFenError, Square};
use std::fmt::{self, Write as _};
use std::time::Duration;

/// A game that could not be read: which game of the text, where in it, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The game's number in the text, from 1.
    pub game: usize,
    /// The line, from 1.
    pub line: usize,
    /// The byte offset into the (decoded, UTF-8) text.
    pub offset: usize,
    /// The number of the move being read, when the problem is in the moves.
    pub move_number: Option<MoveNumber>,
    /// The offending text (a move, a tag, the start of a comment …).
    pub text: String,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// The kinds of PGN error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A tag `[Name "value"]` is not closed or has no quoted value.
    BadTag,
    /// A `{` comment is not closed before the game ends.
    UnterminatedComment,
    /// A `(` variation is not closed before the game ends.
    UnterminatedVariation,
    /// A `)` with no variation open.
    UnmatchedParenthesis,
    /// A variation with no move before it to be an alternative to.
    VariationWithoutMove,
    /// The `FEN` tag does not hold a legal position.
    BadFen(PositionFenError),
    /// The text is not a move in the game's notation nor in any other Chuhe reads.
    UnreadableMove(NotationError),
    /// The move is readable but not legal in its position.
    IllegalMove(IllegalReason),
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, line {}", self.game, self.line)?;
        if let Some(n) = self.move_number {
            write!(f, ", move {n}")?;
        }
        write!(f, " (byte {}): ", self.offset)?;
        match &self.kind {
            PgnErrorKind::BadTag => f.write_str("malformed tag")?,
            PgnErrorKind::UnterminatedComment => f.write_str("comment not closed")?,
            PgnErrorKind::UnterminatedVariation => f.write_str("variation not closed")?,
            PgnErrorKind::UnmatchedParenthesis => f.write_str("`)` with no variation open")?,
            PgnErrorKind::VariationWithoutMove => {
                f.write_str("variation with no move before it")?
            }
            PgnErrorKind::BadFen(e) => write!(f, "bad FEN tag: {e}")?,
            PgnErrorKind::UnreadableMove(e) => write!(f, "unreadable move: {}", e.kind)?,
            PgnErrorKind::IllegalMove(why) => write!(f, "illegal move: {why}")?,
        }
        write!(f, ": {:?}", self.text)
    }
}

impl std::error::Error for PgnError {}

/// Reads every game of `text`; each item is one game or the error that stopped it.
pub fn read_games(text: &str) -> PgnReader<'_> {
    PgnReader {
        text,
        at: skip_bom(text),
        game: 0,
        last_close: text.rfind('}'),
    }
}

/// Reads every game of `text` as far as it goes, with how it was written: a game that
/// breaks keeps its tags and every move before the break, beside the error.
///
/// ```
/// use chuhe_core::pgn;
/// let text = "[Red \"甲\"]\n\n1. 炮二平五 馬８進７\n2. 马二进三 马８进９ *\n";
/// let game = pgn::read_games_as_written(text).next().unwrap();
/// assert_eq!(game.record.main_line().len(), 3);
/// let error = game.error.unwrap();
/// assert_eq!((error.line, error.text.as_str()), (4, "马８进９"));
/// assert!(game.form.move_per_line);
/// ```
pub fn read_games_as_written(text: &str) -> AsWritten<'_> {
    AsWritten(read_games(text))
}

/// Where each game of `text` lies, in order, as the readers split it: a game's range runs
/// from its first tag (or move) to the next game's, blank lines after it included.
pub fn game_spans(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut spans = Vec::new();
    let (mut at, last_close) = (skip_bom(text), text.rfind('}'));
    while let Some((start, end)) = next_game_span(text, at, last_close) {
        spans.push(start..end);
        at = end;
    }
    spans
}

/// One game of a PGN text as [`read_games_as_written`] reads it.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// The game's number in the text, from 1.
    pub number: usize,
    /// The whole game or, when `error` is set, the game up to where it breaks.
    pub record: Record,
    /// Where and why the game breaks off.
    pub error: Option<PgnError>,
    /// How the game was written.
    pub form: PgnForm,
}

/// The games of a PGN text with their forms, one at a time (see [`read_games_as_written`]).
pub struct AsWritten<'a>(PgnReader<'a>);

impl Iterator for AsWritten<'_> {
    type Item = PgnGame;

    fn next(&mut self) -> Option<PgnGame> {
        self.0.next_game(true)
    }
}

/// Reads the first game of `text` (an empty text gives an empty record).
pub fn read_game(text: &str) -> Result<Record, PgnError> {
    read_games(text)
        .next()
        .unwrap_or_else(|| Ok(Record::default()))
}

fn skip_bom(text: &str) -> usize {
    if text.starts_with('\u{feff}') { 3 } else { 0 }
}

/// The games of a PGN text, one at a time (see [`read_games`]).
pub struct PgnReader<'a> {
    text: &'a str,
    at: usize,
    game: usize,
    last_close: Option<usize>,
}

impl PgnReader<'_> {
    /// The next game; `learn` says whether to learn how its moves are spelt.
    fn next_game(&mut self, learn: bool) -> Option<PgnGame> {
        let (start, end) = next_game_span(self.text, self.at, self.last_close)?;
        self.at = end;
        self.game += 1;
        Some(GameParser::new(self.text, start, end, self.game, learn).parse())
    }
}

impl Iterator for PgnReader<'_> {
    type Item = Result<Record, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        let game = self.next_game(false)?;
        Some(match game.error {
            None => Ok(game.record),
            Some(e) => Err(e),
        })
    }
}

/// The next line start at or after `i`.
fn line_after(bytes: &[u8], i: usize) -> usize {
    match bytes[i..].iter().position(|&b| b == b'\n') {
        Some(n) => i + n + 1,
        None => bytes.len(),
    }
}

/// Whether the line at `i` looks like a complete tag, `[Name "value"]`.
fn is_tag_line(text: &str, i: usize) -> bool {
    let line = text[i..].lines().next().unwrap_or("").trim();
    line.starts_with('[')
        && line.ends_with(']')
        && line[1..]
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic())
        && line.contains('"')
}

/// Finds the next game from `from`: a tag section and the movetext after it, up to the
/// next line starting with `[` outside a comment. Returns `None` when only blank text
/// remains. `last_close` is the offset of the text's last `}`: a comment opened after it is
/// never closed, and then a tag line inside it ends the game (whose parser reports the open
/// comment) rather than swallowing the games after it. A comment that is closed may hold
/// lines that look like tags.
fn next_game_span(text: &str, from: usize, last_close: Option<usize>) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut i = from;
    // Skip blank lines.
    let start = loop {
        if i >= bytes.len() {
            return None;
        }
        let end = line_after(bytes, i);
        if text[i..end].trim().is_empty() {
            i = end;
        } else {
            break i;
        }
    };
    // After movetext, or after a blank line that ends a tag section (a game with no
    // moves), a tag line starts the next game.
    let mut in_movetext = false;
    let mut seen_tag = false;
    let mut in_comment = false;
    let mut comment_open_at = 0;
    i = start;
    while i < bytes.len() {
        let end = line_after(bytes, i);
        let line = &text[i..end];
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') && !in_comment {
            if in_movetext {
                return Some((start, i));
            }
            seen_tag = true;
        } else if trimmed.is_empty() && !in_comment {
            in_movetext |= seen_tag;
        } else if in_comment
            && last_close.is_none_or(|c| c < comment_open_at)
            && is_tag_line(text, i)
        {
            return Some((start, i));
        } else {
            if !trimmed.is_empty() {
                in_movetext = true;
            }
            let mut in_line_comment = false;
            for (k, &b) in line.as_bytes().iter().enumerate() {
                match b {
                    b'{' if !in_comment && !in_line_comment => {
                        in_comment = true;
                        comment_open_at = i + k;
                    }
                    b'}' if in_comment => in_comment = false,
                    b';' if !in_comment => in_line_comment = true,
                    _ => {}
                }
            }
        }
        i = end;
    }
    Some((start, bytes.len()))
}

/// The state of the line being read: the last node and the position after it, and the
/// position before it (where a variation of it starts).
#[derive(Clone)]
struct LineState {
    node: NodeId,
    pos: Position,
    before: Option<Position>,
    /// Whether the current gap (between two moves) already gave its first comment.
    commented: bool,
    /// Comments waiting for the next move.
    pending_before: String,
    /// Whether this line is a variation (whose first comments precede its first move).
    is_variation: bool,
}

struct GameParser<'a> {
    text: &'a str,
    start: usize,
    i: usize,
    end: usize,
    game: usize,
    record: Record,
    /// The notation of the moves: from the `Format` tag, else told from the first move.
    notation: Option<Notation>,
    /// Whether to learn how the moves are spelt (which costs a formatting per move).
    learn: bool,
    /// The tags as the text has them.
    tags: Vec<(String, String)>,
    spelling: Option<Spelling>,
    /// The dots after the number of a Black move, once one was seen.
    black_number_suffix: Option<String>,
    /// Moves written otherwise than the spelling writes them (see [`PgnForm`]).
    written: Vec<(NodeId, Move, String)>,
    /// Red's moves on the main line, and how many of them start a line.
    red_moves: usize,
    red_at_line_start: usize,
    /// The result the movetext ends with, and whether it starts its line.
    result_token: Option<GameResult>,
    result_on_own_line: bool,
    result_after_blank_line: bool,
}

/// Characters that end a move token. Each has its own case in the movetext loop, so a
/// move token is never empty.
fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b';' | b'$')
}

impl<'a> GameParser<'a> {
    fn new(text: &'a str, start: usize, end: usize, game: usize, learn: bool) -> GameParser<'a> {
        GameParser {
            text,
            start,
            i: start,
            end,
            game,
            record: Record::default(),
            notation: None,
            learn,
            tags: Vec::new(),
            spelling: None,
            written: Vec::new(),
            black_number_suffix: None,
            red_moves: 0,
            red_at_line_start: 0,
            result_token: None,
            result_on_own_line: false,
            result_after_blank_line: false,
        }
    }

    /// Notes the result token at `at` for the form.
    fn note_result(&mut self, result: GameResult, at: usize) {
        self.result_token = Some(result);
        self.result_on_own_line =
            form::line_before(self.text, at).is_some_and(|s| s.trim().is_empty());
        let before = &self.text[self.start..at];
        let gap = &before[before.trim_end().len()..];
        self.result_after_blank_line = gap.matches('\n').count() >= 2;
    }

    /// Reads the game as far as it goes.
    fn parse(mut self) -> PgnGame {
        let error = self.read().err();
        let notation = self.notation.unwrap_or(Notation::Chinese);
        let form = PgnForm {
            tags: self.tags,
            spelling: self
                .spelling
                .unwrap_or_else(|| Spelling::new(form::written_notation(notation))),
            move_per_line: self.red_moves >= 2 && self.red_at_line_start == self.red_moves,
            crlf: self.text[self.start..self.end].contains("\r\n"),
            result_token: self.result_token,
            result_on_own_line: self.result_on_own_line,
            result_after_blank_line: self.result_after_blank_line,
            black_number_suffix: self.black_number_suffix.unwrap_or_else(|| "...".to_owned()),
            written: self.written,
        };
        PgnGame {
            number: self.game,
            record: self.record,
            error,
            form,
        }
    }

    fn error(&self, at: usize, text: &str, kind: PgnErrorKind) -> PgnError {
        PgnError {
            game: self.game,
            line: 1 + self.text.as_bytes()[..at]
                .iter()
                .filter(|&&b| b == b'\n')
                .count(),
            offset: at,
            move_number: None,
            text: text.to_owned(),
            kind,
        }
    }

    fn bytes(&self) -> &'a [u8] {
        &self.text.as_bytes()[..self.end]
    }

    /// Skips whitespace, including the ideographic space U+3000 of Chinese files.
    fn skip_space(&mut self) {
        let bytes = self.bytes();
        while self.i < bytes.len() {
            let b = bytes[self.i];
            if b.is_ascii_whitespace() {
                self.i += 1;
            } else if b >= 0x80 {
                match self.text[self.i..].chars().next() {
                    Some(c) if c.is_whitespace() => self.i += c.len_utf8(),
                    _ => break,
                }
            } else {
                break;
            }
        }
    }

    fn read(&mut self) -> Result<(), PgnError> {
        let mut fen: Option<(usize, String)> = None;
        loop {
            self.skip_space();
            if self.bytes().get(self.i) != Some(&b'[') {
                break;
            }
            let (name, value, at) = self.tag()?;
            self.tags.push((name.to_owned(), value.clone()));
            let name = crate::record::tag::canonical(name);
            match name {
                "Game" => {}
                "Format" => self.notation = format_notation(&value),
                "FEN" => fen = Some((at, value)),
                _ => self.record.headers_mut().set(name, &value),
            }
        }
        if let Some((at, fen_text)) = fen {
            let start: Position = fen_text
                .trim()
                .parse()
                .map_err(|e| self.error(at, &fen_text, PgnErrorKind::BadFen(e)))?;
            self.record.set_start(start);
        }
        self.movetext()
    }

    /// Reads `[Name "value"]` at the cursor. A value may hold unescaped quotes: it ends at
    /// the last `"` before the closing `]`.
    fn tag(&mut self) -> Result<(&'a str, String, usize), PgnError> {
        let start = self.i;
        let line_end = line_after(self.bytes(), start).min(self.end);
        let line = &self.text[start..line_end];
        let bad = |s: &Self| s.error(start, line.trim_end(), PgnErrorKind::BadTag);
        let inner = &line[1..];
        let name_len = inner
            .find(|c: char| c.is_whitespace() || c == '"' || c == ']')
            .unwrap_or(inner.len());
        let name = &inner[..name_len];
        let after_name = &inner[name_len..];
        let Some(open) = after_name.find('"') else {
            return Err(bad(self));
        };
        if name.is_empty() || !after_name[..open].trim().is_empty() {
            return Err(bad(self));
        }
        let value_at = start + 1 + name_len + open + 1;
        let rest = &self.text[value_at..line_end];
        // The closing quote is the first `"` (not escaped) followed by optional spaces and `]`.
        let mut value = String::new();
        let mut chars = rest.char_indices();
        let close = loop {
            let Some((k, c)) = chars.next() else {
                return Err(bad(self));
            };
            match c {
                '\\' => match chars.next() {
                    Some((_, e @ ('"' | '\\'))) => value.push(e),
                    Some((_, e)) => {
                        value.push('\\');
                        value.push(e);
                    }
                    None => return Err(bad(self)),
                },
                '"' if rest[k + 1..].trim_start().starts_with(']') => break k,
                // A lone carriage return (old Mac line ends) is a line break: a space, as
                // the writer makes it.
                '\r' => value.push(' '),
                _ => value.push(c),
            }
        };
        let after = &rest[close + 1..];
        let bracket = after.find(']').unwrap_or(0);
        self.i = value_at + close + 1 + bracket + 1;
        Ok((name, value, value_at))
    }

    fn movetext(&mut self) -> Result<(), PgnError> {
        let root = self.record.root();
        let mut line = LineState {
            node: root,
            pos: self.record.start().clone(),
            before: None,
            commented: false,
            pending_before: String::new(),
            is_variation: false,
        };
        let mut stack: Vec<(LineState, usize)> = Vec::new();
        let mut result: Option<GameResult> = None;
        let bytes = self.bytes();
        loop {
            self.skip_space();
            if self.i >= self.end {
                break;
            }
            let at = self.i;
            let b = bytes[at];
            match b {
                b'{' => {
                    let Some(len) = self.text[at + 1..self.end].find('}') else {
                        let shown = self.text[at..self.end].lines().next().unwrap_or("");
                        return Err(self.error(at, shown, PgnErrorKind::UnterminatedComment));
                    };
                    let body = &self.text[at + 1..at + 1 + len];
                    self.i = at + len + 2;
                    self.comment(&mut line, body);
                }
                b';' => {
                    let body = self.line_comments(at);
                    self.comment(&mut line, &body);
                }
                b'%' if at == 0 || bytes[at - 1] == b'\n' => {
                    self.i = line_after(bytes, at).min(self.end);
                }
                b'(' => {
                    self.i += 1;
                    let Some(before) = line.before.clone() else {
                        return Err(self.error(at, "(", PgnErrorKind::VariationWithoutMove));
                    };
                    let parent = self.record.parent(line.node).unwrap_or(root);
                    let variation = LineState {
                        node: parent,
                        pos: before,
                        before: None,
                        commented: false,
                        pending_before: String::new(),
                        is_variation: true,
                    };
                    self.flush_pending(&mut line);
                    stack.push((std::mem::replace(&mut line, variation), at));
                }
                b')' => {
                    self.i += 1;
                    let Some((outer, _)) = stack.pop() else {
                        return Err(self.error(at, ")", PgnErrorKind::UnmatchedParenthesis));
                    };
                    self.flush_pending(&mut line);
                    line = outer;
                    // The move's own comment came before its variations: comments after
                    // them lead to the next move.
                    line.commented = true;
                }
                b'$' => {
                    let digits = bytes[at + 1..self.end]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    self.i = at + 1 + digits;
                    if let Ok(n) = self.text[at + 1..self.i].parse::<u8>() {
                        self.nag(&line, Nag(n));
                    }
                }
                // A stray `}` closes nothing; skipping it loses nothing.
                b'}' => self.i += 1,
                b'*' => {
                    self.i += 1;
                    result = Some(GameResult::Unknown);
                    self.note_result(GameResult::Unknown, at);
                    if stack.is_empty() {
                        break;
                    }
                }
                _ => {
                    let len = self.text[at..self.end]
                        .bytes()
                        .position(is_delimiter)
                        .unwrap_or(self.end - at);
                    let mut token = &self.text[at..at + len];
                    self.i = at + len;
                    if let Ok(r) = token.parse::<GameResult>() {
                        result = Some(r);
                        self.note_result(r, at);
                        if stack.is_empty() {
                            break;
                        }
                        continue;
                    }
                    // A move number (`12.`, `12...`, `12…`) may be glued to the move; a digit
                    // after the dots means a WXF move such as `77.6` (tandem pawns) instead.
                    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
                    let dots = token[digits..]
                        .chars()
                        .take_while(|&c| c == '.' || c == '…')
                        .map(char::len_utf8)
                        .sum::<usize>();
                    let digit_follows = token
                        .as_bytes()
                        .get(digits + dots)
                        .is_some_and(u8::is_ascii_digit);
                    if dots > 0 && !digit_follows {
                        let skip = digits + dots;
                        self.i = at + skip;
                        continue;
                    }
                    // Trailing glyphs: `炮二平五!?`.
                    let glyph_len = token
                        .bytes()
                        .rev()
                        .take_while(|&b| b == b'!' || b == b'?')
                        .count();
                    let glyph = &token[token.len() - glyph_len..];
                    token = &token[..token.len() - glyph_len];
                    if token.is_empty() {
                        if let Some(nag) = Nag::from_glyph(glyph) {
                            self.nag(&line, nag);
                        }
                        continue;
                    }
                    self.play(&mut line, token, at, stack.is_empty())?;
                    if let Some(nag) = Nag::from_glyph(glyph) {
                        self.nag(&line, nag);
                    }
                }
            }
        }
        if let Some((_, at)) = stack.first() {
            return Err(self.error(*at, "(", PgnErrorKind::UnterminatedVariation));
        }
        self.flush_pending(&mut line);
        if let Some(r) = result
            && r != GameResult::Unknown
            && self.record.headers().get(tag::RESULT).is_none()
        {
            self.record.headers_mut().set(tag::RESULT, r.as_pgn());
        }
        Ok(())
    }

    /// Reads the `;` comment at `at` and those on the lines right after it, as one comment
    /// of several lines (one space after each `;` is not part of the text).
    fn line_comments(&mut self, at: usize) -> String {
        let bytes = self.bytes();
        let mut body = String::new();
        let mut semicolon = at;
        loop {
            let stop = line_after(bytes, semicolon).min(self.end);
            let line = self.text[semicolon + 1..stop].trim_end_matches(['\n', '\r']);
            if semicolon != at {
                body.push('\n');
            }
            body.push_str(line.strip_prefix(' ').unwrap_or(line));
            self.i = stop;
            let indent = bytes[stop..]
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
            if bytes.get(stop + indent) != Some(&b';') {
                return body;
            }
            semicolon = stop + indent;
        }
    }

    /// Comments left over at the end of a line join the last move's comment (and its
    /// commands take effect, as they will when that comment is read back).
    fn flush_pending(&mut self, line: &mut LineState) {
        if !line.pending_before.is_empty() {
            let text = std::mem::take(&mut line.pending_before);
            parse_comment(&text, self.record.annotation_mut(line.node));
            self.record.tidy_annotation(line.node);
        }
    }

    /// A glyph belongs to the last move; one at the start of a variation, before any move,
    /// has nothing to mark and is dropped.
    fn nag(&mut self, line: &LineState, nag: Nag) {
        if line.is_variation && line.before.is_none() {
            return;
        }
        self.record.annotation_mut(line.node).nags.push(nag);
    }

    fn comment(&mut self, line: &mut LineState, body: &str) {
        // At the start of a variation every comment comes before its first move; elsewhere
        // the first comment of a gap is the previous move's (or the root's).
        if (line.is_variation && line.before.is_none()) || line.commented {
            append_text(&mut line.pending_before, &normalize_comment(body));
            return;
        }
        line.commented = true;
        let notes = self.record.annotation_mut(line.node);
        parse_comment(body, notes);
        self.record.tidy_annotation(line.node);
    }

    /// Reads a move in the game's notation; a move the notation does not fit is read in
    /// whichever notation it is written (files mislabel their `Format`). The first move
    /// of a game without `Format` decides its notation.
    fn read_move(&mut self, pos: &Position, token: &str) -> Result<Move, PgnErrorKind> {
        let first_try = match self.notation {
            Some(n) => notation::parse_move(pos, token, n),
            None => notation::parse_any(pos, token).map(|(m, n)| {
                self.notation = Some(n);
                m
            }),
        };
        let error = match first_try {
            Ok(m) => return Ok(m),
            Err(e) => e,
        };
        if self.notation.is_some()
            && let Ok((m, _)) = notation::parse_any(pos, token)
        {
            return Ok(m);
        }
        Err(match error.kind {
            NotationErrorKind::Illegal(e) => PgnErrorKind::IllegalMove(e.reason),
            _ => PgnErrorKind::UnreadableMove(error),
        })
    }

    fn play(
        &mut self,
        line: &mut LineState,
        token: &str,
        at: usize,
        main_line: bool,
    ) -> Result<(), PgnError> {
        let number = MoveNumber::before(&line.pos);
        let with_number = |mut e: PgnError| {
            e.move_number = Some(number);
            e
        };
        // The notation finds the move among the legal moves of the position (or says why
        // the text names an illegal one), so it can be played unchecked.
        let mv = self
            .read_move(&line.pos, token)
            .map_err(|why| with_number(self.error(at, token, why)))?;
        let spelling = self.learn.then(|| {
            let spelling = self
                .spelling
                .get_or_insert_with(|| Spelling::new(form::notation_of(token)));
            spelling.learn(&line.pos, mv, token);
            spelling.format(&line.pos, mv)
        });
        if number.color == Color::Black
            && self.black_number_suffix.is_none()
            && let Some(dots) = form::number_suffix(&self.text[self.start..at])
        {
            self.black_number_suffix = Some(dots.to_owned());
        }
        if main_line && number.color == Color::Red {
            self.red_moves += 1;
            if form::line_before(self.text, at).is_some_and(form::only_a_move_number) {
                self.red_at_line_start += 1;
            }
        }
        let node = self.record.push_child(line.node, mv);
        if spelling.is_some_and(|s| s != token) {
            self.written.push((node, mv, token.to_owned()));
        }
        if !line.pending_before.is_empty() {
            let text = std::mem::take(&mut line.pending_before);
            self.record.annotation_mut(node).comment_before = text;
        }
        let mut before = line.pos.clone();
        before.play_unchecked(mv);
        line.before = Some(std::mem::replace(&mut line.pos, before));
        line.node = node;
        line.commented = false;
        Ok(())
    }
}

/// The notation a `Format` tag names (`Chinese`, `WXF`, `ICCS`, or one of Chuhe's own
/// notation names); `None` for anything else, whose moves are then told apart by shape.
fn format_notation(format: &str) -> Option<Notation> {
    match format.trim().to_ascii_lowercase().as_str() {
        "chinese" => Some(Notation::Chinese),
        "wxf" => Some(Notation::Wxf),
        "iccs" => Some(Notation::IccsPgn),
        other => other.parse().ok(),
    }
}

/// The `Format` tag written for `notation`.
fn format_tag(notation: Notation) -> &'static str {
    match notation {
        Notation::Chinese | Notation::ChineseTraditional => "Chinese",
        Notation::Wxf => "WXF",
        Notation::Iccs | Notation::IccsPgn => "ICCS",
        other => other.name(),
    }
}

fn append_text(to: &mut String, text: &str) {
    if text.is_empty() {
        return;
    }
    if !to.is_empty() {
        to.push(' ');
    }
    to.push_str(text);
}

/// Comment text as stored: Windows line ends made `\n`, ASCII space trimmed at both ends.
fn normalize_comment(body: &str) -> String {
    body.replace("\r\n", "\n")
        .trim_matches(|c: char| c.is_ascii_whitespace())
        .to_owned()
}

/// Splits a comment into its commands (`[%cal …]`, `[%csl …]`, `[%clk …]`, `[%eval …]`),
/// stored in their fields, and its text, appended to the comment. Commands that are not
/// understood stay in the text.
fn parse_comment(body: &str, notes: &mut Annotation) {
    // Taking a command out can join the text around it into another command
    // (`[[%csl Re7]%csl Re7]`): repeat until none is left, as a second reading would.
    let mut text = body.to_owned();
    while let Some(rest) = take_commands(&text, notes) {
        text = rest;
    }
    append_text(&mut notes.comment, &normalize_comment(&text));
}

/// One pass over `text`: applies the commands it understands and returns the text without
/// them, or `None` if there was none.
fn take_commands(text: &str, notes: &mut Annotation) -> Option<String> {
    let mut kept = String::new();
    let mut found = false;
    let mut rest = text;
    while let Some(open) = rest.find("[%") {
        let Some(close) = rest[open..].find(']') else {
            break;
        };
        kept.push_str(&rest[..open]);
        if apply_command(&rest[open + 2..open + close], notes) {
            found = true;
        } else {
            kept.push_str(&rest[open..=open + close]);
        }
        rest = &rest[open + close + 1..];
    }
    kept.push_str(rest);
    found.then_some(kept)
}

fn apply_command(command: &str, notes: &mut Annotation) -> bool {
    let command = command.trim();
    let (name, args) = command
        .split_once(|c: char| c.is_ascii_whitespace())
        .unwrap_or((command, ""));
    let args = args.trim();
    match name {
        "cal" => match parse_list(args, parse_arrow) {
            Some(arrows) => notes.arrows.extend(arrows),
            None => return false,
        },
        "csl" => match parse_list(args, parse_circle) {
            Some(circles) => notes.circles.extend(circles),
            None => return false,
        },
        "clk" => match parse_clock(args) {
            Some(clock) => notes.clock = Some(clock),
            None => return false,
        },
        "eval" => match parse_eval(args) {
            Some(eval) => notes.eval = Some(eval),
            None => return false,
        },
        _ => return false,
    }
    true
}

fn parse_list<T>(args: &str, item: fn(&str) -> Option<T>) -> Option<Vec<T>> {
    args.split(',').map(|s| item(s.trim())).collect()
}

fn parse_arrow(s: &str) -> Option<Arrow> {
    let color = MarkColor::from_letter(s.chars().next()?)?;
    let from: Square = s.get(1..3)?.parse().ok()?;
    let to: Square = s.get(3..)?.parse().ok()?;
    Some(Arrow { from, to, color })
}

fn parse_circle(s: &str) -> Option<Circle> {
    let color = MarkColor::from_letter(s.chars().next()?)?;
    let at: Square = s.get(1..)?.parse().ok()?;
    Some(Circle { at, color })
}

/// `H:MM:SS`, `MM:SS` or `SS`, with optional decimals of a second.
fn parse_clock(s: &str) -> Option<Duration> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut secs: u64 = 0;
    let mut parts = 0;
    for part in whole.split(':') {
        parts += 1;
        if parts > 3 || part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        secs = secs.checked_mul(60)?.checked_add(part.parse().ok()?)?;
    }
    let millis: u64 = format!("{frac:0<3}").get(..3)?.parse().ok()?;
    Some(Duration::from_millis(
        secs.checked_mul(1000)?.checked_add(millis)?,
    ))
}

fn write_clock(out: &mut String, d: Duration) {
    let ms = d.as_millis();
    let secs = ms / 1000;
    let _ = write!(
        out,
        "{}:{:02}:{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    );
    let frac = ms % 1000;
    if frac != 0 {
        let digits = format!("{frac:03}");
        let _ = write!(out, ".{}", digits.trim_end_matches('0'));
    }
}

/// `0.35`, `-1.2`, `#3`, `#-2`, each optionally followed by `,depth`.
fn parse_eval(s: &str) -> Option<Evaluation> {
    let (score, depth) = match s.split_once(',') {
        Some((sc, d)) => (sc.trim(), Some(d.trim().parse().ok()?)),
        None => (s, None),
    };
    let score = if let Some(mate) = score.strip_prefix('#') {
        Score::Mate(mate.parse().ok()?)
    } else {
        let (neg, digits) = match score.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, score.strip_prefix('+').unwrap_or(score)),
        };
        let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if whole.is_empty() && frac.is_empty() {
            return None;
        }
        if !whole.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let whole: i32 = if whole.is_empty() {
            0
        } else {
            whole.parse().ok()?
        };
        // Hundredths, rounded half up on the third decimal.
        let padded = format!("{frac:0<3}");
        let thousandths: i32 = padded.get(..3)?.parse().ok()?;
        let cp = whole
            .checked_mul(100)?
            .checked_add((thousandths + 5) / 10)?;
        Score::Cp(if neg { -cp } else { cp })
    };
    Some(Evaluation { score, depth })
}

fn write_eval(out: &mut String, e: &Evaluation) {
    match e.score {
        Score::Mate(n) => {
            let _ = write!(out, "#{n}");
        }
        Score::Cp(cp) => {
            let sign = if cp < 0 { "-" } else { "" };
            let a = cp.unsigned_abs();
            let _ = write!(out, "{sign}{}.{:02}", a / 100, a % 100);
        }
    }
    if let Some(d) = e.depth {
        let _ = write!(out, ",{d}");
    }
}

/// The comment block of an annotation: commands first, then the text.
fn comment_block(notes: &Annotation) -> String {
    let mut s = String::new();
    let sep = |s: &mut String| {
        if !s.is_empty() {
            s.push(' ');
        }
    };
    if let Some(clock) = notes.clock {
        sep(&mut s);
        s.push_str("[%clk ");
        write_clock(&mut s, clock);
        s.push(']');
    }
    if let Some(eval) = &notes.eval {
        sep(&mut s);
        s.push_str("[%eval ");
        write_eval(&mut s, eval);
        s.push(']');
    }
    if !notes.arrows.is_empty() {
        sep(&mut s);
        s.push_str("[%cal ");
        for (i, a) in notes.arrows.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(s, "{}{}{}", a.color.letter(), a.from, a.to);
        }
        s.push(']');
    }
    if !notes.circles.is_empty() {
        sep(&mut s);
        s.push_str("[%csl ");
        for (i, c) in notes.circles.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(s, "{}{}", c.color.letter(), c.at);
        }
        s.push(']');
    }
    if !notes.comment.is_empty() {
        sep(&mut s);
        s.push_str(&notes.comment);
    }
    s
}

/// Movetext output wrapped at about 80 columns (a Chinese character counts two).
struct Wrapper<'a> {
    out: &'a mut String,
    column: usize,
    /// Whether the next word follows without a space (after `(`).
    glue: bool,
    /// Whether the last thing written was a `;` comment (which ends its line).
    after_line_comment: bool,
}

const WIDTH: usize = 80;

fn display_width(s: &str) -> usize {
    s.chars().map(|c| if c >= '\u{1100}' { 2 } else { 1 }).sum()
}

impl Wrapper<'_> {
    fn new(out: &mut String) -> Wrapper<'_> {
        Wrapper {
            out,
            column: 0,
            glue: false,
            after_line_comment: false,
        }
    }

    /// Ends the line, unless nothing is on it yet.
    fn line_break(&mut self) {
        if self.column > 0 {
            self.out.push('\n');
            self.column = 0;
        }
        self.glue = false;
    }

    fn word(&mut self, w: &str) {
        self.after_line_comment = false;
        let width = display_width(w.lines().next().unwrap_or(""));
        let glued = std::mem::take(&mut self.glue);
        if self.column > 0 && !glued {
            if self.column + 1 + width > WIDTH {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
        self.out.push_str(w);
        self.column = match w.rfind('\n') {
            Some(k) => display_width(&w[k + 1..]),
            None => self.column + width,
        };
    }

    /// A word that sticks to the previous one (`)` after a move).
    fn glued(&mut self, w: &str) {
        self.after_line_comment = false;
        self.out.push_str(w);
        self.column += display_width(w);
    }

    /// Writes a comment. A `{ }` comment cannot hold `}`: such a text is written as `;`
    /// comments, one per line, which the reader joins back into one text.
    fn comment(&mut self, text: &str) {
        if text.contains('}') {
            // A blank line keeps two such comments apart.
            if self.after_line_comment {
                self.out.push('\n');
            }
            for (i, line) in text.split('\n').enumerate() {
                if i == 0 {
                    self.word(&format!("; {line}"));
                } else {
                    self.out.push_str("; ");
                    self.out.push_str(line);
                }
                self.out.push('\n');
            }
            self.column = 0;
            self.after_line_comment = true;
        } else {
            self.word(&format!("{{{text}}}"));
        }
    }
}

/// Writes one game as PGN with its moves in `notation`, and a blank line after it.
///
/// The short record ([`Notation::ShortRecord`]) is a score-sheet form whose moves hold a
/// space, which PGN cannot: it is written as Chinese.
pub fn write_game(record: &Record, notation: Notation, out: &mut String) {
    let notation = match notation {
        Notation::ShortRecord => Notation::Chinese,
        n => n,
    };
    out.push_str("[Game \"Chinese Chess\"]\n");
    // Game, FEN and Format are written from the record itself, never from its headers.
    for (name, value) in record.headers().iter() {
        if !matches!(name, "Game" | "FEN" | "Format") {
            write_tag(out, name, value);
        }
    }
    if record.start() != &Position::startpos() {
        write_tag(out, tag::FEN, &record.start().to_string());
    }
    write_tag(out, "Format", format_tag(notation));
    out.push('\n');
    let mut w = Wrapper::new(out);
    let spelling = Spelling::new(notation);
    let layout = Layout {
        spell: &|pos, _, mv| spelling.format(pos, mv),
        move_per_line: false,
        black_number_suffix: "...",
    };
    write_movetext(record, &layout, &mut w);
    w.word(record.headers().result().as_pgn());
    out.push_str("\n\n");
}

/// Writes one game in the form a file had ([`PgnForm`]): its tags in their order (tags it
/// did not have only if the record gained them since), its moves spelt as it spelt them,
/// one Red move per line if it wrote them so, and its line ends. A game read from a text
/// and written back unchanged is that text again, up to spaces the form does not keep.
pub fn write_game_as(record: &Record, form: &PgnForm, out: &mut String) {
    let mut text = String::new();
    let start_fen = record.start().to_string();
    for (name, original) in &form.tags {
        match name.as_str() {
            "Game" | "Format" => write_tag(&mut text, name, original),
            tag::FEN => {
                // The file's own writing of the position, while it is still the start.
                let same =
                    original.trim().parse::<Position>().ok().as_ref() == Some(record.start());
                write_tag(&mut text, name, if same { original } else { &start_fen });
            }
            // The file's own spelling of the name, its value from the record.
            _ => {
                if let Some(value) = record.headers().get(tag::canonical(name)) {
                    write_tag(&mut text, name, value);
                }
            }
        }
    }
    for (name, value) in record.headers().iter() {
        let derived_result =
            name == tag::RESULT && form.result_token.is_some_and(|r| r.as_pgn() == value);
        if !form.has_tag(name) && !derived_result && !matches!(name, "Game" | "FEN" | "Format") {
            write_tag(&mut text, name, value);
        }
    }
    if !form.has_tag(tag::FEN) && record.start() != &Position::startpos() {
        write_tag(&mut text, tag::FEN, &start_fen);
    }
    text.push('\n');
    let mut w = Wrapper::new(&mut text);
    let layout = Layout {
        spell: &|pos, node, mv| form.spell(pos, node, mv),
        move_per_line: form.move_per_line,
        black_number_suffix: &form.black_number_suffix,
    };
    write_movetext(record, &layout, &mut w);
    let result = record.headers().result();
    if form.result_token.is_some() || result != GameResult::Unknown {
        if form.result_on_own_line {
            w.line_break();
            if form.result_after_blank_line {
                w.out.push('\n');
            }
        }
        w.word(result.as_pgn());
    }
    text.push('\n');
    if form.crlf {
        text = text.replace('\n', "\r\n");
    }
    out.push_str(&text);
}

/// Writes a tag on one line: a line break in the value (which no tag read from a file has)
/// becomes a space.
fn write_tag(out: &mut String, name: &str, value: &str) {
    let value: String = value
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{value}\"]");
}

/// Where the writing of one line (the main line or a variation) stands.
enum Step {
    /// Write the line's current move.
    Move,
    /// Write the variation starting at this sibling of the current move.
    Variation(NodeId),
    /// Close the variation starting at this node, then go on with its next sibling.
    AfterVariation(NodeId),
    /// Go on with the main continuation of the current move.
    Next,
}

/// One line being written: its current move and the position before that move.
struct LineWriter {
    node: NodeId,
    mv: Move,
    pos: Position,
    step: Step,
    need_number: bool,
}

/// How the moves are laid out in writing.
struct Layout<'a> {
    /// The text of a move (of a position, at a node).
    spell: &'a dyn Fn(&Position, NodeId, Move) -> String,
    /// Whether each Red move of the main line starts a line.
    move_per_line: bool,
    /// What follows the number of a Black move that has one.
    black_number_suffix: &'a str,
}

/// Writes the moves and comments iteratively, so that no nesting of variations in a
/// hostile file can exhaust the stack.
fn write_movetext(record: &Record, layout: &Layout<'_>, w: &mut Wrapper<'_>) {
    let root = record.root();
    let root_notes = record.annotation(root);
    let first = record.main_child(root);
    let block = comment_block(root_notes);
    if !block.is_empty() || first.is_some_and(|f| has_comment_before(record, f)) {
        w.comment(&block);
    }
    for nag in &root_notes.nags {
        w.word(&nag.to_string());
    }
    let mut stack: Vec<LineWriter> = Vec::new();
    if let Some((first, mv)) = first.zip(first.and_then(|f| record.move_at(f))) {
        stack.push(LineWriter {
            node: first,
            mv,
            pos: record.start().clone(),
            step: Step::Move,
            need_number: true,
        });
    }
    loop {
        let on_main_line = stack.len() == 1;
        let Some(top) = stack.last_mut() else {
            break;
        };
        match top.step {
            Step::Move => {
                let node = top.node;
                let notes = record.annotation(node);
                if !notes.comment_before.is_empty() {
                    w.comment(&notes.comment_before);
                    top.need_number = true;
                }
                // The number and its move stay on one line.
                let number = MoveNumber::before(&top.pos);
                let text = (layout.spell)(&top.pos, node, top.mv);
                if layout.move_per_line && on_main_line && number.color == Color::Red {
                    w.line_break();
                }
                if number.color == Color::Red {
                    w.word(&format!("{number} {text}"));
                } else if top.need_number {
                    let suffix = layout.black_number_suffix;
                    w.word(&format!("{}{suffix} {text}", number.number));
                } else {
                    w.word(&text);
                }
                top.need_number = false;
                for nag in &notes.nags {
                    w.word(&nag.to_string());
                }
                let block = comment_block(notes);
                if !block.is_empty()
                    || record
                        .main_child(node)
                        .is_some_and(|c| has_comment_before(record, c))
                {
                    w.comment(&block);
                    top.need_number = true;
                }
                top.step = match record.next_sibling(node) {
                    Some(s) if record.variation_index(node) == 0 => Step::Variation(s),
                    _ => Step::Next,
                };
            }
            Step::Variation(s) => {
                w.word("(");
                w.glue = true;
                top.step = Step::AfterVariation(s);
                top.need_number = true;
                let pos = top.pos.clone();
                if let Some(mv) = record.move_at(s) {
                    stack.push(LineWriter {
                        node: s,
                        mv,
                        pos,
                        step: Step::Move,
                        need_number: true,
                    });
                }
            }
            Step::AfterVariation(s) => {
                w.glued(")");
                top.step = match record.next_sibling(s) {
                    Some(next) => Step::Variation(next),
                    None => Step::Next,
                };
            }
            Step::Next => {
                let next = record.main_child(top.node);
                match next.zip(next.and_then(|n| record.move_at(n))) {
                    Some((c, mv)) => {
                        top.pos.play_unchecked(top.mv);
                        top.node = c;
                        top.mv = mv;
                        top.step = Step::Move;
                    }
                    None => {
                        stack.pop();
                    }
                }
            }
        }
    }
}

fn has_comment_before(record: &Record, id: NodeId) -> bool {
    !record.annotation(id).comment_before.is_empty()
}

#[cfg(test)]
mod tests {
    #[test]
    fn tag_names_in_capitals_are_the_standard_tags() {
        // The form of the 适情雅趣 collection's file.
        let text = "[FEN_INDEX \"shiqingyaqu-551-001\"]\n[EVENT \"第001局 气吞关右\"]\n\
                    [FEN \"2baka3/3P3N1/bN7/7nc/9/4C1P2/P5n1P/B3R3B/4Apr2/2RAK3c w - - 0 1\"]\n";
        let record = super::read_game(text).unwrap();
        assert_eq!(record.headers().get("Event"), Some("第001局 气吞关右"));
        assert_eq!(
            record.headers().get("FEN_INDEX"),
            Some("shiqingyaqu-551-001")
        );
        assert_ne!(*record.start(), crate::Position::startpos());
        // Written back as read, in the file's own spelling.
        let game = read_games_as_written(text).next().unwrap();
        let mut out = String::new();
        write_game_as(&game.record, &game.form, &mut out);
        assert!(out.contains("[EVENT \"第001局 气吞关右\"]"), "{out}");
        assert!(!out.contains("[Event"), "{out}");
    }

    use super::*;
    use crate::record::EditError;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn write(record: &Record) -> String {
        let mut s = String::new();
        write_game(record, Notation::Iccs, &mut s);
        s
    }

    fn read_one(text: &str) -> Record {
        let games: Vec<_> = read_games(text).collect();
        assert_eq!(games.len(), 1, "{text}");
        games.into_iter().next().unwrap().unwrap()
    }

    const RICH: &str = r#"[Game "Chinese Chess"]
[Event "测试 \"引号\" \\ 反斜杠"]
[Red "许银川"]
[Black "吕钦"]
[Result "1-0"]
[Format "ICCS"]

{开局前的评论} {第一着之前}
1. h2e2! {[%clk 0:05:00] [%eval 0.35,18] 中炮 [%cal Gh2e2,Rb0c2] [%csl Ye7]}
1... h9g7 $14 ( { 另一种走法 } 1... h7e7 $6 {顺炮} ( 1... c6c5 ) 2. h0g2 ) 2. h0g2 {c1} {c2}
2... i9h9 (2... g6g5 {[%unknown x] 挺卒}) 3. i0h0 1-0
"#;

    #[test]
    fn a_rich_game_reads_into_the_tree() {
        let r = read_one(RICH);
        assert_eq!(r.headers().get("Event"), Some("测试 \"引号\" \\ 反斜杠"));
        assert_eq!(r.headers().get("Format"), None, "Format is consumed");
        let root = r.root();
        assert_eq!(r.annotation(root).comment, "开局前的评论");
        let main = r.main_line();
        assert_eq!(main.len(), 5);
        let a = r.annotation(main[0]);
        assert_eq!(a.comment_before, "第一着之前");
        assert_eq!(a.comment, "中炮");
        assert_eq!(a.nags, [Nag::GOOD]);
        assert_eq!(a.clock, Some(Duration::from_secs(300)));
        assert_eq!(
            a.eval,
            Some(Evaluation {
                score: Score::Cp(35),
                depth: Some(18)
            })
        );
        assert_eq!(
            a.arrows,
            [
                Arrow {
                    from: sq("h2"),
                    to: sq("e2"),
                    color: MarkColor::Green
                },
                Arrow {
                    from: sq("b0"),
                    to: sq("c2"),
                    color: MarkColor::Red
                }
            ]
        );
        assert_eq!(
            a.circles,
            [Circle {
                at: sq("e7"),
                color: MarkColor::Yellow
            }]
        );
        assert_eq!(r.annotation(main[1]).nags, [Nag(14)]);
        let variations: Vec<_> = r.children(main[0]).collect();
        assert_eq!(variations.len(), 3);
        let v = r.annotation(variations[1]);
        assert_eq!(v.comment_before, "另一种走法");
        assert_eq!(
            (v.comment.as_str(), &v.nags[..]),
            ("顺炮", &[Nag::DUBIOUS][..])
        );
        assert_eq!(r.line_after(variations[1]).len(), 1);
        // Two comments after a move: the second is the next move's.
        assert_eq!(r.annotation(main[2]).comment, "c1");
        assert_eq!(r.annotation(main[3]).comment_before, "c2");
        let unknown = r.children(main[2]).nth(1).unwrap();
        assert_eq!(r.annotation(unknown).comment, "[%unknown x] 挺卒");
        assert_eq!(r.line_count(), 4);
        assert_eq!(r.headers().result(), GameResult::RedWins);
    }

    #[test]
    fn what_is_written_reads_back_the_same() {
        let r = read_one(RICH);
        let text = write(&r);
        let back = read_one(&text);
        assert!(back == r, "{text}");
        assert_eq!(write(&back), text);
        assert!(
            text.contains("( {另一种走法} 1... h7e7") || text.contains("({另一种走法} 1... h7e7")
        );
    }

    #[test]
    fn edited_records_round_trip_including_awkward_comments() {
        let mut r = Record::new("4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 3 40".parse().unwrap());
        r.set_header("Red", "甲");
        let root = r.root();
        let a = r.add_move(root, "e9e8".parse().unwrap()).unwrap();
        let b = r.add_move(a, "d0e0".parse().unwrap()).unwrap();
        let c = r.add_move(root, "e9f9".parse().unwrap()).unwrap();
        r.set_comment_before(b, "只有一个前注").unwrap();
        r.set_comment_before(c, "变着前注").unwrap();
        r.set_comment(c, "含有 } 的注释").unwrap();
        r.set_eval(
            c,
            Some(Evaluation {
                score: Score::Mate(-3),
                depth: None,
            }),
        )
        .unwrap();
        r.set_clock(a, Some(Duration::from_millis(3_723_400)))
            .unwrap();
        assert_eq!(r.set_comment_before(root, "x"), Err(EditError::Root));
        let text = write(&r);
        assert!(text.contains("[FEN \"4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 3 40\"]"));
        assert!(
            text.contains("40... e9e8 {[%clk 1:02:03.4]} ({变着前注} 40... e9f9")
                && text.contains("; [%eval #-3] 含有 } 的注释\n) {只有一个前注} 41. d0e0 *"),
            "{text}"
        );
        assert!(read_one(&text) == r, "{text}");
        // Several lines with `}`: as many `;` comments.
        r.set_comment(b, "两行\n  含有 }").unwrap();
        let text = write(&r);
        assert!(text.contains("41. d0e0 ; 两行\n;   含有 }\n*"), "{text}");
        assert!(read_one(&text) == r, "{text}");
        // Two such comments in a row stay two.
        r.set_comment(root, "开局 }").unwrap();
        r.set_comment_before(a, "前注 }").unwrap();
        let text = write(&r);
        assert!(text.contains("; 开局 }\n\n; 前注 }\n40... e9e8"), "{text}");
        assert!(read_one(&text) == r, "{text}");
        // A closed comment may hold a line that looks like a tag.
        r.set_comment(a, "粘贴的棋谱：\n[Event \"x\"]\n1. 炮二平五")
            .unwrap();
        let text = write(&r);
        assert!(read_one(&text) == r, "{text}");
    }

    #[test]
    fn games_are_split_and_bad_ones_do_not_stop_the_rest() {
        let text = "[Event \"1\"]\n1. h2e2 h9g7 *\n\n[Event \"2\"]\n1. h2e2 h9h1 *\n\n\
                    [Event \"3\"]\n{never closed\n1. h2e2\n[Event \"4\"]\n1. b2e2 (1. zz) *\n\
                    [Event \"5\"]\n1. h2e2 ) *\n[Event \"6\"]\n[FEN \"9/9/9/9/9/9/9/9/9/9 w\"]\n\n\
                    [Event \"7\"]\n1. c3c4 1-0\n============\n欢迎访问\n";
        let games: Vec<_> = read_games(text).collect();
        assert_eq!(games.len(), 7);
        assert!(games[0].is_ok());
        let e = games[1].as_ref().unwrap_err();
        assert_eq!((e.game, e.line, e.text.as_str()), (2, 5, "h9h1"));
        assert_eq!(e.move_number.unwrap().to_string(), "1...");
        assert!(matches!(e.kind, PgnErrorKind::IllegalMove(_)));
        assert!(e.to_string().contains("game 2, line 5, move 1..."));
        let e = games[2].as_ref().unwrap_err();
        assert_eq!(
            (e.game, e.kind.clone()),
            (3, PgnErrorKind::UnterminatedComment)
        );
        let e = games[3].as_ref().unwrap_err();
        assert!(matches!(e.kind, PgnErrorKind::UnreadableMove(_)));
        assert_eq!(e.text, "zz");
        assert_eq!(e.offset, text.find("zz").unwrap());
        let e = games[4].as_ref().unwrap_err();
        assert_eq!(e.kind, PgnErrorKind::UnmatchedParenthesis);
        let e = games[5].as_ref().unwrap_err();
        assert!(matches!(e.kind, PgnErrorKind::BadFen(_)));
        let last = games[6].as_ref().unwrap();
        assert_eq!(last.headers().result(), GameResult::RedWins);
        assert_eq!(last.main_line().len(), 1);
    }

    #[test]
    fn other_malformations_are_reported() {
        let kind = |t: &str| read_game(t).unwrap_err().kind;
        assert_eq!(kind("[Event \"x]\n1. h2e2"), PgnErrorKind::BadTag);
        assert_eq!(kind("[Event]\n"), PgnErrorKind::BadTag);
        assert_eq!(
            kind("1. h2e2 (1. b2e2"),
            PgnErrorKind::UnterminatedVariation
        );
        assert_eq!(kind("( 1. h2e2 )"), PgnErrorKind::VariationWithoutMove);
        assert!(read_game("").unwrap().main_line().is_empty());
        // Unescaped quotes inside a value, move numbers glued to moves, a BOM, `;` comments.
        let r = read_game("\u{feff}[Event \"a \"b\" c\"]\n1.h2e2 ; 注释\n1...h9g7 2…h0g2").unwrap();
        assert_eq!(r.headers().get("Event"), Some("a \"b\" c"));
        assert_eq!(r.main_line().len(), 3);
        assert_eq!(r.annotation(r.main_line()[0]).comment, "注释");
        // A stray `}` is skipped, in a variation as well.
        let r = read_game("1. h2e2 } (1. c3c4 } ) h9g7 *").unwrap();
        assert_eq!((r.main_line().len(), r.line_count()), (2, 2));
    }

    #[test]
    fn comment_commands() {
        let mut a = Annotation::default();
        parse_comment(
            "[%clk 1:00] [%eval -0.5] [%eval #3] [%cal Rh2e2,bad] [%csl Ge5] 文字",
            &mut a,
        );
        assert_eq!(a.clock, Some(Duration::from_secs(60)));
        assert_eq!(
            a.eval.map(|e| e.score),
            Some(Score::Mate(3)),
            "the last eval wins"
        );
        assert!(a.arrows.is_empty(), "a malformed list stays text");
        assert_eq!(a.comment, "[%cal Rh2e2,bad]  文字");
        assert_eq!(a.circles.len(), 1);
        assert_eq!(parse_eval("-0.5").unwrap().score, Score::Cp(-50));
        assert_eq!(parse_eval("1.234").unwrap().score, Score::Cp(123));
        assert_eq!(parse_eval("+.5").unwrap().score, Score::Cp(50));
        assert!(parse_eval("abc").is_none() && parse_eval("-").is_none());
        assert_eq!(parse_clock("5"), Some(Duration::from_secs(5)));
        assert!(parse_clock("1:2:3:4").is_none() && parse_clock("x").is_none());
        let mut s = String::new();
        write_clock(&mut s, Duration::from_millis(59_050));
        assert_eq!(s, "0:00:59.05");
    }
}

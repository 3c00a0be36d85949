//! The 36 named checkmate patterns (杀法): names in three languages, the definition, and
//! for each at least two positions with their mating line, every one proved by the exact
//! mate prover (the tests replay and prove them all).
//!
//! The content lives in `assets/library/patterns.ron` and is compiled in, so the library
//! is always there; [`parse`] reads the same format from any text and says where it is
//! wrong. [`recognise`] names the patterns a finished position shows, by the shape rules
//! of [`shape`]. [`Practice`] plays an example against the mate prover's defence.

mod practice;
pub mod shape;

use crate::notation::{Notation, format_move};
use crate::{Color, Move, Position};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::OnceLock;

pub use practice::Practice;
pub use shape::{has_rule, recognise};

/// A pattern's number, 1 to 36, in the order of the seed's list.
pub type PatternId = u8;

/// A name in the app's three languages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Names {
    /// Simplified Chinese.
    pub zh_cn: String,
    /// Traditional Chinese.
    pub zh_tw: String,
    /// English.
    pub en: String,
}

/// A text in Chinese (both scripts) and English.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Text {
    /// Chinese, simplified characters.
    pub zh: String,
    /// Chinese, traditional characters (zh-TW).
    pub zh_tw: String,
    /// English.
    pub en: String,
}

/// One position that shows a pattern.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// The position, the attacker to move.
    pub fen: String,
    /// The mating line in ICCS, attacker first, 2 × `mate_in` − 1 moves (for 困毙 the
    /// last move leaves the defender without a move).
    pub line: Vec<String>,
    /// The attacker's moves to mate against the best defence; no shorter mate exists.
    pub mate_in: u32,
    /// Where the position comes from.
    pub source: String,
}

/// One of the 36 patterns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pattern {
    /// 1 to 36.
    pub id: PatternId,
    /// Its name.
    pub names: Names,
    /// Another name it goes by (对面笑杀 for 白脸将杀), if any.
    #[serde(default)]
    pub alias: Option<Names>,
    /// What it is, in our words after the seed's one-line definition.
    pub definition: Text,
    /// Commentary after seeds 000/002 第七节, where they say more about it.
    #[serde(default)]
    pub notes: Option<Text>,
    /// Positions that show it.
    pub examples: Vec<Example>,
}

/// The library text is not a valid pattern list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternsError {
    /// Line (1-based) where reading failed, 0 when the problem is not at one place.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PatternsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "patterns, line {}: {}", self.line, self.message)
        } else {
            write!(f, "patterns: {}", self.message)
        }
    }
}

impl std::error::Error for PatternsError {}

/// The built-in library text.
pub const LIBRARY_RON: &str = include_str!("../../../assets/library/patterns.ron");

/// Reads a pattern list in the library's RON format, checking that every FEN reads and
/// every line is made of legal moves from it.
pub fn parse(text: &str) -> Result<Vec<Pattern>, PatternsError> {
    let patterns: Vec<Pattern> = ron::from_str(text).map_err(|e| PatternsError {
        line: e.span.start.line,
        message: e.code.to_string(),
    })?;
    for p in &patterns {
        for (i, ex) in p.examples.iter().enumerate() {
            replay(ex).map_err(|message| PatternsError {
                line: 0,
                message: format!("pattern {} example {}: {message}", p.id, i + 1),
            })?;
        }
    }
    Ok(patterns)
}

/// The built-in patterns, read once.
pub fn library() -> Result<&'static [Pattern], PatternsError> {
    static LIBRARY: OnceLock<Result<Vec<Pattern>, PatternsError>> = OnceLock::new();
    LIBRARY
        .get_or_init(|| parse(LIBRARY_RON))
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}

/// The pattern with number `id`.
pub fn pattern(id: PatternId) -> Option<&'static Pattern> {
    library().ok()?.iter().find(|p| p.id == id)
}

/// The start position and moves of an example, each move checked legal.
pub fn replay(ex: &Example) -> Result<(Position, Vec<Move>), String> {
    super::replay_line(&ex.fen, &ex.line)
}

/// The position at the end of an example's line and the last move.
pub fn final_position(ex: &Example) -> Option<(Position, Option<Move>)> {
    let (mut pos, moves) = replay(ex).ok()?;
    for &m in &moves {
        pos.play_unchecked(m);
    }
    Some((pos, moves.last().copied()))
}

/// The patterns a mate shows: `moves` from `position` are played until the game ends (moves
/// after the end are ignored), and the shape rules name the final position with the last
/// move played. None when the line does not end the game or holds an illegal move.
pub fn mate_patterns(position: &Position, moves: &[Move]) -> Vec<PatternId> {
    let mut pos = position.clone();
    let mut last = None;
    for &m in moves {
        match pos.play(m) {
            Ok(next) => pos = next,
            Err(_) => return Vec::new(),
        }
        last = Some(m);
        if !pos.has_legal_move() {
            break;
        }
    }
    recognise(&pos, last)
}

/// An example as the JSON export shows it.
#[derive(Clone, Debug, Serialize)]
pub struct ExampleExport {
    /// The position.
    pub fen: String,
    /// `"red"` or `"black"`: the attacker.
    pub side_to_move: String,
    /// Attacker moves to mate (the shortest).
    pub mate_in: u32,
    /// The line in ICCS.
    pub line: Vec<String>,
    /// The line in Chinese notation.
    pub line_chinese: Vec<String>,
    /// How the line ends: `"checkmate"` or `"stalemate"` (困毙).
    pub ends_in: String,
    /// The patterns the final position's shape shows.
    pub recognised: Vec<PatternId>,
    /// Where it comes from.
    pub source: String,
}

/// A pattern as the JSON export shows it.
#[derive(Clone, Debug, Serialize)]
pub struct PatternExport {
    /// 1–36.
    pub id: PatternId,
    /// Names.
    pub names: Names,
    /// Other name.
    pub alias: Option<Names>,
    /// Definition.
    pub definition: Text,
    /// Commentary.
    pub notes: Option<Text>,
    /// Whether the final shape is checked by a rule in code.
    pub shape_rule: bool,
    /// Its positions.
    pub examples: Vec<ExampleExport>,
}

/// The whole pattern library as a serialisable value (for `chuhe-engine library --json`).
pub fn export() -> Result<Vec<PatternExport>, PatternsError> {
    Ok(library()?.iter().map(export_pattern).collect())
}

fn export_pattern(p: &Pattern) -> PatternExport {
    PatternExport {
        id: p.id,
        names: p.names.clone(),
        alias: p.alias.clone(),
        definition: p.definition.clone(),
        notes: p.notes.clone(),
        shape_rule: has_rule(p.id),
        examples: p.examples.iter().map(export_example).collect(),
    }
}

fn export_example(ex: &Example) -> ExampleExport {
    let (start, moves) = replay(ex).unwrap_or_else(|_| (Position::startpos(), Vec::new()));
    let mut pos = start.clone();
    let mut chinese = Vec::new();
    for &m in &moves {
        chinese.push(format_move(&pos, m, Notation::Chinese));
        pos.play_unchecked(m);
    }
    let ends_in = if pos.has_legal_move() {
        "none"
    } else if pos.is_check() {
        "checkmate"
    } else {
        "stalemate"
    };
    ExampleExport {
        fen: ex.fen.clone(),
        side_to_move: match start.side_to_move() {
            Color::Red => "red",
            Color::Black => "black",
        }
        .into(),
        mate_in: ex.mate_in,
        line: ex.line.clone(),
        line_chinese: chinese,
        ends_in: ends_in.into(),
        recognised: recognise(&pos, moves.last().copied()),
        source: ex.source.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_examples_mating_line_shows_its_pattern() {
        // Every pattern has a shape rule, and each example's line ends in its picture.
        for p in library().unwrap() {
            assert!(has_rule(p.id), "pattern {}", p.id);
            for (i, ex) in p.examples.iter().enumerate() {
                let (start, line) = replay(ex).unwrap();
                let shown = mate_patterns(&start, &line);
                assert!(
                    shown.contains(&p.id),
                    "pattern {} example {}: {shown:?}",
                    p.id,
                    i + 1
                );
            }
        }
    }

    #[test]
    fn a_line_is_read_only_to_the_mate_and_only_when_it_ends_the_game() {
        let ex = &pattern(1).unwrap().examples[0];
        let (start, line) = replay(ex).unwrap();
        let shown = mate_patterns(&start, &line);
        assert!(!shown.is_empty());
        // Moves after the end (an engine line may go on) change nothing.
        let mut longer = line.clone();
        longer.push(line[0]);
        assert_eq!(mate_patterns(&start, &longer), shown);
        // A line that stops short of the mate shows nothing, nor does an illegal move.
        assert!(mate_patterns(&start, &line[..line.len() - 1]).is_empty());
        // A move from an empty point.
        let empty = crate::Square::ALL
            .into_iter()
            .find(|&s| start.piece_at(s).is_none())
            .unwrap();
        let nowhere = Move::new(empty, start.general(start.side_to_move()));
        assert!(start.play(nowhere).is_err());
        let mut broken = vec![nowhere];
        broken.extend(&line);
        assert!(mate_patterns(&start, &broken).is_empty());
        assert!(mate_patterns(&Position::startpos(), &[]).is_empty());
    }
}

//! ECCO codes (the 2004 edition of the Chinese Chess opening classification, A00–E48) for
//! whole games.
//!
//! `assets/library/ecco.ron` gives each code its Chinese opening and variation names and
//! the lines that define it, written from Red's right wing (炮二平五, not 炮八平五), as
//! ECCO writes them; the named positions of the opening tree that carry a code define it
//! too. A code's lines become *patterns*: the points where the line's last position differs
//! from the start position, with what stands there.
//!
//! A game is classified by position, not by move order: its first ten moves (the ECCO
//! horizon) are replayed, mirrored first when Red opens on the left wing, and every pattern
//! whose points all stand as in the game at some ply matches. The most specific match (the
//! most points, then the longest line) gives the code. ECCO splits openings first by Red's
//! first move, so a pattern counts only for games whose first move is its line's first
//! move: a game that opens 炮二平五 and pushes 兵七进一 later is no 仙人指路.

use super::OpeningBook;
use crate::notation::{Notation, parse_move};
use crate::{Move, Piece, PieceKind, Position, Square};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::OnceLock;

const ECCO_RON: &str = include_str!("../../../../assets/library/ecco.ron");

/// How many plies of a game ECCO looks at: its first ten moves.
pub const HORIZON: usize = 20;

/// One ECCO code as the file writes it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct EccoEntry {
    /// The code, `A00`–`E99`.
    pub code: String,
    /// The opening's Chinese name.
    pub opening: String,
    /// The variation's Chinese name (often empty).
    #[serde(default)]
    pub variation: String,
    /// Lines that define it, in Chinese notation.
    #[serde(default)]
    pub lines: Vec<String>,
}

/// The classification of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classification {
    /// The code.
    pub code: String,
    /// The opening's Chinese name.
    pub opening: String,
    /// The variation's Chinese name (may be empty).
    pub variation: String,
}

/// Why the ECCO file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EccoError {
    /// Not the RON expected.
    Syntax(String),
    /// A line's move cannot be read or is illegal.
    BadMove {
        /// The code whose line it is.
        code: String,
        /// The move's text.
        text: String,
        /// Why.
        reason: String,
    },
    /// A tree node names a code the table lacks.
    UnknownCode(String),
}

impl fmt::Display for EccoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EccoError::Syntax(e) => write!(f, "the ECCO file is malformed: {e}"),
            EccoError::BadMove { code, text, reason } => {
                write!(f, "ECCO {code}: move {text:?}: {reason}")
            }
            EccoError::UnknownCode(c) => write!(f, "ECCO code {c} is not in the table"),
        }
    }
}

impl std::error::Error for EccoError {}

/// A code's line as points to match.
#[derive(Clone, Debug)]
struct Pattern {
    entry: usize,
    first: Move,
    /// Black's first reply, when the line gives one.
    reply: Option<Move>,
    plies: usize,
    points: Vec<(Square, Option<Piece>)>,
}

/// The ECCO table and its patterns.
#[derive(Clone, Debug)]
pub struct Ecco {
    /// Every code, in order.
    pub entries: Vec<EccoEntry>,
    patterns: Vec<Pattern>,
}

/// In a line, a move left open: the side to move passes, so the pattern says nothing of
/// what it plays there.
pub const SKIP: &str = "…";

/// The position with the other side to move and the same pieces (`None` if that side's
/// general would stand in check, which no opening line allows).
fn pass(pos: &Position) -> Option<Position> {
    let mut setup = pos.to_setup();
    setup.side_to_move = !setup.side_to_move;
    Position::from_setup(&setup).ok()
}

/// Whether a first move is played on Red's left wing (files a–d), which ECCO turns round.
fn left_wing(m: Move) -> bool {
    m.from.file().index() < 4
}

fn mirrored(m: Move) -> Move {
    Move::new(m.from.mirror(), m.to.mirror())
}

impl Ecco {
    /// Reads the table from RON and adds the lines of the tree's nodes that carry a code.
    pub fn new(text: &str, book: Option<&OpeningBook>) -> Result<Ecco, EccoError> {
        let entries: Vec<EccoEntry> =
            ron::from_str(text).map_err(|e| EccoError::Syntax(e.to_string()))?;
        let mut ecco = Ecco {
            entries,
            patterns: Vec::new(),
        };
        for i in 0..ecco.entries.len() {
            for line in ecco.entries[i].lines.clone() {
                let mut pos = Position::startpos();
                let mut moves = Vec::new();
                for text in line.split_whitespace() {
                    let bad = |reason: String| EccoError::BadMove {
                        code: ecco.entries[i].code.clone(),
                        text: text.to_owned(),
                        reason,
                    };
                    if text == SKIP {
                        pos = pass(&pos).ok_or_else(|| bad("cannot pass here".to_owned()))?;
                        moves.push(None);
                        continue;
                    }
                    let m = parse_move(&pos, text, Notation::Chinese)
                        .map_err(|e| bad(e.to_string()))?;
                    pos = pos.play(m).map_err(|e| bad(e.to_string()))?;
                    moves.push(Some(m));
                }
                ecco.add_pattern(i, &moves);
            }
        }
        if let Some(book) = book {
            for node in &book.nodes {
                let Some(code) = &node.ecco else { continue };
                let i = ecco
                    .index(code)
                    .ok_or_else(|| EccoError::UnknownCode(code.clone()))?;
                let moves: Vec<Option<Move>> = node.moves.iter().copied().map(Some).collect();
                ecco.add_pattern(i, &moves);
            }
        }
        Ok(ecco)
    }

    fn index(&self, code: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.code == code)
    }

    /// The entry of a code.
    pub fn entry(&self, code: &str) -> Option<&EccoEntry> {
        self.index(code).map(|i| &self.entries[i])
    }

    /// Adds a line's pattern; a line opened on Red's left wing is turned round first, as
    /// games are, since ECCO classifies from the right wing.
    fn add_pattern(&mut self, entry: usize, moves: &[Option<Move>]) {
        let Some(Some(first)) = moves.first().copied() else {
            return;
        };
        let flip = left_wing(first);
        let moves: Vec<Option<Move>> = moves
            .iter()
            .map(|m| m.map(|m| if flip { mirrored(m) } else { m }))
            .collect();
        let start = Position::startpos();
        let mut pos = start.clone();
        for m in &moves {
            let next = match m {
                Some(m) => pos.play(*m).ok(),
                None => pass(&pos),
            };
            match next {
                Some(p) => pos = p,
                None => return,
            }
        }
        let points = Square::ALL
            .iter()
            .filter(|&&sq| pos.piece_at(sq) != start.piece_at(sq))
            .map(|&sq| (sq, pos.piece_at(sq)))
            .collect();
        self.patterns.push(Pattern {
            entry,
            first: moves[0].unwrap_or(first),
            reply: moves.get(1).copied().flatten(),
            plies: moves.len(),
            points,
        });
    }

    /// Whether a pattern can apply to a game at all: ECCO sorts games first by Red's first
    /// move and Black's reply. The two central horse replies (马8进7, 马2进3) are taken
    /// in either order, as the same defences arise from both; any other reply (a central
    /// cannon, a pawn, an elephant, an edge horse …) sets the family.
    fn applies(&self, pattern: &Pattern, moves: &[Move], start: &Position) -> bool {
        if pattern.first != moves[0] {
            return false;
        }
        let (Some(reply), Some(&played)) = (pattern.reply, moves.get(1)) else {
            return true;
        };
        // 马8进7 and 马2进3: a horse to the third or seventh file, toward the centre.
        let is_horse = |m: Move, pos: &Position| {
            pos.piece_at(m.from)
                .is_some_and(|p| p.kind == PieceKind::Horse)
                && matches!(m.to.file().index(), 2 | 6)
        };
        let Ok(after) = start.play(moves[0]) else {
            return false;
        };
        reply == played || (is_horse(reply, &after) && is_horse(played, &after))
    }

    /// The ECCO code of the game from `start` through `moves`: `None` for a game from a
    /// set-up position or without moves; `A00` (other openings) when no line matches.
    pub fn classify(&self, start: &Position, moves: &[Move]) -> Option<Classification> {
        if start.hash() != Position::startpos().hash() || moves.is_empty() {
            return None;
        }
        let flip = left_wing(moves[0]);
        let moves: Vec<Move> = moves
            .iter()
            .take(HORIZON)
            .map(|&m| if flip { mirrored(m) } else { m })
            .collect();
        let mut positions = vec![start.clone()];
        for &m in &moves {
            match positions.last().and_then(|p| p.play(m).ok()) {
                Some(next) => positions.push(next),
                None => break,
            }
        }
        // The most points wins; among as many, the one the game reached first, then the
        // longer line.
        let mut best: Option<(&Pattern, (usize, usize, usize))> = None;
        for pattern in self
            .patterns
            .iter()
            .filter(|p| self.applies(p, &moves, &positions[0]))
        {
            let reached = positions[1..].iter().position(|pos| {
                pattern
                    .points
                    .iter()
                    .all(|&(sq, piece)| pos.piece_at(sq) == piece)
            });
            if let Some(ply) = reached {
                let key = (pattern.points.len(), HORIZON - ply, pattern.plies);
                if best.is_none_or(|(_, k)| key > k) {
                    best = Some((pattern, key));
                }
            }
        }
        let best = best.map(|(p, _)| p);
        let entry = match best {
            Some(p) => &self.entries[p.entry],
            None => self.entry("A00")?,
        };
        Some(Classification {
            code: entry.code.clone(),
            opening: entry.opening.clone(),
            variation: entry.variation.clone(),
        })
    }
}

/// The built-in table with the built-in tree's codes, read once.
pub fn builtin() -> Result<&'static Ecco, String> {
    static ECCO: OnceLock<Result<Ecco, String>> = OnceLock::new();
    ECCO.get_or_init(|| {
        let book = super::builtin().map_err(|e| e.to_string())?;
        Ecco::new(ECCO_RON, Some(book)).map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(String::clone)
}

/// Classifies a game with the built-in table (`None` when the game has no ECCO code, or
/// the built-in table could not be read, which a test rules out).
pub fn classify(start: &Position, moves: &[Move]) -> Option<Classification> {
    builtin().ok()?.classify(start, moves)
}

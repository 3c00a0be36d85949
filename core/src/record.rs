//! Game records (棋谱): the tree of moves with variations, the annotations of every move,
//! the headers, navigation helpers for a move list, and undoable edits.
//!
//! # Design
//! The moves live in an arena: a `Vec` of nodes addressed by [`NodeId`]. Node 0 is the
//! root, the start position; every other node is one move, linked to its parent, its first
//! child and its next sibling. The first child is the main continuation, later children are
//! variations in order. Ids never change while a record lives, so the app can keep a cursor
//! across edits, undo and redo.
//!
//! Undo is a command history of inverse edits. Every edit is made of small field writes
//! (a node's child/sibling links, a node's annotation, the headers); before each write the
//! old value is saved. Undoing an edit writes the saved values back in reverse order, and
//! saves the values it overwrites as the redo entry, so undo and redo are one mechanism.
//! Deleted moves are unlinked, not freed, so undo can link them back; [`Record::is_live`]
//! says whether a node is still part of the tree.
//!
//! # Navigation
//! A move list moves its cursor with ← [`Record::parent`], → [`Record::main_child`],
//! ↑/↓ [`Record::previous_sibling`]/[`Record::next_sibling`] (the alternatives to the
//! current move), Home [`Record::root`] and End [`Record::line_end`]. It draws the tree from
//! [`Record::children`] (main continuation first), [`Record::move_number`] and
//! [`Record::annotation`], and shows the board from [`Record::position_at`].
//!
//! ```
//! use chuhe_core::record::{Nag, Record};
//! let mut rec = Record::default();
//! let root = rec.root();
//! let a = rec.add_move(root, "h2e2".parse().unwrap()).unwrap(); // 炮二平五
//! let b = rec.add_move(a, "h9g7".parse().unwrap()).unwrap(); // 马８进７
//! let c = rec.add_move(a, "h7e7".parse().unwrap()).unwrap(); // 炮８平５, a variation
//! assert_eq!(rec.children(a).collect::<Vec<_>>(), [b, c]);
//! rec.make_main_line(c).unwrap();
//! assert_eq!(rec.main_child(a), Some(c));
//! rec.set_comment(c, "中炮对中炮").unwrap();
//! rec.toggle_nag(c, Nag::GOOD).unwrap();
//! rec.undo();
//! rec.undo();
//! assert_eq!(rec.annotation(c).comment, "");
//! rec.undo();
//! assert_eq!(rec.main_child(a), Some(b));
//! rec.redo();
//! assert_eq!(rec.main_child(a), Some(c));
//! ```

mod tokens;

pub use tokens::Token;

use crate::search::Score;
use crate::{Color, Game, IllegalMove, Move, Outcome, Position, Square};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The index of a node in a [`Record`]. The root (the start position) is [`Record::root`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The position of the node in the record's arena.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// No node (the end of a sibling list, a leaf's first child, the root's parent).
const NONE: u32 = u32::MAX;

fn link(id: u32) -> Option<NodeId> {
    (id != NONE).then_some(NodeId(id))
}

/// A Numeric Annotation Glyph: `$1` … `$255` in PGN. The six move assessments have glyphs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl Nag {
    /// `!` (`$1`), a good move.
    pub const GOOD: Nag = Nag(1);
    /// `?` (`$2`), a mistake.
    pub const MISTAKE: Nag = Nag(2);
    /// `!!` (`$3`), a brilliant move.
    pub const BRILLIANT: Nag = Nag(3);
    /// `??` (`$4`), a blunder.
    pub const BLUNDER: Nag = Nag(4);
    /// `!?` (`$5`), an interesting move.
    pub const INTERESTING: Nag = Nag(5);
    /// `?!` (`$6`), a dubious move.
    pub const DUBIOUS: Nag = Nag(6);
    /// `$220`: the move starts a line the engine put in (a whole-game review's better
    /// move), not a person. The PGN standard defines `$0`–`$139` and the common
    /// extensions stop below 150, so other programs keep it as an unknown NAG.
    pub const ENGINE_LINE: Nag = Nag(220);

    /// Whether this is one of the six move assessments (`!`, `?`, `!!`, `??`, `!?`, `?!`),
    /// of which a move carries at most one.
    pub const fn is_move_assessment(self) -> bool {
        matches!(self.0, 1..=6)
    }

    /// The glyph of a move assessment (`!`, `?`, `!!`, `??`, `!?`, `?!`), if it is one.
    pub const fn glyph(self) -> Option<&'static str> {
        Some(match self.0 {
            1 => "!",
            2 => "?",
            3 => "!!",
            4 => "??",
            5 => "!?",
            6 => "?!",
            _ => return None,
        })
    }

    /// Reads a glyph (`!`, `?`, `!!`, `??`, `!?`, `?!`).
    pub fn from_glyph(glyph: &str) -> Option<Nag> {
        Some(match glyph {
            "!" => Nag::GOOD,
            "?" => Nag::MISTAKE,
            "!!" => Nag::BRILLIANT,
            "??" => Nag::BLUNDER,
            "!?" => Nag::INTERESTING,
            "?!" => Nag::DUBIOUS,
            _ => return None,
        })
    }
}

impl fmt::Display for Nag {
    /// The PGN form, `$n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// The colour of an arrow or a circled point, as the PGN `[%cal]`/`[%csl]` commands spell it
/// (`R`, `G`, `B`, `Y`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkColor {
    /// `R`.
    Red,
    /// `G`.
    Green,
    /// `B`.
    Blue,
    /// `Y`.
    Yellow,
}

impl MarkColor {
    /// The letter used in `[%cal]` and `[%csl]`.
    pub const fn letter(self) -> char {
        match self {
            MarkColor::Red => 'R',
            MarkColor::Green => 'G',
            MarkColor::Blue => 'B',
            MarkColor::Yellow => 'Y',
        }
    }

    /// Reads a colour letter of either case.
    pub const fn from_letter(c: char) -> Option<MarkColor> {
        Some(match c.to_ascii_uppercase() {
            'R' => MarkColor::Red,
            'G' => MarkColor::Green,
            'B' => MarkColor::Blue,
            'Y' => MarkColor::Yellow,
            _ => return None,
        })
    }
}

/// An arrow drawn on the board, `[%cal Gh2e2]` in PGN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// Where it starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
    /// Its colour.
    pub color: MarkColor,
}

/// A circled point, `[%csl Re2]` in PGN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Circle {
    /// The point.
    pub at: Square,
    /// Its colour.
    pub color: MarkColor,
}

/// An evaluation recorded for a move, `[%eval 0.35]` or `[%eval #3,20]` (score, depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Evaluation {
    /// The score, from Red's point of view (positive is good for Red): `[%eval 0.35]` is
    /// `Cp(35)`, `[%eval #-3]` is `Mate(-3)` (Black mates in 3).
    pub score: Score,
    /// The search depth, if recorded.
    pub depth: Option<u32>,
}

/// Everything said about one move (or, on the root, about the start position).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    /// Text shown before the move. PGN writes it as a second comment ahead of the move.
    pub comment_before: String,
    /// Text after the move (on the root: the comment before the first move).
    pub comment: String,
    /// Annotation glyphs, in order.
    pub nags: Vec<Nag>,
    /// Arrows to show with the position after the move.
    pub arrows: Vec<Arrow>,
    /// Circled points to show with the position after the move.
    pub circles: Vec<Circle>,
    /// The mover's remaining clock time after the move (`[%clk 0:05:00]`).
    pub clock: Option<Duration>,
    /// An evaluation of the position after the move (`[%eval 0.35]`).
    pub eval: Option<Evaluation>,
}

/// The annotation of a node that has none.
static EMPTY_ANNOTATION: Annotation = Annotation {
    comment_before: String::new(),
    comment: String::new(),
    nags: Vec::new(),
    arrows: Vec::new(),
    circles: Vec::new(),
    clock: None,
    eval: None,
};

impl Annotation {
    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self == &EMPTY_ANNOTATION
    }
}

/// The result of a game as PGN records it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    RedWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, unfinished or not recorded.
    #[default]
    Unknown,
}

impl GameResult {
    /// The PGN text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The winner, if the game was decided.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_pgn())
    }
}

/// Text that is not a PGN result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseResultError;

impl fmt::Display for ParseResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a game result (expected 1-0, 0-1, 1/2-1/2 or *)")
    }
}

impl std::error::Error for ParseResultError {}

impl FromStr for GameResult {
    type Err = ParseResultError;

    fn from_str(s: &str) -> Result<GameResult, ParseResultError> {
        Ok(match s.trim() {
            "1-0" => GameResult::RedWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "½-½" => GameResult::Draw,
            "*" | "" => GameResult::Unknown,
            _ => return Err(ParseResultError),
        })
    }
}

/// The number of a move as records print it: `12.` before Red's twelfth move, `12...`
/// before Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveNumber {
    /// The full-move number (1 for the first move of each side).
    pub number: u32,
    /// Who makes the move.
    pub color: Color,
}

impl MoveNumber {
    /// The number of the move about to be played in `pos`.
    pub fn before(pos: &Position) -> MoveNumber {
        MoveNumber {
            number: pos.fullmove_number(),
            color: pos.side_to_move(),
        }
    }
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.color {
            Color::Red => write!(f, "{}.", self.number),
            Color::Black => write!(f, "{}...", self.number),
        }
    }
}

/// Header (tag) names with a meaning to Chuhe. Any other name is kept as it is.
pub mod tag {
    /// The event (赛事).
    pub const EVENT: &str = "Event";
    /// Where it was played.
    pub const SITE: &str = "Site";
    /// When, as written (`2006.08.03`, `1980年` …).
    pub const DATE: &str = "Date";
    /// The round.
    pub const ROUND: &str = "Round";
    /// Red's player.
    pub const RED: &str = "Red";
    /// Black's player.
    pub const BLACK: &str = "Black";
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const RESULT: &str = "Result";
    /// The ECCO opening code (A00–E99).
    pub const ECCO: &str = "ECCO";
    /// The opening's name.
    pub const OPENING: &str = "Opening";
    /// The opening variation's name.
    pub const VARIATION: &str = "Variation";
    /// The start position when it is not the standard one. A [`crate::record::Record`]
    /// holds it as its start position rather than as a header.
    pub const FEN: &str = "FEN";

    /// The names above, as Chuhe spells them.
    const KNOWN: [&str; 11] = [
        EVENT, SITE, DATE, ROUND, RED, BLACK, RESULT, ECCO, OPENING, VARIATION, FEN,
    ];

    /// `name` in Chuhe's spelling when it is one of the names above in another case
    /// (files from some programs write `[EVENT "…"]`); any other name as it is.
    pub fn canonical(name: &str) -> &str {
        KNOWN
            .into_iter()
            .find(|known| known.eq_ignore_ascii_case(name))
            .unwrap_or(name)
    }
}

/// The headers of a game, in order, each name at most once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Headers {
    entries: Vec<(String, String)>,
}

impl Headers {
    /// No headers.
    pub fn new() -> Headers {
        Headers::default()
    }

    /// The value of `name`, if present.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets `name` to `value`, keeping its place if it was present, else adding it last.
    pub fn set(&mut self, name: &str, value: &str) {
        match self.entries.iter_mut().find(|(n, _)| n == name) {
            Some(entry) => value.clone_into(&mut entry.1),
            None => self.entries.push((name.to_owned(), value.to_owned())),
        }
    }

    /// Removes `name`; returns its value.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let i = self.entries.iter().position(|(n, _)| n == name)?;
        Some(self.entries.remove(i).1)
    }

    /// Every header in order, as (name, value).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// How many headers there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The result header read as a [`GameResult`]; `Unknown` when absent or unreadable.
    pub fn result(&self) -> GameResult {
        self.get(tag::RESULT)
            .and_then(|r| r.parse().ok())
            .unwrap_or(GameResult::Unknown)
    }
}

/// One node of the arena.
#[derive(Clone, Debug)]
struct Node {
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    /// The move that leads here; meaningless on the root.
    mv: Move,
    /// Boxed so that the many unannotated moves of an imported game cost no allocation.
    notes: Option<Box<Annotation>>,
}

/// One saved field value: applying it writes it back and returns what it overwrote.
#[derive(Clone, Debug)]
enum Change {
    Links {
        node: u32,
        first_child: u32,
        next_sibling: u32,
    },
    Notes {
        node: u32,
        notes: Option<Box<Annotation>>,
    },
    Headers(Headers),
}

/// Why an edit was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// The id is not a node of this record, or its node was deleted.
    UnknownNode(NodeId),
    /// The root (the start position) cannot be deleted or reordered.
    Root,
    /// The move is not legal in the node's position.
    Illegal(IllegalMove),
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::UnknownNode(id) => write!(f, "node {} is not in the record", id.0),
            EditError::Root => f.write_str("the start position cannot be changed this way"),
            EditError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for EditError {}

/// A game record: headers, a start position and a tree of annotated moves, with undo.
#[derive(Clone, Debug)]
pub struct Record {
    headers: Headers,
    start: Position,
    nodes: Vec<Node>,
    undo: Vec<Vec<Change>>,
    redo: Vec<Vec<Change>>,
}

impl Default for Record {
    /// An empty record from the start position.
    fn default() -> Record {
        Record::new(Position::startpos())
    }
}

impl Record {
    /// An empty record from `start`, with no headers.
    pub fn new(start: Position) -> Record {
        Record {
            headers: Headers::new(),
            start,
            nodes: vec![Node {
                parent: NONE,
                first_child: NONE,
                next_sibling: NONE,
                mv: Move::new(Square::ALL[0], Square::ALL[0]),
                notes: None,
            }],
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The headers.
    pub fn headers(&self) -> &Headers {
        &self.headers
    }

    pub(crate) fn headers_mut(&mut self) -> &mut Headers {
        &mut self.headers
    }

    // ----- Navigation -----

    /// The root: the start position, before the first move.
    pub const fn root(&self) -> NodeId {
        NodeId(0)
    }

    fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id.index())
    }

    /// The move that leads to `id` (`None` for the root or an unknown id).
    pub fn move_at(&self, id: NodeId) -> Option<Move> {
        if id.0 == 0 {
            return None;
        }
        self.node(id).map(|n| n.mv)
    }

    /// The node before `id` (←); `None` for the root.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.node(id).and_then(|n| link(n.parent))
    }

    /// The main continuation after `id` (→): its first child.
    pub fn main_child(&self, id: NodeId) -> Option<NodeId> {
        self.node(id).and_then(|n| link(n.first_child))
    }

    /// The moves that may follow `id`: the main continuation first, then the variations.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            record: self,
            next: self.node(id).map_or(NONE, |n| n.first_child),
        }
    }

    /// The next alternative to `id` in its parent's list (↓), if any.
    pub fn next_sibling(&self, id: NodeId) -> Option<NodeId> {
        if id.0 == 0 {
            return None;
        }
        self.node(id).and_then(|n| link(n.next_sibling))
    }

    /// The previous alternative to `id` in its parent's list (↑), if any.
    pub fn previous_sibling(&self, id: NodeId) -> Option<NodeId> {
        let parent = self.parent(id)?;
        let mut previous = None;
        for c in self.children(parent) {
            if c == id {
                return previous;
            }
            previous = Some(c);
        }
        None
    }

    /// The place of `id` among its parent's children: 0 for the main continuation.
    pub fn variation_index(&self, id: NodeId) -> usize {
        self.parent(id)
            .and_then(|p| self.children(p).position(|c| c == id))
            .unwrap_or(0)
    }

    /// The last node reached from `id` by following main continuations (End).
    pub fn line_end(&self, id: NodeId) -> NodeId {
        let mut at = id;
        while let Some(next) = self.main_child(at) {
            at = next;
        }
        at
    }

    /// The nodes from `id` (excluded) following main continuations to the end of the line.
    pub fn line_after(&self, id: NodeId) -> Vec<NodeId> {
        let mut line = Vec::new();
        let mut at = id;
        while let Some(next) = self.main_child(at) {
            line.push(next);
            at = next;
        }
        line
    }

    /// The main line: the first child of the root, its first child, and so on.
    pub fn main_line(&self) -> Vec<NodeId> {
        self.line_after(self.root())
    }

    /// The moves of the main line.
    pub fn main_line_moves(&self) -> Vec<Move> {
        self.main_line()
            .into_iter()
            .map(|n| self.nodes[n.index()].mv)
            .collect()
    }

    /// The nodes from the first move to `id` inclusive (empty for the root).
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = id;
        while at.0 != 0 {
            path.push(at);
            match self.parent(at) {
                Some(p) => at = p,
                None => break,
            }
        }
        path.reverse();
        path
    }

    /// The moves from the start position to `id`.
    pub fn moves_to(&self, id: NodeId) -> Vec<Move> {
        self.path(id)
            .into_iter()
            .map(|n| self.nodes[n.index()].mv)
            .collect()
    }

    /// How many moves lead to `id` (0 for the root).
    pub fn ply(&self, id: NodeId) -> usize {
        let mut n = 0;
        let mut at = id;
        while let Some(p) = self.parent(at) {
            n += 1;
            at = p;
        }
        n
    }

    /// The position at `id`: the start position with the moves leading there played.
    /// `None` for an unknown id.
    pub fn position_at(&self, id: NodeId) -> Option<Position> {
        self.node(id)?;
        let mut pos = self.start.clone();
        for m in self.moves_to(id) {
            // Every move entered the tree through a legality check.
            pos.play_unchecked(m);
        }
        Some(pos)
    }

    /// The game from the start position to `id`: its moves played by the rules' [`Game`],
    /// which keeps the history repetitions and the move limit are judged by. `None` for
    /// an unknown id, or when a move does not play (a move after the game ended).
    pub fn game_at(&self, id: NodeId) -> Option<Game> {
        self.node(id)?;
        let mut game = Game::new(self.start.clone());
        for m in self.moves_to(id) {
            game.play(m).ok()?;
        }
        Some(game)
    }

    /// How the rules ended the game at `id`, if they did: mate, a side without a move
    /// (困毙), a repetition judged by its moves (长将, 不变作和 …), the natural move limit.
    pub fn outcome_at(&self, id: NodeId) -> Option<Outcome> {
        self.game_at(id)?.outcome()
    }

    /// The side to move at `id`: the start's side after an even number of moves.
    pub fn side_to_move_at(&self, id: NodeId) -> Color {
        let start = self.start.side_to_move();
        if self.ply(id).is_multiple_of(2) {
            start
        } else {
            !start
        }
    }

    /// The number of the move leading to `id` (`None` for the root).
    pub fn move_number(&self, id: NodeId) -> Option<MoveNumber> {
        let ply = self.ply(id);
        if ply == 0 || self.node(id).is_none() {
            return None;
        }
        let offset = ply - 1 + usize::from(self.start.side_to_move() == Color::Black);
        Some(MoveNumber {
            number: self.start.fullmove_number() + (offset / 2) as u32,
            color: if offset.is_multiple_of(2) {
                Color::Red
            } else {
                Color::Black
            },
        })
    }

    /// Whether `id` is on the main line (the root is).
    pub fn is_main_line(&self, id: NodeId) -> bool {
        self.is_live(id) && self.path(id).iter().all(|&n| self.variation_index(n) == 0)
    }

    /// Whether `id` is part of the tree (not deleted, and of this record).
    pub fn is_live(&self, id: NodeId) -> bool {
        let mut at = id;
        loop {
            if self.node(at).is_none() {
                return false;
            }
            match self.parent(at) {
                None => return at.0 == 0,
                Some(p) => {
                    if !self.children(p).any(|c| c == at) {
                        return false;
                    }
                    at = p;
                }
            }
        }
    }

    /// The annotation of `id` (empty for an unannotated or unknown node).
    pub fn annotation(&self, id: NodeId) -> &Annotation {
        self.node(id)
            .and_then(|n| n.notes.as_deref())
            .unwrap_or(&EMPTY_ANNOTATION)
    }

    /// Every node of the tree below `id` (excluded), parents before children, main
    /// continuations before variations.
    pub fn descendants(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack: Vec<NodeId> = self.children(id).collect();
        stack.reverse();
        while let Some(n) = stack.pop() {
            out.push(n);
            let first = stack.len();
            stack.extend(self.children(n));
            stack[first..].reverse();
        }
        out
    }

    /// How many moves the tree holds, all variations included.
    pub fn move_count(&self) -> usize {
        self.descendants(self.root()).len()
    }

    /// How many lines the tree holds: the number of ends of lines (0 with no moves).
    pub fn line_count(&self) -> usize {
        self.descendants(self.root())
            .into_iter()
            .filter(|&n| self.main_child(n).is_none())
            .count()
    }

    // ----- Building without history (importers) -----

    /// Checks `mv` in `pos`, the position at `parent`, and hangs it under `parent` with
    /// `comment`; gives the new node and the position after the move. For the binary
    /// readers that walk a file's move tree with the position at hand.
    pub(crate) fn push_checked(
        &mut self,
        parent: NodeId,
        pos: &Position,
        mv: Move,
        comment: &str,
    ) -> Result<(NodeId, Position), IllegalMove> {
        pos.check_move(mv)?;
        let node = self.push_child(parent, mv);
        if !comment.is_empty() {
            self.annotation_mut(node).comment = comment.to_owned();
        }
        let mut after = pos.clone();
        after.play_unchecked(mv);
        Ok((node, after))
    }

    /// Appends `mv` as the last child of `parent` without checking it or recording undo.
    /// The caller has checked that `mv` is legal at `parent`.
    pub(crate) fn push_child(&mut self, parent: NodeId, mv: Move) -> NodeId {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            parent: parent.0,
            first_child: NONE,
            next_sibling: NONE,
            mv,
            notes: None,
        });
        let p = parent.index();
        if self.nodes[p].first_child == NONE {
            self.nodes[p].first_child = id;
        } else {
            let mut last = self.nodes[p].first_child as usize;
            while self.nodes[last].next_sibling != NONE {
                last = self.nodes[last].next_sibling as usize;
            }
            self.nodes[last].next_sibling = id;
        }
        NodeId(id)
    }

    /// The annotation of `id` for writing, created if absent, without recording undo.
    pub(crate) fn annotation_mut(&mut self, id: NodeId) -> &mut Annotation {
        self.nodes[id.index()]
            .notes
            .get_or_insert_with(Default::default)
    }

    /// Drops annotations that ended up empty, so that equal trees compare equal.
    pub(crate) fn tidy_annotation(&mut self, id: NodeId) {
        let node = &mut self.nodes[id.index()];
        if node.notes.as_deref().is_some_and(Annotation::is_empty) {
            node.notes = None;
        }
    }

    pub(crate) fn set_start(&mut self, start: Position) {
        self.start = start;
    }

    // ----- Undoable edits -----

    fn live(&self, id: NodeId) -> Result<(), EditError> {
        if self.is_live(id) {
            Ok(())
        } else {
            Err(EditError::UnknownNode(id))
        }
    }

    fn save_links(&self, node: u32, changes: &mut Vec<Change>) {
        let n = &self.nodes[node as usize];
        changes.push(Change::Links {
            node,
            first_child: n.first_child,
            next_sibling: n.next_sibling,
        });
    }

    /// Gives `parent` the children `order`, saving every link it rewrites.
    fn relink(&mut self, parent: u32, order: &[u32], changes: &mut Vec<Change>) {
        self.save_links(parent, changes);
        self.nodes[parent as usize].first_child = order.first().copied().unwrap_or(NONE);
        for (i, &c) in order.iter().enumerate() {
            self.save_links(c, changes);
            self.nodes[c as usize].next_sibling = order.get(i + 1).copied().unwrap_or(NONE);
        }
    }

    fn child_ids(&self, parent: NodeId) -> Vec<u32> {
        self.children(parent).map(|c| c.0).collect()
    }

    fn commit(&mut self, changes: Vec<Change>) {
        if !changes.is_empty() {
            self.undo.push(changes);
            self.redo.clear();
        }
    }

    /// Writes one saved value back; returns the value it overwrote.
    fn apply(&mut self, change: Change) -> Change {
        match change {
            Change::Links {
                node,
                first_child,
                next_sibling,
            } => {
                let n = &mut self.nodes[node as usize];
                let old = Change::Links {
                    node,
                    first_child: n.first_child,
                    next_sibling: n.next_sibling,
                };
                n.first_child = first_child;
                n.next_sibling = next_sibling;
                old
            }
            Change::Notes { node, notes } => {
                let n = &mut self.nodes[node as usize];
                Change::Notes {
                    node,
                    notes: std::mem::replace(&mut n.notes, notes),
                }
            }
            Change::Headers(headers) => {
                Change::Headers(std::mem::replace(&mut self.headers, headers))
            }
        }
    }

    /// Applies an entry's saved values in reverse order, returning the entry that undoes
    /// that (in the same recording order).
    fn replay(&mut self, entry: Vec<Change>) -> Vec<Change> {
        let mut inverse: Vec<Change> = entry.into_iter().rev().map(|c| self.apply(c)).collect();
        inverse.reverse();
        inverse
    }

    /// Takes back the last edit. Returns whether there was one.
    pub fn undo(&mut self) -> bool {
        match self.undo.pop() {
            Some(entry) => {
                let inverse = self.replay(entry);
                self.redo.push(inverse);
                true
            }
            None => false,
        }
    }

    /// Makes again the last edit taken back. Returns whether there was one.
    pub fn redo(&mut self) -> bool {
        match self.redo.pop() {
            Some(entry) => {
                let inverse = self.replay(entry);
                self.undo.push(inverse);
                true
            }
            None => false,
        }
    }

    /// Whether [`Record::undo`] has something to take back.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether [`Record::redo`] has something to make again.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Forgets the undo and redo history (after loading or saving, say).
    pub fn clear_history(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }

    /// Plays `mv` after `at`. If `at` already has that move as a child, that node is
    /// returned and nothing changes; otherwise the move is added after the existing
    /// children (a new variation when there are some).
    pub fn add_move(&mut self, at: NodeId, mv: Move) -> Result<NodeId, EditError> {
        self.live(at)?;
        if let Some(existing) = self.children(at).find(|&c| self.nodes[c.index()].mv == mv) {
            return Ok(existing);
        }
        let pos = self.position_at(at).ok_or(EditError::UnknownNode(at))?;
        pos.check_move(mv).map_err(EditError::Illegal)?;
        let mut order = self.child_ids(at);
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            parent: at.0,
            first_child: NONE,
            next_sibling: NONE,
            mv,
            notes: None,
        });
        order.push(id);
        let mut changes = Vec::new();
        self.relink(at.0, &order, &mut changes);
        self.commit(changes);
        Ok(NodeId(id))
    }

    /// Deletes `id` and everything after it (its whole subtree). Returns the parent, where
    /// a cursor on a deleted node should go.
    pub fn delete_from(&mut self, id: NodeId) -> Result<NodeId, EditError> {
        self.live(id)?;
        let parent = self.parent(id).ok_or(EditError::Root)?;
        let order: Vec<u32> = self
            .child_ids(parent)
            .into_iter()
            .filter(|&c| c != id.0)
            .collect();
        let mut changes = Vec::new();
        self.relink(parent.0, &order, &mut changes);
        self.commit(changes);
        Ok(parent)
    }

    /// Moves the variation starting at `id` one place up among its parent's children (the
    /// second child becomes the main continuation). Returns `false` when it is already first.
    pub fn promote_variation(&mut self, id: NodeId) -> Result<bool, EditError> {
        self.live(id)?;
        let parent = self.parent(id).ok_or(EditError::Root)?;
        let mut order = self.child_ids(parent);
        let i = order.iter().position(|&c| c == id.0).unwrap_or(0);
        if i == 0 {
            return Ok(false);
        }
        order.swap(i - 1, i);
        let mut changes = Vec::new();
        self.relink(parent.0, &order, &mut changes);
        self.commit(changes);
        Ok(true)
    }

    /// Makes the line through `id` the main line: every node on the path from the root
    /// becomes its parent's first child. Returns `false` when it already was.
    pub fn make_main_line(&mut self, id: NodeId) -> Result<bool, EditError> {
        self.live(id)?;
        let mut changes = Vec::new();
        for n in self.path(id) {
            let parent = self.nodes[n.index()].parent;
            let mut order = self.child_ids(NodeId(parent));
            if order.first() != Some(&n.0) {
                order.retain(|&c| c != n.0);
                order.insert(0, n.0);
                self.relink(parent, &order, &mut changes);
            }
        }
        let changed = !changes.is_empty();
        self.commit(changes);
        Ok(changed)
    }

    /// Replaces the annotation of `id` with what `edit` makes of it, recording undo when it
    /// changed. Returns whether it changed.
    pub fn edit_annotation(
        &mut self,
        id: NodeId,
        edit: impl FnOnce(&mut Annotation),
    ) -> Result<bool, EditError> {
        self.live(id)?;
        let mut notes = self.annotation(id).clone();
        edit(&mut notes);
        if &notes == self.annotation(id) {
            return Ok(false);
        }
        let notes = (!notes.is_empty()).then(|| Box::new(notes));
        let old = std::mem::replace(&mut self.nodes[id.index()].notes, notes);
        self.commit(vec![Change::Notes {
            node: id.0,
            notes: old,
        }]);
        Ok(true)
    }

    /// Sets the comment after the move `id` (on the root: before the first move).
    pub fn set_comment(&mut self, id: NodeId, text: &str) -> Result<bool, EditError> {
        self.edit_annotation(id, |a| text.clone_into(&mut a.comment))
    }

    /// Sets the comment shown before the move `id`. The root has none: its comment is
    /// already the text before the first move.
    pub fn set_comment_before(&mut self, id: NodeId, text: &str) -> Result<bool, EditError> {
        if id == self.root() {
            return Err(EditError::Root);
        }
        self.edit_annotation(id, |a| text.clone_into(&mut a.comment_before))
    }

    /// Replaces the glyphs of `id`.
    pub fn set_nags(&mut self, id: NodeId, nags: &[Nag]) -> Result<bool, EditError> {
        self.edit_annotation(id, |a| nags.clone_into(&mut a.nags))
    }

    /// Adds `nag` to `id`, or removes it if present. A move carries one assessment
    /// (`!`, `?` …): adding one replaces another.
    pub fn toggle_nag(&mut self, id: NodeId, nag: Nag) -> Result<bool, EditError> {
        self.edit_annotation(id, |a| {
            if a.nags.contains(&nag) {
                a.nags.retain(|&n| n != nag);
            } else {
                if nag.is_move_assessment() {
                    a.nags.retain(|n| !n.is_move_assessment());
                }
                a.nags.push(nag);
            }
        })
    }

    /// Draws `arrow` on `id`; an arrow between the same points is recoloured, or removed
    /// if it already has this colour.
    pub fn toggle_arrow(&mut self, id: NodeId, arrow: Arrow) -> Result<bool, EditError> {
        self.edit_annotation(id, |a| {
            match a
                .arrows
                .iter()
                .position(|x| x.from == arrow.from && x.to == arrow.to)
            {
                Some(i) if a.arrows[i].color == arrow.color => {
                    a.arrows.remove(i);
                }
                Some(i) => a.arrows[i].color = arrow.color,
                None => a.arrows.push(arrow),
            }
        })
    }

    /// Circles a point on `id`; a circled point is recoloured, or uncircled if it already
    /// has this colour.
    pub fn toggle_circle(&mut self, id: NodeId, circle: Circle) -> Result<bool, EditError> {
        self.edit_annotation(id, |a| {
            match a.circles.iter().position(|x| x.at == circle.at) {
                Some(i) if a.circles[i].color == circle.color => {
                    a.circles.remove(i);
                }
                Some(i) => a.circles[i].color = circle.color,
                None => a.circles.push(circle),
            }
        })
    }

    /// Removes every arrow and circle of `id`.
    pub fn clear_marks(&mut self, id: NodeId) -> Result<bool, EditError> {
        self.edit_annotation(id, |a| {
            a.arrows.clear();
            a.circles.clear();
        })
    }

    /// Sets or clears the clock time recorded after `id`.
    pub fn set_clock(&mut self, id: NodeId, clock: Option<Duration>) -> Result<bool, EditError> {
        self.edit_annotation(id, |a| a.clock = clock)
    }

    /// Sets or clears the evaluation recorded after `id`.
    pub fn set_eval(&mut self, id: NodeId, eval: Option<Evaluation>) -> Result<bool, EditError> {
        self.edit_annotation(id, |a| a.eval = eval)
    }

    /// Sets a header (undoable). Returns whether it changed.
    pub fn set_header(&mut self, name: &str, value: &str) -> bool {
        if self.headers.get(name) == Some(value) {
            return false;
        }
        let old = self.headers.clone();
        self.headers.set(name, value);
        self.commit(vec![Change::Headers(old)]);
        true
    }

    /// Removes a header (undoable). Returns whether it was present.
    pub fn remove_header(&mut self, name: &str) -> bool {
        if self.headers.get(name).is_none() {
            return false;
        }
        let old = self.headers.clone();
        self.headers.remove(name);
        self.commit(vec![Change::Headers(old)]);
        true
    }
}

/// The children of a node, main continuation first.
pub struct Children<'a> {
    record: &'a Record,
    next: u32,
}

impl Iterator for Children<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        let id = link(self.next)?;
        self.next = self.record.nodes[id.index()].next_sibling;
        Some(id)
    }
}

impl PartialEq for Record {
    /// Two records are equal when they have the same start position, headers and tree:
    /// the same moves in the same order with the same annotations. Node ids, deleted
    /// nodes and the undo history do not count.
    fn eq(&self, other: &Record) -> bool {
        if self.start != other.start || self.headers != other.headers {
            return false;
        }
        let mut stack = vec![(self.root(), other.root())];
        while let Some((a, b)) = stack.pop() {
            if self.annotation(a) != other.annotation(b) {
                return false;
            }
            let mut ca = self.children(a);
            let mut cb = other.children(b);
            loop {
                match (ca.next(), cb.next()) {
                    (None, None) => break,
                    (Some(x), Some(y)) if self.move_at(x) == other.move_at(y) => {
                        stack.push((x, y));
                    }
                    _ => return false,
                }
            }
        }
        true
    }
}

impl Eq for Record {}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    /// 1. 炮二平五 (1. 兵七进一) 马８进７ (1... 炮８平５) 2. 马二进三
    fn sample() -> (Record, [NodeId; 5]) {
        let mut r = Record::default();
        let root = r.root();
        let a = r.add_move(root, mv("h2e2")).unwrap();
        let b = r.add_move(a, mv("h9g7")).unwrap();
        let c = r.add_move(a, mv("h7e7")).unwrap();
        let d = r.add_move(b, mv("h0g2")).unwrap();
        let e = r.add_move(root, mv("c3c4")).unwrap();
        assert!(r.can_undo());
        r.clear_history();
        (r, [a, b, c, d, e])
    }

    #[test]
    fn navigation() {
        let (r, [a, b, c, d, e]) = sample();
        let root = r.root();
        assert_eq!(r.main_line(), [a, b, d]);
        assert_eq!(r.children(root).collect::<Vec<_>>(), [a, e]);
        assert_eq!(r.parent(c), Some(a));
        assert_eq!(r.parent(root), None);
        assert_eq!(r.next_sibling(b), Some(c));
        assert_eq!(r.previous_sibling(c), Some(b));
        assert_eq!(r.previous_sibling(b), None);
        assert_eq!(r.variation_index(c), 1);
        assert_eq!(r.line_end(root), d);
        assert_eq!(r.line_end(c), c);
        assert_eq!(r.path(d), [a, b, d]);
        assert_eq!(r.ply(d), 3);
        assert_eq!(r.moves_to(c), [mv("h2e2"), mv("h7e7")]);
        assert_eq!(
            r.position_at(c).unwrap().to_string(),
            "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
        );
        assert!(r.is_main_line(d) && !r.is_main_line(c) && !r.is_main_line(e));
        assert_eq!(r.descendants(root), [a, b, d, c, e]);
        assert_eq!((r.move_count(), r.line_count()), (5, 3));
        assert_eq!(r.move_at(root), None);
        assert_eq!(r.move_number(root), None);
        assert_eq!(r.move_number(d).unwrap().to_string(), "2.");
        assert_eq!(r.move_number(c).unwrap().to_string(), "1...");
        assert_eq!(r.position_at(NodeId(99)), None);
        assert!(!r.is_live(NodeId(99)));
    }

    #[test]
    fn adding_an_existing_move_goes_there_and_illegal_moves_are_refused() {
        let (mut r, [a, b, ..]) = sample();
        let root = r.root();
        assert_eq!(r.add_move(a, mv("h9g7")), Ok(b));
        assert!(matches!(
            r.add_move(root, mv("a0a5")),
            Err(EditError::Illegal(_))
        ));
        assert_eq!(
            r.add_move(NodeId(42), mv("h2e2")),
            Err(EditError::UnknownNode(NodeId(42)))
        );
    }

    #[test]
    fn every_edit_undoes_and_redoes() {
        let (mut r, [a, b, c, d, e]) = sample();
        let before = r.clone();
        assert_eq!(r.delete_from(b), Ok(a));
        assert!(!r.is_live(b) && !r.is_live(d));
        assert_eq!(r.children(a).collect::<Vec<_>>(), [c]);
        assert_eq!(r.delete_from(r.root()), Err(EditError::Root));
        assert!(r.undo());
        assert!(r == before && r.is_live(d));
        assert!(r.redo());
        assert!(!r.is_live(b));
        assert!(r.undo());

        assert_eq!(r.promote_variation(e), Ok(true));
        assert_eq!(r.main_child(r.root()), Some(e));
        assert_eq!(r.promote_variation(e), Ok(false));
        assert!(r.undo());
        assert!(r == before);

        assert_eq!(r.make_main_line(c), Ok(true));
        assert_eq!(r.main_line(), [a, c]);
        assert_eq!(r.make_main_line(c), Ok(false));
        assert_eq!(r.make_main_line(e), Ok(true));
        assert_eq!(r.main_line(), [e]);
        r.undo();
        r.undo();
        assert!(r == before);

        r.set_comment(a, "中炮").unwrap();
        r.set_comment_before(c, "或者").unwrap();
        r.toggle_nag(a, Nag::GOOD).unwrap();
        r.toggle_nag(a, Nag::INTERESTING).unwrap();
        assert_eq!(r.annotation(a).nags, [Nag::INTERESTING]);
        r.toggle_nag(a, Nag(14)).unwrap();
        assert_eq!(r.annotation(a).nags, [Nag::INTERESTING, Nag(14)]);
        let arrow = Arrow {
            from: "h2".parse().unwrap(),
            to: "e2".parse().unwrap(),
            color: MarkColor::Green,
        };
        r.toggle_arrow(a, arrow).unwrap();
        r.toggle_arrow(
            a,
            Arrow {
                color: MarkColor::Red,
                ..arrow
            },
        )
        .unwrap();
        assert_eq!(r.annotation(a).arrows[0].color, MarkColor::Red);
        let circle = Circle {
            at: "e7".parse().unwrap(),
            color: MarkColor::Blue,
        };
        r.toggle_circle(a, circle).unwrap();
        r.set_clock(a, Some(Duration::from_secs(300))).unwrap();
        r.set_eval(
            a,
            Some(Evaluation {
                score: Score::Cp(35),
                depth: Some(20),
            }),
        )
        .unwrap();
        assert_eq!(r.set_comment(a, "中炮"), Ok(false));
        assert!(r.set_header(tag::EVENT, "全国赛"));
        assert!(!r.set_header(tag::EVENT, "全国赛"));
        assert!(r.remove_header(tag::EVENT));
        assert_eq!(r.annotation(a).circles, [circle]);
        assert!(r != before);
        while r.undo() {}
        assert!(r == before);
        assert!(r.annotation(a).is_empty());
        while r.redo() {}
        assert_eq!(r.annotation(a).clock, Some(Duration::from_secs(300)));
        assert_eq!(r.annotation(c).comment_before, "或者");
        assert_eq!(r.headers().get(tag::EVENT), None);
        r.undo();
        assert_eq!(r.headers().get(tag::EVENT), Some("全国赛"));
        assert!(r.can_redo());
        // A new edit forgets what could be redone.
        r.clear_marks(a).unwrap();
        assert!(!r.can_redo() && r.can_undo());
        assert!(r.annotation(a).arrows.is_empty() && r.annotation(a).circles.is_empty());
    }

    #[test]
    fn edits_of_deleted_nodes_are_refused() {
        let (mut r, [_, b, _, d, _]) = sample();
        r.delete_from(b).unwrap();
        assert_eq!(r.set_comment(d, "x"), Err(EditError::UnknownNode(d)));
        assert_eq!(r.add_move(d, mv("a9a8")), Err(EditError::UnknownNode(d)));
    }

    #[test]
    fn results_and_nags_read_and_print() {
        for r in [
            GameResult::RedWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unknown,
        ] {
            assert_eq!(r.as_pgn().parse(), Ok(r));
        }
        assert!("2-0".parse::<GameResult>().is_err());
        for n in 1..=6 {
            let nag = Nag(n);
            assert_eq!(Nag::from_glyph(nag.glyph().unwrap()), Some(nag));
        }
        assert_eq!(Nag(10).glyph(), None);
        assert_eq!(Nag(10).to_string(), "$10");
        let mut h = Headers::new();
        h.set("Red", "许银川");
        h.set("Black", "吕钦");
        h.set("Red", "胡荣华");
        assert_eq!(
            h.iter().collect::<Vec<_>>(),
            [("Red", "胡荣华"), ("Black", "吕钦")]
        );
        assert_eq!(h.result(), GameResult::Unknown);
    }

    #[test]
    fn the_rules_judge_a_line_by_its_moves_not_only_its_last_position() {
        // Red's rook checks along whichever rank Black's general steps to.
        let start: Position = "4k4/8R/9/9/9/9/9/9/9/3K5 w - - 0 1".parse().unwrap();
        let mut r = Record::new(start.clone());
        let mut at = r.root();
        let mut checks = Vec::new();
        for _ in 0..2 {
            for m in ["i8i9", "e9e8", "i9i8", "e8e9"] {
                at = r.add_move(at, mv(m)).unwrap();
                checks.push(at);
            }
        }
        // Back at the start for the third time, by checks: Red loses (长将).
        let end = checks[7];
        let outcome = r.outcome_at(end).unwrap();
        assert_eq!(outcome.reason, crate::EndReason::PerpetualCheck);
        assert_eq!(outcome.winner, Some(Color::Black));
        // The same position earlier in the line, and the position itself as a start, are
        // not over.
        assert_eq!(r.position_at(end).unwrap().hash(), start.hash());
        assert_eq!(r.outcome_at(checks[3]), None);
        assert_eq!(Record::new(start).outcome_at(NodeId(0)), None);
        // Red breaks the cycle in a variation: nothing is repeated there.
        let other = r.add_move(checks[5], mv("i9h9")).unwrap();
        assert_eq!(r.outcome_at(other), None);
        assert_eq!(r.side_to_move_at(other), Color::Black);
        assert_eq!(r.side_to_move_at(end), Color::Red);
        assert_eq!(
            r.game_at(end).unwrap().position(),
            &r.position_at(end).unwrap()
        );
    }

    #[test]
    fn a_mate_ends_the_game_for_the_side_that_gave_it() {
        // Black's general steps down; the rook checks along the d file, and e8 faces Red's
        // general.
        let start: Position = "3k5/9/9/9/9/9/9/9/R8/4K4 b - - 0 1".parse().unwrap();
        let mut r = Record::new(start);
        let root = r.root();
        assert_eq!(r.side_to_move_at(root), Color::Black);
        let a = r.add_move(root, mv("d9d8")).unwrap();
        let b = r.add_move(a, mv("a1d1")).unwrap();
        assert_eq!(r.outcome_at(a), None);
        let outcome = r.outcome_at(b).unwrap();
        assert_eq!(outcome.reason, crate::EndReason::Checkmate);
        assert_eq!(outcome.winner, Some(Color::Red));
        assert_eq!(r.side_to_move_at(b), Color::Black);
    }
}

//! ECCO codes (the 2004 edition of the Chinese Chess opening classification, A00–E48) for
//! whole games.
//!
//! ECCO is defined by move sequences, not by positions: 中炮对屏风马 splits into its
//! codes by which of Red's moves comes first beyond the shared opening moves, 顺炮直车对横车
//! by whether both of Red's third and seventh pawns have been pushed, and so on. The table
//! in `assets/library/ecco.ron` therefore holds, besides every code's Chinese names, a
//! *decision tree* over the game's first ten moves (the ECCO horizon), written as data:
//!
//! - `At(at: Black(2), arms, other)`: the move played at one turn chooses an arm;
//! - `Line(at, lines, then, other)`: whether one of the lines was played from that turn on;
//! - `AnyOrder(moves, then, other)`: whether the game's first moves are these, each side's
//!   in any order (the transpositions ECCO allows in its main lines);
//! - `Walk(side, from, to, pass, arms, other, end)`: one side's moves in turn: moves in
//!   `pass` (or whose arm says `Pass`) go by and are remembered, the first other move
//!   decides, by its arm or by `other`; `end` (else `other`) when every move went by;
//! - `Seen(moves, then, other)`: whether the innermost walk went past one of these moves;
//! - `Near(offset, arms, other)`: the move `offset` plies from the walk's current one;
//! - `Use(name)`: a shared subtree of `defs`; `Code(code)`: the answer.
//!
//! Moves are written in Chinese notation from Red's right wing (炮二平五, 马8进7), as ECCO
//! writes them: a game whose first move is played on Red's left wing (files 六 to 九) is
//! turned round first, Black's moves with it. Pieces sharing a file (前车 …) never match a
//! move written with a file number, as in ECCO.

use super::OpeningBook;
use crate::notation::{Notation, format_move};
use crate::{Move, Position};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
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
}

/// A code's one name: the opening, then the variation when there is one.
fn full_name(opening: &str, variation: &str) -> String {
    if variation.is_empty() {
        opening.to_owned()
    } else {
        format!("{opening} {variation}")
    }
}

impl EccoEntry {
    /// The code's name, as every place that shows the code writes it.
    pub fn name(&self) -> String {
        full_name(&self.opening, &self.variation)
    }
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
    /// A move of the rules is not a move of that side in Chinese notation.
    BadMove {
        /// Where it stands: the def's name (or `rules`).
        place: String,
        /// The move's text.
        text: String,
        /// Why.
        reason: String,
    },
    /// The rules name a code the table lacks.
    UnknownCode(String),
    /// `Use` names a def that does not exist, or defs use each other in a circle.
    BadUse(String),
    /// A turn or offset outside the ten moves ECCO looks at.
    BadTurn(String),
}

impl fmt::Display for EccoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EccoError::Syntax(e) => write!(f, "the ECCO file is malformed: {e}"),
            EccoError::BadMove {
                place,
                text,
                reason,
            } => write!(f, "ECCO rules, {place}: move {text:?}: {reason}"),
            EccoError::UnknownCode(c) => write!(f, "ECCO code {c} is not in the table"),
            EccoError::BadUse(n) => write!(f, "ECCO rules: {n}"),
            EccoError::BadTurn(t) => write!(f, "ECCO rules: turn {t} is beyond the tenth move"),
        }
    }
}

impl std::error::Error for EccoError {}

/// A side, for walks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Side {
    /// Red.
    Red,
    /// Black.
    Black,
}

/// A side's n-th move (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Turn {
    /// Red's n-th move.
    Red(usize),
    /// Black's n-th move.
    Black(usize),
}

impl Turn {
    fn new(side: Side, n: usize) -> Turn {
        match side {
            Side::Red => Turn::Red(n),
            Side::Black => Turn::Black(n),
        }
    }

    /// The ply (from 0), `None` for a move 0.
    fn ply(self) -> Option<usize> {
        match self {
            Turn::Red(n) => (2 * n).checked_sub(2),
            Turn::Black(n) => (2 * n).checked_sub(1),
        }
    }
}

/// An arm of a choice: the moves that take it and what follows.
#[derive(Clone, Debug, Deserialize)]
pub struct Arm(pub Vec<String>, pub Rule);

/// A node of the decision tree (see the module documentation).
#[derive(Clone, Debug, Deserialize)]
pub enum Rule {
    /// The answer.
    Code(String),
    /// Inside a walk: the move goes by and is remembered.
    Pass,
    /// A shared subtree.
    Use(String),
    /// The move at one turn chooses.
    At {
        /// The turn.
        at: Turn,
        /// The choices, the first whose moves contain the move played.
        arms: Vec<Arm>,
        /// When none does.
        other: Box<Rule>,
    },
    /// The move some plies from a walk's current move chooses.
    Near {
        /// Plies from the walk's current move (−1: the one before).
        offset: isize,
        /// The choices.
        arms: Vec<Arm>,
        /// When none does.
        other: Box<Rule>,
    },
    /// Whether one of the lines was played from a turn on.
    Line {
        /// Where the lines start.
        at: Turn,
        /// Moves separated by spaces, the two sides alternating.
        lines: Vec<String>,
        /// When one was.
        then: Box<Rule>,
        /// When none was.
        other: Box<Rule>,
    },
    /// Whether the game's first moves are these, each side's in any order.
    AnyOrder {
        /// From the first move, the sides alternating.
        moves: String,
        /// When they are.
        then: Box<Rule>,
        /// When not.
        other: Box<Rule>,
    },
    /// One side's moves in turn.
    Walk {
        /// Whose.
        side: Side,
        /// The first move looked at (from 1).
        from: usize,
        /// The last (inclusive).
        to: usize,
        /// Moves that go by.
        #[serde(default)]
        pass: Vec<String>,
        /// Moves that decide (or, with `Pass`, go by).
        #[serde(default)]
        arms: Vec<Arm>,
        /// When a move is neither.
        other: Box<Rule>,
        /// When every move went by (`other` if not given).
        #[serde(default)]
        end: Option<Box<Rule>>,
    },
    /// Whether the innermost walk went past one of these moves.
    Seen {
        /// The moves.
        moves: Vec<String>,
        /// When it did.
        then: Box<Rule>,
        /// When not.
        other: Box<Rule>,
    },
}

/// The file: the codes, the root of the tree and its shared subtrees.
#[derive(Clone, Debug, Deserialize)]
struct EccoFile {
    codes: Vec<EccoEntry>,
    rules: Rule,
    #[serde(default)]
    defs: BTreeMap<String, Rule>,
}

/// The ECCO table and its rules.
#[derive(Clone, Debug)]
pub struct Ecco {
    /// Every code, in order.
    pub entries: Vec<EccoEntry>,
    rules: Rule,
    defs: BTreeMap<String, Rule>,
}

/// A move written as the rules compare it: Chinese notation with plain digits.
fn key(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '１'..='９' => char::from(b'1' + (c as u32 - '１' as u32) as u8),
            _ => c,
        })
        .collect()
}

/// Whether `text` is a move of `side` as ECCO writes them: piece, file, direction, number,
/// with Red's files and numbers in Chinese numerals and Black's in digits.
fn check_move(text: &str, side: Side) -> Result<(), String> {
    let chars: Vec<char> = key(text).chars().collect();
    let [piece, file, dir, arg] = chars[..] else {
        return Err("not four characters".to_owned());
    };
    let (pieces, numbers): (&str, &str) = match side {
        Side::Red => ("车马炮相仕帅兵", "一二三四五六七八九"),
        Side::Black => ("车马炮象士将卒", "123456789"),
    };
    if !pieces.contains(piece) {
        return Err(format!("{piece} is not a piece of {side:?}"));
    }
    if !numbers.contains(file) || !numbers.contains(arg) {
        return Err(format!("{side:?} numbers are written {numbers}"));
    }
    if !"进退平".contains(dir) {
        return Err(format!("{dir} is not 进, 退 or 平"));
    }
    Ok(())
}

/// A game as the rules see it: its first plies as keys, turned to the right wing.
struct Game {
    moves: Vec<String>,
}

impl Game {
    fn at(&self, ply: usize) -> Option<&str> {
        self.moves.get(ply).map(String::as_str)
    }
}

/// What a rule comes to: a code, or (inside a walk) go on.
enum Outcome<'a> {
    Code(&'a str),
    Pass,
}

/// The innermost walk: where it is and what went by.
struct WalkState<'w> {
    ply: usize,
    seen: &'w [String],
}

/// Whether a first move is played on Red's left wing (files 六–九, a–d), which ECCO turns
/// round.
fn left_wing(m: Move) -> bool {
    m.from.file().index() < 4
}

fn mirrored(m: Move) -> Move {
    Move::new(m.from.mirror(), m.to.mirror())
}

impl Ecco {
    /// Reads the table and its rules from RON, checking every move, code and `Use`. The
    /// opening tree's codes, when given, must be codes of the table.
    pub fn new(text: &str, book: Option<&OpeningBook>) -> Result<Ecco, EccoError> {
        let file: EccoFile = ron::from_str(text).map_err(|e| EccoError::Syntax(e.to_string()))?;
        let ecco = Ecco {
            entries: file.codes,
            rules: file.rules,
            defs: file.defs,
        };
        ecco.check(&ecco.rules, "rules", None, &mut Vec::new())?;
        for (name, rule) in &ecco.defs {
            ecco.check(rule, name, None, &mut vec![name.clone()])?;
        }
        if let Some(book) = book {
            for code in book.nodes.iter().filter_map(|n| n.ecco.as_ref()) {
                if ecco.index(code).is_none() {
                    return Err(EccoError::UnknownCode(code.clone()));
                }
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

    /// Every code the rules can give, in table order.
    pub fn reachable_codes(&self) -> Vec<String> {
        let mut found = HashSet::new();
        let mut stack = vec![&self.rules];
        stack.extend(self.defs.values());
        while let Some(rule) = stack.pop() {
            match rule {
                Rule::Code(c) => {
                    found.insert(c.clone());
                }
                Rule::Pass | Rule::Use(_) => {}
                Rule::At { arms, other, .. } | Rule::Near { arms, other, .. } => {
                    stack.extend(arms.iter().map(|a| &a.1));
                    stack.push(other);
                }
                Rule::Line { then, other, .. }
                | Rule::AnyOrder { then, other, .. }
                | Rule::Seen { then, other, .. } => {
                    stack.push(then);
                    stack.push(other);
                }
                Rule::Walk {
                    arms, other, end, ..
                } => {
                    stack.extend(arms.iter().map(|a| &a.1));
                    stack.push(other);
                    if let Some(end) = end {
                        stack.push(end);
                    }
                }
            }
        }
        self.entries
            .iter()
            .filter(|e| found.contains(&e.code))
            .map(|e| e.code.clone())
            .collect()
    }

    /// Checks a rule: its moves are moves of the right side, its codes in the table, its
    /// turns within the horizon and its `Use`s resolve without a circle. `walk` is the side
    /// of the innermost walk, which `Seen` and `Near` need.
    fn check(
        &self,
        rule: &Rule,
        place: &str,
        walk: Option<Side>,
        uses: &mut Vec<String>,
    ) -> Result<(), EccoError> {
        let bad_move = |text: &str, reason: String| EccoError::BadMove {
            place: place.to_owned(),
            text: text.to_owned(),
            reason,
        };
        let moves = |list: &[String], side: Side| -> Result<(), EccoError> {
            for m in list {
                check_move(m, side).map_err(|r| bad_move(m, r))?;
            }
            Ok(())
        };
        let line = |text: &str, first: usize| -> Result<(), EccoError> {
            for (i, m) in text.split_whitespace().enumerate() {
                let side = if (first + i).is_multiple_of(2) {
                    Side::Red
                } else {
                    Side::Black
                };
                check_move(m, side).map_err(|r| bad_move(m, r))?;
            }
            Ok(())
        };
        let turn = |t: Turn| -> Result<(usize, Side), EccoError> {
            match t.ply() {
                Some(p) if p < HORIZON => Ok((
                    p,
                    if p.is_multiple_of(2) {
                        Side::Red
                    } else {
                        Side::Black
                    },
                )),
                _ => Err(EccoError::BadTurn(format!("{t:?} in {place}"))),
            }
        };
        match rule {
            Rule::Code(c) => {
                if self.index(c).is_none() {
                    return Err(EccoError::UnknownCode(c.clone()));
                }
            }
            Rule::Pass => {
                if walk.is_none() {
                    return Err(EccoError::BadUse(format!("{place}: Pass outside a walk")));
                }
            }
            Rule::Use(name) => {
                if uses.contains(name) {
                    return Err(EccoError::BadUse(format!("{name} uses itself")));
                }
                let Some(def) = self.defs.get(name) else {
                    return Err(EccoError::BadUse(format!("{place}: no def {name}")));
                };
                uses.push(name.clone());
                self.check(def, name, None, uses)?;
                uses.pop();
            }
            Rule::At { at, arms, other } => {
                let (_, side) = turn(*at)?;
                for Arm(list, then) in arms {
                    moves(list, side)?;
                    self.check(then, place, walk, uses)?;
                }
                self.check(other, place, walk, uses)?;
            }
            Rule::Near {
                offset,
                arms,
                other,
            } => {
                let Some(side) = walk else {
                    return Err(EccoError::BadUse(format!("{place}: Near outside a walk")));
                };
                let side = if offset % 2 == 0 {
                    side
                } else if side == Side::Red {
                    Side::Black
                } else {
                    Side::Red
                };
                for Arm(list, then) in arms {
                    moves(list, side)?;
                    self.check(then, place, walk, uses)?;
                }
                self.check(other, place, walk, uses)?;
            }
            Rule::Line {
                at,
                lines,
                then,
                other,
            } => {
                let (ply, _) = turn(*at)?;
                for l in lines {
                    line(l, ply)?;
                }
                self.check(then, place, walk, uses)?;
                self.check(other, place, walk, uses)?;
            }
            Rule::AnyOrder { moves, then, other } => {
                line(moves, 0)?;
                self.check(then, place, walk, uses)?;
                self.check(other, place, walk, uses)?;
            }
            Rule::Walk {
                side,
                from,
                to,
                pass,
                arms,
                other,
                end,
            } => {
                turn(Turn::new(*side, *from))?;
                turn(Turn::new(*side, *to))?;
                moves(pass, *side)?;
                for Arm(list, then) in arms {
                    moves(list, *side)?;
                    self.check(then, place, Some(*side), uses)?;
                }
                self.check(other, place, Some(*side), uses)?;
                if let Some(end) = end {
                    self.check(end, place, Some(*side), uses)?;
                }
            }
            Rule::Seen {
                moves: list,
                then,
                other,
            } => {
                let Some(side) = walk else {
                    return Err(EccoError::BadUse(format!("{place}: Seen outside a walk")));
                };
                moves(list, side)?;
                self.check(then, place, walk, uses)?;
                self.check(other, place, walk, uses)?;
            }
        }
        Ok(())
    }

    fn choose<'a>(
        &'a self,
        arms: &'a [Arm],
        other: &'a Rule,
        played: Option<&str>,
        game: &Game,
        walk: Option<&WalkState>,
    ) -> Outcome<'a> {
        let arm = played.and_then(|m| arms.iter().find(|a| a.0.iter().any(|k| key(k) == m)));
        self.eval(arm.map_or(other, |a| &a.1), game, walk)
    }

    fn eval<'a>(&'a self, rule: &'a Rule, game: &Game, walk: Option<&WalkState>) -> Outcome<'a> {
        match rule {
            Rule::Code(c) => Outcome::Code(c),
            Rule::Pass => Outcome::Pass,
            // Checked when read: the def exists.
            Rule::Use(name) => match self.defs.get(name) {
                Some(def) => self.eval(def, game, None),
                None => Outcome::Code("A00"),
            },
            Rule::At { at, arms, other } => {
                let played = at.ply().and_then(|p| game.at(p));
                self.choose(arms, other, played, game, walk)
            }
            Rule::Near {
                offset,
                arms,
                other,
            } => {
                let played = walk
                    .and_then(|w| w.ply.checked_add_signed(*offset))
                    .and_then(|p| game.at(p));
                self.choose(arms, other, played, game, walk)
            }
            Rule::Line {
                at,
                lines,
                then,
                other,
            } => {
                let start = at.ply().unwrap_or(0);
                let played = lines.iter().any(|l| {
                    l.split_whitespace()
                        .enumerate()
                        .all(|(i, m)| game.at(start + i) == Some(key(m).as_str()))
                });
                self.eval(if played { then } else { other }, game, walk)
            }
            Rule::AnyOrder { moves, then, other } => {
                let wanted: Vec<String> = moves.split_whitespace().map(key).collect();
                let same = |parity: usize| {
                    let mut want: Vec<&str> = wanted
                        .iter()
                        .skip(parity)
                        .step_by(2)
                        .map(String::as_str)
                        .collect();
                    let mut got: Vec<Option<&str>> =
                        (0..want.len()).map(|i| game.at(2 * i + parity)).collect();
                    want.sort_unstable();
                    got.sort_unstable();
                    got.iter().zip(&want).all(|(g, w)| *g == Some(*w))
                };
                self.eval(if same(0) && same(1) { then } else { other }, game, walk)
            }
            Rule::Walk {
                side,
                from,
                to,
                pass,
                arms,
                other,
                end,
            } => {
                let mut seen: Vec<String> = Vec::new();
                for n in *from..=*to {
                    let Some(ply) = Turn::new(*side, n).ply() else {
                        continue;
                    };
                    let played = game.at(ply);
                    let state = WalkState { ply, seen: &seen };
                    let arm =
                        played.and_then(|m| arms.iter().find(|a| a.0.iter().any(|k| key(k) == m)));
                    let goes_by = match arm {
                        Some(Arm(_, then)) => match self.eval(then, game, Some(&state)) {
                            Outcome::Pass => true,
                            code => return code,
                        },
                        None => played.is_some_and(|m| pass.iter().any(|k| key(k) == m)),
                    };
                    if !goes_by {
                        return self.eval(other, game, Some(&state));
                    }
                    seen.push(played.unwrap_or_default().to_owned());
                }
                let state = WalkState {
                    ply: usize::MAX,
                    seen: &seen,
                };
                self.eval(end.as_deref().unwrap_or(other), game, Some(&state))
            }
            Rule::Seen { moves, then, other } => {
                let seen = walk.is_some_and(|w| moves.iter().any(|m| w.seen.contains(&key(m))));
                self.eval(if seen { then } else { other }, game, walk)
            }
        }
    }

    /// The ECCO code of the game from `start` through `moves`: `None` for a game from a
    /// set-up position or without moves.
    pub fn classify(&self, start: &Position, moves: &[Move]) -> Option<Classification> {
        if start.hash() != Position::startpos().hash() || moves.is_empty() {
            return None;
        }
        let flip = left_wing(moves[0]);
        let mut pos = start.clone();
        let mut keys = Vec::new();
        for &m in moves.iter().take(HORIZON) {
            let m = if flip { mirrored(m) } else { m };
            let Ok(next) = pos.play(m) else { break };
            keys.push(key(&format_move(&pos, m, Notation::Chinese)));
            pos = next;
        }
        let game = Game { moves: keys };
        let code = match self.eval(&self.rules, &game, None) {
            Outcome::Code(c) => c,
            Outcome::Pass => "A00",
        };
        let entry = self.entry(code).or_else(|| self.entry("A00"))?;
        Some(Classification {
            code: entry.code.clone(),
            opening: entry.opening.clone(),
            variation: entry.variation.clone(),
        })
    }
}

impl Classification {
    /// The code's name (the same as [`EccoEntry::name`] of its entry).
    pub fn name(&self) -> String {
        full_name(&self.opening, &self.variation)
    }
}

/// The name of `code` in the built-in table.
pub fn name_of(code: &str) -> Option<String> {
    builtin().ok()?.entry(code).map(EccoEntry::name)
}

/// The built-in table, read once (checked against the built-in tree's codes).
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

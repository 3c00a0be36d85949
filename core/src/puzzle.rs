//! Puzzles (残局题): a position, a goal, a solution tree, a title, a source and an author;
//! kept as RON (the app's built-in set and the user's own puzzles) and exchanged as PGN.
//!
//! A solution tree starts with the solver's moves: the side to move's move, then the
//! defender's replies to it (every legal reply when the tree is complete, otherwise the one
//! that holds out longest), each followed by the attacker's answer, and so on down to the
//! mate. [`solution_tree`] builds one from the prover ([`crate::solver`]) and
//! [`check_tree`] walks one independently of it.
//!
//! The RON form of a set:
//!
//! ```text
//! (name: "…", puzzles: [
//!     (id: "…", title: "…", source: "…", author: "…", fen: "…",
//!      goal: Mate(moves: 2, checks_only: false),
//!      solution: [("h2e2", [("e9d9", [("e2e9", [])])])]),
//! ])
//! ```

use crate::pgn::{self, PgnError};
use crate::record::{NodeId, Record};
use crate::ron_error::RonError;
use crate::solver::{SolveOptions, Solver, Verdict};
use crate::{Move, MoveList, Notation, Position, PositionFenError};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What the solver (the side to move at the start) has to achieve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Goal {
    /// Mate (or 困毙) in exactly `moves` moves of the solver, and not fewer; with
    /// `checks_only`, by consecutive checks (连将杀), every solver move giving check.
    Mate {
        /// The solver's moves, the mating one included.
        moves: u32,
        /// Whether every solver move must give check.
        checks_only: bool,
    },
    /// Win (a composition whose end is a won position, not a forced mate in a count).
    Win,
    /// Hold the draw.
    Draw,
}

impl Goal {
    /// The solver's options that prove this goal, for a mate goal.
    pub fn solve_options(self) -> Option<SolveOptions> {
        match self {
            Goal::Mate { moves, checks_only } => Some(if checks_only {
                SolveOptions::checks_only(moves)
            } else {
                SolveOptions::mate_in(moves)
            }),
            Goal::Win | Goal::Draw => None,
        }
    }

    /// The PGN `Goal` tag: `mate 3`, `mate 3 checks`, `win`, `draw`.
    pub fn tag(self) -> String {
        match self {
            Goal::Mate {
                moves,
                checks_only: false,
            } => format!("mate {moves}"),
            Goal::Mate {
                moves,
                checks_only: true,
            } => format!("mate {moves} checks"),
            Goal::Win => "win".into(),
            Goal::Draw => "draw".into(),
        }
    }

    /// Reads a `Goal` tag (see [`Goal::tag`]).
    pub fn from_tag(tag: &str) -> Option<Goal> {
        let words: Vec<&str> = tag.split_whitespace().collect();
        match words.as_slice() {
            ["win"] => Some(Goal::Win),
            ["draw"] => Some(Goal::Draw),
            ["mate", n] => Some(Goal::Mate {
                moves: n.parse().ok().filter(|&n| n > 0)?,
                checks_only: false,
            }),
            ["mate", n, "checks"] => Some(Goal::Mate {
                moves: n.parse().ok().filter(|&n| n > 0)?,
                checks_only: true,
            }),
            _ => None,
        }
    }
}

/// A move of a solution tree and what follows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SolutionNode {
    /// The move.
    pub mv: Move,
    /// The other side's answers (empty after the mating move).
    pub replies: Vec<SolutionNode>,
}

impl SolutionNode {
    /// The number of moves in this subtree, this one included.
    pub fn size(&self) -> usize {
        1 + self.replies.iter().map(SolutionNode::size).sum::<usize>()
    }
}

/// The moves a solution `tree` has for the side to move after `moves` (played from the
/// tree's start), if the moves follow the tree: the solver's choices, or the defences.
pub fn tree_after<'a>(tree: &'a [SolutionNode], moves: &[Move]) -> Option<&'a [SolutionNode]> {
    let mut nodes = tree;
    for m in moves {
        nodes = &nodes.iter().find(|n| n.mv == *m)?.replies;
    }
    Some(nodes)
}

/// What a solution tree makes of a move of the solver's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeAnswer {
    /// The tree does not play this move here (or the moves so far left the tree).
    Wrong,
    /// Right: the tree's defence is this reply, and the solver moves again after it.
    Reply(Move),
    /// Right, and the solution ends: after this last reply, or with the move itself.
    Solved(Option<Move>),
}

/// Judges the solver's move `mv` after `moves` by the solution `tree`: the tree's first
/// reply to it is the defence played.
pub fn tree_answer(tree: &[SolutionNode], moves: &[Move], mv: Move) -> TreeAnswer {
    let Some(node) = tree_after(tree, moves).and_then(|nodes| nodes.iter().find(|n| n.mv == mv))
    else {
        return TreeAnswer::Wrong;
    };
    match node.replies.first() {
        Some(reply) if !reply.replies.is_empty() => TreeAnswer::Reply(reply.mv),
        Some(reply) => TreeAnswer::Solved(Some(reply.mv)),
        None => TreeAnswer::Solved(None),
    }
}

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// A name unique in its set (progress is kept by it).
    pub id: String,
    /// Its title.
    pub title: String,
    /// Where it comes from (book, game, file).
    pub source: String,
    /// Who composed it, when known.
    pub author: String,
    /// The position; the side to move is the solver.
    pub position: Position,
    /// What the solver must achieve.
    pub goal: Goal,
    /// The solver's first moves with what follows (usually one).
    pub solution: Vec<SolutionNode>,
}

/// A named list of puzzles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleSet {
    /// The set's name.
    pub name: String,
    /// Its puzzles.
    pub puzzles: Vec<Puzzle>,
}

/// Why a puzzle could not be read: which puzzle, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleError {
    /// The puzzle's id, or its place in the file (`#3`) when it has none yet.
    pub puzzle: String,
    /// What was wrong.
    pub kind: PuzzleErrorKind,
}

/// What was wrong with a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleErrorKind {
    /// The RON text does not have the puzzle shape: where and why.
    Syntax(RonError),
    /// The FEN is not a legal position.
    Fen(PositionFenError),
    /// A solution move is not ICCS (`h2e2`); `path` lists the moves before it.
    BadMove {
        /// The moves before it.
        path: Vec<String>,
        /// The text.
        text: String,
    },
    /// A solution move is not legal where it stands.
    IllegalMove {
        /// The moves before it.
        path: Vec<String>,
        /// The move.
        mv: String,
    },
    /// A PGN game has no start position, so it cannot be a puzzle.
    NoPosition,
    /// A PGN `Goal` tag that is not `mate N`, `mate N checks`, `win` or `draw`.
    BadGoal(String),
    /// The PGN could not be read (boxed: it is far larger than the other kinds).
    Pgn(Box<PgnError>),
    /// The built-in checkmate library does not read (its tests keep this from shipping).
    Library(String),
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "puzzle {}: ", self.puzzle)?;
        match &self.kind {
            PuzzleErrorKind::Syntax(e) => write!(f, "{e}"),
            PuzzleErrorKind::Fen(e) => write!(f, "bad FEN: {e}"),
            PuzzleErrorKind::BadMove { path, text } => {
                write!(f, "{text:?} after [{}] is not a move", path.join(" "))
            }
            PuzzleErrorKind::IllegalMove { path, mv } => {
                write!(f, "{mv} after [{}] is illegal", path.join(" "))
            }
            PuzzleErrorKind::NoPosition => write!(f, "the game has no FEN start position"),
            PuzzleErrorKind::BadGoal(g) => write!(f, "unknown goal {g:?}"),
            PuzzleErrorKind::Pgn(e) => write!(f, "{e}"),
            PuzzleErrorKind::Library(m) => write!(f, "built-in library: {m}"),
        }
    }
}

impl std::error::Error for PuzzleError {}

// ----- RON -----

/// A solution node as stored: the move in ICCS and its replies.
#[derive(Serialize, Deserialize)]
struct RawNode(String, Vec<RawNode>);

#[derive(Serialize, Deserialize)]
struct RawPuzzle {
    id: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    source: String,
    #[serde(default)]
    author: String,
    fen: String,
    goal: Goal,
    #[serde(default)]
    solution: Vec<RawNode>,
}

#[derive(Serialize, Deserialize)]
struct RawSet {
    #[serde(default)]
    name: String,
    puzzles: Vec<RawPuzzle>,
}

fn raw_nodes(nodes: &[SolutionNode]) -> Vec<RawNode> {
    nodes
        .iter()
        .map(|n| RawNode(n.mv.to_string(), raw_nodes(&n.replies)))
        .collect()
}

/// Reads stored nodes at `pos`, checking each move is legal there.
fn cooked_nodes(
    id: &str,
    pos: &Position,
    raw: Vec<RawNode>,
    path: &mut Vec<String>,
) -> Result<Vec<SolutionNode>, PuzzleError> {
    let mut nodes = Vec::with_capacity(raw.len());
    for RawNode(text, replies) in raw {
        let error = |kind| PuzzleError {
            puzzle: id.to_owned(),
            kind,
        };
        let mv: Move = text.parse().map_err(|_| {
            error(PuzzleErrorKind::BadMove {
                path: path.clone(),
                text: text.clone(),
            })
        })?;
        let next = pos.play(mv).map_err(|_| {
            error(PuzzleErrorKind::IllegalMove {
                path: path.clone(),
                mv: text.clone(),
            })
        })?;
        path.push(text);
        let replies = cooked_nodes(id, &next, replies, path)?;
        path.pop();
        nodes.push(SolutionNode { mv, replies });
    }
    Ok(nodes)
}

impl Puzzle {
    fn to_raw(&self) -> RawPuzzle {
        RawPuzzle {
            id: self.id.clone(),
            title: self.title.clone(),
            source: self.source.clone(),
            author: self.author.clone(),
            fen: self.position.to_string(),
            goal: self.goal,
            solution: raw_nodes(&self.solution),
        }
    }

    fn from_raw(raw: RawPuzzle) -> Result<Puzzle, PuzzleError> {
        let position: Position = raw.fen.parse().map_err(|e: PositionFenError| PuzzleError {
            puzzle: raw.id.clone(),
            kind: PuzzleErrorKind::Fen(e),
        })?;
        let solution = cooked_nodes(&raw.id, &position, raw.solution, &mut Vec::new())?;
        Ok(Puzzle {
            id: raw.id,
            title: raw.title,
            source: raw.source,
            author: raw.author,
            position,
            goal: raw.goal,
            solution,
        })
    }

    /// The puzzle as RON.
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(&self.to_raw(), pretty()).unwrap_or_else(|e| format!("// {e}"))
    }

    /// Reads a puzzle from RON, checking its FEN and every solution move.
    pub fn from_ron(text: &str) -> Result<Puzzle, PuzzleError> {
        let raw: RawPuzzle = ron::from_str(text).map_err(|e| PuzzleError {
            puzzle: "#1".into(),
            kind: PuzzleErrorKind::Syntax(RonError::from(&e)),
        })?;
        Puzzle::from_raw(raw)
    }

    /// The solution's main line: the first move, each time the first reply.
    pub fn main_line(&self) -> Vec<Move> {
        let mut line = Vec::new();
        let mut nodes = &self.solution;
        while let Some(first) = nodes.first() {
            line.push(first.mv);
            nodes = &first.replies;
        }
        line
    }

    /// The puzzle as a game record: the position, the solution as moves and variations, and
    /// the headers `Event` (the title), `Source`, `Author`, `Goal` and `PuzzleId`.
    pub fn to_record(&self) -> Record {
        let mut record = Record::new(self.position.clone());
        for (name, value) in [
            ("Event", self.title.as_str()),
            ("Source", self.source.as_str()),
            ("Author", self.author.as_str()),
            ("PuzzleId", self.id.as_str()),
        ] {
            if !value.is_empty() {
                record.set_header(name, value);
            }
        }
        record.set_header("Goal", &self.goal.tag());
        fn add(record: &mut Record, at: NodeId, nodes: &[SolutionNode]) {
            for node in nodes {
                if let Ok(child) = record.add_move(at, node.mv) {
                    add(record, child, &node.replies);
                }
            }
        }
        let root = record.root();
        add(&mut record, root, &self.solution);
        record.clear_history();
        record
    }

    /// A puzzle from a game record (see [`Puzzle::to_record`]). Without a `Goal` tag, a
    /// main line ending in a position with no legal move is a mate in its length, anything
    /// else a win. `fallback_id` names a record without `PuzzleId`.
    pub fn from_record(record: &Record, fallback_id: &str) -> Result<Puzzle, PuzzleError> {
        let headers = record.headers();
        let id = headers
            .get("PuzzleId")
            .filter(|s| !s.is_empty())
            .unwrap_or(fallback_id)
            .to_owned();
        let error = |kind| PuzzleError {
            puzzle: id.clone(),
            kind,
        };
        if headers.get("FEN").is_none() && record.start() == &Position::startpos() {
            return Err(error(PuzzleErrorKind::NoPosition));
        }
        let goal = match headers.get("Goal") {
            Some(tag) => {
                Goal::from_tag(tag).ok_or_else(|| error(PuzzleErrorKind::BadGoal(tag.into())))?
            }
            None => {
                let line = record.main_line_moves();
                let mut pos = record.start().clone();
                for &m in &line {
                    pos.play_unchecked(m);
                }
                if !line.is_empty() && line.len() % 2 == 1 && !pos.has_legal_move() {
                    Goal::Mate {
                        moves: line.len().div_ceil(2) as u32,
                        checks_only: false,
                    }
                } else {
                    Goal::Win
                }
            }
        };
        fn nodes(record: &Record, at: NodeId) -> Vec<SolutionNode> {
            record
                .children(at)
                .filter_map(|c| {
                    Some(SolutionNode {
                        mv: record.move_at(c)?,
                        replies: nodes(record, c),
                    })
                })
                .collect()
        }
        let title = headers.get("Event").unwrap_or_default().to_owned();
        Ok(Puzzle {
            title,
            source: headers.get("Source").unwrap_or_default().to_owned(),
            author: headers.get("Author").unwrap_or_default().to_owned(),
            position: record.start().clone(),
            goal,
            solution: nodes(record, record.root()),
            id,
        })
    }
}

fn pretty() -> ron::ser::PrettyConfig {
    // One puzzle per few lines: the solution trees nest deeply, so no indentation.
    ron::ser::PrettyConfig::new()
        .depth_limit(2)
        .struct_names(false)
}

impl PuzzleSet {
    /// The set as RON.
    pub fn to_ron(&self) -> String {
        let raw = RawSet {
            name: self.name.clone(),
            puzzles: self.puzzles.iter().map(Puzzle::to_raw).collect(),
        };
        ron::ser::to_string_pretty(&raw, pretty()).unwrap_or_else(|e| format!("// {e}"))
    }

    /// Reads a set from RON, checking every puzzle's FEN and solution moves.
    pub fn from_ron(text: &str) -> Result<PuzzleSet, PuzzleError> {
        let raw: RawSet = ron::from_str(text).map_err(|e| PuzzleError {
            puzzle: "(set)".into(),
            kind: PuzzleErrorKind::Syntax(RonError::from(&e)),
        })?;
        let puzzles = raw
            .puzzles
            .into_iter()
            .map(Puzzle::from_raw)
            .collect::<Result<_, _>>()?;
        Ok(PuzzleSet {
            name: raw.name,
            puzzles,
        })
    }

    /// The puzzles as PGN games, one each, moves in `notation`.
    pub fn to_pgn(&self, notation: Notation) -> String {
        let mut out = String::new();
        for puzzle in &self.puzzles {
            pgn::write_game(&puzzle.to_record(), notation, &mut out);
        }
        out
    }

    /// The puzzles of a PGN text: one per game that has a start position, and the problems
    /// of the games that could not be read.
    pub fn from_pgn(name: &str, text: &str) -> (PuzzleSet, Vec<PuzzleError>) {
        let mut puzzles = Vec::new();
        let mut errors = Vec::new();
        for (i, game) in pgn::read_games(text).enumerate() {
            let fallback = format!("{name}-{}", i + 1);
            match game {
                Ok(record) => match Puzzle::from_record(&record, &fallback) {
                    Ok(p) => puzzles.push(p),
                    Err(e) => errors.push(e),
                },
                Err(e) => errors.push(PuzzleError {
                    puzzle: fallback,
                    kind: PuzzleErrorKind::Pgn(Box::new(e)),
                }),
            }
        }
        (
            PuzzleSet {
                name: name.to_owned(),
                puzzles,
            },
            errors,
        )
    }
}

// ----- Proofs -----

/// Proves `goal` (a mate goal) for `pos`: the shortest mate within the goal's moves, which
/// must take exactly that many, or why not.
pub fn prove(solver: &mut Solver, pos: &Position, goal: Goal) -> Result<(), String> {
    let Some(opts) = goal.solve_options() else {
        return Err("only mate goals can be proved".into());
    };
    let s = solver.solve(pos, &opts);
    match s.verdict {
        Verdict::Mate(k) if k == opts.max_moves => Ok(()),
        Verdict::Mate(k) => Err(format!("mates in {k}, not {}", opts.max_moves)),
        Verdict::NoMate => Err(format!("no mate within {}", opts.max_moves)),
        Verdict::Unknown { searched } => Err(format!("unknown beyond {searched}")),
    }
}

/// The solution tree of a mate in `moves` (proved) from `pos` within `opts`' quiet-move
/// budget: the solver's shortest mating move at each of its turns; at the defender's turns
/// every reply while the tree stays within `max_nodes` moves, else only the main line
/// (the reply that holds out longest).
pub fn solution_tree(
    solver: &mut Solver,
    pos: &Position,
    opts: &SolveOptions,
    max_nodes: usize,
) -> Vec<SolutionNode> {
    let mut budget = max_nodes;
    if let Some(tree) = full_tree(solver, pos, opts, opts.max_moves, &mut budget) {
        return vec![tree];
    }
    let s = solver.solve(pos, opts);
    let mut nodes: Vec<SolutionNode> = Vec::new();
    for &m in s.line.iter().rev() {
        nodes = vec![SolutionNode {
            mv: m,
            replies: nodes,
        }];
    }
    nodes
}

/// The full tree (every defence) of the attacker's shortest mate within `moves` from
/// `pos`, or `None` when there is none or it would pass the budget.
fn full_tree(
    solver: &mut Solver,
    pos: &Position,
    opts: &SolveOptions,
    moves: u32,
    budget: &mut usize,
) -> Option<SolutionNode> {
    let s = solver.solve(
        pos,
        &SolveOptions {
            max_moves: moves,
            ..*opts
        },
    );
    let k = s.mate_in()?;
    let &mv = s.line.first()?;
    *budget = budget.checked_sub(1)?;
    let mut after = pos.clone();
    after.play_unchecked(mv);
    let mut replies = Vec::new();
    if k > 1 {
        for r in after.legal_moves().iter() {
            *budget = budget.checked_sub(1)?;
            let mut next = after.clone();
            next.play_unchecked(*r);
            let answer = full_tree(solver, &next, opts, k - 1, budget)?;
            replies.push(SolutionNode {
                mv: *r,
                replies: vec![answer],
            });
        }
    }
    Some(SolutionNode { mv, replies })
}

/// Walks a mate puzzle's solution tree without the solver: every move legal, every
/// solver move a check when the goal asks for checks only, every line ending with the
/// defender to move and no legal move within the goal's count, and where the tree gives
/// more than one defence, every legal defence given. Returns whether the tree was
/// complete (every defence everywhere) or an error saying where it fails.
pub fn check_tree(puzzle: &Puzzle) -> Result<bool, String> {
    let Goal::Mate { moves, checks_only } = puzzle.goal else {
        return Err("not a mate goal".into());
    };
    if puzzle.solution.is_empty() {
        return Err("no solution".into());
    }
    let mut complete = true;
    for node in &puzzle.solution {
        check_attacker(
            &puzzle.position,
            node,
            moves,
            checks_only,
            &mut complete,
            &mut Vec::new(),
        )?;
    }
    Ok(complete)
}

fn check_attacker(
    pos: &Position,
    node: &SolutionNode,
    moves: u32,
    checks_only: bool,
    complete: &mut bool,
    path: &mut Vec<Move>,
) -> Result<(), String> {
    let at = |path: &[Move]| {
        path.iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    if moves == 0 {
        return Err(format!("longer than the goal after [{}]", at(path)));
    }
    let after = pos
        .play(node.mv)
        .map_err(|_| format!("{} illegal after [{}]", node.mv, at(path)))?;
    if checks_only && !after.is_check() {
        return Err(format!("{} is not a check after [{}]", node.mv, at(path)));
    }
    path.push(node.mv);
    let mut legal = MoveList::new();
    after.legal_moves_into(&mut legal);
    if legal.is_empty() {
        path.pop();
        return Ok(());
    }
    if node.replies.is_empty() {
        return Err(format!("the line [{}] ends before the mate", at(path)));
    }
    if node.replies.len() > 1 || legal.len() == 1 {
        if node.replies.len() != legal.len() {
            return Err(format!("defences missing after [{}]", at(path)));
        }
    } else {
        *complete = false;
    }
    for reply in &node.replies {
        let next = after
            .play(reply.mv)
            .map_err(|_| format!("{} illegal after [{}]", reply.mv, at(path)))?;
        path.push(reply.mv);
        if reply.replies.len() != 1 {
            return Err(format!("no single answer after [{}]", at(path)));
        }
        check_attacker(
            &next,
            &reply.replies[0],
            moves - 1,
            checks_only,
            complete,
            path,
        )?;
        path.pop();
    }
    path.pop();
    Ok(())
}

// ----- The checkmate patterns as puzzles -----

/// The 36 checkmate patterns' positions (the library's, each already proved by its test) as
/// a puzzle set: the attacker to move, mate in the example's length, its line as the
/// solution (the defences along it hold out longest; the solver answers any other).
pub fn pattern_set() -> Result<PuzzleSet, PuzzleError> {
    let library = crate::library::patterns::library().map_err(|e| PuzzleError {
        puzzle: "patterns".into(),
        kind: PuzzleErrorKind::Library(e.to_string()),
    })?;
    let mut puzzles = Vec::new();
    for pattern in library {
        for (k, example) in pattern.examples.iter().enumerate() {
            let id = format!("pattern-{}-{}", pattern.id, k + 1);
            let invalid = |why: String| PuzzleError {
                puzzle: id.clone(),
                kind: PuzzleErrorKind::Library(why),
            };
            let (position, moves) = crate::library::patterns::replay(example).map_err(invalid)?;
            let mut solution: Vec<SolutionNode> = Vec::new();
            for &mv in moves.iter().rev() {
                solution = vec![SolutionNode {
                    mv,
                    replies: solution,
                }];
            }
            puzzles.push(Puzzle {
                title: format!("{} {}", pattern.names.zh_cn, k + 1),
                id,
                source: example.source.clone(),
                author: String::new(),
                position,
                goal: Goal::Mate {
                    moves: example.mate_in,
                    checks_only: false,
                },
                solution,
            });
        }
    }
    Ok(PuzzleSet {
        name: "patterns".into(),
        puzzles,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mate_in_two() -> Puzzle {
        // Two rooks against a bare general: a ladder mate in two, proved below.
        let position: Position = "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1".parse().unwrap();
        let mut solver = Solver::new(16);
        let opts = SolveOptions::mate_in(3);
        let s = solver.solve(&position, &opts);
        let k = s.mate_in().expect("a mate");
        let opts = SolveOptions::mate_in(k);
        Puzzle {
            id: "t1".into(),
            title: "两车杀".into(),
            source: "test".into(),
            author: String::new(),
            solution: solution_tree(&mut solver, &position, &opts, 400),
            position,
            goal: Goal::Mate {
                moves: k,
                checks_only: false,
            },
        }
    }

    #[test]
    fn a_puzzle_round_trips_through_ron_and_pgn_and_its_tree_checks() {
        let puzzle = mate_in_two();
        assert!(check_tree(&puzzle).is_ok(), "{:?}", check_tree(&puzzle));
        let mut solver = Solver::new(16);
        assert_eq!(prove(&mut solver, &puzzle.position, puzzle.goal), Ok(()));
        let back = Puzzle::from_ron(&puzzle.to_ron()).unwrap();
        assert_eq!(back, puzzle);
        let set = PuzzleSet {
            name: "s".into(),
            puzzles: vec![puzzle.clone()],
        };
        assert_eq!(PuzzleSet::from_ron(&set.to_ron()).unwrap(), set);
        let (read, errors) = PuzzleSet::from_pgn("s", &set.to_pgn(Notation::Chinese));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(read.puzzles, set.puzzles);
    }

    #[test]
    fn a_wrong_goal_or_a_broken_tree_is_refused() {
        let mut puzzle = mate_in_two();
        let Goal::Mate { moves, .. } = puzzle.goal else {
            unreachable!()
        };
        let mut solver = Solver::new(16);
        let longer = Goal::Mate {
            moves: moves + 1,
            checks_only: false,
        };
        assert!(prove(&mut solver, &puzzle.position, longer).is_err());
        // Cut the tree before the mate.
        puzzle.solution[0].replies.clear();
        assert!(check_tree(&puzzle).is_err());
    }

    #[test]
    fn bad_ron_says_which_puzzle_and_why() {
        let text = r#"(id: "x", fen: "3k5/9/9/9/9/9/9/9/9/4K4 w", goal: Win, solution: [("e0e1", [("z9z9", [])])])"#;
        let e = Puzzle::from_ron(text).unwrap_err();
        assert_eq!(e.puzzle, "x");
        assert!(matches!(e.kind, PuzzleErrorKind::BadMove { ref text, .. } if text == "z9z9"));
        let text =
            r#"(id: "y", fen: "3k5/9/9/9/9/9/9/9/9/4K4 w", goal: Win, solution: [("e0e2", [])])"#;
        assert!(matches!(
            Puzzle::from_ron(text).unwrap_err().kind,
            PuzzleErrorKind::IllegalMove { .. }
        ));
        assert!(matches!(
            Puzzle::from_ron("(id: 3)").unwrap_err().kind,
            PuzzleErrorKind::Syntax(_)
        ));
        assert!(matches!(
            Puzzle::from_ron(r#"(id: "z", fen: "9/9 w", goal: Win)"#)
                .unwrap_err()
                .kind,
            PuzzleErrorKind::Fen(_)
        ));
    }

    #[test]
    fn a_puzzle_file_that_is_not_ron_says_where() {
        let text = "(\n  id: \"x\",\n  fen: \"3k5/9/9/9/9/9/9/9/9/4K4 w\",\n  goal: Winn,\n)";
        match Puzzle::from_ron(text).unwrap_err().kind {
            PuzzleErrorKind::Syntax(e) => {
                assert_eq!(e.line, 4);
                assert_eq!(
                    e.kind,
                    crate::ron_error::RonErrorKind::UnknownVariant("Winn".into())
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn goal_tags_round_trip() {
        for goal in [
            Goal::Win,
            Goal::Draw,
            Goal::Mate {
                moves: 3,
                checks_only: true,
            },
            Goal::Mate {
                moves: 1,
                checks_only: false,
            },
        ] {
            assert_eq!(Goal::from_tag(&goal.tag()), Some(goal));
        }
        assert_eq!(Goal::from_tag("mate 0"), None);
        assert_eq!(Goal::from_tag("checkmate"), None);
    }

    #[test]
    fn a_solution_tree_is_followed_move_by_move() {
        let node = |m: &str, replies| SolutionNode {
            mv: m.parse().unwrap(),
            replies,
        };
        let mv = |m: &str| m.parse::<Move>().unwrap();
        // a1 answered by b1 (then c1 ends it) or b2 (then c2, answered by d2 which ends
        // it); a3 ends the solution at once.
        let tree = vec![
            node(
                "a0a1",
                vec![
                    node("b9b8", vec![node("a1a2", vec![])]),
                    node("b9b7", vec![node("a1a3", vec![node("b7b6", vec![])])]),
                ],
            ),
            node("a0a3", vec![]),
        ];
        assert_eq!(tree_after(&tree, &[]), Some(&tree[..]));
        let after_b2 = tree_after(&tree, &[mv("a0a1"), mv("b9b7")]).unwrap();
        assert_eq!(after_b2.len(), 1);
        assert_eq!(after_b2[0].mv, mv("a1a3"));
        assert_eq!(tree_after(&tree, &[mv("a0a2")]), None);
        // The first reply is the defence; a reply the tree ends after ends the solution.
        assert_eq!(
            tree_answer(&tree, &[], mv("a0a1")),
            TreeAnswer::Reply(mv("b9b8"))
        );
        assert_eq!(
            tree_answer(&tree, &[], mv("a0a3")),
            TreeAnswer::Solved(None)
        );
        assert_eq!(tree_answer(&tree, &[], mv("a0a2")), TreeAnswer::Wrong);
        let moves = [mv("a0a1"), mv("b9b8")];
        assert_eq!(
            tree_answer(&tree, &moves, mv("a1a2")),
            TreeAnswer::Solved(None)
        );
        assert_eq!(tree_answer(&tree, &moves, mv("a1a3")), TreeAnswer::Wrong);
        let moves = [mv("a0a1"), mv("b9b7")];
        assert_eq!(
            tree_answer(&tree, &moves, mv("a1a3")),
            TreeAnswer::Solved(Some(mv("b7b6")))
        );
        // Off the tree, nothing is right.
        assert_eq!(
            tree_answer(&tree, &[mv("a0a3"), mv("b9b8")], mv("a1a2")),
            TreeAnswer::Wrong
        );
    }
}

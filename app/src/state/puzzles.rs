//! Puzzles in the app: the built-in sets and the user's own (one RON file per puzzle in a
//! directory per collection, under the data directory), the progress kept on each, and
//! solve mode, where the user plays the solving side and the solver answers with the best
//! defence, judging each move in the background.

use chuhe_core::puzzle::{
    Goal, Puzzle, PuzzleSet, SolutionNode, TreeAnswer, tree_after, tree_answer,
};
use chuhe_core::solver::SolveOptions;
use chuhe_core::{Move, Position};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// The built-in sets, as the `make_puzzles` example of the core generated them.
pub const BUILT_IN: [&str; 2] = [
    include_str!("../../../assets/puzzles/wukong.ron"),
    include_str!("../../../assets/puzzles/shiqingyaqu.ron"),
];

/// How long the solver may think about one move of the user's, or one defence.
const JUDGE_TIME: Duration = Duration::from_secs(20);

/// The built-in puzzle sets: the generated ones and the checkmate patterns' positions.
pub fn built_in() -> Vec<PuzzleSet> {
    BUILT_IN
        .iter()
        // The sets are checked by the tests; one that fails to read is left out.
        .filter_map(|text| PuzzleSet::from_ron(text).ok())
        .chain(chuhe_core::puzzle::pattern_set().ok())
        .collect()
}

/// A set of puzzles as the app holds it.
#[derive(Clone, Debug)]
pub struct LoadedSet {
    /// The puzzles.
    pub set: PuzzleSet,
    /// The user's collection directory (none for a built-in set).
    pub dir: Option<PathBuf>,
}

impl LoadedSet {
    /// The name progress is kept under: the user's collections apart from the built-in
    /// sets, whatever their directories are called.
    pub fn progress_name(&self) -> String {
        match self.dir {
            None => self.set.name.clone(),
            Some(_) => format!("mine/{}", self.set.name),
        }
    }
}

/// What the user has done with one puzzle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PuzzleProgress {
    /// Solved at least once.
    pub solved: bool,
    /// The last attempt had a wrong move or a hint (or was given up).
    pub missed: bool,
    /// Attempts started.
    pub attempts: u32,
}

/// Progress on every puzzle, by set name and puzzle id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    /// `set/id` → progress.
    pub puzzles: BTreeMap<String, PuzzleProgress>,
}

impl Progress {
    /// The key of a puzzle.
    pub fn key(set: &str, id: &str) -> String {
        format!("{set}/{id}")
    }

    /// The progress on a puzzle.
    pub fn get(&self, set: &str, id: &str) -> PuzzleProgress {
        self.puzzles
            .get(&Progress::key(set, id))
            .cloned()
            .unwrap_or_default()
    }

    /// The order to replay a set in: the missed puzzles first, then those not solved yet,
    /// then the rest, each group in the set's order.
    pub fn replay_order(&self, name: &str, set: &PuzzleSet) -> Vec<usize> {
        let rank = |p: &Puzzle| {
            let progress = self.get(name, &p.id);
            if progress.missed {
                0
            } else if !progress.solved {
                1
            } else {
                2
            }
        };
        let mut order: Vec<usize> = (0..set.puzzles.len()).collect();
        order.sort_by_key(|&i| rank(&set.puzzles[i]));
        order
    }
}

pub use chuhe_core::solver::{Judgement, Refutation, Wrong};

/// Where a solve is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The user's turn.
    YourMove,
    /// The solver is judging the user's move.
    Judging(Move),
    /// The puzzle is solved.
    Solved,
}

/// A message of solve mode, put into words when drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveMessage {
    /// The move was right; the defence was played.
    Right(Move),
    /// The move was wrong (taken back), and why.
    Wrong(Move, Wrong),
    /// The solver could not decide in time.
    Unknown,
    /// Solved.
    Solved,
    /// Goal is not a mate: solve mode needs one.
    NotAMate,
}

/// A puzzle being solved.
pub struct SolveSession {
    /// The set's index in the library.
    pub set: usize,
    /// The puzzle's index in its set.
    pub index: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The puzzles still to do after this one (set indices), for replaying a set.
    pub queue: Vec<usize>,
    /// Positions so far (the first is the puzzle's), the last on the board.
    pub positions: Vec<Position>,
    /// Moves played so far.
    pub moves: Vec<Move>,
    /// The solver's moves left to mate.
    pub moves_left: u32,
    /// Where the solve is.
    pub phase: Phase,
    /// The last message.
    pub message: Option<SolveMessage>,
    /// The piece picked up by a click.
    pub selected: Option<Square>,
    /// 0: no hint; 1: the piece shown; 2: the move shown.
    pub hint_level: u8,
    /// A winning move in the position on the board, once known.
    pub hint: Option<Move>,
    /// Whether a wrong move was tried or a hint taken.
    pub missed: bool,
    /// Whether the user had solved this puzzle before this attempt.
    pub solved_before: bool,
    /// Whether the outcome of this attempt has gone into the progress.
    pub recorded: bool,
    /// Whether the solver is looking for a winning move for the hint.
    pub hint_searching: bool,
}

/// What the solver is asked to work out in the background for solve mode.
#[derive(Clone, Debug, PartialEq)]
pub enum SolveRequest {
    /// A winning move in `position` (for the hint).
    Hint {
        /// The position on the board.
        position: Position,
        /// The hashes of the positions before it, for repetitions.
        history: Vec<u64>,
        /// The solver's options.
        options: SolveOptions,
    },
    /// Whether the user's move `m` in `position` keeps the mate in `moves_left`.
    Judge {
        /// The position on the board.
        position: Position,
        /// The hashes of the positions so far, `position` last.
        history: Vec<u64>,
        /// The user's move.
        m: Move,
        /// The solver's moves left to mate.
        moves_left: u32,
        /// The solver's options.
        options: SolveOptions,
    },
}

use chuhe_core::Square;

impl SolveSession {
    /// Starts solving `puzzle`.
    /// (The hint is then to be found: [`SolveSession::find_hint`].)
    pub fn new(set: usize, index: usize, puzzle: Puzzle, queue: Vec<usize>) -> SolveSession {
        let moves_left = match puzzle.goal {
            Goal::Mate { moves, .. } => moves,
            Goal::Win | Goal::Draw => 0,
        };
        let mut session = SolveSession {
            set,
            index,
            positions: vec![puzzle.position.clone()],
            puzzle,
            queue,
            moves: Vec::new(),
            moves_left,
            phase: Phase::YourMove,
            message: None,
            selected: None,
            hint_level: 0,
            hint: None,
            missed: false,
            solved_before: false,
            recorded: false,
            hint_searching: false,
        };
        if moves_left == 0 && session.puzzle.solution.is_empty() {
            session.message = Some(SolveMessage::NotAMate);
        }
        session
    }

    /// The position on the board.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.puzzle.position)
    }

    pub fn options(&self, moves: u32) -> SolveOptions {
        let checks_only = matches!(
            self.puzzle.goal,
            Goal::Mate {
                checks_only: true,
                ..
            }
        );
        SolveOptions {
            max_moves: moves,
            quiet_moves: checks_only.then_some(0),
            time_limit: Some(JUDGE_TIME),
        }
    }

    /// The solution tree's node for the attacker's next move, if the moves so far follow it.
    pub fn tree_move(&self) -> Option<Move> {
        self.tree_nodes()?.first().map(|n| n.mv)
    }

    /// The solution tree's moves for the solver at this point, if the moves so far follow it.
    pub fn tree_nodes(&self) -> Option<&[SolutionNode]> {
        tree_after(&self.puzzle.solution, &self.moves)
    }

    /// Finds a winning move for the hint: from the solution tree when the moves follow
    /// it, else asks for the solver in the background.
    pub fn find_hint(&mut self) -> Option<SolveRequest> {
        self.hint_level = 0;
        self.hint = self.tree_move();
        self.hint_searching = false;
        if self.hint.is_some() || self.moves_left == 0 {
            return None;
        }
        self.hint_searching = true;
        let history: Vec<u64> = self.positions.iter().map(Position::hash).collect();
        Some(SolveRequest::Hint {
            position: self.position().clone(),
            history: history[..history.len().saturating_sub(1)].to_vec(),
            options: self.options(self.moves_left),
        })
    }

    /// Whether a move of the user's may be tried now.
    pub fn can_move(&self) -> bool {
        self.phase == Phase::YourMove && (self.moves_left > 0 || self.follows_tree())
    }

    /// Whether moves are judged by the solution tree alone: a win or draw puzzle (no
    /// mate for the solver to prove) that comes with its solution.
    pub fn follows_tree(&self) -> bool {
        self.moves_left == 0 && !self.puzzle.solution.is_empty()
    }

    /// Takes a legal move of the user's: judged by the tree at once, or sent to the
    /// solver (the request returned).
    pub fn try_move(&mut self, m: Move) -> Option<SolveRequest> {
        if !self.can_move() {
            return None;
        }
        self.selected = None;
        if self.follows_tree() {
            return self.follow_tree(m);
        }
        let history: Vec<u64> = self.positions.iter().map(Position::hash).collect();
        self.phase = Phase::Judging(m);
        Some(SolveRequest::Judge {
            position: self.position().clone(),
            history,
            m,
            moves_left: self.moves_left,
            options: self.options(self.moves_left),
        })
    }

    /// The hint the solver found.
    pub fn hint_found(&mut self, hint: Option<Move>) {
        if self.hint_searching {
            self.hint = hint;
            self.hint_searching = false;
        }
    }

    /// Takes in the solver's judgement of the move being judged; may ask for a new hint.
    pub fn judged(&mut self, judgement: Judgement) -> Option<SolveRequest> {
        let Phase::Judging(m) = self.phase else {
            return None;
        };
        self.phase = Phase::YourMove;
        match judgement {
            Judgement::Mates => {
                self.play(m);
                self.phase = Phase::Solved;
                self.message = Some(SolveMessage::Solved);
                self.selected = None;
                None
            }
            Judgement::Right { reply, moves_left } => {
                self.play(m);
                self.play(reply);
                self.moves_left = moves_left;
                self.message = Some(SolveMessage::Right(reply));
                self.find_hint()
            }
            Judgement::Wrong(why) => {
                self.missed = true;
                self.message = Some(SolveMessage::Wrong(m, why));
                None
            }
            Judgement::Unknown => {
                self.message = Some(SolveMessage::Unknown);
                None
            }
        }
    }

    /// Judges `m` by the solution tree: one of its moves is answered by the tree's reply,
    /// and the end of the tree is the solution's end.
    pub fn follow_tree(&mut self, m: Move) -> Option<SolveRequest> {
        match tree_answer(&self.puzzle.solution, &self.moves, m) {
            TreeAnswer::Wrong => {
                self.missed = true;
                self.message = Some(SolveMessage::Wrong(m, Wrong::NotInSolution));
                None
            }
            TreeAnswer::Reply(reply) => {
                self.play(m);
                self.play(reply);
                self.message = Some(SolveMessage::Right(reply));
                self.find_hint()
            }
            TreeAnswer::Solved(last) => {
                self.play(m);
                if let Some(reply) = last {
                    self.play(reply);
                }
                self.phase = Phase::Solved;
                self.message = Some(SolveMessage::Solved);
                None
            }
        }
    }

    pub fn play(&mut self, m: Move) {
        let mut next = self.position().clone();
        next.play_unchecked(m);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Shows more of the hint: first the piece, then the move. Taking one counts as a miss.
    pub fn more_hint(&mut self) {
        if self.phase == Phase::Solved || self.hint.is_none() {
            return;
        }
        self.hint_level = (self.hint_level + 1).min(2);
        self.missed = true;
    }

    /// Back to the puzzle's start.
    pub fn restart(&mut self) -> Option<SolveRequest> {
        let puzzle = self.puzzle.clone();
        let queue = std::mem::take(&mut self.queue);
        let (missed, solved_before) = (self.missed, self.solved_before);
        *self = SolveSession::new(self.set, self.index, puzzle, queue);
        self.missed = missed;
        self.solved_before = solved_before;
        self.find_hint()
    }

    /// Whether background work is under way.
    pub fn busy(&self) -> bool {
        matches!(self.phase, Phase::Judging(_)) || self.hint_searching
    }
}

/// Everything about puzzles the app holds.
#[derive(Default)]
pub struct Puzzles {
    /// Whether the sets and the progress were read (they are, the first time they are needed).
    pub loaded: bool,
    /// The built-in sets, then the user's collections.
    pub sets: Vec<LoadedSet>,
    /// Progress on every puzzle.
    pub progress: Progress,
    /// Files (or imported games) that could not be read, with where and why.
    pub problems: Vec<crate::words::problem::Problem>,
    /// Whether the puzzle list is open.
    pub browser_open: bool,
    /// The set the list shows.
    pub browser_set: usize,
    /// The puzzle being solved.
    pub session: Option<SolveSession>,
}

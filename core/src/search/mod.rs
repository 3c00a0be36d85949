//! Chuhe's search engine: finds the best move of a position and its value.
//!
//! One file per concern, as in Stockfish and Pikafish:
//! - `search.rs`: iterative deepening, principal-variation alpha-beta with aspiration
//!   windows, quiescence search, pruning, reductions and extensions;
//! - `movepick.rs`: staged move ordering;
//! - `tt.rs`: the transposition table;
//! - `eval.rs` (with `weights.rs`, and `tune.rs` which fits them): the evaluation;
//! - `nnue/`: the evaluation network, built in and on by default (UCI `Use NNUE`);
//! - `rules.rs`: the game's rules inside the search (repetition, move limit, 困毙);
//! - `time.rs`: time management; `limits.rs`: what bounds a search;
//! - `threads.rs`: the [`Engine`], which runs Lazy-SMP search threads in the background.
//!
//! ```
//! use chuhe_core::Position;
//! use chuhe_core::search::{Engine, Limits, Options, Score, SearchRoot};
//! let mut engine = Engine::new(Options::default());
//! // Red mates at once, two ways: the rook checks on the d file, or it takes the eighth
//! // rank from a general that Red's general holds on its file, and a side without a
//! // move loses as a mated one does (困毙).
//! let pos: Position = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1".parse().unwrap();
//! let result = engine.search(&SearchRoot::new(pos.clone()), Limits::depth(4));
//! assert_eq!(result.report.lines[0].score, Score::Mate(1));
//! let after = pos.play(result.best_move.unwrap()).unwrap();
//! assert!(!after.has_legal_move());
//! ```

pub mod eval;
mod limits;
mod movepick;
pub mod nnue;
mod rules;
mod score;
#[allow(clippy::module_inception)]
mod search;
mod see;
mod threads;
mod time;
mod tt;
pub mod tune;

mod weights;

pub use limits::Limits;
pub use score::Score;
pub use threads::Engine;

use crate::search::rules::PathEntry;
use crate::{Color, IllegalMove, Move, Position, Rules};
use std::sync::Arc;
use std::time::Duration;

/// Engine settings, as the UCI options set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// How many best lines to find and report.
    pub multipv: usize,
    /// Playing strength 0 (weakest) to 20 (full strength): below 20 the engine picks
    /// among its best lines with a random error that grows as the level falls.
    pub skill_level: u8,
    /// The game's rules: the natural move limit (off for studies) and the repetition count.
    pub rules: Rules,
    /// Time kept back per move for the GUI and the pipe when playing on a clock.
    pub move_overhead: Duration,
    /// Whether the search may count on winning a repetition because the other side
    /// chased (长捉) or threatened mate (长杀) perpetually. Programs and referees judge
    /// chases differently, so an engine playing a match does better not to (its own
    /// forbidden chases still count as losses); analysis trusts the rules module.
    pub trust_chase_wins: bool,
    /// Whether the search asks the endgame tables already in memory or in the cache (it
    /// never generates one). The bench does not: its node count must not depend on what
    /// the user's cache happens to hold.
    pub tablebases: bool,
    /// How the natural move limit is applied: as the rules read it (the claimant's draw)
    /// or as a referee that draws by itself.
    pub move_limit_reading: MoveLimitReading,
    /// Whether the evaluation network judges positions instead of the hand-written
    /// evaluation (UCI `Use NNUE`, on by default). Without a network it changes nothing.
    pub use_nnue: bool,
    /// The evaluation network: the built-in one unless another is loaded (UCI `EvalFile`)
    /// or none is.
    pub network: Option<Arc<nnue::Network>>,
}

/// How the search applies the natural move limit (自然限着, 4.2.4), whose count leaves out
/// a claimant's checks beyond ten (23.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MoveLimitReading {
    /// As the rules read: the draw is not automatic but claimed, and in the claimant's
    /// count at most ten of its checks count. A node past the limit is a draw only where
    /// both sides could claim it; where one side could, that side may take the draw or
    /// play on (the other may not), and where neither could, play goes on.
    #[default]
    Claimant,
    /// As some referees apply it (Fairy-Stockfish, pyffish): drawn by itself once the
    /// count reaches the limit, leaving out the checks beyond ten of the side that gave
    /// more of them.
    MostChecks,
}

impl Options {
    /// The network the search evaluates with: the loaded one when `use_nnue` is on.
    pub fn active_network(&self) -> Option<&Arc<nnue::Network>> {
        self.network.as_ref().filter(|_| self.use_nnue)
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            skill_level: 20,
            rules: Rules::default(),
            move_overhead: Duration::from_millis(10),
            trust_chase_wins: true,
            tablebases: true,
            move_limit_reading: MoveLimitReading::Claimant,
            use_nnue: true,
            network: Some(nnue::embedded()),
        }
    }
}

/// The position to search with the game that led to it: earlier positions count for
/// repetitions.
///
/// ```
/// use chuhe_core::Position;
/// use chuhe_core::search::SearchRoot;
/// let moves: Vec<_> = ["h2e2", "h9g7"].iter().map(|m| m.parse().unwrap()).collect();
/// let root = SearchRoot::from_moves(Position::startpos(), &moves).unwrap();
/// assert_eq!(root.position().fullmove_number(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct SearchRoot {
    position: Position,
    /// The positions before `position`, oldest first.
    history: Vec<PathEntry>,
    /// The move that reached `position`, if played here.
    last_move: Option<Move>,
}

impl SearchRoot {
    /// A position with no known history.
    pub fn new(position: Position) -> SearchRoot {
        SearchRoot {
            position,
            history: Vec::new(),
            last_move: None,
        }
    }

    /// The position after `moves` from `start`, remembering the positions on the way.
    pub fn from_moves(start: Position, moves: &[Move]) -> Result<SearchRoot, IllegalMove> {
        let mut root = SearchRoot::new(start);
        for &m in moves {
            root.play(m)?;
        }
        Ok(root)
    }

    /// Plays `m`, which must be legal.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        let next = self.position.play(m)?;
        let mv = self.last_move;
        self.history.push(PathEntry {
            hash: self.position.hash(),
            in_check: self.position.is_check(),
            null: false,
            mv,
        });
        self.last_move = Some(m);
        self.position = next;
        Ok(())
    }

    /// The position to search.
    pub fn position(&self) -> &Position {
        &self.position
    }
}

/// How a reported score bounds the true value: exact, or (when the aspiration window
/// failed and the search has not finished re-searching) only a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreBound {
    /// The value.
    Exact,
    /// At least this (UCI `lowerbound`).
    Lower,
    /// At most this (UCI `upperbound`).
    Upper,
}

/// One principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// Its rank among the lines, from 1 (the best).
    pub multipv: usize,
    /// The depth it was searched to.
    pub depth: u32,
    /// The deepest ply its search reached.
    pub seldepth: u32,
    /// Its value for the side to move at the root.
    pub score: Score,
    /// Whether `score` is exact.
    pub bound: ScoreBound,
    /// The moves, starting with the root move.
    pub moves: Vec<Move>,
}

impl PvLine {
    /// The score from Red's point of view, given the side to move at the root.
    pub fn score_for_red(&self, side_to_move: Color) -> Score {
        match side_to_move {
            Color::Red => self.score,
            Color::Black => self.score.negate(),
        }
    }
}

/// The state of a search: the lines found and the counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The deepest completed iteration.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table use, in permille.
    pub hashfull: u32,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Whose move it is at the root.
    pub side_to_move: Color,
    /// The best lines, best first.
    pub lines: Vec<PvLine>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`None` when there is no legal move: mated, or 困毙).
    pub best_move: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
    /// The final report.
    pub report: Report,
}

/// What a search tells its listener, from the main search thread.
#[derive(Debug)]
pub enum Event<'a> {
    /// An iteration finished: new lines at a new depth.
    Iteration(&'a Report),
    /// A line's value fell outside the aspiration window: its score is only a bound
    /// until the re-search ends.
    Bound(&'a Report),
    /// The counters moved on (about every 100 ms); the lines are the last iteration's.
    Progress(&'a Report),
    /// The search is over.
    Done(&'a SearchResult),
}

//! The search proper: iterative deepening of a principal-variation alpha-beta search with
//! aspiration windows, over a quiescence search of captures (and of every evasion when in
//! check; at its first ply, of quiet checks too).
//!
//! Read top-down: [`Worker::iterate`] deepens and handles multi-PV; `root` searches the
//! root moves; `search` is the alpha-beta of inner nodes with its pruning (transposition
//! table cut-offs, reverse futility, null move, ProbCut, futility and late-move pruning,
//! late-move reductions) and extensions (check, mate threat, singular); `qsearch` settles
//! captures.
//!
//! Each search thread runs its own worker; they share only the transposition table and
//! the stop flag (Lazy SMP). Thread 0, the main thread, also watches the clock, reports
//! progress and decides when to stop.

use super::eval::{CANNON, HORSE, ROOK, evaluate};
use super::movepick::{CapturePicker, MovePicker, ORDER_VALUE, QuietChecks, QuietHistory, kind_of};
use super::nnue::{self, AccumulatorStack, Delta, Network};
use super::rules::{
    CycleJudge, FULL_JUDGEMENT_PLIES, LimitDraw, PathEntry, move_limit_draw, move_limit_reached,
    repetition_value,
};
use super::score::{
    INFINITE, MATE_IN_MAX_PLY, MAX_PLY, NONE, Score, Value, is_mate, mate_in, mated_in,
};
use super::see::see_ge;
use super::threads::{Reporter, Shared};
use super::tt::{Bound, value_from_tt, value_to_tt};
use super::{PvLine, ScoreBound, SearchRoot};
use crate::position::{BitIter, bit};
use crate::tables::HORSE_ATTACKER_MASK;
use crate::{Color, Move, Position, Rules, Square, Undo, zobrist};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

/// A root move with what the last searches found for it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    /// The value of this iteration (`-INFINITE` until searched, or when it failed low).
    pub score: Value,
    /// The value of the previous iteration.
    pub prev_score: Value,
    /// Whether `score` is a lower or upper bound (an aspiration window failed).
    pub bound: Bound,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}

/// Per-ply state of the current path.
#[derive(Clone, Copy, Default)]
struct Frame {
    killers: [Option<Move>; 2],
    /// Static evaluation (`NONE` when in check).
    eval: Value,
    /// The move made from this ply (`None`: a null move, or none yet).
    mv: Option<Move>,
    /// The board code of the piece that moved.
    moved: u8,
    in_check: bool,
    /// A move left out of this node's search (the singular-extension test).
    excluded: Option<Move>,
}

/// History scores saturate at this (the "gravity" update keeps them inside).
const HISTORY_MAX: i32 = 16_384;

/// Quiet-move history, by piece (board code) and destination.
struct History([[i32; 90]; 15]);

/// A history entry `h` moved towards the bonus's sign, more slowly the fuller it is: the
/// "gravity" update, which keeps |h| within `HISTORY_MAX`.
#[inline]
fn gravity(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / HISTORY_MAX
}

impl History {
    #[inline]
    fn update(&mut self, piece: u8, to: u8, bonus: i32) {
        let h = &mut self.0[piece as usize][to as usize];
        *h = gravity(*h, bonus);
    }
}

/// The quiet-move history that follows one earlier move: by the piece and destination
/// of a quiet move, how well it did right after that move (one or two plies before).
type FollowUp = [[i16; 90]; 15];

/// Continuation history: a [`FollowUp`] table for each earlier move, by the board code of
/// its piece and its destination. It knows what the plain history cannot: which replies
/// work against *this* move (a horse that blocks a cannon's screen, a chariot that
/// answers a particular threat).
struct ContinuationHistory(Box<[FollowUp]>);

impl ContinuationHistory {
    fn new() -> ContinuationHistory {
        ContinuationHistory(vec![[[0; 90]; 15]; 15 * 90].into_boxed_slice())
    }

    fn clear(&mut self) {
        self.0.fill([[0; 90]; 15]);
    }

    /// The table index of the move that moved the piece `moved` to `to`.
    #[inline]
    fn index(moved: u8, to: Square) -> usize {
        moved as usize * 90 + to.index() as usize
    }

    /// As [`History::update`], on the table `table`.
    #[inline]
    fn update(&mut self, table: usize, piece: u8, to: u8, bonus: i32) {
        let h = &mut self.0[table][piece as usize][to as usize];
        // The gravity keeps the entry within HISTORY_MAX, inside an i16.
        *h = gravity(*h as i32, bonus) as i16;
    }
}

/// What a quiet move's past says at a node: twice its plain history plus its follow-up
/// histories after the previous move and the one before (the opponent's last move and
/// our own), each missing near the root or after a null move.
struct QuietStats<'a> {
    history: &'a History,
    follow_ups: [Option<&'a FollowUp>; 2],
}

impl QuietHistory for QuietStats<'_> {
    #[inline]
    fn quiet_score(&self, piece: u8, to: u8) -> i32 {
        let (p, t) = (piece as usize, to as usize);
        let mut score = 2 * self.history.0[p][t];
        for table in self.follow_ups.into_iter().flatten() {
            score += table[p][t] as i32;
        }
        score
    }
}

/// Whether `m` may give check, by a test that needs no move played and never misses one.
/// Every check comes from a line through the enemy general (a rook, cannon or general on
/// its file or rank, with the screens between) or from a horse. A move changes such a line
/// only if it leaves it or lands on it, and a horse's check only if it lands on a checking
/// point or leaves the leg of one, and every horse leg is diagonally next to the general.
fn may_give_check(pos: &Position, m: Move) -> bool {
    let g = pos.general(!pos.side_to_move()).index() as i32;
    let (from, to) = (m.from.index() as i32, m.to.index() as i32);
    let on_line = |s: i32| s % 9 == g % 9 || s / 9 == g / 9;
    let (df, dr) = ((from % 9 - g % 9).abs(), (from / 9 - g / 9).abs());
    on_line(from)
        || on_line(to)
        || (df == 1 && dr == 1)
        || (kind_of(pos.cells[from as usize]) == HORSE
            && HORSE_ATTACKER_MASK[g as usize] & bit(to as u8) != 0)
}

/// A search thread's private state.
pub(crate) struct Worker {
    pub id: usize,
    pos: Position,
    /// Every position from the game's start to the current node.
    path: Vec<PathEntry>,
    stack: Vec<Frame>,
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    history: Box<History>,
    follow_ups: ContinuationHistory,
    /// The reply that refuted a move, by that move's piece and destination.
    counters: Box<[[Option<Move>; 90]; 15]>,
    /// Late-move reductions by depth and move number.
    reductions: Box<[[i32; 64]; 64]>,
    pub root_moves: Vec<RootMove>,
    pub nodes: u64,
    seldepth: usize,
    root_depth: i32,
    pv_idx: usize,
    multipv: usize,
    stopped: bool,
    pub completed_depth: i32,
    /// How often the best move changed in recent iterations (main thread only).
    best_move_changes: f64,
    shared: Arc<Shared>,
    /// Where the main thread sends its reports (helpers have none).
    pub reporter: Option<Reporter>,
    /// Verdicts of the rules module on cycles near the root.
    cycles: CycleJudge,
    root_side: Color,
    /// Recent static evaluations by position hash: the evaluation is the costliest part
    /// of a node, and the same positions recur across iterations and sibling lines.
    eval_cache: Box<[(u64, Value)]>,
    /// The move limit the evaluation's shrink towards a draw counts against: the rules'
    /// limit in plies, or the Chinese rules' when there is none. Set once per search.
    clock_limit: u32,
    /// The evaluation network, when the search uses one (else the hand-written
    /// evaluation), and its accumulators along the current line.
    network: Option<Arc<Network>>,
    accumulators: AccumulatorStack,
}

/// Entries in a worker's evaluation cache (a power of two).
const EVAL_CACHE_SIZE: usize = 1 << 16;

impl Worker {
    pub fn new(id: usize, shared: Arc<Shared>) -> Worker {
        let mut reductions = Box::new([[0; 64]; 64]);
        for (d, row) in reductions.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                // Logarithmic in both, as in most modern engines; scaled by 1024.
                *r = (1024.0 * (0.5 + (d as f64).ln() * (n as f64).ln() / 2.1)) as i32;
            }
        }
        Worker {
            id,
            pos: Position::startpos(),
            path: Vec::with_capacity(1024),
            stack: vec![Frame::default(); MAX_PLY + 4],
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            history: Box::new(History([[0; 90]; 15])),
            follow_ups: ContinuationHistory::new(),
            counters: Box::new([[None; 90]; 15]),
            reductions,
            root_moves: Vec::new(),
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            pv_idx: 0,
            multipv: 1,
            stopped: false,
            completed_depth: 0,
            best_move_changes: 0.0,
            shared,
            reporter: None,
            cycles: CycleJudge::default(),
            root_side: Color::Red,
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE].into_boxed_slice(),
            clock_limit: Rules::CHINESE_MOVE_LIMIT_PLIES,
            network: None,
            accumulators: AccumulatorStack::new(MAX_PLY + 4),
        }
    }

    /// Forgets what earlier games taught (a new game).
    pub fn clear(&mut self) {
        self.history.0 = [[0; 90]; 15];
        self.follow_ups.clear();
        *self.counters = [[None; 90]; 15];
    }

    /// Prepares a search of `game`'s position (its earlier positions count for
    /// repetitions) over `root_moves`.
    pub fn prepare(&mut self, shared: Arc<Shared>, game: &SearchRoot, root_moves: &[Move]) {
        let root = &game.position;
        self.shared = shared;
        self.pos = root.clone();
        self.root_side = root.side_to_move();
        self.path.clear();
        self.path.extend_from_slice(&game.history);
        self.path.push(PathEntry {
            hash: root.hash(),
            in_check: root.is_check(),
            null: false,
            mv: game.last_move,
        });
        self.cycles.clear();
        self.root_moves = root_moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                bound: Bound::Exact,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        self.nodes = 0;
        self.completed_depth = 0;
        self.best_move_changes = 0.0;
        self.stopped = false;
        self.multipv = self.shared.multipv.min(self.root_moves.len()).max(1);
        self.clock_limit = self
            .shared
            .rules
            .move_limit_plies
            .unwrap_or(Rules::CHINESE_MOVE_LIMIT_PLIES)
            .max(1);
        for f in self.stack.iter_mut() {
            *f = Frame::default();
        }
        self.stack[0].in_check = root.is_check();
        let network = self.shared.network.clone();
        let same_evaluation = match (&network, &self.network) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same_evaluation {
            self.eval_cache.fill((0, 0));
        }
        if let Some(net) = &network {
            self.accumulators.reset(net, root);
        }
        self.network = network;
        // Age the history so the new position's experience weighs more.
        for row in self.history.0.iter_mut() {
            for h in row.iter_mut() {
                *h /= 2;
            }
        }
    }

    /// Iterative deepening: searches the root ever deeper until a limit or `stop`.
    pub fn iterate(&mut self) {
        if self.root_moves.is_empty() {
            return;
        }
        let limits = &self.shared.limits;
        let max_depth = limits.depth.map_or(MAX_PLY as i32 - 8, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 8)
        });
        let mate_limit = limits.mate;
        let main = self.id == 0;
        let mut last_best = None;
        let mut stable_iterations = 0;
        let mut depth = 0;
        while depth < max_depth && !self.stopped {
            depth += 1;
            // Helpers skip some depths so the threads spread over different trees.
            if !main && (depth + self.id as i32) % 3 == 0 && depth > 2 {
                continue;
            }
            self.root_depth = depth;
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            self.best_move_changes *= 0.5;
            for pv_idx in 0..self.multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(depth);
                if self.stopped {
                    break;
                }
                // Lines found so far stay ordered by value.
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if !main {
                continue;
            }
            if let Some(mut reporter) = self.reporter.take() {
                reporter.iteration(self, depth);
                self.reporter = Some(reporter);
            }
            let best = &self.root_moves[0];
            if let Some(n) = mate_limit
                && best.score >= mate_in(2 * n as usize)
            {
                break;
            }
            if Some(best.mv) == last_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
                last_best = Some(best.mv);
            }
            if self.time_says_stop(stable_iterations) {
                if self.shared.ponder.load(Relaxed) {
                    // Out of time while pondering: stop as soon as the move is played.
                    self.shared.stop_on_ponderhit.store(true, Relaxed);
                } else {
                    break;
                }
            }
        }
    }

    /// The principal variations found so far, for a report at `depth`: lines searched in
    /// this iteration with its values, the others with the previous iteration's, ordered
    /// by value (mid-iteration a line not yet searched again, or one that failed high,
    /// can be worth more than one above it).
    pub fn lines(&self, depth: i32) -> Vec<PvLine> {
        let mut lines = Vec::with_capacity(self.multipv);
        let mut values = Vec::with_capacity(self.multipv);
        for (i, rm) in self.root_moves.iter().take(self.multipv).enumerate() {
            let updated = rm.score != -INFINITE;
            let (value, depth) = if updated {
                (rm.score, depth)
            } else {
                (rm.prev_score, depth - 1)
            };
            if value == -INFINITE || depth < 1 {
                continue;
            }
            values.push(value);
            lines.push(PvLine {
                multipv: i + 1,
                depth: depth as u32,
                seldepth: rm.seldepth as u32,
                score: Score::from_value(value),
                bound: if i == self.pv_idx && updated {
                    match rm.bound {
                        Bound::Exact => ScoreBound::Exact,
                        Bound::Lower => ScoreBound::Lower,
                        Bound::Upper => ScoreBound::Upper,
                    }
                } else {
                    ScoreBound::Exact
                },
                moves: rm.pv.clone(),
            });
        }
        let mut order: Vec<usize> = (0..lines.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(values[i]));
        let mut sorted: Vec<PvLine> = order.iter().map(|&i| lines[i].clone()).collect();
        for (i, line) in sorted.iter_mut().enumerate() {
            line.multipv = i + 1;
        }
        sorted
    }

    /// The side to move at the root.
    pub fn root_side(&self) -> Color {
        self.root_side
    }

    /// The search's shared state.
    pub fn shared(&self) -> &Shared {
        &self.shared
    }

    /// A line when no iteration finished: the first legal move with the static
    /// evaluation, or no move and "mated" when there is none (checkmate or 困毙).
    pub fn fallback_line(&self) -> Vec<PvLine> {
        let (moves, score) = match self.root_moves.first() {
            Some(rm) => {
                let v = match &self.network {
                    Some(net) => nnue::evaluate(net, &self.pos),
                    None => evaluate(&self.pos),
                };
                (vec![rm.mv], Score::from_value(v))
            }
            None => (Vec::new(), Score::from_value(mated_in(0))),
        };
        vec![PvLine {
            multipv: 1,
            depth: 0,
            seldepth: 0,
            score,
            bound: ScoreBound::Exact,
            moves,
        }]
    }

    /// The expected reply to `best`: from its principal variation, else from the table.
    pub fn ponder_move(&self, best: Move) -> Option<Move> {
        if let Some(rm) = self.root_moves.iter().find(|rm| rm.mv == best)
            && let Some(&reply) = rm.pv.get(1)
        {
            return Some(reply);
        }
        let after = self.pos.play(best).ok()?;
        let reply = self.shared.tt.probe(after.hash())?.mv?;
        after.is_legal(reply).then_some(reply)
    }

    /// Whether the clock says not to start another iteration.
    fn time_says_stop(&self, stable_iterations: u32) -> bool {
        let tm = &self.shared.time;
        if !tm.is_timed() || self.shared.limits.movetime.is_some() {
            return false;
        }
        // A forced move needs no thought.
        if self.root_moves.len() == 1 {
            return true;
        }
        let stability = match stable_iterations {
            0 => 1.6,
            1 => 1.2,
            2..=3 => 0.9,
            _ => 0.6,
        } * (1.0 + self.best_move_changes.min(2.0) * 0.3);
        tm.past_optimum(stability)
    }

    /// Searches the current line with a window around the previous value, widening it
    /// on each failure.
    fn aspiration(&mut self, depth: i32) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = 20;
        let (mut alpha, mut beta) = if depth >= 4 && prev > -INFINITE && !is_mate(prev) {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let v = self.root(depth, alpha, beta);
            self.root_moves[self.pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return;
            }
            if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITE);
                self.root_moves[self.pv_idx].bound = Bound::Upper;
            } else if v >= beta {
                beta = (v + delta).min(INFINITE);
                self.root_moves[self.pv_idx].bound = Bound::Lower;
            } else {
                self.root_moves[self.pv_idx].bound = Bound::Exact;
                return;
            }
            if let Some(mut reporter) = self.reporter.take() {
                reporter.bound_change(self, depth);
                self.reporter = Some(reporter);
            }
            delta += delta / 2 + 5;
        }
    }

    /// Searches the root moves from the current line on, PVS with light reductions.
    fn root(&mut self, depth: i32, mut alpha: Value, beta: Value) -> Value {
        let mut best = -INFINITE;
        let in_check = self.stack[0].in_check;
        self.stack[0].eval = if in_check { NONE } else { self.static_eval() };
        self.nodes += 1;
        #[cfg(test)]
        self.check_accumulators();
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let capture = self.pos.cells[m.to.index() as usize] != 0;
            let undo = self.do_move(m, 0);
            let gives_check = self.stack[1].in_check;
            let new_depth = depth - 1 + gives_check as i32;
            let n = i - self.pv_idx + 1;
            let mut v;
            if n == 1 {
                v = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
            } else {
                let r = if depth >= 3 && !capture && !gives_check && !in_check {
                    (self.reduction(depth, n) / 1024 - 1).max(0)
                } else {
                    0
                };
                v = -self.search::<false>(-alpha - 1, -alpha, new_depth - r, 1, true);
                if v > alpha && r > 0 {
                    v = -self.search::<false>(-alpha - 1, -alpha, new_depth, 1, true);
                }
                if v > alpha && v < beta {
                    v = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
                }
            }
            self.undo_move(m, undo);
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if n == 1 || v > alpha {
                rm.score = v;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv
                    .extend(self.pv[1][..self.pv_len[1]].iter().map_while(|&m| m));
                if n > 1 {
                    self.best_move_changes += 1.0;
                }
            } else {
                rm.score = -INFINITE;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The evaluation of the current position, shrunk towards a draw as the natural move
    /// limit nears: a lead that is not turned into a capture soon is worth less, so a
    /// winning side makes progress (referees that count 50 moves rather than 60 agree).
    #[inline]
    fn static_eval(&mut self) -> Value {
        let key = self.pos.hash;
        // The stored key is offset so the empty entries (key 0) never match.
        let tag = key ^ 0x9E37_79B9_7F4A_7C15;
        let entry = &mut self.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)];
        let v = if entry.0 == tag {
            entry.1
        } else {
            let v = match &self.network {
                Some(net) => nnue::with_endgame_knowledge(
                    self.accumulators.evaluate(net, &self.pos),
                    &self.pos,
                ),
                None => evaluate(&self.pos),
            };
            *entry = (tag, v);
            v
        };
        // The clock as if the limit were the Chinese rules' 120 plies, so a shorter limit
        // (a referee's 50 moves) hurries the side ahead as much.
        let clock = (self.pos.halfmove_clock * Rules::CHINESE_MOVE_LIMIT_PLIES / self.clock_limit)
            .min(150) as Value;
        v * (200 - clock) / 200
    }

    /// Whether a node at `ply` may still be extended: the bound that keeps a chain of
    /// checks or of mate threats from running away.
    #[inline]
    fn may_extend(&self, ply: usize) -> bool {
        ply < 2 * self.root_depth as usize
    }

    /// The continuation-history tables of the node at `ply`: those of the move made one
    /// ply above it and two plies above (none above the root, or for a null move).
    #[inline]
    fn follow_up_tables(&self, ply: usize) -> [Option<usize>; 2] {
        [1, 2].map(|back| {
            let frame = self.stack.get(ply.checked_sub(back)?)?;
            frame
                .mv
                .map(|m| ContinuationHistory::index(frame.moved, m.to))
        })
    }

    /// The quiet-move statistics of a node whose tables are `tables`.
    #[inline]
    fn quiet_stats(&self, tables: [Option<usize>; 2]) -> QuietStats<'_> {
        QuietStats {
            history: &self.history,
            follow_ups: tables.map(|t| t.map(|i| &self.follow_ups.0[i])),
        }
    }

    /// The late-move reduction for `depth` and move number `n`, scaled by 1024.
    #[inline]
    fn reduction(&self, depth: i32, n: usize) -> i32 {
        self.reductions[(depth as usize).min(63)][n.min(63)]
    }

    /// Plays `m` at `ply`, noting what the rules need.
    #[inline]
    fn do_move(&mut self, m: Move, ply: usize) -> Undo {
        let piece = self.pos.cells[m.from.index() as usize];
        self.stack[ply].mv = Some(m);
        self.stack[ply].moved = piece;
        if self.network.is_some() {
            self.accumulators.push(Delta {
                piece,
                from: m.from.index(),
                to: m.to.index(),
                captured: self.pos.cells[m.to.index() as usize],
            });
        }
        let undo = self.pos.play_unchecked(m);
        self.shared.tt.prefetch(self.pos.hash);
        let in_check = self.pos.is_check();
        self.stack[ply + 1].in_check = in_check;
        self.path.push(PathEntry {
            hash: self.pos.hash,
            in_check,
            null: false,
            mv: Some(m),
        });
        undo
    }

    #[inline]
    fn undo_move(&mut self, m: Move, undo: Undo) {
        self.pos.unplay(m, undo);
        self.path.pop();
        if self.network.is_some() {
            self.accumulators.pop();
        }
    }

    /// Passes the move (null move): only for the search's null-move test.
    fn do_null(&mut self, ply: usize) {
        self.stack[ply].mv = None;
        self.stack[ply].moved = 0;
        self.stack[ply + 1].in_check = false;
        if self.network.is_some() {
            self.accumulators.push(Delta::NULL);
        }
        self.pos.side = !self.pos.side;
        self.pos.hash ^= zobrist::SIDE_KEY;
        self.path.push(PathEntry {
            hash: self.pos.hash,
            in_check: false,
            null: true,
            mv: None,
        });
    }

    fn undo_null(&mut self) {
        self.pos.side = !self.pos.side;
        self.pos.hash ^= zobrist::SIDE_KEY;
        self.path.pop();
        if self.network.is_some() {
            self.accumulators.pop();
        }
    }

    /// Counts a node; every 1024 nodes publishes the count and checks the limits.
    #[inline]
    fn count_node(&mut self, ply: usize) {
        self.nodes += 1;
        #[cfg(test)]
        self.check_accumulators();
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.nodes & 1023 == 0 {
            self.poll();
        }
    }

    /// Records whether the accumulators the node would get equal a refresh (tests only).
    #[cfg(test)]
    fn check_accumulators(&self) {
        if let Some(net) = &self.network {
            accumulator_check::record(self.accumulators.matches_refresh(net, &self.pos));
        }
    }

    fn poll(&mut self) {
        let shared = &self.shared;
        shared.nodes[self.id].store(self.nodes, Relaxed);
        if self.id == 0 {
            let limits = &shared.limits;
            let pondering = shared.ponder.load(Relaxed);
            let out_of_time = !pondering && !limits.infinite && shared.time.past_maximum();
            let out_of_nodes = limits
                .nodes
                .is_some_and(|n| shared.total_nodes() >= n && !limits.infinite);
            if (out_of_time || out_of_nodes) && self.completed_depth >= 1 {
                shared.stop.store(true, Relaxed);
            }
            if let Some(reporter) = self.reporter.as_mut() {
                reporter.progress(shared);
            }
        }
        if shared.stop.load(Relaxed) {
            self.stopped = true;
        }
    }

    /// Whether the side to move has the pieces for a null move to be safe: with only
    /// pawns and defenders left, passing would often be better than any move (zugzwang),
    /// and the null move would hide it.
    fn null_move_safe(&self) -> bool {
        let mut attackers = 0;
        for s in BitIter(self.pos.occupied[self.pos.side.index()]) {
            let kind = kind_of(self.pos.cells[s as usize]);
            attackers += match kind {
                ROOK => 2,
                HORSE | CANNON => 1,
                _ => 0,
            };
        }
        attackers >= 2
    }

    /// The alpha-beta search of an inner node, where one side alone may claim the natural
    /// move limit's draw taking that into account.
    fn search<const PV: bool>(
        &mut self,
        alpha: Value,
        beta: Value,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        match self.sole_claimant() {
            None => self.search_node::<PV>(alpha, beta, depth, ply, cut_node),
            Some(claimant) => self.with_claim(claimant, alpha, beta, |s, a, b| {
                s.search_node::<PV>(a, b, depth, ply, cut_node)
            }),
        }
    }

    /// The alpha-beta search of an inner node.
    fn search_node<const PV: bool>(
        &mut self,
        mut alpha: Value,
        mut beta: Value,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        if depth <= 0 {
            return self.qsearch::<PV, true>(alpha, beta, ply);
        }
        if PV {
            self.pv_len[ply] = 0;
        }
        self.count_node(ply);
        if self.stopped {
            return 0;
        }
        let in_check = self.stack[ply].in_check;
        if let Some(v) = self.rule_value(ply) {
            return v;
        }
        if ply >= MAX_PLY - 4 {
            return if in_check { 0 } else { self.static_eval() };
        }
        // Mate distance pruning: no line from here beats a mate found nearer the root.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        // An endgame table already available knows the exact value (never generated here:
        // only tables in memory or in the cache are probed). The bench positions have far
        // more pieces, so this costs them one count of the occupied points.
        if ply > 0
            && self.stack[ply].excluded.is_none()
            && let Some(v) = self.tablebase_value(ply)
        {
            return v;
        }

        let key = self.pos.hash;
        let excluded = self.stack[ply].excluded;
        // Without its best move the node is another node: the table must not answer for it.
        let tt = if excluded.is_some() {
            None
        } else {
            self.shared.tt.probe(key)
        };
        let tt_move = tt.and_then(|e| e.mv);
        let tt_value = tt.map_or(NONE, |e| value_from_tt(e.value, ply));
        if !PV
            && let Some(e) = tt
            && e.depth >= depth
            && tt_value != NONE
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => tt_value >= beta,
                Bound::Upper => tt_value <= alpha,
            }
        {
            return tt_value;
        }

        let eval = if in_check {
            NONE
        } else if excluded.is_some() {
            self.stack[ply].eval
        } else if let Some(e) = tt
            && e.eval != NONE
        {
            e.eval
        } else {
            self.static_eval()
        };
        self.stack[ply].eval = eval;
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].eval != NONE
            && eval > self.stack[ply - 2].eval;
        self.stack[ply + 1].killers = [None; 2];

        let mut mate_threat = false;
        if !PV && !in_check && excluded.is_none() {
            // Reverse futility: far above beta with little depth left, assume a cut.
            if depth <= 7 && eval - 80 * (depth - improving as i32) >= beta && !is_mate(beta) {
                return eval;
            }
            // Null move: if passing still beats beta, a real move will too.
            if depth >= 3
                && eval >= beta
                && self.stack[ply - 1].mv.is_some()
                && !is_mate(beta)
                && self.null_move_safe()
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.do_null(ply);
                let v = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.undo_null();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_IN_MAX_PLY { beta } else { v };
                }
                // Passing loses to a mate: the side to move is ahead but must answer a
                // threat, the "piece up, mate behind" positions the pruning above is blind
                // to. The node gets a ply more.
                mate_threat = v <= -MATE_IN_MAX_PLY;
            }
        }
        let depth = depth + (mate_threat && self.may_extend(ply)) as i32;

        // ProbCut: a capture that wins enough material to beat beta by a margin even in a
        // search four plies shallower is taken as a cut, without the full-depth search.
        // The table's own bound can rule it out first.
        if !PV && !in_check && excluded.is_none() && !mate_threat && depth >= 5 && !is_mate(beta) {
            let probcut_beta = beta + 200 - 50 * improving as i32;
            let table_says_no = tt.is_some_and(|e| {
                tt_value != NONE && tt_value < probcut_beta && e.depth >= depth - 3
            });
            if !table_says_no
                && let Some(v) = self.probcut(probcut_beta, eval, depth, ply, cut_node, tt_move)
            {
                return v;
            }
        }

        // Without a table move deep in the tree, a shallower search is as good a guide.
        let depth = if (PV || cut_node) && depth >= 5 && tt_move.is_none() {
            depth - 1
        } else {
            depth
        };

        // Singular extension: if every move but the table's falls well short of its value,
        // the table move is forced and gets a ply more.
        let mut singular = false;
        if depth >= 8
            && excluded.is_none()
            && let Some(e) = tt
            && tt_move.is_some()
            && e.depth >= depth - 3
            && e.bound != Bound::Upper
            && !is_mate(tt_value)
        {
            let singular_beta = tt_value - 2 * depth;
            self.stack[ply].excluded = tt_move;
            let v = self.search::<false>(
                singular_beta - 1,
                singular_beta,
                (depth - 1) / 2,
                ply,
                cut_node,
            );
            self.stack[ply].excluded = None;
            if self.stopped {
                return 0;
            }
            if v < singular_beta {
                singular = true;
            } else if singular_beta >= beta {
                // Several moves beat beta: cut at once (multi-cut).
                return singular_beta;
            }
        }

        let prev = if ply > 0 {
            self.stack[ply - 1]
        } else {
            Frame::default()
        };
        let counter = prev
            .mv
            .and_then(|m| self.counters[prev.moved as usize][m.to.index() as usize]);
        let mut picker = MovePicker::new(tt_move, self.stack[ply].killers, counter);
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut move_count = 0;
        let mut quiets_tried: [Option<(u8, u8)>; 64] = [None; 64];
        let mut quiet_count = 0;
        let original_alpha = alpha;
        // Found once: the path above the node does not change while its moves are tried.
        let follow_up_tables = self.follow_up_tables(ply);
        while let Some(m) = {
            let stats = self.quiet_stats(follow_up_tables);
            picker.next(&self.pos, &stats)
        } {
            if Some(m) == excluded {
                continue;
            }
            move_count += 1;
            let capture = self.pos.cells[m.to.index() as usize] != 0;
            let piece = self.pos.cells[m.from.index() as usize];
            let losing_capture = capture && depth >= 3 && !see_ge(&self.pos, m, 0);
            // Shallow pruning, once a move is in hand, of moves that cannot matter: quiet
            // moves late in the order or far below alpha, and moves that lose material in
            // the exchange on their point. A move that checks is kept; that is known once
            // it is played, so the tests before the move only mark candidates.
            let shallow = !PV && !in_check && best > -MATE_IN_MAX_PLY && depth <= 6;
            let late_or_futile = shallow
                && !capture
                && (move_count > (3 + depth * depth) as usize / (2 - improving as usize)
                    || eval + 100 + 120 * depth <= alpha);
            let losing_badly = shallow
                && !late_or_futile
                && !see_ge(
                    &self.pos,
                    m,
                    if capture {
                        -150 * depth
                    } else {
                        -30 * depth * depth
                    },
                );
            let prunable = late_or_futile || losing_badly;
            // Most candidates cannot check at all, and are dropped without being played.
            if prunable && !may_give_check(&self.pos, m) {
                continue;
            }
            let undo = self.do_move(m, ply);
            let gives_check = self.stack[ply + 1].in_check;
            if prunable && !gives_check {
                self.undo_move(m, undo);
                continue;
            }

            // Check extension (bounded, see `may_extend`).
            let extension =
                ((gives_check && self.may_extend(ply)) || (singular && Some(m) == tt_move)) as i32;
            let new_depth = depth - 1 + extension;
            // The first move of a PV node gets the full window at once; the others a null
            // window first (reduced if late and quiet or losing), widened only if they beat alpha.
            let first_in_pv = PV && move_count == 1;
            let mut v = -INFINITE;
            if !first_in_pv {
                if depth >= 3 && move_count > 1 + PV as usize && (!capture || losing_capture) {
                    let mut r = self.reduction(depth, move_count);
                    if PV {
                        r -= 1024;
                    }
                    if cut_node {
                        r += 1024;
                    }
                    if !improving {
                        r += 512;
                    }
                    if gives_check || in_check {
                        r -= 1024;
                    }
                    if Some(m) == self.stack[ply].killers[0]
                        || Some(m) == self.stack[ply].killers[1]
                    {
                        r -= 1024;
                    }
                    if !capture {
                        r -= self
                            .quiet_stats(follow_up_tables)
                            .quiet_score(piece, m.to.index())
                            / 16;
                    }
                    let reduced = (new_depth - r / 1024).clamp(1, new_depth.max(1));
                    v = -self.search::<false>(-alpha - 1, -alpha, reduced, ply + 1, true);
                    if v > alpha && reduced < new_depth {
                        v = -self.search::<false>(
                            -alpha - 1,
                            -alpha,
                            new_depth,
                            ply + 1,
                            !cut_node,
                        );
                    }
                } else {
                    v = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            }
            if PV && (first_in_pv || (v > alpha && v < beta)) {
                v = -self.search::<true>(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.undo_move(m, undo);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
            if !capture && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = Some((piece, m.to.index()));
                quiet_count += 1;
            }
        }

        if move_count == 0 {
            // Checkmate, or no legal move at all (困毙): both lose. Without the excluded
            // move nothing is known.
            return if excluded.is_some() {
                alpha
            } else {
                mated_in(ply)
            };
        }
        if best == -INFINITE {
            // Every move was pruned: the position is no better than alpha.
            return alpha;
        }

        if let Some(m) = best_move
            && best >= beta
            && self.pos.cells[m.to.index() as usize] == 0
        {
            self.reward_quiet(ply, m, depth, &quiets_tried[..quiet_count]);
        }
        if excluded.is_some() {
            return best;
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, value_to_tt(best, ply), eval, depth, bound);
        best
    }

    /// The ProbCut test of a non-PV node: the first capture that, after winning at least
    /// `probcut_beta - eval` in the exchange, still reaches `probcut_beta` in a quiescence
    /// search and then in a search four plies shallower. Its value (a lower bound, stored
    /// as such) or `None`.
    fn probcut(
        &mut self,
        probcut_beta: Value,
        eval: Value,
        depth: i32,
        ply: usize,
        cut_node: bool,
        tt_move: Option<Move>,
    ) -> Option<Value> {
        // A quiet table move is not among the captures, so it is simply never met.
        let mut picker = CapturePicker::new(&self.pos, false, tt_move);
        while let Some(m) = picker.next() {
            if !see_ge(&self.pos, m, probcut_beta - eval) {
                continue;
            }
            let undo = self.do_move(m, ply);
            let mut v = -self.qsearch::<false, false>(-probcut_beta, -probcut_beta + 1, ply + 1);
            if v >= probcut_beta {
                v = -self.search::<false>(
                    -probcut_beta,
                    -probcut_beta + 1,
                    depth - 4,
                    ply + 1,
                    !cut_node,
                );
            }
            self.undo_move(m, undo);
            if self.stopped {
                return Some(0);
            }
            if v >= probcut_beta {
                let key = self.pos.hash;
                self.shared.tt.store(
                    key,
                    Some(m),
                    value_to_tt(v, ply),
                    eval,
                    depth - 3,
                    Bound::Lower,
                );
                return Some(v);
            }
        }
        None
    }

    /// The value of the position from an endgame table in memory or in the cache, with
    /// mates counted from the root; `None` if it has too many pieces or no table is there
    /// yet (a large file is read beside the search, never while the clock runs).
    fn tablebase_value(&self, ply: usize) -> Option<Value> {
        if !self.shared.tablebases {
            return None;
        }
        let n = self.pos.occupied[0].count_ones() + self.pos.occupied[1].count_ones();
        if n as usize > crate::tb::MAX_PIECES {
            return None;
        }
        use crate::tb::TbValue;
        // Beyond the search's horizon a mate is still a win, shown as a large score.
        let far = MATE_IN_MAX_PLY - 1;
        let value = crate::tb::global().probe_without_waiting(&self.pos)?;
        Some(match value {
            TbValue::Win(n) => {
                if ply + (n as usize) < MAX_PLY {
                    mate_in(ply + n as usize)
                } else {
                    far
                }
            }
            TbValue::Loss(n) => {
                if ply + (n as usize) < MAX_PLY {
                    mated_in(ply + n as usize)
                } else {
                    -far
                }
            }
            TbValue::Draw => 0,
            // Won by the perpetual-check rule: a sure win, but no mate to count.
            TbValue::RuleWin => far - 100,
            TbValue::RuleLoss => -(far - 100),
        })
    }

    /// After a quiet move `m` cut the node off: make it a killer and the counter move,
    /// and move the history towards it and away from the quiet moves tried before it.
    fn reward_quiet(&mut self, ply: usize, m: Move, depth: i32, tried: &[Option<(u8, u8)>]) {
        let frame = &mut self.stack[ply];
        if frame.killers[0] != Some(m) {
            frame.killers[1] = frame.killers[0];
            frame.killers[0] = Some(m);
        }
        if ply > 0
            && let Some(prev) = self.stack[ply - 1].mv
        {
            let moved = self.stack[ply - 1].moved;
            self.counters[moved as usize][prev.to.index() as usize] = Some(m);
        }
        let bonus = (depth * depth * 16).min(1600);
        let piece = self.pos.cells[m.from.index() as usize];
        let target = (piece, m.to.index());
        for &(p, to) in tried.iter().flatten() {
            if (p, to) != target {
                self.history.update(p, to, -bonus);
            }
        }
        self.history.update(piece, m.to.index(), bonus);
        for table in self.follow_up_tables(ply).into_iter().flatten() {
            for &(p, to) in tried.iter().flatten() {
                if (p, to) != target {
                    self.follow_ups.update(table, p, to, -bonus);
                }
            }
            self.follow_ups.update(table, piece, m.to.index(), bonus);
        }
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1];
        head[ply][0] = Some(m);
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// A result fixed by the rules, not the search: a judged repetition or the natural
    /// move limit.
    #[inline]
    fn rule_value(&mut self, ply: usize) -> Option<Value> {
        let clock = self.pos.halfmove_clock;
        if clock >= 4
            && let Some(v) = repetition_value(
                &self.path,
                clock as usize,
                ply,
                self.shared.rules.repetition_count(),
                (ply <= FULL_JUDGEMENT_PLIES).then_some((
                    &self.pos,
                    &mut self.cycles,
                    (!self.shared.trust_chase_wins).then_some(self.root_side),
                )),
            )
        {
            return Some(v);
        }
        if self.limit_draw() == LimitDraw::Drawn {
            // A mate on the last move still counts, and so does leaving the other side
            // no move at all (困毙), as `Game::outcome` judges it.
            if !self.pos.has_legal_move() {
                return Some(mated_in(ply));
            }
            return Some(0);
        }
        None
    }

    /// The natural move limit at the current node.
    #[inline]
    fn limit_draw(&self) -> LimitDraw {
        let clock = self.pos.halfmove_clock;
        if !move_limit_reached(clock, self.shared.rules.move_limit_plies) {
            return LimitDraw::None;
        }
        move_limit_draw(
            &self.path,
            self.pos.side,
            clock,
            &self.shared.rules,
            self.shared.move_limit_reading,
        )
    }

    /// The side that alone could claim the natural move limit's draw here, if one could
    /// (and is not mated or without a move: either on the last move still counts).
    #[inline]
    fn sole_claimant(&self) -> Option<Color> {
        match self.limit_draw() {
            LimitDraw::Claimable(side) => {
                let mated = side == self.pos.side && !self.pos.has_legal_move();
                (!mated).then_some(side)
            }
            _ => None,
        }
    }

    /// The value of a node where `claimant` alone may claim a draw, `node` searching it
    /// within a window: the claimant takes the draw rather than anything worse, so the
    /// value is at least 0 for it, and at most 0 for the other side.
    #[inline]
    fn with_claim(
        &mut self,
        claimant: Color,
        alpha: Value,
        beta: Value,
        node: impl FnOnce(&mut Self, Value, Value) -> Value,
    ) -> Value {
        if claimant == self.pos.side {
            if beta <= 0 {
                return 0;
            }
            node(self, alpha.max(0), beta).max(0)
        } else {
            if alpha >= 0 {
                return 0;
            }
            node(self, alpha, beta.min(0)).min(0)
        }
    }

    /// The quiescence search: captures until the position is quiet (all evasions when in
    /// check), with the static evaluation as the value of standing pat.
    fn qsearch<const PV: bool, const CHECKS: bool>(
        &mut self,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        match self.sole_claimant() {
            None => self.qsearch_node::<PV, CHECKS>(alpha, beta, ply),
            Some(claimant) => self.with_claim(claimant, alpha, beta, |s, a, b| {
                s.qsearch_node::<PV, CHECKS>(a, b, ply)
            }),
        }
    }

    /// The quiescence search once the move limit is settled.
    fn qsearch_node<const PV: bool, const CHECKS: bool>(
        &mut self,
        mut alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        if PV {
            self.pv_len[ply] = 0;
        }
        self.count_node(ply);
        if self.stopped {
            return 0;
        }
        let in_check = self.stack[ply].in_check;
        if let Some(v) = self.rule_value(ply) {
            return v;
        }
        if ply >= MAX_PLY - 4 {
            return if in_check { 0 } else { self.static_eval() };
        }
        let key = self.pos.hash;
        let tt = self.shared.tt.probe(key);
        let tt_value = tt.map_or(NONE, |e| value_from_tt(e.value, ply));
        if !PV
            && let Some(e) = tt
            && tt_value != NONE
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => tt_value >= beta,
                Bound::Upper => tt_value <= alpha,
            }
        {
            return tt_value;
        }
        let eval;
        let mut best;
        if in_check {
            eval = NONE;
            best = -INFINITE;
        } else {
            // Standing pat assumes the side to move has a move; one without any loses
            // (困毙), whatever it has left: a capture that takes the last free point, a
            // pawn against the palace or a hemmed horse are mates at the horizon too.
            // A piece away from its general's lines answers it with one piece's moves.
            if !self.pos.has_legal_move_out_of_check() {
                return mated_in(ply);
            }
            eval = match tt {
                Some(e) if e.eval != NONE => e.eval,
                _ => self.static_eval(),
            };
            best = eval;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let original_alpha = alpha;
        let mut picker = CapturePicker::new(&self.pos, in_check, tt.and_then(|e| e.mv));
        if in_check && picker.len() == 0 {
            return mated_in(ply);
        }
        let mut best_move = None;
        // After the captures, at the horizon, quiet checks too: most Xiangqi mating attacks
        // are chains of checks by horse, cannon and rook, and a check the captures-only
        // search does not see is how a mate in two or three slips past the horizon.
        let mut quiet_checks = None;
        loop {
            let (m, quiet) = if let Some(m) = picker.next() {
                let capture = self.pos.cells[m.to.index() as usize] != 0;
                if !in_check && capture {
                    // Delta pruning: even winning the piece would not reach alpha.
                    let victim = ORDER_VALUE[kind_of(self.pos.cells[m.to.index() as usize])];
                    if eval + victim + 150 <= alpha {
                        continue;
                    }
                    if !see_ge(&self.pos, m, 0) {
                        continue;
                    }
                }
                (m, false)
            } else if CHECKS && !in_check {
                let checks = quiet_checks.get_or_insert_with(|| QuietChecks::new(&self.pos));
                match checks.next(&self.pos) {
                    Some(m) => (m, true),
                    None => break,
                }
            } else {
                break;
            };
            let undo = self.do_move(m, ply);
            if quiet && !self.stack[ply + 1].in_check {
                // Not a check after all (the move changed the lines it was found on).
                self.undo_move(m, undo);
                continue;
            }
            let v = -self.qsearch::<PV, false>(-beta, -alpha, ply + 1);
            self.undo_move(m, undo);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, value_to_tt(best, ply), eval, 0, bound);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The continuation history's entries are `i16`: however long a run of the largest
    /// bonuses (or maluses) lasts, the gravity update keeps them inside, never wrapping.
    #[test]
    fn follow_up_entries_saturate_without_wrapping() {
        let mut ch = ContinuationHistory::new();
        let table = ContinuationHistory::index(5, Square::from_index_unchecked(40));
        let max_bonus = 1600;
        let mut last = 0;
        for _ in 0..10_000 {
            ch.update(table, 3, 17, max_bonus);
            let v = ch.0[table][3][17] as i32;
            assert!(v >= last && v <= HISTORY_MAX, "{last} then {v}");
            last = v;
        }
        assert!(last > HISTORY_MAX * 9 / 10);
        for _ in 0..10_000 {
            ch.update(table, 3, 17, -max_bonus);
            let v = ch.0[table][3][17] as i32;
            assert!(v <= last && v >= -HISTORY_MAX, "{last} then {v}");
            last = v;
        }
        assert!(last < -HISTORY_MAX * 9 / 10);
        // Other entries and tables are untouched.
        assert_eq!(ch.0[table][3][18], 0);
        assert_eq!(ch.0[table + 1][3][17], 0);
    }

    /// Over the moves of many random games, `may_give_check` holds for every move that
    /// checks, and still rules out most of the moves that do not.
    #[test]
    fn may_give_check_misses_no_check() {
        let mut rng = crate::play::Rng::new(0x2545_F491_4F6C_DD1D);
        let (mut checks, mut quiet, mut ruled_out) = (0, 0, 0);
        let mut test_moves = |pos: &mut Position| {
            for &m in pos.legal_moves().iter() {
                let undo = pos.play_unchecked(m);
                let checks_now = pos.is_check();
                pos.unplay(m, undo);
                if checks_now {
                    checks += 1;
                    assert!(may_give_check(pos, m), "{pos} {m}");
                } else {
                    quiet += 1;
                    ruled_out += !may_give_check(pos, m) as u32;
                }
            }
        };
        // A pawn leaving a horse's leg checks from off every line of the general: random
        // games seldom get there.
        test_moves(&mut "4k4/5P3/5N3/9/9/9/9/9/9/3K5 w - - 0 1".parse().unwrap());
        for _ in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..160 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                test_moves(&mut pos);
                let m = moves[rng.below(moves.len() as u64) as usize];
                pos.play_unchecked(m);
            }
        }
        assert!(checks > 1000, "only {checks} checking moves seen");
        assert!(ruled_out * 2 > quiet, "{ruled_out} of {quiet} ruled out");
    }
}

/// The tests' check that the search's accumulators equal ones computed from scratch at
/// every node it visits with a network: how many nodes were checked and how many failed,
/// over every search of the test process.
#[cfg(test)]
pub(crate) mod accumulator_check {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    pub static CHECKED: AtomicU64 = AtomicU64::new(0);
    pub static FAILED: AtomicU64 = AtomicU64::new(0);

    pub fn record(ok: bool) {
        CHECKED.fetch_add(1, Relaxed);
        if !ok {
            FAILED.fetch_add(1, Relaxed);
        }
    }
}

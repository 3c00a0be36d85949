//! An exact mate-in-N prover for composed problems (排局) and mating positions.
//!
//! "Mate in N" means N moves of the attacker (the side to move), 2N − 1 plies. The prover
//! is an AND-OR search over every legal move: at the attacker's nodes one move must force
//! the win, at the defender's nodes every reply must lose. The defender loses when it has
//! no legal move, in check (将死) or not (困毙: by the rules, a side with no move loses).
//!
//! Repetition: a line that reaches a position already on the path from the root is a
//! failure for the attacker (a perpetual checker loses by the 棋例, and a position that
//! recurs cannot belong to a shortest mate anyway: the attacker could play from its second
//! occurrence at once). This never hides a mate within N: a shortest mate never repeats.
//! A failure that comes from the path is not a property of the position, so it is not
//! stored in the transposition table while it depends on a position above the node: a
//! failure that counted only recurrences of the node itself or of positions below it is
//! the node's own (a shortest mate from it would repeat none of them) and is stored there.
//! Proofs always are.
//!
//! The search is iterative deepening on N with a transposition table keyed by the hash
//! that stores, per position with the attacker to move, the smallest N proved and the
//! largest N refuted. The attacker's moves are tried checks first, those leaving the defender
//! the fewest replies first. The defender's replies start, from two moves to mate up, with its
//! checks, those leaving the attacker the fewest evasions first (where the defender threatens
//! mate, as in most compositions, a check usually ends the attack), then with the move that
//! last refuted at the same ply; a reply whose position the table already refutes at the depth
//! needed ends the defender's node before any search. From two moves to mate up the replies
//! are searched in rounds: each reply not yet settled may visit a budget of nodes (1000, four
//! times more each round), one cut by it is taken up in the next round with what the table
//! kept, and the last one open has no budget; so the refutation cheapest to find ends the
//! node, not the first in the order, which may come after replies that each need a large
//! proof (proof-number search's choice, without keeping its tree). The root's first moves
//! are searched in such rounds too, so a first move that only just fails (its refutation
//! can cost far more than another's proof) does not hold up the mate. At the last move only
//! a mate counts and one legal reply refutes it: a move that leaves the squares near one of
//! the defender's present replies alone (the reply's own points and those near where its
//! general stands, see `reach_masks`) leaves it that reply and is passed over without being
//! played; the others are played, replies found legal after earlier moves tested first (a
//! cheap legality test) before all replies are generated. A budget of quiet moves can
//! restrict the attacker: with none, only checking moves (连将杀), the usual shape of the
//! classic compositions and a much smaller tree; a budget of one or two admits quiet keys,
//! at the cost of a far larger tree.
//!
//! What [`Solution`] reports:
//! - `mate_in`: the shortest mate (k attacker moves), if one exists within N.
//! - `first_moves`: every attacker first move that forces mate in k (more than one: the
//!   composition is "cooked").
//! - `line`: a main line of 2k − 1 plies: the attacker plays a move that mates in the
//!   fewest moves (the first in generation order), the defender the reply that holds out longest (ties: the first reply in
//!   generation order).
//! - `duals[i]`: for the attacker's i-th move of the line, the other attacker moves that
//!   also force mate within the moves that remain at that point (which, as the defender
//!   holds out longest, is the shortest mate from there). `duals[0]` is `first_moves`
//!   without the main move.
//!
//! The time limit bounds the whole solve: the proof, then the main line's read-out, then the
//! search for the other winning moves along it. When it runs out after the proof, what is
//! known is kept: the proved mate, its first move, the line as far as it was read
//! (`line_complete` false) and the other winning moves found (`cooks_complete` false).

pub mod defence;
pub mod files;
pub mod pns;

pub use defence::{
    Defence, Judgement, Refutation, Wrong, defend, judge, refutation, strongest_first,
    strongest_reply,
};

use crate::position::bit;
use crate::tables::RAYS;
use crate::{Move, MoveList, Position, Square};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// The most attacker moves to look for a mate in (N).
    pub max_moves: u32,
    /// At most this many of the attacker's moves may be quiet (not check); `Some(0)`: only
    /// checks (连将杀), `None`: any move. A mate found is always a real mate; "no mate"
    /// then only means none within the budget, and the shortest mate is the shortest
    /// within it.
    pub quiet_moves: Option<u32>,
    /// Stop after this long, reading out included; the verdict is then
    /// [`Verdict::Unknown`] unless a mate was already proved (then
    /// [`Solution::line_complete`] and [`Solution::cooks_complete`] say what the read-out
    /// missed).
    pub time_limit: Option<Duration>,
}

impl SolveOptions {
    /// A full search for mates in up to `max_moves` moves, without a time limit.
    pub fn mate_in(max_moves: u32) -> SolveOptions {
        SolveOptions {
            max_moves,
            quiet_moves: None,
            time_limit: None,
        }
    }

    /// A search for mates by consecutive checks (连将杀) in up to `max_moves` moves.
    pub fn checks_only(max_moves: u32) -> SolveOptions {
        SolveOptions {
            quiet_moves: Some(0),
            ..SolveOptions::mate_in(max_moves)
        }
    }
}

/// What the search concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker mates in this many moves, and not in fewer.
    Mate(u32),
    /// No mate within the N searched (and the quiet-move budget).
    NoMate,
    /// The time ran out; no mate exists in `searched` moves or fewer.
    Unknown {
        /// The largest N fully refuted.
        searched: u32,
    },
}

/// The result of [`Solver::solve`] (see the [module documentation](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The verdict.
    pub verdict: Verdict,
    /// Every first move that mates in the shortest number of moves (empty without a mate).
    pub first_moves: Vec<Move>,
    /// The main line, 2k − 1 plies, from the attacker's first move to the mating move; only
    /// its start when the time limit stopped the read-out (see `line_complete`).
    pub line: Vec<Move>,
    /// For each attacker move of `line` (plies 0, 2, 4 …), the other moves that also win
    /// within the moves remaining.
    pub duals: Vec<Vec<Move>>,
    /// Whether `first_moves` and `duals` are every such move. False only when the time
    /// limit stopped their read-out: the mate and its line are proved all the same.
    pub cooks_complete: bool,
    /// Whether `line` is the whole main line. False only when the time limit stopped its
    /// read-out after the mate was proved: `line` then holds the plies read so far (at least
    /// the proved first move), and `duals` one entry per attacker move of it.
    pub line_complete: bool,
    /// Positions visited (moves played) by the search.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

impl Solution {
    /// A verdict with nothing read out yet: no moves, no nodes, no time.
    pub fn bare(verdict: Verdict) -> Solution {
        Solution {
            verdict,
            first_moves: Vec::new(),
            line: Vec::new(),
            duals: Vec::new(),
            cooks_complete: true,
            line_complete: true,
            nodes: 0,
            elapsed: Duration::ZERO,
        }
    }

    /// The shortest mate, if proved.
    pub fn mate_in(&self) -> Option<u32> {
        match self.verdict {
            Verdict::Mate(k) => Some(k),
            _ => None,
        }
    }

    /// Whether more than one first move mates in the shortest number of moves.
    pub fn is_cooked(&self) -> bool {
        self.first_moves.len() > 1
    }
}

/// The most attacker moves a search may be asked for (the path and per-ply tables are
/// sized by it).
pub const MAX_MOVES: u32 = 120;

/// The transposition table's default size: 2^22 entries of 16 bytes (64 MiB, touched only
/// as used). `chuhe-engine solve --table-bits` changes it.
pub const DEFAULT_TABLE_BITS: u32 = 22;

/// The quiet-move budget that is no limit.
const UNLIMITED: u8 = u8::MAX;

/// The nodes a defender's reply may take in the first round of its node's search (see
/// [`Solver::and_node`]); each round gives the replies still open this many times more.
const FIRST_ROUND: u64 = 1000;
const ROUND_GROWTH: u64 = 4;

/// The table key of a position searched with quiet-move budget `q` (a budget changes what
/// can be proved, so each budget has its own entries).
#[inline]
fn table_key(hash: u64, q: u8) -> u64 {
    if q == UNLIMITED {
        hash
    } else {
        hash ^ (q as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

/// The budget left after an attacker's move that gives check or not.
#[inline]
fn spend(q: u8, check: bool) -> u8 {
    if check || q == UNLIMITED { q } else { q - 1 }
}

/// For a general on each point: the points of its rank and file and the 5×5 square around
/// it. Whether a general is attacked (by a rook, cannon, horse, pawn or the other general)
/// depends on nothing else of the board: the lines, the horses' points (a horse's move away)
/// and their legs, and the pawns' points are all among them. (Used to choose the replies of
/// `reach_masks`, whose masks are then narrowed.)
static NEAR_GENERAL: [u128; 90] = {
    let mut near = [0u128; 90];
    let mut k = 0;
    while k < 90 {
        let (kf, kr) = ((k % 9) as i32, (k / 9) as i32);
        let mut s = 0usize;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            if f == kf || r == kr || ((f - kf).abs() <= 2 && (r - kr).abs() <= 2) {
                near[k] |= 1u128 << s;
            }
            s += 1;
        }
        k += 1;
    }
    near
};

/// For a general on each point: the 5×5 square around it without its corners: the points
/// from which a horse or pawn attacks it and the horses' legs.
static LOCAL: [u128; 90] = {
    let mut local = [0u128; 90];
    let mut k = 0;
    while k < 90 {
        let (kf, kr) = ((k % 9) as i32, (k / 9) as i32);
        let mut s = 0usize;
        while s < 90 {
            let (df, dr) = (((s % 9) as i32 - kf).abs(), ((s / 9) as i32 - kr).abs());
            if df <= 2 && dr <= 2 && df + dr <= 3 {
                local[k] |= 1u128 << s;
            }
            s += 1;
        }
        k += 1;
    }
    local
};

/// The points of the four lines from `k` up to the second piece on each (`occ`: the
/// occupied points), included: what rooks, cannons and the other general attack `k` along
/// depends on nothing else.
fn lines_to_second_piece(k: u8, occ: u128) -> u128 {
    let mut mask = 0;
    for ray in &RAYS[k as usize] {
        let mut pieces = 0;
        for &s in &ray.sq[..ray.len as usize] {
            mask |= bit(s);
            if occ & bit(s) != 0 {
                pieces += 1;
                if pieces == 2 {
                    break;
                }
            }
        }
    }
    mask
}

/// The points of the rectangle with corners `a` and `b`: the points a move from `a` to `b`
/// passes or needs empty (a line's points between, a horse's leg, an elephant's eye), and
/// the two ends.
#[inline]
fn rectangle(a: Square, b: Square) -> u128 {
    let (fa, fb) = (a.file().index() as usize, b.file().index() as usize);
    let (ra, rb) = (a.rank().index() as usize, b.rank().index() as usize);
    // Ranks r0..=r1 are the bits from 9·r0 to 9·r1 + 8.
    let (r0, r1) = (ra.min(rb), ra.max(rb));
    let ranks = (u128::MAX >> (128 - 9 * (r1 + 1))) & !((1u128 << (9 * r0)) - 1);
    ranks & FILE_SPANS[fa.min(fb)][fa.max(fb)]
}

/// The points of files `f0..=f1`, for `f0 ≤ f1`.
static FILE_SPANS: [[u128; 9]; 9] = {
    let mut spans = [[0u128; 9]; 9];
    let mut f0 = 0;
    while f0 < 9 {
        let mut f1 = f0;
        while f1 < 9 {
            let mut s = 0;
            while s < 90 {
                if s % 9 >= f0 && s % 9 <= f1 {
                    spans[f0][f1] |= 1u128 << s;
                }
                s += 1;
            }
            f1 += 1;
        }
        f0 += 1;
    }
    spans
};

/// For the attacker to move in `pos`, up to three legal moves of the defender (as if it
/// were to move now) with, for each, the points an attacker's move must leave or reach to
/// take that reply away: the reply's rectangle and the points near where its general then
/// stands. An attacker's move that touches none of them changes neither whether the reply
/// can be made nor whether it leaves the general attacked, so after it the defender still
/// has that reply and is not mated. Returns how many of `out` are filled (0 when the
/// defender has no move now); `replies` is scratch.
fn reach_masks(
    pos: &mut Position,
    replies: &mut MoveList,
    out: &mut [u128; 3],
    masks: &mut Vec<u128>,
) -> usize {
    pos.side = !pos.side;
    pos.legal_moves_into(replies);
    let defender = pos.side;
    let general = pos.general(defender);
    pos.side = !pos.side;
    if replies.is_empty() {
        return 0;
    }
    let near = NEAR_GENERAL[general.index() as usize];
    masks.clear();
    masks.extend(replies.iter().map(|&w| {
        if w.from == general {
            NEAR_GENERAL[w.to.index() as usize] | rectangle(w.from, w.to)
        } else {
            near | rectangle(w.from, w.to)
        }
    }));
    // The smallest mask first, then the replies that leave the fewest moves unfiltered by
    // the masks chosen so far (their common points as the measure).
    let mut n = 0;
    let mut common = u128::MAX;
    while n < out.len() {
        let Some(&m) = masks.iter().min_by_key(|&&m| (m & common).count_ones()) else {
            break;
        };
        if (m & common) == common {
            break;
        }
        out[n] = m;
        common &= m;
        n += 1;
    }
    // The chosen masks made exact: of the general's rank and file, only the points up to
    // the second piece on each side (after the reply) matter.
    let occ = pos.occupied[0] | pos.occupied[1];
    for o in out[..n].iter_mut() {
        let i = masks.iter().position(|m| m == o).unwrap_or(0);
        let w = replies[i];
        let k = if w.from == general { w.to } else { general };
        let occ_w = (occ & !bit(w.from.index())) | bit(w.to.index());
        *o = LOCAL[k.index() as usize]
            | lines_to_second_piece(k.index(), occ_w)
            | rectangle(w.from, w.to);
    }
    n
}

/// A placeholder for unused slots of move arrays.
const NO_MOVE: Move = Move::new(Square::ALL[0], Square::ALL[0]);

/// A search result: proved, and for a failure, on which positions of the path it depends.
#[derive(Clone, Copy)]
struct Res {
    proved: bool,
    /// The smallest index in the path of a position whose recurrence this failure counted
    /// as a failure ([`NO_TAINT`]: none), or 0 when the time ran out. A node at path index
    /// i may store a failure tainted at i or later (see [`Solver::or_node`]).
    taint: usize,
}

/// The taint of a failure that depends on no position of the path.
const NO_TAINT: usize = usize::MAX;

const PROVED: Res = Res {
    proved: true,
    taint: NO_TAINT,
};

const REFUTED: Res = Res {
    proved: false,
    taint: NO_TAINT,
};

/// A failure because the time ran out: never stored.
const OUT_OF_TIME: Res = Res {
    proved: false,
    taint: 0,
};

/// How far a solve under way has got, for a progress display on another thread: the
/// solver writes it as it searches ([`Solver::set_progress`]), the display reads
/// [`Progress::report`].
#[derive(Debug, Default)]
pub struct Progress {
    depth: AtomicU32,
    proved: AtomicU32,
    nodes: AtomicU64,
}

/// What [`Progress`] says at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProgressReport {
    /// The mate length being searched: every shorter one is refuted (0: not started).
    pub depth: u32,
    /// The mate proved, whose line and other winning moves are being read out.
    pub proved: Option<u32>,
    /// Positions visited so far (moves played).
    pub nodes: u64,
}

impl Progress {
    /// What the solve has reached.
    pub fn report(&self) -> ProgressReport {
        let proved = self.proved.load(Ordering::Relaxed);
        ProgressReport {
            depth: self.depth.load(Ordering::Relaxed),
            proved: (proved != 0).then_some(proved),
            nodes: self.nodes.load(Ordering::Relaxed),
        }
    }
}

/// The prover. It keeps its transposition table between [`Solver::solve`] calls (entries of
/// an earlier position are ignored, not cleared), so a batch should reuse one solver.
pub struct Solver {
    /// Two words per entry: the hash, and `generation | proved << 16 | refuted << 24 |
    /// best move << 32` (best move: from, to, and a flag bit).
    table: Vec<u64>,
    mask: usize,
    generation: u16,
    nodes: u64,
    /// The quiet-move budget at the root ([`UNLIMITED`]: none).
    quiet: u8,
    /// Hashes of the positions from the root to the current node, after `history`.
    path: Vec<u64>,
    /// Hashes of the positions before the root (see [`Solver::solve_after`]).
    history: Vec<u64>,
    /// Per ply: the defender reply that last refuted there.
    killers: Vec<Option<Move>>,
    deadline: Option<Instant>,
    /// Stops the search as the deadline does once `nodes` reaches it (`u64::MAX`: never).
    node_limit: u64,
    /// Counts the clock checks, to read the clock only every 1024th time.
    polls: u32,
    aborted: bool,
    /// Set from another thread to stop the search as if its time had run out (an app
    /// cancelling a solve it runs in the background).
    stop: Option<Arc<AtomicBool>>,
    /// Where the solve under way says how far it has got.
    progress: Option<Arc<Progress>>,
    /// Scratch for the masks of [`reach_masks`].
    scratch: Vec<u128>,
    /// The node count at which the search under a defender's node that gave one of its
    /// replies a budget stops, as if out of time but only up to that node (`u64::MAX`: no
    /// budget under way).
    cut_at: u64,
    /// Set when `cut_at` stopped the search; the node that set the budget clears it.
    cut: bool,
    /// The first round's budget of the defender's replies ([`FIRST_ROUND`]; `u64::MAX`:
    /// no rounds, each reply searched to the end in turn).
    first_round: u64,
    /// The same for the root's first moves.
    root_first_round: u64,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new(DEFAULT_TABLE_BITS)
    }
}

impl Solver {
    /// A solver with a table of 2^`bits` entries (16 bytes each; the memory is only touched
    /// as it is used).
    pub fn new(bits: u32) -> Solver {
        let entries = 1usize << bits.clamp(10, 30);
        Solver {
            table: vec![0; 2 * entries],
            mask: entries - 1,
            generation: 1,
            nodes: 0,
            quiet: UNLIMITED,
            path: Vec::new(),
            history: Vec::new(),
            killers: vec![None; 2 * MAX_MOVES as usize + 2],
            deadline: None,
            node_limit: u64::MAX,
            polls: 0,
            aborted: false,
            stop: None,
            progress: None,
            scratch: Vec::new(),
            cut_at: u64::MAX,
            cut: false,
            first_round: FIRST_ROUND,
            root_first_round: FIRST_ROUND,
        }
    }

    /// Stops every search of this solver once `stop` is set (checked with the clock): the
    /// verdict is then [`Verdict::Unknown`] unless a mate was already proved.
    pub fn set_stop(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }

    /// Reports how far each solve has got to `progress` (the depth and proof when they
    /// change, the nodes as often as the clock is read); `None`: to nothing.
    pub fn set_progress(&mut self, progress: Option<Arc<Progress>>) {
        self.progress = progress;
    }

    /// Tells the progress display, if any, the depth searched, the mate proved and the
    /// nodes so far.
    fn report(&self, depth: u32, proved: Option<u32>) {
        if let Some(p) = &self.progress {
            p.depth.store(depth, Ordering::Relaxed);
            p.proved.store(proved.unwrap_or(0), Ordering::Relaxed);
            p.nodes.store(self.nodes, Ordering::Relaxed);
        }
    }

    /// Stops every search of this solver once it has visited `limit` nodes (moves played),
    /// as if its time had run out; `None`: no limit. Unlike the clock it stops at the same
    /// point on every run, which tests and reproducible figures need.
    pub fn set_node_limit(&mut self, limit: Option<u64>) {
        self.node_limit = limit.unwrap_or(u64::MAX);
    }

    fn begin(&mut self, opts: &SolveOptions, start: Instant) {
        // Generation 0 is what an untouched entry holds; skip it.
        self.generation = self.generation.wrapping_add(1).max(1);
        self.nodes = 0;
        self.quiet = opts
            .quiet_moves
            .map_or(UNLIMITED, |q| q.min(MAX_MOVES) as u8);
        self.path.clear();
        self.killers.iter_mut().for_each(|k| *k = None);
        self.deadline = opts.time_limit.map(|t| start + t);
        self.aborted = false;
        self.cut = false;
        self.cut_at = u64::MAX;
    }

    /// Solves `pos` for the side to move (see the [module documentation](self)).
    pub fn solve(&mut self, pos: &Position, opts: &SolveOptions) -> Solution {
        self.solve_after(pos, &[], opts)
    }

    /// Solves `pos` reached after the positions `history` (their hashes, e.g. the game so
    /// far): a line that returns to one of them is no proof either.
    pub fn solve_after(
        &mut self,
        pos: &Position,
        history: &[u64],
        opts: &SolveOptions,
    ) -> Solution {
        let start = Instant::now();
        self.begin(opts, start);
        self.history = history.to_vec();
        let max = opts.max_moves.min(MAX_MOVES) as u8;
        let mut root = pos.clone();
        let mut verdict = Verdict::NoMate;
        let mut searched = 0;
        let mut proof_move = None;
        for k in 1..=max {
            self.report(k as u32, None);
            self.reset_path();
            if self.or_node(&mut root, k, self.quiet, 0).proved {
                verdict = Verdict::Mate(k as u32);
                self.report(k as u32, Some(k as u32));
                // The root's entry, just stored, names the move that proved it: the first
                // move to report if the time runs out before the read-out finds one (later
                // stores may overwrite the entry).
                proof_move = self.probe(table_key(root.hash(), self.quiet)).2;
                break;
            }
            if self.aborted {
                verdict = Verdict::Unknown { searched };
                break;
            }
            searched = k as u32;
        }
        let mut solution = Solution::bare(verdict);
        if let Verdict::Mate(k) = verdict {
            self.read_out(&root, k as u8, proof_move, &mut solution);
        }
        self.deadline = None;
        self.aborted = false;
        self.cut = false;
        self.cut_at = u64::MAX;
        if let Some(p) = &self.progress {
            p.nodes.store(self.nodes, Ordering::Relaxed);
        }
        solution.nodes = self.nodes;
        solution.elapsed = start.elapsed();
        solution
    }

    /// Whether the side to move mates within `moves` moves (a fresh search from `pos`, no
    /// time limit, within the quiet-move budget of the solver's last options).
    pub fn mates_within(&mut self, pos: &Position, moves: u32) -> bool {
        if moves == 0 {
            return false;
        }
        self.deadline = None;
        self.aborted = false;
        self.cut = false;
        self.cut_at = u64::MAX;
        self.history.clear();
        self.path.clear();
        let mut p = pos.clone();
        self.or_node(&mut p, moves.min(MAX_MOVES) as u8, self.quiet, 0)
            .proved
    }

    /// A move of the side to move that forces mate within `moves` moves, if there is one.
    /// Following it at every attacker turn, against every reply, mates in time: this is the
    /// proof tree that a separate checker can walk.
    pub fn mating_move(&mut self, pos: &Position, moves: u32) -> Option<Move> {
        if moves == 0 {
            return None;
        }
        self.deadline = None;
        self.aborted = false;
        self.cut = false;
        self.cut_at = u64::MAX;
        self.history.clear();
        self.path.clear();
        let mut p = pos.clone();
        self.winning_moves(&mut p, moves.min(MAX_MOVES) as u8, self.quiet, true, None)
            .first()
            .copied()
    }

    /// The moves that force mate within `d` moves from `pos` (attacker to move; `path`
    /// holds the line so far without `pos`). With `first_only`, stops at the first; with
    /// `after`, tries only the moves after that one in generation order.
    fn winning_moves(
        &mut self,
        pos: &mut Position,
        d: u8,
        q: u8,
        first_only: bool,
        after: Option<Move>,
    ) -> Vec<Move> {
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        let skip = after
            .and_then(|a| moves.iter().position(|&m| m == a))
            .map_or(0, |i| i + 1);
        let mut replies = MoveList::new();
        let mut found = Vec::new();
        self.path.push(pos.hash());
        for &m in moves.iter().skip(skip) {
            let undo = pos.play_unchecked(m);
            self.nodes += 1;
            // A quiet move beyond the budget, or one that repeats the line, cannot win.
            let check = pos.is_check();
            let allowed = (check || q > 0) && !self.path.contains(&pos.hash());
            let wins = allowed && {
                pos.legal_moves_into(&mut replies);
                replies.is_empty()
                    || (d > 1 && self.and_node(pos, d - 1, spend(q, check), 1).proved)
            };
            pos.unplay(m, undo);
            if wins {
                found.push(m);
                if first_only {
                    break;
                }
            }
        }
        self.path.pop();
        found
    }

    /// The smallest number of moves (at most `max`) in which the attacker to move in `pos`
    /// mates, known to exist; meaningless when the search was stopped (`self.aborted`).
    fn shortest(&mut self, pos: &mut Position, max: u8, q: u8) -> u8 {
        (1..max)
            .find(|&d| self.or_node(pos, d, q, 1).proved || self.aborted)
            .unwrap_or(max)
    }

    /// Reads the proved mate in `k` from `root` out into `solution` until the deadline:
    /// the main line first, then the other winning moves along it, since when time is short
    /// the line matters more than the cooks. `proof_move` is the first move of the proof,
    /// the line's start if the deadline passes before the read-out finds one.
    fn read_out(
        &mut self,
        root: &Position,
        k: u8,
        proof_move: Option<Move>,
        solution: &mut Solution,
    ) {
        let turns = self.read_line(root, k, solution);
        if solution.line.is_empty()
            && let Some(m) = proof_move
        {
            // The time ran out before the read-out found a first move.
            solution.line.push(m);
            // A mate in one is its first move.
            solution.line_complete = k == 1;
            solution.first_moves.push(m);
            solution.duals.push(Vec::new());
            solution.cooks_complete = false;
        } else {
            self.read_duals(root, &turns, solution);
        }
    }

    /// Reads the main line of the proved mate in `k` from `root` into `solution.line`: the
    /// attacker's first winning move in generation order, the defender's reply that holds
    /// out longest (the first such). Stops when the time is up, leaving
    /// `solution.line_complete` false. Returns the moves to mate in and the quiet-move
    /// budget at each attacker move read.
    fn read_line(&mut self, root: &Position, k: u8, solution: &mut Solution) -> Vec<(u8, u8)> {
        self.reset_path();
        let mut pos = root.clone();
        let mut remaining = k;
        let mut q = self.quiet;
        let mut replies = MoveList::new();
        let mut turns = Vec::new();
        solution.line_complete = false;
        while !self.time_is_up() {
            // Empty only if the time ran out: `remaining` was proved for this position.
            let Some(&main) = self
                .winning_moves(&mut pos, remaining, q, true, None)
                .first()
            else {
                break;
            };
            turns.push((remaining, q));
            solution.line.push(main);
            self.path.push(pos.hash());
            pos.play_unchecked(main);
            q = spend(q, pos.is_check());
            pos.legal_moves_into(&mut replies);
            if replies.is_empty() || remaining == 1 {
                solution.line_complete = true;
                break;
            }
            self.path.push(pos.hash());
            let mut best: Option<(Move, u8)> = None;
            for &r in replies.iter() {
                let undo = pos.play_unchecked(r);
                let s = self.shortest(&mut pos, remaining - 1, q);
                pos.unplay(r, undo);
                if self.aborted {
                    break;
                }
                if best.is_none_or(|(_, b)| s > b) {
                    best = Some((r, s));
                }
            }
            // A reply not yet measured might hold out longer than the best so far.
            if self.aborted {
                break;
            }
            let Some((r, s)) = best else { break };
            solution.line.push(r);
            pos.play_unchecked(r);
            remaining = s;
        }
        self.reset_path();
        turns
    }

    /// Fills `solution.first_moves` and `solution.duals` for the attacker moves of
    /// `solution.line` as [`Solver::read_line`] read it (`turns`: the moves to mate in and
    /// the quiet-move budget at each): the line's move, then every other winning move as far
    /// as the time allows (`solution.cooks_complete` is cleared when it cut them).
    fn read_duals(&mut self, root: &Position, turns: &[(u8, u8)], solution: &mut Solution) {
        self.reset_path();
        let mut pos = root.clone();
        for (i, &(d, q)) in turns.iter().enumerate() {
            let main = solution.line[2 * i];
            let mut others = Vec::new();
            if solution.cooks_complete && !self.time_is_up() {
                // The line's move is the first winning one in generation order: those
                // before it were refuted when it was found.
                others = self.winning_moves(&mut pos, d, q, false, Some(main));
            }
            if self.aborted {
                solution.cooks_complete = false;
            }
            if i == 0 {
                solution.first_moves = std::iter::once(main).chain(others.clone()).collect();
            }
            solution.duals.push(others);
            self.path.push(pos.hash());
            pos.play_unchecked(main);
            if let Some(&r) = solution.line.get(2 * i + 1) {
                self.path.push(pos.hash());
                pos.play_unchecked(r);
            }
        }
        self.reset_path();
    }

    /// Where `hash` is in the path (history included), if it is.
    #[inline]
    fn path_index(&self, hash: u64) -> Option<usize> {
        self.path.iter().position(|&h| h == hash)
    }

    fn reset_path(&mut self) {
        self.path.clear();
        self.path.extend_from_slice(&self.history);
    }

    #[inline]
    fn probe(&self, hash: u64) -> (u8, u8, Option<Move>) {
        let i = 2 * (hash as usize & self.mask);
        if self.table[i] != hash {
            return (0, 0, None);
        }
        let data = self.table[i + 1];
        if data as u16 != self.generation {
            return (0, 0, None);
        }
        let proved = (data >> 16) as u8;
        let refuted = (data >> 24) as u8;
        let best = (data >> 48 & 1 != 0).then(|| {
            Move::new(
                Square::from_index_unchecked((data >> 32) as u8),
                Square::from_index_unchecked((data >> 40) as u8),
            )
        });
        (proved, refuted, best)
    }

    /// Records a proof within `proved` moves (0: none) by `best`, or a refutation of
    /// `refuted` moves (0: none), merging with what the entry knew of the same position.
    fn store(&mut self, hash: u64, proved: u8, refuted: u8, best: Option<Move>) {
        let (mut p, mut r, mut b) = self.probe(hash);
        if proved != 0 && (p == 0 || proved < p) {
            p = proved;
            b = best;
        }
        r = r.max(refuted);
        let i = 2 * (hash as usize & self.mask);
        let mut data = self.generation as u64 | (p as u64) << 16 | (r as u64) << 24;
        if let Some(m) = b {
            data |= (m.from.index() as u64) << 32 | (m.to.index() as u64) << 40 | 1 << 48;
        }
        self.table[i] = hash;
        self.table[i + 1] = data;
    }

    /// Whether the search must stop, reading the clock and the stop flag only every 1024th
    /// call (the node limit costs a comparison).
    #[inline]
    fn out_of_time(&mut self) -> bool {
        if self.aborted || self.cut {
            return true;
        }
        if self.nodes >= self.cut_at {
            self.cut = true;
            return true;
        }
        self.polls = self.polls.wrapping_add(1);
        if self.polls & 1023 == 0 || self.nodes >= self.node_limit {
            return self.time_is_up();
        }
        false
    }

    /// Whether the search must stop: stopped, past the deadline or the node limit (the clock
    /// read now; the read-out asks at every ply).
    fn time_is_up(&mut self) -> bool {
        if let Some(p) = &self.progress {
            p.nodes.store(self.nodes, Ordering::Relaxed);
        }
        let stopped = self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed));
        if stopped
            || self.nodes >= self.node_limit
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The attacker to move in `pos` mates within `d` ≥ 1 moves?
    fn or_node(&mut self, pos: &mut Position, d: u8, q: u8, ply: usize) -> Res {
        if self.out_of_time() {
            return OUT_OF_TIME;
        }
        // An endgame table already available (in memory or cached, never generated here)
        // knows the shortest mate: it proves a mate within `d` moves when the quiet-move
        // budget is unlimited, and refutes one under any budget when it is too far or absent.
        if pos.occupied[0].count_ones() + pos.occupied[1].count_ones()
            <= crate::tb::MAX_PIECES as u32
            && let Some(v) = crate::tb::global().probe(pos)
        {
            let within = matches!(v, crate::tb::TbValue::Win(n) if (n as u32) < 2 * d as u32);
            if !within {
                return REFUTED;
            }
            if q == UNLIMITED {
                return PROVED;
            }
        }
        let hash = pos.hash();
        let key = table_key(hash, q);
        let (proved, refuted, tt_move) = self.probe(key);
        if proved != 0 && proved <= d {
            return PROVED;
        }
        if refuted >= d {
            return REFUTED;
        }
        if d == 1 {
            return self.mate_at_once(pos, q, key);
        }
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        let mut replies = MoveList::new();
        let mut taint = NO_TAINT;
        // Candidates for the deeper search, with an ordering key (smaller first).
        let mut cands = [(NO_MOVE, 0u32, false); 256];
        let mut n = 0;
        for &m in moves.iter() {
            let undo = pos.play_unchecked(m);
            self.nodes += 1;
            let check = pos.is_check();
            if !check && q == 0 {
                pos.unplay(m, undo);
                continue;
            }
            if let Some(i) = self.path_index(pos.hash()) {
                pos.unplay(m, undo);
                taint = taint.min(i);
                continue;
            }
            let captured = undo.captured().is_some();
            // A quiet move is ordered without counting the replies (a stalemating one is
            // still found: its defender node has no reply to refute).
            let count = if check {
                pos.legal_moves_into(&mut replies);
                Some(replies.len())
            } else {
                None
            };
            pos.unplay(m, undo);
            if count == Some(0) {
                self.store(key, 1, 0, Some(m));
                return PROVED;
            }
            let order = if Some(m) == tt_move {
                0
            } else if let Some(count) = count {
                1 + count as u32
            } else if captured {
                1000
            } else {
                2000
            };
            cands[n] = (m, order, check);
            n += 1;
        }
        // This node's index in the path while its moves are searched.
        let here = self.path.len();
        let cands = &mut cands[..n];
        cands.sort_unstable_by_key(|&(_, order, _)| order);
        self.path.push(hash);
        // At the root the first moves are searched in rounds of growing node budgets, as
        // the defender's replies are (see `and_node`): one proof ends the search, and a
        // first move whose refutation is very expensive (a near miss) would otherwise hold
        // up a cheap proof ordered after it. Deeper in the tree budgets at the attacker's
        // nodes cost more than they save.
        let rounds = ply == 0 && cands.len() > 1 && self.root_first_round != u64::MAX;
        let outer = self.cut_at;
        let mut open = [true; 256];
        let mut left = cands.len();
        let mut budget = self.root_first_round;
        'rounds: while left > 0 {
            for (j, &(m, _, check)) in cands.iter().enumerate() {
                if !open[j] {
                    continue;
                }
                if rounds && left > 1 {
                    self.cut_at = outer.min(self.nodes.saturating_add(budget));
                }
                let undo = pos.play_unchecked(m);
                let r = self.and_node(pos, d - 1, spend(q, check), ply + 1);
                pos.unplay(m, undo);
                self.cut_at = outer;
                // This node's budget (not one above it) cut the move's search.
                if self.cut && self.nodes < outer && !self.aborted {
                    self.cut = false;
                    continue;
                }
                if r.proved {
                    self.path.pop();
                    self.store(key, d, 0, Some(m));
                    return r;
                }
                taint = taint.min(r.taint);
                if self.aborted || self.cut {
                    break 'rounds;
                }
                open[j] = false;
                left -= 1;
            }
            budget = budget.saturating_mul(ROUND_GROWTH);
        }
        self.path.pop();
        if self.aborted || self.cut {
            return OUT_OF_TIME;
        }
        // A failure that counted only recurrences of this node or of positions below it is
        // this position's own: were there a mate within `d`, the shortest one would visit
        // only positions nearer to mate than this one, so none of those recurrences, and the
        // search would have found it. It is stored, and the node above sees no taint.
        if taint >= here {
            self.store(key, 0, d, None);
            return REFUTED;
        }
        Res {
            proved: false,
            taint,
        }
    }

    /// The attacker to move in `pos` (table key `key`) mates at once? Only a mate counts,
    /// and one legal reply refutes it: a move that touches none of the points of one of
    /// [`reach_masks`] is passed over without being played, and of those played, replies
    /// found legal after earlier moves are tested first (a cheap legality test) before
    /// whether any reply is left is asked (the first piece that has one tells). A position
    /// without a move cannot be one the line has passed through, so no recurrence is looked
    /// for and the failure is always the position's own.
    fn mate_at_once(&mut self, pos: &mut Position, q: u8, key: u64) -> Res {
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        let mut replies = MoveList::new();
        let mut reach = [0u128; 3];
        let n_reach = reach_masks(pos, &mut replies, &mut reach, &mut self.scratch);
        let reach = &reach[..n_reach];
        let mut witnesses = [NO_MOVE; 3];
        for &m in moves.iter() {
            let touched = bit(m.from.index()) | bit(m.to.index());
            if reach.iter().any(|&r| r & touched == 0) {
                continue;
            }
            let undo = pos.play_unchecked(m);
            self.nodes += 1;
            // Whether the move checks matters only when none but checks are allowed.
            if (q == 0 && !pos.is_check())
                || witnesses.iter().any(|&w| w != NO_MOVE && pos.is_legal(w))
            {
                pos.unplay(m, undo);
                continue;
            }
            pos.some_legal_moves_into(&mut replies);
            pos.unplay(m, undo);
            if replies.is_empty() {
                self.store(key, 1, 0, Some(m));
                return PROVED;
            }
            witnesses = [
                replies[0],
                replies[replies.len() / 2],
                replies[replies.len() - 1],
            ];
        }
        self.store(key, 0, 1, None);
        REFUTED
    }

    /// Every reply of the defender to move in `pos` loses to a mate within `d` ≥ 1 moves?
    /// Plays the defender's reply `r` and searches the attacker's node after it; a position
    /// already on the path (which holds the defender's node) refutes, tainted there.
    #[inline]
    fn after_reply(&mut self, pos: &mut Position, r: Move, d: u8, q: u8, ply: usize) -> Res {
        let undo = pos.play_unchecked(r);
        self.nodes += 1;
        let res = if let Some(i) = self.path_index(pos.hash()) {
            Res {
                proved: false,
                taint: i,
            }
        } else {
            self.or_node(pos, d, q, ply + 1)
        };
        pos.unplay(r, undo);
        res
    }

    fn and_node(&mut self, pos: &mut Position, d: u8, q: u8, ply: usize) -> Res {
        let killer = self.killers.get(ply).copied().flatten();
        // At the last move the reply that refuted last at this ply usually refutes again,
        // and one that does ends the node: it is tried before the replies are generated.
        if d == 1
            && let Some(k) = killer
            && pos.is_legal(k)
        {
            self.path.push(pos.hash());
            let res = self.after_reply(pos, k, d, q, ply);
            self.path.pop();
            if !res.proved {
                return res;
            }
        }
        let mut replies = MoveList::new();
        pos.legal_moves_into(&mut replies);
        // A reply whose position the table knows to escape a mate within `d` ends the node
        // at once (not asked at the last move, where the attacker's nodes are cheap). Each
        // reply that gives check is given, as it is played for that, the number of the
        // attacker's evasions.
        let mut evasions = [None; 256];
        if d >= 2 {
            let mut answers = MoveList::new();
            for (i, &r) in replies.iter().enumerate() {
                let undo = pos.play_unchecked(r);
                let (_, refuted, _) = self.probe(table_key(pos.hash(), q));
                if pos.is_check() {
                    pos.legal_moves_into(&mut answers);
                    evasions[i] = Some(answers.len() as u32);
                }
                pos.unplay(r, undo);
                if refuted >= d {
                    return REFUTED;
                }
            }
        }
        // Checks first, the refutation that worked last at this ply first among them, then
        // those leaving the attacker the fewest evasions: what is left to refute below a
        // check is only its evasions, and where the defender threatens mate (as in most
        // compositions) a check usually ends the attack at once. Then that refutation,
        // captures (often of the checking piece) and the rest, in generation order.
        let mut order = [(0u8, 0u32); 256];
        for (i, &r) in replies.iter().enumerate() {
            let is_killer = Some(r) == killer;
            let key = match evasions[i] {
                Some(_) if is_killer => 0,
                Some(n) => 1 + n,
                None if is_killer => 1000,
                None if pos.piece_at(r.to).is_some() => 1001,
                None => 1002,
            };
            order[i] = (i as u8, key);
        }
        let order = &mut order[..replies.len()];
        order.sort_by_key(|&(_, key)| key);
        // From two moves to mate up the replies are searched in rounds: in each, every reply
        // not yet settled gets a node budget, four times the last round's, and one whose
        // search the budget cut stays open for the next round, which finds what the table
        // kept of it; the last one open has no budget. One refutation ends the node, and
        // replies that only lose can need large proofs each: this way the refutation that
        // is cheapest to find is found first, whatever its place in the order (the choice
        // proof-number search makes, without keeping the tree).
        let rounds = d >= 2 && order.len() > 1 && self.first_round != u64::MAX;
        let outer = self.cut_at;
        let mut open = [true; 256];
        let mut left = order.len();
        let mut budget = self.first_round;
        self.path.push(pos.hash());
        let mut result = PROVED;
        'rounds: while left > 0 {
            for (j, &(i, _)) in order.iter().enumerate() {
                if !open[j] {
                    continue;
                }
                if rounds && left > 1 {
                    self.cut_at = outer.min(self.nodes.saturating_add(budget));
                }
                let r = replies[i as usize];
                let res = self.after_reply(pos, r, d, q, ply);
                self.cut_at = outer;
                // This node's budget (not one above it) cut the reply's search.
                if self.cut && self.nodes < outer && !self.aborted {
                    self.cut = false;
                    continue;
                }
                if !res.proved {
                    if !self.cut
                        && !self.aborted
                        && let Some(k) = self.killers.get_mut(ply)
                    {
                        *k = Some(r);
                    }
                    result = res;
                    break 'rounds;
                }
                open[j] = false;
                left -= 1;
            }
            budget = budget.saturating_mul(ROUND_GROWTH);
        }
        self.path.pop();
        result
    }
}

/// Solves `pos` with a fresh [`Solver`] (for one position; a batch should reuse a solver).
pub fn solve(pos: &Position, opts: &SolveOptions) -> Solution {
    Solver::default().solve(pos, opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    // 1. 车二平五 (pinning the advisor) 将5平6 2. 车五进七: the unique mate in two.
    const MATE_IN_TWO: &str = "4k4/4a4/9/9/9/9/9/9/7R1/3K5 w - - 0 1";

    #[test]
    fn rectangles_hold_the_points_between_their_corners() {
        for a in Square::ALL {
            for b in Square::ALL {
                let (fa, fb) = (a.file().index(), b.file().index());
                let (ra, rb) = (a.rank().index(), b.rank().index());
                let mut naive = 0u128;
                for s in Square::ALL {
                    let (f, r) = (s.file().index(), s.rank().index());
                    if (fa.min(fb)..=fa.max(fb)).contains(&f)
                        && (ra.min(rb)..=ra.max(rb)).contains(&r)
                    {
                        naive |= bit(s.index());
                    }
                }
                assert_eq!(rectangle(a, b), naive, "{a} {b}");
            }
        }
    }

    /// Checks on `pos` that no attacker's move the reach masks pass over mates; returns the
    /// mates in one and the moves passed over.
    fn check_reach_masks(pos: &Position) -> (usize, usize) {
        let mut p = pos.clone();
        let (mut replies, mut reach, mut scratch) = (MoveList::new(), [0u128; 3], Vec::new());
        let n = reach_masks(&mut p, &mut replies, &mut reach, &mut scratch);
        assert!(p == *pos, "the position is given back as it was");
        let (mut mates, mut passed) = (0, 0);
        for &m in pos.legal_moves().iter() {
            let mate = pos.play(m).unwrap().legal_moves().is_empty();
            let touched = bit(m.from.index()) | bit(m.to.index());
            let pass = reach[..n].iter().any(|&r| r & touched == 0);
            assert!(!(pass && mate), "{pos}: {m} mates but is passed over");
            mates += mate as usize;
            passed += pass as usize;
        }
        (mates, passed)
    }

    #[test]
    fn the_last_move_passes_over_no_mate() {
        // The wukong puzzles' positions, and for its mates in two the positions after each
        // check and reply: mates in one by every piece, discovered, by a cannon's new
        // screen, by a horse's freed leg, and 困毙.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/data/puzzles/wukong_mates_public.json"
        );
        // 困毙 by a quiet move far from the general: 1. 车九进八 blocks the horse's leg,
        // Black's only move (the general's points are all attacked).
        let blocked: Position = "nP2k4/9/6N2/9/4P4/9/9/9/3R5/R3K4 w - - 0 1"
            .parse()
            .unwrap();
        assert_eq!(blocked.with_side_swapped().legal_moves().len(), 1);
        assert!(
            blocked
                .play("a0a8".parse().unwrap())
                .unwrap()
                .legal_moves()
                .is_empty()
        );
        assert!(check_reach_masks(&blocked).0 >= 1);
        let text = std::fs::read_to_string(path).expect("the wukong puzzles");
        let puzzles = files::read_wukong(&text).unwrap();
        let (mut mates, mut passed, mut positions) = (0, 0, 0);
        for puzzle in &puzzles {
            let pos: Position = puzzle.fen.parse().unwrap();
            let mut boards = vec![pos.clone()];
            if puzzle.claimed == Some(2) {
                for &m in pos.legal_moves().iter() {
                    let after = pos.play(m).unwrap();
                    if after.is_check() {
                        boards.extend(after.legal_moves().iter().map(|&r| after.play(r).unwrap()));
                    }
                }
            }
            for b in &boards {
                let (m, p) = check_reach_masks(b);
                mates += m;
                passed += p;
                positions += 1;
            }
        }
        assert!(
            positions > 4000 && mates > 1500,
            "{positions} positions, {mates} mates"
        );
        assert!(
            passed > 10 * positions,
            "{passed} moves passed over in {positions}"
        );
    }

    #[test]
    fn a_failure_that_counted_a_recurrence_above_the_node_is_not_stored() {
        let pos: Position = MATE_IN_TWO.parse().unwrap();
        let key = table_key(pos.hash(), UNLIMITED);
        let after_key = pos.play("h1e1".parse().unwrap()).unwrap();
        let mut solver = Solver::new(16);
        solver.begin(&SolveOptions::mate_in(2), Instant::now());
        // As if the position after the key move came earlier in the line: the mate in two
        // repeats it, so it does not count here, and the failure is not the position's.
        solver.path.push(after_key.hash());
        let mut p = pos.clone();
        let r = solver.or_node(&mut p, 2, UNLIMITED, 0);
        assert!(!r.proved);
        assert_eq!(r.taint, 0);
        assert_eq!(solver.probe(key).1, 0, "not stored");
        // Without that history it is proved, the table not having been misled.
        solver.path.clear();
        assert!(solver.or_node(&mut p, 2, UNLIMITED, 0).proved);
    }

    #[test]
    fn at_the_last_move_a_recurrence_is_no_taint() {
        // No mate in one; the check 车二进八 (which the reach masks do not pass over) leads
        // to a position given as earlier in the line, but at the last move only a mate
        // matters, and a mated position was never passed.
        let pos: Position = MATE_IN_TWO.parse().unwrap();
        let after = pos.play("h1h9".parse().unwrap()).unwrap();
        let mut solver = Solver::new(16);
        solver.begin(&SolveOptions::mate_in(1), Instant::now());
        solver.path.push(after.hash());
        let mut p = pos.clone();
        let r = solver.or_node(&mut p, 1, UNLIMITED, 0);
        assert!(!r.proved);
        assert_eq!(r.taint, NO_TAINT);
        assert_eq!(
            solver.probe(table_key(pos.hash(), UNLIMITED)).1,
            1,
            "stored"
        );
    }

    #[test]
    fn a_failure_that_counted_only_recurrences_below_the_node_is_stored() {
        // A mate in four (from wukong's puzzles), so none in three: lines of the search
        // come back to positions they passed, which a failure only of positions below a node
        // would not have stored.
        let pos: Position = "3k5/4a4/4P4/p3p3p/9/9/4C3P/6r2/3CA4/4KA3 w - - 0 1"
            .parse()
            .unwrap();
        let mut solver = Solver::new(16);
        solver.begin(&SolveOptions::mate_in(3), Instant::now());
        let mut p = pos.clone();
        let r = solver.or_node(&mut p, 3, UNLIMITED, 0);
        assert!(!r.proved);
        assert_eq!(r.taint, NO_TAINT);
        assert_eq!(
            solver.probe(table_key(pos.hash(), UNLIMITED)).1,
            3,
            "stored"
        );
    }

    #[test]
    fn the_progress_says_the_depth_reached_and_the_mate_proved() {
        let pos: Position = MATE_IN_TWO.parse().unwrap();
        let progress = Arc::new(Progress::default());
        assert_eq!(progress.report(), ProgressReport::default());
        let mut solver = Solver::new(16);
        solver.set_progress(Some(progress.clone()));
        let s = solver.solve(&pos, &SolveOptions::mate_in(3));
        let report = progress.report();
        assert_eq!((report.depth, report.proved), (2, Some(2)));
        assert_eq!(report.nodes, s.nodes);
        // No mate: the last depth refuted, nothing proved.
        let none: Position = "4k4/4a4/4b4/9/9/9/9/9/7R1/3K5 w - - 0 1".parse().unwrap();
        let s = solver.solve(&none, &SolveOptions::mate_in(2));
        assert_eq!(s.verdict, Verdict::NoMate);
        let report = progress.report();
        assert_eq!((report.depth, report.proved), (2, None));
        assert_eq!(report.nodes, s.nodes);
    }

    #[test]
    fn a_reply_the_table_knows_escapes_ends_the_defence_without_a_search() {
        // After 1. 车二平五, every reply is tried unless the table already knows one holds.
        let pos: Position = MATE_IN_TWO.parse().unwrap();
        let mut after = pos.play("h1e1".parse().unwrap()).unwrap();
        let mut solver = Solver::new(16);
        solver.begin(&SolveOptions::mate_in(2), Instant::now());
        let replies = after.legal_moves();
        let last = *replies.iter().last().unwrap();
        let escaped = after.play(last).unwrap();
        solver.store(table_key(escaped.hash(), UNLIMITED), 0, 1, None);
        assert!(!solver.and_node(&mut after, 1, UNLIMITED, 1).proved);
        // At the last move the table is not asked: the replies are searched.
        assert!(solver.nodes > 0);
        // Afresh, with no refutation remembered at this ply.
        solver.begin(&SolveOptions::mate_in(3), Instant::now());
        solver.store(table_key(escaped.hash(), UNLIMITED), 0, 2, None);
        assert!(!solver.and_node(&mut after, 2, UNLIMITED, 1).proved);
        assert_eq!(solver.nodes, 0);
    }

    #[test]
    fn the_defenders_checks_are_tried_before_the_last_refutation() {
        // After the quiet 1. 车二进一 every reply of Black escapes a mate in two; a check of
        // the rook (车９进四 or 车９平４) is tried, and refutes, before 车９退一, the
        // refutation remembered at this ply.
        let pos: Position = "4k4/4a4/9/9/9/8r/9/9/7R1/3K5 w - - 0 1".parse().unwrap();
        let mut after = pos.play("h1h2".parse().unwrap()).unwrap();
        let quiet: Move = "i4i5".parse().unwrap();
        assert!(!after.play(quiet).unwrap().is_check());
        let mut solver = Solver::new(16);
        solver.begin(&SolveOptions::mate_in(3), Instant::now());
        solver.killers[1] = Some(quiet);
        assert!(!solver.and_node(&mut after, 2, UNLIMITED, 1).proved);
        let refutation = solver.killers[1].unwrap();
        assert!(after.play(refutation).unwrap().is_check(), "{refutation}");
        // The remembered refutation escapes too: the check was chosen before it, not for it.
        let mut p = after.play(quiet).unwrap();
        assert!(!solver.or_node(&mut p, 2, UNLIMITED, 2).proved);
    }

    #[test]
    fn the_defenders_check_leaving_the_fewest_evasions_is_tried_first() {
        // Black attacks (from wukong's puzzles); after the quiet 1. 车４平３ Red escapes a
        // mate in two with either check of its rook: 车九进三 (first in generation order,
        // three evasions) or 车九平六 (two), which is tried first.
        let pos: Position = "3k1c3/4a4/5P3/R7p/9/8P/3r5/9/4K4/9 b - - 0 1"
            .parse()
            .unwrap();
        let mut after = pos.play("d3c3".parse().unwrap()).unwrap();
        let (more, fewer): (Move, Move) = ("a6a9".parse().unwrap(), "a6d6".parse().unwrap());
        let checks: Vec<Move> = after
            .legal_moves()
            .iter()
            .copied()
            .filter(|&r| after.play(r).unwrap().is_check())
            .collect();
        assert_eq!(checks, vec![more, fewer]);
        let evasions = |r: Move| after.play(r).unwrap().legal_moves().len();
        assert_eq!((evasions(more), evasions(fewer)), (3, 2));
        let mut solver = Solver::new(16);
        solver.begin(&SolveOptions::mate_in(3), Instant::now());
        // Either check escapes.
        for r in [more, fewer] {
            let mut p = after.play(r).unwrap();
            assert!(!solver.or_node(&mut p, 2, UNLIMITED, 2).proved);
        }
        solver.begin(&SolveOptions::mate_in(3), Instant::now());
        assert!(!solver.and_node(&mut after, 2, UNLIMITED, 1).proved);
        assert_eq!(solver.killers[1], Some(fewer));
    }

    #[test]
    fn the_defenders_replies_are_searched_in_rounds_of_growing_budgets() {
        // 《适情雅趣》 No. 69, a mate in nine: after the first move a9d9 the attacker has no
        // mate in eight more. Searched one after another, the replies tried before the
        // refutation each need their whole proof; in rounds, the refutation is found once
        // the first round's budgets are spent.
        let pos: Position = "C3kC3/2PRa4/1n5P1/9/9/1N5N1/9/3p5/4r2r1/3K5 w - - 0 1"
            .parse()
            .unwrap();
        let after = pos.play("a9d9".parse().unwrap()).unwrap();
        let mut nodes = Vec::new();
        for first_round in [u64::MAX, FIRST_ROUND] {
            let mut solver = Solver::new(16);
            solver.first_round = first_round;
            solver.begin(&SolveOptions::mate_in(9), Instant::now());
            let mut p = after.clone();
            assert!(!solver.and_node(&mut p, 7, UNLIMITED, 1).proved);
            assert!(!solver.cut && solver.cut_at == u64::MAX);
            nodes.push(solver.nodes);
        }
        assert!(nodes[1] * 10 < nodes[0], "{nodes:?}");
    }

    #[test]
    fn the_roots_first_moves_are_searched_in_rounds_of_growing_budgets() {
        // 《适情雅趣》 No. 225, a mate in ten by 1. 车八平六 (b8d8). The check 车七平六 (c7d7),
        // ordered first (it leaves one reply), does not mate in ten, and showing that takes
        // hundreds of millions of nodes; in rounds the mate after b8d8 is found (in about
        // 2,300 nodes) while c7d7 waits, searched in turn it is not within 200,000.
        let pos: Position = "3k5/1R2n1P2/2R1b4/9/r2P5/7N1/9/9/4r3C/3K5 w - - 0 1"
            .parse()
            .unwrap();
        let key = table_key(pos.hash(), UNLIMITED);
        let mut results = Vec::new();
        for root_first_round in [u64::MAX, FIRST_ROUND] {
            let mut solver = Solver::new(16);
            solver.root_first_round = root_first_round;
            solver.set_node_limit(Some(200_000));
            solver.begin(&SolveOptions::mate_in(10), Instant::now());
            let mut p = pos.clone();
            let proved = solver.or_node(&mut p, 10, UNLIMITED, 0).proved;
            let best = solver.probe(key).2;
            results.push((proved, solver.nodes, best));
        }
        assert!(!results[0].0, "{results:?}");
        assert!(results[1].0, "{results:?}");
        assert_eq!(results[1].2, Some("b8d8".parse().unwrap()));
    }

    #[test]
    fn a_read_out_that_finds_the_time_up_keeps_the_proved_first_move() {
        let pos: Position = MATE_IN_TWO.parse().unwrap();
        let mut solver = Solver::new(16);
        let full = solver.solve(&pos, &SolveOptions::mate_in(3));
        assert_eq!(full.mate_in(), Some(2));
        assert_eq!(full.line.len(), 3);
        assert!(full.line_complete && full.cooks_complete);

        // The same proof read out with the time already up.
        solver.deadline = Some(Instant::now());
        let mut cut = Solution::bare(full.verdict);
        solver.read_out(&pos, 2, Some(full.line[0]), &mut cut);
        assert!(!cut.line_complete);
        assert!(!cut.cooks_complete);
        assert_eq!(cut.line, vec![full.line[0]]);
        assert_eq!(cut.first_moves, vec![full.line[0]]);
        assert_eq!(cut.duals, vec![Vec::<Move>::new()]);
    }

    #[test]
    fn a_solve_stopped_after_its_proof_reports_what_it_read() {
        for (fen, n) in [
            (MATE_IN_TWO, 3),
            // Either rook mates on the d-file (the generals face each other on the e-file).
            ("3k5/9/9/9/9/9/9/9/R8/R3K4 w - - 0 1", 2),
            // 1. 炮四进一 (from wukong's puzzles): a mate in three with duals at move 2.
            (
                "5ab2/2N1a1P2/5k3/4P4/6b2/3p5/6c2/3A5/4A1n2/4KC3 w - - 0 1",
                3,
            ),
        ] {
            let pos: Position = fen.parse().unwrap();
            let full = Solver::new(16).solve(&pos, &SolveOptions::mate_in(n));
            let k = full.mate_in().unwrap();
            assert!(full.line_complete && full.cooks_complete, "{fen}");
            assert_eq!(full.line.len(), 2 * k as usize - 1, "{fen}");
            let (mut line_cut, mut cooks_cut) = (0, 0);
            // Every stopping point, from before the proof to after the read-out.
            for limit in 0..=full.nodes {
                let mut solver = Solver::new(16);
                solver.set_node_limit(Some(limit));
                let s = solver.solve(&pos, &SolveOptions::mate_in(n));
                let Some(mate) = s.mate_in() else {
                    assert!(
                        s.line.is_empty() && s.first_moves.is_empty(),
                        "{fen} {limit}"
                    );
                    continue;
                };
                assert_eq!(mate, k, "{fen} {limit}");
                assert!(!s.line.is_empty(), "{fen} {limit}: the proved first move");
                assert!(full.first_moves.contains(&s.line[0]), "{fen} {limit}");
                assert_eq!(s.first_moves[0], s.line[0], "{fen} {limit}");
                assert!(
                    s.first_moves.iter().all(|m| full.first_moves.contains(m)),
                    "{fen} {limit}"
                );
                assert_eq!(s.duals.len(), s.line.len().div_ceil(2), "{fen} {limit}");
                if s.line_complete {
                    assert_eq!(s.line, full.line, "{fen} {limit}");
                } else {
                    line_cut += 1;
                    assert!(s.line.len() < full.line.len(), "{fen} {limit}");
                    assert!(!s.cooks_complete, "{fen} {limit}");
                    if s.line.len() > 1 {
                        assert_eq!(s.line, full.line[..s.line.len()], "{fen} {limit}");
                    }
                }
                if s.cooks_complete {
                    assert_eq!(s.first_moves, full.first_moves, "{fen} {limit}");
                    assert_eq!(s.duals, full.duals, "{fen} {limit}");
                } else {
                    cooks_cut += 1;
                }
            }
            // A mate in one is its proved first move.
            assert_eq!(line_cut > 0, k > 1, "{fen}: a limit in the line's read-out");
            assert!(cooks_cut > 0, "{fen}: a limit in the cooks' read-out");
        }
    }
}

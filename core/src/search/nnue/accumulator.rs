//! The search's accumulators: one entry per ply of the current line, each updated lazily
//! from the nearest ancestor that has them, when (and if) the node is evaluated.
//!
//! Making a move only records what it changed ([`Delta`]); evaluating a node walks back
//! to the last entry whose accumulator of a side is known and, if that side's view is
//! still the same, replays the moves since then onto a copy (a moved piece: one row off,
//! one on; a capture: one more off). A side whose view changed — its general moved to
//! another bucket, or the board's mirror flipped — is rebuilt, as is one whose known
//! ancestor lies too far back.
//!
//! A rebuild starts from the last accumulator the stack built in the same view, kept with
//! its board in a small cache (Stockfish's "Finny tables"): only the points whose pieces
//! differ are changed, usually a handful instead of some thirty rows.

use super::features::{BUCKETS, View};
use super::{Accumulator, Network, PERSPECTIVES};
use crate::position::code;
use crate::search::score::Value;
use crate::{Color, PieceKind, Position};

/// Beyond this many moves to replay, a rebuild from the cache is likely cheaper.
const MAX_REPLAY: usize = 10;

/// What a move changed on the board: `piece` (a board code; 0 for a null move, which
/// changes nothing) went from `from` to `to`, capturing `captured` (0: nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Delta {
    pub piece: u8,
    pub from: u8,
    pub to: u8,
    pub captured: u8,
}

impl Delta {
    /// A null move.
    pub const NULL: Delta = Delta {
        piece: 0,
        from: 0,
        to: 0,
        captured: 0,
    };
}

#[derive(Clone, Copy)]
struct Entry {
    /// By colour (Red, Black).
    acc: [Accumulator; 2],
    /// The view each accumulator was computed in; `None` while not computed.
    view: [Option<View>; 2],
    /// The move that led here from the entry below.
    delta: Delta,
}

/// The last accumulator built in one view, and the board it was built for.
#[derive(Clone, Copy)]
struct Cached {
    acc: Accumulator,
    cells: [u8; 90],
}

/// The accumulators along the search's current line, the root at the bottom.
pub(crate) struct AccumulatorStack {
    entries: Vec<Entry>,
    top: usize,
    /// By colour, bucket and mirror.
    cache: Box<[[[Cached; 2]; BUCKETS]; 2]>,
}

impl AccumulatorStack {
    /// A stack of room for `plies` moves (it grows if ever needed).
    pub fn new(plies: usize) -> AccumulatorStack {
        let empty = Entry {
            acc: [Accumulator([0; super::HIDDEN]); 2],
            view: [None; 2],
            delta: Delta::NULL,
        };
        let blank = Cached {
            acc: Accumulator([0; super::HIDDEN]),
            cells: [0; 90],
        };
        AccumulatorStack {
            entries: vec![empty; plies + 1],
            top: 0,
            cache: Box::new([[[blank; 2]; BUCKETS]; 2]),
        }
    }

    /// Starts over at the root position `pos` with `net` (perhaps another network than
    /// before: the cache is emptied), its accumulators computed.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        let empty = Cached {
            acc: net.bias(),
            cells: [0; 90],
        };
        for by_bucket in self.cache.iter_mut() {
            *by_bucket = [[empty; 2]; BUCKETS];
        }
        self.top = 0;
        self.entries[0].view = [None; 2];
        self.evaluate(net, pos);
    }

    /// A move (or a null move) was made.
    #[inline]
    pub fn push(&mut self, delta: Delta) {
        self.top += 1;
        if self.top == self.entries.len() {
            self.entries.push(self.entries[0]);
        }
        let e = &mut self.entries[self.top];
        e.delta = delta;
        e.view = [None; 2];
    }

    /// The last move was taken back.
    #[inline]
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// The network's evaluation of `pos`, the position at the top, for the side to move.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> Value {
        let top = self.top;
        for c in PERSPECTIVES {
            let ci = c.index();
            if self.entries[top].view[ci].is_some() {
                continue;
            }
            let (below, above) = self.entries.split_at_mut(top);
            let at_top = &mut above[0];
            let (view, rebuilt) = compute_into(
                below,
                at_top.delta,
                &self.cache,
                net,
                pos,
                c,
                &mut at_top.acc[ci],
            );
            at_top.view[ci] = Some(view);
            if rebuilt {
                self.cache[ci][view.bucket()][view.mirrored() as usize] = Cached {
                    acc: at_top.acc[ci],
                    cells: pos.cells,
                };
            }
        }
        let e = &self.entries[top];
        let us = pos.side_to_move().index();
        net.output(&e.acc[us], &e.acc[1 - us])
    }

    /// Whether the accumulators the top would get now equal ones computed from scratch
    /// (for the tests' check at every node of a search).
    #[cfg(test)]
    pub fn matches_refresh(&self, net: &Network, pos: &Position) -> bool {
        let (below, above) = self.entries.split_at(self.top);
        PERSPECTIVES.iter().all(|&c| {
            let mut acc = Accumulator([0; super::HIDDEN]);
            let (view, _) = compute_into(below, above[0].delta, &self.cache, net, pos, c, &mut acc);
            view == View::of(pos, c) && acc == net.refresh(pos, view)
        })
    }
}

/// The cached accumulators, by colour, bucket and mirror.
type Cache = [[[Cached; 2]; BUCKETS]; 2];

/// Computes into `out` `perspective`'s accumulator of `pos`, the position reached from
/// the entries `below` by the move `delta`: replayed from the nearest entry that has it
/// if that is in the same view and near enough, else rebuilt from `cache`. Returns the
/// view and whether it was rebuilt.
fn compute_into(
    below: &[Entry],
    delta: Delta,
    cache: &Cache,
    net: &Network,
    pos: &Position,
    perspective: Color,
    out: &mut Accumulator,
) -> (View, bool) {
    let c = perspective.index();
    let view = View::of(pos, perspective);
    let known = below.iter().rposition(|e| e.view[c].is_some());
    let base = known.filter(|&k| below[k].view[c] == Some(view) && below.len() - k <= MAX_REPLAY);
    let Some(known) = base else {
        rebuild(cache, net, pos, view, out);
        return (view, true);
    };
    *out = below[known].acc[c];
    let own_general = code(perspective, PieceKind::General);
    let deltas = below[known + 1..].iter().map(|e| e.delta).chain([delta]);
    for d in deltas {
        if d.piece == 0 {
            continue;
        }
        // The own general is the view, not a feature; the view is the same at both ends,
        // so its moves between cancel out.
        let (mut adds, mut subs) = ([0; 1], [0; 2]);
        let (mut na, mut ns) = (0, 0);
        if d.piece != own_general {
            adds[0] = view.feature_of_code(d.piece, d.to);
            subs[0] = view.feature_of_code(d.piece, d.from);
            (na, ns) = (1, 1);
        }
        if d.captured != 0 {
            subs[ns] = view.feature_of_code(d.captured, d.to);
            ns += 1;
        }
        net.update(out, &adds[..na], &subs[..ns]);
    }
    (view, false)
}

/// Rebuilds into `out` the accumulator of `pos` in `view` from the cached one of that
/// view: the rows of the pieces no longer there off, those of the new ones on.
fn rebuild(cache: &Cache, net: &Network, pos: &Position, view: View, out: &mut Accumulator) {
    let c = view.perspective();
    let cached = &cache[c.index()][view.bucket()][view.mirrored() as usize];
    let own_general = code(c, PieceKind::General);
    *out = cached.acc;
    let (mut adds, mut subs) = ([0; 8], [0; 8]);
    let (mut na, mut ns) = (0, 0);
    for (sq, (&old, &new)) in cached.cells.iter().zip(&pos.cells).enumerate() {
        if old == new {
            continue;
        }
        if old != 0 && old != own_general {
            subs[ns] = view.feature_of_code(old, sq as u8);
            ns += 1;
        }
        if new != 0 && new != own_general {
            adds[na] = view.feature_of_code(new, sq as u8);
            na += 1;
        }
        if na == adds.len() || ns == subs.len() {
            net.update(out, &adds[..na], &subs[..ns]);
            (na, ns) = (0, 0);
        }
    }
    net.update(out, &adds[..na], &subs[..ns]);
}

//! The evaluation network (NNUE, an efficiently updatable neural network): its inputs, its
//! inference, and its weights file. The network trained from our own games ships inside
//! the program ([`embedded`]) and is on by default (UCI `Use NNUE`): it plays stronger than
//! the hand-written evaluation, which stays for the UCI option and the drawish endgames it
//! knows (例和).
//!
//! The shape, "(7560 → 256) × 2 → 1" with a clipped-squared activation:
//! - inputs: for each side (perspective), 7,560 features — the own general's bucket × the
//!   piece's slot × its point on the board as that side sees it (see [`features`]);
//! - first layer: 7,560 → 256, int16 weights and biases quantised by QA = 255, giving one
//!   accumulator of 256 per perspective. The search keeps them up to date move by move
//!   (a moved piece: one row off, one on; a capture: one more off), and rebuilds one from
//!   scratch when its side's view changes (the general's bucket or the mirror);
//! - output: the side to move's accumulator, then the other side's (512 values), each
//!   clamped to [0, QA] and squared (SCReLU), times int16 output weights quantised by
//!   QB = 64, plus the output bias (i32, quantised by QA·QB):
//!
//!   `eval = (Σᵢ clamp(xᵢ, 0, QA)² · wᵢ + QA · bias) · 400 / (QA · QA · QB)` centipawns,
//!
//!   computed exactly in 64 bits, divided rounding toward zero, and clamped to
//!   ±[`EVAL_LIMIT`]. In float terms: `400 · (Σ screlu(a)·w + b)` with a in [0, 1].
//!
//! [`train`] fits the weights to training [`data`] and writes the file.
//!
//! The hot loops use AVX2 when the processor has it and a scalar fallback with the same
//! results ([`Kernel`]).

mod accumulator;
pub mod data;
pub mod features;
mod file;
mod simd;
pub mod train;

pub(crate) use accumulator::{AccumulatorStack, Delta};
pub use file::{FILE_SIZE, MAGIC, NnueError, OUTPUT_WEIGHT_LIMIT, VERSION};
pub use simd::Kernel;

use super::eval::{SCALE_ONE, drawish_scale};
use super::score::Value;
use crate::play::Rng;
use crate::{Color, Position};
use features::{INPUTS, View};
use simd::Row;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// The weights of the network that ships inside the program; the README says which
/// commands, data and seed made it.
static EMBEDDED: &[u8] = include_bytes!("../../../../assets/nnue/chuhe.nnue");

/// The network built into the program, read once on first use and shared after.
pub fn embedded() -> Arc<Network> {
    static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
    NETWORK
        .get_or_init(|| {
            // The file is compiled in, so it is the same in every build; a test reads it.
            Arc::new(Network::from_bytes(EMBEDDED).expect("the built-in network is valid"))
        })
        .clone()
}

/// Hidden units per perspective (the accumulator's length).
pub const HIDDEN: usize = 256;
/// Quantisation of the first layer: float 1.0 is 255.
pub const QA: i64 = 255;
/// Quantisation of the output weights: float 1.0 is 64.
pub const QB: i64 = 64;
/// Centipawns per unit of the network's float output.
pub const SCALE: i64 = 400;
/// The network's evaluations stay within ±this, far from the mate scores.
pub const EVAL_LIMIT: i64 = 20_000;

/// Both perspectives, Red's first.
pub(crate) const PERSPECTIVES: [Color; 2] = [Color::Red, Color::Black];

/// One perspective's first-layer output: the biases plus the rows of its active features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Accumulator(pub(crate) Row);

/// A loaded network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// One row of [`HIDDEN`] weights per input feature.
    l1_weights: Box<[Row]>,
    l1_bias: Accumulator,
    /// For the side to move's accumulator, then for the other side's.
    out_weights: Box<[Row; 2]>,
    out_bias: i32,
    kernel: Kernel,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("inputs", &INPUTS)
            .field("hidden", &HIDDEN)
            .field("kernel", &self.kernel)
            .finish_non_exhaustive()
    }
}

impl Network {
    /// A network of seeded random weights, in ranges that keep the accumulators inside
    /// the activation's useful range: for tests and speed measurements. It knows
    /// nothing of the game.
    pub fn random(seed: u64) -> Network {
        let mut rng = Rng::new(seed);
        let mut uniform = |lo: i64, hi: i64| (lo + rng.below((hi - lo + 1) as u64) as i64) as i16;
        let l1: Vec<i16> = (0..INPUTS * HIDDEN).map(|_| uniform(-24, 24)).collect();
        let bias: Vec<i16> = (0..HIDDEN).map(|_| uniform(0, 160)).collect();
        let out: Vec<i16> = (0..2 * HIDDEN).map(|_| uniform(-32, 32)).collect();
        let out_bias = uniform(-2000, 2000) as i32;
        // The parts have the right lengths and ranges by construction.
        Network::from_parts(&l1, &bias, &out, out_bias).unwrap_or_else(|e| unreachable!("{e}"))
    }

    /// The same network computing with `kernel` (the scalar kernel always works; AVX2 on
    /// a processor without it falls back to the scalar one).
    pub fn with_kernel(mut self, kernel: Kernel) -> Network {
        self.kernel = kernel;
        self
    }

    /// The kernel the network computes with.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The accumulator of `view` on `pos` (which must be the view's position), from
    /// scratch.
    pub(crate) fn refresh(&self, pos: &Position, view: View) -> Accumulator {
        let mut acc = self.l1_bias;
        let mut rows: [&Row; 8] = [&self.l1_bias.0; 8];
        let mut n = 0;
        for f in view.features(pos) {
            rows[n] = &self.l1_weights[f];
            n += 1;
            if n == rows.len() {
                self.kernel.update(&mut acc, &rows, &[]);
                n = 0;
            }
        }
        self.kernel.update(&mut acc, &rows[..n], &[]);
        acc
    }

    /// The first layer's biases: the accumulator of an empty board.
    pub(crate) fn bias(&self) -> Accumulator {
        self.l1_bias
    }

    /// Applies feature changes to `acc`: the rows of `adds` on, `subs` off (at most 8
    /// of each; the rest are left out).
    #[inline]
    pub(crate) fn update(&self, acc: &mut Accumulator, adds: &[usize], subs: &[usize]) {
        let rows = |fs: &[usize]| -> [&Row; 8] {
            let mut r = [&self.l1_bias.0; 8];
            for (slot, &f) in r.iter_mut().zip(fs) {
                *slot = &self.l1_weights[f];
            }
            r
        };
        let (a, s) = (rows(adds), rows(subs));
        self.kernel
            .update(acc, &a[..adds.len().min(8)], &s[..subs.len().min(8)]);
    }

    /// The evaluation for the side to move from the two accumulators (see the module's
    /// formula).
    #[inline]
    pub(crate) fn output(&self, stm: &Accumulator, other: &Accumulator) -> Value {
        let sum = self.kernel.output(stm, other, &self.out_weights);
        let v = (sum + QA * self.out_bias as i64) * SCALE / (QA * QA * QB);
        v.clamp(-EVAL_LIMIT, EVAL_LIMIT) as Value
    }

    /// The network's evaluation of `pos` for the side to move, from scratch (the search
    /// updates its accumulators instead), before any endgame knowledge.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let us = pos.side_to_move();
        let stm = self.refresh(pos, View::of(pos, us));
        let other = self.refresh(pos, View::of(pos, !us));
        self.output(&stm, &other)
    }
}

/// The network's value `v` of `pos` (for the side to move) with the hand-written
/// evaluation's knowledge of drawn endings (例和) applied: where it says the side ahead
/// cannot win, its scale factor shrinks the value. The theory is exact in those endings,
/// while a network rarely sees them in training and cannot count the defenders as well;
/// elsewhere the factor is full and the network's value stands.
pub(crate) fn with_endgame_knowledge(v: Value, pos: &Position) -> Value {
    let us = pos.side_to_move();
    let strong = if v >= 0 { us } else { !us };
    let scale = drawish_scale(pos, strong);
    if scale < SCALE_ONE {
        v * scale / SCALE_ONE
    } else {
        v
    }
}

/// The evaluation `net` gives `pos` in the search, endgame knowledge included.
pub fn evaluate(net: &Network, pos: &Position) -> i32 {
    with_endgame_knowledge(net.evaluate(pos), pos)
}

#[cfg(test)]
mod tests;

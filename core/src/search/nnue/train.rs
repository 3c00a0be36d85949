//! Training the evaluation network on the CPU: the float model, its gradient, Adam, and
//! the export to a weights file (`core/examples/nnue_train.rs` drives it).
//!
//! The float model is the network of the module above with the quantisation written out:
//! `eval_cp = 400 · (Σ screlu(a_stm)·w[..256] + Σ screlu(a_other)·w[256..] + b)`, where a
//! perspective's accumulator `a` is the first layer's biases plus the rows of its active
//! features — the same rows for both perspectives.
//!
//! Each row is the sum of two trained rows: its own, one per (bucket, slot, point), and a
//! shared "factoriser" row per (slot, point) that every bucket adds. A piece's worth on a
//! point is mostly the same wherever the own general stands, so the shared rows learn it
//! from all the data, and the six buckets' own rows only the differences; the export adds
//! the two.
//!
//! Training is quantisation-aware: after every step the weights are clipped to what the
//! file can hold (first layer ±[`L1_LIMIT`], so no 16-bit accumulator overflows; output
//! weights ±[`OUT_LIMIT`]), and the forward pass computes with the weights rounded to the
//! file's grid (1/255 for the first layer, 1/64 for the output weights), while the
//! gradient goes to the unrounded ones (a straight-through estimator). The exported
//! network then computes what the trainer computed: the only difference is the integer
//! output's rounding toward zero, under one centipawn.
//!
//! The prediction is `p = sigmoid(eval_cp / K)`, the target
//! `t = λ · sigmoid(score / K) + (1 − λ) · result` (the search's score and the game's
//! result, 0, ½ or 1, both for the side to move), and the loss the mean of `(p − t)²`.
//! Batches are split into one contiguous chunk per thread and the chunks' gradients summed
//! in order, so a run is repeatable to the bit for a given number of threads.

use super::data::{Outcome, RECORD, Sample};
use super::features::{BUCKETS, INPUTS, PIECE_SLOTS, POINTS, View};
use super::{EVAL_LIMIT, HIDDEN, Network, NnueError, OUTPUT_WEIGHT_LIMIT, QA, QB, SCALE};
use crate::play::Rng;
use crate::{Piece, Position};
use std::time::{Duration, Instant};

/// Shared feature rows: one per (piece slot, point), added to that pair's row in every
/// bucket.
pub const FACTORS: usize = PIECE_SLOTS * POINTS;
/// The largest first-layer weight or bias magnitude: 32 rows of it (a full board plus
/// the bias) stay within a 16-bit accumulator at QA = 255.
pub const L1_LIMIT: f32 = 1.98;
/// The largest output weight magnitude, the file's limit in float terms.
pub const OUT_LIMIT: f32 = OUTPUT_WEIGHT_LIMIT as f32 / QB as f32;
/// The largest output bias magnitude: the evaluation's own limit.
const OUT_BIAS_LIMIT: f32 = EVAL_LIMIT as f32 / SCALE as f32;
/// The default scale K of the logistic, in centipawns: the hand-written evaluation's
/// fitted Texel constant (k = 0.3805 in `search/weights.rs`, `1/(1 + 10^(−k·cp/400))`)
/// written as `sigmoid(cp / K)`, K = 400 / (k · ln 10) ≈ 457. The training scores are
/// that evaluation's search scores, so this K already relates them to game results.
pub const DEFAULT_SCALE: f32 = 457.0;

// Where each part of the model is in its flat vector of parameters.
const L1: usize = 0;
const FACTOR: usize = L1 + INPUTS * HIDDEN;
const BIAS: usize = FACTOR + FACTORS * HIDDEN;
const OUT: usize = BIAS + HIDDEN;
const OUT_BIAS: usize = OUT + 2 * HIDDEN;
/// The trained parameters: every row, the shared rows, the biases, the output layer.
pub const PARAMETERS: usize = OUT_BIAS + 1;

/// A training position, stored as its 32-byte data record (a sixth of a decoded
/// [`Sample`]'s memory); the trainer decodes it when it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record([u8; RECORD]);

impl Record {
    /// The sample the record holds.
    pub fn sample(&self) -> Sample {
        // Records are only made from samples, whose encodings always decode.
        Sample::decode(&self.0).unwrap_or_else(|why| unreachable!("{why}"))
    }
}

impl From<&Sample> for Record {
    fn from(sample: &Sample) -> Record {
        Record(sample.encode())
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The clipped-squared activation.
#[inline(always)]
fn screlu(a: f32) -> f32 {
    let c = a.clamp(0.0, 1.0);
    c * c
}

/// `x` rounded to the grid of a quantisation by `q` (to the nearest multiple of `1/q`,
/// ties to even). Near 1.5 · 2²³ a float has no fraction bits, so adding it rounds
/// `x · q` to a whole number and taking it away again leaves that number: exact while
/// |x · q| < 2²², which the limits keep it (at most 50 · 255 · 64). `round` would be a
/// library call on a processor without SSE 4.1, and this runs over two million weights
/// after every step.
fn snap(x: f32, q: i64) -> f32 {
    const MAGIC: f32 = 12_582_912.0;
    let q = q as f32;
    (x * q + MAGIC - MAGIC) / q
}

/// The trained parameters of a network, in float.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    params: Vec<f32>,
}

/// The weights the forward pass computes with: the shared rows added in and, for
/// training and export, rounded to the file's grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    l1: Vec<f32>,
    bias: [f32; HIDDEN],
    out: [f32; 2 * HIDDEN],
    out_bias: f32,
}

impl Model {
    /// A fresh model from `seed`: first-layer rows uniform in ±1/√32 (a board's thirty
    /// pieces then give accumulators of the activation's scale), output weights uniform
    /// in ±1/√512, the shared rows and the biases zero.
    pub fn random(seed: u64) -> Model {
        let mut rng = Rng::new(seed);
        let mut uniform = |limit: f32| ((rng.unit() * 2.0 - 1.0) as f32) * limit;
        let mut params = vec![0.0; PARAMETERS];
        for w in &mut params[L1..FACTOR] {
            *w = uniform(1.0 / 32f32.sqrt());
        }
        for w in &mut params[OUT..OUT_BIAS] {
            *w = uniform(1.0 / 512f32.sqrt());
        }
        Model { params }
    }

    /// The model of a quantised network (to fine-tune it): its weights divided by their
    /// scales, the shared rows zero, and any weight beyond the trainer's limits clipped
    /// (so a network from another trainer may change; one of this trainer's does not).
    pub fn from_network(net: &Network) -> Model {
        let mut params = vec![0.0; PARAMETERS];
        let qa = QA as f32;
        let rows = net.l1_weights.iter().flatten();
        for (p, &q) in params[L1..FACTOR].iter_mut().zip(rows) {
            *p = q as f32 / qa;
        }
        for (p, &q) in params[BIAS..OUT].iter_mut().zip(&net.l1_bias.0) {
            *p = q as f32 / qa;
        }
        for (p, &q) in params[OUT..OUT_BIAS]
            .iter_mut()
            .zip(net.out_weights.iter().flatten())
        {
            *p = q as f32 / QB as f32;
        }
        params[OUT_BIAS] = net.out_bias as f32 / (QA * QB) as f32;
        let mut model = Model { params };
        model.clip(None);
        model
    }

    /// Brings every weight within what the file holds: the shared rows and the biases to
    /// ±[`L1_LIMIT`], each row's sum with its shared row too (by moving the row's own
    /// part), the output weights to ±[`OUT_LIMIT`]; and writes into `weights` (when
    /// given) the weights the network computes with, rounded to the file's grid. One pass,
    /// as it runs after every step.
    fn clip(&mut self, mut weights: Option<&mut Weights>) {
        let (l1, rest) = self.params.split_at_mut(FACTOR);
        let factors = &mut rest[..BIAS - FACTOR];
        for w in factors.iter_mut() {
            *w = w.clamp(-L1_LIMIT, L1_LIMIT);
        }
        for (f, row) in l1.chunks_exact_mut(HIDDEN).enumerate() {
            let shared = &factors[(f % FACTORS) * HIDDEN..][..HIDDEN];
            for (w, &s) in row.iter_mut().zip(shared) {
                *w = (*w + s).clamp(-L1_LIMIT, L1_LIMIT) - s;
            }
            if let Some(weights) = weights.as_mut() {
                fold_row(row, shared, &mut weights.l1[f * HIDDEN..][..HIDDEN], true);
            }
        }
        for w in &mut self.params[BIAS..OUT] {
            *w = w.clamp(-L1_LIMIT, L1_LIMIT);
        }
        for w in &mut self.params[OUT..OUT_BIAS] {
            *w = w.clamp(-OUT_LIMIT, OUT_LIMIT);
        }
        let b = &mut self.params[OUT_BIAS];
        *b = b.clamp(-OUT_BIAS_LIMIT, OUT_BIAS_LIMIT);
        if let Some(weights) = weights {
            let small = self.fold_small(true);
            (weights.bias, weights.out, weights.out_bias) = small;
        }
    }

    /// The biases and the output layer as the network computes with them (rounded to the
    /// file's grid when `quantised`).
    fn fold_small(&self, quantised: bool) -> ([f32; HIDDEN], [f32; 2 * HIDDEN], f32) {
        let grid = |x: f32, q: i64| if quantised { snap(x, q) } else { x };
        let mut bias = [0.0; HIDDEN];
        for (b, &p) in bias.iter_mut().zip(&self.params[BIAS..OUT]) {
            *b = grid(p, QA);
        }
        let mut out = [0.0; 2 * HIDDEN];
        for (w, &p) in out.iter_mut().zip(&self.params[OUT..OUT_BIAS]) {
            *w = grid(p, QB);
        }
        (bias, out, grid(self.params[OUT_BIAS], QA * QB))
    }

    /// The weights the network computes with: the shared rows added and, when
    /// `quantised`, rounded to the file's grid.
    fn fold(&self, quantised: bool) -> Weights {
        let factors = &self.params[FACTOR..BIAS];
        let mut l1 = vec![0.0; INPUTS * HIDDEN];
        let own = self.params[L1..FACTOR].chunks_exact(HIDDEN);
        for (f, (row, own)) in l1.chunks_exact_mut(HIDDEN).zip(own).enumerate() {
            fold_row(
                own,
                &factors[(f % FACTORS) * HIDDEN..][..HIDDEN],
                row,
                quantised,
            );
        }
        let (bias, out, out_bias) = self.fold_small(quantised);
        Weights {
            l1,
            bias,
            out,
            out_bias,
        }
    }

    /// The weights the trainer computes with: shared rows added, rounded to the file's
    /// grid.
    pub fn weights(&self) -> Weights {
        self.fold(true)
    }

    /// The quantised network: the weights the trainer computes with, times their scales.
    /// Fails only if a weight is beyond the file's limits, which clipping prevents.
    pub fn export(&self) -> Result<Network, NnueError> {
        let w = self.weights();
        let qa = QA as f32;
        // The weights are within the limits, on the grid: the products are whole numbers
        // in range (the casts only drop float noise).
        let l1: Vec<i16> = w.l1.iter().map(|&x| (x * qa).round() as i16).collect();
        let bias: Vec<i16> = w.bias.iter().map(|&x| (x * qa).round() as i16).collect();
        let out: Vec<i16> = w
            .out
            .iter()
            .map(|&x| (x * QB as f32).round() as i16)
            .collect();
        let out_bias = (w.out_bias * (QA * QB) as f32).round() as i32;
        Network::from_parts(&l1, &bias, &out, out_bias)
    }
}

/// Writes into `out` the row the network computes with: the row's own part plus its
/// shared row, rounded to the file's grid when `quantised`.
fn fold_row(own: &[f32], shared: &[f32], out: &mut [f32], quantised: bool) {
    for ((x, &o), &s) in out.iter_mut().zip(own).zip(shared) {
        *x = if quantised { snap(o + s, QA) } else { o + s };
    }
}

/// The active features of one position, both perspectives: the side to move's first.
struct Inputs {
    features: [[usize; 32]; 2],
    len: [usize; 2],
}

impl Inputs {
    fn of(pos: &Position) -> Inputs {
        let us = pos.side_to_move();
        let mut inputs = Inputs {
            features: [[0; 32]; 2],
            len: [0; 2],
        };
        for (i, side) in [us, !us].into_iter().enumerate() {
            let active = View::of(pos, side).features(pos);
            for (slot, f) in inputs.features[i].iter_mut().zip(active) {
                *slot = f;
                inputs.len[i] += 1;
            }
        }
        inputs
    }

    fn of_side(&self, i: usize) -> &[usize] {
        &self.features[i][..self.len[i]]
    }
}

impl Weights {
    #[inline(always)]
    fn row(&self, f: usize) -> &[f32] {
        &self.l1[f * HIDDEN..][..HIDDEN]
    }

    /// The accumulators of both perspectives (side to move first).
    #[inline(always)]
    fn accumulate(&self, inputs: &Inputs, acc: &mut [[f32; HIDDEN]; 2]) {
        for (i, a) in acc.iter_mut().enumerate() {
            *a = self.bias;
            for &f in inputs.of_side(i) {
                for (x, &w) in a.iter_mut().zip(self.row(f)) {
                    *x += w;
                }
            }
        }
    }

    /// The output in float units (times [`SCALE`] for centipawns).
    #[inline(always)]
    fn output(&self, acc: &[[f32; HIDDEN]; 2]) -> f32 {
        let mut y = self.out_bias;
        for (a, w) in acc.iter().zip(self.out.chunks_exact(HIDDEN)) {
            y += a.iter().zip(w).map(|(&x, &w)| screlu(x) * w).sum::<f32>();
        }
        y
    }

    /// The evaluation of `pos` for the side to move, centipawns, unrounded and
    /// unclamped.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let mut acc = [[0.0; HIDDEN]; 2];
        self.accumulate(&Inputs::of(pos), &mut acc);
        SCALE as f32 * self.output(&acc)
    }
}

/// What the model is fitted to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Objective {
    /// λ: the score's share of the target, the rest the game's result.
    pub lambda: f32,
    /// K: centipawns per unit of the logistic's argument.
    pub scale: f32,
}

impl Objective {
    /// The target of `sample`, in [0, 1].
    pub fn target(&self, sample: &Sample) -> f32 {
        let score = sigmoid(sample.score as f32 / self.scale);
        self.lambda * score + (1.0 - self.lambda) * sample.outcome.value()
    }
}

/// The summed loss of `records`, and when `grad` is given the gradient of their loss
/// times `weight` added to it (the first layer's rows, biases and output; not the shared
/// rows, see [`add_shared_gradients`]).
///
/// Compiled twice: for AVX2 where the processor has it (wider vectors for the row loops,
/// some 1.5 times faster), and for any x86-64. The results are the same to the bit: the
/// row loops add element by element, and the sums across a row run in order in both.
fn pass(w: &Weights, records: &[Record], obj: Objective, grad: Option<(&mut [f32], f32)>) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if super::Kernel::avx2_available() {
        // SAFETY: the processor has AVX2 (checked just above).
        return unsafe { pass_avx2(w, records, obj, grad) };
    }
    pass_portable(w, records, obj, grad)
}

/// [`pass`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn pass_avx2(
    w: &Weights,
    records: &[Record],
    obj: Objective,
    grad: Option<(&mut [f32], f32)>,
) -> f64 {
    pass_portable(w, records, obj, grad)
}

/// [`pass`] for any processor.
#[inline(always)]
fn pass_portable(
    w: &Weights,
    records: &[Record],
    obj: Objective,
    grad: Option<(&mut [f32], f32)>,
) -> f64 {
    let mut loss = 0.0f64;
    let mut acc = [[0.0; HIDDEN]; 2];
    let mut grad = grad;
    for record in records {
        let sample = record.sample();
        let inputs = Inputs::of(&sample.position);
        w.accumulate(&inputs, &mut acc);
        let y = w.output(&acc);
        let p = sigmoid(SCALE as f32 * y / obj.scale);
        let d = p - obj.target(&sample);
        loss += (d * d) as f64;
        let Some((grad, weight)) = grad.as_mut() else {
            continue;
        };
        // d(loss)/dy through the square and the logistic.
        let g = *weight * 2.0 * d * p * (1.0 - p) * SCALE as f32 / obj.scale;
        grad[OUT_BIAS] += g;
        let (l1, rest) = grad.split_at_mut(FACTOR);
        let (bias, out) = rest[BIAS - FACTOR..OUT_BIAS - FACTOR].split_at_mut(HIDDEN);
        for (i, (a, out)) in acc.iter().zip(out.chunks_exact_mut(HIDDEN)).enumerate() {
            let mut da = [0.0; HIDDEN];
            let ow = &w.out[i * HIDDEN..][..HIDDEN];
            for ((((da, &x), &ow), o), b) in da.iter_mut().zip(a).zip(ow).zip(out).zip(&mut *bias) {
                *o += g * screlu(x);
                if x > 0.0 && x < 1.0 {
                    *da = g * ow * 2.0 * x;
                    *b += *da;
                }
            }
            for &f in inputs.of_side(i) {
                for (r, &da) in l1[f * HIDDEN..][..HIDDEN].iter_mut().zip(&da) {
                    *r += da;
                }
            }
        }
    }
    loss
}

/// Fills in the shared rows' gradient: each is the sum of its rows' gradients over the
/// buckets (a shared row is in every bucket's row of its slot and point).
fn add_shared_gradients(grad: &mut [f32]) {
    let (l1, rest) = grad.split_at_mut(FACTOR);
    let shared = &mut rest[..FACTORS * HIDDEN];
    shared.fill(0.0);
    for bucket in l1.chunks_exact(FACTORS * HIDDEN).take(BUCKETS) {
        for (s, &g) in shared.iter_mut().zip(bucket) {
            *s += g;
        }
    }
}

/// How a [`Trainer`] runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Positions a step.
    pub batch: usize,
    /// What the model is fitted to.
    pub objective: Objective,
    /// Threads a step's gradient is computed on.
    pub threads: usize,
}

/// Where a trainer's time went: computing gradients (and losses), and updating the
/// weights (Adam, clipping, folding the shared rows in).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timing {
    pub gradient: Duration,
    pub update: Duration,
}

/// A model in training, with Adam's moments.
pub struct Trainer {
    model: Model,
    /// The model's [`Model::weights`], kept up to date after each step.
    weights: Weights,
    settings: Settings,
    /// Adam's first and second moments, one each per parameter.
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
    /// One gradient per thread.
    grads: Vec<Vec<f32>>,
    timing: Timing,
}

impl Trainer {
    /// Adam's decay of the first moment.
    const BETA1: f32 = 0.9;
    /// Adam's decay of the second moment.
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    /// A trainer of `model`.
    pub fn new(model: Model, settings: Settings) -> Trainer {
        let settings = Settings {
            batch: settings.batch.max(1),
            threads: settings.threads.max(1),
            ..settings
        };
        Trainer {
            weights: model.weights(),
            model,
            settings,
            m: vec![0.0; PARAMETERS],
            v: vec![0.0; PARAMETERS],
            steps: 0,
            grads: Vec::new(),
            timing: Timing::default(),
        }
    }

    /// The model as trained so far.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Where the time went so far.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// One step of Adam with learning rate `lr` on `batch`; returns the batch's summed
    /// loss before the step.
    pub fn step(&mut self, batch: &[Record], lr: f32) -> f64 {
        if batch.is_empty() {
            return 0.0;
        }
        let start = Instant::now();
        let threads = self.settings.threads;
        let chunk = batch.len().div_ceil(threads);
        let chunks = batch.len().div_ceil(chunk);
        while self.grads.len() < chunks {
            self.grads.push(vec![0.0; PARAMETERS]);
        }
        let weight = 1.0 / batch.len() as f32;
        let (w, obj) = (&self.weights, self.settings.objective);
        let mut losses = vec![0.0; chunks];
        let work = batch.chunks(chunk).zip(&mut self.grads).zip(&mut losses);
        if chunks == 1 {
            for ((records, grad), loss) in work {
                grad.fill(0.0);
                *loss = pass(w, records, obj, Some((grad, weight)));
            }
        } else {
            std::thread::scope(|s| {
                for ((records, grad), loss) in work {
                    s.spawn(move || {
                        grad.fill(0.0);
                        *loss = pass(w, records, obj, Some((grad, weight)));
                    });
                }
            });
        }
        let (total, others) = self.grads.split_at_mut(1);
        let total = &mut total[0];
        for other in &others[..chunks - 1] {
            for (t, &o) in total.iter_mut().zip(other) {
                *t += o;
            }
        }
        add_shared_gradients(total);
        let computed = Instant::now();
        self.timing.gradient += computed - start;
        self.adam(lr);
        self.model.clip(Some(&mut self.weights));
        self.timing.update += computed.elapsed();
        losses.iter().sum()
    }

    /// Adam's update of every parameter from the summed gradient.
    fn adam(&mut self, lr: f32) {
        self.steps += 1;
        let (b1, b2) = (Self::BETA1, Self::BETA2);
        let c1 = 1.0 - b1.powi(self.steps);
        let c2 = 1.0 - b2.powi(self.steps);
        let grad = &self.grads[0];
        let moments = self.m.iter_mut().zip(&mut self.v);
        for ((p, &g), (m, v)) in self.model.params.iter_mut().zip(grad).zip(moments) {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + Self::EPSILON);
        }
    }

    /// One pass over `records` in batches, after shuffling them with `rng`; returns the
    /// mean loss (of each batch before its step).
    pub fn epoch(&mut self, records: &mut [Record], rng: &mut Rng, lr: f32) -> f64 {
        shuffle(records, rng);
        let mut sum = 0.0;
        for batch in records.chunks(self.settings.batch) {
            sum += self.step(batch, lr);
        }
        sum / records.len().max(1) as f64
    }

    /// The mean loss of the current weights over `records` (on the trainer's threads).
    pub fn loss(&mut self, records: &[Record]) -> f64 {
        if records.is_empty() {
            return 0.0;
        }
        let start = Instant::now();
        let chunk = records.len().div_ceil(self.settings.threads);
        let (w, obj) = (&self.weights, self.settings.objective);
        let sum: f64 = std::thread::scope(|s| {
            let parts: Vec<_> = records
                .chunks(chunk)
                .map(|part| s.spawn(move || pass(w, part, obj, None)))
                .collect();
            parts
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .sum()
        });
        self.timing.gradient += start.elapsed();
        sum / records.len() as f64
    }
}

/// Shuffles `records` with `rng` (Fisher–Yates).
pub fn shuffle(records: &mut [Record], rng: &mut Rng) {
    for i in (1..records.len()).rev() {
        records.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// The scale K that best fits the data's scores to its results: least squares of
/// `sigmoid(score / K)` against the result over (up to the first million of) `records`,
/// by golden-section search between 50 and 2,000 centipawns.
pub fn fit_scale(records: &[Record]) -> f32 {
    let pairs: Vec<(f32, f32)> = records
        .iter()
        .take(1_000_000)
        .map(|r| {
            let s = r.sample();
            (s.score as f32, s.outcome.value())
        })
        .collect();
    let error = |k: f32| -> f64 {
        pairs
            .iter()
            .map(|&(score, result)| ((sigmoid(score / k) - result) as f64).powi(2))
            .sum()
    };
    let (mut lo, mut hi) = (50.0f32, 2000.0f32);
    let g = (5f32.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Centipawns of each piece kind for [`synthetic_samples`]' score: general (never
/// captured), advisor, elephant, horse, rook, cannon, pawn.
const MATERIAL: [i32; 7] = [0, 200, 200, 400, 900, 450, 100];

/// The material balance of `pos` for the side to move, centipawns.
pub fn material_balance(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    pos.cells
        .iter()
        .filter(|&&code| code != 0)
        .map(|&code| {
            let piece = Piece::from_code(code);
            let value = MATERIAL[piece.kind as usize];
            if piece.color == us { value } else { -value }
        })
        .sum()
}

/// `count` positions from seeded random games of 10 to 120 plies (captures preferred
/// half the time, so the material soon differs), scored by their material balance, the result a win from three
/// pawns up, a loss from three down, else a draw: data for tests and speed measurements
/// that knows nothing but material.
pub fn synthetic_samples(count: usize, seed: u64) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let mut pos = Position::startpos();
    let (mut ply, mut length) = (0, 0);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let moves = pos.legal_moves();
        if moves.is_empty() || ply >= length {
            pos = Position::startpos();
            ply = 0;
            length = 10 + rng.below(110);
            continue;
        }
        let captures: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to).is_some())
            .collect();
        let m = if !captures.is_empty() && rng.below(2) == 0 {
            captures[rng.below(captures.len() as u64) as usize]
        } else {
            moves[rng.below(moves.len() as u64) as usize]
        };
        pos.play_unchecked(m);
        ply += 1;
        let score = material_balance(&pos);
        let outcome = match score {
            300.. => Outcome::Win,
            ..=-300 => Outcome::Loss,
            _ => Outcome::Draw,
        };
        out.push(Sample {
            position: pos.clone(),
            score: score as i16,
            outcome,
        });
    }
    out
}

#[cfg(test)]
mod tests;

//! A small convolutional point classifier.
//!
//! Three 3×3 convolutions (zero-padded, rectified), each followed by a 2×2 max-pool, take
//! the [`patch::SIDE`]² patch of [`patch::CHANNELS`] values down to 3 × 3 places of
//! features; one rectified dense layer and a softmax over the [`CLASSES`] follow. Where the
//! perceptron has to learn a character's stroke anew at every place in the patch, the
//! convolutions share one set of small filters over all of it, so a piece drawn a little off
//! the point or a little larger looks the same to them. The layers' widths are in the file.
//!
//! Activations are kept place by place, each place's channels together, so a convolution is
//! for every place one gathered 3×3 neighbourhood dotted with each filter: plain `f32`
//! loops the compiler vectorises.
//!
//! The weights file, all numbers little-endian:
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 8 | magic `CHUHEPTC` |
//! | 8 | 4 | format version, u32 (1) |
//! | 12 | 28 | patch side, patch channels, the three convolutions' channels, dense units, classes: seven u32 |
//! | 40 | 4·n | the parameters, f32: each layer's weights (filter by filter, or unit by unit) then its biases, in order |
//! | end − 8 | 8 | checksum: FNV-1a 64 of every byte before it, u64 |

use super::super::patch;
use super::{CLASSES, NetError, fnv1a64, softmax, u32_at};
use std::sync::OnceLock;

/// The file's first bytes.
pub const MAGIC: [u8; 8] = *b"CHUHEPTC";
/// The format this build reads and writes.
pub const VERSION: u32 = 1;
const HEADER: usize = 40;
const CHECKSUM: usize = 8;
/// The widest layer a file may ask for.
pub const MOST_WIDTH: usize = 128;
/// Places along a side after the three poolings.
const LAST_SIDE: usize = patch::SIDE / 8;

/// The layers' widths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Channels of the three convolutions.
    pub channels: [usize; 3],
    /// Units of the dense layer.
    pub hidden: usize,
}

/// Where each layer's weights and biases start in the flat parameter vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    weights: [usize; 5],
    biases: [usize; 5],
    total: usize,
}

impl Shape {
    /// The inputs and outputs of the five layers (a convolution's inputs are per tap).
    fn layers(&self) -> [(usize, usize); 5] {
        let [c1, c2, c3] = self.channels;
        [
            (9 * patch::CHANNELS, c1),
            (9 * c1, c2),
            (9 * c2, c3),
            (LAST_SIDE * LAST_SIDE * c3, self.hidden),
            (self.hidden, CLASSES),
        ]
    }

    fn layout(&self) -> Layout {
        let mut weights = [0; 5];
        let mut biases = [0; 5];
        let mut at = 0;
        for (l, (inputs, outputs)) in self.layers().into_iter().enumerate() {
            weights[l] = at;
            at += inputs * outputs;
            biases[l] = at;
            at += outputs;
        }
        Layout {
            weights,
            biases,
            total: at,
        }
    }

    /// Trained numbers in a network of this shape.
    pub fn parameters(&self) -> usize {
        self.layout().total
    }

    /// Multiply-adds to classify one patch.
    pub fn multiply_adds(&self) -> usize {
        let [c1, c2, c3] = self.channels;
        let s = patch::SIDE;
        s * s * 9 * patch::CHANNELS * c1
            + (s / 2) * (s / 2) * 9 * c1 * c2
            + (s / 4) * (s / 4) * 9 * c2 * c3
            + LAST_SIDE * LAST_SIDE * c3 * self.hidden
            + self.hidden * CLASSES
    }

    /// The size of a weights file of this shape.
    pub fn file_size(&self) -> usize {
        HEADER + 4 * self.parameters() + CHECKSUM
    }

    fn header(&self) -> [u32; 7] {
        let [c1, c2, c3] = self.channels;
        [
            patch::SIDE,
            patch::CHANNELS,
            c1,
            c2,
            c3,
            self.hidden,
            CLASSES,
        ]
        .map(|v| v as u32)
    }
}

/// The convolutional classifier's shape and weights.
#[derive(Debug)]
pub struct ConvNet {
    shape: Shape,
    layout: Layout,
    params: Vec<f32>,
    /// The convolutions' weights a row per input value, as the inference pass reads them
    /// (see [`ConvNet::logits_here`]): laid out on first use rather than for every patch,
    /// and dropped whenever the parameters may change.
    rows: OnceLock<[Vec<f32>; 3]>,
}

impl Clone for ConvNet {
    fn clone(&self) -> ConvNet {
        ConvNet::new(self.shape, self.params.clone())
    }
}

impl PartialEq for ConvNet {
    fn eq(&self, other: &ConvNet) -> bool {
        self.shape == other.shape && self.params == other.params
    }
}

/// What one patch leaves in each layer: what the gradient needs.
struct Trace {
    input: Vec<f32>,
    conv: [Vec<f32>; 3],
    pooled: [Vec<f32>; 3],
    chosen: [Vec<u32>; 3],
    hidden: Vec<f32>,
    out: [f32; CLASSES],
}

impl ConvNet {
    /// A network of `shape` with `params` ([`Shape::parameters`] values), or `None` for
    /// another count or a width of 0 or over [`MOST_WIDTH`].
    pub fn from_params(shape: Shape, params: Vec<f32>) -> Option<ConvNet> {
        let widths_fit = shape
            .channels
            .iter()
            .chain([&shape.hidden])
            .all(|&w| (1..=MOST_WIDTH).contains(&w));
        (widths_fit && params.len() == shape.parameters()).then(|| ConvNet::new(shape, params))
    }

    fn new(shape: Shape, params: Vec<f32>) -> ConvNet {
        ConvNet {
            shape,
            layout: shape.layout(),
            params,
            rows: OnceLock::new(),
        }
    }

    /// The trained numbers.
    pub(crate) fn params(&self) -> &[f32] {
        &self.params
    }

    /// The trained numbers, to change.
    pub(crate) fn params_mut(&mut self) -> &mut [f32] {
        self.rows = OnceLock::new();
        &mut self.params
    }

    /// The layers' widths.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Reads a weights file, checking each part in order.
    pub fn from_bytes(bytes: &[u8]) -> Result<ConvNet, NetError> {
        super::checked_start(bytes, &MAGIC, VERSION, HEADER, HEADER)?;
        let found: Vec<u32> = (0..7).map(|i| u32_at(bytes, 12 + 4 * i)).collect();
        let width = |i: usize| found[i] as usize;
        let shape = Shape {
            channels: [width(2), width(3), width(4)],
            hidden: width(5),
        };
        let fits = |w: usize| (1..=MOST_WIDTH).contains(&w);
        if found[..] != shape.header()[..]
            || !shape.channels.iter().all(|&w| fits(w))
            || !fits(shape.hidden)
        {
            return Err(NetError::WrongShape { found });
        }
        let params = super::checked_params(bytes, HEADER, shape.file_size(), shape.parameters())?;
        Ok(ConvNet::new(shape, params))
    }

    /// The weights file of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.shape.file_size());
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        for v in self.shape.header() {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        for p in &self.params {
            bytes.extend_from_slice(&p.to_le_bytes());
        }
        let checksum = fnv1a64(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// A network of seeded random weights (He's scaling for rectified units), biases 0.
    pub fn initial(shape: Shape, seed: u64) -> ConvNet {
        let mut rng = crate::play::Rng::new(seed ^ 0x00c0_4e7e_fea7);
        let layout = shape.layout();
        let mut params = vec![0.0_f32; layout.total];
        for (l, (inputs, outputs)) in shape.layers().into_iter().enumerate() {
            let bound = (6.0 / inputs as f64).sqrt();
            for p in &mut params[layout.weights[l]..layout.weights[l] + inputs * outputs] {
                *p = ((rng.unit() * 2.0 - 1.0) * bound) as f32;
            }
        }
        ConvNet::new(shape, params)
    }

    fn weights(&self, l: usize) -> (&[f32], &[f32]) {
        let (inputs, outputs) = self.shape.layers()[l];
        let w = self.layout.weights[l];
        let b = self.layout.biases[l];
        (
            &self.params[w..w + inputs * outputs],
            &self.params[b..b + outputs],
        )
    }

    /// The probability of each class for `patch`.
    pub fn classify(&self, patch: &[f32]) -> [f32; CLASSES] {
        let mut out = self.logits(patch);
        softmax(&mut out);
        out
    }

    /// The outputs before the softmax, as [`ConvNet::forward`] gives them (summed in
    /// another order, so alike to rounding), without keeping what the gradient needs, and
    /// with AVX2 where the processor has it (the same sums in the same order: the same
    /// bits as without).
    fn logits(&self, patch: &[f32]) -> [f32; CLASSES] {
        #[cfg(target_arch = "x86_64")]
        if crate::search::nnue::Kernel::avx2_available() {
            // SAFETY: the processor has AVX2 (checked just above).
            return unsafe { self.logits_avx2(patch) };
        }
        self.logits_here(patch)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn logits_avx2(&self, patch: &[f32]) -> [f32; CLASSES] {
        self.logits_here(patch)
    }

    /// [`ConvNet::logits`] with whatever instructions its caller was built for: each
    /// convolution goes place by place, adding each input value's row of weights (one
    /// weight an output channel, laid out in a row for the purpose) to the place's outputs,
    /// so the inner loop runs along the output channels, where vector instructions fit.
    /// Inputs the rectifier left at zero are added too: a test for them is mispredicted
    /// about as often as not, which cost more than the adds it saved.
    #[inline(always)]
    fn logits_here(&self, patch: &[f32]) -> [f32; CLASSES] {
        let rows = self.rows.get_or_init(|| self.rows_per_input());
        let mut from = place_major(patch);
        let mut side = patch::SIDE;
        let mut cin = patch::CHANNELS;
        let mut out = Vec::new();
        for (l, rows) in rows.iter().enumerate() {
            let cout = self.shape.channels[l];
            let (w, b) = self.weights(l);
            out.clear();
            out.resize(side * side * cout, 0.0);
            // The built-in widths with the outputs in registers; any other width as the
            // training pass convolves.
            match cout {
                16 => convolve_rows::<16>(&from, side, cin, rows, b, &mut out),
                32 => convolve_rows::<32>(&from, side, cin, rows, b, &mut out),
                _ => convolve(&from, side, cin, w, b, &mut out),
            }
            from = pool(&out, side, cout).0;
            side /= 2;
            cin = cout;
        }
        let (w, b) = self.weights(3);
        let mut hidden = vec![0.0; self.shape.hidden];
        dense(w, b, &from, &mut hidden, true);
        let (w, b) = self.weights(4);
        let mut logits = [0.0; CLASSES];
        dense(w, b, &hidden, &mut logits, false);
        logits
    }

    /// The weights of each convolution of a built-in width (16 or 32 channels) a row per
    /// input value: `rows[l][(tap · cin + c) · cout + o] = w[o · 9 · cin + tap · cin + c]`;
    /// empty for other widths.
    fn rows_per_input(&self) -> [Vec<f32>; 3] {
        std::array::from_fn(|l| {
            let cout = self.shape.channels[l];
            if cout != 16 && cout != 32 {
                return Vec::new();
            }
            let (w, _) = self.weights(l);
            let taps = w.len() / cout;
            let mut rows = vec![0.0; w.len()];
            for (o, filter) in w.chunks_exact(taps).enumerate() {
                for (k, &v) in filter.iter().enumerate() {
                    rows[k * cout + o] = v;
                }
            }
            rows
        })
    }

    fn forward(&self, patch: &[f32]) -> Trace {
        let input = place_major(patch);
        let mut side = patch::SIDE;
        let mut cin = patch::CHANNELS;
        let mut conv: [Vec<f32>; 3] = Default::default();
        let mut pooled: [Vec<f32>; 3] = Default::default();
        let mut chosen: [Vec<u32>; 3] = Default::default();
        for l in 0..3 {
            let cout = self.shape.channels[l];
            let (w, b) = self.weights(l);
            let from = if l == 0 { &input } else { &pooled[l - 1] };
            let mut out = vec![0.0; side * side * cout];
            convolve(from, side, cin, w, b, &mut out);
            let (p, c) = pool(&out, side, cout);
            conv[l] = out;
            pooled[l] = p;
            chosen[l] = c;
            side /= 2;
            cin = cout;
        }
        let (w, b) = self.weights(3);
        let mut hidden = vec![0.0; self.shape.hidden];
        dense(w, b, &pooled[2], &mut hidden, true);
        let (w, b) = self.weights(4);
        let mut out = [0.0; CLASSES];
        dense(w, b, &hidden, &mut out, false);
        Trace {
            input,
            conv,
            pooled,
            chosen,
            hidden,
            out,
        }
    }

    /// Adds the gradient of the cross-entropy of `patch` being `class` to `gradient` (laid
    /// out as the parameters); returns the loss.
    pub(crate) fn backward(&self, patch: &[f32], class: usize, gradient: &mut [f32]) -> f32 {
        let t = self.forward(patch);
        let mut p = t.out;
        softmax(&mut p);
        let loss = -p[class].max(1e-12).ln();
        let mut dz = p;
        dz[class] -= 1.0;
        let lay = self.layout;
        // The output layer.
        let hidden = self.shape.hidden;
        let (w, _) = self.weights(4);
        let mut dh = vec![0.0; hidden];
        for (c, &d) in dz.iter().enumerate() {
            gradient[lay.biases[4] + c] += d;
            let at = lay.weights[4] + c * hidden;
            axpy(&mut gradient[at..at + hidden], d, &t.hidden);
            axpy(&mut dh, d, &w[c * hidden..(c + 1) * hidden]);
        }
        // The dense layer.
        let flat = t.pooled[2].len();
        let (w, _) = self.weights(3);
        let mut dflat = vec![0.0; flat];
        for (j, &d) in dh.iter().enumerate() {
            if t.hidden[j] <= 0.0 {
                continue;
            }
            gradient[lay.biases[3] + j] += d;
            let at = lay.weights[3] + j * flat;
            axpy(&mut gradient[at..at + flat], d, &t.pooled[2]);
            axpy(&mut dflat, d, &w[j * flat..(j + 1) * flat]);
        }
        // The convolutions, last first.
        let mut dpooled = dflat;
        let mut side = LAST_SIDE * 2;
        for l in (0..3).rev() {
            let cout = self.shape.channels[l];
            let cin = if l == 0 {
                patch::CHANNELS
            } else {
                self.shape.channels[l - 1]
            };
            let mut dconv = vec![0.0; side * side * cout];
            for (&at, &d) in t.chosen[l].iter().zip(&dpooled) {
                let at = at as usize;
                if t.conv[l][at] > 0.0 {
                    dconv[at] += d;
                }
            }
            let from = if l == 0 { &t.input } else { &t.pooled[l - 1] };
            let (w, _) = self.weights(l);
            let (wa, ba) = (lay.weights[l], lay.biases[l]);
            let (gw, rest) = gradient[wa..].split_at_mut(ba - wa);
            let gb = &mut rest[..cout];
            let mut din = (l > 0).then(|| vec![0.0; side * side * cin]);
            convolve_back(from, side, cin, w, &dconv, gw, gb, din.as_deref_mut());
            dpooled = din.unwrap_or_default();
            side *= 2;
        }
        loss
    }
}

/// `patch` (channel by channel) place by place, each place's channels together, as the
/// convolutions take their input.
fn place_major(patch: &[f32]) -> Vec<f32> {
    let plane = patch::SIDE * patch::SIDE;
    (0..plane * patch::CHANNELS)
        .map(|i| patch[(i % patch::CHANNELS) * plane + i / patch::CHANNELS])
        .collect()
}

/// Gathers the 3×3 neighbourhood of place (`x`, `y`) of `from` (`side`² places of `cin`
/// channels) into `col`, zeros outside.
fn gather(from: &[f32], side: usize, cin: usize, x: usize, y: usize, col: &mut [f32]) {
    for ky in 0..3 {
        for kx in 0..3 {
            let tap = &mut col[(ky * 3 + kx) * cin..(ky * 3 + kx + 1) * cin];
            let (sx, sy) = ((x + kx).wrapping_sub(1), (y + ky).wrapping_sub(1));
            if sx < side && sy < side {
                let at = (sy * side + sx) * cin;
                tap.copy_from_slice(&from[at..at + cin]);
            } else {
                tap.fill(0.0);
            }
        }
    }
}

/// A 3×3 convolution, zero-padded, rectified: `out` has `side`² places of `b.len()` channels.
fn convolve(from: &[f32], side: usize, cin: usize, w: &[f32], b: &[f32], out: &mut [f32]) {
    let cout = b.len();
    let mut col = vec![0.0; 9 * cin];
    for y in 0..side {
        for x in 0..side {
            gather(from, side, cin, x, y, &mut col);
            let place = &mut out[(y * side + x) * cout..(y * side + x + 1) * cout];
            for ((o, filter), bias) in place.iter_mut().zip(w.chunks_exact(9 * cin)).zip(b) {
                *o = (super::dot(filter, &col) + bias).max(0.0);
            }
        }
    }
}

/// [`convolve`] from weights laid out a row per input value (`rows`, see
/// [`ConvNet::logits_here`]), the `N` outputs of a place held in registers while summed.
#[inline(always)]
fn convolve_rows<const N: usize>(
    from: &[f32],
    side: usize,
    cin: usize,
    rows: &[f32],
    b: &[f32],
    out: &mut [f32],
) {
    let bias: [f32; N] = b.try_into().expect("N biases");
    for (place, chunk) in out.chunks_exact_mut(N).enumerate() {
        let (y, x) = (place / side, place % side);
        let mut acc = bias;
        for ky in 0..3 {
            let sy = (y + ky).wrapping_sub(1);
            if sy >= side {
                continue;
            }
            for kx in 0..3 {
                let sx = (x + kx).wrapping_sub(1);
                if sx >= side {
                    continue;
                }
                let at = (sy * side + sx) * cin;
                let tap = (ky * 3 + kx) * cin;
                for (c, &v) in from[at..at + cin].iter().enumerate() {
                    let row: &[f32; N] = rows[(tap + c) * N..(tap + c + 1) * N]
                        .try_into()
                        .expect("a row of N");
                    for o in 0..N {
                        acc[o] += v * row[o];
                    }
                }
            }
        }
        for (p, a) in chunk.iter_mut().zip(acc) {
            *p = a.max(0.0);
        }
    }
}

/// The gradient of [`convolve`] (before its rectifier) given `dout`: added to the weights'
/// `gw` and biases' `gb`, and, when asked, to the input's `din`.
#[allow(clippy::too_many_arguments)]
fn convolve_back(
    from: &[f32],
    side: usize,
    cin: usize,
    w: &[f32],
    dout: &[f32],
    gw: &mut [f32],
    gb: &mut [f32],
    mut din: Option<&mut [f32]>,
) {
    let cout = gb.len();
    let k = 9 * cin;
    let mut col = vec![0.0; k];
    let mut dcol = vec![0.0; k];
    for y in 0..side {
        for x in 0..side {
            let place = &dout[(y * side + x) * cout..(y * side + x + 1) * cout];
            if place.iter().all(|&d| d == 0.0) {
                continue;
            }
            gather(from, side, cin, x, y, &mut col);
            dcol.fill(0.0);
            for (o, &d) in place.iter().enumerate() {
                if d == 0.0 {
                    continue;
                }
                gb[o] += d;
                axpy(&mut gw[o * k..(o + 1) * k], d, &col);
                if din.is_some() {
                    axpy(&mut dcol, d, &w[o * k..(o + 1) * k]);
                }
            }
            if let Some(din) = din.as_deref_mut() {
                for ky in 0..3 {
                    for kx in 0..3 {
                        let (sx, sy) = ((x + kx).wrapping_sub(1), (y + ky).wrapping_sub(1));
                        if sx < side && sy < side {
                            let at = (sy * side + sx) * cin;
                            let tap = &dcol[(ky * 3 + kx) * cin..(ky * 3 + kx + 1) * cin];
                            for (g, v) in din[at..at + cin].iter_mut().zip(tap) {
                                *g += v;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A 2×2 max-pool of `side`² places of `c` channels: the maxima and where each came from.
fn pool(from: &[f32], side: usize, c: usize) -> (Vec<f32>, Vec<u32>) {
    let half = side / 2;
    let mut out = vec![0.0; half * half * c];
    let mut chosen = vec![0; half * half * c];
    for y in 0..half {
        for x in 0..half {
            for ch in 0..c {
                let mut best = (f32::NEG_INFINITY, 0);
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let at = ((2 * y + dy) * side + 2 * x + dx) * c + ch;
                    if from[at] > best.0 {
                        best = (from[at], at);
                    }
                }
                let i = (y * half + x) * c + ch;
                out[i] = best.0;
                chosen[i] = best.1 as u32;
            }
        }
    }
    (out, chosen)
}

/// `out = weights · x + bias`, rectified if asked; `weights` unit by unit.
fn dense(weights: &[f32], bias: &[f32], x: &[f32], out: &mut [f32], rectify: bool) {
    for ((o, row), b) in out.iter_mut().zip(weights.chunks_exact(x.len())).zip(bias) {
        let v = super::dot(row, x) + b;
        *o = if rectify { v.max(0.0) } else { v };
    }
}

/// `y += a · x`.
fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Shape = Shape {
        channels: [3, 4, 5],
        hidden: 6,
    };

    fn patch_of(seed: u64) -> Vec<f32> {
        let mut rng = crate::play::Rng::new(seed);
        (0..patch::LEN)
            .map(|_| (rng.unit() * 4.0 - 2.0) as f32)
            .collect()
    }

    #[test]
    fn the_gradient_matches_the_loss_measured_either_side_of_each_parameter() {
        let mut net = ConvNet::initial(SMALL, 5);
        // Biases away from 0, so that every layer's bias gradient is exercised.
        let mut rng = crate::play::Rng::new(9);
        for p in net.params.iter_mut() {
            *p += (rng.unit() * 0.1 - 0.05) as f32;
        }
        let x = patch_of(3);
        let class = 4;
        let mut gradient = vec![0.0; net.params.len()];
        net.backward(&x, class, &mut gradient);
        let loss = |n: &ConvNet| f64::from(-n.classify(&x)[class].ln());
        let lay = net.layout;
        // A few parameters of every layer, weights and biases.
        let mut checked = 0;
        for l in 0..5 {
            for at in [lay.weights[l], lay.weights[l] + 7, lay.biases[l]] {
                let h = 1e-3;
                let mut up = net.clone();
                up.params[at] += h;
                let mut down = net.clone();
                down.params[at] -= h;
                let numeric = (loss(&up) - loss(&down)) / (2.0 * f64::from(h));
                let analytic = f64::from(gradient[at]);
                assert!(
                    (numeric - analytic).abs() <= 2e-3 + 0.05 * numeric.abs(),
                    "layer {l} parameter {at}: numeric {numeric}, analytic {analytic}"
                );
                checked += usize::from(analytic != 0.0);
            }
        }
        assert!(checked >= 8, "only {checked} gradients were not zero");
    }

    #[test]
    fn the_fast_outputs_are_the_training_pass_outputs() {
        // Small and built-in widths, random weights with negative biases (so that the
        // rectifiers leave zeros to skip), random patches and blank ones.
        for (shape, seed) in [
            (SMALL, 1),
            (
                Shape {
                    channels: [16, 32, 32],
                    hidden: 64,
                },
                2,
            ),
        ] {
            let mut net = ConvNet::initial(shape, seed);
            let mut rng = crate::play::Rng::new(seed + 10);
            for p in net.params.iter_mut() {
                *p += (rng.unit() * 0.2 - 0.12) as f32;
            }
            for x in [patch_of(seed), patch_of(seed + 1), vec![0.0; patch::LEN]] {
                let slow = net.forward(&x).out;
                let fast = net.logits(&x);
                for (a, b) in slow.iter().zip(fast) {
                    assert!(
                        (a - b).abs() <= 1e-4 * (1.0 + a.abs()),
                        "{slow:?} against {fast:?}"
                    );
                }
                assert!(slow.iter().any(|&v| v != 0.0));
                // The vector path and the plain one give the same bits.
                assert_eq!(net.logits_here(&x), fast);
            }
        }
    }

    #[test]
    fn weights_changed_after_a_reading_are_the_weights_the_next_reading_uses() {
        // The inference pass keeps its own layout of the weights: a change through
        // `params_mut` (as training makes) must reach it.
        let shape = Shape {
            channels: [16, 32, 32],
            hidden: 8,
        };
        let mut net = ConvNet::initial(shape, 3);
        let x = patch_of(4);
        let before = net.logits(&x);
        for p in net.params_mut().iter_mut() {
            *p *= -0.5;
        }
        let after = net.logits(&x);
        assert_ne!(before, after);
        assert_eq!(
            after,
            ConvNet::from_params(shape, net.params.clone())
                .unwrap()
                .logits(&x)
        );
        // A copy reads as the original does.
        assert_eq!(net.clone().logits(&x), after);
    }

    #[test]
    fn a_net_reads_back_from_its_file_and_damaged_files_say_what_is_wrong() {
        let net = ConvNet::initial(SMALL, 1);
        let good = net.to_bytes();
        assert_eq!(good.len(), SMALL.file_size());
        assert_eq!(ConvNet::from_bytes(&good), Ok(net.clone()));
        assert!(matches!(
            ConvNet::from_bytes(b"CHUHEPTS\x01\0\0\0"),
            Err(NetError::BadMagic { .. })
        ));
        assert_eq!(
            ConvNet::from_bytes(&good[..20]),
            Err(NetError::Truncated {
                offset: 20,
                needed: HEADER
            })
        );
        let mut version = good.clone();
        version[8] = 3;
        assert_eq!(
            ConvNet::from_bytes(&version),
            Err(NetError::UnknownVersion { found: 3 })
        );
        // Another patch side, and a layer too wide.
        for (byte, value) in [(12, 25u8), (20, 0), (32, 200)] {
            let mut shape = good.clone();
            shape[byte] = value;
            assert!(
                matches!(
                    ConvNet::from_bytes(&shape),
                    Err(NetError::WrongShape { .. })
                ),
                "byte {byte} = {value}"
            );
        }
        assert_eq!(
            ConvNet::from_bytes(&good[..100]),
            Err(NetError::Truncated {
                offset: 100,
                needed: SMALL.file_size()
            })
        );
        let mut longer = good.clone();
        longer.push(0);
        assert_eq!(
            ConvNet::from_bytes(&longer),
            Err(NetError::TrailingBytes {
                offset: SMALL.file_size()
            })
        );
        let mut flipped = good.clone();
        flipped[HEADER + 10] ^= 0x10;
        assert!(matches!(
            ConvNet::from_bytes(&flipped),
            Err(NetError::ChecksumMismatch { .. })
        ));
        let mut nan = net.clone();
        nan.params[3] = f32::NAN;
        assert_eq!(
            ConvNet::from_bytes(&nan.to_bytes()),
            Err(NetError::NotFinite {
                index: 3,
                offset: HEADER + 12
            })
        );
    }

    #[test]
    fn a_shifted_stroke_gives_the_first_layer_the_same_response_shifted() {
        // What the perceptron lacks: a filter answers a stroke wherever it is.
        let net = ConvNet::initial(SMALL, 2);
        let stroke = |at: usize| {
            let mut p = vec![0.0; patch::LEN];
            for y in 8..16 {
                p[y * patch::SIDE + at] = 2.0;
            }
            p
        };
        let (a, b) = (net.forward(&stroke(8)), net.forward(&stroke(10)));
        let c = SMALL.channels[0];
        for y in 4..20 {
            for x in 4..16 {
                for ch in 0..c {
                    let here = a.conv[0][(y * patch::SIDE + x) * c + ch];
                    let there = b.conv[0][(y * patch::SIDE + x + 2) * c + ch];
                    assert!((here - there).abs() < 1e-5, "({x}, {y}) channel {ch}");
                }
            }
        }
    }
}

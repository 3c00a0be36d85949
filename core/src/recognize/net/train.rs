//! Training the point classifier on the CPU (`core/examples/vision_train.rs` drives it).
//!
//! The samples are patches of boards drawn by [`super::synth`] in training styles: every
//! point with a piece and a share of the empty ones, each patch sampled through the
//! board's map moved by a small random error (the board finder's), so the classifier
//! does not rely on a point being exactly in the middle. Boards are drawn on several
//! threads, each from a seed of its own, and gathered in order; the network is trained on
//! one thread with Adam on minibatches, the cross-entropy of the softmax as the loss. The
//! same settings give the same weights, byte for byte, on any number of threads.
//!
//! Validation draws boards in each [`super::synth::HELD_OUT`] style and counts the points
//! and the whole boards (all 90 points) the network gets right.

use super::super::patch;
use super::synth::{self, Augment, Fonts, Style};
use super::{
    B1, B2, B3, CLASSES, Classifier, Ensemble, HIDDEN1, HIDDEN2, INPUTS, Network, PARAMETERS, W1,
    W2, W3, class_of,
};
use crate::play::Rng;
use crate::recognize::{Doubts, FLIP_DOUBT_NATS, decide_with};

/// What a training run does.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Seeds everything: the boards, the initial weights, the order of the samples.
    pub seed: u64,
    /// Training boards drawn.
    pub boards: usize,
    /// Passes over the samples.
    pub epochs: usize,
    /// Samples per step.
    pub batch: usize,
    /// Adam's step size at the start (it falls to a tenth over the run).
    pub learning_rate: f32,
    /// The share of empty points taken as samples.
    pub empty_share: f64,
    /// Patches taken of each chosen point, each through its own map error.
    pub views: usize,
    /// Threads drawing boards.
    pub threads: usize,
    /// Boards drawn per held-out style for validation.
    pub validation_boards: usize,
    /// The narrowest and widest point spacing drawn, in pixels.
    pub spacing: (f64, f64),
    /// Figures instead of characters on some training boards: the share of those boards
    /// that would have had characters ([`synth::draw_board_with`]; 0 for none).
    pub figures: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            seed: 1,
            boards: 6000,
            epochs: 4,
            batch: 64,
            learning_rate: 1e-3,
            empty_share: 0.3,
            views: 2,
            threads: 1,
            validation_boards: 100,
            spacing: (17.0, 100.0),
            figures: 0.0,
        }
    }
}

/// A training sample: a patch in eighth-bit steps and its class.
#[derive(Clone)]
pub struct Sample {
    patch: Vec<i8>,
    class: u8,
}

/// Steps per unit of a stored patch value (patch values are within ±4).
const STEPS: f32 = 30.0;

impl Sample {
    fn new(values: &[f32], class: usize) -> Sample {
        Sample {
            patch: values
                .iter()
                .map(|v| (v * STEPS).round().clamp(-127.0, 127.0) as i8)
                .collect(),
            class: class as u8,
        }
    }

    /// The sample as bytes: its class, then its patch.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = vec![self.class];
        bytes.extend(self.patch.iter().map(|&v| v as u8));
        bytes
    }

    /// A sample from [`Sample::to_bytes`]'s bytes, or `None` for a wrong length or class.
    pub fn from_bytes(bytes: &[u8]) -> Option<Sample> {
        let (&class, patch) = bytes.split_first()?;
        (patch.len() == patch::LEN && usize::from(class) < CLASSES).then(|| Sample {
            patch: patch.iter().map(|&v| v as i8).collect(),
            class,
        })
    }

    /// The length of [`Sample::to_bytes`]'s bytes.
    pub const BYTES: usize = 1 + patch::LEN;

    fn values(&self, out: &mut [f32]) {
        for (o, &v) in out.iter_mut().zip(&self.patch) {
            *o = f32::from(v) / STEPS;
        }
    }
}

/// A generator for board `index` of a run seeded `seed`: each board its own stream, so
/// the boards do not depend on how they are shared among threads.
fn board_rng(seed: u64, index: u64, salt: u64) -> Rng {
    let mut mix = Rng::new(seed ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    for _ in 0..(index % 7) {
        mix.next_u64();
    }
    Rng::new(mix.next_u64() ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03) ^ (index << 32))
}

/// A spacing between `low` and `high`, small ones as likely as large in ratio.
fn spacing(rng: &mut Rng, (low, high): (f64, f64)) -> f64 {
    low * (high / low).powf(rng.unit())
}

/// Training board `index` drawn, its style, and its random stream where the drawing left
/// it (the sampling goes on from there).
fn training_drawing(
    fonts: &Fonts,
    settings: &Settings,
    index: usize,
) -> (synth::Drawn, Style, Rng) {
    let mut rng = board_rng(settings.seed, index as u64, 1);
    let style = synth::training_style(fonts, &mut rng);
    let board = synth::random_board(&mut rng);
    let augment = Augment::random(&mut rng);
    let s = spacing(&mut rng, settings.spacing);
    let drawn = synth::draw_board_with(
        fonts,
        &style,
        &board,
        s,
        &augment,
        settings.figures,
        &mut rng,
    );
    (drawn, style, rng)
}

/// The samples of training board `index`.
fn training_board(fonts: &Fonts, settings: &Settings, index: usize) -> Vec<Sample> {
    let (drawn, _, mut rng) = training_drawing(fonts, settings, index);
    let mut samples = Vec::new();
    let mut values = vec![0.0; patch::LEN];
    for y in 0..10 {
        for x in 0..9 {
            let piece = drawn.piece_at(x, y);
            if piece.is_none() && rng.unit() >= settings.empty_share {
                continue;
            }
            for _ in 0..settings.views {
                let map = synth::jitter_map(&drawn.map, &mut rng, 0.1, 0.05, 1.5);
                patch::sample(&drawn.image, &map, f64::from(x), f64::from(y), &mut values);
                samples.push(Sample::new(&values, class_of(piece)));
            }
        }
    }
    samples
}

/// Training board `index` as a picture, and its style's name: what the trainer sees.
pub fn example_picture(
    fonts: &Fonts,
    settings: &Settings,
    index: usize,
) -> (image::RgbImage, String) {
    let (drawn, style, _) = training_drawing(fonts, settings, index);
    let name = format!("{}-{:?}-{:?}", style.font, style.disc, style.scheme);
    (drawn.image, name)
}

/// Runs `work` for every index below `count` on `threads` threads, the results in order.
fn in_parallel<T: Send>(count: usize, threads: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let threads = threads.clamp(1, 64);
    let mut slots: Vec<Option<T>> = (0..count).map(|_| None).collect();
    std::thread::scope(|scope| {
        let chunks: Vec<&mut [Option<T>]> =
            slots.chunks_mut(count.div_ceil(threads).max(1)).collect();
        let mut start = 0;
        for chunk in chunks {
            let first = start;
            start += chunk.len();
            let work = &work;
            scope.spawn(move || {
                for (i, slot) in chunk.iter_mut().enumerate() {
                    *slot = Some(work(first + i));
                }
            });
        }
    });
    slots.into_iter().flatten().collect()
}

/// Draws the training boards and takes their samples.
pub fn training_samples(fonts: &Fonts, settings: &Settings) -> Vec<Sample> {
    in_parallel(settings.boards, settings.threads, |i| {
        training_board(fonts, settings, i)
    })
    .into_iter()
    .flatten()
    .collect()
}

/// A network of seeded random weights (He's scaling for rectified units).
pub fn initial(seed: u64) -> Network {
    let mut rng = Rng::new(seed ^ 0x0005_eed0_fea7);
    let mut params = vec![0.0_f32; PARAMETERS];
    let mut fill = |range: std::ops::Range<usize>, fan_in: usize| {
        let bound = (6.0 / fan_in as f64).sqrt();
        for p in &mut params[range] {
            *p = ((rng.unit() * 2.0 - 1.0) * bound) as f32;
        }
    };
    fill(W1..B1, INPUTS);
    fill(W2..B2, HIDDEN1);
    fill(W3..B3, HIDDEN2);
    Network { params }
}

/// Adam's state.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, params: &mut [f32], gradient: &[f32], rate: f32) {
        const B1_: f32 = 0.9;
        const B2_: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1_.powi(self.t);
        let c2 = 1.0 - B2_.powi(self.t);
        for i in 0..params.len() {
            let g = gradient[i];
            self.m[i] = B1_ * self.m[i] + (1.0 - B1_) * g;
            self.v[i] = B2_ * self.v[i] + (1.0 - B2_) * g * g;
            params[i] -= rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

/// Shuffles `order` with `rng` (Fisher–Yates).
fn shuffle(order: &mut [u32], rng: &mut Rng) {
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
}

/// Trains `network` on `samples`, reporting each epoch's mean loss to `progress`.
pub fn train(
    samples: &[Sample],
    settings: &Settings,
    mut network: Classifier,
    mut progress: impl FnMut(usize, f32),
) -> Classifier {
    let parameters = network.params().len();
    let mut adam = Adam {
        m: vec![0.0; parameters],
        v: vec![0.0; parameters],
        t: 0,
    };
    let mut rng = Rng::new(settings.seed ^ 0x0dd_ba11);
    let mut order: Vec<u32> = (0..samples.len() as u32).collect();
    let mut gradient = vec![0.0_f32; parameters];
    let mut x = vec![0.0_f32; patch::LEN];
    let batch = settings.batch.max(1);
    let steps_total = (settings.epochs * samples.len().div_ceil(batch)).max(1);
    let mut steps = 0;
    for epoch in 0..settings.epochs {
        shuffle(&mut order, &mut rng);
        let mut total = 0.0_f64;
        for chunk in order.chunks(batch) {
            gradient.iter_mut().for_each(|g| *g = 0.0);
            for &i in chunk {
                let sample = &samples[i as usize];
                sample.values(&mut x);
                total += f64::from(network.backward(&x, sample.class as usize, &mut gradient));
            }
            let scale = 1.0 / chunk.len() as f32;
            gradient.iter_mut().for_each(|g| *g *= scale);
            // The step size falls from its start to a tenth, on a cosine.
            let progress_share = steps as f32 / steps_total as f32;
            let rate = settings.learning_rate
                * (0.1 + 0.45 * (1.0 + (std::f32::consts::PI * progress_share).cos()));
            adam.step(network.params_mut(), &gradient, rate);
            steps += 1;
        }
        progress(epoch, (total / samples.len().max(1) as f64) as f32);
    }
    network
}

/// How a network does on one held-out style.
#[derive(Clone, Debug, PartialEq)]
pub struct Validation {
    /// The style.
    pub style: Style,
    /// Points right, of points.
    pub points: (usize, usize),
    /// Boards with all 90 points right, of boards.
    pub boards: (usize, usize),
    /// Pieces read as the other side's piece.
    pub wrong_side: usize,
}

/// Held-out board `index` of `style`, augmented and drawn, with the grid map a board
/// finder's small error would give (`salt` keeps each use's boards its own).
fn held_out_board(
    fonts: &Fonts,
    style: &Style,
    seed: u64,
    index: usize,
    salt: u64,
    spacing_range: (f64, f64),
) -> (synth::Drawn, super::super::geometry::Homography) {
    let mut rng = board_rng(seed, index as u64, salt);
    let board = synth::random_board(&mut rng);
    let augment = Augment::random(&mut rng);
    let s = spacing(&mut rng, spacing_range);
    let drawn = synth::draw_board(fonts, style, &board, s, &augment, &mut rng);
    let map = synth::jitter_map(&drawn.map, &mut rng, 0.05, 0.03, 0.5);
    (drawn, map)
}

/// The argmax of the network on every point of board `index` of `style`: right points.
fn validation_board(
    fonts: &Fonts,
    network: &Ensemble,
    style: &Style,
    seed: u64,
    index: usize,
    spacing_range: (f64, f64),
) -> (usize, usize) {
    let (drawn, map) = held_out_board(fonts, style, seed, index, 2, spacing_range);
    let mut values = vec![0.0; patch::LEN];
    let (mut right, mut wrong_side) = (0, 0);
    for y in 0..10 {
        for x in 0..9 {
            patch::sample(&drawn.image, &map, f64::from(x), f64::from(y), &mut values);
            let p = network.classify(&values);
            let best = (0..CLASSES)
                .max_by(|&a, &b| p[a].total_cmp(&p[b]))
                .unwrap_or(0);
            let truth = class_of(drawn.piece_at(x, y));
            if best == truth {
                right += 1;
            } else if best != 0 && truth != 0 && (best - 1) % 7 == (truth - 1) % 7 {
                wrong_side += 1;
            }
        }
    }
    (right, wrong_side)
}

/// Validates `network` on `boards` boards of each held-out style whose font is here.
pub fn validate(fonts: &Fonts, network: &Ensemble, settings: &Settings) -> Vec<Validation> {
    synth::HELD_OUT
        .iter()
        .filter(|style| fonts.names().contains(&style.font))
        .map(|style| {
            let results = in_parallel(settings.validation_boards, settings.threads, |i| {
                validation_board(fonts, network, style, settings.seed, i, settings.spacing)
            });
            Validation {
                style: *style,
                points: (results.iter().map(|r| r.0).sum(), 90 * results.len()),
                boards: (results.iter().filter(|r| r.0 == 90).count(), results.len()),
                wrong_side: results.iter().map(|r| r.1).sum(),
            }
        })
        .collect()
}

/// How one held-out board came out through the whole reading (classes, joint decoding both
/// ways up): what the way-up doubt is calibrated on.
#[derive(Clone, Debug, PartialEq)]
pub struct FlipCase {
    /// The chosen way up's lead over the other, in nats.
    pub margin: f64,
    /// Whether the way up was read right.
    pub flip_right: bool,
    /// Whether every point was read right.
    pub exact: bool,
    /// Whether every wrong point is marked uncertain without the way-up doubt.
    pub marked: bool,
    /// Whether every wrong point is marked uncertain with the way up in doubt.
    pub marked_in_doubt: bool,
    /// How many points the way-up doubt marks beyond the others.
    pub extra_marks: usize,
    /// For each of the doubts tried: whether every wrong point is marked uncertain, and how
    /// many points are.
    pub marked_by: Vec<(bool, usize)>,
    /// Points read as the other side's piece of the same kind.
    pub wrong_side: usize,
    /// How many middles of squares stand off the surely empty points
    /// ([`crate::recognize::occupancy::astray`]; none on a chequer, which is not looked at).
    pub astray: usize,
    /// The reading's summed log probability, before any whole-board doubt.
    pub log_probability: f64,
    /// Whether every wrong point is marked uncertain by the shipped doubts, the whole-board
    /// doubt left out.
    pub marked_but_whole: bool,
}

/// How [`flip_cases`] reads its boards.
#[derive(Clone, Copy, Debug)]
pub struct HowRead<'a> {
    /// Whether the sides are told apart by the pictures' colours too, as the reader does.
    pub by_colour: bool,
    /// Whether the pieces' kinds are pooled with their twins' and parted from their
    /// strangers', as the reader does ([`crate::recognize::twins`]).
    pub twins: bool,
    /// Each board is also marked by every one of these.
    pub markings: &'a [Doubts],
    /// Each point is classified at these offsets (in spacings), as
    /// [`crate::recognize::read_points_with`] does.
    pub views: &'a crate::recognize::Views<'a>,
}

/// Reads held-out board `index` of `style` whole and says how it came out.
fn flip_case(
    fonts: &Fonts,
    network: &Ensemble,
    style: &Style,
    seed: u64,
    index: usize,
    spacing_range: (f64, f64),
    how: &HowRead,
) -> FlipCase {
    let HowRead {
        by_colour,
        twins,
        markings,
        views,
    } = *how;
    let (drawn, map) = held_out_board(fonts, style, seed, index, 3, spacing_range);
    let (mut seen, colours) =
        crate::recognize::read_points_with(network, views, &drawn.image, &map);
    if twins {
        crate::recognize::twins::Twins::find(&drawn.image, &map, &seen).apply(&mut seen);
    }
    let astray = if drawn.chequer {
        0
    } else {
        crate::recognize::occupancy::astray(&drawn.image, &map, &seen, &colours)
    };
    let colours = by_colour.then_some(&colours);
    let area = crate::recognize::Area {
        x: 0,
        y: 0,
        width: 1,
        height: 1,
    };
    let with_flip = |flip_nats| Doubts {
        flip_nats,
        whole_nats: f64::INFINITY,
        ..Doubts::SHIPPED
    };
    let plain = decide_with(&seen, colours, area, &with_flip(0.0));
    let doubted = decide_with(&seen, colours, area, &with_flip(f64::INFINITY));
    let shipped_but_whole = decide_with(&seen, colours, area, &with_flip(FLIP_DOUBT_NATS));
    let wrong: Vec<crate::Square> = crate::Square::ALL
        .into_iter()
        .filter(|&sq| plain.board.get(sq) != drawn.board.get(sq))
        .collect();
    FlipCase {
        margin: plain.flip_margin,
        flip_right: plain.flipped == drawn.flipped,
        exact: wrong.is_empty(),
        marked: wrong.iter().all(|s| plain.uncertain.contains(s)),
        marked_in_doubt: wrong.iter().all(|s| doubted.uncertain.contains(s)),
        extra_marks: doubted.uncertain.len() - plain.uncertain.len(),
        marked_by: markings
            .iter()
            .map(|m| {
                let r = decide_with(&seen, colours, area, m);
                (
                    wrong.iter().all(|s| r.uncertain.contains(s)),
                    r.uncertain.len(),
                )
            })
            .collect(),
        wrong_side: wrong
            .iter()
            .filter(|&&s| {
                matches!((plain.board.get(s), drawn.board.get(s)),
                    (Some(a), Some(b)) if a.kind == b.kind && a.color != b.color)
            })
            .count(),
        astray,
        log_probability: plain.log_probability,
        marked_but_whole: wrong
            .iter()
            .all(|s| shipped_but_whole.uncertain.contains(s)),
    }
}

/// Reads `settings.validation_boards` boards of each held-out style whose font is here (other
/// boards than [`validate`]'s) and says how each came out; `by_colour` tells the sides
/// apart as `how` says.
pub fn flip_cases(
    fonts: &Fonts,
    network: &Ensemble,
    settings: &Settings,
    how: &HowRead,
) -> Vec<FlipCase> {
    synth::HELD_OUT
        .iter()
        .filter(|style| fonts.names().contains(&style.font))
        .flat_map(|style| {
            in_parallel(settings.validation_boards, settings.threads, |i| {
                flip_case(
                    fonts,
                    network,
                    style,
                    settings.seed,
                    i,
                    settings.spacing,
                    how,
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_the_same_for_a_seed_on_any_number_of_threads() {
        let fonts = Fonts::app_only();
        let settings = Settings {
            boards: 3,
            epochs: 1,
            batch: 16,
            views: 1,
            empty_share: 0.05,
            spacing: (18.0, 24.0),
            ..Settings::default()
        };
        let run = |threads: usize, seed: u64| {
            let settings = Settings {
                threads,
                seed,
                ..settings.clone()
            };
            let samples = training_samples(&fonts, &settings);
            let start = Classifier::Perceptron(initial(seed));
            train(&samples, &settings, start, |_, _| {}).to_bytes()
        };
        let one = run(1, 7);
        assert_eq!(one, run(2, 7));
        assert_ne!(one, run(1, 8));
    }

    #[test]
    fn a_convolutional_run_is_the_same_for_a_seed_and_learns() {
        let fonts = Fonts::app_only();
        let settings = Settings {
            boards: 2,
            epochs: 2,
            batch: 8,
            views: 1,
            empty_share: 0.05,
            spacing: (18.0, 24.0),
            learning_rate: 3e-3,
            ..Settings::default()
        };
        let shape = super::super::conv::Shape {
            channels: [4, 4, 8],
            hidden: 8,
        };
        let samples = training_samples(&fonts, &settings);
        let run = |seed: u64| {
            let settings = Settings {
                seed,
                ..settings.clone()
            };
            let start = Classifier::Conv(super::super::conv::ConvNet::initial(shape, seed));
            let mut losses = Vec::new();
            let net = train(&samples, &settings, start, |_, loss| losses.push(loss));
            (net.to_bytes(), losses)
        };
        let (one, losses) = run(7);
        assert_eq!(one, run(7).0);
        assert_ne!(one, run(8).0);
        assert!(losses[1] < losses[0], "the loss falls: {losses:?}");
    }
}

//! Fitting the evaluation's weights to game results by Texel's method: over many quiet
//! positions from finished games, minimise the mean squared difference between each
//! game's result (1, ½, 0 for Red) and the logistic of the evaluation,
//! `1 / (1 + 10^(-k·eval/400))`. The evaluation is linear in its weights (apart from the
//! endgame scale factor, held fixed per position), so the gradient is exact and cheap.
//!
//! `core/examples/tune_eval.rs` drives it: it reads games, picks positions, fits, and
//! writes `weights.rs`.

use super::eval::{PHASE_MAX, S, SCALE_ONE, Trace, evaluate_traced, layout};
use super::weights::WEIGHTS;
use crate::MoveList;
use crate::Position;
use crate::search::movepick::legal_captures;
use crate::search::see::see_ge;

/// One position's features (Red's count minus Black's, per weight), as the evaluation
/// sees them, with the result of its game.
#[derive(Clone, Debug)]
pub struct Sample {
    features: Vec<(u16, i16)>,
    phase: i32,
    scale: i32,
    /// The result for Red: 1 win, 0.5 draw, 0 loss.
    pub result: f64,
}

#[derive(Default)]
struct Recorder {
    features: Vec<(u16, i16)>,
    phase: i32,
    scale: i32,
}

impl Trace for Recorder {
    fn add(&mut self, index: usize, count: i32) {
        self.features.push((index as u16, count as i16));
    }
    fn finish(&mut self, phase: i32, scale: i32) {
        self.phase = phase;
        self.scale = scale;
    }
}

impl Sample {
    /// The features of `pos`, whose game ended with `result` for Red.
    pub fn new(pos: &Position, result: f64) -> Sample {
        let mut r = Recorder::default();
        evaluate_traced(pos, &mut r);
        // Merge repeated features (a PST square counted by several pieces).
        r.features.sort_unstable_by_key(|&(i, _)| i);
        let mut merged: Vec<(u16, i16)> = Vec::with_capacity(r.features.len());
        for (i, c) in r.features {
            match merged.last_mut() {
                Some(last) if last.0 == i => last.1 += c,
                _ => merged.push((i, c)),
            }
        }
        merged.retain(|&(_, c)| c != 0);
        Sample {
            features: merged,
            phase: r.phase,
            scale: r.scale,
            result,
        }
    }

    /// The evaluation for Red under `weights` (as `evaluate` computes it, unrounded).
    fn eval(&self, weights: &[(f64, f64)]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, c) in &self.features {
            let (wm, we) = weights[i as usize];
            mg += wm * c as f64;
            eg += we * c as f64;
        }
        let p = self.phase as f64 / PHASE_MAX as f64;
        (mg * p + eg * (1.0 - p)) * self.scale as f64 / SCALE_ONE as f64
    }
}

/// Whether `pos` is quiet enough to judge by its static evaluation: not in check, and no
/// capture that wins or keeps material in the exchange.
pub fn is_quiet(pos: &Position) -> bool {
    if pos.is_check() {
        return false;
    }
    let mut captures = MoveList::new();
    legal_captures(pos, &mut captures);
    captures.iter().all(|&m| !see_ge(pos, m, 0))
}

/// The logistic of an evaluation: the expected score.
fn expected(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// The mean squared error of the weights over `samples`.
pub fn error(samples: &[Sample], weights: &[(f64, f64)], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - expected(s.eval(weights), k)).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The current weights, as floating-point pairs.
pub fn current_weights() -> Vec<(f64, f64)> {
    WEIGHTS.iter().map(|w| (w.0 as f64, w.1 as f64)).collect()
}

/// The scaling constant `k` that best fits the current weights (a golden-section search),
/// so the fit changes the weights, not the scale of the evaluation.
pub fn fit_k(samples: &[Sample], weights: &[(f64, f64)]) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 3.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(samples, weights, a) < error(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Which weights the fit may change: the general's material is fixed (it is always
/// there), and so is a pawn's middlegame value, the unit the others are measured in.
fn frozen(i: usize) -> (bool, bool) {
    let general = i == layout::MATERIAL;
    let pawn = i == layout::MATERIAL + super::eval::PAWN;
    (general || pawn, general)
}

/// How a fit runs.
#[derive(Clone, Copy, Debug)]
pub struct FitSettings<'a> {
    /// The scaling constant of the logistic (see [`fit_k`]).
    pub k: f64,
    /// Passes over the samples.
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub learning_rate: f64,
    /// Ridge penalty per squared centipawn of distance from the starting weights: keeps
    /// weights the data hardly sees (rare squares) near their prior.
    pub l2: f64,
    /// Weights (by index) to leave as they are, such as whole tables too big for the data.
    pub frozen: &'a [std::ops::Range<usize>],
    /// Weights (by index) that may only be penalties (at most zero): terms whose meaning
    /// fixes their sign, such as a missing defender facing an attacker. Without this the
    /// fit can give one a bonus that another weight pays back, which holds on average over
    /// the games but misjudges the positions where only that term applies.
    pub penalties: &'a [std::ops::Range<usize>],
}

/// Fits the weights by gradient descent (Adam), starting from `weights`; `report` hears
/// the error after each pass.
pub fn fit(
    samples: &[Sample],
    weights: &mut [(f64, f64)],
    settings: FitSettings<'_>,
    mut report: impl FnMut(usize, f64),
) {
    let FitSettings {
        k,
        epochs,
        learning_rate,
        l2,
        frozen: frozen_ranges,
        penalties,
    } = settings;
    let prior = weights.to_vec();
    let n = weights.len();
    let (mut m, mut v) = (vec![(0.0, 0.0); n], vec![(0.0, 0.0); n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let ln10 = std::f64::consts::LN_10;
    // Which weights (middlegame, endgame) stay fixed and which may only be penalties,
    // decided once rather than on every step.
    let fixed: Vec<(bool, bool)> = (0..n)
        .map(|i| {
            if frozen_ranges.iter().any(|r| r.contains(&i)) {
                (true, true)
            } else {
                frozen(i)
            }
        })
        .collect();
    let penalty: Vec<bool> = (0..n)
        .map(|i| penalties.iter().any(|r| r.contains(&i)))
        .collect();
    for epoch in 1..=epochs {
        let mut grad = vec![(0.0, 0.0); n];
        for s in samples {
            let e = s.eval(weights);
            let p = expected(e, k);
            // d(error)/d(eval), per sample.
            let d = 2.0 * (p - s.result) * p * (1.0 - p) * ln10 * k / 400.0;
            let phase = s.phase as f64 / PHASE_MAX as f64;
            let scale = s.scale as f64 / SCALE_ONE as f64;
            for &(i, c) in &s.features {
                let g = &mut grad[i as usize];
                g.0 += d * c as f64 * phase * scale;
                g.1 += d * c as f64 * (1.0 - phase) * scale;
            }
        }
        let count = samples.len().max(1) as f64;
        for i in 0..n {
            let (fm, fe) = fixed[i];
            let g = (
                grad[i].0 / count + 2.0 * l2 * (weights[i].0 - prior[i].0),
                grad[i].1 / count + 2.0 * l2 * (weights[i].1 - prior[i].1),
            );
            m[i] = (
                b1 * m[i].0 + (1.0 - b1) * g.0,
                b1 * m[i].1 + (1.0 - b1) * g.1,
            );
            v[i] = (
                b2 * v[i].0 + (1.0 - b2) * g.0 * g.0,
                b2 * v[i].1 + (1.0 - b2) * g.1 * g.1,
            );
            let bias1 = 1.0 - b1.powi(epoch as i32);
            let bias2 = 1.0 - b2.powi(epoch as i32);
            if !fm {
                weights[i].0 -= learning_rate * (m[i].0 / bias1) / ((v[i].0 / bias2).sqrt() + eps);
            }
            if !fe {
                weights[i].1 -= learning_rate * (m[i].1 / bias1) / ((v[i].1 / bias2).sqrt() + eps);
            }
            if penalty[i] {
                weights[i] = (weights[i].0.min(0.0), weights[i].1.min(0.0));
            }
        }
        report(epoch, error(samples, weights, k));
    }
}

/// The source of `weights.rs` for `weights`, with `provenance` (how they were fitted) in
/// its header.
pub fn weights_source(weights: &[(f64, f64)], provenance: &str) -> String {
    let mut out = String::new();
    out.push_str("//! The evaluation's weights (middlegame, endgame), laid out as `eval::layout` says.\n//!\n");
    for line in provenance.lines() {
        out.push_str("//! ");
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("\nuse super::eval::{S, layout::COUNT};\n\n#[rustfmt::skip]\npub(crate) static WEIGHTS: [S; COUNT] = [\n");
    for chunk in weights.chunks(8) {
        out.push_str("   ");
        for &(a, b) in chunk {
            let w = S(a.round() as i32, b.round() as i32);
            out.push_str(&format!(" S({}, {}),", w.0, w.1));
        }
        out.push('\n');
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_reproduce_the_evaluation() {
        let weights = current_weights();
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/9/PcP1P1P1P/N1C1C1N2/9/R1BAKABR1 b - - 0 6",
            "2bakab2/9/9/9/9/9/9/4N4/9/3K5 w - - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            let s = Sample::new(&pos, 0.5);
            let red = crate::search::eval::evaluate(&pos)
                * if pos.side_to_move() == crate::Color::Red {
                    1
                } else {
                    -1
                };
            // The evaluation rounds each step to whole centipawns.
            assert!((s.eval(&weights) - red as f64).abs() <= 2.0, "{fen}");
        }
    }

    /// A toy set: Red a rook up wins, the start position draws.
    fn rook_up_wins() -> Vec<Sample> {
        let up: Position = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
            .parse()
            .unwrap();
        vec![
            Sample::new(&up, 1.0),
            Sample::new(&Position::startpos(), 0.5),
        ]
    }

    #[test]
    fn penalties_stay_penalties() {
        // Red a rook up wins, so the data wants the rook's weight to rise from below zero;
        // marked as a penalty it may not pass zero.
        let samples = rook_up_wins();
        let rook = layout::MATERIAL + super::super::eval::ROOK;
        let mut weights = current_weights();
        weights[rook] = (-10.0, -10.0);
        let mut free = weights.clone();
        let rook_only = rook..rook + 1;
        let settings = FitSettings {
            k: 1.0,
            epochs: 50,
            learning_rate: 5.0,
            l2: 0.0,
            frozen: &[],
            penalties: std::slice::from_ref(&rook_only),
        };
        fit(&samples, &mut weights, settings, |_, _| {});
        let unconstrained = FitSettings {
            penalties: &[],
            ..settings
        };
        fit(&samples, &mut free, unconstrained, |_, _| {});
        assert!(free[rook].0 > 0.0, "the data pushes the weight up");
        assert!(weights[rook].0 <= 0.0 && weights[rook].1 <= 0.0);
    }

    #[test]
    fn fitting_reduces_the_error() {
        let samples = rook_up_wins();
        let mut weights = current_weights();
        let before = error(&samples, &weights, 1.0);
        let mut last = before;
        let settings = FitSettings {
            k: 1.0,
            epochs: 20,
            learning_rate: 1.0,
            l2: 0.0,
            frozen: &[],
            penalties: &[],
        };
        fit(&samples, &mut weights, settings, |_, e| last = e);
        assert!(last < before);
        let text = weights_source(&weights, "test");
        assert!(text.contains("pub(crate) static WEIGHTS"));
    }
}

use super::*;
use crate::search::nnue::tests::{RandomWalk, colour_flipped, mirrored};

fn records(samples: &[Sample]) -> Vec<Record> {
    samples.iter().map(Record::from).collect()
}

/// A model whose every part is far from zero, the shared rows included, so a mistake in
/// any of them shows.
fn busy_model(seed: u64, l1: f32) -> Model {
    let mut model = Model::random(seed);
    let mut rng = Rng::new(seed + 1);
    let mut uniform = |lo: f32, hi: f32| lo + (hi - lo) * rng.unit() as f32;
    for w in &mut model.params[L1..BIAS] {
        *w = uniform(-l1, l1);
    }
    for w in &mut model.params[BIAS..OUT] {
        *w = uniform(0.0, 0.6);
    }
    for w in &mut model.params[OUT..OUT_BIAS] {
        *w = uniform(-1.0, 1.0);
    }
    model.params[OUT_BIAS] = 0.3;
    model.clip(None);
    model
}

/// The loss of `records` under `model`'s unrounded weights.
fn loss_of(model: &Model, records: &[Record], obj: Objective) -> f64 {
    pass(&model.fold(false), records, obj, None)
}

#[test]
fn the_gradient_equals_finite_differences() {
    let model = busy_model(5, 0.08);
    // Generals on every kind of palace point, so every bucket's rows add to the shared
    // rows' gradient, and positions from random games.
    let fens = [
        "3k5/9/9/2p3p2/9/2R3n2/9/4K4/9/9 w - - 0 1",
        "9/4k4/9/9/1c2P4/9/9/9/3K2N2/9 w - - 0 1",
        "9/9/4k4/9/2r6/6C2/9/5K3/9/9 b - - 0 1",
    ];
    let mut samples: Vec<Sample> = fens
        .iter()
        .zip([Outcome::Win, Outcome::Draw, Outcome::Loss])
        .map(|(fen, outcome)| Sample {
            position: fen.parse().unwrap(),
            score: 150,
            outcome,
        })
        .collect();
    samples.extend(synthetic_samples(40, 3).into_iter().skip(30).take(3));
    let batch = records(&samples);
    let obj = Objective {
        lambda: 0.6,
        scale: 400.0,
    };
    let mut grad = vec![0.0; PARAMETERS];
    pass(&model.fold(false), &batch, obj, Some((&mut grad, 1.0)));
    add_shared_gradients(&mut grad);

    // A few rows of every position's features (both perspectives), their shared rows,
    // the biases, and the output layer.
    let mut checked = Vec::new();
    let mut buckets = [false; BUCKETS];
    for (n, sample) in samples.iter().enumerate() {
        let inputs = Inputs::of(&sample.position);
        for side in 0..2 {
            for (k, &f) in inputs.of_side(side).iter().enumerate().step_by(5) {
                let unit = (n * 101 + k * 37 + side * 11) % HIDDEN;
                checked.push(L1 + f * HIDDEN + unit);
                checked.push(FACTOR + (f % FACTORS) * HIDDEN + unit);
                buckets[f / FACTORS] = true;
            }
        }
    }
    assert_eq!(buckets, [true; BUCKETS]);
    checked.extend([BIAS + 3, BIAS + 200, OUT + 5, OUT + HIDDEN + 9, OUT_BIAS]);

    let h = 1e-3;
    // Most gradients are large beside the tolerance, so the check has teeth.
    let mut nonzero = 0;
    for &i in &checked {
        let mut plus = model.clone();
        plus.params[i] += h;
        let mut minus = model.clone();
        minus.params[i] -= h;
        let numeric =
            (loss_of(&plus, &batch, obj) - loss_of(&minus, &batch, obj)) / (2.0 * h as f64);
        let analytic = grad[i] as f64;
        // The losses are computed in f32: differences of 1e-3 carry some 5e-5 of noise.
        let tolerance = 5e-5 + 0.01 * numeric.abs().max(analytic.abs());
        assert!(
            (numeric - analytic).abs() <= tolerance,
            "parameter {i}: analytic {analytic:e}, numeric {numeric:e}"
        );
        nonzero += (analytic.abs() > 1e-3) as usize;
    }
    assert!(
        3 * nonzero >= 2 * checked.len(),
        "{nonzero} of {}",
        checked.len()
    );
}

#[test]
fn the_exported_network_computes_what_the_trainer_computes() {
    let model = busy_model(7, 0.08);
    let weights = model.weights();
    let net = model.export().unwrap();
    // A network read back is the same model.
    assert_eq!(Model::from_network(&net).export().unwrap(), net);

    let mut walk = RandomWalk::new(21);
    let (mut worst, mut large) = (0.0f32, 0);
    for _ in 0..1500 {
        walk.step();
        let pos = &walk.pos;
        let float = weights.evaluate(pos);
        let quantised = net.evaluate(pos);
        // The integer output rounds toward zero; the float sums differ by rounding.
        let diff = (float - quantised as f32).abs();
        worst = worst.max(diff);
        assert!(diff < 1.01, "{pos}: float {float}, quantised {quantised}");
        large += (quantised.abs() >= 200) as usize;
        for other in [colour_flipped(pos), mirrored(pos)] {
            assert_eq!(net.evaluate(&other), quantised, "{pos}");
            assert!((weights.evaluate(&other) - float).abs() < 0.01, "{pos}");
        }
    }
    assert!(large >= 300, "{large} evaluations of two pawns or more");
    eprintln!("largest difference float − quantised: {worst} cp");
}

#[test]
fn clipping_keeps_every_row_and_its_shared_row_within_the_files_limits() {
    let model = busy_model(9, 1.5);
    let w = model.fold(false);
    let largest = w.l1.iter().fold(0.0f32, |m, &x| m.max(x.abs()));
    assert!(
        largest <= L1_LIMIT + 1e-6 && largest > L1_LIMIT - 0.01,
        "{largest}"
    );
    assert!(w.out.iter().all(|x| x.abs() <= OUT_LIMIT));
    // The first layer's extremes fit 16-bit accumulators: the export succeeds and a
    // full board evaluates within the evaluation's limits.
    let net = model.export().unwrap();
    let v = net.evaluate(&Position::startpos());
    assert!(v.abs() <= EVAL_LIMIT as i32);
}

/// Settings for the small runs of the tests.
fn small(batch: usize, threads: usize) -> Settings {
    Settings {
        batch,
        objective: Objective {
            lambda: 1.0,
            scale: 400.0,
        },
        threads,
    }
}

#[test]
fn training_on_material_learns_material() {
    // A hundred steps: two passes over 20,000 positions.
    let mut data = records(&synthetic_samples(20_000, 11));
    let unseen = records(&synthetic_samples(500, 12));
    let mut trainer = Trainer::new(Model::random(1), small(400, 2));
    let before = trainer.loss(&unseen);
    let mut rng = Rng::new(2);
    for _ in 0..2 {
        trainer.epoch(&mut data, &mut rng, 5e-3);
    }
    let after = trainer.loss(&unseen);
    assert!(after < 0.1 * before, "loss {before} before, {after} after");

    let net = trainer.model().export().unwrap();
    let pos = |fen: &str| -> Position { fen.parse().unwrap() };
    let even = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    let rook_up = pos("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    let rook_down = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1");
    let (up, level, down) = (
        net.evaluate(&rook_up),
        net.evaluate(&even),
        net.evaluate(&rook_down),
    );
    eprintln!("loss {before:.5} → {after:.5}; rook up {up}, even {level}, rook down {down}");
    assert!(
        up > level + 200 && level > down + 200,
        "{up} {level} {down}"
    );
}

#[test]
fn the_same_run_gives_the_same_network() {
    let data = records(&synthetic_samples(300, 4));
    let run = || {
        let mut data = data.clone();
        let mut trainer = Trainer::new(Model::random(3), small(64, 3));
        let mut rng = Rng::new(3);
        trainer.epoch(&mut data, &mut rng, 1e-3);
        // The weights the trainer computes with are the model's.
        assert!(trainer.weights == trainer.model().weights());
        trainer.model().export().unwrap().to_bytes()
    };
    let first = run();
    assert_eq!(run(), first);
    assert_ne!(Model::random(3).export().unwrap().to_bytes(), first);
}

#[test]
fn the_fitted_scale_is_the_one_the_results_were_drawn_with() {
    let mut rng = Rng::new(8);
    let start = Position::startpos();
    let samples: Vec<Sample> = (0..20_000)
        .map(|_| {
            let score = (rng.below(2001) as i32 - 1000) as i16;
            let win = rng.unit() < sigmoid(score as f32 / 300.0) as f64;
            Sample {
                position: start.clone(),
                score,
                outcome: if win { Outcome::Win } else { Outcome::Loss },
            }
        })
        .collect();
    let k = fit_scale(&records(&samples));
    assert!((k - 300.0).abs() < 20.0, "{k}");
}

#[cfg(target_arch = "x86_64")]
#[test]
fn the_avx2_pass_gives_the_portable_ones_bits() {
    if !crate::search::nnue::Kernel::avx2_available() {
        eprintln!("no AVX2 here: nothing to compare");
        return;
    }
    let weights = busy_model(13, 0.08).weights();
    let batch = records(&synthetic_samples(200, 5));
    let obj = Objective {
        lambda: 0.75,
        scale: DEFAULT_SCALE,
    };
    let mut portable = vec![0.0; PARAMETERS];
    let mut avx2 = vec![0.0; PARAMETERS];
    let a = pass_portable(&weights, &batch, obj, Some((&mut portable, 0.01)));
    // SAFETY: the processor has AVX2 (checked above).
    let b = unsafe { pass_avx2(&weights, &batch, obj, Some((&mut avx2, 0.01))) };
    assert_eq!(a.to_bits(), b.to_bits());
    assert!(
        portable
            .iter()
            .zip(&avx2)
            .all(|(x, y)| x.to_bits() == y.to_bits())
    );
    assert!(portable.iter().filter(|&&g| g != 0.0).count() > 10_000);
}

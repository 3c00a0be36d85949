//! Trains the evaluation network on training data (`search::nnue::train`) and writes it
//! as a weights file after every epoch:
//!
//! ```text
//! cargo run --release -p chuhe-core --example nnue_train -- OUT.nnue DATA... [--epochs N]
//!   [--batch B] [--lr X] [--lambda L] [--seed S] [--threads T] [--validation FRACTION]
//!   [--init NET.nnue] [--scale K|fit] [--synthetic N]
//! ```
//!
//! DATA are training data files (`search::nnue::data`); a file cut inside a record gives
//! its whole records. `--synthetic N` adds N random positions scored by material (for
//! trying the trainer and measuring its speed without data). The positions are shuffled
//! with the seed and a fraction held out for validation (default 0.02); each epoch
//! reshuffles the rest. Defaults: 10 epochs, batches of 16,384, learning rate 0.001 (times
//! 0.3 from 70% of the epochs on), λ = 0.75 (the score's share of the target, the rest the
//! game's result), seed 1, one thread, K = 457 (`--scale fit` fits K to the data's scores
//! and results first). `--init` starts from a network instead of seeded random weights.
//!
//! The same arguments give the same file, byte for byte, on the same number of threads.

use chuhe_core::play::Rng;
use chuhe_core::search::nnue::Network;
use chuhe_core::search::nnue::data::{self, DataError};
use chuhe_core::search::nnue::train::{
    DEFAULT_SCALE, Model, Objective, Record, Settings, Trainer, fit_scale, shuffle,
    synthetic_samples,
};
use std::path::{Path, PathBuf};
use std::process::exit;
use std::time::Instant;

/// The command line.
struct Args {
    out: PathBuf,
    data: Vec<PathBuf>,
    epochs: usize,
    batch: usize,
    lr: f32,
    lambda: f32,
    seed: u64,
    threads: usize,
    validation: f64,
    init: Option<PathBuf>,
    /// `None`: fit K to the data.
    scale: Option<f32>,
    synthetic: usize,
}

fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("nnue_train: {message}");
    exit(2)
}

fn parse_args() -> Args {
    let mut args = Args {
        out: PathBuf::new(),
        data: Vec::new(),
        epochs: 10,
        batch: 16_384,
        lr: 1e-3,
        lambda: 0.75,
        seed: 1,
        threads: 1,
        validation: 0.02,
        init: None,
        scale: Some(DEFAULT_SCALE),
        synthetic: 0,
    };
    let mut paths = Vec::new();
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        if !arg.starts_with("--") {
            paths.push(PathBuf::from(arg));
            continue;
        }
        let value = it
            .next()
            .unwrap_or_else(|| fail(format!("{arg} needs a value")));
        fn number<T: std::str::FromStr>(arg: &str, value: &str) -> T {
            value.parse().unwrap_or_else(|_| {
                fail(format!("{arg} {value:?}: not a number of the right kind"))
            })
        }
        match arg.as_str() {
            "--epochs" => args.epochs = number(&arg, &value),
            "--batch" => args.batch = number(&arg, &value),
            "--lr" => args.lr = number(&arg, &value),
            "--lambda" => args.lambda = number(&arg, &value),
            "--seed" => args.seed = number(&arg, &value),
            "--threads" => args.threads = number(&arg, &value),
            "--validation" => args.validation = number(&arg, &value),
            "--init" => args.init = Some(PathBuf::from(value)),
            "--scale" if value == "fit" => args.scale = None,
            "--scale" => args.scale = Some(number(&arg, &value)),
            "--synthetic" => args.synthetic = number(&arg, &value),
            _ => fail(format!("unknown option {arg}")),
        }
    }
    let mut paths = paths.into_iter();
    args.out = paths
        .next()
        .unwrap_or_else(|| fail("usage: nnue_train OUT.nnue DATA... [options]"));
    args.data = paths.collect();
    if args.batch == 0 || args.threads == 0 {
        fail("--batch and --threads must be at least 1");
    }
    if !(0.0..1.0).contains(&args.validation) {
        fail("--validation must be at least 0 and below 1");
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        fail("--lambda must be between 0 and 1");
    }
    if args.scale.is_some_and(|k| !(k.is_finite() && k > 0.0)) {
        fail("--scale must be a positive number of centipawns or `fit`");
    }
    if !(args.lr.is_finite() && args.lr > 0.0) {
        fail("--lr must be a positive number");
    }
    args
}

/// The records of the data file at `path`; a cut file gives its whole records.
fn read_records(path: &Path) -> Vec<Record> {
    let samples = match data::read(path) {
        Ok(samples) => samples,
        Err(DataError::Truncated {
            samples,
            extra_bytes,
        }) => {
            eprintln!(
                "{}: cut {extra_bytes} bytes into a record; using the {} whole records before it",
                path.display(),
                samples.len()
            );
            samples
        }
        Err(e) => {
            eprintln!("nnue_train: {}: {e}", path.display());
            exit(1)
        }
    };
    eprintln!("{}: {} positions", path.display(), samples.len());
    samples.iter().map(Record::from).collect()
}

fn main() {
    let args = parse_args();
    let mut records: Vec<Record> = Vec::new();
    for path in &args.data {
        records.extend(read_records(path));
    }
    if args.synthetic > 0 {
        let samples = synthetic_samples(args.synthetic, args.seed);
        records.extend(samples.iter().map(Record::from));
        eprintln!("{} synthetic positions scored by material", args.synthetic);
    }
    if records.is_empty() {
        fail("no training positions (give DATA files or --synthetic N)");
    }
    let mut rng = Rng::new(args.seed);
    shuffle(&mut records, &mut rng);
    let held_out = (records.len() as f64 * args.validation).round() as usize;
    let mut train = records.split_off(held_out);
    let validation = records;
    if train.is_empty() {
        fail("nothing left to train on after the validation share");
    }

    let scale = args.scale.unwrap_or_else(|| {
        let k = fit_scale(&train);
        eprintln!("K fitted to the data's scores and results: {k:.1}");
        k
    });
    let model = match &args.init {
        Some(path) => {
            let net = Network::load(path).unwrap_or_else(|e| {
                eprintln!("nnue_train: {e}");
                exit(1)
            });
            Model::from_network(&net)
        }
        None => Model::random(args.seed),
    };
    let settings = Settings {
        batch: args.batch,
        objective: Objective {
            lambda: args.lambda,
            scale,
        },
        threads: args.threads,
    };
    let mut trainer = Trainer::new(model, settings);
    eprintln!(
        "{} positions to train on, {} held out; batch {}, λ {}, K {scale:.1}, {} thread(s)",
        train.len(),
        validation.len(),
        args.batch,
        args.lambda,
        args.threads
    );
    if !validation.is_empty() {
        eprintln!(
            "before training: validation loss {:.6}",
            trainer.loss(&validation)
        );
    }

    for epoch in 0..args.epochs {
        let lr = if 10 * epoch >= 7 * args.epochs {
            args.lr * 0.3
        } else {
            args.lr
        };
        let before = trainer.timing();
        let start = Instant::now();
        let train_loss = trainer.epoch(&mut train, &mut rng, lr);
        let seconds = start.elapsed().as_secs_f64();
        let spent = trainer.timing();
        let validation_loss = if validation.is_empty() {
            "-".to_string()
        } else {
            format!("{:.6}", trainer.loss(&validation))
        };
        eprintln!(
            "epoch {}/{}: lr {lr:.1e}, train loss {train_loss:.6}, validation loss {validation_loss}, \
             {seconds:.1} s, {:.0} positions/s (gradients {:.2} s, updates {:.2} s)",
            epoch + 1,
            args.epochs,
            train.len() as f64 / seconds,
            (spent.gradient - before.gradient).as_secs_f64(),
            (spent.update - before.update).as_secs_f64(),
        );
        let saved = trainer
            .model()
            .export()
            .map_err(|e| e.to_string())
            .and_then(|net| net.save(&args.out).map_err(|e| e.to_string()));
        if let Err(e) = saved {
            eprintln!("nnue_train: cannot write {}: {e}", args.out.display());
            exit(1)
        }
    }
}

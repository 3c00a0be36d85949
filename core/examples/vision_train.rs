//! Trains the picture reader's point classifier on boards the project draws itself
//! (`recognize::net::train`) and writes its weights file; then measures it on the
//! held-out styles:
//!
//! ```text
//! cargo run --release -p chuhe-core --example vision_train -- --out FILE [--seed S]
//!   [--boards N] [--epochs E] [--threads T] [--validation V] [--lr X] [--init FILE]
//!   [--cache FILE] [--conv C1,C2,C3,HIDDEN] [--figures | --figures-share S]
//! cargo run --release -p chuhe-core --example vision_train -- --evaluate FILE
//!   [--validation V] [--seed S] [--threads T]
//! cargo run --release -p chuhe-core --example vision_train -- --join FILE,FILE... --out FILE
//!   [--validation V] [--seed S] [--threads T]
//! ```
//!
//! Defaults: seed 1, 6,000 training boards, 4 epochs, one thread, 100 validation boards
//! per held-out style, learning rate 0.001. `--threads` only shares out the drawing: the
//! same arguments give the same file, byte for byte, on any number of threads.
//! `--cache FILE` keeps the drawn samples in FILE and reads them from there the next time
//! (the same boards: the cache must come from the same `--seed`, `--boards` and
//! `--figures` or `--figures-share`).
//! `--figures` draws figures instead of characters on about one training board in ten
//! (`recognize::net::symbols`: a crowned king, a tower, a knight's head …);
//! `--figures-share S` on a share S of the boards that would have had characters and on
//! eight times S (at most all) of those that would have had letters (`--figures` is 0.05).
//! `--conv C1,C2,C3,HIDDEN` trains the convolutional network of those widths
//! (`recognize::net::conv`) instead of the perceptron. `--evaluate` only measures a weights file; `--flip-margins` (with `--evaluate`) reads
//! the held-out boards whole and prints, for thresholds of the way-up doubt, how many wrong
//! boards have every wrong point marked and how many marks it adds, after a line of how the
//! reader as shipped does on them and how many middles of squares stand off (the test
//! for a grid laid off the points) on boards read exactly and not (to compare,
//! `--no-sides` leaves out telling the sides apart by the pictures' colours, `--no-twins`
//! pooling the kinds of pieces drawn alike and parting those drawn apart, `--one-view`
//! classifies each point in one place only);
//! `--join` writes the networks of those files as one (`recognize::net::Ensemble`: each
//! patch's probabilities the mean of theirs) to `--out`, then measures it as `--evaluate`
//! does; `--draw DIR` only writes the first `--boards`
//! training boards to DIR as PNG pictures, to see what the network learns from.

use chuhe_core::recognize::decode::Marking;
use chuhe_core::recognize::net::conv::{ConvNet, Shape};
use chuhe_core::recognize::net::synth::{self, Fonts};
use chuhe_core::recognize::net::train::{self, Sample, Settings};
use chuhe_core::recognize::net::{Classifier, Ensemble};
use chuhe_core::recognize::{Doubts, VIEWS, Views, geometry::Homography, patch};
use std::path::PathBuf;
use std::process::exit;
use std::time::Instant;

fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("vision_train: {message}");
    exit(2)
}

fn main() {
    let mut settings = Settings::default();
    let mut out: Option<PathBuf> = None;
    let mut evaluate: Option<PathBuf> = None;
    let mut join: Option<String> = None;
    let mut init: Option<PathBuf> = None;
    let mut pictures: Option<PathBuf> = None;
    let mut cache: Option<PathBuf> = None;
    let mut flip_margins = false;
    let mut by_colour = true;
    let mut twins = true;
    let mut one_view = false;
    let mut conv: Option<Shape> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| fail(format!("{arg} needs a value")))
        };
        fn number<T: std::str::FromStr>(arg: &str, v: String) -> T {
            v.parse()
                .unwrap_or_else(|_| fail(format!("{arg}: not a number: {v}")))
        }
        match arg.as_str() {
            "--out" => out = Some(value().into()),
            "--evaluate" => evaluate = Some(value().into()),
            "--join" => join = Some(value()),
            "--init" => init = Some(value().into()),
            "--draw" => pictures = Some(value().into()),
            "--cache" => cache = Some(value().into()),
            "--flip-margins" => flip_margins = true,
            "--no-sides" => by_colour = false,
            "--no-twins" => twins = false,
            "--one-view" => one_view = true,
            "--figures" => settings.figures = synth::FIGURE_SHARE,
            "--figures-share" => settings.figures = number(&arg, value()),
            "--conv" => {
                let v = value();
                let widths: Vec<usize> =
                    v.split(',').map(|w| number(&arg, w.to_string())).collect();
                let [c1, c2, c3, hidden] = widths[..] else {
                    fail(format!("--conv needs four widths, C1,C2,C3,HIDDEN: {v}"))
                };
                conv = Some(Shape {
                    channels: [c1, c2, c3],
                    hidden,
                });
            }
            "--seed" => settings.seed = number(&arg, value()),
            "--boards" => settings.boards = number(&arg, value()),
            "--epochs" => settings.epochs = number(&arg, value()),
            "--threads" => settings.threads = number(&arg, value()),
            "--validation" => settings.validation_boards = number(&arg, value()),
            "--lr" => settings.learning_rate = number(&arg, value()),
            other => fail(format!("unknown argument {other:?}")),
        }
    }
    let fonts = Fonts::load();
    eprintln!("fonts: {}", fonts.names().join(", "));
    if let Some(dir) = &pictures {
        for i in 0..settings.boards {
            let (image, name) = train::example_picture(&fonts, &settings, i);
            let path = dir.join(format!("{i:03}-{name}.png"));
            image
                .save(&path)
                .unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
        }
        return;
    }
    let bytes_of = |path: &PathBuf| {
        std::fs::read(path).unwrap_or_else(|e| fail(format!("{}: {e}", path.display())))
    };
    let read = |path: &PathBuf| {
        Classifier::from_bytes(&bytes_of(path))
            .unwrap_or_else(|e| fail(format!("{}: {e}", path.display())))
    };
    let network = if let Some(path) = &evaluate {
        Ensemble::from_bytes(&bytes_of(path))
            .unwrap_or_else(|e| fail(format!("{}: {e}", path.display())))
    } else if let Some(files) = &join {
        let out = out.clone().unwrap_or_else(|| fail("--out FILE is needed"));
        let ensemble = Ensemble {
            members: files.split(',').map(|f| read(&PathBuf::from(f))).collect(),
        };
        std::fs::write(&out, ensemble.to_bytes())
            .unwrap_or_else(|e| fail(format!("{}: {e}", out.display())));
        eprintln!(
            "wrote {} ({}, {} multiply-adds a patch)",
            out.display(),
            ensemble.describe(),
            ensemble.multiply_adds()
        );
        ensemble
    } else {
        let out = out.clone().unwrap_or_else(|| fail("--out FILE is needed"));
        let start = Instant::now();
        let cached = cache.as_ref().and_then(|path| std::fs::read(path).ok());
        let samples = match cached {
            Some(bytes) => bytes
                .chunks(Sample::BYTES)
                .map(|b| Sample::from_bytes(b).unwrap_or_else(|| fail("damaged cache")))
                .collect(),
            None => {
                let samples = train::training_samples(&fonts, &settings);
                if let Some(path) = &cache {
                    let bytes: Vec<u8> = samples.iter().flat_map(Sample::to_bytes).collect();
                    std::fs::write(path, bytes)
                        .unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
                }
                samples
            }
        };
        eprintln!(
            "{} samples from {} boards in {:.0} s",
            samples.len(),
            settings.boards,
            start.elapsed().as_secs_f64()
        );
        let start = Instant::now();
        let initial = match (init.as_ref().map(read), conv) {
            (Some(network), _) => network,
            (None, Some(shape)) => Classifier::Conv(ConvNet::initial(shape, settings.seed)),
            (None, None) => Classifier::Perceptron(train::initial(settings.seed)),
        };
        let network = train::train(&samples, &settings, initial, |epoch, loss| {
            eprintln!(
                "epoch {}: loss {loss:.4} ({:.0} s)",
                epoch + 1,
                start.elapsed().as_secs_f64()
            );
        });
        std::fs::write(&out, network.to_bytes())
            .unwrap_or_else(|e| fail(format!("{}: {e}", out.display())));
        eprintln!(
            "wrote {} ({}, {} parameters, {} multiply-adds a patch)",
            out.display(),
            network.describe(),
            network.params().len(),
            network.multiply_adds()
        );
        Ensemble::one(network)
    };
    if flip_margins {
        let mut markings = vec![Doubts::SHIPPED];
        for unsure_below in [0.9, 0.95, 0.98, 0.99, 0.995, 0.999] {
            for unfamiliar_at in [3, 4, 5, 6, 8] {
                markings.push(Doubts {
                    marking: Marking {
                        unsure_below,
                        unfamiliar_at,
                    },
                    ..Doubts::SHIPPED
                });
            }
        }
        let one = Views {
            every: &[(0.0, 0.0)],
            unsure: &[],
            unsure_below: 0.0,
        };
        let views = if one_view { &one } else { &VIEWS };
        let how = train::HowRead {
            by_colour,
            twins,
            markings: &markings,
            views,
        };
        let cases = train::flip_cases(&fonts, &network, &settings, &how);
        print_markings(&cases, &markings);
        print_astray(&cases);
        print_flip_margins(&cases);
        print_whole_doubt(&cases);
        return;
    }
    for v in train::validate(&fonts, &network, &settings) {
        println!(
            "held out {}/{:?}/{:?}: points {}/{} ({:.3} %), boards {}/{} ({:.1} %), wrong side {}",
            v.style.font,
            v.style.disc,
            v.style.scheme,
            v.points.0,
            v.points.1,
            100.0 * v.points.0 as f64 / v.points.1.max(1) as f64,
            v.boards.0,
            v.boards.1,
            100.0 * v.boards.0 as f64 / v.boards.1.max(1) as f64,
            v.wrong_side
        );
    }
    // The time to read one board: 90 patches sampled and classified.
    let image = image::RgbImage::from_pixel(600, 660, image::Rgb([220, 180, 120]));
    let map = Homography::upright((60.0, 60.0), 60.0);
    let mut values = vec![0.0; patch::LEN];
    let rounds = 20;
    let start = Instant::now();
    for _ in 0..rounds {
        for y in 0..10 {
            for x in 0..9 {
                patch::sample(&image, &map, f64::from(x), f64::from(y), &mut values);
                std::hint::black_box(network.classify(&values));
            }
        }
    }
    println!(
        "one board (90 patches at 60 px spacing, sampled and classified): {:.2} ms",
        start.elapsed().as_secs_f64() * 1000.0 / f64::from(rounds)
    );
}

/// For each way of marking doubts: the wrong boards whose wrong points are all marked, and
/// the marks on boards read exactly.
fn print_markings(cases: &[train::FlipCase], markings: &[Doubts]) {
    let exact = cases.iter().filter(|c| c.exact).count();
    println!(
        "{} boards, {exact} read exactly, {} points of the wrong side",
        cases.len(),
        cases.iter().map(|c| c.wrong_side).sum::<usize>()
    );
    println!("unsure below\tunfamiliar at\twrong boards all marked\tmarks an exact board");
    for (k, m) in markings.iter().enumerate() {
        let marked = cases
            .iter()
            .filter(|c| !c.exact && c.marked_by[k].0)
            .count();
        let marks: usize = cases
            .iter()
            .filter(|c| c.exact)
            .map(|c| c.marked_by[k].1)
            .sum();
        println!(
            "{}\t{}\t{marked}/{} ({:.1} %)\t{:.2}{}",
            m.marking.unsure_below,
            m.marking.unfamiliar_at,
            cases.len() - exact,
            100.0 * marked as f64 / (cases.len() - exact).max(1) as f64,
            marks as f64 / exact.max(1) as f64,
            if k == 0 { "\t(as shipped)" } else { "" }
        );
    }
}

/// For each threshold of the way-up doubt: the wrong boards whose wrong points are all
/// marked, and the marks it adds on boards read exactly.
fn print_flip_margins(cases: &[train::FlipCase]) {
    let wrong: Vec<_> = cases.iter().filter(|c| !c.exact).collect();
    let flips: Vec<f64> = cases
        .iter()
        .filter(|c| !c.flip_right)
        .map(|c| c.margin)
        .collect();
    println!(
        "{} boards, {} read exactly, {} the wrong way up (margins {:?})",
        cases.len(),
        cases.len() - wrong.len(),
        flips.len(),
        flips.iter().map(|m| m.round() as i64).collect::<Vec<_>>()
    );
    println!(
        "nats\twrong boards all marked\twrong flips doubted\texact boards doubted\tmarks added on them"
    );
    for t in [
        0.0, 2.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 75.0, 100.0,
    ] {
        let marked = wrong
            .iter()
            .filter(|c| c.marked || (c.margin < t && c.marked_in_doubt))
            .count();
        let doubted_flips = flips.iter().filter(|&&m| m < t).count();
        let exact: Vec<_> = cases.iter().filter(|c| c.exact && c.margin < t).collect();
        println!(
            "{t}\t{marked}/{} ({:.1} %)\t{doubted_flips}/{}\t{}/{}\t{}",
            wrong.len(),
            100.0 * marked as f64 / wrong.len().max(1) as f64,
            flips.len(),
            exact.len(),
            cases.len() - wrong.len(),
            exact.iter().map(|c| c.extra_marks).sum::<usize>()
        );
    }
}

/// For each count of square middles standing off: the boards that many or more would put
/// wholly in doubt, read exactly and not, and the wrong boards all marked then.
fn print_astray(cases: &[train::FlipCase]) {
    println!("astray at\texact boards in doubt\twrong boards in doubt\twrong boards all marked");
    for t in [1, 2, 3, 4, 5, 6, 8, 10, 15, 20] {
        print_doubt_row(cases, t, |c| c.astray >= t, |c| c.marked);
    }
    let mut counts: Vec<usize> = cases.iter().filter(|c| c.exact).map(|c| c.astray).collect();
    counts.sort_unstable();
    println!(
        "astray on exact boards, highest: {:?}",
        &counts[counts.len().saturating_sub(12)..]
    );
}

/// One row of a whole-board doubt's table at threshold `t`: the boards `doubted` puts wholly
/// in doubt, read exactly and not, and the wrong boards all marked by it or by `marked`.
fn print_doubt_row(
    cases: &[train::FlipCase],
    t: impl std::fmt::Display,
    doubted: impl Fn(&train::FlipCase) -> bool,
    marked: impl Fn(&train::FlipCase) -> bool,
) {
    let exact = cases.iter().filter(|c| c.exact).count();
    let wrong = cases.len() - exact;
    let all_marked = cases
        .iter()
        .filter(|c| !c.exact && (marked(c) || doubted(c)))
        .count();
    println!(
        "{t}\t{}/{exact}\t{}/{wrong}\t{all_marked}/{wrong} ({:.1} %)",
        cases.iter().filter(|c| c.exact && doubted(c)).count(),
        cases.iter().filter(|c| !c.exact && doubted(c)).count(),
        100.0 * all_marked as f64 / wrong.max(1) as f64
    );
}

/// For each threshold of the whole-board doubt: the boards it puts wholly in doubt, read
/// exactly and not, and the wrong boards all marked then (with the way-up doubt and the
/// grid-off check as shipped).
fn print_whole_doubt(cases: &[train::FlipCase]) {
    println!(
        "whole doubt nats\texact boards in doubt\twrong boards in doubt\twrong boards all marked"
    );
    for t in [
        5.0, 7.5, 10.0, 12.5, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 75.0, 100.0,
    ] {
        print_doubt_row(
            cases,
            t,
            |c| c.log_probability < -t,
            |c| c.marked_but_whole || c.astray >= chuhe_core::recognize::occupancy::ASTRAY_AT,
        );
    }
    let mut lowest: Vec<f64> = cases
        .iter()
        .filter(|c| c.exact)
        .map(|c| c.log_probability)
        .collect();
    lowest.sort_by(f64::total_cmp);
    println!(
        "log probability of exact boards, lowest: {:?}",
        lowest
            .iter()
            .take(12)
            .map(|l| (l * 10.0).round() / 10.0)
            .collect::<Vec<_>>()
    );
}

//! How often the board finder puts the grid right on the test pictures
//! (tests/vision/make_pictures.py): a diagnostic, not a score of the reader.
//!
//! The true grid of a picture is not in its labels, so it is taken from the reader itself:
//! a variant (clean, JPEG 40, scan) whose board was read exactly had its grid right, and the
//! variants are the same picture (JPEG 40 pixel for pixel, the scan turned about its centre
//! by the labelled angle with the canvas grown to hold it). A grid is right when every one
//! of its 90 points lies within 0.3 spacings of the true one. Pictures none of whose variants
//! read exactly have no known truth; for those, the grid is taken as right when it lies
//! inside the labelled board picture, spans most of it (the board's image, margins
//! included, reaches at most a little beyond its outer points), and the reading has pieces
//! and empty points where the true position has them at 86 of the 90 points at least (a
//! grid a line off moves every piece; telling a piece from an empty point is the easy part
//! of the classifier's work).
//!
//! `cargo run --release -p chuhe-core --example grid_check -- --sets-dir /work/vision-sets
//! [--sets a,b] [--limit N] [--dump DIR]`; with `--dump`, every picture whose grid is judged
//! wrong is written to DIR with the found points (red) and the true ones (green) marked.

use chuhe_core::recognize::{self, geometry::Homography, grid};
use chuhe_core::{Color, Setup};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const VARIANTS: [(&str, &str); 3] = [("clean", "png"), ("jpeg40", "jpg"), ("scan", "png")];

struct Seen {
    map: Option<Homography>,
    exact: bool,
    /// Of the 90 points, how many are read as empty or not as they are.
    occupied_right: usize,
    size: (f64, f64),
}

fn main() {
    let mut sets_dir = PathBuf::from("/work/vision-sets");
    let mut sets = vec![
        "xiangqi_setup".to_string(),
        "xiangqiboardjs".into(),
        "xqwlight".into(),
        "pillow".into(),
    ];
    let mut limit = usize::MAX;
    let mut dump: Option<PathBuf> = None;
    let mut by_style = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--sets-dir" => sets_dir = value().into(),
            "--sets" => sets = value().split(',').map(str::to_string).collect(),
            "--limit" => limit = value().parse().expect("--limit: a number"),
            "--dump" => dump = Some(value().into()),
            "--by-style" => by_style = true,
            _ => panic!("unknown argument {arg}"),
        }
    }
    if let Some(d) = &dump {
        std::fs::create_dir_all(d).expect("the dump folder");
    }
    println!("set            variant  pictures  known  right(known)  right(unknown)");
    for set in &sets {
        let labels =
            std::fs::read_to_string(sets_dir.join(set).join("labels.jsonl")).expect("labels.jsonl");
        // (variant, style) -> [known, right, unknown, plausible]
        let mut tally: BTreeMap<(usize, String), [usize; 4]> = BTreeMap::new();
        for line in labels.lines().take(limit) {
            let label: serde_json::Value = serde_json::from_str(line).expect("a label");
            let id = label["id"].as_str().expect("id");
            let want = label["fen"].as_str().expect("fen");
            let want = want.split(' ').next().unwrap_or_default();
            let style = label["style"].as_str().unwrap_or("").to_string();
            let angle = label["scan"]["angle"].as_f64().unwrap_or(0.0);
            let rect: Vec<f64> = label["board"]
                .as_array()
                .expect("board")
                .iter()
                .map(|v| v.as_f64().unwrap_or(0.0))
                .collect();
            let seen: Vec<Seen> = VARIANTS
                .iter()
                .map(|(v, ext)| {
                    let path = sets_dir.join(set).join(v).join(format!("{id}.{ext}"));
                    look(&path, want)
                })
                .collect();
            let clean_size = seen[0].size;
            // Clean coordinates to the variant's and back.
            let to = |variant: usize, p: (f64, f64)| {
                if variant == 2 {
                    turn(p, clean_size, seen[2].size, angle)
                } else {
                    p
                }
            };
            let from = |variant: usize, p: (f64, f64)| {
                if variant == 2 {
                    turn(p, seen[2].size, clean_size, -angle)
                } else {
                    p
                }
            };
            let truth: Option<Vec<(f64, f64)>> = seen.iter().enumerate().find_map(|(v, s)| {
                let map = s.map.filter(|_| s.exact)?;
                Some(points(&map).into_iter().map(|p| from(v, p)).collect())
            });
            for (v, s) in seen.iter().enumerate() {
                let key = (
                    v,
                    if by_style {
                        style.clone()
                    } else {
                        String::new()
                    },
                );
                let t = tally.entry(key).or_default();
                let found = s.map.map(|m| points(&m));
                let right = match &truth {
                    Some(truth) => {
                        t[0] += 1;
                        let truth: Vec<_> = truth.iter().map(|&p| to(v, p)).collect();
                        let ok = found.as_ref().is_some_and(|f| off(f, &truth) <= 0.3);
                        t[1] += usize::from(ok);
                        ok
                    }
                    None => {
                        t[2] += 1;
                        let ok = found.as_ref().is_some_and(|f| {
                            let corners =
                                [(rect[0], rect[1]), (rect[0] + rect[2], rect[1] + rect[3])];
                            let (a, b) = (to(v, corners[0]), to(v, corners[1]));
                            plausible(
                                f,
                                (
                                    a.0.min(b.0),
                                    a.1.min(b.1),
                                    (a.0 - b.0).abs(),
                                    (a.1 - b.1).abs(),
                                ),
                            )
                        }) && s.occupied_right >= 86;
                        t[3] += usize::from(ok);
                        ok
                    }
                };
                if !right && let Some(dir) = &dump {
                    let path = sets_dir
                        .join(set)
                        .join(VARIANTS[v].0)
                        .join(format!("{id}.{}", VARIANTS[v].1));
                    let truth: Option<Vec<_>> = truth
                        .as_ref()
                        .map(|t| t.iter().map(|&p| to(v, p)).collect());
                    overlay(
                        &path,
                        found.as_deref(),
                        truth.as_deref(),
                        &dir.join(format!("{id}-{}.png", VARIANTS[v].0)),
                    );
                }
            }
        }
        for ((v, style), t) in &tally {
            println!(
                "{set:14} {:7} {:9} {:6} {:>12} {:>19}  {style}",
                VARIANTS[*v].0,
                t[0] + t[2],
                t[0],
                pct(t[1], t[0]),
                pct(t[3], t[2]),
            );
        }
    }
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "-".into()
    } else {
        format!("{:.1} %", 100.0 * a as f64 / b as f64)
    }
}

/// The first board the finder gives in the picture at `path`, and whether it reads as `want`.
fn look(path: &Path, want: &str) -> Seen {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let image = recognize::decode_picture(&bytes).expect("a picture");
    let size = (f64::from(image.width()), f64::from(image.height()));
    let found = grid::find(&image);
    let Some(g) = found.grids.first() else {
        return Seen {
            map: None,
            exact: false,
            occupied_right: 0,
            size,
        };
    };
    let reading = recognize::read_grid(&image, g);
    let fen = Setup {
        board: reading.board,
        side_to_move: Color::Red,
        ..Setup::empty()
    }
    .to_string();
    let got = fen.split(' ').next().unwrap_or_default();
    let occupied_right = occupancy(got)
        .iter()
        .zip(occupancy(want))
        .filter(|(a, b)| **a == *b)
        .count();
    Seen {
        map: Some(g.map),
        exact: got == want,
        occupied_right,
        size,
    }
}

/// Which of the 90 points of a FEN's placement hold a piece.
fn occupancy(placement: &str) -> Vec<bool> {
    let mut v = Vec::with_capacity(90);
    for c in placement.chars() {
        match c {
            '1'..='9' => v.extend(std::iter::repeat_n(false, c as usize - '0' as usize)),
            '/' => {}
            _ => v.push(true),
        }
    }
    v.resize(90, false);
    v
}

fn points(map: &Homography) -> Vec<(f64, f64)> {
    (0..10)
        .flat_map(|y| (0..9).map(move |x| map.apply(f64::from(x), f64::from(y))))
        .collect()
}

/// Where clean pixel `p` lies after Pillow's `rotate(angle, expand=True)`: turned
/// anticlockwise by `angle` degrees about the centre, which moves to the grown canvas's.
fn turn(p: (f64, f64), size: (f64, f64), new_size: (f64, f64), angle: f64) -> (f64, f64) {
    let (s, c) = angle.to_radians().sin_cos();
    let (dx, dy) = (p.0 - size.0 / 2.0, p.1 - size.1 / 2.0);
    (
        new_size.0 / 2.0 + dx * c + dy * s,
        new_size.1 / 2.0 - dx * s + dy * c,
    )
}

/// The largest distance between corresponding points, in spacings of `truth`.
fn off(found: &[(f64, f64)], truth: &[(f64, f64)]) -> f64 {
    let d = |a: (f64, f64), b: (f64, f64)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let spacing = d(truth[0], truth[8]) / 8.0;
    found
        .iter()
        .zip(truth)
        .map(|(&a, &b)| d(a, b))
        .fold(0.0, f64::max)
        / spacing
}

/// Whether the points lie inside the board picture `rect` (x, y, w, h) and span at least
/// 70 % of its width and height.
fn plausible(found: &[(f64, f64)], rect: (f64, f64, f64, f64)) -> bool {
    let (x0, x1) = found
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| {
            (a.0.min(p.0), a.1.max(p.0))
        });
    let (y0, y1) = found
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| {
            (a.0.min(p.1), a.1.max(p.1))
        });
    let slack = 0.02 * rect.2;
    x0 >= rect.0 - slack
        && y0 >= rect.1 - slack
        && x1 <= rect.0 + rect.2 + slack
        && y1 <= rect.1 + rect.3 + slack
        && x1 - x0 >= 0.7 * rect.2
        && y1 - y0 >= 0.7 * rect.3
}

fn overlay(path: &Path, found: Option<&[(f64, f64)]>, truth: Option<&[(f64, f64)]>, out: &Path) {
    let bytes = std::fs::read(path).expect("the picture");
    let mut image = recognize::decode_picture(&bytes).expect("a picture");
    let mut mark = |p: &(f64, f64), colour: [u8; 3], r: i64| {
        for d in -r..=r {
            for (x, y) in [(p.0 as i64 + d, p.1 as i64), (p.0 as i64, p.1 as i64 + d)] {
                if x >= 0 && y >= 0 && (x as u32) < image.width() && (y as u32) < image.height() {
                    image.put_pixel(x as u32, y as u32, image::Rgb(colour));
                }
            }
        }
    };
    for p in truth.unwrap_or_default() {
        mark(p, [0, 200, 0], 6);
    }
    for p in found.unwrap_or_default() {
        mark(p, [255, 0, 0], 4);
    }
    image.save(out).expect("the overlay");
}

//! Telling the sides apart by the picture's own colours.
//!
//! Whatever a program's look, all of one side's pieces share their colours in one picture: the
//! face of the disc and the ink of the character (red and black characters on cream discs, grey
//! or hollow characters against solid ones in print, two colours of disc with the same light
//! characters). So the sides are decided for the whole board at once rather than point by
//! point: each point the classifier takes for a piece gives a few colour figures
//! ([`Colours`]: the lighter and the darker of its face's two colours, how much of it the
//! darker covers, and how much of the ring just beyond the face, which on a large disc is
//! the disc round the character; lighter and darker rather than disc and ink, since a bold
//! character may cover most of a disc), and the pieces are split into two groups by a
//! mixture of two Gaussians started from the classifier's own side votes. Where those
//! figures do not tell two groups apart (small discs, the ring on the board), the share of
//! each face's rim that the darker colour covers may: a chess set's black figures on white
//! discs and white figures on black discs have the same two colours in about the same
//! shares, but only one side's rims are dark (by this one
//! figure the groups start from its two-means split, since such pieces are not red and the
//! votes may lean nowhere). A piece then takes its side from its group, its kind from the
//! classifier (both sides' probabilities of that kind together), and the joint decoding
//! still picks the best legal board; the reader decodes both namings of the groups, each
//! both ways up, and keeps the board the classifier's own probabilities find likeliest, so
//! its side votes and the rules together say which group is Red's. A piece whose own
//! reading took the other side or hesitated, or that lies between the groups, is in doubt.
//! When the two groups are not clearly apart in colour (a picture whose pieces all look
//! alike), nothing changes.
//!
//! Where no piece shows red and the discs of one group are light and of the other dark,
//! the light ones are Red's before anything else says otherwise ([`lighter_red_nats`]):
//! Chinese diagrams print Red's pieces hollow and Black's solid, and sets of chess figures
//! give Red the white pieces. The figures networks, which learnt that a black figure is
//! Black's, otherwise name xiangqi-setup's `euro_xiangqi_js` sides (black figures on white
//! discs for Red) the other way round, and the board read turned round fits them as well.

use super::decode::SIDE_UNSURE_BELOW;
use super::geometry::Homography;
use super::net::{CLASSES, piece_of};
use super::patch;
use crate::Color;

/// Colour figures of one point: the face's commonest red, green and blue (its median), then
/// the lighter and the darker of its two colours, the share of it the darker covers, the
/// share the darker covers of the ring just beyond the face ([`RING`]), and the share the
/// darker covers of its rim (the outer part, beyond [`RIM_FROM`] of the way out; shares
/// times 255, so that every figure is on the same scale).
pub type Colours = [f32; FIGURES];

/// Figures per point.
pub const FIGURES: usize = 12;
/// Where the lighter colour's red, green and blue start among a point's figures.
const LIGHTER: usize = 3;
/// Where the darker colour's start.
const DARKER: usize = 6;
/// The share the darker colour covers of the ring beyond the face.
const RING_DARKER: usize = 10;

/// Where a face's rim starts, as a share of [`REACH`]. A figure drawn in black on a white
/// disc (a chess set's tower) can cover as much of the face as the white figure leaves of a
/// black disc; but it keeps to the middle, and the rim shows the disc.
const RIM_FROM: f64 = 0.85;

/// Where the ring beyond the face is looked at, as shares of [`REACH`] out: on a large disc,
/// the disc round the character. A bold white character on a black disc (象 in a set of
/// white characters on black discs for one side and black on white for the other) covers
/// as much of the face as a black character does of a white disc, and reaches its rim.
const RING: [f64; 2] = [1.1, 1.22];

/// The figures the sides are grouped by: the two colours, the darker's share of the face
/// and of the ring beyond it; not the median, which is the disc's colour on one piece and
/// the character's on another.
const GROUPED: std::ops::Range<usize> = 3..11;
/// The figure the sides are grouped by when [`GROUPED`] does not tell them apart: the share
/// the darker colour covers of the rim. A chess set's black figures on white discs and white
/// figures on black discs have the same two colours, and the darker covers as much of the
/// face of a tower on a white disc as of a black disc round a pawn; the rims differ.
const RIM: std::ops::Range<usize> = 11..12;

/// How far from the point, in spacings, the face is looked at: inside the smallest disc.
const REACH: f64 = 0.34;
/// Samples along each side of the square round the face.
const STEPS: usize = 15;

/// A point reads as a piece when the classifier gives it at least this.
const PIECE_AT: f32 = 0.5;
/// The least spread of a figure within a group, so that a flat colour (a drawn picture has
/// many) does not make a tiny difference decisive.
const LEAST_SPREAD: f32 = 12.0;
/// The two groups must be at least this far apart (their means' distance in within-group
/// spreads) to be taken for the two sides.
pub const APART_AT: f32 = 4.0;
/// The most, in nats, a piece's colours may say for one side over the other: leaves the
/// joint decoding room to turn a piece that the rules cannot have.
const MOST_SAY: f32 = 6.0;
/// A piece nearer to the middle between the groups than this (in nats of its colours' say)
/// is in doubt.
const BETWEEN_BELOW: f32 = 2.0;
/// How much likelier, in nats, a naming of the groups is when it makes the light discs
/// Red's ([`lighter_red_nats`]).
pub const LIGHTER_RED_NATS: f64 = 10.0;
/// A colour with its red this far above its green and blue shows red.
const RED_ABOVE: f32 = 40.0;
/// The rings beyond the faces of the two groups (the share their darker colour covers,
/// times 255) differ at least this much where one group's discs are light and the other's
/// dark.
const DISCS_APART: f32 = 128.0;

/// The colour figures of the point in column `x`, row `y` of the grid `map` lays on `image`.
pub fn colours(image: &image::RgbImage, map: &Homography, x: f64, y: f64) -> Colours {
    let mut samples: Vec<[f32; 3]> = Vec::with_capacity(STEPS * STEPS);
    // Whether each sample lies on the rim.
    let mut rim: Vec<bool> = Vec::with_capacity(STEPS * STEPS);
    for i in 0..STEPS {
        for j in 0..STEPS {
            let dx = (i as f64 / (STEPS - 1) as f64 * 2.0 - 1.0) * REACH;
            let dy = (j as f64 / (STEPS - 1) as f64 * 2.0 - 1.0) * REACH;
            let out = dx.hypot(dy);
            if out > REACH {
                continue;
            }
            let (px, py) = map.apply(x + dx, y + dy);
            if !px.is_finite() || !py.is_finite() {
                continue;
            }
            samples.push(patch::colour_at(image, px as f32, py as f32));
            rim.push(out >= RIM_FROM * REACH);
        }
    }
    if samples.is_empty() {
        return [0.0; FIGURES];
    }
    let face: [f32; 3] = [0, 1, 2].map(|c| {
        let mut v: Vec<f32> = samples.iter().map(|s| s[c]).collect();
        v.sort_by(f32::total_cmp);
        v[v.len() / 2]
    });
    // The face's two colours, the disc's and the character's, as the lighter and the darker
    // of two clusters (two-means started from the lightest and the darkest tenths). Which of
    // the two covers more of the face depends on the font and the disc: a bold character on
    // a small disc covers most of it, so "the commoner colour" would be the disc on one piece
    // and the ink on another of the same side.
    let mean = |part: &[[f32; 3]]| -> [f32; 3] {
        [0, 1, 2].map(|c| part.iter().map(|s| s[c]).sum::<f32>() / part.len().max(1) as f32)
    };
    let apart = |a: &[f32; 3], b: &[f32; 3]| {
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
    };
    let mut by_luma = samples.clone();
    by_luma.sort_by(|a, b| patch::luminance(*a).total_cmp(&patch::luminance(*b)));
    let tenth = (by_luma.len() / 10).max(1);
    let mut centres = [
        mean(&by_luma[by_luma.len() - tenth..]),
        mean(&by_luma[..tenth]),
    ];
    // How many samples, and of the rim's, each centre has.
    let mut counts = [0usize; 2];
    let mut on_rim = [0usize; 2];
    for _ in 0..6 {
        let mut sums = [[0.0f32; 3]; 2];
        counts = [0; 2];
        on_rim = [0; 2];
        for (s, &r) in samples.iter().zip(&rim) {
            let k = usize::from(apart(s, &centres[1]) < apart(s, &centres[0]));
            for c in 0..3 {
                sums[k][c] += s[c];
            }
            counts[k] += 1;
            on_rim[k] += usize::from(r);
        }
        for k in 0..2 {
            if counts[k] > 0 {
                centres[k] = sums[k].map(|v| v / counts[k] as f32);
            }
        }
    }
    let (mut darker, mut darker_rim) = (counts[1], on_rim[1]);
    if patch::luminance(centres[0]) < patch::luminance(centres[1]) {
        centres.swap(0, 1);
        (darker, darker_rim) = (counts[0], on_rim[0]);
    }
    // One colour and noise (no character): nothing covers the face.
    if apart(&centres[0], &centres[1]) < 30.0 {
        centres = [mean(&samples); 2];
        (darker, darker_rim) = (0, 0);
    }
    let rim_samples = rim.iter().filter(|&&r| r).count().max(1);
    // The ring just beyond the face, each sample the nearer of the two colours: on a large
    // disc, the disc alone; on a small one, the board, alike for both sides.
    let mut ring = (0usize, 0usize);
    for radius in RING.map(|r| r * REACH) {
        for k in 0..48 {
            let a = k as f64 * std::f64::consts::TAU / 48.0;
            let (px, py) = map.apply(x + radius * a.cos(), y + radius * a.sin());
            if !px.is_finite() || !py.is_finite() {
                continue;
            }
            let c = patch::colour_at(image, px as f32, py as f32);
            ring.1 += 1;
            ring.0 += usize::from(apart(&c, &centres[1]) < apart(&c, &centres[0]));
        }
    }
    let [light, dark] = centres;
    [
        face[0],
        face[1],
        face[2],
        light[0],
        light[1],
        light[2],
        dark[0],
        dark[1],
        dark[2],
        255.0 * darker as f32 / samples.len() as f32,
        255.0 * ring.0 as f32 / ring.1.max(1) as f32,
        255.0 * darker_rim as f32 / rim_samples as f32,
    ]
}

/// What the colours say about the sides of a board's points.
#[derive(Clone, Debug, PartialEq)]
pub struct Sides {
    /// For each point (the same order as the probabilities given), the log-odds, in nats,
    /// that a piece there is Red's by its colours (`None` for a point read as empty, and for
    /// every point when the colours do not tell the sides apart).
    pub red_odds: Vec<Option<f32>>,
    /// How far apart the two groups are, in within-group spreads.
    pub apart: f32,
}

impl Sides {
    /// Whether the colours told the sides apart.
    pub fn told(&self) -> bool {
        self.red_odds.iter().any(Option::is_some)
    }

    /// The same groups named the other way round.
    pub fn swapped(&self) -> Sides {
        Sides {
            red_odds: self.red_odds.iter().map(|o| o.map(|v| -v)).collect(),
            apart: self.apart,
        }
    }
}

/// The probability that a point's piece is Red's by the classifier, among its pieces.
fn red_share(p: &[f32; CLASSES]) -> f32 {
    let (mut red, mut all) = (0.0, 0.0);
    for (c, &v) in p.iter().enumerate().skip(1) {
        all += v;
        if piece_of(c).is_some_and(|piece| piece.color == Color::Red) {
            red += v;
        }
    }
    if all > 0.0 { red / all } else { 0.5 }
}

/// Groups the points read as pieces by their `colours` into two sides, named by the
/// classifier's `points` (one row of class probabilities a point, same order): by the
/// [`GROUPED`] figures, or when they do not tell the sides apart by the [`RIM`]'s.
pub fn group(points: &[[f32; CLASSES]], colours: &[Colours]) -> Sides {
    let grouped = group_by(points, colours, GROUPED);
    if grouped.told() {
        return grouped;
    }
    let by_rim = group_by(points, colours, RIM);
    if by_rim.told() { by_rim } else { grouped }
}

/// [`group`] by the figures `figures` alone.
fn group_by(
    points: &[[f32; CLASSES]],
    colours: &[Colours],
    figures: std::ops::Range<usize>,
) -> Sides {
    let none = |apart| Sides {
        red_odds: vec![None; points.len()],
        apart,
    };
    let pieces: Vec<usize> = (0..points.len().min(colours.len()))
        .filter(|&i| 1.0 - points[i][0] >= PIECE_AT)
        .collect();
    if pieces.len() < 2 {
        return none(0.0);
    }
    // Started from the classifier's votes: the share of each piece in the first group. By
    // one figure, from its two-means split: the votes may lean nowhere (a chess set's
    // pieces are not red), and groups started alike stay alike.
    let mut share: Vec<f32> = if figures.len() == 1 {
        let v: Vec<f32> = pieces.iter().map(|&i| colours[i][figures.start]).collect();
        let (lo, hi) = v
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        let mut cut = 0.5 * (lo + hi);
        for _ in 0..6 {
            let side_mean = |low: bool| {
                let part: Vec<f32> = v.iter().copied().filter(|&x| (x < cut) == low).collect();
                part.iter().sum::<f32>() / part.len().max(1) as f32
            };
            cut = 0.5 * (side_mean(true) + side_mean(false));
        }
        v.iter().map(|&x| if x < cut { 1.0 } else { 0.0 }).collect()
    } else {
        pieces.iter().map(|&i| red_share(&points[i])).collect()
    };
    let mut means = [[0.0f32; FIGURES]; 2];
    let mut spread = [1.0f32; FIGURES];
    let mut odds = vec![0.0f32; pieces.len()];
    for _ in 0..12 {
        // The groups' means and their common spread, each figure apart.
        for (g, mean) in means.iter_mut().enumerate() {
            let weight = |k: usize| if g == 0 { share[k] } else { 1.0 - share[k] };
            let total: f32 = (0..pieces.len()).map(weight).sum::<f32>().max(1e-6);
            for (f, m) in mean.iter_mut().enumerate() {
                *m = (0..pieces.len())
                    .map(|k| weight(k) * colours[pieces[k]][f])
                    .sum::<f32>()
                    / total;
            }
        }
        for f in figures.clone() {
            let variance = (0..pieces.len())
                .map(|k| {
                    let c = colours[pieces[k]][f];
                    share[k] * (c - means[0][f]).powi(2)
                        + (1.0 - share[k]) * (c - means[1][f]).powi(2)
                })
                .sum::<f32>()
                / pieces.len() as f32;
            spread[f] = variance.sqrt().max(LEAST_SPREAD);
        }
        // Each piece's log-odds of the first group over the second, and its new share.
        for (k, &i) in pieces.iter().enumerate() {
            let mut lead = 0.0;
            for f in figures.clone() {
                let c = colours[i][f];
                lead += ((c - means[1][f]).powi(2) - (c - means[0][f]).powi(2))
                    / (2.0 * spread[f] * spread[f]);
            }
            odds[k] = lead;
            share[k] = 1.0 / (1.0 + (-lead.clamp(-40.0, 40.0)).exp());
        }
    }
    let apart = figures
        .clone()
        .map(|f| ((means[0][f] - means[1][f]) / spread[f]).powi(2))
        .sum::<f32>()
        .sqrt();
    let in_first = share.iter().filter(|&&s| s > 0.5).count();
    if apart < APART_AT || in_first == 0 || in_first == pieces.len() {
        return none(apart);
    }
    // The first group is Red's if its members' votes lean more to Red than the other's.
    let lean: f32 = pieces
        .iter()
        .zip(&share)
        .map(|(&i, &s)| (2.0 * s - 1.0) * (2.0 * red_share(&points[i]) - 1.0))
        .sum();
    let sign = if lean >= 0.0 { 1.0 } else { -1.0 };
    let mut red_odds = vec![None; points.len()];
    for (k, &i) in pieces.iter().enumerate() {
        red_odds[i] = Some(sign * odds[k]);
    }
    Sides { red_odds, apart }
}

/// [`LIGHTER_RED_NATS`] when `sides` names Red's the group of light discs, no piece of
/// either (by `colours`, in the same order) showing red and the other group's discs dark;
/// otherwise nothing (see the module's paragraph).
pub fn lighter_red_nats(sides: &Sides, colours: &[Colours]) -> f64 {
    let mut rings = [(0.0f32, 0usize); 2];
    for (odds, c) in sides.red_odds.iter().zip(colours) {
        let Some(odds) = odds else { continue };
        let redness = |at: usize| c[at] - c[at + 1].max(c[at + 2]);
        if redness(LIGHTER) > RED_ABOVE || redness(DARKER) > RED_ABOVE {
            return 0.0;
        }
        let ring = &mut rings[usize::from(*odds <= 0.0)];
        ring.0 += c[RING_DARKER];
        ring.1 += 1;
    }
    let [(red, reds), (black, blacks)] = rings;
    if reds == 0 || blacks == 0 {
        return 0.0;
    }
    let (red, black) = (red / reds as f32, black / blacks as f32);
    if black - red >= DISCS_APART {
        LIGHTER_RED_NATS
    } else {
        0.0
    }
}

/// The classifier's probabilities with each piece's side taken from `sides`: a point's
/// kinds keep the classifier's probabilities (both sides' together), its side those of its
/// colours (at most [`MOST_SAY`] nats either way); empty stays as it was.
pub fn apply(points: &[[f32; CLASSES]], sides: &Sides) -> Vec<[f32; CLASSES]> {
    points
        .iter()
        .zip(&sides.red_odds)
        .map(|(p, odds)| {
            let Some(odds) = odds else { return *p };
            let red = 1.0 / (1.0 + (-odds.clamp(-MOST_SAY, MOST_SAY)).exp());
            let mut q = *p;
            for kind in 0..7 {
                let both = p[1 + kind] + p[8 + kind];
                q[1 + kind] = both * red;
                q[8 + kind] = both * (1.0 - red);
            }
            q
        })
        .collect()
}

/// The points whose side is in doubt: the side is sure only when the colours and the
/// classifier both are, so a point is in doubt when the classifier gives its colours' side
/// less than [`SIDE_UNSURE_BELOW`] (it took the other side, or hesitated), or when its colours
/// lie between the two groups.
pub fn doubtful(points: &[[f32; CLASSES]], sides: &Sides) -> Vec<usize> {
    sides
        .red_odds
        .iter()
        .enumerate()
        .filter_map(|(i, odds)| {
            let odds = (*odds)?;
            let red = red_share(&points[i]);
            let agreed = if odds > 0.0 { red } else { 1.0 - red };
            (odds.abs() < BETWEEN_BELOW || agreed < SIDE_UNSURE_BELOW).then_some(i)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recognize::net::synth;
    use crate::recognize::{Area, decide, decide_coloured, read_points};

    /// `image` with its red ink turned to `to` (by how red each pixel is): a colour the
    /// classifier never saw a piece drawn in.
    fn recoloured(image: &mut image::RgbImage, to: [f32; 3]) {
        for p in image.pixels_mut() {
            let [r, g, b] = p.0.map(f32::from);
            let redness = r - 0.5 * (g + b);
            let t = ((redness - 60.0) / 80.0).clamp(0.0, 1.0);
            let keep = (r + g + b) / 3.0;
            let new = [0, 1, 2].map(|c| {
                let shifted = keep * 0.4 + to[c] * 0.6;
                ((1.0 - t) * p.0[c] as f32 + t * shifted).clamp(0.0, 255.0) as u8
            });
            p.0 = new;
        }
    }

    const AREA: Area = Area {
        x: 0,
        y: 0,
        width: 1,
        height: 1,
    };

    /// Class probabilities of a point: `class` at `p`, the rest spread over the others.
    fn reading(class: usize, p: f32) -> [f32; CLASSES] {
        let mut row = [(1.0 - p) / (CLASSES - 1) as f32; CLASSES];
        row[class] = p;
        row
    }

    /// The colours of a cream face with `ink` covering a fifth of it, a little varied by `k`.
    fn piece_colours(ink: [f32; 3], k: usize) -> Colours {
        let wobble = (k % 3) as f32 * 3.0;
        let cream = [240.0 + wobble, 225.0, 195.0 - wobble];
        [
            cream[0],
            cream[1],
            cream[2],
            cream[0],
            cream[1],
            cream[2],
            ink[0] + wobble,
            ink[1],
            ink[2],
            50.0 + 4.0 * (k % 5) as f32,
            0.0,
            10.0 + 3.0 * (k % 4) as f32,
        ]
    }

    #[test]
    fn where_no_piece_shows_red_the_light_discs_are_reds() {
        // A chess set's black figures on white discs and white figures on black discs:
        // grey faces, the ring beyond them light (nothing dark) for one group, dark for
        // the other.
        let grey = |ring: f32| -> Colours {
            let mut c = [0.0; FIGURES];
            c[LIGHTER..LIGHTER + 3].fill(245.0);
            c[DARKER..DARKER + 3].fill(15.0);
            c[9] = 120.0;
            c[RING_DARKER] = ring;
            c
        };
        let mut colours = vec![grey(2.0); 4];
        colours.extend(vec![grey(250.0); 4]);
        let odds = |first: f32| (0..8).map(move |i| Some(if i < 4 { first } else { -first }));
        let named = |first: f32| Sides {
            red_odds: odds(first).collect(),
            apart: 10.0,
        };
        assert_eq!(lighter_red_nats(&named(3.0), &colours), LIGHTER_RED_NATS);
        assert_eq!(lighter_red_nats(&named(3.0).swapped(), &colours), 0.0);
        // Points read as empty say nothing.
        let mut with_empty = named(3.0);
        with_empty.red_odds.push(None);
        let mut more = colours.clone();
        more.push(grey(250.0));
        assert_eq!(lighter_red_nats(&with_empty, &more), LIGHTER_RED_NATS);
        // One group's ink red: the colours name the sides, not the shades.
        let mut red_ink = colours.clone();
        red_ink[0][DARKER..DARKER + 3].copy_from_slice(&[200.0, 40.0, 40.0]);
        assert_eq!(lighter_red_nats(&named(3.0), &red_ink), 0.0);
        // Red discs with light characters: the same.
        let mut red_discs = colours.clone();
        red_discs[5][LIGHTER..LIGHTER + 3].copy_from_slice(&[230.0, 90.0, 80.0]);
        assert_eq!(lighter_red_nats(&named(3.0), &red_discs), 0.0);
        // Discs of close shades: nothing.
        let mut close = colours.clone();
        for c in &mut close[4..] {
            c[RING_DARKER] = 100.0;
        }
        assert_eq!(lighter_red_nats(&named(3.0), &close), 0.0);
    }

    const RED_INK: [f32; 3] = [40.0, 70.0, 200.0];
    const BLACK_INK: [f32; 3] = [25.0, 25.0, 25.0];

    /// Twelve pieces, the first six in red ink (here a blue the classifier never saw), the
    /// rest in black; every point after them empty.
    fn board(reads: &[(usize, f32)]) -> (Vec<[f32; CLASSES]>, Vec<Colours>) {
        let mut points = vec![reading(0, 0.99); 90];
        let mut colours = vec![[0.0; FIGURES]; 90];
        for (k, &(class, p)) in reads.iter().enumerate() {
            points[k] = reading(class, p);
            colours[k] = piece_colours(if k < 6 { RED_INK } else { BLACK_INK }, k);
        }
        (points, colours)
    }

    #[test]
    fn a_piece_read_as_the_other_side_takes_the_side_of_its_colours_and_is_in_doubt() {
        let (rook, black_rook, pawn, black_pawn) = (5, 12, 7, 14);
        // The fourth red piece is read as Black's rook, fairly surely.
        let mut reads = vec![(rook, 0.9), (pawn, 0.92), (pawn, 0.9), (black_rook, 0.8)];
        reads.extend([(pawn, 0.95), (rook, 0.95)]);
        reads.extend([(black_pawn, 0.9); 5]);
        reads.push((black_rook, 0.9));
        let (points, colours) = board(&reads);
        let sides = group(&points, &colours);
        assert!(sides.told(), "apart {}", sides.apart);
        assert!(sides.red_odds[3].is_some_and(|o| o > BETWEEN_BELOW));
        assert!(sides.red_odds[11].is_some_and(|o| o < -BETWEEN_BELOW));
        assert_eq!(sides.red_odds[20], None);
        let adjusted = apply(&points, &sides);
        assert!(adjusted[3][rook] > 0.7 && adjusted[3][black_rook] < 0.01);
        // The kind and the empty point's share stay the classifier's.
        let both = points[3][rook] + points[3][black_rook];
        assert!((adjusted[3][rook] + adjusted[3][black_rook] - both).abs() < 1e-5);
        assert!((adjusted[3][0] - points[3][0]).abs() < 1e-6);
        assert_eq!(adjusted[20], points[20]);
        assert_eq!(doubtful(&points, &sides), vec![3]);
    }

    /// Paints a disc 18 pixels round on point `k` (row by row from the top left, `spacing`
    /// apart from (40, 40)), each pixel the colour `paint` gives it from its place and its
    /// offset from the centre.
    fn paint_disc(
        image: &mut image::RgbImage,
        k: usize,
        spacing: f64,
        paint: impl Fn(u32, u32, (f64, f64)) -> [u8; 3],
    ) {
        let (cx, cy) = (
            40.0 + spacing * (k % 9) as f64,
            40.0 + spacing * (k / 9) as f64,
        );
        for py in (cy - 18.0) as u32..(cy + 18.0) as u32 {
            for px in (cx - 18.0) as u32..(cx + 18.0) as u32 {
                let (dx, dy) = (px as f64 - cx, py as f64 - cy);
                if dx.hypot(dy) < 18.0 {
                    image.put_pixel(px, py, image::Rgb(paint(px, py, (dx, dy))));
                }
            }
        }
    }

    #[test]
    fn a_character_covering_most_of_its_disc_keeps_its_side() {
        // Cream discs with red or black ink; on half the pieces of each side the ink covers
        // seven tenths of the disc (a bold character on a small disc), on the rest a fifth.
        let spacing = 40.0;
        let map = crate::recognize::synthetic::map((40.0, 40.0), spacing, 0.0, 0.0);
        let cream = [245u8, 230, 190];
        let mut image = image::RgbImage::from_pixel(440, 480, image::Rgb([150, 90, 40]));
        let (rook, black_pawn) = (5, 14);
        let mut points = vec![reading(0, 0.99); 90];
        for (k, point) in points.iter_mut().enumerate().take(12) {
            let red = k < 6;
            let covered = if k % 2 == 0 { 7 } else { 2 };
            let ink = if red { [200u8, 20, 20] } else { [20u8, 20, 20] };
            paint_disc(&mut image, k, spacing, |px, py, _| {
                if (px + py) % 10 < covered { ink } else { cream }
            });
            *point = reading(if red { rook } else { black_pawn }, 0.9);
        }
        let colours: Vec<Colours> = (0..90)
            .map(|i| colours(&image, &map, (i % 9) as f64, (i / 9) as f64))
            .collect();
        let sides = group(&points, &colours);
        assert!(sides.told(), "apart {}", sides.apart);
        for k in 0..12 {
            let odds = sides.red_odds[k].unwrap_or(0.0);
            assert!((odds > 0.0) == (k < 6), "piece {k}: {odds:.1} for Red");
        }
    }

    /// A chess set's pieces read as pawns, 0.6 surely of their side, and their colours.
    /// Red: white discs with a black figure; Black: black discs with a white one, the
    /// discs `radius` pixels round at 40 pixels a spacing on a green board. Both sides have
    /// the same two colours, and the figures' sizes vary so that the darker covers as much
    /// of some red faces as of some black ones.
    fn chess_set(radius: f64) -> (Vec<[f32; CLASSES]>, Vec<Colours>) {
        let spacing = 40.0;
        let map = crate::recognize::synthetic::map((40.0, 40.0), spacing, 0.0, 0.0);
        let board = [90u8, 140, 90];
        let mut image = image::RgbImage::from_pixel(440, 480, image::Rgb(board));
        let (pawn, black_pawn) = (7, 14);
        let mut points = vec![reading(0, 0.99); 90];
        let (white, black) = ([245u8, 245, 245], [15u8, 15, 15]);
        for (k, point) in points.iter_mut().enumerate().take(12) {
            let red = k < 6;
            let (disc, figure) = if red { (white, black) } else { (black, white) };
            // The figure's half-size: 7 to 10 pixels on red pieces, 10 to 7 on black ones
            // (about the same share of the face dark as the red ones).
            let half = if red { 7 + k % 4 } else { 10 - k % 4 } as f64;
            paint_disc(&mut image, k, spacing, |_, _, (dx, dy)| {
                if dx.abs() < half && dy.abs() < half {
                    figure
                } else if dx.hypot(dy) < radius {
                    disc
                } else {
                    board
                }
            });
            *point = reading(if red { pawn } else { black_pawn }, 0.6);
        }
        let colours = (0..90)
            .map(|i| colours(&image, &map, (i % 9) as f64, (i / 9) as f64))
            .collect();
        (points, colours)
    }

    /// Whether `sides` are the chess set's: its first six pieces Red's, the next six Black's.
    fn chess_sides_right(sides: &Sides) {
        assert!(sides.told(), "apart {}", sides.apart);
        for k in 0..12 {
            let odds = sides.red_odds[k].unwrap_or(0.0);
            assert!((odds > 0.0) == (k < 6), "piece {k}: {odds:.1} for Red");
        }
    }

    #[test]
    fn a_chess_sets_white_and_black_discs_are_told_apart_by_the_disc_beyond_the_figure() {
        // Discs 18 pixels round, 0.45 of a spacing: the ring beyond the face is the disc.
        let (points, colours) = chess_set(18.0);
        chess_sides_right(&group_by(&points, &colours, GROUPED));
    }

    #[test]
    fn a_chess_sets_small_white_and_black_discs_are_told_apart_by_their_rims() {
        // Discs 14 pixels round: the ring beyond the face is the board's, on either side,
        // and only the rims differ.
        let (points, colours) = chess_set(14.0);
        let by_colours = group_by(&points, &colours, GROUPED);
        assert!(!by_colours.told(), "apart {}", by_colours.apart);
        chess_sides_right(&group(&points, &colours));
    }

    #[test]
    fn a_piece_between_the_two_colours_is_in_doubt() {
        let (rook, black_pawn) = (5, 14);
        let mut reads = vec![(rook, 0.9); 6];
        reads.extend([(black_pawn, 0.9); 6]);
        // A thirteenth piece, read as Red's, whose colours are halfway between the groups'.
        reads.push((rook, 0.9));
        let (points, mut colours) = board(&reads);
        colours[12] = std::array::from_fn(|f| (0..12).map(|k| colours[k][f]).sum::<f32>() / 12.0);
        let sides = group(&points, &colours);
        assert!(sides.told());
        assert!(sides.red_odds[12].is_some_and(|o| o.abs() < BETWEEN_BELOW));
        assert_eq!(doubtful(&points, &sides), vec![12]);
    }

    #[test]
    fn pieces_all_of_one_colour_leave_the_sides_to_the_classifier() {
        let (rook, black_pawn) = (5, 14);
        let mut reads = vec![(rook, 0.9); 6];
        reads.extend([(black_pawn, 0.9); 6]);
        let (points, mut colours) = board(&reads);
        for (k, c) in colours.iter_mut().take(12).enumerate() {
            *c = piece_colours(BLACK_INK, k);
        }
        let sides = group(&points, &colours);
        assert!(!sides.told(), "apart {}", sides.apart);
        assert_eq!(apply(&points, &sides), points);
        assert!(doubtful(&points, &sides).is_empty());
    }

    #[test]
    fn pieces_in_colours_never_drawn_in_training_keep_their_sides_more_often() {
        // Boards of the app's own look (held out of training), Red's ink turned blue or
        // green: the classifier alone gives many of those pieces to Black.
        let fonts = synth::Fonts::app_only();
        let style = synth::HELD_OUT[0];
        let mut rng = crate::play::Rng::new(5);
        let (mut alone, mut coloured, mut pieces) = (0, 0, 0);
        for to in [[30.0, 60.0, 220.0], [20.0, 170.0, 40.0]] {
            for spacing in [30.0, 40.0, 55.0, 70.0, 36.0, 48.0] {
                let board = synth::random_board(&mut rng);
                let mut drawn = synth::draw_board(
                    &fonts,
                    &style,
                    &board,
                    spacing,
                    &synth::Augment::NONE,
                    &mut rng,
                );
                recoloured(&mut drawn.image, to);
                let (seen, colours) = read_points(&drawn.image, &drawn.map);
                let plain = decide(&seen, AREA);
                let read = decide_coloured(&seen, &colours, AREA);
                for (sq, piece) in board.pieces() {
                    pieces += 1;
                    let side = |b: &crate::Board| b.get(sq).map(|p| p.color);
                    alone += usize::from(side(&plain.board) != Some(piece.color));
                    coloured += usize::from(side(&read.board) != Some(piece.color));
                }
            }
        }
        // Not yet every piece: on some boards the groups are not clearly apart, or the
        // classifier's votes name them wrongly. (The classifier alone has gained Black's
        // pieces in blues and greens; it still gives one in ten of these to Black.)
        assert!(
            alone * 10 >= pieces && coloured * 4 <= alone * 3,
            "{pieces} pieces, of the wrong side {alone} by the classifier alone, \
             {coloured} with the colours"
        );
    }
}

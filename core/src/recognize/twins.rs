//! Pieces drawn alike are read alike.
//!
//! A program draws every piece of a kind with the same picture (both chariots of a side,
//! often the two sides' chariots in two colours), so where the classifier reads one copy
//! of a picture as a chariot and another as a cannon, one of them is wrong, and more likely
//! the one its copies outvote. The faces of the points read as pieces are sampled finely
//! (their middle, grey, brightness and contrast taken out) and compared pairwise, one
//! shifted against the other by up to about a tenth of a spacing (some programs draw their
//! pieces that far off the points), to half a sample (a figure drawn in thin outline
//! matches its copy badly a fraction of a sample off); two faces that match almost exactly
//! are twins. Faces read as pieces of the two sides are twins from a closer match down
//! too, where they match far better than the picture's pieces typically do: a program
//! that writes both sides with one character (XQWLight's 馬, 車) draws it in two inks on
//! two discs, and the copies match less well than copies of one side. Any two faces that
//! match closer still against the typical pair are twins from a looser match down: on a
//! scan or a small board the grain keeps copies from matching almost exactly, yet they
//! stand out from the rest (XQWLight's two black 馬 on a scan). Each piece's kind
//! is then the mean of its own and its twins' kind probabilities, its side and its chance
//! of being a piece at all left as they were, so a picture read one way on most of its
//! copies is read that way on all of them, and copies that disagree evenly leave the kind
//! in doubt for the joint decoding to settle. Different characters, or one character in
//! two fonts or sizes, match far less; a blurred or noisy copy matches less too and is
//! left to itself.
//!
//! The other way round, two pieces read as the same piece of the same side whose faces are
//! far apart (strangers) cannot both be it: one of them is likely a figure the classifier
//! mistakes for that kind (xiangqiboard.js's soldiers taken for its knights). For the one
//! less sure of it, that piece becomes five times less likely against its other readings,
//! so its next reading, or the joint decoding, takes over where it was in doubt, while a
//! sure reading stays. Where the two generals are copies of one picture, the program draws
//! each piece of one side as the other's in another colour (figures, Western letters;
//! sets of characters never write the two generals alike), and strangers read as one kind
//! on the two sides are parted too: a soldier taken for a knight beside the other side's
//! knight.
//!
//! The joint decoding can make some copies of a picture another kind than they were read
//! as: three copies read as horses on one side cannot all be horses, and with their
//! copies on the other side read as horses too, only those on the crowded side are
//! turned (xiangqiboard.js's soldiers, read as knights beside its knights). So once the
//! board is decoded, a copy decoded as what it was read as, whose sure copies (below) were
//! all decoded as one other kind, takes half its kind from them, and the board is decoded
//! again.
//!
//! A set of figures draws its horse as a horse's head in profile, never the same in a
//! mirror, and its soldier as a pawn, its general, advisor and chariot upright and
//! symmetric. On the second look, by the networks that know figures, a face read as a
//! horse that matches its own mirror image closely (at the best axis near the point) is
//! made far less likely a horse ([`symmetric_not_horses`]): xiangqiboard.js's soldiers,
//! knobbed heads on a skirt, otherwise go for knights where no copy tells otherwise.
//! Characters and letters are left alone (an H is its own mirror image, and so are some
//! sets' 马).
//!
//! Copies of one picture are one kind, and a side has at most one general, five soldiers
//! and two of each other piece: where more copies stand on one side's points than it has
//! of a kind, they are none of that kind before they are pooled (three of a side alike are
//! soldiers, however much they look like knights to the classifier). Only copies that
//! match far better than the picture's pieces typically match one another are counted so,
//! and only points surely pieces and surely of one side: on a scan every disc matches every
//! other well (and the marks of empty points one another), and one chance match must not
//! make three pieces of two kinds into soldiers.

use super::decode::argmax;
use super::geometry::Homography;
use super::net::{CLASSES, piece_of};
use super::occupancy::median;
use super::patch;
use crate::PieceKind;

/// Samples along each side of a face.
const SIDE: usize = 28;
/// The face's half-width in spacings: inside the smallest discs, most of a character.
const REACH: f64 = 0.24;
/// From one sample of a face to the next, in spacings.
const STEP: f64 = 2.0 * REACH / (SIDE - 1) as f64;
/// How far one face may stand off another, in samples (a tenth of a spacing): some
/// programs draw their pieces a few pixels off the points, each by its own rounding.
const SHIFT: i32 = 9;
/// The least correlation of two faces that makes them twins. On the test pictures of four
/// programs no two different kinds match this well on a clean or JPEG picture (and three
/// pairs of about 30,000 on the scans).
pub const TWINS_FROM: f32 = 0.95;
/// The least correlation of two faces read as pieces of the two sides that makes them
/// twins. On the test pictures of four programs (40 of each set and variant), 165 of the
/// 166 such pairs matching from this up to [`TWINS_FROM`] are one kind; the other, on a
/// scan whose discs all match well, is left out by [`ACROSS_CLOSER`].
pub const ACROSS_TWINS_FROM: f32 = 0.9;
/// How much closer than the picture's typical pair (in one less their likeness) faces of
/// the two sides must match to be twins below [`TWINS_FROM`]. On those pictures, every
/// pair of two kinds matching from 0.88 up stands at 0.47–0.56 of the typical pair's
/// distance, and 154 of the 165 pairs of one kind from 0.9 up closer than 0.3 of it.
const ACROSS_CLOSER: f32 = 0.3;
/// The least correlation of two faces that makes them twins where they match closer than
/// [`CLOSER`] of the picture's typical pair.
pub const CLOSE_TWINS_FROM: f32 = 0.7;
/// How much closer than the picture's typical pair (in one less their likeness) two faces
/// must match to be twins from [`CLOSE_TWINS_FROM`]. On the test pictures of four programs
/// (40 of each set and variant), 519 pairs matching from 0.7 up to [`TWINS_FROM`] stand
/// this close, all of one kind (363 read as one side, 156 as the two); from 0.3 of the
/// typical distance, 17 of 439 read as one side are two kinds.
const CLOSER: f32 = 0.2;
/// Halved faces less alike than this are not compared at full size. Halving smooths
/// most faces, so their full-size faces match less well still; but a figure in thin
/// outline, halved, matches its copy at as little as 0.72 at the nearest whole shift,
/// where at full size, set to the half sample, they match at 0.99.
const COARSE_FROM: f32 = TWINS_FROM - 0.35;
/// The most two faces of one piece of one side correlate when they are strangers. On the
/// test pictures of four programs (80 of each set and variant), 0–1.4 % of the pairs of the
/// same piece of a side correlate less, and 56–91 % of the pairs of two kinds of a side.
pub const STRANGERS_BELOW: f32 = 0.5;
/// How much less likely a stranger becomes, against its other readings, the piece it
/// shares with a surer one.
const STRANGER_KEEPS: f32 = 0.2;
/// How much closer than the picture's typical pair of pieces (in one less their
/// likeness) twins must match to be counted as copies of one kind.
const SURELY_CLOSER: f32 = 0.15;
/// How sure a point must be of being a piece, and of its side, to be counted among its
/// side's twins.
const SURE: f32 = 0.9;
/// A point is looked at only when it is likelier a piece than empty.
const PIECE_FROM: f32 = 0.5;
/// The share of its own kind probabilities a piece keeps when it follows its sure copies'
/// decoded kind ([`Twins::follow`]); the rest goes to that kind.
const FOLLOW_KEEPS: f32 = 0.5;
/// The least likeness of a face and its mirror image that makes it symmetric. On the test
/// pictures of four programs (100 of each set and variant), figures of horses match their
/// mirror images at 0.23–0.69, and of soldiers at 0.88–1.00 (xiangqiboard.js's graphic
/// pieces and xiangqi-setup's `euro_xiangqi_js`).
const SYMMETRIC_FROM: f32 = 0.8;
/// How much less likely a symmetric face becomes a horse, against its other readings.
const SYMMETRIC_HORSE_KEEPS: f32 = 0.05;
/// Kinds of piece.
const KINDS: usize = (CLASSES - 1) / 2;

/// A point's face, at full size and halved each way, and at full size again moved half a
/// sample across, down, and both.
struct Face {
    fine: Vec<f32>,
    coarse: Vec<f32>,
    halves: [Vec<f32>; 3],
}

impl Face {
    /// The grey face of the point in column `x`, row `y` ([`sampled`]), halved, and
    /// moved half a sample.
    fn of(image: &image::RgbImage, map: &Homography, x: f64, y: f64) -> Face {
        let fine = sampled(image, map, x, y);
        let half = SIDE / 2;
        let mut coarse = vec![0.0; half * half];
        for row in 0..half {
            for column in 0..half {
                let at = |r: usize, c: usize| fine[(2 * row + r) * SIDE + 2 * column + c];
                coarse[row * half + column] = (at(0, 0) + at(0, 1) + at(1, 0) + at(1, 1)) / 4.0;
            }
        }
        // Thin strokes (figures drawn in outline) match badly a fraction of a sample off,
        // and whole samples are all the shifts try.
        let h = STEP / 2.0;
        let halves = [
            sampled(image, map, x + h, y),
            sampled(image, map, x, y + h),
            sampled(image, map, x + h, y + h),
        ];
        Face {
            fine,
            coarse,
            halves,
        }
    }

    /// The best correlation of this face and `other`, shifted by up to [`SHIFT`] samples
    /// each way: the shift is found on the halved faces, then set to the half sample.
    fn likeness(&self, other: &Face) -> f32 {
        let s = SHIFT / 2;
        let mut best = (f32::MIN, (0, 0));
        for dy in -s..=s {
            for dx in -s..=s {
                let c = correlation(&self.coarse, &other.coarse, SIDE / 2, (dx, dy));
                if c > best.0 {
                    best = (c, (dx, dy));
                }
            }
        }
        if best.0 < COARSE_FROM {
            return best.0;
        }
        let (dx, dy) = best.1;
        let mut fine = f32::MIN;
        for ey in -1..=1 {
            for ex in -1..=1 {
                let shift = (2 * dx + ex, 2 * dy + ey);
                for moved in std::iter::once(&other.fine).chain(&other.halves) {
                    fine = fine.max(correlation(&self.fine, moved, SIDE, shift));
                }
            }
        }
        fine
    }
}

/// `SIDE` × `SIDE` grey samples over the square `2 × REACH` spacings wide about column
/// `x`, row `y`, less their mean, over their spread (all zero when of one colour).
fn sampled(image: &image::RgbImage, map: &Homography, x: f64, y: f64) -> Vec<f32> {
    let mut fine = Vec::with_capacity(SIDE * SIDE);
    for row in 0..SIDE {
        for column in 0..SIDE {
            let (px, py) = map.apply(
                x - REACH + column as f64 * STEP,
                y - REACH + row as f64 * STEP,
            );
            fine.push(patch::luminance(patch::colour_at(
                image, px as f32, py as f32,
            )));
        }
    }
    let n = fine.len() as f32;
    let mean = fine.iter().sum::<f32>() / n;
    let spread = (fine.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / n).sqrt();
    // A face of one colour has no picture to match.
    let scale = if spread > 2.0 { 1.0 / spread } else { 0.0 };
    for v in &mut fine {
        *v = (*v - mean) * scale;
    }
    fine
}

/// The correlation of `side` × `side` faces `a` and `b` where they overlap with `b`
/// moved `(dx, dy)` samples.
fn correlation(a: &[f32], b: &[f32], side: usize, (dx, dy): (i32, i32)) -> f32 {
    let n = side as i32;
    let (mut ab, mut aa, mut bb) = (0.0f32, 0.0f32, 0.0f32);
    for row in 0.max(-dy)..n.min(n - dy) {
        let (ra, rb) = (row as usize * side, (row + dy) as usize * side);
        let columns = 0.max(-dx) as usize..n.min(n - dx) as usize;
        let moved = (columns.start as i32 + dx) as usize..(columns.end as i32 + dx) as usize;
        for (&p, &q) in a[ra + columns.start..ra + columns.end]
            .iter()
            .zip(&b[rb + moved.start..rb + moved.end])
        {
            ab += p * q;
            aa += p * p;
            bb += q * q;
        }
    }
    if aa > 0.0 && bb > 0.0 {
        ab / (aa * bb).sqrt()
    } else {
        f32::MIN
    }
}

/// Which points' faces are twins: for each point read as a piece, the other such points
/// whose faces match it ([`TWINS_FROM`]); and which pairs are strangers
/// ([`STRANGERS_BELOW`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Twins {
    of: Vec<(usize, Vec<usize>)>,
    strangers: Vec<(usize, usize)>,
    /// Twins that match far better than the picture's pieces typically do: counted as
    /// copies of one kind in [`Twins::pool`].
    sure: Vec<(usize, usize)>,
}

impl Twins {
    /// The twins among the points `seen` (the 90 points' probabilities in picture order
    /// for the grid `map` lays on `image`) reads as pieces.
    pub fn find(image: &image::RgbImage, map: &Homography, seen: &[[f32; CLASSES]; 90]) -> Twins {
        let pieces: Vec<usize> = (0..90).filter(|&i| seen[i][0] < PIECE_FROM).collect();
        let faces: Vec<Face> = pieces
            .iter()
            .map(|&i| Face::of(image, map, (i % 9) as f64, (i / 9) as f64))
            .collect();
        let mut of: Vec<(usize, Vec<usize>)> = pieces.iter().map(|&i| (i, Vec::new())).collect();
        let mut strangers = Vec::new();
        let mut pairs = Vec::new();
        for a in 0..pieces.len() {
            for b in a + 1..pieces.len() {
                pairs.push((a, b, faces[a].likeness(&faces[b])));
            }
        }
        // Where most faces match well (a scan's discs, whose rims and shading outweigh the
        // characters), twins must stand out from them further to be counted as one kind.
        let mut likenesses: Vec<f32> = pairs.iter().map(|p| p.2).collect();
        let typical = if likenesses.is_empty() {
            0.0
        } else {
            median(&mut likenesses)
        };
        let unlike = 1.0 - typical.max(0.0);
        let red = |i: usize| argmax(&seen[i]) <= KINDS;
        for &(a, b, likeness) in &pairs {
            let (i, j) = (pieces[a], pieces[b]);
            if twins_by(likeness, red(i) != red(j), unlike) {
                of[a].1.push(j);
                of[b].1.push(i);
            } else if likeness < STRANGERS_BELOW {
                strangers.push((i, j));
            }
        }
        of.retain(|(_, twins)| !twins.is_empty());
        let sure_from = TWINS_FROM.max(1.0 - unlike * SURELY_CLOSER);
        let sure = pairs
            .into_iter()
            .filter(|p| p.2 >= sure_from)
            .map(|(a, b, _)| (pieces[a], pieces[b]))
            .collect();
        Twins {
            of,
            strangers,
            sure,
        }
    }

    /// [`Twins::pool`], then [`Twins::part`]: what the reader does with them.
    pub fn apply(&self, seen: &mut [[f32; CLASSES]; 90]) {
        self.pool(seen);
        self.part(seen);
    }

    /// Of two strangers read likeliest as the same piece of the same side (or of either
    /// side, where the generals are sure twins), the one less sure of it takes that piece
    /// [`STRANGER_KEEPS`] times as likely against its other readings as before (once,
    /// however many strangers it has).
    pub fn part(&self, seen: &mut [[f32; CLASSES]; 90]) {
        let best: [usize; 90] = std::array::from_fn(|i| argmax(&seen[i]));
        let kind = |i: usize| piece_of(best[i]).map(|p| p.kind);
        // The two generals copies of one picture: the picture draws a side's pieces as the
        // other's.
        let general = |i: usize| kind(i) == Some(PieceKind::General);
        let sides_alike = self
            .sure
            .iter()
            .any(|&(a, b)| general(a) && general(b) && best[a] != best[b]);
        let mut demoted = [false; 90];
        for &(a, b) in &self.strangers {
            let (x, y) = (best[a], best[b]);
            if kind(a).is_none() || !(x == y || (sides_alike && kind(a) == kind(b))) {
                continue;
            }
            let weaker = if seen[a][x] < seen[b][y] { a } else { b };
            demoted[weaker] = true;
        }
        for (i, p) in seen.iter_mut().enumerate() {
            if !demoted[i] {
                continue;
            }
            let class = best[i];
            p[class] *= STRANGER_KEEPS;
            let whole: f32 = p.iter().sum();
            if whole > 0.0 {
                for v in p.iter_mut() {
                    *v /= whole;
                }
            }
        }
    }

    /// After a decoding (`decoded`, each point's kind in picture order): a point decoded as
    /// the kind of its likeliest class in `seen` whose sure twins were all decoded as
    /// pieces of one other kind takes [`FOLLOW_KEEPS`] of its kind probabilities as they
    /// were and the rest as that kind, its side and its chance of being a piece left as
    /// they were. Returns whether any point changed (the board is then decoded again).
    pub fn follow(
        &self,
        seen: &mut [[f32; CLASSES]; 90],
        decoded: &[Option<PieceKind>; 90],
    ) -> bool {
        let mut copies: Vec<Vec<usize>> = vec![Vec::new(); 90];
        for &(a, b) in &self.sure {
            copies[a].push(b);
            copies[b].push(a);
        }
        let mut follows = Vec::new();
        for (i, theirs) in copies.iter().enumerate() {
            let (Some(mine), Some(Some(kind))) = (decoded[i], theirs.first().map(|&j| decoded[j]))
            else {
                continue;
            };
            let read_so = piece_of(argmax(&seen[i])).map(|p| p.kind) == Some(mine);
            if read_so && kind != mine && theirs.iter().all(|&j| decoded[j] == Some(kind)) {
                follows.push((i, kind as usize));
            }
        }
        for &(i, kind) in &follows {
            let p = &mut seen[i];
            let piece: f32 = p[1..].iter().sum();
            let red = red_share(p);
            for k in 0..KINDS {
                let own = (p[1 + k] + p[1 + KINDS + k]) / piece.max(1e-9);
                let given = if k == kind { 1.0 - FOLLOW_KEEPS } else { 0.0 };
                let share = FOLLOW_KEEPS * own + given;
                p[1 + k] = piece * share * red;
                p[1 + KINDS + k] = piece * share * (1.0 - red);
            }
        }
        !follows.is_empty()
    }

    /// How many points have a twin.
    pub fn len(&self) -> usize {
        self.of.len()
    }

    /// Whether no point has a twin.
    pub fn is_empty(&self) -> bool {
        self.of.is_empty()
    }

    /// Each point's kind probabilities in `seen` pooled with its twins' (see the module's
    /// paragraph); its side and its chance of being a piece stay.
    pub fn pool(&self, seen: &mut [[f32; CLASSES]; 90]) {
        // The kinds each point is read as, both sides together, as shares of its being a
        // piece: taken before any point is pooled.
        let mut kinds: [[f32; KINDS]; 90] = std::array::from_fn(|i| {
            let p = &seen[i];
            let piece: f32 = p[1..].iter().sum();
            std::array::from_fn(|k| (p[1 + k] + p[1 + KINDS + k]) / piece.max(1e-9))
        });
        // Sure twins, and their sure twins, are copies of one picture (in either side's
        // colour): more of them on one side than a side has of a kind (three: no chariots,
        // two: no general) are none of that kind (see the module's paragraph).
        let mut group: [usize; 90] = std::array::from_fn(|i| i);
        fn root(group: &mut [usize; 90], mut i: usize) -> usize {
            while group[i] != i {
                group[i] = group[group[i]];
                i = group[i];
            }
            i
        }
        for &(i, j) in &self.sure {
            let (a, b) = (root(&mut group, i), root(&mut group, j));
            group[a] = b;
        }
        // Only points surely pieces, and surely of a side, are counted.
        let side = |p: &[f32; CLASSES]| {
            if p[0] > 1.0 - SURE {
                return None;
            }
            let share = red_share(p);
            (share >= SURE)
                .then_some(0)
                .or((share <= 1.0 - SURE).then_some(1))
        };
        let mut alike = [[0usize; 2]; 90];
        for (i, _) in &self.of {
            if let Some(s) = side(&seen[*i]) {
                alike[root(&mut group, *i)][s] += 1;
            }
        }
        for (i, _) in &self.of {
            let most = alike[root(&mut group, *i)].into_iter().max().unwrap_or(0);
            let fits = |k: usize| PieceKind::ALL[k].count_in_set() >= most;
            let kind = &mut kinds[*i];
            let left: f32 = (0..KINDS).filter(|&k| fits(k)).map(|k| kind[k]).sum();
            if (0..KINDS).all(fits) || left <= 0.0 {
                continue;
            }
            for (k, v) in kind.iter_mut().enumerate() {
                *v = if fits(k) { *v / left } else { 0.0 };
            }
        }
        for (i, twins) in &self.of {
            let n = (twins.len() + 1) as f32;
            let mut kind = kinds[*i];
            for &j in twins {
                for (k, v) in kind.iter_mut().zip(kinds[j]) {
                    *k += v;
                }
            }
            let p = &mut seen[*i];
            let piece: f32 = p[1..].iter().sum();
            let red = red_share(p);
            for (k, share) in kind.iter().enumerate() {
                p[1 + k] = piece * share / n * red;
                p[1 + KINDS + k] = piece * share / n * (1.0 - red);
            }
        }
    }
}

/// How well the face of the point in column `x`, row `y` matches its own mirror image
/// (left to right) at the best axis within [`SHIFT`] half-samples of the point.
fn symmetry(image: &image::RgbImage, map: &Homography, x: f64, y: f64) -> f32 {
    let face = sampled(image, map, x, y);
    let mirrored: Vec<f32> = face
        .chunks(SIDE)
        .flat_map(|row| row.iter().rev().copied())
        .collect();
    (-SHIFT..=SHIFT)
        .map(|dx| correlation(&face, &mirrored, SIDE, (dx, 0)))
        .fold(f32::MIN, f32::max)
}

/// On a board of figures (see the module's paragraph): every point of `seen` (in picture
/// order, for the grid `map` lays on `image`) read as a piece, likeliest a horse of either
/// side (pooled twins often split a kind between the sides), whose face is symmetric
/// ([`SYMMETRIC_FROM`]) takes the horse [`SYMMETRIC_HORSE_KEEPS`] times as likely against
/// its other readings as before.
pub fn symmetric_not_horses(
    image: &image::RgbImage,
    map: &Homography,
    seen: &mut [[f32; CLASSES]; 90],
) {
    let horse = PieceKind::Horse as usize;
    for (i, p) in seen.iter_mut().enumerate() {
        let kind = |k: usize| p[1 + k] + p[1 + KINDS + k];
        let likeliest = (0..KINDS).all(|k| kind(k) <= kind(horse));
        if p[0] >= PIECE_FROM
            || !likeliest
            || symmetry(image, map, (i % 9) as f64, (i / 9) as f64) < SYMMETRIC_FROM
        {
            continue;
        }
        p[1 + horse] *= SYMMETRIC_HORSE_KEEPS;
        p[1 + KINDS + horse] *= SYMMETRIC_HORSE_KEEPS;
        let whole: f32 = p.iter().sum();
        for v in p.iter_mut() {
            *v /= whole;
        }
    }
}

/// Whether two faces that match at `likeness`, read as pieces of the two sides (`across`)
/// or of one, are twins in a picture whose typical pair stands `unlike` (one less its
/// likeness) apart.
fn twins_by(likeness: f32, across: bool, unlike: f32) -> bool {
    let closer = |share: f32| 1.0 - likeness <= share * unlike;
    likeness >= TWINS_FROM
        || (across && likeness >= ACROSS_TWINS_FROM && closer(ACROSS_CLOSER))
        || (likeness >= CLOSE_TWINS_FROM && closer(CLOSER))
}

/// The share of a point's being a piece that is Red's.
fn red_share(p: &[f32; CLASSES]) -> f32 {
    p[1..1 + KINDS].iter().sum::<f32>() / p[1..].iter().sum::<f32>().max(1e-9)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::Rng;

    /// A picture 40 pixels to a spacing: on a light board, a disc at each of `pieces`
    /// (column, row, which glyph: two random ones and an L of blots), each glyph a pattern
    /// of dark blots.
    fn picture(pieces: &[(u32, u32, usize)]) -> (image::RgbImage, Homography) {
        let mut rng = Rng::new(7);
        let mut glyphs: Vec<Vec<(f32, f32)>> = (0..2)
            .map(|_| {
                (0..6)
                    .map(|_| {
                        (
                            (rng.unit() as f32 - 0.5) * 18.0,
                            (rng.unit() as f32 - 0.5) * 18.0,
                        )
                    })
                    .collect()
            })
            .collect();
        // A third glyph unlike both: a bar of blots down the left and one across the foot.
        glyphs.push(
            (0..5)
                .map(|k| (-7.0, -8.0 + 4.0 * k as f32))
                .chain((0..4).map(|k| (-3.0 + 4.0 * k as f32, 8.0)))
                .collect(),
        );
        let map = Homography::upright((30.0, 30.0), 40.0);
        let image = image::RgbImage::from_fn(400, 440, |x, y| {
            for &(c, r, g) in pieces {
                let (dx, dy) = (
                    x as f32 - (30 + 40 * c) as f32,
                    y as f32 - (30 + 40 * r) as f32,
                );
                if dx.hypot(dy) < 17.0 {
                    let ink = glyphs[g]
                        .iter()
                        .any(|&(gx, gy)| (dx - gx).hypot(dy - gy) < 3.0);
                    return image::Rgb(if ink { [150, 20, 20] } else { [240, 220, 180] });
                }
            }
            image::Rgb([200, 160, 100])
        });
        (image, map)
    }

    /// Probabilities sure of nothing but a piece: `kinds` the red kind probabilities.
    fn piece(kinds: [f32; KINDS]) -> [f32; CLASSES] {
        let mut p = [0.0; CLASSES];
        p[0] = 0.02;
        for k in 0..KINDS {
            p[1 + k] = 0.98 * kinds[k];
        }
        p
    }

    /// `p` with Red's probabilities given to the same pieces of Black.
    fn black(mut p: [f32; CLASSES]) -> [f32; CLASSES] {
        p.copy_within(1..1 + KINDS, 1 + KINDS);
        p[1..1 + KINDS].fill(0.0);
        p
    }

    /// The reading of the tests' board: chariots at a9 and e7 (in picture order, points 0
    /// and 22), `third` at h3 (61), a horse at c1 (74), nothing elsewhere.
    fn read(third: [f32; CLASSES]) -> [[f32; CLASSES]; 90] {
        let mut seen = [[0.0; CLASSES]; 90];
        for p in seen.iter_mut() {
            p[0] = 1.0;
        }
        let rook = piece([0.0, 0.0, 0.0, 0.05, 0.9, 0.05, 0.0]);
        seen[0] = rook;
        seen[2 * 9 + 4] = rook;
        seen[6 * 9 + 7] = third;
        seen[8 * 9 + 2] = piece([0.0, 0.0, 0.0, 0.9, 0.05, 0.05, 0.0]);
        seen
    }

    /// The likeliest class.
    fn best(p: &[f32; CLASSES]) -> Option<usize> {
        Some(argmax(p))
    }

    #[test]
    fn a_piece_read_otherwise_than_its_twins_takes_their_kind_and_others_stay() {
        // Three copies of glyph 0 (two read as chariots, one as a cannon) and a glyph 1
        // read as a horse.
        let (image, map) = picture(&[(0, 0, 0), (4, 2, 0), (7, 6, 0), (2, 8, 1)]);
        let cannon = piece([0.0, 0.0, 0.0, 0.0, 0.2, 0.8, 0.0]);
        let mut seen = read(cannon);
        let before = seen;
        let twins = Twins::find(&image, &map, &seen);
        assert_eq!(twins.len(), 3);
        twins.pool(&mut seen);
        // The cannon's copies outvote it: a chariot, of the same side, as sure a piece.
        assert_eq!(best(&seen[6 * 9 + 7]), Some(5));
        assert!((seen[6 * 9 + 7][1..].iter().sum::<f32>() - 0.98).abs() < 1e-4);
        assert!(seen[6 * 9 + 7][1 + KINDS..].iter().all(|&v| v == 0.0));
        // The chariots stay chariots, the horse (no twin) and the empty points untouched.
        assert_eq!(best(&seen[0]), Some(5));
        assert_eq!(seen[8 * 9 + 2], before[8 * 9 + 2]);
        assert_eq!(seen[45], before[45]);
    }

    #[test]
    fn of_two_strangers_read_as_one_piece_the_less_sure_is_read_otherwise() {
        // Two copies of glyph 0 read as chariots; glyph 2, a stranger to them, read as a
        // chariot less surely (a cannon next), and again elsewhere as a horse.
        let (image, map) = picture(&[(0, 0, 0), (4, 2, 0), (7, 6, 2), (2, 8, 2)]);
        let a = Face::of(&image, &map, 0.0, 0.0);
        let b = Face::of(&image, &map, 7.0, 6.0);
        assert!(a.likeness(&b) < STRANGERS_BELOW, "{}", a.likeness(&b));
        let unsure = piece([0.0, 0.0, 0.0, 0.0, 0.6, 0.4, 0.0]);
        let mut seen = read(unsure);
        let before = seen;
        let twins = Twins::find(&image, &map, &seen);
        twins.part(&mut seen);
        // The unsure one is a cannon now, still surely a piece, and still Red's.
        assert_eq!(best(&seen[6 * 9 + 7]), Some(6));
        assert!((seen[6 * 9 + 7].iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(seen[6 * 9 + 7][0] < 0.05);
        assert!(seen[6 * 9 + 7][1 + KINDS..].iter().all(|&v| v == 0.0));
        // The chariots, the horse (a stranger read as another piece) and the empty points
        // are untouched.
        assert_eq!(seen[0], before[0]);
        assert_eq!(seen[2 * 9 + 4], before[2 * 9 + 4]);
        assert_eq!(seen[8 * 9 + 2], before[8 * 9 + 2]);
        assert_eq!(seen[45], before[45]);
        // A stranger sure of the chariot stays one, only less sure.
        let mut sure = read(piece([0.0, 0.0, 0.0, 0.0, 0.85, 0.15, 0.0]));
        twins.part(&mut sure);
        assert_eq!(best(&sure[6 * 9 + 7]), Some(5));
    }

    #[test]
    fn more_twins_on_one_side_than_a_side_has_of_a_kind_are_not_that_kind() {
        // Three copies of glyph 0, all Red's, read as horses with a pawn next; two of glyph
        // 1 read as generals with an advisor next.
        let horse = piece([0.0, 0.0, 0.0, 0.6, 0.0, 0.0, 0.4]);
        let general = piece([0.7, 0.3, 0.0, 0.0, 0.0, 0.0, 0.0]);
        let pieces = [(0, 0, 0), (4, 2, 0), (7, 6, 0), (2, 8, 1), (6, 9, 1)];
        let (image, map) = picture(&pieces);
        let mut seen = [[0.0; CLASSES]; 90];
        for p in seen.iter_mut() {
            p[0] = 1.0;
        }
        for &(c, r, g) in &pieces {
            seen[(r * 9 + c) as usize] = if g == 0 { horse } else { general };
        }
        let twins = Twins::find(&image, &map, &seen);
        assert_eq!(twins.len(), 5);
        let mut pooled = seen;
        twins.pool(&mut pooled);
        for &(c, r, g) in &pieces {
            let want = if g == 0 { 7 } else { 2 };
            assert_eq!(best(&pooled[(r * 9 + c) as usize]), Some(want), "{c} {r}");
        }
        // One of the three Black's: two horses a side, so they stay horses; as does one
        // general a side.
        let mut mixed = seen;
        mixed[2 * 9 + 4] = black(horse);
        mixed[9 * 9 + 6] = black(general);
        // Nor is a copy counted that is less surely a piece at all (a board's marks on empty
        // points alike): two horses and a doubtful third stay horses.
        let mut doubtful = seen;
        doubtful[6 * 9 + 7] = horse.map(|v| v * 0.85 / 0.98);
        doubtful[6 * 9 + 7][0] = 0.15;
        Twins::find(&image, &map, &doubtful).pool(&mut doubtful);
        assert_eq!(best(&doubtful[0]), Some(4));
        assert_eq!(best(&doubtful[2 * 9 + 4]), Some(4));
        let twins = Twins::find(&image, &map, &mixed);
        twins.pool(&mut mixed);
        assert_eq!(best(&mixed[0]), Some(4));
        assert_eq!(best(&mixed[2 * 9 + 4]), Some(4 + KINDS));
        assert_eq!(best(&mixed[8 * 9 + 2]), Some(1));
        assert_eq!(best(&mixed[9 * 9 + 6]), Some(1 + KINDS));
    }

    #[test]
    fn only_twins_that_match_surely_are_counted_as_copies_of_one_kind() {
        // Two Black horses and an advisor twinned with one of them, as on a scan where
        // every disc matches every other well: counted as three of a kind they would all
        // be pawns; with the advisor's match not sure, the horses stay horses.
        let mut seen = [[0.0; CLASSES]; 90];
        for p in seen.iter_mut() {
            p[0] = 1.0;
        }
        let (horse, advisor) = (12, 62);
        seen[horse] = black(piece([0.0, 0.0, 0.0, 0.9, 0.0, 0.0, 0.1]));
        seen[89] = seen[horse];
        seen[advisor] = black(piece([0.0, 0.9, 0.0, 0.05, 0.0, 0.0, 0.05]));
        let of = vec![
            (horse, vec![89]),
            (89, vec![horse, advisor]),
            (advisor, vec![89]),
        ];
        let counted = |sure: Vec<(usize, usize)>| {
            let twins = Twins {
                of: of.clone(),
                strangers: Vec::new(),
                sure,
            };
            let mut pooled = seen;
            twins.pool(&mut pooled);
            pooled
        };
        let all = counted(vec![(horse, 89), (89, advisor)]);
        assert_eq!(best(&all[horse]), Some(7 + KINDS));
        let surely = counted(vec![(horse, 89)]);
        assert_eq!(best(&surely[horse]), Some(4 + KINDS));
        assert_eq!(best(&surely[89]), Some(4 + KINDS));
    }

    #[test]
    fn a_copy_decoded_as_read_follows_its_sure_copies_that_the_decoding_turned() {
        // Three copies of one picture, two Red's and one Black's, read as horses with a
        // pawn next; the decoding made the two red ones pawns (Red had two surer horses).
        let mut seen = [[0.0; CLASSES]; 90];
        for p in seen.iter_mut() {
            p[0] = 1.0;
        }
        let (a, b, c) = (40, 58, 12);
        seen[a] = piece([0.0, 0.0, 0.0, 0.6, 0.0, 0.0, 0.4]);
        seen[b] = seen[a];
        seen[c] = black(seen[a]);
        let copies = |sure: Vec<(usize, usize)>| Twins {
            of: vec![(a, vec![b, c]), (b, vec![a, c]), (c, vec![a, b])],
            strangers: Vec::new(),
            sure,
        };
        let mut decoded = [None; 90];
        decoded[a] = Some(PieceKind::Pawn);
        decoded[b] = Some(PieceKind::Pawn);
        decoded[c] = Some(PieceKind::Horse);
        let twins = copies(vec![(a, b), (a, c), (b, c)]);
        let mut followed = seen;
        assert!(twins.follow(&mut followed, &decoded));
        // The black copy is a pawn now, half of it as read: still Black's, as surely a piece.
        assert_eq!(best(&followed[c]), Some(7 + KINDS));
        assert!((followed[c][7 + KINDS] - 0.98 * (0.5 * 0.4 + 0.5)).abs() < 1e-5);
        assert!((followed[c][4 + KINDS] - 0.98 * 0.5 * 0.6).abs() < 1e-5);
        assert!(followed[c][1..1 + KINDS].iter().all(|&v| v == 0.0));
        // The copies the decoding turned, and the empty points, are left to it.
        assert_eq!(followed[a], seen[a]);
        assert_eq!(followed[b], seen[b]);
        assert_eq!(followed[0], seen[0]);
        // Copies decoded as two kinds tell nothing: the black copy stays as read.
        let mut split = decoded;
        split[b] = Some(PieceKind::Horse);
        let mut unchanged = seen;
        assert!(!twins.follow(&mut unchanged, &split));
        assert_eq!(unchanged, seen);
        // Nor do twins that match no better than the picture's pieces typically do.
        let mut unchanged = seen;
        assert!(!copies(Vec::new()).follow(&mut unchanged, &decoded));
        assert_eq!(unchanged, seen);
    }

    #[test]
    fn where_the_generals_are_copies_strangers_of_the_two_sides_are_not_one_piece() {
        // Glyph 1 for both generals, glyph 0 for a red horse, glyph 2 for a black piece
        // read less surely as a horse, a pawn next: strangers to the red horse.
        let (image, map) = picture(&[(0, 0, 1), (4, 2, 1), (7, 6, 0), (2, 8, 2)]);
        let horse_at = Face::of(&image, &map, 7.0, 6.0);
        let doubtful_at = Face::of(&image, &map, 2.0, 8.0);
        let likeness = horse_at.likeness(&doubtful_at);
        assert!(likeness < STRANGERS_BELOW, "{likeness}");
        let general = piece([0.98, 0.02, 0.0, 0.0, 0.0, 0.0, 0.0]);
        let parted = |generals: [[f32; CLASSES]; 2]| {
            let mut seen = [[0.0; CLASSES]; 90];
            for p in seen.iter_mut() {
                p[0] = 1.0;
            }
            seen[0] = generals[0];
            seen[2 * 9 + 4] = generals[1];
            seen[6 * 9 + 7] = piece([0.0, 0.0, 0.0, 0.97, 0.01, 0.01, 0.01]);
            seen[8 * 9 + 2] = black(piece([0.0, 0.0, 0.0, 0.6, 0.0, 0.0, 0.4]));
            Twins::find(&image, &map, &seen).part(&mut seen);
            seen
        };
        // One general Black's, one Red's: the black piece is not a horse, but a pawn.
        let alike = parted([black(general), general]);
        assert_eq!(best(&alike[8 * 9 + 2]), Some(7 + KINDS));
        assert_eq!(best(&alike[6 * 9 + 7]), Some(4));
        // Both read as Red's, the picture tells nothing of the sides: a horse it stays.
        let unlike = parted([general, general]);
        assert_eq!(best(&unlike[8 * 9 + 2]), Some(4 + KINDS));
    }

    /// How far aside the head of a figure's close copy is drawn, in pixels.
    const HEAD_ASIDE: f32 = 1.0;

    /// Where a figure is drawn: column, row, how far off the point in pixels, and where
    /// its head is.
    type Figure = (u32, u32, (f32, f32), (f32, f32));

    /// A picture 90 pixels to a spacing: on a light board, a figure drawn in thin smooth
    /// outline at each of `pieces`, a ring for the body and a smaller one for the head.
    fn outlines(pieces: &[Figure]) -> (image::RgbImage, Homography) {
        let map = Homography::upright((45.0, 45.0), 90.0);
        let image = image::RgbImage::from_fn(800, 900, |x, y| {
            let mut ink = 0.0f32;
            for &(c, r, (ox, oy), (hx, hy)) in pieces {
                let (dx, dy) = (
                    x as f32 - (45 + 90 * c) as f32 - ox,
                    y as f32 - (45 + 90 * r) as f32 - oy,
                );
                // A stroke two pixels wide, its edge smoothed over a pixel.
                let stroke = |d: f32| (1.5 - d.abs()).clamp(0.0, 1.0);
                ink = ink
                    .max(stroke(dx.hypot(dy - 5.0) - 12.0))
                    .max(stroke((dx - hx).hypot(dy - hy) - 5.0));
            }
            let v = (235.0 - 200.0 * ink) as u8;
            image::Rgb([v, v, v])
        });
        (image, map)
    }

    #[test]
    fn a_symmetric_figure_read_as_a_horse_is_not_one_and_a_head_in_profile_stays() {
        // A figure with its head above its body, drawn off the point, read as a red horse
        // with a pawn next; one with its head to the side, as a horse's in profile, read
        // so for Black; the upright one again, read as a pawn.
        let (image, map) = outlines(&[
            (1, 1, (5.0, 2.0), (0.0, -14.0)),
            (5, 3, (0.0, 0.0), (-14.0, 0.0)),
            (7, 7, (0.0, 0.0), (0.0, -14.0)),
            (3, 5, (0.0, 0.0), (0.0, -14.0)),
        ]);
        let upright = symmetry(&image, &map, 1.0, 1.0);
        let profile = symmetry(&image, &map, 5.0, 3.0);
        assert!(upright >= SYMMETRIC_FROM, "{upright}");
        assert!(profile < SYMMETRIC_FROM, "{profile}");
        let mut seen = [[0.0; CLASSES]; 90];
        for p in seen.iter_mut() {
            p[0] = 1.0;
        }
        let (pawn_like, in_profile, pawn) = (9 + 1, 3 * 9 + 5, 7 * 9 + 7);
        let horse = piece([0.0, 0.0, 0.0, 0.8, 0.0, 0.0, 0.2]);
        seen[pawn_like] = horse;
        seen[in_profile] = black(horse);
        seen[pawn] = piece([0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.9]);
        // Pooled with copies read for the other side: a red pawn likeliest, but a horse of
        // one side or the other likelier still.
        let split = 5 * 9 + 3;
        seen[split] = piece([0.0, 0.0, 0.0, 0.24, 0.0, 0.0, 0.42]);
        seen[split][1 + KINDS + 3] = 0.98 * 0.26;
        seen[split][1 + KINDS + 6] = 0.98 * 0.08;
        let before = seen;
        symmetric_not_horses(&image, &map, &mut seen);
        assert_eq!(best(&seen[split]), Some(7));
        assert!(seen[split][4] < 0.03 && seen[split][4 + KINDS] < 0.03);
        // The upright figure is a pawn now, still Red's, still likelier a piece than not.
        assert_eq!(best(&seen[pawn_like]), Some(7));
        assert!((seen[pawn_like].iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(seen[pawn_like][0] < 0.1);
        assert!(seen[pawn_like][1 + KINDS..].iter().all(|&v| v == 0.0));
        // The head in profile, the upright figure read as a pawn and the empty points
        // are as they were.
        assert_eq!(seen[in_profile], before[in_profile]);
        assert_eq!(seen[pawn], before[pawn]);
        assert_eq!(seen[0], before[0]);
    }

    #[test]
    fn faces_of_the_two_sides_that_match_closely_are_twins() {
        // A figure, its copy drawn a little differently (the head two pixels aside, as
        // one character in two colours of ink comes out), and two others.
        let (image, map) = outlines(&[
            (0, 0, (0.0, 0.0), (0.0, -14.0)),
            (3, 1, (0.0, 0.0), (HEAD_ASIDE, -14.0)),
            (6, 2, (0.0, 0.0), (0.0, 14.0)),
            (2, 6, (0.0, 0.0), (-14.0, 0.0)),
        ]);
        let likeness = Face::of(&image, &map, 0.0, 0.0).likeness(&Face::of(&image, &map, 3.0, 1.0));
        assert!(
            (ACROSS_TWINS_FROM..TWINS_FROM).contains(&likeness),
            "{likeness}"
        );
        let copy = 9 + 3;
        let read = |copy_side: fn([f32; CLASSES]) -> [f32; CLASSES]| {
            let mut seen = [[0.0; CLASSES]; 90];
            for p in seen.iter_mut() {
                p[0] = 1.0;
            }
            seen[0] = piece([0.0, 0.0, 0.0, 0.9, 0.05, 0.05, 0.0]);
            seen[copy] = copy_side(piece([0.0, 0.0, 0.0, 0.35, 0.0, 0.6, 0.05]));
            seen[2 * 9 + 6] = piece([0.0, 0.0, 0.9, 0.0, 0.0, 0.1, 0.0]);
            seen[6 * 9 + 2] = black(piece([0.0, 0.9, 0.0, 0.0, 0.1, 0.0, 0.0]));
            Twins::find(&image, &map, &seen).apply(&mut seen);
            seen
        };
        // Read as Black's, the copy is the red horse's twin: a horse, still Black's.
        let across = read(black);
        assert_eq!(best(&across[copy]), Some(4 + KINDS));
        assert_eq!(best(&across[0]), Some(4));
    }

    #[test]
    fn twins_below_an_almost_exact_match_stand_out_from_the_typical_pair() {
        // Almost exact: twins however alike the picture's pieces are.
        assert!(twins_by(TWINS_FROM, false, 0.01));
        // 0.92 where the typical pair stands at 0.5: twins across the sides, and of one
        // side too (0.08 is under a fifth of 0.5).
        assert!(twins_by(0.92, true, 0.5));
        assert!(twins_by(0.92, false, 0.5));
        // Where the typical pair stands at 0.3: across the sides (under 0.3 of it), not of
        // one side (over a fifth); at 0.2 neither.
        assert!(twins_by(0.92, true, 0.3));
        assert!(!twins_by(0.92, false, 0.3));
        assert!(!twins_by(0.92, true, 0.2));
        // A looser match far closer than the typical pair (a scan's copies) is a twin, but
        // never below CLOSE_TWINS_FROM.
        assert!(twins_by(0.85, false, 0.8));
        assert!(!twins_by(CLOSE_TWINS_FROM - 0.01, true, 1.0));
        // Far apart from the rest but not close: no twins.
        assert!(!twins_by(0.85, true, 0.7));
    }

    #[test]
    fn a_figure_in_thin_outline_matches_its_copy_half_a_sample_off() {
        // One sample is 0.48 / 27 of a spacing, 1.6 pixels: the copy stands 3.5 samples
        // off each way, where whole samples meet its strokes only half.
        let head = (0.0, -14.0);
        let (image, map) = outlines(&[
            (0, 0, (0.0, 0.0), head),
            (3, 1, (5.6, 5.6), head),
            (6, 2, (0.0, 0.0), (6.0, -13.0)),
        ]);
        let a = Face::of(&image, &map, 0.0, 0.0);
        let copy = Face::of(&image, &map, 3.0, 1.0);
        let other = Face::of(&image, &map, 6.0, 2.0);
        assert!(a.likeness(&copy) >= TWINS_FROM, "{}", a.likeness(&copy));
        assert!(copy.likeness(&a) >= TWINS_FROM, "{}", copy.likeness(&a));
        // The head a few pixels aside is another figure.
        assert!(a.likeness(&other) < TWINS_FROM, "{}", a.likeness(&other));
    }

    #[test]
    fn a_face_matches_its_copy_a_few_pixels_off_and_not_another_glyph_or_a_blank() {
        let (image, _) = picture(&[(0, 0, 0), (4, 2, 0), (2, 8, 1)]);
        let map = Homography::upright((30.0, 30.0), 40.0);
        let a = Face::of(&image, &map, 0.0, 0.0);
        // The copy sampled three pixels off its middle.
        let b = Face::of(&image, &map, 4.075, 1.95);
        let c = Face::of(&image, &map, 2.0, 8.0);
        assert!(a.likeness(&b) >= TWINS_FROM, "{}", a.likeness(&b));
        assert!(a.likeness(&c) < TWINS_FROM, "{}", a.likeness(&c));
        let blank = Face::of(&image, &map, 5.0, 5.0);
        assert!(blank.fine.iter().all(|&v| v == 0.0));
        assert!(a.likeness(&blank) < TWINS_FROM);
    }
}

//! Whether the pieces stand where the grid says, judged apart from the classifier.
//!
//! The reader's worst mistakes are silent ones, and nearly all of them come from a grid laid
//! off the board's points (a board found half a spacing aside, or with a wrong spacing):
//! then the classifier looks between the pieces, and most pieces are read, surely, as empty
//! points. On a grid laid right nothing stands between the points: a piece's disc is less
//! than half a spacing wide either way, so the middle of every square shows the board. So
//! the colour of the board at the middles of the squares ([`sides::colours`]: the median of
//! a disc round the place, which lines do not move) is set against the colours of the
//! points the classifier is sure are empty; when many of those middles stand off, pieces
//! stand there, the grid is laid wrong, and every point of the reading is in doubt. The
//! river (its inscription) and the palaces (their diagonals cross in the middles of their
//! squares) are left out, and a chequer, whose squares' middles are its points, is not
//! looked at.
//!
//! The other way round, a point that the board's lines run up to unbroken from every side
//! holds nothing ([`super::grid::Grid::bare`]), whatever stands beside it: the river's
//! words half a spacing off the points of its banks, a coordinate under a point of the
//! edge, a pawn's or cannon's marks. The classifier sees only a patch a spacing wide, and
//! a large word cut by its edge may look like a piece to it; on such points the pieces are
//! made [`BARE_PIECE`] times as likely, which leaves a piece the classifier is all but
//! certain of to the joint decoding.

use super::geometry::Homography;
use super::net::CLASSES;
use super::sides::{self, Colours};

/// A point is one of the empty points the middles are set against when the classifier
/// gives it empty at least this.
const SURELY_EMPTY: f32 = 0.98;
/// With fewer such points the test says nothing.
const FEWEST: usize = 8;
/// The least spread of a colour among the empty points (levels out of 255): a flat drawn
/// board is otherwise so uniform that the faintest shading would stand off.
const LEAST_SPREAD: f32 = 12.0;
/// A middle stands off when one of its face's colours is this many spreads from the
/// empty points' median.
pub const STANDS_OFF_AT: f32 = 4.0;
/// With at least this many middles standing off, the grid is taken to be laid wrong and
/// every point is in doubt. Set on the held-out synthetic boards (`vision_train
/// --flip-margins`), never on pictures of other programs.
pub const ASTRAY_AT: usize = 4;

/// How much likelier than the classifier says a piece is on a point the lines run up to
/// unbroken. Set on the pictures of other programs (`tests/vision/score.py`), where 0.02
/// and 0.002 read the same boards exactly.
pub const BARE_PIECE: f32 = 0.002;

/// Every point of `seen` (class probabilities in picture order) that `bare` says holds
/// nothing: its pieces made [`BARE_PIECE`] times as likely, and the row scaled to sum to one.
pub fn bare_are_empty(seen: &mut [[f32; CLASSES]; 90], bare: &[bool; 90]) {
    for (p, _) in seen.iter_mut().zip(bare).filter(|(_, b)| **b) {
        p[1..].iter_mut().for_each(|q| *q *= BARE_PIECE);
        let sum: f32 = p.iter().sum();
        if sum > 0.0 {
            p.iter_mut().for_each(|q| *q /= sum);
        }
    }
}

/// The middles of the squares looked at, in grid places: every square but the river's and
/// the palaces'.
fn middles() -> impl Iterator<Item = (f64, f64)> {
    (0..9)
        .flat_map(|y| (0..8).map(move |x| (x, y)))
        .filter_map(|(x, y)| {
            let palace = (3..5).contains(&x) && !(2..=6).contains(&y);
            (y != 4 && !palace).then_some((f64::from(x) + 0.5, f64::from(y) + 0.5))
        })
}

/// How many middles of the squares of the grid `map` lays on `image` stand off the points
/// the classifier (`points`, one row of class probabilities a point, in picture order, row
/// by row from the top left, with their `colours`) is sure are empty: each face colour's
/// distance from those points' median, in their spread (1.4826 times the median absolute
/// deviation, at least [`LEAST_SPREAD`]), at least [`STANDS_OFF_AT`]. None when too few
/// points are surely empty.
pub fn astray(
    image: &image::RgbImage,
    map: &Homography,
    points: &[[f32; CLASSES]; 90],
    colours: &[Colours; 90],
) -> usize {
    let empty: Vec<usize> = (0..90).filter(|&i| points[i][0] >= SURELY_EMPTY).collect();
    if empty.len() < FEWEST {
        return 0;
    }
    let mut centre = [0.0f32; 3];
    let mut spread = [0.0f32; 3];
    for f in 0..3 {
        let mut v: Vec<f32> = empty.iter().map(|&i| colours[i][f]).collect();
        let m = median(&mut v);
        let mut d: Vec<f32> = v.iter().map(|x| (x - m).abs()).collect();
        centre[f] = m;
        spread[f] = (1.4826 * median(&mut d)).max(LEAST_SPREAD);
    }
    middles()
        .filter(|&(x, y)| {
            let c = sides::colours(image, map, x, y);
            (0..3).any(|f| (c[f] - centre[f]).abs() >= STANDS_OFF_AT * spread[f])
        })
        .count()
}

/// The middle value of `v` (the upper of the two middle ones), reordering it.
pub(super) fn median(v: &mut [f32]) -> f32 {
    v.sort_by(f32::total_cmp);
    v[v.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recognize::{
        Area, Doubts, decide_with, grid::Grid, read_grid, read_points, synthetic,
    };

    #[test]
    fn a_bare_point_is_read_empty_unless_the_classifier_is_all_but_certain_of_a_piece() {
        let mut seen = [[0.0f32; CLASSES]; 90];
        // A word cut by the patch's edge, taken for a pawn; a piece read beyond doubt; the
        // same hesitant reading on a point whose lines are hidden.
        seen[0][7] = 0.9;
        seen[0][0] = 0.1;
        seen[1][7] = 0.99999;
        seen[1][0] = 0.00001;
        seen[2] = seen[0];
        let mut bare = [false; 90];
        bare[0] = true;
        bare[1] = true;
        bare_are_empty(&mut seen, &bare);
        let best = |p: &[f32; CLASSES]| (0..CLASSES).max_by(|&a, &b| p[a].total_cmp(&p[b]));
        assert_eq!(best(&seen[0]), Some(0), "{:?}", seen[0]);
        assert_eq!(best(&seen[1]), Some(7), "{:?}", seen[1]);
        assert_eq!(seen[2][7], 0.9, "a point that is not bare is left alone");
        for p in &seen[..2] {
            assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn a_grid_laid_half_a_spacing_off_the_points_leaves_every_point_in_doubt() {
        let mut image = synthetic::canvas(560, 600, [250, 250, 250]);
        let map = synthetic::map((60.0, 50.0), 48.0, 0.0, 0.0);
        let style = synthetic::Style {
            pieces: synthetic::start_points(),
            ..synthetic::Style::default()
        };
        synthetic::draw(&mut image, &map, &style);
        let area = Area {
            x: 60,
            y: 50,
            width: 384,
            height: 432,
        };
        // The grid laid right: no middle stands off. (The plain discs carry no characters,
        // so the reading as a whole is unlikely and every point is in doubt all the same.)
        let (seen, colours) = read_points(&image, &map);
        assert!(astray(&image, &map, &seen, &colours) < ASTRAY_AT);
        // The same board with the grid laid half a spacing right and down: the classifier
        // looks between the discs, and its points' own doubts leave points unmarked.
        let off = synthetic::map((84.0, 74.0), 48.0, 0.0, 0.0);
        let (seen, colours) = read_points(&image, &off);
        let points_alone = Doubts {
            whole_nats: f64::INFINITY,
            ..Doubts::SHIPPED
        };
        let alone = decide_with(&seen, Some(&colours), area, &points_alone);
        assert!(alone.uncertain.len() < 90, "{}", alone.uncertain.len());
        // The middles stand off, and the reading of that grid is wholly in doubt.
        assert!(astray(&image, &off, &seen, &colours) >= ASTRAY_AT);
        let wrong = Grid {
            map: off,
            area,
            chequer: false,
            bare: [false; 90],
        };
        assert_eq!(read_grid(&image, &wrong).uncertain.len(), 90);
    }
}

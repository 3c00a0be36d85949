//! Reading a Xiangqi position from a picture (a screenshot, a book diagram, a photo of a
//! screen).
//!
//! The method, in four steps. *Finding* ([`grid`]): on a shrunk grey copy, thin lines are
//! picked out as ridges (darker or lighter than both sides), short ones (strokes of
//! characters, texture) dropped; where long lines gather, profiles summed along slightly
//! tilted rows and columns show the board's 10 rows and 9 columns as the comb of equally
//! spaced peaks with the most evidence, clear of the places between its teeth (11 × 10 for
//! boards that put the pieces in the squares of a chequer). At full resolution every line is
//! then followed between the points, where pieces do not hide it, and a homography fitted to
//! the lines' crossings maps every point, through rotation and perspective; a grid whose
//! squares alternate in colour is a chequer, placed where its squares alternate most; each
//! board found is blanked out and the search repeated, so a page of diagrams gives all of
//! them.
//! *Sampling and classifying* ([`patch`], [`net`]): the square one spacing wide around each
//! of the 90 points is resampled through the homography into a small patch, and a small
//! convolutional network (three 3×3 convolutions, each followed by a 2×2 max-pool, then a
//! dense layer) gives the probability of each of the 15 classes (empty or one of 14
//! pieces). Each point is looked at twice, on the point and a little aside ([`VIEWS`]), each
//! view by both built-in networks (trained from different seeds), and the four readings
//! averaged: one that holds only in one place, or for one network, is not sure; a point
//! still unsure after that is looked at from two more places. A point
//! that the board's lines run up to unbroken from every side holds nothing, whatever the
//! classifier makes of the river's words or a coordinate beside it ([`occupancy`]): its
//! pieces are made far less likely.
//! *Twins* ([`twins`]): a program draws every piece of a kind with the same picture, so the
//! faces of the points read as pieces are compared, a few pixels' shift allowed, and each
//! piece's kind probabilities are pooled with those of the pieces whose faces match it
//! almost exactly: a copy read otherwise than most of its copies is outvoted. Two pieces
//! read as the same piece of a side whose faces are far apart cannot both be it: the one
//! less sure of it is made far less so.
//! *Sides by colour* ([`sides`]): all of one side's pieces in a picture share their colours,
//! so the points read as pieces are split into two groups by the colours of their faces
//! and ink; when the groups are clearly apart, a piece takes its side from its group and its
//! kind from the classifier, and both namings of the groups are decoded (below), the board
//! the classifier's own probabilities find likeliest naming them.
//! *Joint decoding* ([`decode`]): the board must be one the rules accept (one general each in
//! its palace, at most the pieces a side owns, every piece on a point it can reach, the
//! generals not facing); the legal board of highest total log-probability is found exactly
//! as a small transportation problem. *Flip*: the decoding is done both ways up — the
//! picture as Red's view and turned round as Black's — and the more likely wins, so a board
//! shown from Black's side comes back the right way round, marked flipped. *Uncertainty*:
//! points where the legal board differs from the classifier's first choice, or where the chosen
//! class has less than [`decode::UNSURE_BELOW`], or whose side the classifier and the colours'
//! groups disagree on (or that lie between the groups), are reported as uncertain, and the
//! product of the chosen classes' probabilities is the board's confidence; when the two ways up
//! are within [`FLIP_DOUBT_NATS`] of each other, every piece and the point it would stand on
//! the other way up are uncertain too. *Grid off the points* ([`occupancy`]): on a grid laid
//! right nothing stands in the middles of the squares; when several of them stand off in
//! colour from the points the classifier is sure are empty, pieces stand there, the grid is
//! laid wrong, and every point is uncertain. *A reading unlikely as a whole*: when the
//! board's confidence is below `e^-`[`WHOLE_DOUBT_NATS`], the look is one the classifier has
//! not learnt and its point-by-point doubts cannot be trusted: every point is uncertain.
//! *A second look* ([`net::figures`]): some programs draw the pieces as little figures (a
//! crown, a tower, a knight's head …) instead of characters. Networks trained mostly on such
//! figures read characters less well, so they are not the first look: when
//! the first reading is less likely than `e^-`[`SECOND_LOOK_NATS`] as a whole, the board is
//! read again by them and the likelier reading kept.

pub mod decode;
pub mod geometry;
pub mod grid;
pub mod net;
pub mod occupancy;
pub mod patch;
pub mod sides;
#[cfg(test)]
mod synthetic;
pub mod twins;

use crate::{Board, File, PieceKind, Rank, Square};
use std::fmt;
use std::io::Cursor;

/// Where a board lies in the picture, in pixels (its outermost grid lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Area {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// One board read from a picture.
#[derive(Clone, Debug)]
pub struct Reading {
    /// The pieces, the right way round (Red at the bottom), whatever the picture showed.
    pub board: Board,
    /// How sure the reader is of the whole board, 0 to 1.
    pub confidence: f32,
    /// The natural log of the chosen classes' probabilities summed over the points: the
    /// confidence without its floor at the smallest `f32`; below [`WHOLE_DOUBT_NATS`]'s
    /// negative every point is uncertain.
    pub log_probability: f64,
    /// The points whose reading is in doubt (including points the legal decoding changed).
    pub uncertain: Vec<Square>,
    /// Where the board is in the picture.
    pub area: Area,
    /// Whether the picture showed the board from Black's side.
    pub flipped: bool,
    /// How much more likely the chosen way up is than the other, in nats (the difference of
    /// the two decodings' log-probabilities); below [`FLIP_DOUBT_NATS`] the way up is in doubt.
    pub flip_margin: f64,
    /// For every point, in [`Square`] index order (the board the right way round), the
    /// probability of each class of [`net::CLASSES`]: what a correction offers first.
    pub probabilities: Vec<[f32; net::CLASSES]>,
}

/// Why a picture gave no position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The bytes are not a picture this reader decodes (PNG, JPEG, BMP, WebP), or are damaged.
    Unreadable(String),
    /// The picture is larger than the reader accepts.
    TooLarge { width: u32, height: u32 },
    /// The picture (or the board in it) is too small to read.
    TooSmall { width: u32, height: u32 },
    /// No board was found.
    NoBoard,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Unreadable(why) => write!(f, "unreadable picture: {why}"),
            Error::TooLarge { width, height } => write!(f, "picture too large ({width}×{height})"),
            Error::TooSmall { width, height } => write!(f, "board too small ({width}×{height})"),
            Error::NoBoard => write!(f, "no board found"),
        }
    }
}

impl std::error::Error for Error {}

/// The most pixels a picture may have (a 40-megapixel photo).
pub const MAX_PIXELS: u64 = 40_000_000;
/// The longest side a picture may have.
pub const MAX_SIDE: u32 = 16_384;

/// Every board found in `image`, top to bottom, left to right; a picture over [`MAX_PIXELS`]
/// or [`MAX_SIDE`] is refused as too large.
pub fn read(image: &image::RgbImage) -> Result<Vec<Reading>, Error> {
    let (width, height) = image.dimensions();
    // Pixels handed over already decoded (a pasted picture) meet the same bound as a file.
    check_size(width, height)?;
    if width < grid::MIN_BOARD_WIDTH || height < grid::MIN_BOARD_WIDTH {
        return Err(Error::TooSmall { width, height });
    }
    let found = grid::find(image);
    if found.grids.is_empty() {
        return Err(match found.too_small {
            Some(a) => Error::TooSmall {
                width: a.width,
                height: a.height,
            },
            None => Error::NoBoard,
        });
    }
    Ok(found.grids.iter().map(|g| read_grid(image, g)).collect())
}

/// Whether a picture `width` × `height` is within what the reader takes ([`MAX_SIDE`] a
/// side, [`MAX_PIXELS`] in all): asked before the pixels are decoded or copied.
pub fn check_size(width: u32, height: u32) -> Result<(), Error> {
    if width > MAX_SIDE || height > MAX_SIDE || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(Error::TooLarge { width, height });
    }
    Ok(())
}

/// Decodes `bytes` (PNG, JPEG, BMP or WebP) and reads every board in it.
pub fn read_bytes(bytes: &[u8]) -> Result<Vec<Reading>, Error> {
    read(&decode_picture(bytes)?)
}

/// Decodes `bytes` (PNG, JPEG, BMP or WebP) into RGB, transparent parts on white. The size
/// is read from the header first, so a picture over [`MAX_PIXELS`] or [`MAX_SIDE`] is turned
/// away before anything is allocated for it.
pub fn decode_picture(bytes: &[u8]) -> Result<image::RgbImage, Error> {
    // The decoders' reasons may run over several lines; a reason is one line here.
    let unreadable = |e: &dyn fmt::Display| {
        Error::Unreadable(
            e.to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        )
    };
    let reader = || {
        image::ImageReader::new(Cursor::new(bytes))
            .with_guessed_format()
            .map_err(|e| unreadable(&e))
    };
    // Only the header is read here, so no limit is needed yet (a limit would turn the size
    // into a bare refusal without the size).
    let mut header = reader()?;
    header.no_limits();
    let (width, height) = header.into_dimensions().map_err(|e| unreadable(&e))?;
    check_size(width, height)?;
    let mut reader = reader()?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    reader.limits(limits);
    let picture = reader.decode().map_err(|e| unreadable(&e))?;
    if !picture.color().has_alpha() {
        return Ok(picture.to_rgb8());
    }
    let rgba = picture.to_rgba8();
    Ok(image::RgbImage::from_fn(width, height, |x, y| {
        let p = rgba.get_pixel(x, y).0;
        let a = u16::from(p[3]);
        image::Rgb([0, 1, 2].map(|i| ((u16::from(p[i]) * a + 255 * (255 - a)) / 255) as u8))
    }))
}

/// The point the picture's grid place (`x` from the left, `y` from the top) shows, for a
/// picture of Red's view or (`turned`) of Black's.
fn point_of(x: usize, y: usize, turned: bool) -> Square {
    let (file, rank) = if turned { (8 - x, y) } else { (x, 9 - y) };
    Square::new(
        File::new(file as u8).expect("a column of the grid"),
        Rank::new(rank as u8).expect("a row of the grid"),
    )
}

/// When the whole reading is less likely than `e^-SECOND_LOOK_NATS` (its summed log
/// probability below the negative of this), the board is read again by the networks that
/// have learnt pieces drawn as figures ([`net::figures`]), and the likelier of the two
/// readings is kept. A board of characters the first networks know is far surer than this;
/// a board of figures, which they have never seen, is not. The same bound as
/// [`FLIP_DOUBT_NATS`]: a board about as likely as its own turned reading is in doubt too.
pub const SECOND_LOOK_NATS: f64 = 10.0;

/// Reads the board of `grid` in `image`: every point classified and its colours taken, then
/// decoded jointly both ways up; read again with the networks that know figures when that
/// reading is unlikely as a whole ([`SECOND_LOOK_NATS`]).
pub fn read_grid(image: &image::RgbImage, grid: &grid::Grid) -> Reading {
    let mut twins = None;
    let first = read_grid_by(net::embedded(), false, image, grid, &mut twins);
    if first.log_probability >= -SECOND_LOOK_NATS {
        return first;
    }
    match net::figures() {
        Some(network) => {
            let second = read_grid_by(Some(network), true, image, grid, &mut twins);
            if second.log_probability > first.log_probability {
                second
            } else {
                first
            }
        }
        None => first,
    }
}

/// [`read_grid`] with the networks `network` alone (`None`: every point read empty).
pub fn read_grid_with(
    network: Option<&net::Ensemble>,
    image: &image::RgbImage,
    grid: &grid::Grid,
) -> Reading {
    read_grid_by(network, false, image, grid, &mut None)
}

/// [`read_grid_with`], the pieces' kinds pooled with their twins' and parted from their
/// strangers' ([`twins`]): `twins` are found from this reading when not yet known (a second
/// look keeps the first's). On the second look (`figures`), faces read as horses that are
/// their own mirror images are not taken for horses ([`twins::symmetric_not_horses`]).
fn read_grid_by(
    network: Option<&net::Ensemble>,
    figures: bool,
    image: &image::RgbImage,
    grid: &grid::Grid,
    twins: &mut Option<twins::Twins>,
) -> Reading {
    let (mut seen, colours) = read_points_by(network, image, &grid.map);
    occupancy::bare_are_empty(&mut seen, &grid.bare);
    let twins = twins.get_or_insert_with(|| twins::Twins::find(image, &grid.map, &seen));
    twins.apply(&mut seen);
    if figures {
        twins::symmetric_not_horses(image, &grid.map, &mut seen);
    }
    let mut reading = decide_coloured(&seen, &colours, grid.area);
    let decoded: [Option<PieceKind>; 90] = std::array::from_fn(|i| {
        let point = point_of(i % 9, i / 9, reading.flipped);
        reading.board.get(point).map(|p| p.kind)
    });
    if twins.follow(&mut seen, &decoded) {
        reading = decide_coloured(&seen, &colours, grid.area);
    }
    // A grid laid off the points reads most pieces as empty points, surely: when things
    // stand between the points, nothing of the reading is sure.
    if !grid.chequer {
        let astray = occupancy::astray(image, &grid.map, &seen, &colours);
        if astray >= occupancy::ASTRAY_AT {
            reading.uncertain = Square::ALL.to_vec();
        }
    }
    reading
}

/// Every point's class probabilities and colour figures, in picture order (row by row from
/// the top left), for the grid `map` lays on `image`, by the built-in networks.
pub fn read_points(
    image: &image::RgbImage,
    map: &geometry::Homography,
) -> ([[f32; net::CLASSES]; 90], [sides::Colours; 90]) {
    read_points_by(net::embedded(), image, map)
}

/// [`read_points`] by `network` (`None`: every point read empty, with no colours).
fn read_points_by(
    network: Option<&net::Ensemble>,
    image: &image::RgbImage,
    map: &geometry::Homography,
) -> ([[f32; net::CLASSES]; 90], [sides::Colours; 90]) {
    match network {
        Some(network) => read_points_with(network, &VIEWS, image, map),
        None => {
            let mut seen = [[0.0f32; net::CLASSES]; 90];
            for p in seen.iter_mut() {
                p[0] = 1.0;
            }
            (seen, [[0.0; sides::FIGURES]; 90])
        }
    }
}

/// Where the classifier looks at each point, in spacings off the point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Views<'a> {
    /// Every point is looked at from these.
    pub every: &'a [(f64, f64)],
    /// A point whose likeliest class from those has less than `unsure_below` is looked at
    /// from these too, and its probabilities are the mean over all of them.
    pub unsure: &'a [(f64, f64)],
    /// See `unsure`.
    pub unsure_below: f32,
}

/// The reader's views: every point on itself and once more a little aside (within the
/// board finder's usual error, which training draws too); a reading that holds only in
/// one place is not sure, as the views' probabilities are averaged. A point still unsure
/// after those two is looked at from two more places, the other diagonal: a small
/// board's JPEG blocks or a scan's grain are as big as a character's strokes, and what
/// they make of one patch they seldom make of four. Only the few unsure points (about
/// one in eight) pay for the two more.
pub const VIEWS: Views<'static> = Views {
    every: &[(0.0, 0.0), (0.06, 0.06)],
    unsure: &[(-0.06, 0.06), (0.06, -0.06)],
    unsure_below: 0.9,
};

/// [`read_points`] with `network`, each point's probabilities the mean over the patches at
/// the offsets `views` gives (in spacings), each patch read by every network of the
/// ensemble: neither one network's nor one place's mistake is sure.
pub fn read_points_with(
    network: &net::Ensemble,
    views: &Views,
    image: &image::RgbImage,
    map: &geometry::Homography,
) -> ([[f32; net::CLASSES]; 90], [sides::Colours; 90]) {
    let mut patch = vec![0.0f32; patch::LEN];
    let mut seen = [[0.0f32; net::CLASSES]; 90];
    let mut colours = [[0.0f32; sides::FIGURES]; 90];
    let members = &network.members;
    // The probabilities summed over `offsets`, each patch read by every network.
    let mut summed = |(gx, gy): (f64, f64), offsets: &[(f64, f64)]| {
        let mut sum = [0.0f32; net::CLASSES];
        for &(dx, dy) in offsets {
            patch::sample(image, map, gx + dx, gy + dy, &mut patch);
            for member in members {
                for (p, q) in sum.iter_mut().zip(member.classify(&patch)) {
                    *p += q;
                }
            }
        }
        sum
    };
    for y in 0..10 {
        for x in 0..9 {
            let at = (x as f64, y as f64);
            colours[y * 9 + x] = sides::colours(image, map, at.0, at.1);
            // No view or no network: nothing is read (every class at 0).
            let mut sum = summed(at, views.every);
            let mut count = views.every.len() * members.len();
            let likeliest = sum.iter().copied().fold(0.0, f32::max) / count.max(1) as f32;
            if likeliest < views.unsure_below && !views.unsure.is_empty() {
                for (p, q) in sum.iter_mut().zip(summed(at, views.unsure)) {
                    *p += q;
                }
                count += views.unsure.len() * members.len();
            }
            let share = 1.0 / count.max(1) as f32;
            seen[y * 9 + x] = sum.map(|p| p * share);
        }
    }
    (seen, colours)
}

/// When the two ways up are closer than this (in nats of the boards' log-probabilities),
/// the way up is in doubt: every piece read and the point it would stand on the other way
/// up are marked uncertain, since a wrong way up turns every one of those points wrong. Set
/// on boards of the held-out synthetic styles (`vision_train --flip-margins`), never on
/// pictures from other programs.
pub const FLIP_DOUBT_NATS: f64 = 10.0;

/// When the whole reading is less likely than `e^-WHOLE_DOUBT_NATS` (its summed log
/// probability below the negative of this), nothing of it is sure and every point is
/// uncertain. On a look the classifier has never learnt its doubts come point by point,
/// and many points are then read wrong, surely; but their combined probability falls far
/// below that of any board read right. Set on boards of the held-out synthetic styles
/// (`vision_train --flip-margins`), never on pictures from other programs.
pub const WHOLE_DOUBT_NATS: f64 = 30.0;

/// The reading of a board from its points' probabilities in picture order (row by row from
/// the top left): whichever way up is more likely. Without the points' colours the sides
/// are the classifier's alone.
pub fn decide(seen: &[[f32; net::CLASSES]; 90], area: Area) -> Reading {
    decide_with(seen, None, area, &Doubts::SHIPPED)
}

/// [`decide`] with the sides told apart by the points' `colours` too ([`sides`]).
pub fn decide_coloured(
    seen: &[[f32; net::CLASSES]; 90],
    colours: &[sides::Colours; 90],
    area: Area,
) -> Reading {
    decide_with(seen, Some(colours), area, &Doubts::SHIPPED)
}

/// When a reading's points are marked uncertain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Doubts {
    /// The way up is in doubt below this lead, in nats.
    pub flip_nats: f64,
    /// Every point is in doubt when the reading's log probability is below the negative
    /// of this.
    pub whole_nats: f64,
    /// The points' own doubts.
    pub marking: decode::Marking,
}

impl Doubts {
    /// The reader's: [`FLIP_DOUBT_NATS`], [`WHOLE_DOUBT_NATS`] and [`decode::Marking::SHIPPED`].
    pub const SHIPPED: Doubts = Doubts {
        flip_nats: FLIP_DOUBT_NATS,
        whole_nats: WHOLE_DOUBT_NATS,
        marking: decode::Marking::SHIPPED,
    };
}

/// [`decide`], with the sides by `colours` when given, and the points in doubt by `doubts`
/// (what the calibration tries).
pub fn decide_with(
    seen: &[[f32; net::CLASSES]; 90],
    colours: Option<&[sides::Colours; 90]>,
    area: Area,
    doubts: &Doubts,
) -> Reading {
    let arranged = |seen: &[[f32; net::CLASSES]; 90], turned: bool| {
        let mut points = [[0.0f32; net::CLASSES]; 90];
        for y in 0..10 {
            for x in 0..9 {
                points[point_of(x, y, turned).index() as usize] = seen[y * 9 + x];
            }
        }
        points
    };
    // Each way of naming the colours' groups (or, when they tell nothing, the classifier's
    // sides alone) gives the probabilities to decode, the points whose side is in doubt,
    // and what the discs' shades say for the naming.
    let mut namings = Vec::new();
    match colours.map(|c| (sides::group(seen, c), c)) {
        Some((grouped, colours)) if grouped.told() => {
            for g in [grouped.clone(), grouped.swapped()] {
                let mut adjusted = *seen;
                adjusted.copy_from_slice(&sides::apply(seen, &g));
                let prior = sides::lighter_red_nats(&g, colours);
                namings.push((adjusted, sides::doubtful(seen, &g), prior));
            }
        }
        _ => namings.push((*seen, Vec::new(), 0.0)),
    }
    // Every naming is decoded both ways up; the boards are weighed by the classifier's own
    // probabilities, so that its side votes name the groups, together with what the rules
    // allow each way up (a group named wrongly reads as well turned round).
    // The classifier's own points each way up, arranged once for every naming's weighing.
    let plain = [arranged(seen, false), arranged(seen, true)];
    let mut best: [Option<(f64, decode::Decoding, usize)>; 2] = [None, None];
    for (k, (adjusted, _, prior)) in namings.iter().enumerate() {
        for turned in [false, true] {
            let decoded = decode::decode(&arranged(adjusted, turned));
            let weight =
                prior + decode::log_probability(&plain[usize::from(turned)], &decoded.classes);
            let slot = &mut best[usize::from(turned)];
            if slot.as_ref().is_none_or(|b| weight > b.0) {
                *slot = Some((weight, decoded, k));
            }
        }
    }
    let [Some(a), Some(b)] = best else {
        unreachable!("every naming is decoded both ways up")
    };
    let flipped = b.0 > a.0;
    let flip_margin = (a.0 - b.0).abs();
    let (_, best, k) = if flipped { b } else { a };
    let (adjusted, side_doubts, _) = &namings[k];
    let points = arranged(adjusted, flipped);
    let side_doubts: Vec<Square> = side_doubts
        .iter()
        .map(|&i| point_of(i % 9, i / 9, flipped))
        .collect();
    let mut uncertain = decode::marks(&points, &best.classes, &doubts.marking, &side_doubts);
    if flip_margin < doubts.flip_nats {
        let mut doubt: Vec<Square> = best.board.pieces().map(|(s, _)| s).collect();
        doubt.extend(doubt.clone().into_iter().map(|s| s.mirror().flip()));
        uncertain.extend(doubt);
    }
    if best.log_probability < -doubts.whole_nats {
        uncertain = Square::ALL.to_vec();
    }
    uncertain.sort_by_key(|s| s.index());
    uncertain.dedup();
    Reading {
        board: best.board,
        confidence: best.confidence,
        log_probability: best.log_probability,
        uncertain,
        area,
        flipped,
        flip_margin,
        probabilities: points.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn decoded_pixels_over_the_bound_are_refused_as_too_large() {
        let wide = image::RgbImage::new(super::MAX_SIDE + 1, 1);
        assert_eq!(
            super::read(&wide).unwrap_err(),
            super::Error::TooLarge {
                width: super::MAX_SIDE + 1,
                height: 1
            }
        );
    }

    use super::*;
    use crate::{Color, Piece, PieceKind};

    /// Probabilities in picture order, sure of every point: `pieces` at (column, row from the
    /// top), the rest empty.
    fn seen(pieces: &[((usize, usize), Piece)]) -> [[f32; net::CLASSES]; 90] {
        let mut t = [[0.0; net::CLASSES]; 90];
        for p in t.iter_mut() {
            p[0] = 1.0;
        }
        for &((x, y), piece) in pieces {
            t[y * 9 + x] = [0.0; net::CLASSES];
            t[y * 9 + x][net::class_of(Some(piece))] = 1.0;
        }
        t
    }

    const AREA: Area = Area {
        x: 0,
        y: 0,
        width: 400,
        height: 450,
    };

    #[test]
    fn a_board_seen_from_blacks_side_comes_back_turned_round() {
        let red = |kind| Piece::new(Color::Red, kind);
        let black = |kind| Piece::new(Color::Black, kind);
        // Red's general and a pawn in the top half, Black's general and an advisor at the
        // bottom: Black's view.
        let picture = seen(&[
            ((3, 0), red(PieceKind::General)),
            ((0, 3), red(PieceKind::Pawn)),
            ((4, 9), black(PieceKind::General)),
            ((4, 8), black(PieceKind::Advisor)),
        ]);
        let r = decide(&picture, AREA);
        assert!(r.flipped);
        let at = |s: &str| r.board.get(s.parse().unwrap());
        // Picture column 3 of the top row is file f (8 − 3) on rank 0.
        assert_eq!(at("f0"), Some(red(PieceKind::General)));
        assert_eq!(at("i3"), Some(red(PieceKind::Pawn)));
        assert_eq!(at("e9"), Some(black(PieceKind::General)));
        assert_eq!(at("e8"), Some(black(PieceKind::Advisor)));
        assert!(r.uncertain.is_empty());
        let f0: Square = "f0".parse().unwrap();
        assert_eq!(
            r.probabilities[f0.index() as usize][net::class_of(Some(red(PieceKind::General)))],
            1.0
        );
    }

    #[test]
    fn when_both_ways_up_are_about_as_likely_every_piece_and_its_turned_point_is_uncertain() {
        let rook = Piece::new(Color::Red, PieceKind::Rook);
        // A general at the bottom and one at the top, each as likely Red's as Black's, so
        // the picture reads as well either way up; the rook is sure of itself.
        let mut picture = seen(&[((0, 5), rook)]);
        for (x, y) in [(3, 9), (5, 0)] {
            picture[y * 9 + x] = [0.0; net::CLASSES];
            picture[y * 9 + x][net::class_of(Some(Piece::new(Color::Red, PieceKind::General)))] =
                0.5;
            picture[y * 9 + x][net::class_of(Some(Piece::new(Color::Black, PieceKind::General)))] =
                0.5;
        }
        let r = decide(&picture, AREA);
        assert!(r.flip_margin < 1e-6, "{}", r.flip_margin);
        let rook_at = if r.flipped { "i5" } else { "a4" };
        assert_eq!(r.board.get(rook_at.parse().unwrap()), Some(rook));
        // The rook's point and the point it would be on the other way up.
        for s in ["a4", "i5", "d0", "f9"] {
            assert!(
                r.uncertain.contains(&s.parse().unwrap()),
                "{s}: {:?}",
                r.uncertain
            );
        }
        assert_eq!(r.uncertain.len(), 4);
        // Sure generals leave no doubt about the way up.
        let sure = seen(&[
            ((0, 5), rook),
            ((3, 9), Piece::new(Color::Red, PieceKind::General)),
            ((5, 0), Piece::new(Color::Black, PieceKind::General)),
        ]);
        let r = decide(&sure, AREA);
        assert!(r.flip_margin > FLIP_DOUBT_NATS && !r.flipped);
        assert!(r.uncertain.is_empty(), "{:?}", r.uncertain);
    }

    #[test]
    fn a_reading_unlikely_as_a_whole_puts_every_point_in_doubt() {
        // The starting position seen from Red's side, every piece's class at `p` and the
        // rest spread over the other pieces, every empty point sure.
        let start = crate::Board::startpos();
        let picture = |p: f32| {
            let mut t = seen(&[]);
            for (sq, piece) in start.pieces() {
                let (x, y) = (sq.file().index() as usize, 9 - sq.rank().index() as usize);
                let class = net::class_of(Some(piece));
                t[y * 9 + x] = [(1.0 - p) / (net::CLASSES - 2) as f32; net::CLASSES];
                t[y * 9 + x][0] = 0.0;
                t[y * 9 + x][class] = p;
            }
            t
        };
        // 32 pieces at 0.45: about −25.6 nats, above the threshold. The pieces are in
        // doubt (each below the points' own threshold), the sure empty points are not.
        let likely = decide(&picture(0.45), AREA);
        assert_eq!(likely.board, start);
        assert!(likely.log_probability > -WHOLE_DOUBT_NATS);
        assert_eq!(likely.uncertain.len(), 32, "{:?}", likely.uncertain);
        // At 0.35 each: about −33.6 nats. The same board, and nothing of it sure.
        let unlikely = decide(&picture(0.35), AREA);
        assert_eq!(unlikely.board, start);
        assert!(unlikely.log_probability < -WHOLE_DOUBT_NATS);
        assert_eq!(unlikely.uncertain, Square::ALL.to_vec());
    }

    #[test]
    fn a_board_seen_from_reds_side_is_kept_as_it_is() {
        let picture = seen(&[
            ((4, 9), Piece::new(Color::Red, PieceKind::General)),
            ((3, 0), Piece::new(Color::Black, PieceKind::General)),
        ]);
        let r = decide(&picture, AREA);
        assert!(!r.flipped);
        assert_eq!(
            r.board.get("e0".parse().unwrap()),
            Some(Piece::new(Color::Red, PieceKind::General))
        );
        assert_eq!(
            r.board.get("d9".parse().unwrap()),
            Some(Piece::new(Color::Black, PieceKind::General))
        );
    }

    #[test]
    fn a_picture_smaller_than_a_readable_board_is_too_small() {
        let tiny = image::RgbImage::new(120, 400);
        assert_eq!(
            read(&tiny).unwrap_err(),
            Error::TooSmall {
                width: 120,
                height: 400
            }
        );
    }

    #[test]
    fn every_board_drawn_is_read_with_its_area() {
        use synthetic::Style;
        let mut image = synthetic::canvas(900, 520, [250, 250, 250]);
        let style = Style {
            pieces: synthetic::start_points(),
            ..Style::default()
        };
        synthetic::draw(
            &mut image,
            &synthetic::map((40.0, 40.0), 45.0, 0.0, 0.0),
            &style,
        );
        synthetic::draw(
            &mut image,
            &synthetic::map((500.0, 60.0), 40.0, 1.0, 0.0),
            &style,
        );
        let readings = read(&image).unwrap();
        assert_eq!(readings.len(), 2);
        assert_eq!((readings[0].area.x, readings[0].area.y), (40, 40));
        assert_eq!(readings[0].area.width, 360);
        assert!(
            readings[1].area.x.abs_diff(494) <= 2,
            "{:?}",
            readings[1].area
        );
        for r in &readings {
            assert_eq!(r.probabilities.len(), 90);
        }
        let noise = image::RgbImage::from_fn(600, 400, |x, y| {
            let v = ((x * 7919 + y * 104_729) % 251) as u8;
            image::Rgb([v, v, v])
        });
        assert_eq!(read(&noise).unwrap_err(), Error::NoBoard);
    }

    #[test]
    fn a_board_of_figures_is_read_again_by_the_networks_that_know_them() {
        use net::synth;
        // Boards drawn with figures instead of characters, in a look training draws with
        // figures (the held-out ones never are).
        let fonts = synth::Fonts::app_only();
        let style = synth::Style {
            font: "chuhe-kai",
            disc: synth::Disc::Flat,
            scheme: synth::Scheme::Paper,
        };
        let wrong_in = |reading: &Reading, board: &crate::Board| {
            Square::ALL
                .iter()
                .filter(|&&sq| reading.board.get(sq) != board.get(sq))
                .count()
        };
        let mut rng = crate::play::Rng::new(5);
        let (mut boards, mut first_wrong, mut wrong, mut second_looks) = (0, 0, 0, 0);
        for _ in 0..400 {
            let board = synth::random_board(&mut rng);
            let drawn = synth::draw_board_with(
                &fonts,
                &style,
                &board,
                40.0,
                &synth::Augment::NONE,
                synth::FIGURE_SHARE,
                &mut rng,
            );
            if !drawn.figures {
                continue;
            }
            let found = grid::find(&drawn.image);
            assert_eq!(found.grids.len(), 1, "board {boards}");
            let grid = &found.grids[0];
            let first = read_grid_with(net::embedded(), &drawn.image, grid);
            let reading = read_grid(&drawn.image, grid);
            first_wrong += wrong_in(&first, &drawn.board);
            wrong += wrong_in(&reading, &drawn.board);
            second_looks += usize::from(first.log_probability < -SECOND_LOOK_NATS);
            boards += 1;
            if boards == 6 {
                break;
            }
        }
        assert_eq!(boards, 6);
        // The first networks, which have never seen figures, doubt every such board and
        // misread many points; the second look reads nearly all of them.
        assert_eq!(second_looks, boards);
        assert!(
            wrong * 10 <= first_wrong,
            "{wrong} wrong points against {first_wrong}"
        );
        assert!(wrong <= boards, "{wrong} wrong points on {boards} boards");
    }
}

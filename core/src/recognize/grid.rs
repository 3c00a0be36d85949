//! Finding boards: where the 9×10 points of each board in a picture lie.
//!
//! The search works on a grey copy shrunk to about 600 000 pixels. There, every pixel gets
//! the strength of a thin horizontal and of a thin vertical line through it (a ridge: darker
//! or lighter than both neighbours two pixels away, so the edges of discs and of filled
//! areas give nothing), and only runs of such pixels at least eight long are kept: board
//! lines run between the pieces, the strokes of characters are short. Connected groups of
//! long runs are the candidate places of boards. In each, the kept strength is summed along
//! lines tilted by −3° to 3° (projection profiles); the tilt with the sharpest profile wins,
//! and the 10 equally spaced rows (11 for a chequer) with the most evidence are the comb
//! that fits best over every spacing and offset. The columns are found the same way within
//! those rows, then the rows again within the columns. A comb must stand out from the
//! half-way places between its teeth, or the candidate is something else (text, a photo).
//!
//! At full resolution each line is then followed on its own: between neighbouring points
//! (where pieces do not hide it) the strongest ridge across the predicted line is taken,
//! a straight line is fitted to those places by least squares with the outliers dropped,
//! the lines' crossings give every point, and a projective map (a homography) is fitted to
//! them. Two rounds of this absorb rotation and perspective. A board is accepted when most
//! of the places along its lines showed the line. The comb can settle a column off (an
//! outer column drawn double beside a frame, or hidden by pieces, and a frame or a panel's
//! edge a spacing beyond the other): only the two outer columns cross the river, so where
//! column lines show in the river, eight apart, moves the grid onto the board's columns.
//! The rows can settle one off the same way (an outer row hidden by pieces, a title bar's
//! edge a spacing beyond the other): the river is the gap the inner columns do not cross,
//! so it is looked for in the gaps either side of the middle one first. Its area is then
//! blanked out and the candidate searched again, so a page of several diagrams gives each
//! of them. Where nothing is found, the search is made again on the picture smoothed a
//! little (a scan's grain breaks thin lines into runs too short to keep), and then keeping
//! nothing but the long runs, down to half the level: in heavy grain the weak evidence of
//! every pixel joins the whole page into one place and outweighs a small board's lines.
//!
//! Boards that put the pieces in the squares of a chequer have 11 rows and 10 columns of
//! lines (or edges between coloured squares: a second search uses steps instead of ridges
//! when the first finds nothing, on the smoothed copy too); their points are the centres of
//! the squares. The lines of a chequer's coloured squares are often taken for a board of
//! points (their edges are no thin lines, so only some were counted): every grid found is
//! checked for squares whose colours alternate, and if they do, the nine by ten squares
//! that alternate most are the board, whichever lines were found (of the windows that
//! alternate nearly as much, the one whose four outer lines of squares alternate too: a
//! margin beside the board is one colour all along). The colours are taken
//! near the squares' corners, where pieces do not stand, and each half of the board is a
//! chequer of its own (some boards turn it over at the river). On a faint chequer drawn
//! without lines between its squares, the band along the river and the palaces' outlines
//! stand so far above the squares' edges that the combs count no line more each way, and
//! take the chequer's inner lines for a board of points that shows few of them: there, the
//! grid one line more each way is followed by the edges between squares, and where its
//! squares alternate it is the board, once every search is done, in place of a grid of
//! points at its place that showed few of its lines (or where nothing else was found).

use super::Area;
use super::geometry::Homography;
use image::RgbImage;

/// One board's grid found in a picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// From grid places (column from the picture's left, row from its top) to pixels.
    pub map: Homography,
    /// The bounding box of the board's outermost lines.
    pub area: Area,
    /// Whether the pieces stand in the squares of a chequer rather than on crossing lines.
    pub chequer: bool,
    /// The points, in picture order (row by row from the top left), that the board's lines
    /// run up to unbroken from every side they come from: nothing stands on them
    /// ([`bare_points`]). None on a chequer.
    pub bare: [bool; 90],
}

/// What the search found in a picture.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Found {
    /// The boards large enough to read, top to bottom, left to right.
    pub grids: Vec<Grid>,
    /// The largest board found that was too small to read, if any.
    pub too_small: Option<Area>,
}

/// The narrowest board (in pixels between its outer columns) that is read.
pub const MIN_BOARD_WIDTH: u32 = 150;
/// Boards down to this width are still looked for, to tell "too small" from "no board".
const SMALLEST_LOOKED_FOR: f64 = 90.0;
/// The search works on a copy of about this many pixels.
const WORKING_PIXELS: f64 = 600_000.0;
/// A ridge kept in the search must run at least this many working pixels.
const MIN_RUN: usize = 8;
/// At most this many boards are taken from one picture.
const MAX_BOARDS: usize = 12;

/// Finds every board in `image`.
pub fn find(image: &RgbImage) -> Found {
    let full = Gray::of(image);
    let mut search = lines_or_edges(&full, Runs::AndWeaker);
    if search.found.grids.is_empty() {
        // A noisy scan of a small board breaks its thin lines into runs too short to
        // keep; smoothed a little, the lines come back while the noise fades (and a
        // chequer without lines in grain shows its squares' edges). Where the grain is
        // strong enough that its runs join the whole picture into one place of lines and
        // outweigh a small board's faint lines in every profile, only the long runs are
        // kept, down to half the usual level. Where that finds nothing either, the lines
        // are followed as faint ones ([`Gray::faint`]): last, since on a picture whose board
        // the other passes find, following its lines so can lay a chequer a row off.
        let mut smooth = full.smoothed();
        let passes = [
            (false, Runs::AndWeaker),
            (false, Runs::Only),
            (true, Runs::AndWeaker),
            (true, Runs::Only),
        ];
        for (faint, runs) in passes {
            if !search.found.grids.is_empty() {
                break;
            }
            smooth.faint = faint;
            let mut again = lines_or_edges(&smooth, runs);
            again.squares.append(&mut search.squares);
            if !again.found.grids.is_empty() || search.found.too_small.is_none() {
                search = again;
            } else {
                search.squares = again.squares;
            }
        }
    }
    let mut found = search.chequers_kept();
    // Reading order: boards whose rows overlap are side by side, the left one first.
    found.grids.sort_by(|a, b| {
        let overlap =
            a.area.y < b.area.y + b.area.height / 2 && b.area.y < a.area.y + a.area.height / 2;
        if overlap {
            a.area.x.cmp(&b.area.x)
        } else {
            a.area.y.cmp(&b.area.y)
        }
    });
    found
}

/// A grey picture, 0 (black) to 255 (white).
struct Gray {
    w: usize,
    h: usize,
    px: Vec<f32>,
    /// Whether the lines are followed as faint ones, as on a grainy scan: averaged along
    /// them first, and down to a fainter level ([`strongest_across`]).
    faint: bool,
}

impl Gray {
    fn of(image: &RgbImage) -> Gray {
        let px = image
            .pixels()
            .map(|p| 0.299 * f32::from(p[0]) + 0.587 * f32::from(p[1]) + 0.114 * f32::from(p[2]))
            .collect();
        Gray {
            w: image.width() as usize,
            h: image.height() as usize,
            px,
            faint: false,
        }
    }

    /// The picture blurred by a binomial kernel (1 4 6 4 1, about a pixel's deviation)
    /// along rows and then columns, edges continued outwards.
    fn smoothed(&self) -> Gray {
        const KERNEL: [f32; 5] = [1.0 / 16.0, 4.0 / 16.0, 6.0 / 16.0, 4.0 / 16.0, 1.0 / 16.0];
        let (w, h) = (self.w, self.h);
        let mut rows = vec![0.0; w * h];
        for y in 0..h {
            let src = &self.px[y * w..(y + 1) * w];
            for x in 0..w {
                rows[y * w + x] = KERNEL
                    .iter()
                    .enumerate()
                    .map(|(k, weight)| weight * src[(x + k).saturating_sub(2).min(w - 1)])
                    .sum();
            }
        }
        let mut px = vec![0.0; w * h];
        for y in 0..h {
            for x in 0..w {
                px[y * w + x] = KERNEL
                    .iter()
                    .enumerate()
                    .map(|(k, weight)| weight * rows[(y + k).saturating_sub(2).min(h - 1) * w + x])
                    .sum();
            }
        }
        Gray {
            w,
            h,
            px,
            faint: false,
        }
    }

    /// The picture shrunk `f` times by averaging `f`×`f` blocks.
    fn shrunk(&self, f: usize) -> Gray {
        if f == 1 {
            return Gray {
                w: self.w,
                h: self.h,
                px: self.px.clone(),
                faint: self.faint,
            };
        }
        let (w, h) = (self.w / f, self.h / f);
        let mut px = vec![0.0; w * h];
        let scale = 1.0 / (f * f) as f32;
        for y in 0..h {
            let row = &mut px[y * w..(y + 1) * w];
            for dy in 0..f {
                let src = &self.px[(y * f + dy) * self.w..][..w * f];
                for (x, out) in row.iter_mut().enumerate() {
                    *out += src[x * f..x * f + f].iter().sum::<f32>();
                }
            }
            for v in row.iter_mut() {
                *v *= scale;
            }
        }
        Gray {
            w,
            h,
            px,
            faint: self.faint,
        }
    }

    #[inline]
    fn at(&self, x: isize, y: isize) -> f32 {
        let x = x.clamp(0, self.w as isize - 1) as usize;
        let y = y.clamp(0, self.h as isize - 1) as usize;
        self.px[y * self.w + x]
    }

    /// How strongly a line across direction (`dx`, `dy`) passes through (`x`, `y`): for
    /// [`Evidence::Ridge`] the amount the pixel is darker or lighter than both pixels `r`
    /// away, for [`Evidence::Step`] the difference between its two neighbours.
    #[inline]
    fn response(
        &self,
        kind: Evidence,
        x: isize,
        y: isize,
        (dx, dy): (isize, isize),
        r: isize,
    ) -> f32 {
        kind.of(|o| self.at(x + dx * o, y + dy * o), r)
    }
}

/// What marks a board's lines: thin lines, or edges between coloured squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Evidence {
    Ridge,
    Step,
}

impl Evidence {
    /// How strongly a line passes through the place where `grey(0)` is taken, `grey(o)`
    /// being the grey `o` pixels across: as [`Gray::response`] measures it.
    fn of(self, grey: impl Fn(isize) -> f32, r: isize) -> f32 {
        match self {
            Evidence::Ridge => {
                let (a, b, c) = (grey(-r), grey(r), grey(0));
                (a.min(b) - c).max(0.0) + (c - a.max(b)).max(0.0)
            }
            Evidence::Step => {
                let d = (r / 2).max(1);
                (grey(d) - grey(-d)).abs()
            }
        }
    }
}

/// A rectangle of working pixels, `x0..x1` × `y0..y1`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

impl Rect {
    fn overlaps(&self, o: &Rect, gap: usize) -> bool {
        self.x0 <= o.x1 + gap
            && o.x0 <= self.x1 + gap
            && self.y0 <= o.y1 + gap
            && o.y0 <= self.y1 + gap
    }

    fn union(&self, o: &Rect) -> Rect {
        Rect {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }
}

/// The long-line evidence of the working picture.
struct Maps {
    w: usize,
    h: usize,
    /// Horizontal lines.
    across: Vec<f32>,
    /// Vertical lines.
    down: Vec<f32>,
}

/// Which evidence a search keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Runs {
    /// The long runs above [`strong_level`], and every pixel below it as it is: the weak
    /// evidence of the lines between them counts in the profiles.
    AndWeaker,
    /// Only the long runs, at half the share of the strongest evidence.
    Only,
}

/// The boards in `full` by its thin lines, or where those give none (not even one too
/// small), by the edges between coloured squares.
fn lines_or_edges(full: &Gray, runs: Runs) -> Search {
    let mut lines = search(full, Evidence::Ridge, runs);
    if lines.found.grids.is_empty() && lines.found.too_small.is_none() {
        let mut edges = search(full, Evidence::Step, runs);
        edges.squares.append(&mut lines.squares);
        edges
    } else {
        lines
    }
}

/// What one search found, with what [`find`] weighs it by.
#[derive(Default)]
struct Search {
    found: Found,
    /// The share of its lines each of `found`'s grids showed.
    support: Vec<f64>,
    /// Chequers whose squares alternate, found where a grid of points showed few of its
    /// lines ([`Coarse::as_chequers`]), with the share of their lines each showed.
    squares: Vec<(Grid, f64)>,
}

impl Search {
    /// The boards found, a chequer of [`Search::squares`] taken instead of a grid of points
    /// in its place that showed few of its lines, or where nothing else was found.
    fn chequers_kept(self) -> Found {
        let Search {
            mut found,
            mut support,
            squares,
        } = self;
        for (square, shown) in squares {
            if square.area.width < MIN_BOARD_WIDTH || found.grids.len() >= MAX_BOARDS {
                continue;
            }
            match found
                .grids
                .iter()
                .position(|g| overlap(&g.area, &square.area))
            {
                Some(k) if shows_few_lines(&found.grids[k], support[k]) => {
                    (found.grids[k], support[k]) = (square, shown);
                }
                Some(_) => {}
                None => {
                    found.grids.push(square);
                    support.push(shown);
                }
            }
        }
        found
    }
}

/// Whether `grid`, whose lines showed at `support` of their places, is a grid of points
/// that showed few of them: a doubtful reading of the lines, which other lines may beat.
fn shows_few_lines(grid: &Grid, support: f64) -> bool {
    !grid.chequer && support < DOUBTFUL_SUPPORT
}

fn search(full: &Gray, kind: Evidence, runs: Runs) -> Search {
    let mut search = Search::default();
    if full.w < 16 || full.h < 16 {
        return search;
    }
    let f = (((full.w * full.h) as f64 / WORKING_PIXELS).sqrt().ceil() as usize).max(1);
    let work = full.shrunk(f);
    let mut maps = long_lines(&work, kind, runs);
    let min_side = (SMALLEST_LOOKED_FOR / f as f64).max(24.0);
    for region in candidates(&maps, min_side as usize) {
        for _ in 0..MAX_BOARDS {
            // The combs as summed first; where they give no board, with each line's
            // evidence capped ([`Score::Capped`]).
            let fit = |score| coarse_fit(&maps, region, min_side / 8.0, score, false);
            let (coarse, summed) = match fit(Score::Sum) {
                Some(coarse) => (coarse, true),
                None => match fit(Score::Capped) {
                    Some(coarse) => (coarse, false),
                    None => break,
                },
            };
            let mut grid = refine(full, kind, &coarse, f, false);
            // A capped comb already refined in vain is not fitted again.
            if grid.is_none()
                && summed
                && let Some(capped) = fit(Score::Capped)
            {
                grid = refine(full, kind, &capped, f, false);
                capped.blank(&mut maps);
            }
            // Columns spaced unlike the rows can be a frame and a few lines a comb caught
            // where pieces hide the board's columns; when the lines barely show, the
            // columns spaced as the rows are tried too, and the better shown kept (not on a
            // chequer, whose edges between squares show less).
            if let Some((first, support)) = grid
                && shows_few_lines(&first, support)
                && let Some(square) = coarse_fit(&maps, region, min_side / 8.0, Score::Sum, true)
                && let Some(other) = refine(full, kind, &square, f, false)
                && other.1 > support
            {
                grid = Some(other);
            }
            // On a faint chequer most edges between squares are too weak for the combs to
            // count its one more line each way (the palace's and the river's lines stand
            // far above them). Where the grid of points shows few of its lines, or none
            // was found, the grid one more line each way is followed by the edges between
            // squares: kept where its squares alternate, for [`find`] to weigh against
            // what else is found there.
            if !coarse.chequer()
                && grid.as_ref().is_none_or(|(g, s)| shows_few_lines(g, *s))
                && let Some(square) = coarse
                    .as_chequers()
                    .iter()
                    .find_map(|c| refine(full, Evidence::Step, c, f, true))
            {
                search.squares.push(square);
            }
            coarse.blank(&mut maps);
            let Some((grid, support)) = grid else {
                continue;
            };
            let found = &mut search.found;
            if grid.area.width < MIN_BOARD_WIDTH {
                if found.too_small.is_none_or(|a| a.width < grid.area.width) {
                    found.too_small = Some(grid.area);
                }
            } else if !found.grids.iter().any(|g| overlap(&g.area, &grid.area)) {
                found.grids.push(grid);
                search.support.push(support);
            }
            if found.grids.len() >= MAX_BOARDS {
                return search;
            }
        }
    }
    search
}

fn overlap(a: &Area, b: &Area) -> bool {
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

/// The line evidence of `work`: of the pixels at [`strong_level`] or above, only runs of at
/// least [`MIN_RUN`]; the weaker pixels too, or (with [`Runs::Only`]) nothing else.
fn long_lines(work: &Gray, kind: Evidence, runs: Runs) -> Maps {
    let (w, h) = (work.w, work.h);
    let mut across = vec![0.0f32; w * h];
    let mut down = vec![0.0f32; w * h];
    for y in 0..h {
        for x in 0..w {
            let (xi, yi) = (x as isize, y as isize);
            across[y * w + x] = work.response(kind, xi, yi, (0, 1), 2);
            down[y * w + x] = work.response(kind, xi, yi, (1, 0), 2);
        }
    }
    let threshold = match runs {
        Runs::AndWeaker => strong_level(&across, &down, 0.3),
        Runs::Only => strong_level(&across, &down, 0.15),
    };
    keep_runs(&mut across, w, h, threshold, true, runs);
    keep_runs(&mut down, w, h, threshold, false, runs);
    Maps { w, h, across, down }
}

/// The level a pixel's evidence must reach to count as part of a line: `share` of what the
/// strongest one per cent of the picture reaches, within fixed bounds (so a blank picture
/// has no lines and a picture full of lines still needs clear ones).
fn strong_level(a: &[f32], b: &[f32], share: f32) -> f32 {
    let mut sample: Vec<f32> = a
        .iter()
        .chain(b)
        .step_by(7)
        .copied()
        .filter(|&v| v > 1.0)
        .collect();
    if sample.is_empty() {
        return f32::INFINITY;
    }
    let k = sample.len() * 99 / 100;
    let k = k.min(sample.len() - 1);
    let (_, q, _) = sample.select_nth_unstable_by(k, f32::total_cmp);
    (share * *q).clamp(6.0, 40.0)
}

/// Zeroes every pixel of `map` above `threshold` that is not part of a run of at least
/// [`MIN_RUN`] such pixels along rows (`along_rows`) or columns, and with [`Runs::Only`]
/// every pixel at or below it too.
fn keep_runs(map: &mut [f32], w: usize, h: usize, threshold: f32, along_rows: bool, runs: Runs) {
    let (lines, len) = if along_rows { (h, w) } else { (w, h) };
    let index = |line: usize, i: usize| {
        if along_rows {
            line * w + i
        } else {
            i * w + line
        }
    };
    for line in 0..lines {
        let mut start = 0;
        for i in 0..=len {
            let on = i < len && map[index(line, i)] > threshold;
            if on {
                continue;
            }
            if i < len && runs == Runs::Only {
                map[index(line, i)] = 0.0;
            }
            if i - start < MIN_RUN {
                for j in start..i {
                    map[index(line, j)] = 0.0;
                }
            }
            start = i + 1;
        }
    }
}

/// The places where long lines gather: the bounding boxes of connected groups of them
/// (linked across gaps of up to two pixels), at least `min_side` pixels each way, merged
/// where they overlap.
fn candidates(maps: &Maps, min_side: usize) -> Vec<Rect> {
    const CELL: usize = 2;
    let (cw, ch) = (maps.w.div_ceil(CELL), maps.h.div_ceil(CELL));
    let mut cells = vec![false; cw * ch];
    for y in 0..maps.h {
        for x in 0..maps.w {
            let i = y * maps.w + x;
            if maps.across[i] > 0.0 || maps.down[i] > 0.0 {
                cells[(y / CELL) * cw + x / CELL] = true;
            }
        }
    }
    let mut seen = vec![false; cw * ch];
    let mut rects: Vec<Rect> = Vec::new();
    let mut stack = Vec::new();
    for start in 0..cells.len() {
        if !cells[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut r = Rect {
            x0: usize::MAX,
            y0: usize::MAX,
            x1: 0,
            y1: 0,
        };
        while let Some(c) = stack.pop() {
            let (cx, cy) = (c % cw, c / cw);
            r.x0 = r.x0.min(cx);
            r.y0 = r.y0.min(cy);
            r.x1 = r.x1.max(cx + 1);
            r.y1 = r.y1.max(cy + 1);
            for ny in cy.saturating_sub(1)..(cy + 2).min(ch) {
                for nx in cx.saturating_sub(1)..(cx + 2).min(cw) {
                    let n = ny * cw + nx;
                    if cells[n] && !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
        }
        let r = Rect {
            x0: r.x0 * CELL,
            y0: r.y0 * CELL,
            x1: (r.x1 * CELL).min(maps.w),
            y1: (r.y1 * CELL).min(maps.h),
        };
        rects.push(r);
    }
    // Pieces can cut a board's lines into groups of their own (a full row of pieces cuts
    // the frame and the ends of the columns off): boxes that touch are one place.
    let mut merged = true;
    while merged {
        merged = false;
        'outer: for i in 0..rects.len() {
            for j in i + 1..rects.len() {
                if rects[i].overlaps(&rects[j], 2) {
                    rects[i] = rects[i].union(&rects[j]);
                    rects.swap_remove(j);
                    merged = true;
                    break 'outer;
                }
            }
        }
    }
    rects.retain(|r| r.x1 - r.x0 >= min_side && r.y1 - r.y0 >= min_side);
    // The largest first: a page's diagrams before stray lines.
    rects.sort_by_key(|r| std::cmp::Reverse((r.x1 - r.x0) * (r.y1 - r.y0)));
    rects
        .into_iter()
        .map(|r| {
            let margin = ((r.x1 - r.x0).max(r.y1 - r.y0) / 16).max(3);
            Rect {
                x0: r.x0.saturating_sub(margin),
                y0: r.y0.saturating_sub(margin),
                x1: (r.x1 + margin).min(maps.w),
                y1: (r.y1 + margin).min(maps.h),
            }
        })
        .collect()
}

/// One family of lines in working pixels: line `k` is the line `place(k)` of `lay` (for
/// rows `along` is y and `across` is x; for columns the other way round). The spacing grows
/// by `chirp` of itself from one line to the next, as a board seen at a slant shows it.
#[derive(Clone, Copy, Debug)]
struct Comb {
    lay: Lay,
    offset: f64,
    spacing: f64,
    chirp: f64,
    count: usize,
}

/// Where line `k` of a comb starting at `offset` lies.
fn place(offset: f64, spacing: f64, chirp: f64, k: f64) -> f64 {
    offset + spacing * (k + chirp * k * (k - 1.0) / 2.0)
}

impl Comb {
    fn place(&self, k: f64) -> f64 {
        place(self.offset, self.spacing, self.chirp, k)
    }

    /// The same lines numbered from line `j`.
    fn shifted(self, j: f64) -> Comb {
        let grown = 1.0 + self.chirp * j;
        Comb {
            offset: self.place(j),
            spacing: self.spacing * grown,
            chirp: self.chirp / grown,
            ..self
        }
    }
}

/// A board's grid in working pixels, before refinement.
#[derive(Clone, Copy, Debug)]
struct Coarse {
    rows: Comb,
    columns: Comb,
}

impl Coarse {
    fn chequer(&self) -> bool {
        self.rows.count == 11
    }

    /// The chequers this grid of points may be the inner lines of: one more line each
    /// way, after or before the lines found.
    fn as_chequers(&self) -> [Coarse; 4] {
        let grown = |c: Comb, before: bool| {
            let more = Comb {
                count: c.count + 1,
                ..c
            };
            if before { more.shifted(-1.0) } else { more }
        };
        [(false, false), (false, true), (true, false), (true, true)].map(|(r, c)| Coarse {
            rows: grown(self.rows, r),
            columns: grown(self.columns, c),
        })
    }

    /// The crossing of row `k` and column `i`, in working pixels.
    fn crossing(&self, i: f64, k: f64) -> (f64, f64) {
        let (r, c) = (&self.rows, &self.columns);
        let (yk, xi) = (r.place(k), c.place(i));
        let (rs, cs) = (r.lay.slope_at(yk), c.lay.slope_at(xi));
        let (rc, cc) = (r.lay.centre, c.lay.centre);
        // y = yk + rs (x - rc); x = xi + cs (y - cc)
        let x = (xi + cs * (yk - rs * rc - cc)) / (1.0 - cs * rs);
        let y = yk + rs * (x - rc);
        (x, y)
    }

    /// The mean evidence of columns between rows `k` and `k + 1`, away from the points.
    fn columns_between(&self, maps: &Maps, k: f64) -> f64 {
        let step = 1.0 / self.columns.spacing.max(1.0);
        let (mut sum, mut n) = (0.0f64, 0usize);
        let mut v = k + 0.3;
        while v <= k + 0.7 {
            let mut u = -0.2;
            while u <= (self.columns.count - 1) as f64 + 0.2 {
                let (x, y) = self.crossing(u, v);
                if x >= 0.0 && y >= 0.0 && (x as usize) < maps.w && (y as usize) < maps.h {
                    sum += f64::from(maps.down[y as usize * maps.w + x as usize]);
                }
                n += 1;
                u += step;
            }
            v += step;
        }
        sum / n.max(1) as f64
    }

    /// The same grid moved a row up or down if that puts the river (where only the outer
    /// columns run) between its fifth and sixth rows: with both end rows full of pieces,
    /// the profile of rows alone cannot tell where the board starts.
    fn river_between_the_middle_rows(self, maps: &Maps) -> Coarse {
        let gaps: Vec<f64> = (-1..=9)
            .map(|k| self.columns_between(maps, f64::from(k)))
            .collect();
        let typical = {
            let mut g = gaps.clone();
            g.sort_by(f64::total_cmp);
            g[g.len() / 2]
        };
        // gaps[k + 1] is between rows k and k + 1; the river is between rows 4 and 5.
        let shift = [-1i32, 0, 1]
            .into_iter()
            .min_by(|&a, &b| gaps[(5 + a) as usize].total_cmp(&gaps[(5 + b) as usize]))
            .unwrap_or(0);
        let river = gaps[(5 + shift) as usize];
        if shift == 0 || river >= 0.75 * typical || river >= 0.7 * gaps[5] {
            return self;
        }
        Coarse {
            rows: self.rows.shifted(f64::from(shift)),
            ..self
        }
    }

    /// Clears the evidence of this board (and a little around it) from `maps`.
    fn blank(&self, maps: &mut Maps) {
        let s = self.rows.spacing.max(self.columns.spacing);
        let corners = [
            self.crossing(0.0, 0.0),
            self.crossing(self.columns.count as f64 - 1.0, 0.0),
            self.crossing(0.0, self.rows.count as f64 - 1.0),
            self.crossing(
                self.columns.count as f64 - 1.0,
                self.rows.count as f64 - 1.0,
            ),
        ];
        let clampx = |v: f64| v.clamp(0.0, maps.w as f64) as usize;
        let clampy = |v: f64| v.clamp(0.0, maps.h as f64) as usize;
        let x0 = clampx(corners.iter().map(|c| c.0).fold(f64::INFINITY, f64::min) - 0.7 * s);
        let x1 = clampx(
            corners
                .iter()
                .map(|c| c.0)
                .fold(f64::NEG_INFINITY, f64::max)
                + 0.7 * s
                + 1.0,
        );
        let y0 = clampy(corners.iter().map(|c| c.1).fold(f64::INFINITY, f64::min) - 0.7 * s);
        let y1 = clampy(
            corners
                .iter()
                .map(|c| c.1)
                .fold(f64::NEG_INFINITY, f64::max)
                + 0.7 * s
                + 1.0,
        );
        for y in y0..y1 {
            for x in x0..x1 {
                maps.across[y * maps.w + x] = 0.0;
                maps.down[y * maps.w + x] = 0.0;
            }
        }
    }
}

/// The tilts tried, as slopes (tan of −3° to 3° in half degrees).
fn tilts() -> impl Iterator<Item = f64> {
    (-6..=6).map(|i| (f64::from(i) * 0.5).to_radians().tan())
}

/// The evidence of a region line by line across, each line from its first non-zero pixel
/// to its last: every pixel of a line at the same place across is shifted alike by a
/// profile's tilt, so the tilt's arithmetic is done once a line (see [`profile`]).
struct Strands {
    /// Each line across: its place across, its first pixel's place along and its pixels'
    /// range in `values`.
    lines: Vec<(f64, u32, std::ops::Range<usize>)>,
    /// The strength of each pixel, line after line.
    values: Vec<f32>,
}

/// The evidence of `region` for rows (or columns), restricted to `band` across, line by
/// line across.
fn evidence(maps: &Maps, rows: bool, region: Rect, band: (f64, f64)) -> Strands {
    let map = if rows { &maps.across } else { &maps.down };
    let (a0, a1, c0, c1) = if rows {
        (region.y0, region.y1, region.x0, region.x1)
    } else {
        (region.x0, region.x1, region.y0, region.y1)
    };
    let (b0, b1) = (
        (band.0.max(c0 as f64)) as usize,
        (band.1.min(c1 as f64).max(0.0)) as usize,
    );
    let mut found = Strands {
        lines: Vec::new(),
        values: Vec::new(),
    };
    for c in b0..b1.max(b0) {
        let at = |a: usize| {
            if rows {
                map[a * maps.w + c]
            } else {
                map[c * maps.w + a]
            }
        };
        let Some(first) = (a0..a1).find(|&a| at(a) != 0.0) else {
            continue;
        };
        let last = (first..a1).rev().find(|&a| at(a) != 0.0).unwrap_or(first);
        let start = found.values.len();
        found.values.extend((first..=last).map(at));
        found
            .lines
            .push((c as f64, first as u32, start..found.values.len()));
    }
    found
}

/// Adds a run of pixels `kept` to the bins from `bin` on, each split between its bin and
/// the next, the first pixel's share of the next being `frac` and each further pixel's
/// `step` more: the upper shares first, so each bin gets its adds in the order of the pixels.
fn add_run(p: &mut [f32], bin: usize, kept: &[f32], frac: f64, step: f64) {
    let n = kept.len();
    if step == 0.0 {
        // A line without a fan: one share for all, worked out once.
        let f = frac as f32;
        for (q, v) in p[bin + 1..bin + 1 + n].iter_mut().zip(kept) {
            *q += v * f;
        }
        for (q, v) in p[bin..bin + n].iter_mut().zip(kept) {
            *q += v * (1.0 - f);
        }
    } else {
        let at = |m: usize| (frac + m as f64 * step) as f32;
        for (m, (q, v)) in p[bin + 1..bin + 1 + n].iter_mut().zip(kept).enumerate() {
            *q += v * at(m);
        }
        for (m, (q, v)) in p[bin..bin + n].iter_mut().zip(kept).enumerate() {
            *q += v * (1.0 - at(m));
        }
    }
}

/// How lines are laid for a profile: each line `ρ` runs `along = ρ + (across - centre)·(slope
/// + fan·(ρ - middle))`, so with a fan the lines spread like a board's seen at a slant.
#[derive(Clone, Copy, Debug)]
struct Lay {
    slope: f64,
    fan: f64,
    centre: f64,
    middle: f64,
}

impl Lay {
    /// The slope of line `rho`.
    fn slope_at(&self, rho: f64) -> f64 {
        self.slope + self.fan * (rho - self.middle)
    }
}

/// The sum of the `evidence` along the lines of `lay`, from `base` on in steps of a pixel,
/// lightly smoothed.
fn profile(evidence: &Strands, lay: &Lay, base: f64, len: usize) -> Vec<f32> {
    let mut p = vec![0.0f32; len];
    let straight = lay.slope - lay.fan * lay.middle;
    for (c, first, range) in &evidence.lines {
        let values = &evidence.values[range.clone()];
        let d = c - lay.centre;
        // rho = (a - d·straight) / (1 + fan·d) - base (see [`Lay`]): a scale and a shift
        // the whole line shares (without a fan the scale is one, exactly). Where 1 + fan·d
        // falls to a half the fanned lines have closed to half their spacing, and at 0
        // they meet: no board looks so (a square region's lines fan by a few per cent), and
        // in a region many times wider than tall the division would give no number.
        let spread = 1.0 + lay.fan * d;
        if spread < 0.5 {
            continue;
        }
        let scale = 1.0 / spread;
        let shift = -d * straight * scale - base;
        // Pixel k is at rho = start + k·scale, the scale near one: the line falls into runs
        // of pixels one bin apart (without a fan, one run), in each of which the pixels'
        // shares of their two bins go by scale − 1 a pixel. A run is added in two passes
        // over contiguous bins, which the compiler vectorises, the upper shares first (so
        // each bin gets its adds in the order of the pixels). Pixel by pixel, each pixel's
        // adds would wait on those just stored for the pixel before.
        let start = f64::from(*first) * scale + shift;
        let step = scale - 1.0;
        let mut k = 0;
        while k < values.len() {
            let rho = start + k as f64 * scale;
            let whole = rho.floor();
            let frac = rho - whole;
            // The pixels k + m with frac + m·step still within [0, 1).
            let run = if step > 0.0 {
                ((1.0 - frac) / step).ceil()
            } else if step < 0.0 {
                (frac / -step).floor() + 1.0
            } else {
                f64::INFINITY
            };
            let end = k + (run as usize).clamp(1, values.len() - k);
            let whole = whole as i64 - k as i64;
            let lo = (-whole).clamp(k as i64, end as i64) as usize;
            let hi = (len as i64 - 1 - whole).clamp(lo as i64, end as i64) as usize;
            if lo < hi {
                let bin = (whole + lo as i64) as usize;
                add_run(
                    &mut p,
                    bin,
                    &values[lo..hi],
                    frac + (lo - k) as f64 * step,
                    step,
                );
            }
            k = end;
        }
    }
    // A light smoothing so a line split between two bins still makes one peak.
    let mut s = p.clone();
    for i in 1..p.len().saturating_sub(1) {
        s[i] = 0.25 * p[i - 1] + 0.5 * p[i] + 0.25 * p[i + 1];
    }
    s
}

#[inline]
fn sample(p: &[f32], at: f64) -> f32 {
    if at < 0.0 {
        return 0.0;
    }
    let i = at as usize;
    if i + 1 >= p.len() {
        return 0.0;
    }
    let frac = (at - i as f64) as f32;
    p[i] * (1.0 - frac) + p[i + 1] * frac
}

/// How a comb's lines' evidence adds up to its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Score {
    /// The sum.
    Sum,
    /// The sum, each line counting for at most twice the comb's median line. A board's
    /// outer lines often run beside a frame and merge with it into one strong line; summed,
    /// the frame's two lines can outweigh faint inner ones, and a comb stretched from
    /// frame to frame wins. Capped, a comb must find most of its lines; but on a chequer,
    /// whose edges show on every other line where tiles hide the rest, tried first it put
    /// ten of `tests/vision/score.py`'s chequers wrong that the sums placed right: it is
    /// the second try.
    Capped,
}

/// The score of a comb whose lines' evidence is `values` (at most 16 lines).
fn comb_score(scoring: Score, values: impl Iterator<Item = f32>) -> f64 {
    if scoring == Score::Sum {
        return values.map(f64::from).sum();
    }
    let mut v = [0.0f32; 16];
    let mut n = 0;
    for x in values.take(16) {
        v[n] = x;
        n += 1;
    }
    let mut sorted = v;
    sorted[..n].sort_unstable_by(f32::total_cmp);
    let cap = 2.0 * sorted[n / 2];
    v[..n].iter().map(|&x| f64::from(x.min(cap))).sum()
}

/// The `count` equally spaced places of `p` with the most evidence, spacing within
/// `spacings`, then let the spacing grow or shrink steadily: (offset, spacing, chirp).
fn best_comb(
    p: &[f32],
    count: usize,
    spacings: (f64, f64),
    scoring: Score,
) -> Option<(f64, f64, f64)> {
    let mut best: Option<(f64, f64, f64)> = None;
    let mut s = spacings.0;
    while s <= spacings.1 {
        let span = s * (count - 1) as f64;
        let mut o = 0.0;
        while o + span < p.len() as f64 - 1.0 {
            let score = comb_score(scoring, (0..count).map(|k| sample(p, o + k as f64 * s)));
            if best.is_none_or(|b| score > b.2) {
                best = Some((o, s, score));
            }
            o += 1.0;
        }
        s += if s < 20.0 { 0.25 } else { s / 80.0 };
    }
    let (o, s, score) = best?;
    // A finer look around the best comb, the spacing changing by up to 2.5 % a line.
    let mut fine = (o, s, 0.0, score);
    for chirp in -5..=5 {
        let c = f64::from(chirp) * 0.005;
        for ds in -8..=8 {
            let ss = s * (1.0 + f64::from(ds) * 0.005 - c * (count - 1) as f64 / 2.0);
            for d_o in -10..=10 {
                let oo = o + f64::from(d_o) * 0.02 * s;
                let score = comb_score(
                    scoring,
                    (0..count).map(|k| sample(p, place(oo, ss, c, k as f64))),
                );
                if score > fine.3 + 1e-9 * score.abs() {
                    fine = (oo, ss, c, score);
                }
            }
        }
    }
    Some((fine.0, fine.1, fine.2))
}

/// The comb of `count` lines (or `count + 1` for a chequer) best fitting `region`, with
/// the tilt searched, restricted to `band` across and spacings in the first range of
/// `spacings` whose best comb stands out from the places between its lines.
fn fit_comb(
    maps: &Maps,
    rows: bool,
    region: Rect,
    band: (f64, f64),
    count: usize,
    spacings: &[(f64, f64)],
    scoring: Score,
) -> Option<(Comb, bool, f32)> {
    let found = evidence(maps, rows, region, band);
    let (a0, a1, c0, c1) = if rows {
        (region.y0, region.y1, region.x0, region.x1)
    } else {
        (region.x0, region.x1, region.y0, region.y1)
    };
    let (along, across) = ((a1 - a0) as f64, (c1 - c0) as f64);
    let base = a0 as f64 - 0.06 * across - 0.15 * along - 2.0;
    let len = (along + 2.0 * (a0 as f64 - base)) as usize + 2;
    let lay = |slope: f64, fan: i32| Lay {
        slope,
        fan: f64::from(fan) * 0.04 / along.max(1.0),
        centre: (c0 + c1) as f64 / 2.0,
        middle: (a0 + a1) as f64 / 2.0,
    };
    let mut best: Option<(f64, Vec<f32>, Lay)> = None;
    let consider = |best: &mut Option<(f64, Vec<f32>, Lay)>, lay: Lay| {
        let p = profile(&found, &lay, base, len);
        let sharpness: f64 = p.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
        if best.as_ref().is_none_or(|b| sharpness > b.0) {
            *best = Some((sharpness, p, lay));
        }
    };
    // The tilt first with parallel lines, then how far they fan out at about that tilt.
    for slope in tilts() {
        consider(&mut best, lay(slope, 0));
    }
    let tilt = best.as_ref()?.2.slope;
    let step = 0.5f64.to_radians().tan();
    for slope in [tilt - step, tilt, tilt + step] {
        for fan in [-3, -2, -1, 1, 2, 3] {
            consider(&mut best, lay(slope, fan));
        }
    }
    let (_, p, lay) = best?;
    first_comb(&p, &lay, base, count, spacings, scoring)
}

/// The best comb of profile `p` in the first range of `spacings` whose best comb is a
/// grid's ([`comb_in`]).
fn first_comb(
    p: &[f32],
    lay: &Lay,
    base: f64,
    count: usize,
    spacings: &[(f64, f64)],
    scoring: Score,
) -> Option<(Comb, bool, f32)> {
    spacings
        .iter()
        .find_map(|&range| comb_in(p, lay, base, count, range, scoring))
}

/// The spacings the columns' comb is looked for in, given the rows' spacing `s`, the
/// smallest spacing looked for and the region's width. Boards' squares are from a little
/// wider than tall to a little taller than wide; faint columns broken by pieces can lose
/// to a wider comb over other marks, which then does not stand out, so spacings close to
/// square are tried next.
fn column_spacings(s: f64, min_spacing: f64, width: f64) -> [(f64, f64); 2] {
    let widest = width / 8.0 + 1.0;
    [
        ((0.75 * s).max(min_spacing), (1.35 * s).min(widest)),
        ((0.92 * s).max(min_spacing), (1.1 * s).min(widest)),
    ]
}

/// The best comb of profile `p` (laid out by `lay` from `base`) with spacings in `range`,
/// if it is a grid's: its lines stand far above the places between them.
fn comb_in(
    p: &[f32],
    lay: &Lay,
    base: f64,
    count: usize,
    range: (f64, f64),
    scoring: Score,
) -> Option<(Comb, bool, f32)> {
    if range.1 < range.0 {
        return None;
    }
    let (o, s, c) = best_comb(p, count, range, scoring)?;
    let at = |k: f64| sample(p, place(o, s, c, k));
    let support: Vec<f32> = (0..count).map(|k| at(k as f64)).collect();
    let on = median(&support);
    let mid: Vec<f32> = (0..count - 1).map(|k| at(k as f64 + 0.5)).collect();
    let off = median(&mid);
    // A grid's lines stand far above the places between them; text and texture do not.
    if on <= 0.0 || on < 2.5 * off {
        return None;
    }
    // An evidence as strong as the comb's one spacing beyond either end makes it a chequer's
    // (one more line than points each way).
    let before = at(-1.0);
    let after = at(count as f64);
    let extended = before.max(after) >= 0.5 * on;
    let comb = Comb {
        lay: *lay,
        offset: o + base,
        spacing: s,
        chirp: c,
        count: if extended { count + 1 } else { count },
    };
    let comb = if extended && before > after {
        comb.shifted(-1.0)
    } else {
        comb
    };
    Some((comb, extended, on))
}

fn median(v: &[f32]) -> f32 {
    let mut v = v.to_vec();
    v.sort_by(f32::total_cmp);
    v[v.len() / 2]
}

/// The board with the most evidence in `region`, in working pixels.
fn coarse_fit(
    maps: &Maps,
    region: Rect,
    min_spacing: f64,
    scoring: Score,
    square: bool,
) -> Option<Coarse> {
    let height = (region.y1 - region.y0) as f64;
    let width = (region.x1 - region.x0) as f64;
    let all = (f64::NEG_INFINITY, f64::INFINITY);
    let (rows, _, _) = fit_comb(
        maps,
        true,
        region,
        all,
        10,
        &[(min_spacing, height / 9.0 + 1.0)],
        scoring,
    )?;
    let s = rows.spacing;
    let band = |c: &Comb| {
        let reach = c.lay.slope.abs() * width.max(height) / 2.0 + 0.6 * c.spacing;
        (c.place(0.0) - reach, c.place((c.count - 1) as f64) + reach)
    };
    let (columns, _, _) = fit_comb(
        maps,
        false,
        region,
        band(&rows),
        9,
        &column_spacings(s, min_spacing, width)[usize::from(square)..],
        scoring,
    )?;
    let (rows, _, _) = fit_comb(
        maps,
        true,
        region,
        band(&columns),
        10,
        &[(
            (0.75 * columns.spacing).max(min_spacing),
            1.35 * columns.spacing,
        )],
        scoring,
    )?;
    // A chequer has one more line each way; anything else keeps the points' 10 × 9.
    let chequer = rows.count == 11 && columns.count == 10;
    let trim = |c: Comb, n: usize| Comb { count: n, ..c };
    let (rows, columns) = if chequer {
        (rows, columns)
    } else {
        (trim(rows, 10), trim(columns, 9))
    };
    // Rows and columns turned different ways by more than a little is no board (a turn by
    // an angle gives the rows a slope and the columns the opposite one).
    if (rows.lay.slope + columns.lay.slope).abs() > 0.07 {
        return None;
    }
    let coarse = Coarse { rows, columns };
    Some(if chequer {
        coarse
    } else {
        coarse.river_between_the_middle_rows(maps)
    })
}

/// A straight line in full-resolution pixels: for rows `y = a + b·x`, for columns
/// `x = a + b·y`.
#[derive(Clone, Copy, Debug)]
struct Line {
    a: f64,
    b: f64,
}

fn crossing(row: Line, column: Line) -> (f64, f64) {
    // y = ra + rb x, x = ca + cb y
    let x = (column.a + column.b * row.a) / (1.0 - column.b * row.b);
    (x, row.a + row.b * x)
}

/// The least share of a grid's line places where a line shows for it to be a board.
const LEAST_SUPPORT: f64 = 0.45;
/// The same for a chequer found as one by the combs. Set on the pictures of other programs
/// (`tests/vision/score.py`): Pillow's faint chequers under many tiles fell just short of
/// [`LEAST_SUPPORT`] (0.43 and 0.45 on the one looked at), and no other board changed.
const LEAST_CHEQUER_SUPPORT: f64 = 0.38;
/// Below this share of its lines shown, a grid whose columns are spaced unlike its rows is
/// fitted again with them spaced alike.
const DOUBTFUL_SUPPORT: f64 = 0.6;

/// The grid of `coarse` followed at full resolution: each line fitted to the ridges found
/// across it, then a homography fitted to their crossings, with the share of the places
/// along the lines that showed one. `None` when too few did.
fn refine(
    full: &Gray,
    kind: Evidence,
    coarse: &Coarse,
    f: usize,
    squares_needed: bool,
) -> Option<(Grid, f64)> {
    let chequer = coarse.chequer();
    let (nc, nr) = (coarse.columns.count, coarse.rows.count);
    let to_full = |(x, y): (f64, f64)| ((x + 0.5) * f as f64 - 0.5, (y + 0.5) * f as f64 - 0.5);
    let mut pairs = Vec::with_capacity(nc * nr);
    for k in 0..nr {
        for i in 0..nc {
            let p = to_full(coarse.crossing(i as f64, k as f64));
            pairs.push(((i as f64, k as f64), p));
        }
    }
    let mut map = fit_homography(&pairs)?;
    let mut support = 0.0;
    // Each round starts closer, so each looks less far (and less likely at a frame).
    for reach in [0.35, 0.22, 0.15] {
        let (next, s) = follow_lines(full, kind, &map, (nc, nr), !chequer, reach)?;
        map = next;
        support = s;
    }
    // A chequer's edges between squares hide beside every tile that fills its square, and
    // on a faint chequer show only where the squares differ enough: fewer of them show.
    let least = if chequer {
        LEAST_CHEQUER_SUPPORT
    } else {
        LEAST_SUPPORT
    };
    if support < least {
        return None;
    }
    // The combs can settle a line off, onto a frame, a title bar or the text beside the
    // board, when an outer line is hidden by pieces or drawn double. The river says where
    // the board is: the inner columns stop at it, the outer two run across it. The rows
    // go first, as the columns are told by what crosses the river where the rows put it.
    if !chequer {
        let moved = |(map, support): (Homography, f64), (di, dk): (f64, f64), sure: bool| {
            let mut again = Some((shifted(&map, di, dk), 0.0));
            for reach in [0.22, 0.15] {
                again =
                    again.and_then(|(m, _)| follow_lines(full, kind, &m, (nc, nr), true, reach));
            }
            // Where the river leaves a doubt (the river's words seem to cross it on some
            // inner columns), the move must also show clearly more of the lines: moved
            // onto something straight beside the board (JPEG's ringing along its edge, a
            // frame), fewer or hardly more show.
            again
                .filter(|(_, s)| *s >= LEAST_SUPPORT && (sure || *s >= support + 0.03))
                .unwrap_or((map, support))
        };
        let river = River::of(full, kind, &map, (nc, nr));
        let (shift, sure) = river_rows(full, &map, &river);
        let before = map;
        if shift != 0 {
            (map, support) = moved((map, support), (0.0, f64::from(shift)), sure);
        }
        let river = if map == before {
            river
        } else {
            River::of(full, kind, &map, (nc, nr))
        };
        let (shift, sure) = outer_columns(&river);
        if shift != 0 {
            (map, _) = moved((map, support), (f64::from(shift), 0.0), sure);
        }
    }
    // Lines found may be the edges of a chequer's squares without the search having seen
    // it as one (the edges between squares of two colours are no thin lines, so only some
    // were counted, or the outer ones were missed): the squares' colours then alternate,
    // and the nine by ten of them that do tell where the board is.
    let (map, (nc, nr), chequer) = match chequer_squares(full, &map, (nc, nr)) {
        // Lines the combs already took for a chequer's edges may still be a square off
        // (a margin's edge taken for an outer one), but the squares' colours can be
        // misled too, by tiles that fill most of their squares: a move by whole squares
        // is kept only where the lines show at least as well after it.
        Some((i0, k0)) if chequer && (i0.round() != 0.0 || k0.round() != 0.0) => {
            let moved = shifted(&map, i0, k0);
            let kept = shifted(&map, i0 - i0.round(), k0 - k0.round());
            let shown = |m: &Homography| {
                follow_lines(full, kind, m, (nc, nr), false, 0.15).map_or(0.0, |(_, s)| s)
            };
            let better = if shown(&moved) >= shown(&kept) {
                moved
            } else {
                kept
            };
            (better, (10, 11), true)
        }
        Some((i0, k0)) => (shifted(&map, i0, k0), (10, 11), true),
        None if squares_needed => return None,
        None => (map, (nc, nr), chequer),
    };
    let (last_c, last_r) = ((nc - 1) as f64, (nr - 1) as f64);
    let corners = [
        map.apply(0.0, 0.0),
        map.apply(last_c, 0.0),
        map.apply(0.0, last_r),
        map.apply(last_c, last_r),
    ];
    let (w, h) = (full.w as f64, full.h as f64);
    let min_x = corners.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    let max_x = corners
        .iter()
        .map(|c| c.0)
        .fold(f64::NEG_INFINITY, f64::max);
    let min_y = corners.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
    let max_y = corners
        .iter()
        .map(|c| c.1)
        .fold(f64::NEG_INFINITY, f64::max);
    // A grid reaching well beyond the picture is a mistake.
    let slack = 0.02 * w.max(h) + 2.0;
    if min_x < -slack || min_y < -slack || max_x > w + slack || max_y > h + slack {
        return None;
    }
    let x0 = min_x.round().clamp(0.0, w - 1.0);
    let y0 = min_y.round().clamp(0.0, h - 1.0);
    let area = Area {
        x: x0 as u32,
        y: y0 as u32,
        width: (max_x.round().clamp(x0, w - 1.0) - x0) as u32,
        height: (max_y.round().clamp(y0, h - 1.0) - y0) as u32,
    };
    // The points of a chequer are the squares' centres: half a line further in each way.
    let map = if chequer {
        shifted(&map, 0.5, 0.5)
    } else {
        map
    };
    let bare = if chequer {
        [false; 90]
    } else {
        bare_points(full, kind, &map)
    };
    Some((
        Grid {
            map,
            area,
            chequer,
            bare,
        },
        support,
    ))
}

/// Where along a line, in spacings from its point, [`bare_points`] looks for it: from well
/// inside the smallest disc to just short of the middle between two points, so that a
/// piece's own strokes (which stop inside its disc) do not pass for the board's lines.
const BARE_ALONG: [f64; 7] = [0.15, 0.2, 0.26, 0.32, 0.38, 0.43, 0.48];

/// The points of `map`'s 9 × 10 grid, in picture order, that the board's lines run up to
/// unbroken, at all but one of [`BARE_ALONG`]'s places on every side a line comes from (the
/// inner columns do not cross the river), with at least two such sides: nothing stands on
/// them, since a piece hides the lines under its disc. Marks that are not pieces but beside
/// a point (the river's words, coordinates along the edge) do not break them.
fn bare_points(full: &Gray, kind: Evidence, map: &Homography) -> [bool; 90] {
    let spacing = spacing_of(map, (9, 10));
    let look = Look::at(kind, spacing, (0.12 * spacing).max(3.0));
    let mut bare = [false; 90];
    for k in 0..10i32 {
        for i in 0..9i32 {
            let inner = (1..8).contains(&i);
            let mut sides = 0;
            let mut unbroken = true;
            for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (ni, nk) = (i + dx, k + dy);
                let river = inner && ((k == 4 && dy == 1) || (k == 5 && dy == -1));
                if !(0..9).contains(&ni) || !(0..10).contains(&nk) || river {
                    continue;
                }
                sides += 1;
                let missed = BARE_ALONG
                    .iter()
                    .filter(|&&t| {
                        let p = map.apply(
                            f64::from(i) + t * f64::from(dx),
                            f64::from(k) + t * f64::from(dy),
                        );
                        strongest_across(full, &look, p, dy == 0).is_none()
                    })
                    .count();
                if missed > 1 {
                    unbroken = false;
                    break;
                }
            }
            bare[(k * 9 + i) as usize] = unbroken && sides >= 2;
        }
    }
    bare
}

/// The distance between neighbouring points of the `nc` × `nr` grid of `map`, in pixels:
/// the diagonal over the diagonal in places.
fn spacing_of(map: &Homography, (nc, nr): (usize, usize)) -> f64 {
    let (a, b) = (
        map.apply(0.0, 0.0),
        map.apply((nc - 1) as f64, (nr - 1) as f64),
    );
    let diagonal = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    diagonal / (((nc - 1).pow(2) + (nr - 1).pow(2)) as f64).sqrt()
}

/// Where the column lines of a grid show across its river (between its fifth and sixth
/// rows): the share ([`column_shown`]) at every column from one before the board to one
/// after, and how lines were looked for.
struct River {
    look: Look,
    shown: [f64; 11],
}

impl River {
    fn of(full: &Gray, kind: Evidence, map: &Homography, grid: (usize, usize)) -> River {
        let spacing = spacing_of(map, grid);
        let look = Look::at(kind, spacing, (0.2 * spacing).max(2.0));
        let shown = std::array::from_fn(|n| column_shown(full, &look, map, n as i32 - 1, 4));
        River { look, shown }
    }

    /// The share at column `i` (−1 to 9).
    fn at(&self, i: i32) -> f64 {
        self.shown[(i + 1) as usize]
    }
}

/// How many columns a grid must move (−1, 0 or 1) for its outer columns to be the two
/// lines that run across the `river`: the way of placing the board that has lines at both
/// its outer columns and fewest at its inner ones wins, when clearly ahead of the board as
/// it stands (pieces often hide the river's edge); and whether the river says so beyond
/// doubt ([`SURE`]).
fn outer_columns(river: &River) -> (i32, bool) {
    let at = |i: i32| river.at(i);
    // The river's words have strokes along the columns too, but over a few columns only.
    let score = |s: i32| at(s).min(at(s + 8)) - (s + 1..s + 8).map(at).sum::<f64>() / 7.0;
    let best = [-1, 1]
        .into_iter()
        .max_by(|&a, &b| score(a).total_cmp(&score(b)))
        .unwrap_or(0);
    if score(best) >= 0.4 && score(best) >= score(0) + 0.4 {
        (best, score(best) >= SURE)
    } else {
        (0, false)
    }
}

/// How clearly the river must tell where a grid goes for it to move without showing more
/// of the lines there.
const SURE: f64 = 0.8;

/// How many rows `map` must move (−1, 0 or 1) for the river to lie between its fifth and
/// sixth rows: of the three gaps round the middle (the middle one's shares in `river`),
/// the river is the one the inner columns do not cross, when clearly emptier than the gap
/// as it stands; and whether the river says so beyond doubt ([`SURE`]).
fn river_rows(full: &Gray, map: &Homography, river: &River) -> (i32, bool) {
    let crossed = |gap: i32| {
        (1..8)
            .map(|i| {
                if gap == 4 {
                    river.at(i)
                } else {
                    column_shown(full, &river.look, map, i, gap)
                }
            })
            .sum::<f64>()
            / 7.0
    };
    let now = crossed(4);
    let (best, emptiest) = [-1, 1]
        .into_iter()
        .map(|s| (s, crossed(4 + s)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or((0, now));
    if emptiest <= 0.3 && now >= emptiest + 0.4 {
        (best, now - emptiest >= SURE)
    } else {
        (0, false)
    }
}

/// The share (0 to 1) of the gap between rows `gap` and `gap + 1` of `map` along which
/// column `i`'s line shows; a piece on either end hides nearly half of the gap, so showing
/// at four of its nine places counts as all.
fn column_shown(full: &Gray, look: &Look, map: &Homography, i: i32, gap: i32) -> f64 {
    let seen = (1..10)
        .filter(|&tenth| {
            let (x, y) = map.apply(f64::from(i), f64::from(gap) + f64::from(tenth) / 10.0);
            strongest_across(full, look, (x, y), false).is_some()
        })
        .count();
    (seen as f64 / 4.0).min(1.0)
}

/// `map` with its places moved by (`di`, `dk`): place (0, 0) of the result is (`di`, `dk`)
/// of `map`.
fn shifted(map: &Homography, di: f64, dk: f64) -> Homography {
    let h = map.0;
    Homography([
        h[0],
        h[1],
        h[2] + di * h[0] + dk * h[1],
        h[3],
        h[4],
        h[5] + di * h[3] + dk * h[4],
        h[6],
        h[7],
        h[8] + di * h[6] + dk * h[7],
    ])
}

/// Whether the `nc` × `nr` lines of `map` are edges of a chequer's squares: if so, the line
/// places (`i0`, `k0`) where the 10 × 11 lines of the board's 9 × 10 squares start.
///
/// Each square's colour is taken near its four corners, just inside (pieces stand in the
/// middle), as the median of the four. The colours of the squares of a chequer alternate:
/// every two neighbours differ, the same way round on squares of the same parity. The
/// squares of the lines as found must show that clearly (a difference a reader sees
/// between most neighbours, and not only noise); the board's place is then the window of
/// squares, and the fraction of a square the lines are moved by, that shows it most.
fn chequer_squares(full: &Gray, map: &Homography, (nc, nr): (usize, usize)) -> Option<(f64, f64)> {
    // Squares from two before the first line to two after the last.
    let lo = -2.0;
    let (signed, plain, n, i0, k0) = best_squares(full, map, (nc, nr), (0.0, 0.0))?;
    // All 152 pairs of a board's squares, nearly, and a difference a reader sees.
    let full_board = 2 * 9 * 10 - 9 - 10 - 9;
    if n * 10 < full_board * 9 || signed < 12.0 * n as f32 || signed < 0.25 * plain {
        return None;
    }
    // Lines found on something else than the squares' edges (the outlines of square
    // pieces, a frame) are off by part of a square: the squares' colours differ most
    // across their true edges.
    let mut best = (signed, 0.0, 0.0, i0, k0);
    for sy in -4..=5 {
        for sx in -4..=5 {
            let shift = (f64::from(sx) * 0.1, f64::from(sy) * 0.1);
            if let Some((signed, _, _, i0, k0)) = best_squares(full, map, (nc, nr), shift)
                && signed > best.0
            {
                best = (signed, shift.0, shift.1, i0, k0);
            }
        }
    }
    let (_, sx, sy, i0, k0) = best;
    Some((lo + i0 as f64 + sx, lo + k0 as f64 + sy))
}

/// Of the 9 × 10 windows of squares of the lines of `map` moved by `shift`, from two before
/// the first line to two after the last, the one whose neighbours differ most in a
/// chequer's way: (that difference, the plain difference, the pairs of neighbours seen,
/// its first column and row counted from the first square looked at).
fn best_squares(
    full: &Gray,
    map: &Homography,
    (nc, nr): (usize, usize),
    shift: (f64, f64),
) -> Option<(f32, f32, usize, usize, usize)> {
    const INSET: f64 = 0.08;
    let (lo, cols, rows) = (-2i32, nc + 3, nr + 3);
    let value = |i: i32, k: i32| -> Option<f32> {
        let mut v = [0.0f32; 4];
        for (n, (u, t)) in [
            (INSET, INSET),
            (1.0 - INSET, INSET),
            (INSET, 1.0 - INSET),
            (1.0 - INSET, 1.0 - INSET),
        ]
        .into_iter()
        .enumerate()
        {
            let (x, y) = map.apply(f64::from(i) + u + shift.0, f64::from(k) + t + shift.1);
            if x < 1.0 || y < 1.0 || x >= full.w as f64 - 2.0 || y >= full.h as f64 - 2.0 {
                return None;
            }
            let (x, y) = (x.round() as isize, y.round() as isize);
            let mut sum = 0.0;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    sum += full.at(x + dx, y + dy);
                }
            }
            v[n] = sum / 9.0;
        }
        v.sort_by(f32::total_cmp);
        Some(0.5 * (v[1] + v[2]))
    };
    let squares: Vec<Option<f32>> = (0..rows)
        .flat_map(|k| (0..cols).map(move |i| (i, k)))
        .map(|(i, k)| value(lo + i as i32, lo + k as i32))
        .collect();
    let at = |i: usize, k: usize| squares[k * cols + i];
    // Each pair of neighbours (to the right and below) once: the chequer's signed
    // difference and the plain one. Some boards turn the chequer over at the river (each
    // side's squares as its own chequer), so the two halves are summed apart and the
    // pairs across the river left out.
    let pairs = |i0: usize, k0: usize| {
        let (mut halves, mut plain, mut n) = ([0.0f32; 2], 0.0f32, 0usize);
        for k in k0..k0 + 10 {
            for i in i0..i0 + 9 {
                let Some(a) = at(i, k) else { continue };
                let sign = if (i + k) % 2 == 0 { 1.0 } else { -1.0 };
                for (j, l) in [(i + 1, k), (i, k + 1)] {
                    if j >= i0 + 9 || l >= k0 + 10 || (l > k && k == k0 + 4) {
                        continue;
                    }
                    if let Some(b) = at(j, l) {
                        halves[usize::from(k >= k0 + 5)] += sign * (a - b);
                        plain += (a - b).abs();
                        n += 1;
                    }
                }
            }
        }
        (halves[0].abs() + halves[1].abs(), plain, n)
    };
    // How clearly the squares along one outer line of a window alternate (per pair, either
    // half of a column apart): a frame or margin beside the board is one colour all along.
    // The middle half of the pairs' signed differences tells it, not their sum: a window a
    // square off has its corner beyond the margin, and that one step from margin to
    // background would outweigh the rest.
    let edge = |squares: &mut dyn Iterator<Item = (usize, usize)>, river: Option<usize>| {
        let mut halves: [Vec<f32>; 2] = [Vec::new(), Vec::new()];
        let mut last: Option<(usize, f32)> = None;
        for (step, (i, k)) in squares.enumerate() {
            let Some(b) = at(i, k) else {
                last = None;
                continue;
            };
            if let Some((s, a)) = last
                && Some(s) != river
            {
                let sign = if (i + k) % 2 == 0 { 1.0 } else { -1.0 };
                halves[usize::from(river.is_some_and(|r| s > r))].push(sign * (b - a));
            }
            last = Some((step, b));
        }
        let n = halves[0].len() + halves[1].len();
        let weighed: f32 = halves
            .iter_mut()
            .map(|d| middle_mean(d).abs() * d.len() as f32)
            .sum();
        weighed / n.max(1) as f32
    };
    let outer = |i0: usize, k0: usize| {
        [
            edge(&mut (k0..k0 + 10).map(|k| (i0, k)), Some(4)),
            edge(&mut (k0..k0 + 10).map(|k| (i0 + 8, k)), Some(4)),
            edge(&mut (i0..i0 + 9).map(|i| (i, k0)), None),
            edge(&mut (i0..i0 + 9).map(|i| (i, k0 + 9)), None),
        ]
        .into_iter()
        .fold(f32::INFINITY, f32::min)
    };
    let windows: Vec<(f32, f32, usize, usize, usize)> = (0..=rows - 10)
        .flat_map(|k0| (0..=cols - 9).map(move |i0| (i0, k0)))
        .map(|(i0, k0)| {
            let (signed, plain, n) = pairs(i0, k0);
            (signed, plain, n, i0, k0)
        })
        .collect();
    let most = windows
        .iter()
        .map(|w| w.0)
        .fold(f32::NEG_INFINITY, f32::max);
    // A window one square off, over a margin as dark or light as one colour of the squares,
    // alternates nearly as much as the board: of the windows close to the most, the one
    // whose four outer lines all alternate is the board; where none of them does (each
    // measures 0), the one that alternates most.
    windows
        .into_iter()
        .filter(|w| w.0 >= 0.9 * most)
        .max_by(|a, b| {
            outer(a.3, a.4)
                .total_cmp(&outer(b.3, b.4))
                .then(a.0.total_cmp(&b.0))
        })
}

/// The mean of the middle half of `values` (sorted in place), 0 for none.
fn middle_mean(values: &mut [f32]) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f32::total_cmp);
    let quarter = values.len() / 4;
    let middle = &values[quarter..values.len() - quarter];
    middle.iter().sum::<f32>() / middle.len() as f32
}

/// One round of following every line of the grid `map` (line places to pixels, `nc`
/// columns and `nr` rows), looking up to `reach` spacings either side of each: the new map
/// and the share of places where the line was seen. With `river`, the inner columns are not
/// looked for between the fifth and sixth rows.
fn follow_lines(
    full: &Gray,
    kind: Evidence,
    map: &Homography,
    (nc, nr): (usize, usize),
    river: bool,
    reach: f64,
) -> Option<(Homography, f64)> {
    let spacing = spacing_of(map, (nc, nr));
    let look = Look::at(kind, spacing, (reach * spacing).max(2.0));
    // Between two pieces only the middle of a gap shows the line: most places are there.
    let fractions = [0.25, 0.35, 0.45, 0.5, 0.55, 0.65, 0.75];
    let mut seen = 0usize;
    let mut looked = 0usize;
    // Each line's fit, or None when too few places along it agree (pieces hide a row of
    // the start position all along; the rings of their discs then give scattered places).
    let mut follow = |line: usize, rows: bool| -> Option<Line> {
        let gaps = if rows { nc - 1 } else { nr - 1 };
        let mut found: Vec<(f64, f64, f64)> = Vec::new();
        let mut here = 0;
        for gap in 0..gaps {
            if river && !rows && gap == 4 && line > 0 && line < nc - 1 {
                continue;
            }
            for u in fractions {
                let t = gap as f64 + u;
                let (x, y) = if rows {
                    map.apply(t, line as f64)
                } else {
                    map.apply(line as f64, t)
                };
                here += 1;
                if let Some((pos, strength)) = strongest_across(full, &look, (x, y), rows) {
                    let along = if rows { x } else { y };
                    found.push((along, pos, f64::from(strength)));
                }
            }
        }
        looked += here;
        let (fitted, inliers) = fit_line(&found, (0.05 * spacing).max(1.5))?;
        seen += inliers;
        (inliers >= 4 && inliers * 10 >= here * 3).then_some(fitted)
    };
    let mut rows: Vec<Option<Line>> = (0..nr).map(|k| follow(k, true)).collect();
    let mut columns: Vec<Option<Line>> = (0..nc).map(|i| follow(i, false)).collect();
    let crossings = |rows: &[Option<Line>], columns: &[Option<Line>]| {
        let mut pairs = Vec::with_capacity(nc * nr);
        for (k, row) in rows.iter().enumerate() {
            for (i, column) in columns.iter().enumerate() {
                if let (Some(row), Some(column)) = (row, column) {
                    pairs.push(((i as f64, k as f64), crossing(*row, *column)));
                }
            }
        }
        pairs
    };
    // A hidden outer row can be fitted to a frame beside it, which is as straight: the
    // lines must also agree with each other, so the line furthest from the map the others
    // make is dropped until all agree.
    loop {
        let good = |lines: &[Option<Line>]| lines.iter().filter(|l| l.is_some()).count();
        if good(&rows) < 3 || good(&columns) < 3 {
            return None;
        }
        let pairs = crossings(&rows, &columns);
        let fitted = fit_homography(&pairs)?;
        // The worst crossing decides whether to go on; the mean over a line which line goes
        // (one bad column puts every row's worst crossing as far off as its own).
        let mut off_rows = vec![(0.0f64, 0usize); nr];
        let mut off_columns = vec![(0.0f64, 0usize); nc];
        let mut worst = 0.0f64;
        for &((i, k), (x, y)) in &pairs {
            let (px, py) = fitted.apply(i, k);
            let d = ((px - x).powi(2) + (py - y).powi(2)).sqrt();
            worst = worst.max(d);
            for off in [&mut off_rows[k as usize], &mut off_columns[i as usize]] {
                off.0 += d;
                off.1 += 1;
            }
        }
        let mean = |o: &(f64, usize)| o.0 / o.1.max(1) as f64;
        let worst_row =
            (0..nr).max_by(|&a, &b| mean(&off_rows[a]).total_cmp(&mean(&off_rows[b])))?;
        let worst_column =
            (0..nc).max_by(|&a, &b| mean(&off_columns[a]).total_cmp(&mean(&off_columns[b])))?;
        if worst <= (0.08 * spacing).max(1.5) {
            return Some((fitted, seen as f64 / looked.max(1) as f64));
        }
        if mean(&off_rows[worst_row]) >= mean(&off_columns[worst_column]) {
            rows[worst_row] = None;
        } else {
            columns[worst_column] = None;
        }
    }
}

/// How lines are looked for across: with which evidence, how far either side (pixels), at
/// what distance a ridge's sides are taken, and how far along a line must run on.
#[derive(Clone, Copy, Debug)]
struct Look {
    kind: Evidence,
    reach: f64,
    r: isize,
    step: isize,
}

impl Look {
    /// How lines of a grid `spacing` pixels apart are looked for, `reach` pixels either side.
    fn at(kind: Evidence, spacing: f64, reach: f64) -> Look {
        Look {
            kind,
            reach,
            r: ((spacing * 0.08).round() as isize).clamp(2, 8),
            step: ((spacing * 0.06).round() as isize).max(2),
        }
    }
}

/// The least evidence of a line followed ([`strongest_across`]), in grey levels.
const LINE: f32 = 10.0;
/// The same on the copy smoothed for grain, where it is averaged along the line too.
const FAINT_LINE: f32 = 6.0;
/// On that copy, the least reach (pixels either side) over which a line must stand out
/// from the average.
const FAINT_BACKGROUND: f64 = 6.0;

/// The place across the line through (`x`, `y`) within `reach` pixels with the strongest
/// evidence (y for a row, x for a column), to a fraction of a pixel, with its strength;
/// `None` when nothing there is clearly a line.
fn strongest_across(
    full: &Gray,
    look: &Look,
    (x, y): (f64, f64),
    rows: bool,
) -> Option<(f64, f32)> {
    let Look {
        kind,
        reach,
        r,
        step,
    } = *look;
    let (along, across) = if rows { (x, y) } else { (y, x) };
    let along = along.round() as isize;
    let lo = (across - reach).round() as isize;
    let hi = (across + reach).round() as isize;
    let limit = if rows { full.h } else { full.w } as isize;
    if along < 0 || along >= if rows { full.w } else { full.h } as isize {
        return None;
    }
    // A line runs on: the weakest of three places along it, so the curved rim of a disc
    // or a stroke's end does not pass for one. On a grainy scan each place is the mean of
    // three pixels along the line first, so the grain averages out and the line does not.
    let span: isize = if full.faint { 1 } else { 0 };
    let value = |c: isize| {
        [-step, 0, step]
            .into_iter()
            .map(|d| {
                // The grey `o` pixels across the line, `d` along it (the mean of `span`
                // pixels either side along it).
                let grey = |o: isize| {
                    (-span..=span)
                        .map(|e| {
                            if rows {
                                full.at(along + d + e, c + o)
                            } else {
                                full.at(c + o, along + d + e)
                            }
                        })
                        .sum::<f32>()
                        / (2 * span + 1) as f32
                };
                kind.of(grey, r)
            })
            .fold(f32::INFINITY, f32::min)
    };
    let (mut best, mut best_at, mut best_score) = (0.0f32, lo, 0.0f32);
    let mut total = 0.0f32;
    for c in lo.max(0)..=hi.min(limit - 1) {
        let v = value(c);
        total += v;
        // Nearer the prediction is likelier: a frame beside the outer line is as dark as it.
        let d = ((c as f64 - across) / reach) as f32;
        let score = v * (1.0 - 0.6 * d * d);
        if score > best_score {
            best = v;
            best_at = c;
            best_score = score;
        }
    }
    let mut count = (hi.min(limit - 1) - lo.max(0) + 1).max(1) as f32;
    // On a grainy scan a line is blurred over a few pixels, which on a small board's
    // last, narrowest look fill most of the window: its average is taken over at least
    // FAINT_BACKGROUND pixels either side.
    if full.faint && reach < FAINT_BACKGROUND {
        let (wide_lo, wide_hi) = (
            ((across - FAINT_BACKGROUND).round() as isize).max(0),
            ((across + FAINT_BACKGROUND).round() as isize).min(limit - 1),
        );
        total = (wide_lo..=wide_hi).map(value).sum();
        count = (wide_hi - wide_lo + 1).max(1) as f32;
    }
    // A line is a clear peak: strong, well above the average across the window, and not
    // at its end (the true top would lie outside); averaged along, a scan's line may be
    // fainter.
    let least = if full.faint { FAINT_LINE } else { LINE };
    if best < least
        || best < 3.0 * total / count
        || best_at <= lo.max(0)
        || best_at >= hi.min(limit - 1)
    {
        return None;
    }
    let (a, b) = (value(best_at - 1), value(best_at + 1));
    let denom = a - 2.0 * best + b;
    let shift = if denom < 0.0 {
        (0.5 * (a - b) / denom).clamp(-0.5, 0.5)
    } else {
        0.0
    };
    Some((best_at as f64 + f64::from(shift), best))
}

/// The weighted least-squares line through (`t`, `v`, `weight`) points (v = a + b·t), with the
/// points further than `tolerance` from a first fit dropped: the line and how many stayed.
fn fit_line(points: &[(f64, f64, f64)], tolerance: f64) -> Option<(Line, usize)> {
    let fit = |use_it: &dyn Fn(&(f64, f64, f64)) -> bool| -> Option<Line> {
        let (mut sw, mut st, mut sv, mut stt, mut stv) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for p in points.iter().filter(|p| use_it(p)) {
            let w = p.2;
            sw += w;
            st += w * p.0;
            sv += w * p.1;
            stt += w * p.0 * p.0;
            stv += w * p.0 * p.1;
        }
        let det = sw * stt - st * st;
        if sw <= 0.0 || det.abs() < 1e-9 * sw * sw.max(1.0) {
            return None;
        }
        let b = (sw * stv - st * sv) / det;
        Some(Line {
            a: (sv - b * st) / sw,
            b,
        })
    };
    if points.len() < 3 {
        return None;
    }
    // A robust start: the median of the places, flat; then two rounds of fit and trim.
    let mut vs: Vec<f64> = points.iter().map(|p| p.1).collect();
    vs.sort_by(f64::total_cmp);
    let mut line = Line {
        a: vs[vs.len() / 2],
        b: 0.0,
    };
    let mut wide = tolerance * 3.0;
    for _ in 0..3 {
        let l = line;
        line = fit(&|p| (p.1 - l.a - l.b * p.0).abs() <= wide)?;
        wide = tolerance;
    }
    let inliers = points
        .iter()
        .filter(|p| (p.1 - line.a - line.b * p.0).abs() <= tolerance)
        .count();
    Some((line, inliers))
}

/// A grid place and the pixel it falls on.
type Pair = ((f64, f64), (f64, f64));

/// The homography taking each pair's first place to its second, fitted by least squares
/// (the direct linear method with the last entry fixed at 1, pixels centred and scaled
/// for a well-conditioned system).
fn fit_homography(pairs: &[Pair]) -> Option<Homography> {
    let n = pairs.len() as f64;
    let (mx, my) = pairs
        .iter()
        .fold((0.0, 0.0), |acc, (_, p)| (acc.0 + p.0 / n, acc.1 + p.1 / n));
    let scale = pairs
        .iter()
        .map(|(_, p)| ((p.0 - mx).powi(2) + (p.1 - my).powi(2)).sqrt())
        .sum::<f64>()
        / n;
    if scale.is_nan() || scale <= 1e-9 {
        return None;
    }
    let mut ata = [[0.0f64; 8]; 8];
    let mut atb = [0.0f64; 8];
    for &((u, v), (x, y)) in pairs {
        let (x, y) = ((x - mx) / scale, (y - my) / scale);
        let rows = [
            ([u, v, 1.0, 0.0, 0.0, 0.0, -u * x, -v * x], x),
            ([0.0, 0.0, 0.0, u, v, 1.0, -u * y, -v * y], y),
        ];
        for (row, rhs) in rows {
            for i in 0..8 {
                atb[i] += row[i] * rhs;
                for j in 0..8 {
                    ata[i][j] += row[i] * row[j];
                }
            }
        }
    }
    let h = solve8(ata, atb)?;
    // Back from centred and scaled pixels.
    let m = [
        scale * h[0] + mx * h[6],
        scale * h[1] + mx * h[7],
        scale * h[2] + mx,
        scale * h[3] + my * h[6],
        scale * h[4] + my * h[7],
        scale * h[5] + my,
        h[6],
        h[7],
        1.0,
    ];
    m.iter().all(|v| v.is_finite()).then_some(Homography(m))
}

/// Solves the 8×8 system `a·x = b` by Gaussian elimination with partial pivoting.
fn solve8(mut a: [[f64; 8]; 8], mut b: [f64; 8]) -> Option<[f64; 8]> {
    for col in 0..8 {
        let pivot = (col..8).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..8 {
            let factor = a[row][col] / a[col][col];
            let pivot_row = a[col];
            for (k, v) in a[row].iter_mut().enumerate().skip(col) {
                *v -= factor * pivot_row[k];
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0.0; 8];
    for row in (0..8).rev() {
        let s: f64 = (row + 1..8).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::super::synthetic::{self, Style};
    use super::*;

    #[test]
    fn a_fan_that_folds_its_lines_inside_a_long_region_gives_a_finite_profile() {
        // A region far wider than it is tall: the steepest fans of the search make the
        // lines meet inside it (1 + fan·d reaches 0 and below), where no board's lines do.
        let (w, h) = (400, 30);
        let maps = Maps {
            w,
            h,
            across: vec![1.0; w * h],
            down: vec![0.0; w * h],
        };
        let region = Rect {
            x0: 0,
            y0: 0,
            x1: w,
            y1: h,
        };
        let found = evidence(&maps, true, region, (0.0, f64::INFINITY));
        for fan in [0.01, -0.01, 0.005, -0.0125, 0.02] {
            for slope in [0.0, 0.05, -0.05] {
                let lay = Lay {
                    slope,
                    fan,
                    centre: 200.0,
                    middle: 15.0,
                };
                let p = profile(&found, &lay, -10.0, 60);
                assert!(p.iter().all(|v| v.is_finite()), "fan {fan} slope {slope}");
            }
        }
    }

    #[test]
    fn a_comb_of_capped_lines_is_not_stretched_onto_the_frame_beside_a_board() {
        // Nine lines 30 apart, and a frame's two strong lines a few pixels outside the
        // outer ones (as XQWLight draws its board).
        let mut p = vec![0.05f32; 320];
        // Each line a peak three pixels wide either way, as a line a few pixels wide
        // gives in the smoothed profile.
        let mut add = |at: f64, v: f32| {
            let i = at.round() as usize;
            for d in 0..3 {
                let share = v * (1.0 - d as f32 / 3.0);
                p[i + d] += share;
                if d > 0 {
                    p[i - d] += share;
                }
            }
        };
        let lines: Vec<f64> = (0..9).map(|k| 33.0 + 30.0 * f64::from(k)).collect();
        for &at in &lines {
            add(at, 1.0);
        }
        for at in [28.0, 278.0] {
            add(at, 8.0);
        }
        let lay = Lay {
            slope: 0.0,
            fan: 0.0,
            centre: 0.0,
            middle: 0.0,
        };
        let range = (20.0, 40.0);
        // Summed, the comb from frame to frame wins.
        let summed = comb_in(&p, &lay, 0.0, 9, range, Score::Sum);
        assert!(
            summed.is_none_or(|(c, _, _)| (c.place(0.0) - lines[0]).abs() > 2.0),
            "{summed:?}"
        );
        let (comb, _, _) = comb_in(&p, &lay, 0.0, 9, range, Score::Capped).expect("a comb");
        assert_eq!(comb.count, 9, "{comb:?}");
        for (k, at) in lines.iter().enumerate() {
            assert!((comb.place(k as f64) - at).abs() < 1.0, "{k}: {comb:?}");
        }
    }

    #[test]
    fn faint_columns_are_found_where_a_wider_comb_over_strong_marks_does_not_stand_out() {
        // Nine faint lines 14.5 apart, and beside them three strong marks 18.8 apart (a
        // frame's edges, a panel, words) that a wider comb collects more evidence from.
        let mut p = vec![0.05f32; 290];
        let mut add = |at: f64, v: f32| {
            let i = at.round() as usize;
            p[i] += v;
            p[i + 1] += 0.5 * v;
            p[i - 1] += 0.5 * v;
        };
        let lines: Vec<f64> = (0..9).map(|k| 130.0 + 14.5 * f64::from(k)).collect();
        for &at in &lines {
            add(at, 1.0);
        }
        for at in [8.0, 26.8, 45.6] {
            add(at, 5.0);
        }
        let lay = Lay {
            slope: 0.0,
            fan: 0.0,
            centre: 0.0,
            middle: 0.0,
        };
        let ranges = column_spacings(14.4, 5.0, 290.0);
        // The wider comb wins over all spacings allowed, and is no grid's.
        let wide = comb_in(&p, &lay, 0.0, 9, ranges[0], Score::Sum);
        assert!(wide.is_none(), "{wide:?}");
        let (comb, _, _) = first_comb(&p, &lay, 0.0, 9, &ranges, Score::Sum).expect("a comb");
        assert_eq!(comb.count, 9, "{comb:?}");
        for (k, at) in lines.iter().enumerate() {
            assert!((comb.place(k as f64) - at).abs() < 1.0, "{k}: {comb:?}");
        }
    }

    #[test]
    fn a_profile_splits_each_pixel_between_the_two_bins_either_side_of_its_line() {
        // Evidence of random strength with gaps, laid straight, tilted and fanned both ways:
        // the profile before smoothing, bin by bin, against the definition pixel by pixel.
        let mut rng = crate::play::Rng::new(11);
        let (w, h) = (70, 90);
        let mut across = vec![0.0f32; w * h];
        for v in across.iter_mut() {
            if rng.unit() < 0.5 {
                *v = (rng.unit() * 10.0) as f32;
            }
        }
        let maps = Maps {
            w,
            h,
            across,
            down: vec![0.0; w * h],
        };
        let region = Rect {
            x0: 3,
            y0: 5,
            x1: 66,
            y1: 88,
        };
        let found = evidence(&maps, true, region, (0.0, f64::INFINITY));
        for (slope, fan) in [
            (0.0, 0.0),
            (0.03, 0.0),
            (-0.05, 0.0),
            (0.02, 0.0015),
            (-0.04, -0.001),
        ] {
            let lay = Lay {
                slope,
                fan,
                centre: 34.5,
                middle: 46.0,
            };
            for base in [-4.3, 0.0, 12.7] {
                let len = 70;
                let mut want = vec![0.0f64; len];
                for a in region.y0..region.y1 {
                    for c in region.x0..region.x1 {
                        let v = f64::from(maps.across[a * w + c]);
                        let d = c as f64 - lay.centre;
                        let rho =
                            (a as f64 - d * (slope - fan * lay.middle)) / (1.0 + fan * d) - base;
                        let i = rho.floor();
                        if rho >= 0.0 && (i as usize) + 1 < len {
                            want[i as usize] += v * (1.0 - (rho - i));
                            want[i as usize + 1] += v * (rho - i);
                        }
                    }
                }
                // The profile is smoothed (1 2 1) inside its ends; smooth the wanted one alike.
                let mut smooth = want.clone();
                for i in 1..len - 1 {
                    smooth[i] = 0.25 * want[i - 1] + 0.5 * want[i] + 0.25 * want[i + 1];
                }
                let got = profile(&found, &lay, base, len);
                assert!(smooth.iter().any(|&v| v > 100.0), "{slope} {fan} {base}");
                for (i, (g, s)) in got.iter().zip(&smooth).enumerate() {
                    assert!(
                        (f64::from(*g) - s).abs() <= 1e-3 * (1.0 + s.abs()),
                        "slope {slope} fan {fan} base {base} bin {i}: {g} against {s}"
                    );
                }
            }
        }
    }

    /// The largest distance, in spacings, between where `found` and `truth` put the points.
    fn error(found: &Homography, truth: &Homography) -> f64 {
        let (a, b) = (truth.apply(0.0, 0.0), truth.apply(1.0, 0.0));
        let spacing = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
        let mut worst: f64 = 0.0;
        for y in 0..10 {
            for x in 0..9 {
                let (p, q) = (
                    found.apply(x as f64, y as f64),
                    truth.apply(x as f64, y as f64),
                );
                worst = worst.max(((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt() / spacing);
            }
        }
        worst
    }

    /// How far off each grid found is ([`error`]), for a failure to show.
    fn errors(found: &Found, truth: &Homography) -> Vec<f64> {
        found.grids.iter().map(|g| error(&g.map, truth)).collect()
    }

    /// A square picture 13 spacings wide of a plain board drawn through `map`, with discs
    /// on `pieces`.
    fn square_picture(map: &Homography, spacing: f64, pieces: &[(u8, u8)]) -> RgbImage {
        let style = Style {
            pieces: pieces.to_vec(),
            ..Style::default()
        };
        let side = (13.0 * spacing) as u32;
        let mut image = synthetic::canvas(side, side, [236, 238, 240]);
        synthetic::draw(&mut image, map, &style);
        image
    }

    fn one_board(width: u32, height: u32, truth: &Homography, style: &Style) -> Found {
        let mut image = synthetic::canvas(width, height, [236, 238, 240]);
        synthetic::draw(&mut image, truth, style);
        find(&image)
    }

    fn assert_found(found: &Found, truth: &Homography, tolerance: f64) {
        assert_eq!(found.grids.len(), 1, "{found:?}");
        let e = error(&found.grids[0].map, truth);
        assert!(e < tolerance, "points off by {e:.3} spacings: {found:?}");
    }

    #[test]
    fn an_upright_board_is_found_at_several_sizes_and_places() {
        for (spacing, origin) in [
            (25.0, (40.0, 30.0)),
            (33.0, (500.0, 200.0)),
            (52.0, (130.0, 75.0)),
            (90.0, (300.0, 60.0)),
        ] {
            let truth = synthetic::map(origin, spacing, 0.0, 0.0);
            let style = Style {
                pieces: synthetic::start_points(),
                ..Style::default()
            };
            let found = one_board(1200, 1000, &truth, &style);
            assert_found(&found, &truth, 0.08);
            assert!(!found.grids[0].chequer);
            let area = found.grids[0].area;
            assert!(
                (f64::from(area.width) - 8.0 * spacing).abs() <= 2.0,
                "{area:?}"
            );
            assert!((f64::from(area.x) - origin.0).abs() <= 1.5, "{area:?}");
        }
    }

    #[test]
    fn a_board_turned_by_two_degrees_either_way_is_found() {
        for degrees in [-2.0, -1.2, 0.7, 2.0] {
            let truth = synthetic::map((150.0, 90.0), 45.0, degrees, 0.0);
            let style = Style {
                pieces: synthetic::start_points(),
                ..Style::default()
            };
            assert_found(&one_board(800, 700, &truth, &style), &truth, 0.08);
        }
    }

    #[test]
    fn a_board_seen_at_a_slant_is_found() {
        let truth = synthetic::map((120.0, 60.0), 50.0, 1.0, -0.12);
        let style = Style {
            pieces: synthetic::start_points(),
            ..Style::default()
        };
        assert_found(&one_board(800, 700, &truth, &style), &truth, 0.1);
    }

    #[test]
    fn light_lines_on_a_dark_board_and_thick_lines_are_found() {
        let truth = synthetic::map((60.0, 40.0), 40.0, 0.0, 0.0);
        let dark = Style {
            paper: [40, 60, 50],
            ink: [220, 230, 220],
            ..Style::default()
        };
        assert_found(&one_board(500, 480, &truth, &dark), &truth, 0.08);
        let thick = Style {
            width: 4.0,
            pieces: synthetic::start_points(),
            ..Style::default()
        };
        assert_found(&one_board(500, 480, &truth, &thick), &truth, 0.08);
    }

    #[test]
    fn a_chequer_board_has_its_points_in_the_squares() {
        let truth = synthetic::map((80.0, 70.0), 44.0, 0.0, 0.0);
        let style = Style {
            chequer: true,
            pieces: synthetic::start_points(),
            ..Style::default()
        };
        let found = one_board(700, 700, &truth, &style);
        assert_found(&found, &truth, 0.08);
        assert!(found.grids[0].chequer);
    }

    #[test]
    fn a_chequer_of_coloured_squares_without_lines_is_found_by_its_edges() {
        let truth = synthetic::map((70.0, 60.0), 42.0, 0.0, 0.0);
        let style = Style {
            chequer: true,
            paper: [238, 210, 160],
            dark: Some([150, 100, 60]),
            pieces: synthetic::start_points(),
            ..Style::default()
        };
        let found = one_board(600, 600, &truth, &style);
        assert_found(&found, &truth, 0.08);
        assert!(found.grids[0].chequer);
    }

    #[test]
    fn the_outer_columns_are_the_ones_that_cross_the_river() {
        // A frame drawn close round the outer lines weakens them (a thin line beside a thin
        // line is no ridge at a distance), and a panel's edge one spacing to the right looks
        // like one more column: only the river tells the board's columns.
        let mut bad = Vec::new();
        for frame in [0.06, 0.08, 0.1, 0.12] {
            for panel in [8.6, 9.0, 9.4] {
                for with_pieces in [false, true] {
                    let truth = synthetic::map((120.0, 60.0), 50.0, 0.0, 0.0);
                    let pieces: Vec<(u8, u8)> = if with_pieces {
                        (0..10).map(|y| (8, y)).collect()
                    } else {
                        synthetic::start_points()
                    };
                    let style = Style {
                        frame,
                        width: 2.0,
                        pieces,
                        ..Style::default()
                    };
                    let mut image = synthetic::canvas(900, 700, [236, 238, 240]);
                    synthetic::draw(&mut image, &truth, &style);
                    let (x, _) = truth.apply(panel, 0.0);
                    for y in 0..700 {
                        for dx in 0..3 {
                            image.put_pixel(x as u32 + dx, y, image::Rgb([60, 60, 70]));
                        }
                    }
                    let f = find(&image);
                    let ok = f.grids.len() == 1 && error(&f.grids[0].map, &truth) < 0.08;
                    if !ok {
                        bad.push((frame, panel, with_pieces, errors(&f, &truth)));
                    }
                }
            }
        }
        assert!(bad.is_empty(), "{bad:?}");
    }

    #[test]
    fn the_river_says_which_rows_are_the_boards() {
        // A comb of rows one off (a title bar's edge taken for an outer row hidden by
        // pieces) is moved back by the river, which only the outer columns cross.
        let placements: [Vec<(u8, u8)>; 3] = [
            synthetic::start_points(),
            (0..9)
                .map(|x| (x, 9))
                .chain([(4, 0), (2, 4), (6, 5)])
                .collect(),
            vec![(4, 0), (4, 9), (3, 4), (5, 5), (1, 3), (7, 6)],
        ];
        let mut bad = Vec::new();
        for spacing in [24.0, 40.0] {
            for (n, pieces) in placements.iter().enumerate() {
                let truth = synthetic::map((2.0 * spacing, 2.0 * spacing), spacing, 0.0, 0.0);
                let gray = Gray::of(&square_picture(&truth, spacing, pieces));
                for off in [-1, 0, 1] {
                    let map = shifted(&truth, 0.0, f64::from(off));
                    let river = River::of(&gray, Evidence::Ridge, &map, (9, 10));
                    let (shift, _) = river_rows(&gray, &map, &river);
                    if shift != -off {
                        bad.push((spacing, n, off, shift));
                    }
                }
            }
        }
        assert!(bad.is_empty(), "(spacing, pieces, off, shift): {bad:?}");
    }

    #[test]
    fn the_lines_run_unbroken_to_the_empty_points_and_never_to_a_piece() {
        // The pieces' strokes run along the board's lines near their points, as many
        // characters' do (a cross as far as 0.18 spacings out); the river's words and a
        // coordinate stand beside points without covering them.
        let mut pieces = synthetic::start_points();
        pieces.extend([(4, 4), (6, 5), (8, 4)]);
        let mut bad = Vec::new();
        for spacing in [24.0, 40.0] {
            for degrees in [0.0, 1.5] {
                let map = synthetic::map((2.0 * spacing, 2.0 * spacing), spacing, degrees, 0.0);
                let mut image = square_picture(&map, spacing, &pieces);
                // Marks in grid places: two words in the river, a letter under a corner.
                let marks = [
                    (1.3, 2.7, 4.3, 4.7),
                    (5.3, 6.7, 4.3, 4.7),
                    (-0.1, 0.2, 9.15, 9.4),
                ];
                for (x0, x1, y0, y1) in marks {
                    for n in 0..=40 {
                        for m in 0..=20 {
                            let u = x0 + (x1 - x0) * f64::from(n) / 40.0;
                            let v = y0 + (y1 - y0) * f64::from(m) / 20.0;
                            let (px, py) = map.apply(u, v);
                            image.put_pixel(px as u32, py as u32, image::Rgb([40, 30, 30]));
                        }
                    }
                }
                let bare = bare_points(&Gray::of(&image), Evidence::Ridge, &map);
                for k in 0..10u8 {
                    for i in 0..9u8 {
                        let piece = pieces.contains(&(i, k));
                        // On a small board the palace's diagonals come within the search
                        // of the lines near its centre: missing a bare point is safe.
                        let centre = i == 4 && (k == 1 || k == 8);
                        let missed = !piece && centre && spacing < 30.0;
                        if bare[usize::from(k) * 9 + usize::from(i)] == piece && !missed {
                            bad.push((spacing, degrees, i, k, piece));
                        }
                    }
                }
            }
        }
        assert!(
            bad.is_empty(),
            "(spacing, degrees, column, row, piece): {bad:?}"
        );
    }

    /// Square tiles `side` pixels wide, light with a dark rim, on the grid places `places`
    /// (column, row) of `truth`, as some programs draw a chequer's pieces.
    fn square_tiles(image: &mut RgbImage, truth: &Homography, side: f64, places: &[(u8, u8)]) {
        for &(x, y) in places {
            let (cx, cy) = truth.apply(f64::from(x), f64::from(y));
            let half = side / 2.0;
            for py in (cy - half) as u32..(cy + half) as u32 {
                for px in (cx - half) as u32..(cx + half) as u32 {
                    let rim =
                        (f64::from(px) - cx).abs().max((f64::from(py) - cy).abs()) > half - 3.0;
                    let c = if rim { [60, 40, 30] } else { [250, 245, 230] };
                    image.put_pixel(px, py, image::Rgb(c));
                }
            }
        }
    }

    #[test]
    fn a_chequer_beside_a_margin_of_one_of_its_colours_is_found_where_its_squares_are() {
        // The margin round the board is the light squares' colour, so a window of squares
        // one column off alternates nearly as much as the board itself (half of its outer
        // pairs are as unlike as the board's); square tiles fill most of the squares they
        // stand on, outline and all, and hide much of the board's own alternation.
        let mut bad = Vec::new();
        for column in [0u8, 8] {
            for tile in [0.9, 0.92] {
                let truth = synthetic::map((100.0, 80.0), 44.0, 0.0, 0.0);
                let style = Style {
                    chequer: true,
                    paper: [238, 222, 190],
                    dark: Some([205, 180, 140]),
                    ..Style::default()
                };
                let mut image = synthetic::canvas(800, 700, [238, 222, 190]);
                synthetic::draw(&mut image, &truth, &style);
                let mut places: Vec<(u8, u8)> = (0..10).map(|y| (column, y)).collect();
                places.extend([(4, 0), (3, 0), (5, 9), (8 - column, 9), (2, 6), (6, 3)]);
                square_tiles(&mut image, &truth, tile * 44.0, &places);
                let f = find(&image);
                let ok = f.grids.len() == 1
                    && f.grids[0].chequer
                    && error(&f.grids[0].map, &truth) < 0.15;
                if !ok {
                    bad.push((column, tile, errors(&f, &truth)));
                }
            }
        }
        assert!(bad.is_empty(), "{bad:?}");
    }

    /// A comb of `count` upright lines, the first at `offset`, `spacing` apart (working
    /// pixels as the picture's, across a picture 800 wide and high).
    fn comb(offset: f64, spacing: f64, count: usize) -> Comb {
        Comb {
            lay: Lay {
                slope: 0.0,
                fan: 0.0,
                centre: 400.0,
                middle: 400.0,
            },
            offset,
            spacing,
            chirp: 0.0,
            count,
        }
    }

    #[test]
    fn a_grid_one_line_more_each_way_is_a_chequer_only_where_its_squares_alternate() {
        let spacing = 40.0;
        // The inner lines of a chequer of coloured squares with tiles on it, as a grid of
        // points: the edges between squares make the chequer one more line each way.
        let truth = synthetic::map((100.0, 90.0), spacing, 0.0, 0.0);
        let style = Style {
            chequer: true,
            paper: [238, 222, 190],
            dark: Some([208, 192, 160]),
            ..Style::default()
        };
        let mut image = synthetic::canvas(800, 800, [30, 45, 40]);
        synthetic::draw(&mut image, &truth, &style);
        square_tiles(
            &mut image,
            &truth,
            0.85 * spacing,
            &synthetic::start_points(),
        );
        let (x, y) = truth.apply(0.5, 0.5);
        let inner = Coarse {
            rows: comb(y, spacing, 10),
            columns: comb(x, spacing, 9),
        };
        let full = Gray::of(&image);
        let found = inner
            .as_chequers()
            .iter()
            .find_map(|c| refine(&full, Evidence::Step, c, 1, true));
        let (grid, _) = found.expect("the chequer");
        assert!(grid.chequer);
        assert!(
            error(&grid.map, &truth) < 0.1,
            "{}",
            error(&grid.map, &truth)
        );
        // A board of points: its squares are of one colour, so no grid of it one line more
        // each way is a chequer, whichever way it grows.
        let style = Style {
            pieces: synthetic::start_points(),
            ..Style::default()
        };
        let mut image = synthetic::canvas(800, 800, [30, 45, 40]);
        synthetic::draw(&mut image, &truth, &style);
        // Drawn on the same places: its lines where the chequer's squares' middles were.
        let (x, y) = truth.apply(0.0, 0.0);
        let points = Coarse {
            rows: comb(y, spacing, 10),
            columns: comb(x, spacing, 9),
        };
        let full = Gray::of(&image);
        assert!(refine(&full, Evidence::Ridge, &points, 1, false).is_some());
        for c in points.as_chequers() {
            assert!(refine(&full, Evidence::Step, &c, 1, true).is_none());
        }
    }

    #[test]
    fn a_chequer_found_in_its_place_replaces_a_grid_of_points_that_showed_few_lines() {
        let grid = |x: f64, chequer: bool| {
            let map = Homography::upright((x, 50.0), 40.0);
            Grid {
                map,
                area: Area {
                    x: x as u32,
                    y: 50,
                    width: 320,
                    height: 360,
                },
                chequer,
                bare: [false; 90],
            }
        };
        let kept = |grids: Vec<Grid>, support: Vec<f64>, squares: Vec<Grid>| {
            Search {
                found: Found {
                    grids,
                    too_small: None,
                },
                support,
                squares: squares.into_iter().map(|g| (g, 0.5)).collect(),
            }
            .chequers_kept()
            .grids
        };
        let points = grid(50.0, false);
        let square = grid(30.0, true);
        // Few of the points' lines shown: the chequer in its place wins.
        assert_eq!(kept(vec![points], vec![0.5], vec![square]), vec![square]);
        // Most of them shown, or a chequer already there: what was found stays.
        assert_eq!(kept(vec![points], vec![0.8], vec![square]), vec![points]);
        let other = grid(60.0, true);
        assert_eq!(kept(vec![other], vec![0.4], vec![square]), vec![other]);
        // Nothing else found: the chequer; one elsewhere is added to what was.
        assert_eq!(kept(vec![], vec![], vec![square]), vec![square]);
        let far = grid(900.0, false);
        assert_eq!(kept(vec![far], vec![0.5], vec![square]), vec![far, square]);
    }

    #[test]
    fn a_chequer_in_a_margin_narrower_than_a_square_is_found_where_its_squares_are() {
        // A light margin less than a square wide, then a dark page: a window of squares one
        // column and one row off reaches past the margin at its corner, and that one step
        // from margin to page must not pass for its outer lines alternating. Square tiles
        // on every point of the start position hide most of the back ranks' squares.
        let mut bad = Vec::new();
        for (spacing, margin) in [(50.0, 0.65), (44.0, 0.6), (56.0, 0.7)] {
            let truth = synthetic::map((200.0, 120.0), spacing, 0.0, 0.0);
            let style = Style {
                chequer: true,
                paper: [238, 222, 190],
                dark: Some([205, 180, 140]),
                ..Style::default()
            };
            let mut image = synthetic::canvas(1000, 900, [35, 42, 40]);
            let (x0, y0) = truth.apply(-0.5 - margin, -0.5 - margin);
            let (x1, y1) = truth.apply(8.5 + margin, 9.5 + margin);
            for py in y0 as u32..y1 as u32 {
                for px in x0 as u32..x1 as u32 {
                    image.put_pixel(px, py, image::Rgb([240, 228, 196]));
                }
            }
            synthetic::draw(&mut image, &truth, &style);
            square_tiles(
                &mut image,
                &truth,
                0.9 * spacing,
                &synthetic::start_points(),
            );
            let f = find(&image);
            let ok =
                f.grids.len() == 1 && f.grids[0].chequer && error(&f.grids[0].map, &truth) < 0.15;
            if !ok {
                bad.push((spacing, margin, errors(&f, &truth)));
            }
        }
        assert!(bad.is_empty(), "{bad:?}");
    }

    #[test]
    fn a_chequer_turned_over_at_the_river_is_found_by_its_squares() {
        // Squares of two colours, each half a chequer of its own, on a page of the light
        // squares' colour, with only the river's and the palaces' outlines drawn: the thin
        // lines alone are no grid, and the squares' colours say where the board is.
        for (spacing, degrees) in [(60.0, 0.0), (80.0, 0.0), (50.0, 0.8), (70.0, -1.0)] {
            let truth = synthetic::map((340.0, 90.0), spacing, degrees, 0.0);
            let style = Style {
                chequer: true,
                paper: [240, 236, 215],
                dark: Some([30, 90, 40]),
                halves: true,
                width: 1.5,
                pieces: vec![
                    (4, 0),
                    (3, 0),
                    (1, 2),
                    (6, 3),
                    (4, 9),
                    (0, 6),
                    (8, 9),
                    (2, 4),
                ],
                ..Style::default()
            };
            let mut image = synthetic::canvas(1200, 1000, [240, 236, 215]);
            synthetic::draw(&mut image, &truth, &style);
            let found = find(&image);
            assert_found(&found, &truth, 0.1);
            assert!(found.grids[0].chequer);
        }
    }

    #[test]
    fn a_photocopied_chequer_turned_a_little_is_found() {
        // A scan thresholded to black and white with specks, turned by a degree and a half.
        let truth = synthetic::map((150.0, 90.0), 44.0, 1.5, 0.0);
        let style = Style {
            chequer: true,
            paper: [255, 255, 255],
            dark: Some([0, 0, 0]),
            halves: true,
            width: 1.0,
            pieces: synthetic::start_points(),
            disc: [255, 255, 255],
            ..Style::default()
        };
        let mut image = synthetic::canvas(800, 700, [255, 255, 255]);
        synthetic::draw(&mut image, &truth, &style);
        let mut state = 47u32;
        for p in image.pixels_mut() {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let v = if p.0[1] > 140 { 255 } else { 0 };
            let v = if state >> 22 < 2 { 255 - v } else { v };
            p.0 = [v; 3];
        }
        let found = find(&image);
        assert_found(&found, &truth, 0.1);
        assert!(found.grids[0].chequer);
    }

    #[test]
    fn two_boards_in_one_picture_are_both_found_in_reading_order() {
        let mut image = synthetic::canvas(1000, 560, [255, 255, 255]);
        let left = synthetic::map((560.0, 40.0), 40.0, 0.0, 0.0);
        let right = synthetic::map((70.0, 60.0), 44.0, 0.0, 0.0);
        let style = Style {
            paper: [255, 255, 255],
            ink: [0, 0, 0],
            pieces: synthetic::start_points(),
            ..Style::default()
        };
        synthetic::draw(&mut image, &left, &style);
        synthetic::draw(&mut image, &right, &style);
        let found = find(&image);
        assert_eq!(found.grids.len(), 2, "{found:?}");
        assert!(error(&found.grids[0].map, &right) < 0.08, "{found:?}");
        assert!(error(&found.grids[1].map, &left) < 0.08, "{found:?}");
    }

    #[test]
    fn a_book_page_of_six_diagrams_gives_all_six() {
        let mut page = synthetic::canvas(1240, 1754, [255, 255, 255]);
        let mut truths = Vec::new();
        for row in 0..3 {
            for column in 0..2 {
                let origin = (110.0 + 560.0 * column as f64, 120.0 + 540.0 * row as f64);
                let truth = synthetic::map(origin, 42.0, 0.0, 0.0);
                let pieces = (0..14)
                    .map(|n| {
                        (
                            (n * 5 + row * 3 + column) as u8 % 9,
                            (n * 7 + row) as u8 % 10,
                        )
                    })
                    .collect();
                let style = Style {
                    paper: [255, 255, 255],
                    ink: [0, 0, 0],
                    width: 1.0,
                    // A frame closer than usual, within reach of the outer lines' search.
                    frame: 0.24,
                    pieces,
                    ..Style::default()
                };
                synthetic::draw(&mut page, &truth, &style);
                truths.push(truth);
            }
        }
        let found = find(&page);
        assert_eq!(found.grids.len(), 6, "{found:?}");
        for (grid, truth) in found.grids.iter().zip(&truths) {
            assert!(error(&grid.map, truth) < 0.08, "{grid:?}");
        }
    }

    #[test]
    fn a_start_with_the_columns_spread_too_wide_still_settles_on_the_lines() {
        // As when a comb's spacing took in the frame: the last column starts near the frame,
        // and every row's worst crossing is as far off as that column's.
        let truth = synthetic::map((110.0, 120.0), 42.0, 0.0, 0.0);
        let mut image = synthetic::canvas(600, 600, [255, 255, 255]);
        let style = Style {
            paper: [255, 255, 255],
            ink: [0, 0, 0],
            width: 1.0,
            frame: 0.24,
            pieces: vec![(2, 0), (6, 3), (1, 5), (4, 8)],
            ..Style::default()
        };
        synthetic::draw(&mut image, &truth, &style);
        let full = Gray::of(&image);
        let mut map = Homography([44.1, 0.0, 110.7, 0.0, 42.0, 120.4, 0.0, 0.0, 1.0]);
        for reach in [0.35, 0.22, 0.15] {
            map = follow_lines(&full, Evidence::Ridge, &map, (9, 10), true, reach)
                .expect("the lines")
                .0;
        }
        assert!(error(&map, &truth) < 0.05, "{map:?}");
    }

    #[test]
    fn noise_and_gradients_have_no_board() {
        let mut state = 12345u32;
        let noise = RgbImage::from_fn(640, 480, |_, _| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let v = (state >> 24) as u8;
            image::Rgb([v, v / 2 + 60, 255 - v])
        });
        assert_eq!(find(&noise), Found::default());
        let gradient = RgbImage::from_fn(640, 480, |x, y| {
            image::Rgb([(x / 3) as u8, (y / 2) as u8, ((x + y) / 5) as u8])
        });
        assert_eq!(find(&gradient), Found::default());
    }

    /// Grain on every pixel, the same on its three channels: the sum of four uniform draws
    /// from -128 to 127 (a deviation of about 148) divided by `divisor`.
    fn add_grain(image: &mut RgbImage, seed: u32, divisor: i32) {
        let mut state = seed;
        for p in image.pixels_mut() {
            let mut n = 0i32;
            for _ in 0..4 {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                n += (state >> 24) as i32 - 128;
            }
            let n = n / divisor;
            for c in p.0.iter_mut() {
                *c = (i32::from(*c) + n).clamp(0, 255) as u8;
            }
        }
    }

    #[test]
    fn a_small_board_in_a_noisy_scan_is_found() {
        // A scanned page: a board 30 pixels a spacing, turned a degree, in a screen-sized
        // picture, with strong grain that breaks its thin lines into short runs.
        let truth = synthetic::map((700.0, 380.0), 30.0, 1.0, 0.0);
        let style = Style {
            width: 1.0,
            pieces: synthetic::start_points(),
            ..Style::default()
        };
        let mut image = synthetic::canvas(1600, 1000, [236, 238, 240]);
        synthetic::draw(&mut image, &truth, &style);
        // Near-Gaussian grain of deviation about 12.
        add_grain(&mut image, 2024, 12);
        assert_found(&find(&image), &truth, 0.1);
    }

    #[test]
    fn a_faint_small_board_in_a_page_of_heavy_grain_is_found() {
        // Grey lines, a board 25 pixels a spacing in a screen-sized page, whose grain is
        // strong enough that its runs join into one place the size of the picture, and
        // outweigh the board's lines in every profile.
        let truth = synthetic::map((900.0, 300.0), 25.0, -0.8, 0.0);
        let style = Style {
            width: 1.0,
            ink: [100, 100, 100],
            pieces: synthetic::start_points(),
            ..Style::default()
        };
        let mut image = synthetic::canvas(1600, 1000, [236, 238, 240]);
        synthetic::draw(&mut image, &truth, &style);
        // Near-Gaussian grain of deviation about 18.
        add_grain(&mut image, 77, 8);
        assert_found(&find(&image), &truth, 0.1);
    }

    #[test]
    fn a_board_under_the_smallest_width_is_found_too_small() {
        let truth = synthetic::map((30.0, 30.0), 14.0, 0.0, 0.0);
        let style = Style {
            width: 1.0,
            ..Style::default()
        };
        let found = one_board(400, 300, &truth, &style);
        assert!(found.grids.is_empty(), "{found:?}");
        let small = found.too_small.expect("the small board");
        assert!((i64::from(small.width) - 112).abs() <= 3, "{small:?}");
    }
    #[test]
    fn a_small_blurred_board_in_grain_is_found_by_its_faint_lines() {
        // A small diagram scanned: blurred by the scanner, turned by 1.4°, grain of
        // deviation about 13 on every pixel. Its lines, a pixel wide, blur to about two
        // fifths of their darkness, and the grain's ridges across them are nearly as
        // strong: only averaged along them do they stand out clearly enough.
        let truth = synthetic::map((40.0, 40.0), 30.0, 1.4, 0.0);
        let style = Style {
            width: 1.0,
            ink: [100; 3],
            pieces: synthetic::start_points(),
            ..Style::default()
        };
        let mut image = synthetic::canvas(320, 350, [236, 238, 240]);
        synthetic::draw(&mut image, &truth, &style);
        let mut image = image::imageops::blur(&image, 1.0);
        add_grain(&mut image, 5, 11);
        assert_found(&find(&image), &truth, 0.1);
    }
}

//! Diagrams as pixels on the CPU: a [`Surface`] that fills every shape of the board
//! description into an RGB picture with anti-aliased edges, with no GUI or GPU behind it.
//! The picture reader's trainer draws its synthetic boards with it (in many fonts, through
//! a projective transform for tilted photos), and it can stand as a PNG back-end of the
//! painter wherever no screen is at hand.
//!
//! Every shape — a rounded rectangle, a stroked line (round caps and joins), a disc and
//! its ring, a polygon, a character's outline read with `skrifa` — becomes closed
//! contours of straight edges, which one scanline filler covers with the nonzero winding
//! rule: four sub-scanlines per pixel row, each span's ends cut at their exact fraction of
//! a pixel, so edges are smooth both ways. A small filler of our own does it, as the
//! shapes are few and simple; a full 2D library would add a dependency for no gain here.

use super::surface::{DiscPaint, Placement, Point, Surface, draw};
use super::{Element, Ink};
use image::RgbImage;
use skrifa::instance::{LocationRef, Size};
use skrifa::outline::{DrawSettings, OutlinePen};
use skrifa::{FontRef, MetadataProvider};

/// A colour with straight alpha: red, green, blue, opacity.
pub type Rgba = [u8; 4];

/// Sub-scanlines per pixel row.
const SUBSAMPLES: usize = 4;

/// A closed outline of straight edges, in surface pixels.
type Contour = Vec<(f32, f32)>;

/// A font a [`Raster`] sets its text in, read once.
#[derive(Clone)]
pub struct Typeface<'f> {
    font: FontRef<'f>,
    /// How far above the baseline a Chinese character's middle is, in ems.
    middle: f32,
}

impl<'f> Typeface<'f> {
    /// The font at `index` of the font file (or collection) `data`, or `None` when it
    /// cannot be read.
    pub fn new(data: &'f [u8], index: u32) -> Option<Typeface<'f>> {
        let font = FontRef::from_index(data, index).ok()?;
        let units_per_em = f32::from(
            font.metrics(Size::unscaled(), LocationRef::default())
                .units_per_em,
        );
        let metrics = font.glyph_metrics(Size::unscaled(), LocationRef::default());
        let middle = font
            .charmap()
            .map('中')
            .and_then(|glyph| metrics.bounds(glyph))
            .map_or(0.38, |b| (b.y_min + b.y_max) / 2.0 / units_per_em);
        Some(Typeface { font, middle })
    }

    /// The app's own font.
    pub fn app() -> Typeface<'static> {
        Typeface::new(super::FONT, 0)
            .unwrap_or_else(|| unreachable!("the built-in font is always readable"))
    }

    /// Whether the font draws every character of `text`.
    pub fn covers(&self, text: &str) -> bool {
        let charmap = self.font.charmap();
        text.chars().all(|c| charmap.map(c).is_some())
    }

    /// The outlines of `text` set at `size` pixels to the em, its middle on `centre`.
    fn outlines(&self, centre: Point, text: &str, size: f32) -> Vec<Contour> {
        let charmap = self.font.charmap();
        let metrics = self
            .font
            .glyph_metrics(Size::new(size), LocationRef::default());
        let glyphs: Vec<_> = text.chars().filter_map(|c| charmap.map(c)).collect();
        let width: f32 = glyphs
            .iter()
            .map(|&g| metrics.advance_width(g).unwrap_or(0.0))
            .sum();
        let outlines = self.font.outline_glyphs();
        let baseline = centre.y + self.middle * size;
        let mut pen = Flattener {
            contours: Vec::new(),
            origin: (centre.x - width / 2.0, baseline),
            tolerance: (size / 200.0).max(0.05),
        };
        for glyph in glyphs {
            if let Some(outline) = outlines.get(glyph) {
                let settings = DrawSettings::unhinted(Size::new(size), LocationRef::default());
                let _ = outline.draw(settings, &mut pen);
            }
            pen.origin.0 += metrics.advance_width(glyph).unwrap_or(0.0);
        }
        pen.contours.retain(|c| c.len() >= 3);
        pen.contours
    }
}

/// Receives a glyph's outline from `skrifa` (y up, from the pen's origin) and flattens its
/// curves into short straight edges in picture pixels (y down).
struct Flattener {
    contours: Vec<Contour>,
    origin: (f32, f32),
    tolerance: f32,
}

impl Flattener {
    fn at(&self, x: f32, y: f32) -> (f32, f32) {
        (self.origin.0 + x, self.origin.1 - y)
    }

    fn last(&self) -> (f32, f32) {
        self.contours
            .last()
            .and_then(|c| c.last().copied())
            .unwrap_or(self.origin)
    }

    fn push(&mut self, p: (f32, f32)) {
        match self.contours.last_mut() {
            Some(contour) => contour.push(p),
            None => self.contours.push(vec![p]),
        }
    }

    /// How many pieces a curve whose control points stray `deviation` from its chord
    /// is cut into.
    fn pieces(&self, deviation: f32) -> usize {
        ((deviation / self.tolerance).sqrt().ceil() as usize).clamp(1, 16)
    }
}

impl OutlinePen for Flattener {
    fn move_to(&mut self, x: f32, y: f32) {
        let p = self.at(x, y);
        self.contours.push(vec![p]);
    }

    fn line_to(&mut self, x: f32, y: f32) {
        let p = self.at(x, y);
        self.push(p);
    }

    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        let (p0, c, p1) = (self.last(), self.at(cx0, cy0), self.at(x, y));
        let deviation = (p0.0 - 2.0 * c.0 + p1.0).hypot(p0.1 - 2.0 * c.1 + p1.1);
        let n = self.pieces(deviation / 4.0);
        for i in 1..=n {
            let t = i as f32 / n as f32;
            let u = 1.0 - t;
            self.push((
                u * u * p0.0 + 2.0 * u * t * c.0 + t * t * p1.0,
                u * u * p0.1 + 2.0 * u * t * c.1 + t * t * p1.1,
            ));
        }
    }

    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        let p0 = self.last();
        let (c0, c1, p1) = (self.at(cx0, cy0), self.at(cx1, cy1), self.at(x, y));
        let d0 = (p0.0 - 2.0 * c0.0 + c1.0).hypot(p0.1 - 2.0 * c0.1 + c1.1);
        let d1 = (c0.0 - 2.0 * c1.0 + p1.0).hypot(c0.1 - 2.0 * c1.1 + p1.1);
        let n = self.pieces(0.75 * d0.max(d1));
        for i in 1..=n {
            let t = i as f32 / n as f32;
            let u = 1.0 - t;
            let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
            self.push((
                a * p0.0 + b * c0.0 + c * c1.0 + d * p1.0,
                a * p0.1 + b * c0.1 + c * c1.1 + d * p1.1,
            ));
        }
    }

    fn close(&mut self) {}
}

/// An RGB picture that a diagram is drawn on.
pub struct Raster<'f> {
    /// The picture.
    pub image: RgbImage,
    typeface: Typeface<'f>,
    /// A projective map applied to every corner after the shapes are placed (a tilted
    /// board), row-major; `None` draws straight.
    transform: Option<[f64; 9]>,
    /// Characters drawn as their outline this many ems wide instead of filled.
    pub hollow_text: Option<f32>,
    /// Characters turned half a turn about their middle (a piece facing the far side).
    pub turned_text: bool,
    /// Snap crisp lines to whole pixels, the way a screen draws a board's lines.
    pub snap: bool,
}

impl Raster<'static> {
    /// A `width` × `height` picture filled with `background`, drawing text in the app's
    /// font.
    pub fn new(width: u32, height: u32, background: [u8; 3]) -> Raster<'static> {
        Raster::with_typeface(width, height, background, Typeface::app())
    }
}

impl<'f> Raster<'f> {
    /// A `width` × `height` picture filled with `background`, drawing text in `typeface`.
    pub fn with_typeface(
        width: u32,
        height: u32,
        background: [u8; 3],
        typeface: Typeface<'f>,
    ) -> Raster<'f> {
        Raster {
            image: RgbImage::from_pixel(width, height, image::Rgb(background)),
            typeface,
            transform: None,
            hollow_text: None,
            turned_text: false,
            snap: false,
        }
    }

    /// Sets the font text is drawn in.
    pub fn set_typeface(&mut self, typeface: Typeface<'f>) {
        self.typeface = typeface;
    }

    /// Draws everything from now on through the projective map `transform` (row-major,
    /// picture pixels to picture pixels), or straight.
    pub fn set_transform(&mut self, transform: Option<[f64; 9]>) {
        self.transform = transform;
    }

    fn map(&self, (x, y): (f32, f32)) -> (f32, f32) {
        match &self.transform {
            None => (x, y),
            Some(h) => {
                let (x, y) = (f64::from(x), f64::from(y));
                let w = h[6] * x + h[7] * y + h[8];
                (
                    ((h[0] * x + h[1] * y + h[2]) / w) as f32,
                    ((h[3] * x + h[4] * y + h[5]) / w) as f32,
                )
            }
        }
    }

    /// Fills the area the `contours` enclose (nonzero winding) with `colour`.
    pub fn fill(&mut self, contours: &[Contour], colour: Rgba) {
        if colour[3] == 0 {
            return;
        }
        let mut edges: Vec<Edge> = Vec::new();
        let (mut top, mut bottom) = (f32::INFINITY, f32::NEG_INFINITY);
        let (mut left, mut right) = (f32::INFINITY, f32::NEG_INFINITY);
        for contour in contours {
            let points: Vec<(f32, f32)> = contour.iter().map(|&p| self.map(p)).collect();
            for (i, &a) in points.iter().enumerate() {
                let b = points[(i + 1) % points.len()];
                if !(a.0.is_finite() && a.1.is_finite() && b.0.is_finite() && b.1.is_finite()) {
                    continue;
                }
                top = top.min(a.1);
                bottom = bottom.max(a.1);
                left = left.min(a.0);
                right = right.max(a.0);
                if a.1 != b.1 {
                    let (upper, lower, winding) = if a.1 < b.1 { (a, b, 1) } else { (b, a, -1) };
                    edges.push(Edge {
                        top: upper.1,
                        bottom: lower.1,
                        x: upper.0,
                        slope: (lower.0 - upper.0) / (lower.1 - upper.1),
                        winding,
                    });
                }
            }
        }
        let (width, height) = (self.image.width() as i64, self.image.height() as i64);
        let row0 = (top.floor() as i64).max(0);
        let row1 = (bottom.ceil() as i64).min(height);
        let col0 = (left.floor() as i64).max(0);
        let col1 = (right.ceil() as i64 + 1).min(width);
        if edges.is_empty() || row0 >= row1 || col0 >= col1 {
            return;
        }
        edges.sort_by(|a, b| a.top.total_cmp(&b.top));
        let columns = (col1 - col0) as usize;
        let mut coverage = vec![0.0_f32; columns + 1];
        let mut crossings: Vec<(f32, i32)> = Vec::new();
        let mut active: Vec<usize> = Vec::new();
        let mut next = 0;
        let weight = 1.0 / SUBSAMPLES as f32;
        for row in row0..row1 {
            coverage.iter_mut().for_each(|c| *c = 0.0);
            for sub in 0..SUBSAMPLES {
                let y = row as f32 + (sub as f32 + 0.5) * weight;
                while next < edges.len() && edges[next].top <= y {
                    active.push(next);
                    next += 1;
                }
                active.retain(|&e| edges[e].bottom > y);
                crossings.clear();
                for &e in &active {
                    let edge = &edges[e];
                    if edge.top <= y {
                        crossings.push((edge.x + (y - edge.top) * edge.slope, edge.winding));
                    }
                }
                crossings.sort_by(|a, b| a.0.total_cmp(&b.0));
                let mut winding = 0;
                for pair in crossings.windows(2) {
                    winding += pair[0].1;
                    if winding != 0 {
                        let a = pair[0].0 - col0 as f32;
                        let b = pair[1].0 - col0 as f32;
                        cover(&mut coverage, a, b, weight);
                    }
                }
            }
            let [r, g, b, a] = colour;
            let alpha = f32::from(a) / 255.0;
            for (i, &c) in coverage[..columns].iter().enumerate() {
                let c = c.min(1.0) * alpha;
                if c <= 0.0 {
                    continue;
                }
                let pixel = self
                    .image
                    .get_pixel_mut((col0 + i as i64) as u32, row as u32);
                for (channel, value) in pixel.0.iter_mut().zip([r, g, b]) {
                    let blended = f32::from(*channel) * (1.0 - c) + f32::from(value) * c;
                    *channel = blended.round().clamp(0.0, 255.0) as u8;
                }
            }
        }
    }

    /// The line through `points`, `width` wide, as contours all wound one way: a
    /// rectangle per segment and a disc at every joint and end.
    fn stroke(&self, points: &[Point], closed: bool, width: f32) -> Vec<Contour> {
        let half = width / 2.0;
        let mut contours = Vec::new();
        let n = points.len();
        let segments = if closed { n } else { n.saturating_sub(1) };
        for i in 0..segments {
            let (a, b) = (points[i], points[(i + 1) % n]);
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let length = dx.hypot(dy);
            if length == 0.0 {
                continue;
            }
            let (nx, ny) = (-dy / length * half, dx / length * half);
            contours.push(wound(vec![
                (a.x + nx, a.y + ny),
                (b.x + nx, b.y + ny),
                (b.x - nx, b.y - ny),
                (a.x - nx, a.y - ny),
            ]));
        }
        for p in points {
            contours.push(circle(*p, half));
        }
        contours
    }

    /// A crisp line's points and width moved so its edges fall on pixel edges.
    fn snapped(&self, points: &[Point], width: f32) -> (Vec<Point>, f32) {
        let width = width.round().max(1.0);
        let offset = if width as i64 % 2 == 1 { 0.5 } else { 0.0 };
        let snap = |v: f32| (v - offset).round() + offset;
        let points = points
            .iter()
            .map(|p| Point::new(snap(p.x), snap(p.y)))
            .collect();
        (points, width)
    }
}

/// One edge of a filled outline, from its top to its bottom.
struct Edge {
    top: f32,
    bottom: f32,
    /// Where the edge is at its top.
    x: f32,
    /// Horizontal run per unit down.
    slope: f32,
    /// +1 running down, −1 running up.
    winding: i32,
}

/// Adds `weight` over columns `a`..`b` of one sub-scanline, the end pixels in proportion.
fn cover(coverage: &mut [f32], a: f32, b: f32, weight: f32) {
    let last = (coverage.len() - 1) as f32;
    let (a, b) = (a.clamp(0.0, last), b.clamp(0.0, last));
    if b <= a {
        return;
    }
    let (ia, ib) = (a.floor() as usize, b.floor() as usize);
    if ia == ib {
        coverage[ia] += (b - a) * weight;
        return;
    }
    coverage[ia] += (ia as f32 + 1.0 - a) * weight;
    for c in &mut coverage[ia + 1..ib] {
        *c += weight;
    }
    coverage[ib] += (b - ib as f32) * weight;
}

/// `contour` turned to run clockwise on the picture, so overlapping pieces of one stroke
/// add up instead of cancelling.
fn wound(mut contour: Contour) -> Contour {
    let area: f32 = contour
        .iter()
        .zip(contour.iter().cycle().skip(1))
        .map(|(a, b)| a.0 * b.1 - b.0 * a.1)
        .sum();
    if area < 0.0 {
        contour.reverse();
    }
    contour
}

/// A circle of `radius` round `centre` as a clockwise polygon fine enough to look round.
fn circle(centre: Point, radius: f32) -> Contour {
    let n = ((radius * std::f32::consts::TAU / 1.5).ceil() as usize).clamp(12, 256);
    (0..n)
        .map(|i| {
            let angle = i as f32 / n as f32 * std::f32::consts::TAU;
            (
                centre.x + radius * angle.cos(),
                centre.y + radius * angle.sin(),
            )
        })
        .collect()
}

/// A rectangle with corners rounded by `radius`, clockwise.
fn rounded(min: Point, max: Point, radius: f32) -> Contour {
    let radius = radius.min((max.x - min.x) / 2.0).min((max.y - min.y) / 2.0);
    if radius <= 0.0 {
        return vec![
            (min.x, min.y),
            (max.x, min.y),
            (max.x, max.y),
            (min.x, max.y),
        ];
    }
    let steps = ((radius / 2.0).ceil() as usize).clamp(2, 16);
    let corners = [
        (max.x - radius, max.y - radius, 0.0),
        (min.x + radius, max.y - radius, 0.25),
        (min.x + radius, min.y + radius, 0.5),
        (max.x - radius, min.y + radius, 0.75),
    ];
    let mut contour = Vec::new();
    for (cx, cy, start) in corners {
        for i in 0..=steps {
            let angle = (start + 0.25 * i as f32 / steps as f32) * std::f32::consts::TAU;
            contour.push((cx + radius * angle.cos(), cy + radius * angle.sin()));
        }
    }
    contour
}

impl Surface for Raster<'_> {
    type Colour = Rgba;

    fn rounded_rect(&mut self, min: Point, max: Point, corner_radius: f32, fill: Rgba) {
        self.fill(&[rounded(min, max, corner_radius)], fill);
    }

    fn line(&mut self, points: &[Point], closed: bool, width: f32, colour: Rgba, crisp: bool) {
        let contours = if crisp && self.snap && self.transform.is_none() {
            let (points, width) = self.snapped(points, width);
            self.stroke(&points, closed, width)
        } else {
            self.stroke(points, closed, width)
        };
        self.fill(&contours, colour);
    }

    fn circle(&mut self, centre: Point, radius: f32, paint: DiscPaint<Rgba>) {
        if let Some(fill) = paint.fill {
            let reach = paint.outline.map_or(radius, |(w, _)| radius + w / 2.0);
            self.fill(&[circle(centre, reach)], fill);
        }
        if let Some((width, colour)) = paint.outline {
            let mut inner = circle(centre, radius);
            inner.reverse();
            self.fill(&[circle(centre, radius + width), inner], colour);
        }
    }

    fn polygon(&mut self, points: &[Point], fill: Rgba) {
        let contour = points.iter().map(|p| (p.x, p.y)).collect();
        self.fill(&[contour], fill);
    }

    fn text(&mut self, centre: Point, text: &str, size: f32, colour: Rgba) {
        let mut contours = self.typeface.outlines(centre, text, size);
        if self.turned_text {
            for contour in &mut contours {
                for p in contour.iter_mut() {
                    *p = (2.0 * centre.x - p.0, 2.0 * centre.y - p.1);
                }
            }
        }
        match self.hollow_text {
            None => self.fill(&contours, colour),
            Some(ems) => {
                let width = (ems * size).max(0.6);
                let strokes: Vec<Contour> = contours
                    .iter()
                    .flat_map(|c| {
                        let points: Vec<Point> = c.iter().map(|&(x, y)| Point::new(x, y)).collect();
                        self.stroke(&points, true, width)
                    })
                    .collect();
                self.fill(&strokes, colour);
            }
        }
    }
}

/// A whole board of `elements` as a picture `side` pixels square on `background`, in the
/// colours `colour` gives the inks (an ink without one is left out): the painter's PNG
/// back-end.
pub fn board(
    elements: &[Element],
    side: u32,
    background: [u8; 3],
    colour: impl Fn(Ink) -> Option<Rgba>,
) -> RgbImage {
    let mut raster = Raster::new(side, side, background);
    draw(
        &mut raster,
        Placement::board(0.0, 0.0, side as f32),
        elements,
        colour,
    );
    raster.image
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::{self, BoardStyle, Diagram, Proportions};
    use crate::{Color, Position};

    fn colours(ink: Ink) -> Option<Rgba> {
        match ink {
            Ink::Board => Some([230, 190, 120, 255]),
            Ink::Lines | Ink::RiverText | Ink::FileNumbers => Some([0, 0, 0, 255]),
            Ink::PieceFace(_) => Some([250, 240, 220, 255]),
            Ink::PieceRim => Some([120, 80, 40, 255]),
            Ink::PieceInk(Color::Red) => Some([200, 0, 0, 255]),
            Ink::PieceInk(Color::Black) => Some([0, 0, 0, 255]),
            _ => None,
        }
    }

    fn start_board(side: u32) -> RgbImage {
        let style = BoardStyle::default();
        let mut elements = diagram::board(&style, &Proportions::WOOD);
        let start = Diagram::from_position(&Position::startpos());
        elements.extend(diagram::pieces(&start, &style, &Proportions::WOOD, None));
        board(&elements, side, [255, 255, 255], colours)
    }

    #[test]
    fn a_drawn_board_has_its_lines_wood_and_pieces_where_the_painter_put_them() {
        // 560 pixels: 50 to a spacing, the grid's top left at (80, 55).
        let image = start_board(560);
        let px = |x: u32, y: u32| image.get_pixel(x, y).0;
        // The board's face halfway between two lines on an empty rank.
        assert_eq!(px(80 + 25, 55 + 4 * 50 - 25 + 12), [230, 190, 120]);
        // The line of rank 5 from the top (an empty rank), between two points.
        let line = px(80 + 25, 55 + 4 * 50);
        assert!(line.iter().all(|&v| v < 130), "{line:?}");
        // Outside the board: the background.
        assert_eq!(px(0, 0), [255, 255, 255]);
        // The red general on e0 (file 4, bottom rank): its face is cream and somewhere
        // in its middle the red character.
        let (cx, cy) = (80 + 200, 55 + 450);
        assert_eq!(px(cx - 5, cy + 16), [250, 240, 220]);
        let reds = (cx - 12..cx + 12)
            .flat_map(|x| (cy - 12..cy + 12).map(move |y| (x, y)))
            .filter(|&(x, y)| {
                let [r, g, b] = px(x, y);
                r > 150 && g < 60 && b < 60
            })
            .count();
        assert!(reds > 40, "{reds} red pixels");
        // Black's general on e9 is drawn in black, with no red.
        let (cx, cy) = (80 + 200, 55);
        let blacks = (cx - 12..cx + 12)
            .flat_map(|x| (cy - 12..cy + 12).map(move |y| (x, y)))
            .filter(|&(x, y)| px(x, y).iter().all(|&v| v < 60))
            .count();
        assert!(blacks > 40, "{blacks} black pixels");
    }

    #[test]
    fn edges_are_anti_aliased() {
        let mut raster = Raster::new(20, 20, [255, 255, 255]);
        raster.polygon(
            &[
                Point::new(5.0, 5.0),
                Point::new(15.5, 5.0),
                Point::new(15.5, 15.0),
                Point::new(5.0, 15.0),
            ],
            [0, 0, 0, 255],
        );
        assert_eq!(raster.image.get_pixel(10, 10).0, [0, 0, 0]);
        // Column 15 is half covered.
        let half = raster.image.get_pixel(15, 10).0[0];
        assert!((120..=135).contains(&half), "{half}");
        assert_eq!(raster.image.get_pixel(16, 10).0, [255, 255, 255]);
    }

    #[test]
    fn a_ring_leaves_its_middle_and_a_hollow_character_its_inside() {
        let mut raster = Raster::new(60, 60, [255, 255, 255]);
        let black = [0, 0, 0, 255];
        raster.circle(
            Point::new(30.0, 30.0),
            20.0,
            DiscPaint {
                fill: None,
                outline: Some((4.0, black)),
            },
        );
        assert_eq!(raster.image.get_pixel(30, 30).0, [255, 255, 255]);
        assert_eq!(raster.image.get_pixel(52, 30).0, [0, 0, 0]);
        let mut filled = Raster::new(60, 60, [255, 255, 255]);
        filled.text(Point::new(30.0, 30.0), "車", 50.0, black);
        let mut hollow = Raster::new(60, 60, [255, 255, 255]);
        hollow.hollow_text = Some(0.02);
        hollow.text(Point::new(30.0, 30.0), "車", 50.0, black);
        let ink = |r: &Raster| r.image.pixels().filter(|p| p.0[0] < 128).count();
        assert!(ink(&filled) > 200, "{}", ink(&filled));
        assert!(ink(&hollow) > 100 && ink(&hollow) < ink(&filled));
    }
}

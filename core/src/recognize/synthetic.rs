//! Boards drawn for the tests: lines, palaces, a frame and plain discs for pieces, through
//! any homography (so rotated and slanted boards too), smoothed at the edges.

use super::geometry::Homography;
use image::{Rgb, RgbImage};

/// How a test board looks.
#[derive(Clone, Debug)]
pub struct Style {
    pub paper: [u8; 3],
    pub ink: [u8; 3],
    /// Line width in pixels.
    pub width: f64,
    /// Pieces in the squares of a chequer (lines half a spacing off the points).
    pub chequer: bool,
    /// With `chequer`: squares of two colours (`paper` and `dark`) instead of lines.
    pub dark: Option<[u8; 3]>,
    /// With `dark`: the squares of the lower half turned the other way (each side's half a
    /// chequer of its own, as some boards have it), with thin lines along the river and
    /// round the palaces.
    pub halves: bool,
    /// How far the frame lies outside the outer lines, in spacings.
    pub frame: f64,
    /// Grid places of discs.
    pub pieces: Vec<(u8, u8)>,
    pub disc: [u8; 3],
}

impl Default for Style {
    fn default() -> Style {
        Style {
            paper: [222, 184, 135],
            ink: [40, 30, 20],
            width: 1.5,
            chequer: false,
            dark: None,
            halves: false,
            frame: 0.3,
            pieces: Vec::new(),
            disc: [245, 235, 215],
        }
    }
}

/// The start position's points in grid places (column from the left, row from the top).
pub fn start_points() -> Vec<(u8, u8)> {
    let mut v = Vec::new();
    for y in [0u8, 9] {
        for x in 0..9 {
            v.push((x, y));
        }
    }
    for (x, y) in [(1, 2), (7, 2), (1, 7), (7, 7)] {
        v.push((x, y));
    }
    for y in [3u8, 6] {
        for x in [0u8, 2, 4, 6, 8] {
            v.push((x, y));
        }
    }
    v
}

/// The inverse of a homography.
pub fn inverse(h: &Homography) -> Homography {
    let m = h.0;
    let det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
        + m[2] * (m[3] * m[7] - m[4] * m[6]);
    Homography([
        (m[4] * m[8] - m[5] * m[7]) / det,
        (m[2] * m[7] - m[1] * m[8]) / det,
        (m[1] * m[5] - m[2] * m[4]) / det,
        (m[5] * m[6] - m[3] * m[8]) / det,
        (m[0] * m[8] - m[2] * m[6]) / det,
        (m[2] * m[3] - m[0] * m[5]) / det,
        (m[3] * m[7] - m[4] * m[6]) / det,
        (m[1] * m[6] - m[0] * m[7]) / det,
        (m[0] * m[4] - m[1] * m[3]) / det,
    ])
}

/// A board whose points are `spacing` apart, point (0, 0) at `origin`, turned by `degrees`
/// about that point and seen with a slant `tilt` (lower rows closer together, as on a page
/// leaning away at its bottom).
pub fn map(origin: (f64, f64), spacing: f64, degrees: f64, tilt: f64) -> Homography {
    let (s, c) = degrees.to_radians().sin_cos();
    let g = tilt / 9.0;
    let sp = spacing;
    Homography([
        sp * c,
        -sp * s + origin.0 * g,
        origin.0,
        sp * s,
        sp * c + origin.1 * g,
        origin.1,
        0.0,
        g,
        1.0,
    ])
}

fn segment_distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let t = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
    ((p.0 - a.0 - t * dx).powi(2) + (p.1 - a.1 - t * dy).powi(2)).sqrt()
}

/// Draws a board with `style` onto `canvas` through `map` (grid places to pixels).
pub fn draw(canvas: &mut RgbImage, map: &Homography, style: &Style) {
    let back = inverse(map);
    let spacing = {
        let (a, b) = (map.apply(0.0, 0.0), map.apply(8.0, 9.0));
        ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt() / 145f64.sqrt()
    };
    // From, to, width in pixels.
    type Segment = ((f64, f64), (f64, f64), f64);
    let mut segments: Vec<Segment> = Vec::new();
    let w = style.width;
    if style.dark.is_some() {
        // Squares, no lines but the river's and the palaces' outlines of a board in halves.
        if style.halves {
            segments.push(((-0.5, 4.5), (8.5, 4.5), w));
            for (x0, y0) in [(2.5, -0.5), (2.5, 6.5)] {
                let (x1, y1) = (x0 + 3.0, y0 + 3.0);
                for (a, b) in [
                    ((x0, y0), (x1, y0)),
                    ((x0, y1), (x1, y1)),
                    ((x0, y0), (x0, y1)),
                    ((x1, y0), (x1, y1)),
                ] {
                    segments.push((a, b, w));
                }
            }
        }
    } else if style.chequer {
        for k in 0..11 {
            let y = k as f64 - 0.5;
            segments.push(((-0.5, y), (8.5, y), w));
        }
        for i in 0..10 {
            let x = i as f64 - 0.5;
            segments.push(((x, -0.5), (x, 9.5), w));
        }
    } else {
        for k in 0..10 {
            segments.push(((0.0, k as f64), (8.0, k as f64), w));
        }
        for i in 0..9 {
            let x = i as f64;
            if i == 0 || i == 8 {
                segments.push(((x, 0.0), (x, 9.0), w));
            } else {
                segments.push(((x, 0.0), (x, 4.0), w));
                segments.push(((x, 5.0), (x, 9.0), w));
            }
        }
        for (a, b) in [
            ((3.0, 0.0), (5.0, 2.0)),
            ((5.0, 0.0), (3.0, 2.0)),
            ((3.0, 7.0), (5.0, 9.0)),
            ((5.0, 7.0), (3.0, 9.0)),
        ] {
            segments.push((a, b, w));
        }
        let f = style.frame;
        for (a, b) in [
            ((-f, -f), (8.0 + f, -f)),
            ((-f, 9.0 + f), (8.0 + f, 9.0 + f)),
            ((-f, -f), (-f, 9.0 + f)),
            ((8.0 + f, -f), (8.0 + f, 9.0 + f)),
        ] {
            segments.push((a, b, 2.0 * w + 1.0));
        }
    }
    let corners =
        [(-1.0, -1.0), (9.0, -1.0), (-1.0, 10.0), (9.0, 10.0)].map(|(x, y)| map.apply(x, y));
    let x0 = corners
        .iter()
        .map(|c| c.0)
        .fold(f64::INFINITY, f64::min)
        .max(0.0) as u32;
    let x1 = corners
        .iter()
        .map(|c| c.0)
        .fold(0.0, f64::max)
        .min(f64::from(canvas.width())) as u32;
    let y0 = corners
        .iter()
        .map(|c| c.1)
        .fold(f64::INFINITY, f64::min)
        .max(0.0) as u32;
    let y1 = corners
        .iter()
        .map(|c| c.1)
        .fold(0.0, f64::max)
        .min(f64::from(canvas.height())) as u32;
    let mix = |a: [u8; 3], b: [u8; 3], t: f64| {
        Rgb([0, 1, 2].map(|i| (f64::from(a[i]) * (1.0 - t) + f64::from(b[i]) * t).round() as u8))
    };
    let (lo, hi) = if style.chequer {
        (-0.5, 8.5)
    } else {
        (-0.35, 8.35)
    };
    let (vlo, vhi) = if style.chequer {
        (-0.5, 9.5)
    } else {
        (-0.35, 9.35)
    };
    for py in y0..y1 {
        for px in x0..x1 {
            let (u, v) = back.apply(f64::from(px), f64::from(py));
            if u < lo - 0.1 || u > hi + 0.1 || v < vlo - 0.1 || v > vhi + 0.1 {
                continue;
            }
            let mut colour = Rgb(style.paper);
            if let Some(dark) = style.dark {
                if !(-0.5..9.5).contains(&v) || !(-0.5..8.5).contains(&u) {
                    continue;
                }
                let turned = i64::from(style.halves && v > 4.5);
                if ((u + 0.5).floor() + (v + 0.5).floor()) as i64 % 2 == 1 - turned {
                    colour = Rgb(dark);
                }
            }
            for &(a, b, width) in &segments {
                let d = segment_distance((u, v), a, b) * spacing;
                let cover = (width / 2.0 + 0.5 - d).clamp(0.0, 1.0);
                if cover > 0.0 {
                    colour = mix(colour.0, style.ink, cover);
                }
            }
            for &(x, y) in &style.pieces {
                let d = ((u - f64::from(x)).powi(2) + (v - f64::from(y)).powi(2)).sqrt() * spacing;
                let r = 0.44 * spacing;
                let cover = (r + 0.5 - d).clamp(0.0, 1.0);
                if cover > 0.0 {
                    colour = mix(colour.0, style.disc, cover);
                    // A ring and a cross of strokes, as a character would give.
                    let ring = (1.5 - (d - 0.85 * r).abs()).clamp(0.0, 1.0);
                    let (du, dv) = ((u - f64::from(x)) * spacing, (v - f64::from(y)) * spacing);
                    let stroke = if du.abs() < 0.4 * r && dv.abs() < 0.4 * r {
                        (1.5 - du.abs().min(dv.abs())).clamp(0.0, 1.0)
                    } else {
                        0.0
                    };
                    colour = mix(colour.0, [180, 30, 30], ring.max(stroke) * cover);
                }
            }
            canvas.put_pixel(px, py, colour);
        }
    }
}

/// A canvas of one colour.
pub fn canvas(width: u32, height: u32, colour: [u8; 3]) -> RgbImage {
    RgbImage::from_pixel(width, height, Rgb(colour))
}

//! The little picture of one point that the classifier looks at.
//!
//! A patch is the square [`EXTENT`] spacings wide centred on the point, taken through the
//! board's [`Homography`] (so a tilted or turned board gives an upright patch), [`SIDE`] ×
//! [`SIDE`] pixels, each the mean of a few bilinear samples spread over its footprint when
//! the board is large (so thin lines are not skipped). Two values a pixel:
//!
//! 1. luminance, less the patch's mean, over the patch's spread: the same for a dark or
//!    light, flat or contrasty picture;
//! 2. redness (red less the mean of green and blue), less the patch's mean, over the same
//!    spread: what tells a red piece from a black one on a colour picture, near zero on a
//!    grey one, where the shapes have to do.

use super::geometry::Homography;

/// Pixels along a side of a patch.
pub const SIDE: usize = 24;
/// Values per pixel.
pub const CHANNELS: usize = 2;
/// Values in a patch.
pub const LEN: usize = SIDE * SIDE * CHANNELS;
/// How many point spacings a patch spans: a little more than one, so a piece's rim shows.
pub const EXTENT: f64 = 1.1;

/// The most samples along each side of a patch pixel.
const MOST_SAMPLES: usize = 4;

/// Samples the patch of the point in column `x`, row `y` (grid units, see [`Homography`]):
/// the square [`EXTENT`] spacings wide centred on the point, into `out` ([`LEN`] values:
/// the first channel's [`SIDE`]² values row by row, then the second's). Places outside
/// the picture read as its nearest edge.
pub fn sample(image: &image::RgbImage, map: &Homography, x: f64, y: f64, out: &mut [f32]) {
    let out = &mut out[..LEN];
    if image.width() == 0 || image.height() == 0 {
        out.fill(0.0);
        return;
    }
    let step = EXTENT / SIDE as f64;
    // A patch pixel's footprint in picture pixels, from the map near the point.
    let (x0, y0) = map.apply(x, y);
    let (x1, y1) = map.apply(x + step, y);
    let (x2, y2) = map.apply(x, y + step);
    let footprint = (x1 - x0).hypot(y1 - y0).max((x2 - x0).hypot(y2 - y0));
    let samples = if footprint.is_finite() {
        (footprint / 1.5).ceil().clamp(1.0, MOST_SAMPLES as f64) as usize
    } else {
        1
    };
    let (luma, chroma) = out.split_at_mut(SIDE * SIDE);
    let left = x - EXTENT / 2.0;
    let top = y - EXTENT / 2.0;
    let weight = 1.0 / (samples * samples) as f32;
    for row in 0..SIDE {
        for column in 0..SIDE {
            let (mut l, mut c) = (0.0, 0.0);
            for sy in 0..samples {
                for sx in 0..samples {
                    let gx = left + (column as f64 + (sx as f64 + 0.5) / samples as f64) * step;
                    let gy = top + (row as f64 + (sy as f64 + 0.5) / samples as f64) * step;
                    let (px, py) = map.apply(gx, gy);
                    let [r, g, b] = bilinear(image, px as f32, py as f32);
                    l += luminance([r, g, b]);
                    c += r - 0.5 * (g + b);
                }
            }
            luma[row * SIDE + column] = l * weight;
            chroma[row * SIDE + column] = c * weight;
        }
    }
    normalise(luma, chroma);
}

/// Centres both channels on their means and scales both by the luminance's spread.
fn normalise(luma: &mut [f32], chroma: &mut [f32]) {
    let n = luma.len() as f32;
    let mean = luma.iter().sum::<f32>() / n;
    let variance = luma.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / n;
    let chroma_mean = chroma.iter().sum::<f32>() / n;
    // A floor on the spread, so a blank patch's faint noise is not blown up.
    let scale = 1.0 / (variance.sqrt() + 6.0);
    for v in luma.iter_mut() {
        *v = ((*v - mean) * scale).clamp(-4.0, 4.0);
    }
    for v in chroma.iter_mut() {
        *v = ((*v - chroma_mean) * scale).clamp(-4.0, 4.0);
    }
}

/// The luminance (Rec. 601 weights) of a colour.
pub(crate) fn luminance([r, g, b]: [f32; 3]) -> f32 {
    0.299 * r + 0.587 * g + 0.114 * b
}

/// The colour (red, green, blue, 0 to 255) at picture place (`x`, `y`) in pixels, between
/// pixel centres as [`sample`] takes it.
pub(crate) fn colour_at(image: &image::RgbImage, x: f32, y: f32) -> [f32; 3] {
    if image.width() == 0 || image.height() == 0 {
        return [0.0; 3];
    }
    bilinear(image, x, y)
}

/// The colour at a place between pixel centres (pixel `i` covers `i`..`i + 1`), the
/// picture's edge continued outwards.
fn bilinear(image: &image::RgbImage, x: f32, y: f32) -> [f32; 3] {
    let (w, h) = (image.width() as i64, image.height() as i64);
    let (x, y) = (x - 0.5, y - 0.5);
    // The floor without the library's call (baseline x86-64 has no rounding instruction):
    // truncation, one less below zero; far outside the picture both clamp to its edge.
    let floor = |v: f32| {
        let t = v as i32 as f32;
        if t > v { t - 1.0 } else { t }
    };
    let (fx, fy) = (floor(x), floor(y));
    let (tx, ty) = (x - fx, y - fy);
    let clamp = |v: f32, limit: i64| (v as i64).clamp(0, limit - 1) as usize;
    let (xa, xb) = (clamp(fx, w), clamp(fx + 1.0, w));
    let (ya, yb) = (clamp(fy, h), clamp(fy + 1.0, h));
    let raw: &[u8] = image.as_raw();
    let row = 3 * w as usize;
    let at = |x: usize, y: usize| &raw[y * row + 3 * x..y * row + 3 * x + 3];
    let (p00, p10) = (at(xa, ya), at(xb, ya));
    let (p01, p11) = (at(xa, yb), at(xb, yb));
    let mut colour = [0.0; 3];
    for (i, c) in colour.iter_mut().enumerate() {
        let top = f32::from(p00[i]) * (1.0 - tx) + f32::from(p10[i]) * tx;
        let bottom = f32::from(p01[i]) * (1.0 - tx) + f32::from(p11[i]) * tx;
        *c = top * (1.0 - ty) + bottom * ty;
    }
    colour
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patch_is_the_same_for_a_brighter_flatter_picture_and_tells_red_from_grey() {
        // A dark spot on a light face at point (1, 1), 40 pixels to a spacing.
        let map = Homography::upright((20.0, 20.0), 40.0);
        let draw = |face: [u8; 3], spot: [u8; 3]| {
            image::RgbImage::from_fn(120, 120, |x, y| {
                let (dx, dy) = (x as f32 - 60.0, y as f32 - 60.0);
                image::Rgb(if dx.hypot(dy) < 8.0 { spot } else { face })
            })
        };
        let mut a = vec![0.0; LEN];
        let mut b = vec![0.0; LEN];
        sample(&draw([200, 200, 200], [20, 20, 20]), &map, 1.0, 1.0, &mut a);
        sample(
            &draw([240, 240, 240], [140, 140, 140]),
            &map,
            1.0,
            1.0,
            &mut b,
        );
        let centre = SIDE / 2 * SIDE + SIDE / 2;
        assert!(a[centre] < -2.0, "the spot is dark: {}", a[centre]);
        assert!(a[0] > 0.1, "the face is light: {}", a[0]);
        let most = a
            .iter()
            .zip(&b)
            .map(|(p, q)| (p - q).abs())
            .fold(0.0_f32, f32::max);
        assert!(most < 0.3, "brightness and contrast change little: {most}");
        // Grey has no redness; a red spot has.
        assert!(a[SIDE * SIDE..].iter().all(|v| v.abs() < 1e-3));
        sample(
            &draw([200, 200, 200], [200, 20, 20]),
            &map,
            1.0,
            1.0,
            &mut a,
        );
        assert!(a[SIDE * SIDE + centre] > 1.0, "{}", a[SIDE * SIDE + centre]);
    }
}

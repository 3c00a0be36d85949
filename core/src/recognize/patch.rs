//! The little picture of one point that the classifier looks at.

use super::geometry::Homography;

/// Pixels along a side of a patch.
pub const SIDE: usize = 24;
/// Values per pixel.
pub const CHANNELS: usize = 3;
/// Values in a patch.
pub const LEN: usize = SIDE * SIDE * CHANNELS;

/// Samples the patch of the point in column `x`, row `y` (grid units, see [`Homography`]):
/// the square one spacing wide centred on the point, into `out` (`LEN` values).
pub fn sample(image: &image::RgbImage, map: &Homography, x: f64, y: f64, out: &mut [f32]) {
    let _ = (image, map, x, y);
    out.fill(0.0);
}

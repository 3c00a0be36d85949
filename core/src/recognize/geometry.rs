//! Where the board's points fall in the picture.

/// A projective map from grid coordinates to picture pixels. Grid coordinates: `x` is the
/// column of points counted from the picture's left (0 to 8), `y` the row from the
/// picture's top (0 to 9); whole numbers are the points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Homography(pub [f64; 9]);

impl Homography {
    /// The map of an upright board: point (0, 0) at `origin`, `spacing` pixels between points.
    pub fn upright(origin: (f64, f64), spacing: f64) -> Homography {
        Homography([
            spacing, 0.0, origin.0, 0.0, spacing, origin.1, 0.0, 0.0, 1.0,
        ])
    }

    /// The pixel that grid place (`x`, `y`) falls on.
    pub fn apply(&self, x: f64, y: f64) -> (f64, f64) {
        let h = &self.0;
        let w = h[6] * x + h[7] * y + h[8];
        (
            (h[0] * x + h[1] * y + h[2]) / w,
            (h[3] * x + h[4] * y + h[5]) / w,
        )
    }
}

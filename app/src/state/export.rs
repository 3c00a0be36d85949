/// The smallest and largest side of an exported diagram, in pixels.
pub const SIZES: std::ops::RangeInclusive<u32> = 200..=4000;

/// What the user chose for a diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// The picture's side in pixels (it is square).
    pub size: u32,
    /// Whether the file numbers are drawn round the board.
    pub coordinates: bool,
    /// Whether the arrows and circles (and the last move's marks) are drawn.
    pub marks: bool,
}

impl Default for ExportOptions {
    fn default() -> ExportOptions {
        ExportOptions {
            size: 1200,
            coordinates: true,
            marks: true,
        }
    }
}

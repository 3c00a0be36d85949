//! Reading a Xiangqi position from a picture (a screenshot, a book diagram, a photo of a
//! screen). The method paragraph is written with the reader.

pub mod geometry;
pub mod net;
pub mod patch;

use crate::{Board, Square};
use std::fmt;

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
    /// The points whose reading is in doubt (including points the legal decoding changed).
    pub uncertain: Vec<Square>,
    /// Where the board is in the picture.
    pub area: Area,
    /// Whether the picture showed the board from Black's side.
    pub flipped: bool,
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

/// Every board found in `image`, top to bottom, left to right.
pub fn read(_image: &image::RgbImage) -> Result<Vec<Reading>, Error> {
    Err(Error::NoBoard)
}

/// Decodes `bytes` (PNG, JPEG, BMP or WebP) and reads every board in it.
pub fn read_bytes(bytes: &[u8]) -> Result<Vec<Reading>, Error> {
    let image = image::load_from_memory(bytes).map_err(|e| Error::Unreadable(e.to_string()))?;
    read(&image.to_rgb8())
}

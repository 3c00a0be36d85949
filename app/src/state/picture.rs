//! Reading a position from a picture (识图): a screenshot, a book diagram or a pasted
//! image read by the core's reader, then corrected by the user before it goes to the
//! editor. The reading itself runs on the picture service's thread; what it found lands
//! here as a [`Correction`]: the picture, every board found in it, and the user's
//! corrections of each, one click per point, in the order the reader found likely.

use chuhe_core::recognize::net::{self, CLASSES};
use chuhe_core::recognize::{Area, Reading};
use chuhe_core::{Board, Color, Setup, Square};
use std::path::PathBuf;
use std::sync::Arc;

/// Picture files larger than this are refused before they are read: no board picture
/// comes near it, and a picture is untrusted input.
pub const MAX_FILE_BYTES: u64 = 50 * 1024 * 1024;

/// The picture files the reader takes, by extension (lower case, matched in any case).
pub const EXTENSIONS: [&str; 5] = ["png", "jpg", "jpeg", "bmp", "webp"];

/// Whether `path` names a picture file by its extension.
pub fn is_picture_file(path: &std::path::Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// A picture as shown beside the board: its size as read, and its pixels as RGBA
/// (unpremultiplied), at most [`Picture::MAX_SHOWN`] on the longer side.
#[derive(Clone, PartialEq)]
pub struct Picture {
    /// Width of the picture read, in pixels (the boards' areas are in these).
    pub width: u32,
    /// Height of the picture read, in pixels.
    pub height: u32,
    /// Width of the pixels kept for showing.
    pub shown_width: u32,
    /// Height of the pixels kept for showing.
    pub shown_height: u32,
    /// The pixels kept for showing, RGBA, row by row.
    pub rgba: Arc<Vec<u8>>,
}

impl Picture {
    /// The longest side kept for showing: a screen shows no more beside a board.
    pub const MAX_SHOWN: u32 = 2048;
}

/// Its sizes, not its millions of bytes (an action or a failed test prints it).
impl std::fmt::Debug for Picture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Picture({}×{}, shown {}×{}, {} bytes)",
            self.width,
            self.height,
            self.shown_width,
            self.shown_height,
            self.rgba.len()
        )
    }
}

/// One board the reader found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The pieces as read, the right way round.
    pub board: Board,
    /// How sure the reader is of the whole board, 0 to 1.
    pub confidence: f32,
    /// The points whose reading is in doubt.
    pub uncertain: Vec<Square>,
    /// Where the board is in the picture.
    pub area: Area,
    /// Whether the picture showed it from Black's side.
    pub flipped: bool,
    /// Each point's probability of each class, in [`Square`] index order.
    pub probabilities: Vec<[f32; CLASSES]>,
}

impl From<Reading> for Found {
    fn from(r: Reading) -> Found {
        Found {
            board: r.board,
            confidence: r.confidence,
            uncertain: r.uncertain,
            area: r.area,
            flipped: r.flipped,
            probabilities: r.probabilities,
        }
    }
}

impl Found {
    /// The classes of `square` from the most likely to the least (ties in class order);
    /// every class when the reading gave no probabilities for it.
    pub fn likely_classes(&self, square: Square) -> Vec<usize> {
        let mut classes: Vec<usize> = (0..CLASSES).collect();
        if let Some(p) = self.probabilities.get(square.index() as usize) {
            classes.sort_by(|&a, &b| p[b].total_cmp(&p[a]).then(a.cmp(&b)));
        }
        classes
    }
}

/// Why a picture gave no position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PictureError {
    /// The file could not be read: the reason.
    File(String),
    /// The file is larger than [`MAX_FILE_BYTES`]: its size in bytes.
    FileTooLarge(u64),
    /// Not a picture the reader decodes, or damaged: the decoder's reason.
    Unreadable(String),
    /// More pixels than the reader takes.
    PictureTooLarge {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// The board (or the picture) is too small to read.
    TooSmall {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// No board in the picture.
    NoBoard,
    /// The reader stopped without an answer.
    Failed,
}

impl From<chuhe_core::recognize::Error> for PictureError {
    fn from(e: chuhe_core::recognize::Error) -> PictureError {
        use chuhe_core::recognize::Error;
        match e {
            Error::Unreadable(why) => PictureError::Unreadable(why),
            Error::TooLarge { width, height } => PictureError::PictureTooLarge { width, height },
            Error::TooSmall { width, height } => PictureError::TooSmall { width, height },
            Error::NoBoard => PictureError::NoBoard,
        }
    }
}

/// What the reader answered: the picture and the boards in it, or why none.
pub type Outcome = Result<(Picture, Vec<Found>), PictureError>;

/// The correction view: the picture, the boards found, and the user's corrections.
#[derive(Clone, Debug, PartialEq)]
pub struct Correction {
    /// The picture read.
    pub picture: Picture,
    /// The file it came from (none when pasted).
    pub file: Option<PathBuf>,
    /// Every board found, top to bottom, left to right.
    pub found: Vec<Found>,
    /// Each board as corrected so far, beside `found`.
    pub boards: Vec<Board>,
    /// The board shown.
    pub chosen: usize,
    /// Whose move it is (the picture does not say).
    pub side_to_move: Color,
}

impl Correction {
    /// The view of `found` (at least one board) in `picture`, the first board shown, Red
    /// to move.
    pub fn new(picture: Picture, file: Option<PathBuf>, found: Vec<Found>) -> Correction {
        Correction {
            boards: found.iter().map(|f| f.board).collect(),
            picture,
            file,
            found,
            chosen: 0,
            side_to_move: Color::Red,
        }
    }

    /// The board shown, as read.
    pub fn reading(&self) -> &Found {
        &self.found[self.chosen]
    }

    /// The board shown, as corrected.
    pub fn board(&self) -> &Board {
        &self.boards[self.chosen]
    }

    /// Changes the piece on `square` to the next likelier one (`forward`) or back to the
    /// one before, by the reading's probabilities; from the least likely it wraps round.
    pub fn cycle(&mut self, square: Square, forward: bool) {
        let order = self.found[self.chosen].likely_classes(square);
        let board = &mut self.boards[self.chosen];
        let now = net::class_of(board.get(square));
        let at = order.iter().position(|&c| c == now).unwrap_or(0);
        let next = if forward {
            (at + 1) % order.len()
        } else {
            (at + order.len() - 1) % order.len()
        };
        board.set(square, net::piece_of(order[next]));
    }

    /// The arrangement of board `index` as corrected, with the side to move chosen.
    pub fn setup(&self, index: usize) -> Setup {
        Setup {
            board: self.boards[index],
            side_to_move: self.side_to_move,
            ..Setup::empty()
        }
    }
}

/// The picture reader's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PictureState {
    /// A picture being read, from this file (none when pasted).
    pub reading: Option<Option<PathBuf>>,
    /// The correction view, while it is open.
    pub correction: Option<Correction>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhe_core::{Piece, PieceKind};

    fn found(board: Board, square: Square, p: [f32; CLASSES]) -> Found {
        let mut probabilities = vec![
            {
                let mut empty = [0.0; CLASSES];
                empty[0] = 1.0;
                empty
            };
            90
        ];
        probabilities[square.index() as usize] = p;
        Found {
            board,
            confidence: 0.5,
            uncertain: vec![square],
            area: Area {
                x: 0,
                y: 0,
                width: 100,
                height: 110,
            },
            flipped: false,
            probabilities,
        }
    }

    #[test]
    fn a_click_cycles_a_point_through_its_likely_pieces_and_a_right_click_goes_back() {
        let e4: Square = "e4".parse().unwrap();
        let mut p = [0.0; CLASSES];
        // A red rook most likely, then a black rook, then empty, then the rest.
        p[net::class_of(Some(Piece::new(Color::Red, PieceKind::Rook)))] = 0.6;
        p[net::class_of(Some(Piece::new(Color::Black, PieceKind::Rook)))] = 0.3;
        p[0] = 0.05;
        let mut board = Board::empty();
        board.set(e4, Some(Piece::new(Color::Red, PieceKind::Rook)));
        let mut c = Correction::new(
            Picture {
                width: 1,
                height: 1,
                shown_width: 1,
                shown_height: 1,
                rgba: Arc::new(vec![0; 4]),
            },
            None,
            vec![found(board, e4, p)],
        );
        c.cycle(e4, true);
        assert_eq!(
            c.board().get(e4),
            Some(Piece::new(Color::Black, PieceKind::Rook))
        );
        c.cycle(e4, true);
        assert_eq!(c.board().get(e4), None, "empty comes third");
        c.cycle(e4, false);
        c.cycle(e4, false);
        assert_eq!(
            c.board().get(e4),
            Some(Piece::new(Color::Red, PieceKind::Rook))
        );
        // Back from the likeliest wraps round to the least likely, and on again.
        c.cycle(e4, false);
        assert_ne!(
            c.board().get(e4),
            Some(Piece::new(Color::Red, PieceKind::Rook))
        );
        c.cycle(e4, true);
        assert_eq!(
            c.board().get(e4),
            Some(Piece::new(Color::Red, PieceKind::Rook))
        );
        assert_eq!(c.reading().board.get(e4), c.board().get(e4));
    }

    #[test]
    fn pictures_are_known_by_extension_in_any_case() {
        assert!(is_picture_file("a/shot.PNG".as_ref()));
        assert!(is_picture_file("书.jpeg".as_ref()));
        assert!(!is_picture_file("game.pgn".as_ref()));
        assert!(!is_picture_file("png".as_ref()));
    }
}

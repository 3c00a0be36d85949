//! The board description (棋盘图) every drawing of a board is made from: the screen, the PNG
//! export and the printed worksheet.
//!
//! [`board`] and [`piece`] list what a diagram consists of — the board's face, the frame,
//! the grid with the river gap, the palaces' diagonals, the corner marks, 楚河 汉界, the file
//! numbers and the pieces — as [`Element`]s measured in point spacings, each coloured by
//! what it is ([`Ink`]). One painter, [`draw`], places and scales them onto any [`Surface`],
//! which only puts the shapes down and picks a colour per ink: the app's egui surface (the
//! screen and the PNG export, snapping the crisp lines to pixels), the worksheet's PDF
//! paths and [`svg`], so screen, paper and web page cannot disagree about the board.
//!
//! ```
//! use chuhe_core::diagram::{self, BoardStyle, Element, Proportions};
//! let elements = diagram::board(&BoardStyle::default(), &Proportions::WOOD);
//! let texts: String = elements
//!     .iter()
//!     .filter_map(|e| match e {
//!         Element::Text { text, .. } => Some(text.as_str()),
//!         _ => None,
//!     })
//!     .collect();
//! assert!(texts.starts_with("楚河汉界"));
//! ```

use crate::{Board, Color, File, Piece, PieceKind, Position, Rank, Square};
use serde::{Deserialize, Serialize};

pub mod raster;
pub mod surface;
pub mod svg;
pub mod web_font;

pub use surface::{Placement, Point, Surface, draw};

/// The app's font (a subset of LXGW WenKai, see `assets/fonts/README.md`): every board, the
/// UI and the worksheets draw their characters with it.
pub static FONT: &[u8] = include_bytes!("../../assets/fonts/ChuheKai-Regular.ttf");

/// How far above the baseline a Chinese character's middle is in [`FONT`], in ems: where
/// a surface that sets text by its baseline puts it to centre a character on a point.
pub fn character_middle() -> f32 {
    use skrifa::instance::{LocationRef, Size};
    use skrifa::{FontRef, MetadataProvider};
    let Ok(font) = FontRef::new(FONT) else {
        return FALLBACK_MIDDLE;
    };
    let units_per_em = f32::from(
        font.metrics(Size::unscaled(), LocationRef::default())
            .units_per_em,
    );
    let metrics = font.glyph_metrics(Size::unscaled(), LocationRef::default());
    font.charmap()
        .map('中')
        .and_then(|glyph| metrics.bounds(glyph))
        .map_or(FALLBACK_MIDDLE, |b| {
            (b.y_min + b.y_max) / 2.0 / units_per_em
        })
}

/// A kai face's middle, for a font that cannot be read (the built-in one always can).
const FALLBACK_MIDDLE: f32 = 0.38;

/// Room beside the grid, in point spacings: for the edge pieces, the frame around them and
/// some wood.
pub const SIDE_MARGIN: f32 = 1.6;
/// Room above and below the grid, in point spacings: for the pieces, the frame and the file
/// numbers outside it. 8 + 2 × 1.6 = 9 + 2 × 1.1, so the board is square.
pub const END_MARGIN: f32 = 1.1;
/// The board's side in point spacings.
pub const BOARD_SPACINGS: f32 = 8.0 + 2.0 * SIDE_MARGIN;

/// The last file and rank index, as grid coordinates.
pub const LAST_FILE: f32 = 8.0;
/// The last rank index.
pub const LAST_RANK: f32 = 9.0;

/// The river (河界) lies between these two ranks, so its middle is at 4.5.
pub const RIVER_BANKS: [f32; 2] = [4.0, 5.0];

/// Files d–f (肋道 and 中线) of the palaces (九宫).
const PALACE_FILES: [f32; 2] = [3.0, 5.0];
/// The three back ranks of Red's and of Black's palace.
const PALACE_RANKS: [[f32; 2]; 2] = [[0.0, 2.0], [7.0, 9.0]];

/// 楚河 on Red's left half of the river and 汉界 on the right, one character per point gap.
const RIVER_INSCRIPTION: [(char, f32); 4] = [('楚', 1.5), ('河', 2.5), ('汉', 5.5), ('界', 6.5)];

/// Red's file numbers are written in Chinese numerals (一…九).
pub const CHINESE_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// What a board picture shows, apart from where and how large it is drawn: which piece
/// stands on which point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    pieces: Vec<(Square, Piece)>,
}

impl Diagram {
    /// The pieces of `position` where they stand.
    pub fn from_position(position: &Position) -> Diagram {
        let pieces = Square::ALL
            .into_iter()
            .filter_map(|square| position.piece_at(square).map(|piece| (square, piece)))
            .collect();
        Diagram { pieces }
    }

    /// The pieces of any arrangement, legal or not (the position editor's).
    pub fn from_board(board: &Board) -> Diagram {
        Diagram {
            pieces: board.pieces().collect(),
        }
    }

    /// Every piece on the board with its point.
    pub fn pieces(&self) -> &[(Square, Piece)] {
        &self.pieces
    }
}

/// How the points are labelled round the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Coordinates {
    /// Each side's file numbers at its own edge: Red's 九…一, Black's 1…9 (纵线编号).
    #[default]
    Chinese,
    /// ICCS: files a–i along the bottom and top, ranks 0–9 up the left side.
    Iccs,
}

/// A place on a drawing in point spacings: `x` rightwards from the grid's left line, `y`
/// downwards from its top line, so the grid runs from (0, 0) to (8, 9) whichever side sits
/// at the bottom.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spot {
    /// Rightwards.
    pub x: f32,
    /// Downwards.
    pub y: f32,
}

impl Spot {
    /// The spot `x` right of and `y` below the grid's top left.
    pub const fn new(x: f32, y: f32) -> Spot {
        Spot { x, y }
    }

    /// This spot moved by `dx`, `dy`.
    pub fn offset(self, dx: f32, dy: f32) -> Spot {
        Spot::new(self.x + dx, self.y + dy)
    }
}

/// What an element is, for its colour: each renderer maps these to the colours of its
/// theme or print style.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ink {
    /// The board's face.
    Board,
    /// The grid, the palace diagonals, the corner marks and the frame.
    Lines,
    /// 楚河 and 汉界.
    RiverText,
    /// The file (and ICCS rank) labels.
    FileNumbers,
    /// The face of a piece of this side.
    PieceFace(Color),
    /// The turned edge round a piece's face.
    PieceRim,
    /// The shadow a piece casts.
    PieceShadow,
    /// The ring and character of a piece of this side.
    PieceInk(Color),
    /// The frames round the last move's two points.
    LastMove,
    /// An arrow, in the colour of the arrow being drawn.
    Arrow,
}

/// One thing drawn, measured in point spacings.
#[derive(Clone, Debug, PartialEq)]
pub enum Element {
    /// A filled rectangle with rounded corners.
    Panel {
        /// Top left.
        min: Spot,
        /// Bottom right.
        max: Spot,
        /// The corners' radius.
        corner_radius: f32,
        /// Its colour.
        ink: Ink,
    },
    /// A line through `points` (back to the first when `closed`), `width` wide. A `crisp`
    /// line is one of the board's own lines, which a screen snaps to whole pixels.
    Line {
        /// The points it runs through.
        points: Vec<Spot>,
        /// Whether it returns to the first point.
        closed: bool,
        /// Its width.
        width: f32,
        /// Its colour.
        ink: Ink,
        /// Whether a screen should snap it to whole pixels.
        crisp: bool,
    },
    /// A circle, filled or outlined or both.
    Disc {
        /// Its centre.
        centre: Spot,
        /// Its radius.
        radius: f32,
        /// The fill, if any.
        fill: Option<Ink>,
        /// The outline's width and colour, if any: a ring just outside the radius.
        outline: Option<(f32, Ink)>,
    },
    /// A filled convex polygon (an arrow's head).
    Polygon {
        /// Its corners.
        points: Vec<Spot>,
        /// Its colour.
        ink: Ink,
    },
    /// Text centred on a spot, in the app's font.
    Text {
        /// The middle of the text.
        centre: Spot,
        /// The text.
        text: String,
        /// Its height (the font size).
        size: f32,
        /// Its colour.
        ink: Ink,
    },
}

/// Lengths on the board in units of the spacing between two neighbouring points, so the
/// board looks the same at every size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proportions {
    /// Rounding of the board's corners.
    pub board_corner_radius: f32,
    /// Width of the grid lines, palace diagonals and corner marks.
    pub line_width: f32,
    /// Width of the frame drawn just outside the grid.
    pub frame_width: f32,
    /// How far the frame stands outside the outermost lines: beyond the edge pieces.
    pub frame_gap: f32,
    /// Distance of a corner mark from the lines it sits between.
    pub mark_gap: f32,
    /// Length of each arm of a corner mark.
    pub mark_arm: f32,
    /// Radius of a piece's face, inside its rim.
    pub piece_radius: f32,
    /// Width of the rim around a piece's face (a piece ends at the radius and the rim).
    pub piece_rim_width: f32,
    /// How far a piece's shadow falls from it, right and down.
    pub piece_shadow_offset: [f32; 2],
    /// Inner radius of the ring inked inside a piece's face.
    pub piece_ring_radius: f32,
    /// Height of a piece's character.
    pub piece_text: f32,
    /// Height of the characters in the river.
    pub river_text: f32,
    /// Height of the file numbers.
    pub file_number_text: f32,
    /// Distance of the file numbers' centres from the outermost ranks.
    pub file_number_offset: f32,
}

impl Proportions {
    /// The traditional wooden board's proportions, which the other looks start from.
    pub const WOOD: Proportions = Proportions {
        board_corner_radius: 0.1,
        line_width: 0.022,
        frame_width: 0.05,
        frame_gap: 0.56,
        mark_gap: 0.07,
        mark_arm: 0.2,
        piece_radius: 0.45,
        piece_rim_width: 0.05,
        piece_shadow_offset: [0.04, 0.06],
        piece_ring_radius: 0.37,
        piece_text: 0.56,
        river_text: 0.58,
        file_number_text: 0.3,
        file_number_offset: 0.84,
    };
}

/// What a board shows besides its pieces and how it is turned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardStyle {
    /// Black at the bottom.
    pub flipped: bool,
    /// The labels round the board, or none.
    pub coordinates: Option<Coordinates>,
    /// In ICCS labels, the rank digits up the left side too.
    pub rank_digits: bool,
    /// 楚河 汉界 in the river.
    pub river: bool,
    /// Pieces and river in traditional characters (車, 馬, 漢界) rather than simplified.
    pub traditional: bool,
}

impl Default for BoardStyle {
    fn default() -> BoardStyle {
        BoardStyle {
            flipped: false,
            coordinates: Some(Coordinates::Chinese),
            rank_digits: true,
            river: true,
            traditional: false,
        }
    }
}

/// Where grid coordinates are on a drawing: `file` rightwards from file a, `rank` upwards
/// from rank 0 (both the other way when `flipped`), fractions and values beyond the grid
/// included.
pub fn at(flipped: bool, file: f32, rank: f32) -> Spot {
    let (file, rank) = if flipped {
        (LAST_FILE - file, LAST_RANK - rank)
    } else {
        (file, rank)
    };
    Spot::new(file, LAST_RANK - rank)
}

/// Where a point is on a drawing.
pub fn spot(flipped: bool, square: Square) -> Spot {
    at(
        flipped,
        f32::from(square.file().index()),
        f32::from(square.rank().index()),
    )
}

/// The board without its pieces: the face, the frame, the grid, the palaces, the corner
/// marks, the river's inscription and the labels, as `style` asks.
pub fn board(style: &BoardStyle, proportions: &Proportions) -> Vec<Element> {
    let mut elements = vec![Element::Panel {
        min: Spot::new(-SIDE_MARGIN, -END_MARGIN),
        max: Spot::new(LAST_FILE + SIDE_MARGIN, LAST_RANK + END_MARGIN),
        corner_radius: proportions.board_corner_radius,
        ink: Ink::Board,
    }];
    let gap = proportions.frame_gap;
    elements.push(Element::Line {
        points: vec![
            Spot::new(-gap, -gap),
            Spot::new(LAST_FILE + gap, -gap),
            Spot::new(LAST_FILE + gap, LAST_RANK + gap),
            Spot::new(-gap, LAST_RANK + gap),
        ],
        closed: true,
        width: proportions.frame_width,
        ink: Ink::Lines,
        crisp: true,
    });
    grid(&mut elements, style.flipped, proportions);
    if style.river {
        river(&mut elements, style.traditional, proportions);
    }
    if let Some(coordinates) = style.coordinates {
        labels(
            &mut elements,
            style.flipped,
            coordinates,
            style.rank_digits,
            proportions,
        );
    }
    elements
}

/// A crisp board line through `points`.
fn board_line(points: Vec<Spot>, proportions: &Proportions) -> Element {
    Element::Line {
        points,
        closed: false,
        width: proportions.line_width,
        ink: Ink::Lines,
        crisp: true,
    }
}

/// Ranks, files (broken by the river but for the two edge files), the palaces' diagonals
/// and the corner marks on the cannons' and pawns' starting points.
fn grid(elements: &mut Vec<Element>, flipped: bool, proportions: &Proportions) {
    let mut line = |from: (f32, f32), to: (f32, f32)| {
        elements.push(board_line(
            vec![at(flipped, from.0, from.1), at(flipped, to.0, to.1)],
            proportions,
        ));
    };
    for rank in 0..=9_u8 {
        let rank = f32::from(rank);
        line((0.0, rank), (LAST_FILE, rank));
    }
    for file in 0..=8_u8 {
        let file = f32::from(file);
        if file == 0.0 || file == LAST_FILE {
            line((file, 0.0), (file, LAST_RANK));
        } else {
            line((file, 0.0), (file, RIVER_BANKS[0]));
            line((file, RIVER_BANKS[1]), (file, LAST_RANK));
        }
    }
    let [left, right] = PALACE_FILES;
    for [near, far] in PALACE_RANKS {
        line((left, near), (right, far));
        line((right, near), (left, far));
    }
    for square in marked_points() {
        corner_marks(elements, spot(flipped, square), proportions);
    }
}

/// The starting points of the cannons and pawns, which traditional boards mark.
fn marked_points() -> impl Iterator<Item = Square> {
    let start = Position::startpos();
    Square::ALL.into_iter().filter(move |&square| {
        start
            .piece_at(square)
            .is_some_and(|piece| matches!(piece.kind, PieceKind::Cannon | PieceKind::Pawn))
    })
}

/// The small right angles in the corners around a point; on an edge file only the two on
/// the board side.
fn corner_marks(elements: &mut Vec<Element>, centre: Spot, p: &Proportions) {
    let (gap, arm) = (p.mark_gap, p.mark_arm);
    for dx in [-1.0_f32, 1.0] {
        // Left and right on the drawing: an edge file is at either side, flipped or not.
        let off_board = (centre.x == 0.0 && dx < 0.0) || (centre.x == LAST_FILE && dx > 0.0);
        if off_board {
            continue;
        }
        for dy in [-1.0_f32, 1.0] {
            let corner = centre.offset(dx * gap, dy * gap);
            elements.push(board_line(
                vec![
                    corner.offset(dx * arm, 0.0),
                    corner,
                    corner.offset(0.0, dy * arm),
                ],
                p,
            ));
        }
    }
}

/// 楚河 汉界 in the river, the same way up whichever side sits at the bottom.
fn river(elements: &mut Vec<Element>, traditional: bool, proportions: &Proportions) {
    let river_middle = (RIVER_BANKS[0] + RIVER_BANKS[1]) / 2.0;
    for (character, file) in RIVER_INSCRIPTION {
        let character = match character {
            '汉' if traditional => '漢',
            other => other,
        };
        elements.push(Element::Text {
            centre: at(false, file, river_middle),
            text: character.to_string(),
            size: proportions.river_text,
            ink: Ink::RiverText,
        });
    }
}

/// The file numbers (and in ICCS style the ranks, unless `rank_digits` is off) round the
/// board: in Chinese style Red's 九…一 at Red's edge and Black's 1…9 at Black's, each
/// counted from that player's right; in ICCS style a–i along both edges and 0–9 up the left.
fn labels(
    elements: &mut Vec<Element>,
    flipped: bool,
    coordinates: Coordinates,
    rank_digits: bool,
    proportions: &Proportions,
) {
    let offset = proportions.file_number_offset;
    let mut label = |centre: Spot, text: String| {
        elements.push(Element::Text {
            centre,
            text,
            size: proportions.file_number_text,
            ink: Ink::FileNumbers,
        });
    };
    match coordinates {
        Coordinates::Chinese => {
            for file in (0..=8).filter_map(File::new) {
                let x = f32::from(file.index());
                let red = CHINESE_NUMERALS[usize::from(file.number_for(Color::Red)) - 1];
                let black = file.number_for(Color::Black).to_string();
                label(at(flipped, x, -offset), red.to_string());
                label(at(flipped, x, LAST_RANK + offset), black);
            }
        }
        Coordinates::Iccs => {
            for file in (0..=8).filter_map(File::new) {
                let x = f32::from(file.index());
                for rank in [-offset, LAST_RANK + offset] {
                    label(at(flipped, x, rank), file.char().to_string());
                }
            }
            // Up the left side of the drawing, whichever side sits at the bottom.
            let left = if flipped {
                LAST_FILE + offset + 0.2
            } else {
                -offset - 0.2
            };
            for rank in (0..=9).filter_map(Rank::new).filter(|_| rank_digits) {
                label(
                    at(flipped, left, f32::from(rank.index())),
                    rank.char().to_string(),
                );
            }
        }
    }
}

/// A piece centred on `centre`: its shadow, a disc with a rim, an inked ring and its
/// character.
pub fn piece(centre: Spot, piece: Piece, traditional: bool, p: &Proportions) -> Vec<Element> {
    let [dx, dy] = p.piece_shadow_offset;
    vec![
        Element::Disc {
            centre: centre.offset(dx, dy),
            radius: p.piece_radius,
            fill: Some(Ink::PieceShadow),
            outline: None,
        },
        Element::Disc {
            centre,
            radius: p.piece_radius,
            fill: Some(Ink::PieceFace(piece.color)),
            outline: Some((p.piece_rim_width, Ink::PieceRim)),
        },
        Element::Disc {
            centre,
            radius: p.piece_ring_radius,
            fill: None,
            outline: Some((p.line_width, Ink::PieceInk(piece.color))),
        },
        Element::Text {
            centre,
            text: if traditional {
                piece.hanzi_traditional()
            } else {
                piece.hanzi()
            }
            .to_string(),
            size: p.piece_text,
            ink: Ink::PieceInk(piece.color),
        },
    ]
}

/// Every piece of `diagram` where it stands, but the one on `skip` (a piece being dragged).
pub fn pieces(
    diagram: &Diagram,
    style: &BoardStyle,
    proportions: &Proportions,
    skip: Option<Square>,
) -> Vec<Element> {
    diagram
        .pieces()
        .iter()
        .filter(|&&(square, _)| Some(square) != skip)
        .flat_map(|&(square, p)| {
            piece(
                spot(style.flipped, square),
                p,
                style.traditional,
                proportions,
            )
        })
        .collect()
}

/// Corner brackets round a point, the way the last move is shown.
pub fn point_frame(flipped: bool, square: Square) -> Vec<Element> {
    let centre = spot(flipped, square);
    let (half, arm) = (0.5, 0.18);
    let mut elements = Vec::new();
    for dx in [-1.0_f32, 1.0] {
        for dy in [-1.0_f32, 1.0] {
            let corner = centre.offset(dx * half, dy * half);
            elements.push(Element::Line {
                points: vec![
                    corner.offset(-dx * arm, 0.0),
                    corner,
                    corner.offset(0.0, -dy * arm),
                ],
                closed: false,
                width: 0.07,
                ink: Ink::LastMove,
                crisp: false,
            });
        }
    }
    elements
}

/// An arrow from point to point: a thick shaft ending in a triangular head whose tip
/// stops short of the target's centre; nothing when both are one point.
pub fn arrow(flipped: bool, from: Square, to: Square) -> Vec<Element> {
    shaped_arrow(flipped, from, to, 0.16, 0.45, 0.28)
}

/// A light arrow: [`arrow`]'s shape with a shaft under half as thick and a smaller head,
/// for a move beside the one a strong arrow shows.
pub fn thin_arrow(flipped: bool, from: Square, to: Square) -> Vec<Element> {
    shaped_arrow(flipped, from, to, 0.07, 0.32, 0.17)
}

/// An arrow with a shaft `width` thick and a head `head_length` long and twice
/// `half_head` wide, in point spacings.
fn shaped_arrow(
    flipped: bool,
    from: Square,
    to: Square,
    width: f32,
    head_length: f32,
    half_head: f32,
) -> Vec<Element> {
    let (start, end) = (spot(flipped, from), spot(flipped, to));
    let (dx, dy) = (end.x - start.x, end.y - start.y);
    let length = dx.hypot(dy);
    if from == to || length == 0.0 {
        return Vec::new();
    }
    let (dx, dy) = (dx / length, dy / length);
    // Square to the shaft, clockwise on the drawing.
    let (nx, ny) = (dy, -dx);
    let head_length = head_length.min(length * 0.6);
    let tip = end.offset(-dx * 0.15, -dy * 0.15);
    let base = tip.offset(-dx * head_length, -dy * head_length);
    vec![
        Element::Line {
            points: vec![start.offset(dx * 0.2, dy * 0.2), base],
            closed: false,
            width,
            ink: Ink::Arrow,
            crisp: false,
        },
        Element::Polygon {
            points: vec![
                tip,
                base.offset(nx * half_head, ny * half_head),
                base.offset(-nx * half_head, -ny * half_head),
            ],
            ink: Ink::Arrow,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(elements: &[Element]) -> Vec<(Spot, String)> {
        elements
            .iter()
            .filter_map(|e| match e {
                Element::Text { centre, text, .. } => Some((*centre, text.clone())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_grid_has_ten_ranks_and_files_broken_by_the_river() {
        let elements = board(&BoardStyle::default(), &Proportions::WOOD);
        let crisp_two_point = elements
            .iter()
            .filter(|e| matches!(e, Element::Line { points, crisp: true, .. } if points.len() == 2))
            .count();
        // 10 ranks, 2 edge files, 7 files in two halves, 4 palace diagonals.
        assert_eq!(crisp_two_point, 10 + 2 + 14 + 4);
        // 4 cannons and 10 pawns, 4 marks each but 2 on the edge files' 4 pawns.
        let marks = elements
            .iter()
            .filter(|e| matches!(e, Element::Line { points, .. } if points.len() == 3))
            .count();
        assert_eq!(marks, 14 * 4 - 4 * 2);
    }

    #[test]
    fn red_numerals_follow_red_and_the_river_stays_upright_when_flipped() {
        let style = BoardStyle::default();
        let upright = texts(&board(&style, &Proportions::WOOD));
        let flipped = texts(&board(
            &BoardStyle {
                flipped: true,
                ..style
            },
            &Proportions::WOOD,
        ));
        let find = |t: &[(Spot, String)], s: &str| t.iter().find(|(_, x)| x == s).unwrap().0;
        // 九 is Red's file a: bottom left upright, top right flipped.
        assert!(find(&upright, "九").y > LAST_RANK && find(&upright, "九").x == 0.0);
        assert!(find(&flipped, "九").y < 0.0 && find(&flipped, "九").x == LAST_FILE);
        assert_eq!(find(&upright, "楚"), find(&flipped, "楚"));
    }

    #[test]
    fn an_arrow_runs_from_its_point_to_just_short_of_its_target() {
        let (h2, e2) = ("h2".parse().unwrap(), "e2".parse().unwrap());
        let close = |a: Spot, x: f32, y: f32| (a.x - x).abs() < 1e-5 && (a.y - y).abs() < 1e-5;
        let [
            Element::Line { points, .. },
            Element::Polygon { points: head, .. },
        ] = &arrow(false, h2, e2)[..]
        else {
            panic!("a shaft and a head");
        };
        // h2 is at (7, 7) on the drawing, e2 at (4, 7).
        assert!(
            close(points[0], 6.8, 7.0) && close(points[1], 4.6, 7.0),
            "{points:?}"
        );
        assert!(close(head[0], 4.15, 7.0), "the tip stops short: {head:?}");
        assert!(
            close(head[1], 4.6, 7.28) && close(head[2], 4.6, 6.72),
            "{head:?}"
        );
        // Turned round, the same arrow runs the other way across the drawing.
        let Element::Line { points, .. } = &arrow(true, h2, e2)[0] else {
            panic!("a shaft");
        };
        assert!(close(points[0], 1.2, 2.0), "{points:?}");
        assert!(arrow(false, h2, h2).is_empty());
    }

    #[test]
    fn pieces_stand_on_their_points() {
        let diagram = Diagram::from_position(&Position::startpos());
        let elements = pieces(&diagram, &BoardStyle::default(), &Proportions::WOOD, None);
        let characters = texts(&elements);
        assert_eq!(characters.len(), 32);
        let general = characters.iter().find(|(_, t)| t == "帅").unwrap().0;
        assert_eq!(general, Spot::new(4.0, 9.0));
        let skipped = pieces(
            &diagram,
            &BoardStyle::default(),
            &Proportions::WOOD,
            Some("e0".parse().unwrap()),
        );
        assert!(texts(&skipped).iter().all(|(_, t)| t != "帅"));
    }
}

//! Colours, proportions and fonts of everything Chuhe draws, in one place.
//!
//! A theme is a plain value: the traditional wood look is [`Theme::wood`], the projector
//! look is [`Theme::high_contrast`], another value of the same type, never a fork of the
//! drawing code.

use chuhe_core::record::MarkColor;
use egui::{Color32, Vec2};
use serde::{Deserialize, Serialize};

/// The themes a user chooses between, as the settings store the choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ThemeChoice {
    /// [`Theme::wood`].
    #[default]
    Wood,
    /// [`Theme::high_contrast`].
    HighContrast,
}

impl ThemeChoice {
    /// Every theme, in menu order.
    pub const ALL: [ThemeChoice; 2] = [ThemeChoice::Wood, ThemeChoice::HighContrast];

    /// The theme's values.
    pub const fn theme(self) -> Theme {
        match self {
            ThemeChoice::Wood => Theme::wood(),
            ThemeChoice::HighContrast => Theme::high_contrast(),
        }
    }

    /// The key of the theme's name in the translations.
    pub const fn message_id(self) -> &'static str {
        match self {
            ThemeChoice::Wood => "theme-wood",
            ThemeChoice::HighContrast => "theme-high-contrast",
        }
    }
}

/// How the board and the pieces look.
#[derive(Clone, Debug, PartialEq)]
pub struct Theme {
    /// The window around the board.
    pub background: Color32,
    /// The board's face (棋盘).
    pub board: Color32,
    /// The grid, the palace diagonals, the corner marks and the frame.
    pub lines: Color32,
    /// 楚河 and 汉界 in the river.
    pub river_text: Color32,
    /// The file numbers along the top and bottom edges.
    pub file_numbers: Color32,
    /// A piece's face.
    pub piece_face: Color32,
    /// The turned edge around a piece's face.
    pub piece_rim: Color32,
    /// The shadow a piece casts on the board.
    pub piece_shadow: Color32,
    /// Ink of Red's pieces (红方).
    pub red_ink: Color32,
    /// Ink of Black's pieces (黑方).
    pub black_ink: Color32,
    /// The two points of the last move.
    pub last_move: Color32,
    /// The glow around a general in check.
    pub check: Color32,
    /// The ring around the selected piece.
    pub selection: Color32,
    /// The dots on the selected piece's legal destinations.
    pub destination: Color32,
    /// The engine's best move.
    pub engine_arrow: Color32,
    /// The user's arrows and circles, by [`MarkColor`]: red, green, blue, yellow.
    pub marks: [Color32; 4],
    /// Whether egui's dark visuals suit the panels around the board.
    pub dark_panels: bool,
    /// The evaluation bar and graph: Red's share and Black's share.
    pub eval_red: Color32,
    /// Black's share of the evaluation bar and graph.
    pub eval_black: Color32,
    /// Every length on the board, as a fraction of the distance between two points.
    pub proportions: Proportions,
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
    /// Radius of a piece.
    pub piece_radius: f32,
    /// Width of the rim around a piece's face.
    pub piece_rim_width: f32,
    /// How far a piece's shadow falls from it.
    pub piece_shadow_offset: Vec2,
    /// Radius of the ring inked inside a piece's face.
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

impl Theme {
    /// A traditional board: light wood, dark ink, boxwood pieces inked red and black.
    pub const fn wood() -> Theme {
        Theme {
            background: Color32::from_rgb(0x5b, 0x3a, 0x22),
            board: Color32::from_rgb(0xe6, 0xc2, 0x8a),
            lines: Color32::from_rgb(0x4a, 0x2c, 0x14),
            river_text: Color32::from_rgb(0x6b, 0x45, 0x24),
            file_numbers: Color32::from_rgb(0x4a, 0x2c, 0x14),
            piece_face: Color32::from_rgb(0xf7, 0xe4, 0xc0),
            piece_rim: Color32::from_rgb(0xa8, 0x74, 0x3c),
            piece_shadow: Color32::from_black_alpha(90),
            red_ink: Color32::from_rgb(0xb4, 0x1e, 0x14),
            black_ink: Color32::from_rgb(0x1e, 0x1a, 0x16),
            last_move: Color32::from_rgba_premultiplied(0x20, 0x60, 0xc0, 0x60),
            check: Color32::from_rgb(0xe0, 0x10, 0x10),
            selection: Color32::from_rgb(0x10, 0x70, 0x30),
            destination: Color32::from_rgba_premultiplied(0x10, 0x60, 0x20, 0xb0),
            engine_arrow: Color32::from_rgba_premultiplied(0x18, 0x40, 0x90, 0xc0),
            marks: MARKS,
            dark_panels: false,
            eval_red: Color32::from_rgb(0xc8, 0x2a, 0x1e),
            eval_black: Color32::from_rgb(0x26, 0x22, 0x1e),
            proportions: PROPORTIONS,
        }
    }

    /// For projectors and low vision: white board, black lines, pure red and black ink,
    /// thicker lines and larger characters, marks in saturated colours.
    pub const fn high_contrast() -> Theme {
        let mut proportions = PROPORTIONS;
        proportions.line_width = 0.035;
        proportions.frame_width = 0.07;
        proportions.piece_rim_width = 0.08;
        proportions.piece_text = 0.62;
        proportions.file_number_text = 0.36;
        Theme {
            background: Color32::from_rgb(0x10, 0x10, 0x10),
            board: Color32::WHITE,
            lines: Color32::BLACK,
            river_text: Color32::BLACK,
            file_numbers: Color32::BLACK,
            piece_face: Color32::WHITE,
            piece_rim: Color32::BLACK,
            piece_shadow: Color32::from_black_alpha(120),
            red_ink: Color32::from_rgb(0xd0, 0x00, 0x00),
            black_ink: Color32::BLACK,
            last_move: Color32::from_rgba_premultiplied(0x00, 0x50, 0xff, 0x80),
            check: Color32::from_rgb(0xff, 0x00, 0x00),
            selection: Color32::from_rgb(0x00, 0xa0, 0x00),
            destination: Color32::from_rgb(0x00, 0x90, 0x00),
            engine_arrow: Color32::from_rgba_premultiplied(0x00, 0x30, 0xc0, 0xd0),
            marks: MARKS,
            dark_panels: true,
            eval_red: Color32::from_rgb(0xe0, 0x00, 0x00),
            eval_black: Color32::BLACK,
            proportions,
        }
    }

    /// The colour of a user's arrow or circle.
    pub const fn mark(&self, color: MarkColor) -> Color32 {
        self.marks[match color {
            MarkColor::Red => 0,
            MarkColor::Green => 1,
            MarkColor::Blue => 2,
            MarkColor::Yellow => 3,
        }]
    }
}

/// Arrow and circle colours, translucent so the pieces show through, as Lichess draws them.
const MARKS: [Color32; 4] = [
    Color32::from_rgba_premultiplied(0xb0, 0x18, 0x18, 0xc0),
    Color32::from_rgba_premultiplied(0x10, 0x80, 0x30, 0xc0),
    Color32::from_rgba_premultiplied(0x10, 0x40, 0xb0, 0xc0),
    Color32::from_rgba_premultiplied(0xc0, 0x98, 0x00, 0xc0),
];

/// The wood theme's proportions, which the others start from.
const PROPORTIONS: Proportions = Proportions {
    board_corner_radius: 0.1,
    line_width: 0.022,
    frame_width: 0.05,
    frame_gap: 0.56,
    mark_gap: 0.07,
    mark_arm: 0.2,
    piece_radius: 0.45,
    piece_rim_width: 0.05,
    piece_shadow_offset: Vec2::new(0.04, 0.06),
    piece_ring_radius: 0.37,
    piece_text: 0.56,
    river_text: 0.58,
    file_number_text: 0.3,
    file_number_offset: 0.84,
};

impl Default for Theme {
    fn default() -> Theme {
        Theme::wood()
    }
}

//! Colours, proportions and fonts of everything Chuhe draws, in one place.
//!
//! A theme is a plain value: the traditional wood look is [`Theme::wood`], the projector
//! look is [`Theme::high_contrast`], another value of the same type, never a fork of the
//! drawing code. Nothing else names a colour: the panels ask the theme's [`Palette`] for a
//! colour by what it says (success, danger, ...), and the printed club page asks [`PAGE`].

use chuhe_core::record::MarkColor;
use egui::Color32;
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
    /// Words drawn straight on the window's background (the audience window's comment).
    pub background_text: Color32,
    /// The teacher's preview of the next move, which the audience does not see.
    pub preview_arrow: Color32,
    /// The words and small marks of the panels around the board.
    pub palette: Palette,
    /// Every length on the board, as a fraction of the distance between two points.
    pub proportions: Proportions,
}

/// Colours of the panels' words and small marks, by what they say. The wood theme's panels
/// are light (egui's light visuals) and the high-contrast theme's dark, so each theme has
/// its own: a colour that reads on one is too dim on the other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// Good news in words: a legal position, a sound composition, a right answer.
    pub success: Color32,
    /// A puzzle solved, as its mark in the list.
    pub solved: Color32,
    /// A puzzle missed, as its mark in the list.
    pub danger: Color32,
    /// What is there but says little: a puzzle not tried yet, the evaluation's even line.
    pub muted: Color32,
    /// What stands out from its neighbours: the top three of the standings.
    pub accent: Color32,
    /// A Red player's name in the pairings.
    pub red_name: Color32,
    /// The line under the pointer on the evaluation graph.
    pub graph_hover: Color32,
    /// Tablebase moves and practice outcomes, by what they lead to.
    pub wdl: Wdl,
}

/// A tablebase value's colour: the fastest win, another win, a draw, a loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wdl {
    /// The quickest win (and a practice game won).
    pub fastest: Color32,
    /// A slower win.
    pub win: Color32,
    /// A draw.
    pub draw: Color32,
    /// A loss (and a practice mistake).
    pub loss: Color32,
}

/// The printed club page's colours: ink on white paper, whatever the screen's theme.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PagePalette {
    /// The paper.
    pub paper: Color32,
    /// Titles, headings and the table's words.
    pub ink: Color32,
    /// Red's names in the pairings.
    pub red_ink: Color32,
    /// The lines between a table's rows.
    pub rule: Color32,
    /// The top three of the standings.
    pub top_fill: Color32,
    /// A table's heading row.
    pub head_fill: Color32,
}

/// A QR code's dark modules, whatever the theme: cameras read black on white best.
pub const QR_DARK: Color32 = Color32::BLACK;

/// The paper round a QR code and between its modules.
pub const QR_LIGHT: Color32 = Color32::WHITE;

/// A bar of the class quiz's chart, for a move that is not right.
pub const QUIZ_BAR: Color32 = Color32::from_rgb(0x8d, 0x6e, 0x63);

/// A bar of the chart for a right move.
pub const QUIZ_BAR_RIGHT: Color32 = Color32::from_rgb(0x2e, 0x7d, 0x32);

/// The revealed question's answer on the board: the right bar's green, nearly solid.
pub const QUIZ_ANSWER_ARROW: Color32 = Color32::from_rgba_unmultiplied_const(0x2e, 0x7d, 0x32, 235);

/// Another right move on the revealed board: a paler green, see-through, so that the
/// answer's arrow stands out from it and the pieces show under it.
pub const QUIZ_OTHER_ARROW: Color32 = Color32::from_rgba_unmultiplied_const(0x4c, 0xaf, 0x50, 200);

/// The colour of a right move's arrow on the revealed board: the answer's, or another's.
pub fn quiz_arrow(main: bool) -> Color32 {
    if main {
        QUIZ_ANSWER_ARROW
    } else {
        QUIZ_OTHER_ARROW
    }
}

/// The printed club page's colours.
pub const PAGE: PagePalette = PagePalette {
    paper: Color32::WHITE,
    ink: Color32::from_rgb(20, 20, 20),
    red_ink: Color32::from_rgb(170, 20, 20),
    rule: Color32::from_rgb(150, 150, 150),
    top_fill: Color32::from_rgb(255, 236, 179),
    head_fill: Color32::from_rgb(230, 230, 230),
};

/// Lengths on the board in units of the spacing between two neighbouring points: the board
/// description's, which the printed worksheets share.
pub use chuhe_core::diagram::Proportions;

impl Theme {
    /// The colour of an ink of the board description (the screen's, the PNG's and the
    /// class page's board alike).
    pub fn ink(&self, ink: chuhe_core::diagram::Ink) -> egui::Color32 {
        use chuhe_core::diagram::Ink;
        match ink {
            Ink::Board => self.board,
            Ink::Lines => self.lines,
            Ink::RiverText => self.river_text,
            Ink::FileNumbers => self.file_numbers,
            Ink::PieceFace(_) => self.piece_face,
            Ink::PieceRim => self.piece_rim,
            Ink::PieceShadow => self.piece_shadow,
            Ink::PieceInk(chuhe_core::Color::Red) => self.red_ink,
            Ink::PieceInk(chuhe_core::Color::Black) => self.black_ink,
            Ink::LastMove => self.last_move,
            Ink::Arrow => self.engine_arrow,
        }
    }

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
            background_text: Color32::WHITE,
            preview_arrow: PREVIEW_ARROW,
            palette: Palette {
                success: Color32::from_rgb(40, 140, 60),
                solved: Color32::from_rgb(40, 150, 60),
                danger: Color32::from_rgb(200, 60, 50),
                muted: Color32::GRAY,
                accent: Color32::from_rgb(190, 120, 0),
                red_name: Color32::from_rgb(200, 40, 40),
                graph_hover: Color32::LIGHT_GRAY,
                wdl: Wdl {
                    fastest: Color32::from_rgb(0x1e, 0x9e, 0x3c),
                    win: Color32::from_rgb(0x6a, 0xa8, 0x4f),
                    draw: Color32::from_rgb(0x4a, 0x7e, 0xbb),
                    loss: Color32::from_rgb(0xc0, 0x39, 0x2b),
                },
            },
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
            background_text: Color32::WHITE,
            preview_arrow: PREVIEW_ARROW,
            // Egui's dark panels: the same meanings, lighter and more saturated.
            palette: Palette {
                success: Color32::from_rgb(0x50, 0xe0, 0x6e),
                solved: Color32::from_rgb(0x50, 0xe0, 0x6e),
                danger: Color32::from_rgb(0xff, 0x60, 0x50),
                muted: Color32::GRAY,
                accent: Color32::from_rgb(0xff, 0xc4, 0x20),
                red_name: Color32::from_rgb(0xff, 0x60, 0x60),
                graph_hover: Color32::WHITE,
                wdl: Wdl {
                    fastest: Color32::from_rgb(0x40, 0xe8, 0x60),
                    win: Color32::from_rgb(0xa8, 0xe0, 0x80),
                    draw: Color32::from_rgb(0x80, 0xb4, 0xff),
                    loss: Color32::from_rgb(0xff, 0x68, 0x58),
                },
            },
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

/// The teacher's preview arrow: a translucent grey that neither theme's marks use.
const PREVIEW_ARROW: Color32 = Color32::from_rgba_unmultiplied_const(110, 110, 110, 150);

/// The wood theme's proportions, which the others start from.
const PROPORTIONS: Proportions = Proportions::WOOD;

impl Default for Theme {
    fn default() -> Theme {
        Theme::wood()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG's contrast ratio between two opaque colours (1 to 21).
    fn contrast(a: Color32, b: Color32) -> f32 {
        let luminance = |c: Color32| {
            let channel = |v: u8| {
                let v = f32::from(v) / 255.0;
                if v <= 0.04045 {
                    v / 12.92
                } else {
                    ((v + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * channel(c.r()) + 0.7152 * channel(c.g()) + 0.0722 * channel(c.b())
        };
        let (a, b) = (luminance(a), luminance(b));
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    /// The projector theme's panels are dark: every colour its words come in reads there
    /// at WCAG AA's 4.5:1.
    #[test]
    fn the_high_contrast_palette_reads_on_dark_panels() {
        let theme = Theme::high_contrast();
        assert!(theme.dark_panels);
        let panel = egui::Visuals::dark().panel_fill;
        let p = theme.palette;
        for (role, colour) in [
            ("success", p.success),
            ("solved", p.solved),
            ("danger", p.danger),
            ("muted", p.muted),
            ("accent", p.accent),
            ("red_name", p.red_name),
            ("wdl.fastest", p.wdl.fastest),
            ("wdl.win", p.wdl.win),
            ("wdl.draw", p.wdl.draw),
            ("wdl.loss", p.wdl.loss),
        ] {
            let ratio = contrast(colour, panel);
            assert!(ratio >= 4.5, "{role}: {ratio:.2}:1");
        }
    }
}

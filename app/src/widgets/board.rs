//! The board widget (棋盘): draws a [`Diagram`] into any rectangle and tells which point a
//! screen position is on, and nothing else.
//!
//! Everything is drawn as vector shapes recomputed from the available rectangle each frame,
//! so the board is sharp at every window size and zoom. [`paint`] draws into any egui
//! [`Painter`], which is what lets a picture export draw exactly what the screen shows.

use crate::i18n::I18n;
pub use crate::settings::Coordinates;
use crate::state::State;
use crate::theme::Theme;
use chuhe_core::{Color, File, Piece, PieceKind, Position, Rank, Square};
use egui::emath::GuiRounding as _;
use egui::{Align2, FontId, Painter, Pos2, Rect, Response, Sense, Stroke, Ui, Vec2, Widget, pos2};

/// Room beside the grid, in point spacings: for the edge pieces, the frame around them and
/// some wood.
const SIDE_MARGIN: f32 = 1.6;
/// Room above and below the grid, in point spacings: for the pieces, the frame and the file
/// numbers outside it. 8 + 2 × 1.6 = 9 + 2 × 1.1, so the board is square.
const END_MARGIN: f32 = 1.1;
/// The board's side in point spacings.
const BOARD_SPACINGS: f32 = 8.0 + 2.0 * SIDE_MARGIN;

/// The last file and rank index, as grid coordinates.
const LAST_FILE: f32 = 8.0;
const LAST_RANK: f32 = 9.0;

/// The river (河界) lies between these two ranks, so its middle is at 4.5.
const RIVER_BANKS: [f32; 2] = [4.0, 5.0];

/// Files d–f (肋道 and 中线) of the palaces (九宫).
const PALACE_FILES: [f32; 2] = [3.0, 5.0];
/// The three back ranks of Red's and of Black's palace.
const PALACE_RANKS: [[f32; 2]; 2] = [[0.0, 2.0], [7.0, 9.0]];

/// 楚河 on Red's left half of the river and 汉界 on the right, one character per point gap.
const RIVER_INSCRIPTION: [(char, f32); 4] = [('楚', 1.5), ('河', 2.5), ('汉', 5.5), ('界', 6.5)];

/// Red's file numbers are written in Chinese numerals (一…九).
const CHINESE_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

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
    pub fn from_board(board: &chuhe_core::Board) -> Diagram {
        Diagram {
            pieces: board.pieces().collect(),
        }
    }

    /// Every piece on the board with its point.
    pub fn pieces(&self) -> &[(Square, Piece)] {
        &self.pieces
    }
}

/// Where the board and its points are on screen, Red at the bottom unless flipped.
///
/// Points fall on physical pixel centres and the spacing is a whole number of physical
/// pixels, so lines an odd number of pixels wide are drawn without blur.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardGeometry {
    board: Rect,
    /// Point a9, the top left of the grid.
    top_left: Pos2,
    spacing: f32,
    pixels_per_point: f32,
    /// Black at the bottom: every point turned half round the board's centre.
    flipped: bool,
}

impl BoardGeometry {
    /// The largest square board that fits in `available`, centred in it.
    pub fn fit(available: Rect, pixels_per_point: f32) -> BoardGeometry {
        let side = available.width().min(available.height()).max(0.0);
        let spacing_pixels = (side / BOARD_SPACINGS * pixels_per_point).floor().max(1.0);
        let spacing = spacing_pixels / pixels_per_point;
        let board =
            Rect::from_center_size(available.center(), Vec2::splat(spacing * BOARD_SPACINGS));
        let top_left = (board.min + Vec2::new(SIDE_MARGIN, END_MARGIN) * spacing)
            .round_to_pixel_center(pixels_per_point);
        BoardGeometry {
            board,
            top_left,
            spacing,
            pixels_per_point,
            flipped: false,
        }
    }

    /// The same board turned half round, so Black sits at the bottom (`flipped`) or not.
    pub fn flipped(self, flipped: bool) -> BoardGeometry {
        BoardGeometry { flipped, ..self }
    }

    /// Whether Black sits at the bottom.
    pub fn is_flipped(&self) -> bool {
        self.flipped
    }

    /// The board's square face, margins included.
    pub fn board_rect(&self) -> Rect {
        self.board
    }

    /// Distance between two neighbouring points.
    pub fn spacing(&self) -> f32 {
        self.spacing
    }

    /// Screen position of a point.
    pub fn point(&self, square: Square) -> Pos2 {
        self.at(
            f32::from(square.file().index()),
            f32::from(square.rank().index()),
        )
    }

    /// The point within half a spacing of `pos`, if there is one.
    pub fn square_at(&self, pos: Pos2) -> Option<Square> {
        // The nearest grid line either way; off the grid when negative or past the last.
        let nearest = |offset: f32| u8::try_from((offset / self.spacing).round() as i32).ok();
        let column = nearest(pos.x - self.top_left.x)?;
        let from_top = nearest(pos.y - self.top_left.y)?;
        // Ranks count up from Red's side, at the bottom unless flipped.
        let (file, rank) = if self.flipped {
            (8_u8.checked_sub(column)?, from_top)
        } else {
            (column, 9_u8.checked_sub(from_top)?)
        };
        let square = Square::new(File::new(file)?, Rank::new(rank)?);
        (self.point(square).distance(pos) <= self.spacing / 2.0).then_some(square)
    }

    /// Screen position of grid coordinates: `file` rightwards from file a, `rank` upwards
    /// from rank 0 (both the other way when flipped), fractions and values beyond the grid
    /// included.
    fn at(&self, file: f32, rank: f32) -> Pos2 {
        let (file, rank) = if self.flipped {
            (LAST_FILE - file, LAST_RANK - rank)
        } else {
            (file, rank)
        };
        pos2(
            self.top_left.x + file * self.spacing,
            self.top_left.y + (LAST_RANK - rank) * self.spacing,
        )
    }

    /// `fraction` of a spacing, rounded to a whole number of physical pixels.
    fn whole_pixels(&self, fraction: f32) -> f32 {
        (fraction * self.spacing).round_to_pixels(self.pixels_per_point)
    }

    /// A stroke about `fraction` of a spacing wide, rounded to an odd number of physical
    /// pixels (at least one) so that, centred on a pixel centre, it covers whole pixels.
    fn odd_pixel_stroke(&self, fraction: f32, color: egui::Color32) -> Stroke {
        let pixels = fraction * self.spacing * self.pixels_per_point;
        let odd = (2.0 * ((pixels - 1.0) / 2.0).round() + 1.0).max(1.0);
        Stroke::new(odd / self.pixels_per_point, color)
    }
}

/// An arrow on the board, in a colour already taken from the theme.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardArrow {
    /// Where it starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
    /// Its colour.
    pub color: egui::Color32,
}

/// Everything a board picture shows besides the pieces: orientation, labels and marks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    /// Black at the bottom.
    pub flipped: bool,
    /// How the points are labelled.
    pub coordinates: Coordinates,
    /// The two points of the last move.
    pub last_move: Option<(Square, Square)>,
    /// A general in check (被将).
    pub check: Option<Square>,
    /// The selected piece.
    pub selected: Option<Square>,
    /// Where the selected piece may go.
    pub destinations: Vec<Square>,
    /// Arrows, drawn over the pieces.
    pub arrows: Vec<BoardArrow>,
    /// Circled points.
    pub circles: Vec<(Square, egui::Color32)>,
    /// A piece being dragged: its point, drawn under the pointer instead.
    pub lifted: Option<(Square, Pos2)>,
    /// Pieces and river in traditional characters (車, 馬, 漢界) rather than simplified.
    pub traditional: bool,
    /// No file numbers round the board (an exported diagram without coordinates).
    pub hide_coordinates: bool,
    /// The board-lines overlay for teaching: the named lines and every point's 位标,
    /// with the names in the user's language.
    pub board_lines: Option<BoardLineLabels>,
    /// The side to move, marked by a disc in its colour at its own edge of the board.
    pub side_to_move: Option<Color>,
    /// The last move marked boldly, for a projector: thick, opaque frames and a line
    /// from point to point that read from the back of a room.
    pub bold_last_move: bool,
}

/// The names the board-lines overlay writes on the board (domain.md §1, seed 第一节), in
/// the user's language. Every name is seen from the player at the bottom.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardLineLabels {
    /// 中线, file 5.
    pub centre: String,
    /// 肋道, files 4 and 6.
    pub rib: String,
    /// 边线, files 1 and 9.
    pub edge: String,
    /// 底线, each side's first rank.
    pub back: String,
    /// 宫顶线, the third rank, along the top of the palace.
    pub palace_top: String,
    /// 兵林线 (卒林线), the fourth rank.
    pub pawn_line: String,
    /// 河界线, the two river banks.
    pub river_bank: String,
    /// 巡河: a rook or cannon on its own bank (the bottom player's).
    pub patrol: String,
    /// 骑河: on the enemy bank.
    pub ride: String,
}

/// Draws the board, the pieces of `diagram` and the `marks`.
pub fn paint(
    painter: &Painter,
    geometry: &BoardGeometry,
    diagram: &Diagram,
    marks: &Marks,
    theme: &Theme,
) {
    paint_surface(painter, geometry, theme);
    paint_grid(painter, geometry, theme);
    match &marks.board_lines {
        // The line names take the river's room; the inscription would crowd them.
        Some(labels) => paint_line_names(painter, geometry, labels, theme),
        None => paint_river(painter, geometry, marks.traditional, theme),
    }
    // The overlay's rank names take the left margin where ICCS writes its rank digits.
    let rank_digits = marks.board_lines.is_none();
    if !marks.hide_coordinates {
        paint_coordinates(painter, geometry, marks.coordinates, rank_digits, theme);
    }
    match marks.last_move {
        Some((from, to)) if marks.bold_last_move => {
            paint_bold_last_move(painter, geometry, from, to, theme)
        }
        Some((from, to)) => {
            for square in [from, to] {
                paint_point_frame(painter, geometry, square, theme.last_move);
            }
        }
        None => {}
    }
    if let Some(side) = marks.side_to_move {
        paint_side_to_move(painter, geometry, side, theme);
    }
    for &(square, color) in &marks.circles {
        painter.circle_stroke(
            geometry.point(square),
            0.48 * geometry.spacing(),
            Stroke::new(0.08 * geometry.spacing(), color),
        );
    }
    let lifted = marks.lifted.map(|(square, _)| square);
    let mut lifted_piece = None;
    for &(square, piece) in diagram.pieces() {
        if Some(square) == lifted {
            lifted_piece = Some(piece);
            continue;
        }
        paint_piece(
            painter,
            geometry.spacing(),
            geometry.point(square),
            piece,
            marks.traditional,
            theme,
        );
    }
    if let Some(check) = marks.check {
        painter.circle_stroke(
            geometry.point(check),
            theme.proportions.piece_radius * geometry.spacing(),
            Stroke::new(0.1 * geometry.spacing(), theme.check),
        );
    }
    if let Some(selected) = marks.selected {
        painter.circle_stroke(
            geometry.point(selected),
            (theme.proportions.piece_radius + 0.03) * geometry.spacing(),
            Stroke::new(0.07 * geometry.spacing(), theme.selection),
        );
    }
    for &square in &marks.destinations {
        let occupied = diagram.pieces().iter().any(|&(at, _)| at == square);
        if occupied {
            painter.circle_stroke(
                geometry.point(square),
                0.47 * geometry.spacing(),
                Stroke::new(0.06 * geometry.spacing(), theme.destination),
            );
        } else {
            painter.circle_filled(
                geometry.point(square),
                0.12 * geometry.spacing(),
                theme.destination,
            );
        }
    }
    for arrow in &marks.arrows {
        paint_arrow(painter, geometry, arrow);
    }
    if marks.board_lines.is_some() {
        paint_point_names(painter, geometry, theme);
    }
    if let (Some((_, pointer)), Some(piece)) = (marks.lifted, lifted_piece) {
        paint_piece(
            painter,
            geometry.spacing(),
            pointer,
            piece,
            marks.traditional,
            theme,
        );
    }
}

/// Width of the bold last move's frames and line, in point spacings: a few pixels on a
/// laptop, a finger's width on a projector.
pub const BOLD_LAST_MOVE_WIDTH: f32 = 0.13;

/// The last move for a projector: a full, opaque square frame round both points and a
/// line between them under the pieces, all scaled with the board.
fn paint_bold_last_move(
    painter: &Painter,
    geometry: &BoardGeometry,
    from: Square,
    to: Square,
    theme: &Theme,
) {
    let colour = theme.last_move.to_opaque();
    let spacing = geometry.spacing();
    let stroke = Stroke::new(BOLD_LAST_MOVE_WIDTH * spacing, colour);
    painter.line_segment([geometry.point(from), geometry.point(to)], stroke);
    for square in [from, to] {
        painter.rect_stroke(
            Rect::from_center_size(geometry.point(square), Vec2::splat(0.98 * spacing)),
            0.1 * spacing,
            stroke,
            egui::StrokeKind::Middle,
        );
    }
}

/// A disc in the side's ink at the side's own edge, right of its file numbers (clear of
/// ICCS rank digits, which run beside the ranks): whose move it is, seen at a glance.
fn paint_side_to_move(painter: &Painter, geometry: &BoardGeometry, side: Color, theme: &Theme) {
    let upright = geometry.flipped(false);
    let at_bottom = (side == Color::Red) != geometry.is_flipped();
    let offset = theme.proportions.file_number_offset;
    let rank = if at_bottom {
        -offset
    } else {
        LAST_RANK + offset
    };
    let ink = match side {
        Color::Red => theme.red_ink,
        Color::Black => theme.black_ink,
    };
    painter.circle(
        upright.at(LAST_FILE + 1.05, rank),
        SIDE_TO_MOVE_RADIUS * geometry.spacing(),
        ink,
        Stroke::new(0.04 * geometry.spacing(), theme.piece_rim),
    );
}

/// The side-to-move disc's radius, in point spacings.
pub const SIDE_TO_MOVE_RADIUS: f32 = 0.26;

/// Corner brackets round a point, the way the last move is shown.
fn paint_point_frame(
    painter: &Painter,
    geometry: &BoardGeometry,
    square: Square,
    color: egui::Color32,
) {
    let centre = geometry.point(square);
    let half = 0.5 * geometry.spacing();
    let arm = 0.18 * geometry.spacing();
    let stroke = Stroke::new(0.07 * geometry.spacing(), color);
    for dx in [-1.0_f32, 1.0] {
        for dy in [-1.0_f32, 1.0] {
            let corner = centre + Vec2::new(dx, dy) * half;
            painter.line(
                vec![
                    corner - Vec2::new(dx * arm, 0.0),
                    corner,
                    corner - Vec2::new(0.0, dy * arm),
                ],
                stroke,
            );
        }
    }
}

/// An arrow from point to point: a thick shaft ending in a triangular head.
pub fn paint_arrow(painter: &Painter, geometry: &BoardGeometry, arrow: &BoardArrow) {
    let from = geometry.point(arrow.from);
    let to = geometry.point(arrow.to);
    let along = to - from;
    let length = along.length();
    if length < 1.0 {
        return;
    }
    let direction = along / length;
    let normal = direction.rot90();
    let spacing = geometry.spacing();
    let head_length = (0.45 * spacing).min(length * 0.6);
    let tip = to - direction * 0.15 * spacing;
    let base = tip - direction * head_length;
    painter.line_segment(
        [from + direction * 0.2 * spacing, base],
        Stroke::new(0.16 * spacing, arrow.color),
    );
    painter.add(egui::Shape::convex_polygon(
        vec![
            tip,
            base + normal * 0.28 * spacing,
            base - normal * 0.28 * spacing,
        ],
        arrow.color,
        Stroke::NONE,
    ));
}

/// The board's face and the frame around the grid.
fn paint_surface(painter: &Painter, geometry: &BoardGeometry, theme: &Theme) {
    let proportions = &theme.proportions;
    painter.rect_filled(
        geometry.board_rect(),
        proportions.board_corner_radius * geometry.spacing(),
        theme.board,
    );
    let gap = geometry.whole_pixels(proportions.frame_gap);
    let grid = Rect::from_two_pos(geometry.at(0.0, LAST_RANK), geometry.at(LAST_FILE, 0.0));
    painter.rect_stroke(
        grid.expand(gap),
        0.0,
        geometry.odd_pixel_stroke(proportions.frame_width, theme.lines),
        egui::StrokeKind::Middle,
    );
}

/// Ranks, files (broken by the river but for the two edge files), the palaces' diagonals
/// and the corner marks on the cannons' and pawns' starting points.
fn paint_grid(painter: &Painter, geometry: &BoardGeometry, theme: &Theme) {
    let stroke = geometry.odd_pixel_stroke(theme.proportions.line_width, theme.lines);
    let line = |from: (f32, f32), to: (f32, f32)| {
        painter.line_segment(
            [geometry.at(from.0, from.1), geometry.at(to.0, to.1)],
            stroke,
        );
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
        paint_corner_marks(painter, geometry, square, stroke, theme);
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
fn paint_corner_marks(
    painter: &Painter,
    geometry: &BoardGeometry,
    square: Square,
    stroke: Stroke,
    theme: &Theme,
) {
    let centre = geometry.point(square);
    let gap = geometry.whole_pixels(theme.proportions.mark_gap);
    let arm = geometry.whole_pixels(theme.proportions.mark_arm);
    let file = square.file().index();
    for dx in [-1.0_f32, 1.0] {
        let off_board = (file == 0 && dx < 0.0) || (f32::from(file) == LAST_FILE && dx > 0.0);
        if off_board {
            continue;
        }
        for dy in [-1.0_f32, 1.0] {
            let corner = centre + Vec2::new(dx, dy) * gap;
            painter.line(
                vec![
                    corner + Vec2::new(dx * arm, 0.0),
                    corner,
                    corner + Vec2::new(0.0, dy * arm),
                ],
                stroke,
            );
        }
    }
}

/// 楚河 汉界 in the river, the same way up whichever side sits at the bottom.
fn paint_river(painter: &Painter, geometry: &BoardGeometry, traditional: bool, theme: &Theme) {
    let upright = geometry.flipped(false);
    let river_middle = (RIVER_BANKS[0] + RIVER_BANKS[1]) / 2.0;
    let river_font = FontId::proportional(theme.proportions.river_text * geometry.spacing());
    for (character, file) in RIVER_INSCRIPTION {
        let character = match character {
            '汉' if traditional => '漢',
            other => other,
        };
        painter.text(
            upright.at(file, river_middle),
            Align2::CENTER_CENTER,
            character,
            river_font.clone(),
            theme.river_text,
        );
    }
}

/// The colour of the board-lines overlay: the blue of the user's marks, which stands out
/// from the lines and both inks on the wooden and the white board.
fn overlay_colour(theme: &Theme) -> egui::Color32 {
    theme.mark(chuhe_core::record::MarkColor::Blue)
}

/// A label in a small rounded box on the board colour, so it reads over lines and pieces.
fn boxed_label(painter: &Painter, at: Pos2, align: Align2, text: &str, size: f32, theme: &Theme) {
    let galley = painter.layout_no_wrap(text.to_owned(), FontId::proportional(size), theme.lines);
    let rect = align
        .anchor_size(at, galley.size())
        .expand2(Vec2::new(0.25, 0.1) * size);
    painter.rect(
        rect,
        0.3 * size,
        theme.board.gamma_multiply(0.92),
        Stroke::new((0.08 * size).max(1.0), overlay_colour(theme)),
        egui::StrokeKind::Outside,
    );
    painter.galley(
        align.anchor_size(at, galley.size()).min,
        galley,
        theme.lines,
    );
}

/// The board-lines overlay: the named files and ranks drawn over in the overlay colour,
/// the file names in the river, the rank names in the left margin and 巡河 / 骑河 in the
/// right one. Names are symmetric, so only screen positions matter, whichever side is at
/// the bottom.
fn paint_line_names(
    painter: &Painter,
    geometry: &BoardGeometry,
    labels: &BoardLineLabels,
    theme: &Theme,
) {
    let upright = geometry.flipped(false);
    let spacing = geometry.spacing();
    let colour = overlay_colour(theme).gamma_multiply(0.4);
    let stroke = Stroke::new(0.09 * spacing, colour);
    let files: [(f32, &str); 5] = [
        (0.0, &labels.edge),
        (3.0, &labels.rib),
        (4.0, &labels.centre),
        (5.0, &labels.rib),
        (LAST_FILE, &labels.edge),
    ];
    for (file, _) in files {
        painter.line_segment([upright.at(file, 0.0), upright.at(file, LAST_RANK)], stroke);
    }
    let ranks: [(f32, &str); 8] = [
        (0.0, &labels.back),
        (2.0, &labels.palace_top),
        (3.0, &labels.pawn_line),
        (4.0, &labels.river_bank),
        (5.0, &labels.river_bank),
        (6.0, &labels.pawn_line),
        (7.0, &labels.palace_top),
        (LAST_RANK, &labels.back),
    ];
    for (rank, _) in ranks {
        painter.line_segment([upright.at(0.0, rank), upright.at(LAST_FILE, rank)], stroke);
    }
    let size = 0.24 * spacing;
    // In the lower half of the river: the upper half has the 位标 of the ranks above.
    let names_rank = RIVER_BANKS[0] + 0.3;
    for (file, name) in files {
        boxed_label(
            painter,
            upright.at(file, names_rank),
            Align2::CENTER_CENTER,
            name,
            size,
            theme,
        );
    }
    // Just outside the frame, clear of the edge pieces, as large as fits in the margin.
    let margin = 0.62;
    let room = (SIDE_MARGIN - margin - 0.12) * spacing;
    let size = fitted_size(painter, ranks.iter().map(|(_, n)| *n), size, room);
    for (rank, name) in ranks {
        boxed_label(
            painter,
            upright.at(-margin, rank),
            Align2::RIGHT_CENTER,
            name,
            size,
            theme,
        );
    }
    for (rank, name) in [
        (RIVER_BANKS[0], &labels.patrol),
        (RIVER_BANKS[1], &labels.ride),
    ] {
        boxed_label(
            painter,
            upright.at(LAST_FILE + margin, rank),
            Align2::LEFT_CENTER,
            name,
            size,
            theme,
        );
    }
}

/// `size`, or smaller so that the widest of `texts`, boxed, is no wider than `room`.
fn fitted_size<'a>(
    painter: &Painter,
    texts: impl Iterator<Item = &'a str>,
    size: f32,
    room: f32,
) -> f32 {
    let widest = texts
        .map(|t| {
            let font = FontId::proportional(size);
            painter
                // Only the size is wanted: the colour plays no part in it.
                .layout_no_wrap(t.to_owned(), font, Default::default())
                .size()
                .x
        })
        .fold(0.0_f32, f32::max)
        + 0.5 * size;
    if widest > room && widest > 0.0 {
        size * room / widest
    } else {
        size
    }
}

/// Every point's 位标: file then rank, both counted from the player at the bottom, files
/// from that player's right as the notations count them, rank 10 written 0.
fn paint_point_names(painter: &Painter, geometry: &BoardGeometry, theme: &Theme) {
    let upright = geometry.flipped(false);
    let size = 0.17 * geometry.spacing();
    for x in 0..=8_u8 {
        for y in 0..=9_u8 {
            let name = format!("{}{}", 9 - x, (y + 1) % 10);
            let point = upright.at(f32::from(x), f32::from(y));
            let at = point + Vec2::splat(0.3 * geometry.spacing());
            boxed_label(painter, at, Align2::CENTER_CENTER, &name, size, theme);
        }
    }
}

/// The file numbers (and in ICCS style the ranks, unless `rank_digits` is off) round the board: in Chinese style Red's
/// 九…一 at Red's edge and Black's 1…9 at Black's, each counted from that player's right;
/// in ICCS style a–i along both edges and 0–9 up the left.
fn paint_coordinates(
    painter: &Painter,
    geometry: &BoardGeometry,
    coordinates: Coordinates,
    rank_digits: bool,
    theme: &Theme,
) {
    let proportions = &theme.proportions;
    let number_font = FontId::proportional(proportions.file_number_text * geometry.spacing());
    let offset = proportions.file_number_offset;
    let label = |at: Pos2, text: String| {
        painter.text(
            at,
            Align2::CENTER_CENTER,
            text,
            number_font.clone(),
            theme.file_numbers,
        );
    };
    match coordinates {
        Coordinates::Chinese => {
            for file in (0..=8).filter_map(File::new) {
                let x = f32::from(file.index());
                let red = CHINESE_NUMERALS[usize::from(file.number_for(Color::Red)) - 1];
                let black = file.number_for(Color::Black).to_string();
                label(geometry.at(x, -offset), red.to_string());
                label(geometry.at(x, LAST_RANK + offset), black);
            }
        }
        Coordinates::Iccs => {
            for file in (0..=8).filter_map(File::new) {
                let x = f32::from(file.index());
                for rank in [-offset, LAST_RANK + offset] {
                    label(geometry.at(x, rank), file.char().to_string());
                }
            }
            // Up the left side of the screen, whichever side sits at the bottom.
            let left = if geometry.is_flipped() {
                LAST_FILE + offset + 0.2
            } else {
                -offset - 0.2
            };
            for rank in (0..=9).filter_map(Rank::new).filter(|_| rank_digits) {
                label(
                    geometry.at(left, f32::from(rank.index())),
                    rank.char().to_string(),
                );
            }
        }
    }
}

/// A piece: a disc with a rim and an inked ring around its character, sized for points
/// `spacing` apart (the app's icon is one piece, drawn by this too).
pub fn paint_piece(
    painter: &Painter,
    spacing: f32,
    centre: Pos2,
    piece: Piece,
    traditional: bool,
    theme: &Theme,
) {
    let proportions = &theme.proportions;
    let ink = match piece.color {
        Color::Red => theme.red_ink,
        Color::Black => theme.black_ink,
    };
    let radius = proportions.piece_radius * spacing;
    painter.circle_filled(
        centre + proportions.piece_shadow_offset * spacing,
        radius,
        theme.piece_shadow,
    );
    painter.circle(
        centre,
        radius,
        theme.piece_face,
        Stroke::new(proportions.piece_rim_width * spacing, theme.piece_rim),
    );
    painter.circle_stroke(
        centre,
        proportions.piece_ring_radius * spacing,
        Stroke::new(proportions.line_width * spacing, ink),
    );
    painter.text(
        centre,
        Align2::CENTER_CENTER,
        if traditional {
            piece.hanzi_traditional()
        } else {
            piece.hanzi()
        },
        FontId::proportional(proportions.piece_text * spacing),
        ink,
    );
}

/// The board as a widget: takes all the space it is given and draws the largest square
/// board that fits, centred. It senses clicks and drags; what they mean is the caller's.
pub struct Board<'a> {
    diagram: &'a Diagram,
    marks: &'a Marks,
    theme: &'a Theme,
}

impl<'a> Board<'a> {
    /// A board showing `diagram` with `marks` in the colours of `theme`.
    pub fn new(diagram: &'a Diagram, marks: &'a Marks, theme: &'a Theme) -> Board<'a> {
        Board {
            diagram,
            marks,
            theme,
        }
    }

    /// Draws the board and returns the response with the geometry it was drawn in, for hit
    /// testing.
    pub fn show(self, ui: &mut Ui) -> (Response, BoardGeometry) {
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        let geometry = BoardGeometry::fit(rect, ui.pixels_per_point()).flipped(self.marks.flipped);
        if ui.is_rect_visible(rect) {
            paint(
                &ui.painter_at(rect),
                &geometry,
                self.diagram,
                self.marks,
                self.theme,
            );
        }
        (response, geometry)
    }
}

impl Widget for Board<'_> {
    fn ui(self, ui: &mut Ui) -> Response {
        self.show(ui).0
    }
}

/// What the board shows besides the pieces.
pub fn study_marks(state: &State, theme: &Theme) -> Marks {
    let position = state.position();
    let annotation = state.study.record.annotation(state.study.cursor);
    let mut arrows: Vec<BoardArrow> = annotation
        .arrows
        .iter()
        .map(|a| BoardArrow {
            from: a.from,
            to: a.to,
            color: theme.mark(a.color),
        })
        .collect();
    if let Some(best) = state
        .visible_engine()
        .and_then(|e| e.update.report.lines.first())
        .and_then(|l| l.moves.first())
    {
        arrows.push(BoardArrow {
            from: best.from,
            to: best.to,
            color: theme.engine_arrow,
        });
    }
    Marks {
        flipped: state.board_flipped(),
        coordinates: state.settings.coordinates,
        last_move: state
            .study
            .record
            .move_at(state.study.cursor)
            .map(|m| (m.from, m.to)),
        check: position
            .is_check()
            .then(|| position.general(position.side_to_move())),
        selected: state.study.selected,
        destinations: state
            .study
            .selected
            .filter(|_| state.settings.show_destinations)
            .map(|from| destinations(state, from))
            .unwrap_or_default(),
        arrows,
        circles: annotation
            .circles
            .iter()
            .map(|c| (c.at, theme.mark(c.color)))
            .collect(),
        lifted: None,
        traditional: state.settings.language == crate::i18n::Language::ZhTw,
        hide_coordinates: false,
        board_lines: None,
        side_to_move: Some(position.side_to_move()),
        bold_last_move: state.presentation.is_some(),
    }
}

impl Marks {
    /// The marks of a practice board (solve mode, a training drill): the solver's side
    /// at the bottom (the other way round when the user turned the board), the last move,
    /// a check, the picked-up piece and, when the settings show them, its destinations.
    pub fn practice(
        settings: &crate::settings::Settings,
        position: &Position,
        solver: Color,
        last: Option<chuhe_core::Move>,
        selected: Option<Square>,
    ) -> Marks {
        Marks {
            flipped: settings.flipped != (solver == Color::Black),
            coordinates: settings.coordinates,
            last_move: last.map(|m| (m.from, m.to)),
            check: position
                .is_check()
                .then(|| position.general(position.side_to_move())),
            selected,
            destinations: selected
                .filter(|_| settings.show_destinations)
                .map(|from| {
                    position
                        .legal_moves_from(from)
                        .iter()
                        .map(|m| m.to)
                        .collect()
                })
                .unwrap_or_default(),
            traditional: settings.language == crate::i18n::Language::ZhTw,
            ..Marks::default()
        }
    }
}

pub fn destinations(state: &State, from: Square) -> Vec<Square> {
    state
        .position()
        .legal_moves_from(from)
        .iter()
        .map(|m| m.to)
        .collect()
}

/// The teacher's preview of the next move while the audience window is open: an arrow in
/// the teacher's window only.
pub fn preview_arrow(app: &crate::widgets::View) -> Option<BoardArrow> {
    // In presentation mode the teacher's window is on show too.
    if !app.state.audience || app.state.presentation.is_some() {
        return None;
    }
    let record = &app.state.study.record;
    let next = record.main_child(app.state.study.cursor)?;
    let m = record.move_at(next)?;
    Some(BoardArrow {
        from: m.from,
        to: m.to,
        color: app.state.settings.theme.theme().preview_arrow,
    })
}

/// The overlay's names in the user's language.
pub fn line_labels(i18n: &I18n) -> BoardLineLabels {
    BoardLineLabels {
        centre: i18n.tr("lines-centre"),
        rib: i18n.tr("lines-rib"),
        edge: i18n.tr("lines-edge"),
        back: i18n.tr("lines-back"),
        palace_top: i18n.tr("lines-palace-top"),
        pawn_line: i18n.tr("lines-pawn"),
        river_bank: i18n.tr("lines-river-bank"),
        patrol: i18n.tr("lines-patrol"),
        ride: i18n.tr("lines-ride"),
    }
}

/// The study board's key in egui's memory, for where it was drawn.
pub const MAIN_BOARD: &str = "chuhe main board";
/// The pattern browser's board's key.
pub const PATTERN_BOARD: &str = "chuhe pattern board";

/// Notes where a board was drawn this frame (for hit-testing from outside, such as a
/// presentation clicker or a test); egui keeps it with the window's memory.
pub fn remember_drawn(ctx: &egui::Context, key: &str, geometry: BoardGeometry) {
    ctx.data_mut(|d| d.insert_temp(egui::Id::unique(key), geometry));
}

/// Where the board under `key` was drawn last.
pub fn drawn(ctx: &egui::Context, key: &str) -> Option<BoardGeometry> {
    ctx.data(|d| d.get_temp(egui::Id::unique(key)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The point on `file` (0 = a) and `rank` (0 = Red's back rank).
    fn square(file: u8, rank: u8) -> Square {
        Square::new(File::new(file).unwrap(), Rank::new(rank).unwrap())
    }

    #[test]
    fn the_board_is_square_and_centred_in_a_wide_space() {
        let available = Rect::from_min_size(pos2(0.0, 0.0), Vec2::new(1200.0, 675.0));
        let geometry = BoardGeometry::fit(available, 1.0);
        let board = geometry.board_rect();
        assert_eq!(board.width(), board.height());
        assert!(board.height() <= 675.0 && board.height() > 660.0);
        assert!((board.center().x - 600.0).abs() < 1.0);
        assert_eq!(geometry.spacing(), 60.0);
    }

    #[test]
    fn points_sit_on_pixel_centres_with_red_at_the_bottom() {
        let available = Rect::from_min_size(pos2(3.0, 7.0), Vec2::new(500.0, 500.0));
        let geometry = BoardGeometry::fit(available, 1.5);
        let a0 = geometry.point(square(0, 0));
        let i9 = geometry.point(square(8, 9));
        assert!(
            a0.x < i9.x && a0.y > i9.y,
            "a0 is bottom left, i9 top right"
        );
        for pos in [a0, i9] {
            assert_eq!(pos.round_to_pixel_center(1.5), pos);
        }
    }

    #[test]
    fn hit_testing_finds_the_nearest_point_and_nothing_off_the_grid() {
        let available = Rect::from_min_size(pos2(0.0, 0.0), Vec2::new(550.0, 550.0));
        let geometry = BoardGeometry::fit(available, 1.0);
        let spacing = geometry.spacing();
        for target in Square::ALL {
            let nudge = Vec2::new(0.3, -0.3) * spacing;
            assert_eq!(
                geometry.square_at(geometry.point(target) + nudge),
                Some(target)
            );
        }
        let e4 = geometry.point(square(4, 4));
        assert_eq!(
            geometry.square_at(e4 + Vec2::new(0.0, -0.5) * spacing * 0.9),
            Some(square(4, 4))
        );
        let a0 = geometry.point(square(0, 0));
        assert_eq!(geometry.square_at(a0 - Vec2::new(0.8, 0.0) * spacing), None);
        assert_eq!(
            geometry.square_at(a0 + Vec2::new(0.45, 0.45) * spacing),
            None
        );
    }

    #[test]
    fn a_flipped_board_puts_black_at_the_bottom_and_hit_tests_the_same_points() {
        let available = Rect::from_min_size(pos2(0.0, 0.0), Vec2::new(550.0, 550.0));
        let upright = BoardGeometry::fit(available, 1.0);
        let flipped = upright.flipped(true);
        let a0 = square(0, 0);
        let i9 = square(8, 9);
        assert_eq!(flipped.point(a0), upright.point(i9));
        assert_eq!(flipped.point(i9), upright.point(a0));
        for target in Square::ALL {
            assert_eq!(flipped.square_at(flipped.point(target)), Some(target));
        }
    }
}

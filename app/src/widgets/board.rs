//! The board widget (棋盘): draws a [`Diagram`] into any rectangle and tells which point a
//! screen position is on, and nothing else.
//!
//! Everything is drawn as vector shapes recomputed from the available rectangle each frame,
//! so the board is sharp at every window size and zoom. What a board consists of (face,
//! grid, palaces, river, labels, pieces) is the core's board description
//! ([`chuhe_core::diagram`]), drawn by the core's one painter ([`description::draw`]) that
//! draws the printed worksheets too; this widget is its egui surface (which snaps the
//! board's lines to pixels) and adds the screen's marks. [`paint`] draws into any egui
//! [`Painter`], which is what lets a picture export draw exactly what the screen shows.

use crate::i18n::I18n;
pub use crate::settings::Coordinates;
use crate::state::State;
use crate::theme::Theme;
use chuhe_core::{Color, File, Piece, Position, Rank, Square};
use egui::emath::GuiRounding as _;
use egui::{Align2, FontId, Painter, Pos2, Rect, Response, Sense, Stroke, Ui, Vec2, Widget};

pub use chuhe_core::diagram::Diagram;
use chuhe_core::diagram::{
    self as description, BOARD_SPACINGS, BoardStyle, END_MARGIN, Element, LAST_FILE, LAST_RANK,
    Placement, Point, RIVER_BANKS, SIDE_MARGIN, Spot, surface::DiscPaint,
};

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
        self.screen(description::at(self.flipped, file, rank))
    }

    /// Screen position of a spot of the board description.
    fn screen(&self, spot: Spot) -> Pos2 {
        self.top_left + Vec2::new(spot.x, spot.y) * self.spacing
    }

    /// Where the board description's spots fall: spot (0, 0) on point a9 (i0 flipped).
    fn placement(&self) -> Placement {
        Placement {
            origin: Point::new(self.top_left.x, self.top_left.y),
            spacing: self.spacing,
        }
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
    /// A light arrow (a thin shaft, a small head) beside a strong one.
    pub thin: bool,
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
    let style = BoardStyle {
        flipped: geometry.is_flipped(),
        coordinates: (!marks.hide_coordinates).then_some(marks.coordinates),
        // The overlay's rank names take the left margin where ICCS writes its rank digits,
        // and its line names the river's room, which the inscription would crowd.
        rank_digits: marks.board_lines.is_none(),
        river: marks.board_lines.is_none(),
        traditional: marks.traditional,
    };
    let board = description::board(&style, &theme.proportions);
    draw(painter, geometry, &board, theme);
    if let Some(labels) = &marks.board_lines {
        paint_line_names(painter, geometry, labels, theme);
    }
    match marks.last_move {
        Some((from, to)) if marks.bold_last_move => {
            paint_bold_last_move(painter, geometry, from, to, theme)
        }
        Some((from, to)) => {
            for square in [from, to] {
                let frame = description::point_frame(geometry.is_flipped(), square);
                draw(painter, geometry, &frame, theme);
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
    let lifted_piece = diagram
        .pieces()
        .iter()
        .find(|&&(square, _)| Some(square) == lifted)
        .map(|&(_, piece)| piece);
    let pieces = description::pieces(diagram, &style, &theme.proportions, lifted);
    draw(painter, geometry, &pieces, theme);
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

/// An arrow from point to point: a thick shaft ending in a triangular head.
pub fn paint_arrow(painter: &Painter, geometry: &BoardGeometry, arrow: &BoardArrow) {
    let shape = if arrow.thin {
        description::thin_arrow
    } else {
        description::arrow
    };
    let elements = shape(geometry.is_flipped(), arrow.from, arrow.to);
    let mut screen = Screen::new(painter, geometry.pixels_per_point);
    description::draw(&mut screen, geometry.placement(), &elements, |_| {
        Some(arrow.color)
    });
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
    let elements = description::piece(Spot::default(), piece, traditional, &theme.proportions);
    let geometry = BoardGeometry {
        board: Rect::from_center_size(centre, Vec2::splat(spacing)),
        top_left: centre,
        spacing,
        pixels_per_point: painter.pixels_per_point(),
        flipped: false,
    };
    draw(painter, &geometry, &elements, theme);
}

/// Paints elements of the board description where `geometry` places them, in the
/// colours of `theme`.
fn draw(painter: &Painter, geometry: &BoardGeometry, elements: &[Element], theme: &Theme) {
    let mut screen = Screen::new(painter, geometry.pixels_per_point);
    description::draw(&mut screen, geometry.placement(), elements, |ink| {
        Some(theme.ink(ink))
    });
}

/// An egui painter as a surface for the board description: the board's own (crisp) lines
/// are snapped to pixel centres and drawn an odd number of pixels wide, so they are sharp.
pub struct Screen<'a> {
    painter: &'a Painter,
    pixels_per_point: f32,
}

impl<'a> Screen<'a> {
    /// The surface of `painter`, whose pixels are `pixels_per_point` to a point.
    pub fn new(painter: &'a Painter, pixels_per_point: f32) -> Screen<'a> {
        Screen {
            painter,
            pixels_per_point,
        }
    }

    /// A stroke about `width` points wide, rounded to an odd number of physical pixels (at
    /// least one) so that, centred on a pixel centre, it covers whole pixels.
    fn odd_pixel_stroke(&self, width: f32, colour: egui::Color32) -> Stroke {
        let pixels = width * self.pixels_per_point;
        let odd = (2.0 * ((pixels - 1.0) / 2.0).round() + 1.0).max(1.0);
        Stroke::new(odd / self.pixels_per_point, colour)
    }
}

fn pos(point: Point) -> Pos2 {
    Pos2::new(point.x, point.y)
}

impl description::Surface for Screen<'_> {
    type Colour = egui::Color32;

    fn rounded_rect(&mut self, min: Point, max: Point, corner_radius: f32, fill: egui::Color32) {
        self.painter
            .rect_filled(Rect::from_min_max(pos(min), pos(max)), corner_radius, fill);
    }

    fn line(
        &mut self,
        points: &[Point],
        closed: bool,
        width: f32,
        colour: egui::Color32,
        crisp: bool,
    ) {
        let (points, stroke): (Vec<Pos2>, Stroke) = if crisp {
            let ppp = self.pixels_per_point;
            (
                points
                    .iter()
                    .map(|&p| pos(p).round_to_pixel_center(ppp))
                    .collect(),
                self.odd_pixel_stroke(width, colour),
            )
        } else {
            (
                points.iter().map(|&p| pos(p)).collect(),
                Stroke::new(width, colour),
            )
        };
        if closed {
            self.painter.add(egui::Shape::closed_line(points, stroke));
        } else if let [from, to] = points[..] {
            self.painter.line_segment([from, to], stroke);
        } else {
            self.painter.line(points, stroke);
        }
    }

    fn circle(&mut self, centre: Point, radius: f32, paint: DiscPaint<egui::Color32>) {
        // egui draws a circle's stroke outside it, as the description wants its ring.
        let fill = paint.fill.unwrap_or(egui::Color32::TRANSPARENT);
        let stroke = paint
            .outline
            .map_or(Stroke::NONE, |(width, colour)| Stroke::new(width, colour));
        self.painter.circle(pos(centre), radius, fill, stroke);
    }

    fn polygon(&mut self, points: &[Point], fill: egui::Color32) {
        let points = points.iter().map(|&p| pos(p)).collect();
        self.painter
            .add(egui::Shape::convex_polygon(points, fill, Stroke::NONE));
    }

    fn text(&mut self, centre: Point, text: &str, size: f32, colour: egui::Color32) {
        self.painter.text(
            pos(centre),
            Align2::CENTER_CENTER,
            text,
            FontId::proportional(size),
            colour,
        );
    }
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

/// The class's open question's right moves once it is revealed, as a board draws them
/// (nothing before): the answer as a strong arrow, painted last so that it lies on top,
/// and a few other right moves as light ones.
pub fn quiz_arrows(state: &State) -> Vec<BoardArrow> {
    let quiz = &state.class.quiz;
    let Some(question) = quiz
        .question()
        .filter(|_| quiz.open.as_ref().is_some_and(|o| o.revealed))
    else {
        return Vec::new();
    };
    let mut drawn = question.drawn_answers();
    drawn.reverse();
    drawn
        .into_iter()
        .map(|d| BoardArrow {
            from: d.mv.from,
            to: d.mv.to,
            color: crate::theme::quiz_arrow(d.main),
            thin: !d.main,
        })
        .collect()
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
            thin: false,
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
            thin: false,
        });
    }
    // The class's question revealed on this board's position: its answer on it too.
    if state
        .class
        .quiz
        .question()
        .is_some_and(|q| &q.position == position)
    {
        arrows.extend(quiz_arrows(state));
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
        thin: false,
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
    use egui::pos2;

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

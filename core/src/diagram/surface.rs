//! The one painter of the board description: [`draw`] places and scales a list of
//! [`Element`]s and hands them to a [`Surface`], which only puts shapes down in its own way
//! (egui shapes for the screen and the PNG export, PDF paths, SVG). What a diagram looks
//! like — where the lines, discs, characters and arrows go and how large they are — is
//! decided here and in [`super`] once, for every surface.

use super::{Element, Ink, Spot};

/// A place on a surface in the surface's own units (pixels, PDF points), `y` downwards.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    /// Rightwards.
    pub x: f32,
    /// Downwards.
    pub y: f32,
}

impl Point {
    /// The point `x` right of and `y` below the surface's origin.
    pub const fn new(x: f32, y: f32) -> Point {
        Point { x, y }
    }
}

/// Where a drawing lies on a surface: spot (0, 0), the grid's top left, at `origin`, and
/// `spacing` surface units between two neighbouring points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// Where spot (0, 0) falls.
    pub origin: Point,
    /// Surface units to a point spacing.
    pub spacing: f32,
}

impl Placement {
    /// A whole board `side` wide (margins included) with its top left corner at `left`,
    /// `top`.
    pub fn board(left: f32, top: f32, side: f32) -> Placement {
        let spacing = side / super::BOARD_SPACINGS;
        Placement {
            origin: Point::new(
                left + super::SIDE_MARGIN * spacing,
                top + super::END_MARGIN * spacing,
            ),
            spacing,
        }
    }

    /// Where a spot of the description falls on the surface.
    pub fn at(&self, spot: Spot) -> Point {
        Point::new(
            self.origin.x + spot.x * self.spacing,
            self.origin.y + spot.y * self.spacing,
        )
    }
}

/// How a disc is painted: filled, or outlined by a ring just outside its radius, or both.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiscPaint<C> {
    /// The fill, if any.
    pub fill: Option<C>,
    /// The ring's width and colour, if any.
    pub outline: Option<(f32, C)>,
}

impl<C> DiscPaint<C> {
    /// Where a surface that centres its strokes on their path draws the disc of `radius`:
    /// in the middle of the ring (the fill under the ring's inner half is covered by it).
    pub fn path_radius(&self, radius: f32) -> f32 {
        radius + self.outline.as_ref().map_or(0.0, |(width, _)| width / 2.0)
    }
}

/// Something a diagram is drawn on. It gets shapes already placed and scaled, in its own
/// units, and colours of its own kind; it decides nothing about the picture.
pub trait Surface {
    /// A colour as this surface takes it.
    type Colour: Copy;

    /// A filled rectangle with rounded corners.
    fn rounded_rect(&mut self, min: Point, max: Point, corner_radius: f32, fill: Self::Colour);

    /// A line through `points`, back to the first when `closed`, `width` wide. A `crisp`
    /// line is one of the board's own lines, which a pixel surface may snap to whole pixels.
    fn line(
        &mut self,
        points: &[Point],
        closed: bool,
        width: f32,
        colour: Self::Colour,
        crisp: bool,
    );

    /// A disc `radius` round, filled, or outlined by a ring `width` wide just outside it,
    /// or both: a piece's face and its rim end at `radius + width`.
    fn circle(&mut self, centre: Point, radius: f32, paint: DiscPaint<Self::Colour>);

    /// A filled convex polygon (an arrow's head).
    fn polygon(&mut self, points: &[Point], fill: Self::Colour);

    /// `text` in the app's font, `size` high, its middle on `centre`.
    fn text(&mut self, centre: Point, text: &str, size: f32, colour: Self::Colour);
}

/// Draws `elements` on `surface` where `placement` puts them, each in the colour `colour`
/// gives its ink; an ink without a colour (a shadow on paper) is left out.
pub fn draw<S: Surface>(
    surface: &mut S,
    placement: Placement,
    elements: &[Element],
    colour: impl Fn(Ink) -> Option<S::Colour>,
) {
    let spacing = placement.spacing;
    let at = |spot: Spot| placement.at(spot);
    for element in elements {
        match element {
            Element::Panel {
                min,
                max,
                corner_radius,
                ink,
            } => {
                if let Some(fill) = colour(*ink) {
                    surface.rounded_rect(at(*min), at(*max), corner_radius * spacing, fill);
                }
            }
            Element::Line {
                points,
                closed,
                width,
                ink,
                crisp,
            } => {
                if let Some(ink) = colour(*ink) {
                    let points: Vec<Point> = points.iter().map(|&p| at(p)).collect();
                    surface.line(&points, *closed, width * spacing, ink, *crisp);
                }
            }
            Element::Disc {
                centre,
                radius,
                fill,
                outline,
            } => {
                let fill = fill.and_then(&colour);
                let outline =
                    outline.and_then(|(width, ink)| colour(ink).map(|c| (width * spacing, c)));
                if fill.is_some() || outline.is_some() {
                    let paint = DiscPaint { fill, outline };
                    surface.circle(at(*centre), radius * spacing, paint);
                }
            }
            Element::Polygon { points, ink } => {
                if let Some(fill) = colour(*ink) {
                    let points: Vec<Point> = points.iter().map(|&p| at(p)).collect();
                    surface.polygon(&points, fill);
                }
            }
            Element::Text {
                centre,
                text,
                size,
                ink,
            } => {
                if let Some(ink) = colour(*ink) {
                    surface.text(at(*centre), text, size * spacing, ink);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;
    use crate::diagram::{self, BoardStyle, Diagram, Proportions};

    /// Counts what it is given.
    #[derive(Default)]
    struct Tally {
        rects: usize,
        lines: Vec<(Vec<Point>, f32)>,
        circles: usize,
        polygons: usize,
        texts: Vec<(Point, String, f32)>,
    }

    impl Surface for Tally {
        type Colour = ();
        fn rounded_rect(&mut self, _: Point, _: Point, _: f32, _: ()) {
            self.rects += 1;
        }
        fn line(&mut self, points: &[Point], _: bool, width: f32, _: (), _: bool) {
            self.lines.push((points.to_vec(), width));
        }
        fn circle(&mut self, _: Point, _: f32, _: DiscPaint<()>) {
            self.circles += 1;
        }
        fn polygon(&mut self, _: &[Point], _: ()) {
            self.polygons += 1;
        }
        fn text(&mut self, centre: Point, text: &str, size: f32, _: ()) {
            self.texts.push((centre, text.to_owned(), size));
        }
    }

    #[test]
    fn elements_are_placed_and_scaled_and_inks_without_colour_left_out() {
        let style = BoardStyle::default();
        let mut elements = diagram::board(&style, &Proportions::WOOD);
        let start = Diagram::from_position(&Position::startpos());
        elements.extend(diagram::pieces(&start, &style, &Proportions::WOOD, None));
        let placement = Placement::board(10.0, 20.0, 560.0);
        let close = |a: f32, b: f32| (a - b).abs() < 1e-3;
        assert!(close(placement.spacing, 50.0));
        let mut tally = Tally::default();
        draw(&mut tally, placement, &elements, |ink| {
            (ink != Ink::PieceShadow).then_some(())
        });
        assert_eq!(tally.rects, 1);
        // Each piece's face and ring; the shadows have no colour.
        assert_eq!(tally.circles, 32 * 2);
        let general = tally.texts.iter().find(|(_, t, _)| t == "帅").unwrap();
        // e0: file 4, the bottom rank 9 spacings below the top one.
        assert!(close(general.0.x, 10.0 + 80.0 + 200.0), "{general:?}");
        assert!(close(general.0.y, 20.0 + 55.0 + 450.0), "{general:?}");
        assert!(close(general.2, Proportions::WOOD.piece_text * 50.0));
        let (frame, width) = &tally.lines[0];
        assert!(close(*width, Proportions::WOOD.frame_width * 50.0));
        let gap = Proportions::WOOD.frame_gap * 50.0;
        assert!(close(frame[0].x, 90.0 - gap) && close(frame[0].y, 75.0 - gap));
    }
}

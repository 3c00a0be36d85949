//! Board diagrams as PNG pictures, for handouts and slides.
//!
//! The picture is drawn by the very code that draws the screen ([`board::paint`]) into an
//! egui context of its own, tessellated by egui into the same triangles the GPU gets, and
//! those triangles are filled on the CPU ([`crate::services::raster`]) — so the exported diagram matches the
//! screen's drawing (fonts, proportions, colours, anti-aliasing) at any size, without a
//! GPU or a window.

pub use crate::services::raster::save_png;
use crate::services::raster::{Textures, apply_textures, rasterise};
use crate::state::export::{ExportOptions, SIZES};
use crate::theme::Theme;
use crate::widgets::board::{self, BoardGeometry, Diagram, Marks};
use egui::{Pos2, RawInput, Rect, Vec2};

/// Draws `diagram` with `marks` in `theme` as a square picture `options.size` pixels wide.
pub fn render(
    diagram: &Diagram,
    marks: &Marks,
    theme: &Theme,
    options: ExportOptions,
) -> image::RgbaImage {
    let size = options.size.clamp(*SIZES.start(), *SIZES.end());
    let mut marks = marks.clone();
    marks.hide_coordinates = !options.coordinates;
    if !options.marks {
        marks.arrows.clear();
        marks.circles.clear();
        marks.last_move = None;
    }
    // Nothing being dragged or picked up belongs on paper.
    marks.lifted = None;
    marks.selected = None;
    marks.destinations.clear();

    paint_picture(size, |painter, rect| {
        painter.rect_filled(rect, 0.0, theme.background);
        let geometry = BoardGeometry::fit(rect, 1.0).flipped(marks.flipped);
        board::paint(painter, &geometry, diagram, &marks, theme);
    })
}

/// A square picture `size` pixels wide of what `paint` draws (one point to a pixel, the
/// app's fonts installed), transparent where nothing is drawn.
pub fn paint_picture(size: u32, paint: impl FnOnce(&egui::Painter, Rect)) -> image::RgbaImage {
    let rect = Rect::from_min_size(Pos2::ZERO, Vec2::splat(size as f32));
    let ctx = egui::Context::default();
    crate::fonts::install(&ctx);
    let input = || RawInput {
        screen_rect: Some(rect),
        ..RawInput::default()
    };
    let mut textures = Textures::new();
    // The fonts take effect in the pass after they are set.
    let first = ctx.run_ui(input(), |_| {});
    apply_textures(&mut textures, first.textures_delta);
    let mut paint = Some(paint);
    let output = ctx.run_ui(input(), |ui| {
        let painter = ui.ctx().layer_painter(egui::LayerId::background());
        if let Some(paint) = paint.take() {
            paint(&painter, rect);
        }
    });
    apply_textures(&mut textures, output.textures_delta);
    let primitives = ctx.tessellate(output.shapes, 1.0);
    rasterise(&primitives, &textures, size, size, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhe_core::{Position, Square};
    use egui::Color32;

    fn colour_at(picture: &image::RgbaImage, p: Pos2) -> [u8; 4] {
        picture.get_pixel(p.x as u32, p.y as u32).0
    }

    fn distance(a: [u8; 4], b: Color32) -> i32 {
        let b = b.to_array();
        (0..3)
            .map(|i| (i32::from(a[i]) - i32::from(b[i])).abs())
            .sum()
    }

    #[test]
    fn the_picture_has_the_chosen_size_and_shows_the_pieces_where_they_stand() {
        let theme = crate::theme::ThemeChoice::Wood.theme();
        let position = Position::startpos();
        let diagram = Diagram::from_position(&position);
        let options = ExportOptions {
            size: 450,
            ..ExportOptions::default()
        };
        let picture = render(&diagram, &Marks::default(), &theme, options);
        assert_eq!(picture.dimensions(), (450, 450));
        // The same geometry the picture was drawn with.
        let rect = Rect::from_min_size(Pos2::ZERO, Vec2::splat(450.0));
        let geometry = BoardGeometry::fit(rect, 1.0);
        // An empty point in the middle of the board shows the board's face nearby …
        let empty = geometry.point("e4".parse::<Square>().unwrap());
        let off_line = empty + Vec2::splat(geometry.spacing() * 0.3);
        assert!(distance(colour_at(&picture, off_line), theme.board) < 40);
        // … and a point with a piece the piece's disc, just off its character.
        let rook = geometry.point("a0".parse::<Square>().unwrap());
        let on_disc = rook + Vec2::new(geometry.spacing() * 0.36, 0.0);
        assert!(
            distance(colour_at(&picture, on_disc), theme.board) > 40,
            "{:?}",
            colour_at(&picture, on_disc)
        );
        // Ink (dark) is drawn: the picture is not blank.
        let dark = picture
            .pixels()
            .filter(|p| p.0[..3].iter().map(|&v| u32::from(v)).sum::<u32>() < 200)
            .count();
        assert!(dark > 1000, "{dark} dark pixels");
    }

    #[test]
    fn coordinates_and_marks_can_be_left_out() {
        let theme = crate::theme::ThemeChoice::HighContrast.theme();
        let diagram = Diagram::from_position(&Position::startpos());
        let marks = Marks {
            arrows: vec![crate::widgets::board::BoardArrow {
                from: "h2".parse().unwrap(),
                to: "e2".parse().unwrap(),
                // A test colour, not one the app draws: a green nothing else in the
                // picture has, so the arrow's pixels can be counted.
                color: Color32::from_rgb(0, 200, 0),
            }],
            ..Marks::default()
        };
        let options = |coordinates, marks| ExportOptions {
            size: 300,
            coordinates,
            marks,
        };
        let full = render(&diagram, &marks, &theme, options(true, true));
        let bare = render(&diagram, &marks, &theme, options(false, false));
        let no_arrow = render(&diagram, &marks, &theme, options(true, false));
        let differing = |a: &image::RgbaImage, b: &image::RgbaImage| {
            a.pixels().zip(b.pixels()).filter(|(x, y)| x != y).count()
        };
        assert!(differing(&full, &no_arrow) > 100, "the arrow is drawn");
        assert!(differing(&no_arrow, &bare) > 100, "the numbers are drawn");
        let green = full
            .pixels()
            .filter(|p| p.0[1] > 150 && p.0[0] < 80 && p.0[2] < 80)
            .count();
        assert!(green > 100, "{green} green pixels of the arrow");
    }
}

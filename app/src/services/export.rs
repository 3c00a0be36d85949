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
    use crate::widgets::board::Screen;
    use chuhe_core::diagram::{self as description, BoardStyle, Element, Placement};
    use chuhe_core::worksheet::PrintStyle;
    use chuhe_core::worksheet::pdf::{self, PAPER, print_colour};
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
                thin: false,
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

    /// A diagram of a game's opening moves as the worksheets print it in colour (every
    /// piece's face white, so a piece differs from the board only by its rim, ring and
    /// character), with the last move's frames and an arrow, but the piece on `skip`.
    fn printed_diagram(skip: Option<Square>) -> Vec<Element> {
        let position: Position =
            "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3"
                .parse()
                .unwrap();
        let style = BoardStyle::default();
        let mut elements = description::board(&style, &PAPER);
        for square in ["e7", "e2"] {
            elements.extend(description::point_frame(false, square.parse().unwrap()));
        }
        let diagram = Diagram::from_position(&position);
        elements.extend(description::pieces(&diagram, &style, &PAPER, skip));
        let (from, to) = ("b0".parse().unwrap(), "c2".parse().unwrap());
        elements.extend(description::arrow(false, from, to));
        elements
    }

    /// The picture of `elements` a whole board `side` pixels wide, drawn on the egui
    /// surface and filled as the PNG export fills it, on white paper.
    fn through_egui(elements: &[Element], side: u32) -> image::RgbImage {
        let picture = paint_picture(side, |painter, _| {
            let mut screen = Screen::new(painter, 1.0);
            let placement = Placement::board(0.0, 0.0, side as f32);
            description::draw(&mut screen, placement, elements, |ink| {
                print_colour(PrintStyle::Colour, ink)
                    .map(|[r, g, b]| egui::Color32::from_rgb(r, g, b))
            });
        });
        image::RgbImage::from_fn(side, side, |x, y| {
            let [r, g, b, a] = picture.get_pixel(x, y).0;
            let over_white = |v: u8| {
                let (v, a) = (u32::from(v), u32::from(a));
                ((v * a + 255 * (255 - a) + 127) / 255) as u8
            };
            image::Rgb([over_white(r), over_white(g), over_white(b)])
        })
    }

    /// The picture of `elements` written as a PDF page `side` points wide and rendered by
    /// pdftoppm at a pixel a point, or `None` without pdftoppm.
    fn through_pdf(elements: &[Element], side: u32, name: &str) -> Option<image::RgbImage> {
        let bytes = pdf::board_page(elements, side as f32, |ink| {
            print_colour(PrintStyle::Colour, ink)
        })
        .unwrap();
        let dir = std::env::temp_dir().join(format!("chuhe-painter-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("board.pdf");
        std::fs::write(&file, bytes).unwrap();
        let rendered = std::process::Command::new("pdftoppm")
            .args(["-r", "72", "-png", "-singlefile"])
            .arg(&file)
            .arg(dir.join("board"))
            .status();
        let picture = rendered
            .ok()
            .filter(|status| status.success())
            .map(|_| image::open(dir.join("board.png")).unwrap().to_rgb8());
        let _ = std::fs::remove_dir_all(&dir);
        picture
    }

    /// How far each pixel of `a` is from `b`: the largest channel difference to the closest
    /// of the pixel and its eight neighbours in `b`, and the other way round, whichever is
    /// larger, so an edge that one rasteriser puts half a pixel from the other's does not
    /// count, while a thing drawn in one picture only does.
    fn differences(a: &image::RgbImage, b: &image::RgbImage) -> Vec<u8> {
        let (w, h) = a.dimensions();
        assert_eq!(b.dimensions(), (w, h));
        let nearest = |from: &image::RgbImage, to: &image::RgbImage, x: u32, y: u32| {
            let here = from.get_pixel(x, y).0;
            let mut best = u8::MAX;
            for ny in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                    let there = to.get_pixel(nx, ny).0;
                    let d = (0..3)
                        .map(|k| here[k].abs_diff(there[k]))
                        .max()
                        .unwrap_or(0);
                    best = best.min(d);
                }
            }
            best
        };
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| nearest(a, b, x, y).max(nearest(b, a, x, y)))
            .collect()
    }

    /// The mean difference and the share of pixels more than half the range apart.
    fn measure(differences: &[u8]) -> (f64, f64) {
        let n = differences.len() as f64;
        let mean = differences.iter().map(|&d| f64::from(d)).sum::<f64>() / n;
        let far = differences.iter().filter(|&&d| d > 128).count() as f64 / n;
        (mean, far)
    }

    /// The bounds of [`measure`] for two pictures of one diagram. Measured: a mean of 2.0
    /// and 0.005 % far apart (17 pixels at the edges of characters), where the PNG's 1.5
    /// pixel lines are snapped to one whole pixel and the PDF's are not; one piece left
    /// out of the PDF puts 0.24 % far apart.
    const MEAN_BOUND: f64 = 3.0;
    const FAR_BOUND: f64 = 0.0005;

    #[test]
    fn the_png_and_the_pdf_of_a_diagram_are_the_same_picture() {
        let side = 560;
        let full = printed_diagram(None);
        let Some(printed) = through_pdf(&full, side, "full") else {
            println!("pdftoppm is not installed (poppler-utils): the PDF is not compared");
            return;
        };
        let screen = through_egui(&full, side);
        let (mean, far) = measure(&differences(&screen, &printed));
        println!(
            "the same diagram: mean {mean:.3}, {:.4} % far apart",
            far * 100.0
        );
        // One piece (a black horse, white on the white board but for its rim, ring and
        // character) left out of the PDF.
        let missing = through_pdf(&printed_diagram("g7".parse().ok()), side, "missing").unwrap();
        let (mean_missing, far_missing) = measure(&differences(&screen, &missing));
        println!(
            "a piece missing: mean {mean_missing:.3}, {:.4} % far apart",
            far_missing * 100.0
        );
        assert!(
            mean < MEAN_BOUND && far < FAR_BOUND,
            "the PNG and the PDF differ: mean {mean}, {far} far apart"
        );
        assert!(
            far_missing > FAR_BOUND,
            "the comparison does not see a missing piece: {far_missing} far apart"
        );
    }
}

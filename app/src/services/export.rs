//! Board diagrams as PNG pictures, for handouts and slides.
//!
//! The picture is drawn by the very code that draws the screen ([`board::paint`]) into an
//! egui context of its own, tessellated by egui into the same triangles the GPU gets, and
//! those triangles are filled here on the CPU — so the exported diagram matches the
//! screen's drawing (fonts, proportions, colours, anti-aliasing) at any size, without a
//! GPU or a window.

use crate::state::export::ExportOptions;
use crate::theme::Theme;
use crate::widgets::board::{self, BoardGeometry, Diagram, Marks};
use egui::epaint::{ClippedPrimitive, Primitive, Vertex};
use egui::{Color32, ColorImage, ImageData, Pos2, RawInput, Rect, TextureId, Vec2};
use std::collections::HashMap;
use std::path::Path;

/// The smallest and largest side of an exported diagram, in pixels.
pub const SIZES: std::ops::RangeInclusive<u32> = 200..=4000;

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

    let rect = Rect::from_min_size(Pos2::ZERO, Vec2::splat(size as f32));
    let ctx = egui::Context::default();
    crate::fonts::install(&ctx);
    let input = || RawInput {
        screen_rect: Some(rect),
        ..RawInput::default()
    };
    let mut textures: HashMap<TextureId, ColorImage> = HashMap::new();
    // The fonts take effect in the pass after they are set.
    let first = ctx.run_ui(input(), |_| {});
    apply_textures(&mut textures, first.textures_delta);
    let output = ctx.run_ui(input(), |ui| {
        let painter = ui.ctx().layer_painter(egui::LayerId::background());
        painter.rect_filled(rect, 0.0, theme.background);
        let geometry = BoardGeometry::fit(rect, 1.0).flipped(marks.flipped);
        board::paint(&painter, &geometry, diagram, &marks, theme);
    });
    apply_textures(&mut textures, output.textures_delta);
    let primitives = ctx.tessellate(output.shapes, 1.0);
    rasterise(&primitives, &textures, size, size)
}

/// Writes `picture` as a PNG to `path`, atomically (a temporary file renamed into place).
pub fn save_png(picture: &image::RgbaImage, path: &Path) -> std::io::Result<()> {
    let mut bytes = Vec::new();
    picture
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .map_err(std::io::Error::other)?;
    crate::services::storage::write_atomically(path, &bytes)
}

/// Keeps the textures egui set or patched (the font atlas) up to date.
fn apply_textures(textures: &mut HashMap<TextureId, ColorImage>, mut delta: egui::TexturesDelta) {
    for (id, deltas) in &delta.set {
        let id = *id;
        for d in deltas {
            let ImageData::Color(image) = &d.image;
            match d.pos {
                None => {
                    textures.insert(id, (**image).clone());
                }
                Some([x0, y0]) => {
                    let Some(target) = textures.get_mut(&id) else {
                        continue;
                    };
                    let [w, h] = image.size;
                    for y in 0..h {
                        for x in 0..w {
                            let (tx, ty) = (x0 + x, y0 + y);
                            if tx < target.size[0] && ty < target.size[1] {
                                target.pixels[ty * target.size[0] + tx] = image.pixels[y * w + x];
                            }
                        }
                    }
                }
            }
        }
    }
    // Applied above: egui checks that no texture update is dropped unseen.
    delta.clear();
}

/// A premultiplied colour with channels in 0–1.
type Rgba = [f32; 4];

fn rgba(c: Color32) -> Rgba {
    let [r, g, b, a] = c.to_array();
    [r, g, b, a].map(|v| f32::from(v) / 255.0)
}

/// Bilinear sample of a texture at `uv` (0–1), as the GPU's linear filter does.
fn sample(texture: &ColorImage, u: f32, v: f32) -> Rgba {
    let [w, h] = texture.size;
    let x = (u * w as f32 - 0.5).clamp(0.0, (w - 1) as f32);
    let y = (v * h as f32 - 0.5).clamp(0.0, (h - 1) as f32);
    let (x0, y0) = (x.floor() as usize, y.floor() as usize);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let at = |x: usize, y: usize| rgba(texture.pixels[y * w + x]);
    let (a, b, c, d) = (at(x0, y0), at(x1, y0), at(x0, y1), at(x1, y1));
    std::array::from_fn(|i| {
        let top = a[i] + (b[i] - a[i]) * fx;
        let bottom = c[i] + (d[i] - c[i]) * fx;
        top + (bottom - top) * fy
    })
}

/// Twice the signed area of the triangle `a b p`.
fn edge(a: Pos2, b: Pos2, p: Pos2) -> f32 {
    (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
}

/// Fills egui's triangles into a picture, blending as egui's renderers do (premultiplied
/// alpha, "over"), each pixel sampled at its centre. A pixel on an edge shared by two
/// triangles is filled by one of them only (the top-left rule), so the translucent
/// anti-aliasing fringes are not blended twice.
fn rasterise(
    primitives: &[ClippedPrimitive],
    textures: &HashMap<TextureId, ColorImage>,
    width: u32,
    height: u32,
) -> image::RgbaImage {
    let (w, h) = (width as usize, height as usize);
    let mut buffer: Vec<Rgba> = vec![[0.0; 4]; w * h];
    for primitive in primitives {
        let Primitive::Mesh(mesh) = &primitive.primitive else {
            continue;
        };
        let texture = textures.get(&mesh.texture_id);
        let clip = primitive.clip_rect;
        for triangle in mesh.indices.chunks_exact(3) {
            let [a, b, c]: [&Vertex; 3] = [0, 1, 2].map(|i| &mesh.vertices[triangle[i] as usize]);
            fill_triangle(&mut buffer, w, h, clip, [a, b, c], texture);
        }
    }
    let mut picture = image::RgbaImage::new(width, height);
    for (pixel, colour) in picture.pixels_mut().zip(&buffer) {
        let alpha = colour[3];
        // PNG wants straight alpha.
        let channel = |v: f32| {
            let straight = if alpha > 0.0 { v / alpha } else { 0.0 };
            (straight.clamp(0.0, 1.0) * 255.0).round() as u8
        };
        *pixel = image::Rgba([
            channel(colour[0]),
            channel(colour[1]),
            channel(colour[2]),
            (alpha.clamp(0.0, 1.0) * 255.0).round() as u8,
        ]);
    }
    picture
}

fn fill_triangle(
    buffer: &mut [Rgba],
    w: usize,
    h: usize,
    clip: Rect,
    vertices: [&Vertex; 3],
    texture: Option<&ColorImage>,
) {
    let [mut a, mut b, c] = vertices;
    let mut area = edge(a.pos, b.pos, c.pos);
    if area == 0.0 {
        return;
    }
    if area < 0.0 {
        // Make the winding the same for all triangles.
        std::mem::swap(&mut a, &mut b);
        area = -area;
    }
    let min_x = a.pos.x.min(b.pos.x).min(c.pos.x).max(clip.min.x).max(0.0);
    let max_x = a
        .pos
        .x
        .max(b.pos.x)
        .max(c.pos.x)
        .min(clip.max.x)
        .min(w as f32);
    let min_y = a.pos.y.min(b.pos.y).min(c.pos.y).max(clip.min.y).max(0.0);
    let max_y = a
        .pos
        .y
        .max(b.pos.y)
        .max(c.pos.y)
        .min(clip.max.y)
        .min(h as f32);
    if min_x >= max_x || min_y >= max_y {
        return;
    }
    // An edge owns the pixels exactly on it when it is a top or a left edge.
    let owns = |from: Pos2, to: Pos2| {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        (dy == 0.0 && dx > 0.0) || dy < 0.0
    };
    let edges = [(b.pos, c.pos), (c.pos, a.pos), (a.pos, b.pos)];
    let owned = edges.map(|(f, t)| owns(f, t));
    let colours = [a.color, b.color, c.color].map(rgba);
    let uvs = [a.uv, b.uv, c.uv];
    for y in (min_y.floor() as usize)..(max_y.ceil() as usize).min(h) {
        for x in (min_x.floor() as usize)..(max_x.ceil() as usize).min(w) {
            let p = Pos2::new(x as f32 + 0.5, y as f32 + 0.5);
            if !clip.contains(p) {
                continue;
            }
            let mut weights = [0.0; 3];
            let mut inside = true;
            for (i, &(from, to)) in edges.iter().enumerate() {
                let e = edge(from, to, p);
                if e < 0.0 || (e == 0.0 && !owned[i]) {
                    inside = false;
                    break;
                }
                weights[i] = e / area;
            }
            if !inside {
                continue;
            }
            let mut source: Rgba =
                std::array::from_fn(|k| (0..3).map(|i| colours[i][k] * weights[i]).sum());
            if let Some(texture) = texture {
                let u: f32 = (0..3).map(|i| uvs[i].x * weights[i]).sum();
                let v: f32 = (0..3).map(|i| uvs[i].y * weights[i]).sum();
                let texel = sample(texture, u, v);
                for k in 0..4 {
                    source[k] *= texel[k];
                }
            }
            let target = &mut buffer[y * w + x];
            let keep = 1.0 - source[3];
            for k in 0..4 {
                target[k] = source[k] + target[k] * keep;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhe_core::{Position, Square};

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

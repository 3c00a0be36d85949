//! One CPU rasteriser and PNG writer for every picture the app writes (board diagrams,
//! the club's printable page): egui's shapes are tessellated into the same triangles the
//! GPU gets, and those triangles are filled here, blended as egui's renderers blend, so a
//! picture matches the screen's drawing without a GPU or a window.

use egui::epaint::text::Fonts;
use egui::epaint::{
    ClippedPrimitive, ClippedShape, Primitive, Shape, TessellationOptions, Tessellator, Vertex,
};
use egui::{Color32, ColorImage, ImageData, Pos2, Rect, TextureId};
use std::collections::HashMap;
use std::path::Path;

/// The textures the triangles sample (the font atlas), by id.
pub type Textures = HashMap<TextureId, ColorImage>;

/// Draws `shapes` (in points, their text laid out by `fonts`) into a picture `width` ×
/// `height` pixels, `pixels_per_point` pixels to a point.
pub fn paint_shapes(
    shapes: Vec<Shape>,
    fonts: &Fonts,
    width: u32,
    height: u32,
    pixels_per_point: f32,
) -> image::RgbaImage {
    let clip = Rect::from_min_max(
        Pos2::ZERO,
        Pos2::new(width as f32, height as f32) / pixels_per_point,
    );
    let shapes = shapes
        .into_iter()
        .map(|shape| ClippedShape {
            clip_rect: clip,
            shape,
            transform_after_tessellation: egui::emath::TSTransform::IDENTITY,
        })
        .collect();
    let mut tessellator = Tessellator::new(
        pixels_per_point,
        TessellationOptions::default(),
        fonts.font_image_size(),
        fonts.texture_atlas().prepared_discs(),
    );
    let primitives = tessellator.tessellate_shapes(shapes);
    let textures = Textures::from([(TextureId::default(), fonts.image())]);
    rasterise(&primitives, &textures, width, height, pixels_per_point)
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
    chuhe_core::atomic::write_atomically(path, &bytes)
}

/// Keeps the textures egui set or patched (the font atlas) up to date.
pub fn apply_textures(textures: &mut Textures, mut delta: egui::TexturesDelta) {
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
///
/// Positions are in points; `pixels_per_point` scales them to the picture's pixels.
pub fn rasterise(
    primitives: &[ClippedPrimitive],
    textures: &Textures,
    width: u32,
    height: u32,
    pixels_per_point: f32,
) -> image::RgbaImage {
    let (w, h) = (width as usize, height as usize);
    let mut buffer: Vec<Rgba> = vec![[0.0; 4]; w * h];
    for primitive in primitives {
        let Primitive::Mesh(mesh) = &primitive.primitive else {
            continue;
        };
        let texture = textures.get(&mesh.texture_id);
        let clip = Rect::from_min_max(
            (primitive.clip_rect.min.to_vec2() * pixels_per_point).to_pos2(),
            (primitive.clip_rect.max.to_vec2() * pixels_per_point).to_pos2(),
        );
        let scaled = |v: &Vertex| Vertex {
            pos: (v.pos.to_vec2() * pixels_per_point).to_pos2(),
            ..*v
        };
        for triangle in mesh.indices.chunks_exact(3) {
            let [a, b, c]: [Vertex; 3] =
                [0, 1, 2].map(|i| scaled(&mesh.vertices[triangle[i] as usize]));
            fill_triangle(&mut buffer, w, h, clip, [&a, &b, &c], texture);
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

//! Pieces drawn as little figures instead of characters, the way some programs' "Western"
//! piece sets show them: a crowned king for the general, its crown of lobes or one broad
//! arch; for the advisor a mandarin's head, a shield with a saltire or a face under a small
//! crown, on shoulders or on a bell-shaped robe; an elephant's head, curled, as a bust with
//! its tusk or in profile with its trunk raised; a knight's head for the horse; a tower for
//! the chariot; for the cannon a barrel raised on a wheel, a level barrel on a carriage or
//! one with its wheel drawn over it; and a pawn for the soldier, collared on a base, a ball
//! on a plain bell or a knobbed head on a skirt. The figures are our own simple shapes; every board picks one design of each
//! kind and draws it a little differently (proportions, size, a gentle warp, line width, facing
//! left or right, outlined or filled) so the classifier learns the kind of figure rather
//! than one drawing of it.

use crate::Color;
use crate::PieceKind;
use crate::diagram::{Element, Ink, Spot};
use crate::play::Rng;
use std::f32::consts::TAU;

/// A figure's part in a square from -1 to 1 each way, `y` downwards.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    /// Its outline (closed) or its line (open).
    pub points: Vec<(f32, f32)>,
    /// Whether it is an area (filled or outlined) or a line drawn on top of one.
    pub closed: bool,
    /// A line inside a figure (an eye, a spoke): drawn in the face's colour on a filled
    /// figure.
    pub detail: bool,
}

/// How a figure is painted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Areas in the face's colour with an inked outline.
    Outline,
    /// Areas inked, their details in the face's colour.
    Solid,
}

/// One board's set of figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Symbols {
    /// How they are painted (Red's and Black's may differ, as in chess sets that draw one
    /// side hollow and the other solid).
    pub fill: [Fill; 2],
    /// The outline's width as a share of the figure's half-size.
    pub width: f32,
    /// The figure's half-size as a share of the piece's radius.
    pub size: f32,
    /// Whether the figures face right rather than left.
    pub mirror: bool,
    /// The proportions and warp of each kind, drawn from this.
    seed: u64,
}

impl Symbols {
    /// A random set.
    pub fn random(rng: &mut Rng) -> Symbols {
        let solid = |rng: &mut Rng| {
            if rng.unit() < 0.45 {
                Fill::Solid
            } else {
                Fill::Outline
            }
        };
        let red = solid(rng);
        // Mostly both sides alike.
        let black = if rng.unit() < 0.75 { red } else { solid(rng) };
        Symbols {
            fill: [red, black],
            width: 0.05 + 0.1 * rng.unit() as f32,
            size: 0.58 + 0.3 * rng.unit() as f32,
            mirror: rng.unit() < 0.5,
            seed: rng.next_u64(),
        }
    }

    /// The figure of `kind` in this set, in the unit square.
    pub fn shapes(&self, kind: PieceKind) -> Vec<Shape> {
        let mut rng = Rng::new(self.seed ^ (kind as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut shapes = figure(kind, &mut rng);
        // Each kind at a size of its own, so that the classifier does not learn a kind
        // from its size against the others: programs differ in which figures they draw
        // large (xiangqiboard.js's pawn is as tall as its knight, ours were the smallest).
        // The pawns, small as designed, are drawn larger more often; no figure grows past
        // the square.
        let grow = match kind {
            PieceKind::Pawn => vary(&mut rng, 1.15, 0.2),
            _ => vary(&mut rng, 1.0, 0.12),
        };
        let reach = shapes
            .iter()
            .flat_map(|shape| &shape.points)
            .fold(0.0f32, |m, &(x, y)| m.max(x.abs()).max(y.abs()));
        let grow = if grow > 1.0 {
            grow.min((1.0 / reach.max(1e-3)).max(1.0))
        } else {
            grow
        };
        // A gentle warp and stretch, the same for every piece of the kind on the board.
        let (sx, sy) = (
            grow * vary(&mut rng, 1.0, 0.1),
            grow * vary(&mut rng, 1.0, 0.08),
        );
        let waves = [0; 4].map(|_| vary(&mut rng, 0.0, 1.0));
        let amplitude = 0.04 * rng.unit() as f32;
        let flip = if self.mirror { -1.0 } else { 1.0 };
        for shape in &mut shapes {
            for p in &mut shape.points {
                let (x, y) = *p;
                let wx = x + amplitude * (2.5 * y + 3.0 * waves[0]).sin();
                let wy = y + amplitude * (2.5 * x + 3.0 * waves[1]).sin();
                *p = (flip * wx * sx, wy * sy);
            }
        }
        shapes
    }

    /// The elements drawing the figure of `kind` for `colour` round `centre`, for a piece
    /// of `radius`: areas and lines in [`Ink::PieceInk`] and [`Ink::PieceFace`] of Red
    /// (the caller colours them for the side), turned half a turn when `turned`.
    pub fn elements(
        &self,
        kind: PieceKind,
        colour: Color,
        centre: Spot,
        radius: f32,
        turned: bool,
        fill: Option<Fill>,
    ) -> Vec<Element> {
        let half = radius * self.size;
        let width = self.width * half;
        let turn = if turned { -1.0 } else { 1.0 };
        let at =
            |(x, y): (f32, f32)| Spot::new(centre.x + turn * x * half, centre.y + turn * y * half);
        let ink = Ink::PieceInk(Color::Red);
        let face = Ink::PieceFace(Color::Red);
        let fill = fill.unwrap_or(self.fill[colour as usize]);
        let mut elements = Vec::new();
        for shape in self.shapes(kind) {
            let points: Vec<Spot> = shape.points.iter().map(|&p| at(p)).collect();
            let line = |ink| Element::Line {
                points: points.clone(),
                closed: shape.closed,
                width,
                ink,
                crisp: false,
            };
            match (shape.closed, fill) {
                (true, Fill::Outline) => {
                    elements.push(Element::Polygon {
                        points: points.clone(),
                        ink: face,
                    });
                    elements.push(line(ink));
                }
                (true, Fill::Solid) => {
                    elements.push(Element::Polygon {
                        points: points.clone(),
                        ink,
                    });
                    // A thin edge keeps the areas' joins closed as an ink drawing's are.
                    elements.push(Element::Line {
                        points: points.clone(),
                        closed: true,
                        width: width * 0.5,
                        ink,
                        crisp: false,
                    });
                }
                (false, Fill::Solid) if shape.detail => elements.push(line(face)),
                (false, _) => elements.push(line(ink)),
            }
        }
        elements
    }
}

/// `base` moved by up to `spread` either way.
fn vary(rng: &mut Rng, base: f32, spread: f32) -> f32 {
    base + spread * (2.0 * rng.unit() as f32 - 1.0)
}

fn area(points: Vec<(f32, f32)>) -> Shape {
    Shape {
        points,
        closed: true,
        detail: false,
    }
}

fn line(points: Vec<(f32, f32)>) -> Shape {
    Shape {
        points,
        closed: false,
        detail: false,
    }
}

fn detail(points: Vec<(f32, f32)>) -> Shape {
    Shape {
        points,
        closed: false,
        detail: true,
    }
}

/// Points on an ellipse from angle `from` to `to` (turns, clockwise on the picture from the
/// right).
fn arc(centre: (f32, f32), rx: f32, ry: f32, from: f32, to: f32, steps: usize) -> Vec<(f32, f32)> {
    (0..=steps)
        .map(|i| {
            let a = (from + (to - from) * i as f32 / steps as f32) * TAU;
            (centre.0 + rx * a.cos(), centre.1 + ry * a.sin())
        })
        .collect()
}

fn ellipse(centre: (f32, f32), rx: f32, ry: f32) -> Vec<(f32, f32)> {
    let mut points = arc(centre, rx, ry, 0.0, 1.0, 24);
    points.pop();
    points
}

fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Vec<(f32, f32)> {
    vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
}

/// A base: a low band the figure stands on, sometimes with a step.
fn base(rng: &mut Rng, shapes: &mut Vec<Shape>, half_width: f32, top: f32) {
    let bottom = vary(rng, 0.8, 0.06);
    shapes.push(area(rect(-half_width, top, half_width, bottom)));
    if rng.unit() < 0.4 {
        let w = half_width * 0.8;
        shapes.push(area(rect(-w, top - 0.1, w, top)));
    }
}

/// A thick curved stroke as an area: `centre` a line, `widths` its width at each point.
fn tube(centre: &[(f32, f32)], widths: &[f32]) -> Vec<(f32, f32)> {
    let n = centre.len();
    let mut left = Vec::new();
    let mut right = Vec::new();
    for i in 0..n {
        let a = centre[i.saturating_sub(1)];
        let b = centre[(i + 1).min(n - 1)];
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let length = dx.hypot(dy).max(1e-6);
        let (nx, ny) = (-dy / length, dx / length);
        let h = widths[i] / 2.0;
        left.push((centre[i].0 + nx * h, centre[i].1 + ny * h));
        right.push((centre[i].0 - nx * h, centre[i].1 - ny * h));
    }
    right.reverse();
    left.extend(right);
    left
}

/// The figure of `kind`, facing left, its proportions drawn from `rng`.
fn figure(kind: PieceKind, rng: &mut Rng) -> Vec<Shape> {
    let mut s = Vec::new();
    match kind {
        PieceKind::General if rng.unit() < 0.35 => arched_crown(rng, &mut s),
        PieceKind::General => {
            // A crown of two lobes and a middle dome on a band, a cross on top.
            let lobe_x = vary(rng, 0.3, 0.05);
            let lobe = vary(rng, 0.3, 0.05);
            let top = vary(rng, -0.15, 0.05);
            for side in [-1.0, 1.0] {
                s.push(area(ellipse((side * lobe_x, top), lobe, lobe * 1.05)));
            }
            s.push(area(ellipse((0.0, top - 0.2), 0.16, 0.22)));
            let waist = vary(rng, 0.42, 0.05);
            s.push(area(vec![
                (-lobe_x - lobe * 0.9, top + 0.05),
                (lobe_x + lobe * 0.9, top + 0.05),
                (waist, 0.5),
                (-waist, 0.5),
            ]));
            base(rng, &mut s, waist + 0.15, 0.5);
            let (cy, arm, t) = (top - 0.62, vary(rng, 0.17, 0.04), vary(rng, 0.07, 0.02));
            s.push(area(vec![
                (-t, cy - 0.2),
                (t, cy - 0.2),
                (t, cy - t),
                (arm, cy - t),
                (arm, cy + t),
                (t, cy + t),
                (t, cy + 0.22),
                (-t, cy + 0.22),
                (-t, cy + t),
                (-arm, cy + t),
                (-arm, cy - t),
                (-t, cy - t),
            ]));
            s.push(detail(vec![(-waist * 0.9, 0.3), (waist * 0.9, 0.3)]));
        }
        PieceKind::Advisor => match rng.below(4) {
            0 => mandarin(rng, &mut s),
            1 => shield(rng, &mut s),
            2 => crowned_face(rng, &mut s),
            _ => crowned_bell(rng, &mut s),
        },
        PieceKind::Elephant => match rng.below(3) {
            0 => curled_trunk(rng, &mut s),
            1 => bust(rng, &mut s),
            _ => raised_trunk(rng, &mut s),
        },
        PieceKind::Horse => {
            // A chess knight's head and neck on a base.
            let nose = vary(rng, -0.68, 0.06);
            let ear = vary(rng, -0.9, 0.05);
            let back = vary(rng, 0.52, 0.06);
            s.push(area(vec![
                (-0.42, 0.62),
                (-0.3, 0.4),
                (-0.08, 0.15),
                (-0.3, 0.12),
                (nose + 0.15, 0.18),
                (nose, 0.05),
                (nose + 0.05, -0.15),
                (-0.3, -0.45),
                (-0.1, -0.62),
                (0.0, ear),
                (0.12, -0.62),
                (0.35, -0.4),
                (back, 0.0),
                (back + 0.02, 0.62),
            ]));
            base(rng, &mut s, 0.6, 0.62);
            s.push(detail(ellipse((-0.18, -0.32), 0.05, 0.05)));
            s.push(detail(vec![(0.18, -0.42), (0.36, -0.1), (0.4, 0.3)]));
        }
        PieceKind::Rook => {
            // A tower with battlements on a base.
            let w = vary(rng, 0.36, 0.05);
            let top_w = w + vary(rng, 0.12, 0.04);
            let crown = vary(rng, -0.35, 0.06);
            let teeth = if rng.unit() < 0.6 { 3 } else { 4 };
            let notch = vary(rng, 0.17, 0.04);
            let mut outline = vec![(-w, 0.55), (-w * 0.92, crown + 0.15), (-top_w, crown)];
            let top = -0.8;
            for i in 0..teeth {
                let x0 = -top_w + 2.0 * top_w * (2 * i) as f32 / (2 * teeth - 1) as f32;
                let x1 = -top_w + 2.0 * top_w * (2 * i + 1) as f32 / (2 * teeth - 1) as f32;
                outline.push((x0, top));
                outline.push((x1, top));
                if i + 1 < teeth {
                    outline.push((x1, top + notch));
                    let x2 = -top_w + 2.0 * top_w * (2 * i + 2) as f32 / (2 * teeth - 1) as f32;
                    outline.push((x2, top + notch));
                }
            }
            outline.extend([(top_w, crown), (w * 0.92, crown + 0.15), (w, 0.55)]);
            s.push(area(outline));
            base(rng, &mut s, w + 0.2, 0.55);
            s.push(detail(vec![
                (-w * 0.9, crown + 0.15),
                (w * 0.9, crown + 0.15),
            ]));
        }
        PieceKind::Cannon => match rng.below(3) {
            0 => raised_barrel(rng, &mut s),
            1 => field_gun(rng, &mut s),
            _ => ringed_barrel(rng, &mut s),
        },
        PieceKind::Pawn if rng.unit() < 0.3 => {
            // A round head with a knob on top, on a skirt that flares to its foot.
            let head = vary(rng, 0.3, 0.04);
            let y = vary(rng, -0.15, 0.05);
            let bottom = vary(rng, 0.72, 0.05);
            s.push(area(bell(
                head * 0.7,
                y + head * 0.6,
                vary(rng, 0.6, 0.06),
                bottom,
            )));
            s.push(area(ellipse((0.0, y), head, head * vary(rng, 1.05, 0.08))));
            let knob = vary(rng, 0.1, 0.02);
            s.push(area(ellipse((0.0, y - head - knob * 0.6), knob, knob)));
        }
        PieceKind::Pawn if rng.unit() < 0.45 => {
            // A ball on a bell that flares to its foot, without collar or base.
            let head = vary(rng, 0.24, 0.04);
            let neck = vary(rng, -0.22, 0.05);
            let foot = vary(rng, 0.58, 0.06);
            let bottom = vary(rng, 0.72, 0.05);
            s.push(area(bell(vary(rng, 0.2, 0.04), neck, foot, bottom)));
            s.push(area(ellipse((0.0, neck - head * 0.8), head, head)));
        }
        PieceKind::Pawn => {
            // A ball on a flared body with a collar, on a base.
            let head = vary(rng, 0.22, 0.04);
            let neck = vary(rng, -0.2, 0.05);
            let foot = vary(rng, 0.42, 0.06);
            s.push(area(vec![
                (-0.13, neck),
                (0.13, neck),
                (foot * 0.55, 0.2),
                (foot, 0.55),
                (-foot, 0.55),
                (-foot * 0.55, 0.2),
            ]));
            s.push(area(ellipse((0.0, neck), vary(rng, 0.3, 0.05), 0.08)));
            s.push(area(ellipse((0.0, neck - head - 0.05), head, head)));
            base(rng, &mut s, foot + 0.12, 0.55);
        }
    }
    s
}

/// A bell's outline: `neck` wide at the top (its half-width, its height), curving out to
/// `foot` at the `bottom`.
fn bell(neck_half: f32, neck: f32, foot: f32, bottom: f32) -> Vec<(f32, f32)> {
    let steps = 8;
    // The side bows inwards: it widens slowly at first, then fast near the foot.
    let side = |t: f32| {
        (
            neck_half + (foot - neck_half) * t * t * t,
            neck + (bottom - neck) * t,
        )
    };
    let mut outline: Vec<(f32, f32)> = (0..=steps)
        .map(|i| {
            let (x, y) = side(i as f32 / steps as f32);
            (-x, y)
        })
        .collect();
    outline.extend((0..=steps).rev().map(|i| side(i as f32 / steps as f32)));
    outline
}

/// A general as one broad arched crown on a band, a line down its middle and a cross on
/// a little block at its top.
fn arched_crown(rng: &mut Rng, s: &mut Vec<Shape>) {
    let w = vary(rng, 0.66, 0.06);
    let waist = vary(rng, 0.4, 0.05);
    let top = vary(rng, -0.42, 0.05);
    let dip = vary(rng, 0.1, 0.04);
    let band = vary(rng, 0.45, 0.04);
    let mut outline = vec![(-waist, band), (-w, -0.02), (-w * 0.9, top + 0.12)];
    outline.extend(arc((-w * 0.45, top + 0.1), w * 0.45, 0.12, 0.5, 0.75, 4));
    outline.push((0.0, top + dip));
    outline.extend(arc((w * 0.45, top + 0.1), w * 0.45, 0.12, 0.75, 1.0, 4));
    outline.extend([(w * 0.9, top + 0.12), (w, -0.02), (waist, band)]);
    s.push(area(outline));
    s.push(area(rect(-waist - 0.08, band, waist + 0.08, band + 0.17)));
    s.push(detail(vec![(0.0, top + dip + 0.05), (0.0, band)]));
    let (b, cy) = (vary(rng, 0.13, 0.03), top - 0.12);
    s.push(area(rect(-b, cy - b, b, cy + b)));
    s.push(detail(vec![(0.0, cy - b * 0.7), (0.0, cy + b * 0.7)]));
    s.push(detail(vec![(-b * 0.7, cy), (b * 0.7, cy)]));
}

/// An advisor as a face under a pointed crown, frowning, on a bell-shaped robe.
fn crowned_bell(rng: &mut Rng, s: &mut Vec<Shape>) {
    let foot = vary(rng, 0.5, 0.06);
    s.push(area(bell(
        vary(rng, 0.16, 0.04),
        0.15,
        foot,
        vary(rng, 0.78, 0.04),
    )));
    let face = vary(rng, 0.3, 0.04);
    let y = vary(rng, -0.05, 0.04);
    s.push(area(ellipse((0.0, y), face, face * 0.95)));
    let (band, w, peak) = (
        y - face * 0.8,
        vary(rng, 0.36, 0.05),
        vary(rng, -0.88, 0.05),
    );
    s.push(area(pointed_crown(w, band, peak, (1.15, 0.45, 0.18))));
    s.push(line(vec![(-0.2, y - 0.05), (-0.05, y + 0.05)]));
    s.push(line(vec![(0.05, y + 0.05), (0.2, y - 0.05)]));
}

/// An elephant's head in profile, its trunk raised and curled in front and a tusk
/// pointing forward, over a cloth on its back: a broad, low figure.
fn raised_trunk(rng: &mut Rng, s: &mut Vec<Shape>) {
    let (hx, hy) = (vary(rng, 0.62, 0.06), vary(rng, 0.42, 0.05));
    s.push(area(vec![
        (-0.2, 0.2),
        (0.85, 0.15),
        (0.88, 0.62),
        (-0.2, 0.62),
    ]));
    s.push(area(ellipse((0.15, -0.12), hx, hy)));
    let ear = vary(rng, 0.28, 0.05);
    s.push(area(ellipse((0.38, -0.05), ear, ear * 1.2)));
    let curl = vary(rng, 0.0, 0.08);
    let trunk = [
        (-0.35, -0.05),
        (-0.55, 0.12),
        (-0.75, 0.05),
        (-0.85 + curl, -0.15),
        (-0.78 + curl, -0.32),
    ];
    let w = vary(rng, 0.22, 0.04);
    let widths = [w, w * 0.9, w * 0.75, w * 0.6, w * 0.5];
    s.push(area(tube(&trunk, &widths)));
    let tusk = [(-0.3, 0.2), (-0.6, 0.3), (-0.92, 0.2)];
    s.push(area(tube(&tusk, &[0.12, 0.09, 0.04])));
    s.push(detail(ellipse((-0.12, -0.28), 0.045, 0.045)));
}

/// Shoulders and a face above them: `shoulders` (half their width, the share of it at
/// their bend, the bend's height, the neck's half-width) and `face` (its middle's height,
/// half its width and height).
fn shoulders_and_face(s: &mut Vec<Shape>, shoulders: (f32, f32, f32, f32), face: (f32, f32, f32)) {
    let (w, bend, bend_y, neck) = shoulders;
    s.push(area(vec![
        (-w, 0.82),
        (-w * bend, bend_y),
        (-neck, 0.4),
        (neck, 0.4),
        (w * bend, bend_y),
        (w, 0.82),
    ]));
    let (y, rx, ry) = face;
    s.push(area(ellipse((0.0, y), rx, ry)));
}

/// An advisor as a mandarin's head and shoulders under a round hat with a brim and a button.
fn mandarin(rng: &mut Rng, s: &mut Vec<Shape>) {
    let shoulders = vary(rng, 0.72, 0.08);
    let face = vary(rng, 0.3, 0.04);
    shoulders_and_face(s, (shoulders, 0.9, 0.6, 0.3), (0.08, face, face * 1.2));
    let brim_y = vary(rng, -0.3, 0.05);
    let dome = vary(rng, 0.33, 0.05);
    let mut hat = arc((0.0, brim_y), dome, vary(rng, 0.38, 0.06), 0.5, 1.0, 12);
    hat.push((dome, brim_y));
    s.push(area(hat));
    if rng.unit() < 0.5 {
        // The hat's wings.
        let y = brim_y - 0.08;
        s.push(area(rect(-0.92, y - 0.07, -dome, y + 0.07)));
        s.push(area(rect(dome, y - 0.07, 0.92, y + 0.07)));
    }
    s.push(area(ellipse(
        (0.0, brim_y),
        vary(rng, 0.62, 0.08),
        vary(rng, 0.1, 0.03),
    )));
    s.push(area(ellipse((0.0, brim_y - 0.45), 0.09, 0.09)));
    s.push(line(vec![(-0.14, 0.02), (-0.06, 0.02)]));
    s.push(line(vec![(0.06, 0.02), (0.14, 0.02)]));
    s.push(line(arc((0.0, 0.16), 0.12, 0.08, 0.1, 0.4, 6)));
}

/// An advisor as a heraldic shield with a saltire across it.
fn shield(rng: &mut Rng, s: &mut Vec<Shape>) {
    let w = vary(rng, 0.56, 0.06);
    let top = vary(rng, -0.72, 0.05);
    let dip = vary(rng, 0.07, 0.05);
    let shoulder = vary(rng, 0.05, 0.12);
    let tip = vary(rng, 0.8, 0.05);
    let mut outline = vec![(-w, top), (0.0, top + dip), (w, top), (w, shoulder)];
    // The right side curves in to the tip, then the left side back up (a quadratic Bézier).
    let curve = |t: f32, side: f32| {
        let (x0, y0, x1, y1, x2, y2) = (side * w, shoulder, side * w * 0.9, tip - 0.2, 0.0, tip);
        let u = 1.0 - t;
        (
            u * u * x0 + 2.0 * u * t * x1 + t * t * x2,
            u * u * y0 + 2.0 * u * t * y1 + t * t * y2,
        )
    };
    outline.extend((1..=8).map(|i| curve(i as f32 / 8.0, 1.0)));
    outline.extend((0..8).rev().map(|i| curve(i as f32 / 8.0, -1.0)));
    s.push(area(outline));
    let (cx, cy) = (0.0, (top + tip) / 2.0 - 0.05);
    let arm = w * vary(rng, 0.5, 0.08);
    s.push(detail(vec![(cx - arm, cy - arm), (cx + arm, cy + arm)]));
    s.push(detail(vec![(cx - arm, cy + arm), (cx + arm, cy - arm)]));
}

/// A crown of three points over a band `w` either side of the middle at height `band`,
/// the middle point at `peak`; `shape`: how far out the outer points lean (a share of `w`),
/// and where the notches between the points are (a share of `w` out, how far above the
/// band).
fn pointed_crown(w: f32, band: f32, peak: f32, shape: (f32, f32, f32)) -> Vec<(f32, f32)> {
    let (lean, notch, dip) = shape;
    vec![
        (-w, band),
        (-w * lean, peak + 0.05),
        (-w * notch, band - dip),
        (0.0, peak),
        (w * notch, band - dip),
        (w * lean, peak + 0.05),
        (w, band),
    ]
}

/// An advisor as a stern face under a small pointed crown, on shoulders.
fn crowned_face(rng: &mut Rng, s: &mut Vec<Shape>) {
    let shoulders = vary(rng, 0.62, 0.08);
    let face = vary(rng, 0.36, 0.05);
    shoulders_and_face(s, (shoulders, 0.85, 0.55, 0.25), (0.05, face, face * 1.1));
    let (band, w, peak) = (
        vary(rng, -0.38, 0.04),
        vary(rng, 0.34, 0.05),
        vary(rng, -0.85, 0.06),
    );
    s.push(area(pointed_crown(w, band, peak, (1.05, 0.5, 0.2))));
    s.push(line(vec![(-0.22, -0.08), (-0.07, 0.0)]));
    s.push(line(vec![(0.07, 0.0), (0.22, -0.08)]));
    s.push(line(arc((0.0, 0.3), 0.13, 0.07, 0.6, 0.9, 6)));
}

/// An elephant as a round head with a big ear behind it, a trunk curling down and forward
/// and a tusk.
fn curled_trunk(rng: &mut Rng, s: &mut Vec<Shape>) {
    let ear = vary(rng, 0.42, 0.06);
    s.push(area(ellipse((0.3, -0.05), ear, ear * 1.25)));
    let head = vary(rng, 0.4, 0.05);
    s.push(area(ellipse((-0.05, -0.3), head, head * 0.95)));
    let curl = vary(rng, 0.0, 0.1);
    let trunk = [
        (-0.3, -0.2),
        (-0.45, 0.05),
        (-0.52, 0.3),
        (-0.5, 0.55),
        (-0.38 + curl, 0.75),
        (-0.22 + curl, 0.72),
    ];
    let w = vary(rng, 0.26, 0.05);
    let widths = [w, w * 0.95, w * 0.85, w * 0.75, w * 0.65, w * 0.6];
    s.push(area(tube(&trunk, &widths)));
    s.push(detail(vec![(-0.28, 0.0), (-0.15, 0.25), (0.02, 0.38)]));
    s.push(detail(ellipse((-0.18, -0.38), 0.04, 0.04)));
    s.push(detail(arc((0.3, -0.05), ear * 0.6, ear * 0.8, 0.8, 1.2, 6)));
}

/// An elephant as a bust: a broad head and a flapping ear above the neck, the trunk hanging
/// in front and a tusk pointing forward.
fn bust(rng: &mut Rng, s: &mut Vec<Shape>) {
    let neck = vary(rng, 0.35, 0.05);
    s.push(area(vec![
        (-0.05, 0.1),
        (neck + 0.2, 0.1),
        (neck + 0.28, 0.75),
        (-0.15, 0.75),
    ]));
    let ear = vary(rng, 0.3, 0.05);
    s.push(area(ellipse((0.42, -0.05), ear, ear * 1.35)));
    let (hw, hh) = (vary(rng, 0.5, 0.05), vary(rng, 0.4, 0.05));
    s.push(area(ellipse((0.0, -0.3), hw, hh)));
    let hang = vary(rng, 0.0, 0.08);
    let trunk = [
        (-0.38, -0.15),
        (-0.52, 0.1),
        (-0.58 + hang, 0.4),
        (-0.55 + hang, 0.62),
        (-0.68 + hang, 0.72),
    ];
    let w = vary(rng, 0.26, 0.04);
    let widths = [w, w * 0.9, w * 0.75, w * 0.65, w * 0.55];
    s.push(area(tube(&trunk, &widths)));
    let tusk = [(-0.3, 0.18), (-0.55, 0.28), (-0.82, 0.22)];
    s.push(area(tube(&tusk, &[0.12, 0.09, 0.04])));
    s.push(detail(ellipse((-0.15, -0.38), 0.045, 0.045)));
    s.push(detail(arc(
        (0.42, -0.05),
        ear * 0.6,
        ear * 0.9,
        0.75,
        1.25,
        6,
    )));
}

/// A cannon as a barrel raised towards the left, resting on a spoked wheel.
fn raised_barrel(rng: &mut Rng, s: &mut Vec<Shape>) {
    let angle = vary(rng, 0.08, 0.03) * TAU;
    let (sin, cos) = angle.sin_cos();
    let length = vary(rng, 0.95, 0.08);
    // `t` along the barrel towards the muzzle, `off` across it.
    let along = |t: f32, off: f32| (-cos * t + sin * off, -sin * t - cos * off);
    let (breech, muzzle) = (vary(rng, 0.25, 0.04), vary(rng, 0.17, 0.03));
    s.push(area(vec![
        along(-length * 0.55, breech),
        along(length, muzzle),
        along(length, -muzzle),
        along(-length * 0.55, -breech),
    ]));
    s.push(area(vec![
        along(length - 0.1, muzzle + 0.06),
        along(length, muzzle + 0.06),
        along(length, -muzzle - 0.06),
        along(length - 0.1, -muzzle - 0.06),
    ]));
    s.push(area(ellipse(
        along(-length * 0.55, 0.0),
        breech * 0.8,
        breech * 0.8,
    )));
    let wheel = vary(rng, 0.36, 0.05);
    let hub = (0.05, 0.8 - wheel);
    s.push(area(ellipse(hub, wheel, wheel)));
    for i in 0..4 {
        let a = (i as f32 / 8.0 + 0.06) * TAU;
        let (dy, dx) = a.sin_cos();
        s.push(detail(vec![
            (hub.0 - dx * wheel * 0.85, hub.1 - dy * wheel * 0.85),
            (hub.0 + dx * wheel * 0.85, hub.1 + dy * wheel * 0.85),
        ]));
    }
    s.push(area(ellipse(hub, 0.08, 0.08)));
}

/// A cannon as a level barrel on a low carriage.
fn field_gun(rng: &mut Rng, s: &mut Vec<Shape>) {
    let y = vary(rng, -0.12, 0.06);
    let (breech, muzzle) = (vary(rng, 0.25, 0.04), vary(rng, 0.16, 0.03));
    let (back, front) = (vary(rng, 0.55, 0.06), vary(rng, -0.82, 0.06));
    s.push(area(vec![
        (back, y - breech),
        (front, y - muzzle),
        (front, y + muzzle),
        (back, y + breech),
    ]));
    s.push(area(ellipse((back, y), breech * 0.85, breech)));
    s.push(area(rect(
        front,
        y - muzzle - 0.05,
        front + 0.1,
        y + muzzle + 0.05,
    )));
    // The carriage: a post under the barrel's middle and a foot.
    let post = vary(rng, 0.1, 0.08);
    let foot = vary(rng, 0.45, 0.05);
    s.push(area(rect(post - 0.1, y + breech * 0.8, post + 0.1, foot)));
    s.push(area(rect(post - 0.42, foot, post + 0.42, foot + 0.12)));
    s.push(detail(vec![
        (back - 0.3, y - breech * 0.9),
        (back - 0.3, y + breech * 0.9),
    ]));
}

/// A cannon as a level barrel with a wheel drawn over it, seen from the side.
fn ringed_barrel(rng: &mut Rng, s: &mut Vec<Shape>) {
    let y = vary(rng, 0.0, 0.06);
    let rise = vary(rng, 0.12, 0.06);
    let (breech, muzzle) = (vary(rng, 0.24, 0.04), vary(rng, 0.15, 0.03));
    let (back, front) = (vary(rng, 0.72, 0.06), vary(rng, -0.78, 0.06));
    s.push(area(vec![
        (back, y - breech),
        (front, y - rise - muzzle),
        (front, y - rise + muzzle),
        (back, y + breech),
    ]));
    let (hub, wheel) = ((vary(rng, 0.12, 0.08), y + 0.05), vary(rng, 0.33, 0.05));
    s.push(area(ellipse(hub, wheel, wheel)));
    s.push(detail(ellipse(hub, wheel * 0.45, wheel * 0.45)));
    s.push(line(vec![
        (hub.0 - wheel * 1.4, hub.1 + wheel),
        (hub.0 + wheel * 1.6, hub.1 + wheel),
    ]));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::raster::Raster;
    use crate::diagram::surface::{Placement, Point, draw};

    /// The figure of `kind` drawn 40 pixels to the half-size on white, black ink on a light
    /// grey face: which pixels are inked.
    fn inked(symbols: &Symbols, kind: PieceKind, fill: Fill) -> Vec<bool> {
        let mut raster = Raster::new(100, 100, [255, 255, 255]);
        let placement = Placement {
            origin: Point::new(50.0, 50.0),
            spacing: 100.0,
        };
        let radius = 0.4 / symbols.size;
        let elements = symbols.elements(
            kind,
            Color::Red,
            Spot::new(0.0, 0.0),
            radius,
            false,
            Some(fill),
        );
        draw(&mut raster, placement, &elements, |ink| match ink {
            Ink::PieceFace(_) => Some([200, 200, 200, 255]),
            _ => Some([0, 0, 0, 255]),
        });
        raster.image.pixels().map(|p| p.0[0] < 100).collect()
    }

    #[test]
    fn the_seven_figures_differ_from_one_another() {
        let mut rng = Rng::new(11);
        // Enough sets that every kind is drawn in each of its designs.
        for _ in 0..32 {
            let symbols = Symbols::random(&mut rng);
            for fill in [Fill::Outline, Fill::Solid] {
                let masks: Vec<Vec<bool>> = PieceKind::ALL
                    .iter()
                    .map(|&kind| inked(&symbols, kind, fill))
                    .collect();
                for (i, a) in masks.iter().enumerate() {
                    let count = a.iter().filter(|&&v| v).count();
                    // Something is drawn, and not a blot filling the square.
                    assert!((300..7000).contains(&count), "{i}: {count} {fill:?}");
                    for (j, b) in masks.iter().enumerate().skip(i + 1) {
                        let either = a.iter().zip(b).filter(|(x, y)| **x || **y).count();
                        let one = a.iter().zip(b).filter(|(x, y)| x != y).count();
                        // Of the ink of the two, at least two fifths is in one only (a
                        // fifth for the solid silhouettes, which overlap more).
                        let least = match fill {
                            Fill::Outline => 0.4,
                            Fill::Solid => 0.2,
                        };
                        assert!(
                            one as f64 > least * either as f64,
                            "{:?} and {:?} ({fill:?}): {one} of {either}",
                            PieceKind::ALL[i],
                            PieceKind::ALL[j]
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_set_is_drawn_again_the_same_from_its_seed_and_sets_differ() {
        let (a, b) = (
            Symbols::random(&mut Rng::new(4)),
            Symbols::random(&mut Rng::new(4)),
        );
        // (The generator's seeds 4 and 5 are the same stream.)
        let c = Symbols::random(&mut Rng::new(6));
        for kind in PieceKind::ALL {
            assert_eq!(a.shapes(kind), b.shapes(kind));
            assert_ne!(a.shapes(kind), c.shapes(kind));
        }
    }

    #[test]
    fn every_figure_stays_inside_its_square() {
        let mut rng = Rng::new(3);
        for _ in 0..50 {
            let symbols = Symbols::random(&mut rng);
            for kind in PieceKind::ALL {
                for shape in symbols.shapes(kind) {
                    for (x, y) in shape.points {
                        assert!(x.abs() < 1.15 && y.abs() < 1.15, "{kind:?} ({x}, {y})");
                    }
                }
            }
        }
    }
}

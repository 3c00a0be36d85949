//! Diagrams as SVG, for web pages (the class page): the board description drawn by
//! [`super::draw`] into a string of SVG elements. Text stays text (`<text>` in the app's
//! font family, escaped), so it can be searched and copied; the page supplies the font.

use super::surface::{DiscPaint, Placement, Point, Surface, draw};
use super::{Element, Ink};
use std::fmt::Write as _;

/// A colour with straight alpha: red, green, blue, opacity.
pub type Rgba = [u8; 4];

/// The font family the text asks for: the app's font by its own name, then the font it
/// was cut from, then any kai or serif face the reader has.
pub const FONT_FAMILY: &str = "'Chuhe Kai', 'LXGW WenKai', KaiTi, STKaiti, serif";

/// An SVG picture being drawn, `width` × `height` units.
pub struct Svg {
    width: f32,
    height: f32,
    body: String,
    /// How far above the baseline a character's middle is, in ems.
    middle: f32,
}

impl Svg {
    /// An empty picture `width` × `height` units.
    pub fn new(width: f32, height: f32) -> Svg {
        Svg {
            width,
            height,
            body: String::new(),
            middle: super::character_middle(),
        }
    }

    /// The picture as an SVG document.
    pub fn finish(self) -> String {
        let (w, h) = (number(self.width), number(self.height));
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\">\n{}</svg>\n",
            self.body
        )
    }
}

/// A whole board of `elements` as an SVG document `side` units square, in the colours
/// `colour` gives the inks (an ink without one is left out).
pub fn board(elements: &[Element], side: f32, colour: impl Fn(Ink) -> Option<Rgba>) -> String {
    let mut svg = Svg::new(side, side);
    draw(&mut svg, Placement::board(0.0, 0.0, side), elements, colour);
    svg.finish()
}

/// A length with at most two decimals and no trailing zeros.
fn number(v: f32) -> String {
    let text = format!("{:.2}", v);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

/// `#rrggbb`, and an opacity attribute named `what` when the colour is see-through.
fn paint(what: &str, [r, g, b, a]: Rgba) -> String {
    let mut text = format!("{what}=\"#{r:02x}{g:02x}{b:02x}\"");
    if a < 255 {
        let _ = write!(text, " {what}-opacity=\"{}\"", number(f32::from(a) / 255.0));
    }
    text
}

/// `text` with the characters that mean something in XML written as entities.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            other => escaped.push(other),
        }
    }
    escaped
}

/// The points as `x,y x,y …`.
fn point_list(points: &[Point]) -> String {
    points
        .iter()
        .map(|p| format!("{},{}", number(p.x), number(p.y)))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Surface for Svg {
    type Colour = Rgba;

    fn rounded_rect(&mut self, min: Point, max: Point, corner_radius: f32, fill: Rgba) {
        let _ = writeln!(
            self.body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" {}/>",
            number(min.x),
            number(min.y),
            number(max.x - min.x),
            number(max.y - min.y),
            number(corner_radius),
            paint("fill", fill)
        );
    }

    fn line(&mut self, points: &[Point], closed: bool, width: f32, colour: Rgba, _: bool) {
        let element = if closed { "polygon" } else { "polyline" };
        let _ = writeln!(
            self.body,
            "<{element} points=\"{}\" fill=\"none\" {} stroke-width=\"{}\" \
             stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
            point_list(points),
            paint("stroke", colour),
            number(width)
        );
    }

    fn circle(&mut self, centre: Point, radius: f32, disc: DiscPaint<Rgba>) {
        let middle = disc.path_radius(radius);
        let fill = disc
            .fill
            .map_or_else(|| "fill=\"none\"".to_owned(), |c| paint("fill", c));
        let outline = disc.outline.map_or_else(String::new, |(width, c)| {
            format!(" {} stroke-width=\"{}\"", paint("stroke", c), number(width))
        });
        let _ = writeln!(
            self.body,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {fill}{outline}/>",
            number(centre.x),
            number(centre.y),
            number(middle)
        );
    }

    fn polygon(&mut self, points: &[Point], fill: Rgba) {
        let _ = writeln!(
            self.body,
            "<polygon points=\"{}\" {}/>",
            point_list(points),
            paint("fill", fill)
        );
    }

    fn text(&mut self, centre: Point, text: &str, size: f32, colour: Rgba) {
        // Centred on the character's middle, as the PDF sets it, not on the em box.
        let baseline = centre.y + self.middle * size;
        let _ = writeln!(
            self.body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-family=\"{FONT_FAMILY}\" \
             text-anchor=\"middle\" {}>{}</text>",
            number(centre.x),
            number(baseline),
            number(size),
            paint("fill", colour),
            escape(text)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;
    use crate::diagram::{self, BoardStyle, Diagram, Proportions, Spot};

    /// An element's name, attributes and text.
    type Parsed = (String, Vec<(String, String)>, String);

    /// Checks that `svg` is well-formed XML of the kind written here (elements, quoted
    /// attributes, escaped text, no comments or declarations) and returns its elements'
    /// names with their attributes and text, in document order.
    fn parse(svg: &str) -> Result<Vec<Parsed>, String> {
        // The open elements' names and places in `elements`.
        let mut open: Vec<(String, usize)> = Vec::new();
        let mut elements = Vec::new();
        let mut rest = svg.trim();
        let check_text = |text: &str| -> Result<(), String> {
            let mut parts = text.split('&');
            let _ = parts.next();
            for part in parts {
                let entity = part.split(';').next().unwrap_or("");
                if !["amp", "lt", "gt", "quot", "apos"].contains(&entity) || !part.contains(';') {
                    return Err(format!("a bare & in {text:?}"));
                }
            }
            if text.contains('>') {
                return Err(format!("a bare > in {text:?}"));
            }
            Ok(())
        };
        while !rest.is_empty() {
            let Some(start) = rest.find('<') else {
                return Err(format!("text outside the root: {rest:?}"));
            };
            let text = &rest[..start];
            check_text(text)?;
            if let Some(&(_, index)) = open.last() {
                let (_, _, content): &mut Parsed = &mut elements[index];
                content.push_str(text);
            }
            let end = rest[start..].find('>').ok_or("an unclosed tag")? + start;
            let tag = &rest[start + 1..end];
            rest = &rest[end + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                if open.pop().map(|(n, _)| n).as_deref() != Some(name) {
                    return Err(format!("</{name}> closes nothing open"));
                }
                if open.is_empty() && !rest.trim().is_empty() {
                    return Err("something after the root".into());
                }
                continue;
            }
            let (tag, empty) = match tag.strip_suffix('/') {
                Some(t) => (t, true),
                None => (tag, false),
            };
            let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
            let name = &tag[..name_end];
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
                return Err(format!("a bad element name in <{tag}>"));
            }
            if open.is_empty() && !elements.is_empty() {
                return Err("a second root".into());
            }
            let mut attributes = Vec::new();
            let mut attrs = tag[name_end..].trim();
            while !attrs.is_empty() {
                let eq = attrs
                    .find("=\"")
                    .ok_or(format!("an unquoted attribute in <{tag}>"))?;
                let key = attrs[..eq].trim();
                if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                    return Err(format!("a bad attribute name {key:?}"));
                }
                let value_end = attrs[eq + 2..].find('"').ok_or("an unclosed value")? + eq + 2;
                let value = &attrs[eq + 2..value_end];
                check_text(value)?;
                if value.contains('<') || attributes.iter().any(|(k, _)| k == key) {
                    return Err(format!("a bad or repeated attribute {key}"));
                }
                attributes.push((key.to_owned(), value.to_owned()));
                attrs = attrs[value_end + 1..].trim_start();
            }
            if !empty {
                open.push((name.to_owned(), elements.len()));
            }
            elements.push((name.to_owned(), attributes, String::new()));
        }
        if open.is_empty() {
            Ok(elements)
        } else {
            Err(format!("{open:?} left open"))
        }
    }

    fn attribute<'a>(attributes: &'a [(String, String)], key: &str) -> &'a str {
        &attributes.iter().find(|(k, _)| k == key).unwrap().1
    }

    fn start_board(side: f32) -> String {
        let style = BoardStyle::default();
        let mut elements = diagram::board(&style, &Proportions::WOOD);
        let start = Diagram::from_position(&Position::startpos());
        elements.extend(diagram::pieces(&start, &style, &Proportions::WOOD, None));
        elements.extend(diagram::arrow(
            false,
            "h2".parse().unwrap(),
            "e2".parse().unwrap(),
        ));
        board(&elements, side, |ink| match ink {
            Ink::PieceShadow => None,
            Ink::PieceInk(crate::Color::Red) => Some([200, 0, 0, 255]),
            Ink::LastMove => Some([0, 0, 255, 128]),
            _ => Some([0, 0, 0, 255]),
        })
    }

    #[test]
    fn a_board_is_well_formed_svg_with_its_lines_pieces_and_arrow() {
        let svg = start_board(560.0);
        let elements = parse(&svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
        assert_eq!(elements[0].0, "svg");
        assert_eq!(attribute(&elements[0].1, "viewBox"), "0 0 560 560");
        let count = |name: &str| elements.iter().filter(|e| e.0 == name).count();
        // The frame; 30 straight lines and 48 corner marks.
        assert_eq!(count("polygon"), 1 + 1, "the frame and the arrow's head");
        assert_eq!(
            count("polyline"),
            30 + 48 + 1,
            "lines, marks and the arrow's shaft"
        );
        // A face and a ring a piece (their shadows have no colour here).
        assert_eq!(count("circle"), 32 * 2);
        let texts: Vec<_> = elements.iter().filter(|e| e.0 == "text").collect();
        // 楚河汉界, 18 file numbers, 32 pieces.
        assert_eq!(texts.len(), 4 + 18 + 32);
        // 帅 stands on e0: 4 spacings (of 50) right of the grid's left line, 1.6 spacings in
        // from the board's edge, and 9 below the top rank, 1.1 spacings down.
        let general = texts.iter().find(|e| e.2 == "帅").expect("帅 is drawn");
        assert_eq!(attribute(&general.1, "x"), "280");
        let baseline: f32 = attribute(&general.1, "y").parse().unwrap();
        assert!((505.0..520.0).contains(&baseline), "{baseline}");
        assert_eq!(attribute(&general.1, "fill"), "#c80000");
        assert_eq!(attribute(&general.1, "font-family"), FONT_FAMILY);
        let black = texts.iter().filter(|e| e.2 == "卒").count();
        assert_eq!(black, 5);
    }

    #[test]
    fn text_is_escaped_and_see_through_colours_keep_their_opacity() {
        let elements = [
            Element::Text {
                centre: Spot::new(1.0, 1.0),
                text: "<a & 'b'>\"".to_owned(),
                size: 0.5,
                ink: Ink::FileNumbers,
            },
            Element::Line {
                points: vec![Spot::new(0.0, 0.0), Spot::new(1.0, 1.0)],
                closed: false,
                width: 0.1,
                ink: Ink::LastMove,
                crisp: false,
            },
        ];
        let svg = board(&elements, 112.0, |ink| match ink {
            Ink::LastMove => Some([255, 0, 0, 51]),
            _ => Some([0, 0, 0, 255]),
        });
        let parsed = parse(&svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
        assert!(svg.contains("&lt;a &amp; &apos;b&apos;&gt;&quot;"), "{svg}");
        let line = parsed.iter().find(|e| e.0 == "polyline").unwrap();
        assert_eq!(attribute(&line.1, "stroke-opacity"), "0.2");
        // The checker itself refuses what is not well-formed.
        assert!(parse("<svg><text>a & b</text></svg>").is_err());
        assert!(parse("<svg><g></svg>").is_err());
        assert!(parse("<svg x=1/>").is_err());
    }
}

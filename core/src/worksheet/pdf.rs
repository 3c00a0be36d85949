//! A worksheet as a PDF (through krilla): the worksheet pages, a grid of diagrams under a
//! header, then the answer pages.
//!
//! The diagrams are the board description ([`crate::diagram`]) drawn by its one painter,
//! [`diagram::draw`], which paints the screen and the PNG export too: here onto a page as
//! vector paths, so they are crisp at any zoom. All text is set in the app's font, which
//! krilla embeds as a subset of the characters used, with a ToUnicode map, so the Chinese
//! text can be searched and copied.
//!
//! Lengths are PDF points (1/72 in), y downwards from the top of the page.

use super::{Entry, Layout, PrintStyle, Words, Worksheet, answer_text, is_per_page};
use crate::diagram::surface::DiscPaint;
use crate::diagram::{self, BoardStyle, Diagram, Element, Ink, Placement, Point, Proportions};
use crate::notation::format_move;
use crate::{Color, Move, Position};
use krilla::color::rgb;
use krilla::geom::PathBuilder;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, FillRule, LineCap, LineJoin, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};
use krilla::{Document, metadata::Metadata};
use skrifa::instance::{LocationRef, Size};
use skrifa::metrics::GlyphMetrics;
use skrifa::{FontRef, MetadataProvider};
use std::fmt;
use std::path::Path;

/// Why a worksheet could not be made.
#[derive(Debug)]
pub enum PdfError {
    /// The diagrams a page is not one of [`super::PER_PAGE`].
    PerPage(usize),
    /// The font could not be read.
    Font,
    /// The PDF library refused (its message).
    Pdf(String),
    /// The file could not be written.
    Io(std::io::Error),
}

impl fmt::Display for PdfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdfError::PerPage(n) => write!(
                f,
                "{n} diagrams a page is not a layout (1, 2, 4, 6, 9 or 12)"
            ),
            PdfError::Font => write!(f, "the font could not be read"),
            PdfError::Pdf(e) => write!(f, "the PDF could not be made: {e}"),
            PdfError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PdfError {}

/// The page's margin.
const MARGIN: f32 = 40.0;
/// Room between two diagrams' cells.
const GUTTER: f32 = 14.0;
/// The title's size on the page.
const TITLE_SIZE: f32 = 17.0;
/// The header line's size (class, date, name).
const HEADER_SIZE: f32 = 10.5;
/// The page number's size.
const FOOTER_SIZE: f32 = 9.0;
/// The side of an answer's small diagrams.
const SMALL_DIAGRAM: f32 = 112.0;
/// The most small diagrams an answer shows.
const KEY_DIAGRAMS: usize = 4;

/// The rows and columns of a page of `per_page` diagrams.
fn grid(per_page: usize) -> (usize, usize) {
    match per_page {
        1 => (1, 1),
        2 => (1, 2),
        4 => (2, 2),
        6 => (2, 3),
        9 => (3, 3),
        _ => (3, 4),
    }
}

/// The PDF of `sheet` laid out by `layout`, with `words` for its labels.
pub fn write(sheet: &Worksheet, layout: &Layout, words: &Words) -> Result<Vec<u8>, PdfError> {
    if !is_per_page(layout.per_page) {
        return Err(PdfError::PerPage(layout.per_page));
    }
    let typeface = Typeface::new()?;
    let mut writer = Writer {
        document: Document::new(),
        typeface,
        layout,
        words,
        sheet,
        page_number: 0,
    };
    writer.document.set_metadata(
        Metadata::new()
            .title(sheet.title.clone())
            .creator("Chuhe".to_owned()),
    );
    let chunks: Vec<(usize, &[Entry])> = sheet
        .entries
        .chunks(layout.per_page)
        .enumerate()
        .map(|(i, chunk)| (i * layout.per_page, chunk))
        .collect();
    if chunks.is_empty() {
        writer.worksheet_page(0, &[]);
    }
    for (first, chunk) in chunks {
        writer.worksheet_page(first, chunk);
    }
    if layout.answers && !sheet.entries.is_empty() {
        writer.answer_pages();
    }
    writer
        .document
        .finish()
        .map_err(|e| PdfError::Pdf(format!("{e:?}")))
}

/// A one-page PDF of a whole board of `elements`, the page `side` points square, in the
/// colours `colour` gives the inks (an ink without one is left out): a single diagram for
/// a handout, drawn as the worksheets draw theirs.
pub fn board_page(
    elements: &[Element],
    side: f32,
    colour: impl Fn(Ink) -> Option<Rgb>,
) -> Result<Vec<u8>, PdfError> {
    let typeface = Typeface::new()?;
    let mut document = Document::new();
    let settings = PageSettings::from_wh(side, side)
        .ok_or_else(|| PdfError::Pdf(format!("{side} points is not a page size")))?;
    let mut page = document.start_page_with(settings);
    let mut surface = page.surface();
    let mut canvas = Canvas {
        surface: &mut surface,
        typeface: &typeface,
        style: PrintStyle::default(),
    };
    diagram::draw(
        &mut canvas,
        Placement::board(0.0, 0.0, side),
        elements,
        colour,
    );
    surface.finish();
    page.finish();
    document
        .finish()
        .map_err(|e| PdfError::Pdf(format!("{e:?}")))
}

/// Writes the PDF of `sheet` to `path` atomically (see [`write`]).
pub fn save(
    path: &Path,
    sheet: &Worksheet,
    layout: &Layout,
    words: &Words,
) -> Result<(), PdfError> {
    let bytes = write(sheet, layout, words)?;
    crate::atomic::write_atomically(path, &bytes).map_err(PdfError::Io)
}

/// The app's font, for krilla to embed and for measuring text.
struct Typeface {
    pdf: Font,
    charmap: skrifa::charmap::Charmap<'static>,
    metrics: GlyphMetrics<'static>,
    units_per_em: f32,
    /// How far above the baseline a Chinese character's middle is, in ems.
    middle: f32,
}

impl Typeface {
    fn new() -> Result<Typeface, PdfError> {
        let font = FontRef::new(diagram::FONT).map_err(|_| PdfError::Font)?;
        let pdf = Font::new(diagram::FONT.into(), 0).ok_or(PdfError::Font)?;
        let metrics = font.glyph_metrics(Size::unscaled(), LocationRef::default());
        let charmap = font.charmap();
        let units_per_em = f32::from(
            font.metrics(Size::unscaled(), LocationRef::default())
                .units_per_em,
        );
        Ok(Typeface {
            pdf,
            charmap,
            metrics,
            units_per_em,
            middle: diagram::character_middle(),
        })
    }

    /// The width of `text` set at `size`.
    fn width(&self, text: &str, size: f32) -> f32 {
        let units: f32 = text
            .chars()
            .map(|c| {
                let glyph = self.charmap.map(c).unwrap_or_default();
                self.metrics.advance_width(glyph).unwrap_or(0.0)
            })
            .sum();
        units / self.units_per_em * size
    }
}

/// A colour on paper: red, green, blue.
pub type Rgb = [u8; 3];

/// The print style's colour for each ink of the board description, or none (a shadow on
/// paper).
pub fn print_colour(style: PrintStyle, ink: Ink) -> Option<Rgb> {
    let grey = |v: u8| Some([v, v, v]);
    match (style, ink) {
        (_, Ink::PieceShadow) => None,
        (_, Ink::Board | Ink::PieceFace(Color::Red)) => grey(255),
        (_, Ink::Lines | Ink::FileNumbers | Ink::PieceRim | Ink::LastMove | Ink::Arrow) => grey(0),
        (_, Ink::RiverText) => grey(70),
        (PrintStyle::BlackAndWhite, Ink::PieceFace(Color::Black)) => grey(25),
        (PrintStyle::BlackAndWhite, Ink::PieceInk(Color::Red)) => grey(0),
        (PrintStyle::BlackAndWhite, Ink::PieceInk(Color::Black)) => grey(255),
        (PrintStyle::Colour, Ink::PieceFace(Color::Black)) => grey(255),
        (PrintStyle::Colour, Ink::PieceInk(Color::Red)) => Some([190, 20, 20]),
        (PrintStyle::Colour, Ink::PieceInk(Color::Black)) => grey(0),
    }
}

/// The diagrams' proportions on paper: the screen's, with a firmer frame, ring and rim, and
/// a gap between pieces on neighbouring points (the rim ends at 0.48, the ring at 0.385).
pub const PAPER: Proportions = {
    let mut p = Proportions::WOOD;
    p.line_width = 0.03;
    p.frame_width = 0.07;
    p.piece_radius = 0.42;
    p.piece_rim_width = 0.06;
    p.piece_ring_radius = 0.355;
    p.piece_text = 0.6;
    p
};

/// The thinnest line a printer draws cleanly.
const THINNEST_LINE: f32 = 0.4;

struct Writer<'a> {
    document: Document,
    typeface: Typeface,
    layout: &'a Layout,
    words: &'a Words,
    sheet: &'a Worksheet,
    page_number: usize,
}

/// A place to draw on one page.
struct Canvas<'s, 'p> {
    surface: &'s mut Surface<'p>,
    typeface: &'s Typeface,
    style: PrintStyle,
}

impl Writer<'_> {
    fn page_size(&self) -> (f32, f32) {
        self.layout.paper.size()
    }

    /// Starts a page, lets `draw` fill it and numbers it.
    fn page(&mut self, draw: impl FnOnce(&mut Canvas)) {
        self.page_number += 1;
        let (width, height) = self.page_size();
        let number = self.page_number;
        let settings = PageSettings::from_wh(width, height)
            .unwrap_or_else(|| PageSettings::from_wh(595.0, 842.0).expect("A4 is a page size"));
        let mut page = self.document.start_page_with(settings);
        let mut surface = page.surface();
        let mut canvas = Canvas {
            surface: &mut surface,
            typeface: &self.typeface,
            style: self.layout.style,
        };
        draw(&mut canvas);
        canvas.text_centred(
            width / 2.0,
            height - MARGIN / 2.0,
            &format!("— {number} —"),
            FOOTER_SIZE,
            grey(0),
        );
        surface.finish();
        page.finish();
    }

    /// One page of diagrams, the first numbered `first + 1`.
    fn worksheet_page(&mut self, first: usize, entries: &[Entry]) {
        let (width, height) = self.page_size();
        let (cols, rows) = grid(self.layout.per_page);
        let sheet = self.sheet;
        let words = self.words;
        let layout = self.layout;
        let hints = sheet.entries.iter().any(|e| e.hint.is_some());
        self.page(|canvas| {
            let top = canvas.header(sheet, words, width);
            let bottom = height - MARGIN;
            let cell_w = (width - 2.0 * MARGIN - (cols - 1) as f32 * GUTTER) / cols as f32;
            let cell_h = (bottom - top - (rows - 1) as f32 * GUTTER) / rows as f32;
            let text = (cell_w / 16.0).clamp(7.5, 13.0);
            let line = text * 1.45;
            let lines_below = if hints { 2.0 } else { 1.0 };
            let side = cell_w.min(cell_h - line * (1.0 + lines_below));
            for (i, entry) in entries.iter().enumerate() {
                let (col, row) = (i % cols, i / cols);
                let x = MARGIN + col as f32 * (cell_w + GUTTER);
                let y = top + row as f32 * (cell_h + GUTTER);
                let number = first + i + 1;
                let caption = if entry.title.is_empty() {
                    format!("{number}.")
                } else {
                    format!("{number}. {}", entry.title)
                };
                canvas.text_fitted(x, y + line * 0.75, &caption, text, cell_w, grey(0));
                let left = x + (cell_w - side) / 2.0;
                let style = BoardStyle {
                    flipped: false,
                    traditional: layout.traditional,
                    ..BoardStyle::default()
                };
                canvas.diagram(left, y + line, side, &entry.position, &style, None);
                let below = y + line + side + line * 0.8;
                let goal = words.goal(entry.side_to_move(), entry.goal);
                canvas.text_fitted(x, below, &goal, text, cell_w, grey(0));
                if let Some(hint) = &entry.hint {
                    let hint = words.hint_line(hint);
                    canvas.text_fitted(x, below + line, &hint, text * 0.9, cell_w, grey(60));
                }
            }
        });
    }

    /// The answer pages: each entry's goal, its solution in the layout's notation and the
    /// positions after the solver's key moves, flowing from page to page.
    fn answer_pages(&mut self) {
        let (width, height) = self.page_size();
        let content = width - 2.0 * MARGIN;
        let mut blocks: Vec<Block> = Vec::new();
        for (i, entry) in self.sheet.entries.iter().enumerate() {
            blocks.push(Block::new(
                i + 1,
                entry,
                self.layout,
                self.words,
                &self.typeface,
                content,
            ));
        }
        let heading = format!("{} — {}", self.words.answers, self.sheet.title);
        let mut rest: &[Block] = &blocks;
        while !rest.is_empty() {
            let mut taken = 0;
            let top = MARGIN + TITLE_SIZE * 2.2;
            let mut y = top;
            while taken < rest.len() && (taken == 0 || y + rest[taken].height <= height - MARGIN) {
                y += rest[taken].height;
                taken += 1;
            }
            let page_blocks = &rest[..taken];
            let traditional = self.layout.traditional;
            self.page(|canvas| {
                canvas.text_centred(
                    width / 2.0,
                    MARGIN + TITLE_SIZE,
                    &heading,
                    TITLE_SIZE,
                    grey(0),
                );
                let mut y = top;
                for block in page_blocks {
                    canvas.block(block, y, traditional);
                    y += block.height;
                }
            });
            rest = &rest[taken..];
        }
    }
}

/// An entry's answer as laid out: its lines of text and its small diagrams.
struct Block {
    lines: Vec<(String, f32)>,
    /// The position after each key move, with the move and its caption.
    diagrams: Vec<(Position, Move, String)>,
    height: f32,
}

/// The answer's text size.
const ANSWER_SIZE: f32 = 10.5;

impl Block {
    fn new(
        number: usize,
        entry: &Entry,
        layout: &Layout,
        words: &Words,
        typeface: &Typeface,
        width: f32,
    ) -> Block {
        let goal = words.goal(entry.side_to_move(), entry.goal);
        let mut heading = format!("{number}.");
        if !entry.title.is_empty() {
            heading.push(' ');
            heading.push_str(&entry.title);
        }
        heading.push('　');
        heading.push_str(&goal);
        let mut lines = vec![(heading, ANSWER_SIZE + 1.0)];
        let mut diagrams = Vec::new();
        match &entry.answer {
            Some(line) => {
                let text = answer_text(&entry.position, line, layout.notation);
                for l in wrap(typeface, &text, ANSWER_SIZE, width) {
                    lines.push((l, ANSWER_SIZE));
                }
                diagrams = key_positions(&entry.position, line, layout);
            }
            None => lines.push((format!("（{}）", words.no_answer), ANSWER_SIZE)),
        }
        let text_height: f32 = lines.iter().map(|(_, size)| size * 1.5).sum();
        let diagram_height = if diagrams.is_empty() {
            0.0
        } else {
            SMALL_DIAGRAM + ANSWER_SIZE * 1.8
        };
        Block {
            height: text_height + diagram_height + 10.0,
            lines,
            diagrams,
        }
    }
}

/// The positions after the solver's moves of `line` (its key moves), each with the move and
/// its caption ("2. 车五进七"): all of them when few, else the first ones and the last.
fn key_positions(
    start: &Position,
    line: &[Move],
    layout: &Layout,
) -> Vec<(Position, Move, String)> {
    let mut pos = start.clone();
    let mut after = Vec::new();
    for (i, &m) in line.iter().enumerate() {
        let text = format_move(&pos, m, layout.notation);
        let Ok(next) = pos.play(m) else { break };
        if i % 2 == 0 {
            after.push((next.clone(), m, format!("{}. {text}", i / 2 + 1)));
        }
        pos = next;
    }
    if after.len() > KEY_DIAGRAMS {
        let last = after.pop();
        after.truncate(KEY_DIAGRAMS - 1);
        after.extend(last);
    }
    after
}

/// `text` broken into lines no wider than `width` at `size`: at spaces where it can, else
/// between characters.
fn wrap(typeface: &Typeface, text: &str, size: f32, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if typeface.width(&candidate, size) <= width {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        for c in word.chars() {
            line.push(c);
            if typeface.width(&line, size) > width && line.chars().count() > 1 {
                line.pop();
                lines.push(std::mem::replace(&mut line, c.to_string()));
            }
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

fn grey(v: u8) -> rgb::Color {
    rgb::Color::new(v, v, v)
}

fn colour([r, g, b]: Rgb) -> rgb::Color {
    rgb::Color::new(r, g, b)
}

fn fill(color: rgb::Color) -> Fill {
    Fill {
        paint: color.into(),
        opacity: NormalizedF32::ONE,
        rule: FillRule::NonZero,
    }
}

fn stroke(color: rgb::Color, width: f32) -> Stroke {
    Stroke {
        paint: color.into(),
        width: width.max(THINNEST_LINE),
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        ..Stroke::default()
    }
}

/// The four cubic arcs of a circle.
fn push_circle(builder: &mut PathBuilder, cx: f32, cy: f32, r: f32) {
    // The control points' distance that makes a quarter circle of four cubics.
    let k = 0.552_284_8 * r;
    builder.move_to(cx + r, cy);
    builder.cubic_to(cx + r, cy + k, cx + k, cy + r, cx, cy + r);
    builder.cubic_to(cx - k, cy + r, cx - r, cy + k, cx - r, cy);
    builder.cubic_to(cx - r, cy - k, cx - k, cy - r, cx, cy - r);
    builder.cubic_to(cx + k, cy - r, cx + r, cy - k, cx + r, cy);
    builder.close();
}

/// A rectangle with rounded corners.
fn push_rounded_rect(builder: &mut PathBuilder, x0: f32, y0: f32, x1: f32, y1: f32, r: f32) {
    let r = r.min((x1 - x0) / 2.0).min((y1 - y0) / 2.0);
    let k = 0.552_284_8 * r;
    builder.move_to(x0 + r, y0);
    builder.line_to(x1 - r, y0);
    builder.cubic_to(x1 - r + k, y0, x1, y0 + r - k, x1, y0 + r);
    builder.line_to(x1, y1 - r);
    builder.cubic_to(x1, y1 - r + k, x1 - r + k, y1, x1 - r, y1);
    builder.line_to(x0 + r, y1);
    builder.cubic_to(x0 + r - k, y1, x0, y1 - r + k, x0, y1 - r);
    builder.line_to(x0, y0 + r);
    builder.cubic_to(x0, y0 + r - k, x0 + r - k, y0, x0 + r, y0);
    builder.close();
}

impl Canvas<'_, '_> {
    /// Fills and strokes a path made by `build`.
    fn path(
        &mut self,
        fill_with: Option<rgb::Color>,
        outline: Option<(rgb::Color, f32)>,
        build: impl FnOnce(&mut PathBuilder),
    ) {
        let mut builder = PathBuilder::new();
        build(&mut builder);
        let Some(path) = builder.finish() else {
            return;
        };
        self.surface.set_fill(fill_with.map(fill));
        self.surface.set_stroke(outline.map(|(c, w)| stroke(c, w)));
        if fill_with.is_some() || outline.is_some() {
            self.surface.draw_path(&path);
        }
        self.surface.set_stroke(None);
    }

    /// `text` with its baseline's left end at `x`, `y`.
    fn text(&mut self, x: f32, y: f32, text: &str, size: f32, color: rgb::Color) {
        if text.is_empty() {
            return;
        }
        self.surface.set_fill(Some(fill(color)));
        self.surface.set_stroke(None);
        self.surface.draw_text(
            krilla::geom::Point::from_xy(x, y),
            self.typeface.pdf.clone(),
            size,
            text,
            false,
            TextDirection::Auto,
        );
    }

    /// `text` centred on `x` with its baseline at `y`.
    fn text_centred(&mut self, x: f32, y: f32, text: &str, size: f32, color: rgb::Color) {
        let width = self.typeface.width(text, size);
        self.text(x - width / 2.0, y, text, size, color);
    }

    /// `text` at `x`, `y`, made smaller (down to two thirds) to fit `width`, and cut short
    /// with "…" if it still does not.
    fn text_fitted(
        &mut self,
        x: f32,
        y: f32,
        text: &str,
        size: f32,
        width: f32,
        color: rgb::Color,
    ) {
        let natural = self.typeface.width(text, size);
        let size = if natural > width {
            (size * width / natural).max(size * 2.0 / 3.0)
        } else {
            size
        };
        let mut shown = text.to_owned();
        while self.typeface.width(&shown, size) > width && shown.chars().count() > 1 {
            shown.pop();
            shown.pop();
            shown.push('…');
        }
        self.text(x, y, &shown, size, color);
    }

    /// The page's title and the class, date and name line; returns where the page's
    /// content may start.
    fn header(&mut self, sheet: &Worksheet, words: &Words, width: f32) -> f32 {
        let title_y = MARGIN + TITLE_SIZE * 0.8;
        self.text_centred(width / 2.0, title_y, &sheet.title, TITLE_SIZE, grey(0));
        let line_y = title_y + HEADER_SIZE * 2.6;
        let fields = [
            (&words.class, sheet.class.as_str(), 0.32),
            (&words.date, sheet.date.as_str(), 0.30),
            (&words.name, "", 0.38),
        ];
        let content = width - 2.0 * MARGIN;
        let mut x = MARGIN;
        for (label, value, share) in fields {
            let label = format!("{label}：");
            self.text(x, line_y, &label, HEADER_SIZE, grey(0));
            let start = x + self.typeface.width(&label, HEADER_SIZE);
            let end = x + content * share - 12.0;
            self.text(start + 4.0, line_y - 1.5, value, HEADER_SIZE, grey(0));
            self.path(None, Some((grey(0), 0.6)), |b| {
                b.move_to(start, line_y + 2.5);
                b.line_to(end, line_y + 2.5);
            });
            x += content * share;
        }
        let rule_y = line_y + HEADER_SIZE;
        self.path(None, Some((grey(120), 0.5)), |b| {
            b.move_to(MARGIN, rule_y);
            b.line_to(width - MARGIN, rule_y);
        });
        rule_y + HEADER_SIZE
    }

    /// A diagram of `position` in the square at `left`, `top`, `side` wide, with the frames
    /// of `last_move` if given.
    fn diagram(
        &mut self,
        left: f32,
        top: f32,
        side: f32,
        position: &Position,
        style: &BoardStyle,
        last_move: Option<Move>,
    ) {
        let mut elements = diagram::board(style, &PAPER);
        if let Some(m) = last_move {
            for square in [m.from, m.to] {
                elements.extend(diagram::point_frame(style.flipped, square));
            }
        }
        let pieces = Diagram::from_position(position);
        elements.extend(diagram::pieces(&pieces, style, &PAPER, None));
        let print = self.style;
        diagram::draw(self, Placement::board(left, top, side), &elements, |ink| {
            print_colour(print, ink)
        });
    }

    /// An answer block whose top is at `y`.
    fn block(&mut self, block: &Block, top: f32, traditional: bool) {
        let mut y = top;
        for (line, size) in &block.lines {
            y += size * 1.5;
            self.text(MARGIN, y - size * 0.4, line, *size, grey(0));
        }
        let style = BoardStyle {
            traditional,
            ..BoardStyle::default()
        };
        for (i, (position, m, caption)) in block.diagrams.iter().enumerate() {
            let left = MARGIN + i as f32 * (SMALL_DIAGRAM + GUTTER);
            self.diagram(left, y + 2.0, SMALL_DIAGRAM, position, &style, Some(*m));
            let caption_y = y + 2.0 + SMALL_DIAGRAM + ANSWER_SIZE * 1.2;
            self.text_centred(
                left + SMALL_DIAGRAM / 2.0,
                caption_y,
                caption,
                ANSWER_SIZE * 0.85,
                grey(0),
            );
        }
    }
}

/// The page as a surface for the board description's painter.
impl diagram::Surface for Canvas<'_, '_> {
    type Colour = Rgb;

    fn rounded_rect(&mut self, min: Point, max: Point, corner_radius: f32, fill: Rgb) {
        self.path(Some(colour(fill)), None, |b| {
            push_rounded_rect(b, min.x, min.y, max.x, max.y, corner_radius)
        });
    }

    fn line(&mut self, points: &[Point], closed: bool, width: f32, ink: Rgb, _crisp: bool) {
        self.path(None, Some((colour(ink), width)), |b| {
            push_polyline(b, points, closed)
        });
    }

    fn circle(&mut self, centre: Point, radius: f32, paint: DiscPaint<Rgb>) {
        let middle = paint.path_radius(radius);
        let outline = paint.outline.map(|(width, ink)| (colour(ink), width));
        self.path(paint.fill.map(colour), outline, |b| {
            push_circle(b, centre.x, centre.y, middle)
        });
    }

    fn polygon(&mut self, points: &[Point], fill: Rgb) {
        self.path(Some(colour(fill)), None, |b| push_polyline(b, points, true));
    }

    fn text(&mut self, centre: Point, text: &str, size: f32, ink: Rgb) {
        let baseline = centre.y + self.typeface.middle * size;
        self.text_centred(centre.x, baseline, text, size, colour(ink));
    }
}

/// A path through `points`, closed back to the first when `closed`.
fn push_polyline(builder: &mut PathBuilder, points: &[Point], closed: bool) {
    for (i, p) in points.iter().enumerate() {
        if i == 0 {
            builder.move_to(p.x, p.y);
        } else {
            builder.line_to(p.x, p.y);
        }
    }
    if closed {
        builder.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Notation;
    use crate::puzzle::Goal;

    // 1. 车二平五 将5平6 2. 车五进七: the unique mate in two.
    const MATE_IN_TWO: &str = "4k4/4a4/9/9/9/9/9/9/7R1/3K5 w - - 0 1";

    fn sheet(entries: usize) -> Worksheet {
        let position: Position = MATE_IN_TWO.parse().unwrap();
        let line: Vec<Move> = ["h1e1", "e9f9", "e1e8"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        Worksheet {
            title: "第三周作业".into(),
            class: "三年级二班".into(),
            date: String::new(),
            entries: (0..entries)
                .map(|i| Entry {
                    title: format!("习题{}", chinese_title(i)),
                    position: position.clone(),
                    goal: Some(Goal::Mate {
                        moves: 2,
                        checks_only: false,
                    }),
                    hint: (i == 0).then(|| "先弃后取".to_owned()),
                    answer: (i != 1).then(|| line.clone()),
                })
                .collect(),
        }
    }

    /// Distinct titles that do not contain one another ("习题甲" …).
    fn chinese_title(i: usize) -> char {
        ['甲', '乙', '丙', '丁', '戊', '己', '庚', '辛', '壬', '癸'][i]
    }

    fn pages_and_text(bytes: &[u8]) -> Vec<String> {
        let document = lopdf::Document::load_mem(bytes).expect("the PDF parses");
        let pages = document.get_pages();
        pages
            .keys()
            .map(|&n| document.extract_text(&[n]).expect("text extracts"))
            .collect()
    }

    /// The text without the spaces and line breaks a reader puts between runs.
    fn squeezed(text: &str) -> String {
        text.chars().filter(|c| !c.is_whitespace()).collect()
    }

    #[test]
    fn the_pages_hold_the_diagrams_then_the_answers_with_searchable_text() {
        let layout = Layout {
            per_page: 4,
            ..Layout::default()
        };
        let bytes = write(&sheet(5), &layout, &Words::chinese()).unwrap();
        let pages = pages_and_text(&bytes);
        // Five diagrams at four a page, then the answers, four to an A4 page.
        assert_eq!(pages.len(), 4, "{pages:?}");
        let first = squeezed(&pages[0]);
        for wanted in [
            "第三周作业",
            "班级",
            "三年级二班",
            "姓名",
            "1.习题甲",
            "4.习题丁",
            "红先，二步杀",
            "提示：先弃后取",
        ] {
            assert!(first.contains(wanted), "{wanted} not in {first}");
        }
        assert!(!first.contains("习题戊"), "the fifth is on the second page");
        assert!(squeezed(&pages[1]).contains("5.习题戊"));
        let answers = squeezed(&pages[2]);
        let solution = squeezed(&answer_text(
            &MATE_IN_TWO.parse().unwrap(),
            &sheet(1).entries[0].answer.clone().unwrap(),
            Notation::Chinese,
        ));
        assert!(answers.contains("答案"), "{answers}");
        assert!(answers.contains(&solution), "{solution} not in {answers}");
        assert!(answers.contains("车二平五") && answers.contains("车五进七"));
        assert!(
            answers.contains("习题乙红先，二步杀（未解出）"),
            "{answers}"
        );
        assert!(!answers.contains("习题戊"));
        assert!(squeezed(&pages[3]).contains("5.习题戊"));
    }

    #[test]
    fn without_answers_only_the_worksheet_pages_are_made_and_every_layout_counts_right() {
        for per_page in super::super::PER_PAGE {
            let layout = Layout {
                per_page,
                answers: false,
                paper: crate::worksheet::Paper::Letter,
                ..Layout::default()
            };
            let bytes = write(&sheet(10), &layout, &Words::chinese()).unwrap();
            let pages = pages_and_text(&bytes);
            assert_eq!(
                pages.len(),
                10_usize.div_ceil(per_page),
                "{per_page} a page"
            );
            assert!(pages.iter().all(|p| !squeezed(p).contains("答案")));
        }
        let bad = Layout {
            per_page: 5,
            ..Layout::default()
        };
        assert!(matches!(
            write(&sheet(1), &bad, &Words::chinese()),
            Err(PdfError::PerPage(5))
        ));
    }

    #[test]
    fn first_move_hints_are_printed_only_when_asked_for() {
        let words = Words::chinese();
        let mut plain = sheet(2);
        for entry in &mut plain.entries {
            entry.hint = None;
        }
        let text = |sheet: &Worksheet| {
            let layout = Layout {
                answers: false,
                ..Layout::default()
            };
            squeezed(&pages_and_text(&write(sheet, &layout, &words).unwrap()).concat())
        };
        assert!(!text(&plain).contains("提示"), "no hint unless asked");
        let mut hinted = plain.clone();
        super::super::add_hints(&mut hinted.entries, &words);
        let page = text(&hinted);
        // The first entry has an answer starting with the chariot, the second none.
        assert_eq!(page.matches("提示：先走车").count(), 1, "{page}");
    }

    #[test]
    fn the_font_is_embedded_as_a_subset() {
        let bytes = write(&sheet(2), &Layout::default(), &Words::chinese()).unwrap();
        // The whole font is 4.8 MB; the characters used are a few kilobytes of it.
        assert!(bytes.len() < 400_000, "{} bytes", bytes.len());
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("FontFile2") || text.contains("FontFile3"));
    }

    #[test]
    fn a_rendered_page_is_not_blank() {
        let Ok(probe) = std::process::Command::new("pdftoppm").arg("-v").output() else {
            println!("pdftoppm is not installed (poppler-utils): the page is not rendered");
            return;
        };
        let _ = probe;
        let dir = std::env::temp_dir().join(format!("chuhe-worksheet-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pdf = dir.join("sheet.pdf");
        let layout = Layout {
            per_page: 2,
            ..Layout::default()
        };
        std::fs::write(&pdf, write(&sheet(2), &layout, &Words::chinese()).unwrap()).unwrap();
        let status = std::process::Command::new("pdftoppm")
            .args(["-r", "40", "-gray", "-singlefile", "-f", "1", "-l", "1"])
            .arg(&pdf)
            .arg(dir.join("page"))
            .status()
            .unwrap();
        assert!(status.success());
        let picture = std::fs::read(dir.join("page.pgm")).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        // A binary PGM: "P5", width, height, maximum, then one byte a pixel.
        let mut fields = picture.splitn(5, |b| b.is_ascii_whitespace());
        assert_eq!(fields.next(), Some(&b"P5"[..]));
        let number = |f: Option<&[u8]>| -> usize {
            std::str::from_utf8(f.unwrap()).unwrap().parse().unwrap()
        };
        let (width, height) = (number(fields.next()), number(fields.next()));
        let pixels = &picture[picture.len() - width * height..];
        let dark = pixels.iter().filter(|&&v| v < 128).count();
        // Two boards of lines and 2 × 4 pieces, two of them filled black: a few per cent.
        let share = dark as f32 / pixels.len() as f32;
        assert!((0.01..0.5).contains(&share), "{share} of the page is dark");
    }
}

//! A group's pairings and standings as a printable page: the core's sheet, whose CSV (for
//! a spreadsheet) the core writes, drawn here as a PNG image (to print or put on the
//! projector). The image is drawn without a window: epaint lays the text out with the
//! shipped font, and the page's shapes go through the app's one CPU rasteriser
//! ([`raster`]).

use crate::i18n::I18n;
use crate::services::raster;
use crate::state::club::words;
use crate::theme::PAGE;
use chuhe_core::club::{Club, Sheet, Tournament};
use egui::epaint::Shape;
use egui::epaint::text::{FontDefinitions, Fonts, TextOptions};
use egui::{Color32, FontId, Pos2, Rect, Vec2};
use std::path::Path;

/// What the page shows, in the user's language: the core's sheet of the tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Page(Sheet);

impl Page {
    /// The page of `t`, a tournament of `club`.
    pub fn new(club: &Club, t: &Tournament, i18n: &I18n) -> Page {
        Page(Sheet::new(club, t, &|w| words(w, i18n)))
    }
}

impl std::ops::Deref for Page {
    type Target = Sheet;

    fn deref(&self) -> &Sheet {
        &self.0
    }
}

/// Pixels per point on the page: 2 gives print quality (the page is 1600 pixels wide).
const SCALE: f32 = 2.0;
/// The page's width in points.
const PAGE_WIDTH: f32 = 800.0;
const MARGIN: f32 = 40.0;

/// What is drawn on the page, in points.
enum Item {
    Fill(Rect, Color32),
    Text(Pos2, std::sync::Arc<egui::Galley>),
}

/// Lays the page out and draws it: the standings (top three shaded), then the rounds, two
/// side by side when they fit. Columns are as wide as their widest text; the names take
/// what is left.
pub fn render(page: &Page) -> image::RgbaImage {
    // Only the shipped font: the page is the same on every machine.
    let definitions: FontDefinitions = crate::fonts::definitions();
    let mut fonts = Fonts::new(TextOptions::default(), definitions);
    let mut items = Vec::new();
    let mut text = |fonts: &mut Fonts, pos: Pos2, s: &str, size: f32, color: Color32| {
        // Long text (a title, the tie-break note) wraps at the page's right margin.
        let wrap = (PAGE_WIDTH - MARGIN - pos.x).max(40.0);
        let galley = fonts.with_pixels_per_point(SCALE).layout(
            s.to_owned(),
            FontId::proportional(size),
            color,
            wrap,
        );
        let height = galley.size().y;
        items.push(Item::Text(pos, galley));
        height
    };
    let mut y = MARGIN;
    y += text(
        &mut fonts,
        Pos2::new(MARGIN, y),
        &page.title,
        26.0,
        PAGE.ink,
    ) + 6.0;
    y += text(
        &mut fonts,
        Pos2::new(MARGIN, y),
        &page.subtitle,
        15.0,
        PAGE.ink,
    ) + 16.0;

    // Standings.
    let inner = PAGE_WIDTH - 2.0 * MARGIN;
    let mut table: Vec<&[String]> = vec![&page.standings_header];
    table.extend(page.standings.iter().map(|(row, _)| row.as_slice()));
    let widths = column_widths(&mut fonts, &table, 15.0, inner, &[1]);
    let row_h = 26.0;
    let mut fills = Vec::new();
    fills.push(Item::Fill(
        Rect::from_min_size(Pos2::new(MARGIN, y), Vec2::new(inner, row_h)),
        PAGE.head_fill,
    ));
    let mut x = MARGIN;
    for (cell, w) in page.standings_header.iter().zip(&widths) {
        text(
            &mut fonts,
            Pos2::new(x + 4.0, y + 4.0),
            cell,
            14.0,
            PAGE.ink,
        );
        x += w;
    }
    y += row_h;
    for (row, top) in &page.standings {
        if *top {
            fills.push(Item::Fill(
                Rect::from_min_size(Pos2::new(MARGIN, y), Vec2::new(inner, row_h)),
                PAGE.top_fill,
            ));
        }
        let mut x = MARGIN;
        for (cell, w) in row.iter().zip(&widths) {
            text(
                &mut fonts,
                Pos2::new(x + 4.0, y + 4.0),
                cell,
                15.0,
                PAGE.ink,
            );
            x += w;
        }
        fills.push(Item::Fill(
            Rect::from_min_size(Pos2::new(MARGIN, y + row_h - 1.0), Vec2::new(inner, 1.0)),
            PAGE.rule,
        ));
        y += row_h;
    }
    y += 6.0;
    y += text(&mut fonts, Pos2::new(MARGIN, y), &page.note, 12.0, PAGE.ink) + 20.0;

    // Rounds: two side by side, or one to a row when long names need the width.
    let mut table: Vec<&[String]> = vec![&page.pairings_header];
    for round in &page.rounds {
        table.extend(round.rows.iter().map(|r| r.as_slice()));
    }
    let half = (inner - 20.0) / 2.0;
    let natural: f32 = column_widths(&mut fonts, &table, 14.0, 0.0, &[])
        .iter()
        .sum();
    let (per_row, column) = if natural <= half {
        (2, half)
    } else {
        (1, inner)
    };
    let cols = column_widths(&mut fonts, &table, 14.0, column, &[1, 3]);
    for group in page.rounds.chunks(per_row) {
        let top = y;
        let mut bottom = y;
        for (c, round) in group.iter().enumerate() {
            let left = MARGIN + c as f32 * (column + 20.0);
            let mut y = top;
            y += text(
                &mut fonts,
                Pos2::new(left, y),
                &round.heading,
                17.0,
                PAGE.ink,
            ) + 4.0;
            fills.push(Item::Fill(
                Rect::from_min_size(Pos2::new(left, y), Vec2::new(column, 22.0)),
                PAGE.head_fill,
            ));
            let mut x = left;
            for (cell, w) in page.pairings_header.iter().zip(&cols) {
                text(
                    &mut fonts,
                    Pos2::new(x + 3.0, y + 3.0),
                    cell,
                    13.0,
                    PAGE.ink,
                );
                x += w;
            }
            y += 22.0;
            for row in &round.rows {
                let mut x = left;
                for (i, (cell, w)) in row.iter().zip(&cols).enumerate() {
                    let color = if i == 1 { PAGE.red_ink } else { PAGE.ink };
                    text(&mut fonts, Pos2::new(x + 3.0, y + 3.0), cell, 14.0, color);
                    x += w;
                }
                fills.push(Item::Fill(
                    Rect::from_min_size(Pos2::new(left, y + 21.0), Vec2::new(column, 1.0)),
                    PAGE.rule,
                ));
                y += 22.0;
            }
            if let Some(bye) = &round.bye {
                y += text(
                    &mut fonts,
                    Pos2::new(left + 3.0, y + 3.0),
                    bye,
                    14.0,
                    PAGE.ink,
                ) + 6.0;
            }
            bottom = bottom.max(y);
        }
        y = bottom + 18.0;
    }
    let height = y + MARGIN;

    let w = (PAGE_WIDTH * SCALE).round() as u32;
    let h = (height * SCALE).round() as u32;
    let paper = Rect::from_min_size(Pos2::ZERO, Vec2::new(PAGE_WIDTH, height));
    let mut shapes = vec![Shape::rect_filled(paper, 0.0, PAGE.paper)];
    for item in fills.into_iter().chain(items) {
        shapes.push(match item {
            Item::Fill(rect, color) => Shape::rect_filled(rect, 0.0, color),
            Item::Text(pos, galley) => Shape::galley(pos, galley, PAGE.ink),
        });
    }
    raster::paint_shapes(shapes, &fonts, w, h, SCALE)
}

/// The widths of a table's columns: each as wide as its widest cell (at `size`, plus a
/// margin), the room left up to `total` shared among the `stretch` columns.
fn column_widths(
    fonts: &mut Fonts,
    rows: &[&[String]],
    size: f32,
    total: f32,
    stretch: &[usize],
) -> Vec<f32> {
    let n = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut widths = vec![0.0f32; n];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            let galley = fonts.with_pixels_per_point(SCALE).layout_no_wrap(
                cell.clone(),
                FontId::proportional(size),
                PAGE.ink,
            );
            widths[i] = widths[i].max(galley.size().x + 14.0);
        }
    }
    let spare = total - widths.iter().sum::<f32>();
    if spare > 0.0 && !stretch.is_empty() {
        for &i in stretch {
            if let Some(w) = widths.get_mut(i) {
                *w += spare / stretch.len() as f32;
            }
        }
    }
    widths
}

/// Renders the page and saves it as PNG at `path`, atomically.
pub fn write_png(page: &Page, path: &Path) -> std::io::Result<()> {
    raster::save_png(&render(page), path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Language;
    use chuhe_core::club::{Format, GameResult, GradeGroup};

    fn page(language: Language) -> Page {
        let mut club = Club::new("Riverside Primary School Xiangqi Club, Thursday group");
        for name in ["Alice", "Bob", "Chen Jing", "Dmitri", "Eve"] {
            club.add_player(name, GradeGroup::High);
        }
        club.create_tournament(GradeGroup::High, Format::RoundRobin)
            .unwrap();
        let t = club.tournament_mut(GradeGroup::High).unwrap();
        t.set_result(0, 0, Some(GameResult::Draw)).unwrap();
        t.set_result(0, 1, Some(GameResult::RedForfeits)).unwrap();
        let t = club.tournament(GradeGroup::High).unwrap();
        Page::new(&club, t, &I18n::new(language))
    }

    #[test]
    fn the_page_keeps_within_its_margins_in_every_language() {
        for language in Language::ALL {
            let page = page(language);
            let img = render(&page);
            if let Ok(dir) = std::env::var("CHUHE_PAGE_DIR") {
                img.save(format!("{dir}/page-{}.png", language.tag()))
                    .unwrap();
            }
            // Right of the margin (with a little slack for a glyph's overhang) is paper.
            let edge = ((PAGE_WIDTH - MARGIN / 2.0) * SCALE) as u32;
            let ink = (0..img.height())
                .flat_map(|y| (edge..img.width()).map(move |x| (x, y)))
                .filter(|&(x, y)| img.get_pixel(x, y).0 != [255, 255, 255, 255])
                .count();
            assert_eq!(ink, 0, "{language:?}: ink past the right margin");
            // And there is text on it: the title's first line.
            let top = (0..(80.0 * SCALE) as u32)
                .flat_map(|y| (0..img.width()).map(move |x| (x, y)))
                .filter(|&(x, y)| img.get_pixel(x, y).0[0] < 100)
                .count();
            assert!(top > 500, "{language:?}: {top}");
        }
    }
}

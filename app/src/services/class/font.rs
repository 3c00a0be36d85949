//! The student page's fonts: the app's own, cut down to the characters the page shows.
//!
//! The page's own words in the three languages, the board's pieces and labels, the moves'
//! notation, digits and Latin letters come in one font, made once and kept by the
//! browser. What the teacher's board and questions bring beyond those (a comment's
//! characters, a puzzle's title, a student's name) comes in a second font of the same
//! look, "more": it holds every such character the class has been shown so far, and each
//! board and question names its version, so a page fetches a new one only when new
//! characters appear. Nothing is fetched from the internet.

use super::Sharing;
use axum::body::Bytes;
use axum::extract::{Request, State as Shared};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use chuhe_core::Position;
use chuhe_core::diagram::{self, BoardStyle, Diagram, Element, Proportions, web_font};
use std::collections::{BTreeSet, HashSet};
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

/// The characters of the moves' notation in both scripts beyond the pieces' names: the
/// Chinese numerals red's files are counted in, the full-width digits of black's, and
/// the words for the direction and for which of two pieces on a file; and the tick the
/// quiz's chart marks the right moves with.
const NOTATION: &str = "一二三四五六七八九十０１２３４５６７８９进進退平前中后後✓";

/// The most characters the "more" font holds: a long game's comments have a few hundred
/// the page's own font lacks; past this (a script sending names of rare characters, say)
/// they fall back to the device's fonts, so the font stays small for phones (a glyph is
/// about half a kilobyte).
pub(super) const MAX_MORE_GLYPHS: usize = 2000;

/// Every character the page may show from its own text: `page` (the document with its
/// words), the board's labels and pieces in both scripts, the notation, printable ASCII.
pub(super) fn glyphs(page: &str) -> String {
    let mut text = String::from(page);
    text.push_str(NOTATION);
    text.extend((0x20u8..0x7f).map(char::from));
    let start = Diagram::from_position(&Position::startpos());
    for traditional in [false, true] {
        let style = BoardStyle {
            traditional,
            ..BoardStyle::default()
        };
        let mut elements = diagram::board(&style, &Proportions::WOOD);
        elements.extend(diagram::pieces(&start, &style, &Proportions::WOOD, None));
        for element in elements {
            if let Element::Text { text: t, .. } = element {
                text.push_str(&t);
            }
        }
    }
    text
}

/// A font being made, or made: one per version of the "more" characters.
type Made = Arc<OnceCell<Option<Bytes>>>;

/// The characters the class has been shown beyond the page's own, and their font.
pub struct Fonts {
    /// What the page's own font holds.
    own: HashSet<char>,
    more: Mutex<More>,
}

#[derive(Default)]
struct More {
    /// The characters of the "more" font, in order.
    chars: BTreeSet<char>,
    /// Characters the app's font has no glyph for (not looked up again), bounded.
    missing: HashSet<char>,
    /// The name of `chars`' font; empty while there are none.
    version: String,
    /// The latest font made, by version (an older one is not kept: the latest has every
    /// character an older one had).
    made: Option<(String, Made)>,
}

impl Fonts {
    /// The fonts of a page `page`.
    pub fn new(page: &str) -> Fonts {
        Fonts {
            own: glyphs(page).chars().collect(),
            more: Mutex::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, More> {
        self.more.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes in the characters of `texts` that the page's own font lacks, and names the
    /// version of the "more" font that has them (empty when none is needed).
    pub fn cover<'a>(&self, texts: impl IntoIterator<Item = &'a str>) -> String {
        let mut more = self.lock();
        let mut grew = false;
        for c in texts.into_iter().flat_map(str::chars) {
            if c.is_whitespace()
                || c.is_control()
                || self.own.contains(&c)
                || more.chars.contains(&c)
                || more.missing.contains(&c)
                || more.chars.len() >= MAX_MORE_GLYPHS
            {
                continue;
            }
            if web_font::has_glyph(c) {
                more.chars.insert(c);
                grew = true;
            } else if more.missing.len() < 4 * MAX_MORE_GLYPHS {
                more.missing.insert(c);
            }
        }
        if grew {
            more.version = version(&more.chars);
        }
        more.version.clone()
    }

    /// The "more" font as it is now, with its version: made once per version, off the
    /// server's thread, whoever asks first.
    async fn more_font(&self) -> Option<(String, Bytes)> {
        let (version, text, made) = {
            let mut more = self.lock();
            if more.version.is_empty() {
                return None;
            }
            let version = more.version.clone();
            if more.made.as_ref().is_none_or(|(v, _)| *v != version) {
                more.made = Some((version.clone(), Made::default()));
            }
            let made = more.made.as_ref().map(|(_, m)| m.clone())?;
            (version, more.chars.iter().collect::<String>(), made)
        };
        let font = made
            .get_or_init(|| async move {
                tokio::task::spawn_blocking(move || web_font::web_font(&text).ok())
                    .await
                    .ok()
                    .flatten()
                    .map(Bytes::from)
            })
            .await
            .clone()?;
        Some((version, font))
    }
}

/// A name for a set of characters that is the same for the same set in any run (so a
/// browser's cached font is never taken for another): its FNV-1a hash.
fn version(chars: &BTreeSet<char>) -> String {
    let hash = chars.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &c| {
        u64::from(c).to_le_bytes().iter().fold(hash, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    });
    format!("{hash:016x}")
}

/// `GET /font`: the page's own font, made on the first request (off the server's thread,
/// so no one waits for the cutting but the first page); `GET /font?more=VERSION`: the
/// "more" font.
pub(super) async fn page_font(Shared(shared): Shared<Sharing>, request: Request) -> Response {
    let asked = request
        .uri()
        .query()
        .and_then(|q| q.split('&').find_map(|pair| pair.strip_prefix("more=")));
    if let Some(asked) = asked {
        return match shared.fonts.more_font().await {
            // Named by its characters, the font never changes: kept as long as the
            // browser likes. A page asking for an older version gets the newer font (it
            // has every character the older had) but must not keep it under that name.
            Some((version, font)) => {
                let keep = if version == asked {
                    KEEP
                } else {
                    "no-store, no-cache"
                };
                font_response(font, keep)
            }
            None => StatusCode::NOT_FOUND.into_response(),
        };
    }
    static FONT: OnceCell<Option<Bytes>> = OnceCell::const_new();
    let font = FONT
        .get_or_init(|| async {
            let text = glyphs(&shared.page.0);
            tokio::task::spawn_blocking(move || web_font::web_font(&text).ok())
                .await
                .ok()
                .flatten()
                .map(Bytes::from)
        })
        .await;
    match font {
        // The same for the whole class: a page that reloads need not fetch it again.
        Some(font) => font_response(font.clone(), KEEP),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// How long a browser may keep a font: a day, for this browser only.
const KEEP: &str = "private, max-age=86400";

fn font_response(font: Bytes, keep: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, "font/ttf"),
            (header::CACHE_CONTROL, keep),
        ],
        font,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::super::test_client::*;
    use super::super::{ClassBoard, ClassMove};
    use super::*;
    use chuhe_core::diagram::web_font::characters;

    #[test]
    fn the_glyphs_cover_the_pieces_the_labels_and_the_words() {
        let text = glyphs("课堂 課堂 Class");
        for c in "帥仕相傌俥炮兵將士象馬車砲卒帅马车将楚河汉界漢課课Cl平进退１九".chars()
        {
            assert!(text.contains(c), "{c}");
        }
    }

    #[test]
    fn the_page_font_is_served_with_the_code_only() {
        let server = server();
        let (status, head, body) = get_bytes(&server, &format!("/font?code={CODE}"));
        assert_eq!(status, 200);
        let head = head.to_ascii_lowercase();
        assert!(head.contains("content-type: font/ttf"), "{head}");
        assert_eq!(body[..4], [0, 1, 0, 0], "a TrueType file");
        assert!(body.windows(4).any(|w| w == b"cmap"));
        // A sliver of the app's 4.8 MB font.
        assert!(body.len() < 1_000_000, "{} bytes", body.len());
        assert_eq!(get(&server, "/font").0, 401);
        let (_, page) = get(&server, &format!("/?code={CODE}"));
        assert!(page.contains("new FontFace") && page.contains("/font?code="));
    }

    /// A board whose only move has `comment`.
    fn commented(comment: &str) -> ClassBoard {
        ClassBoard {
            fen: "fen".to_owned(),
            line: vec![ClassMove {
                iccs: "h2e2".to_owned(),
                text: "炮二平五".to_owned(),
                comment: comment.to_owned(),
            }],
            ply: 1,
            ..ClassBoard::default()
        }
    }

    #[test]
    fn a_comments_characters_come_in_a_second_font_named_by_its_characters() {
        let server = server();
        let mut page = follow(&server, "/events");
        // Publishes a board with `comment`: the font version the page is told.
        let mut shown = |comment: &str| -> String {
            server.publish(commented(comment));
            loop {
                let board = page.next("board").unwrap();
                if board["line"][0]["comment"] == comment {
                    return board["font"].as_str().unwrap().to_owned();
                }
            }
        };
        let more = |version: &str| get_bytes(&server, &format!("/font?code={CODE}&more={version}"));
        // Only the page's own characters: no second font.
        assert_eq!(shown("Red to move 炮二平五"), "");
        assert_eq!(more("x").0, 404);
        // Rare characters in a comment: their font, named in the board.
        let first = shown("鑫淼 and 炮");
        assert_eq!(first.len(), 16, "{first}");
        let (status, head, font) = more(&first);
        assert_eq!(status, 200);
        assert!(head.contains(KEEP), "{head}");
        assert_eq!(characters(&font).unwrap(), ['淼', '鑫']);
        // Nothing new: the same font.
        assert_eq!(shown("淼"), first);
        // Another: a font with both, under a new name; the old name now gets the new
        // font, not to be kept under that name.
        let second = shown("鹅");
        assert_ne!(second, first);
        assert_eq!(characters(&more(&second).2).unwrap(), ['淼', '鑫', '鹅']);
        let (_, head, font) = more(&first);
        assert!(head.contains("no-store, no-cache"), "{head}");
        assert_eq!(characters(&font).unwrap().len(), 3);
    }

    #[test]
    fn the_second_font_names_the_same_characters_alike_and_stays_bounded() {
        let fonts = Fonts::new("page");
        let again = Fonts::new("page");
        assert_eq!(fonts.cover(["鑫"]), again.cover(["鑫"]));
        assert_eq!(
            fonts.cover(["\u{E000}\n "]),
            fonts.cover(["鑫"]),
            "no glyph, no change"
        );
        // Thousands of different characters (a script answering under rare names): the
        // font takes the first of them up to its cap.
        let many: String = ('\u{4E00}'..'\u{9FA5}').collect();
        fonts.cover([many.as_str()]);
        assert_eq!(fonts.lock().chars.len(), MAX_MORE_GLYPHS);
    }
}

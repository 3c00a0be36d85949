//! The student page's font: the app's own, cut down to the characters the page shows (its
//! words in the three languages, the board's pieces and labels, the moves' notation,
//! digits and Latin letters), served once and kept by the browser, so the page looks as
//! the app does with nothing fetched from the internet. A comment's rarer characters fall
//! back to the device's own fonts.

use super::Sharing;
use axum::body::Bytes;
use axum::extract::State as Shared;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use chuhe_core::Position;
use chuhe_core::diagram::{self, BoardStyle, Diagram, Element, Proportions};

/// The characters of the moves' notation in both scripts beyond the pieces' names: the
/// Chinese numerals red's files are counted in, the full-width digits of black's, and
/// the words for the direction and for which of two pieces on a file.
const NOTATION: &str = "一二三四五六七八九十０１２３４５６７８９进進退平前中后後";

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

/// `GET /font`: the page's font, made on the first request (off the server's thread, so
/// no one waits for the cutting but the first page).
pub(super) async fn page_font(Shared(shared): Shared<Sharing>) -> Response {
    static FONT: tokio::sync::OnceCell<Option<Bytes>> = tokio::sync::OnceCell::const_new();
    let font = FONT
        .get_or_init(|| async {
            let text = glyphs(&shared.page.0);
            tokio::task::spawn_blocking(move || diagram::web_font::web_font(&text).ok())
                .await
                .ok()
                .flatten()
                .map(Bytes::from)
        })
        .await;
    match font {
        Some(font) => (
            [
                (header::CONTENT_TYPE, "font/ttf"),
                // The same for the whole class: a page that reloads need not fetch it again.
                (header::CACHE_CONTROL, "private, max-age=86400"),
            ],
            font.clone(),
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::ClassServer;
    use super::*;
    use crate::i18n::{I18n, Language};
    use std::io::{Read, Write};
    use std::net::{Ipv4Addr, TcpStream};

    const CODE: &str = "1357";

    /// `GET target`: the status, the head and the body.
    fn get(server: &ClassServer, target: &str) -> (u16, String, Vec<u8>) {
        let mut stream = TcpStream::connect(server.address()).unwrap();
        write!(
            stream,
            "GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).unwrap();
        let split = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8_lossy(&answer[..split]).into_owned();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, head, answer[split + 4..].to_vec())
    }

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
        let address = (Ipv4Addr::LOCALHOST, 0).into();
        let server = ClassServer::start(address, CODE, &I18n::new(Language::En), None).unwrap();
        let (status, head, body) = get(&server, &format!("/font?code={CODE}"));
        assert_eq!(status, 200);
        let head = head.to_ascii_lowercase();
        assert!(head.contains("content-type: font/ttf"), "{head}");
        assert_eq!(body[..4], [0, 1, 0, 0], "a TrueType file");
        assert!(body.windows(4).any(|w| w == b"cmap"));
        // A sliver of the app's 4.8 MB font.
        assert!(body.len() < 1_000_000, "{} bytes", body.len());
        assert_eq!(get(&server, "/font").0, 401);
        let (_, _, page) = get(&server, &format!("/?code={CODE}"));
        let page = String::from_utf8(page).unwrap();
        assert!(page.contains("new FontFace") && page.contains("/font?code="));
    }
}

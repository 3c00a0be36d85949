//! The shipped font covers what Chuhe shows: the harness panics on any character that no
//! installed font has, and only the app's own font is installed.

use chuhe_core::{Color, Piece, PieceKind};
use egui::FontFamily;
use egui_kittest::Harness;

/// The board's inscriptions in both scripts, numerals, and sample comment text in
/// simplified and traditional Chinese with Latin and full-width punctuation.
const SAMPLES: &[&str] = &[
    "楚河 汉界 漢界 一二三四五六七八九 123456789",
    "炮二平五，马8进7；车一平二！前车进一？(h2e2) «Éloge» — “当头炮”",
    "中炮進三兵對屏風馬：紅方佔優。",
];

#[test]
fn the_app_font_comes_first_for_all_text() {
    let definitions = chuhe::fonts::definitions();
    for family in [FontFamily::Proportional, FontFamily::Monospace] {
        assert_eq!(
            definitions.families[&family].first().map(String::as_str),
            Some(chuhe::fonts::FONT_NAME)
        );
    }
    assert_eq!(definitions.font_data.len(), 1, "no other font is bundled");
}

/// Every piece's character in both scripts, as the core names them (俥 and 傌 are in
/// neither GB2312 nor Big5 level 1).
fn piece_characters() -> String {
    let kinds = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];
    [Color::Red, Color::Black]
        .into_iter()
        .flat_map(|color| kinds.map(|kind| Piece { color, kind }))
        .flat_map(|piece| [piece.hanzi(), piece.hanzi_traditional()])
        .collect()
}

#[test]
fn the_app_font_has_every_character_the_app_shows() {
    let pieces = piece_characters();
    assert_eq!(pieces.chars().count(), 28);
    let mut harness = Harness::builder()
        .with_context_setup(chuhe::fonts::install)
        .build_ui(|ui| {
            ui.label(&pieces);
            for sample in SAMPLES {
                ui.label(*sample);
                ui.monospace(*sample);
            }
        });
    harness.run();
}

/// Every character of the built-in library: the opening tree's names and notes in the
/// three languages, ECCO's names, and the checkmate patterns' texts.
fn library_characters() -> String {
    let book = chuhe_core::library::openings::builtin().expect("the opening tree loads");
    let table = chuhe_core::library::openings::ecco::builtin().expect("the ECCO table loads");
    let patterns = chuhe_core::library::patterns::export().expect("the patterns load");
    let mut text = String::new();
    for node in &book.nodes {
        for part in [
            &node.names.zh_cn,
            &node.names.zh_tw,
            &node.names.en,
            &node.note.zh,
            &node.note.zh_tw,
            &node.note.en,
        ] {
            text.push_str(part);
        }
    }
    for entry in &table.entries {
        text.push_str(&entry.opening);
        text.push_str(&entry.variation);
    }
    // The patterns' texts as RON, which writes strings unescaped.
    text.push_str(&ron::to_string(&patterns).expect("the patterns serialise"));
    let mut chars: Vec<char> = text.chars().filter(|c| !c.is_control()).collect();
    chars.sort_unstable();
    chars.dedup();
    chars.into_iter().collect()
}

#[test]
fn the_app_font_has_every_character_of_the_library() {
    let chars = library_characters();
    // The traditional notes are there, so their characters are checked too.
    assert!(chars.contains('與') && chars.contains('馬'), "{chars}");
    let mut harness = Harness::builder()
        .with_context_setup(chuhe::fonts::install)
        .build_ui(|ui| {
            ui.label(&chars);
        });
    harness.run();
}

//! The opening browser, driven as a user does: open it from the View menu, search by name,
//! click a position to put its line on the board, step back and ask which opening it is.

use crate::common;

use chuhe::ChuheApp;
use chuhe::services::storage::Storage;
use chuhe_core::{Move, PieceKind, Square};
use egui::{Key, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

fn open(name: &str) -> Harness<'static, ChuheApp> {
    let dir = std::env::temp_dir().join(format!("chuhe-openings-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1300.0, 850.0))
        .build_eframe(move |cc| ChuheApp::with_storage(cc, Storage::in_dir(dir.clone())));
    harness.run();
    harness
}

fn main_line(harness: &Harness<'_, ChuheApp>) -> Vec<String> {
    let record = &harness.state().state.study.record;
    record
        .main_line_moves()
        .iter()
        .map(Move::to_string)
        .collect()
}

#[test]
fn the_browser_searches_puts_a_line_on_the_board_and_names_the_position() {
    let mut harness = open("browse");
    harness.get_by_label("视图").click();
    harness.run();
    harness.get_by_label("开局库").click();
    harness.run();
    assert!(harness.state().state.openings.open);
    // The tree is there, from its root.
    assert!(harness.get_all_by_label("开局").next().is_some());
    assert!(
        harness
            .get_all_by_label("当头炮  B00 中炮局")
            .next()
            .is_some()
    );

    // Search in English finds the Chinese-named node; click it.
    let search = harness.get_by_label("搜索");
    search.focus();
    search.type_text("screen horses");
    harness.run();
    assert_eq!(harness.state().state.openings.query, "screen horses");
    assert!(
        harness.query_by_label("当头炮  B00 中炮局").is_none(),
        "only matches are listed"
    );
    harness
        .get_all_by_label("屏风马  C00 中炮对屏风马")
        .next()
        .expect("a match")
        .click();
    harness.run();

    // The line is on the board: 炮二平五 马8进7 马二进三 马2进3, at its end, annotated.
    assert_eq!(main_line(&harness), ["h2e2", "h9g7", "h0g2", "b9c7"]);
    let state = &harness.state().state;
    assert_eq!(state.study.record.ply(state.study.cursor), 4);
    let cannon = state.position().piece_at("e2".parse::<Square>().unwrap());
    assert_eq!(cannon.map(|p| p.kind), Some(PieceKind::Cannon));
    let comment = &state.study.record.annotation(state.study.cursor).comment;
    assert!(comment.starts_with("屏风马："), "{comment}");
    assert_eq!(state.study.record.headers().get("ECCO"), Some("C00"));
    // The header area names it.
    harness.get_by_label("C00 中炮对屏风马 · 屏风马");

    // One move back: which opening is this? The browser picks 中炮对进左马 (via 炮二平五
    // 马8进7 马二进三, named by its first two plies).
    harness.key_press(Key::ArrowLeft);
    harness.run();
    harness.get_by_label("这是什么开局？").click();
    harness.run();
    let state = &harness.state().state;
    let book = chuhe_core::library::openings::builtin().unwrap();
    let picked = state.openings.selected.expect("a position is chosen");
    assert_eq!(book.nodes[picked].names.zh_cn, "中炮对进左马");
    assert_eq!(state.study.record.ply(state.study.cursor), 3);
}

#[test]
fn a_set_up_position_is_no_opening_and_the_user_is_told() {
    let mut harness = open("setup");
    let start: chuhe_core::Position = "4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1".parse().unwrap();
    harness
        .state_mut()
        .state
        .replace_record(chuhe_core::record::Record::new(start), None);
    harness.run();
    harness.get_by_label("视图").click();
    harness.run();
    harness.get_by_label("开局库").click();
    harness.run();
    harness.get_by_label("这是什么开局？").click();
    harness.run();
    assert_eq!(harness.state().state.openings.selected, None);
    harness.get_by_label("这个局面不在开局库中。");
}

#[test]
fn in_traditional_chinese_the_browser_finds_simplified_names_and_shows_traditional_notes() {
    let settings = chuhe::settings::Settings {
        language: chuhe::i18n::Language::ZhTw,
        ..Default::default()
    };
    let mut harness = common::open_with_settings(&common::temp_dir("openings", "zh-tw"), &settings);
    harness.get_by_label("檢視").click();
    harness.run();
    harness.get_by_label("開局庫").click();
    harness.run();
    // A query in simplified characters, mixed with traditional ones, finds the node.
    let search = harness.get_by_label("搜尋");
    search.focus();
    search.type_text("屏风馬");
    harness.run();
    harness
        .get_all_by_label("屏風馬  C00 中炮对屏风马")
        .next()
        .expect("a match")
        .click();
    harness.run();
    let book = chuhe_core::library::openings::builtin().unwrap();
    let node = &book.nodes[harness.state().state.openings.selected.expect("chosen")];
    assert_eq!(node.names.zh_cn, "屏风马");
    // The note shown is the traditional text, not the simplified one.
    assert_ne!(node.note.zh_tw, node.note.zh);
    harness.get_by_label(&node.note.zh_tw);
    assert!(harness.query_by_label(&node.note.zh).is_none());
}

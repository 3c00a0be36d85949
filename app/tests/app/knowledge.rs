//! The knowledge reference, driven like a user does: open it from the menu bar, open an
//! entry and step its board diagram, put it on the main board, switch the board-lines
//! overlay on and off, and search across the reference, the openings and the patterns.

use crate::common;

use chuhe::ChuheApp;
use chuhe_core::knowledge;
use egui::{Key, Shape};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

/// Every text the last frame painted (labels, and the board's painted names).
fn painted_texts(harness: &Harness<'_, ChuheApp>) -> Vec<String> {
    fn collect(shape: &Shape, out: &mut Vec<String>) {
        match shape {
            Shape::Text(text) => out.push(text.galley.text().to_owned()),
            Shape::Vec(shapes) => shapes.iter().for_each(|s| collect(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &harness.output().shapes {
        collect(&clipped.shape, &mut out);
    }
    out
}

/// Types `query` into the reference's search box.
fn search(harness: &mut Harness<'static, ChuheApp>, query: &str) {
    let field = harness.get_by_label("搜索知识");
    field.focus();
    field.type_text(query);
    harness.run_ok();
    assert_eq!(harness.state().state.knowledge.query, query);
}

fn open_reference(name: &str) -> Harness<'static, ChuheApp> {
    let dir = common::temp_dir("knowledge", name);
    let mut harness = common::open_in(&dir);
    harness.get_by_label("知识").click();
    harness.run_ok();
    assert!(harness.state().state.knowledge.open);
    harness.get_by_label("象棋知识");
    harness
}

#[test]
fn an_entry_shows_its_diagram_steps_its_line_and_goes_on_the_main_board() {
    let mut harness = open_reference("entry");
    // The rules are open in the index; the horse's entry is one of them.
    harness
        .query_all_by_label("马的走法")
        .next()
        .unwrap()
        .click();
    harness.run_ok();
    let view = &harness.state().state.knowledge;
    assert_eq!(view.entry.as_deref(), Some("rule-horse"));
    assert_eq!(view.step, 0);
    // Its text and its caption are shown, and the line's moves under the board.
    harness.get_by_label_contains("蹩马腿");
    harness.get_by_label("兵蹩住马腿，马不能向上跳；横向的两条路仍然通。");
    harness.get_by_label("马五进三");
    harness.get_by_label("▶").click();
    harness.run_ok();
    assert_eq!(harness.state().state.knowledge.step, 1);
    harness.get_by_label("第 1 / 3 步");
    harness.get_by_label("▶▶").click();
    harness.run_ok();
    assert_eq!(harness.state().state.knowledge.step, 3);

    // Back one move, then onto the main board: the diagram's position with its line,
    // the cursor where the small board was.
    harness.get_by_label("◀").click();
    harness.run_ok();
    harness.get_by_label("摆到主棋盘").click();
    harness.run_ok();
    let (_, entry) = knowledge::entry("rule-horse").unwrap();
    let diagram = &entry.diagrams[0];
    let state = &harness.state().state;
    assert_eq!(state.study.record.start().to_string(), diagram.fen);
    assert_eq!(
        state.study.record.main_line_moves().len(),
        diagram.line.len()
    );
    assert_eq!(state.study.record.ply(state.study.cursor), 2);
    let expected = &diagram.positions()[2];
    assert_eq!(state.position().to_string(), expected.to_string());
}

#[test]
fn a_repetition_example_shows_its_ruling() {
    let mut harness = open_reference("ruling");
    harness
        .query_all_by_label("棋例：长将判负")
        .next()
        .unwrap()
        .click();
    harness.run_ok();
    harness.get_by_label("判定：红方长将，黑方允许着法——黑胜（红方不变判负）");
}

#[test]
fn the_board_lines_overlay_switches_on_and_off() {
    let dir = common::temp_dir("knowledge", "overlay");
    let mut harness = common::open_in(&dir);
    let names = [
        "中线",
        "肋道",
        "边线",
        "河界线",
        "巡河",
        "骑河",
        "兵林线",
        "宫顶线",
        "底线",
    ];
    let texts = painted_texts(&harness);
    for name in names {
        assert!(
            !texts.iter().any(|t| t == name),
            "{name} before the overlay"
        );
    }
    assert!(
        texts.iter().any(|t| t == "楚"),
        "the river's inscription is there"
    );

    // From the View menu.
    harness.get_by_label("视图").click();
    harness.run_ok();
    harness.get_by_label_contains("棋盘线路标注").click();
    harness.run_ok();
    assert!(harness.state().state.knowledge.board_lines);
    let texts = painted_texts(&harness);
    for name in names {
        assert!(
            texts.iter().any(|t| t == name),
            "{name} is not on the board"
        );
    }
    // 位标 of every point: a0 is Red's file 9, rank 1; i9 is file 1, rank 10 written 0.
    for point in ["91", "10", "55", "56"] {
        assert!(texts.iter().any(|t| t == point), "位标 {point} is missing");
    }

    // And off again with its key.
    harness.key_press(Key::Escape);
    harness.run_ok();
    common::key(&mut harness, Key::L);
    assert!(!harness.state().state.knowledge.board_lines);
    let texts = painted_texts(&harness);
    assert!(!texts.iter().any(|t| t == "宫顶线"));
    assert!(texts.iter().any(|t| t == "楚"));
}

#[test]
fn the_search_finds_knowledge_openings_and_patterns_in_any_script() {
    let mut harness = open_reference("search");
    search(&mut harness, "马后炮");
    harness.run_ok();
    // The pattern and the tactic that uses it.
    harness.get_by_label("[杀法]");
    harness.get_by_label("马后炮杀").click();
    harness.run_ok();
    let patterns = &harness.state().state.patterns;
    assert!(patterns.open);
    assert_eq!(patterns.selected, Some((9, 0)));

    // A traditional query finds the simplified opening name, which opens its browser.
    harness.get_by_label("清除").click();
    harness.run_ok();
    search(&mut harness, "當頭炮");
    harness.run_ok();
    harness.get_by_label("当头炮").click();
    harness.run_ok();
    let book = chuhe_core::library::openings::builtin().unwrap();
    let openings = &harness.state().state.openings;
    assert!(openings.open);
    let chosen = openings.selected.expect("an opening chosen");
    assert_eq!(book.nodes[chosen].names.zh_cn, "当头炮");

    // An English query finds a knowledge entry; its result opens it.
    harness.get_by_label("清除").click();
    harness.run_ok();
    search(&mut harness, "discovered check");
    harness.get_by_label("闪将").click();
    harness.run_ok();
    let view = &harness.state().state.knowledge;
    assert_eq!(view.entry.as_deref(), Some("tactic-discovered-check"));
    assert!(view.query.is_empty());
}

/// Every character of the reference, in all three languages, is in the app's font: the
/// harness panics on a character no installed font has.
#[test]
fn the_app_font_has_every_character_of_the_reference() {
    let mut all = String::new();
    for category in knowledge::builtin().unwrap() {
        for entry in &category.entries {
            let n = &entry.names;
            let t = &entry.text;
            for s in [&n.zh_cn, &n.zh_tw, &n.en, &t.zh, &t.zh_tw, &t.en] {
                all.push_str(s);
            }
            for item in &entry.items {
                let s = &item.saying;
                all.push_str(&format!("{}{}{}", s.zh, s.zh_tw, s.en));
                if let Some(m) = &item.meaning {
                    all.push_str(&format!("{}{}{}", m.zh, m.zh_tw, m.en));
                }
            }
            for d in &entry.diagrams {
                if let Some(c) = &d.caption {
                    all.push_str(&format!("{}{}{}", c.zh, c.zh_tw, c.en));
                }
            }
        }
    }
    let mut harness = Harness::builder()
        .with_context_setup(chuhe::fonts::install)
        .build_ui(|ui| {
            ui.label(&all);
        });
    harness.run();
}

/// A click on the window over the main board reaches the window, not the board.
#[test]
fn clicks_on_the_window_do_not_reach_the_board_under_it() {
    let mut harness = open_reference("clicks");
    let rect = harness
        .query_all_by_label("车的走法")
        .next()
        .unwrap()
        .rect();
    let pos = rect.center();
    harness.event(egui::Event::PointerMoved(pos));
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        });
    }
    harness.step();
    harness.run_ok();
    let state = &harness.state().state;
    assert_eq!(state.knowledge.entry.as_deref(), Some("rule-rook"));
    assert!(state.notice.is_none() && state.study.selected.is_none());
}

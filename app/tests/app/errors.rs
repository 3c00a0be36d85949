//! Errors reach the user in the interface's language: a broken puzzle file in the puzzle
//! folder, a diagram or a club that cannot be written, a FEN that does not read. Each is
//! shown in Chinese with where it went wrong, never as the code's English.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::*;
use chuhe::state::export::ExportOptions;
use common::{open_in, temp_dir, wait_for};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use std::time::Duration;

fn apply(harness: &mut Harness<'_, ChuheApp>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
    harness.run();
}

/// The words of ASCII letters in `text` once `values` (file names, quoted text) are taken
/// out: English inside a Chinese message.
fn english_words(text: &str, values: &[&str]) -> Vec<String> {
    let mut rest = text.to_owned();
    for value in values {
        rest = rest.replace(value, " ");
    }
    rest.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() > 1 && *w != "FEN")
        .map(str::to_owned)
        .collect()
}

/// The text of the one label that contains `part`.
fn label_with(harness: &Harness<'_, ChuheApp>, part: &str) -> String {
    let node = harness.get_by_label_contains(part).accesskit_node();
    node.value().or_else(|| node.label()).unwrap_or_default()
}

#[test]
fn a_broken_puzzle_file_is_listed_in_chinese_with_its_line() {
    let dir = temp_dir("errors", "puzzle");
    let set = dir.join("puzzles").join("我的题");
    std::fs::create_dir_all(&set).unwrap();
    std::fs::write(
        set.join("good.ron"),
        "(id: \"good\", fen: \"3k5/9/9/9/9/9/9/9/4R4/4K4 w\", goal: Win)",
    )
    .unwrap();
    let file = set.join("bad.ron");
    std::fs::write(
        &file,
        "(\n  id: \"bad\",\n  fen: \"3k5/9/9/9/9/9/9/9/9/4K4 w\",\n  goal: Winn,\n)",
    )
    .unwrap();
    let mut harness = open_in(&dir);
    apply(&mut harness, Action::Puzzle(PuzzleAction::ToggleBrowser));
    let text = label_with(&harness, "第 4 行第");
    let name = file.display().to_string();
    assert!(
        text.starts_with(&format!("{name}：题目 #1：第 4 行第 ")),
        "{text}"
    );
    assert!(text.ends_with("「Winn」不是允许的取值"), "{text}");
    assert!(english_words(&text, &[&name, "Winn"]).is_empty(), "{text}");
    // The good puzzle of the same folder was read all the same.
    let mine = harness
        .state()
        .state
        .puzzles
        .sets
        .iter()
        .find(|s| s.dir.as_deref() == Some(set.as_path()))
        .expect("the user's set");
    assert_eq!(mine.set.puzzles.len(), 1);
}

#[test]
fn a_diagram_that_cannot_be_written_says_why_in_chinese() {
    let dir = temp_dir("errors", "export");
    // A file where the path wants a folder: not writable even for root.
    std::fs::write(dir.join("a-file"), "").unwrap();
    let path = dir.join("a-file").join("diagram.png");
    let mut harness = open_in(&dir);
    apply(
        &mut harness,
        Action::Export(ExportAction::Png(
            path.clone(),
            ExportOptions {
                size: 320,
                ..ExportOptions::default()
            },
        )),
    );
    wait_for(&mut harness, Duration::from_secs(120), |app| {
        app.state
            .notice
            .as_ref()
            .is_some_and(|n| format!("{n:?}").contains("export-failed"))
    });
    harness.run();
    let text = label_with(&harness, "棋图导出失败");
    let name = path.display().to_string();
    assert_eq!(
        text,
        format!("棋图导出失败：{name}：已有同名的文件或文件夹")
    );
    assert!(english_words(&text, &[&name]).is_empty(), "{text}");
}

#[test]
fn a_club_that_cannot_be_saved_says_why_in_chinese() {
    let dir = temp_dir("errors", "club");
    let mut harness = open_in(&dir);
    apply(&mut harness, Action::Club(ClubAction::Toggle));
    harness.get_by_label("新俱乐部").click();
    harness.run();
    harness.get_by_label("新俱乐部").type_text("象棋社");
    harness.run();
    harness.get_by_label("创建俱乐部").click();
    harness.run();
    let path = harness
        .state()
        .state
        .club
        .current
        .as_ref()
        .expect("the club made")
        .path
        .clone();
    // A folder now stands where the club's file was: the next save cannot replace it.
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    harness.get_by_label("棋手姓名").click();
    harness.run();
    harness.get_by_label("棋手姓名").type_text("王小明");
    harness.run();
    harness.get_by_label("添加棋手").click();
    harness.run();
    // Said in the club's window and in the status bar.
    let mut texts: Vec<String> = harness
        .get_all_by_label_contains("无法读写俱乐部文件")
        .map(|node| {
            let node = node.accesskit_node();
            node.value().or_else(|| node.label()).unwrap_or_default()
        })
        .collect();
    texts.sort();
    assert_eq!(
        texts,
        [
            "无法保存：无法读写俱乐部文件：这是文件夹，不是文件",
            "无法读写俱乐部文件：这是文件夹，不是文件",
        ]
    );
}

#[test]
fn a_fen_that_does_not_read_is_explained_in_chinese() {
    let dir = temp_dir("errors", "fen");
    let mut harness = open_in(&dir);
    apply(&mut harness, Action::Editor(EditorAction::Open));
    apply(
        &mut harness,
        Action::Editor(EditorAction::ApplyFen("3k5/9/9/x".into())),
    );
    let text = label_with(&harness, "无法读取此 FEN");
    assert_eq!(
        text,
        "无法读取此 FEN：第 9 个字符处：「x」不是棋子字母、数字或「/」"
    );
}

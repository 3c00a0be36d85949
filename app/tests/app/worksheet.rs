//! Printing a worksheet: the File menu's dialog, its choices, and the PDF written from the
//! chosen positions (with the solver's answer for the board's mate).

use crate::common;

use chuhe::actions::*;
use chuhe::state::worksheet::WorksheetSource;
use common::{open_in, temp_dir, wait_for};
use egui_kittest::kittest::Queryable as _;
use std::time::Duration;

// 1. 车二平五 将5平6 2. 车五进七: the unique mate in two.
const MATE_IN_TWO: &str = "4k4/4a4/9/9/9/9/9/9/7R1/3K5 w - - 0 1";

#[test]
fn the_dialog_sets_the_choices_and_the_board_is_printed_with_its_answer() {
    let dir = temp_dir("worksheet", "dialog");
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(
        &ctx,
        Action::File(FileAction::Paste(MATE_IN_TWO.to_owned())),
    );
    harness.run_ok();

    harness.get_by_label("文件").click();
    harness.run_ok();
    harness.get_by_label("打印习题纸（PDF）…").click();
    harness.run_ok();
    let options = harness.state().state.worksheet_dialog.clone().unwrap();
    assert_eq!(options.source, WorksheetSource::Board);
    assert_eq!(options.title, "象棋习题");
    harness.get_by_label("习题纸");
    // Four diagrams a page, in colour, without answers: each choice is one click.
    harness.get_by_label("4").click();
    harness.run_ok();
    harness.get_by_label("黑白打印").click();
    harness.run_ok();
    harness.get_by_label("附答案页").click();
    harness.run_ok();
    let options = harness.state().state.worksheet_dialog.clone().unwrap();
    assert_eq!(options.per_page, 4);
    assert!(!options.black_and_white && !options.answers);
    // Cancel closes it.
    harness.get_by_label("取消").click();
    harness.run_ok();
    assert!(harness.state().state.worksheet_dialog.is_none());

    // The file dialog is the system's; the test gives the path it would return.
    let path = dir.join("worksheet.pdf");
    let options = chuhe::state::worksheet::WorksheetOptions {
        answers: true,
        ..options
    };
    harness.state_mut().apply(
        &ctx,
        Action::Worksheet(WorksheetAction::Write(path.clone(), options)),
    );
    wait_for(&mut harness, Duration::from_secs(120), |app| {
        app.state
            .notice
            .as_ref()
            .is_some_and(|n| format!("{n:?}").contains("worksheet-done"))
    });
    let bytes = std::fs::read(&path).expect("a PDF was written");
    assert!(bytes.starts_with(b"%PDF-"));
    // One diagram page and one answer page: the board's mate was solved.
    let document = lopdf::Document::load_mem(&bytes).expect("the PDF parses");
    let pages: Vec<String> = document
        .get_pages()
        .keys()
        .map(|&n| {
            let text = document.extract_text(&[n]).expect("text extracts");
            text.chars().filter(|c| !c.is_whitespace()).collect()
        })
        .collect();
    assert_eq!(pages.len(), 2, "{pages:?}");
    assert!(pages[0].contains("象棋习题") && pages[0].contains("红先，二步杀"));
    assert!(pages[1].contains("车二平五"), "{}", pages[1]);
}

/// Opens the worksheet dialog from the File menu.
fn open_dialog(harness: &mut egui_kittest::Harness<'_, chuhe::ChuheApp>) {
    harness.get_by_label("文件").click();
    harness.run_ok();
    harness.get_by_label("打印习题纸（PDF）…").click();
    harness.run_ok();
}

/// Clears the field labelled `label` and types `text` into it.
fn retype(harness: &mut egui_kittest::Harness<'_, chuhe::ChuheApp>, label: &str, text: &str) {
    harness.get_by_label(label).focus();
    harness.run_ok();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.key_press(egui::Key::Backspace);
    harness.run_ok();
    harness.get_by_label(label).type_text(text);
    harness.run_ok();
}

#[test]
fn the_dialog_offers_the_class_title_and_layout_of_the_last_worksheet_saved() {
    let dir = temp_dir("worksheet", "remembered");
    let mut harness = open_in(&dir);
    harness.state_mut().services.file_chooser =
        chuhe::services::file_chooser::FileChooser::in_app().with_documents(dir.clone());
    open_dialog(&mut harness);
    retype(&mut harness, "标题：", "残局练习");
    retype(&mut harness, "班级", "三年级二班");
    // The date as typed (its label is the headers' field's too).
    let dated = chuhe::state::worksheet::WorksheetOptions {
        date: "5月1日".into(),
        ..harness.state().state.worksheet_dialog.clone().unwrap()
    };
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(
        &ctx,
        Action::Worksheet(WorksheetAction::Dialog(Some(dated))),
    );
    harness.run_ok();
    harness.get_by_label("Letter").click();
    harness.run_ok();
    harness.get_by_label("4").click();
    harness.run_ok();
    harness.get_by_label("黑白打印").click();
    harness.run_ok();
    let chosen = harness.state().state.worksheet_dialog.clone().unwrap();
    assert_eq!(chosen.class, "三年级二班");
    // 保存 asks where; giving up there keeps the choices all the same.
    harness.get_by_label("保存 PDF…").click();
    harness.run_ok();
    assert!(harness.state().state.file_browser.is_some());
    harness.get_by_label("取消").click();
    harness.run_ok();
    assert!(harness.state().state.worksheet_dialog.is_none());

    open_dialog(&mut harness);
    let again = harness.state().state.worksheet_dialog.clone().unwrap();
    assert_eq!(again.title, "残局练习");
    assert_eq!(again.class, "三年级二班");
    assert_eq!(again.date, "", "a new day");
    assert_eq!(again.paper, chuhe_core::worksheet::Paper::Letter);
    assert_eq!(again.per_page, 4);
    assert!(!again.black_and_white);
    harness.get_by_label("取消").click();
    harness.run_ok();

    // And after a restart, from the settings file.
    drop(harness);
    let mut harness = open_in(&dir);
    open_dialog(&mut harness);
    let restarted = harness.state().state.worksheet_dialog.clone().unwrap();
    assert_eq!(restarted, again);
}

//! Opening files that break, and saving files in the form they had: a game that breaks
//! off opens up to the break with the error above the move list, a multi-game file lists
//! its unreadable games, every problem is shown in the interface language, and saving a
//! traditional-character file writes it back as it was.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::{Action, FileAction, StudyAction};
use chuhe_core::encoding::{TextEncoding, decode};
use common::{open_in, temp_dir};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use std::path::{Path, PathBuf};

fn apply(harness: &mut Harness<'_, ChuheApp>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
    harness.run();
}

fn open_file(harness: &mut Harness<'_, ChuheApp>, path: &Path) {
    apply(harness, Action::File(FileAction::Open(path.to_owned())));
}

/// Writes `text` to `name` in a directory of the test's own.
fn file(test: &str, name: &str, text: &[u8]) -> PathBuf {
    let path = temp_dir("files-data", test).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The whole text of the label that contains `part`.
fn label_containing(harness: &Harness<'_, ChuheApp>, part: &str) -> String {
    let node = harness.get_by_label_contains(part).accesskit_node();
    // A label's text is its value.
    node.value().or_else(|| node.label()).unwrap_or_default()
}

fn has_latin_word(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_alphabetic())
}

#[test]
fn a_game_that_breaks_opens_up_to_the_break_with_the_chinese_error_above_the_moves() {
    let dir = temp_dir("files", "partial");
    let mut harness = open_in(&dir);
    // 马八进六 is blocked by the elephant on the horse's leg.
    let path = file(
        "partial",
        "broken.pgn",
        "[Event \"断谱\"]\n\n1. 炮二平五 马８进７\n2. 马八进六 车９平８\n3. 车一平二 *\n"
            .as_bytes(),
    );
    open_file(&mut harness, &path);
    let study = &harness.state().state.study;
    assert_eq!(
        study.record.main_line().len(),
        2,
        "the moves before the break"
    );
    assert_eq!(study.record.headers().get("Event"), Some("断谱"));
    assert!(study.partial.is_some());
    harness.get_by_label_contains("棋谱在此中断");
    let message = label_containing(&harness, "第 4 行");
    assert!(
        message.contains("第 2 回合红方")
            && message.contains("蹩马腿")
            && message.contains("马八进六"),
        "{message}"
    );
    assert!(!has_latin_word(&message), "{message}");
    // Another game on the board has no such box.
    apply(&mut harness, Action::File(FileAction::New));
    assert!(harness.query_by_label_contains("棋谱在此中断").is_none());
}

#[test]
fn a_file_that_cannot_be_opened_says_why_in_the_interface_language() {
    let dir = temp_dir("files", "refused");
    let mut harness = open_in(&dir);
    let unreadable = file(
        "refused",
        "bad.pgn",
        "[Event \"坏谱\"]\n\n1. 炮十平五 马８进７ *\n".as_bytes(),
    );
    open_file(&mut harness, &unreadable);
    let notice = label_containing(&harness, "无法打开");
    assert!(
        notice.contains("第 3 行")
            && notice.contains("读不懂的着法")
            && notice.contains("炮十平五"),
        "{notice}"
    );
    assert!(!has_latin_word(&notice), "{notice}");
    // A file that is not there, and one with nothing in it.
    open_file(&mut harness, &dir.join("不存在.pgn"));
    harness.get_by_label_contains("无法打开：找不到文件或文件夹");
    let empty = file("refused", "empty.pgn", b"  \n");
    open_file(&mut harness, &empty);
    harness.get_by_label("无法打开：文件是空的");
    assert!(harness.query_by_label_contains("cannot").is_none());
}

#[test]
fn a_multi_game_file_lists_its_unreadable_games_and_opens_a_broken_one_up_to_its_break() {
    let dir = temp_dir("files", "many");
    let mut harness = open_in(&dir);
    let text = "[Red \"甲\"]\n\n1. 炮二平五 马８进７ *\n\n\
                [Red \"乙\"]\n\n1. 兵七进一 卒７进１\n2. 马八进六 *\n\n\
                [Red \"丙\"]\n\n1. 车九进十 *\n";
    let path = file("many", "three.pgn", text.as_bytes());
    open_file(&mut harness, &path);
    let list = harness.state().state.study.game_list.as_ref().unwrap();
    assert_eq!(list.games.len(), 2);
    assert_eq!(list.unreadable.len(), 1);
    harness.get_by_label("选择对局");
    harness.get_by_label("有 1 局无法读取");
    let row = label_containing(&harness, "第 3 局：第 12 行");
    assert!(row.contains("车九进十") && !has_latin_word(&row), "{row}");
    harness.get_by_label_contains("不完整").click();
    harness.run();
    let study = &harness.state().state.study;
    assert!(study.game_list.is_none());
    assert_eq!(study.record.headers().get("Red"), Some("乙"));
    assert_eq!(study.record.main_line().len(), 2);
    harness.get_by_label_contains("第 8 行，第 2 回合红方");
}

/// The reference data beside the project.
fn shared_data(relative: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/data")
        .join(relative);
    assert!(
        path.exists(),
        "the shared data is beside the project: {}",
        path.display()
    );
    path
}

#[test]
fn saving_a_traditional_big5_file_keeps_its_characters_tags_and_layout() {
    let original = std::fs::read(shared_data(
        "games/ccpd/raw_big5/對局__大師對局__以賽事分類__五羊杯__00000035.pgn",
    ))
    .unwrap();
    let dir = temp_dir("files", "form");
    let path = file("form", "五羊杯.pgn", &original);
    let mut harness = open_in(&dir);
    open_file(&mut harness, &path);
    assert!(harness.state().state.study.form.is_some());
    // Saved unchanged: the same bytes.
    apply(&mut harness, Action::File(FileAction::Save));
    harness.get_by_label_contains("已保存");
    assert!(std::fs::read(&path).unwrap() == original, "saved unchanged");
    // Edited (a move added at the end, a header changed): still Big5, traditional
    // characters, the file's tags in their order and no other, one move per line.
    let study = &harness.state().state.study;
    let last = *study.record.main_line().last().unwrap();
    apply(&mut harness, Action::Study(StudyAction::GoTo(last)));
    let mv = harness.state().state.position().legal_moves()[0];
    apply(&mut harness, Action::Study(StudyAction::PlayMove(mv)));
    apply(
        &mut harness,
        Action::Study(StudyAction::SetHeader("Site".into(), "廣州市".into())),
    );
    apply(&mut harness, Action::File(FileAction::Save));
    let saved = std::fs::read(&path).unwrap();
    let before = decode(&original);
    let after = decode(&saved);
    assert_eq!(after.encoding, TextEncoding::Big5);
    let tags = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with('['))
            .map(|l| l.split(' ').next().unwrap().to_owned())
            .collect()
    };
    assert_eq!(tags(&after.text), tags(&before.text));
    assert!(after.text.contains("[Site \"廣州市\"]"));
    assert!(!after.text.contains("Format") && !after.text.contains("Opening"));
    let lines_before: Vec<&str> = before.text.lines().collect();
    let lines_after: Vec<&str> = after.text.lines().collect();
    // The moves that were there are written as they were; the new one is spelt likewise.
    let moves_before: Vec<&&str> = lines_before.iter().filter(|l| l.contains(". ")).collect();
    let moves_after: Vec<&&str> = lines_after.iter().filter(|l| l.contains(". ")).collect();
    assert_eq!(
        moves_after[..moves_before.len() - 1],
        moves_before[..moves_before.len() - 1]
    );
    let added = moves_after.last().unwrap();
    assert!(
        !added.contains(['进', '马', '车', '后']) && !added.is_ascii(),
        "{added}"
    );
}

#[test]
fn a_file_that_cannot_be_saved_says_why_in_the_interface_language() {
    let dir = temp_dir("files", "unsaved");
    let mut harness = open_in(&dir);
    let path = file("unsaved", "game.pgn", "1. 炮二平五 马８进７ *\n".as_bytes());
    open_file(&mut harness, &path);
    // A folder takes the open file's place.
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir_all(path.join("棋谱")).unwrap();
    apply(&mut harness, Action::File(FileAction::Save));
    let notice = label_containing(&harness, "无法保存");
    assert!(!has_latin_word(&notice), "{notice}");
    assert_eq!(notice, "无法保存：这是文件夹，不是文件");
}

#[test]
fn a_game_chosen_from_a_file_of_many_is_saved_back_in_its_place() {
    let dir = temp_dir("files", "save-many");
    let mut harness = open_in(&dir);
    let first = "[Red \"甲\"]\n\n1. 炮二平五 马８进７ *\n\n";
    let second = "[Red \"乙\"]\n\n1. 兵七进一 卒７进１ *\n\n";
    let third = "[Red \"丙\"]\n\n1. 马二进三 *\n";
    let path = file(
        "save-many",
        "three.pgn",
        [first, second, third].concat().as_bytes(),
    );
    open_file(&mut harness, &path);
    harness.get_by_label_contains("乙").click();
    harness.run();
    apply(
        &mut harness,
        Action::Study(StudyAction::SetHeader("Black".into(), "丁".into())),
    );
    apply(&mut harness, Action::File(FileAction::Save));
    let saved = std::fs::read_to_string(&path).unwrap();
    let edited = "[Red \"乙\"]\n[Black \"丁\"]\n\n1. 兵七进一 卒７进１ *\n\n";
    assert_eq!(saved, [first, edited, third].concat());
}

#[test]
fn a_settings_file_that_cannot_be_read_is_reported_in_the_interface_language() {
    let dir = temp_dir("files", "settings");
    std::fs::write(dir.join("settings.ron"), "(flipped: true,\n notation: [").unwrap();
    let harness = open_in(&dir);
    let notice = label_containing(&harness, "设置文件无法读取");
    assert!(notice.contains("第 2 行"), "{notice}");
    let path = dir.join("settings.ron").display().to_string();
    let words = notice.replace(&path, "");
    assert!(!has_latin_word(&words), "{notice}");
}

#[test]
fn a_ccbridge_library_opens_into_the_game_chooser_and_a_chosen_game_plays() {
    let dir = temp_dir("files", "ccbridge");
    let mut harness = open_in(&dir);
    let path = shared_data("formats/walker8088_cchess_testdata/1956年全国象棋锦标赛93局.CBL");
    open_file(&mut harness, &path);
    let list = harness.state().state.study.game_list.as_ref().unwrap();
    assert_eq!(list.games.len(), 93);
    assert!(list.unreadable.is_empty());
    harness.get_by_label("选择对局");
    // The rows name the players and the event read from the library.
    harness.get_by_label_contains("2. 保定邓裕如").click();
    harness.run();
    let study = &harness.state().state.study;
    assert!(study.game_list.is_none());
    assert_eq!(study.record.headers().get("Red"), Some("保定邓裕如"));
    assert!(study.record.main_line().len() > 10);
}

#[test]
fn a_cut_ccbridge_record_says_where_it_ends_in_the_interface_language() {
    let dir = temp_dir("files", "ccbridge-cut");
    let mut harness = open_in(&dir);
    let whole = std::fs::read(shared_data("formats/walker8088_cchess_testdata/test2.cbr")).unwrap();
    // Cut inside the first move's comment: no move can be read.
    let cut = file("ccbridge-cut", "cut.cbr", &whole[..0x8B8]);
    open_file(&mut harness, &cut);
    let notice = label_containing(&harness, "象棋桥文件");
    assert!(
        notice.contains("第 1 局") && notice.contains("字节") && notice.contains("第 1 回合红方"),
        "{notice}"
    );
    assert!(!has_latin_word(&notice), "{notice}");
}

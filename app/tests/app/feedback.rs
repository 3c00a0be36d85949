//! What a person is told where they look: a file that did not open, a collection made, an
//! import's end, said in a toast over the board (a failure until dismissed, a confirmation
//! fading); the status bar's notice clearing; the frame time only when asked for; the
//! welcome of a first start; the engine's defaults sized to the machine.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::*;
use chuhe::settings::{EngineSettings, Machine, Settings};
use chuhe::state::Notice;
use chuhe::state::toasts::ToastKind;
use common::{open_fresh, open_in, open_with_settings, temp_dir, wait_for};
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable as _};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

fn apply(harness: &mut Harness<'_, ChuheApp>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
    harness.run();
}

/// [`apply`], without kittest's accessibility check at the end: the collection browser,
/// opened by an import, has unnamed buttons of its own.
fn apply_unchecked(harness: &mut Harness<'_, ChuheApp>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
    harness.run_steps(2);
}

/// Lets `seconds` of egui's clock go by (kittest steps it a quarter second a frame).
fn let_time_pass(harness: &mut Harness<'_, ChuheApp>, seconds: f64) {
    let start = harness.ctx.input(|i| i.time);
    while harness.ctx.input(|i| i.time) - start < seconds {
        harness.step();
    }
}

/// The app with settings from before the welcome (none shows).
fn open_settled(test: &str) -> (std::path::PathBuf, Harness<'static, ChuheApp>) {
    let dir = temp_dir("feedback", test);
    let harness = open_with_settings(&dir, &Settings::default());
    (dir, harness)
}

/// The whole text of the one label that contains `part`.
fn label_containing(harness: &Harness<'_, ChuheApp>, part: &str) -> (String, egui::Rect) {
    let node = harness.get_by_label_contains(part);
    let text = {
        let n = node.accesskit_node();
        n.value().or_else(|| n.label()).unwrap_or_default()
    };
    (text, node.rect())
}

/// Clicks the × of the toast whose words hold `part`.
fn dismiss_toast(harness: &mut Harness<'_, ChuheApp>, part: &str) {
    let (_, words) = label_containing(harness, part);
    harness
        .get_all_by_label("×")
        .find(|b| {
            let r = b.rect();
            r.center().y >= words.top() - 4.0 && r.center().y <= words.bottom() + 4.0
        })
        .expect("the toast has a ×")
        .click();
    harness.run();
}

#[test]
fn a_file_that_did_not_open_says_why_over_the_board_until_dismissed() {
    let (dir, mut harness) = open_settled("open-failed");
    apply(
        &mut harness,
        Action::File(FileAction::Open(dir.join("不存在.pgn"))),
    );
    let toasts = &harness.state().state.toasts.shown;
    assert_eq!(toasts.len(), 1);
    assert_eq!(toasts[0].kind, ToastKind::Error);
    // Said once, with the reason, over the board (not down in the status bar).
    let (text, rect) = label_containing(&harness, "无法打开");
    assert_eq!(text, "无法打开：找不到文件或文件夹");
    let board = harness.state().board_geometry().unwrap().board_rect();
    assert!(rect.bottom() < board.center().y, "{rect:?} over {board:?}");
    // A failure stays; the status bar's line clears after a while.
    let_time_pass(&mut harness, 20.0);
    assert!(harness.state().state.notice.is_none());
    label_containing(&harness, "无法打开：找不到文件或文件夹");
    dismiss_toast(&mut harness, "无法打开");
    assert!(harness.state().state.toasts.shown.is_empty());
    assert!(harness.query_by_label_contains("无法打开").is_none());
}

#[test]
fn a_save_that_failed_says_why_over_the_board() {
    let (dir, mut harness) = open_settled("save-failed");
    // A folder where the file should go cannot be written as a file.
    let folder = dir.join("a folder.pgn");
    std::fs::create_dir_all(&folder).unwrap();
    apply(
        &mut harness,
        Action::File(FileAction::SaveTo(
            folder,
            chuhe::state::file_chooser::AfterSave::Stay,
        )),
    );
    let toasts = &harness.state().state.toasts.shown;
    assert_eq!(toasts.len(), 1);
    assert_eq!(toasts[0].kind, ToastKind::Error);
    let (_, rect) = label_containing(&harness, "无法保存");
    let board = harness.state().board_geometry().unwrap().board_rect();
    assert!(rect.bottom() < board.center().y, "{rect:?} over {board:?}");
}

#[test]
fn asking_for_a_collection_with_none_open_says_so_over_the_board_and_fades() {
    let (_dir, mut harness) = open_settled("none-open");
    apply(
        &mut harness,
        Action::Collections(CollectionAction::ImportFileDialog),
    );
    harness.get_by_label("请先新建或打开一个棋谱库。");
    assert_eq!(
        harness.state().state.toasts.shown[0].kind,
        ToastKind::Confirmation
    );
    let_time_pass(&mut harness, 6.0);
    assert!(harness.state().state.toasts.shown.is_empty());
    // The status bar's line stays a little longer, then clears too.
    harness.get_by_label("请先新建或打开一个棋谱库。");
    let_time_pass(&mut harness, 3.0);
    let gone = harness
        .query_by_label("请先新建或打开一个棋谱库。")
        .is_none();
    assert!(gone);
}

#[test]
fn a_collection_made_and_an_import_with_failures_are_said_over_the_board() {
    let (dir, mut harness) = open_settled("created");
    let path = dir.join("新库.chuhedb");
    apply_unchecked(
        &mut harness,
        Action::Collections(CollectionAction::Create(path.clone())),
    );
    wait_for(&mut harness, WAIT, |app| {
        !app.state.collections.open.is_empty()
    });
    harness.run_steps(2);
    let (text, _) = label_containing(&harness, "已新建棋谱库");
    assert_eq!(text, "已新建棋谱库“新库”。");
    let_time_pass(&mut harness, 9.0);
    assert!(harness.query_by_label_contains("已新建棋谱库").is_none());

    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(games.join("good.pgn"), "1. h2e2 h9g7 *\n").unwrap();
    std::fs::write(games.join("broken.pgn"), "[Event \"x\"]\n1. h2e2 zz9 *\n").unwrap();
    apply_unchecked(
        &mut harness,
        Action::Collections(CollectionAction::Import(vec![games])),
    );
    wait_for(&mut harness, WAIT, |app| {
        app.state.collections.last_import.is_some()
    });
    harness.run_steps(2);
    let (text, _) = label_containing(&harness, "导入完成");
    assert!(
        text.contains("新增 1 局") && text.contains("1 处未能导入"),
        "{text}"
    );
    // A failure among them: it stays until read.
    let_time_pass(&mut harness, 10.0);
    label_containing(&harness, "导入完成");
}

#[test]
fn the_status_bars_notice_clears_on_the_next_key_and_after_a_while() {
    let (_dir, mut harness) = open_settled("notice-clears");
    apply(&mut harness, Action::Study(StudyAction::CopyFen));
    assert_eq!(
        harness.state().state.notice,
        Some(Notice::Message("notice-copied-fen"))
    );
    harness.get_by_label("已复制局面 FEN。");
    // A key with nothing to say (a step forward with no move to go to).
    common::key(&mut harness, Key::ArrowRight);
    assert!(harness.state().state.notice.is_none());
    assert!(harness.query_by_label("已复制局面 FEN。").is_none());
    apply(&mut harness, Action::Study(StudyAction::CopyFen));
    let_time_pass(&mut harness, 5.0);
    assert!(harness.state().state.notice.is_some());
    let_time_pass(&mut harness, 4.0);
    assert!(harness.state().state.notice.is_none());
}

/// Whether the status bar shows a frame time (`1.5 ms`).
fn frame_time_shown(harness: &Harness<'_, ChuheApp>) -> bool {
    harness.query_all_by_label_contains(" ms").any(|n| {
        let text = n.accesskit_node().value().unwrap_or_default();
        text.strip_suffix(" ms")
            .is_some_and(|n| n.parse::<f64>().is_ok())
    })
}

#[test]
fn the_frame_time_shows_only_with_the_debug_setting() {
    let (dir, mut harness) = open_settled("frame-time");
    assert!(!frame_time_shown(&harness));
    harness.get_by_label("视图").click();
    harness.run_ok();
    harness.get_by_label("显示每帧用时（调试）").click();
    harness.run_ok();
    key_escape(&mut harness);
    assert!(harness.state().state.settings.show_frame_time);
    assert!(frame_time_shown(&harness));
    drop(harness);
    // Kept in the settings.
    let harness = open_in(&dir);
    assert!(frame_time_shown(&harness));
}

fn key_escape(harness: &mut Harness<'_, ChuheApp>) {
    common::key(harness, Key::Escape);
}

#[test]
fn a_first_start_welcomes_with_what_most_people_came_for_and_the_keys() {
    let dir = temp_dir("feedback", "welcome");
    let mut harness = open_fresh(&dir);
    harness.get_by_label("欢迎使用楚河");
    // The keys are the keyboard's own.
    let ctx = harness.ctx.clone();
    let open_keys = chuhe::widgets::shortcuts::label_of(
        &ctx,
        &Action::File(FileAction::OpenDialog),
        harness.state().state.study.cursor,
    )
    .unwrap();
    harness.get_by_label(&format!("{open_keys}  打开棋谱文件"));
    harness.get_by_label_contains("全屏讲解");
    // Each of the three does what its menu item does.
    harness.state_mut().services.file_chooser =
        chuhe::services::file_chooser::FileChooser::in_app();
    use chuhe::state::file_chooser::FilePurpose;
    for (label, purpose) in [
        ("打开一局棋谱", FilePurpose::OpenGame),
        ("或者，打开一个棋谱库", FilePurpose::OpenCollection),
    ] {
        harness.get_by_label_contains(label).click();
        harness.run();
        assert_eq!(
            harness
                .state()
                .state
                .file_browser
                .as_ref()
                .map(|b| b.purpose.clone()),
            Some(purpose.clone())
        );
        apply(
            &mut harness,
            Action::FileChooser(FileChooserAction::Cancelled(purpose)),
        );
    }
    harness.get_by_label("摆一个局面").click();
    harness.run();
    assert!(harness.state().state.editor.is_some());
    // Over the editor's board it does not show.
    assert!(harness.query_by_label("欢迎使用楚河").is_none());
    apply(&mut harness, Action::Editor(EditorAction::LeaveNow));
    harness.get_by_label_contains("开始讲课").click();
    harness.run();
    assert!(harness.state().state.presentation.is_some());
    apply(&mut harness, Action::Presentation(PresentationAction::End));
    // Not dismissed by using it: it is there on the next start's empty board.
    harness.get_by_label("欢迎使用楚河");
    drop(harness);
    let harness = open_fresh(&dir);
    harness.get_by_label("欢迎使用楚河");
}

#[test]
fn in_a_400_by_300_window_the_welcome_can_still_be_put_away() {
    let dir = temp_dir("feedback", "welcome-small");
    let size = egui::Vec2::new(400.0, 300.0);
    let mut harness = egui_kittest::Harness::builder()
        .with_size(size)
        .build_eframe(move |cc| {
            chuhe::ChuheApp::with_storage(
                cc,
                chuhe::services::storage::Storage::in_dir(dir.clone()),
            )
        });
    harness.run();
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, size);
    for label in ["欢迎使用楚河", "知道了，不再显示"] {
        let rect = harness.get_by_label(label).rect();
        assert!(
            window.contains_rect(rect),
            "{label}: {rect:?} lies inside the window"
        );
    }
    harness.get_by_label("知道了，不再显示").click();
    harness.run();
    assert!(harness.query_by_label("欢迎使用楚河").is_none());
}

#[test]
fn a_dismissed_welcome_does_not_come_back() {
    let dir = temp_dir("feedback", "welcome-dismissed");
    let mut harness = open_fresh(&dir);
    harness.get_by_label("知道了，不再显示").click();
    harness.run();
    assert!(harness.query_by_label("欢迎使用楚河").is_none());
    drop(harness);
    let harness = open_fresh(&dir);
    assert!(harness.query_by_label("欢迎使用楚河").is_none());
    // Nor does it show to someone whose settings are from before it.
    let (_dir, harness) = open_settled("welcome-old-settings");
    assert!(harness.query_by_label("欢迎使用楚河").is_none());
}

#[test]
fn analysis_uses_the_machine_and_the_engine_menu_says_so() {
    let machine = Machine::this();
    let dir = temp_dir("feedback", "engine-defaults");
    let harness = open_fresh(&dir);
    let engine = &harness.state().state.settings.engine;
    assert_eq!(
        (engine.threads, engine.hash_mb),
        (machine.threads(), machine.hash_mb())
    );
    assert!(machine.threads() >= 1 && machine.threads() < machine.cores.max(2));
    drop(harness);
    // Values a settings file stored stay, and the menu offers the machine's.
    let old = Settings {
        engine: EngineSettings {
            threads: 1,
            hash_mb: 8,
            ..EngineSettings::default()
        },
        ..Settings::default()
    };
    let mut harness = open_with_settings(&temp_dir("feedback", "engine-old"), &old);
    assert_eq!(harness.state().state.settings.engine.hash_mb, 8);
    harness.get_by_label("引擎").click();
    harness.run_ok();
    harness.get_by_label(&format!(
        "本机 {} 核：建议 {} 个线程、{} MiB 置换表",
        machine.cores,
        machine.threads(),
        machine.hash_mb()
    ));
    harness.get_by_label("按本机设置").click();
    harness.run_ok();
    let engine = &harness.state().state.settings.engine;
    assert_eq!(
        (engine.threads, engine.hash_mb),
        (machine.threads(), machine.hash_mb())
    );
}

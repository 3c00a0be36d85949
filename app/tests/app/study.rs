//! Drives the real app with egui_kittest the way a user does: clicks and drags on the
//! board, keys, the menus, dropped files, the engine. Each test keeps its settings and
//! autosave in its own temporary directory.

use chuhe::ChuheApp;
use chuhe::actions::{Action, FileAction};
use chuhe::i18n::Language;
use chuhe::services::storage::Storage;
use chuhe::state::{Dialog, Notice};
use chuhe_core::record::MarkColor;
use chuhe_core::{EndReason, IllegalReason, Move, PieceKind, Square};
use egui::{Event, Key, Modifiers, PointerButton, Pos2, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhe-study-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The app in a laptop-sized window, its files kept in `dir`.
fn open_in(dir: &Path) -> Harness<'static, ChuheApp> {
    crate::common::put_welcome_away(dir);
    let dir = dir.to_owned();
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1200.0, 800.0))
        .build_eframe(move |cc| ChuheApp::with_storage(cc, Storage::in_dir(dir.clone())));
    harness.run();
    harness
}

fn open(name: &str) -> Harness<'static, ChuheApp> {
    open_in(&temp_dir(name))
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// Where a point is on screen.
fn point(harness: &Harness<'_, ChuheApp>, square: &str) -> Pos2 {
    harness
        .state()
        .board_geometry()
        .expect("the board was drawn")
        .point(sq(square))
}

/// Presses (`pressed`) or releases a mouse button at `pos` with `modifiers` held.
fn pointer_button(
    harness: &mut Harness<'_, ChuheApp>,
    pos: Pos2,
    button: PointerButton,
    modifiers: Modifiers,
    pressed: bool,
) {
    if pressed {
        harness.event(Event::ModifiersChanged(modifiers));
    }
    harness.event(Event::PointerMoved(pos));
    harness.event(Event::PointerButton {
        pos,
        button,
        pressed,
        modifiers,
    });
    harness.step();
    if !pressed {
        harness.event(Event::ModifiersChanged(Modifiers::NONE));
        settle(harness);
    }
}

/// Runs frames until the app is idle. While analysis runs, the app keeps asking for frames
/// to show the engine's new lines and may never be idle: then this stops at the harness's
/// step limit instead of failing, so a test's timing cannot depend on the engine's.
fn settle(harness: &mut Harness<'_, ChuheApp>) {
    harness.run_ok();
}

fn click_with(
    harness: &mut Harness<'_, ChuheApp>,
    square: &str,
    button: PointerButton,
    modifiers: Modifiers,
) {
    let pos = point(harness, square);
    pointer_button(harness, pos, button, modifiers, true);
    pointer_button(harness, pos, button, modifiers, false);
}

fn click(harness: &mut Harness<'_, ChuheApp>, square: &str) {
    click_with(harness, square, PointerButton::Primary, Modifiers::NONE);
}

/// Plays a move by clicking its two points.
fn play(harness: &mut Harness<'_, ChuheApp>, mv: &str) {
    click(harness, &mv[..2]);
    click(harness, &mv[2..]);
}

/// Drags with `button` from one point to another in several pointer moves.
fn drag(
    harness: &mut Harness<'_, ChuheApp>,
    from: &str,
    to: &str,
    button: PointerButton,
    modifiers: Modifiers,
) {
    let (a, b) = (point(harness, from), point(harness, to));
    pointer_button(harness, a, button, modifiers, true);
    for i in 1..=6 {
        harness.event(Event::PointerMoved(a + (b - a) * (i as f32 / 6.0)));
        harness.step();
    }
    pointer_button(harness, b, button, modifiers, false);
}

fn key(harness: &mut Harness<'_, ChuheApp>, key: Key) {
    harness.key_press(key);
    settle(harness);
}

fn main_line(harness: &Harness<'_, ChuheApp>) -> Vec<String> {
    let record = &harness.state().state.study.record;
    record
        .main_line_moves()
        .iter()
        .map(Move::to_string)
        .collect()
}

fn cursor_move(harness: &Harness<'_, ChuheApp>) -> Option<String> {
    let state = &harness.state().state;
    state
        .study
        .record
        .move_at(state.study.cursor)
        .map(|m| m.to_string())
}

fn shared_data(path: &str) -> PathBuf {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/data")
        .join(path);
    assert!(
        full.exists(),
        "the shared test data is beside the project: {}",
        full.display()
    );
    full
}

/// A dropped file, as the window system reports it.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

fn drop_file(harness: &mut Harness<'_, ChuheApp>, path: PathBuf) {
    harness
        .input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(path)));
    harness.run();
}

#[test]
fn a_legal_move_is_played_by_clicks_and_an_illegal_one_refused_with_its_reason() {
    let mut harness = open("clicks");
    play(&mut harness, "h2e2");
    assert_eq!(main_line(&harness), ["h2e2"]);
    let position = harness.state().state.position().clone();
    assert_eq!(
        position.piece_at(sq("e2")).map(|p| p.kind),
        Some(PieceKind::Cannon)
    );

    // Black's horse on b9 cannot reach d8: the elephant on c9 blocks its leg (蹩马腿).
    play(&mut harness, "b9d8");
    assert_eq!(main_line(&harness), ["h2e2"], "the illegal move is refused");
    assert_eq!(
        harness.state().state.notice,
        Some(Notice::Illegal(IllegalReason::HorseLegBlocked))
    );
    harness.get_by_label_contains("蹩马腿");

    // The generals may not face each other: Red's general cannot step onto the open e file
    // after the centre pawns are gone… nor may a piece move while its general is in check.
    play(&mut harness, "h9g7");
    assert_eq!(main_line(&harness), ["h2e2", "h9g7"]);
}

#[test]
fn a_piece_is_moved_by_dragging_and_a_bad_drop_is_refused() {
    let mut harness = open("drag");
    drag(
        &mut harness,
        "b0",
        "c2",
        PointerButton::Primary,
        Modifiers::NONE,
    );
    assert_eq!(main_line(&harness), ["b0c2"]);
    drag(
        &mut harness,
        "a9",
        "a4",
        PointerButton::Primary,
        Modifiers::NONE,
    );
    assert_eq!(main_line(&harness), ["b0c2"]);
    assert_eq!(
        harness.state().state.notice,
        Some(Notice::Illegal(IllegalReason::PathBlocked))
    );
}

#[test]
fn keys_step_through_moves_and_choose_variations() {
    let mut harness = open("keys");
    play(&mut harness, "h2e2");
    play(&mut harness, "h9g7");
    play(&mut harness, "h0g2");
    key(&mut harness, Key::ArrowLeft);
    key(&mut harness, Key::ArrowLeft);
    assert_eq!(cursor_move(&harness).as_deref(), Some("h2e2"));
    // A different move here makes a variation, not a new main line.
    play(&mut harness, "h7e7");
    assert_eq!(main_line(&harness), ["h2e2", "h9g7", "h0g2"]);
    assert_eq!(cursor_move(&harness).as_deref(), Some("h7e7"));
    key(&mut harness, Key::ArrowUp);
    assert_eq!(cursor_move(&harness).as_deref(), Some("h9g7"));
    key(&mut harness, Key::ArrowDown);
    assert_eq!(cursor_move(&harness).as_deref(), Some("h7e7"));
    key(&mut harness, Key::Home);
    assert_eq!(cursor_move(&harness), None);
    key(&mut harness, Key::ArrowRight);
    assert_eq!(cursor_move(&harness).as_deref(), Some("h2e2"));
    key(&mut harness, Key::End);
    assert_eq!(cursor_move(&harness).as_deref(), Some("h0g2"));
    // The move list shows both lines in Chinese notation; a click goes to a move.
    harness.get_by_label("炮８平５").click();
    harness.run();
    assert_eq!(cursor_move(&harness).as_deref(), Some("h7e7"));
}

#[test]
fn a_variation_is_promoted_made_main_line_and_every_edit_undone() {
    let mut harness = open("variation");
    play(&mut harness, "h2e2");
    play(&mut harness, "h9g7");
    key(&mut harness, Key::ArrowLeft);
    play(&mut harness, "h7e7");
    key(&mut harness, Key::P);
    assert_eq!(main_line(&harness), ["h2e2", "h7e7"], "promoted by its key");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(main_line(&harness), ["h2e2", "h9g7"], "undone");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    harness.run();
    assert_eq!(main_line(&harness), ["h2e2", "h7e7"], "redone");
    key(&mut harness, Key::ArrowDown);
    assert_eq!(cursor_move(&harness).as_deref(), Some("h9g7"));
    harness.get_by_label("设为主线").click();
    harness.run();
    assert_eq!(main_line(&harness), ["h2e2", "h9g7"]);
    harness.get_by_label("?!").click();
    harness.run();
    let state = &harness.state().state;
    assert_eq!(
        state.study.record.annotation(state.study.cursor).nags,
        [chuhe_core::record::Nag::DUBIOUS]
    );
    key(&mut harness, Key::Delete);
    assert_eq!(main_line(&harness), ["h2e2", "h7e7"], "deleted from here");
    assert!(harness.state().state.study.dirty);
}

#[test]
fn the_language_switches_at_run_time_and_is_remembered() {
    let dir = temp_dir("language");
    let mut harness = open_in(&dir);
    harness.get_by_label("开始分析（空格）");
    harness.get_by_label("语言").click();
    harness.run();
    harness.get_by_label("English").click();
    harness.run();
    harness.get_by_label("Analyse (Space)");
    play(&mut harness, "b0d1");
    harness.get_by_label_contains("the horse's leg is blocked");
    harness.get_by_label("Language").click();
    harness.run();
    harness.get_by_label("繁體中文").click();
    harness.run();
    harness.get_by_label_contains("蹩馬腿");
    assert_eq!(harness.state().state.settings.language, Language::ZhTw);
    // Chinese moves follow the interface's script.
    play(&mut harness, "h2e2");
    harness.get_by_label("炮二平五");
    play(&mut harness, "h9g7");
    harness.get_by_label("馬８進７");
    drop(harness);
    let reopened = open_in(&dir);
    assert_eq!(reopened.state().state.settings.language, Language::ZhTw);
    reopened.get_by_label("開始分析（空格）");
}

/// Steps the app until `done`, for at most `limit`.
fn wait_for(
    harness: &mut Harness<'_, ChuheApp>,
    limit: Duration,
    done: impl Fn(&ChuheApp) -> bool,
) {
    let start = Instant::now();
    while !done(harness.state()) {
        assert!(start.elapsed() < limit, "timed out");
        std::thread::sleep(Duration::from_millis(20));
        harness.step();
    }
}

#[test]
fn analysis_follows_the_board_and_hides_on_one_key() {
    let mut harness = open("analysis");
    key(&mut harness, Key::Space);
    assert!(harness.state().state.analysis.analysing);
    wait_for(&mut harness, Duration::from_secs(30), |app| {
        app.state
            .visible_engine()
            .is_some_and(|e| e.update.report.depth >= 2)
    });
    harness.get_by_label_contains("深度");
    let root = harness.state().state.study.record.root();
    assert_eq!(
        harness.state().state.analysis.engine.as_ref().unwrap().node,
        root
    );

    play(&mut harness, "h2e2");
    let cursor = harness.state().state.study.cursor;
    wait_for(&mut harness, Duration::from_secs(30), |app| {
        app.state
            .visible_engine()
            .is_some_and(|e| e.node == cursor && !e.update.report.lines.is_empty())
    });

    // A click on a line plays it into the record as a variation.
    harness
        .get_all_by_label_contains("1. ")
        .next()
        .unwrap()
        .click();
    harness.step();
    let state = &harness.state().state;
    // The line as drawn in the frame that took the click (an update may have arrived
    // since the test last looked).
    let line = state.analysis.engine.as_ref().unwrap().update.report.lines[0]
        .moves
        .clone();
    assert_eq!(
        state.study.record.move_at(state.study.cursor),
        Some(line[0])
    );
    assert_eq!(state.study.record.parent(state.study.cursor), Some(cursor));
    assert_eq!(
        state
            .study
            .record
            .moves_to(state.study.record.line_end(state.study.cursor))
            .len(),
        1 + line.len(),
        "the whole line is in the record"
    );

    key(&mut harness, Key::H);
    assert!(harness.state().state.analysis.engine_hidden);
    assert!(harness.state().state.visible_engine().is_none());
    harness.get_by_label_contains("引擎已隐藏");
    key(&mut harness, Key::H);
    assert!(!harness.state().state.analysis.engine_hidden);

    // A new game (pasted into a tab of its own) is analysed in its turn.
    let fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1";
    harness.event(Event::Paste(fen.into()));
    settle(&mut harness);
    // Two moves mate at once there, the rook's check on the d file and the rook taking
    // the eighth rank from a general that the other general holds on its file (困毙):
    // the analysis may show either.
    wait_for(&mut harness, Duration::from_secs(30), |app| {
        app.state.visible_engine().is_some_and(|e| {
            e.position.to_string() == fen
                && e.update.report.lines.first().is_some_and(|l| {
                    l.moves.first().is_some_and(|&m| {
                        e.position
                            .play(m)
                            .is_ok_and(|after| !after.has_legal_move())
                    })
                })
        })
    });
    key(&mut harness, Key::Space);
    assert!(!harness.state().state.analysis.analysing);
}

#[test]
fn pgn_and_xqf_files_open_by_drop_and_agree() {
    let mut harness = open("files");
    drop_file(&mut harness, shared_data("formats/xqf_eleeye/SAMPLE.XQF"));
    let from_xqf = harness.state().state.study.record.main_line_moves();
    assert!(from_xqf.len() > 10, "the XQF game's moves are there");
    assert!(
        harness
            .state()
            .state
            .study
            .file
            .as_ref()
            .unwrap()
            .ends_with("SAMPLE.XQF")
    );
    drop_file(&mut harness, shared_data("formats/xqf_eleeye/SAMPLE.PGN"));
    let from_pgn = harness.state().state.study.record.main_line_moves();
    assert_eq!(from_pgn, from_xqf, "the same game in both formats");
    let recent = &harness.state().state.settings.recent_files;
    assert!(recent[0].ends_with("SAMPLE.PGN") && recent[1].ends_with("SAMPLE.XQF"));
    key(&mut harness, Key::End);
    assert_eq!(
        harness.state().state.study.cursor,
        *harness
            .state()
            .state
            .study
            .record
            .main_line()
            .last()
            .unwrap()
    );
}

#[test]
fn a_multi_game_pgn_opens_as_a_searchable_list() {
    let mut harness = open("many");
    let dir = shared_data("games/eleeye_ccgc");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")))
        .unwrap();
    // One game per file there: make a file with two.
    let text = std::fs::read(&file).unwrap();
    let both = temp_dir("many-file").join("two.pgn");
    let mut joined = text.clone();
    joined.extend_from_slice(b"\n\n");
    joined.extend_from_slice(&text);
    std::fs::write(&both, joined).unwrap();
    drop_file(&mut harness, both);
    let list = harness
        .state()
        .state
        .study
        .game_list
        .as_ref()
        .expect("a list to choose from");
    assert_eq!(list.games.len(), 2);
    harness.get_by_label("选择对局");
    harness
        .get_all_by_label_contains("1. ")
        .next()
        .unwrap()
        .click();
    harness.run();
    assert!(harness.state().state.study.game_list.is_none());
    assert!(harness.state().state.study.record.move_count() > 10);
}

#[test]
fn a_pasted_fen_is_played_to_mate_and_the_end_announced() {
    let mut harness = open("mate");
    harness.event(Event::Paste("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1".into()));
    harness.run();
    play(&mut harness, "a1d1");
    let outcome = harness
        .state()
        .state
        .study
        .derived
        .outcome
        .expect("the game is over");
    assert_eq!(outcome.reason, EndReason::Checkmate);
    harness.get_by_label_contains("将死");
    harness.get_by_label_contains("红胜");
}

#[test]
fn arrows_and_circles_by_right_button_belong_to_the_move_and_are_saved() {
    let mut harness = open("marks");
    play(&mut harness, "h2e2");
    drag(
        &mut harness,
        "b0",
        "c2",
        PointerButton::Secondary,
        Modifiers::NONE,
    );
    click_with(
        &mut harness,
        "e7",
        PointerButton::Secondary,
        Modifiers::SHIFT,
    );
    click_with(&mut harness, "e6", PointerButton::Secondary, Modifiers::ALT);
    let state = &harness.state().state;
    let annotation = state.study.record.annotation(state.study.cursor);
    assert_eq!(annotation.arrows.len(), 1);
    assert_eq!(annotation.arrows[0].color, MarkColor::Green);
    assert_eq!(
        annotation
            .circles
            .iter()
            .map(|c| (c.at.to_string(), c.color))
            .collect::<Vec<_>>(),
        [
            ("e7".to_owned(), MarkColor::Red),
            ("e6".to_owned(), MarkColor::Blue)
        ]
    );
    assert_eq!(main_line(&harness), ["h2e2"], "drawing moves no piece");
    let pgn = chuhe::services::files::to_pgn(&state.study.record, chuhe_core::Notation::Iccs);
    assert!(pgn.contains("%cal Gb0c2"), "{pgn}");
    assert!(pgn.contains("Re7"), "{pgn}");
    // They belong to that move: one move back they are not shown.
    key(&mut harness, Key::ArrowLeft);
    let state = &harness.state().state;
    assert!(
        state
            .study
            .record
            .annotation(state.study.cursor)
            .arrows
            .is_empty()
    );
}

#[test]
fn unsaved_work_is_kept_when_the_window_closes_and_offered_back() {
    let dir = temp_dir("autosave");
    let mut harness = open_in(&dir);
    play(&mut harness, "h2e2");
    harness
        .input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    harness.run();
    assert_eq!(
        harness.state().state.dialog,
        Some(Dialog::UnsavedOnQuit),
        "quitting asks"
    );
    assert!(
        dir.join("autosave.pgn").exists(),
        "the work is on disk before asking"
    );
    // The process dies here, as in a crash: the next start offers the work back.
    drop(harness);
    let mut reopened = open_in(&dir);
    assert_eq!(reopened.state().state.dialog, Some(Dialog::RestoreAutosave));
    reopened.get_by_label("恢复").click();
    reopened.run();
    assert_eq!(main_line(&reopened), ["h2e2"]);
    assert!(
        reopened.state().state.study.dirty,
        "restored work still needs saving"
    );
}

#[test]
fn flip_and_coordinates_change_the_board_and_clicks_follow() {
    let mut harness = open("flip");
    let before = point(&harness, "a0");
    key(&mut harness, Key::F);
    assert!(harness.state().state.settings.flipped);
    let after = point(&harness, "a0");
    assert!(
        after.y < before.y && after.x > before.x,
        "a0 is now top right"
    );
    play(&mut harness, "h2e2");
    assert_eq!(
        main_line(&harness),
        ["h2e2"],
        "clicks hit the flipped points"
    );
}

#[test]
fn a_whole_game_review_marks_the_blunder_and_saves_the_better_move() {
    let dir = temp_dir("review");
    std::fs::write(dir.join("settings.ron"), "(engine: (review_ms: 40))").unwrap();
    let mut harness = open_in(&dir);
    // 3. 炮五进四?? gives the cannon for the centre pawn: the horse on e6 takes it.
    harness.event(Event::Paste(
        "1. h2e2 h9g7 2. h0g2 i9h9 3. e2e6 g7e6 *".into(),
    ));
    harness.run();
    harness.get_by_label("全局复盘").click();
    harness.step();
    assert!(
        harness.state().state.analysis.review.is_some(),
        "the review runs"
    );
    wait_for(&mut harness, Duration::from_secs(60), |app| {
        app.state.analysis.review.is_none()
    });
    let record = &harness.state().state.study.record;
    let main = record.main_line();
    assert_eq!(main.len(), 6);
    assert!(
        main.iter().all(|&n| record.annotation(n).eval.is_some()),
        "every move has its evaluation"
    );
    let blunder = main[4];
    let nags = &record.annotation(blunder).nags;
    assert!(
        nags.contains(&chuhe_core::record::Nag::BLUNDER)
            || nags.contains(&chuhe_core::record::Nag::MISTAKE),
        "e2e6 is judged a mistake or a blunder: {nags:?}"
    );
    let parent = record.parent(blunder).unwrap();
    assert!(
        record.children(parent).count() >= 2,
        "the engine's better move is a variation"
    );
    assert!(harness.state().state.study.dirty);
    let pgn = chuhe::services::files::to_pgn(record, chuhe_core::Notation::Iccs);
    assert!(pgn.contains("%eval"), "evaluations are saved: {pgn}");
}

#[test]
fn a_dropped_folder_is_stepped_through_file_by_file() {
    let mut harness = open("folder");
    drop_file(&mut harness, shared_data("formats/xqf_eleeye"));
    let folder = harness
        .state()
        .state
        .study
        .folder
        .clone()
        .expect("a folder is open");
    assert!(folder.files.len() >= 3);
    let names: Vec<_> = folder
        .files
        .iter()
        .map(|p| p.file_name().unwrap())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "in name order");
    let file = |h: &Harness<'_, ChuheApp>| h.state().state.study.file.clone().unwrap();
    assert_eq!(file(&harness), folder.files[0]);
    key(&mut harness, Key::PageDown);
    assert_eq!(file(&harness), folder.files[1]);
    key(&mut harness, Key::PageDown);
    assert_eq!(file(&harness), folder.files[2]);
    key(&mut harness, Key::PageUp);
    assert_eq!(file(&harness), folder.files[1]);
    assert!(harness.state().state.study.record.move_count() > 0);
}

#[test]
fn comments_and_headers_are_edited_in_place_and_undone() {
    let mut harness = open("comments");
    play(&mut harness, "h2e2");
    let comment = harness.get_by_label("注释");
    comment.click();
    harness.run();
    harness.get_by_label("注释").type_text("当头炮");
    harness.run();
    // Leaving the field writes the comment into the record.
    harness.key_press(Key::Escape);
    harness.run();
    let state = &harness.state().state;
    assert_eq!(
        state.study.record.annotation(state.study.cursor).comment,
        "当头炮"
    );
    // Exactly: the header area also names the opening, "B00 当头炮".
    harness.get_by_label("当头炮");

    harness.get_by_label("红方").click();
    harness.run();
    harness.get_by_label("红方").type_text("胡荣华");
    harness.key_press(Key::Enter);
    harness.run();
    assert_eq!(
        harness.state().state.study.record.headers().get("Red"),
        Some("胡荣华")
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert_eq!(
        harness.state().state.study.record.headers().get("Red"),
        None
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    let state = &harness.state().state;
    assert_eq!(
        state.study.record.annotation(state.study.cursor).comment,
        ""
    );
}

#[test]
fn the_selected_piece_shows_where_it_may_go() {
    let dir = temp_dir("destinations");
    std::fs::write(dir.join("settings.ron"), "(show_destinations: true)").unwrap();
    let mut harness = open_in(&dir);
    click(&mut harness, "h2");
    assert_eq!(harness.state().state.study.selected, Some(sq("h2")));
    let theme = chuhe::theme::Theme::wood();
    let geometry = harness.state().board_geometry().unwrap();
    let mut dots = Vec::new();
    let mut stack: Vec<&egui::Shape> = harness.output().shapes.iter().map(|c| &c.shape).collect();
    while let Some(shape) = stack.pop() {
        match shape {
            egui::Shape::Vec(inner) => stack.extend(inner.iter()),
            egui::Shape::Circle(c) if c.fill == theme.destination => {
                dots.push(geometry.square_at(c.center).unwrap().to_string());
            }
            _ => {}
        }
    }
    dots.sort();
    // The cannon's quiet moves; its capture of the horse on h9 over h7 is ringed instead.
    assert_eq!(
        dots,
        [
            "c2", "d2", "e2", "f2", "g2", "h1", "h3", "h4", "h5", "h6", "i2"
        ]
    );
}

#[test]
fn unsaved_work_can_be_saved_before_another_game_replaces_it() {
    let dir = temp_dir("save-before-replace");
    // Stepping through a folder replaces the game in its tab (anything else opens a
    // tab of its own).
    let folder = dir.join("games");
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("a.pgn");
    std::fs::write(&path, "[Event \"test\"]\n\n1. h2e2 *\n").unwrap();
    let next = folder.join("b.pgn");
    std::fs::write(&next, "1. b0c2 *\n").unwrap();
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .apply(&ctx, Action::File(FileAction::OpenFolder(folder)));
    settle(&mut harness);
    key(&mut harness, Key::End);
    play(&mut harness, "h9g7");
    assert!(harness.state().state.study.dirty);

    // The next file would replace it: the question offers to save first.
    key(&mut harness, Key::PageDown);
    harness.get_by_label("保存").click();
    settle(&mut harness);

    // The work went to its file, then the next file replaced it.
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(
        saved.contains("马８进７") || saved.contains("h9g7"),
        "{saved}"
    );
    let state = &harness.state().state;
    assert_eq!(state.study.file.as_deref(), Some(&*next));
    assert_eq!(state.study.record.move_count(), 1);
    assert!(!state.study.dirty);
    assert!(state.dialog.is_none());
}

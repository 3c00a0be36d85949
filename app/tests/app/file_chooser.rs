//! Choosing files when no desktop portal answers: the in-app browser opens instead of
//! nothing happening, for every file dialog of the app; and a file named on the command
//! line opens at start.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::*;
use chuhe::services::file_chooser::FileChooser;
use chuhe::services::storage::Storage;
use chuhe::settings::Settings;
use chuhe::state::file_chooser::{AfterSave, FilePurpose};
use chuhe::state::{Dialog, Notice};
use common::{key, open_with_settings, temp_dir, wait_for};
use egui::{Key, Modifiers, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The app with `folder` remembered as the last folder read from and saved to, and the
/// in-app browser forced (no desktop's dialog can pop up in a test).
fn open_in_folder(dir: &Path, folder: &Path) -> Harness<'static, ChuheApp> {
    let settings = Settings {
        last_folder: Some(folder.to_owned()),
        last_save_folder: Some(folder.to_owned()),
        ..Settings::default()
    };
    let mut harness = open_with_settings(dir, &settings);
    harness.state_mut().services.file_chooser = FileChooser::in_app();
    harness
}

fn apply(harness: &mut Harness<'_, ChuheApp>, action: impl Into<Action>) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action.into());
    harness.run_ok();
}

fn play(harness: &mut Harness<'_, ChuheApp>, mv: &str) {
    apply(harness, StudyAction::PlayMove(mv.parse().unwrap()));
}

/// Clears the browser's file-name field and types `name` into it, as a user does.
fn type_file_name(harness: &mut Harness<'_, ChuheApp>, name: &str) {
    harness.get_by_label("文件名").focus();
    harness.run_ok();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.key_press(Key::Backspace);
    harness.run_ok();
    harness.get_by_label("文件名").type_text(name);
    harness.run_ok();
}

#[test]
fn with_no_portal_on_the_bus_open_shows_the_in_app_browser_and_opens_the_chosen_game() {
    let dir = temp_dir("file_chooser", "no-portal");
    let root = dir.join("files");
    std::fs::create_dir_all(root.join("games")).unwrap();
    std::fs::write(root.join("games").join("a.pgn"), "1. h2e2 h9g7 *\n").unwrap();
    std::fs::write(root.join("games").join("notes.doc"), "").unwrap();
    let mut harness = open_in_folder(&dir, &root);
    // A bus where nobody answers: the portal probe must find no portal.
    harness.state_mut().services.file_chooser =
        FileChooser::on_bus(&format!("unix:path={}", dir.join("no-bus").display()));

    harness.get_by_label("文件").click();
    harness.run_ok();
    harness.get_by_label_contains("打开…").click();
    harness.run_ok();
    assert_eq!(
        harness
            .state()
            .state
            .file_browser
            .as_ref()
            .map(|b| &b.purpose),
        Some(&FilePurpose::OpenGame),
        "the in-app browser opened"
    );
    harness.get_by_label("打开棋谱");
    // The remembered folder: its sub-folder is listed; a click goes in.
    harness.get_by_label("games/").click();
    harness.run_ok();
    harness.get_by_label("a.pgn").click();
    harness.run_ok();
    assert!(
        harness.query_by_label("notes.doc").is_none(),
        "only game files are offered"
    );
    harness.get_by_label("打开").click();
    harness.run_ok();

    let state = &harness.state().state;
    assert!(state.file_browser.is_none());
    let game = root.join("games").join("a.pgn");
    assert_eq!(state.study.file.as_deref(), Some(game.as_path()));
    assert_eq!(state.study.record.move_count(), 2);
    // The folder is remembered, in the settings file too.
    let games = root.join("games");
    assert_eq!(state.settings.last_folder.as_deref(), Some(games.as_path()));
    let (saved, _) = Storage::in_dir(dir.clone()).load_settings();
    assert_eq!(saved.last_folder, Some(games));
}

#[test]
fn the_browsers_parent_button_path_bar_and_errors() {
    let dir = temp_dir("file_chooser", "navigate");
    let root = dir.join("files");
    std::fs::create_dir_all(root.join("inner")).unwrap();
    std::fs::write(root.join("top.xqf"), "").unwrap();
    let mut harness = open_in_folder(&dir, &root.join("inner"));
    apply(&mut harness, FileAction::OpenDialog);
    assert!(harness.query_by_label("top.xqf").is_none());
    harness.get_by_label("上一级").click();
    harness.run_ok();
    harness.get_by_label("top.xqf");

    // A folder typed in the path bar that does not exist: said, the folder shown stays.
    harness.get_by_label("位置").focus();
    harness.run_ok();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness
        .get_by_label("位置")
        .type_text(&root.join("nowhere").display().to_string());
    harness.run_ok();
    key(&mut harness, Key::Enter);
    let browser = harness.state().state.file_browser.clone().unwrap();
    assert_eq!(browser.folder, root);
    assert!(
        matches!(
            &browser.error,
            Some(Notice::WithArg("chooser-unreadable", _, _))
        ),
        "{:?}",
        browser.error
    );
    harness.get_by_label("top.xqf");

    // A name typed that is no file.
    type_file_name(&mut harness, "missing.pgn");
    key(&mut harness, Key::Enter);
    let browser = harness.state().state.file_browser.clone().unwrap();
    assert!(matches!(
        &browser.error,
        Some(Notice::WithArg("chooser-no-file", _, _))
    ));
    // Escape gives up.
    key(&mut harness, Key::Escape);
    assert!(harness.state().state.file_browser.is_none());
}

#[test]
fn saving_an_untitled_game_asks_in_the_browser_before_replacing_and_adds_the_extension() {
    let dir = temp_dir("file_chooser", "save");
    let root = dir.join("files");
    std::fs::create_dir_all(&root).unwrap();
    let existing = root.join("game.pgn");
    std::fs::write(&existing, "old\n").unwrap();
    let mut harness = open_in_folder(&dir, &root);
    play(&mut harness, "h2e2");

    // Ctrl+S on an untitled game: where to save, with a name offered.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_ok();
    let browser = harness
        .state()
        .state
        .file_browser
        .clone()
        .expect("asked where");
    assert_eq!(browser.purpose, FilePurpose::SaveGame(AfterSave::Stay));
    assert_eq!(browser.file_name, "game.pgn");
    harness.get_by_label("保存棋谱");
    key(&mut harness, Key::Enter);
    // The file exists: asked first, not yet written.
    harness.get_by_label("“game.pgn”已经存在。要替换它吗？");
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "old\n");
    harness.get_by_label("替换").click();
    harness.run_ok();
    let saved = std::fs::read_to_string(&existing).unwrap();
    assert!(saved.contains("炮二平五"), "{saved}");
    assert!(!harness.state().state.study.dirty);

    // Save as, a name without its extension.
    play(&mut harness, "h9g7");
    apply(&mut harness, FileAction::SaveAsDialog);
    type_file_name(&mut harness, "对局");
    key(&mut harness, Key::Enter);
    let path = root.join("对局.pgn");
    assert!(std::fs::read_to_string(&path).unwrap().contains("马８进７"));
    assert_eq!(
        harness.state().state.study.file.as_deref(),
        Some(path.as_path())
    );
}

/// A folder of two games to step through (stepping away from edited work is what
/// replaces it in place). The first breaks off after two moves (马八进六 is blocked), so
/// Save does not write over its file: it asks where.
fn folder_to_step(root: &Path) -> PathBuf {
    let folder = root.join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("a.pgn"),
        "1. 炮二平五 马８进７\n2. 马八进六 车９平８ *\n",
    )
    .unwrap();
    std::fs::write(folder.join("b.pgn"), "1. b0c2 *\n").unwrap();
    folder
}

#[test]
fn save_first_goes_on_only_once_the_browser_saved_the_work() {
    let dir = temp_dir("file_chooser", "save-first");
    let root = dir.join("files");
    std::fs::create_dir_all(&root).unwrap();
    let folder = folder_to_step(&root);
    let mut harness = open_in_folder(&dir, &root);
    apply(&mut harness, FileAction::OpenFolder(folder.clone()));
    apply(
        &mut harness,
        StudyAction::SetHeader("Event".to_owned(), "改过".to_owned()),
    );
    let first = folder.join("a.pgn");
    assert_eq!(harness.state().state.study.file.as_deref(), Some(&*first));

    // The next file would replace the work: 保存, then the browser is cancelled.
    apply(&mut harness, FileAction::NextFile);
    assert_eq!(harness.state().state.dialog, Some(Dialog::UnsavedOnReplace));
    harness.get_by_label("保存").click();
    harness.run_ok();
    assert!(harness.state().state.file_browser.is_some());
    key(&mut harness, Key::Escape);
    let state = &harness.state().state;
    assert!(state.file_browser.is_none());
    assert!(state.study.dirty, "the work stays on the board");
    assert_eq!(state.study.record.headers().get("Event"), Some("改过"));
    assert_eq!(state.study.file.as_deref(), Some(&*first));
    assert!(harness.state().queue.held.is_none());

    // Again, and saved this time: then the next file replaces the saved work.
    apply(&mut harness, FileAction::NextFile);
    harness.get_by_label("保存").click();
    harness.run_ok();
    key(&mut harness, Key::Enter);
    let saved = std::fs::read_to_string(root.join("game.pgn")).unwrap();
    assert!(saved.contains("改过"), "{saved}");
    let state = &harness.state().state;
    assert!(!state.study.dirty);
    assert_eq!(state.study.file.as_deref(), Some(&*folder.join("b.pgn")));
}

#[test]
fn every_file_dialog_of_the_app_falls_back_to_the_browser() {
    let dir = temp_dir("file_chooser", "every");
    let mut harness = open_in_folder(&dir, &dir);
    let asks: [(Action, FilePurpose); 8] = [
        (FileAction::OpenDialog.into(), FilePurpose::OpenGame),
        (FileAction::OpenFolderDialog.into(), FilePurpose::OpenFolder),
        (
            FileAction::SaveAsDialog.into(),
            FilePurpose::SaveGame(AfterSave::Stay),
        ),
        (EngineAction::AddEngineDialog.into(), FilePurpose::AddEngine),
        (
            PuzzleAction::ImportDialog.into(),
            FilePurpose::ImportPuzzles,
        ),
        (
            PuzzleAction::ExportDialog(0).into(),
            FilePurpose::ExportPuzzles(0),
        ),
        (ClubAction::ExportCsvDialog.into(), FilePurpose::ClubCsv),
        (ClubAction::ExportPngDialog.into(), FilePurpose::ClubPng),
    ];
    for (action, purpose) in asks {
        apply(&mut harness, action);
        assert_eq!(
            harness
                .state()
                .state
                .file_browser
                .as_ref()
                .map(|b| &b.purpose),
            Some(&purpose)
        );
        harness.get_by_label("取消").click();
        harness.run_ok();
        assert!(harness.state().state.file_browser.is_none());
    }
}

#[test]
fn the_diagram_is_exported_where_the_browser_says() {
    let dir = temp_dir("file_chooser", "diagram");
    let root = dir.join("files");
    std::fs::create_dir_all(&root).unwrap();
    let mut harness = open_in_folder(&dir, &root);
    harness.get_by_label("文件").click();
    harness.run_ok();
    harness.get_by_label("导出棋图（PNG）…").click();
    harness.run_ok();
    let options = harness.state().state.export_dialog.unwrap();
    apply(&mut harness, ExportAction::PngDialog(options));
    harness.get_by_label("导出棋图");
    key(&mut harness, Key::Enter);
    let path = root.join("diagram.png");
    wait_for(&mut harness, Duration::from_secs(120), |app| {
        app.state
            .notice
            .as_ref()
            .is_some_and(|n| format!("{n:?}").contains("export-done"))
    });
    assert!(image::open(&path).is_ok(), "a PNG was written");
}

#[test]
fn choosing_a_folder_in_the_browser_opens_its_first_game() {
    let dir = temp_dir("file_chooser", "folder");
    let root = dir.join("files");
    std::fs::create_dir_all(root.join("set")).unwrap();
    std::fs::write(root.join("set").join("1.pgn"), "1. h2e2 *\n").unwrap();
    std::fs::write(root.join("set").join("2.pgn"), "1. b2e2 *\n").unwrap();
    let mut harness = open_in_folder(&dir, &root);
    apply(&mut harness, FileAction::OpenFolderDialog);
    harness.get_by_label("set/").click();
    harness.run_ok();
    harness.get_by_label("选择此文件夹").click();
    harness.run_ok();
    let state = &harness.state().state;
    assert_eq!(state.study.folder.as_ref().map(|f| f.files.len()), Some(2));
    assert_eq!(state.study.record.move_count(), 1);
}

/// The app built as `main` builds it for `chuhe ARG`, its files kept in `dir`.
fn start_with_argument(dir: &Path, argument: &Path) -> Harness<'static, ChuheApp> {
    let dir = dir.to_owned();
    let file = chuhe::file_argument(["chuhe".into(), argument.as_os_str().to_owned()]);
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1200.0, 800.0))
        .build_eframe(move |cc| ChuheApp::with_file(cc, Storage::in_dir(dir.clone()), file));
    harness.run_ok();
    harness
}

#[test]
fn a_game_named_on_the_command_line_opens_at_start() {
    let dir = temp_dir("file_chooser", "argument");
    let game = dir.join("对局.pgn");
    std::fs::write(&game, "[Red \"胡荣华\"]\n\n1. h2e2 h9g7 2. h0g2 *\n").unwrap();
    let harness = start_with_argument(&dir, &game);
    let state = &harness.state().state;
    assert_eq!(state.study.file.as_deref(), Some(game.as_path()));
    assert_eq!(state.study.record.move_count(), 3);
    harness.get_by_label("对局.pgn");
}

#[test]
fn a_bad_file_on_the_command_line_says_why_and_the_app_runs() {
    let dir = temp_dir("file_chooser", "bad-argument");
    let bad = dir.join("broken.xqf");
    std::fs::write(&bad, [0xff_u8, 0x00, 0x13]).unwrap();
    let missing = dir.join("missing.pgn");
    for path in [bad, missing] {
        let harness = start_with_argument(&dir, &path);
        let state = &harness.state().state;
        assert!(
            matches!(
                &state.notice,
                Some(Notice::Problem(problem)) if problem.id == "notice-open-failed"
            ),
            "{path:?}: {:?}",
            state.notice
        );
        assert!(state.study.file.is_none());
    }
}

#[test]
fn with_an_autosave_the_restore_question_comes_first_then_the_file_opens() {
    let dir = temp_dir("file_chooser", "autosave-argument");
    let game = dir.join("game.pgn");
    std::fs::write(&game, "1. h2e2 *\n").unwrap();
    let autosave: PathBuf = Storage::in_dir(dir.clone()).autosave_path().unwrap();
    std::fs::create_dir_all(autosave.parent().unwrap()).unwrap();
    std::fs::write(&autosave, "1. b2e2 h9g7 *\n").unwrap();

    let mut harness = start_with_argument(&dir, &game);
    assert_eq!(harness.state().state.dialog, Some(Dialog::RestoreAutosave));
    assert!(harness.state().state.study.file.is_none(), "not yet");
    // Thrown away: the file opens.
    apply(&mut harness, FileAction::RestoreAutosave(false));
    let state = &harness.state().state;
    assert_eq!(state.study.file.as_deref(), Some(game.as_path()));
    assert_eq!(state.study.record.move_count(), 1);

    // Restored: the file opens in a tab of its own beside the restored work.
    std::fs::write(&autosave, "1. b2e2 h9g7 *\n").unwrap();
    let mut harness = start_with_argument(&dir, &game);
    apply(&mut harness, FileAction::RestoreAutosave(true));
    let state = &harness.state().state;
    assert_eq!(state.study.file.as_deref(), Some(game.as_path()));
    assert_eq!(state.study.record.move_count(), 1);
    assert_eq!(state.tab_count(), 2);
    let restored = state.all_tabs().find(|s| s.file.is_none()).unwrap();
    assert_eq!(restored.record.move_count(), 2, "the restored work");
    assert!(restored.dirty);
}

#[test]
fn the_browser_fits_a_small_window() {
    let dir = temp_dir("file_chooser", "small");
    let settings = Settings {
        last_folder: Some(dir.clone()),
        ..Settings::default()
    };
    Storage::in_dir(dir.clone())
        .save_settings(&settings)
        .unwrap();
    let storage_dir = dir.clone();
    let mut harness = Harness::builder()
        .with_size(Vec2::new(320.0, 480.0))
        .build_eframe(move |cc| ChuheApp::with_storage(cc, Storage::in_dir(storage_dir.clone())));
    harness.state_mut().services.file_chooser = FileChooser::in_app();
    harness.run_ok();
    apply(&mut harness, FileAction::SaveAsDialog);
    for label in ["保存", "取消", "文件名"] {
        let rect = harness.get_by_label(label).rect();
        assert!(
            rect.min.x >= 0.0 && rect.max.x <= 320.0 && rect.max.y <= 480.0,
            "{label} at {rect:?}"
        );
    }
}

/// The folder the in-app browser shows, while it is open.
fn browser_folder(harness: &Harness<'_, ChuheApp>) -> Option<PathBuf> {
    harness
        .state()
        .state
        .file_browser
        .as_ref()
        .map(|b| b.folder.clone())
}

#[test]
fn saving_starts_where_the_user_last_saved_and_opening_where_a_file_was_last_read() {
    let dir = temp_dir("file_chooser", "two-folders");
    let (read, saved, documents) = (dir.join("read"), dir.join("saved"), dir.join("documents"));
    for folder in [&read, &saved, &documents] {
        std::fs::create_dir_all(folder).unwrap();
    }
    std::fs::write(read.join("a.pgn"), "1. h2e2 h9g7 *\n").unwrap();
    // Files were read from `read` before; nothing was saved yet.
    let settings = Settings {
        last_folder: Some(read.clone()),
        ..Settings::default()
    };
    let mut harness = open_with_settings(&dir, &settings);
    harness.state_mut().services.file_chooser =
        FileChooser::in_app().with_documents(documents.clone());
    play(&mut harness, "h2e2");

    // Saving starts in Documents, not in the folder read from.
    apply(&mut harness, FileAction::SaveAsDialog);
    assert_eq!(browser_folder(&harness), Some(documents.clone()));
    key(&mut harness, Key::Escape);
    // Opening starts in the folder read from.
    apply(&mut harness, FileAction::OpenDialog);
    assert_eq!(browser_folder(&harness), Some(read.clone()));
    key(&mut harness, Key::Escape);

    // Saved into `saved`: the next save starts there, opening still in `read`.
    apply(&mut harness, FileAction::SaveAsDialog);
    apply(&mut harness, FileChooserAction::Browse(saved.clone()));
    type_file_name(&mut harness, "练习");
    key(&mut harness, Key::Enter);
    assert!(saved.join("练习.pgn").is_file());
    let state = &harness.state().state;
    assert_eq!(
        state.settings.last_save_folder.as_deref(),
        Some(saved.as_path())
    );
    assert_eq!(state.settings.last_folder.as_deref(), Some(read.as_path()));

    // A game opened from `read` does not move where saving starts.
    apply(&mut harness, FileAction::OpenDialog);
    harness.get_by_label("a.pgn").click();
    harness.run_ok();
    harness.get_by_label("打开").click();
    harness.run_ok();
    assert_eq!(
        harness.state().state.study.file.as_deref(),
        Some(read.join("a.pgn").as_path())
    );
    apply(&mut harness, FileAction::SaveAsDialog);
    assert_eq!(browser_folder(&harness), Some(saved.clone()));
    key(&mut harness, Key::Escape);
    // Both are in the settings file.
    let (kept, _) = Storage::in_dir(dir.clone()).load_settings();
    assert_eq!(kept.last_save_folder, Some(saved.clone()));
    assert_eq!(kept.last_folder, Some(read.clone()));

    // The folder saved to is gone: saving starts in Documents again.
    std::fs::remove_dir_all(&saved).unwrap();
    apply(&mut harness, FileAction::SaveAsDialog);
    assert_eq!(browser_folder(&harness), Some(documents));
}

#[test]
fn a_games_open_dialog_lists_only_game_files_unless_all_files_is_ticked() {
    let dir = temp_dir("file_chooser", "all-files");
    let root = dir.join("files");
    std::fs::create_dir_all(&root).unwrap();
    for file in ["a.pgn", "B.PGN", "c.xqf", "README.TXT", "cover.jpg"] {
        std::fs::write(root.join(file), "").unwrap();
    }
    let mut harness = open_in_folder(&dir, &root);
    apply(&mut harness, FileAction::OpenDialog);
    for game in ["a.pgn", "B.PGN", "c.xqf"] {
        harness.get_by_label(game);
    }
    for other in ["README.TXT", "cover.jpg"] {
        assert!(
            harness.query_by_label(other).is_none(),
            "{other} is no game"
        );
    }
    harness.get_by_label("所有文件").click();
    harness.run_ok();
    for any in ["a.pgn", "README.TXT", "cover.jpg"] {
        harness.get_by_label(any);
    }
    harness.get_by_label("所有文件").click();
    harness.run_ok();
    assert!(harness.query_by_label("README.TXT").is_none());
    key(&mut harness, Key::Escape);
    // A folder chooser lists folders only, and has nothing to tick.
    apply(&mut harness, FileAction::OpenFolderDialog);
    assert!(harness.query_by_label("所有文件").is_none());
    assert!(harness.query_by_label("a.pgn").is_none());
}

//! Game collections in the app, driven by clicks: a small collection made in a temporary
//! folder opens at start; the explorer lists the start position's moves with the counts
//! the collection itself gives, a click on a move plays it, a click on a game opens it in
//! a new tab at the position; the browser filters by player, sorts by a column and opens
//! a game.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::*;
use chuhe::settings::Settings;
use chuhe::state::collections::ExplorerAnswer;
use chuhe_core::Position;
use chuhe_core::db::{Collection, GeneratorOptions, random_games};
use chuhe_core::notation::{Notation, format_move};
use common::{open_with_settings, temp_dir, wait_for};
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::NodeT as _;
use egui_kittest::kittest::Queryable as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// A collection of `games` random games (with a few players, so a name repeats) in `dir`.
fn make_collection(dir: &Path, games: usize) -> PathBuf {
    let path = dir.join("games.chuhedb");
    let mut collection = Collection::open(&path).unwrap();
    let options = GeneratorOptions {
        seed: 32,
        games,
        players: 8,
    };
    collection
        .import_records(
            random_games(&options),
            "test",
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap();
    path
}

/// The app opened with the collection at `path` remembered, the explorer shown or not.
fn open_app(dir: &Path, path: &Path, explorer: bool) -> Harness<'static, ChuheApp> {
    let settings = Settings {
        collections: vec![path.to_owned()],
        explorer_open: explorer,
        ..Settings::default()
    };
    let mut harness = open_with_settings(&dir.join("home"), &settings);
    wait_for(&mut harness, WAIT, |app| {
        !app.state.collections.open.is_empty()
    });
    harness
}

/// Waits for the explorer's answer about the position on the board.
fn explorer_answer(harness: &mut Harness<'static, ChuheApp>) -> ExplorerAnswer {
    wait_for(harness, WAIT, |app| {
        let c = &app.state.collections;
        matches!(&c.answer, Some(Ok(_)))
            && c.asked.as_ref().map(|k| k.fen.clone()) == Some(app.state.position().to_string())
    });
    harness.run();
    match &harness.state().state.collections.answer {
        Some(Ok(answer)) => answer.clone(),
        other => panic!("no answer: {other:?}"),
    }
}

fn apply(harness: &mut Harness<'_, ChuheApp>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
    harness.run_ok();
}

#[test]
fn the_explorer_lists_the_collections_moves_and_a_click_plays_one() {
    let dir = temp_dir("collections", "explorer");
    let path = make_collection(&dir, 120);
    let expected = Collection::open_read_only(&path)
        .unwrap()
        .explore(&Position::startpos(), false)
        .unwrap();
    assert!(
        expected.moves.len() > 1,
        "the generator opens in several ways"
    );
    let mut harness = open_app(&dir, &path, true);
    let answer = explorer_answer(&mut harness);
    assert_eq!(answer.total.games, expected.total.games);
    let counts = |moves: &[chuhe_core::db::MoveStats]| -> Vec<(String, u64)> {
        moves
            .iter()
            .map(|m| (m.mv.unwrap().to_string(), m.games))
            .collect()
    };
    assert_eq!(counts(&answer.moves), counts(&expected.moves));
    // On screen: each move in Chinese with its count.
    let start = Position::startpos();
    for stats in &expected.moves {
        let text = format_move(&start, stats.mv.unwrap(), Notation::Chinese);
        harness.get_by_label(&text);
        let share = (stats.games as f64 * 100.0 / expected.total.games as f64).round();
        let count = format!("{} ({share}%)", stats.games);
        assert!(
            harness.get_all_by_label(&count).next().is_some(),
            "{count} shown"
        );
    }
    // A click on the second most played move plays it on the board.
    let chosen = expected.moves[1].mv.unwrap();
    harness
        .get_by_label(&format_move(&start, chosen, Notation::Chinese))
        .click();
    harness.run();
    let mut after = Position::startpos();
    after.play_unchecked(chosen);
    assert_eq!(
        harness.state().state.position().to_string(),
        after.to_string()
    );
    // And the explorer follows: the answer now is about the new position.
    let next = explorer_answer(&mut harness);
    assert_eq!(next.total.games, expected.moves[1].games);
    // An answer about the start position, come late, is dropped: the board moved on.
    let mut stale = harness.state().state.collections.asked.clone().unwrap();
    stale.fen = Position::startpos().to_string();
    let late = ExplorerAnswer {
        total: expected.total.clone(),
        ..ExplorerAnswer::default()
    };
    apply(
        &mut harness,
        Action::Collections(CollectionAction::Explored(stale, Ok(late))),
    );
    assert_eq!(
        harness.state().state.collections.answer,
        Some(Ok(next)),
        "the stale answer was not taken"
    );
}

#[test]
fn the_explorer_says_how_many_games_reached_the_position_and_pages_through_them_all() {
    let dir = temp_dir("collections", "explorer-pages");
    let path = make_collection(&dir, 75);
    let reached = Collection::open_read_only(&path)
        .unwrap()
        .explore(&Position::startpos(), false)
        .unwrap()
        .total
        .games;
    assert_eq!(reached, 75, "every game starts from the start");
    let mut harness = open_app(&dir, &path, true);
    let answer = explorer_answer(&mut harness);
    assert_eq!(answer.games_total, 75);
    assert_eq!(answer.games.len(), 30);
    harness.get_by_label("走到此局面的对局（第 1–30 局，共 75 局）");
    let mut seen: Vec<i64> = answer.games.iter().map(|g| g.info.id).collect();
    // Page on to the end: every game comes once, newest first.
    for (from, to) in [(31, 60), (61, 75)] {
        harness.get_by_label("▶").click();
        harness.run();
        wait_for(
            &mut harness,
            WAIT,
            |app| matches!(&app.state.collections.answer, Some(Ok(a)) if a.games_from + 1 == from),
        );
        harness.run();
        harness.get_by_label(&format!("走到此局面的对局（第 {from}–{to} 局，共 75 局）"));
        let answer = explorer_answer(&mut harness);
        seen.extend(answer.games.iter().map(|g| g.info.id));
    }
    assert!(
        harness.get_by_label("▶").accesskit_node().is_disabled(),
        "no page after the last"
    );
    let newest_first: Vec<i64> = (1..=75).rev().collect();
    assert_eq!(seen, newest_first);
    // And back a page.
    harness.get_by_label("◀").click();
    harness.run();
    wait_for(
        &mut harness,
        WAIT,
        |app| matches!(&app.state.collections.answer, Some(Ok(a)) if a.games_from == 30),
    );
    harness.run();
    harness.get_by_label("走到此局面的对局（第 31–60 局，共 75 局）");
    // Another position starts at its first page again, with its own count.
    let first = answer.moves[0].clone();
    apply(
        &mut harness,
        Action::Study(StudyAction::PlayMove(first.mv.unwrap())),
    );
    let next = explorer_answer(&mut harness);
    assert_eq!(next.games_from, 0);
    assert_eq!(next.games_total, first.games);
    assert_eq!(next.games.len() as u64, first.games.min(30));
}

#[test]
fn a_click_on_a_game_opens_it_in_a_new_tab_at_the_position() {
    let dir = temp_dir("collections", "open-game");
    let path = make_collection(&dir, 80);
    let mut harness = open_app(&dir, &path, true);
    let first = explorer_answer(&mut harness).moves[0].mv.unwrap();
    // A move on the board first, so that the game there is not a blank one (which a game
    // opened would take the place of).
    apply(&mut harness, Action::Study(StudyAction::PlayMove(first)));
    let answer = explorer_answer(&mut harness);
    let game = answer.games.first().expect("games reached it").clone();
    assert_eq!(game.ply, 1);
    let label = format!("{} – {}", game.info.red, game.info.black);
    let button = harness
        .get_all_by_label_contains(&label)
        .next()
        .expect("the game is listed");
    button.click();
    harness.run();
    wait_for(&mut harness, WAIT, |app| app.state.tab_count() == 2);
    let state = &harness.state().state;
    let record = &state.study.record;
    assert_eq!(record.headers().get("Red").unwrap_or(""), game.info.red);
    assert_eq!(record.moves_to(state.study.cursor).len(), 1);
    let mut expected = Position::startpos();
    expected.play_unchecked(first);
    assert_eq!(state.position().to_string(), expected.to_string());
}

#[test]
fn the_browser_filters_by_player_sorts_by_a_column_and_opens_a_game() {
    let dir = temp_dir("collections", "browser");
    let path = make_collection(&dir, 60);
    let mut harness = open_app(&dir, &path, false);
    apply(
        &mut harness,
        Action::Collections(CollectionAction::ToggleBrowser),
    );
    let page_of = |harness: &Harness<'_, ChuheApp>| {
        harness
            .state()
            .state
            .collections
            .browser
            .page
            .clone()
            .map(|(total, games)| (total, games.into_iter().map(|g| g.info).collect::<Vec<_>>()))
    };
    wait_for(&mut harness, WAIT, |app| {
        app.state.collections.browser.page.is_some()
    });
    let (total, games) = page_of(&harness).unwrap();
    assert_eq!(total, 60);
    // Filter by the first game's Red player.
    let player = games[0].red.clone();
    harness.get_by_label("棋手").click();
    harness.run();
    harness.get_by_label("棋手").type_text(&player);
    harness.run();
    wait_for(&mut harness, WAIT, |app| {
        let b = &app.state.collections.browser;
        b.filter.player == player && listed(b)
    });
    wait_for(&mut harness, WAIT, |_| true);
    let (filtered, games) = page_of(&harness).unwrap();
    assert!(
        filtered > 0 && filtered < 60,
        "{filtered} games of {player}"
    );
    assert!(
        games
            .iter()
            .all(|g| g.red.contains(&player) || g.black.contains(&player))
    );
    // Clear the filter, then sort by length, and the other way round.
    harness.get_by_label("棋手").click();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    harness.key_press(Key::Backspace);
    harness.run();
    wait_for(&mut harness, WAIT, |app| {
        app.state.collections.browser.filter.player.is_empty()
            && listed(&app.state.collections.browser)
            && app
                .state
                .collections
                .browser
                .page
                .as_ref()
                .is_some_and(|(t, _)| *t == 60)
    });
    let plies = |harness: &Harness<'_, ChuheApp>| -> Vec<u32> {
        page_of(harness)
            .unwrap()
            .1
            .iter()
            .map(|g| g.plies)
            .collect()
    };
    let unsorted = plies(&harness);
    harness.get_by_label("步数").click();
    harness.run();
    wait_for(&mut harness, WAIT, |app| {
        let b = &app.state.collections.browser;
        b.sort == chuhe_core::db::GameSort::Plies && listed(b)
    });
    wait_for(&mut harness, WAIT, |_| true);
    let ascending = plies(&harness);
    let mut sorted = ascending.clone();
    sorted.sort();
    assert_eq!(ascending, sorted);
    assert_ne!(ascending, unsorted, "the order changed");
    harness.get_by_label("步数 ▲").click();
    harness.run();
    wait_for(&mut harness, WAIT, |app| {
        let b = &app.state.collections.browser;
        b.descending
            && listed(b)
            && b.page.as_ref().is_some_and(|(_, g)| {
                g.first().map(|g| g.info.plies) >= g.last().map(|g| g.info.plies)
            })
    });
    let descending = plies(&harness);
    assert!(descending.windows(2).all(|w| w[0] >= w[1]));
    assert!(descending[0] >= *sorted.last().unwrap());
    // Choose the longest game's row and press Enter: it opens in a new tab.
    let (_, games) = page_of(&harness).unwrap();
    let longest = games[0].clone();
    harness
        .get_all_by_label(&longest.red)
        .next()
        .expect("the row is shown")
        .click();
    harness.run();
    let chosen = harness
        .state()
        .state
        .collections
        .browser
        .selected
        .clone()
        .expect("a row is chosen")
        .1;
    harness.key_press(Key::Enter);
    harness.run();
    // The blank game on the board gives its place to the game opened.
    wait_for(&mut harness, WAIT, |app| {
        app.state.study.record.move_count() > 0
    });
    let state = &harness.state().state;
    let info = Collection::open_read_only(&path)
        .unwrap()
        .game_info(chosen)
        .unwrap();
    assert_eq!(
        state.study.record.main_line_moves().len() as u32,
        info.plies
    );
    assert_eq!(
        state.study.record.headers().get("Red").unwrap_or(""),
        info.red
    );
}

#[test]
fn an_import_of_a_folder_reports_its_progress_and_its_failures_in_words() {
    let dir = temp_dir("collections", "import");
    let path = dir.join("new.chuhedb");
    Collection::open(&path).unwrap();
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    // The reference data beside the project (or beside the folder of its worktrees).
    let sample = ["../../shared", "../../../shared"]
        .iter()
        .map(|up| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(up)
                .join("data/games/eleeye_ccgc")
        })
        .find(|p| p.is_dir())
        .expect("the shared data is beside the project");
    let mut copied = 0;
    for entry in std::fs::read_dir(&sample).unwrap().flatten().take(3) {
        std::fs::copy(entry.path(), games.join(entry.file_name())).unwrap();
        copied += 1;
    }
    assert!(copied > 0, "the shared games are there");
    std::fs::write(games.join("broken.pgn"), "[Event \"x\"]\n1. h2e2 zz9 *\n").unwrap();
    let mut harness = open_app(&dir, &path, true);
    apply(
        &mut harness,
        Action::Collections(CollectionAction::Import(vec![games.clone()])),
    );
    // Under way, or (three small files) done already.
    let c = &harness.state().state.collections;
    assert!(c.import.is_some() || c.last_import.is_some());
    wait_for(&mut harness, Duration::from_secs(60), |app| {
        app.state.collections.last_import.is_some()
    });
    wait_for(&mut harness, WAIT, |app| {
        app.state.collections.open[0].games > 0
    });
    harness.run();
    let state = &harness.state().state;
    let outcome = state.collections.last_import.clone().unwrap();
    let in_file = Collection::open_read_only(&path)
        .unwrap()
        .game_count()
        .unwrap();
    assert_eq!(outcome.progress.games, in_file);
    assert_eq!(state.collections.open[0].games, in_file);
    assert!(!outcome.failures.is_empty(), "the broken file is reported");
    // Said in Chinese, naming the file.
    harness.get_by_label_contains("已导入“new”");
    harness.get_by_label_contains("未能导入的文件").click();
    harness.run_ok();
    harness.get_by_label_contains("broken.pgn");
}

/// The position a game of the collection at `path` reached after `ply` plies of its main
/// line, or at its end.
fn game_position(path: &Path, id: i64, ply: Option<u32>) -> String {
    let record = Collection::open(path).unwrap().game(id).unwrap();
    let line = record.main_line();
    let at = ply.map_or(line.len(), |p| p as usize);
    match at {
        0 => record.start().to_string(),
        n => record.position_at(line[n - 1]).unwrap().to_string(),
    }
}

#[test]
fn the_browser_prints_a_worksheet_of_the_games_listed() {
    let dir = temp_dir("collections", "worksheet");
    let path = make_collection(&dir, 60);
    let mut harness = open_app(&dir, &path, false);
    apply(
        &mut harness,
        Action::Collections(CollectionAction::ToggleBrowser),
    );
    wait_for(&mut harness, WAIT, |app| {
        app.state.collections.browser.page.is_some()
    });
    harness.get_by_label("打印习题纸").click();
    harness.run_steps(6);
    wait_for(&mut harness, WAIT, |app| {
        app.state.worksheet_dialog.is_some()
    });
    harness.run_steps(6);
    // A page of 50 of the 60 games, each at its end, titled by its players and event.
    let state = &harness.state().state;
    let (_, listed) = state.collections.browser.page.clone().unwrap();
    let options = state.worksheet_dialog.clone().unwrap();
    assert_eq!(
        options.source,
        chuhe::state::worksheet::WorksheetSource::Collection
    );
    let entries = state.worksheet_games.clone();
    assert_eq!(entries.len(), 50);
    for (entry, game) in entries.iter().zip(&listed) {
        let info = &game.info;
        assert!(
            entry
                .title
                .starts_with(&format!("{} — {}，{}", info.red, info.black, info.event)),
            "{}",
            entry.title
        );
        assert_eq!(
            entry.position.to_string(),
            game_position(&path, info.id, None)
        );
    }
    // The dialog is open with the hints choice, the source named in the list.
    harness.get_by_label("附提示（先走哪个子）");
    harness.get_by_label("局面：").click();
    harness.run_steps(6);
    harness.get_by_label("棋谱库列出的 50 局");
    harness.key_press(egui::Key::Escape);
    harness.run_steps(6);
    harness.get_by_label("取消").click();
    harness.run_steps(6);

    // A position search: each game at the position the board shows.
    let start = Position::startpos();
    let first = harness
        .state()
        .state
        .collections
        .browser
        .page
        .clone()
        .unwrap()
        .1[0]
        .clone();
    let record = Collection::open(&path)
        .unwrap()
        .game(first.info.id)
        .unwrap();
    let opening = record.main_line_moves()[0];
    apply(&mut harness, Action::Study(StudyAction::PlayMove(opening)));
    apply(
        &mut harness,
        Action::Collections(CollectionAction::FindPosition(None)),
    );
    wait_for(&mut harness, WAIT, |app| {
        let browser = &app.state.collections.browser;
        browser.position.is_some()
            && browser
                .page
                .as_ref()
                .is_some_and(|(_, games)| games.iter().all(|g| g.ply == 1))
    });
    let listed = harness
        .state()
        .state
        .collections
        .browser
        .page
        .clone()
        .unwrap()
        .1;
    assert!(!listed.is_empty());
    harness.get_by_label("打印习题纸").click();
    harness.run_steps(6);
    wait_for(&mut harness, WAIT, |app| {
        app.state.worksheet_dialog.is_some()
    });
    let entries = harness.state().state.worksheet_games.clone();
    assert_eq!(entries.len(), listed.len());
    let mut reached = start.clone();
    reached.play_unchecked(opening);
    assert!(entries.iter().all(|e| e.position == reached));
    assert!(
        listed
            .iter()
            .any(|g| game_position(&path, g.info.id, None) != reached.to_string()),
        "the games go on past the position"
    );
}

/// Clicks the `button` at `pos` (pressed and let go where it is) and lets the app settle.
fn click_at(harness: &mut Harness<'_, ChuheApp>, pos: egui::Pos2, button: egui::PointerButton) {
    harness.event(egui::Event::PointerMoved(pos));
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos,
            button,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        harness.step();
    }
    harness.run();
}

/// A spot of the board drawn last that is no point: the middle of the square between
/// a0, b0, a1 and b1, where no circle can be drawn and no piece stands.
fn off_the_points(harness: &Harness<'_, ChuheApp>) -> egui::Pos2 {
    let geometry = harness
        .state()
        .board_geometry()
        .expect("the board was drawn");
    let (a0, b1) = (
        geometry.point("a0".parse().unwrap()),
        geometry.point("b1".parse().unwrap()),
    );
    let middle = a0 + (b1 - a0) / 2.0;
    assert_eq!(geometry.square_at(middle), None);
    middle
}

/// Waits for the browser's list of the games that reached `position`, and checks it is
/// what the collection itself says: as many games as reached it, each at `ply`.
fn games_found(
    harness: &mut Harness<'static, ChuheApp>,
    path: &Path,
    position: &Position,
    ply: u32,
) {
    let fold = harness.state().state.settings.explorer_fold_mirror;
    let expected = Collection::open_read_only(path)
        .unwrap()
        .explore(position, fold)
        .unwrap()
        .total
        .games;
    assert!(expected > 0, "games of the collection reach the position");
    wait_for(harness, WAIT, |app| {
        let browser = &app.state.collections.browser;
        browser.open && browser.position.is_some() && browser.page.is_some()
    });
    harness.run();
    let browser = &harness.state().state.collections.browser;
    assert_eq!(
        browser.position.as_ref(),
        Some(position),
        "the position looked for"
    );
    let (total, games) = browser.page.clone().unwrap();
    assert_eq!(total, expected);
    assert!(games.iter().all(|g| g.ply == ply), "each game at ply {ply}");
}

#[test]
fn a_right_click_beside_the_points_of_the_main_board_finds_its_position() {
    let dir = temp_dir("collections", "board-menu");
    let path = make_collection(&dir, 80);
    let mut harness = open_app(&dir, &path, false);
    let record = Collection::open(&path).unwrap().game(1).unwrap();
    let opening = record.main_line_moves()[0];
    apply(&mut harness, Action::Study(StudyAction::PlayMove(opening)));
    let mut reached = Position::startpos();
    reached.play_unchecked(opening);
    // A right click on a point still draws a circle, and opens no menu.
    let geometry = harness.state().board_geometry().unwrap();
    let e6 = geometry.point("e6".parse().unwrap());
    click_at(&mut harness, e6, egui::PointerButton::Secondary);
    let state = &harness.state().state;
    assert_eq!(
        state
            .study
            .record
            .annotation(state.study.cursor)
            .circles
            .len(),
        1,
        "the circle is drawn"
    );
    assert!(harness.query_by_label("查找此局面").is_none(), "no menu");
    // Off the points the menu opens, with the board's other entries.
    let spot = off_the_points(&harness);
    click_at(&mut harness, spot, egui::PointerButton::Secondary);
    harness.get_by_label("复制 FEN");
    harness.get_by_label("翻转棋盘");
    harness.get_by_label("查找此局面").click();
    harness.run();
    assert!(
        harness.query_by_label("复制 FEN").is_none(),
        "the menu closed"
    );
    games_found(&mut harness, &path, &reached, 1);
}

#[test]
fn the_editors_board_finds_the_position_set_up_on_it_not_the_main_boards() {
    let dir = temp_dir("collections", "editor-menu");
    let path = make_collection(&dir, 80);
    let mut harness = open_app(&dir, &path, false);
    // The main board stays at the start; the editor sets up a game's position two plies
    // on.
    let record = Collection::open(&path).unwrap().game(2).unwrap();
    let mut reached = Position::startpos();
    for m in &record.main_line_moves()[..2] {
        reached.play_unchecked(*m);
    }
    apply(&mut harness, Action::Editor(EditorAction::Open));
    apply(
        &mut harness,
        Action::Editor(EditorAction::ApplyFen(reached.to_string())),
    );
    assert_eq!(
        harness.state().state.position().to_string(),
        Position::startpos().to_string()
    );
    let spot = off_the_points(&harness);
    click_at(&mut harness, spot, egui::PointerButton::Secondary);
    harness.get_by_label("查找此局面").click();
    harness.run();
    games_found(&mut harness, &path, &reached, 2);
    // An arrangement that is no position (Black's general taken off) offers nothing to
    // look up.
    let general = ["d9", "e9", "f9", "d8", "e8", "f8", "d7", "e7", "f7"]
        .into_iter()
        .find(|s| {
            reached.piece_at(s.parse().unwrap())
                == Some(chuhe_core::Piece::new(
                    chuhe_core::Color::Black,
                    chuhe_core::PieceKind::General,
                ))
        })
        .unwrap();
    apply(
        &mut harness,
        Action::Editor(EditorAction::Remove(general.parse().unwrap())),
    );
    click_at(&mut harness, spot, egui::PointerButton::Secondary);
    let asked = harness.state().state.collections.browser.asked;
    harness.get_by_label("查找此局面").click();
    harness.run();
    assert_eq!(
        harness.state().state.collections.browser.asked,
        asked,
        "nothing was looked for"
    );
}

#[test]
fn a_knowledge_diagram_finds_its_own_position_or_says_a_collection_is_wanted() {
    let dir = temp_dir("collections", "diagram-menu");
    let path = make_collection(&dir, 20);
    // No collection open yet.
    let mut harness = common::open_in(&dir.join("home"));
    harness.get_by_label("知识").click();
    harness.run_ok();
    harness
        .query_all_by_label("马的走法")
        .next()
        .unwrap()
        .click();
    harness.run_ok();
    harness.get_by_label("▶").click();
    harness.run_ok();
    let (_, entry) = chuhe_core::knowledge::entry("rule-horse").unwrap();
    let shown = entry.diagrams[0].positions()[1].clone();
    assert_ne!(shown, *harness.state().state.position());
    // The small board sits right above its step buttons.
    let buttons = harness.get_by_label("◀◀").rect();
    let on_board = egui::pos2(buttons.left() + 150.0, buttons.top() - 150.0);
    let right_click = |harness: &mut Harness<'static, ChuheApp>| {
        click_at(harness, on_board, egui::PointerButton::Secondary);
        harness.get_by_label("查找此局面").click();
        harness.run();
    };
    right_click(&mut harness);
    assert_eq!(
        harness.state().state.notice,
        Some(chuhe::state::Notice::Message("collection-none-open"))
    );
    harness.get_by_label("请先新建或打开一个棋谱库。");
    apply(
        &mut harness,
        Action::Collections(CollectionAction::Open(path.clone())),
    );
    wait_for(&mut harness, WAIT, |app| {
        !app.state.collections.open.is_empty()
    });
    right_click(&mut harness);
    wait_for(&mut harness, WAIT, |app| {
        app.state.collections.browser.page.is_some()
    });
    let browser = &harness.state().state.collections.browser;
    assert_eq!(
        browser.position.as_ref(),
        Some(&shown),
        "the diagram's position"
    );
}

/// Whether the browser shows the answer to the last list it asked for (not an earlier one
/// still up while the next is made).
fn listed(b: &chuhe::state::collections::Browser) -> bool {
    b.page.is_some() && b.shown == b.asked
}

//! Drives the position editor, the composer's view and solve mode of the real app with
//! egui_kittest, the way a user does: menus, the palette, clicks and drags on the board,
//! pasted FENs, the puzzle list. Each test keeps its files in its own temporary directory.

use chuhe::ChuheApp;
use chuhe::actions::{Action, PuzzleAction};
use chuhe::services::storage::Storage;
use chuhe::state::Notice;
use chuhe::state::puzzles::{Phase, SolveMessage, Wrong};
use chuhe_core::puzzle::Goal;
use chuhe_core::solver::{SolveOptions, Solver};
use chuhe_core::{Color, Move, Piece, PieceKind, Position, Square};
use egui::{Event, Key, Modifiers, PointerButton, Pos2, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhe-editor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn open_in(dir: &Path) -> Harness<'static, ChuheApp> {
    crate::common::put_welcome_away(dir);
    let dir = dir.to_owned();
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1300.0, 900.0))
        .build_eframe(move |cc| ChuheApp::with_storage(cc, Storage::in_dir(dir.clone())));
    harness.run();
    harness
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn point(harness: &Harness<'_, ChuheApp>, square: &str) -> Pos2 {
    harness
        .state()
        .board_geometry()
        .expect("the board was drawn")
        .point(sq(square))
}

fn settle(harness: &mut Harness<'_, ChuheApp>) {
    harness.run_ok();
}

fn button(harness: &mut Harness<'_, ChuheApp>, pos: Pos2, button: PointerButton, pressed: bool) {
    harness.event(Event::PointerMoved(pos));
    harness.event(Event::PointerButton {
        pos,
        button,
        pressed,
        modifiers: Modifiers::NONE,
    });
    harness.step();
    if !pressed {
        settle(harness);
    }
}

fn click_with(harness: &mut Harness<'_, ChuheApp>, square: &str, which: PointerButton) {
    let pos = point(harness, square);
    button(harness, pos, which, true);
    button(harness, pos, which, false);
}

fn click(harness: &mut Harness<'_, ChuheApp>, square: &str) {
    click_with(harness, square, PointerButton::Primary);
}

fn drag_between(harness: &mut Harness<'_, ChuheApp>, a: Pos2, b: Pos2) {
    button(harness, a, PointerButton::Primary, true);
    for i in 1..=6 {
        harness.event(Event::PointerMoved(a + (b - a) * (i as f32 / 6.0)));
        harness.step();
    }
    button(harness, b, PointerButton::Primary, false);
}

fn menu(harness: &mut Harness<'_, ChuheApp>, menu: &str, item: &str) {
    harness.get_by_label(menu).click();
    harness.run();
    harness.get_by_label(item).click();
    settle(harness);
}

fn press(harness: &mut Harness<'_, ChuheApp>, label: &str) {
    harness.get_by_label(label).click();
    settle(harness);
}

fn paste(harness: &mut Harness<'_, ChuheApp>, text: &str) {
    harness.event(Event::Paste(text.into()));
    settle(harness);
}

/// Runs frames until `done`, for at most a minute (the solver works on its own thread).
fn wait_for(harness: &mut Harness<'_, ChuheApp>, done: impl Fn(&ChuheApp) -> bool) {
    let start = Instant::now();
    while !done(harness.state()) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting"
        );
        std::thread::sleep(Duration::from_millis(10));
        harness.step();
    }
    settle(harness);
}

fn piece_at(harness: &Harness<'_, ChuheApp>, square: &str) -> Option<Piece> {
    let editor = harness
        .state()
        .state
        .editor
        .as_ref()
        .expect("the editor is open");
    editor.setup.board.get(sq(square))
}

#[test]
fn a_piece_dragged_off_the_board_is_taken_off_and_one_put_back_stays() {
    let mut harness = open_in(&temp_dir("drop-off"));
    menu(&mut harness, "残局", "摆棋（局面编辑）");
    let rook = piece_at(&harness, "a0");
    assert!(rook.is_some(), "the editor starts from the start position");
    // Carried away and back, then let go where it was picked up: nothing changes.
    let (a0, a2) = (point(&harness, "a0"), point(&harness, "a2"));
    button(&mut harness, a0, PointerButton::Primary, true);
    for pos in [a2, a0] {
        harness.event(Event::PointerMoved(pos));
        harness.step();
    }
    button(&mut harness, a0, PointerButton::Primary, false);
    assert_eq!(piece_at(&harness, "a0"), rook);
    assert_eq!(piece_at(&harness, "a2"), None);
    // Let go on the board's margin, off every point: taken off.
    let margin = harness
        .state()
        .board_geometry()
        .expect("the board was drawn")
        .board_rect()
        .left_bottom()
        + Vec2::new(4.0, -4.0);
    drag_between(&mut harness, a0, margin);
    assert_eq!(piece_at(&harness, "a0"), None);
}

#[test]
fn pieces_are_placed_moved_and_removed_and_the_changes_undone() {
    let mut harness = open_in(&temp_dir("place"));
    menu(&mut harness, "残局", "摆棋（局面编辑）");
    assert!(harness.state().state.editor.is_some());
    press(&mut harness, "清空棋盘");
    assert_eq!(piece_at(&harness, "e0"), None);

    // The palette's general, then two clicks on the board.
    press(&mut harness, "红方 帅");
    click(&mut harness, "e0");
    press(&mut harness, "黑方 将");
    click(&mut harness, "d9");
    press(&mut harness, "红方 车");
    click(&mut harness, "a0");
    let red = |kind| Some(Piece::new(Color::Red, kind));
    assert_eq!(piece_at(&harness, "e0"), red(PieceKind::General));
    assert_eq!(piece_at(&harness, "a0"), red(PieceKind::Rook));
    assert_eq!(
        piece_at(&harness, "d9"),
        Some(Piece::new(Color::Black, PieceKind::General))
    );
    // A palette piece dragged onto the board.
    let from = harness.get_by_label("红方 炮").rect().center();
    let to = point(&harness, "b2");
    drag_between(&mut harness, from, to);
    assert_eq!(piece_at(&harness, "b2"), red(PieceKind::Cannon));

    // A piece dragged on the board moves; a right click removes one.
    let (a, b) = (point(&harness, "a0"), point(&harness, "a8"));
    drag_between(&mut harness, a, b);
    assert_eq!(piece_at(&harness, "a0"), None);
    assert_eq!(piece_at(&harness, "a8"), red(PieceKind::Rook));
    click_with(&mut harness, "b2", PointerButton::Secondary);
    assert_eq!(piece_at(&harness, "b2"), None);
    assert!(
        harness
            .state()
            .state
            .editor
            .as_ref()
            .unwrap()
            .problems
            .is_empty()
    );
    harness.get_by_label("局面合法。");

    // Ctrl+Z takes the removal back, Ctrl+Y makes it again.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut harness);
    assert_eq!(piece_at(&harness, "b2"), red(PieceKind::Cannon));
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    settle(&mut harness);
    assert_eq!(piece_at(&harness, "b2"), None);

    // Mirror, then swap colours.
    press(&mut harness, "左右镜像");
    assert_eq!(piece_at(&harness, "i8"), red(PieceKind::Rook));
    press(&mut harness, "红黑互换");
    assert_eq!(
        piece_at(&harness, "a1"),
        Some(Piece::new(Color::Black, PieceKind::Rook))
    );
    assert_eq!(
        harness
            .state()
            .state
            .editor
            .as_ref()
            .unwrap()
            .setup
            .side_to_move,
        Color::Black
    );

    // Playing from the position replaces the (unchanged) game.
    press(&mut harness, "从此局面对弈");
    let state = &harness.state().state;
    assert!(state.editor.is_none());
    assert_eq!(
        state
            .study
            .record
            .start()
            .piece_at(sq("a1"))
            .map(|p| p.kind),
        Some(PieceKind::Rook)
    );
}

#[test]
fn an_illegal_setup_is_refused_with_every_problem_listed_and_kept() {
    let mut harness = open_in(&temp_dir("illegal"));
    let before = harness.state().state.study.record.start().clone();
    menu(&mut harness, "残局", "摆棋（局面编辑）");
    // Two Red generals, one off the palace: both problems at once. The Red pawn behind
    // its start is only warned of.
    paste(&mut harness, "3k5/9/9/9/9/9/9/P8/3R5/4K3K w - - 0 1");
    let editor = harness.state().state.editor.as_ref().unwrap();
    assert_eq!(editor.problems.len(), 2, "{:?}", editor.problems);
    assert_eq!(editor.warnings.len(), 1, "{:?}", editor.warnings);
    harness.get_by_label_contains("局面不合法（");
    harness.get_by_label_contains("红方有不止一个将帅（e0, i0）");
    harness.get_by_label_contains("红方的帅永远不能走到 i0");
    harness.get_by_label_contains("红方的兵永远不能走到 a2");

    press(&mut harness, "从此局面对弈");
    let state = &harness.state().state;
    assert_eq!(state.notice, Some(Notice::Message("editor-illegal")));
    let editor = state.editor.as_ref().expect("still in the editor");
    assert_eq!(
        editor.setup.to_string(),
        "3k5/9/9/9/9/9/9/P8/3R5/4K3K w - - 0 1",
        "the arrangement is kept"
    );
    assert_eq!(state.study.record.start(), &before, "the game is untouched");
    press(&mut harness, "从此局面分析");
    assert!(harness.state().state.editor.is_some());
    assert!(!harness.state().state.analysis.analysing);

    // Leaving asks first, and the game is still there after.
    press(&mut harness, "离开摆棋");
    assert!(harness.state().state.editor.is_some());
    press(&mut harness, "离开");
    assert!(harness.state().state.editor.is_none());
    assert_eq!(harness.state().state.study.record.start(), &before);
}

#[test]
fn a_placement_no_game_reaches_is_accepted_with_a_warning_and_solved() {
    let mut harness = open_in(&temp_dir("composed"));
    menu(&mut harness, "残局", "摆棋（局面编辑）");
    // A unique mate in two with a Red pawn on its own back rank and a Red elephant across
    // the river: a composer's placements, not a game's.
    let fen = "4k4/4a4/B8/9/9/9/9/9/7R1/P2K5 w - - 0 1";
    paste(&mut harness, fen);
    let editor = harness.state().state.editor.as_ref().unwrap();
    assert!(editor.problems.is_empty(), "{:?}", editor.problems);
    assert_eq!(editor.warnings.len(), 2);
    harness.get_by_label("局面合法。");
    harness.get_by_label_contains("实战中走不到下列位置");
    harness.get_by_label_contains("红方的兵永远不能走到 a0");
    harness.get_by_label_contains("红方的相永远不能走到 a7");

    press(&mut harness, "求解");
    wait_for(&mut harness, |app| {
        app.state
            .editor
            .as_ref()
            .is_some_and(|e| e.solving.is_none())
    });
    harness.get_by_label("唯一解：2 步杀。");
    harness.get_by_label_contains("解法：1. 车二平五");

    // Play starts from it, as from any legal position.
    press(&mut harness, "从此局面对弈");
    let state = &harness.state().state;
    assert!(state.editor.is_none(), "the editor closed");
    assert_eq!(state.study.record.start().to_string(), fen);
}

#[test]
fn the_composers_view_tells_a_unique_mate_from_a_cooked_one() {
    let mut harness = open_in(&temp_dir("composer"));
    menu(&mut harness, "残局", "摆棋（局面编辑）");
    // 车六进二 is the only mate in 2 here.
    paste(
        &mut harness,
        "1C3k3/C8/3Rba3/4p3p/p1p6/9/9/4r4/4A4/4K4 w - - 0 1",
    );
    press(&mut harness, "求解");
    wait_for(&mut harness, |app| {
        app.state
            .editor
            .as_ref()
            .is_some_and(|e| e.solving.is_none())
    });
    harness.get_by_label("唯一解：2 步杀。");
    harness.get_by_label_contains("解法：1. 车六进二");

    // Two rooks: three first moves mate in 2, each listed.
    paste(&mut harness, "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1");
    press(&mut harness, "求解");
    wait_for(&mut harness, |app| {
        app.state
            .editor
            .as_ref()
            .is_some_and(|e| e.solving.is_none())
    });
    harness.get_by_label("有多解：2 步杀，共 3 种不同的第一着。");
    harness.get_by_label("能成杀的第一着：车八进八，车九进七，车九平五");

    // Bare generals: no mate.
    paste(&mut harness, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    press(&mut harness, "求解");
    wait_for(&mut harness, |app| {
        app.state
            .editor
            .as_ref()
            .is_some_and(|e| e.solving.is_none())
    });
    harness.get_by_label("3 步内无杀。");
}

/// The row of the puzzle list that shows puzzle `index` in the Chinese interface.
fn row_label(index: usize, puzzle: &chuhe_core::puzzle::Puzzle) -> String {
    let i18n = chuhe::i18n::I18n::new(chuhe::i18n::Language::ZhCn);
    let goal = chuhe::panels::puzzles::goal_text(&i18n, puzzle);
    let title = chuhe::widgets::text::game_puzzle_title(&i18n, puzzle)
        .or_else(|| (!puzzle.title.is_empty()).then(|| puzzle.title.clone()))
        .unwrap_or_else(|| goal.clone());
    format!("{}. {title} — {goal}", index + 1)
}

/// The built-in puzzle with this FEN: its set and index.
fn find_puzzle(app: &ChuheApp, fen: &str) -> (usize, usize) {
    for (s, set) in app.state.puzzles.sets.iter().enumerate() {
        if let Some(i) = set
            .set
            .puzzles
            .iter()
            .position(|p| p.position.to_string() == fen)
        {
            return (s, i);
        }
    }
    panic!("no built-in puzzle {fen}");
}

fn play(harness: &mut Harness<'_, ChuheApp>, m: Move) {
    click(harness, &m.from.to_string());
    click(harness, &m.to.to_string());
}

fn session_phase(app: &ChuheApp) -> Option<Phase> {
    app.state.puzzles.session.as_ref().map(|s| s.phase.clone())
}

#[test]
fn solve_mode_refuses_a_wrong_move_and_accepts_the_right_ones() {
    let dir = temp_dir("solve");
    let mut harness = open_in(&dir);
    menu(&mut harness, "残局", "残局题库…");
    let fen = "1C3k3/C8/3Rba3/4p3p/p1p6/9/9/4r4/4A4/4K4 w - - 0 1";
    let (set, index) = find_puzzle(harness.state(), fen);
    let row = row_label(
        index,
        &harness.state().state.puzzles.sets[set].set.puzzles[index],
    );
    // The row may lie below the list's fold.
    harness.get_by_label(&row).scroll_to_me();
    settle(&mut harness);
    harness.get_by_label(&row).click();
    settle(&mut harness);
    let puzzle = harness
        .state()
        .state
        .puzzles
        .session
        .as_ref()
        .expect("solve mode")
        .puzzle
        .clone();
    assert_eq!(
        puzzle.goal,
        Goal::Mate {
            moves: 2,
            checks_only: false
        }
    );
    harness.get_by_label("红方先走，2 步杀");

    // The solver, apart from the app, says which first moves mate in 2; any other legal
    // move is wrong.
    let position: Position = fen.parse().unwrap();
    let mut solver = Solver::new(18);
    let first = solver
        .solve(&position, &SolveOptions::mate_in(2))
        .first_moves;
    let wrong = *position
        .legal_moves()
        .iter()
        .find(|m| !first.contains(m) && position.piece_at(m.from).unwrap().kind == PieceKind::Rook)
        .expect("a wrong rook move");
    play(&mut harness, wrong);
    wait_for(&mut harness, |app| {
        session_phase(app) == Some(Phase::YourMove)
    });
    let session = harness.state().state.puzzles.session.as_ref().unwrap();
    assert!(session.moves.is_empty(), "the wrong move is taken back");
    assert!(
        matches!(session.message, Some(SolveMessage::Wrong(m, Wrong::Refuted { .. })) if m == wrong),
        "{:?}",
        session.message
    );
    harness.get_by_label_contains("不成立");

    // A hint: first the piece, then the move.
    press(&mut harness, "提示");
    harness.get_by_label_contains("提示：走车");
    press(&mut harness, "提示");
    harness.get_by_label("提示：车六进二。");

    // The right move: the defence is played at once.
    play(&mut harness, first[0]);
    wait_for(&mut harness, |app| {
        session_phase(app) != Some(Phase::Judging(first[0]))
    });
    let session = harness.state().state.puzzles.session.as_ref().unwrap();
    assert_eq!(session.moves.len(), 2, "{:?}", session.message);
    assert_eq!(session.moves_left, 1);
    harness.get_by_label_contains("正确。对方应：");

    // The mate, found by the solver apart from the app.
    let now = harness
        .state()
        .state
        .puzzles
        .session
        .as_ref()
        .unwrap()
        .position()
        .clone();
    let mate = solver.solve(&now, &SolveOptions::mate_in(1)).line[0];
    play(&mut harness, mate);
    wait_for(&mut harness, |app| {
        session_phase(app) == Some(Phase::Solved)
    });
    harness.get_by_label_contains("解出，但用了提示或走错过");

    // The progress is kept on disk: solved, and missed (a wrong move and hints).
    let progress = std::fs::read_to_string(dir.join("puzzle-progress.ron")).unwrap();
    assert!(progress.contains(&puzzle.id), "{progress}");
    let kept = chuhe::services::puzzles::load_progress(&dir.join("puzzle-progress.ron"));
    let set_name = harness.state().state.puzzles.sets[set].progress_name();
    let entry = kept.get(&set_name, &puzzle.id);
    assert!(entry.solved && entry.missed, "{entry:?}");

    // Replaying the set starts with the missed puzzle.
    press(&mut harness, "回到对局");
    menu(&mut harness, "残局", "残局题库…");
    harness.get_by_label("重做（先做错过的）").scroll_to_me();
    settle(&mut harness);
    harness.get_by_label("重做（先做错过的）").click();
    settle(&mut harness);
    let state = &harness.state().state;
    let session = state.puzzles.session.as_ref().unwrap_or_else(|| {
        panic!(
            "replaying: browser {} notice {:?}",
            state.puzzles.browser_open, state.notice
        )
    });
    assert_eq!(session.puzzle.id, puzzle.id);
    assert!(!session.queue.is_empty());
}

#[test]
fn a_long_solve_is_cancelled_without_waiting() {
    let mut harness = open_in(&temp_dir("cancel"));
    menu(&mut harness, "残局", "摆棋（局面编辑）");
    // The start position, mate within 30 by any moves: far too big to finish here.
    harness
        .get_by_role(egui::accesskit::Role::SpinButton)
        .set_value_accesskit(30.0);
    settle(&mut harness);
    assert_eq!(
        harness.state().state.editor.as_ref().unwrap().mate_moves,
        30
    );
    press(&mut harness, "求解");
    assert!(
        harness
            .state()
            .state
            .editor
            .as_ref()
            .unwrap()
            .solving
            .is_some()
    );
    // While it runs, the view says the mate length it has reached and the positions so far,
    // as the solver reports them.
    wait_for(&mut harness, |app| {
        app.state
            .editor
            .as_ref()
            .and_then(|e| e.progress)
            .is_some_and(|p| p.depth >= 2 && p.nodes > 0)
    });
    let progress = harness.state().state.editor.as_ref().unwrap().progress;
    let depth = progress.unwrap().depth;
    harness.get_by_label_contains(&format!("正在求解：找 {depth} 步杀"));
    let start = Instant::now();
    press(&mut harness, "停止");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "stopping waits for nothing"
    );
    let editor = harness.state().state.editor.as_ref().unwrap();
    assert!(editor.solving.is_none());
    assert!(editor.result.as_ref().is_some_and(|r| r.cancelled));
    assert!(editor.progress.is_none());
    harness.get_by_label("已停止，尚无结论。");
    assert!(harness.query_by_label_contains("正在求解").is_none());
}

#[test]
fn a_composed_mate_is_saved_as_the_users_puzzle_and_sets_go_out_and_in_as_pgn() {
    use chuhe::actions::Action;
    use chuhe::actions::PuzzleAction;
    let dir = temp_dir("collections");
    let mut harness = open_in(&dir);
    menu(&mut harness, "残局", "摆棋（局面编辑）");
    paste(
        &mut harness,
        "1C3k3/C8/3Rba3/4p3p/p1p6/9/9/4r4/4A4/4K4 w - - 0 1",
    );
    press(&mut harness, "求解");
    wait_for(&mut harness, |app| {
        app.state
            .editor
            .as_ref()
            .is_some_and(|e| e.solving.is_none())
    });
    harness.get_by_label("题名").click();
    harness.run();
    harness.get_by_label("题名").type_text("双炮车杀");
    settle(&mut harness);
    press(&mut harness, "存为我的残局");
    let saved: Vec<PathBuf> = std::fs::read_dir(dir.join("puzzles/mine"))
        .expect("the collection directory")
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(saved.len(), 1);
    let puzzle =
        chuhe_core::puzzle::Puzzle::from_ron(&std::fs::read_to_string(&saved[0]).unwrap()).unwrap();
    assert_eq!(puzzle.title, "双炮车杀");
    assert_eq!(
        puzzle.goal,
        Goal::Mate {
            moves: 2,
            checks_only: false
        }
    );
    assert_eq!(puzzle.main_line().len(), 3);
    // Every defence is in the saved tree, and the tree checks out.
    assert_eq!(chuhe_core::puzzle::check_tree(&puzzle), Ok(true));

    // A new session finds it in the list, beside the built-in sets.
    press(&mut harness, "离开摆棋");
    press(&mut harness, "离开");
    let mut harness = open_in(&dir);
    menu(&mut harness, "残局", "残局题库…");
    press(&mut harness, "我的残局：mine（1）");
    harness.get_by_label_contains("双炮车杀").click();
    settle(&mut harness);
    let session = harness
        .state()
        .state
        .puzzles
        .session
        .as_ref()
        .expect("solving it");
    assert_eq!(session.puzzle, puzzle);

    // The built-in set out as PGN (the file dialog's answer given directly), and back in
    // as a collection of the user's: the same puzzles.
    let pgn = dir.join("wukong-out.pgn");
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .apply(&ctx, Action::Puzzle(PuzzleAction::Export(0, pgn.clone())));
    harness
        .state_mut()
        .apply(&ctx, Action::Puzzle(PuzzleAction::Import(pgn)));
    settle(&mut harness);
    let sets = &harness.state().state.puzzles.sets;
    let imported = sets
        .iter()
        .find(|s| s.set.name == "wukong-out")
        .expect("the imported collection");
    assert_eq!(imported.set.puzzles, sets[0].set.puzzles);
    let files = std::fs::read_dir(dir.join("puzzles/wukong-out"))
        .unwrap()
        .count();
    assert_eq!(files, sets[0].set.puzzles.len());
    harness.get_by_label_contains("已导入 85 道残局");
}

#[test]
fn the_shipped_font_has_every_character_of_the_built_in_puzzles() {
    let mut harness = Harness::builder()
        .with_context_setup(chuhe::fonts::install)
        .build_ui(|ui| {
            ui.label("楚河");
        });
    harness.run();
    let mut missing = std::collections::BTreeSet::new();
    for set in chuhe::state::puzzles::built_in() {
        for p in &set.puzzles {
            for c in [&p.title, &p.source, &p.author]
                .into_iter()
                .flat_map(|t| t.chars())
                .filter(|c| !c.is_whitespace())
            {
                if !harness
                    .ctx
                    .fonts_mut(|f| f.has_glyph(&egui::FontId::proportional(14.0), c))
                {
                    missing.insert(c);
                }
            }
        }
    }
    assert!(missing.is_empty(), "no glyph for {missing:?}");
}

#[test]
fn starting_from_the_editor_asks_before_replacing_an_unsaved_game() {
    let mut harness = open_in(&temp_dir("unsaved"));
    // A move on the study board: the game now has unsaved changes.
    click(&mut harness, "h2");
    click(&mut harness, "e2");
    assert!(harness.state().state.study.dirty);
    let moves = harness.state().state.study.record.main_line_moves();
    menu(&mut harness, "残局", "摆棋（局面编辑）");
    press(&mut harness, "红黑互换");
    press(&mut harness, "从此局面分析");
    // Asked first; staying keeps both the game and the arrangement.
    assert!(harness.state().state.dialog.is_some());
    press(&mut harness, "取消");
    let state = &harness.state().state;
    assert!(state.editor.is_some());
    assert_eq!(state.study.record.main_line_moves(), moves);
    // Going on replaces the game and starts the analysis.
    press(&mut harness, "从此局面分析");
    press(&mut harness, "放弃修改");
    let state = &harness.state().state;
    assert!(state.editor.is_none());
    assert!(state.study.record.main_line_moves().is_empty());
    assert_eq!(state.position().side_to_move(), Color::Red);
    assert!(state.analysis.analysing);
}

#[test]
fn keys_for_the_game_do_nothing_unseen_while_the_board_is_taken() {
    let mut harness = open_in(&temp_dir("keys"));
    click(&mut harness, "h2");
    click(&mut harness, "e2");
    let cursor = harness.state().state.study.cursor;
    menu(&mut harness, "残局", "残局题库…");
    let first = row_label(0, &harness.state().state.puzzles.sets[0].set.puzzles[0]);
    harness.get_by_label(&first).click();
    settle(&mut harness);
    assert!(harness.state().state.puzzles.session.is_some());
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.key_press(Key::ArrowLeft);
    settle(&mut harness);
    let state = &harness.state().state;
    assert_eq!(
        state.study.record.main_line_moves().len(),
        1,
        "nothing undone"
    );
    assert_eq!(state.study.cursor, cursor, "nothing stepped back");

    // Opening the editor again keeps the arrangement being set up.
    menu(&mut harness, "残局", "摆棋（局面编辑）");
    press(&mut harness, "清空棋盘");
    menu(&mut harness, "残局", "摆棋（局面编辑）");
    let editor = harness.state().state.editor.as_ref().unwrap();
    assert_eq!(editor.setup.board.pieces().count(), 0);
}

#[test]
fn a_puzzle_for_black_is_shown_from_blacks_side_and_solved_there() {
    let mut harness = open_in(&temp_dir("black"));
    menu(&mut harness, "残局", "残局题库…");
    let sets = &harness.state().state.puzzles.sets;
    let (index, puzzle) = sets[0]
        .set
        .puzzles
        .iter()
        .enumerate()
        .find(|(_, p)| {
            p.position.side_to_move() == Color::Black
                && p.goal
                    == Goal::Mate {
                        moves: 1,
                        checks_only: false,
                    }
        })
        .map(|(i, p)| (i, p.clone()))
        .expect("a mate in 1 for Black");
    harness.get_by_label(&row_label(index, &puzzle)).click();
    settle(&mut harness);
    assert!(harness.state().board_geometry().unwrap().is_flipped());
    let mut solver = Solver::new(16);
    let mate = solver
        .solve(&puzzle.position, &SolveOptions::mate_in(1))
        .line[0];
    play(&mut harness, mate);
    wait_for(&mut harness, |app| {
        session_phase(app) == Some(Phase::Solved)
    });
    harness.get_by_label("解出！");
}

#[test]
fn a_win_puzzle_from_pgn_is_solved_by_its_solutions_moves() {
    use chuhe::actions::Action;
    use chuhe::actions::PuzzleAction;
    let dir = temp_dir("win");
    let pgn = dir.join("wintest.pgn");
    std::fs::write(
        &pgn,
        "[Game \"Chinese Chess\"]\n[Event \"两车练习\"]\n[FEN \"4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1\"]\n[Goal \"win\"]\n\n1. b0b8 e9f9 2. a1a9 *\n",
    )
    .unwrap();
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .apply(&ctx, Action::Puzzle(PuzzleAction::Import(pgn)));
    settle(&mut harness);
    harness
        .get_by_label_contains("两车练习 — 红方先走胜")
        .click();
    settle(&mut harness);
    let session = harness
        .state()
        .state
        .puzzles
        .session
        .as_ref()
        .expect("solving");
    assert_eq!(session.puzzle.goal, Goal::Win);

    // Not the solution's move: refused and said so.
    play(&mut harness, "a1a2".parse().unwrap());
    let session = harness.state().state.puzzles.session.as_ref().unwrap();
    assert!(session.moves.is_empty());
    assert_eq!(
        session.message,
        Some(SolveMessage::Wrong(
            "a1a2".parse().unwrap(),
            Wrong::NotInSolution
        ))
    );
    harness.get_by_label_contains("这不是题解中的着法");

    // The solution's moves: answered by its defence, then solved.
    play(&mut harness, "b0b8".parse().unwrap());
    let session = harness.state().state.puzzles.session.as_ref().unwrap();
    assert_eq!(session.moves.len(), 2);
    play(&mut harness, "a1a9".parse().unwrap());
    assert_eq!(
        session_phase(harness.state()),
        Some(Phase::Solved),
        "{:?}",
        harness
            .state()
            .state
            .puzzles
            .session
            .as_ref()
            .unwrap()
            .message
    );
    let progress = chuhe::services::puzzles::load_progress(&dir.join("puzzle-progress.ron"));
    let entry = progress.get(
        "mine/wintest",
        &harness
            .state()
            .state
            .puzzles
            .session
            .as_ref()
            .unwrap()
            .puzzle
            .id,
    );
    assert!(entry.solved && entry.missed, "{entry:?}");
}

/// Solve mode and the editor share the board: a puzzle started while an untouched
/// arrangement is open closes the editor; one started while a changed arrangement is open
/// asks first, and the puzzle waits.
#[test]
fn a_puzzle_takes_the_board_from_the_editor_asking_only_for_a_changed_arrangement() {
    let mut harness = open_in(&temp_dir("puzzle-over-editor"));
    let ctx = harness.ctx.clone();
    let start = |harness: &mut Harness<'_, ChuheApp>| {
        harness.state_mut().apply(
            &ctx,
            Action::Puzzle(PuzzleAction::Start { set: 0, index: 0 }),
        );
        settle(harness);
    };
    menu(&mut harness, "残局", "摆棋（局面编辑）");
    start(&mut harness);
    let state = &harness.state().state;
    assert!(state.editor.is_none());
    assert!(state.puzzles.session.is_some());
    assert!(state.dialog.is_none());

    harness
        .state_mut()
        .apply(&ctx, Action::Puzzle(PuzzleAction::Leave));
    menu(&mut harness, "残局", "摆棋（局面编辑）");
    press(&mut harness, "红黑互换");
    start(&mut harness);
    let state = &harness.state().state;
    assert!(state.editor.is_some(), "the changed arrangement stays");
    assert!(state.puzzles.session.is_none());
    assert_eq!(state.dialog, Some(chuhe::state::Dialog::LeaveEditor));
}

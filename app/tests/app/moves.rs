//! The move list as players expect it: numbered rows with Red and Black side by side,
//! variations indented under their move and collapsible, the engine's lines marked, and
//! the move on the board always scrolled into view.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::{Action, FileAction, StudyAction};
use chuhe::state::study::move_list::MoveRow;
use chuhe_core::record::Nag;
use chuhe_core::{Game, Move, Position};
use common::{key, open_in, temp_dir, wait_for};
use egui::accesskit::Toggled;
use egui::{Event, Key, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable as _};
use std::collections::HashSet;
use std::time::Duration;

fn open(name: &str) -> Harness<'static, ChuheApp> {
    open_in(&temp_dir("moves", name))
}

fn paste(harness: &mut Harness<'_, ChuheApp>, text: &str) {
    harness.event(Event::Paste(text.into()));
    harness.run();
}

fn rect(harness: &Harness<'_, ChuheApp>, label: &str) -> Rect {
    harness.get_by_label(label).rect()
}

/// The first widget labelled `label` (a move number in the main line comes before the same
/// number in a variation under it).
fn first_rect(harness: &Harness<'_, ChuheApp>, label: &str) -> Rect {
    harness.get_all_by_label(label).next().unwrap().rect()
}

fn cursor_move(harness: &Harness<'_, ChuheApp>) -> Option<String> {
    let study = &harness.state().state.study;
    study.record.move_at(study.cursor).map(|m| m.to_string())
}

/// A game of `plies` quiet moves, numbered ICCS movetext: each move the first legal one
/// that neither captures nor checks nor repeats a position, so the game never ends.
fn long_game(plies: usize) -> String {
    let mut game = Game::new(Position::startpos());
    // Positions compared by their pieces and side to move, not the move counters.
    let key = |p: &Position| {
        p.to_string()
            .split(' ')
            .take(2)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut seen = HashSet::from([key(game.position())]);
    let mut text = String::new();
    for ply in 0..plies {
        let position = game.position().clone();
        let quiet = position.legal_moves().into_iter().copied().find(|&m| {
            let mut after = position.clone();
            after.play_unchecked(m);
            position.piece_at(m.to).is_none() && !after.is_check() && !seen.contains(&key(&after))
        });
        let m = quiet.expect("a quiet move is left");
        game.play(m).unwrap();
        seen.insert(key(game.position()));
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(&format!("{m} "));
    }
    assert_eq!(game.outcome(), None);
    text + "*"
}

#[test]
fn red_and_black_share_a_numbered_row() {
    let mut harness = open("rows");
    paste(&mut harness, "1. h2e2 h9g7 2. h0g2 *");
    let number = rect(&harness, "1.");
    let red = rect(&harness, "炮二平五");
    let black = rect(&harness, "马８进７");
    for cell in [red, black] {
        assert!((cell.center().y - number.center().y).abs() < 2.0, "one row");
    }
    assert!(number.right() <= red.left() && red.right() <= black.left());
    // The next move number starts the next row, Red's move under Red's.
    let second = rect(&harness, "2.");
    let third = rect(&harness, "马二进三");
    assert!(second.top() >= number.bottom() - 1.0);
    assert!((third.left() - red.left()).abs() < 2.0);
    assert!((third.center().y - second.center().y).abs() < 2.0);
}

#[test]
fn a_comment_sits_under_its_move_and_black_replies_on_the_next_row() {
    let mut harness = open("comment");
    paste(&mut harness, "1. h2e2 {当头炮} 1... h9g7 2. h0g2 *");
    let red = rect(&harness, "炮二平五");
    let comment = rect(&harness, "当头炮");
    let gap = rect(&harness, "…");
    let black = rect(&harness, "马８进７");
    assert!(comment.top() >= red.bottom() - 1.0 && comment.bottom() <= black.top() + 1.0);
    assert!(
        comment.left() > red.left() - 40.0,
        "under its move, not at the edge"
    );
    assert!(
        (gap.center().y - black.center().y).abs() < 2.0,
        "`1. …` row"
    );
    assert!((gap.left() - red.left()).abs() < 2.0, "in Red's column");
}

#[test]
fn a_game_that_starts_with_black_shows_an_ellipsis_for_red() {
    let mut harness = open("black-first");
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(
        &ctx,
        Action::File(FileAction::Paste(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1".into(),
        )),
    );
    harness.run();
    harness.state_mut().apply(
        &ctx,
        Action::Study(StudyAction::PlayMove("h7e7".parse().unwrap())),
    );
    harness.run();
    let number = rect(&harness, "1.");
    let gap = rect(&harness, "…");
    let black = rect(&harness, "炮８平５");
    assert!((gap.center().y - number.center().y).abs() < 2.0);
    assert!((black.center().y - number.center().y).abs() < 2.0);
    assert!(number.right() <= gap.left() && gap.right() <= black.left());
}

#[test]
fn a_variation_is_indented_under_its_move_and_collapses() {
    let mut harness = open("variation");
    paste(
        &mut harness,
        "1. h2e2 (1. b2e2 h9g7 2. b0c2) 1... h9g7 2. h0g2 *",
    );
    let number = first_rect(&harness, "1.");
    let red = rect(&harness, "炮二平五");
    let variation = rect(&harness, "炮八平五");
    let later = rect(&harness, "马二进三");
    // Under the move it branches from, before the rest of the game, indented.
    assert!(variation.top() >= red.bottom() - 1.0 && variation.bottom() <= later.top() + 1.0);
    assert!(variation.left() > number.left() + 10.0);
    assert!(harness.query_by_label("马八进七").is_some());

    harness.get_by_label("收起变着").click();
    harness.run();
    assert!(
        harness.query_by_label("马八进七").is_none(),
        "only the first move of a collapsed variation is shown"
    );
    harness.get_by_label("炮八平五");
    harness.get_by_label("展开变着").click();
    harness.run();
    harness.get_by_label("马八进七");

    // Collapsing the variation the board is in brings the board to its first move; a
    // move into it opens it again.
    harness.get_by_label("马八进七").click();
    harness.run();
    assert_eq!(cursor_move(&harness).as_deref(), Some("b0c2"));
    harness.get_by_label("收起变着").click();
    harness.run();
    assert_eq!(cursor_move(&harness).as_deref(), Some("b2e2"));
    assert!(harness.query_by_label("马八进七").is_none());
    key(&mut harness, Key::ArrowRight);
    assert_eq!(cursor_move(&harness).as_deref(), Some("h9g7"));
    assert!(
        harness.query_by_label("马八进七").is_some(),
        "the variation holding the move on the board is open"
    );
    assert!(harness.query_by_label("收起变着").is_some());
}

/// The visible part of the move list: between the comment field above it and the status
/// bar below.
fn list_view(harness: &Harness<'_, ChuheApp>) -> Rect {
    let above = rect(harness, "注释");
    // The file's name in the status bar, starred once the game is edited (the tab bar
    // above shows it too: the status bar's is the lowest).
    let below = harness
        .query_all_by_label_contains("未命名")
        .map(|node| node.rect())
        .max_by(|a, b| a.top().total_cmp(&b.top()))
        .expect("the status bar names the file");
    Rect::from_x_y_ranges(
        f32::NEG_INFINITY..=f32::INFINITY,
        above.bottom()..=below.top(),
    )
}

/// Whether `label` is drawn inside the list's visible part (rows out of sight are not
/// drawn at all).
fn in_view(harness: &Harness<'_, ChuheApp>, label: &str) -> bool {
    let view = list_view(harness);
    harness.query_by_label(label).is_some_and(|cell| {
        view.top() <= cell.rect().top() && cell.rect().bottom() <= view.bottom()
    })
}

#[test]
fn the_move_on_the_board_is_scrolled_into_view() {
    let mut harness = open("scroll");
    let game = long_game(110);
    paste(&mut harness, &game);
    let last_number = "55.";
    assert!(in_view(&harness, "1."), "a pasted game shows its start");
    assert!(
        !in_view(&harness, last_number),
        "the game is longer than the list"
    );
    key(&mut harness, Key::End);
    assert_eq!(
        harness
            .state()
            .state
            .study
            .record
            .ply(harness.state().state.study.cursor),
        110
    );
    assert!(
        in_view(&harness, last_number),
        "after End the last move is in view"
    );
    key(&mut harness, Key::Home);
    assert!(in_view(&harness, "1."), "after Home the start is in view");
    // The evaluation graph, a search or a paste goes there by the same action.
    let last = *harness
        .state()
        .state
        .study
        .record
        .main_line()
        .last()
        .unwrap();
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .apply(&ctx, Action::Study(StudyAction::GoTo(last)));
    harness.run();
    assert!(
        in_view(&harness, last_number),
        "a jump to the last move shows it"
    );
}

/// The first legal move in the position on the board that is not `except`, captures
/// nothing and gives no check.
fn quiet_move(harness: &Harness<'_, ChuheApp>, except: Option<Move>) -> Move {
    let position = harness.state().state.position().clone();
    position
        .legal_moves()
        .into_iter()
        .copied()
        .find(|&m| {
            let mut after = position.clone();
            after.play_unchecked(m);
            Some(m) != except && position.piece_at(m.to).is_none() && !after.is_check()
        })
        .expect("a quiet move")
}

/// Where the move on the board is drawn: the selected move of that name.
fn current_rect(harness: &Harness<'_, ChuheApp>) -> Rect {
    let rows = &harness.state().state.study.derived.rows;
    let text = rows
        .iter()
        .flat_map(|row| match row {
            MoveRow::Moves { red, black, .. } => vec![red.clone(), black.clone()],
            MoveRow::Variation { moves, .. } => {
                moves.iter().map(|m| Some(m.cell.clone())).collect()
            }
            MoveRow::Comment { .. } => vec![],
        })
        .flatten()
        .find(|cell| cell.current)
        .map(|cell| format!("{}{}", cell.text, cell.glyphs))
        .expect("the move on the board is in the list");
    harness
        .get(
            By::new()
                .label(&text)
                .predicate(|node| node.toggled() == Some(Toggled::True)),
        )
        .rect()
}

#[test]
fn a_move_hidden_in_a_collapsed_variation_is_opened_and_scrolled_to() {
    let mut harness = open("hidden");
    paste(&mut harness, &long_game(110));
    key(&mut harness, Key::End);
    key(&mut harness, Key::ArrowLeft);
    // Another last move for Black and a reply: a variation at the end of the game.
    let study = &harness.state().state.study;
    let played = study
        .record
        .move_at(study.record.main_child(study.cursor).unwrap());
    let ctx = harness.ctx.clone();
    let other = quiet_move(&harness, played);
    harness
        .state_mut()
        .apply(&ctx, Action::Study(StudyAction::PlayMove(other)));
    let reply = quiet_move(&harness, None);
    harness
        .state_mut()
        .apply(&ctx, Action::Study(StudyAction::PlayMove(reply)));
    harness.run();
    let hidden = harness.state().state.study.cursor;
    assert!(!harness.state().state.study.record.is_main_line(hidden));
    harness.get_by_label("收起变着").click();
    harness.run();
    key(&mut harness, Key::Home);
    assert!(harness.query_by_label("收起变着").is_none(), "collapsed");
    assert!(in_view(&harness, "1."));

    harness
        .state_mut()
        .apply(&ctx, Action::Study(StudyAction::GoTo(hidden)));
    harness.run();
    assert!(harness.query_by_label("收起变着").is_some(), "opened again");
    let view = list_view(&harness);
    let cell = current_rect(&harness);
    assert!(
        view.top() <= cell.top() && cell.bottom() <= view.bottom(),
        "the move is in view: {cell:?} in {view:?}"
    );
    assert!(!in_view(&harness, "1."), "scrolled down to it");
}

#[test]
fn the_reviews_lines_are_marked_as_the_engines() {
    let dir = temp_dir("moves", "review");
    std::fs::write(dir.join("settings.ron"), "(engine: (review_ms: 40))").unwrap();
    let mut harness = open_in(&dir);
    // 3. 炮五进四?? gives the cannon for the centre pawn: the engine prefers another move.
    paste(&mut harness, "1. h2e2 h9g7 2. h0g2 i9h9 3. e2e6 g7e6 *");
    let before = harness.query_all_by_label("引擎").count();
    harness.get_by_label("全局复盘").click();
    harness.step();
    wait_for(&mut harness, Duration::from_secs(60), |app| {
        app.state.analysis.review.is_none()
    });
    harness.run();
    let record = &harness.state().state.study.record;
    let engine_lines = record
        .descendants(record.root())
        .iter()
        .filter(|&&n| record.annotation(n).nags.contains(&Nag::ENGINE_LINE))
        .count();
    assert!(engine_lines >= 1, "the review put in a better line");
    assert_eq!(
        harness.query_all_by_label("引擎").count(),
        before + engine_lines,
        "each engine line carries the mark"
    );
    assert!(
        harness.query_by_label_contains("$220").is_none(),
        "the mark is not shown as a NAG"
    );
}

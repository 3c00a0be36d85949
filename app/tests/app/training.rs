//! The Train home and its drills, driven as a user does: open it from the menu, start the
//! day's round, play the drill's moves on the board, override a grade, mark the game on
//! the board as a repertoire and drill both its branches, and come back after a kill.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::{Action, FileAction};
use chuhe_core::training::drill::no_tables;
use chuhe_core::training::schedule::Grade;
use chuhe_core::training::store::{Now, TrainingStore};
use chuhe_core::{Move, Square};
use common::{open_in, temp_dir};
use egui::{Event, PointerButton};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

fn click_point(harness: &mut Harness<'_, ChuheApp>, square: Square) {
    let geometry = harness
        .state()
        .board_geometry()
        .expect("the drill's board was drawn");
    let pos = geometry.point(square);
    for pressed in [true, false] {
        harness.event(Event::PointerMoved(pos));
        harness.event(Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        });
        harness.step();
    }
    harness.run_ok();
}

fn play(harness: &mut Harness<'_, ChuheApp>, m: Move) {
    click_point(harness, m.from);
    click_point(harness, m.to);
}

fn open_home(harness: &mut Harness<'_, ChuheApp>) {
    harness.get_by_label("训练").click();
    harness.run_ok();
    harness.get_by_label("训练主页").click();
    harness.run_ok();
    assert!(harness.state().state.training.open);
}

/// Plays the drill's right moves on the board until the item is done; returns the user's
/// moves asked.
fn solve_item(harness: &mut Harness<'_, ChuheApp>) -> Vec<Move> {
    let mut asked = Vec::new();
    for _ in 0..40 {
        let session = harness.state().state.training.session.as_ref().unwrap();
        if session.drill.finished {
            return asked;
        }
        let m = session.drill.expected(&no_tables).expect("a right move");
        asked.push(m);
        play(harness, m);
    }
    panic!("the item never ended");
}

#[test]
fn the_train_home_shows_due_items_and_a_round_grades_each_item() {
    let dir = temp_dir("training", "round");
    let mut harness = open_in(&dir);
    open_home(&mut harness);
    // Nothing learnt yet: ten new items a day, none due, no streak.
    harness.get_by_label("开始今日训练（10 题）");
    harness.get_by_label("连续训练 0 天");
    harness.get_by_label("今日到期");
    harness.get_by_label("实用残局");
    harness.get_by_label("还没有做过训练题。");
    harness.get_by_label("近 90 天");
    harness.get_by_label("开始今日训练（10 题）").click();
    harness.run_ok();
    let title = {
        let session = harness.state().state.training.session.as_ref().unwrap();
        session.drill.item.title.clone()
    };
    harness.get_by_label(&title);
    harness.get_by_label("第 0 / 10 题");
    // A wrong move first: the item is graded Again whatever follows.
    let (right, wrong) = {
        let drill = &harness
            .state()
            .state
            .training
            .session
            .as_ref()
            .unwrap()
            .drill;
        let right = drill.expected(&no_tables).unwrap();
        let wrong = *drill
            .position
            .legal_moves()
            .iter()
            .find(|&&m| m != right)
            .unwrap();
        (right, wrong)
    };
    play(&mut harness, wrong);
    harness.get_by_label_contains("不对，请再想想");
    assert!(
        !harness
            .state()
            .state
            .training
            .session
            .as_ref()
            .unwrap()
            .drill
            .finished
    );
    let _ = right;
    solve_item(&mut harness);
    harness.get_by_label("本题评分：重来");
    let id = {
        let session = harness.state().state.training.session.as_ref().unwrap();
        assert_eq!(session.graded, Some((Grade::Again, Grade::Again)));
        session.drill.item.id.clone()
    };
    // Saved at once, before the round goes on.
    let store = TrainingStore::new(dir.join("training.ron"));
    assert_eq!(
        store.load().unwrap().items[&id].history[0].grade,
        Grade::Again
    );
    // The user knows better: the grade is changed, and saved.
    harness.get_by_label("良好").click();
    harness.run_ok();
    let saved = store.load().unwrap();
    let review = &saved.items[&id].history[0];
    assert_eq!((review.grade, review.earned), (Grade::Good, Grade::Again));
    harness.get_by_label("第 1 / 10 题");
    harness.get_by_label("下一题").click();
    harness.run_ok();
    let next = harness.state().state.training.session.as_ref().unwrap();
    assert_ne!(next.drill.item.id, id);
    // Back to the home: the item learnt is listed with its history.
    harness.get_by_label("结束训练").click();
    harness.run_ok();
    // Nine new items are left; the one learnt comes back today unless its next review
    // falls after midnight (a round played late in the evening).
    let due = due_today(&harness);
    assert!(due <= 1, "{due} items due");
    harness.get_by_label(&format!("开始今日训练（{} 题）", 9 + due));
    harness.get_by_label("连续训练 1 天");
    harness.get_by_label_contains("复习 1 次").click();
    harness.run_ok();
    harness.get_by_label_contains("（原评 重来）");
}

#[test]
fn a_repertoire_from_the_board_is_drilled_branch_by_branch() {
    let dir = temp_dir("training", "repertoire");
    let mut harness = open_in(&dir);
    let pgn = "[Event \"中炮\"]\n\n1. h2e2 h9g7 (1... b9c7 2. b0c2) 2. h0g2 *\n";
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .apply(&ctx, Action::File(FileAction::Paste(pgn.to_owned())));
    harness.run_ok();
    assert_eq!(harness.state().state.study.record.move_count(), 5);
    harness.get_by_label("训练").click();
    harness.run_ok();
    harness.get_by_label("当前棋局设为红方开局库").click();
    harness.run_ok();
    open_home(&mut harness);
    harness.get_by_label("中炮（红方，2 条线路）");
    harness.get_by_label("全部练一遍").click();
    harness.run_ok();
    let mut asked = Vec::new();
    for k in 0..2 {
        harness.get_by_label(&format!("第 {k} / 2 题"));
        asked.extend(solve_item(&mut harness));
        harness.get_by_label("完成！");
        harness.get_by_label("下一题").click();
        harness.run_ok();
    }
    // Both of Black's replies were played and Red's answer to each asked.
    let answers: Vec<String> = asked.iter().map(|m| m.to_string()).collect();
    assert!(answers.contains(&"h0g2".to_owned()), "{answers:?}");
    assert!(answers.contains(&"b0c2".to_owned()), "{answers:?}");
    assert!(harness.state().state.training.session.is_none());
    // Both lines were learnt today: eight new items are left, and the lines come back
    // today only if they were not answered quickly (Easy puts them days away).
    let due = due_today(&harness);
    harness.get_by_label(&format!("开始今日训练（{} 题）", 8 + due));
}

/// The items learnt that are due again by the end of today.
fn due_today(harness: &Harness<'_, ChuheApp>) -> usize {
    let end = Now::local().end_of_today();
    let data = &harness.state().state.training.data;
    data.items.values().filter(|r| r.memory.due < end).count()
}

#[test]
fn graded_items_survive_an_app_that_is_killed_mid_round() {
    let dir = temp_dir("training", "killed");
    let graded = {
        let mut harness = open_in(&dir);
        open_home(&mut harness);
        harness.get_by_label("开始今日训练（10 题）").click();
        harness.run_ok();
        let mut graded = Vec::new();
        for _ in 0..2 {
            solve_item(&mut harness);
            let session = harness.state().state.training.session.as_ref().unwrap();
            graded.push(session.drill.item.id.clone());
            harness.get_by_label("下一题").click();
            harness.run_ok();
        }
        // Half of the third item, then the process dies: no closing, no saving.
        let m = {
            let drill = &harness
                .state()
                .state
                .training
                .session
                .as_ref()
                .unwrap()
                .drill;
            drill.expected(&no_tables).unwrap()
        };
        play(&mut harness, m);
        std::mem::forget(harness);
        graded
    };
    let mut harness = open_in(&dir);
    open_home(&mut harness);
    let data = &harness.state().state.training.data;
    assert_eq!(data.items.len(), 2);
    for id in &graded {
        assert_eq!(data.items[id].history.len(), 1);
    }
    // Eight new items are left of today's ten, and the learnt ones due again today.
    let due = due_today(&harness);
    harness.get_by_label(&format!("开始今日训练（{} 题）", 8 + due));
    harness.get_by_label("连续训练 1 天");
}

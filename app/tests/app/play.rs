//! Playing games: against the engine from the Play menu to a recorded result, taking
//! moves back, resigning, and two people at one board with a clock that runs out.

use crate::common;

use chuhe::actions::PlayAction;
use chuhe::actions::*;
use chuhe::state::play::{Match, PlaySetup, Player};
use chuhe_core::Color;
use chuhe_core::play::{Level, TimeControl, TimeControlKind};
use common::{open_in, temp_dir, wait_for};
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use std::time::Duration;

/// Black to move and lost: whatever it does, Red mates at once with 车b9 (the other rook
/// holds rank 8, Red's general the d-file).
const MATE_NEXT: &str = "4k4/R8/9/9/9/9/8p/9/9/1R1K5 b - - 0 1";

fn main_line_len(app: &chuhe::ChuheApp) -> usize {
    app.state.study.record.main_line().len()
}

#[test]
fn a_game_against_the_engine_is_played_from_the_menu_to_a_recorded_result() {
    let dir = temp_dir("play", "engine");
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .apply(&ctx, Action::File(FileAction::Paste(MATE_NEXT.into())));
    harness.run_ok();

    // The Play menu opens the dialog; the person takes Black from the board's position.
    harness.get_by_label("对局").click();
    harness.run_ok();
    harness.get_by_label("与电脑对弈…").click();
    harness.run_ok();
    harness.get_by_label("执黑").click();
    harness.get_by_label("棋盘上的局面").click();
    harness.run_ok();
    let setup = harness.state().state.play_setup.clone().unwrap();
    assert!(setup.against_engine && setup.from_board);
    assert_eq!(setup.human, Color::Black);
    harness.get_by_label("开始对局").click();
    harness.run_ok();
    let state = &harness.state().state;
    let m = state.play.as_ref().expect("the game started");
    assert_eq!(m.player(Color::Black), Player::Human);
    assert!(matches!(m.player(Color::Red), Player::Engine(_)));
    assert!(
        state.board_flipped() && !state.settings.flipped,
        "Black's player sees the board from Black's side, in the game only"
    );
    assert_eq!(state.study.record.start().to_string(), MATE_NEXT);

    // It is not the engine's move: the person moves the pawn, the engine mates.
    harness.state_mut().apply(
        &ctx,
        Action::Study(StudyAction::PlayMove("i3h3".parse().unwrap())),
    );
    assert_eq!(main_line_len(harness.state()), 1);
    wait_for(&mut harness, Duration::from_secs(60), |app| {
        app.state.play.as_ref().is_some_and(|m| m.result.is_some())
    });
    harness.run_ok();
    let state = &harness.state().state;
    let m = state.play.as_ref().unwrap();
    assert_eq!(m.result.unwrap().winner, Some(Color::Red));
    assert_eq!(main_line_len(harness.state()), 2);
    let headers = state.study.record.headers();
    assert_eq!(headers.get("Result"), Some("1-0"));
    assert_eq!(headers.get("Termination"), Some("checkmate"));
    let last = *state.study.record.main_line().last().unwrap();
    assert!(state.study.record.annotation(last).comment.contains("将死"));
    // The result is shown above the board; no move can be made any more.
    assert!(harness.query_all_by_label_contains("红胜").count() >= 1);
    harness.get_by_label("再来一局");
    harness.state_mut().apply(
        &ctx,
        Action::Study(StudyAction::PlayMove("e9f9".parse().unwrap())),
    );
    assert_eq!(main_line_len(harness.state()), 2);
}

#[test]
fn a_move_is_taken_back_with_the_engines_reply_and_a_resignation_ends_the_game() {
    let dir = temp_dir("play", "takeback");
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    let setup = PlaySetup {
        level: Level::BEGINNER,
        ..PlaySetup::default()
    };
    harness
        .state_mut()
        .apply(&ctx, Action::Play(PlayAction::Start(setup)));
    harness.run_ok();
    // The engine cannot be moved for.
    harness.state_mut().apply(
        &ctx,
        Action::Study(StudyAction::PlayMove("h2e2".parse().unwrap())),
    );
    assert_eq!(main_line_len(harness.state()), 1);
    harness.state_mut().apply(
        &ctx,
        Action::Study(StudyAction::PlayMove("h9g7".parse().unwrap())),
    );
    assert_eq!(main_line_len(harness.state()), 1, "not the person's move");
    wait_for(&mut harness, Duration::from_secs(30), |app| {
        main_line_len(app) == 2
    });
    // Taking back removes the engine's reply and the person's move.
    harness.get_by_label("悔棋").click();
    harness.run_ok();
    assert_eq!(main_line_len(harness.state()), 0);
    assert!(
        harness
            .state()
            .state
            .play
            .as_ref()
            .unwrap()
            .result
            .is_none()
    );
    // Resigning asks first: cancelled, the game goes on.
    harness.get_by_label("认负").click();
    harness.run_ok();
    harness.get_by_label("取消").click();
    harness.run_ok();
    assert!(
        harness
            .state()
            .state
            .play
            .as_ref()
            .unwrap()
            .result
            .is_none()
    );
    assert!(harness.state().state.dialog.is_none());
    // Confirmed, the person (Red) loses, whoever is to move.
    harness.get_by_label("认负").click();
    harness.run_ok();
    harness.get_by_label("确定认负").click();
    harness.run_ok();
    let state = &harness.state().state;
    assert_eq!(
        state.play.as_ref().unwrap().result.unwrap().winner,
        Some(Color::Black)
    );
    assert_eq!(state.study.record.headers().get("Result"), Some("0-1"));
    assert_eq!(
        state.study.record.headers().get("Termination"),
        Some("resignation")
    );
}

#[test]
fn two_people_at_one_board_agree_a_draw_or_lose_on_time() {
    let dir = temp_dir("play", "hotseat");
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    let setup = PlaySetup {
        against_engine: false,
        clock: chuhe::state::play::ClockChoice::Control(TimeControlKind::Rapid),
        ..PlaySetup::default()
    };
    harness
        .state_mut()
        .apply(&ctx, Action::Play(PlayAction::Start(setup)));
    harness.run_ok();
    assert_eq!(
        harness
            .state()
            .state
            .study
            .record
            .headers()
            .get("TimeControl"),
        Some("40/600:50/300")
    );
    // Both clocks show ten minutes; Red's runs (on a busy machine a few seconds may pass).
    let stopped = harness.query_all_by_label_contains("10:00").count();
    let running = harness.query_all_by_label_contains("9:5").count();
    assert!(stopped >= 1, "Black's clock shows ten minutes");
    assert!(stopped + running >= 2, "both clocks are shown");
    for m in ["h2e2", "h9g7"] {
        harness.state_mut().apply(
            &ctx,
            Action::Study(StudyAction::PlayMove(m.parse().unwrap())),
        );
    }
    assert_eq!(main_line_len(harness.state()), 2);
    let clock = harness
        .state()
        .state
        .play
        .as_ref()
        .unwrap()
        .clock
        .clone()
        .unwrap();
    assert_eq!(clock.moves(Color::Red), 1);
    assert_eq!(clock.moves_to_go(Color::Black), Some(39));
    // Red offers (and confirms the offer), Black accepts.
    harness.get_by_label("提和").click();
    harness.run_ok();
    harness.get_by_label("提出和棋").click();
    harness.run_ok();
    harness.get_by_label_contains("红方提和");
    harness.get_by_label("同意和棋").click();
    harness.run_ok();
    let state = &harness.state().state;
    assert_eq!(state.play.as_ref().unwrap().result.unwrap().winner, None);
    assert_eq!(state.study.record.headers().get("Result"), Some("1/2-1/2"));
    assert_eq!(
        state.study.record.headers().get("Termination"),
        Some("draw agreed")
    );

    // A second game with a clock of a fraction of a second: Red's time runs out.
    let mut control = TimeControl::new(TimeControlKind::SuddenDeath(1));
    control.first[0].time = Duration::from_millis(300);
    let generation = harness.state().state.study.generation;
    harness.state_mut().state.play = Some(Match::new(
        [Player::Human, Player::Human],
        Some(control),
        generation,
    ));
    wait_for(&mut harness, Duration::from_secs(10), |app| {
        app.state.play.as_ref().is_some_and(|m| m.result.is_some())
    });
    let state = &harness.state().state;
    let result = state.play.as_ref().unwrap().result.unwrap();
    assert_eq!(result.winner, Some(Color::Black));
    assert_eq!(
        state.study.record.headers().get("Termination"),
        Some("time forfeit")
    );
}

fn start(harness: &mut egui_kittest::Harness<'_, chuhe::ChuheApp>, setup: PlaySetup) {
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .apply(&ctx, Action::Play(PlayAction::Start(setup)));
    harness.run_ok();
}

fn toggle_analysis(harness: &mut egui_kittest::Harness<'_, chuhe::ChuheApp>) {
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .apply(&ctx, Action::Engine(EngineAction::ToggleAnalysis));
    harness.run_ok();
}

/// The assist checkbox's label.
const ASSIST: &str = "辅助（引擎分析、最佳着法箭头与提示）";

#[test]
fn without_assist_analysis_the_review_and_hints_stay_off_during_a_game_against_the_engine() {
    let dir = temp_dir("play", "fair");
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    toggle_analysis(&mut harness);
    assert!(harness.state().state.analysis.analysing);
    start(
        &mut harness,
        PlaySetup {
            level: Level::BEGINNER,
            ..PlaySetup::default()
        },
    );
    let state = &harness.state().state;
    assert!(!state.analysis.analysing, "the game stopped the analysis");
    assert!(state.engine_help_barred());
    // Asking for analysis or a review again is refused, and the panel says why.
    toggle_analysis(&mut harness);
    harness
        .state_mut()
        .apply(&ctx, Action::Engine(EngineAction::StartReview));
    harness.run_ok();
    let state = &harness.state().state;
    assert!(!state.analysis.analysing);
    assert!(state.analysis.review.is_none());
    assert_eq!(
        state.notice,
        Some(chuhe::state::Notice::Message("notice-fair-play"))
    );
    harness.get_by_label("对局中：引擎分析与提示已关闭。");
    assert!(harness.query_by_label("开始分析（空格）").is_none());

    // A checkmate pattern's hint is off too.
    harness.get_by_label("杀法").click();
    harness.run_ok();
    harness.get_by_label_contains("9. 马后炮杀").click();
    harness.run_ok();
    harness.get_by_label("练习：我来走").click();
    harness.run_ok();
    assert!(harness.get_by_label("提示").accesskit_node().is_disabled());
    harness
        .state_mut()
        .apply(&ctx, Action::Patterns(PatternAction::Hint));
    harness.run_ok();
    let practice = harness.state().state.patterns.practice.as_ref().unwrap();
    assert!(!practice.hint_shown);
    assert!(harness.query_by_label_contains("提示：").is_none());

    // Once the game is over the engine may speak again.
    harness
        .state_mut()
        .apply(&ctx, Action::Play(PlayAction::Resign));
    harness.run_ok();
    assert!(!harness.state().state.engine_help_barred());
    assert!(!harness.get_by_label("提示").accesskit_node().is_disabled());
    toggle_analysis(&mut harness);
    assert!(harness.state().state.analysis.analysing);
    toggle_analysis(&mut harness);
}

#[test]
fn with_assist_the_engine_analyses_during_the_game_and_the_record_says_so() {
    let dir = temp_dir("play", "assist");
    let mut harness = open_in(&dir);
    // Assist is chosen in the new-game dialog.
    harness.get_by_label("对局").click();
    harness.run_ok();
    harness.get_by_label("与电脑对弈…").click();
    harness.run_ok();
    harness.get_by_label(ASSIST).click();
    harness.run_ok();
    assert!(harness.state().state.play_setup.as_ref().unwrap().assist);
    harness.get_by_label("开始对局").click();
    harness.run_ok();
    let state = &harness.state().state;
    assert!(state.play.as_ref().unwrap().assist);
    assert!(!state.engine_help_barred());
    assert_eq!(state.study.record.headers().get("Assist"), Some("on"));
    toggle_analysis(&mut harness);
    assert!(harness.state().state.analysis.analysing);
    wait_for(&mut harness, Duration::from_secs(60), |app| {
        app.state.visible_engine().is_some()
    });
    harness.run_ok();
    assert!(
        harness
            .query_by_label("对局中：引擎分析与提示已关闭。")
            .is_none()
    );
    toggle_analysis(&mut harness);

    // In a game begun without it, the play bar's checkbox switches it on, and the record
    // says so from then on.
    start(
        &mut harness,
        PlaySetup {
            level: Level::BEGINNER,
            ..PlaySetup::default()
        },
    );
    let state = &harness.state().state;
    assert!(state.engine_help_barred());
    assert_eq!(state.study.record.headers().get("Assist"), None);
    harness.get_by_label(ASSIST).click();
    harness.run_ok();
    let state = &harness.state().state;
    assert!(!state.engine_help_barred());
    assert_eq!(state.study.record.headers().get("Assist"), Some("on"));
    toggle_analysis(&mut harness);
    assert!(harness.state().state.analysis.analysing);
    wait_for(&mut harness, Duration::from_secs(60), |app| {
        app.state.visible_engine().is_some()
    });
    // Switched off again, the analysis stops and what it found is no longer shown (the
    // lines, the arrow and the bar all come from it); the record still says help was had.
    harness.get_by_label(ASSIST).click();
    harness.run_ok();
    let state = &harness.state().state;
    assert!(!state.analysis.analysing && state.engine_help_barred());
    assert!(state.analysis.engine.is_some() && state.visible_engine().is_none());
    assert_eq!(state.study.record.headers().get("Assist"), Some("on"));
}

#[test]
fn the_endgame_tables_verdict_is_hidden_during_a_game_without_assist() {
    let dir = temp_dir("play", "table");
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(
        &ctx,
        Action::File(FileAction::Paste(
            "4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1".into(),
        )),
    );
    harness.run_ok();
    harness.get_by_label("残局库");
    let from_board = PlaySetup {
        level: Level::BEGINNER,
        from_board: true,
        ..PlaySetup::default()
    };
    start(&mut harness, from_board.clone());
    assert!(harness.query_by_label("残局库").is_none());
    harness
        .state_mut()
        .apply(&ctx, Action::Play(PlayAction::Leave));
    start(
        &mut harness,
        PlaySetup {
            assist: true,
            ..from_board
        },
    );
    harness.get_by_label("残局库");
}

#[test]
fn a_game_turns_only_its_own_board_and_the_dialog_remembers_its_choices() {
    let dir = temp_dir("play", "remember");
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    harness.get_by_label("对局").click();
    harness.run_ok();
    harness.get_by_label("与电脑对弈…").click();
    harness.run_ok();
    harness.get_by_label("执黑").click();
    harness.run_ok();
    harness.get_by_label("电脑等级：").click();
    harness.run_ok();
    harness.get_by_label("3 级 · 中级").click();
    harness.run_ok();
    harness.get_by_label("计时：").click();
    harness.run_ok();
    harness.get_by_label("包干制").click();
    harness.run_ok();
    let chosen = harness.state().state.play_setup.clone().unwrap();
    assert_eq!(chosen.level, Level::new(3).unwrap());
    assert_eq!(chosen.human, Color::Black);
    assert!(matches!(
        chosen.clock,
        chuhe::state::play::ClockChoice::Control(TimeControlKind::SuddenDeath(_))
    ));
    harness.get_by_label("开始对局").click();
    harness.run_ok();
    let state = &harness.state().state;
    assert!(
        state.board_flipped(),
        "Black's player sees Black at the bottom"
    );
    assert!(
        !state.settings.flipped,
        "the study's orientation is its own"
    );
    // Turning the board in the game turns the game's view only.
    harness
        .state_mut()
        .apply(&ctx, Action::View(ViewAction::Flip));
    let state = &harness.state().state;
    assert!(!state.board_flipped() && !state.settings.flipped);
    harness
        .state_mut()
        .apply(&ctx, Action::View(ViewAction::Flip));
    assert!(harness.state().state.board_flipped());

    // The game ends and is left: the study board is the right way up again.
    harness
        .state_mut()
        .apply(&ctx, Action::Play(PlayAction::Resign));
    harness.run_ok();
    harness.get_by_label("关闭").click();
    harness.run_ok();
    let state = &harness.state().state;
    assert!(state.play.is_none());
    assert!(!state.board_flipped());

    // The dialog opens as it was left.
    harness.get_by_label("对局").click();
    harness.run_ok();
    harness.get_by_label("与电脑对弈…").click();
    harness.run_ok();
    assert_eq!(harness.state().state.play_setup.as_ref(), Some(&chosen));
    drop(harness);

    // And so it does after a restart, with the study board the right way up.
    let mut harness = open_in(&dir);
    assert!(!harness.state().state.board_flipped());
    harness.get_by_label("对局").click();
    harness.run_ok();
    harness.get_by_label("与电脑对弈…").click();
    harness.run_ok();
    assert_eq!(harness.state().state.play_setup.as_ref(), Some(&chosen));
}

#[test]
fn a_game_against_the_engine_waits_paused_in_its_tab_while_another_is_on_the_board() {
    let dir = temp_dir("play", "tabs");
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    // The person plays Black under a clock: the engine, Red, moves first. No frame runs
    // between the start and leaving the tab, so the engine has not begun.
    let setup = PlaySetup {
        level: Level::BEGINNER,
        human: Color::Black,
        clock: chuhe::state::play::ClockChoice::Control(TimeControlKind::Rapid),
        ..PlaySetup::default()
    };
    harness
        .state_mut()
        .apply(&ctx, Action::Play(PlayAction::Start(setup)));
    harness
        .state_mut()
        .apply(&ctx, Action::Tabs(TabAction::New));
    harness.run_ok();
    let paused = |app: &chuhe::ChuheApp| {
        let away = &app.state.tabs.others[0];
        let m = away
            .paused_play
            .as_ref()
            .expect("the game waits in its tab");
        (
            m.time_left(Color::Red, Color::Red),
            away.record.move_count(),
        )
    };
    let left = paused(harness.state());
    assert!(left.0.is_some());
    // Frames pass on the other tab: the engine moves in neither game, the clock stands
    // still, and the play bar is not shown over the other game.
    for _ in 0..10 {
        std::thread::sleep(Duration::from_millis(30));
        harness.step();
    }
    let app = harness.state();
    assert!(app.state.play.is_none());
    assert_eq!(app.state.study.record.move_count(), 0);
    assert_eq!(paused(app), left, "no move, and the clock stood still");
    assert!(harness.query_by_label("认负").is_none());

    // Back on its tab the game goes on: the engine makes its move.
    harness
        .state_mut()
        .apply(&ctx, Action::Tabs(TabAction::Switch(0)));
    harness.run_ok();
    assert!(
        harness
            .state()
            .state
            .play
            .as_ref()
            .is_some_and(|m| m.result.is_none())
    );
    wait_for(&mut harness, Duration::from_secs(30), |app| {
        main_line_len(app) == 1
    });
    harness.run_ok();
    harness.get_by_label("认负");

    // Once resigned, the result shows on the game's own tab only.
    harness.get_by_label("认负").click();
    harness.run_ok();
    harness.get_by_label("确定认负").click();
    harness.run_ok();
    harness.get_by_label("再来一局");
    harness
        .state_mut()
        .apply(&ctx, Action::Tabs(TabAction::Switch(1)));
    harness.run_ok();
    assert!(harness.query_by_label("再来一局").is_none());
    assert!(harness.query_all_by_label_contains("红胜").next().is_none());
    harness
        .state_mut()
        .apply(&ctx, Action::Tabs(TabAction::Switch(0)));
    harness.run_ok();
    harness.get_by_label("再来一局");
}

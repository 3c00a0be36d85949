//! The checkmate-pattern browser, driven like a user does: open the gallery, open a
//! pattern, step through its solution, practise it against the prover.

use chuhe::ChuheApp;
use chuhe::services::storage::Storage;
use chuhe::state::patterns::{Defence, solved_key};
use chuhe_core::library::patterns::mate_patterns;
use chuhe_core::library::patterns::{self, has_rule};
use chuhe_core::solver::defend;
use chuhe_core::{Move, Square};
use egui::{Event, PointerButton, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhe-patterns-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn open(name: &str) -> (Harness<'static, ChuheApp>, PathBuf) {
    let dir = temp_dir(name);
    let storage_dir = dir.clone();
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1300.0, 850.0))
        .build_eframe(move |cc| ChuheApp::with_storage(cc, Storage::in_dir(storage_dir.clone())));
    harness.run();
    (harness, dir)
}

/// Runs frames until the practice's prover has answered.
fn wait_for_defence(harness: &mut Harness<'_, ChuheApp>) {
    let start = Instant::now();
    loop {
        harness.step();
        let pending = harness
            .state()
            .state
            .patterns
            .practice
            .as_ref()
            .is_some_and(|p| p.pending.is_some());
        if !pending {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the prover never answered"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    harness.run_ok();
}

fn click_point(harness: &mut Harness<'_, ChuheApp>, square: Square) {
    let geometry = harness
        .state()
        .pattern_board_geometry()
        .expect("the pattern board was drawn");
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

#[test]
fn the_gallery_opens_a_pattern_and_steps_through_its_solution() {
    let (mut harness, _) = open("gallery");
    harness.get_by_label("杀法").click();
    harness.run_ok();
    assert!(harness.state().state.patterns.open);
    // Every pattern is in the gallery under its number and name.
    for p in patterns::library().unwrap() {
        harness.get_by_label_contains(&format!("{}. {}", p.id, p.names.zh_cn));
    }
    harness.get_by_label_contains("9. 马后炮杀").click();
    harness.run_ok();
    assert_eq!(harness.state().state.patterns.selected, Some((9, 0)));
    harness.get_by_label_contains("马作炮架");
    // The commentary after seed 000.
    harness.get_by_label_contains("马在炮前垫将");
    let line = &patterns::pattern(9).unwrap().examples[0].line;
    for i in 1..=line.len() {
        harness.get_by_label("下一步 ▶").click();
        harness.run_ok();
        assert_eq!(harness.state().state.patterns.step, i);
    }
    // At the end the final shape is named.
    harness.get_by_label_contains("终局图形：");
    harness.get_by_label("◀ 上一步").click();
    harness.run_ok();
    assert_eq!(harness.state().state.patterns.step, line.len() - 1);
    harness.get_by_label("返回列表").click();
    harness.run_ok();
    assert_eq!(harness.state().state.patterns.selected, None);
    harness.get_by_label("回到对局").click();
    harness.run_ok();
    assert!(!harness.state().state.patterns.open);
}

#[test]
fn in_practice_a_right_move_is_accepted_and_a_wrong_one_taken_back() {
    let (mut harness, dir) = open("practice");
    harness.get_by_label("杀法").click();
    harness.run_ok();
    // The first example with a mate in more than one move.
    let (id, ex) = patterns::library()
        .unwrap()
        .iter()
        .find_map(|p| {
            p.examples
                .first()
                .filter(|e| e.mate_in >= 2)
                .map(|e| (p.id, e))
        })
        .unwrap();
    let name = patterns::pattern(id).unwrap().names.zh_cn.clone();
    harness
        .get_by_label_contains(&format!("{id}. {name}"))
        .click();
    harness.run_ok();
    harness.get_by_label("练习：我来走").click();
    harness.run_ok();
    let (start, line) = patterns::replay(ex).unwrap();

    // A legal move that lets the defender off is taken back.
    let wrong = start
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| {
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            matches!(
                defend(&start.play(m).unwrap(), ex.mate_in, stop),
                Defence::Escapes { .. }
            )
        })
        .expect("some move lets the defender escape");
    play(&mut harness, wrong);
    wait_for_defence(&mut harness);
    let practice = harness.state().state.patterns.practice.as_ref().unwrap();
    assert_eq!(practice.result, Some(false));
    assert_eq!(practice.position, start, "the wrong move is taken back");
    harness.get_by_label_contains("逃脱");

    // The hint shows the winning move; playing it is accepted and the defender replies.
    harness.get_by_label("提示").click();
    harness.run_ok();
    harness.get_by_label_contains("提示：");
    play(&mut harness, line[0]);
    wait_for_defence(&mut harness);
    let practice = harness.state().state.patterns.practice.as_ref().unwrap();
    assert_ne!(practice.result, Some(false), "the book move is right");
    assert_eq!(practice.left, ex.mate_in - 1);
    assert_eq!(practice.position.side_to_move(), start.side_to_move());

    // Following the hints to the end solves it, and the success is kept in the settings.
    for _ in 0..ex.mate_in {
        let practice = harness.state().state.patterns.practice.as_ref().unwrap();
        if practice.result == Some(true) {
            break;
        }
        let hint = practice.hint.expect("a winning move is known");
        play(&mut harness, hint);
        wait_for_defence(&mut harness);
    }
    let state = &harness.state().state;
    assert_eq!(state.patterns.practice.as_ref().unwrap().result, Some(true));
    assert!(state.settings.patterns_solved.contains(&solved_key(id, 0)));
    harness.get_by_label_contains("成功");
    let saved = std::fs::read_to_string(dir.join("settings.ron")).unwrap_or_default();
    assert!(saved.contains(&solved_key(id, 0)), "kept on disk: {saved}");
}

/// Drags a piece from one point to another with the left button, in several moves.
fn drag(harness: &mut Harness<'_, ChuheApp>, m: Move) {
    let geometry = harness
        .state()
        .pattern_board_geometry()
        .expect("the pattern board was drawn");
    let (a, b) = (geometry.point(m.from), geometry.point(m.to));
    let button = |harness: &mut Harness<'_, ChuheApp>, pos, pressed| {
        harness.event(Event::PointerMoved(pos));
        harness.event(Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        });
        harness.step();
    };
    button(harness, a, true);
    for i in 1..=6 {
        harness.event(Event::PointerMoved(a + (b - a) * (i as f32 / 6.0)));
        harness.step();
    }
    button(harness, b, false);
    harness.run_ok();
}

#[test]
fn in_practice_a_piece_is_moved_by_dragging() {
    let (mut harness, _) = open("practice-drag");
    harness.get_by_label("杀法").click();
    harness.run_ok();
    let (id, ex) = patterns::library()
        .unwrap()
        .iter()
        .find_map(|p| {
            p.examples
                .first()
                .filter(|e| e.mate_in >= 2)
                .map(|e| (p.id, e))
        })
        .unwrap();
    let name = patterns::pattern(id).unwrap().names.zh_cn.clone();
    harness
        .get_by_label_contains(&format!("{id}. {name}"))
        .click();
    harness.run_ok();
    harness.get_by_label("练习：我来走").click();
    harness.run_ok();
    let (start, line) = patterns::replay(ex).unwrap();

    // A drag from the defender's side moves nothing.
    let theirs = start
        .play(line[0])
        .unwrap()
        .legal_moves()
        .iter()
        .copied()
        .next()
        .expect("the defender has a move");
    drag(&mut harness, theirs);
    let practice = harness.state().state.patterns.practice.as_ref().unwrap();
    assert_eq!(practice.position, start);
    assert!(practice.pending.is_none());

    // The book move dragged is played, and the defender answers it.
    drag(&mut harness, line[0]);
    wait_for_defence(&mut harness);
    let practice = harness.state().state.patterns.practice.as_ref().unwrap();
    assert_ne!(practice.result, Some(false), "the book move is right");
    assert_eq!(practice.left, ex.mate_in - 1);
    assert_eq!(practice.position.side_to_move(), start.side_to_move());
}

#[test]
fn analysis_lines_that_mate_are_named_for_every_library_mate() {
    for p in patterns::library().unwrap() {
        for ex in &p.examples {
            let (start, line) = patterns::replay(ex).unwrap();
            let shapes = mate_patterns(&start, &line);
            if has_rule(p.id) {
                assert!(shapes.contains(&p.id), "pattern {}: {shapes:?}", p.id);
            }
            // Short of the mate, no pattern is named.
            assert!(mate_patterns(&start, &line[..line.len() - 1]).is_empty());
        }
    }
}

#[test]
fn the_app_font_has_every_character_of_the_pattern_library() {
    let mut texts = vec!["★".to_owned()];
    for p in patterns::library().unwrap() {
        texts.extend([
            p.names.zh_cn.clone(),
            p.names.zh_tw.clone(),
            p.names.en.clone(),
            p.definition.zh.clone(),
            p.definition.zh_tw.clone(),
            p.definition.en.clone(),
        ]);
        if let Some(n) = &p.notes {
            texts.extend([n.zh.clone(), n.zh_tw.clone(), n.en.clone()]);
        }
        if let Some(a) = &p.alias {
            texts.extend([a.zh_cn.clone(), a.zh_tw.clone(), a.en.clone()]);
        }
        texts.extend(p.examples.iter().map(|e| e.source.clone()));
    }
    let mut harness = Harness::builder()
        .with_context_setup(chuhe::fonts::install)
        .build_ui(move |ui| {
            for t in &texts {
                ui.label(t);
            }
        });
    harness.run();
}

#[test]
fn analysis_that_finds_a_mate_names_its_pattern() {
    let (mut harness, _) = open("analysis");
    let ex = &patterns::pattern(9).unwrap().examples[0];
    harness.event(Event::Paste(ex.fen.clone()));
    harness.run_ok();
    harness.key_press(egui::Key::Space);
    harness.run_ok();
    assert!(harness.state().state.analysis.analysing);
    // Wait until the best line is a mate played out to the end.
    let start = Instant::now();
    let names = loop {
        harness.step();
        let named = harness.state().state.visible_engine().and_then(|view| {
            let line = view.update.report.lines.first()?;
            let ids = mate_patterns(&view.position, &line.moves);
            (!ids.is_empty())
                .then(|| chuhe::widgets::text::names_of(&ids, chuhe::i18n::Language::ZhCn))
        });
        if let Some(names) = named {
            break names;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no mate found");
        std::thread::sleep(Duration::from_millis(20));
    };
    harness.step();
    let label = format!("杀法：{names}");
    assert!(
        harness.get_all_by_label_contains(&label).next().is_some(),
        "the analysis panel says {label}"
    );
    harness.key_press(egui::Key::Space);
    harness.run_ok();
}

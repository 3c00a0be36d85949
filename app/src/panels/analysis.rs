//! The analysis panel: the toggle, depth, speed and the engine's lines in the chosen
//! notation (a click plays a line into the record); the whole-game review's progress.

use crate::actions::Action;
use crate::app::ChuheApp;
use crate::i18n::I18n;
use chuhe_core::Position;
use chuhe_core::notation::format_move;
use chuhe_core::search::Score;
use egui::{RichText, Ui};

/// How many moves of each line are shown.
const SHOWN_MOVES: usize = 8;

/// Draws the panel.
pub fn show(app: &ChuheApp, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let state = &app.state;
    ui.horizontal(|ui| {
        let label = if state.analysing {
            i18n.tr("analysis-stop")
        } else {
            i18n.tr("analysis-start")
        };
        if ui.selectable_label(state.analysing, label).clicked() {
            actions.push(Action::ToggleAnalysis);
        }
        let hide = if state.engine_hidden {
            i18n.tr("engine-show")
        } else {
            i18n.tr("engine-hide")
        };
        if ui.selectable_label(state.engine_hidden, hide).clicked() {
            actions.push(Action::ToggleEngineHidden);
        }
        let label = ui.label(i18n.tr("analysis-lines"));
        let mut lines = state.settings.engine.multipv;
        if ui
            .add(egui::DragValue::new(&mut lines).range(1..=5))
            .labelled_by(label.id)
            .changed()
        {
            actions.push(Action::SetMultiPv(lines));
        }
    });
    review_row(app, ui, actions);
    if state.engine_hidden {
        ui.weak(i18n.tr("engine-hidden-note"));
        return;
    }
    let Some(view) = state.visible_engine() else {
        if state.analysing {
            ui.weak(i18n.tr("analysis-waiting"));
        }
        return;
    };
    let update = &view.update;
    ui.label(i18n.tr_args(
        "analysis-stats",
        &[
            ("depth", update.depth.into()),
            ("nps", format_nps(update.nps).into()),
        ],
    ));
    let notation = state.settings.notation.notation();
    for line in &update.lines {
        let text = format!(
            "{}. {}  {}",
            line.multipv,
            score_text(i18n, line.score_red),
            line_text(&view.position, &line.moves, notation)
        );
        let response = ui.add(egui::Button::new(RichText::new(text).monospace()).wrap());
        if response.clicked() {
            actions.push(Action::PlayLine(view.node, line.moves.clone()));
        }
        // A forced mate whose final position has a named shape: say which (杀法).
        if matches!(line.score, Score::Mate(n) if n > 0) {
            let shapes = crate::panels::patterns::mate_patterns(&view.position, &line.moves);
            if !shapes.is_empty() {
                let names = crate::panels::patterns::names_of(&shapes, i18n.language());
                ui.label(i18n.tr_args("analysis-pattern", &[("names", names.into())]));
            }
        }
    }
}

fn review_row(app: &ChuheApp, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    ui.horizontal(|ui| match &app.state.review {
        Some(progress) => {
            let fraction = progress.done as f32 / progress.total.max(1) as f32;
            ui.add(
                egui::ProgressBar::new(fraction)
                    .desired_width(160.0)
                    .text(i18n.tr_args(
                        "review-progress",
                        &[
                            ("done", progress.done.into()),
                            ("total", progress.total.into()),
                        ],
                    )),
            );
            if ui.button(i18n.tr("review-cancel")).clicked() {
                actions.push(Action::CancelReview);
            }
        }
        None => {
            let has_moves = app
                .state
                .record
                .main_child(app.state.record.root())
                .is_some();
            if ui
                .add_enabled(has_moves, egui::Button::new(i18n.tr("review-start")))
                .clicked()
            {
                actions.push(Action::StartReview);
            }
        }
    });
}

/// A score from Red's point of view: `+0.35`, `-1.20`, `红胜 M3`.
pub fn score_text(i18n: &I18n, score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(n) => i18n.tr_args("score-mate", &[("count", n.into())]),
    }
}

/// The first moves of a line in `notation`, numbered from `position`.
fn line_text(
    position: &Position,
    moves: &[chuhe_core::Move],
    notation: chuhe_core::Notation,
) -> String {
    let mut position = position.clone();
    let mut words = Vec::new();
    for &m in moves.iter().take(SHOWN_MOVES) {
        words.push(format_move(&position, m, notation));
        match position.play(m) {
            Ok(next) => position = next,
            Err(_) => break,
        }
    }
    words.join(" ")
}

fn format_nps(nps: u64) -> String {
    if nps >= 1_000_000 {
        format!("{:.1}M", nps as f64 / 1e6)
    } else {
        format!("{}k", nps / 1000)
    }
}

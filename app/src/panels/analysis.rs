//! The analysis panel: the toggle, depth, speed and the engine's lines in the chosen
//! notation (a click plays a line into the record); the whole-game review's progress.

use crate::actions::Action;
use crate::actions::*;
use crate::i18n::I18n;
use crate::widgets::View;
use crate::words::text::*;
use chuhe_core::Position;
use egui::{RichText, Ui};

/// How many moves of each line are shown.
const SHOWN_MOVES: usize = 8;

/// Draws the panel.
pub fn show(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let state = &app.state;
    if state.engine_help_barred() {
        ui.weak(i18n.tr("fair-play-off"));
        return;
    }
    ui.horizontal(|ui| {
        let label = if state.analysis.analysing {
            i18n.tr("analysis-stop")
        } else {
            i18n.tr("analysis-start")
        };
        if ui
            .selectable_label(state.analysis.analysing, label)
            .clicked()
        {
            actions.push(Action::Engine(EngineAction::ToggleAnalysis));
        }
        let hide = if state.analysis.engine_hidden {
            i18n.tr("engine-show")
        } else {
            i18n.tr("engine-hide")
        };
        if ui
            .selectable_label(state.analysis.engine_hidden, hide)
            .clicked()
        {
            actions.push(Action::Engine(EngineAction::ToggleEngineHidden));
        }
        let label = ui.label(i18n.tr("analysis-lines"));
        let mut lines = state.settings.engine.multipv;
        if ui
            .add(egui::DragValue::new(&mut lines).range(crate::settings::MULTIPV_RANGE))
            .labelled_by(label.id)
            .changed()
        {
            actions.push(Action::Engine(EngineAction::SetMultiPv(lines)));
        }
    });
    review_row(app, ui, actions);
    engine_status(app, ui, actions);
    table_making(app, ui, actions);
    if state.analysis.engine_hidden {
        ui.weak(i18n.tr("engine-hidden-note"));
        return;
    }
    let Some(view) = state.visible_engine() else {
        if state.analysis.analysing {
            ui.weak(i18n.tr("analysis-waiting"));
        }
        return;
    };
    let update = &view.update;
    ui.label(i18n.tr_args(
        "analysis-stats",
        &[
            ("depth", update.report.depth.into()),
            ("nps", format_nps(update.report.nps).into()),
        ],
    ));
    for (index, line) in update.report.lines.iter().enumerate() {
        let text = format!(
            "{}. {}  {}",
            line.multipv,
            crate::words::text::score_text(
                i18n,
                line.score_for_red(update.report.side_to_move),
                state.settings.score_unit
            ),
            first_moves(app, &view.position, &line.moves)
        );
        let response = ui.add(egui::Button::new(RichText::new(text).monospace()).wrap());
        if response.clicked() {
            actions.push(Action::Study(StudyAction::PlayLine(
                view.node,
                line.moves.clone(),
            )));
        }
        // A forced mate whose final position has a named shape: say which (杀法).
        if let Some(shapes) = view.mate_patterns.get(index)
            && !shapes.is_empty()
        {
            let names = names_of(shapes, i18n.language());
            ui.label(i18n.tr_args("analysis-pattern", &[("names", names.into())]));
        }
    }
}

/// Which engine analyses, and what went wrong with an external one, in plain words.
fn engine_status(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    use crate::state::analysis::EngineStatus;
    let i18n = &app.i18n;
    let state = &app.state;
    match &state.analysis.engine_status {
        Some(EngineStatus::External(info)) => {
            ui.weak(i18n.tr_args("engine-using", &[("name", info.name.clone().into())]));
        }
        Some(EngineStatus::Failed(error)) => {
            ui.horizontal_wrapped(|ui| {
                ui.colored_label(ui.visuals().warn_fg_color, describe_failure(i18n, error));
                if ui.small_button(i18n.tr("engine-retry")).clicked() {
                    actions.push(Action::Engine(EngineAction::RestartEngine));
                }
            });
        }
        Some(EngineStatus::Builtin) | Some(EngineStatus::Warning(_)) | None => {}
    }
    if let Some(warning) = &state.analysis.engine_warning {
        ui.weak(describe_warning(i18n, warning));
    }
}

/// The endgame table being made while the engine analyses: which, how far, and a way
/// to stop it.
fn table_making(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let state = &app.state;
    let Some(material) = &state.tablebase.generating else {
        return;
    };
    if !state.analysis.analysing {
        return;
    }
    let i18n = &app.i18n;
    let percent = (state.tablebase.progress.1.clamp(0.0, 1.0) * 100.0).round() as i64;
    ui.horizontal_wrapped(|ui| {
        ui.weak(i18n.tr_args(
            "analysis-table-making",
            &[
                ("material", material_name(i18n, material).into()),
                ("percent", percent.into()),
            ],
        ));
        if ui.small_button(i18n.tr("analysis-table-stop")).clicked() {
            actions.push(Action::Tablebase(TbAction::StopGenerating));
        }
    });
}

/// An external engine's failure in the user's language.
pub fn describe_failure(i18n: &I18n, error: &chuhe_core::external::ExternalError) -> String {
    use chuhe_core::external::ExternalError;
    match error {
        ExternalError::Spawn { path, reason } => i18n.tr_args(
            "engine-error-spawn",
            &[
                ("path", path.display().to_string().into()),
                ("reason", reason.clone().into()),
            ],
        ),
        ExternalError::NoHandshake { waited } => i18n.tr_args(
            "engine-error-handshake",
            &[("seconds", waited.as_secs_f64().into())],
        ),
        ExternalError::NotResponding { waited } => i18n.tr_args(
            "engine-error-not-responding",
            &[("seconds", waited.as_secs_f64().into())],
        ),
        ExternalError::Exited { code: Some(code) } => {
            i18n.tr_args("engine-error-exited", &[("code", (*code).into())])
        }
        ExternalError::Exited { code: None } => i18n.tr("engine-error-killed"),
        ExternalError::Io { reason } => {
            i18n.tr_args("engine-error-io", &[("reason", reason.clone().into())])
        }
    }
}

/// A line an external engine wrote that could not be used, in the user's language.
pub fn describe_warning(i18n: &I18n, warning: &chuhe_core::external::ExternalWarning) -> String {
    use chuhe_core::external::WarningReason;
    let line = ("line", warning.line.clone().into());
    match &warning.reason {
        WarningReason::BadMove(word) => i18n.tr_args(
            "engine-warning-bad-move",
            &[("move", word.clone().into()), line],
        ),
        WarningReason::BadValue(key) => i18n.tr_args(
            "engine-warning-bad-value",
            &[("key", key.clone().into()), line],
        ),
        WarningReason::Unknown => i18n.tr_args("engine-warning-unknown", &[line]),
    }
}

fn review_row(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    ui.horizontal(|ui| match &app.state.analysis.review {
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
                actions.push(Action::Engine(EngineAction::CancelReview));
            }
        }
        None => {
            let has_moves = app
                .state
                .study
                .record
                .main_child(app.state.study.record.root())
                .is_some();
            if ui
                .add_enabled(has_moves, egui::Button::new(i18n.tr("review-start")))
                .clicked()
            {
                actions.push(Action::Engine(EngineAction::StartReview));
            }
        }
    });
}

/// The first moves of an engine's line from `position`, unnumbered.
fn first_moves(app: &View, position: &Position, moves: &[chuhe_core::Move]) -> String {
    let mut position = position.clone();
    let mut words = Vec::new();
    for &m in moves.iter().take(SHOWN_MOVES) {
        words.push(app.move_text(&position, m));
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

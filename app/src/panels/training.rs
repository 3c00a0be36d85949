//! Training (训练): the Train home — due items per kind, new items a day, the streak, the
//! last 90 days' reviews and retention, the repertoires, each item's history — and the
//! drill's board and panel during a round.

use crate::actions::*;
use crate::i18n::I18n;
use crate::state::training::{DrillMessage, DrillSession};
use crate::widgets::View;
use crate::widgets::board::Marks;
use crate::widgets::board_input::{BoardEvent, practice_board};
use crate::words::text::*;
use chuhe_core::Color;
use chuhe_core::training::schedule::Grade;
use chuhe_core::training::store::{Now, date_text};
use chuhe_core::training::{Item, Kind, Task};
use egui::{Color32, RichText, Ui};

/// Days the chart covers.
const CHART_DAYS: usize = 90;

fn push(actions: &mut Vec<Action>, action: TrainAction) {
    actions.push(Action::Train(action));
}

/// A kind's name.
pub fn kind_name(i18n: &I18n, kind: Kind) -> String {
    i18n.tr(match kind {
        Kind::Opening => "training-kind-opening",
        Kind::Pattern => "training-kind-pattern",
        Kind::Puzzle => "training-kind-puzzle",
        Kind::Endgame => "training-kind-endgame",
    })
}

/// A grade's name.
pub fn grade_name(i18n: &I18n, grade: Grade) -> String {
    i18n.tr(match grade {
        Grade::Again => "training-grade-again",
        Grade::Hard => "training-grade-hard",
        Grade::Good => "training-grade-good",
        Grade::Easy => "training-grade-easy",
    })
}

/// What the user is asked in an item, in words.
fn task_text(i18n: &I18n, item: &Item) -> String {
    let side = side_name(i18n, item.user());
    let id = match (&item.task, item.kind) {
        (Task::Line { .. }, _) => "training-task-opening",
        (Task::Table, _) => "training-task-endgame",
        (_, Kind::Pattern) => "training-task-pattern",
        _ => "training-task-puzzle",
    };
    i18n.tr_args(id, &[("side", side.into())])
}

/// When an item is due next, in words.
fn due_text(i18n: &I18n, now: Now, due: i64) -> String {
    let days = now.day_of(due) - now.today();
    if days <= 0 {
        i18n.tr("training-due-today")
    } else {
        i18n.tr_args("training-due-in-days", &[("days", days.into())])
    }
}

/// The Train home, in place of the board.
pub fn home(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let training = &app.state.training;
    let data = &training.data;
    let now = Now::local();
    let palette = app.palette();
    ui.horizontal(|ui| {
        ui.heading(i18n.tr("training-title"));
        if ui.button(i18n.tr("training-close")).clicked() {
            push(actions, TrainAction::ToggleHome);
        }
    });
    if let Some(problem) = &training.problem {
        ui.colored_label(ui.visuals().warn_fg_color, problem_text(i18n, problem));
    }
    let counts = data.counts(&training.catalogue, now);
    let total: usize = counts.values().map(|c| c.due + c.new).sum();
    ui.horizontal_wrapped(|ui| {
        let start = ui.add_enabled(
            total > 0,
            egui::Button::new(
                RichText::new(i18n.tr_args("training-start-round", &[("count", total.into())]))
                    .strong(),
            ),
        );
        if start.clicked() {
            push(actions, TrainAction::StartRound);
        }
        ui.separator();
        ui.label(i18n.tr_args("training-streak", &[("days", data.streak(now).into())]));
        ui.separator();
        let label = ui.label(i18n.tr("training-new-per-day"));
        let mut new_per_day = data.new_per_day;
        if ui
            .add(egui::DragValue::new(&mut new_per_day).range(0..=200))
            .labelled_by(label.id)
            .changed()
        {
            push(actions, TrainAction::SetNewPerDay(new_per_day));
        }
        ui.separator();
        if ui.button(i18n.tr("training-export")).clicked() {
            push(actions, TrainAction::ExportDialog);
        }
        if ui.button(i18n.tr("training-import")).clicked() {
            push(actions, TrainAction::ImportDialog);
        }
        if app.state.class.running.is_some()
            && ui.button(i18n.tr("class-quiz-send-round")).clicked()
        {
            actions.push(Action::Class(crate::actions::ClassAction::SendRound(
                crate::state::class::quiz::RoundSource::Training,
            )));
        }
    });
    ui.add_space(4.0);
    egui::Grid::new("training due by kind")
        .striped(true)
        .num_columns(4)
        .show(ui, |ui| {
            ui.strong(i18n.tr("training-column-kind"));
            ui.strong(i18n.tr("training-column-due"));
            ui.strong(i18n.tr("training-column-new"));
            ui.strong(i18n.tr("training-column-unseen"));
            ui.end_row();
            for (kind, c) in &counts {
                ui.label(kind_name(i18n, *kind));
                ui.label(c.due.to_string());
                ui.label(c.new.to_string());
                ui.label(c.unseen.to_string());
                ui.end_row();
            }
        });
    ui.add_space(6.0);
    chart(app, ui, now);
    ui.separator();
    egui::ScrollArea::vertical()
        .id_salt("training home")
        .show(ui, |ui| {
            repertoires(app, ui, actions);
            ui.separator();
            ui.strong(i18n.tr("training-items"));
            if data.items.is_empty() {
                ui.weak(i18n.tr("training-items-none"));
            }
            for (key, record) in &data.items {
                let selected = training.selected.as_deref() == Some(key.as_str());
                let text = format!(
                    "{} · {} · {} · {}",
                    kind_name(i18n, record.kind),
                    record.title,
                    due_text(i18n, now, record.memory.due),
                    i18n.tr_args(
                        "training-review-count",
                        &[("count", record.history.len().into())]
                    ),
                );
                if ui.selectable_label(selected, text).clicked() {
                    push(
                        actions,
                        TrainAction::ShowHistory((!selected).then(|| key.clone())),
                    );
                }
                if selected {
                    ui.indent(key, |ui| {
                        for review in record.history.iter().rev() {
                            let colour = if review.grade.passed() {
                                palette.success
                            } else {
                                palette.danger
                            };
                            let mut line = format!(
                                "{}  {}  {}",
                                date_text(now.day_of(review.at)),
                                grade_name(i18n, review.grade),
                                i18n.tr_args(
                                    "training-seconds",
                                    &[("seconds", review.seconds.into())]
                                ),
                            );
                            if review.grade != review.earned {
                                line.push_str("  ");
                                line.push_str(&i18n.tr_args(
                                    "training-overridden",
                                    &[("grade", grade_name(i18n, review.earned).into())],
                                ));
                            }
                            ui.label(RichText::new(line).color(colour));
                        }
                        ui.weak(
                            i18n.tr_args(
                                "training-recall-now",
                                &[(
                                    "percent",
                                    ((record.memory.retrievability(now.at) * 100.0).round() as i64)
                                        .into(),
                                )],
                            ),
                        );
                    });
                }
            }
        });
}

/// The user's repertoires, with the buttons that mark the board's game as one.
fn repertoires(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    ui.strong(i18n.tr("training-repertoires"));
    ui.horizontal_wrapped(|ui| {
        for side in [Color::Red, Color::Black] {
            let id = match side {
                Color::Red => "training-mark-study-red",
                Color::Black => "training-mark-study-black",
            };
            if ui.button(i18n.tr(id)).clicked() {
                push(actions, TrainAction::MarkStudy(side));
            }
        }
    });
    if app.state.training.data.repertoires.is_empty() {
        ui.weak(i18n.tr("training-repertoires-none"));
    }
    for rep in &app.state.training.data.repertoires {
        ui.horizontal(|ui| {
            ui.label(i18n.tr_args(
                "training-repertoire-line",
                &[
                    ("name", rep.name.clone().into()),
                    ("side", side_name(i18n, rep.user).into()),
                    ("count", rep.lines.len().into()),
                ],
            ));
            if ui
                .small_button(i18n.tr("training-drill-repertoire"))
                .clicked()
            {
                push(actions, TrainAction::DrillRepertoire(rep.id.clone()));
            }
            if ui.small_button(i18n.tr("training-remove")).clicked() {
                push(actions, TrainAction::RemoveRepertoire(rep.id.clone()));
            }
        });
    }
}

/// Reviews a day as bars and the retention of each day as a line, for the last
/// [`CHART_DAYS`] days, today at the right.
fn chart(app: &View, ui: &mut Ui, now: Now) {
    let i18n = &app.i18n;
    let palette = app.palette();
    let days = app.state.training.data.daily(now, CHART_DAYS);
    let most = days.iter().map(|d| d.reviews).max().unwrap_or(0).max(1);
    ui.horizontal(|ui| {
        ui.strong(i18n.tr("training-chart-title"));
        ui.label(RichText::new(i18n.tr("training-chart-reviews")).color(palette.accent));
        ui.label(RichText::new(i18n.tr("training-chart-retention")).color(palette.success));
        ui.weak(i18n.tr_args("training-chart-most", &[("count", most.into())]));
    });
    let width = ui.available_width().clamp(200.0, 900.0);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 120.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_stroke(
        rect,
        2.0,
        egui::Stroke::new(1.0, palette.muted),
        egui::StrokeKind::Inside,
    );
    let step = rect.width() / days.len() as f32;
    let inner = rect.shrink2(egui::vec2(0.0, 6.0));
    let mut line = Vec::new();
    for (k, day) in days.iter().enumerate() {
        let x = rect.left() + step * k as f32;
        if day.reviews > 0 {
            let h = inner.height() * day.reviews as f32 / most as f32;
            painter.rect_filled(
                egui::Rect::from_min_max(
                    egui::pos2(x + step * 0.15, inner.bottom() - h),
                    egui::pos2(x + step * 0.85, inner.bottom()),
                ),
                0.0,
                palette.accent,
            );
        }
        if let Some(r) = day.retention() {
            let y = inner.bottom() - inner.height() * r as f32;
            line.push(egui::pos2(x + step * 0.5, y));
        }
    }
    if line.len() > 1 {
        painter.add(egui::Shape::line(
            line.clone(),
            egui::Stroke::new(2.0, palette.success),
        ));
    }
    for p in line {
        painter.circle_filled(p, 2.5, palette.success);
    }
    let font = egui::FontId::proportional(11.0);
    let faint = Color32::from_gray(140);
    painter.text(
        rect.left_bottom() + egui::vec2(3.0, -2.0),
        egui::Align2::LEFT_BOTTOM,
        date_text(days.first().map_or(0, |d| d.day)),
        font.clone(),
        faint,
    );
    painter.text(
        rect.right_bottom() + egui::vec2(-3.0, -2.0),
        egui::Align2::RIGHT_BOTTOM,
        i18n.tr("training-chart-today"),
        font,
        faint,
    );
}

/// The drill's board: the position, the user's clicks and drags, the hint.
pub fn board(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let theme = app.state.settings.theme.theme();
    let Some(session) = &app.state.training.session else {
        return;
    };
    let drill = &session.drill;
    let position = &drill.position;
    let user_moves =
        !drill.finished && session.pending.is_none() && position.side_to_move() == drill.user();
    // The user's side sits at the bottom.
    let marks = Marks::practice(
        &app.state.settings,
        position,
        drill.user(),
        drill.moves.last().copied(),
        session.selected,
    );
    let events = practice_board(
        app,
        ui,
        "chuhe training board input",
        position,
        marks,
        &theme,
        user_moves,
        session.hint,
        actions,
    );
    for event in events {
        match event {
            BoardEvent::Move(from, to) => {
                push(actions, TrainAction::Move(chuhe_core::Move::new(from, to)))
            }
            BoardEvent::Click(square) => push(actions, TrainAction::Click(square)),
            _ => {}
        }
    }
}

/// The drill's panel: the item, what is asked, how it went, the grade and its override.
pub fn side(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let training = &app.state.training;
    let Some(session) = &training.session else {
        return;
    };
    let drill = &session.drill;
    let (done, total) = training.round_progress;
    ui.heading(i18n.tr("training-title"));
    if total > 0 {
        ui.weak(i18n.tr_args(
            "training-round-progress",
            &[("done", done.into()), ("total", total.into())],
        ));
    }
    ui.label(RichText::new(drill.item.title.clone()).strong());
    ui.weak(kind_name(i18n, drill.item.kind));
    ui.label(task_text(i18n, &drill.item));
    ui.horizontal_wrapped(|ui| {
        let open = !drill.finished;
        if ui
            .add_enabled(open, egui::Button::new(i18n.tr("training-hint")))
            .clicked()
        {
            push(actions, TrainAction::Hint);
        }
        if ui
            .add_enabled(open, egui::Button::new(i18n.tr("training-give-up")))
            .clicked()
        {
            push(actions, TrainAction::GiveUp);
        }
        if ui.button(i18n.tr("training-next")).clicked() {
            push(actions, TrainAction::Next);
        }
        if ui.button(i18n.tr("training-stop")).clicked() {
            push(actions, TrainAction::StopRound);
        }
    });
    ui.separator();
    message(app, ui, session);
    if !drill.moves.is_empty() {
        ui.label(app.line_text(&drill.item.start, &drill.moves));
    }
    if let Some((earned, grade)) = session.graded {
        ui.separator();
        ui.label(i18n.tr_args(
            "training-graded",
            &[("grade", grade_name(i18n, earned).into())],
        ));
        ui.horizontal_wrapped(|ui| {
            ui.weak(i18n.tr("training-override"));
            for g in Grade::ALL {
                if ui
                    .selectable_label(g == grade, grade_name(i18n, g))
                    .clicked()
                    && g != grade
                {
                    push(actions, TrainAction::Regrade(g));
                }
            }
        });
        if let Some(record) = training.data.items.get(&drill.item.id) {
            ui.label(i18n.tr_args(
                "training-next-review",
                &[(
                    "when",
                    due_text(i18n, Now::local(), record.memory.due).into(),
                )],
            ));
        }
    }
}

fn message(app: &View, ui: &mut Ui, session: &DrillSession) {
    let i18n = &app.i18n;
    let palette = app.palette();
    let drill = &session.drill;
    // The position before the last move, where a reply's words are read from.
    let mut before = drill.item.start.clone();
    for m in drill.moves.iter().take(drill.moves.len().saturating_sub(1)) {
        before.play_unchecked(*m);
    }
    if let Some(hint) = session.hint {
        ui.label(i18n.tr_args(
            "training-hint-move",
            &[("move", app.move_text(&drill.position, hint).into())],
        ));
    }
    let Some(message) = session.message else {
        if !drill.finished {
            ui.label(i18n.tr("training-your-move"));
        }
        return;
    };
    let (text, colour) = match message {
        DrillMessage::Right(Some(reply)) => (
            i18n.tr_args(
                "training-right-reply",
                &[("reply", app.move_text(&before, reply).into())],
            ),
            palette.success,
        ),
        DrillMessage::Right(None) => (i18n.tr("training-right"), palette.success),
        DrillMessage::Wrong(mv) => (
            i18n.tr_args(
                "training-wrong",
                &[("move", app.move_text(&drill.position, mv).into())],
            ),
            palette.danger,
        ),
        DrillMessage::OtherLine(mv) => (
            i18n.tr_args(
                "training-other-line",
                &[("move", app.move_text(&drill.position, mv).into())],
            ),
            ui.visuals().warn_fg_color,
        ),
        DrillMessage::WaitingForTable => (i18n.tr("training-waiting-table"), palette.muted),
        DrillMessage::Done => (i18n.tr("training-done"), palette.success),
        DrillMessage::Failed => (i18n.tr("training-failed"), palette.danger),
    };
    ui.label(RichText::new(text).color(colour).strong());
}

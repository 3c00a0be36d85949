//! The quiz in the class window: asking the board's position, the answers arriving as a
//! chart (a click on a move marks it right or not), Reveal and the next question, the
//! scores, and saving the record.

use crate::actions::{Action, ClassAction};
use crate::state::class::quiz::Ask;
use crate::widgets::View;
use crate::widgets::quiz::{bars, chart, question_text};
use egui::{RichText, Ui};

/// The quiz's part of the window, while a class is on.
pub fn section(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let quiz = &app.state.class.quiz;
    let running = app.state.class.running.as_ref();
    let mut push = |a: ClassAction| actions.push(Action::Class(a));
    ui.separator();
    ui.heading(i18n.tr("class-quiz"));
    ui.horizontal_wrapped(|ui| {
        if ui.button(i18n.tr("class-quiz-ask-best")).clicked() {
            push(ClassAction::Ask(Ask::BestMove));
        }
        if ui.button(i18n.tr("class-quiz-ask-mate")).clicked() {
            push(ClassAction::Ask(Ask::Mate));
        }
    });
    if let Some(round) = &quiz.round {
        let title = round.items.get(round.at).map_or("", |i| i.title.as_str());
        ui.label(i18n.tr_args(
            "class-quiz-round",
            &[
                ("name", round.name.clone().into()),
                ("at", (round.at + 1).into()),
                ("count", round.items.len().into()),
                ("title", title.to_owned().into()),
            ],
        ));
    }
    if let (Some(open), Some(question)) = (&quiz.open, quiz.question()) {
        ui.label(RichText::new(question_text(i18n, question.kind)).strong());
        // Out of those following, when any are (answers may come from a script too).
        let students = running.map_or(0, |r| r.students);
        let count = question.answers.len();
        ui.label(if students > 0 {
            i18n.tr_args(
                "class-quiz-answered",
                &[("count", count.into()), ("students", students.into())],
            )
        } else {
            i18n.tr_args("class-quiz-answered-short", &[("count", count.into())])
        });
        if open.judging {
            ui.label(i18n.tr("class-quiz-judging"));
        } else if question.correct.is_empty() {
            ui.label(i18n.tr("class-quiz-no-answer-found"));
        }
        let notation = app.state.settings.notation.notation();
        let shown = bars(question, notation);
        // A question's moves may be many: the chart scrolls, the buttons stay in reach.
        let clicked = egui::ScrollArea::vertical()
            .id_salt("class quiz chart")
            .max_height(200.0)
            .show(ui, |ui| chart(ui, i18n, &shown, 14.0, None, true))
            .inner;
        if let Some(i) = clicked {
            push(ClassAction::ToggleCorrect(shown[i].mv));
        }
        ui.small(i18n.tr("class-quiz-toggle-hint"));
        // Any legal move may be set right, answered or not.
        let position = &question.position;
        let label = i18n.tr("class-quiz-set-answer");
        egui::ComboBox::from_id_salt("class quiz set answer")
            .selected_text(label.as_str())
            .height(300.0)
            .show_ui(ui, |ui| {
                for &mv in position.legal_moves().iter() {
                    let right = question.is_correct(mv);
                    if ui
                        .selectable_label(right, app.move_text(position, mv))
                        .clicked()
                    {
                        push(ClassAction::ToggleCorrect(mv));
                    }
                }
            })
            .response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, true, label.as_str()));
        ui.horizontal(|ui| {
            if ui
                .add_enabled(
                    !open.revealed,
                    egui::Button::new(i18n.tr("class-quiz-reveal")),
                )
                .clicked()
            {
                push(ClassAction::Reveal);
            }
            if ui.button(i18n.tr("class-quiz-next")).clicked() {
                push(ClassAction::Next);
            }
            if ui.button(i18n.tr("class-quiz-end")).clicked() {
                push(ClassAction::EndQuestion);
            }
        });
    }
    scores(app, ui, actions);
}

/// The score table over the class's questions, and saving the record.
pub fn scores(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let record = &app.state.class.quiz.record;
    if record.questions.is_empty() {
        return;
    }
    let standings = record.standings();
    if !standings.is_empty() {
        ui.label(RichText::new(i18n.tr("class-quiz-scores")).strong());
        egui::ScrollArea::vertical()
            .id_salt("class quiz scores")
            .max_height(160.0)
            .show(ui, |ui| {
                egui::Grid::new("class quiz scores grid")
                    .striped(true)
                    .show(ui, |ui| {
                        for id in [
                            "class-quiz-rank",
                            "class-quiz-name",
                            "class-quiz-points",
                            "class-quiz-answers",
                        ] {
                            ui.label(RichText::new(i18n.tr(id)).strong());
                        }
                        ui.end_row();
                        for (i, line) in standings.iter().enumerate() {
                            ui.label((i + 1).to_string());
                            // Plain text: egui draws a name as it is, markup and all.
                            ui.label(line.name.as_str());
                            ui.label(line.points.to_string());
                            ui.label(line.answered.to_string());
                            ui.end_row();
                        }
                    });
            });
    }
    if ui.button(i18n.tr("class-quiz-save")).clicked() {
        actions.push(Action::Class(ClassAction::SaveRecordDialog));
    }
}

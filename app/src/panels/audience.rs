//! The audience window, for a class with two screens: a second native window (an egui
//! viewport) that shows only the board — high contrast, large coordinates, the move's
//! comment large under it — to be put full screen on the projector, while the teacher's
//! window keeps the move list, comments and engine lines and previews the next move. Both
//! draw the same record, so whatever the teacher does the class sees.

use crate::actions::Action;
use crate::actions::*;
use crate::theme::ThemeChoice;
use crate::widgets::View;
use crate::widgets::board::{Board, Diagram};
use egui::{Key, RichText, ViewportBuilder, ViewportClass, ViewportCommand, ViewportId};

/// Text size of the comment under the audience's board, in points.
const COMMENT_SIZE: f32 = 30.0;

/// Text size of the caption over the audience's board (the move just played, whose turn).
const CAPTION_SIZE: f32 = 36.0;

/// The viewport's id: one audience window at most.
pub fn viewport_id() -> ViewportId {
    ViewportId::from_hash_of("chuhe audience window")
}

/// Shows the audience window while it is open.
pub fn show(app: &View, ctx: &egui::Context, actions: &mut Vec<Action>) {
    if !app.state.audience {
        return;
    }
    let title = app.i18n.tr("audience-title");
    let builder = ViewportBuilder::default()
        .with_title(title)
        .with_inner_size([900.0, 960.0]);
    let state = &app.state;
    let mut theme = ThemeChoice::HighContrast.theme();
    // Coordinates a class can read from the back of the room.
    theme.proportions.file_number_text = theme.proportions.file_number_text.max(0.44);
    let mut marks = crate::widgets::board::study_marks(state, &theme);
    // The class sees the moves and the teacher's marks, never the engine or a selection.
    marks.arrows.retain(|a| a.color != theme.engine_arrow);
    marks.selected = None;
    marks.destinations.clear();
    // The projector shows the last move boldly and says it in words, as presentation does.
    marks.bold_last_move = true;
    let mut caption = crate::widgets::text::presentation_caption(app);
    // While the class answers, the projector asks the question; Reveal adds the answer
    // and the chart under the board.
    let quiz = &state.class.quiz;
    let asked = quiz.open.as_ref().zip(quiz.question());
    if let Some((_, question)) = asked {
        caption = format!(
            "{} · {}",
            crate::widgets::quiz::question_text(app.i18n, question.kind),
            app.i18n.tr_args(
                "class-quiz-answered-short",
                &[("count", question.answers.len().into())]
            )
        );
    }
    let revealed = asked
        .filter(|(open, _)| open.revealed)
        .map(|(_, question)| {
            let notation = state.settings.notation.notation();
            let answer: Vec<String> = question
                .correct
                .iter()
                .map(|&m| app.move_text(&question.position, m))
                .collect();
            (
                app.i18n
                    .tr_args("class-quiz-answer", &[("moves", answer.join(" ").into())]),
                crate::widgets::quiz::bars(question, notation),
            )
        });
    let diagram = match asked {
        // A round's question may be another position than the board's.
        Some((_, question)) if &question.position != state.position() => {
            marks.last_move = None;
            // Once revealed, the answer is drawn on it (on the board's own position the
            // board's marks have it already).
            marks.arrows = crate::widgets::board::quiz_arrows(state);
            marks.circles.clear();
            marks.check = None;
            Diagram::from_position(&question.position)
        }
        _ => Diagram::from_position(state.position()),
    };
    let comment = state
        .study
        .record
        .annotation(state.study.cursor)
        .comment
        .trim()
        .to_owned();
    let cursor = state.study.cursor;
    let comment_colour = theme.background_text;
    ctx.show_viewport_immediate(viewport_id(), builder, |ui, class| {
        let ctx = ui.ctx().clone();
        let own_window = !matches!(class, ViewportClass::EmbeddedWindow);
        if own_window {
            if ctx.input(|i| i.viewport().close_requested()) {
                actions.push(Action::Presentation(PresentationAction::ToggleAudience));
            }
            let full = ctx.input(|i| i.viewport().fullscreen.unwrap_or(false));
            let double_click = ctx.input(|i| {
                i.pointer
                    .button_double_clicked(egui::PointerButton::Primary)
            });
            if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::F11)) || double_click {
                ctx.send_viewport_cmd(ViewportCommand::Fullscreen(!full));
            }
            // The projector's window answers the clicker too, when it has the focus: its
            // keys step through the game, nothing else.
            if !ctx.egui_wants_keyboard_input() {
                actions.extend(
                    crate::widgets::shortcuts::actions(&ctx, cursor, true)
                        .into_iter()
                        .filter(Action::steps),
                );
            }
        }
        let frame = egui::Frame::central_panel(ui.style()).fill(theme.background);
        egui::CentralPanel::default().frame(frame).show(ui, |ui| {
            egui::Panel::top("audience caption")
                .resizable(false)
                .frame(egui::Frame::NONE.fill(theme.background))
                .show(ui, |ui| {
                    ui.add_space(6.0);
                    ui.label(
                        RichText::new(caption.as_str())
                            .size(CAPTION_SIZE)
                            .strong()
                            .color(comment_colour),
                    );
                    ui.add_space(6.0);
                });
            if let Some((answer, bars)) = &revealed {
                egui::Panel::bottom("audience quiz")
                    .resizable(false)
                    .frame(egui::Frame::NONE.fill(theme.background))
                    .show(ui, |ui| {
                        ui.add_space(6.0);
                        ui.label(
                            RichText::new(answer.as_str())
                                .size(COMMENT_SIZE)
                                .strong()
                                .color(comment_colour),
                        );
                        crate::widgets::quiz::chart(
                            ui,
                            app.i18n,
                            bars,
                            COMMENT_SIZE * 0.8,
                            Some(comment_colour),
                            false,
                        );
                        ui.add_space(6.0);
                    });
            } else if !comment.is_empty() {
                egui::Panel::bottom("audience comment")
                    .resizable(false)
                    .frame(egui::Frame::NONE.fill(theme.background))
                    .show(ui, |ui| {
                        ui.add_space(6.0);
                        ui.label(
                            RichText::new(comment.as_str())
                                .size(COMMENT_SIZE)
                                .color(comment_colour),
                        );
                        ui.add_space(6.0);
                    });
            }
            Board::new(&diagram, &marks, &theme).show(ui);
        });
    });
}

/// The teacher's line above the board: the audience window is open, and the next move.
pub fn teacher_bar(app: &View, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let record = &app.state.study.record;
    ui.horizontal(|ui| {
        ui.label(RichText::new(i18n.tr("audience-open")).strong());
        ui.separator();
        let next = record.main_child(app.state.study.cursor).and_then(|node| {
            app.state.study.derived.tokens.iter().find_map(|t| match t {
                crate::state::study::MoveToken::Move(item) if item.node == node => {
                    Some(format!("{} {}", item.number, item.text))
                }
                _ => None,
            })
        });
        match next {
            Some(text) => {
                ui.label(i18n.tr_args("audience-next", &[("move", text.into())]));
            }
            None => {
                ui.label(i18n.tr("audience-no-next"));
            }
        }
        if ui.button(i18n.tr("audience-close")).clicked() {
            actions.push(Action::Presentation(PresentationAction::ToggleAudience));
        }
    });
}

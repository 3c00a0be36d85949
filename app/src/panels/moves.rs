//! The move list: the moves in the chosen notation with variations inline, glyphs and
//! comments; the game's end in words; editing of the current move (comment, glyphs,
//! variation order, deletion) and undo/redo.

use crate::actions::Action;
use crate::actions::*;
use crate::i18n::I18n;
use crate::state::State;
use crate::state::study::MoveToken;
use crate::widgets::View;
use crate::widgets::draft;
use crate::widgets::text::reason_id;
use chuhe_core::record::Nag;
use chuhe_core::record::NodeId;
use chuhe_core::{Color, Outcome};
use egui::{RichText, Ui};

/// The glyphs offered as buttons.
const GLYPHS: [Nag; 6] = [
    Nag::GOOD,
    Nag::MISTAKE,
    Nag::BRILLIANT,
    Nag::BLUNDER,
    Nag::INTERESTING,
    Nag::DUBIOUS,
];

/// Draws the move list and the editing tools.
pub fn show(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let state = &app.state;
    if let Some(outcome) = state.study.derived.outcome {
        ui.label(
            RichText::new(outcome_text(i18n, outcome))
                .strong()
                .color(ui.visuals().warn_fg_color),
        );
    }
    edit_tools(app, ui, actions);
    ui.separator();
    let state = &app.state;
    egui::ScrollArea::vertical()
        .id_salt("moves")
        .auto_shrink([false, false])
        .max_height(ui.available_height())
        .show(ui, |ui| move_list(ui, state, actions));
}

/// The record's moves, wrapped like text, variations in brackets.
fn move_list(ui: &mut Ui, state: &State, actions: &mut Vec<Action>) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        let mut need_number = true;
        for token in &state.study.derived.tokens {
            match token {
                MoveToken::Open(_) => {
                    ui.weak("(");
                    need_number = true;
                }
                MoveToken::Close(_) => {
                    ui.weak(")");
                    need_number = true;
                }
                MoveToken::Comment(_, text) => {
                    ui.label(
                        RichText::new(text)
                            .italics()
                            .color(ui.visuals().weak_text_color()),
                    );
                    need_number = true;
                }
                MoveToken::Move(item) => {
                    if item.number.color == Color::Red || need_number {
                        ui.weak(item.number.to_string());
                    }
                    need_number = false;
                    let mut text = RichText::new(format!("{}{}", item.text, item.glyphs));
                    if item.main_line {
                        text = text.strong();
                    }
                    let current = item.node == state.study.cursor;
                    let response = ui.selectable_label(current, text);
                    if current && response.changed() {
                        response.scroll_to_me(None);
                    }
                    if response.clicked() {
                        actions.push(Action::Study(StudyAction::GoTo(item.node)));
                    }
                }
            }
        }
    });
}

/// Comment, glyphs and variation commands for the current move, and undo/redo.
fn edit_tools(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let state = &app.state;
    let cursor = state.study.cursor;
    let record = &state.study.record;
    let on_move = cursor != record.root();
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(record.can_undo(), egui::Button::new(i18n.tr("edit-undo")))
            .clicked()
        {
            actions.push(Action::Study(StudyAction::Undo));
        }
        if ui
            .add_enabled(record.can_redo(), egui::Button::new(i18n.tr("edit-redo")))
            .clicked()
        {
            actions.push(Action::Study(StudyAction::Redo));
        }
        let is_variation = record.variation_index(cursor) > 0;
        if ui
            .add_enabled(is_variation, egui::Button::new(i18n.tr("edit-promote")))
            .clicked()
        {
            actions.push(Action::Study(StudyAction::PromoteVariation(cursor)));
        }
        if ui
            .add_enabled(
                on_move && !record.is_main_line(cursor),
                egui::Button::new(i18n.tr("edit-main-line")),
            )
            .clicked()
        {
            actions.push(Action::Study(StudyAction::MakeMainLine(cursor)));
        }
        if ui
            .add_enabled(on_move, egui::Button::new(i18n.tr("edit-delete-from")))
            .clicked()
        {
            actions.push(Action::Study(StudyAction::DeleteFrom(cursor)));
        }
    });
    if on_move {
        ui.horizontal(|ui| {
            let nags = &record.annotation(cursor).nags;
            for nag in GLYPHS {
                let glyph = nag.glyph().unwrap_or_default();
                if ui.selectable_label(nags.contains(&nag), glyph).clicked() {
                    actions.push(Action::Study(StudyAction::ToggleNag(cursor, nag)));
                }
            }
        });
    }
    // The comment is edited in a draft and written into the record when the field loses
    // focus or the typing pauses.
    let saved = record.annotation(cursor).comment.clone();
    // The draft is the text field's own memory, kept by egui between frames.
    let draft_id = egui::Id::unique("chuhe comment draft");
    let mut kept: Option<(NodeId, String)> = ui.data(|d| d.get_temp(draft_id)).flatten();
    let draft = match &mut kept {
        Some((node, text)) if *node == cursor => text,
        other => &mut other.insert((cursor, saved.clone())).1,
    };
    let label = ui.label(app.i18n.tr("comment-label"));
    let response = ui
        .add(
            egui::TextEdit::multiline(draft)
                .hint_text(app.i18n.tr("comment-hint"))
                .desired_rows(2)
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id);
    if draft::due(ui, draft_id, &response, *draft != saved) {
        actions.push(Action::Study(StudyAction::SetComment(
            cursor,
            draft.clone(),
        )));
    }
    if !response.has_focus() && *draft != saved && !response.lost_focus() {
        // The record changed under the draft (undo, another move): show the record's.
        *draft = saved;
    }
    ui.data_mut(|d| d.insert_temp(draft_id, kept));
}

/// The end of the game in words: who won and why.
pub fn outcome_text(i18n: &I18n, outcome: Outcome) -> String {
    let reason = i18n.tr(reason_id(outcome.reason));
    let result = match outcome.winner {
        Some(Color::Red) => i18n.tr("result-red-wins"),
        Some(Color::Black) => i18n.tr("result-black-wins"),
        None => i18n.tr("result-draw"),
    };
    i18n.tr_args(
        "game-over",
        &[("reason", reason.into()), ("winner", result.into())],
    )
}

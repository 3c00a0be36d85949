//! The move list: numbered rows of Red's and Black's moves in the chosen notation, glyphs,
//! comments and collapsible variations under their move, the move on the board kept in
//! view; the game's end in words; editing of the current move (comment, glyphs, variation
//! order, deletion) and undo/redo.

use crate::actions::Action;
use crate::actions::*;
use crate::i18n::I18n;
use crate::state::study::move_list::{MoveCell, MoveRow, VariationMove, VariationStart};
use crate::widgets::View;
use crate::widgets::draft;
use crate::words::text::reason_id;
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
    egui::ScrollArea::vertical()
        .id_salt("moves")
        .auto_shrink([false, false])
        .max_height(ui.available_height())
        .show(ui, |ui| move_list(app, ui, actions));
}

/// How far each level of variation is indented.
const INDENT: f32 = 16.0;

/// The width of the move-number column.
const NUMBER_WIDTH: f32 = 34.0;

/// The move list in rows: the main line as a table of numbered rows, Red's and Black's
/// moves side by side; comments and variations under their move, variations indented,
/// smaller and greyer, each with its ▸/▾ toggle. The move on the board is scrolled into
/// view whenever it changes, however it changed.
fn move_list(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let study = &app.state.study;
    // The move last scrolled to is kept in egui's memory: the panel may not change the
    // state, and only egui knows which frame drew it.
    let memory = egui::Id::unique("chuhe move list cursor");
    let now = (study.generation, study.cursor);
    let moved = ui.data(|d| d.get_temp::<(u64, NodeId)>(memory)) != Some(now);
    ui.data_mut(|d| d.insert_temp(memory, now));
    if moved && study.cursor == study.record.root() {
        ui.scroll_to_cursor(Some(egui::Align::TOP));
    }
    let mut list = MoveList {
        app,
        actions,
        scroll: moved,
    };
    for row in &study.derived.rows {
        match row {
            MoveRow::Moves { number, red, black } => list.moves_row(ui, *number, red, black),
            MoveRow::Comment { depth, text, .. } => comment_row(app, ui, *depth, text),
            MoveRow::Variation {
                depth,
                start,
                moves,
            } => list.variation_row(ui, *depth, start.as_ref(), moves),
        }
    }
}

/// What drawing the rows shares.
struct MoveList<'a, 'v> {
    app: &'a View<'v>,
    actions: &'a mut Vec<Action>,
    /// Whether the move on the board changed since the last frame.
    scroll: bool,
}

impl MoveList<'_, '_> {
    /// `12.  炮二平五  马８进７`, each move in a column of its own.
    fn moves_row(
        &mut self,
        ui: &mut Ui,
        number: u32,
        red: &Option<MoveCell>,
        black: &Option<MoveCell>,
    ) {
        // A row out of sight only takes its room: a long game's list then costs the frame
        // what the rows in view cost. The row holding the move on board is drawn when it
        // must be scrolled to.
        let height = ui.spacing().interact_size.y;
        let room = egui::vec2(ui.available_width(), height);
        let sought = self.scroll
            && [red, black]
                .iter()
                .any(|c| c.as_ref().is_some_and(|c| c.current));
        if !sought && !ui.is_rect_visible(egui::Rect::from_min_size(ui.cursor().min, room)) {
            ui.allocate_space(room);
            return;
        }
        ui.horizontal(|ui| {
            let spacing = ui.spacing().item_spacing.x;
            let column = ((ui.available_width() - NUMBER_WIDTH - 2.0 * spacing) / 2.0).max(48.0);
            ui.add_sized(
                [NUMBER_WIDTH, height],
                egui::Label::new(RichText::new(format!("{number}.")).weak()),
            );
            for cell in [red, black] {
                match cell {
                    Some(cell) => {
                        let text = RichText::new(cell_text(cell));
                        let response = ui.add_sized(
                            [column, height],
                            egui::Button::selectable(cell.current, text),
                        );
                        self.respond(cell, &response);
                    }
                    // Red's place before a row that starts with Black.
                    None if black.is_some() => {
                        ui.add_sized(
                            [column, height],
                            egui::Label::new(RichText::new("…").weak()),
                        );
                    }
                    None => {}
                }
            }
        });
    }

    /// A variation's moves as wrapped text, indented by depth; where it starts, its
    /// toggle and, if the engine put it in, the engine's mark.
    fn variation_row(
        &mut self,
        ui: &mut Ui,
        depth: usize,
        start: Option<&VariationStart>,
        moves: &[VariationMove],
    ) {
        let i18n = self.app.i18n;
        let size = ui.style().text_styles[&egui::TextStyle::Body].size * 0.9;
        let grey = ui.visuals().weak_text_color();
        ui.horizontal(|ui| {
            ui.add_space(INDENT * depth as f32);
            match start {
                Some(start) => {
                    if variation_toggle(i18n, ui, start.collapsed).clicked() {
                        self.actions
                            .push(Action::Study(StudyAction::ToggleVariation(start.first)));
                    }
                    if start.engine {
                        let ink = self
                            .app
                            .state
                            .settings
                            .theme
                            .theme()
                            .engine_arrow
                            .to_opaque();
                        ui.label(
                            RichText::new(i18n.tr("moves-engine-line"))
                                .size(size * 0.85)
                                .color(ink),
                        )
                        .on_hover_text(i18n.tr("moves-engine-line-tip"));
                    }
                }
                // Lines that carry a variation on line up with its moves, past the toggle.
                None => {
                    ui.add_space(ui.spacing().icon_width + ui.spacing().item_spacing.x);
                }
            }
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing.x = 3.0;
                for m in moves {
                    if let Some(number) = m.number {
                        ui.label(RichText::new(number.to_string()).size(size).color(grey));
                    }
                    let text = RichText::new(cell_text(&m.cell)).size(size).color(grey);
                    let response = ui.add(egui::Button::selectable(m.cell.current, text));
                    self.respond(&m.cell, &response);
                }
                if start.is_some_and(|s| s.collapsed) {
                    ui.label(RichText::new("…").size(size).color(grey));
                }
            });
        });
    }

    /// A click on a move goes to it; the move on the board comes into view when it changed.
    fn respond(&mut self, cell: &MoveCell, response: &egui::Response) {
        if cell.current && self.scroll {
            response.scroll_to_me(None);
        }
        if response.clicked() {
            self.actions
                .push(Action::Study(StudyAction::GoTo(cell.node)));
        }
    }
}

/// The ▸/▾ triangle before a variation, painted (the app's font has no such glyph) and
/// named for screen readers by what a click does.
fn variation_toggle(i18n: &I18n, ui: &mut Ui, collapsed: bool) -> egui::Response {
    let what = i18n.tr(if collapsed {
        "moves-expand-variation"
    } else {
        "moves-collapse-variation"
    });
    let side = ui.spacing().icon_width;
    let (_, response) = ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, ui.is_enabled(), &what));
    let openness = if collapsed { 0.0 } else { 1.0 };
    egui::collapsing_header::paint_default_icon(ui, openness, &response);
    response.on_hover_text(what)
}

/// A move with its glyphs: `炮二平五!`.
fn cell_text(cell: &MoveCell) -> String {
    format!("{}{}", cell.text, cell.glyphs)
}

/// A comment on a row of its own, under its move: italic, beside a bar in the accent colour.
fn comment_row(app: &View, ui: &mut Ui, depth: usize, text: &str) {
    let bar = app.palette().accent;
    ui.horizontal(|ui| {
        ui.add_space(INDENT * depth as f32 + NUMBER_WIDTH / 2.0);
        let response = egui::Frame::NONE
            .inner_margin(egui::Margin {
                left: 8,
                ..Default::default()
            })
            .show(ui, |ui| {
                ui.add(
                    egui::Label::new(
                        RichText::new(text)
                            .italics()
                            .color(ui.visuals().strong_text_color()),
                    )
                    .wrap(),
                );
            })
            .response;
        let rect = response.rect;
        ui.painter().vline(
            rect.left() + 2.0,
            rect.y_range(),
            egui::Stroke::new(2.0, bar),
        );
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

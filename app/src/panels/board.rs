//! The board panel: the board with the marks of the current move, the evaluation bar beside
//! it and the evaluation graph under it; clicks and drags become actions.

use crate::actions::Action;
use crate::actions::*;
use crate::state::State;
use crate::theme::Theme;
use crate::widgets::View;
use crate::widgets::board::Diagram;
use crate::widgets::board_input::{BoardEvent, BoardInput, Pick};
use crate::widgets::board_menu::{self, Find};
use chuhe_core::Move;
use chuhe_core::record::{Arrow, Circle, NodeId};
use chuhe_core::review::clamped_cp;
use egui::{Rect, RichText, Sense, Stroke, Ui, Vec2, pos2};

/// The study board's key in egui's memory, for what the pointer holds over it.
const STUDY_BOARD: &str = "chuhe study board input";

/// Width of the evaluation bar.
const EVAL_BAR_WIDTH: f32 = 14.0;
/// Text size of a move's comment under the board in presentation mode, in points.
const PRESENTATION_COMMENT_SIZE: f32 = 30.0;

/// Text size of the caption above the board in presentation mode, in points.
const PRESENTATION_CAPTION_SIZE: f32 = 36.0;

/// Width of the revealed moves' list in presentation mode, in points.
const PRESENTATION_MOVES_WIDTH: f32 = 300.0;

/// Height of the evaluation graph.
const GRAPH_HEIGHT: f32 = 90.0;

/// Draws the board area into `ui`.
pub fn show(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let mut theme = app.state.settings.theme.theme();
    if app.state.presentation.is_some() {
        // Coordinates a class can read from the back of the room.
        theme.proportions.file_number_text = theme.proportions.file_number_text.max(0.44);
    }
    let board_only = app.state.settings.layout.board_only;
    let evals = if board_only || app.state.analysis.engine_hidden {
        Vec::new()
    } else {
        main_line_evals(app.state)
    };
    if evals.len() > 1 {
        egui::Panel::bottom("eval-graph")
            .exact_size(GRAPH_HEIGHT)
            .show(ui, |ui| graph(ui, app, &evals, &theme, actions));
    }
    if app
        .state
        .presentation
        .as_ref()
        .is_some_and(|p| p.show_moves)
    {
        egui::Panel::right("presentation moves")
            .resizable(false)
            .exact_size(PRESENTATION_MOVES_WIDTH)
            .show(ui, |ui| presentation_moves(app, ui));
    }
    if app.state.presentation.is_some() {
        // What was just played and who moves next, large enough for the back of a room.
        let caption = crate::widgets::text::presentation_caption(app);
        egui::Panel::top("presentation caption")
            .resizable(false)
            .show(ui, |ui| {
                ui.add_space(4.0);
                ui.label(
                    RichText::new(caption)
                        .size(PRESENTATION_CAPTION_SIZE)
                        .strong()
                        .color(ui.visuals().strong_text_color()),
                );
                ui.add_space(4.0);
            });
        // The move's comment, large under the board, as the teacher steps through.
        let comment = app
            .state
            .study
            .record
            .annotation(app.state.study.cursor)
            .comment
            .trim();
        if !comment.is_empty() {
            let text = comment.to_owned();
            egui::Panel::bottom("presentation comment")
                .resizable(false)
                .show(ui, |ui| {
                    ui.add_space(6.0);
                    let colour = ui.visuals().strong_text_color();
                    ui.label(
                        RichText::new(text)
                            .size(PRESENTATION_COMMENT_SIZE)
                            .color(colour),
                    );
                    ui.add_space(6.0);
                });
        }
    }
    let bar = (!board_only)
        .then(|| app.state.visible_engine())
        .flatten()
        .and_then(|e| {
            let report = &e.update.report;
            report
                .lines
                .first()
                .map(|l| l.score_for_red(report.side_to_move))
        });
    if !board_only {
        // The bar's strip is kept whether or not there is a score to show, so the board
        // stays where it is when analysis starts, stops or is hidden.
        egui::Panel::left("eval-bar")
            .exact_size(EVAL_BAR_WIDTH + 6.0)
            .resizable(false)
            .show_separator_line(false)
            .frame(egui::Frame::NONE)
            .show(ui, |ui| {
                if let Some(score) = bar {
                    eval_bar(ui, score, &theme);
                }
            });
    }
    board(app, ui, &theme, actions);
}

/// The moves revealed so far, large, for presentation mode: the path to the move on the
/// board and nothing after it, so the class sees each move only when the teacher steps.
fn presentation_moves(app: &View, ui: &mut Ui) {
    let state = &app.state;
    let colour = ui.visuals().strong_text_color();
    ui.add_space(8.0);
    ui.label(
        RichText::new(app.i18n.tr("presentation-moves-title"))
            .size(PRESENTATION_COMMENT_SIZE * 0.8)
            .color(colour),
    );
    ui.label(
        RichText::new(app.i18n.tr("presentation-moves-hint"))
            .size(16.0)
            .color(ui.visuals().text_color()),
    );
    ui.separator();
    let path = state.study.record.path(state.study.cursor);
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .show(ui, |ui| {
            for node in path {
                let item = state.study.derived.tokens.iter().find_map(|t| match t {
                    crate::state::study::MoveToken::Move(item) if item.node == node => Some(item),
                    _ => None,
                });
                if let Some(item) = item {
                    ui.label(
                        RichText::new(format!("{} {}{}", item.number, item.text, item.glyphs))
                            .size(PRESENTATION_COMMENT_SIZE)
                            .color(colour),
                    );
                }
            }
        });
}

fn board(app: &View, ui: &mut Ui, theme: &Theme, actions: &mut Vec<Action>) {
    let state = &app.state;
    let position = state.position();
    let diagram = Diagram::from_position(position);
    let mut marks = crate::widgets::board::study_marks(state, theme);
    // With the audience window open, the teacher sees where the game goes next.
    marks
        .arrows
        .extend(crate::widgets::board::preview_arrow(app));
    if state.knowledge.board_lines {
        marks.board_lines = Some(crate::widgets::board::line_labels(app.i18n));
    }
    let shown = BoardInput::new(
        ui,
        egui::Id::unique(STUDY_BOARD),
        Pick::SideToMove(position),
    )
    .with_marks(theme)
    .with_destinations(state.settings.show_destinations)
    .show(ui, &diagram, marks, theme);
    for event in shown.events {
        let action = match event {
            // The drag picks the piece up (selects it, showing where it may go) unless it
            // already is; the release decides.
            BoardEvent::Lift(from) if state.study.selected != Some(from) => {
                StudyAction::ClickPoint(from)
            }
            BoardEvent::Click(square) => StudyAction::ClickPoint(square),
            BoardEvent::Move(from, to) => StudyAction::PlayMove(Move::new(from, to)),
            BoardEvent::Arrow(from, to, color) => {
                StudyAction::ToggleArrow(Arrow { from, to, color })
            }
            BoardEvent::Circle(at, color) => StudyAction::ToggleCircle(Circle { at, color }),
            _ => continue,
        };
        actions.push(Action::Study(action));
    }
    // A right click on a point draws a circle and a right drag an arrow, so the menu
    // opens from a right click off the points.
    board_menu::show(&shown.response, shown.menu, |ui| {
        board_menu::find_position(ui, app.i18n, Find::MainBoard, actions);
        if ui.button(app.i18n.tr("file-copy-fen")).clicked() {
            actions.push(Action::Study(StudyAction::CopyFen));
        }
        if ui.button(app.i18n.tr("view-flip")).clicked() {
            actions.push(Action::View(ViewAction::Flip));
        }
    });
}

/// The share of the bar that is Red's for `score` (Red's view): half at 0, most of it
/// at a rook up, all of it at a mate.
pub fn red_share(score: chuhe_core::search::Score) -> f32 {
    let cp = clamped_cp(score) as f32;
    1.0 / (1.0 + (-cp / 400.0).exp())
}

fn eval_bar(ui: &mut Ui, score: chuhe_core::search::Score, theme: &Theme) {
    let (rect, _) = ui.allocate_exact_size(
        Vec2::new(EVAL_BAR_WIDTH, ui.available_height()),
        Sense::hover(),
    );
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, theme.eval_black);
    let red_height = rect.height() * red_share(score);
    let red = Rect::from_min_max(pos2(rect.min.x, rect.max.y - red_height), rect.max);
    painter.rect_filled(red, 2.0, theme.eval_red);
    painter.line_segment(
        [
            pos2(rect.min.x, rect.center().y),
            pos2(rect.max.x, rect.center().y),
        ],
        Stroke::new(1.0, theme.palette.muted),
    );
}

/// The main line's evaluations (Red's share of the bar) as recorded in the record, by
/// node; empty when no move has one.
fn main_line_evals(state: &State) -> Vec<(NodeId, Option<f32>)> {
    let record = &state.study.record;
    let evals: Vec<(NodeId, Option<f32>)> = record
        .main_line()
        .into_iter()
        .map(|node| {
            let share = record.annotation(node).eval.map(|e| red_share(e.score));
            (node, share)
        })
        .collect();
    if evals.iter().any(|(_, share)| share.is_some()) {
        evals
    } else {
        Vec::new()
    }
}

/// The evaluation graph: one point per move of the main line, Red's share upwards;
/// hovering shows the move, clicking goes there.
fn graph(
    ui: &mut Ui,
    app: &View,
    evals: &[(NodeId, Option<f32>)],
    theme: &Theme,
    actions: &mut Vec<Action>,
) {
    let state = app.state;
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, theme.eval_black);
    let step = rect.width() / (evals.len().max(2) - 1) as f32;
    let point = |i: usize, share: f32| {
        pos2(
            rect.min.x + i as f32 * step,
            rect.max.y - share * rect.height(),
        )
    };
    let mut area = vec![pos2(rect.min.x, rect.max.y)];
    let mut last = 0.5;
    for (i, (_, share)) in evals.iter().enumerate() {
        last = share.unwrap_or(last);
        area.push(point(i, last));
    }
    area.push(pos2(
        rect.min.x + (evals.len() - 1) as f32 * step,
        rect.max.y,
    ));
    for pair in area.windows(2).skip(1).take(evals.len() - 1) {
        let quad = vec![
            pos2(pair[0].x, rect.max.y),
            pair[0],
            pair[1],
            pos2(pair[1].x, rect.max.y),
        ];
        painter.add(egui::Shape::convex_polygon(
            quad,
            theme.eval_red,
            Stroke::NONE,
        ));
    }
    painter.line_segment(
        [
            pos2(rect.min.x, rect.center().y),
            pos2(rect.max.x, rect.center().y),
        ],
        Stroke::new(1.0, theme.palette.muted),
    );
    let index_at =
        |x: f32| (((x - rect.min.x) / step).round().max(0.0) as usize).min(evals.len() - 1);
    if let Some(i) = evals
        .iter()
        .position(|(node, _)| *node == state.study.cursor)
    {
        let x = rect.min.x + i as f32 * step;
        painter.line_segment(
            [pos2(x, rect.min.y), pos2(x, rect.max.y)],
            Stroke::new(2.0, theme.engine_arrow),
        );
    }
    if let Some(hover) = response.hover_pos() {
        let i = index_at(hover.x);
        let x = rect.min.x + i as f32 * step;
        painter.line_segment(
            [pos2(x, rect.min.y), pos2(x, rect.max.y)],
            Stroke::new(1.0, theme.palette.graph_hover),
        );
        if response.clicked() {
            actions.push(Action::Study(StudyAction::GoTo(evals[i].0)));
        }
        let node = evals[i].0;
        let item = state.study.derived.tokens.iter().find_map(|t| match t {
            crate::state::study::MoveToken::Move(item) if item.node == node => Some(item),
            _ => None,
        });
        let score =
            state.study.record.annotation(node).eval.map(|e| {
                crate::words::text::score_text(app.i18n, e.score, state.settings.score_unit)
            });
        if let (Some(item), Some(score)) = (item, score) {
            response.on_hover_text_at_pointer(format!(
                "{} {}{}  {score}",
                item.number, item.text, item.glyphs
            ));
        }
    }
}

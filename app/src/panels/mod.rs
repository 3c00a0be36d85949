//! The window's panels, one module each. Each draws from the app's state and pushes the
//! [`Action`]s the user asks for; none changes the state itself.

pub mod analysis;
pub mod audience;
pub mod board;
pub mod dialogs;
pub mod editor;
pub mod headers;
pub mod menu;
pub mod moves;
pub mod openings;
pub mod patterns;
pub mod play;
pub mod puzzles;
// Knowledge reference (issue 10).
pub mod knowledge;

// Club (issue 10).
pub mod club;
pub mod tablebase;

use crate::actions::Action;
use crate::app::ChuheApp;
use crate::state::Notice;
use egui::Ui;

/// Lays out the window: menu bar, status bar, the side panel (headers, analysis, moves)
/// and the board in the middle; in board-only mode just the board.
pub fn show(app: &mut ChuheApp, ui: &mut Ui, actions: &mut Vec<Action>) {
    let ctx = ui.ctx().clone();
    let theme = app.state.settings.theme.theme();
    if !app.state.settings.layout.board_only {
        egui::Panel::top("menu").show(ui, |ui| menu::show(app, ui, actions));
        egui::Panel::bottom("status").show(ui, |ui| status(app, ui));
        if app.state.openings.open {
            egui::Panel::left("openings")
                .default_size(300.0)
                .min_size(220.0)
                .show(ui, |ui| openings::show(app, ui, actions));
        }
        let side = egui::Panel::right("side")
            .default_size(app.state.settings.layout.side_panel_width)
            .min_size(240.0)
            .show(ui, |ui| {
                if app.state.editor.is_some() {
                    editor::side(app, ui, actions);
                    return;
                }
                if app.state.puzzles.session.is_some() {
                    puzzles::side(app, ui, actions);
                    return;
                }
                if app.state.settings.layout.show_headers {
                    egui::CollapsingHeader::new(app.i18n.tr("panel-headers"))
                        .default_open(true)
                        .show(ui, |ui| headers::show(app, ui, actions));
                }
                ui.separator();
                analysis::show(app, ui, actions);
                tablebase::show(app, ui, actions);
                ui.separator();
                moves::show(app, ui, actions);
            });
        // The panel's width is part of the layout the settings keep: remembered once
        // the user lets go of the divider.
        let width = side.response.rect.width().round();
        let dragging = ctx.input(|i| i.pointer.any_down());
        if !dragging && (width - app.state.settings.layout.side_panel_width).abs() >= 1.0 {
            actions.push(Action::SetSidePanelWidth(width));
        }
    }
    let frame = egui::Frame::central_panel(ui.style()).fill(theme.background);
    if app.state.patterns.open && !app.state.settings.layout.board_only {
        egui::CentralPanel::default().show(ui, |ui| patterns::show(app, ui, actions));
    } else {
        egui::CentralPanel::default().frame(frame).show(ui, |ui| {
            if app.state.editor.is_some() {
                editor::board(app, ui, actions);
            } else if app.state.puzzles.session.is_some() {
                puzzles::board(app, ui, actions);
            } else {
                if app.state.play.is_some() {
                    egui::Panel::top("play bar").show(ui, |ui| play::bar(app, ui, actions));
                }
                if app.state.audience && !app.state.settings.layout.board_only {
                    egui::Panel::top("teacher bar")
                        .show(ui, |ui| audience::teacher_bar(app, ui, actions));
                }
                board::show(app, ui, actions);
            }
        });
    }
    puzzles::browser(app, &ctx, actions);
    knowledge::window(app, &ctx, actions);
    // Club (issue 10).
    club::window(app, &ctx, actions);
    tablebase::browser(app, &ctx, actions);
    dialogs::show(app, &ctx, actions);
    play::setup_dialog(app, &ctx, actions);
    crate::export::dialog(app, &ctx, actions);
    audience::show(app, &ctx, actions);
}

/// The status bar: what happened last, the file, whether it is saved, the frame time.
fn status(app: &ChuheApp, ui: &mut Ui) {
    let i18n = &app.i18n;
    let state = &app.state;
    ui.horizontal(|ui| {
        let file = state
            .file
            .as_ref()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| i18n.tr("file-untitled"));
        let marker = if state.dirty { " *" } else { "" };
        ui.label(format!("{file}{marker}"));
        ui.separator();
        if let Some(notice) = &state.notice {
            ui.label(
                egui::RichText::new(notice_text(app, notice)).color(ui.visuals().warn_fg_color),
            );
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.weak(format!(
                "{:.1} ms",
                app.frame_times.mean().as_secs_f64() * 1000.0
            ));
        });
    });
}

/// A notice in the user's language.
pub fn notice_text(app: &ChuheApp, notice: &Notice) -> String {
    let i18n = &app.i18n;
    match notice {
        Notice::Illegal(reason) => i18n.tr_args(
            "illegal-move",
            &[("reason", i18n.tr(illegal_id(*reason)).into())],
        ),
        Notice::Message(id) => i18n.tr(id),
        Notice::WithArg(id, name, value) => i18n.tr_args(id, &[(name, value.clone().into())]),
    }
}

/// The message id of a reason a move is illegal.
pub fn illegal_id(reason: chuhe_core::IllegalReason) -> &'static str {
    use chuhe_core::IllegalReason::*;
    match reason {
        NoPiece => "illegal-no-piece",
        NotYourPiece => "illegal-not-your-piece",
        OwnPieceOnTarget => "illegal-own-piece-on-target",
        WrongShape => "illegal-wrong-shape",
        LeavesPalace => "illegal-leaves-palace",
        CrossesRiver => "illegal-crosses-river",
        ElephantEyeBlocked => "illegal-elephant-eye-blocked",
        HorseLegBlocked => "illegal-horse-leg-blocked",
        PathBlocked => "illegal-path-blocked",
        CannonNeedsScreen => "illegal-cannon-needs-screen",
        CannonTooManyScreens => "illegal-cannon-too-many-screens",
        PawnSidewaysBeforeRiver => "illegal-pawn-sideways",
        PawnBackwards => "illegal-pawn-backwards",
        GeneralsWouldFace => "illegal-generals-face",
        StillInCheck => "illegal-still-in-check",
        ExposesGeneral => "illegal-exposes-general",
    }
}

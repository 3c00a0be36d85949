//! The window's panels, one module each. Each draws from the app's state and pushes the
//! [`Action`]s the user asks for; none changes the state itself.

pub mod analysis;
pub mod audience;
pub mod board;
pub mod club;
pub mod dialogs;
pub mod editor;
pub mod file_chooser;
pub mod headers;
pub mod knowledge;
pub mod menu;
pub mod moves;
pub mod openings;
pub mod patterns;
pub mod play;
pub mod puzzles;
pub mod tablebase;

use crate::widgets::text::*;
pub mod export;

use crate::actions::*;
use crate::state::State;
pub use crate::widgets::View;
use crate::widgets::shortcuts;
use egui::Ui;

/// Lays out the window: menu bar, status bar, the side panel (headers, analysis, moves)
/// and the board in the middle; in board-only mode just the board.
pub fn show(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
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
            actions.push(Action::View(ViewAction::SetSidePanelWidth(width)));
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
    club::window(app, &ctx, actions);
    tablebase::browser(app, &ctx, actions);
    dialogs::show(app, &ctx, actions);
    play::setup_dialog(app, &ctx, actions);
    crate::panels::export::dialog(app, &ctx, actions);
    audience::show(app, &ctx, actions);
    file_chooser::window(app, &ctx, actions);
}

/// The status bar: what happened last, the file, whether it is saved, the frame time.
fn status(app: &View, ui: &mut Ui) {
    let i18n = &app.i18n;
    let state = &app.state;
    ui.horizontal(|ui| {
        let file = state
            .study
            .file
            .as_ref()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| i18n.tr("file-untitled"));
        let marker = if state.study.dirty { " *" } else { "" };
        ui.label(format!("{file}{marker}"));
        ui.separator();
        if let Some(notice) = &state.notice {
            ui.label(
                egui::RichText::new(notice_text(app.i18n, notice))
                    .color(ui.visuals().warn_fg_color),
            );
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.weak(format!("{:.1} ms", app.frame_ms));
        });
    });
}

/// Input that is not aimed at a widget: dropped files, pasted text, shortcuts.
pub fn input(ctx: &egui::Context, state: &State) -> Vec<Action> {
    let mut actions = Vec::new();
    let dropped: Vec<_> = ctx.input(|i| i.raw.dropped_files.clone());
    for file in dropped {
        let path = file.path().to_owned();
        actions.push(if path.is_dir() {
            Action::File(FileAction::OpenFolder(path))
        } else {
            Action::File(FileAction::Open(path))
        });
    }
    // The in-app file browser takes the keys (Enter, Escape) while it is open.
    if ctx.egui_wants_keyboard_input() || state.file_browser.is_some() {
        return actions;
    }
    let events = ctx.input(|i| i.events.clone());
    for event in events {
        match event {
            egui::Event::Paste(text) => actions.push(Action::File(FileAction::Paste(text))),
            egui::Event::Copy => actions.push(Action::Study(StudyAction::CopyFen)),
            _ => {}
        }
    }
    actions.extend(shortcuts::actions(
        ctx,
        state.study.cursor,
        state.presentation.is_some(),
    ));
    actions
}

//! The window's panels, one module each. Each draws from the app's state and pushes the
//! [`Action`]s the user asks for; none changes the state itself.

pub mod analysis;
pub mod audience;
pub mod board;
pub mod class;
pub mod club;
pub mod collections;
pub mod dialogs;
pub mod editor;
pub mod feedback;
pub mod file_chooser;
pub mod headers;
pub mod knowledge;
pub mod load_problems;
pub mod menu;
pub mod moves;
pub mod openings;
pub mod patterns;
pub mod picture;
pub mod play;
pub mod puzzles;
pub mod tablebase;
pub mod tabs;
pub mod training;

use crate::widgets::text::notice_text;
pub mod export;
pub mod worksheet;

use crate::actions::*;
use crate::state::State;
pub use crate::widgets::View;
use crate::widgets::shortcuts;
use egui::Ui;

/// Below this window width the side panels give way to the board: the side panel shows
/// only when asked for (a button in the status bar), so a small window is mostly board.
const NARROW_WIDTH: f32 = 760.0;

/// The side panel's least width.
const SIDE_MIN_WIDTH: f32 = 240.0;

/// The least width of each panel on the left (the explorer, the opening tree).
const LEFT_MIN_WIDTH: f32 = 220.0;

/// The least width the board is given beside the panels; with less room the side panel
/// takes the board's place while it is shown.
const BOARD_MIN_WIDTH: f32 = 300.0;

/// Below this window height the central area drops its margins: every point goes to the
/// board.
const SHORT_HEIGHT: f32 = 480.0;

/// Lays out the window: menu bar, status bar, the side panel (headers, analysis, moves)
/// and the board in the middle; in board-only mode just the board.
pub fn show(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let ctx = ui.ctx().clone();
    let theme = app.state.settings.theme.theme();
    let window = ui.max_rect();
    let narrow = window.width() < NARROW_WIDTH;
    // Floating windows stay in the area under the menu bar, so it is always reachable.
    let mut under_menu = window;
    if !app.state.settings.layout.board_only {
        let menu = egui::Panel::top("menu").show(ui, |ui| menu::show(app, ui, actions));
        under_menu.min.y = menu.response.rect.bottom();
        egui::Panel::bottom("status").show(ui, |ui| status(app, ui, narrow, actions));
        // In a short window one lone game needs no tab bar: the board gets the row.
        if window.height() >= SHORT_HEIGHT || app.state.tab_count() > 1 {
            egui::Panel::top("tabs").show(ui, |ui| tabs::bar(app, ui, actions));
        }
    }
    crate::widgets::remember_window_area(&ctx, under_menu);
    // A narrow window may have no room for the board beside the side panel (and the
    // panels on the left): then, asked for, the side panel takes the board's place until
    // it is folded away again.
    let explorer_shown = app.state.settings.explorer_open
        && app.state.editor.is_none()
        && app.state.puzzles.session.is_none();
    let left_least = LEFT_MIN_WIDTH * (explorer_shown as u8 + app.state.openings.open as u8) as f32;
    let sheet = narrow
        && app.state.side_panel_shown
        && !app.state.settings.layout.board_only
        && window.width() - SIDE_MIN_WIDTH - left_least < BOARD_MIN_WIDTH;
    if !app.state.settings.layout.board_only && (!narrow || app.state.side_panel_shown) {
        // The panels on the left never leave the side panel less than its least width.
        let left_max = (window.width() - SIDE_MIN_WIDTH).max(120.0);
        if explorer_shown {
            egui::Panel::left("explorer")
                .default_size(330.0)
                .min_size(LEFT_MIN_WIDTH.min(left_max))
                .max_size(left_max)
                .show(ui, |ui| collections::explorer(app, ui, actions));
        }
        if app.state.openings.open {
            egui::Panel::left("openings")
                .default_size(300.0)
                .min_size(LEFT_MIN_WIDTH.min(left_max))
                .max_size(left_max)
                .show(ui, |ui| openings::show(app, ui, actions));
        }
    }
    if sheet {
        egui::CentralPanel::default().show(ui, |ui| side(app, ui, actions));
    } else if !app.state.settings.layout.board_only && (!narrow || app.state.side_panel_shown) {
        let side = egui::Panel::right("side")
            .default_size(app.state.settings.layout.side_panel_width)
            .min_size(SIDE_MIN_WIDTH)
            // Never so wide that the board is squeezed out of the window.
            .max_size((window.width() - 160.0).max(SIDE_MIN_WIDTH))
            .show(ui, |ui| side(app, ui, actions));
        // The panel's width is part of the layout the settings keep: remembered once
        // the user lets go of the divider.
        let width = side.response.rect.width().round();
        let dragging = ctx.input(|i| i.pointer.any_down());
        // A narrow window squeezes the panel: that is not the width the user chose.
        if !narrow && !dragging && (width - app.state.settings.layout.side_panel_width).abs() >= 1.0
        {
            actions.push(Action::View(ViewAction::SetSidePanelWidth(width)));
        }
    }
    let mut frame = egui::Frame::central_panel(ui.style()).fill(theme.background);
    if window.height() < SHORT_HEIGHT || narrow {
        frame = frame.inner_margin(0);
    }
    let training_home = app.state.training.open && app.state.training.session.is_none();
    let central = if sheet {
        // The side panel stands in the board's place.
        None
    } else if app.state.picture.correction.is_some() {
        Some(egui::CentralPanel::default().show(ui, |ui| picture::show(app, ui, actions)))
    } else if training_home && !app.state.settings.layout.board_only {
        Some(egui::CentralPanel::default().show(ui, |ui| training::home(app, ui, actions)))
    } else if app.state.patterns.open && !app.state.settings.layout.board_only {
        Some(egui::CentralPanel::default().show(ui, |ui| patterns::show(app, ui, actions)))
    } else {
        Some(egui::CentralPanel::default().frame(frame).show(ui, |ui| {
            if app.state.editor.is_some() {
                editor::board(app, ui, actions);
            } else if app.state.puzzles.session.is_some() {
                puzzles::board(app, ui, actions);
            } else if app.state.training.session.is_some() {
                training::board(app, ui, actions);
            } else {
                if app.state.play.is_some() {
                    egui::Panel::top("play bar").show(ui, |ui| play::bar(app, ui, actions));
                }
                if app.state.audience && !app.state.settings.layout.board_only {
                    egui::Panel::top("teacher bar")
                        .show(ui, |ui| audience::teacher_bar(app, ui, actions));
                }
                board::show(app, ui, actions);
                if feedback::welcome_shown(app) {
                    feedback::welcome(app, ui, actions);
                }
            }
        }))
    };
    let toast_area = central.map_or(under_menu, |c| c.response.rect);
    feedback::toasts(app, &ctx, toast_area, actions);
    puzzles::browser(app, &ctx, actions);
    knowledge::window(app, &ctx, actions);
    club::window(app, &ctx, actions);
    class::window(app, &ctx, actions);
    collections::browser(app, &ctx, actions);
    tablebase::browser(app, &ctx, actions);
    dialogs::show(app, &ctx, actions);
    play::setup_dialog(app, &ctx, actions);
    crate::panels::export::dialog(app, &ctx, actions);
    worksheet::dialog(app, &ctx, actions);
    audience::show(app, &ctx, actions);
    file_chooser::window(app, &ctx, actions);
}

/// What the side panel shows: the editor's, a puzzle's or a drill's tools while one is
/// on, else the game's headers, the analysis, the table verdict and the moves.
fn side(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    if app.state.editor.is_some() {
        editor::side(app, ui, actions);
        return;
    }
    if app.state.puzzles.session.is_some() {
        puzzles::side(app, ui, actions);
        return;
    }
    if app.state.training.session.is_some() {
        training::side(app, ui, actions);
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
    load_problems::show(app, ui);
    moves::show(app, ui, actions);
}

/// The status bar: the side to move, what happened last, the file, whether it is saved,
/// the frame time when asked for; in a narrow window the button that shows the side panel.
fn status(app: &View, ui: &mut Ui, narrow: bool, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let state = &app.state;
    ui.horizontal(|ui| {
        if narrow {
            let label = i18n.tr(if state.side_panel_shown {
                "layout-side-panel-hide"
            } else {
                "layout-side-panel-show"
            });
            if ui.selectable_label(state.side_panel_shown, label).clicked() {
                actions.push(Action::View(ViewAction::ToggleSidePanel));
            }
        }
        if state.editor.is_none()
            && state.puzzles.session.is_none()
            && state.training.session.is_none()
        {
            let theme = state.settings.theme.theme();
            let (id, colour) = match state.position().side_to_move() {
                chuhe_core::Color::Red => ("status-red-to-move", theme.eval_red),
                chuhe_core::Color::Black => {
                    ("status-black-to-move", ui.visuals().strong_text_color())
                }
            };
            ui.label(egui::RichText::new(i18n.tr(id)).strong().color(colour));
            ui.separator();
        }
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
        // What a toast is saying, the status bar need not say twice.
        if let Some(notice) = state.notice.as_ref().filter(|n| !state.toasts.says(n)) {
            ui.label(
                egui::RichText::new(notice_text(app.i18n, notice))
                    .color(ui.visuals().warn_fg_color),
            );
        }
        // The time a frame takes is a developer's figure, shown when asked for.
        if state.settings.show_frame_time {
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.weak(format!("{:.1} ms", app.frame_ms));
            });
        }
    });
}

/// Input that is not aimed at a widget: dropped files, pasted text, shortcuts.
pub fn input(ctx: &egui::Context, state: &State) -> Vec<Action> {
    let mut actions = Vec::new();
    let dropped: Vec<std::path::PathBuf> = ctx.input(|i| {
        i.raw
            .dropped_files
            .iter()
            .map(|f| f.path().to_owned())
            .collect()
    });
    // A picture dropped is read (one at a time: the first); a collection dropped opens;
    // game files and folders dropped while the collection browser is open are imported
    // into it; otherwise they open on the board.
    let (pictures, dropped): (Vec<_>, Vec<_>) = dropped
        .into_iter()
        .partition(|p| crate::state::picture::is_picture_file(p));
    if let Some(path) = pictures.into_iter().next() {
        actions.push(Action::Picture(PictureAction::Open(path)));
    }
    let (collections, games): (Vec<_>, Vec<_>) = dropped.into_iter().partition(|p| {
        p.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case(chuhe_core::db::EXTENSION))
    });
    for path in collections {
        actions.push(Action::Collections(CollectionAction::Open(path)));
    }
    if state.collections.browser.open && !state.collections.open.is_empty() {
        if !games.is_empty() {
            actions.push(Action::Collections(CollectionAction::Import(games)));
        }
    } else {
        for path in games {
            actions.push(if path.is_dir() {
                Action::File(FileAction::OpenFolder(path))
            } else {
                Action::File(FileAction::Open(path))
            });
        }
    }
    // The in-app file browser takes the keys (Enter, Escape) while it is open.
    if ctx.egui_wants_keyboard_input() || state.file_browser.is_some() {
        return actions;
    }
    let events = ctx.input(|i| i.events.clone());
    for event in events {
        match event {
            egui::Event::Paste(text) => actions.push(Action::File(FileAction::Paste(text))),
            // The clipboard held a picture and no text (egui's paste tries the text first).
            egui::Event::PasteImage(image) => actions.push(Action::Picture(PictureAction::Paste(
                picture::pasted(&image),
            ))),
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

//! Dialogs: the multi-game chooser, unsaved changes on quit (naming every game that has
//! them, saved or given up all at once) or on stepping to another game, and restoring
//! the autosave after a crash.

use crate::actions::Action;
use crate::actions::*;
use crate::state::Dialog;
use crate::widgets::View;
use crate::widgets::text::game_title;
use crate::words::text::problem_text;
use egui::{Context, Id, Modal};

/// Draws whichever dialog is open.
pub fn show(app: &View, ctx: &Context, actions: &mut Vec<Action>) {
    game_list(app, ctx, actions);
    let i18n = &app.i18n;
    let Some(dialog) = &app.state.dialog else {
        return;
    };
    // Quitting names every game that would lose changes, to be saved or given up at once.
    let unsaved: Vec<String> = match dialog {
        Dialog::UnsavedOnQuit => app
            .state
            .all_tabs()
            .filter(|s| s.dirty)
            .map(|s| game_title(i18n, s))
            .collect(),
        _ => Vec::new(),
    };
    let (message, buttons): (&str, Vec<(&str, Action)>) = match dialog {
        Dialog::UnsavedOnQuit => (
            "dialog-unsaved-quit",
            vec![
                ("dialog-save-all", Action::Window(WindowAction::SaveAndQuit)),
                (
                    "dialog-discard-all",
                    Action::Window(WindowAction::DiscardAndQuit),
                ),
                ("dialog-cancel", Action::Window(WindowAction::CloseDialog)),
            ],
        ),
        Dialog::UnsavedOnReplace => ("dialog-unsaved-replace", save_discard_or_cancel()),
        Dialog::UnsavedOnCloseTab => ("dialog-unsaved-close-tab", save_discard_or_cancel()),
        Dialog::LeaveEditor => (
            "dialog-leave-editor",
            vec![
                (
                    "dialog-leave-editor-yes",
                    Action::Editor(crate::actions::EditorAction::LeaveNow),
                ),
                ("dialog-cancel", Action::Window(WindowAction::CloseDialog)),
            ],
        ),
        Dialog::ConfirmResign => (
            "dialog-confirm-resign",
            vec![
                ("dialog-resign-yes", Action::Play(PlayAction::Resign)),
                ("dialog-cancel", Action::Window(WindowAction::CloseDialog)),
            ],
        ),
        Dialog::ConfirmDrawOffer => (
            "dialog-confirm-draw-offer",
            vec![
                ("dialog-draw-offer-yes", Action::Play(PlayAction::OfferDraw)),
                ("dialog-cancel", Action::Window(WindowAction::CloseDialog)),
            ],
        ),
        Dialog::RestoreAutosave => (
            "dialog-restore",
            vec![
                (
                    "dialog-restore-yes",
                    Action::File(FileAction::RestoreAutosave(true)),
                ),
                (
                    "dialog-restore-no",
                    Action::File(FileAction::RestoreAutosave(false)),
                ),
            ],
        ),
    };
    let id = Id::unique("chuhe-dialog");
    let area = Modal::default_area(id).constrain_to(crate::widgets::window_area(ctx));
    Modal::new(id).area(area).show(ctx, |ui| {
        ui.set_max_width(360.0);
        if unsaved.is_empty() {
            ui.label(i18n.tr(message));
        } else {
            ui.label(i18n.tr_args(message, &[("count", unsaved.len().into())]));
            ui.add_space(4.0);
            egui::ScrollArea::vertical()
                .id_salt("unsaved games")
                .max_height(160.0)
                .show(ui, |ui| {
                    for title in &unsaved {
                        ui.label(format!("• {title}"));
                    }
                });
        }
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            for (id, action) in buttons {
                if ui.button(i18n.tr(id)).clicked() {
                    actions.push(action);
                }
            }
        });
    });
}

/// The answers to a question about unsaved work that stands in the way of an action.
fn save_discard_or_cancel() -> Vec<(&'static str, Action)> {
    vec![
        ("dialog-save", Action::Window(WindowAction::SaveAndContinue)),
        (
            "dialog-discard",
            Action::Window(WindowAction::DiscardAndContinue),
        ),
        ("dialog-cancel", Action::Window(WindowAction::CloseDialog)),
    ]
}

/// The games of a multi-game file, searchable by player, event and opening.
fn game_list(app: &View, ctx: &Context, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let Some(list) = &app.state.study.game_list else {
        return;
    };
    let mut open = true;
    egui::Window::new(i18n.tr("games-title"))
        .constrain_to(crate::widgets::window_area(ctx))
        .open(&mut open)
        .default_size([560.0, 420.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                let label = ui.label(i18n.tr("games-search"));
                let mut filter = list.filter.clone();
                if ui
                    .text_edit_singleline(&mut filter)
                    .labelled_by(label.id)
                    .changed()
                {
                    actions.push(Action::File(FileAction::FilterGames(filter)));
                }
            });
            let shown: Vec<usize> = (0..list.games.len())
                .filter(|&i| list.games[i].matches(&list.filter))
                .collect();
            ui.label(i18n.tr_args("games-count", &[("count", shown.len().into())]));
            egui::ScrollArea::vertical().show_rows(ui, 20.0, shown.len(), |ui, rows| {
                for &i in &shown[rows] {
                    let h = list.games[i].record.headers();
                    let get = |n| h.get(n).unwrap_or_default();
                    let text = format!(
                        "{}. {} – {}  {}  {} {}  {}",
                        i + 1,
                        get("Red"),
                        get("Black"),
                        get("Event"),
                        get("ECCO"),
                        get("Opening"),
                        get("Result"),
                    );
                    let row = match &list.games[i].partial {
                        // A game that breaks off opens up to the break; the row says so.
                        Some(problem) => ui
                            .selectable_label(
                                false,
                                format!("{text}  {}", i18n.tr("games-partial")),
                            )
                            .on_hover_text(problem_text(i18n, problem)),
                        None => ui.selectable_label(false, text),
                    };
                    if row.clicked() {
                        actions.push(Action::File(FileAction::ChooseGame(i)));
                    }
                }
            });
            if !list.unreadable.is_empty() {
                ui.separator();
                ui.label(i18n.tr_args(
                    "games-unreadable",
                    &[("count", list.unreadable.len().into())],
                ));
                egui::ScrollArea::vertical()
                    .id_salt("unreadable games")
                    .max_height(120.0)
                    .show(ui, |ui| {
                        for game in &list.unreadable {
                            ui.weak(i18n.tr_args(
                                "games-unreadable-row",
                                &[
                                    ("number", game.number.into()),
                                    ("problem", problem_text(i18n, &game.problem).into()),
                                ],
                            ));
                        }
                    });
            }
        });
    if !open {
        actions.push(Action::File(FileAction::CloseGameList));
    }
}

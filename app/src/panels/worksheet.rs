//! The worksheet dialog: which positions, the header, the paper and layout, the answers'
//! notation, and black and white or colour; 保存 asks where to write the PDF.

use crate::actions::{Action, WorksheetAction};
use crate::state::worksheet::{NOTATIONS, WorksheetSource};
use crate::widgets::View;
use chuhe_core::Notation;
use chuhe_core::worksheet::{PER_PAGE, Paper};
use egui::Vec2;

/// The translation key of a notation's name.
fn notation_id(notation: Notation) -> &'static str {
    match notation {
        Notation::ChineseTraditional => "notation-chinese-traditional",
        Notation::Wxf => "notation-wxf",
        Notation::Iccs | Notation::IccsPgn => "notation-iccs",
        _ => "notation-chinese",
    }
}

/// The dialog, while it is open.
pub fn dialog(app: &View, ctx: &egui::Context, actions: &mut Vec<Action>) {
    let Some(options) = &app.state.worksheet_dialog else {
        return;
    };
    let i18n = &app.i18n;
    let mut edited = options.clone();
    let mut open = true;
    let source_name = |source: WorksheetSource| match source {
        WorksheetSource::Board => i18n.tr("worksheet-source-board"),
        WorksheetSource::Patterns => i18n.tr("worksheet-source-patterns"),
        WorksheetSource::Game => i18n.tr("worksheet-source-game"),
        WorksheetSource::Collection => i18n.tr_args(
            "worksheet-source-collection",
            &[("n", app.state.worksheet_games.len().into())],
        ),
        WorksheetSource::Puzzles(set) => app
            .state
            .puzzles
            .sets
            .get(set)
            .map(|s| {
                i18n.tr_args(
                    "worksheet-source-puzzles",
                    &[("set", s.set.name.clone().into())],
                )
            })
            .unwrap_or_default(),
    };
    egui::Window::new(i18n.tr("worksheet-title"))
        .constrain_to(crate::widgets::window_area(ctx))
        .collapsible(false)
        .resizable(false)
        .open(&mut open)
        .anchor(egui::Align2::CENTER_CENTER, Vec2::ZERO)
        .show(ctx, |ui| {
            egui::Grid::new("worksheet options")
                .num_columns(2)
                .spacing([12.0, 6.0])
                .show(ui, |ui| {
                    let label = ui.label(i18n.tr("worksheet-source"));
                    egui::ComboBox::from_id_salt("worksheet source")
                        .selected_text(source_name(edited.source))
                        .show_ui(ui, |ui| {
                            let sets =
                                (0..app.state.puzzles.sets.len()).map(WorksheetSource::Puzzles);
                            let sources = [WorksheetSource::Board, WorksheetSource::Game]
                                .into_iter()
                                .chain(sets)
                                .chain([WorksheetSource::Patterns])
                                .chain(
                                    (!app.state.worksheet_games.is_empty())
                                        .then_some(WorksheetSource::Collection),
                                );
                            for source in sources {
                                ui.selectable_value(
                                    &mut edited.source,
                                    source,
                                    source_name(source),
                                );
                            }
                        })
                        .response
                        .labelled_by(label.id);
                    ui.end_row();
                    for (id, text) in [
                        ("worksheet-heading", &mut edited.title),
                        ("worksheet-class", &mut edited.class),
                        ("worksheet-date", &mut edited.date),
                    ] {
                        let label = ui.label(i18n.tr(id));
                        ui.text_edit_singleline(text).labelled_by(label.id);
                        ui.end_row();
                    }
                    ui.label(i18n.tr("worksheet-paper"));
                    ui.horizontal(|ui| {
                        for paper in Paper::ALL {
                            let name = match paper {
                                Paper::A4 => "A4",
                                Paper::Letter => "Letter",
                            };
                            ui.radio_value(&mut edited.paper, paper, name);
                        }
                    });
                    ui.end_row();
                    ui.label(i18n.tr("worksheet-per-page"));
                    ui.horizontal(|ui| {
                        for n in PER_PAGE {
                            ui.radio_value(&mut edited.per_page, n, n.to_string());
                        }
                    });
                    ui.end_row();
                    let label = ui.label(i18n.tr("worksheet-notation"));
                    egui::ComboBox::from_id_salt("worksheet notation")
                        .selected_text(i18n.tr(notation_id(edited.notation)))
                        .show_ui(ui, |ui| {
                            for notation in NOTATIONS {
                                ui.selectable_value(
                                    &mut edited.notation,
                                    notation,
                                    i18n.tr(notation_id(notation)),
                                );
                            }
                        })
                        .response
                        .labelled_by(label.id);
                    ui.end_row();
                });
            ui.checkbox(&mut edited.answers, i18n.tr("worksheet-answers"));
            ui.checkbox(&mut edited.hints, i18n.tr("worksheet-hints"));
            ui.checkbox(
                &mut edited.black_and_white,
                i18n.tr("worksheet-black-and-white"),
            );
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                if ui.button(i18n.tr("worksheet-save")).clicked() {
                    actions.push(Action::Worksheet(WorksheetAction::SaveDialog(
                        edited.clone(),
                    )));
                }
                if ui.button(i18n.tr("dialog-cancel")).clicked() {
                    actions.push(Action::Worksheet(WorksheetAction::Dialog(None)));
                }
            });
        });
    if !open {
        actions.push(Action::Worksheet(WorksheetAction::Dialog(None)));
    } else if &edited != options {
        actions.push(Action::Worksheet(WorksheetAction::Dialog(Some(edited))));
    }
}

//! The tab bar: one tab per open game, titled by its players or its file (`*` while it
//! has unsaved changes), each with a close button; `+` opens an empty game.

use crate::actions::Action;
use crate::actions::*;
use crate::i18n::I18n;
use crate::state::study::Study;
use crate::widgets::View;
use chuhe_core::record::tag;
use egui::Ui;

/// Draws the tab bar.
pub fn bar(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let active = app.state.tabs.active;
    egui::ScrollArea::horizontal()
        .id_salt("tabs")
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                for (i, study) in app.state.all_tabs().enumerate() {
                    ui.group(|ui| {
                        ui.spacing_mut().item_spacing.x = 2.0;
                        if ui
                            .selectable_label(i == active, title(i18n, study))
                            .clicked()
                        {
                            actions.push(Action::Tabs(TabAction::Switch(i)));
                        }
                        if ui
                            .small_button("×")
                            .on_hover_text(i18n.tr("tabs-close"))
                            .clicked()
                        {
                            actions.push(Action::Tabs(TabAction::Close(i)));
                        }
                    });
                }
                if ui.button("+").on_hover_text(i18n.tr("tabs-new")).clicked() {
                    actions.push(Action::Tabs(TabAction::New));
                }
            });
        });
}

/// A tab's title: the players, or else the file's name, or else "untitled"; with `*`
/// while the game has unsaved changes.
pub fn title(i18n: &I18n, study: &Study) -> String {
    let headers = study.record.headers();
    let player = |name| headers.get(name).filter(|v| !v.trim().is_empty());
    let name = match (player(tag::RED), player(tag::BLACK)) {
        (Some(red), Some(black)) => format!("{red} – {black}"),
        (Some(one), None) | (None, Some(one)) => one.to_owned(),
        (None, None) => study
            .file
            .as_ref()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| i18n.tr("file-untitled")),
    };
    if study.dirty {
        format!("{name} *")
    } else {
        name
    }
}

use crate::actions::*;
use egui::Vec2;
/// The export dialog: the picture's size, and whether coordinates and marks are drawn.
pub fn dialog(
    app: &crate::widgets::View,
    ctx: &egui::Context,
    actions: &mut Vec<crate::actions::Action>,
) {
    use crate::actions::Action;
    let Some(options) = app.state.export_dialog else {
        return;
    };
    let i18n = &app.i18n;
    let mut edited = options;
    let mut open = true;
    egui::Window::new(i18n.tr("export-title"))
        .constrain_to(crate::widgets::window_area(ctx))
        .collapsible(false)
        .resizable(false)
        .open(&mut open)
        .anchor(egui::Align2::CENTER_CENTER, Vec2::ZERO)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                let label = ui.label(i18n.tr("export-size"));
                ui.add(
                    egui::DragValue::new(&mut edited.size)
                        .range(crate::state::export::SIZES)
                        .suffix(" px"),
                )
                .labelled_by(label.id);
                for size in [600, 1200, 2400] {
                    if ui
                        .selectable_label(edited.size == size, format!("{size}"))
                        .clicked()
                    {
                        edited.size = size;
                    }
                }
            });
            ui.checkbox(&mut edited.coordinates, i18n.tr("export-coordinates"));
            ui.checkbox(&mut edited.marks, i18n.tr("export-marks"));
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                if ui.button(i18n.tr("export-save")).clicked() {
                    actions.push(Action::Export(ExportAction::PngDialog(edited)));
                }
                if ui.button(i18n.tr("dialog-cancel")).clicked() {
                    actions.push(Action::Export(ExportAction::Dialog(None)));
                }
            });
        });
    if !open {
        actions.push(Action::Export(ExportAction::Dialog(None)));
    } else if edited != options {
        actions.push(Action::Export(ExportAction::Dialog(Some(edited))));
    }
}

//! The in-app file browser, for desktops where no file-dialog portal answers: a path bar
//! with parent and home buttons, the folder's sub-folders and the files the purpose
//! offers (or all files, when ticked), a file-name field, and the question before a file
//! is replaced. Enter confirms,
//! Escape cancels.

use crate::actions::{Action, FileChooserAction};
use crate::state::file_chooser::ChooserKind;
use crate::widgets::View;
use crate::widgets::text::notice_text;
use egui::{Context, Id, Key, Modal};
use std::path::PathBuf;

/// Draws the browser while it is open.
pub fn window(app: &View, ctx: &Context, actions: &mut Vec<Action>) {
    let Some(browser) = &app.state.file_browser else {
        return;
    };
    let i18n = app.i18n;
    let kind = browser.purpose.kind();
    let mut push = |action| actions.push(Action::FileChooser(action));
    // The keys belong to the field being typed in while one has focus.
    let mut typed_enter = false;
    Modal::new(Id::unique("file browser")).show(ctx, |ui| {
        // As wide as it is useful, but never wider than a small window.
        ui.set_width(560.0_f32.min(ctx.content_rect().width() - 48.0).max(200.0));
        ui.heading(i18n.tr(browser.purpose.title_id()));
        ui.horizontal(|ui| {
            if ui.button(i18n.tr("chooser-parent")).clicked() {
                push(FileChooserAction::Parent);
            }
            if ui.button(i18n.tr("chooser-home")).clicked() {
                push(FileChooserAction::Home);
            }
            let label = ui.label(i18n.tr("chooser-path"));
            let mut text = browser.path_text.clone();
            let field = ui
                .add(egui::TextEdit::singleline(&mut text).desired_width(f32::INFINITY))
                .labelled_by(label.id);
            if field.changed() {
                push(FileChooserAction::EditPath(text.clone()));
            }
            if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                typed_enter = true;
                push(FileChooserAction::Browse(PathBuf::from(text.trim())));
            }
        });
        if let Some(error) = &browser.error {
            ui.colored_label(ui.visuals().error_fg_color, notice_text(i18n, error));
        }
        ui.separator();
        egui::ScrollArea::vertical()
            // The buttons below stay on screen in a short window.
            .max_height((ctx.content_rect().height() - 260.0).clamp(80.0, 320.0))
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if browser.entries.is_empty() {
                    ui.weak(i18n.tr("chooser-empty"));
                }
                for entry in &browser.entries {
                    let (text, selected) = if entry.is_folder {
                        (format!("{}/", entry.name), false)
                    } else {
                        (entry.name.clone(), entry.name == browser.file_name)
                    };
                    let row = ui.selectable_label(selected, text);
                    if entry.is_folder && row.clicked() || row.double_clicked() {
                        push(FileChooserAction::Activate(entry.name.clone()));
                    } else if row.clicked() {
                        push(FileChooserAction::SetFileName(entry.name.clone()));
                    }
                }
            });
        ui.separator();
        if kind != ChooserKind::Folder && !browser.purpose.extensions().is_empty() {
            let mut all = browser.all_files;
            if ui
                .checkbox(&mut all, i18n.tr("chooser-all-files"))
                .clicked()
            {
                push(FileChooserAction::AllFiles(all));
            }
        }
        if kind != ChooserKind::Folder {
            ui.horizontal(|ui| {
                let label = ui.label(i18n.tr("chooser-file-name"));
                let mut name = browser.file_name.clone();
                let field = ui
                    .add(egui::TextEdit::singleline(&mut name).desired_width(f32::INFINITY))
                    .labelled_by(label.id);
                if field.changed() {
                    push(FileChooserAction::SetFileName(name));
                }
            });
        }
        if let Some(existing) = &browser.replace {
            let name = existing
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            ui.label(i18n.tr_args("chooser-replace-question", &[("name", name.into())]));
            ui.horizontal(|ui| {
                if ui.button(i18n.tr("chooser-replace")).clicked() {
                    push(FileChooserAction::Replace(true));
                }
                if ui.button(i18n.tr("dialog-cancel")).clicked() {
                    push(FileChooserAction::Replace(false));
                }
            });
            return;
        }
        ui.horizontal(|ui| {
            let confirm = match kind {
                ChooserKind::Open => "chooser-open",
                ChooserKind::Save => "chooser-save",
                ChooserKind::Folder => "chooser-choose-folder",
            };
            if ui.button(i18n.tr(confirm)).clicked() {
                push(FileChooserAction::Confirm);
            }
            if ui.button(i18n.tr("dialog-cancel")).clicked() {
                push(FileChooserAction::Cancelled(browser.purpose.clone()));
            }
        });
    });
    let (enter, escape) = ctx.input(|i| (i.key_pressed(Key::Enter), i.key_pressed(Key::Escape)));
    if escape {
        push(match browser.replace {
            Some(_) => FileChooserAction::Replace(false),
            None => FileChooserAction::Cancelled(browser.purpose.clone()),
        });
    } else if enter && !typed_enter {
        push(match browser.replace {
            Some(_) => FileChooserAction::Replace(true),
            None => FileChooserAction::Confirm,
        });
    }
}

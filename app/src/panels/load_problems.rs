//! The small box above the move list that says the game's file breaks off: where and why,
//! and that the moves after that point are missing.

use crate::widgets::View;
use crate::words::text::problem_text;
use egui::{RichText, Ui};

/// Draws the box, when the game on the board was read only up to a break.
pub fn show(app: &View, ui: &mut Ui) {
    let Some(problem) = &app.state.study.partial else {
        return;
    };
    let warn = ui.visuals().warn_fg_color;
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(1.0, warn))
        .show(ui, |ui| {
            ui.label(
                RichText::new(app.i18n.tr("moves-partial"))
                    .strong()
                    .color(warn),
            );
            ui.label(problem_text(app.i18n, problem));
        });
}

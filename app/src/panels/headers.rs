//! The game's headers: event, date, players and result, editable (written into the record
//! when the field loses focus or the typing pauses, each time one undo step); the opening's
//! name and ECCO code when the record knows them.

use crate::actions::Action;
use crate::actions::*;
use crate::widgets::View;
use crate::widgets::draft;
use chuhe_core::record::{GameResult, tag};
use egui::Ui;

/// The editable headers and their labels' ids.
const FIELDS: [(&str, &str); 5] = [
    (tag::EVENT, "header-event"),
    (tag::DATE, "header-date"),
    (tag::SITE, "header-site"),
    (tag::RED, "header-red"),
    (tag::BLACK, "header-black"),
];

/// Draws the headers.
pub fn show(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let headers = app.state.study.record.headers();
    egui::Grid::new("headers").num_columns(2).show(ui, |ui| {
        for (name, label) in FIELDS {
            let label = ui.label(i18n.tr(label));
            let current = headers.get(name).unwrap_or_default().to_owned();
            let id = ui.scope_id().with(("header", name));
            let mut draft = ui
                .data(|d| d.get_temp::<String>(id))
                .unwrap_or_else(|| current.clone());
            let response = ui
                .add(egui::TextEdit::singleline(&mut draft).desired_width(200.0))
                .labelled_by(label.id);
            if draft::due(ui, id, &response, draft != current) {
                actions.push(Action::Study(StudyAction::SetHeader(
                    name.to_owned(),
                    draft.clone(),
                )));
            }
            if response.has_focus() {
                ui.data_mut(|d| d.insert_temp(id, draft));
            } else {
                ui.data_mut(|d| d.remove::<String>(id));
            }
            ui.end_row();
        }
        let label = ui.label(i18n.tr("header-result"));
        let result = headers.result();
        egui::ComboBox::from_id_salt("result")
            .selected_text(result_label(app, result))
            .show_ui(ui, |ui| {
                for choice in [
                    GameResult::RedWins,
                    GameResult::BlackWins,
                    GameResult::Draw,
                    GameResult::Unknown,
                ] {
                    if ui
                        .selectable_label(choice == result, result_label(app, choice))
                        .clicked()
                    {
                        actions.push(Action::Study(StudyAction::SetHeader(
                            tag::RESULT.to_owned(),
                            choice.as_pgn().to_owned(),
                        )));
                    }
                }
            })
            .response
            .labelled_by(label.id);
        ui.end_row();
        let opening: Vec<&str> = [tag::ECCO, tag::OPENING, tag::VARIATION]
            .iter()
            .filter_map(|name| headers.get(name))
            .filter(|v| !v.is_empty())
            .collect();
        if !opening.is_empty() {
            ui.label(i18n.tr("header-opening"));
            ui.add(egui::Label::new(opening.join(" ")).wrap());
            ui.end_row();
        }
        // What the library recognises: the named position reached by the cursor and the
        // main line's ECCO code.
        let derived = &app.state.study.derived;
        // The start position is the tree's root, which names nothing yet.
        let named = derived.opening.filter(|r| r.ply > 0).and_then(|r| {
            chuhe_core::library::openings::builtin()
                .ok()
                .and_then(|b| b.node(r.node))
                .map(|n| n.names.get(i18n.language().tag()).to_owned())
        });
        if named.is_some() || derived.ecco.is_some() {
            ui.label(i18n.tr("header-recognized"));
            // The code with its one name, then the tree's name for the position reached
            // when that is another.
            let code = derived.ecco.as_ref();
            let named = named.filter(|n| code.is_none_or(|c| c.name() != *n));
            let code = code.map(|c| format!("{} {}", c.code, c.name()));
            let text: Vec<String> = [code, named].into_iter().flatten().collect();
            // Wrapped within the panel: a long name laid out on one line would widen the
            // panel and squeeze the board.
            let link = ui.scope(|ui| {
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
                ui.link(text.join(" · "))
            });
            if link
                .inner
                .on_hover_text(i18n.tr("openings-which"))
                .clicked()
            {
                actions.push(Action::Openings(OpeningsAction::Which));
            }
            ui.end_row();
        }
    });
}

fn result_label(app: &View, result: GameResult) -> String {
    app.i18n.tr(match result {
        GameResult::RedWins => "result-red-wins",
        GameResult::BlackWins => "result-black-wins",
        GameResult::Draw => "result-draw",
        GameResult::Unknown => "result-unknown",
    })
}

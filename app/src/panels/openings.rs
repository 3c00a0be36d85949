//! The opening browser: the built-in opening tree, searchable by name in any language;
//! clicking a position puts its line on the board with its notes; "which opening is this"
//! finds the named position the game has reached.

use crate::actions::Action;
use crate::actions::*;
use crate::widgets::View;
use chuhe_core::Position;
use chuhe_core::library::openings::{self, OpeningBook};
use egui::Ui;
use egui::collapsing_header::CollapsingState;

/// Draws the browser.
pub fn show(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let browser = &app.state.openings;
    ui.horizontal(|ui| {
        ui.heading(i18n.tr("openings-title"));
        if ui
            .small_button("×")
            .on_hover_text(i18n.tr("openings-close"))
            .clicked()
        {
            actions.push(Action::Openings(OpeningsAction::Toggle));
        }
    });
    let book = match openings::builtin() {
        Ok(book) => book,
        Err(_) => {
            // The book is built into the program and its tests read it whole, so this is
            // never seen in a release; the core's detail is English and stays out of the UI.
            ui.label(i18n.tr("openings-broken"));
            return;
        }
    };
    let lang = i18n.language().tag();
    let mut query = browser.query.clone();
    let label = ui.label(i18n.tr("openings-search-label"));
    let search = ui
        .add(
            egui::TextEdit::singleline(&mut query)
                .hint_text(i18n.tr("openings-search"))
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id);
    if search.changed() {
        actions.push(Action::Openings(OpeningsAction::Search(query.clone())));
    }
    if ui.button(i18n.tr("openings-which")).clicked() {
        actions.push(Action::Openings(OpeningsAction::Which));
    }
    if let Some(node) = browser.selected.and_then(|id| book.node(id)) {
        ui.separator();
        ui.strong(node.names.get(lang));
        // The name in a second language, for readers of both.
        ui.weak(if lang == "en" {
            &node.names.zh_cn
        } else {
            &node.names.en
        });
        if let Some(code) = &node.ecco {
            ui.label(format!("ECCO {}", crate::words::text::ecco_label(code)));
        }
        // The line in the notation the user chose.
        let mut pos = Position::startpos();
        let mut line = Vec::new();
        for &m in &node.moves {
            line.push(app.move_text(&pos, m));
            pos.play_unchecked(m);
        }
        ui.add(egui::Label::new(line.join(" ")).wrap());
        ui.add(egui::Label::new(node.note.get(lang)).wrap());
        // The branch as the user's repertoire, drilled by training.
        ui.horizontal_wrapped(|ui| {
            for (side, id) in [
                (chuhe_core::Color::Red, "training-mark-opening-red"),
                (chuhe_core::Color::Black, "training-mark-opening-black"),
            ] {
                if ui.small_button(i18n.tr(id)).clicked() {
                    actions.push(Action::Train(TrainAction::MarkOpening(node.id, side)));
                }
            }
        });
    }
    ui.separator();
    egui::ScrollArea::vertical()
        .id_salt(("openings", "tree"))
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if query.trim().is_empty() {
                let reveal = reveal_path(ui, book, browser.selected, browser.reveal);
                tree(app, ui, book, 0, &reveal, actions);
            } else {
                let found = book.search(&query);
                if found.is_empty() {
                    ui.weak(i18n.tr("openings-no-match"));
                }
                for id in found {
                    node_label(app, ui, book, id, false, actions);
                }
            }
        });
}

/// The nodes to unfold: the chosen node's ancestors, on the frame after a new request to
/// reveal it (later the user opens and closes branches freely).
fn reveal_path(ui: &Ui, book: &OpeningBook, selected: Option<usize>, reveal: u64) -> Vec<usize> {
    let id = ui.make_persistent_id(("openings", "revealed"));
    let done = ui.data(|d| d.get_temp::<u64>(id)).unwrap_or(0);
    if reveal == done {
        return Vec::new();
    }
    ui.data_mut(|d| d.insert_temp(id, reveal));
    selected.map(|s| book.path(s)).unwrap_or_default()
}

/// One node, with its children below when unfolded.
fn tree(
    app: &View,
    ui: &mut Ui,
    book: &OpeningBook,
    id: usize,
    reveal: &[usize],
    actions: &mut Vec<Action>,
) {
    let node = &book.nodes[id];
    let revealed = reveal.last() == Some(&id);
    if node.children.is_empty() {
        node_label(app, ui, book, id, revealed, actions);
        return;
    }
    let key = ui.make_persistent_id(("opening", id));
    let mut state = CollapsingState::load_with_default_open(ui.ctx(), key, id == 0);
    if reveal.contains(&id) && reveal.last() != Some(&id) {
        state.set_open(true);
    }
    state
        .show_header(ui, |ui| node_label(app, ui, book, id, revealed, actions))
        .body(|ui| {
            for &child in &node.children {
                tree(app, ui, book, child, reveal, actions);
            }
        });
}

/// A node's name (and ECCO code): clicking it puts the line on the board. `revealed`:
/// scroll it into view (it was just found).
fn node_label(
    app: &View,
    ui: &mut Ui,
    book: &OpeningBook,
    id: usize,
    revealed: bool,
    actions: &mut Vec<Action>,
) {
    let node = &book.nodes[id];
    let lang = app.i18n.language().tag();
    let mut text = node.names.get(lang).to_owned();
    if let Some(code) = &node.ecco {
        text = format!("{text}  {}", crate::words::text::ecco_label(code));
    }
    let selected = app.state.openings.selected == Some(id);
    let response = ui
        .selectable_label(selected, text)
        .on_hover_text(node.moves_chinese.join(" "));
    if revealed {
        response.scroll_to_me(Some(egui::Align::Center));
    }
    if response.clicked() {
        actions.push(Action::Openings(OpeningsAction::Show(id)));
    }
}

//! The knowledge reference (知识): a window to browse the rules, terms, tactics, piece
//! values and maxims of `chuhe_core::knowledge` in the user's language, each entry's
//! diagrams on a small board that steps through its line and can be put on the main board;
//! one search box over the reference, the opening tree and the checkmate patterns. Also
//! the board-lines overlay's names, which the View menu and `L` switch on the main board.

use crate::actions::Action;
use crate::actions::*;
use crate::i18n::{I18n, Language};
use crate::state::knowledge::{current_entry, name, text};
use crate::widgets::View;
use crate::widgets::board::{Board, Diagram, Marks};
use crate::widgets::board_menu::{self, Find};
use chuhe_core::knowledge::{self, Entry, ExpectedResult, Hit, Verdict};
use chuhe_core::{Conduct, ForbiddenKind};
use egui::{RichText, Ui};

/// Side of the entry's board diagram.
const DIAGRAM_SIDE: f32 = 300.0;

/// The window, when it is open.
pub fn window(app: &View, ctx: &egui::Context, actions: &mut Vec<Action>) {
    if !app.state.knowledge.open {
        return;
    }
    if app.state.knowledge.settling > 0 {
        actions.push(Action::Knowledge(KnowledgeAction::Settled));
        ctx.request_repaint();
    }
    let mut open = true;
    egui::Window::new(app.i18n.tr("knowledge-title"))
        .constrain_to(crate::widgets::window_area(ctx))
        .id(egui::Id::unique("knowledge window"))
        .open(&mut open)
        .default_size([880.0, 620.0])
        .default_pos([60.0, 60.0])
        .show(ctx, |ui| contents(app, ui, actions));
    if !open {
        actions.push(Action::Knowledge(KnowledgeAction::Toggle));
    }
}

fn push(actions: &mut Vec<Action>, action: KnowledgeAction) {
    actions.push(Action::Knowledge(action));
}

fn contents(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let view = &app.state.knowledge;
    ui.horizontal(|ui| {
        let mut query = view.query.clone();
        let label = ui.label(i18n.tr("knowledge-search"));
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut query)
                    .hint_text(i18n.tr("knowledge-search-hint"))
                    .desired_width(360.0),
            )
            .labelled_by(label.id);
        if field.changed() {
            push(actions, KnowledgeAction::Search(query));
        }
        if !view.query.is_empty() && ui.button(i18n.tr("knowledge-search-clear")).clicked() {
            push(actions, KnowledgeAction::Search(String::new()));
        }
        if ui
            .selectable_label(view.board_lines, i18n.tr("view-board-lines"))
            .clicked()
        {
            push(actions, KnowledgeAction::ToggleBoardLines);
        }
    });
    ui.separator();
    let categories = match knowledge::builtin() {
        Ok(c) => c,
        Err(e) => {
            // Built into the program and read whole by the core's tests: never seen in a
            // release. Where it broke is said; the core's English detail is not.
            ui.colored_label(
                ui.visuals().error_fg_color,
                i18n.tr_args(
                    "knowledge-broken",
                    &[("file", e.file.as_str().into()), ("line", e.line.into())],
                ),
            );
            return;
        }
    };
    if !view.query.trim().is_empty() {
        results(app, ui, actions);
        return;
    }
    let language = i18n.language();
    egui::Panel::left("knowledge index")
        .default_size(230.0)
        .min_size(160.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                for category in categories {
                    let open_here = category
                        .entries
                        .iter()
                        .any(|e| Some(&e.id) == view.entry.as_ref());
                    egui::CollapsingHeader::new(name(&category.names, language))
                        .id_salt(("knowledge category", &category.id))
                        .default_open(open_here || category.id == "rules")
                        .show(ui, |ui| {
                            for entry in &category.entries {
                                let chosen = Some(&entry.id) == view.entry.as_ref();
                                if ui
                                    .selectable_label(chosen, name(&entry.names, language))
                                    .clicked()
                                {
                                    push(actions, KnowledgeAction::Open(entry.id.clone()));
                                }
                            }
                        });
                }
            });
        });
    match current_entry(view) {
        Some(entry) => entry_view(app, ui, entry, actions),
        None => {
            ui.add_space(12.0);
            ui.label(i18n.tr("knowledge-choose"));
        }
    }
}

/// The search results: knowledge entries, openings and patterns that match.
fn results(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let language = i18n.language();
    let hits = knowledge::search(&app.state.knowledge.query);
    if hits.is_empty() {
        ui.weak(i18n.tr("knowledge-no-results"));
        return;
    }
    ui.weak(i18n.tr_args("knowledge-results", &[("count", hits.len().into())]));
    let book = chuhe_core::library::openings::builtin().ok();
    egui::ScrollArea::vertical().show(ui, |ui| {
        for hit in hits {
            let (kind, title) = match &hit {
                Hit::Entry(id) => match knowledge::entry(id) {
                    Some((category, entry)) => (
                        name(&category.names, language).to_owned(),
                        name(&entry.names, language).to_owned(),
                    ),
                    None => continue,
                },
                Hit::Opening(id) => match book.and_then(|b| b.node(*id)) {
                    Some(node) => (
                        i18n.tr("knowledge-kind-opening"),
                        node.names.get(language.tag()).to_owned(),
                    ),
                    None => continue,
                },
                Hit::Pattern(id) => match chuhe_core::library::patterns::pattern(*id) {
                    Some(p) => (
                        i18n.tr("knowledge-kind-pattern"),
                        crate::words::text::name(p, language).to_owned(),
                    ),
                    None => continue,
                },
            };
            ui.horizontal(|ui| {
                ui.weak(format!("[{kind}]"));
                if ui.link(title).clicked() {
                    push(actions, KnowledgeAction::OpenHit(hit.clone()));
                }
            });
        }
    });
}

/// One entry: its text, its sayings, and its diagrams on a small board.
fn entry_view(app: &View, ui: &mut Ui, entry: &Entry, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let language = i18n.language();
    let view = &app.state.knowledge;
    egui::ScrollArea::vertical()
        .id_salt("knowledge entry")
        .show(ui, |ui| {
            ui.heading(name(&entry.names, language));
            ui.add_space(4.0);
            for paragraph in text(&entry.text, language).split('\n') {
                ui.label(paragraph);
            }
            for item in &entry.items {
                ui.add_space(6.0);
                ui.label(RichText::new(text(&item.saying, language)).strong());
                if language == Language::En {
                    // The saying as handed down, for those who read it.
                    ui.weak(&item.saying.zh);
                }
                if let Some(meaning) = &item.meaning {
                    ui.label(text(meaning, language));
                }
            }
            let Some(diagram) = entry.diagrams.get(view.diagram) else {
                return;
            };
            ui.add_space(8.0);
            ui.separator();
            if entry.diagrams.len() > 1 {
                ui.horizontal_wrapped(|ui| {
                    for i in 0..entry.diagrams.len() {
                        let label = i18n.tr_args("knowledge-diagram-n", &[("n", (i + 1).into())]);
                        if ui.selectable_label(i == view.diagram, label).clicked() {
                            push(actions, KnowledgeAction::Diagram(i));
                        }
                    }
                });
            }
            if let Some(caption) = &diagram.caption {
                ui.label(RichText::new(text(caption, language)).italics());
            }
            if let Some(verdict) = diagram.verdict {
                ui.label(RichText::new(verdict_text(i18n, verdict)).strong());
            }
            diagram_board(app, ui, diagram, actions);
        });
}

/// The verdict of a 棋例 example in words.
fn verdict_text(i18n: &I18n, verdict: Verdict) -> String {
    let conduct = |c: Conduct| {
        i18n.tr(match c {
            Conduct::PerpetualCheck => "conduct-perpetual-check",
            Conduct::Forbidden(ForbiddenKind::PerpetualMateThreat) => {
                "conduct-perpetual-mate-threat"
            }
            Conduct::Forbidden(ForbiddenKind::PerpetualChase) => "conduct-perpetual-chase",
            Conduct::Forbidden(ForbiddenKind::CheckAndMateThreat) => "conduct-check-mate-threat",
            Conduct::Forbidden(ForbiddenKind::CheckAndChase) => "conduct-check-chase",
            Conduct::Forbidden(ForbiddenKind::MateThreatAndChase) => "conduct-mate-threat-chase",
            Conduct::Forbidden(ForbiddenKind::CheckMateThreatAndChase) => "conduct-all-three",
            Conduct::Allowed => "conduct-allowed",
        })
    };
    let result = i18n.tr(match verdict.result {
        ExpectedResult::RedWins => "verdict-red-wins",
        ExpectedResult::BlackWins => "verdict-black-wins",
        ExpectedResult::Draw => "verdict-draw",
    });
    i18n.tr_args(
        "knowledge-verdict",
        &[
            ("red", conduct(verdict.red).into()),
            ("black", conduct(verdict.black).into()),
            ("result", result.into()),
        ],
    )
}

/// The diagram on a small board at the step shown, with buttons to step its line and to
/// put it on the main board.
fn diagram_board(app: &View, ui: &mut Ui, diagram: &knowledge::Diagram, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let view = &app.state.knowledge;
    let positions = diagram.positions();
    let Some(position) = positions.get(view.step.min(positions.len().saturating_sub(1))) else {
        ui.colored_label(
            ui.visuals().error_fg_color,
            i18n.tr("knowledge-bad-diagram"),
        );
        return;
    };
    let moves = diagram.replay().map(|(_, m)| m).unwrap_or_default();
    let last = view.step.checked_sub(1).and_then(|i| moves.get(i));
    let theme = app.state.settings.theme.theme();
    let marks = Marks {
        coordinates: app.state.settings.coordinates,
        last_move: last.map(|m| (m.from, m.to)),
        check: position
            .is_check()
            .then(|| position.general(position.side_to_move())),
        traditional: i18n.language() == Language::ZhTw,
        ..Marks::default()
    };
    let diagram_picture = Diagram::from_position(position);
    ui.allocate_ui(egui::Vec2::splat(DIAGRAM_SIDE), |ui| {
        ui.add(Board::new(&diagram_picture, &marks, &theme))
    })
    .inner
    .context_menu(|ui| {
        board_menu::find_position(ui, i18n, Find::Shown(position), actions);
    });
    ui.horizontal(|ui| {
        let len = diagram.line.len();
        if len > 0 {
            let step = view.step;
            for (label, to, enabled) in [
                ("◀◀", 0, step > 0),
                ("◀", step.saturating_sub(1), step > 0),
                ("▶", (step + 1).min(len), step < len),
                ("▶▶", len, step < len),
            ] {
                if ui.add_enabled(enabled, egui::Button::new(label)).clicked() {
                    push(actions, KnowledgeAction::Step(to));
                }
            }
            ui.label(i18n.tr_args(
                "knowledge-step",
                &[("step", step.into()), ("total", len.into())],
            ));
        }
        if ui.button(i18n.tr("knowledge-to-board")).clicked() {
            push(actions, KnowledgeAction::ToBoard);
        }
    });
    if !moves.is_empty() {
        // The line in the user's notation, the moves played so far in bold.
        let mut pos = positions[0].clone();
        ui.horizontal_wrapped(|ui| {
            for (ply, &m) in moves.iter().enumerate() {
                let written = app.move_text(&pos, m);
                let label = if ply < view.step {
                    RichText::new(written).strong()
                } else {
                    RichText::new(written)
                };
                if ui.link(label).clicked() {
                    push(actions, KnowledgeAction::Step(ply + 1));
                }
                pos.play_unchecked(m);
            }
        });
    }
}

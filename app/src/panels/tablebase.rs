//! The endgame-table section of the side panel (verdict, moves by outcome, practice) and
//! the endgame browser window.

use crate::actions::Action;
use crate::actions::*;
use crate::state::tablebase::{Class, PracticeMessage, Want, class_id, verdict_text};
use crate::widgets::View;
use crate::words::text::{mate_moves, mate_text, material_name, problem_text};
use chuhe_core::tb::{Material, TbValue};
use egui::{RichText, Ui};

/// Draws the section when the board's position has a table's material.
pub fn show(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let wdl = app.palette().wdl;
    let state = &app.state;
    let tbs = &state.tablebase;
    let pos = state.position();
    let Some(material) = Material::of(pos) else {
        return;
    };
    ui.separator();
    if state.engine_help_barred() {
        // The table's verdict and moves would tell the player how to play.
        return;
    }
    ui.horizontal(|ui| {
        ui.strong(i18n.tr("tb-title"));
        ui.weak(material_name(i18n, &material));
        if ui.small_button(i18n.tr("tb-browser")).clicked() {
            actions.push(Action::Tablebase(TbAction::ToggleBrowser));
        }
    });
    progress(app, ui);
    if let Some(error) = &tbs.error {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            i18n.tr_args("tb-error", &[("error", problem_text(i18n, error).into())]),
        );
    }
    let Some(analysis) = tbs.analysis_of(pos) else {
        if tbs.generating.is_none() {
            ui.horizontal_wrapped(|ui| {
                let label = i18n.tr_args(
                    "tb-generate",
                    &[("material", material_name(i18n, &material).into())],
                );
                if ui.button(label).clicked() {
                    actions.push(Action::Tablebase(TbAction::Generate(material.clone())));
                }
                ui.weak(i18n.tr("tb-generate-note"));
            });
        }
        return;
    };
    ui.label(RichText::new(verdict_text(i18n, pos, analysis)).strong());
    // Practice.
    match &tbs.practice {
        Some(p) => {
            ui.horizontal_wrapped(|ui| {
                let side = i18n.tr(if p.user == chuhe_core::Color::Red {
                    "tb-side-red"
                } else {
                    "tb-side-black"
                });
                ui.label(i18n.tr_args("tb-practise-you", &[("side", side.into())]));
                if ui.small_button(i18n.tr("tb-practise-stop")).clicked() {
                    actions.push(Action::Tablebase(TbAction::StopPractice));
                }
            });
            if let Some(message) = p.message {
                let text = match message {
                    PracticeMessage::Mistake(from, to) => i18n.tr_args(
                        "tb-practise-mistake",
                        &[
                            ("from", i18n.tr(class_id(from)).into()),
                            ("to", i18n.tr(class_id(to)).into()),
                        ],
                    ),
                    PracticeMessage::Won => i18n.tr("tb-practise-won"),
                    PracticeMessage::Lost => i18n.tr("tb-practise-lost"),
                    PracticeMessage::Drawn => i18n.tr("tb-practise-drawn"),
                };
                let colour = match message {
                    PracticeMessage::Mistake(..) | PracticeMessage::Lost => wdl.loss,
                    PracticeMessage::Won => wdl.fastest,
                    PracticeMessage::Drawn => wdl.draw,
                };
                ui.colored_label(colour, text);
            }
        }
        None => {
            if !analysis.moves.is_empty() {
                ui.horizontal_wrapped(|ui| {
                    // "Win this as Red" comes back in training until it is remembered.
                    if analysis.value.is_win()
                        && ui.button(i18n.tr("training-add-endgame")).clicked()
                    {
                        actions.push(Action::Train(TrainAction::AddEndgame));
                    }
                    if ui.button(i18n.tr("tb-practise")).clicked() {
                        actions.push(Action::Tablebase(TbAction::StartPractice {
                            table_first: false,
                        }));
                    }
                    if ui.button(i18n.tr("tb-practise-other")).clicked() {
                        actions.push(Action::Tablebase(TbAction::StartPractice {
                            table_first: true,
                        }));
                    }
                });
            }
        }
    }
    // Every move, coloured by what it leads to; a click plays it.
    let best = analysis.moves.first().map(|m| m.value.rank());
    egui::ScrollArea::vertical()
        .id_salt("tablebase moves")
        .max_height(180.0)
        .show(ui, |ui| {
            for mv in &analysis.moves {
                let (colour, id) = match Class::of(mv.value) {
                    Class::Win if Some(mv.value.rank()) == best => {
                        (wdl.fastest, "tb-move-wins-fastest")
                    }
                    Class::Win => (wdl.win, "tb-move-wins"),
                    Class::Draw => (wdl.draw, "tb-move-draws"),
                    Class::Loss => (wdl.loss, "tb-move-loses"),
                };
                let mut text = format!("{}  {}", app.move_text(pos, mv.mv), i18n.tr(id));
                if let Some(plies) = mv.value.dtm() {
                    // The value is the mover's: a loss is the other side's mate.
                    let stm = pos.side_to_move();
                    let winner = if mv.value.is_win() { stm } else { !stm };
                    text.push_str("  ");
                    text.push_str(&mate_text(i18n, winner, mate_moves(u32::from(plies))));
                }
                if matches!(mv.value, TbValue::RuleWin | TbValue::RuleLoss) {
                    text.push_str("  ");
                    text.push_str(&i18n.tr("tb-move-rule"));
                }
                let button = egui::Button::new(RichText::new(text).color(colour)).frame(false);
                if ui.add(button).clicked() {
                    actions.push(Action::Study(StudyAction::PlayMove(mv.mv)));
                }
            }
        });
}

/// The job's progress, if one runs.
fn progress(app: &View, ui: &mut Ui) {
    let tbs = &app.state.tablebase;
    if tbs.generating.is_none() {
        return;
    }
    let (code, fraction) = tbs.progress.clone();
    let name = code
        .parse::<Material>()
        .map_or(code, |m| material_name(app.i18n, &m));
    ui.label(
        app.i18n
            .tr_args("tb-generating", &[("material", name.into())]),
    );
    ui.add(egui::ProgressBar::new(fraction.clamp(0.0, 1.0)).show_percentage());
    ui.ctx()
        .request_repaint_after(std::time::Duration::from_millis(200));
}

/// The endgame browser: choose a material and a verdict, get a position to practise, or
/// the table's longest win.
pub fn browser(app: &View, ctx: &egui::Context, actions: &mut Vec<Action>) {
    let tbs = &app.state.tablebase;
    if !tbs.browser.open {
        return;
    }
    let i18n = &app.i18n;
    let mut open = true;
    egui::Window::new(i18n.tr("tb-browser-title"))
        .constrain_to(crate::widgets::window_area(ctx))
        .open(&mut open)
        .resizable(false)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label(i18n.tr("tb-browser-material"));
                egui::ComboBox::from_id_salt("tablebase material")
                    .selected_text(
                        tbs.browser
                            .material
                            .parse::<Material>()
                            .map_or(tbs.browser.material.clone(), |m| material_name(i18n, &m)),
                    )
                    .show_ui(ui, |ui| {
                        for m in Material::classics() {
                            let code = m.to_string();
                            if ui
                                .selectable_label(
                                    tbs.browser.material == code,
                                    material_name(i18n, &m),
                                )
                                .clicked()
                            {
                                actions.push(Action::Tablebase(TbAction::BrowserMaterial(code)));
                            }
                        }
                    });
            });
            ui.horizontal(|ui| {
                for (want, id) in [
                    (Want::RedWins, "tb-want-red-wins"),
                    (Want::Draw, "tb-want-draw"),
                    (Want::BlackWins, "tb-want-black-wins"),
                ] {
                    if ui
                        .selectable_label(tbs.browser.want == want, i18n.tr(id))
                        .clicked()
                    {
                        actions.push(Action::Tablebase(TbAction::BrowserWant(want)));
                    }
                }
            });
            progress(app, ui);
            let material = tbs.browser.material.parse::<Material>().ok();
            let loaded = material
                .as_ref()
                .is_some_and(|m| chuhe_core::tb::global().loaded(m).is_some());
            if !loaded {
                if let Some(m) = material
                    && tbs.generating.is_none()
                    && ui
                        .button(i18n.tr_args(
                            "tb-generate",
                            &[("material", material_name(i18n, &m).into())],
                        ))
                        .clicked()
                {
                    actions.push(Action::Tablebase(TbAction::Generate(m)));
                }
                return;
            }
            ui.horizontal(|ui| {
                if ui.button(i18n.tr("tb-random")).clicked() {
                    actions.push(Action::Tablebase(TbAction::BrowserRandom));
                }
                if ui.button(i18n.tr("tb-longest")).clicked() {
                    actions.push(Action::Tablebase(TbAction::BrowserLongest));
                }
            });
        });
    if !open {
        actions.push(Action::Tablebase(TbAction::ToggleBrowser));
    }
}

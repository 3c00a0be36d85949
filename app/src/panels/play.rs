//! Playing a game: the Play menu, the new-game dialog, and the bar above the board with
//! the players, their clocks and what can be done in the game (take back, draw, resign).

use crate::actions::Action;
use crate::actions::*;
use crate::state::play::{ClockChoice, PlaySetup, Player, format_clock};
use crate::widgets::View;
use crate::words::text::result_text;
use chuhe_core::Color;
use chuhe_core::play::{Level, TimeControlKind};
use egui::{RichText, Ui};

/// Text size of the clocks, in points: readable from across a table.
const CLOCK_SIZE: f32 = 26.0;

/// The level's name.
pub fn level_name(app: &View, level: Level) -> String {
    app.i18n.tr(match level.number() {
        1 => "level-1",
        2 => "level-2",
        3 => "level-3",
        4 => "level-4",
        5 => "level-5",
        _ => "level-6",
    })
}

/// The name of a time control.
pub fn control_name(app: &View, choice: ClockChoice) -> String {
    let i18n = &app.i18n;
    match choice {
        ClockChoice::None => i18n.tr("clock-none"),
        ClockChoice::Control(kind) => i18n.tr(match kind {
            TimeControlKind::Classical => "clock-classical",
            TimeControlKind::Standard => "clock-standard",
            TimeControlKind::Rapid => "clock-rapid",
            TimeControlKind::Repeating => "clock-repeating",
            TimeControlKind::SuddenDeath(_) => "clock-sudden-death",
            TimeControlKind::Trial2007 => "clock-trial",
        }),
    }
}

/// The new-game dialog, while it is open.
pub fn setup_dialog(app: &View, ctx: &egui::Context, actions: &mut Vec<Action>) {
    let Some(setup) = &app.state.play_setup else {
        return;
    };
    let i18n = &app.i18n;
    let mut edited: PlaySetup = setup.clone();
    let mut open = true;
    let title = i18n.tr(if setup.against_engine {
        "play-new-engine"
    } else {
        "play-new-hot-seat"
    });
    egui::Window::new(title)
        .constrain_to(crate::widgets::window_area(ctx))
        .collapsible(false)
        .resizable(false)
        .open(&mut open)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            egui::Grid::new("play setup grid")
                .num_columns(2)
                .spacing([12.0, 8.0])
                .show(ui, |ui| {
                    ui.label(i18n.tr("play-opponent"));
                    ui.horizontal(|ui| {
                        ui.radio_value(&mut edited.against_engine, true, i18n.tr("play-vs-engine"));
                        ui.radio_value(
                            &mut edited.against_engine,
                            false,
                            i18n.tr("play-vs-person"),
                        );
                    });
                    ui.end_row();
                    if edited.against_engine {
                        let label = ui.label(i18n.tr("play-level"));
                        egui::ComboBox::from_id_salt("play level")
                            .selected_text(level_name(app, edited.level))
                            .show_ui(ui, |ui| {
                                for level in Level::ALL {
                                    ui.selectable_value(
                                        &mut edited.level,
                                        level,
                                        level_name(app, level),
                                    );
                                }
                            })
                            .response
                            .labelled_by(label.id);
                        ui.end_row();
                        ui.label(i18n.tr("play-your-colour"));
                        ui.horizontal(|ui| {
                            ui.radio_value(&mut edited.human, Color::Red, i18n.tr("play-take-red"));
                            ui.radio_value(
                                &mut edited.human,
                                Color::Black,
                                i18n.tr("play-take-black"),
                            );
                        });
                        ui.end_row();
                    }
                    ui.label(i18n.tr("play-start-from"));
                    ui.horizontal(|ui| {
                        ui.radio_value(&mut edited.from_board, false, i18n.tr("play-from-start"));
                        ui.radio_value(&mut edited.from_board, true, i18n.tr("play-from-board"));
                    });
                    ui.end_row();
                    let label = ui.label(i18n.tr("play-clock"));
                    ui.horizontal(|ui| {
                        egui::ComboBox::from_id_salt("play clock")
                            .selected_text(control_name(app, edited.clock))
                            .show_ui(ui, |ui| {
                                let choices = std::iter::once(ClockChoice::None).chain(
                                    chuhe_core::play::TimeControl::presets()
                                        .into_iter()
                                        .map(|c| ClockChoice::Control(c.kind)),
                                );
                                for choice in choices {
                                    let name = control_name(app, choice);
                                    ui.selectable_value(&mut edited.clock, choice, name);
                                }
                            })
                            .response
                            .labelled_by(label.id);
                        if matches!(
                            edited.clock,
                            ClockChoice::Control(TimeControlKind::SuddenDeath(_))
                        ) {
                            ui.add(
                                egui::DragValue::new(&mut edited.sudden_minutes)
                                    .range(1..=600)
                                    .suffix(i18n.tr("clock-minutes-suffix")),
                            );
                        }
                    });
                    ui.end_row();
                    if edited.against_engine {
                        ui.label("");
                        ui.checkbox(&mut edited.assist, i18n.tr("play-assist"))
                            .on_hover_text(i18n.tr("play-assist-note"));
                        ui.end_row();
                    }
                });
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button(i18n.tr("play-start")).clicked() {
                    actions.push(Action::Play(PlayAction::Start(edited.clone())));
                }
                if ui.button(i18n.tr("dialog-cancel")).clicked() {
                    actions.push(Action::Play(PlayAction::CloseSetup));
                }
            });
        });
    if !open {
        actions.push(Action::Play(PlayAction::CloseSetup));
    } else if &edited != setup {
        actions.push(Action::Play(PlayAction::EditSetup(edited)));
    }
}

/// The bar above the board during a game: both players with their clocks (the side to
/// move lit), the engine thinking, a draw offer to answer, the result, and the game's
/// buttons.
pub fn bar(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let Some(m) = &app.state.play else {
        return;
    };
    let i18n = &app.i18n;
    let record = &app.state.study.record;
    let to_move = crate::state::play::side_to_move(record);
    let theme = app.state.settings.theme.theme();
    ui.horizontal_wrapped(|ui| {
        for side in [Color::Red, Color::Black] {
            let name = match m.player(side) {
                Player::Human => record
                    .headers()
                    .get(if side == Color::Red { "Red" } else { "Black" })
                    .unwrap_or_default()
                    .to_owned(),
                Player::Engine(level) => level_name(app, level),
            };
            let lit = m.result.is_none() && side == to_move;
            let colour = if side == Color::Red {
                theme.eval_red
            } else {
                ui.visuals().strong_text_color()
            };
            let mut frame =
                egui::Frame::group(ui.style()).inner_margin(egui::Margin::symmetric(10, 4));
            // The player to move is lit; a group frame is otherwise unfilled.
            if lit {
                frame = frame.fill(ui.visuals().selection.bg_fill);
            }
            frame.show(ui, |ui| {
                ui.vertical(|ui| {
                    let side_name = i18n.tr(if side == Color::Red {
                        "play-side-red"
                    } else {
                        "play-side-black"
                    });
                    ui.label(RichText::new(format!("{side_name} · {name}")).color(colour));
                    if let Some(left) = m.time_left(side, to_move) {
                        ui.label(
                            RichText::new(format_clock(left))
                                .size(CLOCK_SIZE)
                                .monospace(),
                        );
                    }
                });
            });
        }
        ui.separator();
        if let Some(result) = &m.result {
            ui.label(RichText::new(result_text(i18n, result)).strong().size(18.0));
            if ui.button(i18n.tr("play-again")).clicked() {
                actions.push(Action::Play(PlayAction::OpenSetup {
                    against_engine: m.against_engine(),
                }));
            }
            if ui.button(i18n.tr("play-close")).clicked() {
                actions.push(Action::Play(PlayAction::Leave));
            }
            return;
        }
        if m.is_thinking() {
            ui.spinner();
            ui.label(i18n.tr("play-thinking"));
        }
        if let Some(offerer) = m.draw_offer {
            let who = i18n.tr(if offerer == Color::Red {
                "play-side-red"
            } else {
                "play-side-black"
            });
            ui.label(i18n.tr_args("play-draw-offered", &[("side", who.into())]));
            if ui.button(i18n.tr("play-accept-draw")).clicked() {
                actions.push(Action::Play(PlayAction::AcceptDraw));
            }
            if ui.button(i18n.tr("play-decline-draw")).clicked() {
                actions.push(Action::Play(PlayAction::DeclineDraw));
            }
        } else {
            if m.against_engine() {
                let mut assist = m.assist;
                if ui
                    .checkbox(&mut assist, i18n.tr("play-assist"))
                    .on_hover_text(i18n.tr("play-assist-note"))
                    .changed()
                {
                    actions.push(Action::Play(PlayAction::SetAssist(assist)));
                }
            }
            for (id, action) in [
                ("play-take-back", PlayAction::TakeBack),
                ("play-offer-draw", PlayAction::AskDrawOffer),
                ("play-resign", PlayAction::AskResign),
            ] {
                if ui.button(i18n.tr(id)).clicked() {
                    actions.push(Action::Play(action));
                }
            }
        }
    });
}

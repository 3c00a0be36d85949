//! The club manager window: the club's players and grade groups, each group's tournament
//! round by round with results entered by clicking, the standings with their tie-break
//! columns and the top three marked, attached games, and the printable exports.

use crate::actions::Action;
use crate::actions::*;
use crate::state::club::{Draft, award, group_id, result_id, standings_columns, standings_row};
use crate::widgets::View;
use crate::words::text::problem_text;
use chuhe_core::club::{Club, Format, GameResult, GradeGroup, Tournament};
use egui::{RichText, Ui};

fn push(actions: &mut Vec<Action>, action: ClubAction) {
    actions.push(Action::Club(action));
}

/// Draws the window when it is open.
pub fn window(app: &View, ctx: &egui::Context, actions: &mut Vec<Action>) {
    if !app.state.club.open {
        return;
    }
    let mut open = true;
    egui::Window::new(app.i18n.tr("club-title"))
        .constrain_to(crate::widgets::window_area(ctx))
        .open(&mut open)
        .default_size([860.0, 640.0])
        .default_pos([50.0, 50.0])
        .vscroll(true)
        .show(ctx, |ui| show(app, ui, actions));
    if !open {
        push(actions, ClubAction::Toggle);
    }
}

fn show(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let state = &app.state.club;
    let draft = &state.draft;
    ui.horizontal_wrapped(|ui| {
        let choose = ui.label(i18n.tr("club-choose"));
        let current = state
            .current
            .as_ref()
            .map(|o| o.club.name.clone())
            .unwrap_or_else(|| i18n.tr("club-none"));
        egui::ComboBox::from_id_salt("club_choice")
            .selected_text(current)
            .show_ui(ui, |ui| {
                for file in &state.files {
                    let chosen = state.current.as_ref().is_some_and(|o| o.path == file.path);
                    match &file.name {
                        Ok(name) => {
                            if ui.selectable_label(chosen, name).clicked() {
                                push(actions, ClubAction::Open(file.path.clone()));
                            }
                        }
                        Err(problem) => {
                            let name = file
                                .path
                                .file_name()
                                .map(|n| n.to_string_lossy().into_owned())
                                .unwrap_or_default();
                            ui.colored_label(
                                ui.visuals().warn_fg_color,
                                format!("{name}: {}", problem_text(i18n, problem)),
                            );
                        }
                    }
                }
            })
            .response
            .labelled_by(choose.id);
        ui.separator();
        let label = ui.label(i18n.tr("club-new-name"));
        let mut name = draft.club_name.clone();
        let field = ui
            .add(egui::TextEdit::singleline(&mut name).desired_width(160.0))
            .labelled_by(label.id);
        if name != draft.club_name {
            push(
                actions,
                ClubAction::EditDraft(Draft {
                    club_name: name.clone(),
                    ..draft.clone()
                }),
            );
        }
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui
            .add_enabled(
                !name.trim().is_empty(),
                egui::Button::new(i18n.tr("club-create")),
            )
            .clicked()
            || (enter && !name.trim().is_empty())
        {
            push(actions, ClubAction::NewClub);
        }
    });
    for file in &state.files {
        if let Err(problem) = &file.name {
            let name = file.path.display().to_string();
            ui.colored_label(
                ui.visuals().warn_fg_color,
                i18n.tr_args(
                    "club-file-broken",
                    &[
                        ("file", name.into()),
                        ("error", problem_text(i18n, problem).into()),
                    ],
                ),
            );
        }
    }
    if let Some(problem) = &state.problem {
        ui.colored_label(ui.visuals().warn_fg_color, problem_text(i18n, problem));
    }
    let Some(open) = &state.current else {
        return;
    };
    let club = &open.club;
    ui.separator();
    if ui.button(i18n.tr("club-class-record")).clicked() {
        push(actions, ClubAction::OpenClassRecordDialog);
    }
    players(app, club, ui, actions);
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        for group in GradeGroup::ALL {
            let count = club.players.iter().filter(|p| p.group == group).count();
            let text = i18n.tr_args(
                "club-group-tab",
                &[
                    ("group", i18n.tr(group_id(group)).into()),
                    ("count", count.into()),
                ],
            );
            if ui.selectable_label(state.group == group, text).clicked() {
                push(actions, ClubAction::ShowGroup(group));
            }
        }
    });
    match club.tournament(state.group) {
        Some(t) => tournament(app, club, t, ui, actions),
        None => new_tournament(app, club.group_players(state.group).len(), ui, actions),
    }
}

/// The players: one line each, and the form to add one.
fn players(app: &View, club: &Club, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let draft = &app.state.club.draft;
    egui::CollapsingHeader::new(
        i18n.tr_args("club-players", &[("count", club.players.len().into())]),
    )
    .id_salt("club_players")
    .default_open(true)
    .show(ui, |ui| {
        egui::Grid::new("club_players_grid")
            .striped(true)
            .show(ui, |ui| {
                for p in &club.players {
                    ui.label(&p.name);
                    ui.label(i18n.tr(group_id(p.group)));
                    if !app.state.club.class_scores.is_empty() {
                        // The class's quiz points, where the name matches a student's.
                        match app.state.club.class_score(&p.name) {
                            Some(score) => ui.label(i18n.tr_args(
                                "club-class-points",
                                &[
                                    ("points", score.points.into()),
                                    ("answered", score.answered.into()),
                                ],
                            )),
                            None => ui.label(""),
                        };
                    }
                    // A player in a tournament stays: his games are part of it.
                    if ui
                        .add_enabled(
                            !club.plays(p.id),
                            egui::Button::new(i18n.tr("club-remove-player")).small(),
                        )
                        .clicked()
                    {
                        push(actions, ClubAction::RemovePlayer(p.id));
                    }
                    ui.end_row();
                }
            });
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(i18n.tr("club-player-name"));
            let mut name = draft.player_name.clone();
            let field = ui
                .add(egui::TextEdit::singleline(&mut name).desired_width(140.0))
                .labelled_by(label.id);
            let mut group = draft.player_group;
            let group_label = ui.label(i18n.tr("club-player-group"));
            egui::ComboBox::from_id_salt("club_player_group")
                .selected_text(i18n.tr(group_id(group)))
                .show_ui(ui, |ui| {
                    for g in GradeGroup::ALL {
                        ui.selectable_value(&mut group, g, i18n.tr(group_id(g)));
                    }
                })
                .response
                .labelled_by(group_label.id);
            if name != draft.player_name || group != draft.player_group {
                push(
                    actions,
                    ClubAction::EditDraft(Draft {
                        player_name: name.clone(),
                        player_group: group,
                        ..draft.clone()
                    }),
                );
            }
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let ok = !name.trim().is_empty();
            if ui
                .add_enabled(ok, egui::Button::new(i18n.tr("club-add-player")))
                .clicked()
                || (enter && ok)
            {
                push(actions, ClubAction::AddPlayer);
                // Ready for the next name.
                field.request_focus();
            }
        });
    });
}

/// The group has no tournament yet: round robin or Swiss, and start it.
fn new_tournament(app: &View, players: usize, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let draft = &app.state.club.draft;
    ui.label(i18n.tr("club-no-tournament"));
    // A big group takes many weeks to play everyone: say what a Swiss would take (the
    // usual ⌈log2 n⌉ + 2 rounds).
    if players > 10 {
        let round_robin = chuhe_core::club::berger_table(players).len();
        let swiss = (usize::BITS - (players - 1).leading_zeros()) as usize + 2;
        ui.weak(i18n.tr_args(
            "club-swiss-suggest",
            &[
                ("players", players.into()),
                ("roundrobin", round_robin.into()),
                ("swiss", swiss.into()),
            ],
        ));
    }
    let mut next = draft.clone();
    ui.horizontal_wrapped(|ui| {
        ui.radio_value(&mut next.swiss, false, i18n.tr("club-format-round-robin"));
        ui.radio_value(&mut next.swiss, true, i18n.tr("club-format-swiss"));
        if next.swiss {
            let label = ui.label(i18n.tr("club-swiss-rounds"));
            ui.add(egui::DragValue::new(&mut next.swiss_rounds).range(1..=30))
                .labelled_by(label.id);
        }
    });
    ui.checkbox(&mut next.draw_lots, i18n.tr("club-draw-lots"))
        .on_hover_text(i18n.tr("club-draw-lots-hint"));
    if next != *draft {
        push(actions, ClubAction::EditDraft(next));
    }
    if ui.button(i18n.tr("club-create-tournament")).clicked() {
        push(actions, ClubAction::CreateTournament);
    }
}

/// A tournament: its rounds, the round shown, the standings and the exports.
fn tournament(app: &View, club: &Club, t: &Tournament, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let shown = app.state.club.round.min(t.rounds.len().saturating_sub(1));
    let format = match t.format {
        Format::RoundRobin => i18n.tr("club-format-round-robin"),
        Format::Swiss { .. } => i18n.tr("club-format-swiss"),
    };
    let played = t.rounds.iter().filter(|r| r.is_complete()).count();
    ui.label(i18n.tr_args(
        "club-page-subtitle",
        &[
            ("format", format.into()),
            ("players", t.players.len().into()),
            ("played", played.into()),
            ("rounds", t.total_rounds().into()),
        ],
    ));
    ui.horizontal_wrapped(|ui| {
        for r in 0..t.rounds.len() {
            let text = i18n.tr_args("club-round", &[("round", (r + 1).into())]);
            if ui.selectable_label(r == shown, text).clicked() {
                push(actions, ClubAction::ShowRound(r));
            }
        }
        if t.can_pair_next() && ui.button(i18n.tr("club-pair-next")).clicked() {
            push(actions, ClubAction::PairNextRound);
        }
    });
    if let Some(round) = t.rounds.get(shown) {
        egui::Grid::new(("club_round", shown))
            .striped(true)
            .show(ui, |ui| {
                for id in [
                    "club-board",
                    "club-red",
                    "club-result",
                    "club-black",
                    "club-fouls",
                    "club-game",
                ] {
                    ui.strong(i18n.tr(id));
                }
                ui.end_row();
                for (board, p) in round.pairings.iter().enumerate() {
                    ui.label((board + 1).to_string());
                    let red_name =
                        ui.label(RichText::new(club.name_of(p.red)).color(app.palette().red_name));
                    ui.horizontal(|ui| {
                        for result in &GameResult::ALL[..3] {
                            let (text, result) = (result.short(), *result);
                            if ui
                                .selectable_label(p.result == Some(result), text)
                                .on_hover_text(i18n.tr(result_id(result)))
                                .clicked()
                            {
                                let result = if p.result == Some(result) {
                                    None
                                } else {
                                    Some(result)
                                };
                                push(
                                    actions,
                                    ClubAction::SetResult {
                                        round: shown,
                                        board,
                                        result,
                                    },
                                );
                            }
                        }
                        let forfeit = p.result.filter(|r| {
                            matches!(
                                r,
                                GameResult::RedForfeits
                                    | GameResult::BlackForfeits
                                    | GameResult::BothForfeit
                            )
                        });
                        let forfeit_text = match forfeit {
                            Some(r) => format!("{} {}", i18n.tr("club-forfeit"), r.short()),
                            None => i18n.tr("club-forfeit"),
                        };
                        ui.menu_button(forfeit_text, |ui| {
                            // The forfeits, then clearing the result.
                            let choices = GameResult::ALL[3..].iter().map(|&r| Some(r));
                            for result in choices.chain([None]) {
                                let label = match result {
                                    Some(r) => i18n.tr(result_id(r)),
                                    None => i18n.tr("club-result-clear"),
                                };
                                let selected = result.is_some() && p.result == result;
                                if ui.selectable_label(selected, label).clicked() {
                                    push(
                                        actions,
                                        ClubAction::SetResult {
                                            round: shown,
                                            board,
                                            result,
                                        },
                                    );
                                }
                            }
                        });
                    });
                    let black_name = ui.label(club.name_of(p.black));
                    // Each player's fouls, named after the player for screen readers.
                    ui.horizontal(|ui| {
                        let (mut red, mut black) = (p.red_fouls, p.black_fouls);
                        ui.add(egui::DragValue::new(&mut red).range(0..=99))
                            .labelled_by(red_name.id)
                            .on_hover_text(i18n.tr("club-red"));
                        ui.add(egui::DragValue::new(&mut black).range(0..=99))
                            .labelled_by(black_name.id)
                            .on_hover_text(i18n.tr("club-black"));
                        if (red, black) != (p.red_fouls, p.black_fouls) {
                            push(
                                actions,
                                ClubAction::SetFouls {
                                    round: shown,
                                    board,
                                    red,
                                    black,
                                },
                            );
                        }
                    });
                    ui.horizontal(|ui| {
                        if ui
                            .small_button(i18n.tr("club-attach"))
                            .on_hover_text(i18n.tr("club-attach-hint"))
                            .clicked()
                        {
                            push(
                                actions,
                                ClubAction::AttachGame {
                                    round: shown,
                                    board,
                                },
                            );
                        }
                        if p.game.is_some() && ui.small_button(i18n.tr("club-open-game")).clicked()
                        {
                            push(
                                actions,
                                ClubAction::OpenGame {
                                    round: shown,
                                    board,
                                },
                            );
                        }
                    });
                    ui.end_row();
                }
            });
        if let Some(bye) = round.bye {
            ui.label(i18n.tr_args("club-bye", &[("name", club.name_of(bye).into())]));
        }
    }
    ui.add_space(8.0);
    ui.heading(i18n.tr("club-standings"));
    let standings = t.standings();
    egui::Grid::new("club_standings")
        .striped(true)
        .show(ui, |ui| {
            for heading in standings_columns(t, i18n) {
                ui.strong(heading);
            }
            ui.end_row();
            for line in &standings {
                let row = standings_row(club, t, line, i18n);
                let medal = !award(line, i18n).is_empty();
                for cell in row {
                    if medal {
                        ui.label(RichText::new(cell).strong().color(app.palette().accent));
                    } else {
                        ui.label(cell);
                    }
                }
                ui.end_row();
            }
        });
    ui.weak(i18n.tr(crate::state::club::tie_break_note_id(t.format)));
    ui.horizontal(|ui| {
        if ui.button(i18n.tr("club-export-csv")).clicked() {
            push(actions, ClubAction::ExportCsvDialog);
        }
        if ui.button(i18n.tr("club-export-png")).clicked() {
            push(actions, ClubAction::ExportPngDialog);
        }
        // Before the first result a tournament can be started again (a player forgotten).
        if !t.has_results()
            && ui
                .button(i18n.tr("club-cancel-tournament"))
                .on_hover_text(i18n.tr("club-cancel-hint"))
                .clicked()
        {
            push(actions, ClubAction::CancelTournament);
        }
    });
}

//! The 36 checkmate patterns (杀法): a gallery of diagrams, one pattern open to read and
//! step through its solution, and practice, where the user plays the attacking side and
//! the mate prover defends (on a background thread, so the window never waits). Solved
//! examples are kept in the settings.

use crate::actions::Action;
use crate::actions::*;
use crate::i18n::{I18n, Language};
use crate::state::patterns::{example, solved_key};
use crate::widgets::View;
use crate::widgets::board::{Board, BoardArrow, Diagram, Marks};
use crate::widgets::board_input::{BoardEvent, BoardInput, Pick};
use crate::widgets::board_menu::{self, Find};
use crate::words::text::*;
use chuhe_core::library::patterns::{self, Example, Pattern};
use chuhe_core::{Color, Move, Position};
use egui::{RichText, Ui, Vec2};

/// Side of a gallery diagram.
const THUMBNAIL: f32 = 170.0;

/// Draws the browser in the central area.
pub fn show(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let Ok(library) = patterns::library() else {
        ui.label(app.i18n.tr("patterns-unavailable"));
        return;
    };
    match app.state.patterns.selected {
        None => gallery(app, ui, library, actions),
        Some((id, index)) => match example(id, index) {
            Some((pattern, ex)) => detail(app, ui, pattern, index, ex, actions),
            None => gallery(app, ui, library, actions),
        },
    }
}

fn gallery(app: &View, ui: &mut Ui, library: &[Pattern], actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let language = i18n.language();
    let solved = &app.state.settings.patterns_solved;
    let theme = app.state.settings.theme.theme();
    ui.horizontal(|ui| {
        ui.heading(i18n.tr("patterns-title"));
        let done = library
            .iter()
            .filter(|p| (0..p.examples.len()).any(|i| solved.contains(&solved_key(p.id, i))))
            .count();
        ui.label(i18n.tr_args(
            "patterns-progress",
            &[("done", done.into()), ("total", library.len().into())],
        ));
        if ui.button(i18n.tr("patterns-close")).clicked() {
            actions.push(Action::Patterns(PatternAction::Close));
        }
    });
    ui.separator();
    egui::ScrollArea::vertical().show(ui, |ui| {
        let per_row = ((ui.available_width() / (THUMBNAIL + 16.0)) as usize).max(1);
        egui::Grid::new("pattern_gallery")
            .spacing(Vec2::new(12.0, 12.0))
            .show(ui, |ui| {
                for (n, pattern) in library.iter().enumerate() {
                    ui.vertical(|ui| {
                        ui.set_width(THUMBNAIL);
                        if let Some(ex) = pattern.examples.first()
                            && let Ok(pos) = ex.fen.parse::<Position>()
                        {
                            let diagram = Diagram::from_position(&pos);
                            // The attacker at the bottom, as in the pattern's own view.
                            let marks = Marks {
                                flipped: pos.side_to_move() == Color::Black,
                                traditional: language == Language::ZhTw,
                                ..Marks::default()
                            };
                            let (response, _) = ui
                                .allocate_ui(Vec2::splat(THUMBNAIL), |ui| {
                                    Board::new(&diagram, &marks, &theme).show(ui)
                                })
                                .inner;
                            if response.clicked() {
                                actions.push(Action::Patterns(PatternAction::Open(pattern.id, 0)));
                            }
                            response.context_menu(|ui| {
                                board_menu::find_position(ui, i18n, Find::Shown(&pos), actions);
                            });
                        }
                        let done = (0..pattern.examples.len())
                            .any(|i| solved.contains(&solved_key(pattern.id, i)));
                        let mark = if done { " ★" } else { "" };
                        let label = format!("{}. {}{mark}", pattern.id, name(pattern, language));
                        if let Some(ex) = pattern.examples.first()
                            && let Ok(pos) = ex.fen.parse::<Position>()
                        {
                            let goal = if pattern.id == 36 {
                                "patterns-stalemate-in"
                            } else {
                                "patterns-mate-in"
                            };
                            ui.weak(i18n.tr_args(
                                goal,
                                &[
                                    ("side", side_name(i18n, pos.side_to_move()).into()),
                                    ("count", ex.mate_in.into()),
                                ],
                            ));
                        }
                        if ui.button(label).clicked() {
                            actions.push(Action::Patterns(PatternAction::Open(pattern.id, 0)));
                        }
                    });
                    if (n + 1) % per_row == 0 {
                        ui.end_row();
                    }
                }
            });
    });
}

fn side_name(i18n: &I18n, color: Color) -> String {
    i18n.tr(match color {
        Color::Red => "patterns-side-red",
        Color::Black => "patterns-side-black",
    })
}

fn detail(
    app: &View,
    ui: &mut Ui,
    pattern: &Pattern,
    index: usize,
    ex: &Example,
    actions: &mut Vec<Action>,
) {
    let Ok((start, line)) = patterns::replay(ex) else {
        ui.label(app.i18n.tr("patterns-unavailable"));
        return;
    };
    let theme = app.state.settings.theme.theme();
    let language = app.i18n.language();
    let step = app.state.patterns.step.min(line.len());
    // The position on the board: the practice's, or the solution's at `step`.
    let (position, last, selected, arrow) = match &app.state.patterns.practice {
        Some(p) => (
            p.position.clone(),
            p.last,
            p.selected,
            p.hint.filter(|_| p.hint_shown),
        ),
        None => {
            let mut pos = start.clone();
            for &m in &line[..step] {
                pos.play_unchecked(m);
            }
            (pos, step.checked_sub(1).map(|i| line[i]), None, None)
        }
    };
    let panel_width = (ui.available_width() * 0.45).clamp(280.0, 460.0);
    egui::Panel::right("pattern_text")
        .exact_size(panel_width)
        .resizable(false)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                text_panel(app, ui, pattern, index, ex, &start, &line, step, actions)
            });
        });
    let diagram = Diagram::from_position(&position);
    let marks = Marks {
        flipped: start.side_to_move() == Color::Black,
        coordinates: app.state.settings.coordinates,
        last_move: last.map(|m| (m.from, m.to)),
        check: position
            .is_check()
            .then(|| position.general(position.side_to_move())),
        selected,
        arrows: arrow
            .map(|m| BoardArrow {
                from: m.from,
                to: m.to,
                color: theme.mark(chuhe_core::record::MarkColor::Green),
                thin: false,
            })
            .into_iter()
            .collect(),
        traditional: language == Language::ZhTw,
        ..Marks::default()
    };
    // The attacker's pieces may be dragged while practice waits for a move.
    let pick = match &app.state.patterns.practice {
        Some(p) if p.pending.is_none() && p.result != Some(true) => Pick::SideToMove(&p.position),
        _ => Pick::Nothing,
    };
    // Keep clear of the text panel's frame, which the panel's width does not include.
    let room = ui.available_size() - Vec2::new(16.0, 0.0);
    // The right button draws nothing here: any right click opens the menu.
    let shown = BoardInput::new(ui, egui::Id::unique("chuhe pattern board input"), pick)
        .with_menu_on_points()
        .within(room.max(Vec2::splat(100.0)))
        .drawn_as(crate::widgets::board::PATTERN_BOARD)
        .show(ui, &diagram, marks, &theme);
    let practising = app.state.patterns.practice.is_some();
    for event in shown.events {
        let action = match event {
            BoardEvent::Click(square) if practising => PatternAction::Click(square),
            BoardEvent::Move(from, to) => PatternAction::Move(Move::new(from, to)),
            _ => continue,
        };
        actions.push(Action::Patterns(action));
    }
    board_menu::show(&shown.response, shown.menu, |ui| {
        board_menu::find_position(ui, app.i18n, Find::Shown(&position), actions);
    });
}

#[allow(clippy::too_many_arguments)]
fn text_panel(
    app: &View,
    ui: &mut Ui,
    pattern: &Pattern,
    index: usize,
    ex: &Example,
    start: &Position,
    line: &[Move],
    step: usize,
    actions: &mut Vec<Action>,
) {
    let i18n = &app.i18n;
    let language = i18n.language();
    let push = |actions: &mut Vec<Action>, a: PatternAction| actions.push(Action::Patterns(a));
    ui.horizontal_wrapped(|ui| {
        if ui.button(i18n.tr("patterns-back")).clicked() {
            push(actions, PatternAction::Gallery);
        }
        if ui.button(i18n.tr("patterns-close")).clicked() {
            push(actions, PatternAction::Close);
        }
    });
    ui.heading(format!("{}. {}", pattern.id, name(pattern, language)));
    // The other scripts' names under the heading, so a reader sees all three.
    let others: Vec<&str> = [Language::ZhCn, Language::ZhTw, Language::En]
        .into_iter()
        .filter(|&l| l != language)
        .map(|l| name(pattern, l))
        .collect();
    ui.weak(others.join(" · "));
    if let Some(alias) = &pattern.alias {
        let alias_name = match language {
            Language::ZhCn => &alias.zh_cn,
            Language::ZhTw => &alias.zh_tw,
            Language::En => &alias.en,
        };
        ui.label(i18n.tr_args("patterns-alias", &[("name", alias_name.clone().into())]));
    }
    ui.add_space(4.0);
    let definition = match language {
        Language::ZhCn => &pattern.definition.zh,
        Language::ZhTw => &pattern.definition.zh_tw,
        Language::En => &pattern.definition.en,
    };
    ui.label(definition);
    if let Some(notes) = &pattern.notes {
        ui.add_space(2.0);
        ui.weak(match language {
            Language::ZhCn => &notes.zh,
            Language::ZhTw => &notes.zh_tw,
            Language::En => &notes.en,
        });
    }
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        for i in 0..pattern.examples.len() {
            let solved = app
                .state
                .settings
                .patterns_solved
                .contains(&solved_key(pattern.id, i));
            let mut label = i18n.tr_args("patterns-example", &[("n", (i + 1).into())]);
            if solved {
                label.push_str(" ★");
            }
            if ui.selectable_label(i == index, label).clicked() {
                push(actions, PatternAction::Open(pattern.id, i));
            }
        }
    });
    let side = side_name(i18n, start.side_to_move());
    let goal = if pattern.id == 36 {
        "patterns-stalemate-in"
    } else {
        "patterns-mate-in"
    };
    ui.label(
        RichText::new(i18n.tr_args(
            goal,
            &[("side", side.clone().into()), ("count", ex.mate_in.into())],
        ))
        .strong(),
    );
    ui.weak(i18n.tr_args("patterns-source", &[("source", ex.source.clone().into())]));
    ui.separator();
    match &app.state.patterns.practice {
        None => {
            ui.label(RichText::new(i18n.tr("patterns-solution")).strong());
            let mut pos = start.clone();
            ui.horizontal_wrapped(|ui| {
                for (ply, &m) in line.iter().enumerate() {
                    let text = app.move_text(&pos, m);
                    pos.play_unchecked(m);
                    let text = if ply % 2 == 0 {
                        format!("{}. {text}", ply / 2 + 1)
                    } else {
                        text
                    };
                    if ui.selectable_label(step == ply + 1, text).clicked() {
                        push(actions, PatternAction::Step(ply + 1));
                    }
                }
            });
            ui.horizontal_wrapped(|ui| {
                let steps = [
                    ("patterns-start", 0),
                    ("patterns-prev", step.saturating_sub(1)),
                    ("patterns-next", (step + 1).min(line.len())),
                    ("patterns-end", line.len()),
                ];
                for (id, to) in steps {
                    if ui.button(i18n.tr(id)).clicked() {
                        push(actions, PatternAction::Step(to));
                    }
                }
            });
            if step == line.len() {
                let shapes = chuhe_core::library::patterns::mate_patterns(start, line);
                if !shapes.is_empty() {
                    ui.label(i18n.tr_args(
                        "patterns-shapes",
                        &[("names", names_of(&shapes, language).into())],
                    ));
                }
            }
            ui.add_space(6.0);
            if ui.button(i18n.tr("patterns-practise")).clicked() {
                push(actions, PatternAction::Practise);
            }
        }
        Some(p) => {
            let status = if p.result == Some(true) {
                i18n.tr("patterns-solved")
            } else if p.pending.is_some() {
                i18n.tr("patterns-thinking")
            } else if p.result == Some(false) {
                i18n.tr("patterns-wrong")
            } else {
                i18n.tr_args(
                    "patterns-your-move",
                    &[("side", side.into()), ("count", p.left.into())],
                )
            };
            ui.label(RichText::new(status).strong());
            ui.horizontal_wrapped(|ui| {
                let can_hint = p.pending.is_none()
                    && p.result != Some(true)
                    && p.hint.is_some()
                    && !app.state.engine_help_barred();
                if ui
                    .add_enabled(can_hint, egui::Button::new(i18n.tr("patterns-hint")))
                    .clicked()
                {
                    push(actions, PatternAction::Hint);
                }
                if ui.button(i18n.tr("patterns-restart")).clicked() {
                    push(actions, PatternAction::Practise);
                }
                if ui.button(i18n.tr("patterns-study")).clicked() {
                    push(actions, PatternAction::StopPractice);
                }
            });
            if p.hint_shown
                && let Some(h) = p.hint
            {
                ui.label(i18n.tr_args(
                    "patterns-hint-move",
                    &[("move", app.move_text(&p.position, h).into())],
                ));
            }
        }
    }
}

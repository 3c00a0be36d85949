//! Puzzles: the list of sets (built-in and the user's) with the progress on each puzzle,
//! and solve mode's board and panel.

use crate::actions::Action;
use crate::actions::*;
use crate::i18n::I18n;
use crate::state::puzzles::{Phase, Refutation, SolveMessage, Wrong};
use crate::widgets::View;
use crate::widgets::board::Marks;
use crate::widgets::board_input::{BoardEvent, practice_board};
use crate::words::text::*;
use chuhe_core::puzzle::{Goal, Puzzle};
use chuhe_core::{Color, Move, Piece, PieceKind};
use egui::{RichText, Ui};

fn push(actions: &mut Vec<Action>, action: PuzzleAction) {
    actions.push(Action::Puzzle(action));
}

/// The goal in words: "Red to move, mate in 3".
pub fn goal_text(i18n: &I18n, puzzle: &Puzzle) -> String {
    let side = side_name(i18n, puzzle.position.side_to_move());
    match puzzle.goal {
        Goal::Mate {
            moves,
            checks_only: false,
        } => i18n.tr_args(
            "puzzle-goal-mate",
            &[("side", side.into()), ("moves", moves.into())],
        ),
        Goal::Mate {
            moves,
            checks_only: true,
        } => i18n.tr_args(
            "puzzle-goal-mate-checks",
            &[("side", side.into()), ("moves", moves.into())],
        ),
        Goal::Win => i18n.tr_args("puzzle-goal-win", &[("side", side.into())]),
        Goal::Draw => i18n.tr_args("puzzle-goal-draw", &[("side", side.into())]),
    }
}

/// The title shown for a puzzle (its goal when it has none).
fn title(i18n: &I18n, puzzle: &Puzzle) -> String {
    if let Some(title) = crate::words::text::game_puzzle_title(i18n, puzzle) {
        title
    } else if puzzle.title.is_empty() {
        goal_text(i18n, puzzle)
    } else {
        puzzle.title.clone()
    }
}

/// The name shown for a set.
fn set_name(i18n: &I18n, name: &str, builtin: bool) -> String {
    match (builtin, name) {
        (true, "wukong") => i18n.tr("puzzle-set-wukong"),
        (true, "shiqingyaqu") => i18n.tr("puzzle-set-shiqingyaqu"),
        (true, "patterns") => i18n.tr("puzzle-set-patterns"),
        _ => i18n.tr_args("puzzle-set-user", &[("name", name.to_owned().into())]),
    }
}

/// The list of puzzle sets, in a window.
pub fn browser(app: &View, ctx: &egui::Context, actions: &mut Vec<Action>) {
    if !app.state.puzzles.browser_open {
        return;
    }
    let i18n = &app.i18n;
    let palette = app.palette();
    let puzzles = &app.state.puzzles;
    let mut open = true;
    egui::Window::new(i18n.tr("puzzles-title"))
        .constrain_to(crate::widgets::window_area(ctx))
        .open(&mut open)
        .default_size([520.0, 520.0])
        .default_pos([40.0, 60.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                if ui.button(i18n.tr("puzzles-import")).clicked() {
                    push(actions, PuzzleAction::ImportDialog);
                }
                let solved = puzzles
                    .progress
                    .puzzles
                    .values()
                    .filter(|p| p.solved)
                    .count();
                ui.weak(i18n.tr_args("puzzles-solved-count", &[("count", solved.into())]));
            });
            for problem in &puzzles.problems {
                ui.colored_label(ui.visuals().warn_fg_color, problem_text(i18n, problem));
            }
            // The sets as tabs, the chosen set's puzzles below.
            let chosen = puzzles
                .browser_set
                .min(puzzles.sets.len().saturating_sub(1));
            ui.horizontal_wrapped(|ui| {
                for (s, loaded) in puzzles.sets.iter().enumerate() {
                    let set = &loaded.set;
                    let name = set_name(i18n, &set.name, loaded.dir.is_none());
                    let header = i18n.tr_args(
                        "puzzles-set-header",
                        &[("name", name.into()), ("count", set.puzzles.len().into())],
                    );
                    if ui.selectable_label(s == chosen, header).clicked() {
                        push(actions, PuzzleAction::ShowSet(s));
                    }
                }
            });
            let Some(loaded) = puzzles.sets.get(chosen) else {
                return;
            };
            let set = &loaded.set;
            let progress_name = loaded.progress_name();
            ui.horizontal(|ui| {
                if ui.button(i18n.tr("puzzles-replay")).clicked() {
                    push(actions, PuzzleAction::Replay(chosen));
                }
                if ui.button(i18n.tr("puzzles-export")).clicked() {
                    push(actions, PuzzleAction::ExportDialog(chosen));
                }
                if app.state.class.running.is_some()
                    && ui.button(i18n.tr("class-quiz-send-round")).clicked()
                {
                    actions.push(Action::Class(crate::actions::ClassAction::SendRound(
                        crate::state::class::quiz::RoundSource::PuzzleSet(chosen),
                    )));
                }
            });
            ui.separator();
            egui::ScrollArea::vertical().show(ui, |ui| {
                for (i, puzzle) in set.puzzles.iter().enumerate() {
                    let progress = puzzles.progress.get(&progress_name, &puzzle.id);
                    let (mark, color) = if progress.missed {
                        ("●", palette.danger)
                    } else if progress.solved {
                        ("●", palette.solved)
                    } else {
                        ("○", palette.muted)
                    };
                    ui.horizontal(|ui| {
                        ui.label(RichText::new(mark).color(color));
                        let text = format!(
                            "{}. {} — {}",
                            i + 1,
                            title(i18n, puzzle),
                            goal_text(i18n, puzzle)
                        );
                        if ui.selectable_label(false, text).clicked() {
                            push(
                                actions,
                                PuzzleAction::Start {
                                    set: chosen,
                                    index: i,
                                },
                            );
                        }
                        // For a class: the position on the projector, the solution
                        // revealed move by move.
                        if ui
                            .small_button(i18n.tr("puzzle-present"))
                            .on_hover_text(i18n.tr("puzzle-present-hint"))
                            .clicked()
                        {
                            actions.push(Action::Presentation(PresentationAction::PresentPuzzle {
                                set: chosen,
                                index: i,
                            }));
                        }
                    });
                }
            });
        });
    if !open {
        push(actions, PuzzleAction::ToggleBrowser);
    }
}

/// Solve mode's board: the position, the user's clicks and drags, the hint.
pub fn board(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let theme = app.state.settings.theme.theme();
    let Some(session) = &app.state.puzzles.session else {
        return;
    };
    let position = session.position();
    // The solver's side sits at the bottom.
    let mut marks = Marks::practice(
        &app.state.settings,
        position,
        session.puzzle.position.side_to_move(),
        session.moves.last().copied(),
        session.selected,
    );
    let hint = session.hint.filter(|_| session.phase == Phase::YourMove);
    if let Some(hint) = hint
        && session.hint_level >= 1
    {
        marks.circles.push((hint.from, theme.engine_arrow));
    }
    let arrow = hint.filter(|_| session.hint_level >= 2);
    let events = practice_board(
        app,
        ui,
        "chuhe puzzle board input",
        position,
        marks,
        &theme,
        session.can_move(),
        arrow,
        actions,
    );
    for event in events {
        match event {
            BoardEvent::Move(from, to) => push(actions, PuzzleAction::Move(Move::new(from, to))),
            BoardEvent::Click(square) => push(actions, PuzzleAction::Click(square)),
            _ => {}
        }
    }
}

/// What a refuting defence does, in words.
fn refutation_text(i18n: &I18n, why: Refutation, defender: Color) -> String {
    match why {
        Refutation::GeneralEscapes => i18n.tr_args(
            "solve-why-escape",
            &[(
                "piece",
                piece_name(i18n, Piece::new(defender, PieceKind::General)).into(),
            )],
        ),
        Refutation::Captures(kind) => i18n.tr_args(
            "solve-why-capture",
            &[(
                "piece",
                piece_name(i18n, Piece::new(!defender, kind)).into(),
            )],
        ),
        Refutation::Blocks => i18n.tr("solve-why-block"),
        Refutation::Defends => i18n.tr("solve-why-defend"),
    }
}

/// Solve mode's panel.
pub fn side(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let Some(session) = &app.state.puzzles.session else {
        return;
    };
    let puzzle = &session.puzzle;
    ui.heading(title(i18n, puzzle));
    ui.label(RichText::new(goal_text(i18n, puzzle)).strong());
    if !puzzle.source.is_empty() {
        ui.weak(i18n.tr_args(
            "puzzle-source-line",
            &[("source", puzzle.source.clone().into())],
        ));
    }
    if !puzzle.author.is_empty() {
        ui.weak(i18n.tr_args(
            "puzzle-author-line",
            &[("author", puzzle.author.clone().into())],
        ));
    }
    if session.solved_before {
        ui.weak(i18n.tr("solve-solved-before"));
    }
    ui.horizontal_wrapped(|ui| {
        let can_hint = session.phase == Phase::YourMove
            && session.hint.is_some()
            && !app.state.engine_help_barred();
        if ui
            .add_enabled(can_hint, egui::Button::new(i18n.tr("solve-hint")))
            .clicked()
        {
            push(actions, PuzzleAction::Hint);
        }
        if ui.button(i18n.tr("solve-restart")).clicked() {
            push(actions, PuzzleAction::Restart);
        }
        if ui.button(i18n.tr("solve-next")).clicked() {
            push(actions, PuzzleAction::Next);
        }
        if ui.button(i18n.tr("solve-leave")).clicked() {
            push(actions, PuzzleAction::Leave);
        }
    });
    ui.separator();
    match session.phase {
        Phase::Solved => {}
        Phase::Judging(_) => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(i18n.tr("solve-judging"));
            });
        }
        Phase::YourMove if session.moves_left > 0 => {
            ui.label(i18n.tr_args("solve-your-move", &[("moves", session.moves_left.into())]));
        }
        Phase::YourMove => {}
    }
    let before = session
        .positions
        .get(session.positions.len().saturating_sub(2))
        .unwrap_or(session.position());
    if let Some(message) = &session.message {
        let (text, color) = match message {
            SolveMessage::Right(reply) => (
                i18n.tr_args(
                    "solve-right",
                    &[("reply", app.move_text(before, *reply).into())],
                ),
                app.palette().success,
            ),
            SolveMessage::Wrong(m, why) => {
                let pos = session.position();
                let word = app.move_text(pos, *m);
                let reason = match why {
                    Wrong::NotCheck => i18n.tr("solve-why-not-check"),
                    Wrong::NotInSolution => i18n.tr("solve-why-not-in-solution"),
                    Wrong::Refuted { defence, why } => {
                        let mut after = pos.clone();
                        after.play_unchecked(*m);
                        i18n.tr_args(
                            "solve-why-refuted",
                            &[
                                ("defence", app.move_text(&after, *defence).into()),
                                (
                                    "what",
                                    refutation_text(i18n, *why, after.side_to_move()).into(),
                                ),
                            ],
                        )
                    }
                };
                (
                    i18n.tr_args(
                        "solve-wrong",
                        &[("move", word.into()), ("reason", reason.into())],
                    ),
                    ui.visuals().error_fg_color,
                )
            }
            SolveMessage::Unknown => (i18n.tr("solve-unknown"), ui.visuals().warn_fg_color),
            SolveMessage::Solved => (
                i18n.tr(if session.missed {
                    "solve-solved-with-help"
                } else {
                    "solve-solved"
                }),
                app.palette().success,
            ),
            SolveMessage::NotAMate => (i18n.tr("solve-not-a-mate"), ui.visuals().warn_fg_color),
        };
        ui.label(RichText::new(text).color(color).strong());
    }
    if !session.moves.is_empty() {
        ui.label(app.line_text(&puzzle.position, &session.moves));
    }
    if session.phase == Phase::YourMove {
        match (session.hint, session.hint_level) {
            (Some(hint), 1) => {
                let piece = session.position().piece_at(hint.from);
                if let Some(piece) = piece {
                    ui.label(i18n.tr_args(
                        "solve-hint-piece",
                        &[("piece", piece_name(i18n, piece).into())],
                    ));
                }
            }
            (Some(hint), 2) => {
                ui.label(i18n.tr_args(
                    "solve-hint-move",
                    &[("move", app.move_text(session.position(), hint).into())],
                ));
            }
            _ => {}
        }
    }
    if !session.queue.is_empty() {
        ui.weak(i18n.tr_args("solve-queue", &[("count", session.queue.len().into())]));
    }
}

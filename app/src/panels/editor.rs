//! The position editor's panels: the board being set up (problems circled) and, beside
//! it, the palette, the tools, the FEN field, the list of problems, the composer's view
//! and the way out.

use crate::actions::Action;
use crate::actions::*;
use crate::i18n::{I18n, Language};
use crate::state::editor::{ComposerResult, Editor, MAX_COMPOSER_MOVES, Tool};
use crate::theme::{Palette, Theme};
use crate::widgets::View;
use crate::widgets::board::{Diagram, Marks};
use crate::widgets::board_input::{BoardEvent, BoardInput, Pick};
use crate::widgets::board_menu::{self, Find};
use crate::words::text::*;
use chuhe_core::solver::{ProgressReport, Verdict};
use chuhe_core::{Color, Piece, PieceKind, SetupProblem, Square};
use egui::{FontId, PointerButton, RichText, Sense, Stroke, Ui, Vec2};

/// The editor board's id, under which it keeps what the pointer holds: a piece of the
/// board, or one carried from the palette.
fn editor_board() -> egui::Id {
    egui::Id::unique("chuhe editor board input")
}

fn push(actions: &mut Vec<Action>, action: EditorAction) {
    actions.push(Action::Editor(action));
}

fn squares(list: &[Square]) -> String {
    list.iter()
        .map(Square::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A problem of the arrangement in the user's language.
pub fn problem_text(i18n: &I18n, problem: &SetupProblem) -> String {
    match problem {
        SetupProblem::MissingGeneral { color } => i18n.tr_args(
            "setup-missing-general",
            &[("side", side_name(i18n, *color).into())],
        ),
        SetupProblem::TooManyGenerals { color, squares: at } => i18n.tr_args(
            "setup-too-many-generals",
            &[
                ("side", side_name(i18n, *color).into()),
                ("points", squares(at).into()),
            ],
        ),
        SetupProblem::TooManyPieces { piece, squares: at } => i18n.tr_args(
            "setup-too-many-pieces",
            &[
                ("side", side_name(i18n, piece.color).into()),
                ("piece", piece_name(i18n, *piece).into()),
                ("count", at.len().into()),
                ("max", piece.kind.count_in_set().into()),
                ("points", squares(at).into()),
            ],
        ),
        SetupProblem::UnreachablePoint { piece, square } => i18n.tr_args(
            "setup-unreachable",
            &[
                ("side", side_name(i18n, piece.color).into()),
                ("piece", piece_name(i18n, *piece).into()),
                ("point", square.to_string().into()),
            ],
        ),
        SetupProblem::GeneralsFacing { squares: at } => {
            i18n.tr_args("setup-generals-facing", &[("points", squares(at).into())])
        }
        SetupProblem::OpponentInCheck {
            color,
            general,
            checkers,
        } => i18n.tr_args(
            "setup-opponent-in-check",
            &[
                ("side", side_name(i18n, *color).into()),
                ("point", general.to_string().into()),
                ("points", squares(checkers).into()),
            ],
        ),
    }
}

/// Draws the board being set up and turns clicks and drags into editor actions.
pub fn board(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let theme = app.state.settings.theme.theme();
    let traditional = app.state.settings.language == Language::ZhTw;
    let Some(editor) = &app.state.editor else {
        return;
    };
    let diagram = Diagram::from_board(&editor.setup.board);
    let marks = Marks {
        flipped: app.state.settings.flipped,
        coordinates: app.state.settings.coordinates,
        selected: editor.selected,
        circles: editor
            .problem_points()
            .into_iter()
            .map(|s| (s, theme.check))
            .chain(
                editor
                    .warning_points()
                    .into_iter()
                    .map(|s| (s, ui.visuals().warn_fg_color)),
            )
            .collect(),
        traditional,
        ..Marks::default()
    };
    let shown = BoardInput::new(ui, editor_board(), Pick::AnyPiece(&editor.setup.board))
        .with_drop_off()
        .show(ui, &diagram, marks, &theme);
    for event in shown.events {
        let action = match event {
            BoardEvent::Click(square) => EditorAction::Click(square),
            BoardEvent::Move(from, to) => EditorAction::MovePiece(from, to),
            // Dropped off the board or right-clicked: taken off.
            BoardEvent::DropOff(square) | BoardEvent::SecondaryClick(square) => {
                EditorAction::Remove(square)
            }
            BoardEvent::Place(to, piece) => EditorAction::Place(to, piece),
            _ => continue,
        };
        push(actions, action);
    }
    // A right click on a point takes its piece off, so the menu opens from one off the
    // points.
    let position = editor.position();
    board_menu::show(&shown.response, shown.menu, |ui| {
        let find = position.as_ref().map_or(Find::NotAPosition, Find::Shown);
        board_menu::find_position(ui, app.i18n, find, actions);
    });
    // A palette piece being carried follows the pointer, above everything.
    if let (Some(piece), Some(at)) = (shown.carried, ui.input(|i| i.pointer.latest_pos())) {
        let painter = ui.ctx().layer_painter(egui::LayerId::new(
            egui::Order::Tooltip,
            egui::Id::unique("editor_drag"),
        ));
        paint_piece(
            &painter,
            at,
            shown.geometry.spacing() * 0.45,
            piece,
            traditional,
            &theme,
        );
    }
}

/// A piece as a disc with its character, for the palette and drags.
fn paint_piece(
    painter: &egui::Painter,
    centre: egui::Pos2,
    radius: f32,
    piece: Piece,
    traditional: bool,
    theme: &Theme,
) {
    let ink = match piece.color {
        Color::Red => theme.red_ink,
        Color::Black => theme.black_ink,
    };
    painter.circle(
        centre,
        radius,
        theme.piece_face,
        Stroke::new(radius * 0.08, theme.piece_rim),
    );
    painter.circle_stroke(centre, radius * 0.82, Stroke::new(1.0, ink));
    let character = if traditional {
        piece.hanzi_traditional()
    } else {
        piece.hanzi()
    };
    painter.text(
        centre,
        egui::Align2::CENTER_CENTER,
        character,
        FontId::proportional(radius * 1.15),
        ink,
    );
}

/// The editor's side panel.
pub fn side(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let theme = app.state.settings.theme.theme();
    let traditional = app.state.settings.language == Language::ZhTw;
    let i18n = &app.i18n;
    let Some(editor) = &app.state.editor else {
        return;
    };
    egui::ScrollArea::vertical().show(ui, |ui| {
        ui.heading(i18n.tr("editor-title"));
        ui.label(i18n.tr("editor-hint"));
        ui.add_space(4.0);
        // The palette: Red's seven kinds, then Black's.
        for color in Color::ALL {
            ui.horizontal(|ui| {
                for kind in PieceKind::ALL {
                    let piece = Piece::new(color, kind);
                    let (rect, response) =
                        ui.allocate_exact_size(Vec2::splat(38.0), Sense::click_and_drag());
                    let label = format!("{} {}", side_name(i18n, color), piece_name(i18n, piece));
                    response.widget_info(|| {
                        egui::WidgetInfo::selected(
                            egui::Role::Button,
                            true,
                            editor.tool == Tool::Place(piece),
                            &label,
                        )
                    });
                    let painter = ui.painter_at(rect.expand(2.0));
                    if editor.tool == Tool::Place(piece) {
                        painter.circle_filled(rect.center(), 19.0, theme.selection);
                    }
                    paint_piece(&painter, rect.center(), 16.0, piece, traditional, &theme);
                    if response.clicked() {
                        push(actions, EditorAction::SetTool(Tool::Place(piece)));
                    }
                    // Dragged onto the board, where the board places it.
                    if response.drag_started_by(PointerButton::Primary) {
                        BoardInput::carry(ui.ctx(), editor_board(), piece);
                    }
                    response.on_hover_text(&label);
                }
            });
        }
        ui.horizontal(|ui| {
            for (tool, id) in [
                (Tool::Move, "editor-tool-move"),
                (Tool::Erase, "editor-tool-erase"),
            ] {
                if ui
                    .selectable_label(editor.tool == tool, i18n.tr(id))
                    .clicked()
                {
                    push(actions, EditorAction::SetTool(tool));
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            let buttons = [
                ("editor-clear", EditorAction::Clear),
                ("editor-start-position", EditorAction::StartPosition),
                ("editor-mirror", EditorAction::Mirror),
                ("editor-swap-colors", EditorAction::SwapColors),
            ];
            for (id, action) in buttons {
                if ui.button(i18n.tr(id)).clicked() {
                    push(actions, action);
                }
            }
            if ui
                .add_enabled(editor.can_undo(), egui::Button::new(i18n.tr("edit-undo")))
                .clicked()
            {
                push(actions, EditorAction::Undo);
            }
            if ui
                .add_enabled(editor.can_redo(), egui::Button::new(i18n.tr("edit-redo")))
                .clicked()
            {
                push(actions, EditorAction::Redo);
            }
        });
        ui.horizontal(|ui| {
            ui.label(i18n.tr("editor-side-to-move"));
            for color in Color::ALL {
                if ui
                    .radio(editor.setup.side_to_move == color, side_name(i18n, color))
                    .clicked()
                {
                    push(actions, EditorAction::SetSideToMove(color));
                }
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("FEN");
            let mut text = editor.fen_text.clone();
            let field = ui
                .add(egui::TextEdit::singleline(&mut text).desired_width(f32::INFINITY))
                .labelled_by(label.id);
            if text != editor.fen_text {
                push(actions, EditorAction::SetFenText(text.clone()));
            }
            if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                push(actions, EditorAction::ApplyFen(text));
            }
        });
        if ui.button(i18n.tr("editor-apply-fen")).clicked() {
            push(actions, EditorAction::ApplyFen(editor.fen_text.clone()));
        }
        if let Some(error) = &editor.fen_error {
            ui.colored_label(
                ui.visuals().error_fg_color,
                i18n.tr_args(
                    "editor-fen-error",
                    &[(
                        "error",
                        crate::words::text::problem_text(
                            i18n,
                            &crate::words::problems::fen_error(error),
                        )
                        .into(),
                    )],
                ),
            );
        }
        ui.separator();
        problems(i18n, editor, &theme.palette, ui);
        ui.separator();
        composer(app, editor, &theme.palette, ui, actions);
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            let legal = editor.problems.is_empty();
            for (id, action) in [
                ("editor-play", EditorAction::Play),
                ("editor-analyse", EditorAction::Analyse),
            ] {
                let button = ui.add(egui::Button::new(i18n.tr(id)));
                if button.clicked() {
                    push(actions, action);
                }
                if !legal {
                    button.on_hover_text(i18n.tr("editor-illegal"));
                }
            }
            if ui.button(i18n.tr("editor-leave")).clicked() {
                push(actions, EditorAction::Leave);
            }
        });
    });
}

fn problems(i18n: &I18n, editor: &Editor, palette: &Palette, ui: &mut Ui) {
    if editor.problems.is_empty() {
        ui.label(RichText::new(i18n.tr("editor-legal")).color(palette.success));
        warnings(i18n, editor, ui);
        return;
    }
    ui.label(
        RichText::new(i18n.tr_args(
            "editor-problems",
            &[("count", editor.problems.len().into())],
        ))
        .strong(),
    );
    for problem in &editor.problems {
        ui.colored_label(
            ui.visuals().error_fg_color,
            format!("• {}", problem_text(i18n, problem)),
        );
    }
    warnings(i18n, editor, ui);
}

/// The placements no game reaches: accepted, shown in the warning colour.
fn warnings(i18n: &I18n, editor: &Editor, ui: &mut Ui) {
    if editor.warnings.is_empty() {
        return;
    }
    ui.label(RichText::new(i18n.tr("editor-warnings")).strong());
    for warning in &editor.warnings {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!("• {}", problem_text(i18n, warning)),
        );
    }
}

/// The composer's view: the solver on the arrangement.
fn composer(
    app: &View,
    editor: &Editor,
    palette: &Palette,
    ui: &mut Ui,
    actions: &mut Vec<Action>,
) {
    let i18n = &app.i18n;
    ui.strong(i18n.tr("composer-title"));
    ui.horizontal(|ui| {
        let label = ui.label(i18n.tr("composer-mate-within"));
        let mut moves = editor.mate_moves;
        ui.add(egui::DragValue::new(&mut moves).range(1..=MAX_COMPOSER_MOVES))
            .labelled_by(label.id);
        if moves != editor.mate_moves {
            push(actions, EditorAction::SetMateMoves(moves));
        }
        let mut checks = editor.checks_only;
        if ui
            .checkbox(&mut checks, i18n.tr("composer-checks-only"))
            .changed()
        {
            push(actions, EditorAction::SetChecksOnly(checks));
        }
    });
    if editor.solving.is_some() {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(progress_text(i18n, editor.progress));
            if ui.button(i18n.tr("composer-cancel")).clicked() {
                push(actions, EditorAction::CancelSolve);
            }
        });
    } else if ui.button(i18n.tr("composer-solve")).clicked() {
        push(actions, EditorAction::Solve);
    }
    let Some(result) = editor.current_result() else {
        return;
    };
    verdict(app, result, palette, ui);
    if result.solution.mate_in().is_some() {
        save_form(i18n, editor, ui, actions);
    }
}

/// What the solver at work has reached: the mate length it is searching (every shorter
/// one refuted) or the mate it proved and is reading out, and the positions so far.
fn progress_text(i18n: &I18n, progress: Option<ProgressReport>) -> String {
    let Some(p) = progress.filter(|p| p.depth > 0) else {
        return i18n.tr("composer-solving");
    };
    let nodes = ("nodes", p.nodes.to_string().into());
    match p.proved {
        Some(moves) => i18n.tr_args(
            "composer-reading-out",
            &[("moves", moves.to_string().into()), nodes],
        ),
        None => i18n.tr_args(
            "composer-searching",
            &[("moves", p.depth.to_string().into()), nodes],
        ),
    }
}

fn verdict(app: &View, result: &ComposerResult, palette: &Palette, ui: &mut Ui) {
    let i18n = &app.i18n;
    let s = &result.solution;
    let pos = &result.position;
    let text = match s.verdict {
        _ if result.cancelled => i18n.tr("composer-cancelled"),
        Verdict::Mate(k) if s.is_cooked() => i18n.tr_args(
            "composer-cooked",
            &[("moves", k.into()), ("count", s.first_moves.len().into())],
        ),
        Verdict::Mate(k) => i18n.tr_args("composer-unique", &[("moves", k.into())]),
        Verdict::NoMate => i18n.tr_args(
            "composer-no-mate",
            &[("moves", result.options.max_moves.into())],
        ),
        Verdict::Unknown { searched } => {
            i18n.tr_args("composer-unknown", &[("moves", searched.into())])
        }
    };
    let color = match s.verdict {
        Verdict::Mate(_) if !s.is_cooked() => palette.success,
        _ => ui.visuals().warn_fg_color,
    };
    ui.label(RichText::new(text).color(color).strong());
    if s.mate_in().is_none() {
        return;
    }
    if s.is_cooked() {
        let cooks: Vec<String> = s
            .first_moves
            .iter()
            .map(|&m| app.move_text(pos, m))
            .collect();
        ui.label(i18n.tr_args("composer-cooks", &[("moves", cooks.join("，").into())]));
    }
    ui.label(i18n.tr_args(
        "composer-line",
        &[("line", app.line_text(pos, &s.line).into())],
    ));
    // Duals further on: other moves that also mate in time.
    let mut p = pos.clone();
    for (i, &m) in s.line.iter().enumerate() {
        if i % 2 == 0
            && i > 0
            && let Some(duals) = s.duals.get(i / 2)
            && !duals.is_empty()
        {
            let words: Vec<String> = duals.iter().map(|&d| app.move_text(&p, d)).collect();
            ui.weak(i18n.tr_args(
                "composer-duals",
                &[
                    ("number", (i / 2 + 1).into()),
                    ("moves", words.join("，").into()),
                ],
            ));
        }
        p.play_unchecked(m);
    }
    ui.weak(i18n.tr_args(
        "composer-stats",
        &[
            ("nodes", s.nodes.to_string().into()),
            ("ms", s.elapsed.as_millis().to_string().into()),
        ],
    ));
}

fn save_form(i18n: &I18n, editor: &Editor, ui: &mut Ui, actions: &mut Vec<Action>) {
    let mut info = editor.puzzle_info.clone();
    egui::Grid::new("puzzle_info")
        .num_columns(2)
        .show(ui, |ui| {
            for (id, field) in [
                ("puzzle-title", &mut info.title),
                ("puzzle-source", &mut info.source),
                ("puzzle-author", &mut info.author),
                ("puzzle-collection", &mut info.collection),
            ] {
                let label = ui.label(i18n.tr(id));
                ui.text_edit_singleline(field).labelled_by(label.id);
                ui.end_row();
            }
        });
    if info != editor.puzzle_info {
        push(actions, EditorAction::SetPuzzleInfo(info));
    }
    if ui.button(i18n.tr("composer-save-puzzle")).clicked() {
        push(actions, EditorAction::SaveAsPuzzle);
    }
}

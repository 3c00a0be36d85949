//! The 36 checkmate patterns (杀法): a gallery of diagrams, one pattern open to read and
//! step through its solution, and practice, where the user plays the attacking side and
//! the mate prover defends (on a background thread, so the window never waits). Solved
//! examples are kept in the settings.

use crate::actions::Action;
use crate::app::ChuheApp;
use crate::board::{Board, BoardArrow, BoardGeometry, Diagram, Marks};
use crate::i18n::{I18n, Language};
use crate::jobs::Job;
use chuhe_core::library::patterns::{self, Example, Pattern, PatternId};
use chuhe_core::notation::format_move;
use chuhe_core::solver::{SolveOptions, Solver};
use chuhe_core::{Color, Move, MoveList, Position, Square};
use egui::{RichText, Ui, Vec2};

/// Side of a gallery diagram.
const THUMBNAIL: f32 = 170.0;
/// Transposition table of the practice prover: 2^18 entries (4 MiB) is plenty for the
/// library's short mates.
const PRACTICE_TABLE_BITS: u32 = 18;

/// What the user asks of the pattern browser.
#[derive(Clone, Debug, PartialEq)]
pub enum PatternAction {
    /// Show the gallery (opens the browser).
    Gallery,
    /// Close the browser, back to the game.
    Close,
    /// Open example `1` (0-based) of pattern `0`.
    Open(PatternId, usize),
    /// Show the solution up to this many plies.
    Step(usize),
    /// Start practising the open example (again).
    Practise,
    /// Back from practice to reading.
    StopPractice,
    /// A click on the practice board.
    Click(Square),
    /// Show the next winning move.
    Hint,
    /// The defence was worked out.
    Defended(Defence),
}

/// What the prover says of the user's move.
#[derive(Clone, Debug, PartialEq)]
pub enum Defence {
    /// The move mates or stalemates at once: solved.
    Finished,
    /// The move keeps a forced mate: the defender's best reply, the moves then left, and
    /// a winning move for the hint.
    Reply {
        /// The longest-holding reply.
        reply: Move,
        /// The attacker's moves left to mate after it.
        left: u32,
        /// A move that mates in time.
        hint: Option<Move>,
    },
    /// The move lets the defender escape the mate in the moves left.
    Escapes,
}

/// Practice of one example.
#[derive(Debug)]
pub struct Practice {
    /// The position on the practice board.
    pub position: Position,
    /// The attacker's moves still allowed to mate.
    pub left: u32,
    /// The picked-up piece.
    pub selected: Option<Square>,
    /// The last move played.
    pub last: Option<Move>,
    /// A winning move, for the hint.
    pub hint: Option<Move>,
    /// Whether the hint is shown.
    pub hint_shown: bool,
    /// The position before the user's move waiting for the prover, and that move.
    pub pending: Option<(Position, Move)>,
    /// The prover finding the defence (cancelled when the practice is closed).
    pub job: Option<Job<Defence>>,
    /// How it went: `Some(true)` solved, `Some(false)` the last try failed.
    pub result: Option<bool>,
}

/// The browser's state.
#[derive(Debug, Default)]
pub struct PatternsState {
    /// Whether the browser replaces the board.
    pub open: bool,
    /// The open pattern and example (0-based).
    pub selected: Option<(PatternId, usize)>,
    /// Plies of the solution shown.
    pub step: usize,
    /// Practice under way.
    pub practice: Option<Practice>,
    /// Where the pattern's board was drawn last (for hit tests).
    pub geometry: Option<BoardGeometry>,
}

/// The key under which a solved example is kept in the settings.
pub fn solved_key(id: PatternId, example: usize) -> String {
    format!("{id}-{}", example + 1)
}

/// The pattern's name in `language`.
pub fn name(pattern: &Pattern, language: Language) -> &str {
    match language {
        Language::ZhCn => &pattern.names.zh_cn,
        Language::ZhTw => &pattern.names.zh_tw,
        Language::En => &pattern.names.en,
    }
}

/// The patterns a mate shows: `moves` from `position` are played out (as far as they are
/// legal); if they end the game, the shape rules name the final position.
pub fn mate_patterns(position: &Position, moves: &[Move]) -> Vec<PatternId> {
    let mut pos = position.clone();
    let mut last = None;
    for &m in moves {
        match pos.play(m) {
            Ok(next) => pos = next,
            Err(_) => return Vec::new(),
        }
        last = Some(m);
        if !pos.has_legal_move() {
            break;
        }
    }
    patterns::recognise(&pos, last)
}

/// The names of `ids` in the user's language, joined.
pub fn names_of(ids: &[PatternId], language: Language) -> String {
    let sep = if language == Language::En {
        ", "
    } else {
        "、"
    };
    ids.iter()
        .filter_map(|&id| patterns::pattern(id))
        .map(|p| name(p, language).to_owned())
        .collect::<Vec<_>>()
        .join(sep)
}

fn example(id: PatternId, index: usize) -> Option<(&'static Pattern, &'static Example)> {
    let p = patterns::pattern(id)?;
    Some((p, p.examples.get(index)?))
}

/// Carries out a pattern action.
pub(crate) fn apply(app: &mut ChuheApp, action: PatternAction) {
    let view = &mut app.state.patterns;
    match action {
        PatternAction::Gallery => {
            view.open = true;
            view.selected = None;
            view.practice = None;
        }
        PatternAction::Close => {
            view.open = false;
            view.practice = None;
        }
        PatternAction::Open(id, index) => {
            if example(id, index).is_some() {
                view.open = true;
                view.selected = Some((id, index));
                view.step = 0;
                view.practice = None;
            }
        }
        PatternAction::Step(step) => {
            if let Some((_, ex)) = view.selected.and_then(|(id, i)| example(id, i)) {
                view.step = step.min(ex.line.len());
            }
        }
        PatternAction::Practise => {
            if let Some((_, ex)) = view.selected.and_then(|(id, i)| example(id, i))
                && let Ok((start, line)) = patterns::replay(ex)
            {
                view.practice = Some(Practice {
                    position: start,
                    left: ex.mate_in,
                    selected: None,
                    last: None,
                    hint: line.first().copied(),
                    hint_shown: false,
                    pending: None,
                    job: None,
                    result: None,
                });
            }
        }
        PatternAction::StopPractice => view.practice = None,
        PatternAction::Hint => {
            if let Some(p) = &mut view.practice {
                p.hint_shown = true;
            }
        }
        PatternAction::Click(square) => {
            if let Some(p) = &mut view.practice {
                click(p, square);
            }
        }
        PatternAction::Defended(defence) => {
            let solved = view.practice.as_mut().is_some_and(|p| defended(p, defence));
            if solved && let Some((id, i)) = view.selected {
                let key = solved_key(id, i);
                let done = &mut app.state.settings.patterns_solved;
                if !done.contains(&key) {
                    done.push(key);
                    app.settings_changed = true;
                }
            }
        }
    }
}

fn click(p: &mut Practice, square: Square) {
    if p.job.is_some() || p.result == Some(true) {
        return;
    }
    let own = p
        .position
        .piece_at(square)
        .is_some_and(|piece| piece.color == p.position.side_to_move());
    match p.selected {
        Some(from) if from == square => p.selected = None,
        _ if own => p.selected = Some(square),
        Some(from) => {
            p.selected = None;
            let m = Move::new(from, square);
            if let Ok(next) = p.position.play(m) {
                let left = p.left;
                let after = next.clone();
                let job = Job::spawn("chuhe pattern defence", move |_| defend(&after, left));
                p.pending = Some((p.position.clone(), m));
                p.position = next;
                p.last = Some(m);
                p.job = Some(job);
                p.hint_shown = false;
                p.result = None;
            }
        }
        None => {}
    }
}

/// Takes in the prover's answer; true when the example is solved.
fn defended(p: &mut Practice, defence: Defence) -> bool {
    p.job = None;
    let Some((before, _)) = p.pending.take() else {
        return false;
    };
    match defence {
        Defence::Finished => {
            p.result = Some(true);
            true
        }
        Defence::Reply { reply, left, hint } => {
            if let Ok(next) = p.position.play(reply) {
                p.position = next;
                p.last = Some(reply);
                p.left = left;
                p.hint = hint;
            }
            false
        }
        Defence::Escapes => {
            // Take the move back: the user tries again from where they were.
            p.position = before;
            p.last = None;
            p.result = Some(false);
            false
        }
    }
}

/// The defender's answer to the attacker's move that led to `pos` (defender to move), the
/// attacker having `left` moves, that one included, to mate.
pub fn defend(pos: &Position, left: u32) -> Defence {
    let mut replies = MoveList::new();
    pos.legal_moves_into(&mut replies);
    if replies.is_empty() {
        return Defence::Finished;
    }
    let left = left.saturating_sub(1);
    let mut solver = Solver::new(PRACTICE_TABLE_BITS);
    // Fixes the solver's options (no quiet-move limit) for `mates_within`.
    solver.solve(pos, &SolveOptions::mate_in(1));
    let mut best: Option<(Move, u32, Position)> = None;
    for &r in replies.iter() {
        let Ok(after) = pos.play(r) else { continue };
        let Some(shortest) = (1..=left).find(|&d| solver.mates_within(&after, d)) else {
            return Defence::Escapes;
        };
        if best.as_ref().is_none_or(|(_, s, _)| shortest > *s) {
            best = Some((r, shortest, after));
        }
    }
    match best {
        Some((reply, left, after)) => Defence::Reply {
            reply,
            left,
            hint: solver.mating_move(&after, left),
        },
        None => Defence::Finished,
    }
}

/// Draws the browser in the central area.
pub fn show(app: &mut ChuheApp, ui: &mut Ui, actions: &mut Vec<Action>) {
    // The prover's answer, if it has come.
    if let Some(p) = &mut app.state.patterns.practice
        && let Some(job) = &mut p.job
    {
        match job.poll() {
            Some(defence) => actions.push(Action::Patterns(PatternAction::Defended(defence))),
            None if !job.is_finished() => ui
                .ctx()
                .request_repaint_after(std::time::Duration::from_millis(30)),
            // The prover died: let the user try again rather than wait for ever.
            None => p.job = None,
        }
    }
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

fn gallery(app: &ChuheApp, ui: &mut Ui, library: &[Pattern], actions: &mut Vec<Action>) {
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
    app: &mut ChuheApp,
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
            })
            .into_iter()
            .collect(),
        traditional: language == Language::ZhTw,
        ..Marks::default()
    };
    // Keep clear of the text panel's frame, which the panel's width does not include.
    let room = ui.available_size() - Vec2::new(16.0, 0.0);
    let (response, geometry) = ui
        .allocate_ui(room.max(Vec2::splat(100.0)), |ui| {
            Board::new(&diagram, &marks, &theme).show(ui)
        })
        .inner;
    app.state.patterns.geometry = Some(geometry);
    if app.state.patterns.practice.is_some()
        && response.clicked()
        && let Some(square) = response
            .interact_pointer_pos()
            .and_then(|p| geometry.square_at(p))
    {
        actions.push(Action::Patterns(PatternAction::Click(square)));
    }
}

#[allow(clippy::too_many_arguments)]
fn text_panel(
    app: &ChuheApp,
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
            let notation = app.state.settings.notation.notation();
            let mut pos = start.clone();
            ui.horizontal_wrapped(|ui| {
                for (ply, &m) in line.iter().enumerate() {
                    let text = format_move(&pos, m, notation);
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
                let shapes = mate_patterns(start, line);
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
            } else if p.job.is_some() {
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
                let can_hint = p.job.is_none() && p.result != Some(true) && p.hint.is_some();
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
                let notation = app.state.settings.notation.notation();
                ui.label(i18n.tr_args(
                    "patterns-hint-move",
                    &[("move", format_move(&p.position, h, notation).into())],
                ));
            }
        }
    }
}

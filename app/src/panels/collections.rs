//! Game collections on screen: the explorer beside the board (the moves played from the
//! position, how each scored, the games that reached it) and the collection browser (a
//! sortable, filterable list of a collection's games, imports and their progress).

use crate::actions::*;
use crate::state::collections::{
    BrowserFilter, CollectionsState, ExplorerAnswer, ListedGame, PAGE_SIZE, POSITION_GAMES,
    collection_name, percent,
};
use crate::widgets::View;
use crate::words::text::{problem_text, score_text};
use chuhe_core::db::{GameSort, MoveStats, ResultFilter};
use chuhe_core::record::GameResult;
use egui::{Color32, RichText, Ui};

/// The explorer panel.
pub fn explorer(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let state = &app.state;
    let collections = &state.collections;
    ui.horizontal(|ui| {
        ui.heading(i18n.tr("explorer-title"));
        if ui
            .small_button("×")
            .on_hover_text(i18n.tr("explorer-close"))
            .clicked()
        {
            actions.push(Action::Collections(CollectionAction::ToggleExplorer));
        }
    });
    opening_names(app, ui);
    if collections.open.is_empty() {
        ui.weak(i18n.tr("collection-none"));
        ui.horizontal_wrapped(|ui| {
            if ui.button(i18n.tr("collection-new")).clicked() {
                actions.push(Action::Collections(CollectionAction::NewDialog));
            }
            if ui.button(i18n.tr("collection-open")).clicked() {
                actions.push(Action::Collections(CollectionAction::OpenDialog));
            }
        });
        return;
    }
    ui.horizontal_wrapped(|ui| {
        let mut fold = state.settings.explorer_fold_mirror;
        if ui
            .checkbox(&mut fold, i18n.tr("explorer-fold-mirror"))
            .clicked()
        {
            actions.push(Action::Collections(CollectionAction::SetFoldMirror(fold)));
        }
        if ui.button(i18n.tr("collection-find-position")).clicked() {
            actions.push(Action::Collections(CollectionAction::FindPosition(None)));
        }
    });
    let answer = match &collections.answer {
        None => {
            ui.weak(i18n.tr("explorer-searching"));
            return;
        }
        Some(Err(problem)) => {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                i18n.tr_args(
                    "explorer-error",
                    &[("error", problem_text(i18n, problem).into())],
                ),
            );
            return;
        }
        Some(Ok(answer)) => answer,
    };
    if answer.total.games == 0 {
        ui.weak(i18n.tr("explorer-none"));
        return;
    }
    let total = &answer.total;
    ui.label(i18n.tr_args(
        "explorer-total",
        &[
            ("games", total.games.into()),
            ("red", percent(total.red_wins, total.decided()).into()),
            ("draw", percent(total.draws, total.decided()).into()),
            ("black", percent(total.black_wins, total.decided()).into()),
        ],
    ));
    ui.separator();
    let position = state.position();
    let engine = state.visible_engine();
    egui::ScrollArea::vertical()
        .id_salt("explorer scroll")
        .auto_shrink([false, true])
        .max_height(ui.available_height() * 0.55)
        .show(ui, |ui| {
            egui::Grid::new("explorer moves")
                .striped(true)
                .num_columns(6)
                .show(ui, |ui| {
                    for id in [
                        "explorer-col-move",
                        "explorer-col-games",
                        "explorer-col-score",
                        "explorer-col-year",
                        "explorer-col-last",
                        "explorer-col-eval",
                    ] {
                        ui.strong(i18n.tr(id));
                    }
                    ui.end_row();
                    for stats in &answer.moves {
                        let Some(m) = stats.mv else { continue };
                        let text = app.move_text(position, m);
                        if ui
                            .add(egui::Button::new(RichText::new(text).strong()).frame(false))
                            .on_hover_text(i18n.tr("explorer-play-hint"))
                            .clicked()
                        {
                            actions.push(Action::Study(StudyAction::PlayMove(m)));
                        }
                        ui.label(format!(
                            "{} ({}%)",
                            stats.games,
                            percent(stats.games, total.games)
                        ));
                        score_bar(app, ui, stats);
                        ui.label(
                            stats
                                .average_year()
                                .map(|y| format!("{y:.0}"))
                                .unwrap_or_default(),
                        );
                        ui.label(stats.last_year.map(|y| y.to_string()).unwrap_or_default());
                        // The engine's word on the move, when its lines have it.
                        let eval = engine.and_then(|view| {
                            view.update
                                .report
                                .lines
                                .iter()
                                .find(|l| l.moves.first() == Some(&m))
                                .map(|l| {
                                    score_text(
                                        i18n,
                                        l.score_for_red(view.update.report.side_to_move),
                                        state.settings.score_unit,
                                    )
                                })
                        });
                        ui.monospace(eval.unwrap_or_default());
                        ui.end_row();
                    }
                });
        });
    ui.separator();
    explorer_games_heading(app, ui, answer, actions);
    egui::ScrollArea::vertical()
        .id_salt("explorer games")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for game in &answer.games {
                let text = game_line(app, game);
                if ui
                    .add(egui::Button::new(text).frame(false).wrap())
                    .on_hover_text(i18n.tr("explorer-open-game"))
                    .clicked()
                {
                    actions.push(open_game(game));
                }
            }
        });
}

/// How many games reached the position and which of them are listed, with buttons to the
/// pages before and after when they do not all fit.
fn explorer_games_heading(
    app: &View,
    ui: &mut Ui,
    answer: &ExplorerAnswer,
    actions: &mut Vec<Action>,
) {
    let i18n = &app.i18n;
    let total = answer.games_total;
    let from = answer.games_from;
    let to = from + answer.games.len();
    if from == 0 && to as u64 >= total {
        ui.strong(i18n.tr_args("explorer-games", &[("count", total.into())]));
        return;
    }
    ui.strong(i18n.tr_args(
        "explorer-games-page",
        &[
            ("from", (from + 1).min(to).into()),
            ("to", to.into()),
            ("total", total.into()),
        ],
    ));
    ui.horizontal(|ui| {
        if ui
            .add_enabled(from > 0, egui::Button::new("◀"))
            .on_hover_text(i18n.tr("explorer-games-previous"))
            .clicked()
        {
            actions.push(Action::Collections(CollectionAction::ExplorerPage(
                from.saturating_sub(POSITION_GAMES),
            )));
        }
        if ui
            .add_enabled((to as u64) < total, egui::Button::new("▶"))
            .on_hover_text(i18n.tr("explorer-games-next"))
            .clicked()
        {
            actions.push(Action::Collections(CollectionAction::ExplorerPage(
                from + POSITION_GAMES,
            )));
        }
    });
}

/// The ECCO code of the moves so far, the library's name for the position and its note.
fn opening_names(app: &View, ui: &mut Ui) {
    let derived = &app.state.study.derived;
    if let Some(code) = &derived.ecco_here {
        ui.label(format!("ECCO {} {}", code.code, code.name()));
    }
    let Some(found) = derived.opening.filter(|r| r.ply > 0) else {
        return;
    };
    let Some(node) = chuhe_core::library::openings::builtin()
        .ok()
        .and_then(|b| b.node(found.node))
    else {
        return;
    };
    let lang = app.i18n.language().tag();
    ui.strong(node.names.get(lang));
    // The note is about the named position itself, not the moves after it.
    let here = app
        .state
        .study
        .record
        .moves_to(app.state.study.cursor)
        .len();
    if found.ply == here {
        let note = node.note.get(lang);
        if !note.is_empty() {
            ui.add(egui::Label::new(note).wrap());
        }
    }
}

/// The opening of a listed game at its ply.
fn open_game(game: &ListedGame) -> Action {
    Action::Collections(CollectionAction::OpenGame {
        collection: game.collection.clone(),
        id: game.info.id,
        ply: game.ply,
    })
}

/// "Red – Black · event · date · result".
fn game_line(app: &View, game: &ListedGame) -> String {
    let info = &game.info;
    let mut parts = vec![format!("{} – {}", info.red, info.black)];
    for part in [&info.event, &info.date] {
        if !part.is_empty() {
            parts.push(part.clone());
        }
    }
    parts.push(result_text(app, info.result));
    parts.join(" · ")
}

fn result_text(app: &View, result: GameResult) -> String {
    app.i18n.tr(match result {
        GameResult::RedWins => "result-red-wins",
        GameResult::BlackWins => "result-black-wins",
        GameResult::Draw => "result-draw",
        GameResult::Unknown => "result-unknown",
    })
}

/// Red wins, draws and Black wins as one bar: red, grey, black.
fn score_bar(app: &View, ui: &mut Ui, stats: &MoveStats) {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(90.0, 12.0), egui::Sense::hover());
    let decided = stats.decided();
    let painter = ui.painter();
    let grey = Color32::from_gray(150);
    if decided == 0 {
        painter.rect_filled(rect, 2.0, grey.gamma_multiply(0.4));
    } else {
        let width = rect.width();
        let mut x = rect.left();
        for (count, colour) in [
            (stats.red_wins, Color32::from_rgb(200, 40, 40)),
            (stats.draws, grey),
            (stats.black_wins, Color32::from_gray(20)),
        ] {
            let w = width * count as f32 / decided as f32;
            let part = egui::Rect::from_min_size(egui::pos2(x, rect.top()), egui::vec2(w, 12.0));
            painter.rect_filled(part, 0.0, colour);
            x += w;
        }
    }
    painter.rect_stroke(
        rect,
        2.0,
        egui::Stroke::new(1.0, ui.visuals().widgets.noninteractive.bg_stroke.color),
        egui::StrokeKind::Inside,
    );
    response.on_hover_text(app.i18n.tr_args(
        "explorer-bar-hover",
        &[
            ("red", percent(stats.red_wins, decided).into()),
            ("draw", percent(stats.draws, decided).into()),
            ("black", percent(stats.black_wins, decided).into()),
        ],
    ));
}

/// The collection browser's window.
pub fn browser(app: &View, ctx: &egui::Context, actions: &mut Vec<Action>) {
    let collections = &app.state.collections;
    if !collections.browser.open {
        return;
    }
    let i18n = &app.i18n;
    let mut open = true;
    egui::Window::new(i18n.tr("collection-title"))
        .constrain_to(crate::widgets::window_area(ctx))
        .open(&mut open)
        .default_size([760.0, 520.0])
        .resizable(true)
        .show(ctx, |ui| browser_body(app, ui, collections, actions));
    if !open {
        actions.push(Action::Collections(CollectionAction::ToggleBrowser));
    }
    // Enter opens the chosen game, unless a text field has the keys.
    if collections.browser.selected.is_some()
        && !ctx.egui_wants_keyboard_input()
        && ctx.input(|i| i.key_pressed(egui::Key::Enter))
    {
        actions.push(Action::Collections(CollectionAction::OpenSelected));
    }
}

fn browser_body(
    app: &View,
    ui: &mut Ui,
    collections: &CollectionsState,
    actions: &mut Vec<Action>,
) {
    let i18n = &app.i18n;
    let browser = &collections.browser;
    ui.horizontal_wrapped(|ui| {
        if let Some(current) = collections.current() {
            let label = ui.label(i18n.tr("collection-choose"));
            egui::ComboBox::from_id_salt("collection choice")
                .selected_text(current.name())
                .show_ui(ui, |ui| {
                    for c in &collections.open {
                        let label = format!(
                            "{}  ({})",
                            c.name(),
                            i18n.tr_args("collection-games-count", &[("games", c.games.into())])
                        );
                        if ui
                            .selectable_label(c.path == current.path, label)
                            .on_hover_text(c.path.display().to_string())
                            .clicked()
                        {
                            actions
                                .push(Action::Collections(CollectionAction::Show(c.path.clone())));
                        }
                    }
                })
                .response
                .labelled_by(label.id);
            ui.label(i18n.tr_args("collection-games-count", &[("games", current.games.into())]));
            if ui.button(i18n.tr("collection-close")).clicked() {
                actions.push(Action::Collections(CollectionAction::Close(
                    current.path.clone(),
                )));
            }
        }
        for (id, action) in [
            ("collection-new", CollectionAction::NewDialog),
            ("collection-open", CollectionAction::OpenDialog),
            ("collection-import-file", CollectionAction::ImportFileDialog),
            (
                "collection-import-folder",
                CollectionAction::ImportFolderDialog,
            ),
        ] {
            let enabled = !matches!(
                action,
                CollectionAction::ImportFileDialog | CollectionAction::ImportFolderDialog
            ) || (!collections.open.is_empty() && collections.import.is_none());
            if ui
                .add_enabled(enabled, egui::Button::new(i18n.tr(id)))
                .clicked()
            {
                actions.push(Action::Collections(action));
            }
        }
    });
    import_status(app, ui, collections, actions);
    if collections.open.is_empty() {
        ui.weak(i18n.tr("collection-none"));
        ui.weak(i18n.tr("collection-drop-hint"));
        return;
    }
    ui.separator();
    if browser.position.is_some() {
        ui.horizontal_wrapped(|ui| {
            ui.strong(i18n.tr("collection-position-mode"));
            if ui.button(i18n.tr("collection-position-back")).clicked() {
                actions.push(Action::Collections(CollectionAction::ClearPosition));
            }
        });
    }
    filter_row(app, ui, &browser.filter, actions);
    if let Some(problem) = &browser.error {
        ui.colored_label(ui.visuals().warn_fg_color, problem_text(i18n, problem));
    }
    let Some((total, games)) = &browser.page else {
        ui.weak(i18n.tr("explorer-searching"));
        return;
    };
    ui.horizontal(|ui| {
        let from = browser.offset + 1;
        let to = browser.offset + games.len() as u64;
        if ui
            .add_enabled(browser.offset > 0, egui::Button::new("◀"))
            .on_hover_text(i18n.tr("collection-previous"))
            .clicked()
        {
            actions.push(Action::Collections(CollectionAction::Page(
                browser.offset.saturating_sub(PAGE_SIZE),
            )));
        }
        ui.label(i18n.tr_args(
            "collection-page",
            &[
                ("from", from.min(*total).into()),
                ("to", to.into()),
                ("total", (*total).into()),
            ],
        ));
        if ui
            .add_enabled(to < *total, egui::Button::new("▶"))
            .on_hover_text(i18n.tr("collection-next"))
            .clicked()
        {
            actions.push(Action::Collections(CollectionAction::Page(
                browser.offset + PAGE_SIZE,
            )));
        }
        if ui
            .add_enabled(
                !games.is_empty(),
                egui::Button::new(i18n.tr("collection-worksheet")),
            )
            .on_hover_text(i18n.tr("collection-worksheet-tip"))
            .clicked()
        {
            actions.push(Action::Collections(CollectionAction::Worksheet));
        }
        ui.weak(i18n.tr("collection-open-hint"));
    });
    if games.is_empty() {
        ui.weak(i18n.tr("collection-empty"));
        return;
    }
    egui::ScrollArea::both()
        .id_salt("collection games")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            egui::Grid::new("collection table")
                .striped(true)
                .num_columns(8)
                .show(ui, |ui| {
                    for (column, id) in COLUMNS {
                        let mut text = i18n.tr(id);
                        if browser.sort == column {
                            text.push_str(if browser.descending { " ▼" } else { " ▲" });
                        }
                        if ui
                            .add(egui::Button::new(RichText::new(text).strong()).frame(false))
                            .on_hover_text(i18n.tr("collection-sort-hint"))
                            .clicked()
                        {
                            actions.push(Action::Collections(CollectionAction::Sort(column)));
                        }
                    }
                    ui.end_row();
                    for game in games {
                        let info = &game.info;
                        let chosen =
                            browser.selected.as_ref() == Some(&(game.collection.clone(), info.id));
                        let number = ui.selectable_label(chosen, info.id.to_string());
                        let cells = [
                            info.red.clone(),
                            info.black.clone(),
                            info.event.clone(),
                            info.date.clone(),
                            result_text(app, info.result),
                            info.ecco.clone(),
                            info.plies.to_string(),
                        ];
                        let mut responses = vec![number];
                        for cell in cells {
                            responses.push(ui.selectable_label(chosen, cell));
                        }
                        ui.end_row();
                        for response in responses {
                            if response.double_clicked() {
                                actions.push(open_game(game));
                            } else if response.clicked() {
                                actions.push(Action::Collections(CollectionAction::Select(
                                    game.collection.clone(),
                                    info.id,
                                )));
                            }
                        }
                    }
                });
        });
}

/// The browser's columns and their headings.
const COLUMNS: [(GameSort, &str); 8] = [
    (GameSort::Number, "collection-col-number"),
    (GameSort::Red, "collection-col-red"),
    (GameSort::Black, "collection-col-black"),
    (GameSort::Event, "collection-col-event"),
    (GameSort::Date, "collection-col-date"),
    (GameSort::Result, "collection-col-result"),
    (GameSort::Ecco, "collection-col-ecco"),
    (GameSort::Plies, "collection-col-plies"),
];

/// The filter's fields: each change asks for the list again.
fn filter_row(app: &View, ui: &mut Ui, filter: &BrowserFilter, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let mut changed = filter.clone();
    ui.horizontal_wrapped(|ui| {
        let field = |ui: &mut Ui, id: &str, text: &mut String, width: f32, hint: &str| {
            let label = ui.label(i18n.tr(id));
            ui.add(
                egui::TextEdit::singleline(text)
                    .desired_width(width)
                    .hint_text(hint),
            )
            .labelled_by(label.id);
        };
        field(
            ui,
            "collection-filter-player",
            &mut changed.player,
            90.0,
            "",
        );
        field(ui, "collection-filter-event", &mut changed.event, 90.0, "");
        field(
            ui,
            "collection-filter-year-from",
            &mut changed.year_from,
            44.0,
            "",
        );
        field(
            ui,
            "collection-filter-year-to",
            &mut changed.year_to,
            44.0,
            "",
        );
        field(ui, "collection-filter-ecco", &mut changed.ecco, 40.0, "C");
        field(
            ui,
            "collection-filter-material",
            &mut changed.material,
            130.0,
            &i18n.tr("collection-filter-material-hint"),
        );
        let label = ui.label(i18n.tr("collection-filter-result"));
        let name = |r: Option<ResultFilter>| match r {
            None => i18n.tr("collection-filter-result-any"),
            Some(ResultFilter::RedWins) => i18n.tr("result-red-wins"),
            Some(ResultFilter::Draw) => i18n.tr("result-draw"),
            Some(ResultFilter::BlackWins) => i18n.tr("result-black-wins"),
        };
        egui::ComboBox::from_id_salt("collection result filter")
            .selected_text(name(changed.result))
            .show_ui(ui, |ui| {
                for r in [
                    None,
                    Some(ResultFilter::RedWins),
                    Some(ResultFilter::Draw),
                    Some(ResultFilter::BlackWins),
                ] {
                    ui.selectable_value(&mut changed.result, r, name(r));
                }
            })
            .response
            .labelled_by(label.id);
    });
    if changed != *filter {
        actions.push(Action::Collections(CollectionAction::SetFilter(changed)));
    }
}

/// An import's progress bar and cancel button, or what the last import did.
fn import_status(
    app: &View,
    ui: &mut Ui,
    collections: &CollectionsState,
    actions: &mut Vec<Action>,
) {
    let i18n = &app.i18n;
    if let Some(import) = &collections.import {
        let p = &import.progress;
        let fraction = if p.files_total == 0 {
            0.0
        } else {
            p.files_done as f32 / p.files_total as f32
        };
        ui.horizontal(|ui| {
            ui.add(
                egui::ProgressBar::new(fraction)
                    .desired_width(200.0)
                    .show_percentage(),
            );
            if import.cancelling {
                ui.weak(i18n.tr("collection-import-cancelling"));
            } else if ui.button(i18n.tr("collection-import-cancel")).clicked() {
                actions.push(Action::Collections(CollectionAction::CancelImport));
            }
        });
        ui.label(i18n.tr_args(
            "collection-importing",
            &[
                ("name", collection_name(&import.collection).into()),
                ("done", p.files_done.into()),
                ("total", p.files_total.into()),
                ("games", p.games.into()),
                ("duplicates", p.duplicates.into()),
                ("failed", p.failed.into()),
            ],
        ));
        return;
    }
    let Some(outcome) = &collections.last_import else {
        return;
    };
    if let Some(error) = &outcome.error {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            i18n.tr_args(
                "collection-import-error",
                &[("error", problem_text(i18n, error).into())],
            ),
        );
        return;
    }
    let p = &outcome.progress;
    let id = if outcome.cancelled {
        "collection-import-cancelled"
    } else {
        "collection-imported"
    };
    ui.label(i18n.tr_args(
        id,
        &[
            ("name", collection_name(&outcome.collection).into()),
            ("games", p.games.into()),
            ("duplicates", p.duplicates.into()),
            ("failed", p.failed.into()),
        ],
    ));
    if !outcome.failures.is_empty() {
        egui::CollapsingHeader::new(i18n.tr_args(
            "collection-import-failures",
            &[("count", outcome.failures.len().into())],
        ))
        .id_salt("import failures")
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("import failures list")
                .max_height(120.0)
                .show(ui, |ui| {
                    for problem in &outcome.failures {
                        ui.add(egui::Label::new(problem_text(i18n, problem)).wrap());
                    }
                });
        });
    }
}

//! The menu bar: files, editing, view, engine and language.

use crate::actions::Action;
use crate::actions::*;
use crate::i18n::Language;
use crate::settings::MoveNotation;
use crate::theme::ThemeChoice;
use crate::widgets::View;
use crate::widgets::board::Coordinates;
use crate::widgets::shortcuts;
use egui::Ui;

/// A menu item: its message id and what it does (its shortcut is the keyboard's own).
type MenuEntry = (&'static str, Action);

/// Adds `entries` to a menu; the clicked one's action goes to `actions`.
fn add_items(
    ui: &mut Ui,
    entries: impl IntoIterator<Item = MenuEntry>,
    item: &impl Fn(&mut Ui, &str, &Action) -> bool,
    actions: &mut Vec<Action>,
) {
    for (id, action) in entries {
        if item(ui, id, &action) {
            actions.push(action);
        }
    }
}

/// Draws the menu bar.
pub fn show(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let state = &app.state;
    let ctx = ui.ctx().clone();
    let cursor = state.study.cursor;
    let item = |ui: &mut Ui, id: &str, action: &Action| {
        let mut button = egui::Button::new(i18n.tr(id));
        if let Some(keys) = shortcuts::label_of(&ctx, action, cursor) {
            button = button.shortcut_text(keys);
        }
        ui.add(button).clicked()
    };
    // Menus that do not fit the window's width fold into one 菜单 menu; whether they fit
    // is known from the row's width the last time it was laid out whole.
    let width_id = egui::Id::unique("chuhe menu row width");
    let needed: Option<f32> = ui.data(|d| d.get_temp(width_id));
    let fold = needed.is_some_and(|w| w > ui.available_width());
    let mut menus = |ui: &mut Ui| {
        ui.menu_button(i18n.tr("menu-file"), |ui| {
            let entries: [MenuEntry; 13] = [
                ("file-new", Action::File(FileAction::New)),
                ("file-open", Action::File(FileAction::OpenDialog)),
                (
                    "file-open-folder",
                    Action::File(FileAction::OpenFolderDialog),
                ),
                (
                    "file-open-picture",
                    Action::Picture(PictureAction::OpenDialog),
                ),
                ("file-previous", Action::File(FileAction::PreviousFile)),
                ("file-next", Action::File(FileAction::NextFile)),
                ("file-save", Action::File(FileAction::Save)),
                ("file-save-as", Action::File(FileAction::SaveAsDialog)),
                (
                    "file-export-png",
                    Action::Export(ExportAction::Dialog(Some(
                        crate::state::export::ExportOptions::default(),
                    ))),
                ),
                (
                    "file-worksheet",
                    Action::Worksheet(WorksheetAction::Dialog(Some(
                        crate::state::worksheet::WorksheetOptions::new(
                            crate::state::worksheet::WorksheetSource::Board,
                            i18n.tr("worksheet-default-title"),
                            &state.settings.worksheet,
                        ),
                    ))),
                ),
                ("file-copy-fen", Action::Study(StudyAction::CopyFen)),
                ("file-copy-pgn", Action::Study(StudyAction::CopyPgn)),
                ("file-quit", Action::Window(WindowAction::RequestQuit)),
            ];
            add_items(ui, entries, &item, actions);
            ui.menu_button(i18n.tr("file-recent"), |ui| {
                if state.settings.recent_files.is_empty() {
                    ui.weak(i18n.tr("file-recent-none"));
                }
                for path in &state.settings.recent_files {
                    if ui.button(path.display().to_string()).clicked() {
                        actions.push(Action::File(FileAction::Open(path.clone())));
                    }
                }
            });
            ui.menu_button(i18n.tr("menu-collections"), |ui| {
                collections_menu(ui, &item, actions);
            });
            ui.weak(i18n.tr("file-paste-hint"));
        });
        ui.menu_button(i18n.tr("menu-edit"), |ui| {
            let entries: [MenuEntry; 7] = [
                ("edit-undo", Action::Study(StudyAction::Undo)),
                ("edit-redo", Action::Study(StudyAction::Redo)),
                (
                    "edit-promote",
                    Action::Study(StudyAction::PromoteVariation(cursor)),
                ),
                (
                    "edit-main-line",
                    Action::Study(StudyAction::MakeMainLine(cursor)),
                ),
                (
                    "edit-delete-from",
                    Action::Study(StudyAction::DeleteFrom(cursor)),
                ),
                ("edit-clear-marks", Action::Study(StudyAction::ClearMarks)),
                ("edit-copy-dhtmlxq", Action::Study(StudyAction::CopyDhtmlXq)),
            ];
            add_items(ui, entries, &item, actions);
            ui.weak(i18n.tr("edit-marks-hint"));
        });
        ui.menu_button(i18n.tr("menu-view"), |ui| {
            add_items(
                ui,
                [("view-flip", Action::View(ViewAction::Flip))],
                &item,
                actions,
            );
            if ui
                .selectable_label(
                    state.settings.show_destinations,
                    i18n.tr("view-destinations"),
                )
                .clicked()
            {
                actions.push(Action::View(ViewAction::ToggleDestinations));
            }
            if ui
                .selectable_label(!state.settings.mute, i18n.tr("view-sounds"))
                .clicked()
            {
                actions.push(Action::View(ViewAction::ToggleSounds));
            }
            if ui
                .selectable_label(state.openings.open, i18n.tr("view-openings"))
                .clicked()
            {
                actions.push(Action::Openings(OpeningsAction::Toggle));
            }
            if ui
                .selectable_label(state.settings.explorer_open, i18n.tr("view-explorer"))
                .clicked()
            {
                actions.push(Action::Collections(CollectionAction::ToggleExplorer));
            }
            add_items(
                ui,
                [("view-board-only", Action::View(ViewAction::ToggleBoardOnly))],
                &item,
                actions,
            );
            add_items(
                ui,
                [(
                    "audience-toggle",
                    Action::Presentation(PresentationAction::ToggleAudience),
                )],
                &item,
                actions,
            );
            add_items(
                ui,
                [(
                    "view-presentation",
                    Action::Presentation(PresentationAction::Toggle),
                )],
                &item,
                actions,
            );
            // The knowledge reference's board-lines overlay.
            let lines =
                egui::Button::selectable(state.knowledge.board_lines, i18n.tr("view-board-lines"))
                    .shortcut_text(
                        shortcuts::label_of(
                            &ctx,
                            &Action::Knowledge(KnowledgeAction::ToggleBoardLines),
                            cursor,
                        )
                        .unwrap_or_default(),
                    );
            if ui.add(lines).clicked() {
                actions.push(Action::Knowledge(
                    crate::actions::KnowledgeAction::ToggleBoardLines,
                ));
            }
            ui.separator();
            ui.weak(i18n.tr("view-coordinates"));
            for (coordinates, id) in [
                (Coordinates::Chinese, "coordinates-chinese"),
                (Coordinates::Iccs, "coordinates-iccs"),
            ] {
                if ui
                    .selectable_label(state.settings.coordinates == coordinates, i18n.tr(id))
                    .clicked()
                {
                    actions.push(Action::View(ViewAction::SetCoordinates(coordinates)));
                }
            }
            ui.separator();
            ui.weak(i18n.tr("view-theme"));
            for theme in ThemeChoice::ALL {
                if ui
                    .selectable_label(state.settings.theme == theme, i18n.tr(theme.message_id()))
                    .clicked()
                {
                    actions.push(Action::View(ViewAction::SetTheme(theme)));
                }
            }
            ui.separator();
            ui.weak(i18n.tr("view-notation"));
            for notation in MoveNotation::ALL {
                if ui
                    .selectable_label(
                        state.settings.notation == notation,
                        i18n.tr(notation.message_id()),
                    )
                    .clicked()
                {
                    actions.push(Action::View(ViewAction::SetNotation(notation)));
                }
            }
            ui.separator();
            ui.weak(i18n.tr("view-score-unit"));
            for unit in crate::settings::ScoreUnit::ALL {
                if ui
                    .selectable_label(
                        state.settings.score_unit == unit,
                        i18n.tr(unit.message_id()),
                    )
                    .clicked()
                {
                    actions.push(Action::View(ViewAction::SetScoreUnit(unit)));
                }
            }
            ui.separator();
            if ui
                .checkbox(
                    &mut state.settings.show_frame_time.clone(),
                    i18n.tr("view-frame-time"),
                )
                .clicked()
            {
                actions.push(Action::View(ViewAction::ToggleFrameTime));
            }
        });
        ui.menu_button(i18n.tr("menu-engine"), |ui| {
            add_items(
                ui,
                [(
                    "analysis-toggle",
                    Action::Engine(EngineAction::ToggleAnalysis),
                )],
                &item,
                actions,
            );
            add_items(
                ui,
                [(
                    "engine-toggle-hidden",
                    Action::Engine(EngineAction::ToggleEngineHidden),
                )],
                &item,
                actions,
            );
            add_items(
                ui,
                [("review-start", Action::Engine(EngineAction::StartReview))],
                &item,
                actions,
            );
            ui.separator();
            engine_settings(app, ui, actions);
        });
        ui.menu_button(i18n.tr("menu-play"), |ui| {
            menu_play(app, ui, actions);
        });
        ui.menu_button(i18n.tr("menu-puzzles"), |ui| {
            use crate::actions::EditorAction;
            use crate::actions::PuzzleAction;
            let entries: [MenuEntry; 4] = [
                ("editor-open", Action::Editor(EditorAction::Open)),
                ("puzzles-open", Action::Puzzle(PuzzleAction::ToggleBrowser)),
                ("puzzles-import", Action::Puzzle(PuzzleAction::ImportDialog)),
                (
                    "tb-browser",
                    Action::Tablebase(crate::actions::TbAction::ToggleBrowser),
                ),
            ];
            add_items(ui, entries, &item, actions);
        });
        ui.menu_button(i18n.tr("menu-training"), |ui| {
            use chuhe_core::Color;
            let entries: [MenuEntry; 6] = [
                ("training-open", TrainAction::ToggleHome.into()),
                ("training-start-round-menu", TrainAction::StartRound.into()),
                (
                    "training-mark-study-red",
                    TrainAction::MarkStudy(Color::Red).into(),
                ),
                (
                    "training-mark-study-black",
                    TrainAction::MarkStudy(Color::Black).into(),
                ),
                ("training-export", TrainAction::ExportDialog.into()),
                ("training-import", TrainAction::ImportDialog.into()),
            ];
            add_items(ui, entries, &item, actions);
        });
        ui.menu_button(i18n.tr("menu-language"), |ui| {
            for language in Language::ALL {
                if ui
                    .selectable_label(
                        i18n.language() == language,
                        i18n.tr_in(language, "language-name"),
                    )
                    .clicked()
                {
                    actions.push(Action::View(ViewAction::SetLanguage(language)));
                }
            }
        });
        // Presentation mode is one click away for a teacher in front of a class.
        if ui
            .selectable_label(state.presentation.is_some(), i18n.tr("presentation-button"))
            .clicked()
        {
            actions.push(Action::Presentation(PresentationAction::Toggle));
        }
        // The 36 checkmate patterns: one click opens the gallery (or closes it).
        let patterns_open = state.patterns.open;
        if ui
            .selectable_label(patterns_open, i18n.tr("menu-patterns"))
            .clicked()
        {
            actions.push(Action::Patterns(if patterns_open {
                crate::actions::PatternAction::Close
            } else {
                crate::actions::PatternAction::Gallery
            }));
        }
        // The knowledge reference: rules, terms, tactics, values, maxims, search.
        if ui
            .selectable_label(state.knowledge.open, i18n.tr("menu-knowledge"))
            .on_hover_text(
                shortcuts::label_of(&ctx, &Action::Knowledge(KnowledgeAction::Toggle), cursor)
                    .unwrap_or_default(),
            )
            .clicked()
        {
            actions.push(Action::Knowledge(crate::actions::KnowledgeAction::Toggle));
        }
        // The club or class tournaments.
        ui.menu_button(i18n.tr("menu-club"), |ui| {
            let entries: [MenuEntry; 1] = [(
                "club-open",
                Action::Club(crate::actions::ClubAction::Toggle),
            )];
            add_items(ui, entries, &item, actions);
        });
        // The class following the board in their browsers.
        ui.menu_button(i18n.tr("menu-class"), |ui| {
            let entries: [MenuEntry; 3] = [
                (
                    "class-start-menu",
                    Action::Class(crate::actions::ClassAction::Start),
                ),
                (
                    "class-stop-menu",
                    Action::Class(crate::actions::ClassAction::Stop),
                ),
                (
                    "class-window",
                    Action::Class(crate::actions::ClassAction::ToggleWindow),
                ),
            ];
            add_items(ui, entries, &item, actions);
        });
    };
    egui::MenuBar::new().ui(ui, |ui| {
        if fold {
            // In a short window the list of menus scrolls, so the last stays in reach.
            ui.menu_button(i18n.tr("menu-all"), |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| menus(ui));
            });
        } else {
            let row = ui.horizontal(|ui| menus(ui)).response.rect.width();
            ui.data_mut(|d| d.insert_temp(width_id, row));
        }
    });
}

/// The game collections: the browser, making, opening, importing, finding the board's
/// position.
fn collections_menu(
    ui: &mut Ui,
    item: &impl Fn(&mut Ui, &str, &Action) -> bool,
    actions: &mut Vec<Action>,
) {
    let entries: [MenuEntry; 6] = [
        (
            "collection-browser",
            Action::Collections(CollectionAction::ToggleBrowser),
        ),
        (
            "collection-new",
            Action::Collections(CollectionAction::NewDialog),
        ),
        (
            "collection-open",
            Action::Collections(CollectionAction::OpenDialog),
        ),
        (
            "collection-import-file",
            Action::Collections(CollectionAction::ImportFileDialog),
        ),
        (
            "collection-import-folder",
            Action::Collections(CollectionAction::ImportFolderDialog),
        ),
        (
            "collection-find-position",
            Action::Collections(CollectionAction::FindPosition(None)),
        ),
    ];
    add_items(ui, entries, item, actions);
}

/// The engine's options: hash size, threads and the time per position of a review.
fn engine_settings(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let mut engine = app.state.settings.engine.clone();
    // Asked of the system once (it reads the process's affinity and cgroup limits), not
    // at every frame the menu is open.
    let machine = crate::settings::Machine::this();
    egui::Grid::new("engine_settings")
        .num_columns(2)
        .show(ui, |ui| {
            let label = ui.label(i18n.tr("engine-hash"));
            ui.add(
                egui::DragValue::new(&mut engine.hash_mb)
                    .range(1..=4096)
                    .suffix(" MiB"),
            )
            .labelled_by(label.id);
            ui.end_row();
            let label = ui.label(i18n.tr("engine-threads"));
            ui.add(egui::DragValue::new(&mut engine.threads).range(1..=machine.cores))
                .labelled_by(label.id);
            ui.end_row();
            let label = ui.label(i18n.tr("engine-review-time"));
            ui.add(
                egui::DragValue::new(&mut engine.review_ms)
                    .range(20..=60_000)
                    .suffix(" ms"),
            )
            .labelled_by(label.id);
            ui.end_row();
        });
    // What the defaults come from, and a way back to them (a settings file from before
    // they were sized to the machine keeps its one thread).
    ui.horizontal_wrapped(|ui| {
        ui.weak(i18n.tr_args(
            "engine-machine",
            &[
                ("cores", machine.cores.to_string().into()),
                ("threads", machine.threads().to_string().into()),
                ("hash", machine.hash_mb().to_string().into()),
            ],
        ));
        let suggested = (machine.threads(), machine.hash_mb());
        if ui
            .add_enabled(
                (engine.threads, engine.hash_mb) != suggested,
                egui::Button::new(i18n.tr("engine-use-machine")),
            )
            .clicked()
        {
            (engine.threads, engine.hash_mb) = suggested;
        }
    });
    external_engines(app, ui, &mut engine, actions);
    if engine != app.state.settings.engine {
        actions.push(Action::Engine(EngineAction::SetEngineSettings(engine)));
    }
}

/// Which engine analyses: the built-in one or an external UCI engine the user added, with
/// the chosen engine's own options.
fn external_engines(
    app: &View,
    ui: &mut Ui,
    engine: &mut crate::settings::EngineSettings,
    actions: &mut Vec<Action>,
) {
    let i18n = &app.i18n;
    ui.separator();
    ui.label(i18n.tr("engine-choose"));
    if ui
        .radio(engine.active_external.is_none(), i18n.tr("engine-builtin"))
        .clicked()
    {
        engine.active_external = None;
    }
    let mut remove = None;
    for (index, external) in engine.external.iter().enumerate() {
        ui.horizontal(|ui| {
            let chosen = engine.active_external == Some(index);
            if ui
                .radio(chosen, &external.name)
                .on_hover_text(external.path.display().to_string())
                .clicked()
            {
                engine.active_external = Some(index);
            }
            if ui
                .small_button("✕")
                .on_hover_text(i18n.tr("engine-remove"))
                .clicked()
            {
                remove = Some(index);
            }
        });
    }
    if let Some(index) = remove {
        engine.external.remove(index);
        engine.active_external = match engine.active_external {
            Some(i) if i == index => None,
            Some(i) if i > index => Some(i - 1),
            other => other,
        };
    }
    if ui.button(i18n.tr("engine-add")).clicked() {
        actions.push(Action::Engine(EngineAction::AddEngineDialog));
    }
    // The chosen engine's options, as it declared them in the handshake.
    let Some(crate::state::analysis::EngineStatus::External(info)) =
        &app.state.analysis.engine_status
    else {
        return;
    };
    let Some(index) = engine.active_external else {
        return;
    };
    let Some(external) = engine.external.get_mut(index) else {
        return;
    };
    ui.collapsing(
        i18n.tr_args("engine-options", &[("name", info.name.clone().into())]),
        |ui| {
            egui::Grid::new("external_engine_options")
                .num_columns(2)
                .show(ui, |ui| {
                    for option in &info.options {
                        use chuhe_core::external::OptionKind;
                        let set = external
                            .options
                            .iter()
                            .find(|(n, _)| n == &option.name)
                            .map(|(_, v)| v.clone());
                        let mut value = None;
                        match &option.kind {
                            OptionKind::Button => continue,
                            OptionKind::Check { default } => {
                                let mut on = set.map_or(*default, |v| v == "true");
                                if ui.checkbox(&mut on, &option.name).changed() {
                                    value = Some(on.to_string());
                                }
                                ui.label("");
                            }
                            OptionKind::Spin { default, min, max } => {
                                let label = ui.label(&option.name);
                                let mut n: i64 =
                                    set.and_then(|v| v.parse().ok()).unwrap_or(*default);
                                let response = ui
                                    .add(egui::DragValue::new(&mut n).range(*min..=*max))
                                    .labelled_by(label.id);
                                // Restarting the engine on every step of a drag would be slow.
                                if response.drag_stopped()
                                    || (response.changed() && !response.dragged())
                                {
                                    value = Some(n.to_string());
                                }
                            }
                            OptionKind::Combo { default, choices } => {
                                ui.label(&option.name);
                                let current = set.unwrap_or_else(|| default.clone());
                                let mut chosen = current.clone();
                                egui::ComboBox::from_id_salt(&option.name)
                                    .selected_text(chosen.clone())
                                    .show_ui(ui, |ui| {
                                        for choice in choices {
                                            ui.selectable_value(
                                                &mut chosen,
                                                choice.clone(),
                                                choice,
                                            );
                                        }
                                    });
                                if chosen != current {
                                    value = Some(chosen);
                                }
                            }
                            OptionKind::Text { default } => {
                                let label = ui.label(&option.name);
                                let current = set.unwrap_or_else(|| default.clone());
                                // What is being typed lives in egui's memory until the field
                                // loses focus, and only then goes to the engine (a path, say).
                                let id = ui.scope_id().with(("external option", &option.name));
                                let mut text: String = ui
                                    .data(|d| d.get_temp(id))
                                    .unwrap_or_else(|| current.clone());
                                let response = ui
                                    .add(egui::TextEdit::singleline(&mut text).id(id))
                                    .labelled_by(label.id);
                                if response.lost_focus() {
                                    ui.data_mut(|d| d.remove::<String>(id));
                                    if text != current {
                                        value = Some(text);
                                    }
                                } else if response.changed() {
                                    ui.data_mut(|d| d.insert_temp(id, text));
                                }
                            }
                        }
                        ui.end_row();
                        if let Some(value) = value {
                            external.options.retain(|(n, _)| n != &option.name);
                            external.options.push((option.name.clone(), value));
                        }
                    }
                });
        },
    );
}

/// The Play menu's entries.
fn menu_play(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let playing = app.state.play.as_ref().is_some_and(|m| m.result.is_none());
    let mut entry = |ui: &mut Ui, id: &str, enabled: bool, action: PlayAction| {
        if ui
            .add_enabled(enabled, egui::Button::new(i18n.tr(id)))
            .clicked()
        {
            actions.push(Action::Play(action));
        }
    };
    entry(
        ui,
        "play-new-engine",
        true,
        PlayAction::OpenSetup {
            against_engine: true,
        },
    );
    entry(
        ui,
        "play-new-hot-seat",
        true,
        PlayAction::OpenSetup {
            against_engine: false,
        },
    );
    ui.separator();
    entry(ui, "play-take-back", playing, PlayAction::TakeBack);
    entry(ui, "play-offer-draw", playing, PlayAction::AskDrawOffer);
    entry(ui, "play-resign", playing, PlayAction::AskResign);
    entry(
        ui,
        "play-leave",
        app.state.play.is_some(),
        PlayAction::Leave,
    );
}

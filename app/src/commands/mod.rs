//! The commands: the only code that changes the state. Each feature has one command file
//! whose entry takes the feature's action; [`run`] dispatches one action to it. A command
//! never calls the dispatcher: what it sets off, it pushes to the [`Queue`], which the app
//! drains. Every record edit goes through the record's undo history.

mod autosave;
mod class;
mod club;
mod collections;
mod editor;
mod engine;
mod export;
mod feedback;
mod file_chooser;
mod files;
mod knowledge;
mod openings;
mod patterns;
mod picture;
mod play;
mod presentation;
mod puzzles;
mod study;
mod tablebase;
mod tabs;
mod training;
mod view;
mod window;
mod worksheet;

use crate::actions::*;
use crate::services::Services;
use crate::state::{Dialog, Notice, State};
use std::collections::VecDeque;

pub use feedback::{tick, user_acted};

/// The actions waiting to be carried out, in order: what the input, the panels and the
/// services asked for, and what each command sets off. Commands only push to it; the app
/// drains it, one action at a time, so every action runs from the top, through
/// [`run`], never from inside another command.
#[derive(Default)]
pub struct Queue {
    pending: VecDeque<Action>,
    /// An action held back until the user answers whether to lose unsaved changes (the
    /// state holds no actions: they are the layer above it).
    pub held: Option<Action>,
    /// While the in-app file browser is open: what follows the path chosen in it.
    pub(crate) then_chosen: Option<(
        crate::state::file_chooser::FilePurpose,
        crate::actions::file_chooser::Then,
    )>,
}

impl Queue {
    /// Adds `action` after those already waiting.
    pub fn push(&mut self, action: Action) {
        self.pending.push_back(action);
    }

    /// The next action to carry out.
    pub fn pop(&mut self) -> Option<Action> {
        self.pending.pop_front()
    }

    /// Says `notice` in the status bar.
    pub fn say(&mut self, notice: crate::state::Notice) {
        self.push(FeedbackAction::Say(notice).into());
    }

    /// Says a failure in the status bar and in a toast that stays until dismissed.
    pub fn fail(&mut self, notice: crate::state::Notice) {
        self.push(FeedbackAction::Fail(notice).into());
    }

    /// Says a confirmation in the status bar and in a toast that fades.
    pub fn done(&mut self, notice: crate::state::Notice) {
        self.push(FeedbackAction::Done(notice).into());
    }

    /// Asks the user for a path for `purpose`, offering `file_name` when saving; `then`
    /// makes the asking feature's own action from the path chosen.
    pub fn ask_for_file(
        &mut self,
        purpose: crate::state::file_chooser::FilePurpose,
        file_name: Option<String>,
        then: impl Fn(std::path::PathBuf) -> Action + Send + Sync + 'static,
    ) {
        let then = crate::actions::file_chooser::Then::new(then);
        self.push(FileChooserAction::Ask(purpose, file_name, then).into());
    }

    /// Whether no action is waiting.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

/// A feature's hold on the settings: what it changes is saved once the action is carried
/// out.
pub(crate) struct SettingsMut<'a> {
    settings: &'a mut crate::settings::Settings,
    changed: &'a mut bool,
}

impl SettingsMut<'_> {
    /// The settings as they are.
    pub(crate) fn get(&self) -> &crate::settings::Settings {
        self.settings
    }

    /// Changes the settings, to be saved once the action is carried out.
    pub(crate) fn change(&mut self, change: impl FnOnce(&mut crate::settings::Settings)) {
        change(self.settings);
        *self.changed = true;
    }
}

/// What the board's own commands work on: the whole state, the services, and the queue.
/// Only the games themselves are commanded through it (the study on the board, its
/// tabs, reading and saving them, autosaving them, quitting with them): they are what
/// every other feature's slice is cut from. Every other feature's command takes its own
/// slice, built in [`Ctx::run`].
pub(crate) struct Ctx<'a> {
    pub state: &'a mut State,
    pub services: &'a mut Services,
    pub queue: &'a mut Queue,
}

/// Writes unsaved changes to the autosave file now and then (`force`: now).
pub fn autosave(state: &mut State, services: &mut Services, queue: &mut Queue, force: bool) {
    Ctx {
        state,
        services,
        queue,
    }
    .autosave(force);
}

/// Removes the autosave file: the work in it is saved or given up.
pub fn remove_autosave(state: &mut State, services: &mut Services, queue: &mut Queue) {
    Ctx {
        state,
        services,
        queue,
    }
    .remove_autosave();
}

/// Carries out `action` alone: what it sets off is pushed to `queue`, for the caller to
/// carry out next.
pub fn run(state: &mut State, services: &mut Services, queue: &mut Queue, action: Action) {
    Ctx {
        state,
        services,
        queue,
    }
    .run(action);
}

impl Ctx<'_> {
    /// A follow-up action: carried out after this one, from the top.
    pub(crate) fn push(&mut self, action: Action) {
        self.queue.push(action);
    }

    /// Carries out `action` and what follows every action.
    fn run(&mut self, action: Action) {
        let Some(action) = self.admit(action) else {
            return;
        };
        match action {
            Action::Study(a) => self.study(a),
            Action::File(a) => self.files(a),
            Action::View(a) => view::Viewing {
                settings: SettingsMut {
                    settings: &mut self.state.settings,
                    changed: &mut self.state.bookkeeping.settings_changed,
                },
                play: self.state.play.as_mut(),
                side_panel_shown: &mut self.state.side_panel_shown,
                toasts: &mut self.state.toasts,
                study: &mut self.state.study,
                i18n: &mut self.services.i18n,
                ui: &self.services.ui,
            }
            .run(a),
            Action::Engine(a) => self.analysing().run(a),
            Action::Presentation(a) => presentation::Presenting {
                presentation: &mut self.state.presentation,
                audience: &mut self.state.audience,
                settings: &mut self.state.settings,
                engine_hidden: &mut self.state.analysis.engine_hidden,
                puzzles: &mut self.state.puzzles,
                ui: &self.services.ui,
                queue: self.queue,
            }
            .run(a),
            Action::Openings(a) => openings::run(
                &mut self.state.openings,
                &self.state.study,
                self.services.i18n.language(),
                self.queue,
                a,
            ),
            Action::Export(a) => {
                let shown =
                    matches!(a, ExportAction::Png(..)).then(|| export::Shown::of(self.state));
                export::run(
                    &mut self.state.export_dialog,
                    shown,
                    &mut self.services.work,
                    self.queue,
                    a,
                )
            }
            Action::Worksheet(a) => worksheet::run(
                worksheet::Dialog {
                    options: &mut self.state.worksheet_dialog,
                    games: &mut self.state.worksheet_games,
                },
                worksheet::Sources {
                    study: &self.state.study,
                    puzzles: &self.state.puzzles,
                },
                SettingsMut {
                    settings: &mut self.state.settings,
                    changed: &mut self.state.bookkeeping.settings_changed,
                },
                &self.services.i18n,
                &mut self.services.work,
                self.queue,
                a,
            ),
            Action::Window(a) => self.window(a),
            Action::Editor(a) => editor::Manager {
                editor: &mut self.state.editor,
                position: &self.state.study.derived.position,
                dirty: self.state.study.dirty,
                analysing: self.state.analysis.analysing,
                storage: &self.services.storage,
                work: &mut self.services.work,
                composer: &mut self.services.composer,
                queue: self.queue,
            }
            .run(a),
            Action::Puzzle(a) => {
                let barred = self.state.engine_help_barred();
                puzzles::Manager {
                    puzzles: &mut self.state.puzzles,
                    editor: puzzles::EditorOnBoard {
                        open: self.state.editor.is_some(),
                        changed: self.state.editor.as_ref().is_some_and(|e| e.is_changed()),
                    },
                    barred,
                    notation: self.state.settings.notation.notation(),
                    storage: &self.services.storage,
                    work: &mut self.services.work,
                    queue: self.queue,
                }
                .run(a)
            }
            Action::Play(a) => play::Playing {
                play: &mut self.state.play,
                setup: &mut self.state.play_setup,
                study: &mut self.state.study,
                settings: SettingsMut {
                    settings: &mut self.state.settings,
                    changed: &mut self.state.bookkeeping.settings_changed,
                },
                dialog: &mut self.state.dialog,
                analysing: self.state.analysis.analysing,
                i18n: &self.services.i18n,
                queue: self.queue,
            }
            .run(a),
            Action::Patterns(a) => {
                let barred = self.state.engine_help_barred();
                patterns::run(
                    &mut self.state.patterns,
                    SettingsMut {
                        settings: &mut self.state.settings,
                        changed: &mut self.state.bookkeeping.settings_changed,
                    },
                    barred,
                    &mut self.services.work,
                    self.queue,
                    a,
                )
            }
            Action::Knowledge(a) => knowledge::run(
                &mut self.state.knowledge,
                self.services.i18n.language(),
                self.queue,
                a,
            ),
            Action::Club(a) => club::Manager {
                club: &mut self.state.club,
                study: &self.state.study,
                board_busy: self.state.editor.is_some() || self.state.puzzles.session.is_some(),
                notation: self.state.settings.notation.notation(),
                i18n: &self.services.i18n,
                storage: &self.services.storage,
                queue: self.queue,
            }
            .run(a),
            Action::Class(a) => class::Manager {
                class: &mut self.state.class,
                server: &mut self.services.class,
                i18n: &self.services.i18n,
                ui: &self.services.ui,
                queue: self.queue,
                position: &self.state.study.derived.position,
                notation: self.state.settings.notation.notation(),
                look: crate::services::class::quiz::Look {
                    theme: self.state.settings.theme,
                    traditional: self.state.settings.language == crate::i18n::Language::ZhTw,
                },
                puzzles: &self.state.puzzles,
                training: &self.state.training,
                work: &mut self.services.work,
            }
            .run(a),
            Action::Tablebase(a) => tablebase::run(
                &mut self.state.tablebase,
                &self.state.study,
                self.state.training.session.is_some(),
                tablebase::Services {
                    tables: &mut self.services.tablebase,
                    work: &mut self.services.work,
                },
                self.queue,
                a,
            ),
            Action::Tabs(a) => self.tabs(a),
            Action::FileChooser(a) => file_chooser::Choosing {
                browser: &mut self.state.file_browser,
                settings: SettingsMut {
                    settings: &mut self.state.settings,
                    changed: &mut self.state.bookkeeping.settings_changed,
                },
                chooser: &mut self.services.file_chooser,
                i18n: &self.services.i18n,
                queue: self.queue,
            }
            .run(a),
            Action::Train(a) => training::Manager {
                training: &mut self.state.training,
                puzzles: &mut self.state.puzzles,
                study: &self.state.study,
                tables: &self.state.tablebase,
                i18n: &self.services.i18n,
                storage: &self.services.storage,
                queue: self.queue,
            }
            .run(a),
            Action::Collections(a) => self.collections().run(a),
            Action::Feedback(a) => self.telling().run(a),
            Action::Picture(a) => picture::Manager {
                picture: &mut self.state.picture,
                i18n: &self.services.i18n,
                reader: &mut self.services.picture,
                queue: self.queue,
            }
            .run(a),
        }
        self.after_change();
    }

    /// What becomes of an action before it is carried out: the editor's own undo, redo and
    /// paste; nothing, for keys aimed at a board the editor or solve mode has taken; held
    /// back, when it would replace unsaved work, until the user answers.
    fn admit(&mut self, action: Action) -> Option<Action> {
        // While the editor is open, undo, redo and paste are about the arrangement.
        let action = match action {
            Action::Study(StudyAction::Undo) if self.state.editor.is_some() => {
                Action::Editor(EditorAction::Undo)
            }
            Action::Study(StudyAction::Redo) if self.state.editor.is_some() => {
                Action::Editor(EditorAction::Redo)
            }
            Action::File(FileAction::Paste(text)) if self.state.editor.is_some() => {
                Action::Editor(EditorAction::ApplyFen(text))
            }
            other => other,
        };
        // The editor, solve mode and a picture's correction take the board: keys that
        // would step through or edit the game behind them, unseen, do nothing there.
        let board_taken = self.state.editor.is_some()
            || self.state.puzzles.session.is_some()
            || self.state.training.session.is_some()
            || self.state.picture.correction.is_some();
        if board_taken
            && (action.steps()
                || matches!(
                    action,
                    Action::Study(
                        StudyAction::DeleteFrom(_)
                            | StudyAction::PromoteVariation(_)
                            | StudyAction::Undo
                            | StudyAction::Redo
                            | StudyAction::ClickPoint(_)
                            | StudyAction::PlayMove(_)
                    )
                ))
        {
            return None;
        }
        if action.replaces_record() && self.state.study.dirty {
            self.state.dialog = Some(Dialog::UnsavedOnReplace);
            self.queue.held = Some(action);
            return None;
        }
        if action.replaces_record() || matches!(action, Action::File(FileAction::ChooseGame(_))) {
            // A review's results belong to the record it started on.
            self.cancel_review();
        }
        Some(action)
    }

    /// Changes the settings, to be saved once the action is carried out.
    pub(super) fn change_settings(&mut self, change: impl FnOnce(&mut crate::settings::Settings)) {
        change(&mut self.state.settings);
        self.state.bookkeeping.settings_changed = true;
    }

    /// Stops a whole-game review: its results belong to the record it started on.
    pub(super) fn cancel_review(&mut self) {
        engine::cancel_review(&mut self.services.review, &mut self.state.analysis.review);
    }

    /// What the game on the board leaves behind when another takes its place: the
    /// engine's view of it, a review of it (the analysis then follows the new game), a
    /// question about its game in play (which waits, paused, in its tab).
    pub(super) fn leave_game(&mut self) {
        self.cancel_review();
        self.state.analysis.engine = None;
        self.state.notice = None;
        if matches!(
            self.state.dialog,
            Some(Dialog::ConfirmResign | Dialog::ConfirmDrawOffer)
        ) {
            self.state.dialog = None;
        }
    }

    /// The analysis, over its slices of the state and the services.
    fn analysing(&mut self) -> engine::Analysing<'_> {
        let barred = self.state.engine_help_barred();
        engine::Analysing {
            analysis: &mut self.state.analysis,
            settings: SettingsMut {
                settings: &mut self.state.settings,
                changed: &mut self.state.bookkeeping.settings_changed,
            },
            analysed: &mut self.state.bookkeeping.analysed,
            study: &mut self.state.study,
            barred,
            worker: &mut self.services.analysis,
            review: &mut self.services.review,
            queue: self.queue,
        }
    }

    /// Puts tab `to`'s game on the board.
    pub(super) fn switch_tab(&mut self, to: usize) {
        if to != self.state.tabs.active && to < self.state.tab_count() {
            self.leave_game();
            self.state.switch_tab(to);
        }
    }

    /// Opens `record` as a game of its own: in a new tab, unless the tab on the board holds
    /// an empty, untouched game, which it replaces.
    pub(super) fn open_record(
        &mut self,
        record: chuhe_core::record::Record,
        file: Option<std::path::PathBuf>,
    ) {
        self.blank_tab();
        self.state.replace_record(record, file);
    }

    /// Puts an empty, untouched game on the board: the one there, or a new tab's.
    pub(super) fn blank_tab(&mut self) {
        if !self.state.study.is_blank() {
            self.leave_game();
            self.state.new_tab();
        }
    }

    /// After every action: the analysis follows the board, the settings are saved.
    pub(super) fn after_change(&mut self) {
        self.analysing().follow_with_analysis();
        self.follow_with_explorer();
        self.sound_of_play();
        if self.state.bookkeeping.settings_changed {
            self.state.bookkeeping.settings_changed = false;
            if let Err(e) = self
                .services
                .storage
                .save_settings(&self.state.settings_to_save())
            {
                self.tell_failure(Notice::Problem(
                    crate::words::problem::Problem::new("notice-settings-not-saved")
                        .with("error", crate::words::problems::io_error(&e)),
                ));
            }
        }
    }
}

//! The commands: the only code that changes the state. Each feature has one `apply`
//! taking the state, the services and its own action; [`apply`] is the dispatch. Every
//! record edit goes through the record's undo history.

mod autosave;
mod club;
mod collections;
mod editor;
mod engine;
mod export;
mod file_chooser;
mod files;
mod knowledge;
mod openings;
mod patterns;
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

/// What a command works on: the state it changes and the services it calls.
pub(crate) struct Ctx<'a> {
    pub state: &'a mut State,
    pub services: &'a mut Services,
}

/// Writes unsaved changes to the autosave file now and then (`force`: now).
pub fn autosave(state: &mut State, services: &mut Services, force: bool) {
    Ctx { state, services }.autosave(force);
}

/// Removes the autosave file: the work in it is saved or given up.
pub fn remove_autosave(state: &mut State, services: &mut Services) {
    Ctx { state, services }.remove_autosave();
}

/// Carries out `action`: the one place where the state changes.
pub fn apply(state: &mut State, services: &mut Services, action: Action) {
    Ctx { state, services }.apply(action);
}

macro_rules! feature_apply {
    ($($(#[$doc:meta])* $name:ident($action:ty) => $method:ident;)*) => {
        $($(#[$doc])*
        pub fn $name(state: &mut State, services: &mut Services, action: $action) {
            let mut ctx = Ctx { state, services };
            ctx.$method(action);
            ctx.after_change();
        })*
    };
}

feature_apply! {
    /// Carries out a study action.
    apply_study(StudyAction) => study;
    /// Carries out a file action.
    apply_files(FileAction) => files;
    /// Carries out a view action.
    apply_view(ViewAction) => view;
    /// Carries out an analysis or review action.
    apply_engine(EngineAction) => engine;
    /// Carries out a teaching action.
    apply_presentation(PresentationAction) => presentation;
    /// Carries out an opening-browser action.
    apply_openings(OpeningsAction) => openings;
    /// Carries out a diagram-export action.
    apply_export(ExportAction) => export;
    /// Carries out a worksheet action.
    apply_worksheet(WorksheetAction) => worksheet;
    /// Carries out a window action.
    apply_window(WindowAction) => window;
    /// Carries out a position-editor action.
    apply_editor(EditorAction) => editor;
    /// Carries out a puzzle action.
    apply_puzzle(PuzzleAction) => puzzle;
    /// Carries out a play action.
    apply_play(PlayAction) => play;
    /// Carries out a pattern-browser action.
    apply_patterns(PatternAction) => patterns;
    /// Carries out a knowledge-reference action.
    apply_knowledge(KnowledgeAction) => knowledge;
    /// Carries out a club action.
    apply_club(ClubAction) => club;
    /// Carries out an endgame-table action.
    apply_tablebase(TbAction) => tablebase;
    /// Carries out a tab action.
    apply_tabs(TabAction) => tabs;
    /// Carries out a file-chooser action.
    apply_file_chooser(FileChooserAction) => file_chooser;
    /// Carries out a training action.
    apply_training(TrainAction) => training;
    /// Carries out a collections action.
    apply_collections(CollectionAction) => collections;
}

impl Ctx<'_> {
    /// Carries out `action` and what follows every action.
    pub(crate) fn apply(&mut self, action: Action) {
        let Some(action) = self.admit(action) else {
            return;
        };
        match action {
            Action::Study(a) => self.study(a),
            Action::File(a) => self.files(a),
            Action::View(a) => self.view(a),
            Action::Engine(a) => self.engine(a),
            Action::Presentation(a) => self.presentation(a),
            Action::Openings(a) => self.openings(a),
            Action::Export(a) => self.export(a),
            Action::Worksheet(a) => self.worksheet(a),
            Action::Window(a) => self.window(a),
            Action::Editor(a) => self.editor(a),
            Action::Puzzle(a) => self.puzzle(a),
            Action::Play(a) => self.play(a),
            Action::Patterns(a) => self.patterns(a),
            Action::Knowledge(a) => self.knowledge(a),
            Action::Club(a) => self.club(a),
            Action::Tablebase(a) => self.tablebase(a),
            Action::Tabs(a) => self.tabs(a),
            Action::FileChooser(a) => self.file_chooser(a),
            Action::Train(a) => self.training(a),
            Action::Collections(a) => self.collections(a),
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
        // The editor and solve mode take the board: keys that would step through or edit
        // the game behind them, unseen, do nothing there.
        let board_taken = self.state.editor.is_some()
            || self.state.puzzles.session.is_some()
            || self.state.training.session.is_some();
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
            self.services.held = Some(action);
            return None;
        }
        if action.replaces_record() || matches!(action, Action::File(FileAction::ChooseGame(_))) {
            // A review's results belong to the record it started on.
            self.engine(EngineAction::CancelReview);
        }
        Some(action)
    }

    /// After every action: the analysis follows the board, the settings are saved.
    pub(super) fn after_change(&mut self) {
        self.follow_with_analysis();
        self.follow_with_explorer();
        self.sound_of_play();
        if self.services.settings_changed {
            self.services.settings_changed = false;
            if let Err(e) = self
                .services
                .storage
                .save_settings(&self.state.settings_to_save())
            {
                self.state.notice = Some(Notice::Problem(
                    crate::state::problem::Problem::new("notice-settings-not-saved")
                        .with("error", crate::widgets::problems::io_error(&e)),
                ));
            }
        }
    }
}

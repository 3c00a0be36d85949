//! The keyboard: each shortcut is an [`Action`], the same one a menu item or button gives.

use crate::actions::Action;
use crate::actions::*;
use chuhe_core::record::NodeId;
use egui::{Key, KeyboardShortcut, Modifiers};

/// Shortcuts with a modifier, checked (and consumed) before the plain keys.
const WITH_MODIFIERS: [(Modifiers, Key, ActionKind); 10] = [
    // Ctrl+Shift+Z before Ctrl+Z, which would also match it.
    (
        Modifiers::COMMAND.plus(Modifiers::SHIFT),
        Key::Z,
        ActionKind::Redo,
    ),
    (Modifiers::COMMAND, Key::Z, ActionKind::Undo),
    (Modifiers::COMMAND, Key::Y, ActionKind::Redo),
    (Modifiers::COMMAND, Key::O, ActionKind::Open),
    (Modifiers::COMMAND, Key::S, ActionKind::Save),
    (Modifiers::COMMAND, Key::N, ActionKind::New),
    (Modifiers::COMMAND, Key::Q, ActionKind::Quit),
    // Ctrl+Shift+Tab before Ctrl+Tab, which would also match it.
    (
        Modifiers::COMMAND.plus(Modifiers::SHIFT),
        Key::Tab,
        ActionKind::PreviousTab,
    ),
    (Modifiers::COMMAND, Key::Tab, ActionKind::NextTab),
    (Modifiers::COMMAND, Key::W, ActionKind::CloseTab),
];

/// Plain keys.
const PLAIN: [(Key, ActionKind); 16] = [
    (Key::ArrowLeft, ActionKind::Back),
    (Key::ArrowRight, ActionKind::Forward),
    (Key::ArrowUp, ActionKind::PreviousVariation),
    (Key::ArrowDown, ActionKind::NextVariation),
    (Key::Home, ActionKind::Start),
    (Key::End, ActionKind::End),
    (Key::Delete, ActionKind::DeleteFrom),
    (Key::Space, ActionKind::ToggleAnalysis),
    (Key::H, ActionKind::ToggleEngineHidden),
    (Key::F, ActionKind::Flip),
    (Key::P, ActionKind::Promote),
    (Key::F11, ActionKind::BoardOnly),
    (Key::PageUp, ActionKind::PreviousFile),
    (Key::PageDown, ActionKind::NextFile),
    (Key::L, ActionKind::BoardLines),
    (Key::F1, ActionKind::Knowledge),
];

#[derive(Clone, Copy)]
enum ActionKind {
    Undo,
    Redo,
    Open,
    Save,
    New,
    Quit,
    Back,
    Forward,
    PreviousVariation,
    NextVariation,
    Start,
    End,
    DeleteFrom,
    ToggleAnalysis,
    ToggleEngineHidden,
    Flip,
    Promote,
    BoardOnly,
    PreviousFile,
    NextFile,
    BoardLines,
    Knowledge,
    NextTab,
    PreviousTab,
    CloseTab,
}

impl ActionKind {
    fn action(self, cursor: NodeId) -> Action {
        match self {
            ActionKind::Undo => Action::Study(StudyAction::Undo),
            ActionKind::Redo => Action::Study(StudyAction::Redo),
            ActionKind::Open => Action::File(FileAction::OpenDialog),
            ActionKind::Save => Action::File(FileAction::Save),
            ActionKind::New => Action::File(FileAction::New),
            ActionKind::Quit => Action::Window(WindowAction::RequestQuit),
            ActionKind::Back => Action::Study(StudyAction::Back),
            ActionKind::Forward => Action::Study(StudyAction::Forward),
            ActionKind::PreviousVariation => Action::Study(StudyAction::PreviousVariation),
            ActionKind::NextVariation => Action::Study(StudyAction::NextVariation),
            ActionKind::Start => Action::Study(StudyAction::Start),
            ActionKind::End => Action::Study(StudyAction::End),
            ActionKind::DeleteFrom => Action::Study(StudyAction::DeleteFrom(cursor)),
            ActionKind::ToggleAnalysis => Action::Engine(EngineAction::ToggleAnalysis),
            ActionKind::ToggleEngineHidden => Action::Engine(EngineAction::ToggleEngineHidden),
            ActionKind::Flip => Action::View(ViewAction::Flip),
            ActionKind::Promote => Action::Study(StudyAction::PromoteVariation(cursor)),
            ActionKind::BoardOnly => Action::View(ViewAction::ToggleBoardOnly),
            ActionKind::PreviousFile => Action::File(FileAction::PreviousFile),
            ActionKind::NextFile => Action::File(FileAction::NextFile),
            ActionKind::BoardLines => {
                Action::Knowledge(crate::actions::KnowledgeAction::ToggleBoardLines)
            }
            ActionKind::Knowledge => Action::Knowledge(crate::actions::KnowledgeAction::Toggle),
            ActionKind::NextTab => Action::Tabs(TabAction::Next),
            ActionKind::PreviousTab => Action::Tabs(TabAction::Previous),
            ActionKind::CloseTab => Action::Tabs(TabAction::CloseActive),
        }
    }
}

/// The actions of the shortcuts pressed this frame; `cursor` is the current move. In
/// presentation mode PageUp/PageDown step through the moves (presentation clickers send
/// them) and Esc ends it.
pub fn actions(ctx: &egui::Context, cursor: NodeId, presenting: bool) -> Vec<Action> {
    let mut actions = Vec::new();
    ctx.input_mut(|input| {
        if input.consume_key(Modifiers::NONE, Key::F5) {
            actions.push(Action::Presentation(PresentationAction::Toggle));
        }
        if input.consume_key(Modifiers::NONE, Key::F6) {
            actions.push(Action::Presentation(PresentationAction::ToggleAudience));
        }
        if presenting {
            for (key, action) in [
                (Key::PageUp, Action::Study(StudyAction::Back)),
                (Key::PageDown, Action::Study(StudyAction::Forward)),
                (Key::Escape, Action::Presentation(PresentationAction::End)),
                (
                    Key::M,
                    Action::Presentation(PresentationAction::ToggleMoves),
                ),
            ] {
                if input.consume_key(Modifiers::NONE, key) {
                    actions.push(action);
                }
            }
        }
        for (modifiers, key, kind) in WITH_MODIFIERS {
            if input.consume_shortcut(&KeyboardShortcut::new(modifiers, key)) {
                actions.push(kind.action(cursor));
            }
        }
        for (key, kind) in PLAIN {
            if input.consume_key(Modifiers::NONE, key) {
                actions.push(kind.action(cursor));
            }
        }
    });
    actions
}

/// The text shown for a shortcut in menus, e.g. `Ctrl+Z`.
pub fn label(ctx: &egui::Context, modifiers: Modifiers, key: Key) -> String {
    ctx.format_shortcut(&KeyboardShortcut::new(modifiers, key))
}

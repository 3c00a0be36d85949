//! The keyboard: each shortcut is an [`Action`], the same one a menu item or button gives.
//! These tables are the only place a key is bound: the menus show the keys they find here
//! ([`label_of`]), so what a menu says and what the key does cannot drift apart.

use crate::actions::Action;
use crate::actions::*;
use chuhe_core::record::NodeId;
use egui::{Key, KeyboardShortcut, Modifiers};

/// Shortcuts with a modifier, checked (and consumed) before the plain keys.
const WITH_MODIFIERS: [(Modifiers, Key, ActionKind); 10] = [
    // Ctrl+Y first: the key the menu shows for redo.
    (Modifiers::COMMAND, Key::Y, ActionKind::Redo),
    // Ctrl+Shift+Z before Ctrl+Z, which would also match it.
    (
        Modifiers::COMMAND.plus(Modifiers::SHIFT),
        Key::Z,
        ActionKind::Redo,
    ),
    (Modifiers::COMMAND, Key::Z, ActionKind::Undo),
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
const PLAIN: [(Key, ActionKind); 18] = [
    (Key::F5, ActionKind::Presentation),
    (Key::F6, ActionKind::Audience),
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
    Presentation,
    Audience,
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
            ActionKind::Presentation => Action::Presentation(PresentationAction::Toggle),
            ActionKind::Audience => Action::Presentation(PresentationAction::ToggleAudience),
        }
    }
}

/// The actions of the shortcuts pressed this frame; `cursor` is the current move. In
/// presentation mode PageUp/PageDown step through the moves (presentation clickers send
/// them) and Esc ends it.
pub fn actions(ctx: &egui::Context, cursor: NodeId, presenting: bool) -> Vec<Action> {
    let mut actions = Vec::new();
    ctx.input_mut(|input| {
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

/// The keys that give `action` (the first, where several do), with `cursor` the current
/// move, as the keyboard reads them outside presentation mode.
pub fn keys_of(action: &Action, cursor: NodeId) -> Option<(Modifiers, Key)> {
    let with_modifiers = WITH_MODIFIERS.into_iter();
    let plain = PLAIN
        .into_iter()
        .map(|(key, kind)| (Modifiers::NONE, key, kind));
    with_modifiers
        .chain(plain)
        .find(|(_, _, kind)| kind.action(cursor) == *action)
        .map(|(modifiers, key, _)| (modifiers, key))
}

/// The text shown for `action`'s shortcut in menus, e.g. `Ctrl+Z`; none without one.
pub fn label_of(ctx: &egui::Context, action: &Action, cursor: NodeId) -> Option<String> {
    keys_of(action, cursor)
        .map(|(modifiers, key)| ctx.format_shortcut(&KeyboardShortcut::new(modifiers, key)))
}

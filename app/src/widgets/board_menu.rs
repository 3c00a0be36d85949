//! A board's context menu: 查找此局面 for the position the board shows, and on the main
//! board the entries the menus have for it. Boards that draw circles or take pieces off
//! with the right button open it from a right click off the points (see
//! [`BoardEvent::MenuClick`](crate::widgets::board_input::BoardEvent::MenuClick)); the
//! others from any right click.

use crate::actions::{Action, CollectionAction};
use crate::i18n::I18n;
use chuhe_core::Position;
use egui::{Popup, Response, SetOpenCommand, Ui};

/// Shows the context menu of the board drawn as `response`: opened where the pointer is
/// when `open` (the right click the board leaves to the menu), closed by a left click on
/// the board, a click elsewhere or a choice. `entries` draws what it offers.
pub fn show(response: &Response, open: bool, entries: impl FnOnce(&mut Ui)) {
    let command = if open {
        Some(SetOpenCommand::Bool(true))
    } else if response.clicked() {
        Some(SetOpenCommand::Bool(false))
    } else {
        None
    };
    Popup::menu(response)
        .open_memory(command)
        .at_pointer_fixed()
        .show(entries);
}

/// What a board asks the collections to find.
pub enum Find<'a> {
    /// The main board's position.
    MainBoard,
    /// The position another board shows.
    Shown(&'a Position),
    /// Nothing: the board's arrangement is no legal position (the editor's, while it has
    /// problems); the entry is offered greyed out, saying why.
    NotAPosition,
}

/// The entry 查找此局面: the games of the open collections that reached `find`'s
/// position, listed in the collection browser.
pub fn find_position(ui: &mut Ui, i18n: &I18n, find: Find, actions: &mut Vec<Action>) {
    let position = match find {
        Find::MainBoard => Some(None),
        Find::Shown(position) => Some(Some(position.clone())),
        Find::NotAPosition => None,
    };
    let enabled = position.is_some();
    let clicked = ui
        .add_enabled(
            enabled,
            egui::Button::new(i18n.tr("collection-find-position")),
        )
        .on_disabled_hover_text(i18n.tr("board-menu-not-a-position"))
        .clicked();
    if let (true, Some(position)) = (clicked, position) {
        actions.push(Action::Collections(CollectionAction::FindPosition(
            position,
        )));
    }
}

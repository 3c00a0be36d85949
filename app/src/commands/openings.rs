//! The opening browser.

use super::Ctx;
use crate::actions::*;
use crate::state::Notice;
use chuhe_core::record::Record;

impl Ctx<'_> {
    /// Carries out a openings action.
    pub(super) fn openings(&mut self, action: OpeningsAction) {
        match action {
            OpeningsAction::Toggle => self.state.openings.open = !self.state.openings.open,
            OpeningsAction::Search(query) => self.state.openings.query = query,
            OpeningsAction::Show(id) => self.show_opening(id),
            OpeningsAction::Which => {
                self.state.openings.open = true;
                match self.state.study.derived.opening {
                    Some(found) => {
                        self.state.openings.selected = Some(found.node);
                        self.state.openings.reveal += 1;
                    }
                    None => self.state.notice = Some(Notice::Message("openings-not-found")),
                }
            }
        }
    }
}

impl Ctx<'_> {
    /// A new game holding the opening's line, each named position on the way commented
    /// with its name and note in the user's language, the cursor at its end.
    pub(super) fn show_opening(&mut self, id: usize) {
        let Ok(book) = chuhe_core::library::openings::builtin() else {
            self.state.notice = Some(Notice::Message("openings-unavailable"));
            return;
        };
        let Some(node) = book.node(id) else { return };
        let lang = self.services.i18n.language().tag();
        let mut record = Record::default();
        let mut at = record.root();
        for &m in &node.moves {
            match record.add_move(at, m) {
                Ok(next) => at = next,
                Err(_) => return,
            }
        }
        let line = record.main_line();
        // The root's note describes the library, not the game: only named moves are
        // annotated.
        for step in book.path(id).into_iter().skip(1) {
            let named = &book.nodes[step];
            let colon = if lang.starts_with("zh") { "：" } else { ": " };
            let text = format!("{}{colon}{}", named.names.get(lang), named.note.get(lang));
            let _ = record.set_comment(line[named.depth() - 1], &text);
        }
        chuhe_core::library::openings::write_headers(&mut record);
        self.open_record(record, None);
        self.state.study.cursor = at;
        self.state.refresh();
        self.state.study.folder = None;
        self.state.openings.selected = Some(id);
    }
}

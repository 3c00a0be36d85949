//! The opening browser.

use super::Queue;
use crate::actions::*;
use crate::i18n::Language;
use crate::state::Notice;
use crate::state::openings::OpeningsBrowser;
use crate::state::study::Study;
use chuhe_core::record::Record;

/// Carries out an openings action on the browser; `study` is the game on the board, whose
/// moves name the opening it reached.
pub(super) fn run(
    browser: &mut OpeningsBrowser,
    study: &Study,
    language: Language,
    queue: &mut Queue,
    action: OpeningsAction,
) {
    match action {
        OpeningsAction::Toggle => browser.open = !browser.open,
        OpeningsAction::Search(query) => browser.query = query,
        OpeningsAction::Show(id) => show_opening(browser, language, queue, id),
        OpeningsAction::Which => match study.derived.opening {
            Some(found) => select(browser, found.node),
            None => queue.push(FeedbackAction::Say(Notice::Message("openings-not-found")).into()),
        },
        OpeningsAction::Select(id) => select(browser, id),
    }
}

/// Opens the browser at opening `id`, scrolled to it.
fn select(browser: &mut OpeningsBrowser, id: usize) {
    browser.open = true;
    browser.selected = Some(id);
    browser.reveal += 1;
}

/// A new game holding the opening's line, each named position on the way commented with
/// its name and note in the user's language, the cursor at its end.
fn show_opening(browser: &mut OpeningsBrowser, language: Language, queue: &mut Queue, id: usize) {
    let Ok(book) = chuhe_core::library::openings::builtin() else {
        queue.push(FeedbackAction::Say(Notice::Message("openings-unavailable")).into());
        return;
    };
    let Some(node) = book.node(id) else { return };
    let lang = language.tag();
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
    queue.push(TabAction::Open(OpenGame::new(record, at)).into());
    browser.selected = Some(id);
}

//! The knowledge reference's state: the window, the search, the entry being read.

use crate::i18n::Language;
use chuhe_core::knowledge::{self, Entry};
use chuhe_core::library::patterns::{Names, Text};

/// The reference's state.
#[derive(Clone, Debug, Default)]
pub struct KnowledgeState {
    /// Whether the window is shown.
    pub open: bool,
    /// What is typed in the search box.
    pub query: String,
    /// The entry being read, by id.
    pub entry: Option<String>,
    /// Which of its diagrams is shown.
    pub diagram: usize,
    /// How many moves of the diagram's line are played on it.
    pub step: usize,
    /// Whether the main board shows the board-lines overlay.
    pub board_lines: bool,
    /// Frames still to run at once after the window opened: a new window measures itself
    /// unseen first, and until it is drawn a click would reach the board under it.
    pub settling: u8,
}

pub fn current_entry(view: &KnowledgeState) -> Option<&'static Entry> {
    view.entry
        .as_deref()
        .and_then(knowledge::entry)
        .map(|(_, e)| e)
}

/// A name in `language`.
pub fn name(names: &Names, language: Language) -> &str {
    match language {
        Language::ZhCn => &names.zh_cn,
        Language::ZhTw => &names.zh_tw,
        Language::En => &names.en,
    }
}

/// A text in `language`.
pub fn text(text: &Text, language: Language) -> &str {
    match language {
        Language::ZhCn => &text.zh,
        Language::ZhTw => &text.zh_tw,
        Language::En => &text.en,
    }
}

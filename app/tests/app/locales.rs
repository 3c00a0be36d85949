//! Every language has every message the app asks for, and the shipped font has a glyph for
//! every character of every message.

use chuhe::i18n::{Language, all_messages, message_ids};
use egui::FontId;
use egui_kittest::Harness;
use std::collections::BTreeSet;
use std::path::Path;

/// String literals in the source that look like ids (`"menu-file"`) but name no message:
/// thread names, widget ids, temporary directories. Anything else shaped like an id must be
/// a message.
const NOT_MESSAGES: [&str; 7] = [
    "chuhe-analysis",
    "chuhe-review",
    "chuhe-dialog",
    "eval-bar",
    "eval-graph",
    "round-trip",
    "dbus-daemon",
];

/// Every string literal in the app's source shaped like a message id: lowercase words
/// joined by hyphens.
fn ids_in_source(dir: &Path, found: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            ids_in_source(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for literal in text.split('"').skip(1).step_by(2) {
                let shaped = literal.contains('-')
                    && !literal.starts_with('-')
                    && !literal.ends_with('-')
                    && literal
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                if shaped && !NOT_MESSAGES.contains(&literal) {
                    found.insert(literal.to_owned());
                }
            }
        }
    }
}

fn ids(language: Language) -> BTreeSet<String> {
    let list = message_ids(language).unwrap_or_else(|e| panic!("{e}"));
    let set: BTreeSet<String> = list.iter().cloned().collect();
    assert_eq!(
        set.len(),
        list.len(),
        "{}: an id is defined twice",
        language.tag()
    );
    set
}

#[test]
fn every_language_defines_the_same_messages() {
    let reference = ids(Language::En);
    for language in Language::ALL {
        let these = ids(language);
        let missing: Vec<_> = reference.difference(&these).collect();
        let extra: Vec<_> = these.difference(&reference).collect();
        assert!(missing.is_empty(), "{} lacks {missing:?}", language.tag());
        assert!(extra.is_empty(), "{} has extra {extra:?}", language.tag());
    }
}

#[test]
fn every_message_the_source_asks_for_is_defined() {
    let mut used = BTreeSet::new();
    ids_in_source(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut used,
    );
    assert!(used.len() > 100, "the scan finds the ids ({})", used.len());
    assert!(used.contains("illegal-horse-leg-blocked") && used.contains("file-new"));
    for language in Language::ALL {
        let defined = ids(language);
        let missing: Vec<_> = used.iter().filter(|id| !defined.contains(*id)).collect();
        assert!(missing.is_empty(), "{} lacks {missing:?}", language.tag());
    }
}

#[test]
fn the_shipped_font_has_every_character_of_every_language() {
    let mut harness = Harness::builder()
        .with_context_setup(chuhe::fonts::install)
        .build_ui(|ui| {
            ui.label("楚河");
        });
    harness.run();
    for language in Language::ALL {
        for message in all_messages(language) {
            let missing: String = harness.ctx.fonts_mut(|fonts| {
                message
                    .chars()
                    .filter(|&c| !c.is_whitespace())
                    .filter(|&c| !fonts.has_glyph(&FontId::proportional(14.0), c))
                    .collect()
            });
            assert!(
                missing.is_empty(),
                "{}: no glyph for {missing:?} in {message:?}",
                language.tag()
            );
        }
    }
}

#[test]
fn messages_take_their_arguments() {
    let i18n = chuhe::i18n::I18n::new(Language::En);
    let text = i18n.tr_args(
        "illegal-move",
        &[("reason", "the horse's leg is blocked".into())],
    );
    assert_eq!(text, "Illegal move: the horse's leg is blocked.");
    assert_eq!(i18n.tr_in(Language::ZhTw, "language-name"), "繁體中文");
}

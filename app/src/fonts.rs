//! The one font Chuhe draws all text with, shipped inside the binary.
//!
//! It is a subset of LXGW WenKai (霞鹜文楷, SIL OFL 1.1, see `assets/fonts/`) that covers
//! GB2312, Big5 level 1 and Latin text, so the board, the UI in every language and
//! imported comments render the same on every machine, whatever fonts it has installed.

use egui::{FontData, FontDefinitions, FontFamily};
use std::sync::Arc;

/// The name egui knows the font by.
pub const FONT_NAME: &str = "Chuhe Kai";

/// The subset font file, made by `assets/fonts/subset.py`, which the core embeds for the
/// printed worksheets too.
static FONT_FILE: &[u8] = chuhe_core::diagram::FONT;

/// Font definitions with Chuhe Kai first (and only) for both proportional and monospace text.
pub fn definitions() -> FontDefinitions {
    let mut definitions = FontDefinitions::empty();
    definitions.font_data.insert(
        FONT_NAME.to_owned(),
        Arc::new(FontData::from_static(FONT_FILE)),
    );
    for family in [FontFamily::Proportional, FontFamily::Monospace] {
        definitions
            .families
            .entry(family)
            .or_default()
            .insert(0, FONT_NAME.to_owned());
    }
    definitions
}

/// Makes `ctx` draw all text with Chuhe Kai.
pub fn install(ctx: &egui::Context) {
    ctx.set_fonts(definitions());
}

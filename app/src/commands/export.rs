//! Exporting diagrams.

use super::Ctx;
use crate::actions::*;
use crate::services::export::{render, save_png};
use crate::services::work::WorkKey;
use crate::state::Notice;
use crate::state::export::ExportOptions;
use crate::widgets::board::Diagram;
use crate::words::problem::Problem;
use crate::words::problems;
use std::path::PathBuf;

impl Ctx<'_> {
    /// Carries out a export action.
    pub(super) fn export(&mut self, action: ExportAction) {
        match action {
            ExportAction::Dialog(options) => self.state.export_dialog = options,
            ExportAction::PngDialog(options) => {
                self.state.export_dialog = None;
                self.ask_for_file(
                    crate::state::file_chooser::FilePurpose::ExportDiagram(options),
                    Some("diagram.png".to_owned()),
                );
            }
            ExportAction::Png(path, options) => self.export_png(path, options),
            ExportAction::Finished(result) => self.exported(result),
        }
    }
}

impl Ctx<'_> {
    /// Exports the board as it is shown (position, orientation, marks of the move, theme)
    /// on a background thread: a large picture takes a moment to fill, and the board
    /// stays live meanwhile.
    pub(super) fn export_png(&mut self, path: std::path::PathBuf, options: ExportOptions) {
        let state = &self.state;
        let theme = state.settings.theme.theme();
        let diagram = Diagram::from_position(state.position());
        let mut marks = crate::widgets::board::study_marks(state, &theme);
        // The engine's arrow is a suggestion on screen, not part of the diagram.
        marks.arrows.retain(|a| a.color != theme.engine_arrow);
        self.services
            .work
            .start(WorkKey::Export, "chuhe export", move |_| {
                let picture = render(&diagram, &marks, &theme, options);
                let written = save_png(&picture, &path)
                    .map(|()| path.clone())
                    .map_err(|e| problems::in_file(&path, problems::io_error(&e)));
                Action::Export(ExportAction::Finished(written))
            });
        self.state.notice = Some(crate::state::Notice::Message("export-working"));
    }

    /// Says how a finished export went.
    pub(super) fn exported(&mut self, result: Result<PathBuf, Problem>) {
        self.state.notice = Some(match result {
            Ok(path) => Notice::WithArg("export-done", "path", path.display().to_string()),
            Err(e) => Notice::Problem(Problem::new("export-failed").with("error", e)),
        });
    }
}

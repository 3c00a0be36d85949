//! Exporting diagrams.

use super::Queue;
use crate::actions::*;
use crate::services::export::{render, save_png};
use crate::services::work::{Work, WorkKey};
use crate::state::export::ExportOptions;
use crate::state::file_chooser::FilePurpose;
use crate::state::{Notice, State};
use crate::theme::Theme;
use crate::widgets::board::{Diagram, Marks};
use crate::words::problem::Problem;
use crate::words::problems;

/// The board as it is shown (position, orientation, marks of the move, theme): what a
/// diagram pictures.
pub(super) struct Shown {
    diagram: Diagram,
    marks: Marks,
    theme: Theme,
}

impl Shown {
    /// What the main board shows in `state`.
    pub(super) fn of(state: &State) -> Shown {
        let theme = state.settings.theme.theme();
        let diagram = Diagram::from_position(state.position());
        let mut marks = crate::widgets::board::study_marks(state, &theme);
        // The engine's arrow is a suggestion on screen, not part of the diagram.
        marks.arrows.retain(|a| a.color != theme.engine_arrow);
        Shown {
            diagram,
            marks,
            theme,
        }
    }
}

/// Carries out an export action on the dialog's state; `shown` is the board to picture
/// (wanted only to write one), which `work` draws and writes.
pub(super) fn run(
    dialog: &mut Option<ExportOptions>,
    shown: Option<Shown>,
    work: &mut Work,
    queue: &mut Queue,
    action: ExportAction,
) {
    match action {
        ExportAction::Dialog(options) => *dialog = options,
        ExportAction::PngDialog(options) => {
            *dialog = None;
            let purpose = FilePurpose::ExportDiagram(options);
            queue.ask_for_file(purpose, Some("diagram.png".to_owned()), move |path| {
                ExportAction::Png(path, options).into()
            });
        }
        ExportAction::Png(path, options) => {
            let Some(Shown {
                diagram,
                marks,
                theme,
            }) = shown
            else {
                return;
            };
            // Drawn on a background thread: a large picture takes a moment to fill, and
            // the board stays live meanwhile.
            work.start(WorkKey::Export, "chuhe export", move |_| {
                let picture = render(&diagram, &marks, &theme, options);
                let written = save_png(&picture, &path)
                    .map(|()| path.clone())
                    .map_err(|e| problems::in_file(&path, problems::io_error(&e)));
                Action::Export(ExportAction::Finished(written))
            });
            queue.say(Notice::Message("export-working"));
        }
        ExportAction::Finished(result) => queue.say(match result {
            Ok(path) => Notice::WithArg("export-done", "path", path.display().to_string()),
            Err(e) => Notice::Problem(Problem::new("export-failed").with("error", e)),
        }),
    }
}

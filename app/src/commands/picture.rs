//! Reading a position from a picture: a file chosen, dropped or pasted goes to the
//! picture service; what it read opens the correction view, where each point is put
//! right with a click; the board shown then opens in the editor, or every board found
//! goes to a puzzle set.

use super::Queue;
use crate::actions::*;
use crate::i18n::I18n;
use crate::services::picture::{self, Reader};
use crate::state::Notice;
use crate::state::file_chooser::FilePurpose;
use crate::state::picture::{Correction, PictureError, PictureState};
use crate::words::problem::Problem;

/// The picture reader's command: its state, and what it uses.
pub(super) struct Manager<'a> {
    pub picture: &'a mut PictureState,
    pub i18n: &'a I18n,
    /// The thread that reads pictures.
    pub reader: &'a mut Reader,
    pub queue: &'a mut Queue,
}

impl Manager<'_> {
    /// Carries out a picture action.
    pub(super) fn run(&mut self, action: PictureAction) {
        match action {
            PictureAction::OpenDialog => {
                self.queue
                    .ask_for_file(FilePurpose::OpenPicture, None, |path| {
                        PictureAction::Open(path).into()
                    })
            }
            PictureAction::Open(path) => {
                self.picture.reading = Some(Some(path.clone()));
                self.queue.say(Notice::Message("picture-reading"));
                self.reader.read_file(path);
            }
            PictureAction::Paste(pixels) => {
                self.picture.reading = Some(None);
                self.queue.say(Notice::Message("picture-reading"));
                self.reader.read_pasted(pixels);
            }
            PictureAction::Read(file, outcome) => {
                self.picture.reading = None;
                self.queue
                    .push(FeedbackAction::Clear(Notice::Message("picture-reading")).into());
                match *outcome {
                    Ok((pixels, found)) => {
                        let count = found.len();
                        self.picture.correction = Some(Correction::new(pixels, file, found));
                        if count > 1 {
                            self.queue.done(Notice::WithArg(
                                "picture-several",
                                "count",
                                count.to_string(),
                            ));
                        }
                    }
                    Err(e) => self.queue.fail(Notice::Problem(
                        Problem::new("picture-failed").with("reason", reason(&e)),
                    )),
                }
            }
            PictureAction::Choose(index) => {
                if let Some(c) = &mut self.picture.correction
                    && index < c.found.len()
                {
                    c.chosen = index;
                }
            }
            PictureAction::Cycle(square) => {
                if let Some(c) = &mut self.picture.correction {
                    c.cycle(square, true);
                }
            }
            PictureAction::CycleBack(square) => {
                if let Some(c) = &mut self.picture.correction {
                    c.cycle(square, false);
                }
            }
            PictureAction::SetSideToMove(color) => {
                if let Some(c) = &mut self.picture.correction {
                    c.side_to_move = color;
                }
            }
            PictureAction::Accept => {
                let Some(c) = self.picture.correction.take() else {
                    return;
                };
                // The editor takes any arrangement and lists what keeps it from being a
                // legal position, so the user can put that right there too.
                let fen = c.setup(c.chosen).to_string();
                self.queue.push(Action::Editor(EditorAction::Open));
                self.queue.push(Action::Editor(EditorAction::ApplyFen(fen)));
            }
            PictureAction::AddAllToPuzzles => self.add_all_to_puzzles(),
            PictureAction::Cancel => {
                self.picture.correction = None;
            }
        }
    }

    /// Every board found, as corrected, goes to a puzzle set named after the picture's
    /// file (or 识图 when pasted), through the puzzles' own import.
    fn add_all_to_puzzles(&mut self) {
        let Some(c) = &self.picture.correction else {
            return;
        };
        let i18n = self.i18n;
        let name = c
            .file
            .as_ref()
            .and_then(|f| f.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| i18n.tr("picture-set-name"));
        // Ids of their own, so that boards of another picture added to a set of the same
        // name are added beside these, not over them.
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let puzzles: Vec<_> = (0..c.found.len())
            .map(|i| {
                let n = (i + 1).to_string();
                (
                    format!("picture-{stamp}-{n}"),
                    i18n.tr_args(
                        "picture-puzzle-title",
                        &[("name", name.clone().into()), ("n", n.into())],
                    ),
                    c.setup(i),
                )
            })
            .collect();
        match picture::write_puzzle_file(&name, &puzzles) {
            Ok(path) => {
                self.picture.correction = None;
                self.queue.push(Action::Puzzle(PuzzleAction::Import(path)));
            }
            Err(e) => self
                .queue
                .fail(Notice::Problem(crate::words::problems::save_failed(&e))),
        }
    }
}

/// Why a picture gave no position, in words to come.
fn reason(e: &PictureError) -> Problem {
    match e {
        PictureError::File(why) => Problem::new("picture-file-unreadable").text("error", why),
        PictureError::FileTooLarge(bytes) => Problem::new("picture-file-too-large")
            .text("size", bytes / (1024 * 1024))
            .text("max", crate::state::picture::MAX_FILE_BYTES / (1024 * 1024)),
        PictureError::Unreadable(why) => Problem::new("picture-unreadable").text("error", why),
        PictureError::PictureTooLarge { width, height } => {
            Problem::new("picture-too-large").text("size", format!("{width}×{height}"))
        }
        PictureError::TooSmall { width, height } => {
            Problem::new("picture-too-small").text("size", format!("{width}×{height}"))
        }
        PictureError::NoBoard => Problem::new("picture-no-board"),
        PictureError::Failed => Problem::new("picture-reader-stopped"),
    }
}

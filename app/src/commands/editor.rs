//! The position editor and the composer's view.

use super::Queue;
use crate::actions::*;
use crate::services::composer::Composer;
use crate::services::storage::Storage;
use crate::services::work::Work;
use crate::state::editor::*;
use crate::state::{Dialog, Notice};
use crate::words::problems;
use chuhe_core::puzzle::SolutionNode;
use chuhe_core::{Position, Setup};

/// The editor's command: its state, and what it reads and uses.
pub(super) struct Manager<'a> {
    /// The editor, while it is open.
    pub editor: &'a mut Option<Editor>,
    /// The position on the board, which the editor starts from.
    pub position: &'a Position,
    /// Whether the game on the board has unsaved changes (a new game from the editor
    /// replaces it).
    pub dirty: bool,
    /// Whether the engine analyses the board.
    pub analysing: bool,
    pub storage: &'a Storage,
    /// The composer's solver runs on it.
    pub work: &'a mut Work,
    /// The composer's solver.
    pub composer: &'a mut Composer,
    pub queue: &'a mut Queue,
}

impl Manager<'_> {
    /// Carries out an editor action.
    pub(super) fn run(&mut self, action: EditorAction) {
        if action == EditorAction::Open && self.editor.is_some() {
            // Already open: the arrangement stays.
            return;
        }
        if action == EditorAction::Open {
            // Solve mode and the editor share the board; opening one leaves the other.
            self.queue.push(PuzzleAction::Leave.into());
            *self.editor = Some(Editor::new(self.position.to_setup()));
            self.queue.push(FeedbackAction::Quiet.into());
            return;
        }
        let Some(editor) = self.editor else {
            return;
        };
        // Said about an earlier arrangement; said again if still true.
        self.queue
            .push(FeedbackAction::Clear(Notice::Message("editor-illegal")).into());
        match action {
            EditorAction::Open => {}
            EditorAction::Leave => {
                if editor.is_changed() {
                    self.queue
                        .push(WindowAction::Ask(Dialog::LeaveEditor).into());
                } else {
                    *self.editor = None;
                    self.composer.cancel(self.work);
                }
            }
            EditorAction::LeaveNow => {
                self.queue.push(WindowAction::Dismiss.into());
                *self.editor = None;
                self.composer.cancel(self.work);
            }
            EditorAction::SetTool(tool) => {
                editor.tool = tool;
                editor.selected = None;
            }
            EditorAction::Click(square) => editor.click(square),
            EditorAction::Place(square, piece) => editor.change(|s| {
                s.board.set(square, Some(piece));
            }),
            EditorAction::Remove(square) => editor.change(|s| {
                s.board.set(square, None);
            }),
            EditorAction::MovePiece(from, to) => editor.move_piece(from, to),
            EditorAction::Clear => editor.change(|s| *s = Setup::empty()),
            EditorAction::StartPosition => editor.change(|s| *s = Setup::startpos()),
            EditorAction::Mirror => editor.change(|s| *s = s.mirrored()),
            EditorAction::SwapColors => editor.change(|s| *s = s.colors_swapped()),
            EditorAction::SetSideToMove(color) => editor.change(|s| s.side_to_move = color),
            EditorAction::SetFenText(text) => editor.fen_text = text,
            EditorAction::ApplyFen(text) => {
                editor.apply_fen(&text);
            }
            EditorAction::Undo => {
                editor.undo();
            }
            EditorAction::Redo => {
                editor.redo();
            }
            EditorAction::Play | EditorAction::Analyse => {
                let Some(position) = editor.position() else {
                    // The arrangement stays as it is, its problems listed beside it.
                    self.queue.say(Notice::Message("editor-illegal"));
                    return;
                };
                if self.dirty {
                    self.queue.held = Some(Action::Editor(action));
                    self.queue
                        .push(WindowAction::Ask(Dialog::UnsavedOnReplace).into());
                    return;
                }
                editor.cancel_solving();
                *self.editor = None;
                self.composer.cancel(self.work);
                let record = chuhe_core::record::Record::new(position);
                let root = record.root();
                self.queue
                    .push(TabAction::Replace(OpenGame::new(record, root)).into());
                self.queue.push(FeedbackAction::Quiet.into());
                if action == EditorAction::Analyse && !self.analysing {
                    self.queue.push(EngineAction::ToggleAnalysis.into());
                }
            }
            EditorAction::SetMateMoves(n) => editor.mate_moves = n.clamp(1, MAX_COMPOSER_MOVES),
            EditorAction::SetChecksOnly(on) => editor.checks_only = on,
            EditorAction::Solve => match editor.start_solving() {
                Some((position, options)) => self.composer.start(self.work, position, options),
                None => self.queue.say(Notice::Message("editor-illegal")),
            },
            EditorAction::CancelSolve => {
                editor.cancel_solving();
                self.composer.cancel(self.work);
            }
            EditorAction::Progress(report) => editor.progressed(report),
            EditorAction::Solved(position, output) => editor.solved(&position, *output),
            EditorAction::SetPuzzleInfo(info) => editor.puzzle_info = info,
            EditorAction::SaveAsPuzzle => self.save_composed_puzzle(),
        }
    }

    /// Saves the arrangement with the mate the composer's view proved as a user puzzle.
    fn save_composed_puzzle(&mut self) {
        use chuhe_core::puzzle::{Goal, Puzzle};
        let Some(editor) = &*self.editor else {
            return;
        };
        let Some(result) = editor.current_result() else {
            return;
        };
        let Some(moves) = result.solution.mate_in() else {
            return;
        };
        let Some(root) = self.storage.data_path("puzzles") else {
            return;
        };
        let info = &editor.puzzle_info;
        let collection = crate::services::puzzles::file_name(info.collection.trim())
            .trim_end_matches(".ron")
            .to_owned();
        let collection = if collection.is_empty() {
            DEFAULT_COLLECTION.to_owned()
        } else {
            collection
        };
        let mut solution: Vec<SolutionNode> = result.tree.clone();
        for &m in result
            .solution
            .line
            .iter()
            .rev()
            .filter(|_| result.tree.is_empty())
        {
            solution = vec![SolutionNode {
                mv: m,
                replies: solution,
            }];
        }
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let puzzle = Puzzle {
            id: format!("p{stamp}"),
            title: info.title.trim().to_owned(),
            source: info.source.trim().to_owned(),
            author: info.author.trim().to_owned(),
            position: result.position.clone(),
            goal: Goal::Mate {
                moves,
                checks_only: result.options.quiet_moves == Some(0),
            },
            solution,
        };
        match crate::services::puzzles::save_puzzle(&root.join(&collection), &puzzle) {
            Ok(path) => {
                // The sets are read again when next wanted, with this one.
                self.queue.push(PuzzleAction::Reload.into());
                self.queue.say(Notice::WithArg(
                    "notice-puzzle-saved",
                    "path",
                    path.display().to_string(),
                ));
            }
            Err(e) => self
                .queue
                .push(FeedbackAction::Fail(Notice::Problem(problems::save_failed(&e))).into()),
        }
    }
}

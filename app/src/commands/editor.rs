use super::Ctx;
use crate::actions::*;
use crate::services::composer;
use crate::state::editor::*;
use crate::words::problems;
use chuhe_core::Setup;
use chuhe_core::puzzle::SolutionNode;

impl Ctx<'_> {
    /// Carries out an editor action.
    pub(super) fn editor(&mut self, action: EditorAction) {
        use crate::state::{Dialog, Notice};
        if action == EditorAction::Open && self.state.editor.is_some() {
            // Already open: the arrangement stays.
            return;
        }
        if action == EditorAction::Open {
            // Solve mode and the editor share the board; opening one leaves the other.
            self.state.puzzles.session = None;
            self.state.editor = Some(Editor::new(self.state.position().to_setup()));
            self.state.notice = None;
            return;
        }
        let dirty = self.state.study.dirty;
        let Some(editor) = &mut self.state.editor else {
            return;
        };
        if self.state.notice == Some(Notice::Message("editor-illegal")) {
            // Said about an earlier arrangement; said again if still true.
            self.state.notice = None;
        }
        match action {
            EditorAction::Open => {}
            EditorAction::Leave => {
                if editor.is_changed() {
                    self.state.dialog = Some(Dialog::LeaveEditor);
                } else {
                    self.state.editor = None;
                    composer::cancel(&mut self.services.work);
                }
            }
            EditorAction::LeaveNow => {
                self.state.dialog = None;
                self.state.editor = None;
                composer::cancel(&mut self.services.work);
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
                    self.state.notice = Some(Notice::Message("editor-illegal"));
                    return;
                };
                if dirty {
                    self.state.dialog = Some(Dialog::UnsavedOnReplace);
                    self.queue.held = Some(Action::Editor(action));
                    return;
                }
                editor.cancel_solving();
                composer::cancel(&mut self.services.work);
                self.state.editor = None;
                composer::cancel(&mut self.services.work);
                self.state
                    .replace_record(chuhe_core::record::Record::new(position), None);
                self.state.study.folder = None;
                self.state.notice = None;
                if action == EditorAction::Analyse && !self.state.analysis.analysing {
                    self.push(crate::actions::Action::Engine(EngineAction::ToggleAnalysis));
                }
            }
            EditorAction::SetMateMoves(n) => editor.mate_moves = n.clamp(1, MAX_COMPOSER_MOVES),
            EditorAction::SetChecksOnly(on) => editor.checks_only = on,
            EditorAction::Solve => match editor.start_solving() {
                Some((position, options)) => {
                    composer::start(&mut self.services.work, position, options)
                }
                None => self.state.notice = Some(Notice::Message("editor-illegal")),
            },
            EditorAction::CancelSolve => {
                editor.cancel_solving();
                composer::cancel(&mut self.services.work);
            }
            EditorAction::Solved(position, output) => editor.solved(&position, *output),
            EditorAction::SetPuzzleInfo(info) => editor.puzzle_info = info,
            EditorAction::SaveAsPuzzle => self.save_composed_puzzle(),
        }
    }

    /// Saves the arrangement with the mate the composer's view proved as a user puzzle.
    fn save_composed_puzzle(&mut self) {
        use crate::state::Notice;
        use chuhe_core::puzzle::{Goal, Puzzle};
        let Some(editor) = &self.state.editor else {
            return;
        };
        let Some(result) = editor.current_result() else {
            return;
        };
        let Some(moves) = result.solution.mate_in() else {
            return;
        };
        let Some(root) = self.services.storage.data_path("puzzles") else {
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
                self.state.puzzles.loaded = false;
                self.state.notice = Some(Notice::WithArg(
                    "notice-puzzle-saved",
                    "path",
                    path.display().to_string(),
                ));
            }
            Err(e) => self.tell_failure(Notice::Problem(problems::save_failed(&e))),
        }
    }
}

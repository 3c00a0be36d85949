//! The position editor (摆棋): an arrangement of pieces being set up, with its own undo
//! history, the problems that keep it from being a legal position, and the composer's
//! view (the solver run on it in the background). Pure state and logic; the panel is
//! [`crate::panels::editor`], the actions [`EditorAction`].

use crate::jobs::Job;
use chuhe_core::puzzle::{SolutionNode, solution_tree};
use chuhe_core::solver::{Solution, SolveOptions, Solver};
use chuhe_core::{Color, Piece, Position, Setup, SetupProblem, Square};
use std::time::Duration;

/// What a click on the board does in the editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Pick a piece up and put it down elsewhere.
    Move,
    /// Put this piece on the clicked point (a click on the same piece takes it off).
    Place(Piece),
    /// Take the clicked piece off.
    Erase,
}

/// Everything the user can do in the editor.
#[derive(Clone, Debug, PartialEq)]
pub enum EditorAction {
    /// Open the editor on the position on the board.
    Open,
    /// Leave the editor (asks first when the arrangement was changed).
    Leave,
    /// Leave without asking.
    LeaveNow,
    /// Choose what a click does.
    SetTool(Tool),
    /// A click on a point, with the current tool.
    Click(Square),
    /// Put a piece on a point (from the palette by drag).
    Place(Square, Piece),
    /// Take the piece off a point.
    Remove(Square),
    /// Move a piece from one point to another (by drag), taking whatever stood there.
    MovePiece(Square, Square),
    /// Empty the board.
    Clear,
    /// The start position.
    StartPosition,
    /// Mirror left–right.
    Mirror,
    /// Swap the colours (the board turned round, the other side to move).
    SwapColors,
    /// Choose the side to move.
    SetSideToMove(Color),
    /// The text in the FEN field changed.
    SetFenText(String),
    /// Set up the position of the FEN field (or pasted).
    ApplyFen(String),
    /// Take back the last change of the arrangement.
    Undo,
    /// Make the change taken back again.
    Redo,
    /// Start a new game from this position (refused when illegal).
    Play,
    /// Start a new game from this position and analyse it (refused when illegal).
    Analyse,
    /// The composer's view: the most moves to look for a mate in.
    SetMateMoves(u32),
    /// The composer's view: only mates by consecutive checks.
    SetChecksOnly(bool),
    /// Run the solver on the position.
    Solve,
    /// Stop the solver.
    CancelSolve,
    /// The title, source and author of a puzzle to save.
    SetPuzzleInfo(PuzzleInfo),
    /// Save the position and the proved mate as one of the user's puzzles.
    SaveAsPuzzle,
}

/// What the user typed about a puzzle being saved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PuzzleInfo {
    /// Its title.
    pub title: String,
    /// Where it comes from.
    pub source: String,
    /// Who composed it.
    pub author: String,
    /// The user's collection (a directory) to save it in.
    pub collection: String,
}

/// The composer's background job's answer: the solution and, for a short mate, the tree
/// of every defence.
pub type SolveOutput = (Solution, Vec<SolutionNode>);

/// What the solver found for the arrangement it was run on.
#[derive(Clone, Debug)]
pub struct ComposerResult {
    /// The position solved.
    pub position: Position,
    /// The options it was solved with.
    pub options: SolveOptions,
    /// The solver's answer.
    pub solution: Solution,
    /// Whether it was cancelled by the user.
    pub cancelled: bool,
    /// The solution tree with every defence, for a short mate (else empty).
    pub tree: Vec<SolutionNode>,
}

/// The editor's state.
pub struct Editor {
    /// The arrangement.
    pub setup: Setup,
    /// What a click does.
    pub tool: Tool,
    /// The piece picked up with the move tool.
    pub selected: Option<Square>,
    /// The FEN field's text (the arrangement's FEN unless the user is typing).
    pub fen_text: String,
    /// Why the FEN typed could not be read.
    pub fen_error: Option<String>,
    /// Everything that keeps the arrangement from being a legal position.
    pub problems: Vec<SetupProblem>,
    /// The composer's view: mate within this many moves.
    pub mate_moves: u32,
    /// The composer's view: consecutive checks only.
    pub checks_only: bool,
    /// The solver at work.
    pub solving: Option<(Position, SolveOptions, Job<SolveOutput>)>,
    /// What it last found.
    pub result: Option<ComposerResult>,
    /// Details of a puzzle to save.
    pub puzzle_info: PuzzleInfo,
    initial: Setup,
    undo: Vec<Setup>,
    redo: Vec<Setup>,
}

impl Editor {
    /// An editor on `setup`.
    pub fn new(setup: Setup) -> Editor {
        let mut editor = Editor {
            fen_text: setup.to_string(),
            initial: setup.clone(),
            setup,
            tool: Tool::Move,
            selected: None,
            fen_error: None,
            problems: Vec::new(),
            mate_moves: 3,
            checks_only: false,
            solving: None,
            result: None,
            puzzle_info: PuzzleInfo {
                collection: DEFAULT_COLLECTION.into(),
                ..PuzzleInfo::default()
            },
            undo: Vec::new(),
            redo: Vec::new(),
        };
        editor.revalidate();
        editor
    }

    /// Whether the arrangement differs from the one the editor opened with.
    pub fn is_changed(&self) -> bool {
        self.setup != self.initial
    }

    /// The legal position, when the arrangement is one.
    pub fn position(&self) -> Option<Position> {
        Position::from_setup(&self.setup).ok()
    }

    /// The points the problems concern, to mark on the board.
    pub fn problem_points(&self) -> Vec<Square> {
        let mut points: Vec<Square> = self.problems.iter().flat_map(|p| p.squares()).collect();
        points.sort_by_key(|s| s.index());
        points.dedup();
        points
    }

    fn revalidate(&mut self) {
        self.problems = match self.setup.validate() {
            Ok(()) => Vec::new(),
            Err(e) => e.problems,
        };
        self.fen_text = self.setup.to_string();
        self.fen_error = None;
    }

    /// Changes the arrangement as an undoable step (nothing is recorded when it stays the same).
    pub fn change(&mut self, edit: impl FnOnce(&mut Setup)) {
        let before = self.setup.clone();
        edit(&mut self.setup);
        if self.setup != before {
            self.undo.push(before);
            self.redo.clear();
            self.selected = None;
            self.revalidate();
        }
    }

    /// Takes back the last change.
    pub fn undo(&mut self) -> bool {
        let Some(previous) = self.undo.pop() else {
            return false;
        };
        self.redo.push(std::mem::replace(&mut self.setup, previous));
        self.selected = None;
        self.revalidate();
        true
    }

    /// Makes the last change taken back again.
    pub fn redo(&mut self) -> bool {
        let Some(next) = self.redo.pop() else {
            return false;
        };
        self.undo.push(std::mem::replace(&mut self.setup, next));
        self.selected = None;
        self.revalidate();
        true
    }

    /// Whether there is a change to take back.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is a change to make again.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// A click on `square` with the current tool.
    pub fn click(&mut self, square: Square) {
        match self.tool {
            Tool::Place(piece) => {
                let here = self.setup.board.get(square);
                self.change(|s| {
                    s.board.set(
                        square,
                        if here == Some(piece) {
                            None
                        } else {
                            Some(piece)
                        },
                    );
                });
            }
            Tool::Erase => self.change(|s| {
                s.board.set(square, None);
            }),
            Tool::Move => match self.selected {
                Some(from) if from == square => self.selected = None,
                Some(from) => self.move_piece(from, square),
                None => {
                    if self.setup.board.get(square).is_some() {
                        self.selected = Some(square);
                    }
                }
            },
        }
    }

    /// Moves the piece on `from` to `to` (taking what stood there).
    pub fn move_piece(&mut self, from: Square, to: Square) {
        if from == to {
            self.selected = None;
            return;
        }
        self.change(|s| {
            let piece = s.board.set(from, None);
            if piece.is_some() {
                s.board.set(to, piece);
            }
        });
        self.selected = None;
    }

    /// Reads a FEN into the arrangement (an undoable step) or keeps the reason it failed.
    pub fn apply_fen(&mut self, text: &str) -> bool {
        match text.trim().parse::<Setup>() {
            Ok(setup) => {
                self.change(|s| *s = setup);
                self.fen_error = None;
                true
            }
            Err(e) => {
                self.fen_text = text.to_owned();
                self.fen_error = Some(e.to_string());
                false
            }
        }
    }

    /// Starts the solver on the arrangement, stopping any earlier run. Refused (false) for
    /// an illegal arrangement.
    pub fn start_solving(&mut self) -> bool {
        let Some(position) = self.position() else {
            return false;
        };
        let options = SolveOptions {
            max_moves: self.mate_moves.clamp(1, MAX_COMPOSER_MOVES),
            quiet_moves: self.checks_only.then_some(0),
            time_limit: None,
        };
        self.cancel_solving();
        let pos = position.clone();
        let job = Job::spawn("chuhe composer", move |stop| {
            let mut solver = Solver::new(22);
            solver.set_stop(stop);
            let solution = solver.solve(&pos, &options);
            // A short mate's every defence, for a puzzle saved from it.
            let tree = match solution.mate_in() {
                Some(k) if k <= TREE_MOVES => {
                    let opts = SolveOptions {
                        max_moves: k,
                        ..options
                    };
                    solution_tree(&mut solver, &pos, &opts, TREE_NODES)
                }
                _ => Vec::new(),
            };
            (solution, tree)
        });
        self.solving = Some((position, options, job));
        self.result = None;
        true
    }

    /// Stops the solver; the result says it was cancelled.
    pub fn cancel_solving(&mut self) {
        if let Some((position, options, mut job)) = self.solving.take() {
            job.cancel();
            self.result = Some(ComposerResult {
                position,
                options,
                solution: Solution {
                    verdict: chuhe_core::solver::Verdict::Unknown { searched: 0 },
                    first_moves: Vec::new(),
                    line: Vec::new(),
                    duals: Vec::new(),
                    nodes: 0,
                    elapsed: Duration::ZERO,
                },
                cancelled: true,
                tree: Vec::new(),
            });
        }
    }

    /// Takes in the solver's answer when it has come; true when it did.
    pub fn poll(&mut self) -> bool {
        let Some((_, _, job)) = &mut self.solving else {
            return false;
        };
        let Some((solution, tree)) = job.poll() else {
            return false;
        };
        if let Some((position, options, _)) = self.solving.take() {
            self.result = Some(ComposerResult {
                position,
                options,
                solution,
                cancelled: false,
                tree,
            });
        }
        true
    }

    /// The composer's result, if it is about the arrangement as it is now.
    pub fn current_result(&self) -> Option<&ComposerResult> {
        self.result
            .as_ref()
            .filter(|r| r.position.to_setup().board == self.setup.board)
            .filter(|r| r.position.side_to_move() == self.setup.side_to_move)
    }
}

/// A puzzle saved from the composer's view keeps every defence for mates up to this long,
/// while the tree stays within [`TREE_NODES`] moves (else its main line).
const TREE_MOVES: u32 = 3;
const TREE_NODES: usize = 300;

/// The most moves the composer's view searches.
pub const MAX_COMPOSER_MOVES: u32 = 30;

/// The user's collection puzzles are saved in unless they name another.
pub const DEFAULT_COLLECTION: &str = "mine";

impl crate::app::ChuheApp {
    /// Carries out an editor action.
    pub(crate) fn apply_editor(&mut self, ctx: &egui::Context, action: EditorAction) {
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
        let dirty = self.state.dirty;
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
                }
            }
            EditorAction::LeaveNow => {
                self.state.dialog = None;
                self.state.editor = None;
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
                    self.state.dialog = Some(Dialog::UnsavedOnReplace(Box::new(
                        crate::actions::Action::Editor(action),
                    )));
                    return;
                }
                editor.cancel_solving();
                self.state.editor = None;
                self.state
                    .replace_record(chuhe_core::record::Record::new(position), None);
                self.state.folder = None;
                self.state.notice = None;
                if action == EditorAction::Analyse && !self.state.analysing {
                    self.apply(ctx, crate::actions::Action::ToggleAnalysis);
                }
            }
            EditorAction::SetMateMoves(n) => editor.mate_moves = n.clamp(1, MAX_COMPOSER_MOVES),
            EditorAction::SetChecksOnly(on) => editor.checks_only = on,
            EditorAction::Solve => {
                if !editor.start_solving() {
                    self.state.notice = Some(Notice::Message("editor-illegal"));
                }
            }
            EditorAction::CancelSolve => editor.cancel_solving(),
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
        let Some(root) = self.storage.data_path("puzzles") else {
            return;
        };
        let info = &editor.puzzle_info;
        let collection = crate::puzzles::file_name(info.collection.trim())
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
        match crate::puzzles::save_puzzle(&root.join(&collection), &puzzle) {
            Ok(path) => {
                self.state.puzzles.loaded = false;
                self.state.notice = Some(Notice::WithArg(
                    "notice-puzzle-saved",
                    "path",
                    path.display().to_string(),
                ));
            }
            Err(e) => {
                self.state.notice = Some(Notice::WithArg(
                    "notice-save-failed",
                    "error",
                    e.to_string(),
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhe_core::PieceKind;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn placing_moving_and_removing_are_undone_and_redone() {
        let mut editor = Editor::new(Setup::empty());
        let rook = Piece::new(Color::Red, PieceKind::Rook);
        editor.tool = Tool::Place(rook);
        editor.click(sq("a0"));
        assert_eq!(editor.setup.board.get(sq("a0")), Some(rook));
        editor.tool = Tool::Move;
        editor.click(sq("a0"));
        editor.click(sq("a5"));
        assert_eq!(editor.setup.board.get(sq("a0")), None);
        assert_eq!(editor.setup.board.get(sq("a5")), Some(rook));
        assert!(editor.undo());
        assert_eq!(editor.setup.board.get(sq("a0")), Some(rook));
        assert!(editor.redo());
        assert_eq!(editor.setup.board.get(sq("a5")), Some(rook));
        editor.tool = Tool::Erase;
        editor.click(sq("a5"));
        assert_eq!(editor.setup, Setup::empty());
        assert!(!editor.is_changed());
        assert!(editor.can_undo());
    }

    #[test]
    fn problems_follow_the_arrangement_and_a_bad_fen_keeps_it() {
        let mut editor = Editor::new(Setup::empty());
        assert_eq!(editor.problems.len(), 2, "both generals are missing");
        assert!(editor.position().is_none());
        assert!(editor.apply_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"));
        assert!(editor.problems.is_empty());
        assert!(editor.position().is_some());
        let before = editor.setup.clone();
        assert!(!editor.apply_fen("3k5/9/9/x"));
        assert!(editor.fen_error.is_some());
        assert_eq!(editor.setup, before);
        assert!(!editor.start_solving() || editor.position().is_some());
    }
}

//! The position editor (摆棋): an arrangement of pieces being set up, with its own undo
//! history, the problems that keep it from being a legal position, and the composer's
//! view (the solver run on it in the background). Pure state and logic; the panel is
//! [`crate::panels::editor`], the actions [`EditorAction`].

use chuhe_core::puzzle::SolutionNode;
use chuhe_core::solver::{ProgressReport, Solution, SolveOptions};
use chuhe_core::{Piece, Position, Setup, SetupProblem, Square};

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
    /// Why the FEN typed could not be read (put into words when drawn).
    pub fen_error: Option<chuhe_core::FenError>,
    /// Everything that keeps the arrangement from being a legal position.
    pub problems: Vec<SetupProblem>,
    /// Placements no game reaches (a pawn behind its start, an advisor off its points):
    /// accepted, as composed problems use them, and pointed out.
    pub warnings: Vec<SetupProblem>,
    /// The composer's view: mate within this many moves.
    pub mate_moves: u32,
    /// The composer's view: consecutive checks only.
    pub checks_only: bool,
    /// The solver at work.
    pub solving: Option<(Position, SolveOptions)>,
    /// How far the solver at work has got, once it said.
    pub progress: Option<ProgressReport>,
    /// What it last found.
    pub result: Option<ComposerResult>,
    /// Details of a puzzle to save.
    pub puzzle_info: PuzzleInfo,
    pub initial: Setup,
    pub undo: Vec<Setup>,
    pub redo: Vec<Setup>,
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
            warnings: Vec::new(),
            mate_moves: 3,
            checks_only: false,
            solving: None,
            progress: None,
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

    /// The points of the placements warned of, to mark on the board.
    pub fn warning_points(&self) -> Vec<Square> {
        self.warnings.iter().flat_map(|p| p.squares()).collect()
    }

    pub fn revalidate(&mut self) {
        self.problems = match self.setup.validate() {
            Ok(()) => Vec::new(),
            Err(e) => e.problems,
        };
        self.warnings = self.setup.warnings();
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
                self.fen_error = Some(e);
                false
            }
        }
    }

    /// Starts the solver on the arrangement, stopping any earlier run. Refused (false) for
    /// an illegal arrangement.
    pub fn start_solving(&mut self) -> Option<(Position, SolveOptions)> {
        let position = self.position()?;
        let options = SolveOptions {
            max_moves: self.mate_moves.clamp(1, MAX_COMPOSER_MOVES),
            quiet_moves: self.checks_only.then_some(0),
            time_limit: None,
        };
        self.cancel_solving();
        self.solving = Some((position.clone(), options));
        self.result = None;
        Some((position, options))
    }

    /// Takes in how far the solver at work has got (nothing when none is at work: a report
    /// that comes after the solve ended says nothing of the next).
    pub fn progressed(&mut self, report: ProgressReport) {
        if self.solving.is_some() {
            self.progress = Some(report);
        }
    }

    /// Stops the solver; the result says it was cancelled.
    pub fn cancel_solving(&mut self) {
        self.progress = None;
        if let Some((position, options)) = self.solving.take() {
            self.result = Some(ComposerResult {
                position,
                options,
                solution: Solution::bare(chuhe_core::solver::Verdict::Unknown { searched: 0 }),
                cancelled: true,
                tree: Vec::new(),
            });
        }
    }

    /// Takes in the solver's answer for the position it was asked about.
    pub fn solved(&mut self, position: &Position, (solution, tree): SolveOutput) {
        self.progress = None;
        if self
            .solving
            .as_ref()
            .is_some_and(|(p, _)| p.hash() == position.hash())
            && let Some((position, options)) = self.solving.take()
        {
            self.result = Some(ComposerResult {
                position,
                options,
                solution,
                cancelled: false,
                tree,
            });
        }
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
pub const TREE_MOVES: u32 = 3;
pub const TREE_NODES: usize = 300;

/// The most moves the composer's view searches.
pub const MAX_COMPOSER_MOVES: u32 = 30;

/// The user's collection puzzles are saved in unless they name another.
pub const DEFAULT_COLLECTION: &str = "mine";

#[cfg(test)]
mod tests {
    use super::*;
    use chuhe_core::Color;
    use chuhe_core::PieceKind;

    pub fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    pub fn placing_moving_and_removing_are_undone_and_redone() {
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
    pub fn problems_follow_the_arrangement_and_a_bad_fen_keeps_it() {
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
        assert!(editor.start_solving().is_none() || editor.position().is_some());
    }
}

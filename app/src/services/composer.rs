//! The composer's solver: proves the arrangement in the position editor in the
//! background and answers with an editor action.

use crate::actions::{Action, EditorAction};
use crate::services::work::{Work, WorkKey};
use crate::state::editor::{TREE_MOVES, TREE_NODES};
use chuhe_core::Position;
use chuhe_core::puzzle::solution_tree;
use chuhe_core::solver::{SolveOptions, Solver};

/// Starts solving `position` (cancelling an earlier solve).
pub fn start(work: &mut Work, position: Position, options: SolveOptions) {
    work.start(WorkKey::Composer, "chuhe composer", move |stop| {
        let mut solver = Solver::new(22);
        solver.set_stop(stop);
        let solution = solver.solve(&position, &options);
        // A short mate's every defence, for a puzzle saved from it.
        let tree = match solution.mate_in() {
            Some(k) if k <= TREE_MOVES => {
                let opts = SolveOptions {
                    max_moves: k,
                    ..options
                };
                solution_tree(&mut solver, &position, &opts, TREE_NODES)
            }
            _ => Vec::new(),
        };
        Action::Editor(EditorAction::Solved(position, Box::new((solution, tree))))
    });
}

/// Stops the solve under way, if any.
pub fn cancel(work: &mut Work) {
    work.cancel(WorkKey::Composer);
}

//! The composer's solver: proves the arrangement in the position editor in the
//! background, says how far it has got while it runs, and answers with an editor action.

use crate::actions::{Action, EditorAction};
use crate::services::work::{Work, WorkKey};
use crate::state::editor::{TREE_MOVES, TREE_NODES};
use chuhe_core::Position;
use chuhe_core::puzzle::solution_tree;
use chuhe_core::solver::{Progress, ProgressReport, SolveOptions, Solver};
use std::sync::Arc;

/// The solve under way: where its solver says how far it has got, and what was last told.
#[derive(Default)]
pub struct Composer {
    running: Option<(Arc<Progress>, ProgressReport)>,
}

impl Composer {
    /// Starts solving `position` (cancelling an earlier solve).
    pub fn start(&mut self, work: &mut Work, position: Position, options: SolveOptions) {
        let progress = Arc::new(Progress::default());
        let shared = progress.clone();
        work.start(WorkKey::Composer, "chuhe composer", move |stop| {
            let mut solver = Solver::new(22);
            solver.set_stop(stop);
            solver.set_progress(Some(shared));
            let solution = solver.solve(&position, &options);
            // The tree's own solves are not the solve the user watches.
            solver.set_progress(None);
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
        self.running = Some((progress, ProgressReport::default()));
    }

    /// Stops the solve under way, if any.
    pub fn cancel(&mut self, work: &mut Work) {
        self.running = None;
        work.cancel(WorkKey::Composer);
    }

    /// How far the solve under way has got, when that changed since last asked.
    pub fn poll(&mut self, work: &Work) -> Option<Action> {
        if !work.busy(WorkKey::Composer) {
            self.running = None;
        }
        let (progress, told) = self.running.as_mut()?;
        let now = progress.report();
        (now != *told).then(|| {
            *told = now;
            Action::Editor(EditorAction::Progress(now))
        })
    }
}

//! Background work that answers with an action: the solver for solve mode, the composer
//! and pattern practice, the endgame tables, diagram export. Each piece of work has a key;
//! starting work under a key cancels what ran under it before, so a stale answer never
//! comes back. The frame drains the finished work into actions.

use crate::actions::Action;
use crate::services::jobs::Job;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// What a piece of background work is for: one at a time of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WorkKey {
    /// Judging the user's move in solve mode.
    PuzzleJudge,
    /// Finding a winning move for solve mode's hint.
    PuzzleHint,
    /// The composer's solver in the position editor.
    Composer,
    /// The defender's answer in pattern practice.
    PatternDefence,
    /// Loading or generating an endgame table.
    Tablebase,
    /// Writing a diagram.
    Export,
    /// Writing a worksheet.
    Worksheet,
    /// Working out the answer to the class's question.
    ClassQuiz,
}

impl WorkKey {
    /// What the feature hears when the thread of its work died without an answer, so
    /// that it never waits for ever.
    pub fn lost(self) -> Action {
        use crate::actions::*;
        match self {
            WorkKey::PuzzleJudge => Action::Puzzle(PuzzleAction::Judged(
                crate::state::puzzles::Judgement::Unknown,
            )),
            WorkKey::PuzzleHint => Action::Puzzle(PuzzleAction::HintFound(None)),
            WorkKey::Composer => Action::Editor(EditorAction::CancelSolve),
            WorkKey::PatternDefence => Action::Patterns(PatternAction::Defended(
                crate::state::patterns::Defence::Unknown,
            )),
            WorkKey::Tablebase => Action::Tablebase(TbAction::Generated(Err(
                crate::words::problems::work_lost(),
            ))),
            WorkKey::Export => Action::Export(ExportAction::Finished(Err(
                crate::words::problems::work_lost(),
            ))),
            WorkKey::Worksheet => Action::Worksheet(WorksheetAction::Finished(Err(
                crate::words::problems::work_lost(),
            ))),
            // No answer found: the teacher sets it.
            WorkKey::ClassQuiz => Action::Class(ClassAction::Judged {
                index: usize::MAX,
                mate: None,
                correct: Vec::new(),
            }),
        }
    }
}

/// The work under way.
#[derive(Default)]
pub struct Work {
    jobs: Vec<(WorkKey, Job<Action>)>,
}

impl Work {
    /// Starts `work` under `key` on a thread named `name`, cancelling what ran under that
    /// key before; `work` gets a flag that is set when it is cancelled.
    pub fn start(
        &mut self,
        key: WorkKey,
        name: &str,
        work: impl FnOnce(Arc<AtomicBool>) -> Action + Send + 'static,
    ) {
        self.cancel(key);
        self.jobs.push((key, Job::spawn(name, work)));
    }

    /// Cancels the work under `key`, if any; its answer will not come.
    pub fn cancel(&mut self, key: WorkKey) {
        self.jobs.retain_mut(|(k, job)| {
            if *k == key {
                job.cancel();
            }
            *k != key
        });
    }

    /// Whether work under `key` is running.
    pub fn busy(&self, key: WorkKey) -> bool {
        self.jobs
            .iter()
            .any(|(k, job)| *k == key && !job.is_finished())
    }

    /// Whether any work is running.
    pub fn any_busy(&self) -> bool {
        self.jobs.iter().any(|(_, job)| !job.is_finished())
    }

    /// The answers of the work that finished, and the keys of work whose thread died
    /// without one (so that the feature can give up waiting).
    pub fn poll(&mut self) -> (Vec<Action>, Vec<WorkKey>) {
        let mut answers = Vec::new();
        let mut lost = Vec::new();
        self.jobs.retain_mut(|(key, job)| match job.poll() {
            Some(action) => {
                answers.push(action);
                false
            }
            None if job.is_finished() => {
                lost.push(*key);
                false
            }
            None => true,
        });
        (answers, lost)
    }
}

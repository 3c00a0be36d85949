//! Puzzle sets, progress and solve mode.

use super::Queue;
use crate::actions::*;
use crate::services::puzzles::*;
use crate::services::storage::Storage;
use crate::services::work::{Work, WorkKey};
use crate::state::Notice;
use crate::state::file_chooser::FilePurpose;
use crate::state::pick::{self, Click};
use crate::state::puzzles::*;
use crate::words::problems;
use chuhe_core::notation::Notation;

/// Reads the built-in sets, the user's collections and the progress, once.
pub(super) fn load(puzzles: &mut Puzzles, storage: &Storage) {
    if puzzles.loaded {
        return;
    }
    puzzles.loaded = true;
    puzzles.sets = built_in()
        .into_iter()
        .map(|set| LoadedSet { set, dir: None })
        .collect();
    puzzles.problems.clear();
    if let Some(root) = storage.data_path("puzzles") {
        let (sets, problems) = load_user_sets(&root);
        puzzles.sets.extend(sets);
        puzzles.problems = problems;
    }
    if let Some(path) = storage.data_path("puzzle-progress.ron") {
        puzzles.progress = load_progress(&path);
    }
}

/// The position editor, as solve mode finds it (the two share the board).
pub(super) struct EditorOnBoard {
    /// Whether it is open.
    pub open: bool,
    /// Whether the arrangement in it was changed.
    pub changed: bool,
}

/// The puzzles' command: their state, and what it reads and uses.
pub(super) struct Manager<'a> {
    pub puzzles: &'a mut Puzzles,
    pub editor: EditorOnBoard,
    /// Whether hints are barred (a game against the engine is on).
    pub barred: bool,
    /// How a set is written out.
    pub notation: Notation,
    pub storage: &'a Storage,
    pub work: &'a mut Work,
    pub queue: &'a mut Queue,
}

impl Manager<'_> {
    fn load_puzzles(&mut self) {
        load(self.puzzles, self.storage);
    }

    fn save_progress(&mut self) {
        if let Some(path) = self.storage.data_path("puzzle-progress.ron")
            && let Err(e) = save_progress(&path, &self.puzzles.progress)
        {
            self.queue.fail(Notice::Problem(problems::save_failed(&e)));
        }
    }

    fn start_puzzle(&mut self, set: usize, index: usize, queue: Vec<usize>) {
        self.load_puzzles();
        if self.editor.open && self.editor.changed {
            // Solve mode takes the board: the arrangement being set up is not dropped
            // without asking.
            self.queue.push(EditorAction::Leave.into());
            return;
        }
        let Some(loaded) = self.puzzles.sets.get(set) else {
            return;
        };
        let Some(puzzle) = loaded.set.puzzles.get(index).cloned() else {
            return;
        };
        let key = Progress::key(&loaded.progress_name(), &puzzle.id);
        let entry = self.puzzles.progress.puzzles.entry(key).or_default();
        entry.attempts += 1;
        let solved_before = entry.solved;
        self.save_progress();
        // The editor and solve mode share the board.
        if self.editor.open {
            self.queue.push(EditorAction::Leave.into());
        }
        self.stop_solving();
        let mut session = SolveSession::new(set, index, puzzle, queue);
        session.solved_before = solved_before;
        let request = session.find_hint();
        self.puzzles.session = Some(session);
        self.solve(request);
        self.puzzles.browser_open = false;
        self.queue.push(FeedbackAction::Quiet.into());
    }

    /// Carries out a puzzle action.
    pub(super) fn run(&mut self, action: PuzzleAction) {
        match action {
            PuzzleAction::ToggleBrowser => {
                self.load_puzzles();
                self.puzzles.browser_open = !self.puzzles.browser_open;
            }
            PuzzleAction::Reload => self.puzzles.loaded = false,
            PuzzleAction::ShowSet(set) => self.puzzles.browser_set = set,
            PuzzleAction::Start { set, index } => self.start_puzzle(set, index, Vec::new()),
            PuzzleAction::Replay(set) => {
                self.load_puzzles();
                let Some(loaded) = self.puzzles.sets.get(set) else {
                    return;
                };
                let mut order = self
                    .puzzles
                    .progress
                    .replay_order(&loaded.progress_name(), &loaded.set);
                if order.is_empty() {
                    return;
                }
                let first = order.remove(0);
                self.start_puzzle(set, first, order);
            }
            PuzzleAction::Click(square) => {
                let Some(session) = &mut self.puzzles.session else {
                    return;
                };
                if !session.can_move() {
                    return;
                }
                match pick::click(session.position(), session.selected, square) {
                    Click::PutDown => session.selected = None,
                    Click::PickUp(square) => session.selected = Some(square),
                    Click::Move(m) => self.queue.push(Action::Puzzle(PuzzleAction::Move(m))),
                    Click::Miss => {}
                }
            }
            PuzzleAction::Move(m) => {
                let Some(session) = &mut self.puzzles.session else {
                    return;
                };
                session.selected = None;
                if !session.can_move() {
                    return;
                }
                match session.position().check_move(m) {
                    Ok(()) => {
                        session.message = None;
                        self.queue.push(FeedbackAction::Quiet.into());
                        let request = session.try_move(m);
                        self.solve(request);
                        self.note_solved();
                    }
                    Err(illegal) => self.queue.say(Notice::Illegal(illegal.reason)),
                }
            }
            PuzzleAction::Hint => {
                if self.barred {
                    self.queue.say(Notice::Message("notice-fair-play"));
                } else if let Some(session) = &mut self.puzzles.session {
                    session.more_hint();
                }
            }
            PuzzleAction::Restart => {
                if let Some(session) = &mut self.puzzles.session {
                    let request = session.restart();
                    self.stop_solving();
                    self.solve(request);
                }
            }
            PuzzleAction::Judged(judgement) => {
                if let Some(session) = &mut self.puzzles.session {
                    let request = session.judged(judgement);
                    self.solve(request);
                }
                self.note_solved();
            }
            PuzzleAction::HintFound(hint) => {
                if let Some(session) = &mut self.puzzles.session {
                    session.hint_found(hint);
                }
            }
            PuzzleAction::Next => {
                let Some(session) = &mut self.puzzles.session else {
                    return;
                };
                let set = session.set;
                let mut queue = std::mem::take(&mut session.queue);
                let next = if queue.is_empty() {
                    Some(session.index + 1)
                } else {
                    Some(queue.remove(0))
                };
                let count = self
                    .puzzles
                    .sets
                    .get(set)
                    .map_or(0, |s| s.set.puzzles.len());
                match next.filter(|&i| i < count) {
                    Some(index) => self.start_puzzle(set, index, queue),
                    None => {
                        self.puzzles.session = None;
                        self.stop_solving();
                        self.puzzles.browser_open = true;
                        self.queue.say(Notice::Message("puzzle-set-done"));
                    }
                }
            }
            PuzzleAction::Leave => {
                if let Some(session) = &self.puzzles.session
                    && session.phase != Phase::Solved
                    && session.missed
                {
                    // Given up after a miss: the miss is kept.
                    self.record_result(false);
                }
                self.puzzles.session = None;
                self.stop_solving();
            }
            PuzzleAction::ImportDialog => {
                self.queue
                    .ask_for_file(FilePurpose::ImportPuzzles, None, |path| {
                        PuzzleAction::Import(path).into()
                    })
            }
            PuzzleAction::Import(path) => {
                self.load_puzzles();
                let Some(root) = self.storage.data_path("puzzles") else {
                    return;
                };
                match import_pgn(&root, &path) {
                    Ok((loaded, errors)) => {
                        let count = loaded.set.puzzles.len();
                        let sets = &mut self.puzzles.sets;
                        let shown = match sets.iter().position(|s| s.dir == loaded.dir) {
                            Some(i) => {
                                sets[i] = loaded;
                                i
                            }
                            None => {
                                sets.push(loaded);
                                sets.len() - 1
                            }
                        };
                        self.puzzles.browser_set = shown;
                        self.puzzles.problems = errors.iter().map(problems::puzzle_error).collect();
                        self.puzzles.browser_open = true;
                        self.queue.say(Notice::WithArg(
                            "notice-puzzles-imported",
                            "count",
                            count.to_string(),
                        ));
                    }
                    Err(e) => self.queue.fail(Notice::Problem(problems::open_failed(
                        &chuhe_core::gamefile::ReadError::Io(e),
                    ))),
                }
            }
            PuzzleAction::ExportDialog(set) => {
                let name = self
                    .puzzles
                    .sets
                    .get(set)
                    .map_or("puzzles".to_owned(), |s| s.set.name.clone());
                self.queue.ask_for_file(
                    FilePurpose::ExportPuzzles(set),
                    Some(format!("{name}.pgn")),
                    move |path| PuzzleAction::Export(set, path).into(),
                );
            }
            PuzzleAction::Export(set, path) => {
                let Some(loaded) = self.puzzles.sets.get(set) else {
                    return;
                };
                let text = loaded.set.to_pgn(self.notation);
                let said = match crate::services::storage::write_text(&path, &text) {
                    Ok(()) => Notice::WithArg("notice-saved", "path", path.display().to_string()),
                    Err(e) => Notice::Problem(problems::save_failed(&e)),
                };
                self.queue.say(said);
            }
        }
    }

    /// Notes how the puzzle being solved went.
    fn record_result(&mut self, solved: bool) {
        let Some(session) = &self.puzzles.session else {
            return;
        };
        let Some(loaded) = self.puzzles.sets.get(session.set) else {
            return;
        };
        let key = Progress::key(&loaded.progress_name(), &session.puzzle.id);
        let entry = self.puzzles.progress.puzzles.entry(key).or_default();
        entry.solved |= solved;
        entry.missed = session.missed;
        self.save_progress();
    }

    /// Takes in the editor's and solve mode's background results; whether work goes on.
    /// Hands the solver's work for solve mode to the background.
    fn solve(&mut self, request: Option<SolveRequest>) {
        if let Some(request) = request {
            crate::services::puzzles::start(self.work, request);
        }
    }

    /// Cancels the solver's work for a session that is over.
    pub(super) fn stop_solving(&mut self) {
        self.work.cancel(WorkKey::PuzzleJudge);
        self.work.cancel(WorkKey::PuzzleHint);
    }

    /// A solved puzzle goes into the progress, once.
    fn note_solved(&mut self) {
        if let Some(session) = &mut self.puzzles.session
            && session.phase == Phase::Solved
            && !session.recorded
        {
            session.recorded = true;
            self.record_result(true);
        }
    }
}

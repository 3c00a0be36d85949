use super::Ctx;
use crate::actions::*;
use crate::services::puzzles::*;
use crate::services::work::WorkKey;
use crate::state::file_chooser::FilePurpose;
use crate::state::pick::{self, Click};
use crate::state::puzzles::*;
use crate::words::problems;

impl Ctx<'_> {
    /// Reads the built-in sets, the user's collections and the progress, once.
    pub(super) fn load_puzzles(&mut self) {
        let puzzles = &mut self.state.puzzles;
        if puzzles.loaded {
            return;
        }
        puzzles.loaded = true;
        puzzles.sets = built_in()
            .into_iter()
            .map(|set| LoadedSet { set, dir: None })
            .collect();
        puzzles.problems.clear();
        if let Some(root) = self.services.storage.data_path("puzzles") {
            let (sets, problems) = load_user_sets(&root);
            puzzles.sets.extend(sets);
            puzzles.problems = problems;
        }
        if let Some(path) = self.services.storage.data_path("puzzle-progress.ron") {
            puzzles.progress = load_progress(&path);
        }
    }

    fn save_progress(&mut self) {
        if let Some(path) = self.services.storage.data_path("puzzle-progress.ron")
            && let Err(e) = save_progress(&path, &self.state.puzzles.progress)
        {
            self.tell_failure(crate::state::Notice::Problem(problems::save_failed(&e)));
        }
    }

    fn start_puzzle(&mut self, set: usize, index: usize, queue: Vec<usize>) {
        self.load_puzzles();
        if self.state.editor.as_ref().is_some_and(|e| e.is_changed()) {
            // Solve mode takes the board: the arrangement being set up is not dropped
            // without asking.
            self.state.dialog = Some(crate::state::Dialog::LeaveEditor);
            return;
        }
        let Some(loaded) = self.state.puzzles.sets.get(set) else {
            return;
        };
        let Some(puzzle) = loaded.set.puzzles.get(index).cloned() else {
            return;
        };
        let key = Progress::key(&loaded.progress_name(), &puzzle.id);
        let entry = self.state.puzzles.progress.puzzles.entry(key).or_default();
        entry.attempts += 1;
        let solved_before = entry.solved;
        self.save_progress();
        // The editor and solve mode share the board.
        self.services.work.cancel(WorkKey::Composer);
        self.state.editor = None;
        self.stop_solving();
        let mut session = SolveSession::new(set, index, puzzle, queue);
        session.solved_before = solved_before;
        let request = session.find_hint();
        self.state.puzzles.session = Some(session);
        self.solve(request);
        self.state.puzzles.browser_open = false;
        self.state.notice = None;
    }

    /// Carries out a puzzle action.
    pub(super) fn puzzle(&mut self, action: PuzzleAction) {
        use crate::state::Notice;
        match action {
            PuzzleAction::ToggleBrowser => {
                self.load_puzzles();
                self.state.puzzles.browser_open = !self.state.puzzles.browser_open;
            }
            PuzzleAction::ShowSet(set) => self.state.puzzles.browser_set = set,
            PuzzleAction::Start { set, index } => self.start_puzzle(set, index, Vec::new()),
            PuzzleAction::Replay(set) => {
                self.load_puzzles();
                let Some(loaded) = self.state.puzzles.sets.get(set) else {
                    return;
                };
                let mut order = self
                    .state
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
                let Some(session) = &mut self.state.puzzles.session else {
                    return;
                };
                if !session.can_move() {
                    return;
                }
                match pick::click(session.position(), session.selected, square) {
                    Click::PutDown => session.selected = None,
                    Click::PickUp(square) => session.selected = Some(square),
                    Click::Move(m) => self.puzzle(PuzzleAction::Move(m)),
                    Click::Miss => {}
                }
            }
            PuzzleAction::Move(m) => {
                let Some(session) = &mut self.state.puzzles.session else {
                    return;
                };
                session.selected = None;
                if !session.can_move() {
                    return;
                }
                match session.position().check_move(m) {
                    Ok(()) => {
                        session.message = None;
                        self.state.notice = None;
                        let request = session.try_move(m);
                        self.solve(request);
                        self.note_solved();
                    }
                    Err(illegal) => self.state.notice = Some(Notice::Illegal(illegal.reason)),
                }
            }
            PuzzleAction::Hint => {
                if self.state.engine_help_barred() {
                    self.state.notice = Some(crate::state::Notice::Message("notice-fair-play"));
                } else if let Some(session) = &mut self.state.puzzles.session {
                    session.more_hint();
                }
            }
            PuzzleAction::Restart => {
                if let Some(session) = &mut self.state.puzzles.session {
                    let request = session.restart();
                    self.stop_solving();
                    self.solve(request);
                }
            }
            PuzzleAction::Judged(judgement) => {
                if let Some(session) = &mut self.state.puzzles.session {
                    let request = session.judged(judgement);
                    self.solve(request);
                }
                self.note_solved();
            }
            PuzzleAction::HintFound(hint) => {
                if let Some(session) = &mut self.state.puzzles.session {
                    session.hint_found(hint);
                }
            }
            PuzzleAction::Next => {
                let Some(session) = &mut self.state.puzzles.session else {
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
                    .state
                    .puzzles
                    .sets
                    .get(set)
                    .map_or(0, |s| s.set.puzzles.len());
                match next.filter(|&i| i < count) {
                    Some(index) => self.start_puzzle(set, index, queue),
                    None => {
                        self.state.puzzles.session = None;
                        self.stop_solving();
                        self.state.puzzles.browser_open = true;
                        self.state.notice = Some(Notice::Message("puzzle-set-done"));
                    }
                }
            }
            PuzzleAction::Leave => {
                if let Some(session) = &self.state.puzzles.session
                    && session.phase != Phase::Solved
                    && session.missed
                {
                    // Given up after a miss: the miss is kept.
                    self.record_result(false);
                }
                self.state.puzzles.session = None;
                self.stop_solving();
            }
            PuzzleAction::ImportDialog => self.ask_for_file(FilePurpose::ImportPuzzles, None),
            PuzzleAction::Import(path) => {
                self.load_puzzles();
                let Some(root) = self.services.storage.data_path("puzzles") else {
                    return;
                };
                match import_pgn(&root, &path) {
                    Ok((loaded, errors)) => {
                        let count = loaded.set.puzzles.len();
                        let sets = &mut self.state.puzzles.sets;
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
                        self.state.puzzles.browser_set = shown;
                        self.state.puzzles.problems =
                            errors.iter().map(problems::puzzle_error).collect();
                        self.state.puzzles.browser_open = true;
                        self.state.notice = Some(Notice::WithArg(
                            "notice-puzzles-imported",
                            "count",
                            count.to_string(),
                        ));
                    }
                    Err(e) => self.tell_failure(Notice::Problem(problems::open_failed(
                        &chuhe_core::gamefile::ReadError::Io(e),
                    ))),
                }
            }
            PuzzleAction::ExportDialog(set) => {
                let name = self
                    .state
                    .puzzles
                    .sets
                    .get(set)
                    .map_or("puzzles".to_owned(), |s| s.set.name.clone());
                self.ask_for_file(FilePurpose::ExportPuzzles(set), Some(format!("{name}.pgn")));
            }
            PuzzleAction::Export(set, path) => {
                let Some(loaded) = self.state.puzzles.sets.get(set) else {
                    return;
                };
                let notation = self.state.settings.notation.notation();
                let text = loaded.set.to_pgn(notation);
                self.state.notice =
                    Some(match crate::services::storage::write_text(&path, &text) {
                        Ok(()) => {
                            Notice::WithArg("notice-saved", "path", path.display().to_string())
                        }
                        Err(e) => Notice::Problem(problems::save_failed(&e)),
                    });
            }
        }
    }

    /// Notes how the puzzle being solved went.
    fn record_result(&mut self, solved: bool) {
        let Some(session) = &self.state.puzzles.session else {
            return;
        };
        let Some(loaded) = self.state.puzzles.sets.get(session.set) else {
            return;
        };
        let key = Progress::key(&loaded.progress_name(), &session.puzzle.id);
        let entry = self.state.puzzles.progress.puzzles.entry(key).or_default();
        entry.solved |= solved;
        entry.missed = session.missed;
        self.save_progress();
    }

    /// Takes in the editor's and solve mode's background results; whether work goes on.
    /// Hands the solver's work for solve mode to the background.
    fn solve(&mut self, request: Option<SolveRequest>) {
        if let Some(request) = request {
            crate::services::puzzles::start(&mut self.services.work, request);
        }
    }

    /// Cancels the solver's work for a session that is over.
    pub(super) fn stop_solving(&mut self) {
        self.services.work.cancel(WorkKey::PuzzleJudge);
        self.services.work.cancel(WorkKey::PuzzleHint);
    }

    /// A solved puzzle goes into the progress, once.
    fn note_solved(&mut self) {
        if let Some(session) = &mut self.state.puzzles.session
            && session.phase == Phase::Solved
            && !session.recorded
        {
            session.recorded = true;
            self.record_result(true);
        }
    }
}

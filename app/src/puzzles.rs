//! Puzzles in the app: the built-in sets and the user's own (one RON file per puzzle in a
//! directory per collection, under the data directory), the progress kept on each, and
//! solve mode, where the user plays the solving side and the solver answers with the best
//! defence, judging each move in the background.

use crate::jobs::Job;
use crate::settings::write_atomically;
use chuhe_core::puzzle::{Goal, Puzzle, PuzzleError, PuzzleSet, SolutionNode};
use chuhe_core::solver::{SolveOptions, Solver, Verdict};
use chuhe_core::{Move, PieceKind, Position};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The built-in sets, as the `make_puzzles` example of the core generated them.
const BUILT_IN: [&str; 2] = [
    include_str!("../../assets/puzzles/wukong.ron"),
    include_str!("../../assets/puzzles/shiqingyaqu.ron"),
];

/// How long the solver may think about one move of the user's, or one defence.
const JUDGE_TIME: Duration = Duration::from_secs(20);

/// The built-in puzzle sets: the generated ones and the checkmate patterns' positions.
pub fn built_in() -> Vec<PuzzleSet> {
    BUILT_IN
        .iter()
        // The sets are checked by the tests; one that fails to read is left out.
        .filter_map(|text| PuzzleSet::from_ron(text).ok())
        .chain(chuhe_core::puzzle::pattern_set().ok())
        .collect()
}

/// A set of puzzles as the app holds it.
#[derive(Clone, Debug)]
pub struct LoadedSet {
    /// The puzzles.
    pub set: PuzzleSet,
    /// The user's collection directory (none for a built-in set).
    pub dir: Option<PathBuf>,
}

impl LoadedSet {
    /// The name progress is kept under: the user's collections apart from the built-in
    /// sets, whatever their directories are called.
    pub fn progress_name(&self) -> String {
        match self.dir {
            None => self.set.name.clone(),
            Some(_) => format!("mine/{}", self.set.name),
        }
    }
}

/// What the user has done with one puzzle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PuzzleProgress {
    /// Solved at least once.
    pub solved: bool,
    /// The last attempt had a wrong move or a hint (or was given up).
    pub missed: bool,
    /// Attempts started.
    pub attempts: u32,
}

/// Progress on every puzzle, by set name and puzzle id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    /// `set/id` → progress.
    pub puzzles: BTreeMap<String, PuzzleProgress>,
}

impl Progress {
    /// The key of a puzzle.
    pub fn key(set: &str, id: &str) -> String {
        format!("{set}/{id}")
    }

    /// The progress on a puzzle.
    pub fn get(&self, set: &str, id: &str) -> PuzzleProgress {
        self.puzzles
            .get(&Progress::key(set, id))
            .cloned()
            .unwrap_or_default()
    }

    /// The order to replay a set in: the missed puzzles first, then those not solved yet,
    /// then the rest, each group in the set's order.
    pub fn replay_order(&self, name: &str, set: &PuzzleSet) -> Vec<usize> {
        let rank = |p: &Puzzle| {
            let progress = self.get(name, &p.id);
            if progress.missed {
                0
            } else if !progress.solved {
                1
            } else {
                2
            }
        };
        let mut order: Vec<usize> = (0..set.puzzles.len()).collect();
        order.sort_by_key(|&i| rank(&set.puzzles[i]));
        order
    }
}

/// A move of the user's that does not solve the puzzle, and what the solver says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wrong {
    /// The puzzle asks for consecutive checks and the move is not one.
    NotCheck,
    /// A puzzle without a mate goal is solved by its solution's moves, and this is not one.
    NotInSolution,
    /// After the move, this defence escapes the mate within the moves left.
    Refuted {
        /// The defence.
        defence: Move,
        /// What the defence does.
        why: Refutation,
    },
}

/// What a refuting defence does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// The general steps out of the net.
    GeneralEscapes,
    /// It captures an attacking piece.
    Captures(PieceKind),
    /// It interposes against the check.
    Blocks,
    /// Any other defence.
    Defends,
}

/// What the solver concluded about a move of the user's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The move mates (or leaves the defender without a move): solved.
    Mates,
    /// Right: the defender answers `reply`, and the mate is still on in `moves_left`.
    Right {
        /// The best defence.
        reply: Move,
        /// The solver's moves left after the defence.
        moves_left: u32,
    },
    /// Wrong, and why.
    Wrong(Wrong),
    /// The solver could not decide in time.
    Unknown,
}

/// Where a solve is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The user's turn.
    YourMove,
    /// The solver is judging the user's move.
    Judging(Move),
    /// The puzzle is solved.
    Solved,
}

/// A message of solve mode, put into words when drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveMessage {
    /// The move was right; the defence was played.
    Right(Move),
    /// The move was wrong (taken back), and why.
    Wrong(Move, Wrong),
    /// The solver could not decide in time.
    Unknown,
    /// Solved.
    Solved,
    /// Goal is not a mate: solve mode needs one.
    NotAMate,
}

/// A puzzle being solved.
pub struct SolveSession {
    /// The set's index in the library.
    pub set: usize,
    /// The puzzle's index in its set.
    pub index: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The puzzles still to do after this one (set indices), for replaying a set.
    pub queue: Vec<usize>,
    /// Positions so far (the first is the puzzle's), the last on the board.
    pub positions: Vec<Position>,
    /// Moves played so far.
    pub moves: Vec<Move>,
    /// The solver's moves left to mate.
    pub moves_left: u32,
    /// Where the solve is.
    pub phase: Phase,
    /// The last message.
    pub message: Option<SolveMessage>,
    /// The piece picked up by a click.
    pub selected: Option<Square>,
    /// 0: no hint; 1: the piece shown; 2: the move shown.
    pub hint_level: u8,
    /// A winning move in the position on the board, once known.
    pub hint: Option<Move>,
    /// Whether a wrong move was tried or a hint taken.
    pub missed: bool,
    /// Whether the user had solved this puzzle before this attempt.
    pub solved_before: bool,
    /// Whether the outcome of this attempt has gone into the progress.
    pub recorded: bool,
    /// Judging the user's move.
    pub judge: Option<Job<Judgement>>,
    /// Finding a winning move for the hint.
    pub hint_job: Option<Job<Option<Move>>>,
}

use chuhe_core::Square;

impl SolveSession {
    /// Starts solving `puzzle`.
    pub fn new(set: usize, index: usize, puzzle: Puzzle, queue: Vec<usize>) -> SolveSession {
        let moves_left = match puzzle.goal {
            Goal::Mate { moves, .. } => moves,
            Goal::Win | Goal::Draw => 0,
        };
        let mut session = SolveSession {
            set,
            index,
            positions: vec![puzzle.position.clone()],
            puzzle,
            queue,
            moves: Vec::new(),
            moves_left,
            phase: Phase::YourMove,
            message: None,
            selected: None,
            hint_level: 0,
            hint: None,
            missed: false,
            solved_before: false,
            recorded: false,
            judge: None,
            hint_job: None,
        };
        if moves_left == 0 && session.puzzle.solution.is_empty() {
            session.message = Some(SolveMessage::NotAMate);
        }
        session.find_hint();
        session
    }

    /// The position on the board.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.puzzle.position)
    }

    fn options(&self, moves: u32) -> SolveOptions {
        let checks_only = matches!(
            self.puzzle.goal,
            Goal::Mate {
                checks_only: true,
                ..
            }
        );
        SolveOptions {
            max_moves: moves,
            quiet_moves: checks_only.then_some(0),
            time_limit: Some(JUDGE_TIME),
        }
    }

    /// The solution tree's node for the attacker's next move, if the moves so far follow it.
    fn tree_move(&self) -> Option<Move> {
        self.tree_nodes()?.first().map(|n| n.mv)
    }

    /// The solution tree's moves for the solver at this point, if the moves so far follow it.
    fn tree_nodes(&self) -> Option<&[SolutionNode]> {
        let mut nodes: &[SolutionNode] = &self.puzzle.solution;
        for m in &self.moves {
            nodes = &nodes.iter().find(|n| n.mv == *m)?.replies;
        }
        Some(nodes)
    }

    /// Finds a winning move for the hint: from the solution tree when the moves follow
    /// it, else by the solver in the background.
    fn find_hint(&mut self) {
        self.hint_level = 0;
        self.hint = self.tree_move();
        self.hint_job = None;
        if self.hint.is_some() || self.moves_left == 0 {
            return;
        }
        let pos = self.position().clone();
        let history: Vec<u64> = self.positions.iter().map(Position::hash).collect();
        let opts = self.options(self.moves_left);
        self.hint_job = Some(Job::spawn("chuhe hint", move |stop| {
            let mut solver = Solver::new(18);
            solver.set_stop(stop);
            let history = &history[..history.len().saturating_sub(1)];
            solver
                .solve_after(&pos, history, &opts)
                .line
                .first()
                .copied()
        }));
    }

    /// Whether a move of the user's may be tried now.
    pub fn can_move(&self) -> bool {
        self.phase == Phase::YourMove && (self.moves_left > 0 || self.follows_tree())
    }

    /// Whether moves are judged by the solution tree alone: a win or draw puzzle (no
    /// mate for the solver to prove) that comes with its solution.
    fn follows_tree(&self) -> bool {
        self.moves_left == 0 && !self.puzzle.solution.is_empty()
    }

    /// Sends a legal move of the user's to be judged.
    pub fn try_move(&mut self, m: Move) {
        if !self.can_move() {
            return;
        }
        self.selected = None;
        if self.follows_tree() {
            self.follow_tree(m);
            return;
        }
        let pos = self.position().clone();
        let history: Vec<u64> = self.positions.iter().map(Position::hash).collect();
        let moves_left = self.moves_left;
        let opts = self.options(moves_left);
        self.phase = Phase::Judging(m);
        self.judge = Some(Job::spawn("chuhe judge", move |stop| {
            judge(&pos, &history, m, moves_left, opts, stop)
        }));
    }

    /// Takes in what the background work found; true when something changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        if let Some(job) = &mut self.hint_job
            && let Some(hint) = job.poll()
        {
            self.hint = hint;
            self.hint_job = None;
            changed = true;
        }
        let Some(job) = &mut self.judge else {
            return changed;
        };
        let Some(judgement) = job.poll() else {
            return changed;
        };
        self.judge = None;
        let Phase::Judging(m) = self.phase else {
            return true;
        };
        self.phase = Phase::YourMove;
        match judgement {
            Judgement::Mates => {
                self.play(m);
                self.phase = Phase::Solved;
                self.message = Some(SolveMessage::Solved);
                self.selected = None;
            }
            Judgement::Right { reply, moves_left } => {
                self.play(m);
                self.play(reply);
                self.moves_left = moves_left;
                self.message = Some(SolveMessage::Right(reply));
                self.find_hint();
            }
            Judgement::Wrong(why) => {
                self.missed = true;
                self.message = Some(SolveMessage::Wrong(m, why));
            }
            Judgement::Unknown => self.message = Some(SolveMessage::Unknown),
        }
        true
    }

    /// Judges `m` by the solution tree: one of its moves is answered by the tree's reply,
    /// and the end of the tree is the solution's end.
    fn follow_tree(&mut self, m: Move) {
        let node = self
            .tree_nodes()
            .and_then(|nodes| nodes.iter().find(|n| n.mv == m))
            .cloned();
        let Some(node) = node else {
            self.missed = true;
            self.message = Some(SolveMessage::Wrong(m, Wrong::NotInSolution));
            return;
        };
        self.play(m);
        match node.replies.first() {
            Some(reply) if !reply.replies.is_empty() => {
                self.play(reply.mv);
                self.message = Some(SolveMessage::Right(reply.mv));
                self.find_hint();
            }
            Some(reply) => {
                self.play(reply.mv);
                self.phase = Phase::Solved;
                self.message = Some(SolveMessage::Solved);
            }
            None => {
                self.phase = Phase::Solved;
                self.message = Some(SolveMessage::Solved);
            }
        }
    }

    fn play(&mut self, m: Move) {
        let mut next = self.position().clone();
        next.play_unchecked(m);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Shows more of the hint: first the piece, then the move. Taking one counts as a miss.
    pub fn more_hint(&mut self) {
        if self.phase == Phase::Solved || self.hint.is_none() {
            return;
        }
        self.hint_level = (self.hint_level + 1).min(2);
        self.missed = true;
    }

    /// Back to the puzzle's start.
    pub fn restart(&mut self) {
        let puzzle = self.puzzle.clone();
        let queue = std::mem::take(&mut self.queue);
        let (missed, solved_before) = (self.missed, self.solved_before);
        *self = SolveSession::new(self.set, self.index, puzzle, queue);
        self.missed = missed;
        self.solved_before = solved_before;
    }

    /// Whether background work is under way.
    pub fn busy(&self) -> bool {
        self.judge.is_some() || self.hint_job.is_some()
    }
}

/// Judges the user's move `m` in `pos` with `moves_left` solver moves to mate (see
/// [`Judgement`]); `history` holds the hashes of the positions so far, `pos` last.
pub fn judge(
    pos: &Position,
    history: &[u64],
    m: Move,
    moves_left: u32,
    opts: SolveOptions,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> Judgement {
    let Ok(after) = pos.play(m) else {
        return Judgement::Unknown;
    };
    let replies = after.legal_moves();
    if replies.is_empty() {
        return Judgement::Mates;
    }
    if moves_left <= 1 {
        // Not a mate with no moves left: any defence refutes it, the strongest is shown.
        let defence = strongest_first(&after, &replies)[0];
        return Judgement::Wrong(Wrong::Refuted {
            defence,
            why: refutation(&after, defence),
        });
    }
    if opts.quiet_moves == Some(0) && !after.is_check() {
        return Judgement::Wrong(Wrong::NotCheck);
    }
    let mut solver = Solver::new(18);
    solver.set_stop(stop);
    let mut history = history.to_vec();
    history.push(after.hash());
    let mut best: Option<(Move, u32)> = None;
    for r in strongest_first(&after, &replies) {
        let mut next = after.clone();
        next.play_unchecked(r);
        let s = solver.solve_after(
            &next,
            &history,
            &SolveOptions {
                max_moves: moves_left - 1,
                ..opts
            },
        );
        match s.verdict {
            Verdict::Mate(k) => {
                if best.is_none_or(|(_, b)| k > b) {
                    best = Some((r, k));
                }
            }
            Verdict::NoMate => {
                return Judgement::Wrong(Wrong::Refuted {
                    defence: r,
                    why: refutation(&after, r),
                });
            }
            Verdict::Unknown { .. } => return Judgement::Unknown,
        }
    }
    match best {
        Some((reply, moves_left)) => Judgement::Right { reply, moves_left },
        None => Judgement::Unknown,
    }
}

/// The defender's replies, those most likely to refute first: general moves, captures,
/// the rest.
fn strongest_first(pos: &Position, replies: &chuhe_core::MoveList) -> Vec<Move> {
    let mut moves: Vec<Move> = replies.iter().copied().collect();
    moves.sort_by_key(|m| match refutation(pos, *m) {
        Refutation::GeneralEscapes => 0,
        Refutation::Captures(_) => 1,
        Refutation::Blocks => 2,
        Refutation::Defends => 3,
    });
    moves
}

/// What the defender's move `m` in `pos` does.
fn refutation(pos: &Position, m: Move) -> Refutation {
    let moving = pos.piece_at(m.from).map(|p| p.kind);
    if moving == Some(PieceKind::General) {
        Refutation::GeneralEscapes
    } else if let Some(captured) = pos.piece_at(m.to) {
        Refutation::Captures(captured.kind)
    } else if pos.is_check() {
        Refutation::Blocks
    } else {
        Refutation::Defends
    }
}

/// The user's puzzles: one directory per collection under `root`, one `.ron` per puzzle.
pub fn load_user_sets(root: &Path) -> (Vec<LoadedSet>, Vec<String>) {
    let mut sets = Vec::new();
    let mut problems = Vec::new();
    let Ok(entries) = std::fs::read_dir(root) else {
        return (sets, problems);
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        files.sort();
        let mut puzzles = Vec::new();
        for file in files {
            match std::fs::read_to_string(&file)
                .map_err(|e| e.to_string())
                .and_then(|t| Puzzle::from_ron(&t).map_err(|e| e.to_string()))
            {
                Ok(p) => puzzles.push(p),
                Err(e) => problems.push(format!("{}: {e}", file.display())),
            }
        }
        sets.push(LoadedSet {
            set: PuzzleSet { name, puzzles },
            dir: Some(dir),
        });
    }
    (sets, problems)
}

/// A file name for a puzzle id: letters, digits, `-` and `_` kept, the rest `_`.
pub fn file_name(id: &str) -> String {
    let name: String = id
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{name}.ron")
}

/// Saves `puzzle` in the collection directory `dir` (atomically).
pub fn save_puzzle(dir: &Path, puzzle: &Puzzle) -> std::io::Result<PathBuf> {
    let path = dir.join(file_name(&puzzle.id));
    write_atomically(&path, puzzle.to_ron().as_bytes())?;
    Ok(path)
}

/// Reads the progress file (empty when there is none or it cannot be read).
pub fn load_progress(path: &Path) -> Progress {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| ron::from_str(&t).ok())
        .unwrap_or_default()
}

/// Writes the progress file atomically.
pub fn save_progress(path: &Path, progress: &Progress) -> std::io::Result<()> {
    let text = ron::ser::to_string_pretty(progress, ron::ser::PrettyConfig::default())
        .map_err(std::io::Error::other)?;
    write_atomically(path, text.as_bytes())
}

/// Imports the puzzles of a PGN file as a collection named after the file, saved under
/// `root`; the problems of games that could not be taken.
pub fn import_pgn(root: &Path, path: &Path) -> Result<(LoadedSet, Vec<PuzzleError>), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let text = chuhe_core::encoding::decode(&bytes).text.into_owned();
    let name = path
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "imported".into());
    let (set, errors) = PuzzleSet::from_pgn(&name, &text);
    let dir = root.join(&name);
    for puzzle in &set.puzzles {
        save_puzzle(&dir, puzzle).map_err(|e| e.to_string())?;
    }
    Ok((
        LoadedSet {
            set,
            dir: Some(dir),
        },
        errors,
    ))
}

/// Everything about puzzles the app holds.
#[derive(Default)]
pub struct Puzzles {
    /// Whether the sets and the progress were read (they are, the first time they are needed).
    pub loaded: bool,
    /// The built-in sets, then the user's collections.
    pub sets: Vec<LoadedSet>,
    /// Progress on every puzzle.
    pub progress: Progress,
    /// Files that could not be read.
    pub problems: Vec<String>,
    /// Whether the puzzle list is open.
    pub browser_open: bool,
    /// The set the list shows.
    pub browser_set: usize,
    /// The puzzle being solved.
    pub session: Option<SolveSession>,
}

/// Everything the user can do with puzzles.
#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleAction {
    /// Open or close the list of puzzles.
    ToggleBrowser,
    /// Show this set's puzzles in the list.
    ShowSet(usize),
    /// Solve a puzzle of a set.
    Start {
        /// The set's index.
        set: usize,
        /// The puzzle's index in it.
        index: usize,
    },
    /// Replay a set, the missed puzzles first.
    Replay(usize),
    /// A click on the board in solve mode.
    Click(Square),
    /// A move tried by drag.
    Move(Move),
    /// Show more of the hint.
    Hint,
    /// Back to the puzzle's start.
    Restart,
    /// The next puzzle (of the replay, or of the set).
    Next,
    /// Leave solve mode (back to the game, which solve mode never touched).
    Leave,
    /// Choose a PGN file of puzzles to import.
    ImportDialog,
    /// Import a PGN file of puzzles as a collection.
    Import(PathBuf),
    /// Choose where to export a set as PGN.
    ExportDialog(usize),
    /// Export a set as PGN to a file.
    Export(usize, PathBuf),
}

impl crate::app::ChuheApp {
    /// Reads the built-in sets, the user's collections and the progress, once.
    pub(crate) fn load_puzzles(&mut self) {
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
        if let Some(root) = self.storage.data_path("puzzles") {
            let (sets, problems) = load_user_sets(&root);
            puzzles.sets.extend(sets);
            puzzles.problems = problems;
        }
        if let Some(path) = self.storage.data_path("puzzle-progress.ron") {
            puzzles.progress = load_progress(&path);
        }
    }

    fn save_progress(&mut self) {
        if let Some(path) = self.storage.data_path("puzzle-progress.ron")
            && let Err(e) = save_progress(&path, &self.state.puzzles.progress)
        {
            self.state.notice = Some(crate::state::Notice::WithArg(
                "notice-save-failed",
                "error",
                e.to_string(),
            ));
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
        if let Some(editor) = &mut self.state.editor {
            editor.cancel_solving();
        }
        self.state.editor = None;
        let mut session = SolveSession::new(set, index, puzzle, queue);
        session.solved_before = solved_before;
        self.state.puzzles.session = Some(session);
        self.state.puzzles.browser_open = false;
        self.state.notice = None;
    }

    /// Carries out a puzzle action.
    pub(crate) fn apply_puzzle(&mut self, action: PuzzleAction) {
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
                let position = session.position();
                let own = position
                    .piece_at(square)
                    .is_some_and(|p| p.color == position.side_to_move());
                match session.selected {
                    Some(from) if from == square => session.selected = None,
                    _ if own => session.selected = Some(square),
                    Some(from) => self.apply_puzzle(PuzzleAction::Move(Move::new(from, square))),
                    None => {}
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
                        session.try_move(m);
                    }
                    Err(illegal) => self.state.notice = Some(Notice::Illegal(illegal.reason)),
                }
            }
            PuzzleAction::Hint => {
                if let Some(session) = &mut self.state.puzzles.session {
                    session.more_hint();
                }
            }
            PuzzleAction::Restart => {
                if let Some(session) = &mut self.state.puzzles.session {
                    session.restart();
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
            }
            PuzzleAction::ImportDialog => {
                let picked = rfd::FileDialog::new()
                    .add_filter("PGN", &["pgn", "PGN"])
                    .pick_file();
                if let Some(path) = picked {
                    self.apply_puzzle(PuzzleAction::Import(path));
                }
            }
            PuzzleAction::Import(path) => {
                self.load_puzzles();
                let Some(root) = self.storage.data_path("puzzles") else {
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
                            errors.iter().map(|e| e.to_string()).collect();
                        self.state.puzzles.browser_open = true;
                        self.state.notice = Some(Notice::WithArg(
                            "notice-puzzles-imported",
                            "count",
                            count.to_string(),
                        ));
                    }
                    Err(e) => {
                        self.state.notice = Some(Notice::WithArg("notice-open-failed", "error", e))
                    }
                }
            }
            PuzzleAction::ExportDialog(set) => {
                let name = self
                    .state
                    .puzzles
                    .sets
                    .get(set)
                    .map_or("puzzles".to_owned(), |s| s.set.name.clone());
                let picked = rfd::FileDialog::new()
                    .add_filter("PGN", &["pgn"])
                    .set_file_name(format!("{name}.pgn"))
                    .save_file();
                if let Some(path) = picked {
                    self.apply_puzzle(PuzzleAction::Export(set, path));
                }
            }
            PuzzleAction::Export(set, path) => {
                let Some(loaded) = self.state.puzzles.sets.get(set) else {
                    return;
                };
                let notation = self.state.settings.notation.notation();
                let text = loaded.set.to_pgn(notation);
                self.state.notice = Some(match write_atomically(&path, text.as_bytes()) {
                    Ok(()) => Notice::WithArg("notice-saved", "path", path.display().to_string()),
                    Err(e) => Notice::WithArg("notice-save-failed", "error", e.to_string()),
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
    pub(crate) fn poll_puzzle_work(&mut self) -> bool {
        let mut busy = false;
        if let Some(editor) = &mut self.state.editor {
            editor.poll();
            busy |= editor.solving.is_some();
        }
        if let Some(session) = &mut self.state.puzzles.session {
            session.poll();
            busy |= session.busy();
            if session.phase == Phase::Solved && !session.recorded {
                session.recorded = true;
                self.record_result(true);
            }
        }
        busy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_sets_read_and_hold_at_least_a_hundred_puzzles() {
        let sets = built_in();
        assert_eq!(sets.len(), BUILT_IN.len() + 1, "every built-in set reads");
        let patterns = sets.last().unwrap();
        assert!(patterns.puzzles.len() >= 72, "{}", patterns.puzzles.len());
        let total: usize = sets.iter().map(|s| s.puzzles.len()).sum();
        assert!(total >= 100, "{total} puzzles");
    }

    #[test]
    fn replay_puts_missed_puzzles_first() {
        let set = &built_in()[0];
        let mut progress = Progress::default();
        let missed = &set.puzzles[3];
        let solved = &set.puzzles[0];
        progress.puzzles.insert(
            Progress::key(&set.name, &missed.id),
            PuzzleProgress {
                solved: true,
                missed: true,
                attempts: 2,
            },
        );
        progress.puzzles.insert(
            Progress::key(&set.name, &solved.id),
            PuzzleProgress {
                solved: true,
                missed: false,
                attempts: 1,
            },
        );
        let order = progress.replay_order(&set.name, set);
        assert_eq!(order[0], 3);
        assert_eq!(*order.last().unwrap(), 0);
        assert_eq!(order.len(), set.puzzles.len());
    }

    #[test]
    fn a_mating_move_is_judged_right_and_a_quiet_one_wrong() {
        // Red rook on a1 and b0 against the bare general on e9: a1a9 is not mate (the
        // general steps down), b0b8 first is the ladder.
        let pos: Position = "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1".parse().unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let history = [pos.hash()];
        let right = judge(
            &pos,
            &history,
            "b0b8".parse().unwrap(),
            2,
            SolveOptions::mate_in(2),
            stop.clone(),
        );
        assert!(
            matches!(right, Judgement::Right { moves_left: 1, .. }),
            "{right:?}"
        );
        let wrong = judge(
            &pos,
            &history,
            "a1a9".parse().unwrap(),
            2,
            SolveOptions::mate_in(2),
            stop,
        );
        assert!(
            matches!(
                wrong,
                Judgement::Wrong(Wrong::Refuted {
                    why: Refutation::GeneralEscapes,
                    ..
                })
            ),
            "{wrong:?}"
        );
    }

    #[test]
    fn every_built_in_puzzles_first_move_is_judged_right() {
        // The judge (every defence solved for the moves left) agrees with the proved
        // solution trees.
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        for set in built_in() {
            for p in &set.puzzles {
                let opts = p.goal.solve_options().unwrap();
                let judgement = judge(
                    &p.position,
                    &[p.position.hash()],
                    p.solution[0].mv,
                    opts.max_moves,
                    opts,
                    stop.clone(),
                );
                let ok = match judgement {
                    Judgement::Mates => opts.max_moves == 1,
                    Judgement::Right { moves_left, .. } => moves_left == opts.max_moves - 1,
                    _ => false,
                };
                assert!(ok, "{}: {judgement:?}", p.id);
            }
        }
    }
}

//! The [`Engine`]: runs searches in the background on its own threads (Lazy SMP — every
//! thread searches the same root, sharing only the transposition table, and the main
//! thread's result is played), so the caller can stop them, ask whether they are ready,
//! or ponder-hit while they run.

use super::limits::Limits;
use super::score::{INFINITE, Score};
use super::search::Worker;
use super::time::TimeManager;
use super::tt::Tt;
use super::{Event, Options, Report, SearchResult, SearchRoot};
use crate::{Move, Rules};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// What the threads of one search share.
pub(crate) struct Shared {
    pub tt: Arc<Tt>,
    pub stop: AtomicBool,
    /// Pondering: the clock does not run until `ponderhit`.
    pub ponder: AtomicBool,
    /// The main thread ran out of time while pondering: stop on `ponderhit`.
    pub stop_on_ponderhit: AtomicBool,
    /// Nodes searched by each thread, published every 1024 nodes.
    pub nodes: Box<[AtomicU64]>,
    pub limits: Limits,
    pub time: TimeManager,
    pub multipv: usize,
    pub rules: Rules,
    pub trust_chase_wins: bool,
    pub tablebases: bool,
    pub move_limit_reading: super::MoveLimitReading,
    /// The evaluation network, when the search uses one.
    pub network: Option<Arc<super::nnue::Network>>,
}

impl Shared {
    fn new(
        tt: Arc<Tt>,
        threads: usize,
        limits: Limits,
        time: TimeManager,
        options: &Options,
    ) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            ponder: AtomicBool::new(limits.ponder),
            stop_on_ponderhit: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            limits,
            time,
            multipv: if options.skill_level < 20 {
                options.multipv.max(4)
            } else {
                options.multipv
            },
            rules: options.rules,
            trust_chase_wins: options.trust_chase_wins,
            tablebases: options.tablebases,
            move_limit_reading: options.move_limit_reading,
            network: options.active_network().cloned(),
        }
    }

    /// Nodes searched by all threads so far.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Relaxed)).sum()
    }
}

/// Builds reports in the main search thread and hands them to the listener.
pub(crate) struct Reporter {
    listener: Box<dyn FnMut(Event<'_>) + Send>,
    last: Option<Report>,
    last_progress: Instant,
}

/// How often counters are reported between iterations.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

impl Reporter {
    fn report(worker: &Worker, shared: &Shared, depth: i32) -> Report {
        shared.nodes[0].store(worker.nodes, Relaxed);
        let lines = worker.lines(depth);
        let nodes = shared.total_nodes();
        let elapsed = shared.time.elapsed();
        Report {
            depth: depth.max(0) as u32,
            seldepth: lines.iter().map(|l| l.seldepth).max().unwrap_or(0),
            nodes,
            nps: nps(nodes, elapsed),
            hashfull: shared.tt.hashfull(),
            elapsed,
            side_to_move: worker.root_side(),
            lines,
        }
    }

    /// An iteration of the main thread finished at `depth`.
    pub fn iteration(&mut self, worker: &Worker, depth: i32) {
        let shared = worker.shared();
        let report = Reporter::report(worker, shared, depth);
        (self.listener)(Event::Iteration(&report));
        self.last = Some(report);
        self.last_progress = Instant::now();
    }

    /// The current line failed its aspiration window at `depth`.
    pub fn bound_change(&mut self, worker: &Worker, depth: i32) {
        let report = Reporter::report(worker, worker.shared(), depth);
        (self.listener)(Event::Bound(&report));
    }

    /// Called every 1024 nodes of the main thread: reports counters now and then.
    pub fn progress(&mut self, shared: &Shared) {
        if self.last_progress.elapsed() < PROGRESS_INTERVAL {
            return;
        }
        self.last_progress = Instant::now();
        if let Some(report) = self.last.as_mut() {
            report.nodes = shared.total_nodes();
            report.elapsed = shared.time.elapsed();
            report.nps = nps(report.nodes, report.elapsed);
            report.hashfull = shared.tt.hashfull();
            (self.listener)(Event::Progress(report));
        }
    }
}

fn nps(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64
}

/// A search running in the background.
struct Running {
    shared: Arc<Shared>,
    handle: JoinHandle<(SearchResult, Vec<Worker>)>,
}

/// The search engine: options, the transposition table, and the search threads.
///
/// Searches run in the background: [`Engine::start`] returns at once, reports arrive at
/// the listener, and [`Engine::stop`] ends the search and returns its result.
pub struct Engine {
    options: Options,
    tt: Arc<Tt>,
    workers: Vec<Worker>,
    running: Option<Running>,
    /// A placeholder for idle workers until a search gives them its own.
    idle: Arc<Shared>,
    /// State of the random choice of a weakened engine.
    rng: u64,
}

impl Engine {
    /// An engine with `options`.
    pub fn new(options: Options) -> Engine {
        let tt = Arc::new(Tt::new(options.hash_mb));
        let idle = Arc::new(Shared::new(
            tt.clone(),
            1,
            Limits::default(),
            TimeManager::new(
                &Limits::default(),
                crate::Color::Red,
                Duration::ZERO,
                Instant::now(),
            ),
            &options,
        ));
        let workers = (0..options.threads.max(1))
            .map(|id| Worker::new(id, idle.clone()))
            .collect();
        let seed = Instant::now().elapsed().as_nanos() as u64 ^ 0x9E37_79B9_7F4A_7C15;
        Engine {
            options,
            tt,
            workers,
            running: None,
            idle,
            rng: seed | 1,
        }
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes the options (stopping a running search first): resizes the table and the
    /// thread pool as needed.
    pub fn set_options(&mut self, options: Options) {
        self.stop();
        if options.hash_mb != self.options.hash_mb {
            // Free the old table before allocating the new one.
            self.tt = Arc::new(Tt::new(1));
            self.tt = Arc::new(Tt::new(options.hash_mb));
        }
        let same_network = match (options.active_network(), self.options.active_network()) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same_network {
            // The table keeps static evaluations: those of another evaluation would mislead.
            self.tt.clear();
        }
        let threads = options.threads.max(1);
        self.workers.truncate(threads);
        while self.workers.len() < threads {
            self.workers
                .push(Worker::new(self.workers.len(), self.idle.clone()));
        }
        self.options = options;
    }

    /// Forgets everything learnt (a new game): the table and the move-ordering history.
    pub fn new_game(&mut self) {
        self.stop();
        self.tt.clear();
        for w in &mut self.workers {
            w.clear();
        }
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Starts searching `root` within `limits` in the background, stopping any search
    /// still running. `listener` receives the reports, from the main search thread.
    pub fn start(
        &mut self,
        root: &SearchRoot,
        limits: Limits,
        listener: impl FnMut(Event<'_>) + Send + 'static,
    ) {
        self.stop();
        let start = Instant::now();
        let side = root.position.side_to_move();
        let time = TimeManager::new(&limits, side, self.options.move_overhead, start);
        let mut root_moves: Vec<Move> = root.position.legal_moves().to_vec();
        if !limits.search_moves.is_empty() {
            root_moves.retain(|m| limits.search_moves.contains(m));
        }
        let threads = self.workers.len();
        let shared = Arc::new(Shared::new(
            self.tt.clone(),
            threads,
            limits,
            time,
            &self.options,
        ));
        self.tt.new_search();
        let mut workers = std::mem::take(&mut self.workers);
        for w in &mut workers {
            w.prepare(shared.clone(), root, &root_moves);
        }
        workers[0].reporter = Some(Reporter {
            listener: Box::new(listener),
            last: None,
            last_progress: start,
        });
        let skill = self.options.skill_level;
        self.rng = xorshift(self.rng);
        let seed = self.rng;
        let thread_shared = shared.clone();
        let handle = thread::Builder::new()
            .name("chuhe-search".into())
            .spawn(move || run(workers, &thread_shared, skill, seed))
            .expect("the search thread starts");
        self.running = Some(Running { shared, handle });
    }

    /// Searches until `limits` and returns the result (blocking).
    pub fn search(&mut self, root: &SearchRoot, limits: Limits) -> SearchResult {
        self.start(root, limits, |_| {});
        self.wait().expect("a search was started")
    }

    /// Waits for the running search to end by its limits; `None` if none was started.
    pub fn wait(&mut self) -> Option<SearchResult> {
        let running = self.running.take()?;
        let (result, workers) = running
            .handle
            .join()
            .expect("the search thread does not panic");
        self.workers = workers;
        Some(result)
    }

    /// Stops the running search and returns its result (`None` if none was running).
    pub fn stop(&mut self) -> Option<SearchResult> {
        let running = self.running.as_ref()?;
        running.shared.stop.store(true, Relaxed);
        self.wait()
    }

    /// Signals `stop` without waiting (the result still arrives as [`Event::Done`]).
    pub fn signal_stop(&self) {
        if let Some(r) = &self.running {
            r.shared.stop.store(true, Relaxed);
        }
    }

    /// The opponent played the move pondered on: the clock now runs.
    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.shared.ponder.store(false, Relaxed);
            if r.shared.stop_on_ponderhit.load(Relaxed) {
                r.shared.stop.store(true, Relaxed);
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The main search thread: runs the helpers and the main worker, waits for `stop` if the
/// search must not end by itself, then reports the result.
fn run(
    mut workers: Vec<Worker>,
    shared: &Shared,
    skill: u8,
    seed: u64,
) -> (SearchResult, Vec<Worker>) {
    let (main, helpers) = workers.split_at_mut(1);
    let main = &mut main[0];
    thread::scope(|s| {
        for h in helpers.iter_mut() {
            s.spawn(move || h.iterate());
        }
        main.iterate();
        // UCI: with `infinite` or while pondering, the best move waits for `stop` (or
        // for `ponderhit` once the search has nothing left to do).
        while !shared.stop.load(Relaxed) && (shared.limits.infinite || shared.ponder.load(Relaxed))
        {
            thread::sleep(Duration::from_millis(1));
        }
        shared.stop.store(true, Relaxed);
    });
    for w in helpers.iter() {
        shared.nodes[w.id].store(w.nodes, Relaxed);
    }
    let mut reporter = main.reporter.take().expect("the main worker reports");
    let depth = main.completed_depth;
    let mut report = Reporter::report(main, shared, depth);
    if report.lines.is_empty() {
        // No legal move at the root, or stopped before the first iteration ended.
        report.lines = main.fallback_line();
    }
    let best_move = if skill < 20 {
        weakened_choice(&report, skill, seed)
    } else {
        report.lines.first().and_then(|l| l.moves.first().copied())
    };
    let ponder = best_move.and_then(|b| main.ponder_move(b));
    let result = SearchResult {
        best_move,
        ponder,
        report,
    };
    (reporter.listener)(Event::Done(&result));
    (result, workers)
}

/// A weakened engine's move: each line gets a random bonus that grows as the skill
/// falls and as the line is worse, so low levels often pick a second-best move and
/// sometimes a blunder. The idea is Stockfish's; the numbers are our own.
fn weakened_choice(report: &Report, skill: u8, seed: u64) -> Option<Move> {
    let weakness = 120 - 5 * skill as i64;
    let cp = |s: Score| match s {
        Score::Cp(v) => v as i64,
        Score::Mate(n) if n > 0 => INFINITE as i64 - n as i64,
        Score::Mate(n) => -(INFINITE as i64) - n as i64,
    };
    let top = cp(report.lines.first()?.score);
    let mut rng = seed;
    let mut best = None;
    let mut best_value = i64::MIN;
    for line in &report.lines {
        rng = xorshift(rng);
        let v = cp(line.score);
        let push = (weakness * (top - v) + 100 * (rng % weakness.max(1) as u64) as i64) / 128;
        if v + push > best_value {
            best_value = v + push;
            best = line.moves.first().copied();
        }
    }
    best
}

fn xorshift(mut x: u64) -> u64 {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x
}

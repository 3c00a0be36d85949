//! The analysis service the app uses: analyse a position (with the game that led to it)
//! in the background, follow the user as the position changes, and stream what the
//! engine thinks at a pace a UI can draw.
//!
//! Nothing here blocks the caller for long: starting, changing the position or the
//! settings and stopping only signal the search threads and wait for them to notice
//! (they check every thousand nodes or so, well within 20 ms). Updates arrive on a
//! channel the UI drains each frame with [`Analysis::poll`]; at most about ten a second
//! are sent, the latest state each time, and the final one is always sent.
//!
//! ```
//! use chuhe_core::Position;
//! use chuhe_core::analysis::Analysis;
//! use chuhe_core::search::{Options, SearchRoot};
//! let mut analysis = Analysis::new(Options::default());
//! analysis.start(SearchRoot::new(Position::startpos()));
//! std::thread::sleep(std::time::Duration::from_millis(50));
//! let last = analysis.stop().unwrap();
//! assert!(last.finished && !last.report.lines.is_empty());
//! ```

use crate::search::{Engine, Event, Limits, Options, Report, SearchRoot};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

/// The most updates per second sent to the UI.
pub const UPDATES_PER_SECOND: u32 = 10;

/// What the engine thinks of the analysed position at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Update {
    /// Which analysis this belongs to: it grows with each start or change of position.
    pub analysis_id: u64,
    /// The search's state: depth, nodes, speed, time since this analysis started, the side
    /// to move and the best lines, best first (their scores are the side to move's;
    /// [`PvLine::score_for_red`](crate::search::PvLine::score_for_red) gives Red's).
    pub report: Report,
    /// Whether this is the last update of its analysis (it was stopped).
    pub finished: bool,
}

/// Sends at most [`UPDATES_PER_SECOND`] updates, always the newest; the final one always.
struct Throttle {
    tx: Sender<Update>,
    analysis_id: u64,
    last_sent: Option<Instant>,
    pending: Option<Update>,
}

impl Throttle {
    fn on_event(&mut self, event: Event<'_>) {
        let interval = Duration::from_secs(1) / UPDATES_PER_SECOND;
        let update = match event {
            Event::Iteration(r) | Event::Bound(r) | Event::Progress(r) => Update {
                analysis_id: self.analysis_id,
                report: r.clone(),
                finished: false,
            },
            Event::Done(result) => {
                // The receiver may be gone (the service was dropped): nothing to tell.
                let _ = self.tx.send(Update {
                    analysis_id: self.analysis_id,
                    report: result.report.clone(),
                    finished: true,
                });
                return;
            }
        };
        self.pending = Some(update);
        if self.last_sent.is_none_or(|t| t.elapsed() >= interval)
            && let Some(u) = self.pending.take()
        {
            let _ = self.tx.send(u);
            self.last_sent = Some(Instant::now());
        }
    }
}

/// The analysis service: one engine analysing one position at a time.
pub struct Analysis {
    engine: Engine,
    tx: Sender<Update>,
    rx: Receiver<Update>,
    root: Option<SearchRoot>,
    analysis_id: u64,
    running: bool,
}

impl Analysis {
    /// A service with the engine set up by `options` (hash size, threads, lines …).
    pub fn new(options: Options) -> Analysis {
        let (tx, rx) = channel();
        Analysis {
            engine: Engine::new(options),
            tx,
            rx,
            root: None,
            analysis_id: 0,
            running: false,
        }
    }

    /// Starts analysing `root` (a position with the moves that led to it, which count
    /// for repetitions), replacing any analysis running.
    pub fn start(&mut self, root: SearchRoot) {
        self.root = Some(root);
        self.restart();
    }

    /// Moves the analysis to another position: restarts it there if it was running,
    /// else only remembers the position for the next [`Analysis::resume`].
    pub fn set_position(&mut self, root: SearchRoot) {
        self.root = Some(root);
        if self.running {
            self.restart();
        } else {
            self.analysis_id += 1;
        }
    }

    /// Analyses the remembered position again (after [`Analysis::stop`]).
    pub fn resume(&mut self) {
        if self.root.is_some() {
            self.restart();
        }
    }

    /// Sets how many lines to show, restarting a running analysis.
    pub fn set_multipv(&mut self, lines: usize) {
        let mut options = self.engine.options().clone();
        options.multipv = lines.max(1);
        self.apply(options);
    }

    /// Sets the number of search threads, restarting a running analysis.
    pub fn set_threads(&mut self, threads: usize) {
        let mut options = self.engine.options().clone();
        options.threads = threads.max(1);
        self.apply(options);
    }

    /// The engine's settings.
    pub fn options(&self) -> &Options {
        self.engine.options()
    }

    /// Changes the settings, restarting a running analysis with them.
    pub fn set_options(&mut self, options: Options) {
        self.apply(options);
    }

    fn apply(&mut self, options: Options) {
        let was_running = self.running;
        self.stop();
        self.engine.set_options(options);
        if was_running {
            self.restart();
        }
    }

    fn restart(&mut self) {
        let Some(root) = &self.root else {
            return;
        };
        self.analysis_id += 1;
        let mut throttle = Throttle {
            tx: self.tx.clone(),
            analysis_id: self.analysis_id,
            last_sent: None,
            pending: None,
        };
        self.engine.start(
            root,
            Limits {
                infinite: true,
                ..Limits::default()
            },
            move |event| throttle.on_event(event),
        );
        self.running = true;
    }

    /// Whether an analysis is running.
    pub fn is_running(&self) -> bool {
        self.running
    }

    /// Stops the analysis and returns its final state (`None` if none was running).
    pub fn stop(&mut self) -> Option<Update> {
        self.running = false;
        let result = self.engine.stop()?;
        Some(Update {
            analysis_id: self.analysis_id,
            report: result.report,
            finished: true,
        })
    }

    /// The updates of the current analysis that arrived since the last call, oldest
    /// first. Never blocks.
    pub fn poll(&self) -> Vec<Update> {
        self.rx
            .try_iter()
            .filter(|u| u.analysis_id == self.analysis_id)
            .collect()
    }

    /// The identifier of the current analysis (see [`Update::analysis_id`]).
    pub fn analysis_id(&self) -> u64 {
        self.analysis_id
    }
}

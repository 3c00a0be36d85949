//! The core's analysis service on a thread of its own, so that nothing the UI asks of it
//! waits: creating it allocates the hash table (about 0.1 s for 64 MiB) and moving it to
//! another position waits for the search threads to stop (up to tens of milliseconds).
//! The UI sends commands and drains updates, each tagged with the request it answers.
//!
//! The analysing engine is the built-in one or an external UCI engine the user chose; an
//! external engine's handshake, its stops and its failures are all met on this thread, and
//! the UI only hears of them as [`EngineStatus`] messages.

pub use crate::state::analysis::EngineStatus;
use chuhe_core::analysis::{Analysis, Update};
use chuhe_core::external::{EngineConfig, ExternalAnalysis, ExternalError, ExternalEvent};
use chuhe_core::search::{Options, SearchRoot};
use chuhe_core::{Move, Position};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

/// Which request an update answers: the UI's record generation and node.
pub type Request = (u64, chuhe_core::record::NodeId);

/// A game to analyse: its start and the moves to the position.
#[derive(Clone, Debug)]
pub struct Game {
    /// The start position.
    pub start: Position,
    /// The moves played from it.
    pub moves: Vec<Move>,
}

enum Command {
    Analyse(Request, Game),
    Stop,
    Options(Options),
    UseEngine(Option<EngineConfig>),
    Quit,
}

/// The analysis service running on its own thread.
pub struct EngineWorker {
    commands: Sender<Command>,
    updates: Receiver<(Request, Update)>,
    statuses: Receiver<EngineStatus>,
    handle: Option<JoinHandle<()>>,
}

impl EngineWorker {
    /// Starts the thread with the built-in engine, or the external one given; the service
    /// (and its hash table, or the external program) is made there.
    pub fn spawn(options: Options, external: Option<EngineConfig>) -> EngineWorker {
        let (commands, inbox) = channel();
        let (outbox, updates) = channel();
        let (status_box, statuses) = channel();
        let handle = std::thread::Builder::new()
            .name("chuhe-analysis".into())
            .spawn(move || {
                let mut worker = Worker {
                    options,
                    backend: Backend::None,
                    outbox,
                    statuses: status_box,
                };
                worker.use_engine(external);
                worker.run(&inbox);
            })
            .expect("the analysis thread starts");
        EngineWorker {
            commands,
            updates,
            statuses,
            handle: Some(handle),
        }
    }

    /// Analyses the game's last position (replacing whatever was analysed), answering
    /// `request`.
    pub fn analyse(&self, request: Request, game: Game) {
        self.send(Command::Analyse(request, game));
    }

    /// Analyses with the external engine given, or the built-in one.
    pub fn use_engine(&self, external: Option<EngineConfig>) {
        self.send(Command::UseEngine(external));
    }

    /// What happened to the engine since the last call, oldest first. Never blocks.
    pub fn statuses(&self) -> Vec<EngineStatus> {
        self.statuses.try_iter().collect()
    }

    /// Stops analysing.
    pub fn stop(&self) {
        self.send(Command::Stop);
    }

    /// Changes the engine's options (lines, hash, threads), restarting a running analysis.
    pub fn set_options(&self, options: Options) {
        self.send(Command::Options(options));
    }

    /// The updates that arrived since the last call, oldest first. Never blocks.
    pub fn poll(&self) -> Vec<(Request, Update)> {
        self.updates.try_iter().collect()
    }

    fn send(&self, command: Command) {
        // The thread only ends when told to quit; a send to a thread that died (of a
        // panic, already reported) is dropped, and the UI goes on without analysis.
        let _ = self.commands.send(command);
    }
}

impl Drop for EngineWorker {
    fn drop(&mut self) {
        self.send(Command::Quit);
        if let Some(handle) = self.handle.take() {
            // See `send`: a panic there has been reported already.
            let _ = handle.join();
        }
    }
}

/// Who analyses.
enum Backend {
    /// Nobody (an external engine failed, or nothing was asked yet).
    None,
    Builtin(Box<Analysis>),
    External(Box<ExternalAnalysis>),
}

/// The thread's state.
struct Worker {
    options: Options,
    backend: Backend,
    outbox: Sender<(Request, Update)>,
    statuses: Sender<EngineStatus>,
}

impl Worker {
    fn use_engine(&mut self, external: Option<EngineConfig>) {
        // The old engine goes first: an external one is told to quit.
        self.backend = Backend::None;
        match external {
            None => {
                self.backend = Backend::Builtin(Box::new(Analysis::new(self.options.clone())));
                self.status(EngineStatus::Builtin);
            }
            Some(config) => match ExternalAnalysis::start(config) {
                Ok(mut engine) => {
                    let info = engine.info().clone();
                    match engine.set_multipv(self.options.multipv) {
                        Ok(()) => {
                            self.backend = Backend::External(Box::new(engine));
                            self.status(EngineStatus::External(info));
                        }
                        Err(e) => self.status(EngineStatus::Failed(e)),
                    }
                }
                Err(e) => self.status(EngineStatus::Failed(e)),
            },
        }
    }

    fn status(&self, status: EngineStatus) {
        // The UI may be gone when the app closes; nothing to tell then.
        let _ = self.statuses.send(status);
    }

    fn fail(&mut self, error: ExternalError) {
        self.backend = Backend::None;
        self.status(EngineStatus::Failed(error));
    }

    /// Applies the newest commands, forwards the engine's updates.
    fn run(&mut self, inbox: &Receiver<Command>) {
        let mut current: Option<Request> = None;
        loop {
            let first = match inbox.recv_timeout(Duration::from_millis(20)) {
                Ok(command) => Some(command),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return,
            };
            // Only the newest position matters when the user steps quickly through a game.
            let mut latest: Option<(Request, Game)> = None;
            for command in first.into_iter().chain(inbox.try_iter()) {
                match command {
                    Command::Analyse(request, game) => latest = Some((request, game)),
                    Command::Stop => {
                        latest = None;
                        current = None;
                        self.stop();
                    }
                    Command::Options(options) => self.set_options(options),
                    Command::UseEngine(external) => {
                        self.use_engine(external);
                        // The new engine picks up the position being analysed.
                        current = None;
                    }
                    Command::Quit => {
                        self.stop();
                        return;
                    }
                }
            }
            if let Some((request, game)) = latest {
                self.analyse(game);
                current = Some(request);
            }
            if let Some(request) = current
                && !self.forward(request)
            {
                return;
            }
        }
    }

    fn analyse(&mut self, game: Game) {
        match &mut self.backend {
            Backend::None => {}
            Backend::Builtin(analysis) => {
                if let Ok(root) = SearchRoot::from_moves(game.start, &game.moves) {
                    if analysis.is_running() {
                        analysis.set_position(root);
                    } else {
                        analysis.start(root);
                    }
                }
            }
            Backend::External(engine) => {
                if let Err(e) = engine.analyse(&game.start, &game.moves) {
                    self.fail(e);
                }
            }
        }
    }

    fn stop(&mut self) {
        match &mut self.backend {
            Backend::None => {}
            Backend::Builtin(analysis) => {
                analysis.stop();
            }
            Backend::External(engine) => {
                if let Err(e) = engine.stop() {
                    self.fail(e);
                }
            }
        }
    }

    fn set_options(&mut self, options: Options) {
        self.options = options.clone();
        match &mut self.backend {
            Backend::None => {}
            Backend::Builtin(analysis) => analysis.set_options(options),
            Backend::External(engine) => {
                if let Err(e) = engine.set_multipv(options.multipv) {
                    self.fail(e);
                }
            }
        }
    }

    /// Sends the engine's news on; false when the UI is gone.
    fn forward(&mut self, request: Request) -> bool {
        match &mut self.backend {
            Backend::None => true,
            Backend::Builtin(analysis) => analysis
                .poll()
                .into_iter()
                .all(|update| self.outbox.send((request, update)).is_ok()),
            Backend::External(engine) => {
                let mut failure = None;
                for event in engine.poll() {
                    match event {
                        ExternalEvent::Update(update) => {
                            if self.outbox.send((request, update)).is_err() {
                                return false;
                            }
                        }
                        ExternalEvent::Warning(w) => {
                            let _ = self.statuses.send(EngineStatus::Warning(w));
                        }
                        ExternalEvent::Failed(e) => failure = Some(e),
                    }
                }
                if let Some(e) = failure {
                    self.fail(e);
                }
                true
            }
        }
    }
}

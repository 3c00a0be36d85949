//! The core's analysis service on a thread of its own, so that nothing the UI asks of it
//! waits: creating it allocates the hash table (about 0.1 s for 64 MiB) and moving it to
//! another position waits for the search threads to stop (up to tens of milliseconds).
//! The UI sends commands and drains updates, each tagged with the request it answers.

use chuhe_core::analysis::{Analysis, Update};
use chuhe_core::search::{Options, SearchRoot};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

/// Which request an update answers: the UI's record generation and node.
pub type Request = (u64, chuhe_core::record::NodeId);

enum Command {
    Analyse(Request, SearchRoot),
    Stop,
    Options(Options),
    Quit,
}

/// The analysis service running on its own thread.
pub struct EngineWorker {
    commands: Sender<Command>,
    updates: Receiver<(Request, Update)>,
    handle: Option<JoinHandle<()>>,
}

impl EngineWorker {
    /// Starts the thread; the service (and its hash table) is made there.
    pub fn spawn(options: Options) -> EngineWorker {
        let (commands, inbox) = channel();
        let (outbox, updates) = channel();
        let handle = std::thread::Builder::new()
            .name("chuhe-analysis".into())
            .spawn(move || run(options, &inbox, &outbox))
            .expect("the analysis thread starts");
        EngineWorker {
            commands,
            updates,
            handle: Some(handle),
        }
    }

    /// Analyses `root` (replacing whatever was analysed), answering `request`.
    pub fn analyse(&self, request: Request, root: SearchRoot) {
        self.send(Command::Analyse(request, root));
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

/// The thread: applies the newest commands, forwards the service's updates.
fn run(options: Options, inbox: &Receiver<Command>, outbox: &Sender<(Request, Update)>) {
    let mut analysis = Analysis::new(options);
    let mut current: Option<Request> = None;
    loop {
        let first = match inbox.recv_timeout(Duration::from_millis(20)) {
            Ok(command) => Some(command),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => return,
        };
        // Only the newest position matters when the user steps quickly through a game.
        let mut latest: Option<(Request, SearchRoot)> = None;
        for command in first.into_iter().chain(inbox.try_iter()) {
            match command {
                Command::Analyse(request, root) => latest = Some((request, root)),
                Command::Stop => {
                    latest = None;
                    current = None;
                    analysis.stop();
                }
                Command::Options(options) => analysis.set_options(options),
                Command::Quit => {
                    analysis.stop();
                    return;
                }
            }
        }
        if let Some((request, root)) = latest {
            if analysis.is_running() {
                analysis.set_position(root);
            } else {
                analysis.start(root);
            }
            current = Some(request);
        }
        if let Some(request) = current {
            for update in analysis.poll() {
                if outbox.send((request, update)).is_err() {
                    return;
                }
            }
        }
    }
}

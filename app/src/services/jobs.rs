//! Work that must not block the interface (the solver, for the composer's view and solve
//! mode) runs on its own thread as a [`Job`]: the frame polls it for the result and may
//! cancel it at any time.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};

/// A computation on a background thread, with its result to collect.
pub struct Job<T> {
    result: Receiver<T>,
    stop: Arc<AtomicBool>,
    finished: bool,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a new thread named `name`; `work` gets a flag that is set when the
    /// job is cancelled (the solver checks it as it checks its clock).
    pub fn spawn(name: &str, work: impl FnOnce(Arc<AtomicBool>) -> T + Send + 'static) -> Job<T> {
        let (send, result) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let spawned = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                // The receiver is gone when the job was dropped: nobody wants the result.
                let _ = send.send(work(flag));
            });
        Job {
            result,
            stop,
            // Without a thread there is no result to wait for.
            finished: spawned.is_err(),
        }
    }
}

impl<T> Job<T> {
    /// The result, once the work is done (then only once).
    pub fn poll(&mut self) -> Option<T> {
        if self.finished {
            return None;
        }
        match self.result.try_recv() {
            Ok(value) => {
                self.finished = true;
                Some(value)
            }
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                // The thread panicked; there will be no result.
                self.finished = true;
                None
            }
        }
    }

    /// Whether the work is over (its result taken, or lost).
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Asks the work to stop; its result, if it still comes, is thrown away. The thread is
    /// not joined, so cancelling never waits.
    pub fn cancel(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.finished = true;
    }
}

impl<T> std::fmt::Debug for Job<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn a_job_delivers_its_result_once() {
        let mut job = Job::spawn("test job", |_| 6 * 7);
        let start = Instant::now();
        let value = loop {
            if let Some(v) = job.poll() {
                break v;
            }
            assert!(start.elapsed() < Duration::from_secs(10));
            std::thread::sleep(Duration::from_millis(1));
        };
        assert_eq!(value, 42);
        assert!(job.is_finished());
        assert_eq!(job.poll(), None);
    }

    #[test]
    fn a_cancelled_job_sees_its_flag() {
        let (tx, rx) = mpsc::channel();
        let mut job = Job::spawn("test job", move |stop| {
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let _ = tx.send(());
        });
        job.cancel();
        assert!(rx.recv_timeout(Duration::from_secs(10)).is_ok());
        assert_eq!(job.poll(), None);
    }
}

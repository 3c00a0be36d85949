//! The class server's door: every connection is watched, so that a client that is slow,
//! stalled, silent or hostile costs only itself. A request's head must arrive whole and
//! soon, and small; a connection with nothing to say is closed; a page that stops reading
//! its stream is dropped (and its place in the class freed) instead of holding its answer
//! open; and when many connections wait for a head at once, the oldest go first, so a
//! flood of them cannot keep a student out.
//!
//! All of it is done on the sockets themselves, under the HTTP server: the server reads
//! and writes through [`Watched`] and sees a timed-out or refused connection as one that
//! broke.

use std::collections::VecDeque;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll, Waker};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

/// How long the server waits for clients, how often it tells them it is there, and how
/// much it reads before it answers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// A request's head must be read whole within this of its first byte (or of the
    /// connection opening): a client trickling a byte at a time cannot hold a connection.
    pub head_timeout: Duration,
    /// A connection on which nothing is read or written for this long is closed. More
    /// than the heartbeat, so a following page is never idle.
    pub idle_timeout: Duration,
    /// A page whose socket takes nothing for this long is dropped: it stopped reading,
    /// or its network went away.
    pub write_timeout: Duration,
    /// The most a client may send before it is answered (the head and the body).
    pub max_head: usize,
    /// The most connections waiting for a request's head at once; the oldest goes when
    /// another arrives.
    pub max_waiting: usize,
    /// How long an event stream may be quiet before the server sends a `ping` event: the
    /// page takes a stream that says nothing for a few of these for a lost one.
    pub heartbeat: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            head_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            write_timeout: Duration::from_secs(20),
            max_head: 16 * 1024,
            max_waiting: 256,
            heartbeat: Duration::from_secs(15),
        }
    }
}

/// What the door and a connection share: whether it waits for a head, whether the door
/// closed it, and how to wake it to notice.
#[derive(Default)]
struct Ticket {
    waiting: AtomicBool,
    closed: AtomicBool,
    waker: Mutex<Option<Waker>>,
}

impl Ticket {
    fn close(&self) {
        self.closed.store(true, Ordering::Release);
        let waker = self.waker.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

/// The listener the server accepts connections from.
pub struct Door {
    listener: TcpListener,
    limits: Limits,
    /// Every open connection, oldest first.
    open: VecDeque<Weak<Ticket>>,
}

impl Door {
    /// Watches the connections `listener` accepts.
    pub fn new(listener: TcpListener, limits: Limits) -> Door {
        Door {
            listener,
            limits,
            open: VecDeque::new(),
        }
    }

    /// Makes room for one more connection waiting for a head: forgets the closed ones and
    /// closes the oldest waiting ones over the limit.
    fn make_room(&mut self, keep: usize) {
        self.open.retain(|t| t.strong_count() > 0);
        let waiting = |t: &Weak<Ticket>| {
            t.upgrade()
                .is_some_and(|t| t.waiting.load(Ordering::Acquire))
        };
        let mut over = self
            .open
            .iter()
            .filter(|t| waiting(t))
            .count()
            .saturating_sub(keep);
        for ticket in &self.open {
            if over == 0 {
                break;
            }
            if let Some(ticket) = ticket.upgrade()
                && ticket.waiting.load(Ordering::Acquire)
                && !ticket.closed.load(Ordering::Acquire)
            {
                ticket.close();
                over -= 1;
            }
        }
    }
}

impl axum::serve::Listener for Door {
    type Io = Watched;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Watched, SocketAddr) {
        loop {
            match self.listener.accept().await {
                Ok((stream, peer)) => {
                    self.make_room(self.limits.max_waiting.saturating_sub(1));
                    let ticket = Arc::new(Ticket::default());
                    ticket.waiting.store(true, Ordering::Release);
                    self.open.push_back(Arc::downgrade(&ticket));
                    // Small events go out at once rather than waiting to be joined.
                    let _ = stream.set_nodelay(true);
                    notice_lost_peers(&stream, self.limits.write_timeout);
                    return (Watched::new(stream, ticket, self.limits), peer);
                }
                Err(e) if is_connection_error(&e) => {}
                Err(_) => {
                    // Out of file descriptors, most likely: free some, then try again.
                    self.make_room(self.limits.max_waiting / 2);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Asks the system to give up on a connection whose sent data goes unacknowledged for
/// `after`: a phone that left the room's network without closing its connection takes
/// the event stream's heartbeats into its socket buffer for a long time before a write
/// would stall, while the missing acknowledgements show at the next heartbeat.
#[cfg(target_os = "linux")]
fn notice_lost_peers(stream: &TcpStream, after: Duration) {
    use std::os::fd::AsRawFd;
    let millis = libc::c_uint::try_from(after.as_millis()).unwrap_or(libc::c_uint::MAX);
    // SAFETY: setsockopt reads `size_of::<c_uint>()` bytes from a live local for the
    // duration of the call, on a socket descriptor `stream` owns.
    unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_USER_TIMEOUT,
            (&raw const millis).cast(),
            std::mem::size_of::<libc::c_uint>() as libc::socklen_t,
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn notice_lost_peers(_stream: &TcpStream, _after: Duration) {}

/// Where a connection is in its exchange.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// Waiting for (the rest of) a request's head, since `since`, `read` bytes in.
    Head { since: Instant, read: usize },
    /// Answered, or answering: the next byte read starts another request.
    Answered,
}

/// A connection as the server reads and writes it, with its deadlines.
pub struct Watched {
    stream: TcpStream,
    ticket: Arc<Ticket>,
    limits: Limits,
    phase: Phase,
    last_activity: Instant,
    /// Since when a write has been waiting for room in the socket.
    stalled: Option<Instant>,
    timer: Pin<Box<Sleep>>,
}

/// The answer to a head that is too large, written straight to the socket as it closes.
const TOO_LARGE: &[u8] =
    b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\n\r\n";

impl Watched {
    fn new(stream: TcpStream, ticket: Arc<Ticket>, limits: Limits) -> Watched {
        let now = Instant::now();
        Watched {
            stream,
            ticket,
            limits,
            phase: Phase::Head {
                since: now,
                read: 0,
            },
            last_activity: now,
            stalled: None,
            timer: Box::pin(tokio::time::sleep_until(now + limits.head_timeout)),
        }
    }

    /// When the connection is given up unless something happens first.
    fn deadline(&self) -> Instant {
        let phase = match self.phase {
            Phase::Head { since, .. } => since + self.limits.head_timeout,
            Phase::Answered => self.last_activity + self.limits.idle_timeout,
        };
        match self.stalled {
            Some(since) => phase.min(since + self.limits.write_timeout),
            None => phase,
        }
    }

    /// Fails once the door closed the connection or a deadline passed; otherwise makes
    /// sure the task is woken at the deadline and when the door closes it.
    fn check(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        if self.ticket.closed.load(Ordering::Acquire) {
            return Err(io::ErrorKind::ConnectionAborted.into());
        }
        if matches!(self.phase, Phase::Head { .. }) {
            let mut waker = self.ticket.waker.lock().unwrap_or_else(|e| e.into_inner());
            if !waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
                *waker = Some(cx.waker().clone());
            }
        }
        let deadline = self.deadline();
        if self.timer.deadline() != deadline {
            self.timer.as_mut().reset(deadline);
        }
        match self.timer.as_mut().poll(cx) {
            Poll::Ready(()) => Err(io::ErrorKind::TimedOut.into()),
            Poll::Pending => Ok(()),
        }
    }

    fn read_some(&mut self, n: usize) -> io::Result<()> {
        let now = Instant::now();
        self.last_activity = now;
        let read = match &mut self.phase {
            Phase::Head { read, .. } => {
                *read += n;
                *read
            }
            Phase::Answered => {
                self.phase = Phase::Head {
                    since: now,
                    read: n,
                };
                self.ticket.waiting.store(true, Ordering::Release);
                n
            }
        };
        if read > self.limits.max_head {
            // Best effort: the client is told why before the connection closes.
            let _ = self.stream.try_write(TOO_LARGE);
            return Err(io::ErrorKind::InvalidData.into());
        }
        Ok(())
    }

    fn wrote(&mut self, result: &Poll<io::Result<usize>>) {
        match result {
            Poll::Pending => {
                self.stalled.get_or_insert_with(Instant::now);
            }
            Poll::Ready(Ok(n)) if *n > 0 => {
                self.stalled = None;
                self.last_activity = Instant::now();
                if matches!(self.phase, Phase::Head { .. }) {
                    self.phase = Phase::Answered;
                    self.ticket.waiting.store(false, Ordering::Release);
                }
            }
            Poll::Ready(_) => {}
        }
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.check(cx)?;
        let before = buf.filled().len();
        let result = Pin::new(&mut self.stream).poll_read(cx, buf);
        let n = buf.filled().len() - before;
        if let Poll::Ready(Ok(())) = result
            && n > 0
        {
            self.read_some(n)?;
        }
        result
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.check(cx)?;
        let result = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.wrote(&result);
        result
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.check(cx)?;
        let result = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.wrote(&result);
        result
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.check(cx)?;
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests;

//! The door's limits against plain clients over loopback: each test would wait for its
//! client's own safety timeout (and fail) if the server kept the connection.

use super::super::test_client::*;
use super::super::{ClassBoard, ClassServer};
use super::Limits;
use std::io::{ErrorKind, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// Short limits, so the tests need not wait long for them.
fn quick() -> Limits {
    Limits {
        head_timeout: Duration::from_millis(300),
        idle_timeout: Duration::from_millis(300),
        write_timeout: Duration::from_millis(300),
        ..Limits::default()
    }
}

/// A normal student's look at the board: `GET /state`, its status and body.
fn state(server: &ClassServer) -> (u16, String) {
    get(server, &format!("/state?code={CODE}"))
}

/// The position of the next board `follower` gets, or `None` once the stream ends.
fn next_fen(follower: &mut Stream) -> Option<String> {
    follower.next("board")?["fen"].as_str().map(str::to_owned)
}

fn board(fen: &str, svg: String) -> ClassBoard {
    ClassBoard {
        fen: fen.to_owned(),
        side: "red",
        svg,
        ..ClassBoard::default()
    }
}

#[test]
fn a_client_that_sends_nothing_is_closed() {
    let server = server_with(quick());
    let mut silent = connect(&server);
    assert_eq!(until_closed(&mut silent), Some(Vec::new()));
    assert_eq!(state(&server).0, 200);
}

#[test]
fn a_head_that_trickles_in_is_cut_off() {
    let server = server_with(quick());
    let mut slow = connect(&server);
    slow.write_all(format!("GET /state?code={CODE} HTTP/1.1\r\n").as_bytes())
        .unwrap();
    // A header line every 50 ms: each byte comes well inside any idle time, but the
    // head never ends. The server gives up and a write fails, long before 20 s.
    let mut cut_off = false;
    for n in 0..400 {
        std::thread::sleep(Duration::from_millis(50));
        if slow.write_all(format!("X-{n}: y\r\n").as_bytes()).is_err() {
            cut_off = true;
            break;
        }
    }
    assert!(cut_off, "the trickling head was read for 20 s");
}

#[test]
fn an_idle_connection_is_closed_after_its_answer() {
    let server = server_with(quick());
    let mut stream = connect(&server);
    // Kept alive, as browsers do, and then nothing more.
    write!(stream, "GET /state?code={CODE} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let answer = until_closed(&mut stream).expect("closed when idle");
    assert_eq!(status(&answer), Some(200));
}

#[test]
fn a_head_too_large_is_refused() {
    let server = server_with(quick());
    let mut stream = connect(&server);
    let big = "y".repeat(64 * 1024);
    let _ = write!(
        stream,
        "GET /state?code={CODE} HTTP/1.1\r\nHost: x\r\nX-Big: {big}\r\n\r\n"
    );
    let answer = until_closed(&mut stream).expect("closed");
    assert_eq!(status(&answer), Some(431));
    assert_eq!(state(&server).0, 200);
}

#[test]
fn a_page_that_stops_reading_is_dropped_and_its_place_freed() {
    let server = server_with(quick());
    let mut stalled = connect(&server);
    write!(
        stalled,
        "GET /events?code={CODE} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    let mut tries = 0;
    while server.students() == 0 && tries < 2000 {
        std::thread::sleep(Duration::from_millis(5));
        tries += 1;
    }
    assert_eq!(server.students(), 1);
    // Boards keep coming; the page reads none, so the socket's buffers fill and the
    // server's write waits, until it gives the page up.
    let svg = "x".repeat(1 << 20);
    let mut n = 0;
    while server.students() == 1 && n < 2000 {
        server.publish(board(&format!("board {n}"), svg.clone()));
        std::thread::sleep(Duration::from_millis(10));
        n += 1;
    }
    assert_eq!(server.students(), 0, "the stalled page kept its place");
    assert_eq!(state(&server).0, 200);
}

/// Lets this process open as many files as it may (thousands of sockets, both ends).
#[cfg(target_os = "linux")]
fn open_files_allowed() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read or write one rlimit, a live local.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        limit.rlim_cur = limit.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
    }
    usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
}

#[cfg(target_os = "linux")]
#[test]
fn a_flood_of_silent_connections_cannot_keep_a_student_out() {
    let limits = Limits {
        head_timeout: Duration::from_secs(60),
        max_waiting: 100,
        ..Limits::default()
    };
    let server = server_with(limits);
    server.publish(board("flooded", String::new()));
    // Both ends of each connection are in this process.
    let count = ((open_files_allowed().saturating_sub(200)) / 2).min(3000);
    assert!(count > 500, "only {count} connections possible");
    let flood: Vec<TcpStream> = (0..count).map(|_| connect(&server)).collect();
    // A student arriving after them all is let in and answered.
    let (status, body) = state(&server);
    assert_eq!(status, 200);
    assert!(body.contains("flooded"), "{body}");
    // The oldest of them were closed to make room: at most `max_waiting` are kept.
    let mut open = count;
    for _ in 0..200 {
        open = flood
            .iter()
            .filter(|s| {
                s.set_nonblocking(true).unwrap();
                let mut byte = [0];
                matches!(s.peek(&mut byte), Err(e) if e.kind() == ErrorKind::WouldBlock)
            })
            .count();
        if open <= limits.max_waiting {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(open <= limits.max_waiting, "{open} of {count} kept open");
}

#[cfg(target_os = "linux")]
#[test]
fn the_system_gives_up_on_a_peer_that_stops_acknowledging() {
    use std::os::fd::AsRawFd;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .unwrap();
        let address = listener.local_addr().unwrap();
        let mut door = super::Door::new(listener, quick());
        // The kernel completes the handshake before the server accepts.
        let _client = TcpStream::connect(address).unwrap();
        let (watched, _) = axum::serve::Listener::accept(&mut door).await;
        let mut millis: libc::c_uint = 0;
        let mut size = std::mem::size_of::<libc::c_uint>() as libc::socklen_t;
        // SAFETY: getsockopt writes at most `size` bytes into a live local, on a socket
        // descriptor `watched` owns.
        let read = unsafe {
            libc::getsockopt(
                watched.stream.as_raw_fd(),
                libc::IPPROTO_TCP,
                libc::TCP_USER_TIMEOUT,
                (&raw mut millis).cast(),
                &mut size,
            )
        };
        assert_eq!(read, 0);
        assert_eq!(u128::from(millis), quick().write_timeout.as_millis());
    });
}

mod fuzz;

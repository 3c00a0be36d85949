//! Malformed requests from a seeded generator, sent over loopback from eight clients at
//! once while the app publishes boards and a student follows them: every connection must
//! end (answered or closed by the server, never left hanging), and all the while a
//! normal student is answered and the follower gets every newest board.

use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How many malformed exchanges are tried (each takes at most about the head timeout).
const CASES: usize = 240;

/// The generator's seed: a failure names its case, and the same seed makes it again.
const SEED: u64 = 0x4348_5548_4543_4c53;

/// xorshift64*: small, and the same on every machine.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

/// How a case's client behaves once it has sent its bytes.
enum Then {
    /// Waits for the server to answer and close.
    Wait,
    /// Closes its sending side (a half-closed socket) and waits.
    HalfClose,
}

/// One malformed exchange: the bytes sent, and what the client does after.
fn case(random: &mut Random) -> (Vec<u8>, Then) {
    // The routes that answer and close (the two streams, /events and /quiz, are the
    // follower's: a well-formed request to them would rightly stay open).
    let route = random.pick(&["/state", "/font", "/join"]);
    let good = format!("GET {route}?code={CODE} HTTP/1.1\r\nHost: x\r\n\r\n");
    let bytes = match random.below(11) {
        // Noise.
        0 => {
            let n = 1 + random.below(4000);
            random.bytes(n)
        }
        // A good request with bytes changed, put in or taken out.
        1 => {
            let mut bytes = good.clone().into_bytes();
            for _ in 0..1 + random.below(8) {
                let at = random.below(bytes.len());
                match random.below(3) {
                    0 => bytes[at] = random.next() as u8,
                    1 => bytes.insert(at, random.next() as u8),
                    _ => {
                        bytes.remove(at);
                    }
                }
            }
            bytes
        }
        // A header far too long, or far too many.
        2 => {
            let n = 8 * 1024 + random.below(300 * 1024);
            format!(
                "GET /state?code={CODE} HTTP/1.1\r\nX: {}\r\n\r\n",
                "z".repeat(n)
            )
            .into_bytes()
        }
        3 => {
            let mut head = format!("GET /events?code={CODE} HTTP/1.1\r\n");
            for n in 0..random.below(3000) {
                head.push_str(&format!("H{n}: v\r\n"));
            }
            head.push_str("\r\n");
            head.into_bytes()
        }
        // A request cut short, then silence: a half-open socket.
        4 => {
            let mut bytes = good.clone().into_bytes();
            bytes.truncate(random.below(bytes.len() - 2));
            bytes
        }
        // Bodies that lie about their length, or claim chunks and send none.
        5 => {
            let header = random.pick(&[
                "Content-Length: 99999999999999999999",
                "Content-Length: -1",
                "Content-Length: 10",
                "Content-Length: 1, 2",
                "Transfer-Encoding: chunked",
                "Transfer-Encoding: gzip, chunked",
            ]);
            let body = random.pick(&["", "abc", "ffffffff\r\n", "5\r\nab"]);
            format!("GET /state?code={CODE} HTTP/1.1\r\nHost: x\r\n{header}\r\n\r\n{body}")
                .into_bytes()
        }
        // Odd methods, targets and versions.
        6 => {
            let method = random.pick(&["GET", "get", "CONNECT", "TRACE", "\u{0}", "G E T", ""]);
            let target = match random.below(4) {
                0 => format!("http://evil/state?code={CODE}"),
                1 => format!("/{}?code={CODE}", "a/".repeat(random.below(20_000))),
                2 => "/%zz%00/../state?code=%".to_owned(),
                _ => "*".to_owned(),
            };
            let version = random.pick(&["HTTP/1.1", "HTTP/1.0", "HTTP/9.9", "HTTP/2", ""]);
            format!("{method} {target} {version}\r\nHost: x\r\n\r\n").into_bytes()
        }
        // Many requests in one go, some broken.
        7 => {
            let mut bytes = Vec::new();
            for _ in 0..1 + random.below(30) {
                if random.below(4) == 0 {
                    let n = random.below(200);
                    bytes.extend(random.bytes(n));
                } else {
                    bytes.extend_from_slice(good.as_bytes());
                }
            }
            bytes
        }
        // Wrong codes.
        8 => format!(
            "GET /events?code={:04} HTTP/1.1\r\nHost: x\r\n\r\n",
            random.below(10_000)
        )
        .into_bytes(),
        // Answers that are not answers: no question is open, the token is made up, the
        // JSON broken or of the wrong shape, the name or move odd, the body longer than said.
        9 => {
            let body = random.pick(&[
                "",
                "{",
                "[]",
                "null",
                r#"{"token":"x","name":"a","question":1,"move":"h2e2"}"#,
                r#"{"token":1,"name":{},"question":-1,"move":null}"#,
                r#"{"token":"x","name":"\u0000<script>","question":18446744073709551615,"move":"z9z9"}"#,
                "\u{feff}{\"token\":\"\u{0}\"}",
            ]);
            let extra = random.below(3) * random.below(2000);
            let length = body.len() + random.below(2) * extra;
            format!(
                "POST /answer?code={CODE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                 Content-Length: {length}\r\n\r\n{body}"
            )
            .into_bytes()
        }
        // Line endings and spaces where they should not be.
        _ => random
            .pick(&[
                "GET /state HTTP/1.1\n\n",
                "GET  /state?code=2468  HTTP/1.1\r\n\r\n",
                "GET /state?code=2468 HTTP/1.1\r\n Host: x\r\n\r\n",
                "GET /state?code=2468 HTTP/1.1\r\nHost x\r\n\r\n",
                "\r\n\r\n\r\n",
                "GET /state?code=2468 HTTP/1.1\r\nHost: x\r\n\r",
            ])
            .as_bytes()
            .to_vec(),
    };
    let then = if random.below(3) == 0 {
        Then::HalfClose
    } else {
        Then::Wait
    };
    (bytes, then)
}

/// A connection from 127.0.0.2, so the fuzz's wrong codes are counted against another
/// address than the normal student's.
#[cfg(target_os = "linux")]
fn connect_from_elsewhere(to: SocketAddr) -> TcpStream {
    use std::os::fd::FromRawFd;
    let address = |ip: Ipv4Addr, port: u16| libc::sockaddr_in {
        sin_family: libc::AF_INET as libc::sa_family_t,
        sin_port: port.to_be(),
        sin_addr: libc::in_addr {
            s_addr: u32::from(ip).to_be(),
        },
        sin_zero: [0; 8],
    };
    let SocketAddr::V4(to) = to else {
        panic!("the test server is on IPv4 loopback")
    };
    let from = address(Ipv4Addr::new(127, 0, 0, 2), 0);
    let to = address(*to.ip(), to.port());
    let size = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
    // SAFETY: a new socket, bound and connected with addresses that live across the
    // calls; on success its descriptor is handed to the TcpStream, which owns it from then.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        assert!(fd >= 0, "socket");
        let stream = TcpStream::from_raw_fd(fd);
        assert_eq!(libc::bind(fd, (&raw const from).cast(), size), 0, "bind");
        assert_eq!(
            libc::connect(fd, (&raw const to).cast(), size),
            0,
            "connect"
        );
        stream
    }
}

#[cfg(target_os = "linux")]
#[test]
fn malformed_requests_never_hang_a_connection_or_hold_up_the_class() {
    let server = Arc::new(server_with(quick()));
    server.publish(board("board 0", String::new()));
    let mut follower = follow(&server, "/events");
    let next = Arc::new(AtomicUsize::new(0));
    let hung = Arc::new(Mutex::new(Vec::new()));
    let clients: Vec<_> = (0..8)
        .map(|_| {
            let (server, next, hung) = (server.clone(), next.clone(), hung.clone());
            std::thread::spawn(move || {
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= CASES {
                        break;
                    }
                    let mut random = Random(SEED ^ (n as u64 + 1).wrapping_mul(0x9e37_79b9));
                    let (bytes, then) = case(&mut random);
                    let mut stream = connect_from_elsewhere(server.address());
                    stream.set_read_timeout(Some(PATIENCE)).unwrap();
                    // The server may close before taking it all: that is an answer too.
                    let _ = stream.write_all(&bytes);
                    if let Then::HalfClose = then {
                        let _ = stream.shutdown(std::net::Shutdown::Write);
                    }
                    if until_closed(&mut stream).is_none() {
                        hung.lock().unwrap().push(n);
                    }
                }
            })
        })
        .collect();
    // Meanwhile the teacher's board changes and a normal student looks at it.
    let mut published = 0;
    while clients.iter().any(|c| !c.is_finished()) {
        published += 1;
        let fen = format!("board {published}");
        server.publish(board(&fen, String::new()));
        let (status, body) = state(&server);
        assert_eq!(status, 200, "{body}");
        assert!(body.contains(&fen), "{body}");
        std::thread::sleep(Duration::from_millis(20));
    }
    for client in clients {
        client.join().unwrap();
    }
    assert_eq!(
        *hung.lock().unwrap(),
        Vec::<usize>::new(),
        "cases left hanging"
    );
    // The follower kept up: it reaches the last board.
    let last = format!("board {published}");
    let mut reached = false;
    while let Some(fen) = next_fen(&mut follower) {
        if fen == last {
            reached = true;
            break;
        }
    }
    assert!(reached, "the follower did not reach {last}");
    assert_eq!(server.students(), 1);
    assert_eq!(state(&server).0, 200);
}

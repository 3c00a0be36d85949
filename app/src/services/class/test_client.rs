//! A plain HTTP client over loopback, as the class server's tests speak to it: one place
//! for sending a request and reading its answer, and for following an event stream.

use super::{ClassServer, Limits};
use crate::i18n::{I18n, Language};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// The join code of the servers the tests start.
pub const CODE: &str = "2468";

/// A client's safety timeout: only so that a server that keeps a connection fails the
/// test instead of hanging it.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// A server on a free loopback port with the usual limits.
pub fn server() -> ClassServer {
    server_with(Limits::default())
}

/// A server on a free loopback port with `limits`.
pub fn server_with(limits: Limits) -> ClassServer {
    let address = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);
    ClassServer::start_with(address, CODE, &I18n::new(Language::En), None, limits).unwrap()
}

pub fn connect(server: &ClassServer) -> TcpStream {
    let stream = TcpStream::connect(server.address()).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream
}

/// Reads what the server sends until it closes the connection: the bytes, or `None` if
/// it kept the connection open past the client's patience.
pub fn until_closed(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut got = Vec::new();
    let mut buffer = [0; 8192];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return Some(got),
            Ok(n) => got.extend_from_slice(&buffer[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return None;
            }
            Err(_) => return Some(got),
        }
    }
}

/// The status of an answer, if it has one.
pub fn status(answer: &[u8]) -> Option<u16> {
    String::from_utf8_lossy(answer)
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
}

/// Sends `raw` as it is and reads the whole answer: its status, head and body.
pub fn exchange_bytes(server: &ClassServer, raw: &[u8]) -> (u16, String, Vec<u8>) {
    let mut stream = connect(server);
    stream.write_all(raw).unwrap();
    let answer = until_closed(&mut stream).unwrap_or_default();
    let status = status(&answer)
        .unwrap_or_else(|| panic!("no status in {:?}", String::from_utf8_lossy(&answer)));
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(answer.len());
    let head = String::from_utf8_lossy(&answer[..split]).into_owned();
    let body = answer.get(split + 4..).unwrap_or_default().to_vec();
    (status, head, body)
}

/// Sends `raw` as it is and reads the whole answer: its status and its body.
pub fn exchange(server: &ClassServer, raw: &[u8]) -> (u16, String) {
    let (status, _, body) = exchange_bytes(server, raw);
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// A request for `target` with the `headers` given (each ending in CRLF).
fn request(target: &str, headers: &str) -> String {
    format!("GET {target} HTTP/1.1\r\nHost: x\r\n{headers}\r\n")
}

fn get_request(target: &str) -> String {
    request(target, "Connection: close\r\n")
}

/// `GET target`: the status and the body.
pub fn get(server: &ClassServer, target: &str) -> (u16, String) {
    exchange(server, get_request(target).as_bytes())
}

/// `GET target`: the status, the head and the body as bytes.
pub fn get_bytes(server: &ClassServer, target: &str) -> (u16, String, Vec<u8>) {
    exchange_bytes(server, get_request(target).as_bytes())
}

/// `POST /answer` with the JSON `body`: the status and the body.
pub fn post(server: &ClassServer, body: &str) -> (u16, String) {
    exchange(
        server,
        format!(
            "POST /answer?code={CODE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
}

/// An event stream (`/events` or `/quiz`): its answer's status, the events still to come.
pub struct Stream {
    pub reader: BufReader<TcpStream>,
    pub status: u16,
}

/// Follows the stream at `path`, its answer's head read.
pub fn follow(server: &ClassServer, path: &str) -> Stream {
    let mut stream = connect(server);
    let target = format!("{path}?code={CODE}");
    let asked = request(&target, "Accept: text/event-stream\r\n");
    stream.write_all(asked.as_bytes()).unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap_or(0);
    let status = status(line.as_bytes()).unwrap_or(0);
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
    }
    Stream { reader, status }
}

impl Stream {
    /// The data of the next event named `name` (chunk sizes, pings and other events
    /// skipped), or `None` at the end of the stream.
    pub fn next(&mut self, name: &str) -> Option<serde_json::Value> {
        loop {
            let (event, data) = self.next_event()?;
            if event == name {
                return Some(data);
            }
        }
    }

    /// The next event, whatever it is: its name and its data (chunk sizes skipped), or
    /// `None` at the end of the stream.
    pub fn next_event(&mut self) -> Option<(String, serde_json::Value)> {
        let mut line = String::new();
        let mut name = String::new();
        loop {
            line.clear();
            if self.reader.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let line = line.trim_end();
            if let Some(event) = line.strip_prefix("event: ") {
                event.clone_into(&mut name);
            } else if let Some(data) = line.strip_prefix("data: ") {
                let value = serde_json::from_str(data);
                return Some((name, value.unwrap_or_else(|e| panic!("{e} in {data}"))));
            }
        }
    }
}

//! What the class's tests share: the teacher's clicks and actions, a student's requests
//! over loopback and its event streams, and waiting for the app to take what the server's
//! thread and the background work send it.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::*;
use chuhe::state::class::RunningClass;
use chuhe::state::class::quiz::QuizState;
use chuhe_core::quiz::Question;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpStream};
use std::time::Duration;

/// How long a test waits for anything before it fails (rather than hang).
pub const PATIENCE: Duration = Duration::from_secs(60);

pub fn click(harness: &mut Harness<'_, ChuheApp>, label: &str) {
    harness.get_by_label(label).click();
    harness.run();
}

pub fn apply(harness: &mut Harness<'_, ChuheApp>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
    harness.run();
}

/// Runs frames until `done` holds.
pub fn wait_for(harness: &mut Harness<'_, ChuheApp>, done: impl Fn(&ChuheApp) -> bool) {
    common::wait_for(harness, PATIENCE, done);
}

/// Runs frames until the open question's right moves are worked out.
pub fn wait_judged(harness: &mut Harness<'_, ChuheApp>) {
    wait_for(harness, |app| {
        app.state
            .class
            .quiz
            .open
            .as_ref()
            .is_some_and(|o| !o.judging)
    });
}

/// The class's quiz as the app holds it.
pub fn quiz_state<'a>(harness: &'a Harness<'_, ChuheApp>) -> &'a QuizState {
    &harness.state().state.class.quiz
}

/// The open question as the app holds it.
pub fn question(harness: &Harness<'_, ChuheApp>) -> Question {
    quiz_state(harness).question().expect("a question").clone()
}

/// The command line `chuhe LIST…` as the app reads it.
pub fn arguments(list: &[&str]) -> Result<chuhe::Arguments, chuhe::ArgumentError> {
    chuhe::arguments(
        std::iter::once("chuhe")
            .chain(list.iter().copied())
            .map(std::ffi::OsString::from),
    )
}

/// The class on, as its window shows it.
pub fn running(harness: &Harness<'_, ChuheApp>) -> RunningClass {
    harness
        .state()
        .state
        .class
        .running
        .clone()
        .expect("a class is on")
}

/// Opens a class on a free port (so tests running side by side do not meet): its port
/// and code.
pub fn open_class(harness: &mut Harness<'_, ChuheApp>) -> (u16, String) {
    apply(harness, ClassAction::SetPort(0).into());
    apply(harness, ClassAction::Start.into());
    let class = running(harness);
    (class.port, class.code)
}

fn connect(ip: IpAddr, port: u16) -> TcpStream {
    let stream = TcpStream::connect((ip, port)).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream
}

/// Sends `raw` to `ip`:`port` and reads the whole answer: the status and the body.
pub fn exchange_at(ip: IpAddr, port: u16, raw: &str) -> (u16, String) {
    let mut stream = connect(ip, port);
    stream.write_all(raw.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.split(' ').nth(1).unwrap().parse().unwrap();
    let body = answer.split_once("\r\n\r\n").unwrap().1.to_owned();
    (status, body)
}

/// A request for `target` with the `headers` given (each ending in CRLF).
fn request(target: &str, headers: &str) -> String {
    format!("GET {target} HTTP/1.1\r\nHost: x\r\n{headers}\r\n")
}

/// `GET target` at `ip`:`port`: the status and the body.
pub fn get_at(ip: IpAddr, port: u16, target: &str) -> (u16, String) {
    exchange_at(ip, port, &request(target, "Connection: close\r\n"))
}

/// `GET target` over loopback: the status and the body.
pub fn get(port: u16, target: &str) -> (u16, String) {
    get_at(IpAddr::V4(Ipv4Addr::LOCALHOST), port, target)
}

/// The open question as `/state` reports it.
pub fn quiz(port: u16, code: &str) -> serde_json::Value {
    let (_, body) = get(port, &format!("/state?code={code}"));
    serde_json::from_str::<serde_json::Value>(&body).unwrap()["quiz"].clone()
}

/// A student joins and answers question `id` with `mv` under `name`: the status.
pub fn answer(port: u16, code: &str, name: &str, id: u64, mv: &str) -> u16 {
    let (_, joined) = get(port, &format!("/join?code={code}"));
    let token: serde_json::Value = serde_json::from_str(&joined).unwrap();
    let body =
        serde_json::json!({"token": token["token"], "name": name, "question": id, "move": mv})
            .to_string();
    let raw = format!(
        "POST /answer?code={code} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    exchange_at(IpAddr::V4(Ipv4Addr::LOCALHOST), port, &raw).0
}

/// A student's event stream (`/events` or `/quiz`) over loopback.
pub struct Follower {
    reader: BufReader<TcpStream>,
    /// The first line of the answer: `HTTP/1.1 200 OK`.
    pub status_line: String,
}

impl Follower {
    pub fn join(port: u16, code: &str, path: &str) -> Follower {
        let mut stream = connect(IpAddr::V4(Ipv4Addr::LOCALHOST), port);
        let target = format!("{path}?code={code}");
        let asked = request(&target, "Accept: text/event-stream\r\n");
        stream.write_all(asked.as_bytes()).unwrap();
        let mut reader = BufReader::new(stream);
        let mut status_line = String::new();
        reader.read_line(&mut status_line).unwrap();
        Follower {
            reader,
            status_line,
        }
    }

    /// The data of the next event named `name` (other events and keep-alives skipped).
    pub fn next(&mut self, name: &str) -> serde_json::Value {
        let mut line = String::new();
        let mut named = false;
        loop {
            line.clear();
            assert!(
                self.reader.read_line(&mut line).unwrap() > 0,
                "the stream ended"
            );
            let line = line.trim_end();
            if let Some(event) = line.strip_prefix("event: ") {
                named = event == name;
            } else if let Some(data) = line.strip_prefix("data: ")
                && named
            {
                return serde_json::from_str(data).unwrap();
            }
        }
    }
}

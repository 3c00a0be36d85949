//! The class heard only where the teacher chose (the window lists the machine's
//! addresses), and the students' pages following a presentation step by step.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::*;
use common::{key, open_in, temp_dir};
use egui::Key;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpStream};

fn apply(harness: &mut Harness<'_, ChuheApp>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
    harness.run();
}

fn running(harness: &Harness<'_, ChuheApp>) -> chuhe::state::class::RunningClass {
    harness
        .state()
        .state
        .class
        .running
        .clone()
        .expect("a class is on")
}

/// `GET /state` at `ip`: the body.
fn state_at(ip: IpAddr, port: u16, code: &str) -> String {
    let mut stream = TcpStream::connect((ip, port)).unwrap();
    write!(
        stream,
        "GET /state?code={code} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer.split_once("\r\n\r\n").unwrap().1.to_owned()
}

/// Another address of this machine than 127.0.0.1 (all of 127/8 is loopback on Linux).
const ELSEWHERE: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

#[cfg(target_os = "linux")]
#[test]
fn the_class_listens_only_on_the_address_the_teacher_chose() {
    let dir = temp_dir("class_follow", "bind");
    let mut harness = open_in(&dir);
    apply(&mut harness, ClassAction::SetPort(0).into());
    apply(&mut harness, ClassAction::ToggleWindow.into());
    // The window lists the machine's addresses, loopback among them, and all of them.
    let interfaces = harness.state().state.class.interfaces.clone();
    let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);
    assert!(
        interfaces.iter().any(|i| i.ip == loopback),
        "{interfaces:?}"
    );
    harness.get_by_value("所有网络接口");

    // Chosen: loopback only. Nothing answers on the machine's other addresses.
    harness
        .get_by_role_and_label(Role::ComboBox, "监听地址")
        .click();
    harness.run();
    harness.get_by_label(&format!("{loopback}  lo")).click();
    harness.run();
    assert_eq!(harness.state().state.class.bind, loopback);
    apply(&mut harness, ClassAction::Start.into());
    let class = running(&harness);
    assert_eq!(class.addresses, [loopback]);
    harness.get_by_label(&format!("http://127.0.0.1:{}/", class.port));
    assert!(state_at(loopback, class.port, &class.code).contains("\"fen\""));
    assert!(TcpStream::connect((ELSEWHERE, class.port)).is_err());
    apply(&mut harness, ClassAction::Stop.into());

    // All interfaces (the default): heard there too.
    apply(
        &mut harness,
        ClassAction::SetBind(IpAddr::V4(Ipv4Addr::UNSPECIFIED)).into(),
    );
    apply(&mut harness, ClassAction::Start.into());
    let class = running(&harness);
    assert_eq!(class.addresses.last(), Some(&loopback));
    assert!(state_at(ELSEWHERE, class.port, &class.code).contains("\"fen\""));
}

#[test]
fn the_command_line_chooses_the_address() {
    let args = |list: &[&str]| {
        chuhe::arguments(
            std::iter::once("chuhe")
                .chain(list.iter().copied())
                .map(std::ffi::OsString::from),
        )
    };
    let class = args(&["--class", "--bind", "192.168.1.20"])
        .unwrap()
        .class
        .unwrap();
    assert_eq!(class.bind, Some("192.168.1.20".parse().unwrap()));
    assert_eq!(args(&["--class"]).unwrap().class.unwrap().bind, None);
    use chuhe::ArgumentError::*;
    assert_eq!(
        args(&["--class", "--bind", "lan"]),
        Err(BadAddress("lan".into()))
    );
    assert_eq!(
        args(&["--bind", "127.0.0.1"]),
        Err(WithoutClass("--bind".into()))
    );
}

/// A student's event stream: the positions and move lists of the boards as they come.
struct Follower(BufReader<TcpStream>);

impl Follower {
    fn join(port: u16, code: &str) -> Follower {
        let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(20)))
            .unwrap();
        write!(
            stream,
            "GET /events?code={code} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        Follower(BufReader::new(stream))
    }

    /// The next board: its FEN and its line's moves.
    fn next(&mut self) -> (String, Vec<String>) {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(self.0.read_line(&mut line).unwrap() > 0, "the stream ended");
            if let Some(data) = line.trim_end().strip_prefix("data: ") {
                let board: serde_json::Value = serde_json::from_str(data).unwrap();
                let moves = board["line"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["iccs"].as_str().unwrap().to_owned())
                    .collect();
                return (board["fen"].as_str().unwrap().to_owned(), moves);
            }
        }
    }
}

#[test]
fn the_pages_follow_a_presentation_step_by_step_without_the_moves_to_come() {
    let dir = temp_dir("class_follow", "presentation");
    let mut harness = open_in(&dir);
    for m in ["h2e2", "h9g7", "h0g2"] {
        apply(
            &mut harness,
            StudyAction::PlayMove(m.parse().unwrap()).into(),
        );
    }
    key(&mut harness, Key::Home);
    apply(&mut harness, ClassAction::SetPort(0).into());
    apply(&mut harness, ClassAction::Start.into());
    let class = running(&harness);
    let mut student = Follower::join(class.port, &class.code);
    // Before the presentation the page shows the whole game, greyed ahead.
    let (_, line) = student.next();
    assert_eq!(line, ["h2e2", "h9g7", "h0g2"]);

    apply(&mut harness, PresentationAction::Toggle.into());
    let (_, line) = student.next();
    assert_eq!(
        line,
        Vec::<String>::new(),
        "the moves to come are not given away"
    );
    // The clicker steps; each step reaches the page with only the moves shown so far.
    for shown in 1..=3 {
        key(&mut harness, Key::PageDown);
        let (fen, line) = student.next();
        let state = &harness.state().state;
        assert_eq!(fen, state.study.derived.position.to_string());
        assert_eq!(line.len(), shown);
    }
    key(&mut harness, Key::PageUp);
    assert_eq!(student.next().1, ["h2e2", "h9g7"]);
    // The presentation over, the page shows the whole game again.
    apply(&mut harness, PresentationAction::End.into());
    assert_eq!(student.next().1, ["h2e2", "h9g7", "h0g2"]);
}

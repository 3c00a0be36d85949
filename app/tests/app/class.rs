//! The class driven like a teacher does: open it from the menu, read the join address and
//! code off its window, follow the board over HTTP while moves are made, end it; and the
//! headless start's command line and announcement.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::*;
use common::{open_in, temp_dir};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

fn click(harness: &mut Harness<'_, ChuheApp>, label: &str) {
    harness.get_by_label(label).click();
    harness.run();
}

fn apply(harness: &mut Harness<'_, ChuheApp>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
    harness.run();
}

/// `GET target` over loopback: the status and the body.
fn get(port: u16, target: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], port))).unwrap();
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.split(' ').nth(1).unwrap().parse().unwrap();
    let body = answer.split_once("\r\n\r\n").unwrap().1.to_owned();
    (status, body)
}

#[test]
fn a_teacher_opens_a_class_from_the_menu_and_the_state_follows_the_board() {
    let dir = temp_dir("class", "menu");
    let mut harness = open_in(&dir);
    // Any free port, so tests running side by side do not meet.
    apply(&mut harness, ClassAction::SetPort(0).into());
    click(&mut harness, "课堂");
    click(&mut harness, "开始");
    let class = harness
        .state()
        .state
        .class
        .running
        .clone()
        .expect("a class is on");
    assert!(chuhe::state::class::is_join_code(&class.code));
    assert_ne!(class.port, 0);
    // The window shows where to join and the code.
    harness.get_by_label(&class.code);
    harness.get_by_label(&format!("http://127.0.0.1:{}/", class.port));
    assert!(class.qr.width >= 21);
    let (status, body) = get(class.port, &format!("/state?code={}", class.code));
    assert_eq!(status, 200);
    assert!(body.contains("\"moves\":[]"), "{body}");
    apply(
        &mut harness,
        StudyAction::PlayMove("h2e2".parse().unwrap()).into(),
    );
    let (_, body) = get(class.port, &format!("/state?code={}", class.code));
    let fen = harness.state().state.study.derived.position.to_string();
    assert!(body.contains(&format!("\"fen\":\"{fen}\"")), "{body}");
    assert!(body.contains("\"last_move\":\"h2e2\""), "{body}");
    // A student follows: the window counts them.
    let mut student = TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], class.port))).unwrap();
    write!(
        student,
        "GET /events?code={} HTTP/1.1\r\nHost: x\r\n\r\n",
        class.code
    )
    .unwrap();
    let mut first = [0u8; 12];
    student.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    for _ in 0..100 {
        if harness
            .state()
            .state
            .class
            .running
            .as_ref()
            .unwrap()
            .students
            == 1
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        harness.run();
    }
    assert_eq!(
        harness
            .state()
            .state
            .class
            .running
            .as_ref()
            .unwrap()
            .students,
        1
    );
    click(&mut harness, "下课");
    assert!(harness.state().state.class.running.is_none());
    assert!(TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], class.port))).is_err());
}

#[test]
fn the_headless_start_announces_the_class_on_one_line() {
    let dir = temp_dir("class", "headless");
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    let line = harness
        .state_mut()
        .open_class(&ctx, None, Some("2468".to_owned()))
        .map_err(|e| e.to_string());
    // The usual port may be taken on this machine; then the reason is given instead.
    match line {
        Ok(line) => {
            let class = harness.state().state.class.running.clone().unwrap();
            let address = class.addresses[0];
            assert_eq!(
                line,
                format!("class: http://{address}:{}/ code 2468", class.port)
            );
            assert_eq!(class.port, 8080);
        }
        Err(why) => assert!(why.contains("8080"), "{why}"),
    }
}

#[test]
fn the_command_line_asks_for_a_class() {
    let args = |list: &[&str]| {
        chuhe::arguments(
            std::iter::once("chuhe")
                .chain(list.iter().copied())
                .map(std::ffi::OsString::from),
        )
    };
    let parsed = args(&["--class", "--port", "9000", "--code", "0042", "game.pgn"]).unwrap();
    assert_eq!(parsed.file, Some("game.pgn".into()));
    let class = parsed.class.unwrap();
    assert_eq!(
        (class.port, class.code.as_deref()),
        (Some(9000), Some("0042"))
    );
    let plain = args(&["game.pgn"]).unwrap();
    assert_eq!((plain.file, plain.class), (Some("game.pgn".into()), None));
    assert_eq!(args(&["--class"]).unwrap().class.unwrap().port, None);
    use chuhe::ArgumentError::*;
    assert_eq!(
        args(&["--class", "--port"]),
        Err(MissingValue("--port".into()))
    );
    assert_eq!(args(&["--class", "--port", "0"]), Err(BadPort("0".into())));
    assert_eq!(
        args(&["--class", "--port", "http"]),
        Err(BadPort("http".into()))
    );
    assert_eq!(
        args(&["--class", "--code", "12345"]),
        Err(BadCode("12345".into()))
    );
    assert_eq!(
        args(&["--port", "9000"]),
        Err(WithoutClass("--port".into()))
    );
    assert_eq!(args(&["--classes"]), Err(Unexpected("--classes".into())));
    assert_eq!(args(&["a.pgn", "b.pgn"]), Err(Unexpected("b.pgn".into())));
}

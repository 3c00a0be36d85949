//! The class driven like a teacher does: open it from the menu, read the join address and
//! code off its window, follow the board over HTTP while moves are made, end it; and the
//! headless start's command line and announcement.

use crate::class_support::*;
use crate::common;

use chuhe::actions::*;
use common::{open_in, temp_dir};
use egui_kittest::kittest::Queryable as _;
use std::net::{SocketAddr, TcpStream};

#[test]
fn a_teacher_opens_a_class_from_the_menu_and_the_state_follows_the_board() {
    let dir = temp_dir("class", "menu");
    let mut harness = open_in(&dir);
    // Any free port, so tests running side by side do not meet.
    apply(&mut harness, ClassAction::SetPort(0).into());
    click(&mut harness, "课堂");
    click(&mut harness, "开始");
    let class = running(&harness);
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
    let student = Follower::join(class.port, &class.code, "/events");
    assert!(student.status_line.starts_with("HTTP/1.1 200"));
    wait_for(&mut harness, |app| {
        app.state.class.running.as_ref().unwrap().students == 1
    });
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
    let args = arguments;
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
    let refused: [(&[&str], _); 7] = [
        (&["--class", "--port"], MissingValue("--port".into())),
        (&["--class", "--port", "0"], BadPort("0".into())),
        (&["--class", "--port", "http"], BadPort("http".into())),
        (&["--class", "--code", "12345"], BadCode("12345".into())),
        (&["--port", "9000"], WithoutClass("--port".into())),
        (&["--classes"], Unexpected("--classes".into())),
        (&["a.pgn", "b.pgn"], Unexpected("b.pgn".into())),
    ];
    for (list, why) in refused {
        assert_eq!(args(list), Err(why), "{list:?}");
    }
}

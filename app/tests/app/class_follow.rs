//! The class heard only where the teacher chose (the window lists the machine's
//! addresses), and the students' pages following a presentation step by step.

use crate::class_support::*;
use crate::common;

use chuhe::actions::*;
use common::{key, open_in, temp_dir};
use egui::Key;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable as _;
use std::net::{IpAddr, Ipv4Addr, TcpStream};

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
    assert!(
        get_at(loopback, class.port, &format!("/state?code={}", class.code))
            .1
            .contains("\"fen\"")
    );
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
    assert!(
        get_at(
            ELSEWHERE,
            class.port,
            &format!("/state?code={}", class.code)
        )
        .1
        .contains("\"fen\"")
    );
}

#[test]
fn the_command_line_chooses_the_address() {
    let args = arguments;
    let class = args(&["--class", "--bind", "192.168.1.20"])
        .unwrap()
        .class
        .unwrap();
    assert_eq!(class.bind, Some("192.168.1.20".parse().unwrap()));
    assert_eq!(args(&["--class"]).unwrap().class.unwrap().bind, None);
    let lan = args(&["--class", "--bind", "lan"]);
    assert_eq!(lan, Err(chuhe::ArgumentError::BadAddress("lan".into())));
    let alone = args(&["--bind", "127.0.0.1"]);
    assert_eq!(
        alone,
        Err(chuhe::ArgumentError::WithoutClass("--bind".into()))
    );
}

/// The next board a student gets: its FEN and its line's moves.
fn next_board(student: &mut Follower) -> (String, Vec<String>) {
    let board = student.next("board");
    let moves = board["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap().to_owned())
        .collect();
    (board["fen"].as_str().unwrap().to_owned(), moves)
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
    let mut student = Follower::join(class.port, &class.code, "/events");
    // Before the presentation the page shows the whole game, greyed ahead.
    let (_, line) = next_board(&mut student);
    assert_eq!(line, ["h2e2", "h9g7", "h0g2"]);

    apply(&mut harness, PresentationAction::Toggle.into());
    let (_, line) = next_board(&mut student);
    assert_eq!(
        line,
        Vec::<String>::new(),
        "the moves to come are not given away"
    );
    // The clicker steps; each step reaches the page with only the moves shown so far.
    for shown in 1..=3 {
        key(&mut harness, Key::PageDown);
        let (fen, line) = next_board(&mut student);
        let state = &harness.state().state;
        assert_eq!(fen, state.study.derived.position.to_string());
        assert_eq!(line.len(), shown);
    }
    key(&mut harness, Key::PageUp);
    assert_eq!(next_board(&mut student).1, ["h2e2", "h9g7"]);
    // The presentation over, the page shows the whole game again.
    apply(&mut harness, PresentationAction::End.into());
    assert_eq!(next_board(&mut student).1, ["h2e2", "h9g7", "h0g2"]);
}

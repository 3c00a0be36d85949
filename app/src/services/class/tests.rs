//! The class server against a plain HTTP client over loopback.

use super::test_client::{CODE, Stream, exchange, follow, get, server, server_with};
use super::*;
use crate::settings::Settings;
use std::net::TcpStream;

fn board(fen: &str, moves: &[&str]) -> ClassBoard {
    ClassBoard {
        fen: fen.to_owned(),
        line: moves
            .iter()
            .map(|m| ClassMove {
                iccs: (*m).to_owned(),
                text: format!("move {m}"),
                comment: String::new(),
            })
            .collect(),
        ply: moves.len(),
        last_move: moves.last().map(|m| (*m).to_owned()),
        side: "red",
        intro: String::new(),
        svg: "<svg/>".to_owned(),
        font: String::new(),
    }
}

#[test]
fn the_state_follows_what_the_app_publishes() {
    let server = server();
    server.publish(board("fen one", &["h2e2"]));
    let (status, body) = get(&server, &format!("/state?code={CODE}"));
    assert_eq!(status, 200);
    let json: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"fen": "fen one", "moves": ["h2e2"], "last_move": "h2e2", "quiz": null})
    );
    server.publish(board("fen two", &["h2e2", "h9g7"]));
    let (_, body) = get(&server, &format!("/state?code={CODE}"));
    let json: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(json["fen"], "fen two");
    assert_eq!(json["moves"], serde_json::json!(["h2e2", "h9g7"]));
}

#[test]
fn a_page_gets_the_board_now_and_then_each_change() {
    let server = server();
    server.publish(board("before", &[]));
    let mut stream = follow(&server, "/events");
    assert_eq!(stream.status, 200);
    assert_eq!(stream.next("board").unwrap()["fen"], "before");
    server.publish(board("after", &["b0c2"]));
    let update = stream.next("board").unwrap();
    assert_eq!(update["fen"], "after");
    assert_eq!(update["line"][0]["text"], "move b0c2");
    // A page that joins late starts from the board as it is.
    assert_eq!(
        follow(&server, "/events").next("board").unwrap()["fen"],
        "after"
    );
}

#[test]
fn the_page_is_served_whole_with_its_words() {
    let server = server();
    let (status, page) = get(&server, &format!("/?code={CODE}"));
    assert_eq!(status, 200);
    assert!(page.contains("EventSource"));
    assert!(page.contains("\"Red to move\""), "English words");
    assert!(page.contains("\"红方走棋\""), "simplified Chinese words");
    assert!(page.contains("\"紅方走棋\""), "traditional Chinese words");
    assert!(
        page.contains("\"The class is full\""),
        "the page can say why it is refused"
    );
    assert!(!page.contains("/*WORDS*/"));
    // Nothing is fetched from elsewhere.
    assert!(!page.contains("http://") && !page.contains("https://") && !page.contains("src="));
}

#[test]
fn every_route_needs_the_join_code() {
    let server = server();
    for route in ["/", "/state", "/events"] {
        assert_eq!(get(&server, route).0, 401, "{route} without a code");
        assert_eq!(
            get(&server, &format!("{route}?code=0000")).0,
            401,
            "{route}"
        );
    }
    assert_eq!(get(&server, &format!("/state?code={CODE}")).0, 200);
}

#[test]
fn only_the_three_routes_answer_and_only_to_get() {
    let server = server();
    server.publish(board("kept", &[]));
    for path in [
        "/index.html",
        "/../../etc/passwd",
        "/state/x",
        "/favicon.ico",
    ] {
        assert_eq!(
            get(&server, &format!("{path}?code={CODE}")).0,
            404,
            "{path}"
        );
    }
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        let raw = format!(
            "{method} /state?code={CODE} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
        );
        assert_eq!(exchange(&server, raw.as_bytes()).0, 405, "{method}");
    }
    // Nothing sent changed what is shown.
    let (_, body) = get(&server, &format!("/state?code={CODE}"));
    assert!(body.contains("\"fen\":\"kept\""), "{body}");
}

#[test]
fn an_address_that_guesses_codes_is_turned_away() {
    let server = server();
    for guess in 0..MAX_WRONG_CODES {
        let (status, _) = get(&server, &format!("/state?code={guess:04}"));
        assert_eq!(status, 401);
    }
    // Now even the right code is refused for a while.
    assert_eq!(get(&server, &format!("/state?code={CODE}")).0, 429);
}

#[test]
fn a_large_body_is_refused() {
    let server = server();
    let body = "x".repeat(2000);
    let raw = format!(
        "GET /state?code={CODE} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    assert_eq!(exchange(&server, raw.as_bytes()).0, 413);
    let small = format!(
        "GET /state?code={CODE} HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123456789"
    );
    assert_eq!(exchange(&server, small.as_bytes()).0, 200);
}

#[test]
fn the_class_takes_two_hundred_students_and_tells_the_next_it_is_full() {
    let server = server();
    let mut students: Vec<Stream> = (0..MAX_STUDENTS)
        .map(|_| follow(&server, "/events"))
        .collect();
    assert!(students.iter().all(|s| s.status == 200));
    assert_eq!(server.students(), MAX_STUDENTS);
    let (status, message) = get(&server, &format!("/events?code={CODE}"));
    assert_eq!(status, 503);
    assert!(message.contains("full"), "{message}");
    // One leaves: a place is free again once the server has seen the connection close.
    drop(students.pop());
    let mut tries = 0;
    while server.students() == MAX_STUDENTS && tries < 1000 {
        std::thread::sleep(Duration::from_millis(10));
        tries += 1;
    }
    assert_eq!(follow(&server, "/events").status, 200);
}

#[test]
fn a_stalled_page_skips_to_the_newest_board_and_holds_no_one_up() {
    let server = server();
    let mut stalled = follow(&server, "/events");
    let mut big = board("start", &[]);
    // Each board larger than half of what loopback's socket buffers hold for a page that
    // reads nothing (about 4 MB of send buffer here), so the count below does not depend on
    // how the writer and the publisher happen to interleave: with smaller boards a busy
    // machine let the writer keep pace until the buffers filled (17 of 200 KB).
    big.svg = "x".repeat(2_500_000);
    for n in 0..100 {
        big.fen = format!("board {n}");
        server.publish(big.clone());
    }
    let mut reader = follow(&server, "/events");
    assert_eq!(reader.next("board").unwrap()["fen"], "board 99");
    // The stalled page, reading at last, gets far fewer than the 100 boards.
    let mut seen = 0;
    loop {
        let fen = stalled.next("board").unwrap()["fen"].clone();
        seen += 1;
        if fen == "board 99" {
            break;
        }
    }
    assert!(seen < 10, "{seen} boards");
}

/// A server whose streams ping after `every` of quiet.
fn beating(every: Duration) -> ClassServer {
    server_with(Limits {
        heartbeat: every,
        ..Limits::default()
    })
}

#[test]
fn both_streams_ping_first_and_after_each_quiet_heartbeat() {
    let server = beating(Duration::from_millis(200));
    server.publish(board("now", &[]));
    for (path, name) in [("/events", "board"), ("/quiz", "quiz")] {
        let mut stream = follow(&server, path);
        assert_eq!(stream.status, 200, "{path}");
        let every = serde_json::json!({"every": 200});
        // The heartbeat first, so the page sizes its watchdog at once; then what the
        // stream is for; then, nothing changing, a ping.
        let events: Vec<_> = (0..3).map(|_| stream.next_event().unwrap()).collect();
        assert_eq!(events[0], ("ping".to_owned(), every.clone()), "{path}");
        assert_eq!(events[1].0, name, "{path}");
        assert_eq!(events[2], ("ping".to_owned(), every), "{path}");
    }
}

#[test]
fn a_stalled_stream_sends_nothing_more_and_a_new_one_flows() {
    let server = beating(Duration::from_millis(100));
    let mut stalled = follow(&server, "/events");
    assert_eq!(stalled.next("board").unwrap()["fen"], "");
    server.stall_streams();
    server.publish(board("after", &[]));
    let mut fresh = follow(&server, "/events");
    assert_eq!(fresh.next("board").unwrap()["fen"], "after");
    assert!(fresh.next("ping").is_some());
    // The stalled one says nothing for many heartbeats, its connection still open; at
    // most the ping or board it was already waiting for gets through.
    let socket = stalled.reader.get_ref();
    socket
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let mut seen = 0;
    while stalled.next_event().is_some() {
        seen += 1;
    }
    assert!(seen <= 1, "{seen} events after the stall");
    assert_eq!(server.students(), 2, "the stalled page is still connected");
}

#[test]
fn stopping_ends_every_connection() {
    let server = server();
    let mut stream = follow(&server, "/events");
    assert!(stream.next("board").is_some());
    let address = server.address();
    drop(server);
    assert!(stream.next("board").is_none());
    assert!(TcpStream::connect(address).is_err());
}

#[test]
fn the_board_shows_the_moves_to_the_cursor_and_the_line_on() {
    let mut state = State::new(Settings::default());
    let record = &mut state.study.record;
    let first = record
        .add_move(record.root(), "h2e2".parse().unwrap())
        .unwrap();
    let second = record.add_move(first, "h9g7".parse().unwrap()).unwrap();
    record.set_comment(first, "the central cannon").unwrap();
    record
        .toggle_arrow(
            first,
            chuhe_core::record::Arrow {
                from: "b0".parse().unwrap(),
                to: "c2".parse().unwrap(),
                color: chuhe_core::record::MarkColor::Green,
            },
        )
        .unwrap();
    state.study.cursor = first;
    state.refresh();
    let shown = board_of(&state);
    assert_eq!(shown.ply, 1);
    assert_eq!(shown.line.len(), 2);
    assert_eq!(shown.line[0].iccs, "h2e2");
    assert_eq!(shown.line[0].text, "炮二平五");
    assert_eq!(shown.line[0].comment, "the central cannon");
    assert_eq!(shown.last_move.as_deref(), Some("h2e2"));
    assert_eq!(shown.side, "black");
    assert_eq!(shown.fen, state.study.derived.position.to_string());
    assert!(shown.svg.starts_with("<svg"));
    // The arrow is drawn in the green of the marks.
    let [r, g, b, _] = rgba(
        state
            .settings
            .theme
            .theme()
            .mark(chuhe_core::record::MarkColor::Green),
    );
    assert!(shown.svg.contains(&format!("#{r:02x}{g:02x}{b:02x}")));
    let _ = second;
}

#[test]
fn the_app_sends_the_board_only_when_it_changed() {
    let mut state = State::new(Settings::default());
    let mut class = Class::default();
    class
        .start(
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            0,
            CODE,
            &I18n::new(Language::En),
            egui::Context::default(),
        )
        .unwrap();
    class.follow(&state);
    let server = class.server.as_ref().unwrap();
    assert_eq!(
        server.board.borrow().fen,
        state.study.derived.position.to_string()
    );
    let record = &mut state.study.record;
    let node = record
        .add_move(record.root(), "h2e2".parse().unwrap())
        .unwrap();
    state.study.cursor = node;
    state.study.edits += 1;
    state.refresh();
    class.follow(&state);
    let server = class.server.as_ref().unwrap();
    assert_eq!(server.board.borrow().last_move.as_deref(), Some("h2e2"));
    // Unchanged: nothing is sent (the receivers see no change).
    let mut watcher = server.board.subscribe();
    class.follow(&state);
    assert!(!watcher.has_changed().unwrap());
    watcher.mark_unchanged();
}

#[test]
fn a_colour_brighter_than_its_cover_is_drawn_solid_in_its_hue() {
    // The light theme's last move: egui adds it to the board under it.
    let last_move = egui::Color32::from_rgba_premultiplied(0x20, 0x60, 0xc0, 0x60);
    assert_eq!(rgba(last_move), [0x20, 0x60, 0xc0, 0xff]);
    let see_through = egui::Color32::from_rgba_unmultiplied(200, 40, 40, 128);
    assert_eq!(rgba(see_through), see_through.to_srgba_unmultiplied());
    assert_eq!(rgba(egui::Color32::BLACK), [0, 0, 0, 255]);
}

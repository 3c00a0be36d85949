//! The quiz's routes against a plain HTTP client over loopback.

use super::super::ClassServer;
use super::super::test_client::{CODE, exchange, follow, get, post, server};
use super::*;

fn token(server: &ClassServer) -> String {
    let (status, body) = get(server, &format!("/join?code={CODE}"));
    assert_eq!(status, 200);
    let json: serde_json::Value = serde_json::from_str(&body).unwrap();
    json["token"].as_str().unwrap().to_owned()
}

fn send(server: &ClassServer, token: &str, name: &str, question: u64, mv: &str) -> u16 {
    let body = serde_json::json!({"token": token, "name": name, "question": question, "move": mv});
    post(server, &body.to_string()).0
}

fn look() -> Look {
    Look {
        theme: crate::theme::ThemeChoice::default(),
        traditional: false,
    }
}

/// Asks question `id` on the start position.
fn ask(server: &ClassServer, id: u64) {
    let position = Position::startpos();
    let shown = QuizShown::new(id, quiz::Kind::BestMove, "", &position, &look(), &|m| {
        format!("move {m}")
    });
    server
        .quiz
        .ask(shown, position.legal_moves().iter().copied().collect());
}

fn state(server: &ClassServer) -> serde_json::Value {
    let (status, body) = get(server, &format!("/state?code={CODE}"));
    assert_eq!(status, 200);
    serde_json::from_str::<serde_json::Value>(&body).unwrap()["quiz"].clone()
}

#[test]
fn a_student_answers_once_and_a_second_answer_is_refused() {
    let server = server();
    ask(&server, 1);
    let (li, wang) = (token(&server), token(&server));
    assert_ne!(li, wang);
    assert_eq!(send(&server, &li, "Li", 1, "h2e2"), 200);
    // The same page under another name, another page under the same name.
    assert_eq!(send(&server, &li, "Zhang", 1, "b0c2"), 409);
    assert_eq!(send(&server, &wang, "  li ", 1, "b0c2"), 409);
    assert_eq!(send(&server, &wang, "Wang", 1, "b0c2"), 200);
    let arrived = server.quiz.arrived();
    let names: Vec<(&str, String)> = arrived
        .iter()
        .map(|a| (a.answer.name.as_str(), a.answer.mv.to_string()))
        .collect();
    assert_eq!(
        names,
        [("Li", "h2e2".to_owned()), ("Wang", "b0c2".to_owned())]
    );
    assert!(arrived.iter().all(|a| a.question == 1));
    assert_eq!(state(&server)["answered"], 2);
    // The next question takes answers from everyone again.
    ask(&server, 2);
    assert_eq!(send(&server, &li, "Li", 2, "h2e2"), 200);
}

#[test]
fn an_answer_outside_a_question_is_refused() {
    let server = server();
    let page = token(&server);
    assert_eq!(
        send(&server, &page, "Li", 1, "h2e2"),
        403,
        "no question yet"
    );
    ask(&server, 1);
    assert_eq!(send(&server, &page, "Li", 0, "h2e2"), 403, "an earlier one");
    let mut revealed = QuizShown::new(
        1,
        quiz::Kind::BestMove,
        "",
        &Position::startpos(),
        &look(),
        &|m| m.to_string(),
    );
    revealed.revealed = Some(Revealed {
        answer: vec!["h2e2".into()],
        moves: vec!["h2e2".into()],
        svg: String::new(),
        chart: Vec::new(),
        scores: Vec::new(),
    });
    server.quiz.update(revealed);
    assert_eq!(send(&server, &page, "Li", 1, "h2e2"), 403, "revealed");
    ask(&server, 2);
    server.quiz.close();
    assert_eq!(send(&server, &page, "Li", 2, "h2e2"), 403, "closed");
    assert!(server.quiz.arrived().is_empty());
}

#[test]
fn an_answer_needs_a_token_this_class_gave_and_a_legal_move() {
    let server = server();
    ask(&server, 1);
    let page = token(&server);
    assert_eq!(
        send(&server, &format!("0-{:016x}", 42), "Li", 1, "h2e2"),
        401
    );
    assert_eq!(send(&server, "", "Li", 1, "h2e2"), 401);
    let (number, _) = page.split_once('-').unwrap();
    assert_eq!(
        send(
            &server,
            &format!("{number}-0000000000000000"),
            "Li",
            1,
            "h2e2"
        ),
        401,
        "a forged signature"
    );
    assert_eq!(send(&server, &page, "Li", 1, "h2e5"), 400, "illegal");
    assert_eq!(send(&server, &page, "Li", 1, "zz"), 400, "not a move");
    assert_eq!(post(&server, "{\"token\": 1}").0, 400, "not an answer");
    assert_eq!(post(&server, "not json").0, 400);
    // Asking for a token or the question is a GET; answering is a POST only.
    assert_eq!(get(&server, &format!("/answer?code={CODE}")).0, 405);
    let raw = format!(
        "POST /join?code={CODE} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    assert_eq!(exchange(&server, raw.as_bytes()).0, 405);
    // And the join code is needed as everywhere.
    let raw = "POST /answer?code=0000 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}";
    assert_eq!(exchange(&server, raw.as_bytes()).0, 401);
    assert!(server.quiz.arrived().is_empty());
    assert_eq!(send(&server, &page, "Li", 1, "h2e2"), 200);
}

#[test]
fn a_question_takes_as_many_answers_as_the_class_has_places() {
    let server = server();
    ask(&server, 1);
    for n in 0..super::super::MAX_STUDENTS {
        assert_eq!(
            send(&server, &token(&server), &format!("s{n}"), 1, "h2e2"),
            200
        );
    }
    assert_eq!(send(&server, &token(&server), "one more", 1, "h2e2"), 503);
    assert_eq!(server.quiz.arrived().len(), super::super::MAX_STUDENTS);
}

#[test]
fn names_are_plain_text_and_capped() {
    let server = server();
    ask(&server, 1);
    let hostile = "<img src=x>&\"'</b>";
    assert!(hostile.chars().count() <= quiz::MAX_NAME_CHARS);
    assert_eq!(send(&server, &token(&server), hostile, 1, "h2e2"), 200);
    let long = "长".repeat(quiz::MAX_NAME_CHARS + 1);
    assert_eq!(send(&server, &token(&server), &long, 1, "h2e2"), 400);
    assert_eq!(send(&server, &token(&server), "a\u{7}b", 1, "h2e2"), 400);
    assert_eq!(send(&server, &token(&server), "   ", 1, "h2e2"), 400);
    // A name too big for the body cap is refused before it is read.
    let huge = "x".repeat(2000);
    assert_eq!(send(&server, &token(&server), &huge, 1, "h2e2"), 413);
    let arrived = server.quiz.arrived();
    assert_eq!(arrived.len(), 1);
    assert_eq!(
        arrived[0].answer.name, hostile,
        "kept as typed, not altered"
    );
    // The page sets names as text: the only markup it puts in is the app's own board
    // picture.
    let (_, page) = get(&server, &format!("/?code={CODE}"));
    for line in page.lines().filter(|l| l.contains("innerHTML")) {
        assert!(line.contains(".svg"), "{line}");
    }
    assert!(page.contains("s.name"), "the page shows the names");
}

#[test]
fn the_state_and_the_stream_show_the_open_question() {
    let server = server();
    assert_eq!(state(&server), serde_json::Value::Null);
    let mut events = follow(&server, "/quiz");
    let mut next = move || events.next("quiz").expect("the stream went on");
    assert_eq!(next(), serde_json::Value::Null);
    ask(&server, 7);
    let shown = next();
    assert_eq!(shown["id"], 7);
    assert_eq!(shown["kind"], "best");
    // The start position's 44 moves, written as the teacher writes them.
    assert_eq!(shown["legal"].as_array().unwrap().len(), 44);
    assert!(
        shown["legal"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"iccs": "h2e2", "text": "move h2e2"}))
    );
    assert_eq!(shown["points"].as_object().unwrap().len(), 90);
    assert!(shown["svg"].as_str().unwrap().starts_with("<svg"));
    let quiz = state(&server);
    assert_eq!(quiz["id"], 7);
    assert_eq!(quiz["open"], true);
    assert_eq!(quiz["fen"], Position::startpos().to_string());
    assert_eq!(quiz["answered"], 0);
    assert_eq!(send(&server, &token(&server), "Li", 7, "h2e2"), 200);
    assert_eq!(next()["answered"], 1);
    assert_eq!(state(&server)["answered"], 1);
    server.quiz.close();
    assert_eq!(next(), serde_json::Value::Null);
    assert_eq!(state(&server), serde_json::Value::Null);
}

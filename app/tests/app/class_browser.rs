//! The student page in a real browser: Debian's headless chromium, driven over the DevTools
//! protocol (a WebSocket to its debugging port, spoken here in a few lines so no crate is
//! added), shows the teacher's position, follows three moves, shows a comment's rarer
//! characters in the app's font, says it is live while it follows and offline while the
//! class is stopped, follows again after its loading was stopped and after the class was
//! opened again, answers a quiz by clicking a piece and its target, and the answer arrives
//! in the teacher's chart.
//!
//! A page whose streams go silent without closing says it is offline, opens them again
//! and follows the board again.
//!
//! Skipped, saying so, only when no chromium is installed (CI installs it). Every wait has
//! a deadline, so a browser that misbehaves fails the test instead of hanging it. With
//! `CHUHE_PAGE_SHOTS=DIR` it also saves the page live, during the quiz and after the
//! reveal at a phone's and a laptop's size, to look at.

use crate::class_support::*;
use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::*;
use common::{open_in, temp_dir};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The browser, if one is installed: `CHUHE_CHROMIUM`, else `chromium` on the path.
/// When there is none, says that the test is skipped.
fn chromium() -> Option<String> {
    if let Ok(path) = std::env::var("CHUHE_CHROMIUM") {
        return Some(path);
    }
    let found = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("chromium"))
            .find(|p| p.is_file())
            .map(|p| p.display().to_string())
    });
    if found.is_none() {
        println!("skipped: chromium is not installed (apt-get install chromium)");
    }
    found
}

/// The headless browser, ended when dropped.
struct Browser {
    child: Child,
    socket: TcpStream,
    next_id: u64,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.call("Browser.close", serde_json::json!({}));
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    /// Starts the browser at `url` in a `width`×`height` window, and connects to its page.
    fn open(program: &str, profile: &std::path::Path, url: &str) -> Browser {
        let mut child = Command::new(program)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--remote-debugging-port=0",
                "--window-size=390,844",
                "--lang=en-US",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        // Chromium names its debugging port on standard error.
        let stderr = child.stderr.take().unwrap();
        let (tell, told) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(at) = line.find("ws://") {
                    let _ = tell.send(line[at..].trim().to_owned());
                }
            }
        });
        let ws = told
            .recv_timeout(PATIENCE)
            .expect("chromium names its debugging port");
        let port: u16 = ws["ws://127.0.0.1:".len()..]
            .split('/')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        // The page's own socket, from the list of targets.
        let deadline = Instant::now() + PATIENCE;
        let page = loop {
            let (_, list) = http(
                port,
                "GET /json/list HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            );
            let targets: serde_json::Value = serde_json::from_str(&list).unwrap_or_default();
            if let Some(page) = targets
                .as_array()
                .into_iter()
                .flatten()
                .find(|t| t["type"] == "page")
            {
                break page["webSocketDebuggerUrl"].as_str().unwrap().to_owned();
            }
            assert!(Instant::now() < deadline, "no page in {list}");
            std::thread::sleep(Duration::from_millis(100));
        };
        let path = &page[page.find("/devtools").unwrap()..];
        let mut socket = TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], port))).unwrap();
        socket.set_read_timeout(Some(PATIENCE)).unwrap();
        write!(
            socket,
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: Y2h1aGUgY2xhc3MgdGVzdA==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        .unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            socket.read_exact(&mut byte).unwrap();
            head.push(byte[0]);
        }
        assert!(
            head.starts_with(b"HTTP/1.1 101"),
            "{}",
            String::from_utf8_lossy(&head)
        );
        Browser {
            child,
            socket,
            next_id: 0,
        }
    }

    /// Sends one masked text frame.
    fn send(&mut self, text: &str) {
        let payload = text.as_bytes();
        let mut frame = vec![0x81u8];
        match payload.len() {
            n if n < 126 => frame.push(0x80 | n as u8),
            n if n < 65536 => {
                frame.push(0x80 | 126);
                frame.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                frame.push(0x80 | 127);
                frame.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        let mask = [0x5a, 0x17, 0xc3, 0x81];
        frame.extend_from_slice(&mask);
        frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.socket.write_all(&frame).unwrap();
    }

    /// Reads one whole message (fragments joined; pings and other control frames skipped).
    fn receive(&mut self) -> String {
        let mut message = Vec::new();
        loop {
            let mut head = [0u8; 2];
            self.socket.read_exact(&mut head).unwrap();
            let (fin, opcode) = (head[0] & 0x80 != 0, head[0] & 0x0f);
            let mut length = u64::from(head[1] & 0x7f);
            if length == 126 {
                let mut n = [0u8; 2];
                self.socket.read_exact(&mut n).unwrap();
                length = u64::from(u16::from_be_bytes(n));
            } else if length == 127 {
                let mut n = [0u8; 8];
                self.socket.read_exact(&mut n).unwrap();
                length = u64::from_be_bytes(n);
            }
            let mut payload = vec![0u8; length as usize];
            self.socket.read_exact(&mut payload).unwrap();
            assert_ne!(opcode, 8, "the browser closed its socket");
            if opcode >= 8 {
                continue;
            }
            message.extend_from_slice(&payload);
            if fin {
                return String::from_utf8(message).unwrap();
            }
        }
    }

    /// Calls a DevTools method and waits for its result (events on the way are skipped).
    fn call(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        self.next_id += 1;
        let id = self.next_id;
        let call = serde_json::json!({"id": id, "method": method, "params": params});
        self.send(&call.to_string());
        loop {
            let reply: serde_json::Value = serde_json::from_str(&self.receive()).unwrap();
            if reply["id"] == id {
                assert!(reply.get("error").is_none(), "{method}: {reply}");
                return reply["result"].clone();
            }
        }
    }

    /// The value of a script run in the page.
    fn eval(&mut self, script: &str) -> serde_json::Value {
        let result = self.call(
            "Runtime.evaluate",
            serde_json::json!({"expression": script, "returnByValue": true}),
        );
        result["result"]["value"].clone()
    }

    /// Waits until `script` gives true in the page.
    fn wait(&mut self, what: &str, script: &str) {
        let deadline = Instant::now() + PATIENCE;
        while self.eval(script) != serde_json::Value::Bool(true) {
            if Instant::now() >= deadline {
                let page = self.eval("document.body.innerText");
                panic!("the page never showed {what}; it shows {page}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A mouse click at a point of the page's window, as a user's would be.
    fn click_at(&mut self, x: f64, y: f64) {
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                serde_json::json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Clicks the middle of the element `selector` finds.
    fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        self.click_at(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    }

    /// Shows the page at `width`×`height`, as a phone's screen below 600 wide, whatever
    /// the headless window's size.
    fn viewport(&mut self, width: u32, height: u32) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}),
        );
    }

    /// Saves the page as a PNG at `width`×`height`. Taken over DevTools, it does not wait
    /// for the page to finish loading, which a page holding its event streams never does
    /// (chromium's own `--screenshot` with `--virtual-time-budget` waits for ever).
    fn shot(&mut self, path: &std::path::Path, width: u32, height: u32) {
        self.viewport(width, height);
        std::thread::sleep(Duration::from_millis(300));
        let picture = self.call(
            "Page.captureScreenshot",
            serde_json::json!({"format": "png"}),
        );
        std::fs::write(path, base64(picture["data"].as_str().unwrap())).unwrap();
    }
}

/// Decodes standard base64 (the screenshots come so).
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    bytes
        .chunks(4)
        .flat_map(|c| {
            let n = c
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &v)| n | u32::from(v) << (18 - 6 * i));
            let whole = n.to_be_bytes();
            whole[1..c.len()].to_vec()
        })
        .collect()
}

fn http(port: u16, raw: &str) -> (u16, String) {
    let Ok(mut stream) = TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], port))) else {
        return (0, String::new());
    };
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream.write_all(raw.as_bytes()).unwrap();
    // The body by its length: the debugging port keeps the connection open.
    let mut reader = BufReader::new(stream);
    let (mut status, mut length) = (0, 0);
    let mut line = String::new();
    while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
        if status == 0 {
            status = line
                .split(' ')
                .nth(1)
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
        }
        if let Some(n) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = n.trim().parse().unwrap_or(0);
        }
        line.clear();
    }
    let mut body = vec![0u8; length];
    let _ = reader.read_exact(&mut body);
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// The page says it follows the board.
const LIVE: &str = "document.getElementById('status').className === ''";

/// Notes in the page (as `wentOffline`) when its badge next says offline.
const WATCH_OFFLINE: &str = "(() => { window.wentOffline = false; const s = document.getElementById('status'); new MutationObserver(() => { if (s.className === 'offline') window.wentOffline = true; }).observe(s, {attributes: true}); })()";

#[test]
fn a_real_browser_follows_the_board_and_answers_a_quiz() {
    let Some(program) = chromium() else {
        return;
    };
    let dir = temp_dir("class-browser", "quiz");
    let mut harness = open_in(&dir);
    let (port, code) = open_class(&mut harness);
    let url = format!("http://127.0.0.1:{port}/?code={code}");
    let mut browser = Browser::open(&program, &dir.join("profile"), &url);
    browser.viewport(390, 844);
    // The teacher's position.
    let fen = |h: &Harness<'_, ChuheApp>| h.state().state.study.derived.position.to_string();
    let start = fen(&harness);
    browser.wait(
        "the start position",
        &format!(
            "board !== null && board.fen === {start:?} && !!document.querySelector('#board svg')"
        ),
    );
    // Three moves on the teacher's board, each followed by the page.
    for (ply, mv) in ["h2e2", "h9g7", "h0g2"].into_iter().enumerate() {
        apply(
            &mut harness,
            StudyAction::PlayMove(mv.parse().unwrap()).into(),
        );
        let now = fen(&harness);
        browser.wait(
            &format!("move {}", ply + 1),
            &format!("board.fen === {now:?} && document.querySelectorAll('#moves span.move').length === {}", ply + 1),
        );
    }
    let shown: Vec<String> = serde_json::from_value(browser.eval(
        "Array.from(document.querySelectorAll('#moves span.move')).map((s) => s.textContent)",
    ))
    .unwrap();
    assert_eq!(shown, ["炮二平五", "马８进７", "马二进三"]);
    // Following, the page says it is live (it once said offline while it followed).
    browser.wait("the page live", LIVE);
    if let Some(shots) = std::env::var_os("CHUHE_PAGE_SHOTS") {
        let shots = std::path::PathBuf::from(shots);
        browser.shot(&shots.join("live-390x844.png"), 390, 844);
        browser.shot(&shots.join("live-1366x768.png"), 1366, 768);
        browser.viewport(390, 844);
    }
    // A comment in characters the page's own font lacks: they come in its second font.
    let node = harness.state().state.study.cursor;
    apply(
        &mut harness,
        StudyAction::SetComment(node, "鑫淼鹅：三个字".to_owned()).into(),
    );
    browser.wait(
        "the comment's characters in the page's font",
        "board.font !== '' && fonts.shown() === board.font && document.fonts.check('20px \"Chuhe Kai More\"', '鑫淼鹅')",
    );
    // Stopped loading (the Esc key, a headless browser's time limit) ends the page's
    // streams for good as far as the browser goes: the page opens them again.
    browser.eval(WATCH_OFFLINE);
    browser.eval("window.stop()");
    browser.wait(
        "the page live again after its loading stopped",
        &format!("wentOffline && {LIVE}"),
    );
    // The class stopped, the page says it is offline; opened again on the same port with
    // the same code, the page follows it again.
    apply(&mut harness, ClassAction::Stop.into());
    browser.wait(
        "the page offline",
        "document.getElementById('status').className === 'offline'",
    );
    apply(&mut harness, ClassAction::SetPort(port).into());
    apply(&mut harness, ClassAction::SetCode(code.clone()).into());
    apply(&mut harness, ClassAction::Start.into());
    assert_eq!(running(&harness).port, port);
    let now = fen(&harness);
    browser.wait(
        "the page following the class again",
        &format!("{LIVE} && board.fen === {now:?}"),
    );
    // The teacher asks; the page shows the question's board and takes moves.
    harness.get_by_label("找最佳着法").click();
    harness.run();
    browser.wait(
        "the question",
        "document.body.classList.contains('asking') && !!document.querySelector('#quiz-board svg')",
    );
    let points = Follower::join(port, &code, "/quiz").next("quiz")["points"].clone();
    let screen = |browser: &mut Browser, square: &str| -> (f64, f64) {
        let [x, y] = [
            points[square][0].as_f64().unwrap(),
            points[square][1].as_f64().unwrap(),
        ];
        let at = browser.eval(&format!(
            "(() => {{ const m = document.querySelector('#quiz-board svg').getScreenCTM(); return [m.a * {x} + m.c * {y} + m.e, m.b * {x} + m.d * {y} + m.f]; }})()"
        ));
        (at[0].as_f64().unwrap(), at[1].as_f64().unwrap())
    };
    let answer: chuhe_core::Move = "i9h9".parse().unwrap();
    let position = harness.state().state.study.derived.position.clone();
    assert!(position.legal_moves().contains(&answer));
    browser.eval("document.getElementById('quiz-name').focus()");
    browser.call("Input.insertText", serde_json::json!({"text": "小明 <b>"}));
    let (x, y) = screen(&mut browser, "i9");
    browser.click_at(x, y);
    browser.wait(
        "the piece picked",
        "document.querySelectorAll('#quiz-board .quiz-mark').length > 1",
    );
    let (x, y) = screen(&mut browser, "h9");
    browser.click_at(x, y);
    let text = chuhe_core::notation::format_move(&position, answer, chuhe_core::Notation::Chinese);
    browser.wait(
        "the move chosen",
        &format!("document.getElementById('quiz-choice').textContent.endsWith({text:?})"),
    );
    if let Some(shots) = std::env::var_os("CHUHE_PAGE_SHOTS") {
        let shots = std::path::PathBuf::from(shots);
        browser.shot(&shots.join("quiz-390x844.png"), 390, 844);
        browser.shot(&shots.join("quiz-1366x768.png"), 1366, 768);
    }
    browser.click("#quiz-send");
    browser.wait(
        "the answer taken",
        "document.getElementById('quiz-result').textContent === 'Answered: wait for the reveal.'",
    );
    // The answer is in the teacher's chart, under the name as typed.
    wait_for(&mut harness, |app| {
        app.state
            .class
            .quiz
            .question()
            .is_some_and(|q| !q.answers.is_empty())
    });
    let question = question(&harness);
    assert_eq!(question.answers[0].name, "小明 <b>");
    assert_eq!(question.answers[0].mv, answer);
    harness.get_by_label(&text);
    harness.get_by_label_contains("已作答：1/1");
    // Reveal reaches the page too, the name shown as text, once the engine has found the
    // right moves (the page marks them on its board).
    wait_judged(&mut harness);
    harness.get_by_label("揭晓").click();
    harness.run();
    let revealed = quiz_state(&harness)
        .open
        .as_ref()
        .is_some_and(|o| o.revealed);
    assert!(revealed, "揭晓 was clicked");
    browser.wait(
        "the reveal",
        "document.querySelectorAll('#quiz-chart .bar').length > 0",
    );
    // The answer is drawn on the question's board, as an arrow in its green.
    let [r, g, b, _] = chuhe::theme::QUIZ_ANSWER_ARROW.to_srgba_unmultiplied();
    browser.wait(
        "the answer on the board",
        &format!(
            "document.querySelectorAll('#quiz-board svg polygon[fill=\"#{r:02x}{g:02x}{b:02x}\"]').length === 1"
        ),
    );
    let scores = browser.eval("document.getElementById('quiz-scores').textContent");
    assert!(scores.as_str().unwrap().contains("小明 <b>"), "{scores}");
    if let Some(shots) = std::env::var_os("CHUHE_PAGE_SHOTS") {
        let shots = std::path::PathBuf::from(shots);
        browser.shot(&shots.join("reveal-390x844.png"), 390, 844);
        browser.shot(&shots.join("reveal-1366x768.png"), 1366, 768);
    }
    // The page's language switched, the quiz speaks it too.
    browser.eval(
        "(() => { const s = document.getElementById('language'); s.value = 'zh-CN'; s.dispatchEvent(new Event('change')); })()",
    );
    browser.wait(
        "the quiz in Chinese",
        "document.getElementById('quiz-question').textContent === '找最佳着法' && document.getElementById('quiz-result').textContent.startsWith('这次没答对') !== document.getElementById('quiz-result').textContent.startsWith('答对了')",
    );
    if let Some(shots) = std::env::var_os("CHUHE_PAGE_SHOTS") {
        let shots = std::path::PathBuf::from(shots);
        browser.shot(&shots.join("reveal-zh-390x844.png"), 390, 844);
    }
    drop(browser);
    apply(&mut harness, ClassAction::Stop.into());
}

#[test]
fn a_page_whose_stream_stalls_says_it_is_offline_and_follows_again() {
    use chuhe::i18n::{I18n, Language};
    use chuhe::services::class::{ClassServer, Limits, board_of};
    use chuhe::settings::Settings;
    use chuhe::state::State;

    let Some(program) = chromium() else {
        return;
    };
    let dir = temp_dir("class-browser", "stall");
    // A short heartbeat, so the page's watchdog (a few heartbeats) fires within the test.
    let limits = Limits {
        heartbeat: Duration::from_secs(1),
        ..Limits::default()
    };
    let code = "1357";
    let server = ClassServer::start_with(
        SocketAddr::from(([127, 0, 0, 1], 0)),
        code,
        &I18n::new(Language::En),
        None,
        limits,
    )
    .unwrap();
    let mut state = State::new(Settings::default());
    server.publish(board_of(&state));
    let url = format!("http://127.0.0.1:{}/?code={code}", server.address().port());
    let mut browser = Browser::open(&program, &dir.join("profile"), &url);
    let start = state.study.derived.position.to_string();
    browser.wait(
        "the board, live",
        &format!("{LIVE} && board !== null && board.fen === {start:?}"),
    );
    // The server stops sending on the streams the page holds, pings and all, without
    // closing them: the page notices the silence, says it is offline and opens its
    // streams again, which flow.
    browser.eval(WATCH_OFFLINE);
    server.stall_streams();
    browser.wait("the page offline", "wentOffline");
    browser.wait("the page live again", LIVE);
    // What reaches it now comes on a stream it opened after the stall.
    let record = &mut state.study.record;
    let node = record
        .add_move(record.root(), "h2e2".parse().unwrap())
        .unwrap();
    state.study.cursor = node;
    state.refresh();
    server.publish(board_of(&state));
    let now = state.study.derived.position.to_string();
    browser.wait(
        "the move made after the stall",
        &format!("{LIVE} && board.fen === {now:?}"),
    );
    drop(browser);
}

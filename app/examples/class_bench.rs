//! The class under load: a teacher's board and 200 students following it over loopback.
//! The server runs in a child process (this program started again with `--serve`) as it
//! does in the app: a State, the class service publishing it after each move. The parent
//! is the class: one thread a student, each holding the event stream open. For each move
//! it times how long every page takes to get the new board, from the moment the move is
//! asked of the teacher's side (so the figure includes playing the move, drawing the board
//! as SVG and sending it); and it reads the server process's memory before and after the
//! students join.
//!
//! ```text
//! cargo run --release -p chuhe --example class_bench [-- STUDENTS MOVES]
//! ```
//!
//! Goals: p99 from a move to every page's update ≤ 300 ms, the server's memory for 200
//! students ≤ 50 MB.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const CODE: &str = "5150";

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("--serve") {
        serve();
        return;
    }
    let students: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let moves: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(60);

    let mut child = Command::new(std::env::current_exe().expect("this program"))
        .arg("--serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server process");
    let mut teacher = child.stdin.take().unwrap();
    let mut told = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    told.read_line(&mut line).unwrap();
    let address: SocketAddr = line.trim().parse().expect("the server's address");
    std::thread::sleep(Duration::from_millis(300));
    let before = rss_kb(child.id());

    let (seen, arrivals) = mpsc::channel::<(usize, usize, Instant)>();
    let (joined, joins) = mpsc::channel::<()>();
    for student in 0..students {
        let (seen, joined) = (seen.clone(), joined.clone());
        std::thread::Builder::new()
            .stack_size(128 * 1024)
            .spawn(move || follow(student, address, &seen, &joined))
            .unwrap();
    }
    drop(seen);
    for _ in 0..students {
        joins
            .recv_timeout(Duration::from_secs(30))
            .expect("every student joins");
    }
    std::thread::sleep(Duration::from_millis(300));
    let joined_kb = rss_kb(child.id());

    // Per move: when it was asked for, and when each student saw it.
    let mut latencies = Vec::with_capacity(students * moves);
    let mut everyone = Vec::with_capacity(moves);
    let mut missed = 0;
    for ply in 1..=moves {
        let asked = Instant::now();
        writeln!(teacher, "move").unwrap();
        teacher.flush().unwrap();
        let mut got = vec![None; students];
        let mut count = 0;
        let deadline = asked + Duration::from_secs(5);
        while count < students {
            let Ok((student, at_ply, when)) =
                arrivals.recv_timeout(deadline.saturating_duration_since(Instant::now()))
            else {
                break;
            };
            if at_ply == ply && got[student].is_none() {
                got[student] = Some(when.duration_since(asked));
                count += 1;
            }
        }
        missed += students - count;
        let slowest = got.iter().flatten().max().copied().unwrap_or_default();
        everyone.push(slowest);
        latencies.extend(got.into_iter().flatten());
        // Moves a few a second, as a quick teacher's are.
        std::thread::sleep(Duration::from_millis(100));
    }
    let after = rss_kb(child.id());
    writeln!(teacher, "quit").unwrap();
    let _ = child.wait();

    latencies.sort();
    everyone.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let at =
        |v: &[Duration], q: f64| v[((v.len() as f64 * q).ceil() as usize).clamp(1, v.len()) - 1];
    println!("students {students}, moves {moves}, updates missed {missed}");
    println!(
        "move to a page's update: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        ms(at(&latencies, 0.50)),
        ms(at(&latencies, 0.99)),
        ms(at(&latencies, 1.0))
    );
    println!(
        "move to every page's update: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        ms(at(&everyone, 0.50)),
        ms(at(&everyone, 0.99)),
        ms(at(&everyone, 1.0))
    );
    println!(
        "server memory (RSS): {:.1} MB before the students, {:.1} MB with them joined, {:.1} MB after the moves ({:+.1} MB for the students)",
        before as f64 / 1024.0,
        joined_kb as f64 / 1024.0,
        after as f64 / 1024.0,
        (after.max(joined_kb) as f64 - before as f64) / 1024.0
    );
}

/// A student's page: joins, then reports each board's ply as it arrives.
fn follow(
    student: usize,
    address: SocketAddr,
    seen: &mpsc::Sender<(usize, usize, Instant)>,
    joined: &mpsc::Sender<()>,
) {
    let mut stream = TcpStream::connect(address).expect("connect");
    write!(
        stream,
        "GET /events?code={CODE} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    let mut events = BufReader::new(stream);
    let mut line = String::new();
    let mut first = true;
    // The stream's pings (its heartbeat) are not boards.
    let mut board = false;
    loop {
        line.clear();
        match events.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if let Some(name) = line.strip_prefix("event: ") {
            board = name.trim_end() == "board";
            continue;
        }
        let Some(data) = line.strip_prefix("data: ").filter(|_| board) else {
            continue;
        };
        if first {
            first = false;
            let _ = joined.send(());
        }
        // The board's ply, without parsing the whole board (its picture is most of it).
        let ply = data
            .split_once("\"ply\":")
            .and_then(|(_, rest)| {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                digits.parse().ok()
            })
            .unwrap_or(0);
        if seen.send((student, ply, Instant::now())).is_err() {
            return;
        }
    }
}

/// The teacher's side: the app's state and class service; each `move` line on standard
/// input plays a move on the board (a random legal one, the same each run) and lets the
/// class see it, as the app does after every action.
fn serve() {
    use chuhe::i18n::{I18n, Language};
    use chuhe::services::class::Class;
    use chuhe::settings::Settings;
    use chuhe::state::State;
    use std::net::{IpAddr, Ipv4Addr};

    let mut state = State::new(Settings::default());
    let mut class = Class::default();
    let address = class
        .start(
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            0,
            CODE,
            &I18n::new(Language::ZhCn),
            egui::Context::default(),
        )
        .expect("the class opens");
    class.follow(&state);
    println!("{address}");
    let mut random = 0x2545_f491_4f6c_dd1du64;
    for line in std::io::stdin().lines() {
        let Ok(line) = line else { break };
        if line.trim() != "move" {
            break;
        }
        let position = state.study.derived.position.clone();
        let legal = position.legal_moves();
        if legal.is_empty() {
            continue;
        }
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        let mv = legal[(random % legal.len() as u64) as usize];
        let cursor = state.study.cursor;
        if let Ok(node) = state.study.record.add_move(cursor, mv) {
            state.study.cursor = node;
            state.study.edits += 1;
            state.refresh();
        }
        class.follow(&state);
    }
    class.stop();
}

/// A process's resident memory, in kB.
fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

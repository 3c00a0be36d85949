//! The app's own work per frame, without a window or a GPU: the real app is driven in
//! egui_kittest's harness (1200×800, a game opened at its end, the engine idle) and a
//! run of frames is timed. Under callgrind the run is the function `frames`, so an
//! instruction count compares two builds whatever else the machine is doing:
//!
//! ```text
//! cargo build --release -p chuhe --example frame_work
//! target/release/examples/frame_work [--analyse] [--class [--hide-class-window] [--students N]] [FRAMES] [GAME]
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*frame_work*frames*' \
//!     --separate-threads=yes target/release/examples/frame_work 100
//! ```
//!
//! The game defaults to the shared sample the app's measurement script opens. With
//! `--analyse` the engine analyses the position throughout (one thread, 64 MB, as a
//! pinned setting so two machines compare), which is what `app/tools/measure.sh` times;
//! callgrind's `--separate-threads=yes` then keeps the engine's own work out of the
//! UI thread's count. With `--class` a class is open (`chuhe --class`'s way) and 20
//! students (or `--students N`) follow the board over loopback throughout, as
//! `measure.sh`'s `CLASS_PORT`;
//! `--hide-class-window` closes the teacher's class window, so that what serving the
//! class costs the frame is told from what drawing that window costs.

use chuhe::ChuheApp;
use chuhe::actions::{Action, ClassAction, FileAction};
use chuhe::services::storage::Storage;
use egui::{Key, Modifiers, Vec2};
use egui_kittest::Harness;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let analyse = args.iter().any(|a| a == "--analyse");
    let class = args.iter().any(|a| a == "--class");
    let hide_window = args.iter().any(|a| a == "--hide-class-window");
    let mut students = 20;
    if let Some(at) = args.iter().position(|a| a == "--students") {
        let given = args.get(at + 1).and_then(|n| n.parse().ok());
        let Some(given) = given else {
            eprintln!("frame_work: --students wants a number");
            std::process::exit(2);
        };
        students = given;
        args.drain(at..at + 2);
    }
    args.retain(|a| a != "--analyse" && a != "--class" && a != "--hide-class-window");
    let mut args = args.into_iter();
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(300);
    let game = PathBuf::from(
        args.next()
            .unwrap_or_else(|| "../shared/data/formats/xqf_eleeye/SAMPLE.XQF".to_owned()),
    );
    if !game.is_file() {
        eprintln!("frame_work: no game at {}", game.display());
        std::process::exit(2);
    }
    let dir = std::env::temp_dir().join(format!("chuhe-frame-work-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    if analyse {
        std::fs::write(
            dir.join("settings.ron"),
            "(engine: (hash_mb: 64, threads: 1))\n",
        )
        .expect("the settings file");
    }
    let home = dir.clone();
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1200.0, 800.0))
        .build_eframe(move |cc| ChuheApp::with_storage(cc, Storage::in_dir(home.clone())));
    harness.run();
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .apply(&ctx, Action::File(FileAction::Open(game)));
    harness.key_press_modifiers(Modifiers::NONE, Key::End);
    for _ in 0..30 {
        harness.step();
    }
    if class {
        // Port 0: whatever port is free, so two runs side by side do not collide.
        let announced = harness.state_mut().open_class(&ctx, Some(0), None);
        let line = announced.unwrap_or_else(|e| {
            eprintln!("frame_work: no class: {e}");
            std::process::exit(2);
        });
        follow(&line, students);
        if hide_window {
            harness
                .state_mut()
                .apply(&ctx, Action::Class(ClassAction::ToggleWindow));
        }
        for _ in 0..30 {
            harness.step();
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
    if analyse {
        harness.key_press_modifiers(Modifiers::NONE, Key::Space);
        // Lets the engine get past its first shallow lines, so the frames timed draw
        // a full analysis panel as a user sees it.
        for _ in 0..30 {
            harness.step();
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
    let times = frames(&mut harness, count);
    if class {
        let students = harness
            .state()
            .state
            .class
            .running
            .as_ref()
            .map(|c| c.students);
        println!("students {}", students.unwrap_or(0));
    }
    let _ = std::fs::remove_dir_all(&dir);
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "frames {count}\nmedian_frame_ms {median:.3}\nmean_frame_ms {mean:.3}\nmax_frame_ms {:.3}",
        sorted[sorted.len() - 1]
    );
}

/// Starts `students` readers of the class's board stream announced in `line`
/// (`class: http://<address>:<port>/ code <code>`), each on a thread of its own that
/// reads until the process ends.
fn follow(line: &str, students: usize) {
    use std::io::{Read, Write};
    let port = line
        .rsplit_once(':')
        .and_then(|(_, rest)| rest.split('/').next())
        .and_then(|p| p.parse::<u16>().ok());
    let code = line.rsplit(' ').next().unwrap_or_default().to_owned();
    let Some(port) = port else {
        eprintln!("frame_work: cannot read the class's port from {line:?}");
        std::process::exit(2);
    };
    for _ in 0..students {
        let code = code.clone();
        std::thread::spawn(move || {
            let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
                return;
            };
            let _ = write!(
                stream,
                "GET /events?code={code} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
            );
            let mut sink = [0u8; 4096];
            while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
        });
    }
}

/// Runs `count` frames, each timed in milliseconds.
#[inline(never)]
fn frames(harness: &mut Harness<'_, ChuheApp>, count: usize) -> Vec<f64> {
    (0..count.max(1))
        .map(|_| {
            let start = Instant::now();
            harness.step();
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect()
}

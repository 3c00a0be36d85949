//! `chuhe-engine worksheet` driven as a program: a FEN list and a PGN in, a PDF out, the
//! unsolved positions named on standard error and still printed.

use std::path::PathBuf;
use std::process::Command;

fn run(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .arg("worksheet")
        .args(args)
        .output()
        .expect("chuhe-engine runs");
    (
        out.status.success(),
        String::from_utf8(out.stderr).expect("UTF-8 errors"),
    )
}

fn temp(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("chuhe-worksheet-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn pages_and_text(path: &std::path::Path) -> Vec<String> {
    let document = lopdf::Document::load(path).expect("the PDF parses");
    document
        .get_pages()
        .keys()
        .map(|&n| {
            let text = document.extract_text(&[n]).expect("text extracts");
            text.chars().filter(|c| !c.is_whitespace()).collect()
        })
        .collect()
}

// 1. 车二平五 将5平6 2. 车五进七: the unique mate in two.
const MATE_IN_TWO: &str = "4k4/4a4/9/9/9/9/9/9/7R1/3K5 w - - 0 1";
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn positions_from_files_are_solved_or_named_and_all_printed() {
    let dir = temp("solve");
    let fens = dir.join("homework.fen");
    std::fs::write(&fens, format!("{MATE_IN_TWO}\t车的杀法\n{START}\t开局\n")).unwrap();
    let pgn = dir.join("more.pgn");
    std::fs::write(
        &pgn,
        format!("[Event \"棋谱题\"]\n[FEN \"{MATE_IN_TWO}\"]\n[Goal \"mate 2\"]\n\n1. h1e1 e9f9 2. e1e8 *\n"),
    )
    .unwrap();
    let out = dir.join("sheet.pdf");
    let (ok, err) = run(&[
        fens.to_str().unwrap(),
        pgn.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--per-page",
        "2",
        "--title",
        "周末练习",
    ]);
    assert!(ok, "{err}");
    assert!(
        err.contains("not solved: #2") && err.contains(START),
        "{err}"
    );
    assert!(!err.contains("#1") && !err.contains("#3"), "{err}");
    let pages = pages_and_text(&out);
    // Three diagrams at two a page, then one page of answers.
    assert_eq!(pages.len(), 3, "{pages:?}");
    assert!(pages[0].contains("周末练习") && pages[0].contains("1.车的杀法"));
    assert!(pages[0].contains("红先，二步杀") && pages[0].contains("2.开局"));
    assert!(pages[1].contains("3.棋谱题"));
    assert!(
        pages[2].contains("1.车二平五将５平６2.车五进七"),
        "{}",
        pages[2]
    );
    assert!(pages[2].contains("开局红先（未解出）"), "{}", pages[2]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_answers_no_answer_page_and_bad_input_says_where() {
    let dir = temp("bad");
    let fens = dir.join("list.fen");
    std::fs::write(&fens, format!("{MATE_IN_TWO}\n\n9/9 w\n")).unwrap();
    let out = dir.join("sheet.pdf");
    let (ok, err) = run(&[fens.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("list.fen:3: bad FEN"), "{err}");
    assert!(!out.exists());

    std::fs::write(&fens, format!("{MATE_IN_TWO}\n")).unwrap();
    let (ok, err) = run(&[
        fens.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--no-answers",
    ]);
    assert!(ok, "{err}");
    assert_eq!(pages_and_text(&out).len(), 1);

    let (ok, err) = run(&[
        fens.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--per-page",
        "5",
    ]);
    assert!(!ok && err.contains("--per-page \"5\""), "{err}");
    let (ok, err) = run(&[fens.to_str().unwrap()]);
    assert!(!ok && err.contains("-o OUT.pdf"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

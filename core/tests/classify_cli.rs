//! `chuhe-engine classify FILE...` driven as a program: one line per game, numbered across
//! the files, with the ECCO code and names, `-` for a game from a set-up position.

use std::process::Command;

#[test]
fn classify_prints_number_code_opening_and_variation_per_game() {
    let dir = std::env::temp_dir().join(format!("chuhe-classify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pgn");
    std::fs::write(
        &file,
        "[Event \"a\"]\n\n1. h2e2 h9g7 2. h0g2 b9c7 *\n\n\
         [FEN \"4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1\"]\n\n1. i0i1 *\n\n\
         [Event \"c\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 g6g5 4. h0h6 b9c7 5. c3c4 h7i7 *\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .arg("classify")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "1\tC00\t中炮对屏风马\t",
            "2\t-\t\t",
            "3\tC40\t中炮过河车互进七兵对屏风马平炮兑车\t",
        ]
    );
    let without_files = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .arg("classify")
        .output()
        .unwrap();
    assert!(!without_files.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

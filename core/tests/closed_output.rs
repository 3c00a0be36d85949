//! `chuhe-engine` with its output closed early (as by `| head`): it ends quietly, with no
//! panic, whichever subcommand was printing.

use std::io::Read;
use std::process::{Command, Stdio};

/// Runs `chuhe-engine args`, reads the first 600 bytes it prints, closes the pipe and
/// returns what it said on standard error and whether it panicked.
fn read_a_little(args: &[&str]) -> (String, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 600];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    (stderr, status.code())
}

#[test]
fn a_closed_output_ends_the_library_dump_without_a_panic() {
    // The whole document is far larger than a pipe's buffer, so the program is still
    // printing when the reader leaves.
    let whole = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .args(["library", "--json"])
        .output()
        .unwrap();
    assert!(
        whole.stdout.len() > 4 * 65536,
        "{} bytes",
        whole.stdout.len()
    );
    let (stderr, code) = read_a_little(&["library", "--json"]);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Killed by SIGPIPE (no code) or ended on its own; never Rust's panic code.
    assert_ne!(code, Some(101), "{stderr}");
}

//! `chuhe-engine db`: the output contracts of `db import` and `db explore --json`, and a
//! killed import that leaves every batch written before it whole.

use chuhe_core::Position;
use chuhe_core::db::Collection;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn engine() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhe-db-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const TWO_GAMES: &str = "[Red \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n\n\
    1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0\n\n\
    [Red \"丙\"]\n[Black \"丁\"]\n[Result \"1/2-1/2\"]\n\n\
    1. 炮八平五 马２进３ 2. 马八进七 1/2-1/2\n";

#[test]
fn import_prints_its_totals_and_explore_prints_the_json_contract() {
    let dir = temp_dir("contract");
    let folder = dir.join("games");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("two.pgn"), TWO_GAMES).unwrap();
    std::fs::write(
        folder.join("broken.pgn"),
        "[Red \"x\"]\n\n1. 炮二平五 车９进５ *\n",
    )
    .unwrap();
    let db = dir.join("c.chuhedb");
    let out = engine()
        .args(["db", "import"])
        .arg(&db)
        .arg(&folder)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let collection = Collection::open(&db).unwrap();
    let positions = collection.position_count().unwrap();
    // Five positions and four: every position of each main line.
    assert_eq!(positions, 9);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("imported: 2 games, {positions} positions, 1 failed\n")
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("broken.pgn"), "{stderr}");

    for fold in [false, true] {
        let mut cmd = engine();
        cmd.args(["db", "explore"]).arg(&db).args(["--fen"]);
        cmd.args(Position::startpos().to_string().split(' '));
        if fold {
            cmd.arg("--fold-mirror");
        }
        let out = cmd.arg("--json").output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let order: Vec<usize> = [
            "\"fen\"",
            "\"games\"",
            "\"red_wins\"",
            "\"draws\"",
            "\"black_wins\"",
            "\"moves\"",
        ]
        .iter()
        .map(|k| {
            text.find(k)
                .unwrap_or_else(|| panic!("{k} missing: {text}"))
        })
        .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["games"], 2);
        assert_eq!(
            (json["red_wins"].clone(), json["draws"].clone()),
            (1.into(), 1.into())
        );
        let moves = json["moves"].as_array().unwrap();
        if fold {
            // 炮八平五 folds into 炮二平五: one move, played twice.
            assert_eq!(moves.len(), 1, "{text}");
            assert_eq!(moves[0]["move"], "h2e2");
            assert_eq!(moves[0]["games"], 2);
        } else {
            assert_eq!(moves.len(), 2, "{text}");
            let names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
            assert!(names.contains(&"h2e2") && names.contains(&"b2e2"), "{text}");
            assert!(moves.iter().all(|m| m["games"] == 1));
        }
    }

    let out = engine()
        .args(["db", "explore"])
        .arg(&db)
        .args(["--moves", "h2e2", "h9g7", "--json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["games"], 1);
    assert_eq!(json["moves"][0]["move"], "h0g2");
    assert_eq!(json["moves"][0]["red_wins"], 1);

    let out = engine()
        .args(["db", "explore"])
        .arg(&db)
        .args(["--moves", "h2e2", "h2e2", "--json"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("move 2 (h2e2)"));
    drop(collection);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Positions rows and the count kept beside them, and each game's rows against its moves.
fn check_whole(db: &Path) -> u64 {
    let collection = Collection::open(db).unwrap();
    let games = collection.game_count().unwrap();
    let conn = rusqlite::Connection::open(db).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    // The complete runs, and the last one still open.
    let rows: i64 = conn
        .query_row(
            "SELECT (SELECT count(*) FROM positions) + (SELECT count(*) FROM recent)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(rows as u64, collection.position_count().unwrap());
    let mut expected = 0;
    for id in 1..=games as i64 {
        let record = collection.game(id).unwrap();
        let mut pos = record.start().clone();
        let mut seen = std::collections::HashSet::from([pos.hash()]);
        for m in record.main_line_moves() {
            pos.play_unchecked(m);
            seen.insert(pos.hash());
        }
        expected += seen.len() as i64;
    }
    assert_eq!(rows, expected, "every game's positions, and no others");
    games
}

#[test]
fn a_killed_import_keeps_every_batch_written_before_it() {
    let dir = temp_dir("kill");
    let db = dir.join("k.chuhedb");
    let mut child = engine()
        .args(["db", "generate"])
        .arg(&db)
        .args(["--games", "400000", "--seed", "5"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        let written = Collection::open_read_only(&db)
            .ok()
            .and_then(|c| c.game_count().ok())
            .unwrap_or(0);
        if written > 0 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no batch written in five minutes"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Into the next batch, then SIGKILL: no chance to finish or clean up.
    std::thread::sleep(Duration::from_millis(700));
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = check_whole(&db);
    assert!(kept > 0 && kept < 400_000);
    assert_eq!(kept % 4096, 0, "whole batches only: {kept}");
    // The same games again: the ones kept are known, the rest are new.
    let out = engine()
        .args(["db", "generate"])
        .arg(&db)
        .args(["--games", &(kept + 4096).to_string(), "--seed", "5"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("generated: 4096 games"), "{text}");
    assert_eq!(check_whole(&db), kept + 4096);
    std::fs::remove_dir_all(&dir).unwrap();
}

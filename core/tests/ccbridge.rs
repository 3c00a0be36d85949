//! The real 象棋桥 (CCBridge) files of the cchess test data, read in place: every game
//! replays, and each main line, start position and title equals what the cchess library
//! reads (`_expected_values.json` beside them).

use chuhe_core::ccbridge;
use chuhe_core::gamefile;
use chuhe_core::record::{GameResult, Record};
use std::path::PathBuf;
use std::process::Command;

/// The cchess test data in the shared reference data (`$CHUHE_SHARED_DATA`, or
/// `../shared/data` beside the project, as the other readers' tests find it).
fn data_dir() -> PathBuf {
    std::env::var_os("CHUHE_SHARED_DATA")
        .map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
            PathBuf::from,
        )
        .join("formats/walker8088_cchess_testdata")
}

fn expected() -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(data_dir().join("_expected_values.json")).ok()?;
    Some(serde_json::from_str(&text).expect("the expected values are JSON"))
}

fn main_line(record: &Record) -> Vec<String> {
    record
        .main_line_moves()
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn cbr_records_read_as_cchess_reads_them() {
    let Some(expected) = expected() else { return };
    for name in ["test.cbr", "test2.cbr"] {
        let bytes = std::fs::read(data_dir().join(name)).unwrap();
        let record = ccbridge::read_record(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let dump = &expected["cchess_dump"][name];
        let want: Vec<String> = dump["mainline_iccs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(main_line(&record), want, "{name}");
        let fen = record.start().to_string();
        let want_fen = dump["init_fen"].as_str().unwrap();
        assert!(fen.starts_with(want_fen), "{name}: {fen} vs {want_fen}");
        assert_eq!(
            record.headers().get("Title"),
            dump["info"]["title"].as_str(),
            "{name}"
        );
        for (tag, key) in [("Event", "event"), ("Red", "red"), ("Black", "black")] {
            let want = dump["info"][key].as_str().filter(|v| !v.is_empty());
            assert_eq!(record.headers().get(tag), want, "{name} {tag}");
        }
        assert_eq!(
            record.line_count(),
            dump["n_lines"].as_u64().unwrap() as usize,
            "{name}"
        );
    }
    let upstream = expected["upstream_asserted"]["test2.cbr"]["mainline_prefix"]
        .as_str()
        .unwrap();
    assert!(!upstream.is_empty());
}

#[test]
fn cbl_libraries_hold_their_named_games_and_every_game_replays() {
    let Some(expected) = expected() else { return };
    // The 1989 library opens each of its two sections (men's, women's) with a heading: a
    // record with a title and comment, an empty board and no move.
    for (name, headings) in [
        ("1956年全国象棋锦标赛93局.CBL", vec![]),
        ("1989年龙化杯象棋名师邀请赛35局.CBL", vec![1, 22]),
    ] {
        let bytes = std::fs::read(data_dir().join(name)).unwrap();
        let library = ccbridge::read_library(&bytes).unwrap();
        let want = &expected["upstream_asserted"][name];
        assert_eq!(Some(library.name.as_str()), want["name"].as_str());
        assert_eq!(
            library.games.len(),
            want["games"].as_u64().unwrap() as usize,
            "{name}"
        );
        let mut without_moves = Vec::new();
        for (i, game) in library.games.iter().enumerate() {
            let record = game.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
            if record.move_count() == 0 {
                without_moves.push(i + 1);
            }
            assert!(
                record.headers().get("Title").is_some(),
                "{name} game {}",
                i + 1
            );
            if !headings.contains(&(i + 1)) {
                // The players are named in the title too ("初赛 保定邓裕如(红先负)哈尔滨王嘉良"),
                // which tells that the fields are where they are read.
                let title = record.headers().get("Title").unwrap();
                let red = record.headers().get("Red").expect("every game names Red");
                let black = record.headers().get("Black").unwrap_or("-");
                // One game's title and players disagree in the file itself, so either
                // player named in the title will do.
                assert!(
                    title.contains(red.trim()) || title.contains(black.trim()),
                    "{name} game {}: {title} / {red} / {black}",
                    i + 1
                );
                assert!(record.headers().get("Event").is_some());
            }
        }
        assert_eq!(without_moves, headings, "{name}");
        // The game file reader (the app's open) gives the same games.
        let games = gamefile::read(&bytes, None).unwrap();
        assert_eq!(games.len(), library.games.len());
        assert!(games.iter().all(Result::is_ok));
    }
}

#[test]
fn a_cut_library_names_the_game_and_byte_where_it_ends() {
    let Ok(bytes) = std::fs::read(data_dir().join("1956年全国象棋锦标赛93局.CBL")) else {
        return;
    };
    // Cut inside the third game's move tree: two games read, the third fails there.
    let third = 101_952 + 2 * 4096;
    let cut = &bytes[..third + 0x8B0];
    let library = ccbridge::read_library(cut).unwrap();
    assert_eq!(library.games.len(), 3);
    assert!(library.games[..2].iter().all(Result::is_ok));
    let e = library.games[2].as_ref().unwrap_err();
    assert_eq!(e.game, 3);
    assert_eq!(e.kind, ccbridge::CcbridgeErrorKind::Truncated);
    assert!(e.offset > third && e.offset <= cut.len(), "{e}");
    for len in (0..bytes.len()).step_by(997) {
        let _ = ccbridge::read_library(&bytes[..len]);
        let _ = gamefile::read(&bytes[..len], None);
    }
}

#[test]
fn convert_reads_a_cbl_library() {
    let input = data_dir().join("1989年龙化杯象棋名师邀请赛35局.CBL");
    if !input.exists() {
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .arg("convert")
        .arg(&input)
        .args(["--notation", "iccs"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("38 games converted, 0 failed"), "{stderr}");
    let pgn = String::from_utf8_lossy(&out.stdout);
    assert_eq!(pgn.matches("[Title ").count(), 38, "{pgn}");
}

#[test]
fn cbf_records_read_as_cchess_reads_them() {
    let Some(expected) = expected() else { return };
    for name in ["test.cbf", "test2.cbf"] {
        let bytes = std::fs::read(data_dir().join(name)).unwrap();
        let record = ccbridge::read_cbf(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let dump = &expected["cchess_dump"][name];
        let want: Vec<String> = dump["mainline_iccs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(main_line(&record), want, "{name}");
        let fen = record.start().to_string();
        assert!(
            fen.starts_with(dump["init_fen"].as_str().unwrap()),
            "{name}: {fen}"
        );
        assert!(
            record
                .headers()
                .get("Title")
                .is_some_and(|t| t.starts_with("第"))
        );
        // The game file reader (the app's open, convert) takes it by its root element.
        let games = gamefile::read(&bytes, None).unwrap();
        assert_eq!(main_line(&games[0].as_ref().unwrap().record), want);
    }
    let upstream = expected["upstream_asserted"]["test2.cbf"]["mainline_len"]
        .as_u64()
        .unwrap() as usize;
    let bytes = std::fs::read(data_dir().join("test2.cbf")).unwrap();
    assert_eq!(
        ccbridge::read_cbf(&bytes).unwrap().main_line().len(),
        upstream
    );
}

#[test]
fn a_bad_cbf_is_refused_where_it_goes_wrong_never_with_a_panic() {
    let Ok(bytes) = std::fs::read(data_dir().join("test.cbf")) else {
        return;
    };
    for len in 0..bytes.len() {
        let _ = ccbridge::read_cbf(&bytes[..len]);
    }
    let text = String::from_utf8(bytes).unwrap();
    let bad = text.replacen("value=\"70-62\"", "value=\"70-6x\"", 1);
    let e = ccbridge::read_cbf(bad.as_bytes()).unwrap_err();
    assert_eq!(
        e.kind,
        ccbridge::CcbridgeErrorKind::CbfBadMove("70-6x".into())
    );
    assert_eq!(&bad.as_bytes()[e.offset..e.offset + 6], b"<Move ");
    let illegal = text.replacen("value=\"70-62\"", "value=\"70-60\"", 1);
    let e = ccbridge::read_cbf(illegal.as_bytes()).unwrap_err();
    assert!(
        matches!(e.kind, ccbridge::CcbridgeErrorKind::IllegalMove { .. }),
        "{e}"
    );
    let cut = &text[..text.find("</Head>").unwrap()];
    let e = ccbridge::read_cbf(cut.as_bytes()).unwrap_err();
    assert_eq!(e.kind, ccbridge::CcbridgeErrorKind::CbfMissing("</Head>"));
}

/// A title over two lines (a damaged file, found by fuzzing) is read on one line, as every
/// game file keeps its headers, so the game is written as PGN and reads back the same.
#[test]
fn a_header_over_two_lines_is_read_on_one() {
    let bytes = std::fs::read(data_dir().join("test.cbf")).expect("the shared CBF sample");
    let text = String::from_utf8(bytes).unwrap();
    let split = text.replacen("<Name>第一局 ", "<Name>第一局\r\n ", 1);
    assert_ne!(split, text);
    let record = ccbridge::read_cbf(split.as_bytes()).unwrap();
    let title = record.headers().get("Title").unwrap();
    assert_eq!(title, "第一局   屏风马巡河炮抵当头炮局(和)");
    let mut pgn = String::new();
    chuhe_core::pgn::write_game(&record, chuhe_core::notation::Notation::Iccs, &mut pgn);
    assert_eq!(chuhe_core::pgn::read_game(&pgn).unwrap(), record);
}

/// Red wins, Black wins and draws among `records`.
fn result_counts<'a>(records: impl IntoIterator<Item = &'a Record>) -> (usize, usize, usize) {
    let mut counts = (0, 0, 0);
    for record in records {
        match record.headers().result() {
            GameResult::RedWins => counts.0 += 1,
            GameResult::BlackWins => counts.1 += 1,
            GameResult::Draw => counts.2 += 1,
            GameResult::Unknown => {}
        }
    }
    counts
}

/// The result each game's field holds. The 1956 library is known to hold 44 Red wins, 22
/// Black wins and 27 draws; in the 1989 library every game's title says its result
/// ("先胜", "先负", "先和") and the two section headings none.
#[test]
fn cbl_games_carry_the_result_the_record_stores() {
    let bytes = std::fs::read(data_dir().join("1956年全国象棋锦标赛93局.CBL"))
        .expect("the shared CCBridge library");
    let library = ccbridge::read_library(&bytes).unwrap();
    let games: Vec<Record> = library.games.into_iter().map(Result::unwrap).collect();
    assert_eq!(result_counts(&games), (44, 22, 27));

    let bytes = std::fs::read(data_dir().join("1989年龙化杯象棋名师邀请赛35局.CBL")).unwrap();
    let library = ccbridge::read_library(&bytes).unwrap();
    for (i, game) in library.games.iter().enumerate() {
        let record = game.as_ref().unwrap();
        let title = record.headers().get("Title").unwrap();
        let said = if title.contains("先胜") {
            GameResult::RedWins
        } else if title.contains("先负") {
            GameResult::BlackWins
        } else if title.contains("先和") {
            GameResult::Draw
        } else {
            GameResult::Unknown
        };
        assert_eq!(record.headers().result(), said, "game {}: {title}", i + 1);
    }

    // A record and the XML form code the result alike; test2.cbf is a draw, as its title
    // says, and test.cbf (also "(和)" by its title) recorded none.
    for (name, want) in [
        ("test2.cbf", GameResult::Draw),
        ("test.cbf", GameResult::Unknown),
    ] {
        let bytes = std::fs::read(data_dir().join(name)).unwrap();
        let record = ccbridge::read_cbf(&bytes).unwrap();
        assert_eq!(record.headers().result(), want, "{name}");
    }
}

/// `convert` writes each game's result as PGN, and a collection import counts them: from
/// the start position the 1956 library's games show their wins, losses and draws.
#[test]
fn convert_and_import_keep_the_results_of_a_cbl_library() {
    let input = data_dir().join("1956年全国象棋锦标赛93局.CBL");
    assert!(input.exists(), "the shared CCBridge library");
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .arg("convert")
        .arg(&input)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("93 games converted, 0 failed"), "{stderr}");
    let pgn = String::from_utf8(out.stdout).unwrap();
    let games: Vec<Record> = chuhe_core::pgn::read_games(&pgn)
        .map(Result::unwrap)
        .collect();
    assert_eq!(games.len(), 93);
    assert_eq!(result_counts(&games), (44, 22, 27));

    let dir = std::env::temp_dir().join(format!("chuhe-ccbridge-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("c.chuhedb");
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .args(["db", "import"])
        .arg(&db)
        .arg(&input)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut explore = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"));
    explore.args(["db", "explore"]).arg(&db).arg("--fen");
    explore.args(chuhe_core::Position::startpos().to_string().split(' '));
    let out = explore.arg("--json").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let counts = |key: &str| json[key].as_u64().unwrap();
    assert_eq!(
        (counts("red_wins"), counts("black_wins"), counts("draws")),
        (44, 22, 27),
        "{json}"
    );
}

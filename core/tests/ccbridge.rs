//! The real 象棋桥 (CCBridge) files of the cchess test data, read in place: every game
//! replays, and each main line, start position and title equals what the cchess library
//! reads (`_expected_values.json` beside them).

use chuhe_core::ccbridge;
use chuhe_core::gamefile;
use chuhe_core::record::Record;
use std::path::PathBuf;
use std::process::Command;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/data/formats/walker8088_cchess_testdata")
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

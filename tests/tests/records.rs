//! Game records against real files in `../shared/data`: every CCPD, CCGC and master game
//! imports and replays legally, the parallel `xqdb_*` files agree move for move, every XQF
//! opens (or fails for the reason it is broken) and agrees with another implementation's
//! reading, SAMPLE.XQF equals SAMPLE.PGN, and every game survives export and import in
//! each notation.

use chuhe_core::encoding::{self, TextEncoding};
use chuhe_core::notation::Notation;
use chuhe_core::pgn::{self, PgnErrorKind};
use chuhe_core::record::{GameResult, NodeId, Record};
use chuhe_core::xqf::{self, XqfErrorKind};
use chuhe_core::{IllegalReason, Move, SetupProblem};
use chuhe_tests::shared_data;
use std::path::{Path, PathBuf};

/// The notations a PGN file can hold, each checked by the round trips.
const PGN_NOTATIONS: [Notation; 6] = [
    Notation::Chinese,
    Notation::ChineseTraditional,
    Notation::Wxf,
    Notation::IccsPgn,
    Notation::Iccs,
    Notation::YiZiSanMa,
];

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(shared_data(dir))
        .expect("readable directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case(ext))
        })
        .collect();
    v.sort();
    v
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// Every game of a PGN file: the records, and the failures as "game N: error".
fn read_pgn(path: &Path) -> (Vec<Record>, Vec<(usize, pgn::PgnError)>, TextEncoding) {
    let bytes = std::fs::read(path).expect("readable file");
    let decoded = encoding::decode(&bytes);
    let mut ok = Vec::new();
    let mut failed = Vec::new();
    for (i, game) in pgn::read_games(&decoded.text).enumerate() {
        match game {
            Ok(r) => ok.push(r),
            Err(e) => failed.push((i + 1, e)),
        }
    }
    (ok, failed, decoded.encoding)
}

/// Writes `record` in `notation` and reads it back; says what differs.
fn round_trip(record: &Record, notation: Notation) -> Result<(), String> {
    let mut text = String::new();
    pgn::write_game(record, notation, &mut text);
    let back = pgn::read_game(&text).map_err(|e| format!("{notation}: {e}\n{text}"))?;
    if &back == record {
        Ok(())
    } else {
        Err(format!("{notation}: the tree read back differs\n{text}"))
    }
}

fn check_round_trips(records: &[Record], what: &str) {
    let mut failures = Vec::new();
    for (i, r) in records.iter().enumerate() {
        for n in PGN_NOTATIONS {
            if let Err(e) = round_trip(r, n) {
                failures.push(format!("{what} game {}: {e}", i + 1));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} round trips failed; first:\n{}",
        failures.len(),
        failures[0]
    );
}

fn iccs(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

#[test]
fn ccpd_games_import_and_only_the_illegal_set_ups_fail() {
    let mut games = Vec::new();
    let mut failures = Vec::new();
    for path in files("games/ccpd", "pgn") {
        let (ok, failed, encoding) = read_pgn(&path);
        assert_eq!(encoding, TextEncoding::Utf8, "{}", name(&path));
        games.extend(ok);
        failures.extend(failed.into_iter().map(|(n, e)| (name(&path), n, e)));
    }
    assert_eq!(games.len() + failures.len(), 3690, "CCPD holds 3,690 games");
    // Seven opening lines carry a corrupt FEN tag; the data forces these and only these.
    let mut reasons = Vec::new();
    for (file, game, e) in &failures {
        let PgnErrorKind::BadFen(chuhe_core::PositionFenError::Invalid(invalid)) = &e.kind else {
            panic!("{file} game {game}: unexpected failure {e}");
        };
        assert_eq!(file, "開局.utf8.pgn");
        reasons.push((*game, invalid.problems.clone()));
    }
    let games_of = |pred: fn(&SetupProblem) -> bool| -> Vec<usize> {
        reasons
            .iter()
            .filter(|(_, p)| p.iter().any(pred))
            .map(|(g, _)| *g)
            .collect()
    };
    assert_eq!(
        games_of(|p| matches!(p, SetupProblem::MissingGeneral { .. })),
        [68, 100, 207, 226, 240],
        "no red general"
    );
    assert_eq!(failures.len(), 5);
    // Two more put a black advisor on g0 and a red elephant on g1: placements no game
    // reaches but play goes on from, so they import, and an editor would warn of them.
    let warned: Vec<Vec<SetupProblem>> = games
        .iter()
        .map(|g| g.start().to_setup().warnings())
        .filter(|w| !w.is_empty())
        .collect();
    assert_eq!(warned.len(), 2, "{warned:?}");
    assert!(
        warned
            .iter()
            .flatten()
            .all(|w| matches!(w, SetupProblem::UnreachablePoint { .. }))
    );
    let moves: usize = games.iter().map(|g| g.main_line().len()).sum();
    assert!(moves > 100_000, "{moves} moves replayed");
    check_round_trips(&games, "CCPD");
}

#[test]
fn big5_originals_read_like_their_utf8_conversions() {
    let converted: Vec<Record> = files("games/ccpd", "pgn")
        .iter()
        .flat_map(|p| read_pgn(p).0)
        .collect();
    let raw = files("games/ccpd/raw_big5", "pgn");
    assert_eq!(raw.len(), 12);
    for path in raw {
        let (games, failed, encoding) = read_pgn(&path);
        assert_eq!(encoding, TextEncoding::Big5, "{}", name(&path));
        assert!(failed.is_empty() && games.len() == 1, "{}", name(&path));
        let original = &games[0];
        // `對局__…__五羊杯__00000035.pgn` was converted as `Dataset/對局/…/五羊杯/00000035.pgn`.
        let source = format!(
            "Dataset/{}",
            name(&path).trim_end_matches(".pgn").replace("__", "/") + ".pgn"
        );
        let twin = converted
            .iter()
            .find(|r| r.headers().get("SourceFile") == Some(source.as_str()))
            .unwrap_or_else(|| panic!("no converted game from {source}"));
        assert_eq!(twin.start(), original.start(), "{source}");
        assert_eq!(
            twin.main_line_moves(),
            original.main_line_moves(),
            "{source}"
        );
        for (tag, value) in original.headers().iter() {
            assert_eq!(twin.headers().get(tag), Some(value), "{source} {tag}");
        }
    }
}

#[test]
fn ccgc_gb18030_games_import() {
    let paths = files("games/eleeye_ccgc", "pgn");
    assert_eq!(paths.len(), 20);
    let mut games = Vec::new();
    for path in &paths {
        let (ok, failed, encoding) = read_pgn(path);
        assert_eq!(encoding, TextEncoding::Gb18030, "{}", name(path));
        assert!(failed.is_empty(), "{}: {:?}", name(path), failed);
        assert_eq!(ok.len(), 1, "{}", name(path));
        let r = &ok[0];
        // The file name says who won: 先胜 (Red wins), 先负 (Red loses), 先和 (draw).
        let expected = if name(path).contains("先胜") {
            GameResult::RedWins
        } else if name(path).contains("先负") {
            GameResult::BlackWins
        } else {
            GameResult::Draw
        };
        assert_eq!(r.headers().result(), expected, "{}", name(path));
        assert!(r.headers().get("ECCO").is_some_and(|e| e.len() == 3));
        assert!(r.headers().get("Opening").is_some());
        assert!(r.main_line().len() >= 20, "{}", name(path));
        games.extend(ok);
    }
    check_round_trips(&games, "CCGC");
}

#[test]
fn master_games_in_iccs_import() {
    let mut games = Vec::new();
    for (file, count) in [
        ("games/wukong_xqdb/Hu_Ronghua_1391_UCI_games.pgn", 1391),
        ("games/wukong_xqdb/Liu_Dahua_1125_UCI_games.pgn", 1125),
    ] {
        let (ok, failed, _) = read_pgn(&shared_data(file));
        assert!(failed.is_empty(), "{file}: {:?}", failed.first());
        assert_eq!(ok.len(), count, "{file}");
        games.extend(ok);
    }
    assert_eq!(games.len(), 2516);
    check_round_trips(&games, "master");
}

#[test]
fn xqdb_games_give_the_same_moves_in_all_three_notations() {
    let read = |file: &str| {
        let (ok, failed, _) = read_pgn(&shared_data(file));
        assert!(failed.is_empty(), "{file}: {:?}", failed.first());
        ok
    };
    let chinese = read("games/wukong_xqdb/xqdb_traditional.pgn");
    let wxf = read("games/wukong_xqdb/xqdb_international.pgn");
    let iccs_games = read("games/wukong_xqdb/bulk_games_uci.pgn");
    assert_eq!((chinese.len(), wxf.len(), iccs_games.len()), (15, 15, 15));
    let mut differences = Vec::new();
    for i in 0..15 {
        let moves = chinese[i].main_line_moves();
        assert!(moves.len() > 20, "game {}", i + 1);
        assert_eq!(wxf[i].main_line_moves(), moves, "game {} WXF", i + 1);
        let other = iccs_games[i].main_line_moves();
        assert_eq!(other.len(), moves.len(), "game {} ICCS", i + 1);
        for (k, (a, b)) in moves.iter().zip(&other).enumerate() {
            if a != b {
                differences.push((i + 1, k + 1, a.to_string(), b.to_string()));
            }
        }
        assert_eq!(wxf[i].headers(), chinese[i].headers());
    }
    // One move differs, and the ICCS file is the one that is wrong: in game 2, ply 71, Red
    // has pawns on e3 and e5; the Chinese 后兵进一 and the WXF -P+1 both name the rear pawn
    // (e3e4), the ICCS file plays the front one (e5e6). Both continuations are legal.
    assert_eq!(
        differences,
        [(2, 71, "e3e4".to_string(), "e5e6".to_string())]
    );
    check_round_trips(&chinese, "xqdb");
}

/// What another implementation (PyPI cchess) reads from each XQF file.
fn expected_xqf() -> serde_json::Value {
    let text = std::fs::read_to_string(shared_data(
        "formats/walker8088_cchess_testdata/_expected_values.json",
    ))
    .expect("readable");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    json["cchess_dump"].clone()
}

/// The FEN as cchess prints it: board and side only.
fn short_fen(r: &Record) -> String {
    let fen = r.start().to_string();
    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

#[test]
fn every_xqf_opens_or_fails_for_its_stated_reason() {
    let expected = expected_xqf();
    let mut paths = files("formats/walker8088_cchess_testdata", "xqf");
    paths.extend(files("formats/xqf_eleeye", "xqf"));
    assert_eq!(paths.len(), 24);
    let mut compared = 0;
    let mut records = Vec::new();
    for path in &paths {
        let file = name(path);
        let bytes = std::fs::read(path).expect("readable");
        let (lenient, problems) = xqf::read_lenient(&bytes).expect("every header is readable");
        let strict = xqf::read(&bytes);
        match file.as_str() {
            // Broken on purpose: a move from an empty point inside the tree (in WildHouse
            // a variation moves Red twice). The strict reader refuses the file naming the
            // move; the lenient one drops that branch and keeps the rest.
            "BadMoveTest3.xqf" | "WildHouse.xqf" => {
                let e = strict.expect_err(&file);
                let (number, mv) = if file == "WildHouse.xqf" {
                    ("37...", "e7f7")
                } else {
                    ("5...", "e1f0")
                };
                assert_eq!(e.move_number.unwrap().to_string(), number, "{file}");
                assert!(
                    matches!(e.kind, XqfErrorKind::IllegalMove { mv: m, reason: IllegalReason::NoPiece } if m.to_string() == mv),
                    "{file}: {e}"
                );
                assert_eq!(problems, [e], "{file}");
            }
            _ => {
                assert!(problems.is_empty(), "{file}: {problems:?}");
                assert!(strict.as_ref() == Ok(&lenient), "{file}");
            }
        }
        if file.starts_with("Empty") || file.starts_with("NoMove") {
            assert_eq!(lenient.move_count(), 0, "{file} has no moves");
        }
        if let Some(e) = expected.get(&file) {
            compared += 1;
            assert_eq!(
                Some(short_fen(&lenient).as_str()),
                e["init_fen"].as_str(),
                "{file}"
            );
            let main: Vec<String> = e["mainline_iccs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_owned())
                .collect();
            assert_eq!(iccs(&lenient.main_line_moves()), main, "{file}");
            assert_eq!(
                lenient.line_count() as u64,
                e["n_lines"].as_u64().unwrap(),
                "{file}"
            );
            let info = &e["info"];
            for (key, tag) in [
                ("red", "Red"),
                ("black", "Black"),
                ("title", "Title"),
                ("event", "Event"),
            ] {
                assert_eq!(
                    lenient.headers().get(tag),
                    info[key].as_str(),
                    "{file} {tag}"
                );
            }
            assert_eq!(
                Some(lenient.headers().result().as_pgn()),
                info["result"].as_str(),
                "{file}"
            );
        }
        records.push(lenient);
    }
    assert_eq!(compared, 21, "every walker8088 XQF is compared");
    check_round_trips(&records, "XQF");
}

/// The comments of a tree in order, with the moves leading to them.
fn comments(r: &Record) -> Vec<(Vec<Move>, String)> {
    let mut out = vec![(Vec::new(), r.annotation(r.root()).comment.clone())];
    let nodes: Vec<NodeId> = r.descendants(r.root());
    for n in nodes {
        let a = r.annotation(n);
        if !a.comment.is_empty() || !a.comment_before.is_empty() {
            out.push((r.moves_to(n), format!("{}|{}", a.comment_before, a.comment)));
        }
    }
    out
}

#[test]
fn sample_xqf_equals_sample_pgn() {
    let xqf_record =
        xqf::read(&std::fs::read(shared_data("formats/xqf_eleeye/SAMPLE.XQF")).expect("readable"))
            .expect("SAMPLE.XQF reads");
    let (pgn_records, failed, encoding) = read_pgn(&shared_data("formats/xqf_eleeye/SAMPLE.PGN"));
    assert!(failed.is_empty() && pgn_records.len() == 1);
    assert_eq!(encoding, TextEncoding::Gb18030);
    let pgn_record = &pgn_records[0];
    assert_eq!(xqf_record.start(), pgn_record.start());
    assert_eq!(xqf_record.main_line().len(), 75);
    assert_eq!(xqf_record.move_count(), pgn_record.move_count());
    assert_eq!(
        xqf_record.main_line_moves(),
        pgn_record.main_line_moves(),
        "move for move"
    );
    let (xc, pc) = (comments(&xqf_record), comments(pgn_record));
    assert_eq!(xc.len(), 12, "the introduction and 11 move comments");
    assert_eq!(xc, pc, "the same comments on the same moves");
    for tag in ["Event", "Date", "Site", "Red", "Black", "Result"] {
        assert_eq!(
            xqf_record.headers().get(tag),
            pgn_record.headers().get(tag),
            "{tag}"
        );
    }
}

#[test]
fn convert_command_reports_failures_by_file_game_and_move() {
    let dir = std::env::temp_dir().join(format!("chuhe-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.pgn");
    std::fs::write(
        &input,
        "[Event \"good\"]\n1. 炮二平五 马８进７ *\n\n[Event \"bad\"]\n1. 炮二平五 马８进８ *\n",
    )
    .unwrap();
    let mut out = String::new();
    let mut reported = Vec::new();
    let summary = chuhe_core::convert::convert(
        &[input.clone(), dir.join("missing.pgn")],
        chuhe_core::convert::Target::Pgn(Notation::Wxf),
        &mut out,
        |f| reported.push(f.to_string()),
    );
    assert_eq!(summary.converted, 1);
    assert_eq!(summary.failures.len(), 2);
    assert_eq!(summary.to_string(), "1 games converted, 2 failed");
    assert!(
        reported[0].contains("in.pgn: game 2, line 5, move 1...")
            && reported[0].contains("马８进８"),
        "{}",
        reported[0]
    );
    assert!(reported[1].contains("missing.pgn: cannot read the file"));
    assert!(out.contains("1. C2.5 H8+7 *"), "{out}");
    let out_file = dir.join("out.pgn");
    chuhe_core::atomic::write_atomically(&out_file, out.as_bytes()).unwrap();
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), out);
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        2,
        "no temporary left"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

//! The opening library: the tree replays from the start position move by move, every node
//! is fully named and annotated, the sixteen first moves of domain.md §8 are there, and the
//! ECCO classifier agrees with the codes other programs wrote into real game collections
//! (the 《橘中秘》 lines and the 2006 computer championship, and CCPD's master games).
//!
//! The tree and the ECCO table are read from `assets/library/` as the core reads them, so
//! a mistake in the files fails here with the node and the move.

use chuhe_core::convert::read_games;
use chuhe_core::library::openings::ecco::{Ecco, HORIZON};
use chuhe_core::library::openings::{self, BookError, OpeningBook};
use chuhe_core::notation::{Notation, format_move};
use chuhe_core::record::Record;
use chuhe_core::{Move, Position};
use chuhe_tests::shared_data;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn asset(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../assets/library")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn book() -> OpeningBook {
    OpeningBook::from_ron(&asset("openings.ron")).unwrap_or_else(|e| panic!("{e}"))
}

fn table(book: &OpeningBook) -> Ecco {
    Ecco::new(&asset("ecco.ron"), Some(book)).unwrap_or_else(|e| panic!("{e}"))
}

fn mv(iccs: &str) -> Move {
    iccs.parse().unwrap()
}

fn moves(iccs: &str) -> Vec<Move> {
    iccs.split_whitespace().map(mv).collect()
}

#[test]
fn every_ecco_line_is_legal() {
    let entries: Vec<chuhe_core::library::openings::ecco::EccoEntry> =
        ron::from_str(&asset("ecco.ron")).unwrap();
    let mut bad = Vec::new();
    for entry in &entries {
        for line in &entry.lines {
            let mut pos = Position::startpos();
            for text in line.split_whitespace() {
                if text == chuhe_core::library::openings::ecco::SKIP {
                    let mut setup = pos.to_setup();
                    setup.side_to_move = !setup.side_to_move;
                    pos = Position::from_setup(&setup).unwrap();
                    continue;
                }
                match chuhe_core::notation::parse_move(&pos, text, Notation::Chinese) {
                    Ok(m) => pos = pos.play(m).unwrap(),
                    Err(e) => {
                        bad.push(format!("{} {text}: {e}", entry.code));
                        break;
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_built_in_tree_and_table_load() {
    let book = openings::builtin().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(book.nodes.len(), self::book().nodes.len());
    openings::ecco::builtin().unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn every_node_replays_legally_and_is_named_in_three_languages_with_notes() {
    let book = book();
    let codes: HashSet<String> = table(&book)
        .entries
        .iter()
        .map(|e| e.code.clone())
        .collect();
    for node in &book.nodes {
        // Replayed here independently of the loader: each move legal in turn, ending on
        // the node's own position, and the parent's line a prefix of the node's.
        let mut pos = Position::startpos();
        for (i, &m) in node.moves.iter().enumerate() {
            assert_eq!(
                format_move(&pos, m, Notation::Chinese),
                node.moves_chinese[i],
                "{}",
                node.names.en
            );
            pos = pos
                .play(m)
                .unwrap_or_else(|e| panic!("{}: ply {}: {e}", node.names.en, i + 1));
        }
        assert_eq!(pos.to_string(), node.fen, "{}", node.names.en);
        if let Some(p) = node.parent {
            let parent = &book.nodes[p];
            assert!(node.moves.starts_with(&parent.moves));
            assert_eq!(node.moves.len(), parent.moves.len() + node.own_moves);
            assert!(node.own_moves > 0);
        }
        for (what, text) in [
            ("zh-CN name", &node.names.zh_cn),
            ("zh-TW name", &node.names.zh_tw),
            ("English name", &node.names.en),
            ("Chinese note", &node.note.zh),
            ("English note", &node.note.en),
        ] {
            assert!(!text.trim().is_empty(), "{}: no {what}", node.names.en);
        }
        // The Chinese texts are Chinese and the English ones are not.
        assert!(node.names.zh_cn.chars().any(|c| c > '\u{2e80}'));
        assert!(node.names.zh_tw.chars().any(|c| c > '\u{2e80}'));
        assert!(
            !node
                .names
                .en
                .chars()
                .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
        );
        if let Some(code) = &node.ecco {
            assert!(
                codes.contains(code),
                "{}: unknown ECCO {code}",
                node.names.en
            );
        }
    }
}

#[test]
fn the_tree_is_big_and_deep_enough_and_has_the_sixteen_first_moves() {
    let book = book();
    let named = book.nodes.len() - 1;
    let deepest = book.nodes.iter().map(|n| n.depth()).max().unwrap();
    println!("{named} named positions, deepest {deepest} plies");
    assert!(named >= 150, "{named} named positions");
    // Every main system named in the issue reaches at least 8 plies.
    for system in [
        "顺炮",
        "列炮",
        "屏风马",
        "反宫马",
        "单提马",
        "五六炮",
        "五七炮",
        "卒底炮",
        "对兵",
        "中炮进三兵对屏风马",
        "巡河炮",
        "飞相",
        "橘中秘",
    ] {
        let depth = book
            .nodes
            .iter()
            .filter(|n| n.names.zh_cn.contains(system))
            .map(|n| n.depth())
            .max()
            .unwrap_or(0);
        assert!(depth >= 8, "{system}: deepest {depth} plies");
    }
    // domain.md §8: the sixteen first moves for Red, each a child of the root.
    let first: HashSet<Move> = book
        .root()
        .children
        .iter()
        .map(|&c| book.nodes[c].moves[0])
        .collect();
    for m in [
        "h2e2", "g0e2", "c3c4", "h0g2", "h2d2", "b2d2", "f0e1", "h2g2", "h2c2", "h0i2", "a3a4",
        "h2h4", "h2i2", "b2b1", "h2h6", "i0i1",
    ] {
        assert!(first.contains(&mv(m)), "first move {m} is missing");
    }
}

#[test]
fn a_tree_with_an_illegal_or_unreadable_move_is_refused_with_the_node() {
    let tree = |moves: &str| {
        format!(
            r#"(moves: "", names: (zh_cn: "开局", zh_tw: "開局", en: "Root"), note: (zh: "根", en: "root"),
               children: [(moves: "{moves}", names: (zh_cn: "甲", zh_tw: "甲", en: "Child"),
                           note: (zh: "乙", en: "b"))])"#
        )
    };
    assert!(OpeningBook::from_ron(&tree("炮二平五 马8进7")).is_ok());
    match OpeningBook::from_ron(&tree("炮二平五 马8进6")) {
        Err(BookError::BadMove { path, text, .. }) => {
            assert_eq!(path, "Root / Child");
            assert_eq!(text, "马8进6");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        OpeningBook::from_ron(&tree("")),
        Err(BookError::NoMoves { .. })
    ));
    assert!(matches!(
        OpeningBook::from_ron("(moves: 1)"),
        Err(BookError::Syntax(_))
    ));
}

#[test]
fn recognition_finds_the_deepest_named_position_through_transpositions() {
    let book = book();
    let start = Position::startpos();
    // 中炮 马8进7 马二进三 马2进3: Screen Horses, reached in another order.
    let direct = book
        .recognize(&start, &moves("h2e2 h9g7 h0g2 b9c7"))
        .unwrap();
    let transposed = book
        .recognize(&start, &moves("h2e2 b9c7 h0g2 h9g7"))
        .unwrap();
    assert_eq!(book.nodes[direct.node].names.zh_cn, "屏风马");
    assert_eq!(
        direct.node, transposed.node,
        "{}",
        book.nodes[transposed.node].names.en
    );
    // Moves after the book do not lose the name; a game on the left wing is the mirror.
    let longer = book
        .recognize(&start, &moves("h2e2 h9g7 h0g2 b9c7 a3a4 a6a5"))
        .unwrap();
    assert_eq!(
        longer.node, direct.node,
        "{}",
        book.nodes[longer.node].names.en
    );
    assert_eq!(longer.ply, 4);
    let left = book
        .recognize(&start, &moves("b2e2 b9c7 b0c2 h9g7"))
        .unwrap();
    assert!(left.mirrored, "{}", book.nodes[left.node].names.en);
    assert_eq!(left.node, direct.node, "{}", book.nodes[left.node].names.en);
    // No name for a set-up position.
    let setup: Position = "4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1".parse().unwrap();
    assert_eq!(book.recognize(&setup, &[]), None);
}

#[test]
fn search_finds_names_in_every_language_and_codes() {
    let book = book();
    for query in ["屏风马", "屏風馬", "screen horses", "SCREEN", "c00"] {
        let found = book.search(query);
        assert!(
            found.iter().any(|&i| book.nodes[i].names.zh_cn == "屏风马"),
            "{query}"
        );
    }
    assert!(book.search("").is_empty());
    assert!(book.search("no such opening").is_empty());
}

#[test]
fn classification_mirrors_left_wing_games_and_skips_set_up_positions() {
    let book = book();
    let table = table(&book);
    let start = Position::startpos();
    let right = table
        .classify(&start, &moves("h2e2 h9g7 h0g2 b9c7"))
        .unwrap();
    let left = table
        .classify(&start, &moves("b2e2 b9c7 b0c2 h9g7"))
        .unwrap();
    assert_eq!(right.code, "C00");
    assert_eq!(left, right);
    let setup: Position = "4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1".parse().unwrap();
    assert_eq!(table.classify(&setup, &[mv("i0i1")]), None);
    assert_eq!(table.classify(&start, &[]), None);
}

/// Games of `files` that carry an ECCO tag and start from the start position: the tag and
/// the main line.
fn tagged_games(files: &[PathBuf]) -> Vec<(String, Record)> {
    let mut games = Vec::new();
    for file in files {
        let bytes = std::fs::read(file).unwrap();
        for record in read_games(&bytes).into_iter().flatten() {
            let Some(code) = record.headers().get("ECCO").map(str::to_owned) else {
                continue;
            };
            if record.start().hash() == Position::startpos().hash()
                && record.move_count() > 0
                && code.len() == 3
            {
                games.push((code, record));
            }
        }
    }
    games
}

fn files_in(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.to_string_lossy()
                .to_lowercase()
                .ends_with(&extension.to_lowercase())
        })
        .collect();
    files.sort();
    files
}

/// Exact and family agreement of the classifier with the games' tags, printed.
fn agreement(name: &str, games: &[(String, Record)], table: &Ecco) -> (f64, f64) {
    let (mut exact, mut family) = (0, 0);
    for (code, record) in games {
        let moves = record.main_line_moves();
        let got = table
            .classify(record.start(), &moves)
            .map(|c| c.code)
            .unwrap_or_default();
        exact += usize::from(got == *code);
        family += usize::from(got.get(..1) == code.get(..1));
        if got != *code && std::env::var_os("CHUHE_ECCO_MISSES").is_some() {
            let line: Vec<String> = moves.iter().take(HORIZON).map(Move::to_string).collect();
            println!("{name}: tag {code} got {got}: {}", line.join(" "));
        }
    }
    let n = games.len().max(1) as f64;
    let (e, f) = (exact as f64 / n, family as f64 / n);
    println!(
        "{name}: {} games, exact {exact} ({:.1}%), family {family} ({:.1}%)",
        games.len(),
        e * 100.0,
        f * 100.0
    );
    (e, f)
}

#[test]
fn ecco_codes_agree_with_the_manual_and_championship_tags() {
    let book = book();
    let table = table(&book);
    let mut files = files_in(&shared_data("openings/juzhongmi_xqwlight"), ".pgn");
    files.extend(files_in(&shared_data("games/eleeye_ccgc"), ".pgn"));
    let games = tagged_games(&files);
    assert!(games.len() >= 30, "{} games", games.len());
    let (exact, family) = agreement("juzhongmi+ccgc", &games, &table);
    // Held out from the writing of the rules' data apart from the 《橘中秘》 lines in the
    // tree; 94.3% exact and every family when written.
    assert!(family >= 0.95, "family agreement {family}");
    assert!(exact >= 0.9, "exact agreement {exact}");
}

#[test]
fn ecco_codes_agree_with_ccpd_tags() {
    let book = book();
    let table = table(&book);
    let games = tagged_games(&files_in(&shared_data("games/ccpd"), ".utf8.pgn"));
    assert!(games.len() >= 1000, "{} games", games.len());
    let (exact, family) = agreement("ccpd", &games, &table);
    // Never used to write or tune the rules (only to measure them): 66.2% exact and 93.2%
    // of families when written, short of the 95% goal. These floors catch a regression.
    assert!(family >= 0.9, "family agreement {family}");
    assert!(exact >= 0.62, "exact agreement {exact}");
}

#[test]
fn recognition_writes_the_ecco_headers_into_the_pgn() {
    let mut record = Record::default();
    let mut at = record.root();
    for m in moves("h2e2 h9g7 h0g2 b9c7 i0h0 i9h9") {
        at = record.add_move(at, m).unwrap();
    }
    assert!(openings::write_headers(&mut record));
    let mut pgn = String::new();
    chuhe_core::pgn::write_game(&record, Notation::Chinese, &mut pgn);
    assert!(pgn.contains("[ECCO \"C00\"]"), "{pgn}");
    assert!(pgn.contains("[Opening \"中炮对屏风马\"]"), "{pgn}");
    // Written again, nothing changes; the same game read back carries them.
    assert!(!openings::write_headers(&mut record));
    let read = chuhe_core::pgn::read_game(&pgn).unwrap();
    assert_eq!(read.headers().get("ECCO"), Some("C00"));
    // A set-up position has no opening: stale headers go.
    let setup: Position = "4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1".parse().unwrap();
    let mut other = Record::new(setup);
    other.set_header("ECCO", "C00");
    assert!(openings::write_headers(&mut other));
    assert_eq!(other.headers().get("ECCO"), None);
}

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
    let mut out = Vec::new();
    openings::classify_command(&[file.to_string_lossy().into_owned()], &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "1\tC00\t中炮对屏风马\t",
            "2\t-\t\t",
            "3\tC40\t中炮过河车互进七兵对屏风马平炮兑车\t",
        ]
    );
    assert!(openings::classify_command(&[], &mut Vec::new()).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

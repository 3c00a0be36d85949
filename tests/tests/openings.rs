//! The opening library: the tree replays from the start position move by move, every node
//! is fully named and annotated, the sixteen first moves of domain.md §8 are there, and the
//! ECCO classifier agrees with the codes other programs wrote into real game collections
//! (the 《橘中秘》 lines and the 2006 computer championship, and CCPD's master games),
//! which were only measured against, never used to write the rules.
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
fn the_ecco_rules_give_every_code_of_the_table() {
    let book = book();
    let table = table(&book);
    let reachable: HashSet<String> = table.reachable_codes().into_iter().collect();
    let missing: Vec<&str> = table
        .entries
        .iter()
        .map(|e| e.code.as_str())
        .filter(|c| !reachable.contains(*c))
        .collect();
    assert!(missing.is_empty(), "no rule gives {missing:?}");
    // And the table is the 2004 ECCO list, name for name.
    let tsv = std::fs::read_to_string(shared_data("openings/ecco_names_vschess.tsv")).unwrap();
    let listed: Vec<(String, String, String)> = tsv
        .lines()
        .skip(1)
        .map(|l| {
            let mut f = l.split('\t').map(str::to_owned);
            (
                f.next().unwrap_or_default(),
                f.next().unwrap_or_default(),
                f.next().unwrap_or_default(),
            )
        })
        .collect();
    let ours: Vec<(String, String, String)> = table
        .entries
        .iter()
        .map(|e| (e.code.clone(), e.opening.clone(), e.variation.clone()))
        .collect();
    assert_eq!(ours, listed);
}

#[test]
fn ecco_rules_with_a_wrong_move_code_or_use_are_refused() {
    let file = |rules: &str| {
        format!(
            r#"(codes: [(code: "A00", opening: "其他开局", variation: ""),
                        (code: "B00", opening: "中炮局", variation: "")],
                rules: {rules}, defs: {{"x": Use("y"), "y": Use("x")}})"#
        )
    };
    let ok = r#"At(at: Red(1), arms: [(["炮二平五"], Code("B00"))], other: Code("A00"))"#;
    assert!(
        Ecco::new(
            &file(ok).replace(r#""x": Use("y"), "y": Use("x")"#, ""),
            None
        )
        .is_ok()
    );
    for (rules, what) in [
        (ok, "a circle of defs"),
        (
            r#"At(at: Red(1), arms: [(["炮2平5"], Code("B00"))], other: Code("A00"))"#,
            "a black move for Red",
        ),
        (
            r#"At(at: Black(1), arms: [(["马二进三"], Code("B00"))], other: Code("A00"))"#,
            "a red move for Black",
        ),
        (
            r#"At(at: Red(1), arms: [(["炮二平五"], Code("B99"))], other: Code("A00"))"#,
            "an unknown code",
        ),
        (
            r#"At(at: Red(11), arms: [], other: Code("A00"))"#,
            "a turn past the horizon",
        ),
        (r#"Use("z")"#, "a missing def"),
        (r#"Pass"#, "Pass outside a walk"),
    ] {
        let text = if what == "a circle of defs" {
            file(rules)
        } else {
            file(rules).replace(r#""x": Use("y"), "y": Use("x")"#, "")
        };
        assert!(Ecco::new(&text, None).is_err(), "{what} was accepted");
    }
}

#[test]
fn the_built_in_tree_and_table_load() {
    let book = openings::builtin().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(book.nodes.len(), self::book().nodes.len());
    openings::ecco::builtin().unwrap_or_else(|e| panic!("{e}"));
}

/// Simplified characters whose traditional form differs, among the commonest in the notes
/// (pieces, moves, sides, and everyday words).
const SIMPLIFIED_ONLY: &str = "马车帅将进红后过对应开时为这们说门间实现动当头来国从样种发变边卫护连战谱炼续强调击让势败胜阵线简诀兑压双钩机";

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
            ("traditional Chinese note", &node.note.zh_tw),
            ("English note", &node.note.en),
        ] {
            assert!(!text.trim().is_empty(), "{}: no {what}", node.names.en);
        }
        // The Chinese texts are Chinese and the English ones are not.
        assert!(node.names.zh_cn.chars().any(|c| c > '\u{2e80}'));
        assert!(node.names.zh_tw.chars().any(|c| c > '\u{2e80}'));
        // The traditional texts are no copies of the simplified ones: none of the common
        // simplified-only characters (most of them in Xiangqi's own words) is left.
        for text in [&node.names.zh_tw, &node.note.zh_tw] {
            let left: String = text
                .chars()
                .filter(|c| SIMPLIFIED_ONLY.contains(*c))
                .collect();
            assert!(left.is_empty(), "{}: {left} in {text}", node.names.en);
        }
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
    // Every main system reaches at least 8 plies.
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
            r#"(moves: "", names: (zh_cn: "开局", zh_tw: "開局", en: "Root"), note: (zh: "根", zh_tw: "根", en: "root"),
               children: [(moves: "{moves}", names: (zh_cn: "甲", zh_tw: "甲", en: "Child"),
                           note: (zh: "乙", zh_tw: "乙", en: "b"))])"#
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
    // Either script, or a mix of the two, finds the names written in the other.
    for query in ["屏風马", "屏风馬 对", "順炮直车"] {
        assert!(!book.search(query).is_empty(), "{query}");
    }
    assert_eq!(book.search("屏風马"), book.search("屏风马"));
    // ECCO's own names, in either script: 中炮过河车七路马 is ECCO's name for C20, where
    // the tree's name leaves out 中炮.
    for query in ["中炮过河车七路马", "中炮過河車七路馬"] {
        let found = book.search(query);
        assert!(
            found
                .iter()
                .any(|&i| book.nodes[i].ecco.as_deref() == Some("C20")),
            "{query}"
        );
    }
    // Pinyin initials of the Chinese names, in either case.
    for (query, name) in [("pfm", "屏风马"), ("DTP", "当头炮"), ("xrzl", "仙人指路")] {
        assert!(
            book.search(query)
                .iter()
                .any(|&i| book.nodes[i].names.zh_cn == name),
            "{query}"
        );
    }
    assert!(book.search("").is_empty());
    assert!(book.search("no such opening").is_empty());
    assert!(book.search("qqqq").is_empty());
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
    // Never used to write the rules (written from ECCO's published definitions): 100%
    // exact and of families when written.
    assert!(family >= 0.98, "family agreement {family}");
    assert!(exact >= 0.95, "exact agreement {exact}");
}

#[test]
fn ecco_codes_agree_with_ccpd_tags() {
    let book = book();
    let table = table(&book);
    let games = tagged_games(&files_in(&shared_data("games/ccpd"), ".utf8.pgn"));
    assert!(games.len() >= 1000, "{} games", games.len());
    let (exact, family) = agreement("ccpd", &games, &table);
    // Never used to write or tune the rules (only to measure them): 97.7% exact and 100%
    // of families when written. The misses are all in five variation splits where the
    // tags follow other rules than ECCO's published ones (the collection never tags C25,
    // C46 or B56, and has C85/C86 the other way round).
    assert!(family >= 0.99, "family agreement {family}");
    assert!(exact >= 0.95, "exact agreement {exact}");
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
fn every_coded_node_of_the_tree_is_classified_with_its_code() {
    // The tree's codes are labels the browser shows; the rules must give the same code to
    // the node's own line, or the browser and the game headers would disagree.
    let book = book();
    let table = table(&book);
    let start = Position::startpos();
    let wrong: Vec<String> = book
        .nodes
        .iter()
        .filter_map(|n| {
            let code = n.ecco.as_ref()?;
            let got = table.classify(&start, &n.moves)?.code;
            (got != *code).then(|| {
                format!(
                    "{} ({}): tree {code}, rules {got}",
                    n.names.zh_cn,
                    n.moves_chinese.join(" ")
                )
            })
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A line in Chinese notation, as moves from the start.
fn chinese(line: &str) -> Vec<Move> {
    let mut pos = Position::startpos();
    let mut out = Vec::new();
    for text in line.split_whitespace() {
        let m = chuhe_core::notation::parse_move(&pos, text, Notation::Chinese)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        pos = pos.play(m).unwrap();
        out.push(m);
    }
    out
}

#[test]
fn ecco_follows_move_order_transpositions_and_the_wing() {
    let book = book();
    let table = table(&book);
    let start = Position::startpos();
    let code = |line: &str| table.classify(&start, &chinese(line)).unwrap().code;
    // 中炮过河车七路马对屏风马两头蛇 (C20) in ECCO's order and with both sides' moves
    // transposed; a left horse then makes it C21 and a move outside the line does not.
    let c20 = "炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 马八进七 卒3进1";
    assert_eq!(code(c20), "C20");
    assert_eq!(
        code("炮二平五 马8进7 马二进三 马2进3 马八进七 车9平8 车一平二 卒3进1 车二进六 卒7进1"),
        "C20"
    );
    assert_eq!(code(&format!("{c20} 车九进一")), "C21");
    assert_ne!(
        code("炮二平五 马8进7 马二进三 车9平8 车一平二 卒7进1 车二进六 马2进3 兵三进一 卒3进1")
            .as_str(),
        "C20"
    );
    // 列炮: both of Red's rooks out, in either order, make D55; one makes D52 or D54.
    assert_eq!(
        code("炮二平五 马8进7 马二进三 炮2平5 车一平二 马2进3 马八进七 车1平2 车九平八"),
        "D55"
    );
    assert_eq!(
        code("炮二平五 马8进7 马二进三 炮2平5 马八进七 马2进3 车九平八 车1平2 车一平二"),
        "D55"
    );
    assert_eq!(
        code("炮二平五 马8进7 马二进三 炮2平5 车一平二 马2进3 仕四进五"),
        "D52"
    );
    // 飞相转屏风马 needs both horses before any other move.
    assert_eq!(code("相三进五 炮8平5 马二进三 马8进7 马八进七"), "A28");
    assert_eq!(
        code("相三进五 炮8平5 马二进三 马8进7 炮八平六 马2进3 马八进七"),
        "A27"
    );
    // The move before 相七进九 decides 骑河车 (B21).
    assert_eq!(
        code("炮二平五 马8进7 马二进三 炮8平9 马八进七 车9平8 兵七进一 车8进5 相七进九"),
        "B21"
    );
    assert_eq!(
        code("炮二平五 马8进7 马二进三 炮8平9 马八进七 车9平8 兵七进一 卒7进1 相七进九"),
        "B20"
    );
    // 仙人指路 on either wing: 兵七进一 卒7进1 is the mirror of 兵三进一 卒3进1 (对兵局).
    assert_eq!(code("兵七进一 卒7进1"), "E40");
    assert_eq!(code("兵三进一 卒3进1"), "E40");
    // 卒底炮 met by the central cannon: 飞右象 (E14) or another reply (E13).
    assert_eq!(code("兵七进一 炮2平3 炮二平五 象7进5"), "E14");
    assert_eq!(code("兵三进一 炮8平7 炮八平五 象3进5"), "E14");
    assert_eq!(code("兵七进一 炮2平3 炮二平五 马8进7"), "E13");
    // 顺炮直车对横车 with both of Red's pawns pushed (两头蛇) before the rook moves: D28.
    assert_eq!(
        code(
            "炮二平五 炮8平5 马二进三 马8进7 车一平二 车9进1 兵三进一 车9平4 兵七进一 马2进3 马八进七"
        ),
        "D28"
    );
}

#[test]
fn every_chinese_name_has_its_pinyin_initials() {
    // The initials table covers every character of the tree's simplified names and of
    // ECCO's names, with one lower-case letter each.
    let book = book();
    let table = table(&book);
    let pinyin = openings::pinyin_table();
    let mut names: Vec<&str> = book.nodes.iter().map(|n| n.names.zh_cn.as_str()).collect();
    for e in &table.entries {
        names.push(&e.opening);
        names.push(&e.variation);
    }
    let missing: String = names
        .iter()
        .flat_map(|n| n.chars())
        .filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c) && !pinyin.contains_key(c))
        .collect();
    assert!(missing.is_empty(), "no initials for {missing}");
    assert!(pinyin.values().all(char::is_ascii_lowercase));
    assert_eq!(openings::pinyin_initials("中炮对屏风马"), "zpdpfm");
}

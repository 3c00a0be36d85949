//! The notations against independent implementations and the rules' own examples:
//! Fairy-Stockfish's WXF vectors, 4,535 hard cases from real games (CCPD's traditional
//! text, a second library's simplified text, Fairy-Stockfish's WXF), print→parse round
//! trips of every legal move in every notation over many positions (crafted pawn stacks
//! and tandem pieces among them), the WXF's tandem-pawn examples, ambiguity, dialects,
//! errors, and parsers that never panic.

use chuhe_core::notation::{
    Expected, Notation, NotationErrorKind, detect_notation, format_move, parse_any, parse_move,
};
use chuhe_core::{
    IllegalReason, Move, PieceKind, Position, PositionFenError, SetupProblem, Square,
};
use chuhe_tests::shared_data;
use std::hash::{DefaultHasher, Hash, Hasher};

/// A deterministic choice among `n` for the seed `key` (SipHash with fixed keys), so the
/// random games and strings are the same on every run.
fn pick(key: impl Hash, n: usize) -> usize {
    let mut h = DefaultHasher::new();
    key.hash(&mut h);
    (h.finish() % n as u64) as usize
}

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(iccs: &str) -> Move {
    iccs.parse().unwrap()
}

/// The same position turned half a turn with the colours swapped: Black now stands where Red
/// stood. Every side-relative notation must read the same for the mover, except that the
/// Chinese record writes Black's numbers as digits.
fn rotate(fen: &str) -> String {
    let mut parts = fen.split(' ');
    let board = parts.next().unwrap();
    let side = if parts.next() == Some("b") { "w" } else { "b" };
    let rows: Vec<String> = board
        .split('/')
        .rev()
        .map(|row| {
            let mut points = Vec::new();
            for c in row.chars() {
                match c.to_digit(10) {
                    Some(n) => points.extend(std::iter::repeat_n(None, n as usize)),
                    None if c.is_ascii_uppercase() => points.push(Some(c.to_ascii_lowercase())),
                    None => points.push(Some(c.to_ascii_uppercase())),
                }
            }
            let mut out = String::new();
            let mut empty = 0;
            for point in points.into_iter().rev() {
                match point {
                    Some(c) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    format!("{} {side} - - 0 1", rows.join("/"))
}

/// The point a half turn away.
fn turn(sq: Square) -> Square {
    Square::from_coords(8 - sq.file().index(), 9 - sq.rank().index()).unwrap()
}

/// Black's piece characters as Red's, to compare what the two sides write.
fn as_red(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '将' => '帅',
            '士' => '仕',
            '象' => '相',
            '卒' => '兵',
            c => c,
        })
        .collect()
}

/// Positions made for the hard cases: five, four and three pawns on a file, pawns stacked on
/// two files (3 + 2 and 2 + 2 + 1), tandem rooks, cannons, horses, advisors and elephants,
/// and pieces sharing a file where only one can move.
const CRAFTED: [&str; 9] = [
    "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1",
    "3k5/6P2/6P2/6P2/6P2/9/2P6/9/9/4K4 w - - 0 1",
    "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1",
    "5k3/9/2P1P4/2P1P4/9/9/8P/9/9/4K4 w - - 0 1",
    "5k3/3r5/9/3R5/1C7/2B3N2/3R5/1C1A2N2/4K4/2BA5 w - - 0 1",
    "2bak4/4a4/4b4/p1p1P3p/2p1P4/2P1c1P2/P8/1C2N4/3RA1R2/2BAK1B2 w - - 0 1",
    "3ak4/4a4/9/4P4/4P4/9/4P4/9/4A4/3AK4 w - - 0 1",
    "r3kab2/4a4/2n1b4/p1p1p1p1p/9/9/P1P1P1P1P/1CN1B1N2/4A4/R2AK1BR1 w - - 0 1",
    "4k4/4a4/4ba3/4P4/2P1P4/2P6/9/9/4A4/3AK4 w - - 0 1",
];

/// The start position, the perft positions, the crafted positions and their rotations, and
/// positions from random games played from all of them.
fn test_positions() -> Vec<Position> {
    let mut fens: Vec<String> = vec![Position::startpos().to_string()];
    let perft = std::fs::read_to_string(shared_data("perft.tsv")).expect("readable");
    for line in perft.lines().skip(1) {
        if let Some(fen) = line.split('\t').next().filter(|f| !f.is_empty())
            && !fens.iter().any(|f| f == fen)
        {
            fens.push(fen.to_string());
        }
    }
    let json =
        std::fs::read_to_string(shared_data("notation/perft_xiangqi.json")).expect("readable");
    let entries: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    for e in entries.as_array().expect("a list") {
        fens.push(e["fen"].as_str().expect("fen").to_string());
    }
    for fen in CRAFTED {
        fens.push(fen.to_string());
        fens.push(rotate(fen));
    }
    let mut positions: Vec<Position> = fens.iter().map(|f| pos(f)).collect();
    for start in positions.clone() {
        for game in 0..2 {
            let mut p = start.clone();
            for ply in 0..90 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p = p
                    .play(moves[pick((p.hash(), game, ply), moves.len())])
                    .unwrap();
                if ply % 6 == 5 {
                    positions.push(p.clone());
                }
            }
        }
    }
    positions
}

#[test]
fn every_legal_move_round_trips_in_every_notation() {
    let positions = test_positions();
    let mut checked = 0;
    for p in &positions {
        for &m in p.legal_moves().iter() {
            for n in Notation::ALL {
                let text = format_move(p, m, n);
                assert_eq!(parse_move(p, &text, n), Ok(m), "{p} {m} {n}: {text:?}");
                let detected = parse_any(p, &text);
                let expected_n = if n == Notation::ChineseTraditional
                    && text == format_move(p, m, Notation::Chinese)
                {
                    Notation::Chinese
                } else {
                    n
                };
                assert_eq!(detected, Ok((m, expected_n)), "{p} {m} {n}: {text:?}");
                checked += 1;
            }
        }
    }
    assert!(
        positions.len() > 1000 && checked > 200_000,
        "{} positions, {checked} checks",
        positions.len()
    );
}

/// Where the rules want 前/后 (or 中, 一…五), the bare file number (车六进一) names every
/// like piece on the file: it is read as the one move when only one of them can make it,
/// and refused as ambiguous otherwise. The candidates are found here from the printed
/// moves, not from the parser's own search.
#[test]
fn bare_file_numbers_are_shorthand_only_when_one_piece_can_move() {
    let numerals = |color| match color {
        chuhe_core::Color::Red => ['一', '二', '三', '四', '五', '六', '七', '八', '九'],
        chuhe_core::Color::Black => ['１', '２', '３', '４', '５', '６', '７', '８', '９'],
    };
    let suffix = |text: &str| text.chars().rev().take(2).collect::<String>();
    let (mut accepted, mut refused) = (0, 0);
    for p in test_positions() {
        let legal = p.legal_moves();
        for &m in legal.iter() {
            let piece = p.piece_at(m.from).unwrap();
            let shares_file = p
                .squares_of_color(piece.color)
                .filter(|&s| s != m.from && s.file() == m.from.file())
                .any(|s| p.piece_at(s) == Some(piece));
            if !shares_file || matches!(piece.kind, PieceKind::Advisor | PieceKind::Elephant) {
                continue;
            }
            let canonical = format_move(&p, m, Notation::Chinese);
            let number = m.from.file().number_for(piece.color);
            let bare: String = [
                piece.hanzi(),
                numerals(piece.color)[usize::from(number - 1)],
            ]
            .into_iter()
            .chain(canonical.chars().skip(canonical.chars().count() - 2))
            .collect();
            let mut candidates: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|c| {
                    c.from.file() == m.from.file()
                        && p.piece_at(c.from) == Some(piece)
                        && suffix(&format_move(&p, *c, Notation::Chinese)) == suffix(&canonical)
                })
                .collect();
            match parse_move(&p, &bare, Notation::Chinese) {
                Ok(got) => {
                    assert_eq!((got, candidates.len()), (m, 1), "{p} {bare}");
                    accepted += 1;
                }
                Err(e) => {
                    let NotationErrorKind::Ambiguous {
                        candidates: mut got,
                    } = e.kind
                    else {
                        panic!("{p} {bare}: {e}");
                    };
                    got.sort_by_key(|c| (c.from, c.to));
                    candidates.sort_by_key(|c| (c.from, c.to));
                    assert_eq!(got, candidates, "{p} {bare}");
                    refused += 1;
                }
            }
        }
    }
    assert!(
        accepted > 100 && refused > 100,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn rotated_positions_read_the_same_for_the_mover() {
    for fen in CRAFTED {
        let red = pos(fen);
        let black = pos(&rotate(fen));
        for &m in red.legal_moves().iter() {
            let b = Move::new(turn(m.from), turn(m.to));
            assert_eq!(
                format_move(&red, m, Notation::Wxf),
                format_move(&black, b, Notation::Wxf)
            );
            for n in [Notation::ShortRecord, Notation::YiZiSanMa] {
                assert_eq!(
                    format_move(&red, m, n),
                    as_red(&format_move(&black, b, n)),
                    "{fen} {m} {n}"
                );
            }
            let chinese = format_move(&red, m, Notation::Chinese);
            assert_eq!(
                parse_move(&black, &chinese, Notation::Chinese),
                Ok(b),
                "{chinese}"
            );
        }
    }
}

/// Checks that `text` names `m` in `p` (in notation `n`) and that Chuhe writes `m` as `text`.
fn both_ways(p: &Position, m: Move, n: Notation, text: &str) {
    assert_eq!(format_move(p, m, n), text, "{p} {m} {n}");
    assert_eq!(parse_move(p, text, n), Ok(m), "{p} {text}");
}

/// The WXF's "Special cases for tandem pawns" (its examples move each pawn from file 3 to
/// file 4) and their Chinese counterparts.
#[test]
fn official_tandem_pawn_examples() {
    // (II) five pawns on file 3 (g5…g9).
    let five = pos(CRAFTED[0]);
    for (from, wxf, chinese) in [
        ("g9", "++.4", "一兵平四"),
        ("g8", "P+.4", "二兵平四"),
        ("g7", "P3.4", "三兵平四"),
        ("g6", "P-.4", "四兵平四"),
        ("g5", "--.4", "五兵平四"),
    ] {
        let m = mv(&format!("{from}f{}", &from[1..]));
        both_ways(&five, m, Notation::Wxf, wxf);
        both_ways(&five, m, Notation::Chinese, chinese);
    }
    // 前/中/后 and 前二三四五 are read for five as well.
    for (text, from) in [("前兵平四", "g9"), ("中兵平四", "g7"), ("后兵平四", "g5")] {
        let m = mv(&format!("{from}f{}", &from[1..]));
        assert_eq!(parse_move(&five, text, Notation::Chinese), Ok(m), "{text}");
    }
    // (III) four pawns on file 3 (g5…g8).
    let four = pos(CRAFTED[1]);
    for (from, wxf, chinese) in [
        ("g8", "++.4", "一兵平四"),
        ("g7", "P+.4", "二兵平四"),
        ("g6", "P-.4", "三兵平四"),
        ("g5", "--.4", "四兵平四"),
    ] {
        let m = mv(&format!("{from}f{}", &from[1..]));
        both_ways(&four, m, Notation::Wxf, wxf);
        both_ways(&four, m, Notation::Chinese, chinese);
    }
    let err = parse_move(&four, "P3.4", Notation::Wxf).unwrap_err();
    assert!(
        matches!(err.kind, NotationErrorKind::Ambiguous { .. }),
        "{err}"
    );
    // (IV) three pawns on file 3 (g5…g7) and two on file 7 (c5, c6).
    let two_files = pos(CRAFTED[2]);
    for (iccs, wxf, chinese) in [
        ("g7f7", "3+.4", "前三平四"),
        ("g6f6", "33.4", "中三平四"),
        ("g5f5", "3-.4", "后三平四"),
        ("c6d6", "7+.6", "前七平六"),
        ("c5d5", "7-.6", "后七平六"),
    ] {
        both_ways(&two_files, mv(iccs), Notation::Wxf, wxf);
        both_ways(&two_files, mv(iccs), Notation::Chinese, chinese);
    }
    // The older 前兵七平六 and xqbase's 一兵…五兵 (right file first, front to back).
    for (text, iccs) in [
        ("前兵七平六", "c6d6"),
        ("后卒三平四", "g5f5"),
        ("一兵平四", "g7f7"),
        ("三兵平四", "g5f5"),
        ("四兵平六", "c6d6"),
        ("Pa.4", "g7f7"),
        ("Pd.6", "c6d6"),
    ] {
        let n = detect_notation(text).unwrap();
        assert_eq!(parse_move(&two_files, text, n), Ok(mv(iccs)), "{text}");
    }
    // (I) three pawns on one file: the mid pawn keeps the normal notation.
    let three = pos(CRAFTED[6]);
    for (iccs, wxf, chinese) in [
        ("e6d6", "P+.6", "前兵平六"),
        ("e5d5", "P5.6", "中兵平六"),
        ("e3e4", "P-+1", "后兵进一"),
    ] {
        both_ways(&three, mv(iccs), Notation::Wxf, wxf);
        both_ways(&three, mv(iccs), Notation::Chinese, chinese);
    }
}

/// Rule 7.5's example opening, full record and short record; 一字三码 in the same game.
#[test]
fn the_rules_example_game_in_every_notation() {
    let full = [
        "炮二平五",
        "马8进7",
        "马二进三",
        "车9平8",
        "车一平二",
        "炮8进4",
    ];
    let canonical = [
        "炮二平五",
        "马８进７",
        "马二进三",
        "车９平８",
        "车一平二",
        "炮８进４",
    ];
    let short = [
        "炮2 5",
        "马8 7\u{332}",
        "马2 3\u{332}",
        "车9 8",
        "车1 2",
        "炮8 4\u{332}",
    ];
    let sanma = ["炮253", "马873", "马233", "车981", "车121", "炮887"];
    let wxf = ["C2.5", "H8+7", "H2+3", "R9.8", "R1.2", "C8+4"];
    let mut p = Position::startpos();
    for i in 0..full.len() {
        let m = parse_move(&p, full[i], Notation::Chinese).unwrap();
        assert_eq!(format_move(&p, m, Notation::Chinese), canonical[i]);
        both_ways(&p, m, Notation::ShortRecord, short[i]);
        both_ways(&p, m, Notation::YiZiSanMa, sanma[i]);
        both_ways(&p, m, Notation::Wxf, wxf[i]);
        p = p.play(m).unwrap();
    }
}

#[test]
fn fairy_stockfish_wxf_vectors() {
    let text = std::fs::read_to_string(shared_data("notation/fsf_xiangqi_test_vectors.json"))
        .expect("readable");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let mut same = 0;
    let mut deviations = Vec::new();
    for case in json["get_san"].as_array().expect("get_san") {
        if case["notation"] != "WXF" {
            continue;
        }
        let p = pos(case["fen"].as_str().unwrap());
        let m = mv(case["move_iccs"].as_str().unwrap());
        let fsf = case["expected"].as_str().unwrap();
        assert_eq!(parse_move(&p, fsf, Notation::Wxf), Ok(m), "{p} {fsf}");
        let ours = format_move(&p, m, Notation::Wxf);
        match compare_wxf(&p, m, &ours, fsf) {
            WxfAgreement::Same => same += 1,
            d => deviations.push((fsf.to_string(), ours, d)),
        }
    }
    // The five tandem-pawn cases are Fairy-Stockfish's own index form (see compare_wxf).
    assert_eq!(same, 10, "{deviations:?}");
    assert_eq!(deviations.len(), 5, "{deviations:?}");
    assert!(
        deviations
            .iter()
            .all(|d| d.2 == WxfAgreement::PawnIndexForm),
        "{deviations:?}"
    );
    for case in json["get_san_moves"].as_array().expect("get_san_moves") {
        let mut p = pos(case["fen"].as_str().unwrap());
        let moves = case["moves_iccs"].as_array().unwrap();
        let expected = case["expected"].as_array().unwrap();
        for (m, fsf) in moves.iter().zip(expected) {
            let m = mv(m.as_str().unwrap());
            let fsf = fsf.as_str().unwrap();
            assert_eq!(parse_move(&p, fsf, Notation::Wxf), Ok(m));
            assert_eq!(
                compare_wxf(&p, m, &format_move(&p, m, Notation::Wxf), fsf),
                WxfAgreement::Same
            );
            p = p.play(m).unwrap();
        }
    }
}

/// How Chuhe's WXF compares with Fairy-Stockfish's for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WxfAgreement {
    /// The same text, reading FSF's `=` as the WXF's `.`.
    Same,
    /// FSF writes a file number for one of two like pieces on a file when the other one
    /// could not make the same step (its destination would be off the board or out of the
    /// piece's area); the WXF rules and Chuhe write `+`/`-` for tandem pieces always.
    FileForTandem,
    /// FSF numbers tandem pawns from the front (`15=6`: first pawn of file 5) when a file
    /// holds three or more, or two files hold two; the WXF rules use `P+`, `P5`, `P-`, `++`,
    /// `--` and, for two files, the file digit first (`5+`).
    PawnIndexForm,
    /// Anything else: a real disagreement.
    Different,
}

fn compare_wxf(p: &Position, m: Move, ours: &str, fsf: &str) -> WxfAgreement {
    if ours == fsf.replace('=', ".") {
        return WxfAgreement::Same;
    }
    let (o, f): (Vec<char>, Vec<char>) = (ours.chars().collect(), fsf.chars().collect());
    let piece = p.piece_at(m.from).unwrap();
    let on_file = p
        .squares_of_color(piece.color)
        .filter(|&s| s.file() == m.from.file() && p.piece_at(s) == Some(piece))
        .count();
    let dot = |c: char| if c == '=' { '.' } else { c };
    if o.len() != 4 || f.len() != 4 || o[2] != dot(f[2]) || o[3] != f[3] {
        return WxfAgreement::Different;
    }
    let file_digit = char::from(b'0' + m.from.file().number_for(piece.color));
    if on_file == 2 && f[0] == o[0] && f[1] == file_digit && matches!(o[1], '+' | '-') {
        WxfAgreement::FileForTandem
    } else if piece.kind == PieceKind::Pawn && f[0].is_ascii_digit() && f[1] == file_digit {
        // The index must be the pawn's place from the front of its file.
        let ahead = p
            .squares_of_color(piece.color)
            .filter(|&s| {
                s.file() == m.from.file()
                    && p.piece_at(s) == Some(piece)
                    && s.rank().relative_to(piece.color) > m.from.rank().relative_to(piece.color)
            })
            .count();
        if f[0] == char::from(b'1' + ahead as u8) {
            WxfAgreement::PawnIndexForm
        } else {
            WxfAgreement::Different
        }
    } else {
        WxfAgreement::Different
    }
}

#[test]
fn tricky_vectors_from_real_games() {
    let text = std::fs::read_to_string(shared_data("notation/notation_tricky_vectors.tsv"))
        .expect("readable");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (fen_c, iccs_c, source_c, second_c, wxf_c, why_c) = (
        col("fen_before"),
        col("iccs"),
        col("source_chinese"),
        col("cchess_chinese"),
        col("pyffish_wxf"),
        col("why"),
    );
    let mut rows = 0;
    let mut second_texts = 0;
    let mut chinese_same = 0;
    let mut source_shorthand = 0;
    let mut without_general = 0;
    let mut wxf = [0usize; 4];
    let mut problems = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        rows += 1;
        let cols: Vec<&str> = line.split('\t').collect();
        // Two CCPD games go on after a general was taken; such a board is no Xiangqi
        // position, and no move can be read relative to it.
        let p = match cols[fen_c].parse::<Position>() {
            Ok(p) => p,
            Err(PositionFenError::Invalid(e))
                if e.problems
                    .iter()
                    .all(|p| matches!(p, SetupProblem::MissingGeneral { .. })) =>
            {
                without_general += 1;
                continue;
            }
            Err(e) => panic!("{}: {e}", cols[fen_c]),
        };
        let m = mv(cols[iccs_c]);
        let source = cols[source_c];
        let canonical = format_move(&p, m, Notation::Chinese);
        let mut expect = |ok: bool, what: String| {
            if !ok {
                problems.push(format!("{} {m}: {what}", cols[fen_c]));
            }
        };
        expect(
            parse_move(&p, source, Notation::Chinese) == Ok(m),
            format!(
                "source {source}: {:?}",
                parse_move(&p, source, Notation::Chinese)
            ),
        );
        expect(
            parse_any(&p, source).map(|r| r.0) == Ok(m),
            format!("parse_any {source}"),
        );
        // The source is canonical except in the rows marked as shorthand, where Chuhe adds
        // the 前/后 the rules ask for. (CCPD writes 車 馬 炮 for both sides where zh-TW
        // print has 俥 傌 for Red and 砲 for Black.)
        let traditional = format_move(&p, m, Notation::ChineseTraditional);
        let as_ccpd: String = traditional
            .chars()
            .map(|c| match c {
                '俥' => '車',
                '傌' => '馬',
                '砲' => '炮',
                c => c,
            })
            .collect();
        if cols[why_c] == "shorthand" {
            source_shorthand += 1;
            expect(
                as_ccpd != source,
                format!("shorthand {source} printed the same"),
            );
        } else {
            expect(
                as_ccpd == source,
                format!("printed {traditional}, source {source}"),
            );
        }
        let second = cols[second_c];
        if !second.is_empty() {
            second_texts += 1;
            expect(
                parse_move(&p, second, Notation::Chinese) == Ok(m),
                format!("second library {second}"),
            );
            expect(
                canonical == second,
                format!("printed {canonical}, second library {second}"),
            );
            chinese_same += usize::from(canonical == second);
        }
        let fsf = cols[wxf_c];
        expect(
            parse_move(&p, fsf, Notation::Wxf) == Ok(m),
            format!("wxf {fsf}: {:?}", parse_move(&p, fsf, Notation::Wxf)),
        );
        let ours = format_move(&p, m, Notation::Wxf);
        let agreement = compare_wxf(&p, m, &ours, fsf);
        wxf[agreement as usize] += 1;
        expect(
            agreement != WxfAgreement::Different,
            format!("printed {ours}, Fairy-Stockfish {fsf}"),
        );
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert_eq!(rows, 4535);
    assert_eq!(without_general, 2);
    assert_eq!(second_texts, 827);
    assert_eq!(chinese_same, 827);
    println!(
        "{rows} rows, {without_general} without a general ({source_shorthand} shorthand in \
         the source); WXF same {}, file for tandem {}, pawn index {}",
        wxf[0], wxf[1], wxf[2]
    );
    assert_eq!(wxf[WxfAgreement::Different as usize], 0);
}

#[test]
fn ambiguous_text_is_rejected_and_unique_shorthand_accepted() {
    // Two red rooks on file 六 (d6, d3), both free to move sideways to file 四.
    let rooks = pos("5k3/9/9/3R5/9/9/3R5/9/9/4K4 w - - 0 1");
    for (text, n) in [
        ("车六平四", Notation::Chinese),
        ("R6.4", Notation::Wxf),
        ("车6 4", Notation::ShortRecord),
    ] {
        let err = parse_move(&rooks, text, n).unwrap_err();
        assert_eq!(
            err.kind,
            NotationErrorKind::Ambiguous {
                candidates: vec![mv("d6f6"), mv("d3f3")]
            },
            "{text}"
        );
    }
    // 车六进一: both rooks can step forward.
    assert!(matches!(
        parse_move(&rooks, "车六进一", Notation::Chinese)
            .unwrap_err()
            .kind,
        NotationErrorKind::Ambiguous { .. }
    ));
    // 车六进三: the rear rook would land on the front one; only the front rook can.
    assert_eq!(
        parse_move(&rooks, "车六进三", Notation::Chinese),
        Ok(mv("d6d9"))
    );
    assert_eq!(
        format_move(&rooks, mv("d6d9"), Notation::Chinese),
        "前车进三"
    );
    assert_eq!(parse_move(&rooks, "R6+3", Notation::Wxf), Ok(mv("d6d9")));
    // Pawns stacked on two files: a bare 前兵 could be either front pawn.
    let pawns = pos(CRAFTED[3]);
    let err = parse_move(&pawns, "前兵平六", Notation::Chinese).unwrap_err();
    assert_eq!(
        err.kind,
        NotationErrorKind::Ambiguous {
            candidates: vec![mv("e7d7"), mv("c7d7")]
        }
    );
    assert_eq!(
        parse_move(&pawns, "前兵进一", Notation::Chinese)
            .unwrap_err()
            .offset,
        0
    );
    assert_eq!(
        parse_move(&pawns, "前五平六", Notation::Chinese),
        Ok(mv("e7d7"))
    );
    // Two advisors on one file never need 前/后.
    let advisors = pos("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1");
    assert_eq!(
        parse_move(&advisors, "仕六进五", Notation::Chinese),
        Ok(mv("d0e1"))
    );
    assert_eq!(
        parse_move(&advisors, "仕六退五", Notation::Chinese),
        Ok(mv("d2e1"))
    );
    assert_eq!(format_move(&advisors, mv("d2e1"), Notation::Wxf), "A6-5");
}

#[test]
fn dialects_are_read() {
    let start = Position::startpos();
    let cases: [(&str, &str, Notation); 15] = [
        ("炮二平五", "h2e2", Notation::Chinese),
        ("炮2平5", "h2e2", Notation::Chinese),
        ("炮２平５", "h2e2", Notation::Chinese),
        ("砲二平五", "h2e2", Notation::Chinese),
        ("包二平五", "h2e2", Notation::Chinese),
        ("傌二進三", "h0g2", Notation::Chinese),
        ("馬二进三", "h0g2", Notation::Chinese),
        ("马二上三", "h0g2", Notation::Chinese),
        ("C2=5", "h2e2", Notation::Wxf),
        ("c2.5", "h2e2", Notation::Wxf),
        ("Ｃ２＝５", "h2e2", Notation::Wxf),
        ("H2-E2", "h2e2", Notation::Iccs),
        ("h2-e2", "h2e2", Notation::IccsPgn),
        ("Ｈ２Ｅ２", "h2e2", Notation::Iccs),
        ("炮2 5", "h2e2", Notation::ShortRecord),
    ];
    for (text, iccs, n) in cases {
        assert_eq!(parse_move(&start, text, n), Ok(mv(iccs)), "{text}");
    }
    // Black, with Chinese numerals, ASCII digits or lower-case WXF.
    let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    for text in ["马8进7", "马八进七", "馬８進７", "h8+7", "H8+7", "Ｈ８＋７"] {
        let n = detect_notation(text).unwrap();
        assert_eq!(parse_move(&black, text, n), Ok(mv("h9g7")), "{text}");
    }
    // Tandem pieces, with the sign before the letter as well (the wukong files write +P+1).
    let cannons = pos("5k3/9/9/9/3C5/9/3C5/9/9/4K4 w - - 0 1");
    for text in [
        "C+-1",
        "+C-1",
        "c+-1",
        "Ｃ＋－１",
        "前炮退一",
        "炮前退一",
        "前炮退1",
    ] {
        let n = detect_notation(text).unwrap();
        assert_eq!(parse_move(&cannons, text, n), Ok(mv("d5d4")), "{text}");
    }
}

#[test]
fn errors_say_where_and_why() {
    let start = Position::startpos();
    let err = |text: &str, n| parse_move(&start, text, n).unwrap_err();
    let e = err("龙二平五", Notation::Chinese);
    assert_eq!(
        (e.offset, e.kind.clone()),
        (
            0,
            NotationErrorKind::UnexpectedChar {
                found: '龙',
                expected: Expected::Piece
            }
        )
    );
    let e = err("炮二走五", Notation::Chinese);
    assert_eq!((e.offset, e.char_offset()), (6, 2));
    assert!(matches!(
        e.kind,
        NotationErrorKind::UnexpectedChar {
            found: '走',
            expected: Expected::Action
        }
    ));
    let e = err("炮二平", Notation::Chinese);
    assert_eq!(
        (e.offset, e.kind),
        (
            "炮二平".len(),
            NotationErrorKind::UnexpectedEnd {
                expected: Expected::Number
            }
        )
    );
    assert_eq!(
        err("车二进一", Notation::Chinese).kind,
        NotationErrorKind::NoSuchPiece
    );
    assert_eq!(
        err("马二平三", Notation::Chinese).kind,
        NotationErrorKind::ImpossibleMove
    );
    assert_eq!(
        err("马二进五", Notation::Chinese).kind,
        NotationErrorKind::ImpossibleMove
    );
    assert_eq!(
        err("C2-5", Notation::Wxf).kind,
        NotationErrorKind::ImpossibleMove
    );
    let reason = |e: chuhe_core::NotationError| match e.kind {
        NotationErrorKind::Illegal(i) => Some(i.reason),
        _ => None,
    };
    assert_eq!(
        reason(err("车一进九", Notation::Chinese)),
        Some(IllegalReason::PathBlocked)
    );
    assert_eq!(
        reason(err("h2f3", Notation::Iccs)),
        Some(IllegalReason::WrongShape)
    );
    assert_eq!(
        reason(err("h2e3", Notation::Iccs)),
        Some(IllegalReason::OwnPieceOnTarget)
    );
    assert_eq!(
        reason(err("e3e5", Notation::Iccs)),
        Some(IllegalReason::WrongShape)
    );
    let e = err("X2.5", Notation::Wxf);
    assert_eq!((e.offset, e.notation), (0, Some(Notation::Wxf)));
    let e = err("Ｃ２＊５", Notation::Wxf);
    assert_eq!((e.offset, e.char_offset()), (6, 2));
    let e = err("炮2 5 x", Notation::ShortRecord);
    assert!(matches!(
        e.kind,
        NotationErrorKind::UnexpectedChar {
            found: 'x',
            expected: Expected::End
        }
    ));
    assert_eq!(
        parse_any(&start, "").unwrap_err().kind,
        NotationErrorKind::Empty
    );
    assert_eq!(
        parse_any(&start, "★").unwrap_err().kind,
        NotationErrorKind::Unrecognized
    );
    assert_eq!(
        parse_any(&start, "hello").unwrap_err().notation,
        Some(Notation::Wxf)
    );
    // Messages name the notation, the text, the place and the reason.
    let message = err("炮二走五", Notation::Chinese).to_string();
    assert!(
        message.contains("chinese") && message.contains("byte 6"),
        "{message}"
    );
}

/// Every character the parsers know, and some they do not: random strings of them must give
/// a move or an error, never a panic, and every error's offset is a character boundary.
#[test]
fn parsers_never_panic() {
    let alphabet: Vec<char> = "帅帥将將仕士相象马馬傌车車俥炮砲包兵卒前中后後一二三四五六七八九进進退平上下\
        0123456789０１２３４５６７８９KAEBHNRCPkaehnrcpabcdefghiHI+-.=＋－．＝ 　\u{332}\u{305}\u{304}\
        é★😀\u{200B}\u{FEFF}"
        .chars()
        .collect();
    let positions = [
        Position::startpos(),
        pos(CRAFTED[2]),
        pos(&rotate(CRAFTED[4])),
    ];
    let mut texts: Vec<String> = Vec::new();
    for i in 0..20_000 {
        let len = pick(("length", i), 8);
        texts.push(
            (0..len)
                .map(|j| alphabet[pick((i, j), alphabet.len())])
                .collect(),
        );
    }
    // Every prefix of every canonical text, cut at each character.
    for p in &positions {
        for &m in p.legal_moves().iter() {
            for n in Notation::ALL {
                let text = format_move(p, m, n);
                for (i, _) in text.char_indices() {
                    texts.push(text[..i].to_string());
                }
            }
        }
    }
    for text in &texts {
        for p in &positions {
            for n in Notation::ALL {
                if let Err(e) = parse_move(p, text, n) {
                    assert!(
                        e.offset <= text.len() && text.is_char_boundary(e.offset),
                        "{text:?} {e}"
                    );
                }
            }
            if let Err(e) = parse_any(p, text) {
                assert!(text.is_char_boundary(e.offset), "{text:?} {e}");
            }
        }
    }
}

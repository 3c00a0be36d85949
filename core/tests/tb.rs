//! Endgame tables: checked against an independent count of legal positions, an
//! independent mate search, the tables' own consistency, and the cache's damage checks.

use chuhe_core::tb::{Material, MaterialError, Tablebases, TbError, TbValue};
use chuhe_core::{Board, Color, Piece, PieceKind, Position, Setup, Square};
use std::sync::Arc;

fn tables() -> Tablebases {
    Tablebases::new(None)
}

fn table(tbs: &Tablebases, name: &str) -> Arc<chuhe_core::tb::Table> {
    let m: Material = name.parse().unwrap();
    tbs.get_or_generate(&m, &mut |_| true).unwrap()
}

/// Every arrangement of `pieces` (generals anywhere in their palace, the others on any of
/// the 90 points) that the core's setup validation accepts with no warning, for `side` to
/// move: the tables hold the placements a game can reach, not a composer's others.
fn legal_positions(pieces: &[Piece], side: Color) -> Vec<Position> {
    fn place(
        pieces: &[Piece],
        board: &mut Board,
        side: Color,
        out: &mut Vec<Position>,
        alike_after: Option<u8>,
    ) {
        let Some((&p, rest)) = pieces.split_first() else {
            let setup = Setup {
                board: *board,
                side_to_move: side,
                halfmove_clock: 0,
                fullmove_number: 1,
            };
            if setup.warnings().is_empty()
                && let Ok(pos) = Position::from_setup(&setup)
            {
                out.push(pos);
            }
            return;
        };
        for sq in Square::ALL {
            if p.kind == PieceKind::General && !sq.in_palace(p.color) {
                continue;
            }
            // Alike pieces in increasing point order, so each arrangement appears once.
            if alike_after.is_some_and(|a| sq.index() <= a) {
                continue;
            }
            if board.get(sq).is_some() {
                continue;
            }
            board.set(sq, Some(p));
            let next_alike = rest.first().filter(|&&q| q == p).map(|_| sq.index());
            place(rest, board, side, out, next_alike);
            board.set(sq, None);
        }
    }
    let mut out = Vec::new();
    place(pieces, &mut Board::empty(), side, &mut out, None);
    out
}

fn pieces_of(name: &str) -> Vec<Piece> {
    let m: Material = name.parse().unwrap();
    let mut v = vec![
        Piece::new(Color::Red, PieceKind::General),
        Piece::new(Color::Black, PieceKind::General),
    ];
    for c in Color::ALL {
        for &k in m.pieces(c) {
            v.push(Piece::new(c, k));
        }
    }
    v
}

#[test]
fn legal_counts_agree_with_the_setup_validator() {
    let tbs = tables();
    for name in ["KR v K", "KP v KB"] {
        let t = table(&tbs, name);
        let stats = t.stats();
        for side in Color::ALL {
            let all = legal_positions(&pieces_of(name), side);
            assert_eq!(
                stats[side.index()].legal,
                all.len() as u64,
                "{name}, {side:?} to move"
            );
            let s = stats[side.index()];
            assert_eq!(s.win + s.draw + s.loss, s.legal);
            // Every legal position is in the table (probe answers).
            for pos in all.iter().step_by(7) {
                assert!(t.probe(pos).is_some(), "{pos}");
            }
        }
    }
}

/// An independent mate search: whether the side to move mates within `n` plies.
fn wins_within(pos: &Position, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    pos.legal_moves().iter().any(|&m| {
        let next = pos.play(m).unwrap();
        loses_within(&next, n - 1)
    })
}

/// Whether the side to move is mated (or has no move) within `n` plies.
fn loses_within(pos: &Position, n: u32) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return true;
    }
    if n < 2 {
        return false;
    }
    moves.iter().all(|&m| {
        let next = pos.play(m).unwrap();
        wins_within(&next, n - 1)
    })
}

/// The distance to mate found by the plain search, up to `limit` plies.
fn searched(pos: &Position, limit: u32) -> Option<TbValue> {
    for n in 0..=limit {
        if n % 2 == 1 && wins_within(pos, n) {
            return Some(TbValue::Win(n as u16));
        }
        if n % 2 == 0 && loses_within(pos, n) {
            return Some(TbValue::Loss(n as u16));
        }
    }
    None
}

#[test]
fn kr_v_k_agrees_with_a_plain_mate_search() {
    let tbs = tables();
    let t = table(&tbs, "KR v K");
    let mut checked = 0;
    for side in Color::ALL {
        for pos in legal_positions(&pieces_of("KR v K"), side) {
            let want = searched(&pos, 8).unwrap_or(TbValue::Draw);
            assert_eq!(t.probe(&pos), Some(want), "{pos}");
            checked += 1;
        }
    }
    assert!(checked > 8000);
}

#[test]
fn longer_tables_agree_with_the_search_on_a_sample() {
    let tbs = tables();
    for name in ["KR v KA", "KN v K", "KP v KA"] {
        let t = table(&tbs, name);
        let limit = 5;
        for side in Color::ALL {
            let all = legal_positions(&pieces_of(name), side);
            for pos in all.iter().step_by(53) {
                let v = t.probe(pos).unwrap();
                let found = searched(pos, limit);
                match v.dtm() {
                    Some(n) if n as u32 <= limit => assert_eq!(found, Some(v), "{name} {pos}"),
                    _ => assert_eq!(found, None, "{name} {pos}: table says {v:?}"),
                }
            }
        }
    }
}

/// Every value is what its moves make it: a win has a move to a loss one ply shorter and
/// none faster; a loss has every move leading to a win and one exactly a ply shorter; a
/// draw has no winning move and a drawing one.
#[test]
fn tables_are_consistent_with_their_moves() {
    let tbs = tables();
    for name in [
        "KR v KA", "KN v KAA", "KP v KAB", "KR v KN", "KCA v KA", "KN v KP",
    ] {
        let t = table(&tbs, name);
        assert_consistent(&tbs, &t, name, 1);
    }
}

/// Every `step`-th placement's value is the best of its moves' values, and the table has
/// wins and losses.
fn assert_consistent(tbs: &Tablebases, t: &chuhe_core::tb::Table, name: &str, step: usize) {
    let mut seen = [0usize; 3];
    for side in Color::ALL {
        for idx in (0..t.placements()).step_by(step) {
            let Some(pos) = t.position_at(side, idx) else {
                continue;
            };
            let a = tbs.analyse(&pos).unwrap();
            assert_eq!(Some(a.value), t.value_at(side, idx));
            let best = a.moves.first().map(|m| m.value);
            match a.value {
                TbValue::Win(n) => {
                    seen[0] += 1;
                    assert_eq!(best, Some(TbValue::Win(n)), "{name} {pos}");
                }
                TbValue::Loss(0) => {
                    assert!(a.moves.is_empty(), "{name} {pos}");
                }
                TbValue::Loss(n) => {
                    seen[2] += 1;
                    assert!(a.moves.iter().all(|m| m.value.is_loss()), "{name} {pos}");
                    assert_eq!(best, Some(TbValue::Loss(n)), "{name} {pos}");
                }
                TbValue::Draw => {
                    seen[1] += 1;
                    assert_eq!(best, Some(TbValue::Draw), "{name} {pos}");
                }
                TbValue::RuleWin => {
                    assert!(!a.moves.iter().any(|m| matches!(m.value, TbValue::Win(_))));
                    assert!(a.moves.iter().any(|m| m.value.is_win()), "{name} {pos}");
                }
                TbValue::RuleLoss => {
                    assert!(!a.moves.iter().any(|m| m.value.is_win()), "{name} {pos}");
                }
            }
        }
    }
    assert!(seen[0] > 0 && seen[2] > 0, "{name}: {seen:?}");
}

/// A table of three attacking pieces is made only when asked for by name; once made, the
/// tables probe and analyse it like any other.
#[test]
fn three_attackers_are_made_on_request_and_probed() {
    assert_eq!(
        "KP v KPP".parse::<Material>(),
        Err(MaterialError::TooManyAttackers(3))
    );
    let m = Material::parse_on_request("kp vs kpp").unwrap();
    assert_eq!(m.to_string(), "KP v KPP");
    assert_eq!(
        Material::parse_on_request("KPPP v K"),
        Err(MaterialError::ThreeAlike {
            color: Color::Red,
            kind: PieceKind::Pawn
        })
    );
    assert_eq!(
        Material::parse_on_request("KRR v KCA"),
        Ok(Material::new_on_request(
            &[PieceKind::Rook, PieceKind::Rook],
            &[PieceKind::Advisor, PieceKind::Cannon]
        )
        .unwrap())
    );
    assert_eq!(
        Material::parse_on_request("KRR v KNC"),
        Err(MaterialError::TooManyAttackers(4))
    );
    let pos: Position = "3k5/9/9/2p3p2/9/9/4P4/9/9/4K4 w - - 0 1".parse().unwrap();
    assert_eq!(Material::of(&pos), None);
    assert_eq!(Material::of_on_request(&pos), Some(m.clone()));
    let tbs = tables();
    // Never made unasked.
    assert_eq!(tbs.probe(&pos), None);
    assert!(matches!(
        tbs.analyse_generating(&pos, &mut |_| true),
        Err(TbError::NotInScope)
    ));
    assert!(tbs.loaded(&m).is_none());
    let t = tbs.get_or_generate(&m, &mut |_| true).unwrap();
    assert!(t.probe(&pos).is_some());
    assert_eq!(tbs.probe(&pos), t.probe(&pos));
    assert_eq!(tbs.analyse(&pos).map(|a| a.value), t.probe(&pos));
    assert_consistent(&tbs, &t, "KP v KPP", 97);
}

/// Tables of mate alone have every win, loss and distance of the full tables; only the
/// rule results are draws there. They are cached apart, and the full tables never read them.
#[test]
fn mate_only_tables_differ_only_in_the_rule_results() {
    let full = table(&tables(), "KR v KN");
    let dir = std::env::temp_dir().join(format!("chuhe-tb-mate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let m: Material = "KR v KN".parse().unwrap();
    let tbs = Tablebases::new_mate_only(Some(dir.clone()));
    assert!(tbs.is_mate_only());
    let mate = tbs.get_or_generate(&m, &mut |_| true).unwrap();
    let mut by_rule = 0;
    for side in Color::ALL {
        for idx in 0..full.placements() {
            match full.value_at(side, idx) {
                Some(TbValue::RuleWin | TbValue::RuleLoss) => {
                    by_rule += 1;
                    assert_eq!(mate.value_at(side, idx), Some(TbValue::Draw));
                }
                v => assert_eq!(mate.value_at(side, idx), v, "placement {idx}"),
            }
        }
    }
    assert!(by_rule > 0);
    assert!(dir.join("KR_KN.mate.chtb").exists());
    assert!(!dir.join("KR_KN.chtb").exists());
    assert!(Tablebases::new(Some(dir.clone())).load_file(&m).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn materials_parse_and_print_red_first() {
    let m: Material = "KNP v KAB".parse().unwrap();
    assert_eq!(m.to_string(), "KNP v KAB");
    assert_eq!("kpn vs kba".parse::<Material>().unwrap(), m);
    assert_eq!(m.file_stem(), "KNP_KAB");
    assert_eq!("KNP_KAB".parse::<Material>().unwrap(), m);
    assert!("KRR v KR".parse::<Material>().is_err(), "three attackers");
    assert!(
        "KRAABB v KAABB".parse::<Material>().is_err(),
        "eleven pieces"
    );
    assert!("KR KAA".parse::<Material>().is_err(), "no separator");
    assert!("KX v K".parse::<Material>().is_err());
    assert!("R v K".parse::<Material>().is_err(), "no general");
    assert!("KAAA v K".parse::<Material>().is_err());
}

#[test]
fn cache_files_are_checked_and_rebuilt() {
    let dir = std::env::temp_dir().join(format!("chuhe-tb-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let m: Material = "KR v KA".parse().unwrap();
    let fresh = {
        let tbs = Tablebases::new(Some(dir.clone()));
        tbs.get_or_generate(&m, &mut |_| true).unwrap()
    };
    let path = dir.join("KR_KA.chtb");
    let good = std::fs::read(&path).unwrap();
    // Sub-tables are cached too.
    assert!(dir.join("KR_K.chtb").exists() && dir.join("K_KA.chtb").exists());
    // A second program reads the file instead of generating.
    let tbs = Tablebases::new(Some(dir.clone()));
    let loaded = tbs.load_file(&m).unwrap();
    assert_eq!(loaded.stats(), fresh.stats());
    // One changed value byte.
    let mut bad = good.clone();
    let n = bad.len();
    bad[n - 1000] ^= 0x10;
    std::fs::write(&path, &bad).unwrap();
    assert!(tbs.load_file(&m).is_err(), "altered byte not found");
    // Truncated.
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    assert!(tbs.load_file(&m).is_err(), "truncation not found");
    // Not a table.
    std::fs::write(&path, b"hello").unwrap();
    assert!(tbs.load_file(&m).is_err());
    // Rebuilt on demand, and sound again.
    let rebuilt = tbs.get_or_generate(&m, &mut |_| true).unwrap();
    assert_eq!(rebuilt.stats(), fresh.stats());
    assert_eq!(std::fs::read(&path).unwrap(), good);
    assert!(Tablebases::new(Some(dir.clone())).load_file(&m).is_ok());
    // No temporary file is left behind.
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(name.ends_with(".chtb"), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn probing_outside_the_scope_answers_none() {
    let tbs = tables();
    assert_eq!(tbs.probe(&Position::startpos()), None);
    assert!(tbs.analyse(&Position::startpos()).is_none());
    // A composer's placement (a pawn on its own back rank) is in no table's numbering,
    // though the material's table is loaded: the answer is none, not a wrong value.
    table(&tbs, "KP v KB");
    let composed: Position = "3k5/9/9/9/2b6/9/9/9/9/P3K4 w - - 0 1".parse().unwrap();
    assert!(!composed.to_setup().warnings().is_empty());
    assert_eq!(tbs.probe(&composed), None);
    assert!(tbs.analyse(&composed).is_none());
}

#[test]
fn generation_can_be_stopped() {
    let tbs = tables();
    let m: Material = "KR v KN".parse().unwrap();
    let mut calls = 0;
    let r = tbs.get_or_generate(&m, &mut |_| {
        calls += 1;
        calls < 5
    });
    assert!(r.is_err());
    assert!(tbs.loaded(&m).is_none());
}

/// In KR v KN the horse can sometimes hold off mate only by checking for ever; the tables
/// call those positions lost by the rule. Playing them out (the horse side keeping to its
/// non-mating moves, the rook side to its rule wins, quiet when it can), the core's own
/// 棋例 judge must end the game as a perpetual check lost by the horse side.
#[test]
fn perpetual_check_is_lost_as_the_repetition_judge_says() {
    use chuhe_core::{EndReason, Game};
    let tbs = tables();
    let t = table(&tbs, "KR v KN");
    let stats = t.stats();
    assert!(stats[1].by_rule > 0, "no rule loss for the horse side");
    let mut tried = 0;
    for idx in 0..t.placements() {
        if t.value_at(Color::Black, idx) != Some(TbValue::RuleLoss) {
            continue;
        }
        tried += 1;
        if tried > 5 {
            break;
        }
        let start = t.position_at(Color::Black, idx).unwrap();
        let mut game = Game::new(start.clone());
        for _ in 0..200 {
            if game.outcome().is_some() {
                break;
            }
            let pos = game.position().clone();
            let a = tbs.analyse(&pos).unwrap();
            let keep = if pos.side_to_move() == Color::Black {
                TbValue::RuleLoss
            } else {
                TbValue::RuleWin
            };
            assert_eq!(a.value, keep, "{pos} left the rule line");
            let candidates: Vec<_> = a.moves.iter().filter(|m| m.value == keep).collect();
            // The rook side prefers moves that do not check, so only one side checks.
            let quiet = candidates
                .iter()
                .find(|m| !pos.play(m.mv).unwrap().is_check());
            let m = quiet.or(candidates.first()).unwrap().mv;
            game.play(m).unwrap();
        }
        let outcome = game
            .outcome()
            .expect("the cycle is judged within 200 plies");
        assert_eq!(outcome.reason, EndReason::PerpetualCheck, "from {start}");
        assert_eq!(outcome.winner, Some(Color::Red), "from {start}");
    }
    assert!(tried > 0);
}

/// The solver (an independent exact mate prover) agrees with the tables on short mates:
/// mate within three moves exactly when the table says a win in at most five plies.
#[test]
fn short_mates_agree_with_the_solver() {
    use chuhe_core::solver::Solver;
    // The solver consults the program's tables: point them at an empty directory so it
    // works alone here.
    let empty = std::env::temp_dir().join(format!("chuhe-tb-empty-{}", std::process::id()));
    chuhe_core::tb::init_global(Some(empty.clone()));
    let tbs = tables();
    let mut solver = Solver::new(18);
    let (mut wins, mut others) = (0, 0);
    for name in ["KR v KN", "KP v KAB", "KRN v K", "KCA v KA", "KNP v K"] {
        let t = table(&tbs, name);
        for idx in (0..t.placements()).step_by(t.placements() / 150 + 1) {
            let Some(pos) = t.position_at(Color::Red, idx) else {
                continue;
            };
            let v = t.probe(&pos).unwrap();
            let table_says = matches!(v, TbValue::Win(n) if n <= 5);
            assert_eq!(
                solver.mates_within(&pos, 3),
                table_says,
                "{name} {pos}: {v:?}"
            );
            if table_says {
                wins += 1;
            } else {
                others += 1;
            }
        }
        assert!(wins > 0 && others > 0, "{name}: {wins} {others}");
    }
    assert!(
        !empty.exists(),
        "nothing was generated into the program's tables"
    );
}

/// `chuhe-engine tb stats MATERIAL --json` prints the contract's one object, its counts
/// those of an independent enumeration, and caches the table where CHUHE_TB_DIR says.
#[test]
fn the_stats_command_prints_the_documented_object() {
    let dir = std::env::temp_dir().join(format!("chuhe-tb-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .args(["tb", "stats", "KR v K", "--json"])
        .env("CHUHE_TB_DIR", &dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.trim().lines().count(), 1, "one object: {text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["material"], "KR v K");
    for (key, side) in [("red_to_move", Color::Red), ("black_to_move", Color::Black)] {
        let all = legal_positions(&pieces_of("KR v K"), side);
        let s = &v[key];
        assert_eq!(s["legal"], all.len() as u64, "{key}");
        let sum =
            s["win"].as_u64().unwrap() + s["draw"].as_u64().unwrap() + s["loss"].as_u64().unwrap();
        assert_eq!(sum, all.len() as u64, "{key}");
        // Wins and losses as the plain mate search finds them (at most 8 plies in KR v K).
        let wins = all
            .iter()
            .filter(|p| matches!(searched(p, 8), Some(TbValue::Win(_))))
            .count();
        assert_eq!(s["win"], wins as u64, "{key}");
    }
    assert_eq!(v["max_dtm_plies"]["black_to_move"], 0, "Black never wins");
    assert!(v["max_dtm_plies"]["red_to_move"].as_u64().unwrap() > 0);
    assert!(dir.join("KR_K.chtb").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_large_cache_file_is_read_beside_a_search() {
    let dir = std::env::temp_dir().join(format!("chuhe-tb-later-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let m: Material = "KR v KA".parse().unwrap();
    let fresh = Tablebases::new(Some(dir.clone()))
        .get_or_generate(&m, &mut |_| true)
        .unwrap();
    let idx = (0..fresh.placements())
        .find(|&i| matches!(fresh.value_at(Color::Red, i), Some(TbValue::Win(n)) if n > 1))
        .unwrap();
    let pos = fresh.position_at(Color::Red, idx).unwrap();
    let want = fresh.probe(&pos);
    assert!(want.is_some());
    let wait_for = |tbs: &'static Tablebases| {
        for _ in 0..3000 {
            if !tbs.is_reading(&m) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(!tbs.is_reading(&m), "still reading after 30 s");
    };

    // Under the limit: read while the caller waits, as `probe` does.
    let at_once: &'static Tablebases = Box::leak(Box::new(Tablebases::new(Some(dir.clone()))));
    assert_eq!(at_once.probe_without_waiting(&pos), want);

    // Over it (here every file over 1 KB): no value until the reader has it in memory.
    let later: &'static Tablebases = Box::leak(Box::new(
        Tablebases::new(Some(dir.clone())).with_read_at_once(1024),
    ));
    assert_eq!(
        later.probe_without_waiting(&pos),
        None,
        "read while waiting"
    );
    wait_for(later);
    assert!(later.loaded(&m).is_some());
    assert_eq!(later.probe_without_waiting(&pos), want);

    // A damaged large file: read beside, found damaged, then left alone (no panic, no
    // second reader).
    let path = dir.join("KR_KA.chtb");
    let good = std::fs::read(&path).unwrap();
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    let damaged: &'static Tablebases = Box::leak(Box::new(
        Tablebases::new(Some(dir.clone())).with_read_at_once(1024),
    ));
    assert_eq!(damaged.probe_without_waiting(&pos), None);
    wait_for(damaged);
    assert!(damaged.loaded(&m).is_none());
    assert_eq!(damaged.probe_without_waiting(&pos), None);
    assert!(
        !damaged.is_reading(&m),
        "read again after it was found damaged"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

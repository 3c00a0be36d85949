//! Game collections against the real games in `../shared/data`: after importing them, the
//! moves played from 1,000 positions drawn from those games, and the games that reached
//! them, equal a brute-force count over the same games read separately — exact positions
//! and with the left–right mirror folded in. Material balances likewise.

use chuhe_core::db::{Collection, MaterialKey};
use chuhe_core::gamefile::{self, Damage};
use chuhe_core::record::{GameResult, Record};
use chuhe_core::{Move, Position};
use chuhe_tests::shared_data;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// The game files of the shared data (PGN in several encodings, XQF, CBL, CBR, CBF), in a
/// fixed order, imported in that order.
fn inputs() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [
        "games/ccpd",
        "games/eleeye_ccgc",
        "games/wukong_xqdb",
        "formats/walker8088_cchess_testdata",
    ] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(shared_data(dir))
            .expect("readable directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| {
                p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                    ["pgn", "xqf", "cbl", "cbr", "cbf"]
                        .iter()
                        .any(|x| e.eq_ignore_ascii_case(x))
                })
            })
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

/// The board and side to move of a position: what "the same position" means.
fn placement(pos: &Position) -> String {
    pos.to_string()
        .split(' ')
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

fn mirrored(pos: &Position) -> Position {
    Position::from_setup(&pos.to_setup().mirrored()).expect("a mirror image is legal")
}

fn mirror_move(m: Move) -> Move {
    Move::new(m.from.mirror(), m.to.mirror())
}

/// One occurrence in the brute-force index: a game's result and year, the ply of its first
/// visit to the position and the move it played there.
#[derive(Clone, Copy)]
struct Visit {
    game: usize,
    result: GameResult,
    ply: usize,
    next: Option<Move>,
}

/// Every distinct game (same start, moves and players once, the first copy kept) and, per
/// position, the games' first visits.
/// The games counted, each position's visits, each balance's games.
type BruteForce = (
    usize,
    HashMap<String, Vec<Visit>>,
    HashMap<String, HashSet<usize>>,
);

fn brute_force() -> BruteForce {
    let mut seen = HashSet::new();
    let mut by_position: HashMap<String, Vec<Visit>> = HashMap::new();
    let mut by_material: HashMap<String, HashSet<usize>> = HashMap::new();
    let mut games = 0;
    for path in inputs() {
        let bytes = std::fs::read(&path).expect("readable file");
        for record in gamefile::games(&bytes, Some(&path), Damage::Refuse)
            .into_iter()
            .flatten()
        {
            let moves = record.main_line_moves();
            let who = |name: &str| record.headers().get(name).unwrap_or("").trim().to_owned();
            let identity = (
                placement(record.start()),
                record.start().to_string(),
                moves.clone(),
                who("Red"),
                who("Black"),
            );
            if !seen.insert(identity) {
                continue;
            }
            let game = games;
            games += 1;
            visit_all(&record, game, &moves, &mut by_position, &mut by_material);
        }
    }
    (games, by_position, by_material)
}

fn visit_all(
    record: &Record,
    game: usize,
    moves: &[Move],
    by_position: &mut HashMap<String, Vec<Visit>>,
    by_material: &mut HashMap<String, HashSet<usize>>,
) {
    let result = record.headers().result();
    let mut pos = record.start().clone();
    let mut visited = HashSet::new();
    for ply in 0..=moves.len() {
        let key = placement(&pos);
        if visited.insert(key.clone()) {
            by_position.entry(key).or_default().push(Visit {
                game,
                result,
                ply,
                next: moves.get(ply).copied(),
            });
        }
        let balance = MaterialKey::of(&pos);
        if balance.pieces() <= 16 {
            by_material
                .entry(balance.to_string())
                .or_default()
                .insert(game);
        }
        match moves.get(ply) {
            Some(&m) => pos = pos.play(m).expect("a legal main line"),
            None => break,
        }
    }
}

/// Counts as the collection gives them: (games, red wins, draws, black wins) for the
/// position, and per move.
type Counts = ((u64, u64, u64, u64), Vec<(String, u64, u64, u64, u64)>);

/// With the mirror folded in, a position that is its own mirror counts a move and its
/// mirror image as one: under the one played more, or on a tie the one on the mover's right.
fn fold_twins(
    moves: Vec<(String, u64, u64, u64, u64)>,
    pos: &Position,
) -> Vec<(String, u64, u64, u64, u64)> {
    let find = |m: &str| moves.iter().find(|x| x.0 == m).cloned();
    let right = |m: &Move| {
        let f = (
            i32::from(m.from.file().index()),
            i32::from(m.to.file().index()),
        );
        if pos.side_to_move() == chuhe_core::Color::Red {
            f
        } else {
            (-f.0, -f.1)
        }
    };
    let mut out: Vec<(String, u64, u64, u64, u64)> = Vec::new();
    for x in &moves {
        let m: Move = x.0.parse().unwrap();
        let twin = mirror_move(m);
        let keep = match find(&twin.to_string()) {
            None => m,
            Some(t) if t.1 != x.1 => {
                if x.1 > t.1 {
                    m
                } else {
                    twin
                }
            }
            Some(_) => {
                if right(&m) >= right(&twin) {
                    m
                } else {
                    twin
                }
            }
        };
        let name = keep.to_string();
        match out.iter_mut().find(|o| o.0 == name) {
            Some(o) => {
                o.1 += x.1;
                o.2 += x.2;
                o.3 += x.3;
                o.4 += x.4;
            }
            None => out.push((name, x.1, x.2, x.3, x.4)),
        }
    }
    out.sort();
    out
}

fn count(visits: &[(Visit, bool)]) -> Counts {
    let tally = |v: &[&Visit]| {
        let n = |r| v.iter().filter(|x| x.result == r).count() as u64;
        (
            v.len() as u64,
            n(GameResult::RedWins),
            n(GameResult::Draw),
            n(GameResult::BlackWins),
        )
    };
    let all: Vec<&Visit> = visits.iter().map(|(v, _)| v).collect();
    let mut by_move: HashMap<Move, Vec<&Visit>> = HashMap::new();
    for (v, mirror) in visits {
        if let Some(m) = v.next {
            let m = if *mirror { mirror_move(m) } else { m };
            by_move.entry(m).or_default().push(v);
        }
    }
    let mut moves: Vec<(String, u64, u64, u64, u64)> = by_move
        .into_iter()
        .map(|(m, v)| {
            let (g, r, d, b) = tally(&v);
            (m.to_string(), g, r, d, b)
        })
        .collect();
    moves.sort();
    (tally(&all), moves)
}

#[test]
fn explorer_counts_equal_a_brute_force_count_over_the_same_games() {
    let dir = std::env::temp_dir().join(format!("chuhe-collections-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("shared.chuhedb");
    let _ = std::fs::remove_file(&path);
    // Small blocks (32 games, runs of 512), so that the index holds many complete runs
    // and a last one still open; and in two imports, so that the second completes the
    // run the first left open.
    let mut collection = Collection::open_with_block_bits(&path, 5).expect("a new collection");
    let files = inputs();
    let (first, second) = files.split_at(files.len() / 2);
    let mut failures = Vec::new();
    let mut imported = 0;
    for part in [first, second] {
        let report = collection
            .import_paths(part, &AtomicBool::new(false), &mut |_| {})
            .expect("the import runs");
        imported += report.progress.games as usize;
        failures.extend(report.failures);
    }
    let (games, by_position, by_material) = brute_force();
    assert!(games > 3 * 512, "{games} games: too few to fill runs");
    assert_eq!(imported, games);
    assert_eq!(collection.game_count().unwrap() as usize, games);
    let positions: usize = by_position.values().map(Vec::len).sum();
    assert_eq!(collection.position_count().unwrap() as usize, positions);
    // The files that fail are the broken ones, each named.
    assert!(
        failures.iter().all(|f| {
            let name = f.file.to_string_lossy();
            name.contains("開局") || name.contains("Bad") || name.contains("WildHouse")
        }),
        "{:?}",
        failures.iter().map(ToString::to_string).collect::<Vec<_>>()
    );

    let sample = collection.sample_positions(1000, 20261203).unwrap();
    assert_eq!(sample.len(), 1000);
    for pos in &sample {
        for fold in [false, true] {
            let mut visits: Vec<(Visit, bool)> = by_position
                .get(&placement(pos))
                .map(|v| v.iter().map(|&x| (x, false)).collect())
                .unwrap_or_default();
            let mirror = mirrored(pos);
            if fold && placement(&mirror) != placement(pos) {
                visits.extend(
                    by_position
                        .get(&placement(&mirror))
                        .into_iter()
                        .flatten()
                        .map(|&x| (x, true)),
                );
            }
            let mut expected = count(&visits);
            if fold && placement(&mirror) == placement(pos) {
                expected.1 = fold_twins(expected.1, pos);
            }
            let explore = collection.explore(pos, fold).unwrap();
            let t = &explore.total;
            let mut moves: Vec<(String, u64, u64, u64, u64)> = explore
                .moves
                .iter()
                .map(|m| {
                    (
                        m.mv.unwrap().to_string(),
                        m.games,
                        m.red_wins,
                        m.draws,
                        m.black_wins,
                    )
                })
                .collect();
            // Most played first.
            assert!(explore.moves.windows(2).all(|w| w[0].games >= w[1].games));
            moves.sort();
            assert_eq!(
                ((t.games, t.red_wins, t.draws, t.black_wins), moves),
                expected,
                "{pos} (mirror folded: {fold})"
            );
            let reaching = collection.games_reaching(pos, fold, 0, 100_000).unwrap();
            assert_eq!(reaching.total, reaching.games.len() as u64, "{pos}");
            let reaching = reaching.games;
            // Games are numbered in the order imported, from 1, duplicates left out: the
            // brute force's order.
            let mut got: Vec<(i64, u32, bool)> = reaching
                .iter()
                .map(|g| (g.info.id, g.ply, g.mirrored))
                .collect();
            let mut want: Vec<(i64, u32, bool)> = visits
                .iter()
                .map(|(v, m)| (v.game as i64 + 1, v.ply as u32, *m))
                .collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{pos}");
            // Each game listed stands at the position after the ply given.
            if let Some(g) = reaching.first() {
                let record = collection.game(g.info.id).unwrap();
                let mut at = record.start().clone();
                for &m in &record.main_line_moves()[..g.ply as usize] {
                    at = at.play(m).unwrap();
                }
                let want = if g.mirrored {
                    mirrored(pos)
                } else {
                    pos.clone()
                };
                assert_eq!(placement(&at), placement(&want));
            }
        }
    }

    for (balance, games) in by_material.iter().take(200) {
        let key: MaterialKey = balance.parse().unwrap();
        let (total, _) = collection.games_with_material(key, 10).unwrap();
        assert_eq!(total as usize, games.len(), "{balance}");
    }
    drop(collection);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stored_game_comes_back_whole() {
    let dir = std::env::temp_dir().join(format!("chuhe-collections-whole-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("whole.chuhedb");
    let _ = std::fs::remove_file(&path);
    let file = shared_data("formats/walker8088_cchess_testdata/game_varations.xqf");
    let bytes = std::fs::read(&file).unwrap();
    let original = gamefile::games(&bytes, Some(&file), Damage::Refuse)
        .remove(0)
        .unwrap();
    assert!(original.line_count() > 1, "the file has variations");
    let mut collection = Collection::open(&path).unwrap();
    let report = collection
        .import_paths(
            std::slice::from_ref(&file),
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap();
    assert_eq!(report.progress.games, 1);
    let stored = collection.game(1).unwrap();
    assert_eq!(stored.line_count(), original.line_count());
    assert_eq!(stored.main_line_moves(), original.main_line_moves());
    for (a, b) in original
        .descendants(original.root())
        .iter()
        .zip(stored.descendants(stored.root()))
    {
        assert_eq!(
            original.annotation(*a).comment,
            stored.annotation(b).comment
        );
    }
    // Importing the same file again adds nothing: the game is a duplicate.
    let again = collection
        .import_paths(&[file], &AtomicBool::new(false), &mut |_| {})
        .unwrap();
    assert_eq!((again.progress.games, again.progress.duplicates), (0, 1));
    assert_eq!(collection.game_count().unwrap(), 1);
    drop(collection);
    std::fs::remove_dir_all(&dir).unwrap();
}

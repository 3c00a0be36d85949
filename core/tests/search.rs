//! The search against positions with known answers: mates at their distance (checked by
//! an independent brute-force solver), the repetition rules, known draws, and the
//! engine's modes (stop, multi-PV, threads).

use chuhe_core::search::{Engine, Limits, Options, Score, SearchRoot};
use chuhe_core::{Color, EndReason, ForbiddenKind, Game, Move, Position};
use std::time::Duration;

fn pos(fen: &str) -> Position {
    fen.parse().unwrap()
}

/// Moves in ICCS coordinates.
fn moves(iccs: &[&str]) -> Vec<Move> {
    iccs.iter().map(|m| m.parse().unwrap()).collect()
}

fn search(fen: &str, limits: Limits) -> chuhe_core::search::SearchResult {
    Engine::new(Options::default()).search(&SearchRoot::new(pos(fen)), limits)
}

/// Whether the side to move mates in at most `moves` moves giving check with every move
/// (连将杀): a plain tree search, sharing nothing with the engine.
fn mates_by_checks(p: &Position, moves: u32) -> bool {
    if moves == 0 {
        return false;
    }
    p.legal_moves().iter().any(|&m| {
        let after = p.play(m).unwrap();
        if !after.is_check() {
            return false;
        }
        let replies = after.legal_moves();
        replies.is_empty()
            || replies
                .iter()
                .all(|&r| mates_by_checks(&after.play(r).unwrap(), moves - 1))
    })
}

/// Whether the side to move mates in at most `moves` moves, trying every move.
fn mates_in(p: &Position, moves: u32) -> bool {
    if moves == 0 {
        return false;
    }
    p.legal_moves().iter().any(|&m| {
        let after = p.play(m).unwrap();
        let replies = after.legal_moves();
        replies.is_empty()
            || replies
                .iter()
                .all(|&r| mates_in(&after.play(r).unwrap(), moves - 1))
    })
}

#[test]
fn mates_in_one_to_five_are_found_at_their_distance() {
    // From ../shared/data/puzzles: wukong_mates_public.json (mates in 1–4, cut from master
    // games) and 适情雅趣 / xqwlight FUNNY (mates in 5, composed problems).
    let cases = [
        (
            "2Rckab1C/4a4/4R3n/p5p2/9/2N6/2P5P/C5r2/4K4/2B2A3 w - - 0 1",
            1,
        ),
        (
            "2bakab2/9/1r4n2/4p1p1p/1n7/R6R1/P1P1c1P1P/C1c1B4/2C1N4/2BAKA3 b - - 0 1",
            1,
        ),
        ("3ak4/4aP3/9/p7p/4R4/4C4/P3c3P/B3B4/4A4/3r1K3 w - - 0 1", 2),
        ("1C3k3/C8/3Rba3/4p3p/p1p6/9/9/4r4/4A4/4K4 w - - 0 1", 2),
        (
            "4k1c2/6R2/4ba3/7rC/2b5p/2B6/7n1/3A5/3C5/2B1KA3 w - - 0 1",
            3,
        ),
        ("9/5k3/4P1N1c/9/9/9/9/9/4K4/2B2A3 w - - 0 1", 3),
        (
            "2b1k2C1/3na2N1/5c3/p4P2p/9/3r5/P3R3P/8B/4A4/3AK4 w - - 0 1",
            4,
        ),
        ("1R1a2R2/4ak3/4P4/9/9/9/5r3/4B4/4C4/2B1K4 w - - 0 1", 4),
        ("1C2kab2/rN2a2R1/2r1c3b/9/9/5R3/9/7C1/9/3K5 w - - 0 1", 5),
        ("2bk1a3/1R2a2N1/rCc1b4/9/9/9/9/4C2R1/3r1p3/4K4 w - - 0 1", 5),
    ];
    let mut engine = Engine::new(Options::default());
    for (fen, n) in cases {
        let p = pos(fen);
        // The distance is right: a mate that short exists, and none shorter (by every
        // move up to three, by checks beyond that, as these mates are all by checks).
        assert!(
            mates_by_checks(&p, n) || mates_in(&p, n),
            "{fen}: no mate in {n}"
        );
        if n <= 3 {
            assert!(!mates_in(&p, n - 1), "{fen}: a shorter mate exists");
        } else {
            assert!(!mates_by_checks(&p, n - 1), "{fen}: a shorter mate exists");
        }
        engine.new_game();
        let r = engine.search(&SearchRoot::new(p.clone()), Limits::depth(2 * n + 1));
        assert_eq!(r.report.lines[0].score, Score::Mate(n as i32), "{fen}");
        // The first move starts a mate in n: after it, every reply leaves a mate in n - 1,
        // as the brute-force solver finds.
        let after = p.play(r.best_move.unwrap()).unwrap();
        let replies = after.legal_moves();
        assert_eq!(replies.is_empty(), n == 1, "{fen}");
        for &reply in replies.iter() {
            let next = after.play(reply).unwrap();
            assert!(
                mates_by_checks(&next, n - 1) || (n <= 4 && mates_in(&next, n - 1)),
                "{fen}: {reply} escapes the mate"
            );
        }
    }
}

#[test]
fn composed_placements_no_game_reaches_are_searched_and_solved() {
    // The unique mate in two of the solve tests with a Red pawn on its own back rank and a
    // Red elephant across the river, where only a composer puts them.
    let fen = "4k4/4a4/B8/9/9/9/9/9/7R1/P2K5 w - - 0 1";
    let p = pos(fen);
    assert_eq!(p.to_setup().warnings().len(), 2);
    assert!(
        mates_in(&p, 2) && !mates_in(&p, 1),
        "brute force: mate in 2"
    );
    // The mate ends with a capture that leaves the general no move without checking it,
    // at the horizon of a five-ply search.
    let r = search(fen, Limits::depth(5));
    assert_eq!(r.report.lines[0].score, Score::Mate(2));
    assert_eq!(r.best_move, Some(moves(&["h1e1"])[0]));
    let s = chuhe_core::solver::solve(&p, &chuhe_core::solver::SolveOptions::mate_in(3));
    assert_eq!(s.mate_in(), Some(2));
    assert_eq!(s.first_moves, moves(&["h1e1"]));
}

/// Taking the last defender can leave the general no point to go to without checking it
/// (困毙): the quiescence search must not stand pat there. After the composed mate's
/// first move and the only reply, the capture on e8 wins at once.
/// In `fen`, Red's rook takes on e8 and leaves Black, not in check, without a legal move;
/// a depth-1 search must see it as mate in 1 (only the quiescence search looks past it).
fn e1e8_leaves_no_move_and_is_mate_at_depth_1(fen: &str) {
    let after = pos(fen).play(moves(&["e1e8"])[0]).unwrap();
    assert!(!after.is_check() && after.legal_moves().is_empty());
    let r = search(fen, Limits::depth(1));
    assert_eq!(
        (r.best_move, r.report.lines[0].score),
        (Some(moves(&["e1e8"])[0]), Score::Mate(1))
    );
}

#[test]
fn a_capture_that_leaves_no_move_wins_at_the_horizon() {
    let fen = "5k3/4a4/B8/9/9/9/9/9/4R4/P2K5 w - - 0 1";
    e1e8_leaves_no_move_and_is_mate_at_depth_1(fen);
}

/// 困毙 at the horizon whatever the side has left: after the rook takes the advisor,
/// Black still has a horse, but it is pinned on the f file and the general's two points
/// are covered. Only the quiescence search looks at the position after the capture at
/// depth 1, and it must not stand pat for a side with no move.
#[test]
fn a_pinned_horse_does_not_save_a_side_from_no_move_at_the_horizon() {
    let fen = "5k3/4a4/5n3/9/9/9/9/9/4R4/3K1R3 w - - 0 1";
    e1e8_leaves_no_move_and_is_mate_at_depth_1(fen);
}

#[test]
fn no_legal_move_loses_even_without_check() {
    // 困毙: Black's general cannot move and nothing attacks it; Black has no other piece.
    // The pawn guards d8 and Red's general the open e file.
    let fen = "3k5/9/3P5/9/9/9/9/9/9/4K4 b - - 0 1";
    let p = pos(fen);
    assert!(!p.is_check() && p.legal_moves().is_empty());
    let r = search(fen, Limits::depth(3));
    assert_eq!(
        (r.best_move, r.report.lines[0].score),
        (None, Score::Mate(0))
    );
    // One move earlier Red wins by taking the last square away.
    let r = search("3k5/9/9/3P5/9/9/9/9/9/4K4 w - - 0 1", Limits::depth(3));
    assert_eq!(r.report.lines[0].score, Score::Mate(1));
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // Black threatens Ra1-a0 mate. Red's rook can check for ever along the ranks the
    // general steps to, but 长将 loses: Red's score is a loss, not the draw chess gives.
    let fen = "4k4/8R/9/9/9/9/9/9/rr2A4/3K5 w - - 0 1";
    let r = search(fen, Limits::depth(8));
    let score = r.report.lines[0].score;
    assert!(matches!(score, Score::Mate(n) if n < 0), "{score:?}");

    // With the game's history: Red has checked twice and Black has stepped back twice.
    // Checking again repeats the position after Red's first check, but only for the second
    // time: the rules' count (three) is not reached, and Red could still leave the cycle
    // on its next move, so the score is a loss further off rather than on the spot.
    let check: Move = "i8i9".parse().unwrap();
    let round = ["i8i9", "e9e8", "i9i8", "e8e9"];
    let history = |rounds: usize| moves(&round.repeat(rounds));
    let mut engine = Engine::new(Options::default());
    let limits = || Limits {
        depth: Some(4),
        search_moves: vec![check],
        ..Limits::default()
    };
    let once = SearchRoot::from_moves(pos(fen), &history(1)).unwrap();
    let r = engine.search(&once, limits());
    let score = r.report.lines[0].score;
    assert!(matches!(score, Score::Mate(n) if n < -1), "{score:?}");
    // Twice round, the check makes the third occurrence: Red's checks against Black's
    // idle moves lose on the spot.
    engine.new_game();
    let twice = SearchRoot::from_moves(pos(fen), &history(2)).unwrap();
    let r = engine.search(&twice, limits());
    assert_eq!(r.report.lines[0].score, Score::Mate(-1));
}

/// From a game against Fairy-Stockfish that its referee (`pyffish` 0.0.90) drew: Black
/// (Chuhe) is a rook and more up. The position has occurred twice; since the first time
/// Red's rook has chased a pawn and then checked. Black's general steps aside, Red checks
/// twice more and the position occurs a third time. Red checked throughout that last
/// cycle, but a referee judges the whole cycle since the first occurrence: one check and
/// one chase (一将一捉), which the Chinese rules forbid and that referee lets pass. The
/// search once judged only its own cycle, counted Red's perpetual check as a win for Black,
/// and walked into the draw.
#[test]
fn at_the_third_occurrence_the_whole_cycle_is_judged() {
    let fen = "4k4/9/4R4/8p/9/p4p2P/2n3p2/4C4/4K4/2B2r3 b - - 11 56";
    let moves = moves(&[
        "e9f9", "e7g7", "g3h3", "g7h7", "h3g3", "h7f7", "f9e9", "f7e7",
    ]);
    let root = SearchRoot::from_moves(pos(fen), &moves).unwrap();
    let step: Move = "e9d9".parse().unwrap();
    let limits = || Limits {
        depth: Some(6),
        search_moves: vec![step],
        ..Limits::default()
    };
    // Playing a match, the engine does not count on a win by the chase rule: the third
    // occurrence is a draw, and Red takes it.
    let mut engine = Engine::new(Options {
        trust_chase_wins: false,
        ..Options::default()
    });
    let r = engine.search(&root, limits());
    assert_eq!(r.report.lines[0].score, Score::Cp(0));
    let cycle = r.report.lines[0].moves[..4].to_vec();
    // Analysing, it trusts the rules: that cycle would lose for Red, who avoids it.
    let mut engine = Engine::new(Options::default());
    let r = engine.search(&root, limits());
    let score = r.report.lines[0].score;
    assert!(score > Score::Cp(300), "{score:?}");
    // The game's referee judges the whole cycle the same way.
    let mut game = Game::new(pos(fen));
    for m in moves.iter().chain(&cycle) {
        game.play(*m).unwrap();
    }
    let outcome = game.outcome().expect("the third occurrence ends the game");
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(
        outcome.reason,
        EndReason::ForbiddenRepetition {
            kind: ForbiddenKind::CheckAndChase
        }
    );
}

#[test]
fn perpetual_chase_loses_for_the_chaser() {
    // Fairy-Stockfish's test "Direct chase by cannon" (../shared/data/notation/
    // fsf_xiangqi_test_vectors.json): Red's cannon chases Black's unprotected rook, which
    // steps between a7 and b7. Twice round the cycle, Red to move: chasing again repeats,
    // and 长捉 loses; a draw it would be without the 棋例.
    let fen = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1";
    let moves = moves(&[
        "c2a2", "a7b7", "a2b2", "b7a7", "b2a2", "a7b7", "a2b2", "b7a7",
    ]);
    let root = SearchRoot::from_moves(pos(fen), &moves).unwrap();
    let chase: Move = "b2a2".parse().unwrap();
    let mut engine = Engine::new(Options::default());
    let r = engine.search(
        &root,
        Limits {
            depth: Some(4),
            search_moves: vec![chase],
            ..Limits::default()
        },
    );
    assert_eq!(r.report.lines[0].score, Score::Mate(-1));
    // Free to choose, Red does something else.
    let r = engine.search(&root, Limits::depth(6));
    assert_ne!(r.best_move, Some(chase));
    assert!(r.report.lines[0].score > Score::Mate(-1));
}

#[test]
fn a_repetition_without_checks_is_a_draw_and_history_counts() {
    // Red is a rook up. Both generals have stepped out and back twice, and Red's out
    // again; Black can repeat the earlier position a third time by stepping out too, and
    // the game history makes that a draw.
    let fen = "5k3/9/9/9/8r/9/9/9/9/RR1K5 w - - 0 1";
    let moves = moves(&[
        "d0d1", "f9f8", "d1d0", "f8f9", "d0d1", "f9f8", "d1d0", "f8f9", "d0d1",
    ]);
    let with_history = SearchRoot::from_moves(pos(fen), &moves).unwrap();
    let without = SearchRoot::new(with_history.position().clone());
    let mut engine = Engine::new(Options::default());
    let r = engine.search(&with_history, Limits::depth(6));
    assert_eq!(r.report.lines[0].score, Score::Cp(0));
    engine.new_game();
    let r = engine.search(&without, Limits::depth(6));
    assert!(
        matches!(r.report.lines[0].score, Score::Cp(v) if v < -300)
            || matches!(r.report.lines[0].score, Score::Mate(n) if n < 0)
    );
}

/// A game lost to Fairy-Stockfish: Red is two horses up and its static evaluation is about
/// +10 pawns, yet Black mates. Red's pruning sees only the material; the null move shows
/// that passing loses to a mate, and the node searched a ply deeper finds the mate at
/// depth 7 where it once took depth 9 (the score at depth 7 was +404).
#[test]
fn a_mate_threat_against_the_side_ahead_is_seen_early() {
    let fen = "4ka3/3ca4/2C1N1R2/p3p2Rp/2P6/4P4/P3r3P/9/3r5/2B1K2N1 w - - 9 31";
    let r = search(fen, Limits::depth(7));
    let score = r.report.lines[0].score;
    assert!(score < Score::Cp(-1000), "{score:?}");
}

#[test]
fn dead_drawn_endings_score_near_zero() {
    for fen in [
        // A lone horse, a lone cannon, a lone rook against full advisors and elephants.
        "2bakab2/9/9/9/9/9/9/4N4/9/3K5 w - - 0 1",
        "2bakab2/9/9/9/9/9/9/4C4/4A4/3AK4 w - - 0 1",
        "2bakab2/9/9/9/9/9/9/R8/9/3K5 w - - 0 1",
        // Rook against horse with full advisors and elephants.
        "2bakab2/9/4n4/9/9/9/9/4R4/9/3K5 w - - 0 1",
    ] {
        let r = search(fen, Limits::depth(9));
        let score = r.report.lines[0].score;
        assert!(
            matches!(score, Score::Cp(v) if v.abs() <= 50),
            "{fen}: {score:?}"
        );
    }
    // A rook against a bare general is a win, not a draw.
    let r = search("3k5/9/9/9/9/9/9/4R4/9/4K4 w - - 0 1", Limits::depth(9));
    assert!(r.report.lines[0].score > Score::Cp(500));
}

#[test]
fn multipv_gives_distinct_lines_best_first() {
    let mut engine = Engine::new(Options {
        multipv: 4,
        ..Options::default()
    });
    let r = engine.search(&SearchRoot::new(Position::startpos()), Limits::depth(5));
    let lines = &r.report.lines;
    assert_eq!(lines.len(), 4);
    let mut firsts: Vec<Move> = lines.iter().map(|l| l.moves[0]).collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 4);
    assert!(lines.windows(2).all(|w| w[0].score >= w[1].score));
    assert!(
        lines
            .iter()
            .enumerate()
            .all(|(i, l)| l.multipv == i + 1 && l.depth == 5)
    );
    assert_eq!(r.best_move, Some(lines[0].moves[0]));
}

#[test]
fn threads_search_together() {
    let mut engine = Engine::new(Options {
        threads: 3,
        ..Options::default()
    });
    let fen = "1R1a2R2/4ak3/4P4/9/9/9/5r3/4B4/4C4/2B1K4 w - - 0 1";
    let r = engine.search(&SearchRoot::new(pos(fen)), Limits::depth(9));
    assert_eq!(r.report.lines[0].score, Score::Mate(4));
    let r = engine.search(&SearchRoot::new(Position::startpos()), Limits::depth(8));
    assert!(Position::startpos().is_legal(r.best_move.unwrap()));
    assert_eq!(r.report.depth, 8);
}

#[test]
fn stop_ends_an_infinite_search_with_a_move() {
    let mut engine = Engine::new(Options::default());
    engine.start(
        &SearchRoot::new(Position::startpos()),
        Limits {
            infinite: true,
            ..Limits::default()
        },
        |_| {},
    );
    std::thread::sleep(Duration::from_millis(100));
    assert!(engine.is_searching());
    let r = engine.stop().expect("a search was running");
    assert!(!engine.is_searching());
    assert!(Position::startpos().is_legal(r.best_move.unwrap()));
    assert!(r.report.depth >= 1);
}

#[test]
fn node_and_mate_limits_end_the_search() {
    let r = search(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        Limits::nodes(20_000),
    );
    // The limit is checked every 1024 nodes.
    assert!(
        r.report.nodes >= 20_000 && r.report.nodes < 22_000,
        "{}",
        r.report.nodes
    );
    let r = search(
        "3ak4/4aP3/9/p7p/4R4/4C4/P3c3P/B3B4/4A4/3r1K3 w - - 0 1",
        Limits {
            mate: Some(2),
            ..Limits::default()
        },
    );
    assert_eq!(r.report.lines[0].score, Score::Mate(2));
}

#[test]
fn a_low_skill_level_picks_among_the_best_lines() {
    let mut engine = Engine::new(Options {
        skill_level: 0,
        ..Options::default()
    });
    let root = SearchRoot::new(Position::startpos());
    let mut off_top = 0;
    for _ in 0..10 {
        let r = engine.search(&root, Limits::depth(4));
        let lines = &r.report.lines;
        // The weakened engine looks at four lines and plays the first move of one of them.
        assert!(lines.len() >= 4);
        let best = r.best_move.unwrap();
        assert!(lines.iter().any(|l| l.moves[0] == best));
        if best != lines[0].moves[0] {
            off_top += 1;
        }
    }
    // With the opening's lines close together, level 0 rarely plays the top one: all ten
    // on top would happen about once in a million runs.
    assert!(off_top > 0);
}

/// Engine options with every check left out of the move limit's count, in `reading`.
fn no_check_counted(reading: chuhe_core::search::MoveLimitReading) -> Options {
    Options {
        rules: chuhe_core::Rules {
            move_limit_counted_checks: 0,
            ..chuhe_core::Rules::default()
        },
        move_limit_reading: reading,
        ..Options::default()
    }
}

/// The score of the first line after searching `start` then `history` to `depth` with
/// [`no_check_counted`] options.
fn limit_score(
    start: &str,
    history: &[&str],
    reading: chuhe_core::search::MoveLimitReading,
    depth: u32,
) -> Score {
    let root = SearchRoot::from_moves(pos(start), &moves(history)).unwrap();
    assert_eq!(root.position().halfmove_clock(), 120);
    let result = Engine::new(no_check_counted(reading)).search(&root, Limits::depth(depth));
    result.report.lines[0].score
}

/// Red, a rook up, gave the last three checks: under the rules only Black may claim the
/// move limit's draw (Red's checks do not count as moves for Red), and does; a referee
/// that leaves out the checks of the side that gave most plays on for three moves more,
/// time enough for Red to mate.
#[test]
fn the_move_limit_is_the_claimants_draw_or_the_referees() {
    use chuhe_core::search::MoveLimitReading::{Claimant, MostChecks};
    let start = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 114 1";
    let checks = ["a1a9", "e9e8", "a9a8", "e8e7", "a8a7", "e7e8"];
    assert_eq!(limit_score(start, &checks, Claimant, 6), Score::Cp(0));
    match limit_score(start, &checks, MostChecks, 6) {
        Score::Cp(cp) => assert!(cp > 100, "{cp}"),
        Score::Mate(n) => assert!(n > 0, "mate {n}"),
    }
}

/// Black gave the last three checks and Red is a rook up: only Red may claim the draw,
/// and Red plays on, so Black's position is lost, not drawn as a count that ignored the
/// checks would have it.
#[test]
fn the_side_ahead_plays_on_when_only_it_could_claim_the_move_limit() {
    use chuhe_core::search::MoveLimitReading::{Claimant, MostChecks};
    let start = "3k5/9/9/9/7RR/9/9/9/r8/4K4 b - - 114 1";
    let checks = ["a1a0", "e0e1", "a0a1", "e1e2", "a1a2", "e2e1"];
    for reading in [Claimant, MostChecks] {
        match limit_score(start, &checks, reading, 6) {
            Score::Cp(cp) => assert!(cp < -100, "{reading:?}: {cp}"),
            Score::Mate(n) => assert!(n < 0, "{reading:?}: mate {n}"),
        }
    }
}

/// Leaving the other side no move on the last move before the limit wins, as a mate does
/// (the game's outcome puts 困毙 first): both when the limit is a draw for both and when
/// only the side left without a move could have claimed it.
#[test]
fn no_move_left_on_the_last_move_before_the_limit_still_wins() {
    use chuhe_core::search::MoveLimitReading::Claimant;
    // No check in the count: the pawn's step takes d8 at the 120th ply.
    let r = search("3k5/9/9/3P5/9/9/9/9/9/4K4 w - - 119 1", Limits::depth(3));
    assert_eq!(r.report.lines[0].score, Score::Mate(1));
    // Red checked twice in the last four plies, so only Black could claim the draw
    // (checks beyond none left out), and Black, left without a move, cannot.
    let root = SearchRoot::from_moves(
        pos("3k5/9/9/3P5/9/9/9/9/9/R3K4 w - - 115 1"),
        &moves(&["a0a9", "d9d8", "a9a8", "d8d9"]),
    )
    .unwrap();
    assert_eq!(root.position().halfmove_clock(), 119);
    let r = Engine::new(no_check_counted(Claimant)).search(&root, Limits::depth(3));
    assert_eq!(r.report.lines[0].score, Score::Mate(1));
}

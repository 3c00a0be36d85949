//! The club manager: Berger tables, Swiss pairings, the tie-breaks of rules 15.1/15.2
//! against examples worked out by hand, and club files on disk.

use chuhe_core::club::{
    Club, ClubError, ClubStore, Format, GameResult, GradeGroup, Inconsistency, PlayerId, Round,
    Standing, Tournament, berger_table, parse,
};
use chuhe_core::play::Rng;
use std::collections::{HashMap, HashSet};

// ---------------------------------------------------------------------------------------
// Berger tables

#[test]
fn berger_tables_for_3_to_14_players_pair_everyone_once_with_balanced_colours() {
    for n in 3..=14 {
        let table = berger_table(n);
        let rounds = if n.is_multiple_of(2) { n - 1 } else { n };
        assert_eq!(table.len(), rounds, "{n} players: rounds");
        let mut met: HashMap<(usize, usize), usize> = HashMap::new();
        let mut reds = vec![0i32; n];
        let mut blacks = vec![0i32; n];
        let mut byes = vec![0; n];
        for (r, round) in table.iter().enumerate() {
            let mut seen = HashSet::new();
            for &(red, black) in &round.pairs {
                assert!(red < n && black < n && red != black);
                assert!(
                    seen.insert(red) && seen.insert(black),
                    "{n}: round {r} twice"
                );
                *met.entry((red.min(black), red.max(black))).or_default() += 1;
                reds[red] += 1;
                blacks[black] += 1;
            }
            match round.bye {
                Some(b) => {
                    assert!(n % 2 == 1, "{n} players: no bye in an even field");
                    assert!(seen.insert(b), "{n}: the bye also plays");
                    byes[b] += 1;
                }
                None => assert!(n.is_multiple_of(2), "{n} players: a bye every round"),
            }
            assert_eq!(seen.len(), n, "{n}: round {r} leaves someone out");
        }
        for a in 0..n {
            for b in a + 1..n {
                assert_eq!(met.get(&(a, b)), Some(&1), "{n}: {a} and {b} meet once");
            }
            assert!(
                (reds[a] - blacks[a]).abs() <= 1,
                "{n} players: player {a} has {} Reds and {} Blacks",
                reds[a],
                blacks[a]
            );
            assert_eq!(reds[a] + blacks[a], n as i32 - 1);
            assert_eq!(byes[a], usize::from(n % 2 == 1), "{n}: byes of {a}");
        }
    }
}

#[test]
fn the_six_player_table_is_the_official_one() {
    // 《循环赛对局秩序表》 for six players (draw numbers, Red first):
    // 1: 1-6 2-5 3-4 / 2: 6-4 5-3 1-2 / 3: 2-6 3-1 4-5 / 4: 6-5 1-4 2-3 / 5: 3-6 4-2 5-1
    let expected = [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ];
    let table = berger_table(6);
    for (round, want) in table.iter().zip(expected) {
        let got: Vec<(usize, usize)> = round.pairs.iter().map(|&(r, b)| (r + 1, b + 1)).collect();
        assert_eq!(got, want);
    }
    // Five players: the same table with number 6 as the bye.
    let five = berger_table(5);
    assert_eq!(five[0].bye, Some(0));
    assert_eq!(five[0].pairs, vec![(1, 4), (2, 3)]);
    assert_eq!(five[1].bye, Some(3));
}

#[test]
fn too_few_players_make_no_tournament() {
    assert!(berger_table(1).is_empty());
    assert!(matches!(
        Tournament::round_robin(GradeGroup::Low, vec![7]),
        Err(ClubError::TooFewPlayers)
    ));
    assert!(matches!(
        Tournament::swiss(GradeGroup::Low, vec![1, 2, 3, 4], 4),
        Err(ClubError::BadRoundCount)
    ));
}

// ---------------------------------------------------------------------------------------
// Swiss

fn random_result(rng: &mut Rng) -> GameResult {
    match rng.below(20) {
        0..=7 => GameResult::RedWins,
        8..=11 => GameResult::Draw,
        12..=18 => GameResult::BlackWins,
        _ => GameResult::ALL[3 + rng.below(3) as usize],
    }
}

/// Scores by player id before each round, worked out here from the results (a bye is 1).
fn scores(t: &Tournament, rounds: usize) -> HashMap<PlayerId, f64> {
    let mut s: HashMap<PlayerId, f64> = t.players.iter().map(|&p| (p, 0.0)).collect();
    for round in &t.rounds[..rounds] {
        for p in &round.pairings {
            let (r, b) = match p.result.unwrap() {
                GameResult::RedWins | GameResult::BlackForfeits => (1.0, 0.0),
                GameResult::Draw => (0.5, 0.5),
                GameResult::BlackWins | GameResult::RedForfeits => (0.0, 1.0),
                GameResult::BothForfeit => (0.0, 0.0),
            };
            *s.get_mut(&p.red).unwrap() += r;
            *s.get_mut(&p.black).unwrap() += b;
        }
        if let Some(b) = round.bye {
            *s.get_mut(&b).unwrap() += 1.0;
        }
    }
    s
}

#[test]
fn swiss_pairings_never_repeat_a_game_and_give_byes_to_the_lowest() {
    // A seeded generator, so the simulations are the same on every run.
    let mut rng = Rng::new(0x5EED_C1AB);
    let mut tournaments = 0;
    for _ in 0..300 {
        let n = 4 + rng.below(27) as usize; // 4..=30 players
        // Rounds a field can always be paired for (each player has more unmet opponents
        // than half the field), capped near the usual ⌈log2 n⌉ + 2.
        let max = if n.is_multiple_of(2) {
            n / 2
        } else {
            (n - 1) / 2
        };
        let log = (usize::BITS - (n - 1).leading_zeros()) as usize + 2;
        let rounds = max.min(log) as u32;
        let players: Vec<PlayerId> = (100..100 + n as PlayerId).collect();
        let mut t = Tournament::swiss(GradeGroup::High, players.clone(), rounds).unwrap();
        let mut met: HashSet<(PlayerId, PlayerId)> = HashSet::new();
        let mut had_bye: HashSet<PlayerId> = HashSet::new();
        for r in 0..rounds as usize {
            if r > 0 {
                assert!(t.can_pair_next());
                t.pair_next_round().unwrap();
            }
            assert_eq!(t.rounds.len(), r + 1);
            let before = scores(&t, r);
            let round: &Round = &t.rounds[r];
            let mut seen = HashSet::new();
            for p in &round.pairings {
                assert!(seen.insert(p.red) && seen.insert(p.black));
                let key = (p.red.min(p.black), p.red.max(p.black));
                assert!(
                    met.insert(key),
                    "{n} players, round {}: {key:?} again",
                    r + 1
                );
            }
            if let Some(bye) = round.bye {
                assert!(n % 2 == 1);
                assert!(seen.insert(bye));
                assert!(had_bye.insert(bye), "a second bye for {bye}");
                // The lowest score among those without a bye before.
                let lowest = players
                    .iter()
                    .filter(|p| !had_bye.contains(p) || **p == bye)
                    .map(|p| before[p])
                    .fold(f64::INFINITY, f64::min);
                assert_eq!(before[&bye], lowest, "{n} players: bye to a higher score");
            } else {
                assert!(n.is_multiple_of(2));
            }
            assert_eq!(seen.len(), n);
            // Enter random results; the next round cannot be paired before the last one.
            let boards = t.rounds[r].pairings.len();
            for b in 0..boards {
                if r + 1 < rounds as usize && b == boards - 1 {
                    assert!(matches!(
                        t.pair_next_round(),
                        Err(ClubError::RoundIncomplete)
                    ));
                }
                t.set_result(r, b, Some(random_result(&mut rng))).unwrap();
            }
        }
        // Colours: nobody more than two games of one colour ahead.
        for e in t.swiss_entrants() {
            let diff: i32 = e.colours.iter().map(|&c| if c { 1 } else { -1 }).sum();
            assert!(diff.abs() <= 2, "{n} players: colours {:?}", e.colours);
        }
        assert!(matches!(
            t.pair_next_round(),
            Err(ClubError::AllRoundsPaired)
        ));
        tournaments += 1;
    }
    assert_eq!(tournaments, 300);
}

#[test]
fn swiss_pairs_within_score_groups_top_half_against_bottom_half() {
    // Eight players, draw numbers 1–8. Round one: 1–5, 2–6, 3–7, 4–8.
    let players: Vec<PlayerId> = (1..=8).collect();
    let mut t = Tournament::swiss(GradeGroup::Middle, players, 3).unwrap();
    let pairs: Vec<(PlayerId, PlayerId)> = t.rounds[0]
        .pairings
        .iter()
        .map(|p| (p.red.min(p.black), p.red.max(p.black)))
        .collect();
    assert_eq!(pairs, vec![(1, 5), (2, 6), (3, 7), (4, 8)]);
    // Colours alternate down the boards: 1 Red, 6 Red, 3 Red, 8 Red.
    let reds: Vec<PlayerId> = t.rounds[0].pairings.iter().map(|p| p.red).collect();
    assert_eq!(reds, vec![1, 6, 3, 8]);
    // 1–4 win. Winners {1,2,3,4}: 1 and 3 had Red, 2 and 4 Black. 1 meets the bottom half
    // {3,4}: 3 is due Black like 1, 4 is due Red → 1–4, then 2–3. Losers {5,6,7,8}: 5 and 7
    // had Black, 6 and 8 Red; 5 takes 8 (not 7, both due Red), then 6–7.
    for b in 0..4 {
        let p = &t.rounds[0].pairings[b];
        let result = if p.red < p.black {
            GameResult::RedWins
        } else {
            GameResult::BlackWins
        };
        t.set_result(0, b, Some(result)).unwrap();
    }
    t.pair_next_round().unwrap();
    let mut pairs: Vec<(PlayerId, PlayerId)> = t.rounds[1]
        .pairings
        .iter()
        .map(|p| (p.red.min(p.black), p.red.max(p.black)))
        .collect();
    pairs.sort();
    assert_eq!(pairs, vec![(1, 4), (2, 3), (5, 8), (6, 7)]);
    // Everyone gets the other colour than in round one.
    for p in &t.rounds[1].pairings {
        assert!(reds.contains(&p.black) && !reds.contains(&p.red), "{p:?}");
    }
}

#[test]
fn a_field_that_has_played_everyone_cannot_be_paired_again() {
    // Four players, three rounds: after two rounds each has one possible opponent left,
    // which works; a Swiss may not have more rounds than that.
    let mut t = Tournament::swiss(GradeGroup::Low, vec![1, 2, 3, 4], 3).unwrap();
    for r in 0..3 {
        if r > 0 {
            match t.pair_next_round() {
                Ok(()) => {}
                // An earlier choice can leave no third round; that is an answer, not a panic.
                Err(ClubError::NoPairing) => return,
                Err(e) => panic!("{e}"),
            }
        }
        for b in 0..2 {
            t.set_result(r, b, Some(GameResult::Draw)).unwrap();
        }
    }
    let mut met = HashSet::new();
    for p in t.rounds.iter().flat_map(|r| &r.pairings) {
        assert!(met.insert((p.red.min(p.black), p.red.max(p.black))));
    }
    assert_eq!(met.len(), 6);
}

// ---------------------------------------------------------------------------------------
// Standings and tie-breaks (rule 15.1 / 15.2), against results worked out by hand.

/// Enters the game between `a` and `b`, as `a`'s result: 1 a wins, 0.5 a draw, 0 b wins.
fn play(t: &mut Tournament, a: PlayerId, b: PlayerId, a_scores: f64) {
    for r in 0..t.rounds.len() {
        for board in 0..t.rounds[r].pairings.len() {
            let p = &t.rounds[r].pairings[board];
            if (p.red, p.black) == (a, b) || (p.red, p.black) == (b, a) {
                let red_scores = if p.red == a { a_scores } else { 1.0 - a_scores };
                let result = if red_scores == 1.0 {
                    GameResult::RedWins
                } else if red_scores == 0.5 {
                    GameResult::Draw
                } else {
                    GameResult::BlackWins
                };
                t.set_result(r, board, Some(result)).unwrap();
                return;
            }
        }
    }
    panic!("{a} and {b} do not meet");
}

/// Adds `fouls` to `player` on the first game it plays.
fn foul(t: &mut Tournament, player: PlayerId, fouls: u32) {
    for r in 0..t.rounds.len() {
        for board in 0..t.rounds[r].pairings.len() {
            let p = t.rounds[r].pairings[board].clone();
            if p.red == player {
                t.set_fouls(r, board, p.red_fouls + fouls, p.black_fouls)
                    .unwrap();
                return;
            }
            if p.black == player {
                t.set_fouls(r, board, p.red_fouls, p.black_fouls + fouls)
                    .unwrap();
                return;
            }
        }
    }
}

fn line(s: &[Standing], p: PlayerId) -> &Standing {
    s.iter().find(|l| l.player == p).unwrap()
}

/// (player, rank) in table order.
fn ranks(s: &[Standing]) -> Vec<(PlayerId, usize)> {
    s.iter().map(|l| (l.player, l.rank)).collect()
}

const A: PlayerId = 1;
const B: PlayerId = 2;
const C: PlayerId = 3;
const D: PlayerId = 4;
const E: PlayerId = 5;
const F: PlayerId = 6;

#[test]
fn a_three_way_tie_on_points_split_by_small_points_then_head_to_head() {
    // Five players. Results (row beats column …):
    //   A: beats B, loses to C, draws D, beats E        = 2.5
    //   B: loses to A, beats C, beats D, draws E         = 2.5
    //   C: beats A, loses to B, draws D, beats E         = 2.5
    //   D: draws A, loses to B, draws C, beats E         = 2.0
    //   E: loses to A, draws B, loses to C, loses to D   = 0.5   (total 10 = 10 games)
    // 小分 (beaten opponents' points + half of drawn opponents'):
    //   A: B 2.5 + E 0.5 + ½·D 2.0        = 4.0
    //   B: C 2.5 + D 2.0 + ½·E 0.5        = 4.75
    //   C: A 2.5 + E 0.5 + ½·D 2.0        = 4.0
    //   D: E 0.5 + ½·A 2.5 + ½·C 2.5      = 3.0
    //   E: ½·B 2.5                        = 1.25
    // B leads the three on 2.5 by 小分. A and C: 4.0 each, two wins each; 直胜: C beat A.
    // Places: B 1, C 2, A 3, D 4, E 5; B, C, A the top three.
    let mut t = Tournament::round_robin(GradeGroup::Low, vec![A, B, C, D, E]).unwrap();
    play(&mut t, A, B, 1.0);
    play(&mut t, A, C, 0.0);
    play(&mut t, A, D, 0.5);
    play(&mut t, A, E, 1.0);
    play(&mut t, B, C, 1.0);
    play(&mut t, B, D, 1.0);
    play(&mut t, B, E, 0.5);
    play(&mut t, C, D, 0.5);
    play(&mut t, C, E, 1.0);
    play(&mut t, D, E, 1.0);
    let s = t.standings();
    assert_eq!(ranks(&s), vec![(B, 1), (C, 2), (A, 3), (D, 4), (E, 5)]);
    for (p, points, sb, wins) in [
        (A, 2.5, 4.0, 2),
        (B, 2.5, 4.75, 2),
        (C, 2.5, 4.0, 2),
        (D, 2.0, 3.0, 1),
        (E, 0.5, 1.25, 0),
    ] {
        let l = line(&s, p);
        assert_eq!(
            (l.points, l.sonneborn_berger, l.wins),
            (points, sb, wins),
            "{p}"
        );
    }
    // 直胜 was needed for A and C only: C 1 against A, A 0.
    assert_eq!(line(&s, C).head_to_head, Some(1.0));
    assert_eq!(line(&s, A).head_to_head, Some(0.0));
    assert_eq!(line(&s, B).head_to_head, None);
    let top: Vec<PlayerId> = s.iter().filter(|l| l.top_three).map(|l| l.player).collect();
    assert_eq!(top, vec![B, C, A]);
}

#[test]
fn a_three_way_tie_through_small_points_and_wins_goes_to_head_to_head_then_fouls() {
    // Six players, 15 games:
    //   A–B 0-1, A–C 0-1, A–D 0-1, A–E 0-1, A–F ½
    //   B–C 0-1, B–D 1-0, B–E ½,   B–F 1-0
    //   C–D ½,   C–E 0-1, C–F 0-1
    //   D–E 1-0, D–F 0-1
    //   E–F 1-0
    // Points: A ½; B 1+1+½+1 = 3.5; C 1+1+½ = 2.5; D 1+½+1 = 2.5; E 1+½+1+1 = 3.5;
    //         F ½+1+1 = 2.5 (total 15).
    // 小分: B: A ½ + D 2.5 + F 2.5 + ½·E 3.5 = 7.25;  E: A ½ + C 2.5 + F 2.5 + ½·B 3.5 = 7.25
    //       C: A ½ + B 3.5 + ½·D 2.5 = 5.25;  D: A ½ + E 3.5 + ½·C 2.5 = 5.25;
    //       F: C 2.5 + D 2.5 + ½·A ½ = 5.25;  A: ½·F 2.5 = 1.25.
    // Wins: B 3, E 3; C 2, D 2, F 2.
    // B and E: level on 小分 and wins, drew each other (直胜 ½ each), no fouls: they share
    // first place.
    // C, D, F: level on 小分 and wins; 直胜 among the three: C ½ (draw D, lost F),
    // D ½ (draw C, lost F), F 2 → F third. C and D again between themselves: drew, ½
    // each → 犯规: C had one foul, D none → D 4th, C 5th. A 6th.
    let mut t = Tournament::round_robin(GradeGroup::Middle, vec![A, B, C, D, E, F]).unwrap();
    for (a, b, score) in [
        (A, B, 0.0),
        (A, C, 0.0),
        (A, D, 0.0),
        (A, E, 0.0),
        (A, F, 0.5),
        (B, C, 0.0),
        (B, D, 1.0),
        (B, E, 0.5),
        (B, F, 1.0),
        (C, D, 0.5),
        (C, E, 0.0),
        (C, F, 0.0),
        (D, E, 1.0),
        (D, F, 0.0),
        (E, F, 1.0),
    ] {
        play(&mut t, a, b, score);
    }
    foul(&mut t, C, 1);
    let s = t.standings();
    let r = ranks(&s);
    assert_eq!(r[..2].iter().map(|x| x.1).collect::<Vec<_>>(), vec![1, 1]);
    let firsts: HashSet<PlayerId> = r[..2].iter().map(|x| x.0).collect();
    assert_eq!(firsts, HashSet::from([B, E]));
    assert_eq!(&r[2..], &[(F, 3), (D, 4), (C, 5), (A, 6)]);
    for (p, sb) in [
        (A, 1.25),
        (B, 7.25),
        (C, 5.25),
        (D, 5.25),
        (E, 7.25),
        (F, 5.25),
    ] {
        assert_eq!(line(&s, p).sonneborn_berger, sb, "{p}");
    }
    assert_eq!(line(&s, F).head_to_head, Some(2.0));
    assert_eq!(line(&s, C).head_to_head, Some(0.5));
    assert_eq!(line(&s, C).fouls, 1);
    let top: HashSet<PlayerId> = s.iter().filter(|l| l.top_three).map(|l| l.player).collect();
    assert_eq!(top, HashSet::from([B, E, F]));
}

#[test]
fn a_four_way_tie_split_by_wins_leaves_a_cycle_that_shares_first_place() {
    // A draws B, C and D; B beats C, C beats D, D beats B.
    // Points: 1.5 each. 小分: A ½·(1.5·3) = 2.25; B: C 1.5 + ½·A 1.5 = 2.25; likewise C
    // and D → level. Wins: A 0, B C D 1 → A last. 直胜 among B, C, D: 1 each (a cycle).
    // No fouls: B, C, D share first place; A is 4th.
    let mut t = Tournament::round_robin(GradeGroup::High, vec![A, B, C, D]).unwrap();
    play(&mut t, A, B, 0.5);
    play(&mut t, A, C, 0.5);
    play(&mut t, A, D, 0.5);
    play(&mut t, B, C, 1.0);
    play(&mut t, C, D, 1.0);
    play(&mut t, D, B, 1.0);
    let s = t.standings();
    for p in [B, C, D] {
        assert_eq!(line(&s, p).rank, 1);
        assert_eq!(line(&s, p).sonneborn_berger, 2.25);
        assert_eq!(line(&s, p).head_to_head, Some(1.0));
        assert!(line(&s, p).top_three);
    }
    assert_eq!(line(&s, A).rank, 4);
    assert_eq!(line(&s, A).sonneborn_berger, 2.25);
    assert!(!line(&s, A).top_three);
    // One foul on D puts it behind B and C, who still share first.
    foul(&mut t, D, 1);
    let s = t.standings();
    assert_eq!(
        (line(&s, B).rank, line(&s, C).rank, line(&s, D).rank),
        (1, 1, 3)
    );
}

#[test]
fn forfeits_score_as_wins_and_losses_and_a_double_forfeit_as_two_losses() {
    // Three players (each sits out once). A–B: B absent (A +, B −). B–C: both absent.
    // A–C: draw. A 1.5 (one win), C 0.5, B 0 (two losses).
    let mut t = Tournament::round_robin(GradeGroup::Low, vec![A, B, C]).unwrap();
    let find = |t: &Tournament, x: PlayerId, y: PlayerId| {
        for (r, round) in t.rounds.iter().enumerate() {
            for (b, p) in round.pairings.iter().enumerate() {
                if (p.red == x && p.black == y) || (p.red == y && p.black == x) {
                    return (r, b, p.red == x);
                }
            }
        }
        panic!()
    };
    let (r, b, a_red) = find(&t, A, B);
    let forfeit = if a_red {
        GameResult::BlackForfeits
    } else {
        GameResult::RedForfeits
    };
    t.set_result(r, b, Some(forfeit)).unwrap();
    let (r, b, _) = find(&t, B, C);
    t.set_result(r, b, Some(GameResult::BothForfeit)).unwrap();
    play(&mut t, A, C, 0.5);
    let s = t.standings();
    assert_eq!(ranks(&s), vec![(A, 1), (C, 2), (B, 3)]);
    let (a, bl, c) = (line(&s, A), line(&s, B), line(&s, C));
    assert_eq!((a.points, a.wins, a.draws, a.losses), (1.5, 1, 1, 0));
    assert_eq!((bl.points, bl.wins, bl.losses, bl.played), (0.0, 0, 2, 2));
    assert_eq!((c.points, c.draws, c.losses), (0.5, 1, 1));
    // 小分: A beat B (0) + ½·C 0.5 = 0.25; C: ½·A 1.5 = 0.75.
    assert_eq!((a.sonneborn_berger, c.sonneborn_berger), (0.25, 0.75));
}

#[test]
fn swiss_standings_use_opponents_points_and_a_bye_scores_one() {
    // Five players, two rounds, paired by hand:
    //   round 1: 1–2 1-0, 3–4 ½, bye 5;  round 2: 5–1 1-0, 2–3 1-0, bye 4.
    // Points: 1: 1; 2: 1; 3: ½; 4: ½ + bye 1 = 1.5; 5: bye 1 + 1 = 2.
    // 对手分 (opponents met; a bye is no opponent): 1: 2 (1) + 5 (2) = 3; 2: 1 (1) + 3 (½)
    // = 1.5; 3: 4 (1.5) + 2 (1) = 2.5; 4: 3 (½) = 0.5; 5: 1 (1) = 1.
    // Places: 5, 4, then 1 and 2 on one point split by 对手分 3 > 1.5, then 3.
    let pairing = |red, black, result| chuhe_core::club::Pairing {
        red,
        black,
        result: Some(result),
        red_fouls: 0,
        black_fouls: 0,
        game: None,
    };
    let t = Tournament {
        group: GradeGroup::High,
        format: Format::Swiss { rounds: 2 },
        players: vec![1, 2, 3, 4, 5],
        rounds: vec![
            Round {
                pairings: vec![
                    pairing(1, 2, GameResult::RedWins),
                    pairing(3, 4, GameResult::Draw),
                ],
                bye: Some(5),
            },
            Round {
                pairings: vec![
                    pairing(5, 1, GameResult::RedWins),
                    pairing(2, 3, GameResult::RedWins),
                ],
                bye: Some(4),
            },
        ],
    };
    let s = t.standings();
    assert_eq!(ranks(&s), vec![(5, 1), (4, 2), (1, 3), (2, 4), (3, 5)]);
    for (p, points, buchholz) in [
        (1, 1.0, 3.0),
        (2, 1.0, 1.5),
        (3, 0.5, 2.5),
        (4, 1.5, 0.5),
        (5, 2.0, 1.0),
    ] {
        let l = line(&s, p);
        assert_eq!((l.points, l.buchholz), (points, buchholz), "{p}");
    }
    // The bye is no win.
    assert_eq!(line(&s, 4).wins, 0);
}

#[test]
fn nothing_is_marked_before_the_first_result() {
    let t = Tournament::round_robin(GradeGroup::Low, vec![A, B, C, D]).unwrap();
    let s = t.standings();
    assert!(
        s.iter()
            .all(|l| l.rank == 1 && !l.top_three && l.points == 0.0)
    );
}

#[test]
fn nobody_is_champion_before_the_last_round_is_complete() {
    // A round robin of four: three rounds of two boards. Red wins every game.
    let mut t = Tournament::round_robin(GradeGroup::Low, vec![A, B, C, D]).unwrap();
    let boards: Vec<(usize, usize)> = (0..t.rounds.len())
        .flat_map(|r| (0..t.rounds[r].pairings.len()).map(move |b| (r, b)))
        .collect();
    for (i, &(r, b)) in boards.iter().enumerate() {
        assert!(!t.is_finished());
        assert!(
            t.standings().iter().all(|l| !l.top_three),
            "no award after {i} of {} results",
            boards.len()
        );
        t.set_result(r, b, Some(GameResult::RedWins)).unwrap();
    }
    assert!(t.is_finished());
    let s = t.standings();
    assert!(s.iter().filter(|l| l.top_three).all(|l| l.rank <= 3));
    assert!(s.iter().any(|l| l.top_three && l.rank == 1));
    // A Swiss of three rounds: complete rounds one and two name nobody; the third does.
    let mut t = Tournament::swiss(GradeGroup::Low, vec![1, 2, 3, 4], 3).unwrap();
    for r in 0..3 {
        if r > 0 {
            t.pair_next_round()
                .expect("four players meet each other in three rounds");
        }
        for b in 0..2 {
            assert!(t.standings().iter().all(|l| !l.top_three), "round {r}");
            t.set_result(r, b, Some(GameResult::BlackWins)).unwrap();
        }
        assert_eq!(
            t.standings().iter().any(|l| l.top_three),
            r == 2,
            "after round {r}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Clubs and their files

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhe-club-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_club_has_one_tournament_per_group_of_its_players() {
    let mut club = Club::new("三年级象棋社");
    let names = ["王小明", "李华", "张伟", "刘洋", "陈静", "杨帆"];
    for (i, name) in names.iter().enumerate() {
        let group = if i < 4 {
            GradeGroup::Low
        } else {
            GradeGroup::High
        };
        club.add_player(name, group);
    }
    let t = club
        .create_tournament(GradeGroup::Low, Format::RoundRobin)
        .unwrap();
    assert_eq!(t.players.len(), 4);
    assert_eq!(t.rounds.len(), 3);
    assert!(matches!(
        club.create_tournament(GradeGroup::Low, Format::RoundRobin),
        Err(ClubError::GroupTaken)
    ));
    assert!(matches!(
        club.create_tournament(GradeGroup::Middle, Format::RoundRobin),
        Err(ClubError::TooFewPlayers)
    ));
    // Lots drawn: the same players, in an order that depends on the seed only.
    let mut drawn = Club::new("抽签");
    for i in 0..10 {
        drawn.add_player(&format!("{i}"), GradeGroup::Middle);
    }
    let draw = |seed| {
        let mut c = drawn.clone();
        c.create_tournament_drawn(GradeGroup::Middle, Format::RoundRobin, Some(seed))
            .unwrap()
            .players
            .clone()
    };
    let mut orders = HashSet::new();
    for seed in [1, 2, 3, 4] {
        let order = draw(seed);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, drawn.group_players(GradeGroup::Middle));
        assert_eq!(draw(seed), order, "the same seed draws the same");
        orders.insert(order);
    }
    assert!(orders.len() > 1, "different seeds draw differently");
    let first = club.players[0].id;
    assert!(matches!(
        club.remove_player(first),
        Err(ClubError::PlayerInTournament)
    ));
    // Cancelled before any result (a player forgotten), then started again.
    club.create_tournament(GradeGroup::High, Format::RoundRobin)
        .unwrap();
    club.cancel_tournament(GradeGroup::High).unwrap();
    assert!(club.tournament(GradeGroup::High).is_none());
    club.tournament_mut(GradeGroup::Low)
        .unwrap()
        .set_result(0, 0, Some(GameResult::Draw))
        .unwrap();
    assert!(matches!(
        club.cancel_tournament(GradeGroup::Low),
        Err(ClubError::HasResults)
    ));
    let last = club.players[5].id;
    club.remove_player(last).unwrap();
    assert!(club.player(last).is_none());
    club.check().unwrap();
}

#[test]
fn a_club_file_reads_back_and_a_save_leaves_no_temporary_file() {
    let dir = temp_dir("round-trip");
    let store = ClubStore::new(dir.join("clubs"));
    assert!(store.list().is_empty());
    let mut club = Club::new("象棋社");
    for name in ["甲", "乙", "丙", "丁", "戊"] {
        club.add_player(name, GradeGroup::Middle);
    }
    club.create_tournament(GradeGroup::Middle, Format::RoundRobin)
        .unwrap();
    let path = store.new_path();
    ClubStore::save(&path, &club).unwrap();
    let t = club.tournament_mut(GradeGroup::Middle).unwrap();
    t.set_result(0, 0, Some(GameResult::Draw)).unwrap();
    t.attach_game(0, 0, Some("[Event \"社内赛\"]\n\n1. h2e2 h9g7 *\n".into()))
        .unwrap();
    ClubStore::save(&path, &club).unwrap();
    assert_eq!(ClubStore::load(&path).unwrap(), club);
    assert_eq!(store.list(), vec![path.clone()]);
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
    assert_ne!(store.new_path(), path);
}

#[test]
fn a_corrupt_club_file_is_a_typed_error_with_line_and_column() {
    let club = {
        let mut c = Club::new("社");
        c.add_player("甲", GradeGroup::Low);
        c.add_player("乙", GradeGroup::Low);
        c.create_tournament(GradeGroup::Low, Format::RoundRobin)
            .unwrap();
        c
    };
    let text = chuhe_core::club::to_ron(&club);
    // Cut the file off half way, as a crash in a non-atomic write would.
    let cut = &text[..text.len() / 2];
    match parse(cut) {
        Err(ClubError::Parse { line, column, .. }) => {
            assert!(line >= 2 && column >= 1, "{line}:{column}");
        }
        other => panic!("{other:?}"),
    }
    // A wrong value on line 3.
    let bad = "(\n  name: \"社\",\n  players: [(id: x)],\n)";
    match parse(bad) {
        Err(ClubError::Parse { line, .. }) => assert_eq!(line, 3),
        other => panic!("{other:?}"),
    }
    // Well-formed but a pairing names a player who is not in the tournament.
    let inconsistent = text.replacen("red: 1", "red: 99", 1);
    assert_ne!(inconsistent, text);
    assert!(matches!(
        parse(&inconsistent),
        Err(ClubError::Inconsistent(Inconsistency::NotPairedOnce {
            round: 1,
            player: 99
        }))
    ));
    // Every prefix of a good file: an error or the club, never a panic.
    for end in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
        let _ = parse(&text[..end]);
    }
    let dir = temp_dir("corrupt");
    std::fs::write(dir.join("c.ron"), cut).unwrap();
    assert!(matches!(
        ClubStore::load(&dir.join("c.ron")),
        Err(ClubError::Parse { .. })
    ));
    assert!(matches!(
        ClubStore::load(&dir.join("missing.ron")),
        Err(ClubError::Io(_))
    ));
}

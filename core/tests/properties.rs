//! Property tests over random games: playing and taking back a move restores the position
//! and hash exactly, the incremental hash always equals a fresh one, every position reached
//! is legal, and the move generator agrees with the independent single-move checker
//! (`Position::check_move`) on every from/to pair, and so does the test for any legal move.

use chuhe_core::{Move, Position, Square};

/// xorshift64*: a small deterministic generator, so failures are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const STARTS: [&str; 4] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w - - 0 1",
];

/// Checks that generator and checker agree on every move of every piece of the side to move.
fn generator_agrees_with_checker(pos: &Position) {
    let legal = pos.legal_moves();
    let mut from_checker = 0;
    for from in pos.squares_of_color(pos.side_to_move()).collect::<Vec<_>>() {
        for to in Square::ALL {
            if from == to {
                continue;
            }
            let m = Move::new(from, to);
            let ok = pos.check_move(m).is_ok();
            assert_eq!(
                ok,
                legal.contains(&m),
                "{pos}: move {m} checker says {:?}",
                pos.check_move(m)
            );
            from_checker += ok as usize;
        }
    }
    assert_eq!(
        from_checker,
        legal.len(),
        "{pos}: duplicate moves generated"
    );
    assert_eq!(pos.has_legal_move(), from_checker > 0, "{pos}");
    if !pos.is_check() {
        assert_eq!(pos.has_legal_move_out_of_check(), from_checker > 0, "{pos}");
    }
}

#[test]
fn random_games_keep_every_invariant() {
    let mut rng = Rng(0x5EED_C0DE_1234_5678);
    let mut positions = 0;
    for game in 0..240 {
        let mut pos: Position = STARTS[game % STARTS.len()].parse().unwrap();
        for _ply in 0..160 {
            generator_agrees_with_checker(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Try every move and take it back: the position must come back exactly.
            for &m in moves.iter() {
                let before = pos.clone();
                let undo = pos.play_unchecked(m);
                let fresh = Position::from_setup(&pos.to_setup())
                    .expect("a legal move gives a legal position");
                assert_eq!(
                    pos.hash(),
                    fresh.hash(),
                    "{before} {m}: incremental hash differs from a fresh one"
                );
                assert_eq!(pos, fresh, "{before} {m}");
                // Mates and positions in check are common one move on; positions
                // without a move and not in check are in the test below.
                assert_eq!(pos.has_legal_move(), !pos.legal_moves().is_empty(), "{pos}");
                pos.unplay(m, undo);
                assert_eq!(
                    pos, before,
                    "{before} {m}: take-back did not restore the position"
                );
                assert_eq!(pos.hash(), before.hash());
            }
            let m = moves[rng.below(moves.len())];
            pos.play_unchecked(m);
            // The FEN written for every reached position reads back to the same position.
            assert_eq!(pos.to_string().parse::<Position>().as_ref(), Ok(&pos));
            positions += 1;
        }
    }
    assert!(positions > 20_000, "only {positions} positions visited");
}

/// 困毙, which random games almost never reach: the general hemmed in with nothing
/// attacking it, alone, beside a defender it cannot use, and with a pinned advisor.
#[test]
fn positions_without_a_move_out_of_check_have_none() {
    for fen in [
        "3k5/9/3P5/9/9/9/9/9/9/4K4 b - - 0 1",
        "5k3/4R4/B8/9/9/9/9/9/9/P2K5 b - - 0 1",
        "4k4/4aP3/4R4/9/9/9/9/9/9/3K5 b - - 0 1",
    ] {
        let pos: Position = fen.parse().unwrap();
        generator_agrees_with_checker(&pos);
        assert!(!pos.is_check() && !pos.has_legal_move(), "{fen}");
    }
}

#[test]
fn equal_positions_reached_by_different_orders_hash_equally() {
    let play = |moves: &[&str]| {
        let mut pos = Position::startpos();
        for m in moves {
            pos = pos.play(m.parse().unwrap()).unwrap();
        }
        pos
    };
    let a = play(&["h2e2", "h9g7", "b0c2", "b9c7"]);
    let b = play(&["b0c2", "b9c7", "h2e2", "h9g7"]);
    assert_eq!(a.hash(), b.hash());
    assert_ne!(a.hash(), Position::startpos().hash());
    let c = play(&["h2e2", "h9g7", "b0c2"]);
    assert_ne!(a.hash(), c.hash(), "side to move and pieces differ");
}

//! Perft: the number of leaf nodes of the legal move tree to a given depth, the standard
//! check of a move generator against independent reference counts.

use crate::{Move, MoveList, Position};

/// Counts the leaves of the legal move tree `depth` plies deep. The last ply is
/// bulk-counted (the length of the legal move list), as Pikafish and others do.
///
/// ```
/// use chuhe_core::{perft::perft, Position};
/// assert_eq!(perft(&mut Position::startpos(), 3), 79_666);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        let undo = pos.play_unchecked(m);
        nodes += perft(pos, depth - 1);
        pos.unplay(m, undo);
    }
    nodes
}

/// Perft split by root move, in move generation order: what `go perft` prints.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let list = pos.legal_moves();
    list.iter()
        .map(|&m| {
            let undo = pos.play_unchecked(m);
            let n = perft(pos, depth - 1);
            pos.unplay(m, undo);
            (m, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Published counts (chessprogramming.org, Chinese Chess Perft Results).
    #[test]
    fn start_position_to_depth_4() {
        let mut pos = Position::startpos();
        let expected = [1, 44, 1_920, 79_666, 3_290_240];
        for (depth, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&mut pos, depth as u32), n, "depth {depth}");
        }
        assert_eq!(
            pos,
            Position::startpos(),
            "perft leaves the position as it found it"
        );
    }

    /// Positions of composed problems with pieces where no game puts them: an advisor off
    /// its diagonal and one outside the palace, elephants off their points and across the
    /// river, pawns beside the pawn files and on their own back rank.
    const COMPOSED: [&str; 2] = [
        "3k5/3a5/1c5r1/1p7/9/2b6/2B1R4/6N2/3A5/P1A1K4 w - - 0 1",
        "3k5/4a4/2B6/9/4p4/9/9/9/5A3/P3K4 b - - 0 1",
    ];

    fn square(name: &str) -> crate::Square {
        name.parse().unwrap()
    }

    /// Every move the generator lists is one `check_move` accepts, and the other way round.
    fn generator_agrees_with_check_move(pos: &Position) {
        let mut listed: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let mut accepted: Vec<Move> = crate::Square::ALL
            .iter()
            .flat_map(|&from| {
                crate::Square::ALL
                    .iter()
                    .map(move |&to| Move::new(from, to))
            })
            .filter(|&m| m.from != m.to && pos.is_legal(m))
            .collect();
        listed.sort_by_key(|m| (m.from.index(), m.to.index()));
        accepted.sort_by_key(|m| (m.from.index(), m.to.index()));
        assert_eq!(listed, accepted, "{pos}");
    }

    #[test]
    fn pieces_where_no_game_puts_them_move_by_the_rules_and_keep_perft_consistent() {
        let pos: Position = COMPOSED[0].parse().expect("accepted, with warnings");
        assert!(pos.to_setup().warnings().len() >= 6);
        let from = |name: &str| -> Vec<String> {
            let mut v: Vec<String> = pos
                .legal_moves_from(square(name))
                .iter()
                .map(|m| m.to.to_string())
                .collect();
            v.sort();
            v
        };
        // The advisor off the diagonal steps among the other palace points; the one outside
        // the palace cannot move; the elephant off its points keeps to its own half.
        assert_eq!(from("d1"), ["e2"]);
        assert!(from("c0").is_empty());
        assert_eq!(from("c3"), ["a1", "e1"]);
        assert_eq!(from("a0"), ["a1"]);

        let mut rng = crate::play::Rng::new(0x5eed);
        for fen in COMPOSED {
            for _game in 0..6 {
                let mut pos: Position = fen.parse().unwrap();
                for _ply in 0..40 {
                    generator_agrees_with_check_move(&pos);
                    let before = pos.clone();
                    let list = pos.legal_moves();
                    // Perft by make/unmake against perft by copying each child.
                    let by_copy: u64 = list
                        .iter()
                        .map(|&m| {
                            let child = pos.play(m).expect("listed moves are legal");
                            assert_eq!(child.hash(), child.compute_hash(), "{pos} {m}");
                            child.legal_moves().len() as u64
                        })
                        .sum();
                    assert_eq!(perft(&mut pos, 2), by_copy, "{pos}");
                    assert_eq!(pos, before, "perft leaves the position as it found it");
                    if list.is_empty() {
                        break;
                    }
                    let m = list[rng.below(list.len() as u64) as usize];
                    let undo = pos.play_unchecked(m);
                    pos.unplay(m, undo);
                    assert_eq!(pos, before, "{m} unplayed");
                    pos.play_unchecked(m);
                }
            }
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        let mut pos = Position::startpos();
        let split = divide(&mut pos, 3);
        assert_eq!(split.len(), 44);
        assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), 79_666);
    }
}

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

    #[test]
    fn divide_sums_to_perft() {
        let mut pos = Position::startpos();
        let split = divide(&mut pos, 3);
        assert_eq!(split.len(), 44);
        assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), 79_666);
    }
}

//! Static exchange evaluation: what a capture (or a move to an attacked point) wins or
//! loses when both sides keep capturing on that point with their cheapest piece, each
//! free to stop when going on would lose.
//!
//! The exchange is played out on a copy of the board, so the lines that open as pieces
//! leave (a rook behind a rook, a cannon that gains or loses its screen) are seen as they
//! arise. Pins and the flying general are ignored, as in most engines.

use super::eval::{ADVISOR, CANNON, ELEPHANT, GENERAL, HORSE, PAWN, ROOK};
use super::movepick::kind_of;
use crate::position::bit;
use crate::tables::{
    ADVISOR_MOVES, ELEPHANT_MOVES, GENERAL_MOVES, HORSE_ATTACKERS, PAWN_ATTACKERS, RAY_MASKS,
    nearest,
};
use crate::{Move, Position};

/// Piece values for exchanges, by kind (the general is worth more than any exchange).
pub(crate) const SEE_VALUE: [i32; 7] = [10_000, 200, 200, 400, 900, 450, 100];

#[inline]
fn code(color: usize, kind: usize) -> u8 {
    1 + 7 * color as u8 + kind as u8
}

/// The point of the cheapest piece of `by` that attacks `sq` on `cells`, whose occupied
/// points are `occ`.
fn cheapest_attacker(cells: &[u8; 90], occ: u128, sq: u8, by: usize) -> Option<u8> {
    let s = sq as usize;
    let pawn = code(by, PAWN);
    let p = &PAWN_ATTACKERS[by][s];
    if let Some(&f) = p.to[..p.len as usize]
        .iter()
        .find(|&&f| cells[f as usize] == pawn)
    {
        return Some(f);
    }
    let advisor = code(by, ADVISOR);
    let a = &ADVISOR_MOVES[by][s];
    if let Some(&f) = a.to[..a.len as usize]
        .iter()
        .find(|&&f| cells[f as usize] == advisor)
    {
        return Some(f);
    }
    let elephant = code(by, ELEPHANT);
    let e = &ELEPHANT_MOVES[by][s];
    if let Some(k) = (0..e.len as usize)
        .find(|&k| cells[e.to[k] as usize] == elephant && cells[e.via[k] as usize] == 0)
    {
        return Some(e.to[k]);
    }
    let horse = code(by, HORSE);
    let h = &HORSE_ATTACKERS[s];
    if let Some(k) = (0..h.len as usize)
        .find(|&k| cells[h.to[k] as usize] == horse && cells[h.via[k] as usize] == 0)
    {
        return Some(h.to[k]);
    }
    let (rook, cannon) = (code(by, ROOK), code(by, CANNON));
    // The first piece on each line (a rook?) and the one behind it (a cannon?), found by
    // bit scans. A cannon is cheaper, so it answers at once; of the rooks the one on the
    // last line looked at is kept, as the exchange has always been played out.
    let mut found_rook = None;
    for (d, &ray) in RAY_MASKS[s].iter().enumerate() {
        let blockers = ray & occ;
        if blockers == 0 {
            continue;
        }
        let first = nearest(blockers, d);
        if cells[first] == rook {
            found_rook = Some(first as u8);
        }
        let behind = RAY_MASKS[first][d] & occ;
        if behind != 0 {
            let second = nearest(behind, d);
            if cells[second] == cannon {
                return Some(second as u8);
            }
        }
    }
    if found_rook.is_some() {
        return found_rook;
    }
    let general = code(by, GENERAL);
    let g = &GENERAL_MOVES[by][s];
    g.to[..g.len as usize]
        .iter()
        .copied()
        .find(|&f| cells[f as usize] == general)
}

/// Whether the exchange that `m` starts gains at least `threshold` for the side to move
/// (`m` need not be a capture: a quiet move gains 0, less if the piece is then lost).
///
/// The swap-list method in its threshold form: `swap` is how far the side to move would
/// be above the threshold if the exchange stopped now; each capture flips whose turn it
/// is to decide, and a side stops when capturing on would leave it below.
pub(crate) fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let mut cells = pos.cells;
    let (from, to) = (m.from.index() as usize, m.to.index() as usize);
    let victim = cells[to];
    let mut swap = if victim != 0 {
        SEE_VALUE[kind_of(victim)]
    } else {
        0
    } - threshold;
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUE[kind_of(cells[from])] - swap;
    if swap <= 0 {
        return true;
    }
    cells[to] = cells[from];
    cells[from] = 0;
    // The occupied points, kept with the board: `to` stays occupied throughout.
    let mut occ = (pos.occupied[0] | pos.occupied[1]) & !bit(from as u8);
    let mut side = (!pos.side).index();
    // Whether the side to move at the root comes out at or above the threshold.
    let mut result = true;
    while let Some(f) = cheapest_attacker(&cells, occ, to as u8, side) {
        result = !result;
        let attacker = cells[f as usize];
        cells[f as usize] = 0;
        occ &= !bit(f);
        cells[to] = attacker;
        if kind_of(attacker) == GENERAL {
            // The general may only take if nothing can take it back.
            return if cheapest_attacker(&cells, occ, to as u8, side ^ 1).is_some() {
                !result
            } else {
                result
            };
        }
        swap = SEE_VALUE[kind_of(attacker)] - swap;
        if swap < result as i32 {
            break;
        }
        side ^= 1;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    fn attacked(pos: &Position, sq: u8, by: usize) -> bool {
        let occ = pos.occupied[0] | pos.occupied[1];
        cheapest_attacker(&pos.cells, occ, sq, by).is_some()
    }

    #[test]
    fn attacks_by_every_kind() {
        let pos: Position = "4k4/6n2/6C2/9/R8/2p6/9/4B4/9/3AK4 w - - 0 1"
            .parse()
            .unwrap();
        let at = |s: &str| s.parse::<Square>().unwrap().index();
        assert!(attacked(&pos, at("e1"), 0)); // general and advisor
        assert!(attacked(&pos, at("c4"), 0)); // elephant e2, eye d3 free
        assert!(attacked(&pos, at("c3"), 1)); // the black pawn on c4
        assert!(!attacked(&pos, at("c5"), 1)); // pawns never go back
        assert!(attacked(&pos, at("i5"), 0)); // rook along rank 5
        assert!(attacked(&pos, at("g9"), 0)); // cannon over the horse
        assert!(!attacked(&pos, at("g8"), 0)); // a cannon needs a screen
        assert!(!attacked(&pos, at("b9"), 0));
        assert!(attacked(&pos, at("e7"), 1)); // the horse on g8, leg f8 free
        assert!(!attacked(&pos, at("f6"), 1)); // its leg g7 is blocked
    }

    fn see(fen: &str, m: &str, threshold: i32) -> bool {
        let pos: Position = fen.parse().unwrap();
        see_ge(&pos, m.parse().unwrap(), threshold)
    }

    #[test]
    fn exchanges() {
        // Rook takes an undefended horse: +400.
        let fen = "4k4/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1";
        assert!(see(fen, "e1e5", 400));
        assert!(!see(fen, "e1e5", 401));
        // The horse defended by a pawn: rook for horse loses 500.
        let fen = "4k4/9/9/4p4/4n4/9/9/9/4R4/3K5 w - - 0 1";
        assert!(!see(fen, "e1e5", 0));
        assert!(see(fen, "e1e5", -500));
        // A pawn takes an undefended rook.
        let fen = "3k5/9/9/9/4r4/4P4/9/9/9/5K3 w - - 0 1";
        assert!(see(fen, "e4e5", 900));
        assert!(!see(fen, "e4e5", 901));
        // A quiet move onto a point a crossed pawn guards loses the rook.
        let fen = "3k5/9/9/9/9/3p5/9/9/4R4/5K3 w - - 0 1";
        assert!(!see(fen, "e1e4", 0));
        assert!(see(fen, "e1e2", 0));
        // Rook takes rook, rook takes back; the cannon behind has no screen left: even.
        let fen = "3k5/4r4/9/9/9/4r4/9/9/4R4/4CK3 w - - 0 1";
        assert!(see(fen, "e1e4", 0));
        assert!(!see(fen, "e1e4", 1));
        // With the advisor on e1 as its screen the cannon takes back as well: a rook up.
        let fen = "3k5/4r4/9/9/9/R3r4/9/9/4A4/4CK3 w - - 0 1";
        assert!(see(fen, "a4e4", 900));
        assert!(!see(fen, "a4e4", 901));
    }
}

//! Staged move ordering: the moves of a node in the order most likely to cut it off
//! early — the transposition-table move (before any generation), captures by most
//! valuable victim and least valuable attacker, the killer moves and the counter move,
//! the other quiet moves by history (the search's plain and continuation histories), and
//! last the captures that lose material.
//!
//! Quiescence search only wants captures, so it has its own generator of legal captures.

use super::eval::{ADVISOR, CANNON, ELEPHANT, GENERAL, HORSE, PAWN, ROOK};
use super::see::see_ge;
use crate::position::{BitIter, bit, general_attacked};
use crate::tables::{
    ADVISOR_MOVES, ELEPHANT_MOVES, GENERAL_MOVES, HORSE_ATTACKERS, HORSE_MOVES, PAWN_ATTACKERS,
    PAWN_MOVES, RAY_MASKS, nearest,
};
use crate::{Move, MoveList, Position, Square};

/// Rough piece values by kind for ordering captures (the general is never captured).
pub(crate) const ORDER_VALUE: [i32; 7] = [2000, 200, 200, 400, 900, 450, 150];

/// The kind index (see `eval`) of the piece with board code `code` (not 0).
#[inline]
pub(crate) fn kind_of(code: u8) -> usize {
    super::eval::KIND[code as usize] as usize
}

/// Fills `list` with the legal captures of the side to move.
pub(crate) fn legal_captures(pos: &Position, list: &mut MoveList) {
    list.clear();
    let c = pos.side.index();
    let cells = &pos.cells;
    let enemy = pos.occupied[c ^ 1];
    let occ = pos.occupied[0] | pos.occupied[1];
    let mut push = |from: u8, to: u8| {
        list.push(Move::new(
            Square::from_index_unchecked(from),
            Square::from_index_unchecked(to),
        ));
    };
    for from in BitIter(pos.occupied[c]) {
        let f = from as usize;
        match kind_of(cells[f]) {
            GENERAL | ADVISOR | PAWN => {
                let targets: &[u8] = match kind_of(cells[f]) {
                    GENERAL => &GENERAL_MOVES[c][f].to[..GENERAL_MOVES[c][f].len as usize],
                    ADVISOR => &ADVISOR_MOVES[c][f].to[..ADVISOR_MOVES[c][f].len as usize],
                    _ => &PAWN_MOVES[c][f].to[..PAWN_MOVES[c][f].len as usize],
                };
                for &to in targets {
                    if enemy & bit(to) != 0 {
                        push(from, to);
                    }
                }
            }
            HORSE => {
                let st = &HORSE_MOVES[f];
                for k in 0..st.len as usize {
                    if enemy & bit(st.to[k]) != 0 && cells[st.via[k] as usize] == 0 {
                        push(from, st.to[k]);
                    }
                }
            }
            ELEPHANT => {
                let st = &ELEPHANT_MOVES[c][f];
                for k in 0..st.len as usize {
                    if enemy & bit(st.to[k]) != 0 && cells[st.via[k] as usize] == 0 {
                        push(from, st.to[k]);
                    }
                }
            }
            // Rooks and cannons: the first piece on each line, or the one behind it, by
            // bit scans; the lines in the same order as the rays of the move generator.
            ROOK => {
                for (d, &ray) in RAY_MASKS[f].iter().enumerate() {
                    let blockers = ray & occ;
                    if blockers != 0 {
                        let to = nearest(blockers, d) as u8;
                        if enemy & bit(to) != 0 {
                            push(from, to);
                        }
                    }
                }
            }
            _ => {
                for (d, &ray) in RAY_MASKS[f].iter().enumerate() {
                    let blockers = ray & occ;
                    if blockers == 0 {
                        continue;
                    }
                    let behind = RAY_MASKS[nearest(blockers, d)][d] & occ;
                    if behind != 0 {
                        let to = nearest(behind, d) as u8;
                        if enemy & bit(to) != 0 {
                            push(from, to);
                        }
                    }
                }
            }
        }
    }
    // Keep the captures that do not leave the own general attacked: play out on a scratch
    // board those that might (all when in check; else, as the move generator does, those
    // of the general, of a piece that may shield it, or onto a cannon's open line).
    let them = !pos.side;
    let k = pos.generals[c];
    let (test_from, test_to) = match pos.shield_masks(k, them) {
        Some((from_mask, to_mask)) => (from_mask | bit(k), to_mask),
        None => (u128::MAX, u128::MAX),
    };
    let mut scratch = pos.cells;
    let mut keep = 0;
    for i in 0..list.len() {
        let m = list[i];
        let (from, to) = (m.from.index() as usize, m.to.index() as usize);
        if test_from & bit(from as u8) == 0 && test_to & bit(to as u8) == 0 {
            list.set(keep, m);
            keep += 1;
            continue;
        }
        let (moving, captured) = (scratch[from], scratch[to]);
        scratch[to] = moving;
        scratch[from] = 0;
        let general = if from == k as usize { to as u8 } else { k };
        // A capture empties `from` and leaves `to` occupied.
        let safe = !general_attacked(&scratch, occ & !bit(from as u8), general, them);
        scratch[from] = moving;
        scratch[to] = captured;
        if safe {
            list.set(keep, m);
            keep += 1;
        }
    }
    list.truncate(keep);
}

/// Ordering score bands: each stage's moves sort above the next stage's.
const GOOD_CAPTURE: i32 = 3_000_000;
const KILLER: i32 = 2_000_000;
const COUNTER: i32 = 1_900_000;
const BAD_CAPTURE: i32 = -3_000_000;

/// Most valuable victim first, then least valuable attacker.
#[inline]
fn mvv_lva(cells: &[u8; 90], m: Move) -> i32 {
    let victim = ORDER_VALUE[kind_of(cells[m.to.index() as usize])];
    let attacker = ORDER_VALUE[kind_of(cells[m.from.index() as usize])];
    victim * 16 - attacker / 16
}

/// The index of the first highest score of `scores` (not empty), as a scan keeping the
/// first strictly better one finds it: the highest is found first with a loop the compiler
/// turns into vector instructions, then its first place. Ties keep their order, so the
/// search tries the same moves in the same order.
#[inline]
fn first_best(scores: &[i32]) -> usize {
    let best = scores.iter().copied().fold(i32::MIN, i32::max);
    scores.iter().position(|&s| s == best).unwrap_or(0)
}

/// The stages of a main-search node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    TableMove,
    Generate,
    Rest,
}

/// Hands out the moves of a node one at a time, best first.
pub(crate) struct MovePicker {
    stage: Stage,
    table_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
}

/// What the picker needs to know about a quiet move's past success.
pub(crate) trait QuietHistory {
    /// The history score of moving the piece with code `piece` to `to`.
    fn quiet_score(&self, piece: u8, to: u8) -> i32;
}

impl MovePicker {
    /// A picker for a main-search node.
    pub fn new(
        table_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
    ) -> MovePicker {
        MovePicker {
            stage: Stage::TableMove,
            table_move,
            killers,
            counter,
            moves: MoveList::new(),
            scores: [0; 256],
            next: 0,
        }
    }

    /// The next move, or `None` when all have been handed out. Every move is legal.
    pub fn next(&mut self, pos: &Position, history: &impl QuietHistory) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::Generate;
                    if let Some(m) = self.table_move {
                        if pos.is_legal(m) {
                            return Some(m);
                        }
                        self.table_move = None;
                    }
                }
                Stage::Generate => {
                    pos.legal_moves_into(&mut self.moves);
                    self.score(pos, history);
                    self.stage = Stage::Rest;
                }
                Stage::Rest => return self.pick_best(),
            }
        }
    }

    fn score(&mut self, pos: &Position, history: &impl QuietHistory) {
        let cells = &pos.cells;
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            let to = m.to.index();
            self.scores[i] = if Some(m) == self.table_move {
                // Already tried: sorts last and is skipped.
                i32::MIN
            } else if cells[to as usize] != 0 {
                let band = if !see_ge(pos, m, 0) {
                    BAD_CAPTURE
                } else {
                    GOOD_CAPTURE
                };
                band + mvv_lva(cells, m)
            } else if Some(m) == self.killers[0] {
                KILLER + 1
            } else if Some(m) == self.killers[1] {
                KILLER
            } else if Some(m) == self.counter {
                COUNTER
            } else {
                history.quiet_score(cells[m.from.index() as usize], to)
            };
        }
    }

    /// Selection sort, one step: the best remaining move.
    fn pick_best(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let best = self.next + first_best(&self.scores[self.next..n]);
        if self.scores[best] == i32::MIN {
            return None;
        }
        let m = self.moves[best];
        self.moves.set(best, self.moves[self.next]);
        self.scores.swap(best, self.next);
        self.moves.set(self.next, m);
        self.next += 1;
        Some(m)
    }
}

/// Hands out the moves of a quiescence node: the captures by victim and attacker (or,
/// in check, every evasion, captures first).
pub(crate) struct CapturePicker {
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
}

impl CapturePicker {
    /// Generates the moves: captures, or every legal move when `in_check`.
    pub fn new(pos: &Position, in_check: bool, table_move: Option<Move>) -> CapturePicker {
        let mut moves = MoveList::new();
        if in_check {
            pos.legal_moves_into(&mut moves);
        } else {
            legal_captures(pos, &mut moves);
        }
        let mut scores = [0; 256];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = if Some(m) == table_move {
                i32::MAX
            } else if pos.cells[m.to.index() as usize] != 0 {
                GOOD_CAPTURE + mvv_lva(&pos.cells, m)
            } else {
                0
            };
        }
        CapturePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// How many moves there are in all.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// The next move by score, or `None`.
    pub fn next(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let best = self.next + first_best(&self.scores[self.next..n]);
        let m = self.moves[best];
        self.moves.set(best, self.moves[self.next]);
        self.scores.swap(best, self.next);
        self.moves.set(self.next, m);
        self.next += 1;
        Some(m)
    }
}

/// Hands out the quiet moves that may give check (the quiescence search's first ply tries
/// them after the captures): legal and on a point from which the moving piece would check.
/// The caller confirms the check by playing the move. Checks that lose the piece are
/// kept: a rook or horse given up with check so that the next capture mates is the most
/// common way a Xiangqi attack ends, and the static exchange cannot see a mate.
pub(crate) struct QuietChecks {
    moves: MoveList,
    targets: [u128; 7],
    next: usize,
}

impl QuietChecks {
    pub fn new(pos: &Position) -> QuietChecks {
        let mut moves = MoveList::new();
        pos.pseudo_legal_moves(&mut moves);
        QuietChecks {
            moves,
            targets: check_squares(pos),
            next: 0,
        }
    }

    pub fn next(&mut self, pos: &Position) -> Option<Move> {
        while self.next < self.moves.len() {
            let m = self.moves[self.next];
            self.next += 1;
            let (from, to) = (m.from.index() as usize, m.to.index());
            if pos.cells[to as usize] == 0
                && self.targets[kind_of(pos.cells[from])] & bit(to) != 0
                && pos.is_legal(m)
            {
                return Some(m);
            }
        }
        None
    }
}

/// For each piece kind of the side to move, the points from which it would check the
/// enemy general directly (horse legs, cannon screens and open lines as they stand now;
/// the move itself can change them, so a candidate is confirmed by playing it).
fn check_squares(pos: &Position) -> [u128; 7] {
    let us = pos.side;
    let g = pos.generals[(!us).index()] as usize;
    let occ = pos.occupied[0] | pos.occupied[1];
    let mut t = [0u128; 7];
    // Along each line from the general: the empty points up to the first piece are rook
    // checks, the empty points beyond it up to the next piece cannon checks.
    for (d, &ray) in RAY_MASKS[g].iter().enumerate() {
        let blockers = ray & occ;
        if blockers == 0 {
            t[ROOK] |= ray;
            continue;
        }
        let screen = nearest(blockers, d);
        t[ROOK] |= ray & !RAY_MASKS[screen][d] & !bit(screen as u8);
        let beyond = RAY_MASKS[screen][d];
        t[CANNON] |= match beyond & occ {
            0 => beyond,
            behind => beyond & !RAY_MASKS[nearest(behind, d)][d] & !occ,
        };
    }
    let h = &HORSE_ATTACKERS[g];
    for k in 0..h.len as usize {
        if occ & bit(h.via[k]) == 0 {
            t[HORSE] |= bit(h.to[k]);
        }
    }
    t[PAWN] = PAWN_ATTACKERS[us.index()][g].dest_mask();
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::attackers_of_general;

    #[test]
    fn captures_are_the_legal_moves_onto_enemy_pieces() {
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/9/PcP1P1P1P/N1C1C1N2/9/R1BAKABR1 w - - 0 6",
            "3k5/4P2N1/3Nb1c1b/8p/9/2B6/P7P/4B4/4A4/3AK4 w - - 0 1",
            "2bakab2/5rc2/9/p1p5p/5n3/2N1P4/P1P3P1P/7r1/R3A4/1NB1KAB2 b - - 0 1",
            "4k4/4a4/4c4/9/9/9/9/4R4/4A4/3AK4 w - - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            let mut caps = MoveList::new();
            legal_captures(&pos, &mut caps);
            let mut want: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to).is_some())
                .collect();
            let mut got: Vec<Move> = caps.to_vec();
            want.sort_by_key(|m| (m.from, m.to));
            got.sort_by_key(|m| (m.from, m.to));
            assert_eq!(got, want, "{fen}");
        }
    }

    /// A rook given up with check so that the other rook mates on the same point (a
    /// game lost to ElephantEye: Chuhe was a horse up and did not see it coming) is
    /// among the quiet checks, though the exchange on its point loses the rook.
    #[test]
    fn quiet_checks_keep_sacrifices() {
        let pos: Position =
            "2Ck1ab2/3ra4/4c1N2/p2r2p1p/2p6/2P3P2/P3c3P/4BC3/4A4/1R2KABR1 b - - 0 1"
                .parse()
                .unwrap();
        let sac = Move::new("d6".parse().unwrap(), "d0".parse().unwrap());
        assert!(pos.is_legal(sac));
        assert!(!see_ge(&pos, sac, 0), "the check gives up the rook");
        let mut checks = QuietChecks::new(&pos);
        let mut found = Vec::new();
        while let Some(m) = checks.next(&pos) {
            found.push(m);
        }
        assert!(found.contains(&sac), "{found:?}");
    }

    /// Every quiet move that checks with the piece it moves lands on a point
    /// `check_squares` names for that kind of piece, in the reference perft positions
    /// and along random games from them.
    #[test]
    fn check_squares_hold_every_direct_check() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data/perft.tsv");
        let text = std::fs::read_to_string(path).expect("../shared/data/perft.tsv");
        let mut rng = crate::play::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut checks = 0;
        for line in text.lines().skip(1) {
            let fen = line.split('\t').next().unwrap();
            let mut pos: Position = fen.parse().unwrap();
            for _ in 0..40 {
                let targets = check_squares(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    if pos.piece_at(m.to).is_some() {
                        continue;
                    }
                    let kind = kind_of(pos.cells[m.from.index() as usize]);
                    let after = pos.play(m).unwrap();
                    let g = after.generals[after.side.index()];
                    if attackers_of_general(&after.cells, g, pos.side).any(|s| s == m.to.index()) {
                        checks += 1;
                        assert!(targets[kind] & bit(m.to.index()) != 0, "{fen}: {m:?}");
                    }
                }
                pos = pos
                    .play(moves[rng.below(moves.len() as u64) as usize])
                    .unwrap();
            }
        }
        assert!(checks > 100, "only {checks} checks seen");
    }
}

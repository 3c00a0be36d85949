//! Perpetual check (长将) in the tables.
//!
//! The Asian rules forbid perpetual check: a side that gives check move after move in a
//! repeating cycle must change its move or lose. So a position that is drawn under the
//! plain rules of mate is *lost* for a side `D` if the only way `D` can avoid being mated is
//! to check for ever. The tables find those positions after the retrograde pass, as a game
//! played inside the draws `Z` (both sides to move): `D` holds the draw only if it can
//! again and again make a move that is **not** a check and stays drawn. This is a
//! co-Büchi game, solved by the nested fixed point:
//!
//! - `T` = positions of `Z` with `D` to move and a non-checking move into `Z` (or a capture
//!   into a smaller table that does not lose for `D`: the material changed, so the cycle
//!   is broken and the smaller table's own verdict holds);
//! - `R` = the positions of `Z` from which `D` can force reaching `T`: `D`-to-move
//!   positions in `T` or with any move into `R`; positions of the other side `A` all of
//!   whose moves within `Z` lead into `R` and none of whose captures wins for `A`;
//! - what is in `Z` but not in `R` is lost for `D` **by the rule** (`A` can keep `D`
//!   checking for ever, or `D` must give up the draw); `Z := R`, and repeat until nothing
//!   more is removed.
//!
//! The moves of the draws are generated once per analysis: each position keeps its count
//! of moves into `Z` (`D`'s non-checking ones), lowered at the predecessors of what a
//! round removes. The first round builds the whole attractor; a later one looks for what
//! it removes only near the `D` positions the last round took out of `T` (see
//! `trap_near`), so a round costs what changed, not the table.
//!
//! This is done once with `D` = Red and once with `D` = Black, each on the plain draws. A
//! position both analyses remove (each side could only hold by checking: 双方长将) stays a
//! draw, as the rules make mutual perpetual check a draw. Such results carry no distance
//! to mate: [`TbValue::RuleWin`](super::TbValue::RuleWin) and
//! [`TbValue::RuleLoss`](super::TbValue::RuleLoss). The plain retrograde pass treats a
//! capture into a smaller table's rule result as a draw (it measures mate only); the
//! perpetual pass then counts it as the win or loss it is for the side capturing. What the
//! tables do not model: perpetual chasing (长捉) and the other 棋例 details of cycles that
//! mix checks with other moves, and the natural move limit.

use super::index::Layout;
use super::material::Material;
use super::retro::{Board, Progress, Subs, capture_value, init_threads, split};
use super::{RULE_LOSS, RULE_WIN, Table, TbError, TbValue, byte_value};
use crate::position::general_attacked;
use crate::{Color, MoveList, Piece};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// A plain draw found lost for Red (the first defender) by the rule, while the second
/// analysis runs: kept in the values themselves, so the pass needs no array of its own for
/// it (the largest tables have over 10^9 placements a side). No value byte uses it.
const REMOVED_RED: u8 = 253;
/// A plain draw found lost for Black by the rule, and not for Red.
const REMOVED_BLACK: u8 = 254;
/// The most positions waiting in the attractor's queue: beyond it they wait as marks in
/// the state array and are picked up by a sweep, so the queue stays small (128 MiB) when
/// most of a large table is drawn.
const QUEUE_CAP: usize = 1 << 24;
/// State of a draw: outside `Z` (0), in `Z` not (yet) in `R` (1), in `R` (2), in `R` with
/// its predecessors still to visit (3).
const IN_R: u8 = 2;
const TO_VISIT: u8 = 3;
/// State of a draw a round has just removed, its predecessors' counts still to lower.
const GONE: u8 = 4;
/// State of a draw near the positions the last round took out of T, maybe in the trap.
const NEAR: u8 = 5;
/// A count that no removal lowers: the position's verdict rests on a capture.
const KEEPS: u8 = u8::MAX;

pub(crate) fn resolve(
    table: &mut Table,
    subs: &Subs,
    progress: &mut dyn FnMut(Progress) -> bool,
) -> Result<(), TbError> {
    resolve_with(table, subs, progress, QUEUE_CAP)
}

/// [`resolve`] with a queue of at most `cap` positions.
///
/// The counts `T` and the attractor start from are kept from round to round: a round
/// only lowers them at the predecessors of the positions it removes, so the moves of the
/// whole table are generated once per defender, not once per round. `cap` also bounds
/// `trap_near`'s sets: beyond it a round builds the whole attractor instead.
fn resolve_with(
    table: &mut Table,
    subs: &Subs,
    progress: &mut dyn FnMut(Progress) -> bool,
    cap: usize,
) -> Result<(), TbError> {
    let size = table.layout.size;
    let draws: usize = (0..2)
        .map(|s| table.values[s].iter().filter(|&&v| v == 0).count())
        .sum();
    if draws == 0 {
        return Ok(());
    }
    let mut board = Board::new(&table.layout);
    for defender in Color::ALL {
        let d = defender.index();
        let a = 1 - d;
        if !checks(&table.material, defender) {
            continue;
        }
        let mut state = draws_of(&table.values);
        // For D to move, its non-checking moves into Z (`KEEPS` when a capture holds the
        // draw or wins: such a position is in `T` whatever Z becomes); for A to move, its
        // moves into Z (`KEEPS` when a capture wins for A: it never joins `R`).
        let mut base = [vec![0u8; size], vec![0u8; size]];
        scan(
            &table.layout,
            subs,
            defender,
            &state,
            &mut base,
            &table.material,
            progress,
        )?;
        // A's moves into Z not yet known to lead into R, during the attractor (into
        // `near`, in `trap_near`).
        let mut cnt = vec![0u8; size];
        let mut list = MoveList::new();
        // The D positions the last round took out of T, while they fit in a queue.
        let mut left_t: Option<Vec<u64>> = None;
        let mut round = 0u32;
        loop {
            round += 1;
            if !progress(Progress {
                material: &table.material,
                stage: "perpetual",
                // After the scan's eighth: rounds go on until one removes nothing.
                fraction: (d as f32 + 0.125 + 0.875 * (1.0 - 1.0 / round as f32)) / 2.0,
            }) {
                return Err(TbError::Cancelled);
            }
            let near = left_t.take().and_then(|seeds| {
                trap_near(
                    &mut board, &mut list, &mut state, &base, &mut cnt, d, seeds, cap,
                )
            });
            let any = match near {
                Some(trap) => {
                    for &x in &trap {
                        let (s, idx) = unpack(x);
                        state[s][idx] = GONE;
                        table.values[s][idx] = removed(d, table.values[s][idx]);
                    }
                    !trap.is_empty()
                }
                None => {
                    attractor(&mut board, &mut state, &base, &mut cnt, d, cap);
                    remove_outside_r(&mut state, &mut table.values, d)
                }
            };
            if !any {
                break;
            }
            // Z lost the removed positions: their predecessors have one move into Z
            // fewer (D's only when that move was not a check).
            let mut seeds = Some(Vec::new());
            for side in Color::ALL {
                let s = side.index();
                let o = 1 - s;
                let (state_s, state_o) = split(&mut state, s);
                let base_o = &mut base[o];
                for (idx, st) in state_s.iter_mut().enumerate() {
                    if *st != GONE {
                        continue;
                    }
                    *st = 0;
                    board.set(idx, side);
                    // A move into this position checked when the side to move is in check.
                    if o == a || !board.in_check() {
                        board.predecessors(|q| {
                            if state_o[q] != 1 || base_o[q] == KEEPS {
                                return;
                            }
                            base_o[q] -= 1;
                            if o == d && base_o[q] == 0 {
                                match &mut seeds {
                                    Some(v) if v.len() < cap => v.push(pack(o, q)),
                                    _ => seeds = None,
                                }
                            }
                        });
                    }
                    board.clear();
                }
            }
            left_t = seeds;
        }
    }
    settle(&mut table.values);
    Ok(())
}

/// Whether `side` can check at all: without a rook, horse, cannon or pawn it never does
/// (generals may not face, advisors and elephants never attack the other palace), so
/// its analysis has nothing to remove.
fn checks(material: &Material, side: Color) -> bool {
    material
        .pieces(side)
        .iter()
        .any(|&k| crate::tb::material::is_attacker(k))
}

/// The states an analysis starts from: 1 (in Z) for the plain draws, those the first
/// analysis removed included; 0 for the rest.
fn draws_of(values: &[Vec<u8>; 2]) -> [Vec<u8>; 2] {
    values.each_ref().map(|side| {
        side.iter()
            .map(|&v| u8::from(v == 0 || v == REMOVED_RED))
            .collect()
    })
}

/// After a whole attractor: removes what Z holds outside R (its states `GONE`, its values
/// marked for defender `d`) and returns R to plain Z. Whether anything was removed.
fn remove_outside_r(state: &mut [Vec<u8>; 2], values: &mut [Vec<u8>; 2], d: usize) -> bool {
    let mut any = false;
    for (states, values) in state.iter_mut().zip(values.iter_mut()) {
        for (st, v) in states.iter_mut().zip(values.iter_mut()) {
            match *st {
                1 => {
                    *st = GONE;
                    *v = removed(d, *v);
                    any = true;
                }
                IN_R => *st = 1,
                _ => {}
            }
        }
    }
    any
}

/// The marks of both analyses turned into the values they stand for.
fn settle(values: &mut [Vec<u8>; 2]) {
    for (s, values) in values.iter_mut().enumerate() {
        for v in values.iter_mut() {
            let loser = match *v {
                REMOVED_RED => 0,
                REMOVED_BLACK => 1,
                _ => continue,
            };
            *v = if loser == s { RULE_LOSS } else { RULE_WIN };
        }
    }
}

/// The moves of every position of Z (`state` not 0), counted into `base` as
/// [`resolve_with`] keeps them; on every core, as the init pass.
fn scan(
    layout: &Layout,
    subs: &Subs,
    defender: Color,
    state: &[Vec<u8>; 2],
    base: &mut [Vec<u8>; 2],
    material: &Material,
    progress: &mut dyn FnMut(Progress) -> bool,
) -> Result<(), TbError> {
    let size = layout.size;
    let threads = init_threads().min(size.div_ceil(1 << 16)).max(1);
    let chunk = size.div_ceil(threads);
    let done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let d = defender.index();
    for (s, base_s) in base.iter_mut().enumerate() {
        std::thread::scope(|scope| {
            let (done, stop) = (&done, &stop);
            let handles: Vec<_> = base_s
                .chunks_mut(chunk)
                .enumerate()
                .map(|(t, part)| {
                    scope.spawn(move || {
                        scan_range(
                            layout,
                            subs,
                            defender,
                            s,
                            state,
                            t * chunk,
                            part,
                            done,
                            stop,
                        )
                    })
                })
                .collect();
            while !handles.iter().all(|h| h.is_finished()) {
                let fraction = done.load(Ordering::Relaxed) as f32 / (2 * size) as f32;
                if !progress(Progress {
                    material,
                    stage: "perpetual",
                    fraction: (d as f32 + fraction / 8.0) / 2.0,
                }) {
                    stop.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            for h in handles {
                h.join().expect("a perpetual-check scan thread panicked");
            }
        });
        if stop.load(Ordering::Relaxed) {
            return Err(TbError::Cancelled);
        }
    }
    Ok(())
}

/// [`scan`] over placements `start..start + base.len()` with side `s` to move.
#[allow(clippy::too_many_arguments)]
fn scan_range(
    layout: &Layout,
    subs: &Subs,
    defender: Color,
    s: usize,
    state: &[Vec<u8>; 2],
    start: usize,
    base: &mut [u8],
    done: &AtomicUsize,
    stop: &AtomicBool,
) {
    let d = defender.index();
    let o = 1 - s;
    let mut board = Board::new(layout);
    let mut list = MoveList::new();
    for (i, b) in base.iter_mut().enumerate() {
        if i % 4096 == 4095 {
            done.fetch_add(4096, Ordering::Relaxed);
            if stop.load(Ordering::Relaxed) {
                return;
            }
        }
        let idx = start + i;
        if state[s][idx] == 0 {
            continue;
        }
        board.set(idx, Color::ALL[s]);
        board.pos.legal_moves_into(&mut list);
        let mut keeps = false;
        let mut count = 0u8;
        for m in list.iter() {
            let (from, to) = (m.from.index(), m.to.index());
            let slot = board.slot_at(from);
            let target = board.pos.cells[to as usize];
            if target != 0 {
                let v = capture_value(subs.get(Piece::from_code(target)), &board, slot, to);
                // The value is for the side to move after the capture.
                let opponent_loses =
                    matches!(byte_value(v), Some(TbValue::Loss(_) | TbValue::RuleLoss));
                keeps |= opponent_loses || (s == d && byte_value(v) == Some(TbValue::Draw));
                continue;
            }
            let Some(t) = board.index_after(slot, to) else {
                continue;
            };
            if state[o][t] != 0 && (s != d || !gives_check(&board, from, to)) {
                count += 1;
            }
        }
        board.clear();
        *b = if keeps { KEEPS } else { count };
    }
}

/// The value of a draw the analysis with defender `d` removes: removed by both analyses
/// is mutual perpetual check, a draw.
fn removed(d: usize, v: u8) -> u8 {
    match (d, v) {
        (0, _) => REMOVED_RED,
        (_, REMOVED_RED) => 0,
        _ => REMOVED_BLACK,
    }
}

/// D's attractor to T in Z: its positions end `IN_R`, the rest of Z stays 1. T and A's
/// counts come from the kept counts `base`.
fn attractor(
    board: &mut Board,
    state: &mut [Vec<u8>; 2],
    base: &[Vec<u8>; 2],
    cnt: &mut [u8],
    d: usize,
    cap: usize,
) {
    let a = 1 - d;
    let mut queue: Vec<u64> = Vec::new();
    let mut overflow = false;
    for (idx, (st, &b)) in state[d].iter_mut().zip(&base[d]).enumerate() {
        if *st == 1 && b != 0 {
            *st = TO_VISIT;
            push(&mut queue, &mut overflow, cap, d, idx);
        }
    }
    for (idx, ((st, &b), c)) in state[a]
        .iter_mut()
        .zip(&base[a])
        .zip(cnt.iter_mut())
        .enumerate()
    {
        if *st == 1 {
            *c = b;
            if b == 0 {
                *st = TO_VISIT;
                push(&mut queue, &mut overflow, cap, a, idx);
            }
        }
    }
    loop {
        while let Some(x) = queue.pop() {
            let (s, idx) = unpack(x);
            if state[s][idx] != TO_VISIT {
                continue;
            }
            state[s][idx] = IN_R;
            let o = 1 - s;
            board.set(idx, Color::ALL[s]);
            let state_o = &mut state[o];
            board.predecessors(|q| {
                if state_o[q] != 1 {
                    return;
                }
                let joins = if o == d {
                    true
                } else if cnt[q] != KEEPS {
                    cnt[q] -= 1;
                    cnt[q] == 0
                } else {
                    false
                };
                if joins {
                    state_o[q] = TO_VISIT;
                    push(&mut queue, &mut overflow, cap, o, q);
                }
            });
            board.clear();
        }
        if !overflow {
            break;
        }
        // The positions the queue had no room for, as many as it holds.
        overflow = false;
        'refill: for (s, states) in state.iter().enumerate() {
            for (idx, _) in states.iter().enumerate().filter(|(_, st)| **st == TO_VISIT) {
                if queue.len() == cap {
                    overflow = true;
                    break 'refill;
                }
                queue.push(pack(s, idx));
            }
        }
    }
}

/// The trap of a round after the first (the positions of Z where A can keep D out of T
/// for ever), found near `seeds`, the D positions the last round took out of T, instead
/// of as what the whole attractor leaves. From a position of the new trap, D's way to
/// the old T (it was in the old attractor) stays in the trap, as A keeps it there and
/// all D's moves lead there; so it ends at a seed, and the trap lies within the
/// positions that reach a seed backwards through Z without passing T. That set, `near`,
/// is small where few draws rest on checks; the trap is its greatest part A can hold:
/// positions are taken out of it as in an attractor (D's with a move out of it, A's with
/// none into it). Returns the trap (its states `NEAR`, the rest of `near` back to 1), or
/// `None` (every state as it was) when `near` outgrows `cap`.
#[allow(clippy::too_many_arguments)]
fn trap_near(
    board: &mut Board,
    list: &mut MoveList,
    state: &mut [Vec<u8>; 2],
    base: &[Vec<u8>; 2],
    cnt: &mut [u8],
    d: usize,
    seeds: Vec<u64>,
    cap: usize,
) -> Option<Vec<u64>> {
    let a = 1 - d;
    let mut near = seeds;
    for &x in &near {
        let (s, idx) = unpack(x);
        state[s][idx] = NEAR;
    }
    let mut i = 0;
    while i < near.len() {
        let (s, idx) = unpack(near[i]);
        i += 1;
        let o = 1 - s;
        board.set(idx, Color::ALL[s]);
        let (state_o, base_d) = (&mut state[o], &base[d]);
        board.predecessors(|q| {
            if state_o[q] == 1 && (o == a || base_d[q] == 0) {
                state_o[q] = NEAR;
                near.push(pack(o, q));
            }
        });
        board.clear();
        if near.len() > cap {
            for &x in &near {
                let (s, idx) = unpack(x);
                state[s][idx] = 1;
            }
            return None;
        }
    }
    // Out of the trap at once: D's positions with a move into Z outside `near` (a check,
    // as they are not in T), A's with no move into `near`.
    let mut out: Vec<u64> = Vec::new();
    for &x in &near {
        let (s, idx) = unpack(x);
        let o = 1 - s;
        board.set(idx, Color::ALL[s]);
        board.pos.legal_moves_into(list);
        let (mut escapes, mut into) = (false, 0u8);
        for m in list.iter() {
            let to = m.to.index();
            if board.pos.cells[to as usize] != 0 {
                continue;
            }
            let slot = board.slot_at(m.from.index());
            let Some(t) = board.index_after(slot, to) else {
                continue;
            };
            match state[o][t] {
                0 => {}
                NEAR => into += 1,
                _ => escapes = true,
            }
        }
        board.clear();
        if s == d {
            if escapes {
                out.push(x);
            }
        } else {
            cnt[idx] = into;
            if into == 0 {
                out.push(x);
            }
        }
    }
    for &x in &out {
        let (s, idx) = unpack(x);
        state[s][idx] = 1;
    }
    let mut k = 0;
    while k < out.len() {
        let (s, idx) = unpack(out[k]);
        k += 1;
        let o = 1 - s;
        board.set(idx, Color::ALL[s]);
        let state_o = &mut state[o];
        board.predecessors(|q| {
            if state_o[q] != NEAR {
                return;
            }
            let leaves = if o == d {
                true
            } else {
                cnt[q] -= 1;
                cnt[q] == 0
            };
            if leaves {
                state_o[q] = 1;
                out.push(pack(o, q));
            }
        });
        board.clear();
    }
    near.retain(|&x| {
        let (s, idx) = unpack(x);
        state[s][idx] == NEAR
    });
    Some(near)
}

/// A queue entry: the side to move in the top bit, the index below.
fn pack(s: usize, idx: usize) -> u64 {
    ((s as u64) << 63) | idx as u64
}

fn unpack(x: u64) -> (usize, usize) {
    ((x >> 63) as usize, (x & !(1 << 63)) as usize)
}

/// Queues `idx` (side `s` to move), or notes that the queue is full and it waits as a mark.
fn push(queue: &mut Vec<u64>, overflow: &mut bool, cap: usize, s: usize, idx: usize) {
    if queue.len() < cap {
        queue.push(pack(s, idx));
    } else {
        *overflow = true;
    }
}

/// Whether the move `from`–`to` (a non-capture of the side to move on `board`) checks.
fn gives_check(board: &Board, from: u8, to: u8) -> bool {
    let mut cells = board.pos.cells;
    let us = board.pos.side;
    cells[to as usize] = cells[from as usize];
    cells[from as usize] = 0;
    let occ = board.pos.occupied[0] | board.pos.occupied[1];
    let occ = (occ & !(1u128 << from)) | (1u128 << to);
    general_attacked(&cells, occ, board.pos.generals[(!us).index()], us)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tb::{Material, Tablebases};

    /// The pass as it was before its counts were kept between rounds: every round scans
    /// the moves of every draw again and builds the whole attractor. The reference the
    /// kept counts and `trap_near` must agree with.
    fn rescanning_resolve(table: &mut Table, subs: &Subs) -> Result<(), TbError> {
        let size = table.layout.size;
        let mut board = Board::new(&table.layout);
        let mut cnt = vec![0u8; size];
        for defender in Color::ALL {
            if !checks(&table.material, defender) {
                continue;
            }
            let d = defender.index();
            let mut state = draws_of(&table.values);
            let mut base = [vec![0u8; size], vec![0u8; size]];
            loop {
                let (layout, material) = (&table.layout, &table.material);
                scan(
                    layout,
                    subs,
                    defender,
                    &state,
                    &mut base,
                    material,
                    &mut |_| true,
                )?;
                attractor(&mut board, &mut state, &base, &mut cnt, d, QUEUE_CAP);
                if !remove_outside_r(&mut state, &mut table.values, d) {
                    break;
                }
                for st in state.iter_mut().flatten() {
                    if *st == GONE {
                        *st = 0;
                    }
                }
            }
        }
        settle(&mut table.values);
        Ok(())
    }

    /// The values of `material` by `resolve` on the table as the retrograde pass left it
    /// (its rule results back to draws), the cached table's values (the pass with a
    /// queue that holds everything), and how many rule results the latter has.
    fn against_the_pass(
        tbs: &Tablebases,
        name: &str,
        resolve: impl Fn(&mut Table, &Subs),
    ) -> ([Vec<u8>; 2], [Vec<u8>; 2], usize) {
        let material: Material = name.parse().unwrap();
        let full = tbs.get_or_generate(&material, &mut |_| true).unwrap();
        let mut tables = Vec::new();
        for color in Color::ALL {
            for &kind in material.pieces(color) {
                let piece = Piece::new(color, kind);
                let sub = tbs.loaded(&material.without(piece).unwrap()).unwrap();
                tables.push((piece, sub));
            }
        }
        let subs = Subs { tables };
        let rule = |v: &u8| *v == RULE_WIN || *v == RULE_LOSS;
        let by_rule = full.values.iter().flatten().filter(|v| rule(v)).count();
        let mut plain = Table {
            material: material.clone(),
            layout: full.layout.clone(),
            values: full.values.clone(),
        };
        for v in plain.values.iter_mut().flatten() {
            if rule(v) {
                *v = 0;
            }
        }
        resolve(&mut plain, &subs);
        (plain.values, full.values.clone(), by_rule)
    }

    /// The kept counts give the tables the full rescan of every round gives, with Red
    /// and with Black the side that can only hold by checking.
    #[test]
    fn kept_counts_give_what_rescanning_gives() {
        let tbs = Tablebases::new(None);
        for name in ["KR v KN", "KN v KR", "KRA v KR", "KR v KRA"] {
            let (rescanned, kept, by_rule) =
                against_the_pass(&tbs, name, |t, subs| rescanning_resolve(t, subs).unwrap());
            assert!(by_rule > 0, "{name}: no rule result to compare");
            assert!(rescanned == kept, "{name}");
        }
    }

    /// With a queue of a few positions, most of the attractor waits as marks and is found
    /// by the sweeps: the rule results are the same as with a queue that holds them all.
    #[test]
    fn a_small_queue_gives_the_same_rule_results() {
        let tbs = Tablebases::new(None);
        for name in ["KR v KN", "KN v KR"] {
            let (small, full, by_rule) = against_the_pass(&tbs, name, |t, subs| {
                resolve_with(t, subs, &mut |_| true, 5).unwrap();
            });
            assert!(by_rule > 0, "{name}: no rule result to compare");
            assert!(small == full, "{name}");
        }
    }
}

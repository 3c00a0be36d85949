//! Static evaluation: how good a quiet position is for the side to move, in centipawns.
//!
//! The evaluation is a sum of weighted features, each with a middlegame and an endgame
//! weight blended by the game phase (how much attacking material is left):
//! - material (domain.md §6 was the starting point) and piece-square tables, folded
//!   left–right since the board is symmetric;
//! - mobility of rooks, horses and cannons (tables by number of moves; a horse's only to
//!   points no enemy pawn guards);
//! - general safety: missing advisors and elephants, weighted by the enemy attackers of
//!   each kind still on the board; the attack on the palace (a table by attack units of
//!   the pieces that reach into it); a cannon facing the general with no screen (空头炮)
//!   or one screen (镇中炮);
//! - threats: pieces attacked and undefended, or attacked by a cheaper piece, counted
//!   apart for the side to move (which can save one) and the side waiting;
//! - pawn structure: crossed pawns side by side;
//! - a bonus for having the move (tempo).
//!
//! Then endgame knowledge scales the result towards zero in endings the side ahead cannot
//! win (例和): no attacking pieces at all, a lone horse or cannon against enough
//! defenders, a lone rook against full advisors and elephants (士象全), and so on.
//!
//! The weights in `weights.rs` are fitted to game results (Texel's method: least squares of
//! the logistic of the evaluation against the result, over quiet positions); see
//! `tune.rs` and `core/examples/tune_eval.rs`, which regenerate them.

use super::score::Value;
use super::weights::WEIGHTS;
use crate::position::{BitIter, bit};
use crate::tables::{
    ADVISOR_MOVES, ELEPHANT_MOVES, GENERAL_MOVES, HORSE_MOVES, PAWN_MOVES, RAY_MASKS, RAYS, nearest,
};
use crate::{Color, Position};
use std::ops::{Add, AddAssign, Mul, Neg, Sub};

/// A pair of weights: middlegame and endgame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

/// Piece kinds by their index in a board code (see `Piece::code`).
pub(crate) const GENERAL: usize = 0;
pub(crate) const ADVISOR: usize = 1;
pub(crate) const ELEPHANT: usize = 2;
pub(crate) const HORSE: usize = 3;
pub(crate) const ROOK: usize = 4;
pub(crate) const CANNON: usize = 5;
pub(crate) const PAWN: usize = 6;

/// Where each group of weights starts in [`WEIGHTS`].
pub mod layout {
    /// Material by piece kind (general unused).
    pub const MATERIAL: usize = 0;
    /// Piece-square tables: 7 kinds × 50 points (ranks from the owner's side × files
    /// folded onto a–e).
    pub const PST: usize = 7;
    /// Rook mobility by number of moves, 0..=17.
    pub const MOB_ROOK: usize = PST + 7 * 50;
    /// Horse mobility by number of moves to points no enemy pawn guards, 0..=8.
    pub const MOB_HORSE: usize = MOB_ROOK + 18;
    /// Cannon mobility by number of moves, 0..=17.
    pub const MOB_CANNON: usize = MOB_HORSE + 9;
    /// Per missing own advisor, per enemy rook, horse, cannon, crossed pawn.
    pub const KS_ADVISOR: usize = MOB_CANNON + 18;
    /// Per missing own elephant, per enemy rook, horse, cannon, crossed pawn.
    pub const KS_ELEPHANT: usize = KS_ADVISOR + 4;
    /// An enemy cannon on the general's file with nothing between (空头炮).
    pub const EMPTY_HEAD_CANNON: usize = KS_ELEPHANT + 4;
    /// An enemy cannon on the general's file with one screen (镇中炮).
    pub const SCREENED_CANNON: usize = EMPTY_HEAD_CANNON + 1;
    /// Per pair of crossed pawns side by side.
    pub const CONNECTED_PAWNS: usize = SCREENED_CANNON + 1;
    /// For the side to move.
    pub const TEMPO: usize = CONNECTED_PAWNS + 1;
    /// The attack on the enemy palace, by attack units (rook 4, horse and cannon 3,
    /// pawn 2 for each piece attacking a point of it), 0..=19: for the attacker.
    pub const PALACE_ATTACK: usize = TEMPO + 1;
    /// Pieces of the side to move, by kind, attacked and either not defended or attacked
    /// by a cheaper piece: for their owner.
    pub const THREATENED_TO_MOVE: usize = PALACE_ATTACK + 20;
    /// The same for the side not to move.
    pub const THREATENED_WAITING: usize = THREATENED_TO_MOVE + 7;
    /// The attack on the enemy palace (its attack units, at most 19) times the enemy's
    /// missing advisors: for the attacker. An attack is worth more on a bare palace.
    pub const PRESSURE_NO_ADVISOR: usize = THREATENED_WAITING + 7;
    /// The same times the enemy's missing elephants.
    pub const PRESSURE_NO_ELEPHANT: usize = PRESSURE_NO_ADVISOR + 1;
    /// Number of weights.
    pub const COUNT: usize = PRESSURE_NO_ELEPHANT + 1;
}
use layout::*;

/// Phase weight of a rook, horse and cannon: the middlegame is the board full of them.
const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 1, 2, 1, 0];
/// The phase of the start position.
pub const PHASE_MAX: i32 =
    2 * (2 * PHASE_WEIGHT[HORSE] + 2 * PHASE_WEIGHT[ROOK] + 2 * PHASE_WEIGHT[CANNON]);
/// Scale factors are out of this.
pub const SCALE_ONE: i32 = 64;

/// Receives each feature's count (Red's minus Black's) as the evaluation finds it, so a
/// tuner can fit the weights; the evaluation itself uses [`NoTrace`].
pub trait Trace {
    /// Whether the features are wanted one by one. When not, the evaluation may add
    /// several weights at once from precomputed tables (the same sum, sooner).
    const RECORDS: bool = true;
    /// `count` more of feature `index` for Red (negative: for Black).
    fn add(&mut self, index: usize, count: i32);
    /// The game phase (0 = bare endgame … [`PHASE_MAX`]) and the endgame scale factor
    /// (out of [`SCALE_ONE`]) of the position.
    fn finish(&mut self, phase: i32, scale: i32);
}

/// The trace that records nothing.
pub struct NoTrace;

impl Trace for NoTrace {
    const RECORDS: bool = false;
    #[inline(always)]
    fn add(&mut self, _: usize, _: i32) {}
    #[inline(always)]
    fn finish(&mut self, _: i32, _: i32) {}
}

/// Piece-square index: rank from the owner's side × file folded onto a–e.
#[inline]
pub(crate) fn pst_index(sq: u8, color: usize) -> usize {
    PST_INDEX[color][sq as usize] as usize
}

/// [`pst_index`] by colour and point, computed once: divisions by 9 in the evaluation's
/// inner loop cost more than a table lookup.
static PST_INDEX: [[u8; 90]; 2] = {
    let mut t = [[0u8; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 90 {
            let (file, rank) = (sq % 9, sq / 9);
            let rel_rank = if c == 0 { rank } else { 9 - rank };
            let folded = if file < 8 - file { file } else { 8 - file };
            t[c][sq] = (rel_rank * 5 + folded) as u8;
            sq += 1;
        }
        c += 1;
    }
    t
};

/// Piece kind by board code (0, an empty point, maps to 0 and is never asked).
pub(crate) static KIND: [u8; 15] = [0, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6];

/// The rank of `sq` counted from `color`'s own side.
#[inline]
fn rel_rank(sq: u8, color: usize) -> u8 {
    if color == 0 { sq / 9 } else { 9 - sq / 9 }
}

/// The evaluation for the side to move.
#[inline]
pub fn evaluate(pos: &Position) -> Value {
    evaluate_traced(pos, &mut NoTrace)
}

/// Piece counts of each side by kind; pawns split into active and those on the last rank.
#[derive(Default)]
struct Census {
    count: [[i32; 7]; 2],
    /// Pawns on the enemy back rank (老兵/底兵): they can no longer approach the general.
    bottom_pawns: [i32; 2],
    /// Pawns across the river (not on the back rank): attackers.
    crossed_pawns: [i32; 2],
}

/// Value of a piece kind for deciding whether an attacker is cheaper than its target;
/// the general never counts as cheaper.
const THREAT_VALUE: [i32; 7] = [100, 2, 2, 4, 9, 5, 1];
/// Attack units of a piece aimed at the enemy palace, by kind.
const ATTACK_UNITS: [usize; 7] = [0, 0, 0, 3, 4, 3, 2];

/// The nine points of each side's palace.
const PALACE: [u128; 2] = {
    let mut m = [0u128; 2];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 3 {
            let rank = if c == 0 { r } else { 9 - r };
            let mut f = 3;
            while f <= 5 {
                m[c] |= 1u128 << (rank * 9 + f);
                f += 1;
            }
            r += 1;
        }
        c += 1;
    }
    m
};

/// What each side attacks: every point, and the points by each kind of piece.
#[derive(Default)]
struct Attacks {
    all: [u128; 2],
    by_kind: [[u128; 7]; 2],
}

/// The evaluation for the side to move, reporting every feature to `trace`.
pub fn evaluate_traced<T: Trace>(pos: &Position, trace: &mut T) -> Value {
    let cells = &pos.cells;
    let w = &WEIGHTS;
    let mut total = S(0, 0);
    let mut census = Census::default();
    let mut phase = 0;
    let mut add = |total: &mut S, index: usize, color: usize, count: i32| {
        let signed = if color == 0 { count } else { -count };
        *total += w[index] * signed;
        trace.add(index, signed);
    };
    let mut crossed_pawn_bits = [0u128; 2];
    let mut attacks = Attacks::default();
    let mut palace_units = [0usize; 2];
    let occ = pos.occupied[0] | pos.occupied[1];
    // Horse mobility counts only points no enemy pawn guards, so it waits until every
    // pawn has been seen.
    let mut horses = [0u128; 2];
    for (color, &own) in pos.occupied.iter().enumerate() {
        let enemy = pos.occupied[1 - color];
        // Pieces by kind, one byte each, counted in a register rather than in memory.
        let mut counts = 0u64;
        for s in BitIter(own) {
            let piece = cells[s as usize];
            let kind = KIND[piece as usize] as usize;
            counts += 1 << (8 * kind);
            if T::RECORDS {
                add(&mut total, MATERIAL + kind, color, 1);
                add(&mut total, PST + kind * 50 + pst_index(s, color), color, 1);
            } else {
                total += PIECE_SQUARE[piece as usize][s as usize];
            }
            let att = match kind {
                ROOK => {
                    let att = rook_attacks(occ, s);
                    let n = (att & !own).count_ones() as usize;
                    add(&mut total, MOB_ROOK + n.min(17), color, 1);
                    att
                }
                CANNON => {
                    let (att, quiet, targets) = cannon_attacks(occ, s);
                    let n = quiet + (targets & enemy).count_ones() as usize;
                    add(&mut total, MOB_CANNON + n.min(17), color, 1);
                    att
                }
                HORSE => {
                    horses[color] |= bit(s);
                    horse_attacks(occ, s)
                }
                PAWN => {
                    let r = rel_rank(s, color);
                    if r == 9 {
                        census.bottom_pawns[color] += 1;
                    } else if r >= 5 {
                        census.crossed_pawns[color] += 1;
                        crossed_pawn_bits[color] |= bit(s);
                    }
                    pawn_attacks(color, s)
                }
                _ => step_attacks(occ, color, kind, s),
            };
            attacks.all[color] |= att;
            attacks.by_kind[color][kind] |= att;
            if att & PALACE[1 - color] != 0 {
                palace_units[color] += ATTACK_UNITS[kind];
            }
        }
        for (kind, n) in census.count[color].iter_mut().enumerate() {
            *n = (counts >> (8 * kind) & 0xFF) as i32;
            phase += PHASE_WEIGHT[kind] * *n;
        }
    }
    for (color, &own) in pos.occupied.iter().enumerate() {
        for s in BitIter(horses[color]) {
            let safe = horse_attacks(occ, s) & !own & !attacks.by_kind[1 - color][PAWN];
            add(&mut total, MOB_HORSE + safe.count_ones() as usize, color, 1);
        }
    }
    // Missing advisors and elephants of each side: the defender's weakness in the safety
    // terms, the attacker's opportunity in the pressure terms.
    let missing = |color: usize, kind: usize| 2 - census.count[color][kind].min(2);
    for (color, &pawns) in crossed_pawn_bits.iter().enumerate() {
        let them = 1 - color;
        // General safety: each missing defender counts once per enemy attacker.
        let attackers = [
            census.count[them][ROOK],
            census.count[them][HORSE],
            census.count[them][CANNON],
            census.crossed_pawns[them],
        ];
        let missing_advisors = missing(color, ADVISOR);
        let missing_elephants = missing(color, ELEPHANT);
        for (k, &n) in attackers.iter().enumerate() {
            if n > 0 {
                add(&mut total, KS_ADVISOR + k, color, missing_advisors * n);
                add(&mut total, KS_ELEPHANT + k, color, missing_elephants * n);
            }
        }
        let units = palace_units[color].min(19);
        add(&mut total, PALACE_ATTACK + units, color, 1);
        if units > 0 {
            let units = units as i32;
            add(
                &mut total,
                PRESSURE_NO_ADVISOR,
                color,
                units * missing(them, ADVISOR),
            );
            add(
                &mut total,
                PRESSURE_NO_ELEPHANT,
                color,
                units * missing(them, ELEPHANT),
            );
        }
        // Enemy cannons on the general's file, by the number of pieces between.
        let g = pos.generals[color];
        let toward_enemy = if color == 0 { 0 } else { 1 };
        let enemy_cannon = 1 + 7 * them as u8 + CANNON as u8;
        let on_file = RAY_MASKS[g as usize][toward_enemy] & occ;
        if on_file != 0 {
            let first = nearest(on_file, toward_enemy);
            if cells[first] == enemy_cannon {
                add(&mut total, EMPTY_HEAD_CANNON, them, 1);
            }
            let behind = RAY_MASKS[first][toward_enemy] & occ;
            if behind != 0 && cells[nearest(behind, toward_enemy)] == enemy_cannon {
                add(&mut total, SCREENED_CANNON, them, 1);
            }
        }
        // Crossed pawns side by side defend each other and advance together.
        let pairs = BitIter(pawns)
            .filter(|&s| s % 9 != 8 && pawns & bit(s + 1) != 0)
            .count();
        if pairs > 0 {
            add(&mut total, CONNECTED_PAWNS, color, pairs as i32);
        }
        // Pieces en prise: attacked and undefended, or attacked by something cheaper.
        let threatened = if color == pos.side.index() {
            THREATENED_TO_MOVE
        } else {
            THREATENED_WAITING
        };
        let attacked = pos.occupied[color] & attacks.all[them];
        // What the enemy attacks with pieces cheaper than each kind: one mask per kind
        // instead of a test of every cheaper kind for every attacked piece.
        let mut cheaper_attacks = [0u128; 7];
        if attacked != 0 {
            for (kind, mask) in cheaper_attacks.iter_mut().enumerate() {
                for (k, &by_kind) in attacks.by_kind[them].iter().enumerate() {
                    if THREAT_VALUE[k] < THREAT_VALUE[kind] {
                        *mask |= by_kind;
                    }
                }
            }
        }
        for s in BitIter(attacked) {
            let kind = KIND[cells[s as usize] as usize] as usize;
            if kind == GENERAL {
                continue;
            }
            let cheaper = cheaper_attacks[kind] & bit(s) != 0;
            if cheaper || attacks.all[color] & bit(s) == 0 {
                add(&mut total, threatened + kind, color, 1);
            }
        }
    }
    add(&mut total, TEMPO, pos.side.index(), 1);

    let phase = phase.min(PHASE_MAX);
    let blended = (total.0 * phase + total.1 * (PHASE_MAX - phase)) / PHASE_MAX;
    let strong = if blended >= 0 { 0 } else { 1 };
    let scale = endgame_scale(&census, strong);
    trace.finish(phase, scale);
    let red = blended * scale / SCALE_ONE;
    if pos.side == Color::Red { red } else { -red }
}

/// Points a rook on `s` attacks: along each ray up to and including the first piece.
#[inline]
fn rook_attacks(occ: u128, s: u8) -> u128 {
    let rays = &RAY_MASKS[s as usize];
    let mut att = 0;
    for (d, &ray) in rays.iter().enumerate() {
        let blockers = ray & occ;
        att |= if blockers == 0 {
            ray
        } else {
            ray ^ RAY_MASKS[nearest(blockers, d)][d]
        };
    }
    att
}

/// Points a cannon on `s` attacks (beyond its screen, up to and including the next
/// piece), the number of empty points it can move to, and the pieces it could capture
/// if they were enemies (the first beyond each screen).
#[inline]
fn cannon_attacks(occ: u128, s: u8) -> (u128, usize, u128) {
    let rays = &RAY_MASKS[s as usize];
    let (mut att, mut quiet, mut targets) = (0, 0, 0);
    for (d, &ray) in rays.iter().enumerate() {
        let blockers = ray & occ;
        if blockers == 0 {
            quiet += ray.count_ones() as usize;
            continue;
        }
        let screen = nearest(blockers, d);
        let beyond = RAY_MASKS[screen][d];
        quiet += (ray ^ beyond).count_ones() as usize - 1;
        let behind = beyond & occ;
        att |= if behind == 0 {
            beyond
        } else {
            let target = nearest(behind, d);
            targets |= bit(target as u8);
            beyond ^ RAY_MASKS[target][d]
        };
    }
    (att, quiet, targets)
}

/// Points a horse on `s` attacks (its legs free), given the occupied points `occ`.
#[inline]
fn horse_attacks(occ: u128, s: u8) -> u128 {
    let by_leg = &HORSE_BY_LEG[s as usize];
    let mut att = 0;
    for (&leg, &targets) in by_leg.legs.iter().zip(&by_leg.targets) {
        if occ & leg == 0 {
            att |= targets;
        }
    }
    att
}

/// A horse's jumps from a point grouped by leg: each of the (up to four) orthogonal
/// neighbours, as a one-bit mask (0 where off the board, which never blocks but has no
/// targets), and the (up to two) points reached through it.
struct HorseLegs {
    legs: [u128; 4],
    targets: [u128; 4],
}

static HORSE_BY_LEG: [HorseLegs; 90] = {
    const NONE: HorseLegs = HorseLegs {
        legs: [0; 4],
        targets: [0; 4],
    };
    let mut t = [NONE; 90];
    let mut s = 0;
    while s < 90 {
        let st = &HORSE_MOVES[s];
        let mut k = 0;
        while k < st.len as usize {
            let mut d = 0;
            while d < 4 {
                let ray = &RAYS[s][d];
                if ray.len > 0 && ray.sq[0] == st.via[k] {
                    t[s].legs[d] = 1u128 << st.via[k];
                    t[s].targets[d] |= 1u128 << st.to[k];
                }
                d += 1;
            }
            k += 1;
        }
        s += 1;
    }
    t
};

/// Points a pawn of `color` on `s` attacks.
#[inline]
fn pawn_attacks(color: usize, s: u8) -> u128 {
    PAWN_ATTACK_MASK[color][s as usize]
}

/// [`PAWN_MOVES`] as masks.
static PAWN_ATTACK_MASK: [[u128; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            t[c][s] = PAWN_MOVES[c][s].dest_mask();
            s += 1;
        }
        c += 1;
    }
    t
};

/// Material plus piece-square weight of each board code on each point, signed for Red:
/// the evaluation adds one entry per piece when it does not trace the features.
static PIECE_SQUARE: [[S; 90]; 15] = {
    let mut t = [[S(0, 0); 90]; 15];
    let mut code = 1;
    while code < 15 {
        let color = (code - 1) / 7;
        let kind = (code - 1) % 7;
        let sign = if color == 0 { 1 } else { -1 };
        let mut sq = 0;
        while sq < 90 {
            let m = WEIGHTS[MATERIAL + kind];
            let p = WEIGHTS[PST + kind * 50 + PST_INDEX[color][sq] as usize];
            t[code][sq] = S((m.0 + p.0) * sign, (m.1 + p.1) * sign);
            sq += 1;
        }
        code += 1;
    }
    t
};

/// Points the general, an advisor or an elephant of `color` on `s` attacks, given the
/// occupied points `occ`.
#[inline]
fn step_attacks(occ: u128, color: usize, kind: usize, s: u8) -> u128 {
    let f = s as usize;
    match kind {
        GENERAL => PALACE_STEP_MASK[color][0][f],
        ADVISOR => PALACE_STEP_MASK[color][1][f],
        _ => {
            let st = &ELEPHANT_MOVES[color][f];
            let mut att = 0;
            for k in 0..st.len as usize {
                if occ & bit(st.via[k]) == 0 {
                    att |= bit(st.to[k]);
                }
            }
            att
        }
    }
}

/// [`GENERAL_MOVES`] and [`ADVISOR_MOVES`] (never blocked) as masks, by colour.
static PALACE_STEP_MASK: [[[u128; 90]; 2]; 2] = {
    let mut t = [[[0u128; 90]; 2]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            t[c][0][s] = GENERAL_MOVES[c][s].dest_mask();
            t[c][1][s] = ADVISOR_MOVES[c][s].dest_mask();
            s += 1;
        }
        c += 1;
    }
    t
};

/// How much of its advantage `strong` can turn into a win in `pos`, out of
/// [`SCALE_ONE`]: the known drawn endings (例和), for an evaluation other than this one
/// (the network's) to apply.
pub(crate) fn drawish_scale(pos: &Position, strong: Color) -> i32 {
    // Every drawn ending `endgame_scale` knows leaves the side ahead at most two rooks,
    // horses and cannons: with three it wins, and most positions stop counting here.
    let strong_attackers = BitIter(pos.occupied[strong.index()])
        .filter(|&s| {
            matches!(
                KIND[pos.cells[s as usize] as usize] as usize,
                HORSE | ROOK | CANNON
            )
        })
        .take(3)
        .count();
    if strong_attackers == 3 {
        return SCALE_ONE;
    }
    let mut census = Census::default();
    for (color, &own) in pos.occupied.iter().enumerate() {
        for s in BitIter(own) {
            let kind = KIND[pos.cells[s as usize] as usize] as usize;
            census.count[color][kind] += 1;
            if kind == PAWN {
                match rel_rank(s, color) {
                    9 => census.bottom_pawns[color] += 1,
                    5.. => census.crossed_pawns[color] += 1,
                    _ => {}
                }
            }
        }
    }
    endgame_scale(&census, strong.index())
}

/// How much of its advantage the side `strong` (0 = Red) can turn into a win, out of
/// [`SCALE_ONE`]: the known drawn endings (例和) of Xiangqi endgame theory.
fn endgame_scale(c: &Census, strong: usize) -> i32 {
    // A lone rook against full advisors and elephants (单车难胜士象全), also with a horse
    // or cannon beside them, is drawn whichever side the material count favours.
    for rook_side in 0..2 {
        let r = &c.count[rook_side];
        let d = &c.count[1 - rook_side];
        if r[ROOK] == 1
            && r[HORSE] + r[CANNON] == 0
            && r[PAWN] == c.bottom_pawns[rook_side]
            && d[ROOK] == 0
            && d[HORSE] + d[CANNON] <= 1
            && c.crossed_pawns[1 - rook_side] == 0
            && d[ADVISOR] + d[ELEPHANT] == 4
        {
            return 1;
        }
    }
    let weak = 1 - strong;
    let s = &c.count[strong];
    let w = &c.count[weak];
    let pawns = s[PAWN] - c.bottom_pawns[strong];
    let (rooks, horses, cannons) = (s[ROOK], s[HORSE], s[CANNON]);
    let weak_defenders = w[ADVISOR] + w[ELEPHANT];
    let weak_attackers = w[ROOK] + w[HORSE] + w[CANNON] + c.crossed_pawns[weak];
    // Generals, advisors, elephants and bottom pawns cannot mate.
    if rooks + horses + cannons + pawns == 0 {
        return 0;
    }
    if rooks + horses + cannons == 0 {
        // Pawns only: a lone pawn cannot beat two advisors, nor three defenders.
        if pawns == 1 && (w[ADVISOR] == 2 || weak_defenders >= 3) {
            return 2;
        }
        return SCALE_ONE;
    }
    if pawns == 0 && rooks == 0 && horses + cannons == 1 {
        // A lone horse draws against three defenders; a lone cannon needs its own
        // advisors or elephants as screens, and even then not against two defenders.
        let own_screens = s[ADVISOR] + s[ELEPHANT];
        if horses == 1 && weak_defenders >= 3 {
            return 1;
        }
        if cannons == 1 && (own_screens == 0 || weak_defenders >= 2) {
            return 1;
        }
        return SCALE_ONE;
    }
    if pawns == 0 && rooks == 1 && horses + cannons == 0 && w[ROOK] == 1 && weak_attackers == 1 {
        // Rook against rook.
        return 2;
    }
    if pawns == 0 && rooks == 0 && cannons == 2 && horses == 0 && weak_defenders == 4 {
        // Two cannons cannot break full advisors and elephants.
        return 8;
    }
    SCALE_ONE
}

/// The names of the evaluation's terms, each a group of weights, with where the group
/// starts in [`WEIGHTS`] (a group runs to the next one's start).
pub const TERMS: [(&str, usize); 16] = [
    ("material", MATERIAL),
    ("piece-square", PST),
    ("rook mobility", MOB_ROOK),
    ("horse mobility", MOB_HORSE),
    ("cannon mobility", MOB_CANNON),
    ("missing advisors", KS_ADVISOR),
    ("missing elephants", KS_ELEPHANT),
    ("empty-head cannon", EMPTY_HEAD_CANNON),
    ("screened cannon", SCREENED_CANNON),
    ("connected pawns", CONNECTED_PAWNS),
    ("tempo", TEMPO),
    ("palace attack", PALACE_ATTACK),
    ("threatened, to move", THREATENED_TO_MOVE),
    ("threatened, waiting", THREATENED_WAITING),
    ("pressure, no advisor", PRESSURE_NO_ADVISOR),
    ("pressure, no elephant", PRESSURE_NO_ELEPHANT),
];

/// The evaluation of a position term by term, as `chuhe-engine eval` prints it: to see
/// which terms make a score.
#[derive(Clone, Debug)]
pub struct Breakdown {
    /// Each of [`TERMS`], in that order: Red's sum minus Black's (middlegame, endgame).
    pub terms: Vec<(&'static str, S)>,
    /// The game phase, 0 (bare endgame) to [`PHASE_MAX`].
    pub phase: i32,
    /// The endgame scale factor, out of [`SCALE_ONE`].
    pub scale: i32,
    /// The evaluation for Red: the terms' sum blended by the phase, then scaled.
    pub red: Value,
}

impl Breakdown {
    /// The terms' sum (middlegame, endgame), before the phase blends it.
    pub fn total(&self) -> S {
        self.terms.iter().fold(S(0, 0), |t, &(_, s)| t + s)
    }
}

/// Sums each weight's share into its term.
struct TermTrace {
    sums: [S; TERMS.len()],
    phase: i32,
    scale: i32,
}

impl Trace for TermTrace {
    fn add(&mut self, index: usize, count: i32) {
        // The last group starting at or before `index` (the first starts at 0).
        let term = TERMS.partition_point(|&(_, start)| start <= index) - 1;
        self.sums[term] += WEIGHTS[index] * count;
    }
    fn finish(&mut self, phase: i32, scale: i32) {
        self.phase = phase;
        self.scale = scale;
    }
}

/// The evaluation of `pos` term by term.
pub fn breakdown(pos: &Position) -> Breakdown {
    let mut trace = TermTrace {
        sums: [S(0, 0); TERMS.len()],
        phase: 0,
        scale: SCALE_ONE,
    };
    let v = evaluate_traced(pos, &mut trace);
    Breakdown {
        terms: TERMS
            .iter()
            .map(|&(name, _)| name)
            .zip(trace.sums)
            .collect(),
        phase: trace.phase,
        scale: trace.scale,
        red: if pos.side == Color::Red { v } else { -v },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breakdown_adds_up_to_the_evaluation() {
        let mut seen = [false; TERMS.len()];
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "2Raka3/6r2/9/p3NP2p/6p2/7R1/P4nP1P/4B4/3rA4/1cBAK2N1 w - - 1 32",
            "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/9/PcP1P1P1P/N1C1C1N2/9/R1BAKABR1 b - - 0 6",
            "2bakab2/9/9/9/9/9/9/4N4/9/3K5 w - - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            let b = breakdown(&pos);
            let total = b.total();
            let blended = (total.0 * b.phase + total.1 * (PHASE_MAX - b.phase)) / PHASE_MAX;
            assert_eq!(blended * b.scale / SCALE_ONE, b.red, "{fen}");
            let to_move = if pos.side == Color::Red {
                b.red
            } else {
                -b.red
            };
            assert_eq!(to_move, evaluate(&pos), "{fen}");
            for (i, &(_, s)) in b.terms.iter().enumerate() {
                seen[i] |= s != S(0, 0);
            }
        }
        // The positions differ in enough ways that the sums above cover many terms.
        assert!(seen.iter().filter(|&&s| s).count() >= 8, "{seen:?}");
    }

    fn eval(fen: &str) -> Value {
        evaluate(&fen.parse::<Position>().unwrap())
    }

    /// The Red position with colours swapped and the board turned must score the same for
    /// the side to move.
    #[test]
    fn colour_symmetric() {
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/9/PcP1P1P1P/N1C1C1N2/9/R1BAKABR1 w - - 0 6",
            "3k5/4P2N1/3Nb1c1b/8p/9/2B6/P7P/4B4/4A4/3AK4 w - - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            let mut setup = pos.to_setup();
            setup.board = setup.board.colors_swapped();
            setup.side_to_move = !setup.side_to_move;
            let swapped = Position::from_setup(&setup).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&swapped), "{fen}");
            let mut mirrored = pos.to_setup();
            mirrored.board = mirrored.board.mirrored();
            let mirrored = Position::from_setup(&mirrored).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&mirrored), "{fen}");
        }
    }

    /// The scale the network's value gets is the one this evaluation applies, for the
    /// side it finds ahead, along random games that thin out to endings.
    #[test]
    fn the_drawish_scale_agrees_with_the_evaluation() {
        let mut rng = crate::play::Rng::new(77);
        let mut scaled = 0;
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..300 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let captures: Vec<_> = moves
                    .iter()
                    .filter(|m| pos.cells[m.to.index() as usize] != 0)
                    .collect();
                let m = if captures.is_empty() {
                    moves[rng.below(moves.len() as u64) as usize]
                } else {
                    *captures[rng.below(captures.len() as u64) as usize]
                };
                pos.play_unchecked(m);
                let b = breakdown(&pos);
                let total = b.total();
                let blended = (total.0 * b.phase + total.1 * (PHASE_MAX - b.phase)) / PHASE_MAX;
                let strong = if blended >= 0 {
                    Color::Red
                } else {
                    Color::Black
                };
                assert_eq!(drawish_scale(&pos, strong), b.scale, "{pos}");
                scaled += (b.scale < SCALE_ONE) as usize;
            }
        }
        assert!(scaled >= 50, "{scaled}");
    }

    #[test]
    fn material_counts() {
        // Red has an extra rook.
        assert!(
            eval("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1") > 500
        );
        assert!(
            eval("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1") < -500
        );
    }

    #[test]
    fn known_draws_score_near_zero() {
        for fen in [
            // A lone horse against full advisors and elephants.
            "2bakab2/9/9/9/9/9/9/4N4/9/3K5 w - - 0 1",
            // A lone cannon against full advisors and elephants.
            "2bakab2/9/9/9/9/9/9/4C4/9/3K5 w - - 0 1",
            // A lone rook against full advisors and elephants.
            "2bakab2/9/9/9/9/9/9/R8/9/3K5 w - - 0 1",
            // A rook against a horse with full advisors and elephants.
            "2bakab2/9/4n4/9/9/9/9/4R4/9/3K5 w - - 0 1",
            // Only defenders on both sides.
            "2bakab2/9/9/9/9/9/9/4B4/4A4/3AK1B2 w - - 0 1",
        ] {
            let v = eval(fen);
            assert!(v.abs() <= 30, "{fen}: {v}");
        }
        // A rook against a bare general is no draw.
        assert!(eval("3k5/9/9/9/9/9/9/4R4/9/4K4 w - - 0 1") > 500);
    }
}

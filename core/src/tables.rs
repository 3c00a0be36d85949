//! Precomputed step tables, built at compile time: for every point, where each kind of
//! piece can step and which point blocks it (horse leg 马腿, elephant eye 象眼), the four
//! rays for rooks and cannons, and the reverse tables used to ask "is this point attacked".

/// Up to `N` destinations, each with the point that must be empty for the step (the leg or
/// eye; for pieces that cannot be blocked it is the destination itself and is not read).
#[derive(Clone, Copy)]
pub(crate) struct Steps<const N: usize> {
    pub len: u8,
    pub to: [u8; N],
    pub via: [u8; N],
}

impl<const N: usize> Steps<N> {
    const EMPTY: Steps<N> = Steps {
        len: 0,
        to: [0; N],
        via: [0; N],
    };

    const fn push(mut self, to: u8, via: u8) -> Self {
        self.to[self.len as usize] = to;
        self.via[self.len as usize] = via;
        self.len += 1;
        self
    }

    /// The destination points, as a mask (bit `s` is point `s`), legs and eyes ignored.
    pub(crate) const fn dest_mask(&self) -> u128 {
        let mut m = 0;
        let mut i = 0;
        while i < self.len as usize {
            m |= 1u128 << self.to[i];
            i += 1;
        }
        m
    }
}

/// The points along one direction from a point, nearest first.
#[derive(Clone, Copy)]
pub(crate) struct Ray {
    pub len: u8,
    pub sq: [u8; 9],
}

/// North (towards Black), south, east (towards file i), west.
pub(crate) const DIRECTIONS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// Index into [`DIRECTIONS`] of the two vertical directions (the flying general's line).
pub(crate) const fn is_vertical(dir: usize) -> bool {
    dir < 2
}

const fn at(f: i8, r: i8) -> Option<u8> {
    if f >= 0 && f < 9 && r >= 0 && r < 10 {
        Some((r * 9 + f) as u8)
    } else {
        None
    }
}

/// Rank relative to `color` (0 = Red, 1 = Black): 0 is that side's back rank.
const fn rel_rank(color: usize, r: i8) -> i8 {
    if color == 0 { r } else { 9 - r }
}

const fn in_palace(color: usize, f: i8, r: i8) -> bool {
    let rr = rel_rank(color, r);
    f >= 3 && f <= 5 && rr >= 0 && rr <= 2
}

/// Forward direction of a pawn of `color`.
const fn forward(color: usize) -> i8 {
    if color == 0 { 1 } else { -1 }
}

const fn build_rays() -> [[Ray; 4]; 90] {
    let mut rays = [[Ray { len: 0, sq: [0; 9] }; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i8, (s / 9) as i8);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRECTIONS[d];
            let mut k = 1;
            while let Some(t) = at(f + df * k, r + dr * k) {
                let ray = &mut rays[s][d];
                ray.sq[ray.len as usize] = t;
                ray.len += 1;
                k += 1;
            }
            d += 1;
        }
        s += 1;
    }
    rays
}

/// The eight horse jumps as (file step, rank step), with the leg one orthogonal step
/// along the longer component.
const HORSE_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

const fn leg_of(df: i8, dr: i8) -> (i8, i8) {
    if dr == 2 || dr == -2 {
        (0, dr / 2)
    } else {
        (df / 2, 0)
    }
}

const fn build_horse_moves() -> [Steps<8>; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i8, (s / 9) as i8);
        let mut i = 0;
        while i < 8 {
            let (df, dr) = HORSE_JUMPS[i];
            let (lf, lr) = leg_of(df, dr);
            if let (Some(to), Some(leg)) = (at(f + df, r + dr), at(f + lf, r + lr)) {
                t[s] = t[s].push(to, leg);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// For each target point: the points a horse could attack it from, with that horse's leg.
const fn build_horse_attackers() -> [Steps<8>; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i8, (s / 9) as i8);
        let mut i = 0;
        while i < 8 {
            let (df, dr) = HORSE_JUMPS[i];
            // A horse at (f - df, r - dr) jumping by (df, dr) lands here.
            let (hf, hr) = (f - df, r - dr);
            let (lf, lr) = leg_of(df, dr);
            if let (Some(from), Some(leg)) = (at(hf, hr), at(hf + lf, hr + lr)) {
                t[s] = t[s].push(from, leg);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const fn build_elephant_moves() -> [[Steps<4>; 90]; 2] {
    let mut t = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i8, (s / 9) as i8);
            let mut i = 0;
            while i < 4 {
                let (df, dr) = [(2, 2), (2, -2), (-2, 2), (-2, -2)][i];
                // Never across the river: both ends on the own half. An elephant a composer
                // put across the river cannot move; this keeps the table symmetric (see above).
                let (here, own) = (rel_rank(c, r), rel_rank(c, r + dr));
                if let (true, Some(to), Some(eye)) = (
                    here >= 0 && here <= 4 && own >= 0 && own <= 4,
                    at(f + df, r + dr),
                    at(f + df / 2, r + dr / 2),
                ) {
                    t[c][s] = t[c][s].push(to, eye);
                }
                i += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

const fn build_palace_moves(diagonal: bool) -> [[Steps<4>; 90]; 2] {
    let mut t = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i8, (s / 9) as i8);
            // Steps go from a palace point to a palace point. In play an advisor only meets
            // the five diagonal points, but a composed problem may put one on another palace
            // point (it then steps among the other four) or outside (it cannot move). Keeping
            // every step inside keeps the table symmetric, which the exchange evaluator and
            // the tablebase's unmoves rely on when they read it backwards.
            if in_palace(c, f, r) {
                let mut i = 0;
                while i < 4 {
                    let (df, dr) = if diagonal {
                        [(1, 1), (1, -1), (-1, 1), (-1, -1)][i]
                    } else {
                        DIRECTIONS[i]
                    };
                    if let (true, Some(to)) = (in_palace(c, f + df, r + dr), at(f + df, r + dr)) {
                        t[c][s] = t[c][s].push(to, to);
                    }
                    i += 1;
                }
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// The pawn steps of `color` from `(f, r)`: forward, and sideways once across the river.
const fn pawn_steps(c: usize, f: i8, r: i8) -> Steps<3> {
    let mut st = Steps::EMPTY;
    if let Some(to) = at(f, r + forward(c)) {
        st = st.push(to, to);
    }
    if rel_rank(c, r) >= 5 {
        if let Some(to) = at(f - 1, r) {
            st = st.push(to, to);
        }
        if let Some(to) = at(f + 1, r) {
            st = st.push(to, to);
        }
    }
    st
}

const fn build_pawn_moves() -> [[Steps<3>; 90]; 2] {
    let mut t = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            t[c][s] = pawn_steps(c, (s % 9) as i8, (s / 9) as i8);
            s += 1;
        }
        c += 1;
    }
    t
}

/// For each colour and target point: the points a pawn of that colour attacks it from.
const fn build_pawn_attackers() -> [[Steps<3>; 90]; 2] {
    let mut t = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let st = pawn_steps(c, (from % 9) as i8, (from / 9) as i8);
            let mut i = 0;
            while i < st.len as usize {
                let target = st.to[i] as usize;
                t[c][target] = t[c][target].push(from as u8, from as u8);
                i += 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
}

pub(crate) static RAYS: [[Ray; 4]; 90] = build_rays();
pub(crate) static HORSE_MOVES: [Steps<8>; 90] = build_horse_moves();
pub(crate) static HORSE_ATTACKERS: [Steps<8>; 90] = build_horse_attackers();
pub(crate) static ELEPHANT_MOVES: [[Steps<4>; 90]; 2] = build_elephant_moves();
pub(crate) static ADVISOR_MOVES: [[Steps<4>; 90]; 2] = build_palace_moves(true);
pub(crate) static GENERAL_MOVES: [[Steps<4>; 90]; 2] = build_palace_moves(false);
pub(crate) static PAWN_MOVES: [[Steps<3>; 90]; 2] = build_pawn_moves();
pub(crate) static PAWN_ATTACKERS: [[Steps<3>; 90]; 2] = build_pawn_attackers();

/// The points beyond each point in each of the four [`DIRECTIONS`], as masks (bit `s` is
/// point `s`): a slider's nearest piece in a direction is then one bit scan of
/// `mask & occupied` (see [`nearest`]) instead of a walk along the ray.
pub(crate) static RAY_MASKS: [[u128; 4]; 90] = {
    let rays = build_rays();
    let mut t = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let mut d = 0;
        while d < 4 {
            let ray = &rays[s][d];
            let mut i = 0;
            while i < ray.len as usize {
                t[s][d] |= 1u128 << ray.sq[i];
                i += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// The nearest point of `blockers` (non-empty, a subset of one ray mask) seen looking in
/// direction `d` of [`DIRECTIONS`]: north and east go up in index, south and west down.
#[inline(always)]
pub(crate) fn nearest(blockers: u128, d: usize) -> usize {
    if d == 0 || d == 2 {
        blockers.trailing_zeros() as usize
    } else {
        127 - blockers.leading_zeros() as usize
    }
}

/// For each point: the points a horse could attack it from (a quick test that no horse
/// stands there before looking at legs).
pub(crate) static HORSE_ATTACKER_MASK: [u128; 90] = {
    let attackers = build_horse_attackers();
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        t[s] = attackers[s].dest_mask();
        s += 1;
    }
    t
};

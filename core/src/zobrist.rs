//! Zobrist keys: one random 64-bit key per piece and point, and one for Black to move.
//! The position's hash is the XOR of the keys of what is on the board; moves update it
//! incrementally and tests check it against a fresh computation.

/// SplitMix64, run at compile time so the keys are fixed across builds and platforms
/// (stored hashes and opening books depend on that).
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_keys() -> ([[u64; 90]; 15], u64) {
    let mut keys = [[0u64; 90]; 15];
    let mut state = 0x4368_7568_6520_2021; // "Chuhe !!"
    let mut code = 1;
    while code < 15 {
        let mut sq = 0;
        while sq < 90 {
            let (s, k) = splitmix(state);
            state = s;
            keys[code][sq] = k;
            sq += 1;
        }
        code += 1;
    }
    let (_, side) = splitmix(state);
    (keys, side)
}

const KEYS: ([[u64; 90]; 15], u64) = make_keys();

/// The key of the piece with board code `code` (1..=14) on point index `sq`; code 0 (empty) is 0.
#[inline]
pub(crate) const fn piece_key(code: u8, sq: u8) -> u64 {
    KEYS.0[code as usize][sq as usize]
}

/// XORed in when Black is to move.
pub(crate) const SIDE_KEY: u64 = KEYS.1;

//! The transposition table: what earlier searches learnt about a position (best move,
//! value and how it bounds the true value, depth, static evaluation), shared by all search
//! threads without locks.
//!
//! Each slot is two 64-bit atomics: the data, and the key XOR the data. A read that mixes
//! two writers' halves fails the key check and counts as a miss, so racing threads can
//! lose an entry but never read a wrong one (the scheme of Hyatt and Mann's lockless
//! hashing). Slots come in buckets of four, one cache line; a new entry replaces the
//! slot of the same position, else the shallowest or oldest one.

use super::score::{MATE_IN_MAX_PLY, Value};
use crate::{Move, Square};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// How a stored value bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true value is at most this (no move reached alpha).
    Upper = 1,
    /// The true value is at least this (a move reached beta).
    Lower = 2,
    /// The value is exact (a principal variation node).
    Exact = 3,
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub mv: Option<Move>,
    /// Ply-independent: mates are stored as distances from this position.
    pub value: Value,
    pub eval: Value,
    pub depth: i32,
    pub bound: Bound,
}

/// Depths stored are offset so quiescence entries (depth 0 and below) fit in a byte.
const DEPTH_OFFSET: i32 = 8;
const SLOTS: usize = 4;

#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    slots: [Slot; SLOTS],
}

/// A lock-free hash table of search results.
pub(crate) struct Tt {
    buckets: Box<[Bucket]>,
    /// The age of entries written by the current search, 6 bits.
    generation: AtomicU8,
}

fn encode_move(m: Option<Move>) -> u64 {
    // A move never starts and ends on the same point, so 0 (a0→a0) means "none".
    m.map_or(0, |m| (m.from.index() as u64) << 7 | m.to.index() as u64)
}

fn decode_move(bits: u64) -> Option<Move> {
    let (from, to) = ((bits >> 7 & 0x7F) as u8, (bits & 0x7F) as u8);
    if from == to {
        return None;
    }
    Some(Move::new(
        Square::from_index(from)?,
        Square::from_index(to)?,
    ))
}

/// Asks Linux to back the memory `[start, start + len)` with transparent huge pages
/// (where the system leaves the choice to the program). A 16 MiB table spans 4096 small
/// pages, far more than the processor's address translation cache holds, so almost every
/// probe would pay a page walk, and more so in a virtual machine; 2 MiB pages need eight.
/// Only a hint: nothing changes if it is refused.
fn advise_huge_pages(start: usize, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let first = start.next_multiple_of(PAGE);
        let end = (start + len) / PAGE * PAGE;
        if end > first {
            // SAFETY: madvise with MADV_HUGEPAGE only changes how the kernel backs the
            // pages of this range, which the caller owns; it never changes their contents.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

impl Tt {
    /// A table of about `mb` mebibytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let count = (mb.max(1) << 20) / size_of::<Bucket>();
        let mut buckets = Vec::with_capacity(count);
        // Before the first write touches the memory: ask for huge pages, so that the
        // probes all over the table do not each miss the address translation cache.
        advise_huge_pages(buckets.as_ptr() as usize, count * size_of::<Bucket>());
        buckets.extend((0..count).map(|_| Bucket::default()));
        Tt {
            buckets: buckets.into_boxed_slice(),
            generation: AtomicU8::new(0),
        }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for s in &b.slots {
                s.key.store(0, Relaxed);
                s.data.store(0, Relaxed);
            }
        }
        self.generation.store(0, Relaxed);
    }

    /// Starts a new search: entries written from now on are newer than all before.
    pub fn new_search(&self) {
        self.generation.store(
            self.generation.load(Relaxed).wrapping_add(1) & 0x3F,
            Relaxed,
        );
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table length without a power of two.
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Asks the processor to start loading the bucket of `key`, so the probe that
    /// follows a move finds it in cache (the table is far larger than the caches).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint; it never faults, whatever the address.
            unsafe { _mm_prefetch(p, _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for s in &self.bucket(key).slots {
            let data = s.data.load(Relaxed);
            if data != 0 && s.key.load(Relaxed) ^ data == key {
                let bound = match data >> 56 & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    3 => Bound::Exact,
                    _ => return None,
                };
                return Some(Entry {
                    mv: decode_move(data & 0xFFFF),
                    value: (data >> 16) as u16 as i16 as Value,
                    eval: (data >> 32) as u16 as i16 as Value,
                    depth: (data >> 48 & 0xFF) as i32 - DEPTH_OFFSET,
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result for `key`. `value` must already be ply-independent
    /// ([`value_to_tt`]). Without a move, the stored move of the same position is kept.
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        value: Value,
        eval: Value,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation.load(Relaxed) as u64;
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut worst = i32::MAX;
        for s in &bucket.slots {
            let data = s.data.load(Relaxed);
            if data == 0 || s.key.load(Relaxed) ^ data == key {
                victim = s;
                break;
            }
            // Prefer to keep deep entries of the current search.
            let age = (generation + 64 - (data >> 58)) as i32 & 0x3F;
            let worth = (data >> 48 & 0xFF) as i32 - 8 * age;
            if worth < worst {
                worst = worth;
                victim = s;
            }
        }
        let old = victim.data.load(Relaxed);
        let mut mv_bits = encode_move(mv);
        if mv.is_none() && old != 0 && victim.key.load(Relaxed) ^ old == key {
            mv_bits = old & 0xFFFF;
        }
        let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
        let data = mv_bits
            | (value as i16 as u16 as u64) << 16
            | (eval as i16 as u16 as u64) << 32
            | depth << 48
            | (bound as u64) << 56
            | generation << 58;
        victim.data.store(data, Relaxed);
        victim.key.store(key ^ data, Relaxed);
    }

    /// Permille of sampled slots holding an entry of the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed) as u64;
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for s in &b.slots {
                let data = s.data.load(Relaxed);
                if data != 0 && data >> 58 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * SLOTS).max(1)) as u32
    }
}

/// A value made independent of the ply it was found at: mate distances count from the
/// stored position, not from the root.
#[inline]
pub(crate) fn value_to_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_IN_MAX_PLY {
        v + ply as Value
    } else if v <= -MATE_IN_MAX_PLY {
        v - ply as Value
    } else {
        v
    }
}

/// The inverse of [`value_to_tt`] at `ply`.
#[inline]
pub(crate) fn value_from_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_IN_MAX_PLY {
        v - ply as Value
    } else if v <= -MATE_IN_MAX_PLY {
        v + ply as Value
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let tt = Tt::new(1);
        let m: Move = "h2e2".parse().unwrap();
        tt.store(0xDEAD_BEEF, Some(m), -123, 45, 7, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF).expect("stored");
        assert_eq!(e.mv, Some(m));
        assert_eq!(
            (e.value, e.eval, e.depth, e.bound),
            (-123, 45, 7, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEF0).is_none());
        // A store without a move keeps the known move of the same position.
        tt.store(0xDEAD_BEEF, None, 10, 45, 0, Bound::Upper);
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!((e.mv, e.depth, e.bound), (Some(m), 0, Bound::Upper));
        tt.store(1, None, 0, 0, -1, Bound::Exact);
        assert_eq!(tt.probe(1).unwrap().depth, -1);
        assert!(tt.hashfull() > 0);
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF).is_none());
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn mate_values_are_stored_from_the_position() {
        use crate::search::score::{mate_in, mated_in};
        // Mate 9 plies from the root, found at ply 4: 5 plies from the stored position.
        let stored = value_to_tt(mate_in(9), 4);
        assert_eq!(stored, mate_in(5));
        assert_eq!(value_from_tt(stored, 2), mate_in(7));
        assert_eq!(value_from_tt(value_to_tt(mated_in(6), 3), 3), mated_in(6));
        assert_eq!(value_to_tt(250, 9), 250);
    }
}

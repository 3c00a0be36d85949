//! The network's two hot loops — adding and subtracting weight rows to an accumulator, and
//! the output layer's clipped-squared dot product — with AVX2 where the processor has it
//! and a scalar version that gives the same bits everywhere else.
//!
//! Bit-identical by construction: the accumulator's 16-bit additions wrap in both (the
//! vector instructions wrap, the scalar code uses wrapping arithmetic), and the output is
//! exact in both (see [`Kernel::output`] for why no lane overflows).

use super::{Accumulator, HIDDEN, QA};

/// A row of first-layer weights: what one input feature adds to the accumulator.
pub(crate) type Row = [i16; HIDDEN];

/// Which implementation runs the hot loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust, on every processor.
    Scalar,
    /// x86-64 AVX2 instructions (only offered where the processor has them).
    Avx2,
}

impl Kernel {
    /// The fastest kernel this processor runs.
    pub fn detect() -> Kernel {
        if Kernel::avx2_available() {
            Kernel::Avx2
        } else {
            Kernel::Scalar
        }
    }

    /// Whether this processor has AVX2.
    pub fn avx2_available() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// Adds the rows `adds` to `acc` and subtracts the rows `subs`, wrapping.
    #[inline]
    pub(crate) fn update(self, acc: &mut Accumulator, adds: &[&Row], subs: &[&Row]) {
        #[cfg(target_arch = "x86_64")]
        if self == Kernel::Avx2 && Kernel::avx2_available() {
            // SAFETY: the processor has AVX2 (checked just above).
            unsafe { avx2::update(&mut acc.0, adds, subs) };
            return;
        }
        for (i, a) in acc.0.iter_mut().enumerate() {
            let mut v = *a;
            for row in adds {
                v = v.wrapping_add(row[i]);
            }
            for row in subs {
                v = v.wrapping_sub(row[i]);
            }
            *a = v;
        }
    }

    /// The output layer's sum before scaling: Σ clamp(x, 0, QA)² · w over the side to
    /// move's accumulator against `weights[0]`, then the other side's against
    /// `weights[1]`.
    ///
    /// Exact in both kernels: the vector code multiplies v = clamp(x) by w in 16 bits
    /// (|v·w| ≤ 255 · 128 = 32,640 since the weights are within ±128, checked on
    /// loading), then by v again summing pairs into 32-bit lanes; each of the 8 lanes
    /// collects 64 terms of at most 65,025 · 128, below 2³¹, and the lanes are summed in
    /// 64 bits.
    #[inline]
    pub(crate) fn output(self, stm: &Accumulator, other: &Accumulator, weights: &[Row; 2]) -> i64 {
        let [w_stm, w_other] = weights;
        #[cfg(target_arch = "x86_64")]
        if self == Kernel::Avx2 && Kernel::avx2_available() {
            // SAFETY: the processor has AVX2 (checked just above).
            return unsafe { avx2::output(&stm.0, &other.0, w_stm, w_other) };
        }
        let half = |acc: &Row, w: &Row| -> i64 {
            acc.iter()
                .zip(w)
                .map(|(&x, &w)| {
                    let v = x.clamp(0, QA as i16) as i64;
                    v * v * w as i64
                })
                .sum()
        };
        half(&stm.0, w_stm) + half(&other.0, w_other)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{HIDDEN, QA, Row};
    use std::arch::x86_64::*;

    /// Lanes of 16-bit values in a 256-bit register.
    const LANES: usize = 16;

    #[target_feature(enable = "avx2")]
    pub(super) fn update(acc: &mut [i16; HIDDEN], adds: &[&Row], subs: &[&Row]) {
        for c in (0..HIDDEN).step_by(LANES) {
            // SAFETY: `c + LANES <= HIDDEN`, so every load and store stays inside its
            // array; the unaligned forms need no alignment.
            unsafe {
                let at = acc.as_mut_ptr().add(c) as *mut __m256i;
                let mut v = _mm256_loadu_si256(at);
                for row in adds {
                    let r = _mm256_loadu_si256(row.as_ptr().add(c) as *const __m256i);
                    v = _mm256_add_epi16(v, r);
                }
                for row in subs {
                    let r = _mm256_loadu_si256(row.as_ptr().add(c) as *const __m256i);
                    v = _mm256_sub_epi16(v, r);
                }
                _mm256_storeu_si256(at, v);
            }
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn output(stm: &Row, other: &Row, w_stm: &Row, w_other: &Row) -> i64 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for (acc, w) in [(stm, w_stm), (other, w_other)] {
            for c in (0..HIDDEN).step_by(LANES) {
                // SAFETY: `c + LANES <= HIDDEN`: the loads stay inside both rows.
                let (x, w) = unsafe {
                    (
                        _mm256_loadu_si256(acc.as_ptr().add(c) as *const __m256i),
                        _mm256_loadu_si256(w.as_ptr().add(c) as *const __m256i),
                    )
                };
                let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
                let vw = _mm256_mullo_epi16(v, w);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, vw));
            }
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` holds exactly 256 bits.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum) };
        lanes.iter().map(|&l| l as i64).sum()
    }
}

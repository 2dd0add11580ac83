//! Tables shared by every game: fixed-point logarithms of group sizes and Zobrist keys.

use super::{MAX_CELLS, MAX_PLAYERS};
use crate::board::Cell;
use std::sync::OnceLock;

/// `round(1000 ln(s))` for every group size a board can hold.
#[inline]
pub fn ln1000(size: usize) -> i32 {
    LN1000[size]
}

/// Built at compile time so that the hot path reads a plain array.
static LN1000: [i32; MAX_CELLS + 1] = ln1000_table();

const fn ln1000_table() -> [i32; MAX_CELLS + 1] {
    let mut table = [0; MAX_CELLS + 1];
    let mut s = 1;
    while s <= MAX_CELLS {
        table[s] = (const_ln(s as f64) * 1000.0 + 0.5) as i32;
        s += 1;
    }
    table
}

/// ln(x) for x >= 1: x = m 2^e with m in [1, 2), ln m = 2 atanh((m-1)/(m+1)) by its series
/// (|y| <= 1/3, so 40 terms are far past f64 precision).
const fn const_ln(x: f64) -> f64 {
    let mut m = x;
    let mut e = 0.0;
    while m >= 2.0 {
        m /= 2.0;
        e += 1.0;
    }
    let y = (m - 1.0) / (m + 1.0);
    let mut term = y;
    let mut sum = 0.0;
    let mut k = 0;
    while k < 40 {
        sum += term / (2 * k + 1) as f64;
        term *= y * y;
        k += 1;
    }
    e * std::f64::consts::LN_2 + 2.0 * sum
}

/// The splitmix64 finaliser (Steele, Lea, Flood 2014): turns nearby inputs into unrelated
/// 64-bit values.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Zobrist keys, one per colour and cell, from a fixed-seed splitmix64 so that hashes are the
/// same on every run (reproducible searches).
pub(super) fn zobrist(colour: usize, cell: Cell) -> u64 {
    static KEYS: OnceLock<Vec<u64>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut state: u64 = 0x0e6a_5eed_0f0e_6a00;
        (0..MAX_PLAYERS * MAX_CELLS)
            .map(|_| {
                // splitmix64: a Weyl sequence through the finaliser
                state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                mix64(state)
            })
            .collect()
    })[colour * MAX_CELLS + cell as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compile_time_logs_match_the_library() {
        for s in 1..=MAX_CELLS {
            let want = ((s as f64).ln() * 1000.0).round() as i32;
            assert_eq!(ln1000(s), want, "size {s}");
        }
    }
}

//! A small, fast random number generator for playouts: wyrand (Wang Yi's 64-bit generator,
//! public domain; written here from its published description). A playout draws one number a
//! stone, so the generator's speed shows in the playout rate; quality well past what a random
//! fill needs (it passes BigCrush and PractRand according to its author).

/// The wyrand generator: a Weyl sequence mixed by one 128-bit multiplication.
#[derive(Clone, Debug)]
pub struct FastRng {
    state: u64,
}

impl FastRng {
    pub fn new(seed: u64) -> FastRng {
        FastRng { state: seed }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xa076_1d64_78bd_642f);
        let t = (self.state as u128).wrapping_mul((self.state ^ 0xe703_7ed1_a0b4_28db) as u128);
        ((t >> 64) as u64) ^ (t as u64)
    }

    /// A number in `0..n` (n > 0), by Lemire's multiply-and-shift: no division, a bias of at
    /// most n / 2^32, far below anything a playout can notice.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0 && n <= u32::MAX as usize);
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// A number in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut rng = FastRng::new(7);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[rng.below(7)] += 1;
        }
        for &c in &counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
        let u = rng.unit();
        assert!((0.0..1.0).contains(&u));
    }

    #[test]
    fn same_seed_same_sequence() {
        let (mut a, mut b) = (FastRng::new(42), FastRng::new(42));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(FastRng::new(1).next_u64(), FastRng::new(2).next_u64());
    }
}

//! The stones, the colour to move and the hash: what the rules, the searches and the
//! playouts share. Move generation and flips are bitboard shifts (see `geometry`).

use super::geometry::{bit, cells, shift, Bits, CELLS, DIRS, VALID};

/// Opponent stones one line can hold between a placed stone and the own stone that ends it:
/// the longest lines (diagonals crossing all 9 columns, such as a1 b1 c2 d2 ... j5) have 9 cells.
const MAX_RUN: usize = 7;

/// The placements of the player owning `own` against `opp`: the empty cells from which a
/// line of one or more `opp` stones ended by an `own` stone runs in some direction.
#[inline]
pub fn placements(own: Bits, opp: Bits) -> Bits {
    let empty = VALID & !(own | opp);
    let mut result = 0;
    for &d in &DIRS {
        // Runs of opponent stones starting next to an own stone, grown one step at a time.
        let mut run = shift(own, d) & opp;
        for _ in 1..MAX_RUN {
            run |= shift(run, d) & opp;
        }
        result |= shift(run, d) & empty;
    }
    result
}

/// The stones a placement on `cell` by `own` flips: every line of `opp` stones from the cell
/// ended by an `own` stone, in all six directions. Empty when the placement flips nothing.
#[inline]
pub fn flips(own: Bits, opp: Bits, cell: usize) -> Bits {
    let from = bit(cell);
    let mut all = 0;
    for &d in &DIRS {
        let mut line = 0;
        let mut x = shift(from, d);
        while x & opp != 0 {
            line |= x;
            x = shift(x, d);
        }
        if x & own != 0 {
            all |= line;
        }
    }
    all
}

const fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Zobrist keys: a stone of each colour on each cell.
static ZOBRIST: [[u64; 2]; CELLS] = {
    let mut t = [[0u64; 2]; CELLS];
    let mut k = 0;
    while k < CELLS {
        t[k] = [
            splitmix(0x4865_7865_6400 + 2 * k as u64),
            splitmix(0x4865_7865_6401 + 2 * k as u64),
        ];
        k += 1;
    }
    t
};
/// In the hash when green (colour 1) is to move.
const ZOBRIST_GREEN_TO_MOVE: u64 = splitmix(0x4865_7865_6500);
/// In the hash once a swap was played (the players hold each other's colours).
const ZOBRIST_SWAPPED: u64 = splitmix(0x4865_7865_6501);

/// A position: `stones[0]` red, `stones[1]` green.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub stones: [Bits; 2],
    /// The colour to move.
    pub mover: usize,
    /// A swap was played: the player who started with colour k now holds colour 1 - k.
    pub swapped: bool,
    pub hash: u64,
}

impl State {
    /// A position with its hash computed from scratch.
    pub fn new(stones: [Bits; 2], mover: usize, swapped: bool) -> State {
        let mut s = State {
            stones,
            mover,
            swapped,
            hash: 0,
        };
        s.hash = s.recount_hash();
        s
    }

    /// The hash from scratch (the incremental one must equal it).
    pub fn recount_hash(&self) -> u64 {
        let mut h = 0;
        for (colour, &stones) in self.stones.iter().enumerate() {
            for c in cells(stones) {
                h ^= ZOBRIST[c][colour];
            }
        }
        if self.mover == 1 {
            h ^= ZOBRIST_GREEN_TO_MOVE;
        }
        if self.swapped {
            h ^= ZOBRIST_SWAPPED;
        }
        h
    }

    pub fn count(&self, colour: usize) -> u32 {
        self.stones[colour].count_ones()
    }

    pub fn empties(&self) -> Bits {
        VALID & !(self.stones[0] | self.stones[1])
    }

    /// The placements of `colour`.
    pub fn placements_of(&self, colour: usize) -> Bits {
        placements(self.stones[colour], self.stones[1 - colour])
    }

    /// The stones the mover's placement on `cell` would flip.
    pub fn flips_of(&self, cell: usize) -> Bits {
        flips(self.stones[self.mover], self.stones[1 - self.mover], cell)
    }

    /// Neither colour has a placement (a full board included).
    pub fn is_over(&self) -> bool {
        self.placements_of(0) == 0 && self.placements_of(1) == 0
    }

    /// The mover places on `cell`, flipping `flipped` (from [`State::flips_of`]); the other
    /// colour moves next. Contract: `cell` is empty.
    pub fn place(&mut self, cell: usize, flipped: Bits) {
        let (me, them) = (self.mover, 1 - self.mover);
        self.stones[me] |= bit(cell) | flipped;
        self.stones[them] &= !flipped;
        self.hash ^= ZOBRIST[cell][me];
        for c in cells(flipped) {
            self.hash ^= ZOBRIST[c][me] ^ ZOBRIST[c][them];
        }
        self.pass();
    }

    /// Takes back [`State::place`] of `cell` with `flipped`.
    pub fn unplace(&mut self, cell: usize, flipped: Bits) {
        self.pass();
        let (me, them) = (self.mover, 1 - self.mover);
        self.stones[me] &= !(bit(cell) | flipped);
        self.stones[them] |= flipped;
        self.hash ^= ZOBRIST[cell][me];
        for c in cells(flipped) {
            self.hash ^= ZOBRIST[c][me] ^ ZOBRIST[c][them];
        }
    }

    /// The other colour moves (its own inverse).
    pub fn pass(&mut self) {
        self.mover = 1 - self.mover;
        self.hash ^= ZOBRIST_GREEN_TO_MOVE;
    }

    /// The players exchange colours; the same colour moves (its own inverse).
    pub fn swap(&mut self) {
        self.swapped = !self.swapped;
        self.hash ^= ZOBRIST_SWAPPED;
    }

    /// The seat (the player, 0 for the one who held red at the start) holding `colour`.
    pub fn seat_of(&self, colour: usize) -> usize {
        colour ^ self.swapped as usize
    }
}

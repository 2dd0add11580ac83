//! A value of local shapes for two players (an n-tuple evaluation): every cell's hexagon (the
//! cell and its six neighbours, each empty, white, black or off the board) is a class up to
//! the hexagon's twelve symmetries, and the logit of white's winning is a sum of each class's
//! weight over the cells, white's side less black's, each weight linear in the stage (empty
//! cells over cells). The weights are learnt from self-play by `scripts/shape-value.py`
//! (README, "How the default was found": with the group features and the random fills beside
//! them, the hexagons took a sixth off the Brier score of the late middle game's value).
//!
//! The tree search reads it two ways: the default blends a quarter of it, at the leaf a
//! playout starts from, into the playout's rewards ([`white_value`], one ring read a cell;
//! `PlayoutConfig::value_blend`); a setting multiplies the pattern priors by how much each
//! move changes it ([`ShapeDeltas`]: a stone changes only its own hexagon and its six
//! neighbours', so the change is a few table reads; `PlayoutConfig::value_prior`).

use super::pattern::{self, CODES, EMPTY, OTHER, SAME};
use super::shape_weights::{SHAPE_BASE, SHAPE_WEIGHTS};
use crate::board::Cell;
use std::sync::OnceLock;

/// The net weights `(w, w per unit of stage)` of the hexagons, each its class's weight from
/// white's side less that of its colours swapped from black's, kept by class rather than by
/// ring code: the net weight depends on the ring only through its class (swapping the
/// colours commutes with the symmetries), and the classes' table, 430 classes of 24 bytes,
/// stays in the first-level cache where a table by code (96 KiB) did not (the blend's
/// hexagon reads took a tenth of a default search's time, most of it waiting on that table).
struct Table {
    /// Each ring code's class, a dense index.
    class: Box<[u16; CODES]>,
    /// The net weights by class, then by the centre state from white's side (empty, white,
    /// black).
    weights: Vec<[(f32, f32); 3]>,
}

impl Table {
    /// The net weights of a hexagon: its centre state and its ring code from white's side.
    #[inline]
    fn get(&self, centre: usize, code: u16) -> (f32, f32) {
        self.weights[self.class[code as usize] as usize][centre]
    }
}

fn table() -> &'static Table {
    static BUILT: OnceLock<Table> = OnceLock::new();
    BUILT.get_or_init(|| {
        let weight = |centre: u16, code: u16| {
            let key = centre as usize * CODES + pattern::canonical(code) as usize;
            // The list is sorted by key (the script writes it so; the test reads it by a scan).
            SHAPE_WEIGHTS
                .binary_search_by_key(&key, |e| e.0 as usize)
                .map_or((0.0, 0.0), |i| (SHAPE_WEIGHTS[i].1, SHAPE_WEIGHTS[i].2))
        };
        // The classes, numbered in the order of their canonical codes.
        let mut dense = vec![u16::MAX; CODES];
        let mut representatives = Vec::new();
        let mut class = Box::new([0u16; CODES]);
        for code in 0..CODES as u16 {
            let canonical = pattern::canonical(code) as usize;
            if dense[canonical] == u16::MAX {
                dense[canonical] = representatives.len() as u16;
                representatives.push(canonical as u16);
            }
            class[code as usize] = dense[canonical];
        }
        let weights = representatives
            .iter()
            .map(|&code| {
                [0u16, 1, 2].map(|centre| {
                    let (wa, wb) = weight(centre, code);
                    let (ba, bb) = weight(swap(centre), swap_code(code));
                    (wa - ba, wb - bb)
                })
            })
            .collect();
        Table { class, weights }
    })
}

/// A state seen from the other colour's side: own and other swap.
fn swap(state: u16) -> u16 {
    match state {
        SAME => OTHER,
        OTHER => SAME,
        s => s,
    }
}

/// A ring code seen from the other colour's side.
fn swap_code(code: u16) -> u16 {
    (0..6).fold(0, |acc, i| acc | (swap(pattern::state(code, i)) << (2 * i)))
}

/// The centre state of a hexagon from white's side, for a board byte: the state a ring
/// reads there (`pattern::states` of white).
fn centre(stone: u8) -> usize {
    pattern::colour_states(0)[stone as usize] as usize
}

/// White's chance of winning by the shapes' value, for a 2-player playout `board` (as
/// [`ShapeDeltas::new`] takes it) with `empties` empty cells, `mover` to move (0 white's
/// player) and `phase` the colour of the next stone.
pub fn white_value(board: &[u8], rings: &[[Cell; 6]], empties: usize, mover: u8, phase: u8) -> f32 {
    let white = pattern::colour_states(0);
    let t = table();
    let (mut fixed, mut staged) = (0.0, 0.0);
    for (ring, &stone) in rings.iter().zip(board) {
        let (a, b) = t.get(centre(stone), pattern::code(board, ring, white));
        fixed += a;
        staged += b;
    }
    let stage = empties as f32 / rings.len() as f32;
    let [intercept, per_stage, per_mover, per_phase] = SHAPE_BASE;
    let logit = intercept
        + fixed
        + stage * (per_stage + staged)
        + per_mover * f32::from(mover)
        + per_phase * f32::from(phase);
    1.0 / (1.0 + (-logit).exp())
}

/// Reads a position's hexagons once and gives the value changes of its moves.
pub struct ShapeDeltas<'a> {
    rings: &'a [[Cell; 6]],
    /// Each cell's centre state and ring code from white's side.
    hexagons: Vec<(usize, u16)>,
    stage: f32,
}

impl<'a> ShapeDeltas<'a> {
    /// Contract: `board` is a 2-player playout board (white 0, black 1, empty `NO_STONE`,
    /// the last entry `OFF_BOARD`) and `rings` its cells' rings (`pattern::rings`).
    pub fn new(board: &[u8], rings: &'a [[Cell; 6]], empties: usize) -> ShapeDeltas<'a> {
        let white = pattern::colour_states(0);
        let hexagons = rings
            .iter()
            .zip(board)
            .map(|(ring, &stone)| (centre(stone), pattern::code(board, ring, white)))
            .collect();
        ShapeDeltas {
            rings,
            hexagons,
            stage: empties as f32 / rings.len() as f32,
        }
    }

    /// A hexagon's net weight at this stage.
    #[inline]
    fn weight(&self, centre: usize, code: u16) -> f32 {
        let (a, b) = table().get(centre, code);
        a + self.stage * b
    }

    /// The logit of white's winning less the constant terms: every hexagon's weight.
    #[cfg(test)]
    pub fn value(&self) -> f32 {
        self.hexagons
            .iter()
            .map(|&(c, code)| self.weight(c, code))
            .sum()
    }

    /// The change in the logit of white's winning when a stone of `colour` (0 white, 1
    /// black) goes on the empty cell `m`. Contract: `m` is empty on the board read by `new`.
    pub fn delta(&self, m: Cell, colour: u8) -> f32 {
        let placed = centre(colour);
        let code = self.hexagons[m as usize].1;
        let mut delta = self.weight(placed, code) - self.weight(EMPTY as usize, code);
        // Seen from a neighbour, `m` lies in the opposite direction; it was empty (0 bits).
        for (d, &n) in self.rings[m as usize].iter().enumerate() {
            let Some(&(c, code)) = self.hexagons.get(n as usize) else {
                continue; // off the board
            };
            let after = code | ((placed as u16) << (2 * ((d + 3) % 6)));
            delta += self.weight(c, after) - self.weight(c, code);
        }
        delta
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::game::NO_STONE;
    use crate::playout::OFF_BOARD;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    /// The class map numbers every ring class once: 430 classes of six cells of four states
    /// up to the hexagon's twelve symmetries (Burnside: (4^6 + 2*4 + 2*4^2 + 4^3 + 3*4^4 +
    /// 3*4^3) / 12), each code mapped to the class of its canonical code.
    #[test]
    fn the_class_map_numbers_the_classes() {
        let t = table();
        assert_eq!(t.weights.len(), 430);
        for code in 0..CODES as u16 {
            let canonical = pattern::canonical(code);
            assert_eq!(t.class[code as usize], t.class[canonical as usize]);
        }
        let mut seen = vec![false; 430];
        for code in 0..CODES {
            seen[t.class[code] as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    /// A move's delta is the change of the whole value, on random boards of several sides,
    /// for both colours, at every empty cell; and swapping the colours negates the value.
    #[test]
    fn delta_is_the_change_of_the_value() {
        let mut rng = StdRng::seed_from_u64(5);
        for side in [2, 3, 5, 7] {
            let board = Board::new(side);
            let rings = pattern::rings(&board);
            let n = board.cell_count();
            for _ in 0..20 {
                let fill = rng.gen_range(0.0..0.9);
                let mut stones: Vec<u8> = (0..n)
                    .map(|_| match rng.gen_bool(fill) {
                        true => rng.gen_range(0..2),
                        false => NO_STONE,
                    })
                    .collect();
                stones.push(OFF_BOARD);
                let empties = stones.iter().filter(|&&s| s == NO_STONE).count();
                let before = ShapeDeltas::new(&stones, &rings, empties);
                let swapped: Vec<u8> = stones
                    .iter()
                    .map(|&s| if s < 2 { 1 - s } else { s })
                    .collect();
                let mirror = ShapeDeltas::new(&swapped, &rings, empties);
                assert!((before.value() + mirror.value()).abs() < 1e-3);
                // The folded table gives the definition's sum: each hexagon's class weight
                // from white's side less that from black's, read from the learnt list.
                let raw = |centre: u16, code: u16| {
                    let key = centre as usize * CODES + pattern::canonical(code) as usize;
                    let e = SHAPE_WEIGHTS.iter().find(|e| e.0 as usize == key);
                    e.map_or(0.0, |&(_, a, b)| a + b * empties as f32 / n as f32)
                };
                let state = |stone: u8, own: u8| match stone {
                    NO_STONE => EMPTY,
                    s if s == own => SAME,
                    _ => OTHER,
                };
                let definition: f32 = (0..n)
                    .map(|c| {
                        let white = pattern::code(&stones, &rings[c], &pattern::states(0));
                        let black = pattern::code(&stones, &rings[c], &pattern::states(1));
                        raw(state(stones[c], 0), white) - raw(state(stones[c], 1), black)
                    })
                    .sum();
                assert!((definition - before.value()).abs() < 1e-3);
                // The whole value is the same sum, with the constant terms.
                let [intercept, per_stage, per_mover, per_phase] = SHAPE_BASE;
                let stage = empties as f32 / n as f32;
                let logit = before.value() + intercept + per_stage * stage + per_mover + per_phase;
                let p = white_value(&stones, &rings, empties, 1, 1);
                assert!((p - 1.0 / (1.0 + (-logit).exp())).abs() < 1e-4);
                for m in 0..n {
                    if stones[m] != NO_STONE {
                        continue;
                    }
                    for colour in 0..2 {
                        let mut after = stones.clone();
                        after[m] = colour;
                        // The same stage, so that the delta is the shapes' change alone.
                        let whole = ShapeDeltas::new(&after, &rings, empties).value();
                        let delta = before.delta(m as Cell, colour);
                        assert!(
                            (before.value() + delta - whole).abs() < 1e-3,
                            "side {side} cell {m} colour {colour}"
                        );
                    }
                }
            }
        }
    }
}

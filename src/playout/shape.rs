//! A value of local shapes for two players (an n-tuple evaluation): every cell's hexagon (the
//! cell and its six neighbours, each empty, white, black or off the board) is a class up to
//! the hexagon's twelve symmetries, and the logit of white's winning is a sum of each class's
//! weight over the cells, white's side less black's, each weight linear in the stage (empty
//! cells over cells). The weights are learnt from self-play by `scripts/shape-value.py`
//! (docs/strength.md, "How the default was found": with the group features and the random
//! fills beside them, the hexagons took a sixth off the Brier score of the late middle
//! game's value).
//!
//! The tree search reads it two ways: the default blends a quarter of it, at the leaf a
//! playout starts from, into the playout's rewards ([`white_value`], one ring read a cell;
//! `PlayoutConfig::value_blend`); a setting multiplies the pattern priors by how much each
//! move changes it ([`ShapeDeltas`]: a stone changes only its own hexagon and its six
//! neighbours', so the change is a few table reads; `PlayoutConfig::value_prior`).
//!
//! With 3 and 4 players each colour's chance of winning is a softmax over the colours of
//! scores read the same way from each colour's side ([`colour_values`], learnt by
//! `scripts/shape-value-mp.py`; `PlayoutConfig::value_blend_multi`, off by default: those
//! games' winners are decided late, and the shapes foresee them far worse than with two
//! players; docs/strength.md, "The shapes' value with three and four players").

use super::pattern::{self, CODES, OTHER, SAME};
use super::shape_weights::{SHAPE_BASE, SHAPE_WEIGHTS};
use super::{shape_weights_3p, shape_weights_4p};
use crate::board::Cell;
use crate::game::MAX_PLAYERS;
use crate::mcts::Rewards;
use std::sync::OnceLock;

/// Each ring code's class, a dense index (the classes numbered in the order of their
/// canonical codes), and each class's canonical code.
struct Classes {
    class: Box<[u16; CODES]>,
    representatives: Vec<u16>,
}

fn classes() -> &'static Classes {
    static BUILT: OnceLock<Classes> = OnceLock::new();
    BUILT.get_or_init(|| {
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
        Classes {
            class,
            representatives,
        }
    })
}

/// A learnt list's weights `(w, w per unit of stage)` of the hexagon of centre state `centre`
/// and ring code `code` (0 for a class the list lacks). Contract: `list` is sorted by key,
/// the centre state times 4096 plus the canonical ring code (the scripts write it so).
fn listed(list: &[(u16, f32, f32)], centre: u16, code: u16) -> (f32, f32) {
    let key = centre as usize * CODES + pattern::canonical(code) as usize;
    list.binary_search_by_key(&key, |e| e.0 as usize)
        .map_or((0.0, 0.0), |i| (list[i].1, list[i].2))
}

/// The weights `(w, w per unit of stage)` of the hexagons by class, then by the centre state
/// (empty, own or white, other or black), kept by class rather than by ring code: the
/// classes' table, 430 classes of 24 bytes, stays in the first-level cache where a table by
/// code (96 KiB) did not (the blend's hexagon reads took a tenth of a default search's time,
/// most of it waiting on that table).
struct Table {
    class: &'static [u16; CODES],
    weights: Vec<[(f32, f32); 3]>,
}

impl Table {
    /// The table of `weight(centre, canonical code)` over every class and centre state.
    fn new(weight: impl Fn(u16, u16) -> (f32, f32)) -> Table {
        let c = classes();
        let weights = c
            .representatives
            .iter()
            .map(|&code| [0u16, 1, 2].map(|centre| weight(centre, code)))
            .collect();
        Table {
            class: &c.class,
            weights,
        }
    }

    /// The weights of a hexagon: its centre state and its ring code.
    #[inline]
    fn get(&self, centre: usize, code: u16) -> (f32, f32) {
        self.weights[self.class[code as usize] as usize][centre]
    }

    /// The sums over the cells of a playout `board` of the weights `(w, w per unit of stage)`
    /// of each cell's hexagon, its centre and ring read from `colour`'s side.
    fn sums(&self, board: &[u8], rings: &[[Cell; 6]], colour: u8) -> (f32, f32) {
        let states = pattern::colour_states(colour);
        let (mut fixed, mut staged) = (0.0, 0.0);
        for (ring, &stone) in rings.iter().zip(board) {
            let (a, b) = self.get(
                states[stone as usize] as usize,
                pattern::code(board, ring, states),
            );
            fixed += a;
            staged += b;
        }
        (fixed, staged)
    }
}

/// The 2-player net weights, from white's side: each class's weight from white's side less
/// that of its colours swapped from black's. The net weight depends on the ring only through
/// its class, since swapping the colours commutes with the symmetries.
fn table() -> &'static Table {
    static BUILT: OnceLock<Table> = OnceLock::new();
    BUILT.get_or_init(|| {
        Table::new(|centre, code| {
            let (wa, wb) = listed(&SHAPE_WEIGHTS, centre, code);
            let (ba, bb) = listed(&SHAPE_WEIGHTS, swap(centre), swap_code(code));
            (wa - ba, wb - bb)
        })
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
    let (fixed, staged) = table().sums(board, rings, 0);
    let stage = empties as f32 / rings.len() as f32;
    let [intercept, per_stage, per_mover, per_phase] = SHAPE_BASE;
    let logit = intercept
        + fixed
        + stage * (per_stage + staged)
        + per_mover * f32::from(mover)
        + per_phase * f32::from(phase);
    1.0 / (1.0 + (-logit).exp())
}

/// The multi-player table of `players` (3 or 4): the hexagons' weights from a colour's side,
/// and the seats' weights (`shape_weights_3p.rs`, `shape_weights_4p.rs`).
fn colour_table(players: usize) -> Option<(&'static Table, &'static [f32])> {
    static THREE: OnceLock<Table> = OnceLock::new();
    static FOUR: OnceLock<Table> = OnceLock::new();
    let (cell, list, seats): (_, &[(u16, f32, f32)], &'static [f32]) = match players {
        3 => (&THREE, &shape_weights_3p::WEIGHTS, &shape_weights_3p::SEATS),
        4 => (&FOUR, &shape_weights_4p::WEIGHTS, &shape_weights_4p::SEATS),
        _ => return None,
    };
    Some((
        cell.get_or_init(|| Table::new(|centre, code| listed(list, centre, code))),
        seats,
    ))
}

/// Each colour's chance of winning by the shapes' value in a game of `players` players (3 or
/// 4; `None` otherwise), for a playout board (colours 0.., empty `NO_STONE`, the last entry
/// `OFF_BOARD`) with `empties` empty cells, `mover` to move and `phase` the colour of the
/// next stone: the softmax over the colours of each colour's hexagons' weights, read from its
/// side, and its seat's (`scripts/shape-value-mp.py`).
pub fn colour_values(
    board: &[u8],
    rings: &[[Cell; 6]],
    empties: usize,
    players: usize,
    mover: u8,
    phase: u8,
) -> Option<Rewards> {
    let (t, seats) = colour_table(players)?;
    let stage = empties as f32 / rings.len() as f32;
    let k = players - 1;
    let mut scores = [0f32; MAX_PLAYERS];
    for (c, score) in scores.iter_mut().enumerate().take(players) {
        let (fixed, staged) = t.sums(board, rings, c as u8);
        *score = fixed + stage * staged;
        // The seat's weights: its place in the turn order, after the mover, after the phase.
        let place = |from: u8| (c + players - from as usize) % players;
        if c > 0 {
            *score += seats[c - 1] + stage * seats[k + c - 1];
        }
        for (i, from) in [mover, phase].into_iter().enumerate() {
            if place(from) > 0 {
                *score += seats[(2 + i) * k + place(from) - 1];
            }
        }
    }
    let top = scores[..players].iter().copied().fold(f32::MIN, f32::max);
    let mut out = [0f32; MAX_PLAYERS];
    for (o, &s) in out.iter_mut().zip(&scores[..players]) {
        *o = (s - top).exp();
    }
    let sum: f32 = out.iter().sum();
    out.iter_mut().for_each(|o| *o /= sum);
    Some(out)
}

/// Reads a position's hexagons once and gives the value changes of its moves.
#[derive(Clone, Debug, Default)]
pub struct ShapeDeltas {
    /// Each cell's hexagon from white's side: its centre state, its ring code and its
    /// weight now (read once, as every move's change reads seven of them).
    hexagons: Vec<(u8, u16, f32)>,
    stage: f32,
}

impl ShapeDeltas {
    /// Contract: as [`ShapeDeltas::read`].
    #[cfg(test)]
    pub fn new(board: &[u8], rings: &[[Cell; 6]], empties: usize) -> ShapeDeltas {
        let mut deltas = ShapeDeltas::default();
        deltas.read(board, rings, empties);
        deltas
    }

    /// Reads `board`'s hexagons, keeping the buffer of the last read (a search reads one
    /// position at each expansion). Contract: `board` is a 2-player playout board (white 0,
    /// black 1, empty `NO_STONE`, the last entry `OFF_BOARD`) and `rings` its cells' rings
    /// (`pattern::rings`).
    pub fn read(&mut self, board: &[u8], rings: &[[Cell; 6]], empties: usize) {
        let white = pattern::colour_states(0);
        self.stage = empties as f32 / rings.len() as f32;
        let table = table();
        let stage = self.stage;
        self.hexagons.clear();
        self.hexagons
            .extend(rings.iter().zip(board).map(|(ring, &stone)| {
                let (centre, code) = (centre(stone), pattern::code(board, ring, white));
                (centre as u8, code, weight(table, stage, centre, code))
            }));
    }

    /// The logit of white's winning less the constant terms: every hexagon's weight.
    #[cfg(test)]
    pub fn value(&self) -> f32 {
        self.hexagons.iter().map(|&(_, _, w)| w).sum()
    }

    /// The change in the logit of white's winning when a stone of `colour` (0 white, 1
    /// black) goes on the empty cell `m`. Contract: `m` is empty on the board last read, and
    /// `rings` are the rings it was read with.
    pub fn delta(&self, rings: &[[Cell; 6]], m: Cell, colour: u8) -> f32 {
        let table = table();
        let placed = centre(colour);
        let (_, code, now) = self.hexagons[m as usize];
        let mut delta = weight(table, self.stage, placed, code) - now;
        // Seen from a neighbour, `m` lies in the opposite direction; it was empty (0 bits).
        for (d, &n) in rings[m as usize].iter().enumerate() {
            let Some(&(c, code, now)) = self.hexagons.get(n as usize) else {
                continue; // off the board
            };
            let after = code | ((placed as u16) << (2 * ((d + 3) % 6)));
            delta += weight(table, self.stage, c as usize, after) - now;
        }
        delta
    }
}

/// A hexagon's net weight at `stage`.
#[inline]
fn weight(table: &Table, stage: f32, centre: usize, code: u16) -> f32 {
    let (a, b) = table.get(centre, code);
    a + stage * b
}

#[cfg(test)]
mod tests {
    use super::pattern::EMPTY;
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

    /// The multi-player value is its definition: for each colour the sum over the cells of
    /// the learnt list's weights (read by a scan) of its hexagon from that colour's side, plus
    /// its seat's weights, then the softmax over the colours; on random boards of 3 and 4
    /// colours, at every mover and phase. Two players have no multi-player value.
    #[test]
    fn colour_values_are_the_softmax_of_the_listed_weights() {
        let mut rng = StdRng::seed_from_u64(8);
        let board = Board::new(5);
        let rings = pattern::rings(&board);
        let n = board.cell_count();
        assert!(colour_values(&[OFF_BOARD; 62], &rings, 0, 2, 0, 0).is_none());
        for players in [3usize, 4] {
            let (list, seats): (&[(u16, f32, f32)], &[f32]) = match players {
                3 => (&shape_weights_3p::WEIGHTS, &shape_weights_3p::SEATS),
                _ => (&shape_weights_4p::WEIGHTS, &shape_weights_4p::SEATS),
            };
            assert_eq!(seats.len(), 4 * (players - 1));
            for _ in 0..20 {
                let fill = rng.gen_range(0.0..0.9);
                let mut stones: Vec<u8> = (0..n)
                    .map(|_| match rng.gen_bool(fill) {
                        true => rng.gen_range(0..players as u8),
                        false => NO_STONE,
                    })
                    .collect();
                stones.push(OFF_BOARD);
                let empties = stones.iter().filter(|&&s| s == NO_STONE).count();
                let stage = empties as f32 / n as f32;
                let (mover, phase) = (rng.gen_range(0..players), rng.gen_range(0..players));
                let scores: Vec<f32> = (0..players)
                    .map(|c| {
                        let states = pattern::states(c as u8);
                        let mut score: f32 = (0..n)
                            .map(|cell| {
                                let centre = states[stones[cell] as usize] as usize;
                                let code = pattern::code(&stones, &rings[cell], &states);
                                let key = centre * CODES + pattern::canonical(code) as usize;
                                let e = list.iter().find(|e| e.0 as usize == key);
                                e.map_or(0.0, |&(_, a, b)| a + b * stage)
                            })
                            .sum();
                        let k = players - 1;
                        if c > 0 {
                            score += seats[c - 1] + stage * seats[k + c - 1];
                        }
                        for (i, from) in [mover, phase].into_iter().enumerate() {
                            let place = (c + players - from) % players;
                            if place > 0 {
                                score += seats[(2 + i) * k + place - 1];
                            }
                        }
                        score
                    })
                    .collect();
                let total: f32 = scores.iter().map(|s| s.exp()).sum();
                let v = colour_values(&stones, &rings, empties, players, mover as u8, phase as u8)
                    .unwrap();
                for c in 0..players {
                    let want = scores[c].exp() / total;
                    assert!(
                        (v[c] - want).abs() < 1e-4,
                        "{players} players: {v:?} {want}"
                    );
                }
                assert!(v[players..].iter().all(|&x| x == 0.0));
            }
        }
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
                        let delta = before.delta(&rings, m as Cell, colour);
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

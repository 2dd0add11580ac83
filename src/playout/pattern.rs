//! Local patterns: the six neighbours of an empty cell, each empty, holding the colour of the
//! stone to place ("same"), holding another colour, or off the board, read in rotational
//! order as 2 bits each: 4096 codes, folded by the 12 symmetries of the hexagon into classes.
//! A pattern's weight (its "gamma", Coulom 2007) is learnt from games by `omega
//! learn-patterns` for the two cases that matter in Omega: a stone of the placing player's
//! own colour, and a stone of an opponent's colour.
//!
//! Beside the ring, a placement has a *size class*: the size of the group the stone makes and
//! whether it joins several groups. The ring sees the neighbours but not how big their groups
//! are, and in Omega that is what counts (a group of three is worth growing, one of seven is
//! not). A cell's gamma is the product of its ring's and its size class's (Coulom's teams).

use super::next_stone;
use super::{pattern_weights, pattern_weights_3p, pattern_weights_4p};
use crate::board::{Board, Cell, Coord};
use crate::game::{Game, MAX_PLAYERS, NO_STONE};
use std::sync::OnceLock;

/// Codes of one ring: 2 bits for each of the six directions.
pub const CODES: usize = 1 << 12;

pub const EMPTY: u16 = 0;
pub const SAME: u16 = 1;
pub const OTHER: u16 = 2;
pub const OFF: u16 = 3;

/// The six directions in (column, row), in turn around a cell.
const RING: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

/// Each cell's neighbours in [`RING`] order, the board's `outside` index off the board.
pub fn rings(board: &Board) -> Vec<[Cell; 6]> {
    board
        .cells()
        .map(|cell| {
            let Coord { col, row } = board.coord(cell);
            RING.map(|(dc, dr)| {
                let (c, r) = (col as i32 + dc, row as i32 + dr);
                if c < 0 || r < 0 {
                    return board.outside();
                }
                board
                    .cell(Coord {
                        col: c as usize,
                        row: r as usize,
                    })
                    .unwrap_or(board.outside())
            })
        })
        .collect()
}

/// What a playout board holds on the `outside` entry, so that patterns see the edge (empty
/// cells hold [`NO_STONE`]).
pub const OFF_BOARD: u8 = NO_STONE - 1;

/// The state every board byte stands for, around a stone of `colour`, on a playout board: a
/// table, so that reading a ring takes no branch.
pub const fn states(colour: u8) -> [u16; 256] {
    let mut t = [OTHER; 256];
    t[NO_STONE as usize] = EMPTY;
    t[OFF_BOARD as usize] = OFF;
    t[colour as usize] = SAME;
    t
}

/// [`states`] of every colour.
static STATES: [[u16; 256]; MAX_PLAYERS] = [states(0), states(1), states(2), states(3)];

/// [`states`] of `colour` (below [`MAX_PLAYERS`]), from a static table: `states` called at
/// run time fills its 512 bytes at each call.
#[inline]
pub fn colour_states(colour: u8) -> &'static [u16; 256] {
    &STATES[colour as usize]
}

/// The code of `ring` on `colours`, read through [`states`].
#[inline]
pub fn code(colours: &[u8], ring: &[Cell; 6], states: &[u16; 256]) -> u16 {
    let mut code = 0;
    for (i, &nb) in ring.iter().enumerate() {
        code |= states[colours[nb as usize] as usize] << (2 * i);
    }
    code
}

/// The state of direction `i` in `code`.
pub fn state(code: u16, i: usize) -> u16 {
    (code >> (2 * i)) & 3
}

fn rotate(code: u16) -> u16 {
    ((code << 2) | (code >> 10)) & (CODES as u16 - 1)
}

fn reflect(code: u16) -> u16 {
    // Direction i goes to direction -i (mod 6): a mirror through direction 0.
    (0..6).fold(0, |acc, i| acc | (state(code, i) << (2 * ((6 - i) % 6))))
}

/// A learnt table: the (class, own gamma, opponent's gamma) of the ring classes, and the
/// (own, opponent's) gammas of the size classes.
type Table = (
    &'static [(u16, f32, f32)],
    &'static [(f32, f32); SIZE_CLASSES],
);

/// The tables learnt from games of 2, 3 and 4 players: what a good placement looks like
/// changes with the players (with 4, three stones of a turn go to opponents, each of whom has
/// two others to fear), and the 2-player gammas measured worse than none with 4 players.
const TABLES: [Table; 3] = [
    (&pattern_weights::GAMMAS, &pattern_weights::SIZE_GAMMAS),
    (
        &pattern_weights_3p::GAMMAS,
        &pattern_weights_3p::SIZE_GAMMAS,
    ),
    (
        &pattern_weights_4p::GAMMAS,
        &pattern_weights_4p::SIZE_GAMMAS,
    ),
];

/// The index in [`TABLES`] of a game of `players` (2 to 4; others take the nearest).
fn table_index(players: usize) -> usize {
    players.clamp(2, 4) - 2
}

/// The learnt gammas of every code for games of `players`: `[own stone, opponent's
/// stone][code]`.
pub fn gammas(players: usize) -> &'static [[f32; CODES]; 2] {
    static BUILT: [OnceLock<Box<[[f32; CODES]; 2]>>; 3] = [const { OnceLock::new() }; 3];
    let index = table_index(players);
    BUILT[index].get_or_init(|| {
        let mut t = Box::new([[1.0; CODES]; 2]);
        let classes = TABLES[index].0;
        for code in 0..CODES {
            let class = canonical(code as u16);
            if let Some(&(_, own, opp)) = classes.iter().find(|g| g.0 == class) {
                t[0][code] = own;
                t[1][code] = opp;
            }
        }
        t
    })
}

/// Size classes: 0 a new group; 1 to 8 the growth of one group to 2, 3, ... 9 or more
/// stones; 9 to 15 a group of 3, 4, ... 9 or more made by joining two groups or more.
pub const SIZE_CLASSES: usize = 16;
/// The largest size a class tells apart.
const SIZE_CAP: usize = 9;

/// The size class of a stone of `colour` on the empty `cell` of `game`.
pub fn size_class(game: &Game, cell: Cell, colour: u8) -> usize {
    let (roots, joined) = game.touching_groups(cell, colour);
    let size = 1 + roots[..joined]
        .iter()
        .map(|&r| game.root_size(r))
        .sum::<usize>();
    match joined {
        0 => 0,
        1 => size.min(SIZE_CAP) - 1,
        _ => SIZE_CAP - 1 + size.min(SIZE_CAP) - 2,
    }
}

/// The learnt gammas of the size classes for games of `players`, `[own stone, opponent's
/// stone][class]`, or `None` when they are all 1 (no size model learnt), so that the priors
/// need not compute the classes.
pub fn size_gammas(players: usize) -> Option<&'static [[f32; SIZE_CLASSES]; 2]> {
    type Sizes = Option<[[f32; SIZE_CLASSES]; 2]>;
    static BUILT: [OnceLock<Sizes>; 3] = [const { OnceLock::new() }; 3];
    let index = table_index(players);
    BUILT[index]
        .get_or_init(|| {
            let sizes = TABLES[index].1;
            let uniform = sizes.iter().all(|&(own, opp)| own == 1.0 && opp == 1.0);
            (!uniform).then(|| [sizes.map(|(own, _)| own), sizes.map(|(_, opp)| opp)])
        })
        .as_ref()
}

/// The class of every code: the smallest code among its 12 images.
pub fn canonical(code: u16) -> u16 {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..CODES as u16)
            .map(|code| {
                let mut best = code;
                let mut c = code;
                for _ in 0..6 {
                    c = rotate(c);
                    best = best.min(c).min(reflect(c));
                }
                best
            })
            .collect()
    })[code as usize]
}

/// The pattern policy: like the class policy's fill, but each of `candidates` cells drawn
/// for a stone is taken with a probability in proportion to its gamma (a sampled softmax over
/// the learnt weights, cheap: one ring read a candidate). `colours` is a playout board.
#[allow(clippy::too_many_arguments)]
pub fn fill(
    rings: &[[Cell; 6]],
    colours: &mut [u8],
    empties: &mut [Cell],
    stones: usize,
    players: usize,
    mut colour: u8,
    mut mover: u8,
    candidates: usize,
    rng: &mut crate::mcts::FastRng,
) {
    let table = gammas(players);
    let len = empties.len();
    let mut drawn = [(0usize, 0f32); 16];
    let candidates = candidates.min(drawn.len());
    for i in 0..stones {
        let left = len - i;
        let model = &table[usize::from(colour != mover)];
        let states = colour_states(colour);
        let mut total = 0.0;
        for slot in drawn.iter_mut().take(candidates) {
            let j = i + rng.below(left);
            let g = model[code(colours, &rings[empties[j] as usize], states) as usize];
            total += g;
            *slot = (j, total);
        }
        let x = rng.unit() * total;
        let pick = drawn[..candidates]
            .iter()
            .find(|&&(_, upto)| x < upto)
            .map_or(drawn[candidates - 1].0, |d| d.0);
        empties.swap(i, pick);
        colours[empties[i] as usize] = colour;
        next_stone(&mut colour, &mut mover, players);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_fold_codes_into_classes() {
        // A single same-coloured neighbour looks alike in every direction.
        let one: Vec<u16> = (0..6).map(|i| canonical(SAME << (2 * i))).collect();
        assert!(one.iter().all(|&c| c == one[0]));
        // Two neighbours side by side differ from two opposite ones.
        let adjacent = canonical(SAME | (SAME << 2));
        let opposite = canonical(SAME | (SAME << 6));
        assert_ne!(adjacent, opposite);
        assert_eq!(canonical(SAME << 4 | SAME << 6), adjacent);
        let classes: std::collections::BTreeSet<u16> = (0..CODES as u16).map(canonical).collect();
        // Burnside: (4^6 + 2*4 + 2*16 + 64 + 3*256 + 3*64) / 12 = 430 classes.
        assert_eq!(classes.len(), 430);
    }

    /// Each number of players reads its own table: a game of 4 players must not get the
    /// gammas of 2-player games (they measured worse than no priors there). Counts outside
    /// 2..=4 take the nearest table.
    #[test]
    fn each_number_of_players_reads_its_own_table() {
        let differ = |a: &[[f32; CODES]; 2], b: &[[f32; CODES]; 2]| {
            (0..CODES).any(|c| a[0][c] != b[0][c] || a[1][c] != b[1][c])
        };
        assert!(differ(gammas(2), gammas(3)));
        assert!(differ(gammas(2), gammas(4)));
        assert!(differ(gammas(3), gammas(4)));
        assert!(!differ(gammas(1), gammas(2)));
        assert!(!differ(gammas(5), gammas(4)));
        // Read straight from the generated sources: class 0 (six empty neighbours).
        assert_eq!(gammas(4)[0][0], pattern_weights_4p::GAMMAS[0].1);
        assert_eq!(gammas(3)[1][0], pattern_weights_3p::GAMMAS[0].2);
        // The 2-player table has no size model; the 4-player one has.
        assert!(size_gammas(2).is_none());
        assert_eq!(
            size_gammas(4).map(|t| t[0][1]),
            Some(pattern_weights_4p::SIZE_GAMMAS[1].0)
        );
    }

    #[test]
    fn size_classes_tell_growth_from_joins() {
        let mut game = Game::new(4, 2).unwrap();
        let at = |g: &Game, name: &str| g.board().parse(name).unwrap();
        // White's turn: a1 (white), d4 (black); black's turn: c1 (white), d5 (black).
        for name in ["a1", "d4", "c1", "d5"] {
            let cell = at(&game, name);
            game.place(cell);
        }
        let (white, black) = (0u8, 1u8);
        // b1 touches white's a1 and c1, two groups of one: a join making three.
        assert_eq!(
            size_class(&game, at(&game, "b1"), white),
            SIZE_CAP - 1 + 3 - 2
        );
        // b1 touches no black stone: a new group.
        assert_eq!(size_class(&game, at(&game, "b1"), black), 0);
        // d3 touches black's d4 only (one group of two): growth to three.
        assert_eq!(size_class(&game, at(&game, "d3"), black), 2);
        // a2 touches white's a1 alone: growth to two.
        assert_eq!(size_class(&game, at(&game, "a2"), white), 1);
    }

    #[test]
    fn rings_go_round_and_mark_the_edge() {
        let board = Board::new(3);
        let rings = rings(&board);
        let a1 = board.parse("a1").unwrap();
        let off = rings[a1 as usize]
            .iter()
            .filter(|&&n| n == board.outside())
            .count();
        assert_eq!(off, 3, "a corner has three neighbours");
        let centre = board.parse("c3").unwrap();
        let mut around = rings[centre as usize].to_vec();
        around.sort_unstable();
        let mut want = board.neighbours(centre).to_vec();
        want.sort_unstable();
        assert_eq!(around, want);
        // Consecutive directions are neighbours of each other.
        for w in rings[centre as usize].windows(2) {
            assert!(board.neighbours(w[0]).contains(&w[1]));
        }
    }
}

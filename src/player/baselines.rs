//! The two baselines: `random` (uniform, seeded) and `greedy` (best single turn by the
//! evaluation, no search). Neither is a yardstick of strength; they test the plumbing.

use crate::board::Cell;
use crate::eval;
use crate::game::{Colour, Game};
use crate::position::OmegaPosition;
use crate::search::Position;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// K distinct empty cells, uniformly, from a generator seeded by the seed and the position,
/// so that the same position gives the same turn on every run.
pub fn random_turn(game: &Game, seed: u64) -> Vec<Cell> {
    let mix = game.hash() ^ (game.stones_placed() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    random_turn_with(game, &mut StdRng::seed_from_u64(seed ^ mix))
}

/// K distinct empty cells drawn uniformly with `rng`, from the empty cells in cell order (so
/// that the same generator state gives the same turn whatever the game's history).
pub fn random_turn_with(game: &Game, rng: &mut impl rand::Rng) -> Vec<Cell> {
    let mut empties = game.empties().to_vec();
    empties.sort_unstable();
    empties
        .choose_multiple(rng, game.players())
        .copied()
        .collect()
}

/// The best single turn by the evaluation, one stone at a time in colour order: the mover's
/// own stone where the mover's value is highest, every other stone where it is lowest for
/// that colour. No search.
pub fn greedy_turn(game: &mut Game) -> Vec<Cell> {
    let mut turn = Vec::new();
    complete_greedily(game, &mut turn);
    turn
}

/// Appends greedy stones to `turn` (a legal prefix of the current turn) until it is whole.
pub(super) fn complete_greedily(game: &mut Game, turn: &mut Vec<Cell>) {
    let mover = game.to_move();
    for &cell in turn.iter() {
        game.place(cell);
    }
    while turn.len() < game.players() {
        let colour = game.next_stone_colour();
        let cell = best_placement(game, colour, mover);
        game.place(cell);
        turn.push(cell);
    }
    for _ in 0..turn.len() {
        game.unplace();
    }
}

/// The empty cell where a stone of `colour` is best for `mover`, judged by the placement's
/// change of that colour's log-score and, among equals, by the mover's evaluation after it.
fn best_placement(game: &mut Game, colour: Colour, mover: Colour) -> Cell {
    let sign = if colour == mover { 1 } else { -1 };
    let mut cells = game.empties().to_vec();
    cells.sort_unstable();
    // After the last stone of the turn, the mover's evaluation of each result breaks ties
    // (all at once, as the search evaluates its leaves).
    let mut after = Vec::with_capacity(cells.len());
    if game.next_stone_colour().index() == game.players() - 1 {
        OmegaPosition::new(game).leaf_children(mover.index(), &cells, &mut after);
    }
    let mut best = (i64::MIN, cells[0]);
    for (i, &cell) in cells.iter().enumerate() {
        let delta = sign * eval::placement_delta(game, colour, cell);
        let value = (delta as i64) * (1 << 32) + after.get(i).copied().unwrap_or(0) as i64;
        if value > best.0 {
            best = (value, cell);
        }
    }
    best.1
}

//! Scoring a finished playout in one pass: a union-find over the filled board, then the
//! product of the group sizes of every colour. A playout needs no undo, so this union-find
//! is the plain kind (path halving, linking under the newer root), not the game's.

use crate::board::{Board, Cell};
use crate::game::{NO_STONE, MAX_PLAYERS};

/// Per-board tables and buffers for scoring, built once per board.
#[derive(Clone, Debug, Default)]
pub struct Scorer {
    /// The neighbours of each cell that come earlier in cell order (at most three: left,
    /// below and below-left), padded with the board's `outside` index.
    earlier: Vec<[Cell; 3]>,
    parent: Vec<Cell>,
    size: Vec<u16>,
}

impl Scorer {
    pub fn new(board: &Board) -> Scorer {
        let outside = board.outside();
        let earlier = board
            .cells()
            .map(|c| {
                let mut three = [outside; 3];
                for (slot, &n) in three
                    .iter_mut()
                    .zip(board.neighbours(c).iter().filter(|&&n| n < c))
                {
                    *slot = n;
                }
                three
            })
            .collect();
        let n = board.cell_count();
        Scorer {
            earlier,
            parent: vec![0; n],
            size: vec![0; n],
        }
    }

    /// The number of cells of the board it was built for.
    pub fn cells(&self) -> usize {
        self.earlier.len()
    }

    /// Every colour's score on `colours` (a colour index a cell, [`NO_STONE`] when empty, and
    /// one more entry for `outside`, which must hold [`NO_STONE`]): the product of its group
    /// sizes, 0 for a colour without stones.
    pub fn scores(&mut self, colours: &[u8], players: usize) -> [u128; MAX_PLAYERS] {
        let n = self.earlier.len();
        debug_assert!(colours.len() > n && colours[n] == NO_STONE);
        let parent = &mut self.parent;
        let size = &mut self.size;
        for cell in 0..n {
            let colour = colours[cell];
            if colour == NO_STONE {
                continue;
            }
            let root = cell as Cell;
            parent[cell] = root;
            size[cell] = 1;
            for &e in &self.earlier[cell] {
                if colours[e as usize] != colour {
                    continue;
                }
                let mut r = e;
                while parent[r as usize] != r {
                    let grand = parent[parent[r as usize] as usize];
                    parent[r as usize] = grand;
                    r = grand;
                }
                if r != root {
                    parent[r as usize] = root;
                    size[cell] += size[r as usize];
                }
            }
        }
        let mut scores = [1u128; MAX_PLAYERS];
        let mut stones = [false; MAX_PLAYERS];
        for cell in 0..n {
            let colour = colours[cell];
            if colour != NO_STONE && parent[cell] as usize == cell {
                scores[colour as usize] *= size[cell] as u128;
                stones[colour as usize] = true;
            }
        }
        for c in 0..MAX_PLAYERS {
            if c >= players || !stones[c] {
                scores[c] = 0;
            }
        }
        scores
    }
}

/// The winner by the rules: the highest score, a tie going to the last colour in order.
#[inline]
pub fn winner(scores: &[u128; MAX_PLAYERS], players: usize) -> usize {
    let mut best = 0;
    for c in 1..players {
        if scores[c] >= scores[best] {
            best = c;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Colour, Game};
    use crate::player::random_turn;

    #[test]
    fn scores_equal_the_games_own_on_random_games() {
        for (side, players) in [(2, 2), (3, 3), (5, 2), (6, 4), (10, 2), (13, 3)] {
            let mut game = Game::new(side, players).unwrap();
            let mut scorer = Scorer::new(game.board());
            let mut seed = 1;
            while !game.is_over() {
                let turn = random_turn(&game, seed);
                seed += 1;
                game.play_turn(game.to_move(), &turn).unwrap();
                let mut colours = game.stone_indices().to_vec();
                colours.push(NO_STONE);
                let scores = scorer.scores(&colours, players);
                for c in game.colours() {
                    assert_eq!(scores[c.index()], game.score(c), "side {side} {c}");
                }
                let w = winner(&scores, players);
                assert_eq!(Colour::from_index(w), game.winner().0);
            }
        }
    }
}

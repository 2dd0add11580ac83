//! Scoring a finished playout in one pass: a union-find over the filled board, then the
//! product of the group sizes of every colour. A playout needs no undo, so this union-find
//! is the plain kind (path halving, linking under the newer root), not the game's.

use crate::board::{Board, Cell, Coord};
use crate::game::{MAX_PLAYERS, NO_STONE};

/// Per-board tables and buffers for scoring, built once per board.
#[derive(Clone, Debug, Default)]
pub struct Scorer {
    /// The neighbours of each cell that come earlier in cell order: left, below and
    /// below-left, the board's `outside` index where there is none. Below-left touches both
    /// others, which the scan uses.
    earlier: Vec<[Cell; 3]>,
    parent: Vec<Cell>,
    size: Vec<u16>,
}

impl Scorer {
    pub fn new(board: &Board) -> Scorer {
        let outside = board.outside();
        let at = |col: usize, row: usize, dc: usize, dr: usize| {
            (col >= dc && row >= dr)
                .then(|| {
                    board.cell(Coord {
                        col: col - dc,
                        row: row - dr,
                    })
                })
                .flatten()
                .unwrap_or(outside)
        };
        let earlier = board
            .cells()
            .map(|c| {
                let Coord { col, row } = board.coord(c);
                [at(col, row, 1, 0), at(col, row, 0, 1), at(col, row, 1, 1)]
            })
            .collect();
        let n = board.cell_count();
        Scorer {
            earlier,
            parent: vec![0; n + 1],
            size: vec![0; n + 1],
        }
    }

    /// The neighbours of each cell earlier in cell order (left, below, below-left; the
    /// board's `outside` index where there is none), for the playouts' own group scans.
    pub fn earlier(&self) -> &[[Cell; 3]] {
        &self.earlier
    }

    /// The number of cells of the board it was built for.
    pub fn cells(&self) -> usize {
        self.earlier.len()
    }

    /// Every colour's score on `colours` (a colour index a cell, [`NO_STONE`] when empty, and
    /// one more entry for `outside`, which must hold no colour index): the product of its
    /// group sizes, 0 for a colour without stones.
    pub fn scores(&mut self, colours: &[u8], players: usize) -> [u128; MAX_PLAYERS] {
        let n = self.earlier.len();
        debug_assert!(colours.len() > n && colours[n] as usize >= MAX_PLAYERS);
        let parent = &mut self.parent;
        let size = &mut self.size;
        let find = |parent: &mut [Cell], mut r: Cell| {
            while parent[r as usize] != r {
                let grand = parent[parent[r as usize] as usize];
                parent[r as usize] = grand;
                r = grand;
            }
            r
        };
        // 1. One scan in cell order: each stone joins the groups of its earlier neighbours.
        for cell in 0..n {
            let colour = colours[cell];
            if colour == NO_STONE {
                continue;
            }
            let [left, below, below_left] = self.earlier[cell];
            let cell = cell as Cell;
            if colours[below_left as usize] == colour {
                // Below-left touches left and below: if they have the colour too, they are
                // in its group already, so one link is all it takes.
                let r = find(parent, below_left);
                parent[cell as usize] = r;
                size[r as usize] += 1;
                continue;
            }
            parent[cell as usize] = cell;
            size[cell as usize] = 1;
            for e in [left, below] {
                if colours[e as usize] == colour {
                    let r = find(parent, e);
                    let root = find(parent, cell);
                    if r != root {
                        parent[r as usize] = root;
                        size[root as usize] += size[r as usize];
                    }
                }
            }
        }
        // 2. The product of the sizes of the groups, root by root.
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

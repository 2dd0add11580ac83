//! The stones of the tree search's current position, kept apart from the [`Game`] the search
//! started from.
//!
//! A descent of the tree plays a stone at every ply and takes them all back after the
//! playout. What the search reads there is only which colour is on which cell, the empty
//! cells, and whose stone comes next: not the groups, scores, hash and undo log that
//! `Game::place` keeps for the referee. On side 5 at 1 s a turn `Game::place` and
//! `Game::unplace` were a sixth of a search's time (perf, 2026-11-26), so the descent plays
//! on these light stones and leaves the game at the search's root.

use crate::board::Cell;
use crate::game::{Game, NO_STONE};

use super::pattern::OFF_BOARD;

/// The board of the search's current position: the root game's stones and the stones the
/// descent has placed since.
#[derive(Clone, Debug, Default)]
pub struct TreeStones {
    /// By cell, the colour's index or `NO_STONE`, and at index `cells` (the board's
    /// `outside`) `OFF_BOARD`, as the pattern code reads a board.
    stone: Vec<u8>,
    /// The empty cells, in the order `Game` keeps them (its swap-removes are mirrored, so
    /// that the moves come in the same order as from the game, and a seeded search plays the
    /// same turns).
    empties: Vec<Cell>,
    /// By cell, its index in `empties` (meaningful on empty cells only).
    empty_index: Vec<u16>,
    /// The stones placed since the root, each with the index its cell had in `empties`.
    placed: Vec<(Cell, u16)>,
    players: u8,
    /// The colour of the next stone and the player whose turn it is, as in `Game`.
    phase: u8,
    mover: u8,
    /// Stones placed in the game before the root.
    root_stones: usize,
}

impl TreeStones {
    /// Takes the stones of `game` as the root, reusing the buffers.
    pub fn reset(&mut self, game: &Game) {
        let n = game.board().cell_count();
        self.stone.clear();
        self.stone.extend_from_slice(game.stone_indices());
        self.stone.push(OFF_BOARD);
        self.empties.clear();
        self.empties.extend_from_slice(game.empties());
        self.empty_index.clear();
        self.empty_index.resize(n, 0);
        for (i, &cell) in self.empties.iter().enumerate() {
            self.empty_index[cell as usize] = i as u16;
        }
        self.placed.clear();
        self.players = game.players() as u8;
        self.phase = game.next_stone_colour().index() as u8;
        self.mover = game.to_move().index() as u8;
        self.root_stones = game.stones_placed();
    }

    /// The stones by cell, one entry more at the end (`OFF_BOARD`, the board's `outside`).
    #[inline]
    pub fn board(&self) -> &[u8] {
        &self.stone
    }

    /// The stones by cell, without the entry of `outside`.
    #[cfg(test)]
    pub fn cells(&self) -> &[u8] {
        &self.stone[..self.stone.len() - 1]
    }

    #[inline]
    pub fn empties(&self) -> &[Cell] {
        &self.empties
    }

    /// The colour index of the next stone.
    #[inline]
    pub fn phase(&self) -> u8 {
        self.phase
    }

    /// The index of the player whose turn it is.
    #[inline]
    pub fn mover(&self) -> u8 {
        self.mover
    }

    /// Stones placed in the whole game, before the root and since.
    #[inline]
    pub fn stones_placed(&self) -> usize {
        self.root_stones + self.placed.len()
    }

    /// The stones placed since the root, oldest first.
    pub fn path(&self) -> impl Iterator<Item = Cell> + '_ {
        self.placed.iter().map(|&(cell, _)| cell)
    }

    /// As [`Game::is_over`]: just before white's turn, with fewer than K*K empty cells.
    #[inline]
    pub fn is_over(&self) -> bool {
        let k = self.players as usize;
        self.phase == 0 && self.mover == 0 && self.empties.len() < k * k
    }

    /// The cell of the stone placed `back` stones before the last one (0: the last), if
    /// any, as [`Game::recent_stone`] of a game played to this position: from the stones
    /// placed since the root, then from `root`'s history. Contract: `root` is the game of
    /// the last [`reset`](Self::reset).
    #[inline]
    pub fn recent_stone(&self, root: &Game, back: usize) -> Option<Cell> {
        let len = self.placed.len();
        if back < len {
            Some(self.placed[len - 1 - back].0)
        } else {
            root.recent_stone(back - len)
        }
    }

    /// Places the next stone on `cell`, as `Game::place` does. Contract: `cell` is empty and
    /// the position is not over.
    #[inline]
    pub fn place(&mut self, cell: Cell) {
        debug_assert!(self.stone[cell as usize] == NO_STONE && !self.is_over());
        self.stone[cell as usize] = self.phase;
        let index = self.empty_index[cell as usize];
        let last = *self.empties.last().expect("an empty cell");
        self.empties.swap_remove(index as usize);
        self.empty_index[last as usize] = index;
        self.placed.push((cell, index));
        self.phase += 1;
        if self.phase == self.players {
            self.phase = 0;
            self.mover = if self.mover + 1 == self.players {
                0
            } else {
                self.mover + 1
            };
        }
    }

    /// Takes back the last stone placed since the root. Contract: called in reverse order of
    /// [`place`](Self::place), and only for a stone placed since the last `reset`; the
    /// stones are then exactly as before.
    #[inline]
    pub fn unplace(&mut self) {
        let (cell, index) = self.placed.pop().expect("unplace without place");
        if self.phase == 0 {
            self.phase = self.players - 1;
            self.mover = if self.mover == 0 {
                self.players - 1
            } else {
                self.mover - 1
            };
        } else {
            self.phase -= 1;
        }
        self.stone[cell as usize] = NO_STONE;
        // Reverse the swap_remove: the cell goes back to its index, the moved cell to the end.
        let index = index as usize;
        self.empties.push(cell);
        let end = self.empties.len() - 1;
        self.empties.swap(index, end);
        self.empty_index[self.empties[index] as usize] = index as u16;
        self.empty_index[self.empties[end] as usize] = end as u16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Checks that `stones`, reset at `root`, holds exactly what `game` holds.
    fn assert_same(stones: &TreeStones, game: &Game, root: &Game) {
        assert_eq!(stones.cells(), game.stone_indices());
        assert_eq!(stones.board().last(), Some(&OFF_BOARD));
        assert_eq!(stones.empties(), game.empties());
        assert_eq!(stones.phase() as usize, game.next_stone_colour().index());
        assert_eq!(stones.mover() as usize, game.to_move().index());
        assert_eq!(stones.stones_placed(), game.stones_placed());
        assert_eq!(stones.is_over(), game.is_over());
        for back in 0..game.stones_placed() + 2 {
            assert_eq!(stones.recent_stone(root, back), game.recent_stone(back));
        }
    }

    #[test]
    fn the_light_stones_follow_the_game_through_random_descents_and_back() {
        let mut rng = StdRng::seed_from_u64(7);
        for &(side, players) in &[(2, 2), (3, 3), (4, 4), (5, 2), (6, 3), (7, 4)] {
            for _ in 0..8 {
                let mut game = Game::new(side, players).unwrap();
                // A random root position.
                let root_moves = rng.gen_range(0..game.total_turns() * players / 2 + 1);
                for _ in 0..root_moves {
                    let e = game.empties();
                    game.place(e[rng.gen_range(0..e.len())]);
                }
                let mut stones = TreeStones::default();
                stones.reset(&game);
                let root = game.clone();
                assert_same(&stones, &game, &root);
                // Descents from the root, each taken back, as the tree search makes them.
                for _ in 0..6 {
                    let mut depth = 0;
                    while !game.is_over() && rng.gen_bool(0.9) {
                        let e = game.empties();
                        let cell = e[rng.gen_range(0..e.len())];
                        game.place(cell);
                        stones.place(cell);
                        depth += 1;
                        assert_same(&stones, &game, &root);
                    }
                    for _ in 0..depth {
                        game.unplace();
                        stones.unplace();
                        assert_same(&stones, &game, &root);
                    }
                }
            }
        }
    }
}

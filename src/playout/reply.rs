//! Last-good-reply with forgetting in the playouts (Drake 2009, "The Last-Good-Reply Policy
//! for Monte-Carlo Go"; Baier & Drake 2010, "The Power of Forgetting"): after a playout, every
//! stone the winner placed is remembered as the reply to the stone placed just before it; a
//! remembered reply that the loser played is forgotten. A later playout plays the remembered
//! reply whenever its cell is still empty, and a uniformly random cell otherwise.
//!
//! Omega has several plies a turn, so a reply is kept per *kind* of ply: which player places
//! which colour (K * K kinds with K players). The stone before the first of a turn's stones
//! was placed by the previous player; the one before any other, by the same player.

use crate::board::Cell;
use crate::mcts::FastRng;

/// No reply remembered.
const NONE: Cell = Cell::MAX;

/// The replies of one thread's playouts, for one board.
#[derive(Clone, Debug, Default)]
pub struct Replies {
    /// `reply[kind * (cells + 1) + previous]`; `previous == cells` is "no stone yet".
    reply: Vec<Cell>,
    cells: usize,
    /// Where each cell stands in the playout's list of empty cells.
    position: Vec<u16>,
}

impl Replies {
    pub fn new(cells: usize, players: usize) -> Replies {
        Replies {
            reply: vec![NONE; players * players * (cells + 1)],
            cells,
            position: vec![0; cells],
        }
    }

    /// Whether these replies were made for `cells` cells and `players` players.
    pub fn fits(&self, cells: usize, players: usize) -> bool {
        self.cells == cells && self.reply.len() == players * players * (cells + 1)
    }

    #[inline]
    fn index(&self, kind: usize, previous: Option<Cell>) -> usize {
        kind * (self.cells + 1) + previous.map_or(self.cells, usize::from)
    }

    /// Fills the first `stones` of `empties` in play order: each the remembered reply to the
    /// stone before it when that cell is empty, else a uniformly random empty cell. The
    /// stones take the colours from `colour` on, placed from `mover` on, in turn order;
    /// `previous` is the last stone on the board. `colours` is the board (empty cells hold
    /// `empty`). Contract: `fits(colours.len() - 1, players)`.
    #[allow(clippy::too_many_arguments)]
    pub fn fill(
        &mut self,
        empties: &mut [Cell],
        colours: &mut [u8],
        empty: u8,
        stones: usize,
        players: usize,
        mut colour: u8,
        mut mover: u8,
        mut previous: Option<Cell>,
        rng: &mut FastRng,
    ) {
        let len = empties.len();
        for (i, &c) in empties.iter().enumerate() {
            self.position[c as usize] = i as u16;
        }
        for i in 0..stones {
            let kind = mover as usize * players + colour as usize;
            let reply = self.reply[self.index(kind, previous)];
            let j = if reply != NONE && colours[reply as usize] == empty {
                self.position[reply as usize] as usize
            } else {
                i + rng.below(len - i)
            };
            let (a, b) = (empties[i], empties[j]);
            empties.swap(i, j);
            self.position[a as usize] = j as u16;
            self.position[b as usize] = i as u16;
            colours[b as usize] = colour;
            previous = Some(b);
            super::next_stone(&mut colour, &mut mover, players);
        }
    }

    /// Learns from a finished playout: `played` are its stones in order (as [`Replies::fill`]
    /// left them), with the same `colour`, `mover` and `previous` it started from.
    #[allow(clippy::too_many_arguments)]
    pub fn learn(
        &mut self,
        played: &[Cell],
        players: usize,
        mut colour: u8,
        mut mover: u8,
        mut previous: Option<Cell>,
        winner: usize,
    ) {
        for &cell in played {
            let kind = mover as usize * players + colour as usize;
            let at = self.index(kind, previous);
            if mover as usize == winner {
                self.reply[at] = cell;
            } else if self.reply[at] == cell {
                self.reply[at] = NONE;
            }
            previous = Some(cell);
            super::next_stone(&mut colour, &mut mover, players);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `stones` stones of 2 players from an empty board of 5 cells, white first: the cells
    /// in play order and the board.
    fn fill_empty(replies: &mut Replies, stones: usize, rng: &mut FastRng) -> (Vec<Cell>, Vec<u8>) {
        let mut empties = vec![0, 1, 2, 3, 4];
        let mut colours = vec![u8::MAX; 6];
        replies.fill(
            &mut empties,
            &mut colours,
            u8::MAX,
            stones,
            2,
            0,
            0,
            None,
            rng,
        );
        empties.truncate(stones);
        (empties, colours)
    }

    #[test]
    fn a_winners_reply_is_played_again_and_a_losers_is_forgotten() {
        let mut replies = Replies::new(5, 2);
        // White won a playout in which, after nothing, it put white on 3 then black on 1.
        replies.learn(&[3, 1], 2, 0, 0, None, 0);
        let mut rng = FastRng::new(1);
        for _ in 0..20 {
            let (played, colours) = fill_empty(&mut replies, 2, &mut rng);
            assert_eq!(played, vec![3, 1]);
            assert_eq!((colours[3], colours[1]), (0, 1));
        }
        // Black won one where white played the same: white's replies are forgotten.
        replies.learn(&[3, 1], 2, 0, 0, None, 1);
        let firsts: Vec<Cell> = (0..50)
            .map(|_| fill_empty(&mut replies, 1, &mut rng).0[0])
            .collect();
        assert!(
            firsts.iter().any(|&c| c != 3),
            "the forgotten reply is still played"
        );
    }

    #[test]
    fn a_reply_on_a_taken_cell_gives_way_to_a_random_one() {
        let empty = u8::MAX;
        let mut replies = Replies::new(4, 2);
        replies.learn(&[2], 2, 0, 0, None, 0);
        let mut rng = FastRng::new(3);
        let mut empties = vec![0, 1, 3];
        let mut colours = vec![empty, empty, 1, empty, empty];
        replies.fill(
            &mut empties,
            &mut colours,
            empty,
            3,
            2,
            0,
            0,
            None,
            &mut rng,
        );
        let mut sorted = empties.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 3]);
        assert_eq!((colours[2], colours[4]), (1, empty));
        assert!(empties.iter().all(|&c| colours[c as usize] != empty));
    }
}

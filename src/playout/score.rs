//! Scoring a finished playout: a union-find over the filled board in one scan of the
//! cells ([`join_in_cell_order`], which the playout policies keep their groups with too),
//! then the product of the group sizes of every colour. A playout needs no undo, so this
//! union-find is the plain kind (path halving), not the game's.

use crate::board::{Board, Cell, Coord};
use crate::game::MAX_PLAYERS;

/// Per-board tables and buffers for scoring, built once per board.
#[derive(Clone, Debug, Default)]
pub struct Scorer {
    /// The neighbours of each cell that come earlier in cell order: left, below and
    /// below-left, the board's `outside` index where there is none. Below-left touches both
    /// others, which the scan uses.
    earlier: Vec<[Cell; 3]>,
    parent: Vec<Cell>,
    size: Vec<u16>,
    /// The roots of a scoring's groups, in cell order.
    roots: Vec<Cell>,
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
            roots: vec![0; n],
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

    /// Every colour's score on `colours` (a colour index a cell,
    /// [`NO_STONE`](crate::game::NO_STONE) when empty, and one more entry for `outside`, which
    /// must hold no colour index): the product of its group sizes, 0 for a colour without
    /// stones.
    pub fn scores(&mut self, colours: &[u8], players: usize) -> [u128; MAX_PLAYERS] {
        let n = self.earlier.len();
        debug_assert!(colours.len() > n && colours[n] as usize >= MAX_PLAYERS);
        let (parent, size) = (&mut self.parent[..n], &mut self.size[..n]);
        // 1. The groups, every cell's parent its root; 2. the roots of the stones in a list
        //    (a select, not a branch: about one stone in three is a root, at random);
        //    3. each colour's product over its roots.
        join_in_cell_order(&self.earlier, colours, parent, size);
        let roots = &mut self.roots[..n];
        let mut count = 0;
        for (cell, (&colour, &root)) in colours.iter().zip(parent.iter()).enumerate() {
            roots[count] = cell as Cell;
            count += usize::from(((colour as usize) < MAX_PLAYERS) & (root as usize == cell));
        }
        let mut products = [1u128; MAX_PLAYERS];
        let mut seen = 0u32;
        for &root in &roots[..count] {
            let c = colours[root as usize] as usize;
            products[c] *= u128::from(size[root as usize]);
            seen |= 1 << c;
        }
        for (c, product) in products.iter_mut().enumerate() {
            if c >= players || seen & (1 << c) == 0 {
                *product = 0;
            }
        }
        products
    }
}

impl Scorer {
    /// By colour below `players` and by cell of `empties`, the colour's score with one more
    /// stone of its own on that cell, nothing else changed: `out[c][i]` for `empties[i]`.
    /// What the last turn of a game is decided by ([`crate::game::last_turn`]).
    /// Contract: `colours` as for [`Scorer::scores`]; `rings[cell]` the six neighbours of
    /// every cell of the board, its `outside` index where there is none.
    pub fn with_one_more_stone(
        &mut self,
        colours: &[u8],
        players: usize,
        empties: &[Cell],
        rings: &[[Cell; 6]],
        out: &mut [Vec<u128>; MAX_PLAYERS],
    ) {
        // The scoring's scan leaves every cell's root in `parent` and the groups' sizes.
        let base = self.scores(colours, players);
        let n = self.earlier.len();
        let (parent, size) = (&self.parent[..n], &self.size[..n]);
        // A colour without stones scores the one stone alone.
        let base: [u128; MAX_PLAYERS] = std::array::from_fn(|c| base[c].max(1));
        // Small boards' scores fit in 64 bits even times a cell count, where the division
        // is several times cheaper than in 128.
        let narrow = base
            .iter()
            .all(|&b| b <= u128::from(u64::MAX) / (n as u128 + 1));
        out.iter_mut().take(players).for_each(Vec::clear);
        for &cell in empties {
            // 1. The distinct groups of each colour around the cell, in one pass over its
            //    neighbours: they join the colour's new stone there.
            let mut roots = [[Cell::MAX; 6]; MAX_PLAYERS];
            let mut count = [0usize; MAX_PLAYERS];
            let mut joined = [1u64; MAX_PLAYERS];
            let mut divisor = [1u64; MAX_PLAYERS];
            for &next in &rings[cell as usize] {
                let c = colours[next as usize] as usize;
                if c >= players {
                    continue;
                }
                let root = parent[next as usize];
                if !roots[c][..count[c]].contains(&root) {
                    roots[c][count[c]] = root;
                    count[c] += 1;
                    joined[c] += u64::from(size[root as usize]);
                    divisor[c] *= u64::from(size[root as usize]);
                }
            }
            // 2. The colour's score with the stone: its other groups times the joined one.
            for (c, column) in out.iter_mut().enumerate().take(players) {
                let score = if divisor[c] == 1 {
                    base[c] * u128::from(joined[c])
                } else if narrow {
                    u128::from(base[c] as u64 / divisor[c] * joined[c])
                } else {
                    base[c] / u128::from(divisor[c]) * u128::from(joined[c])
                };
                column.push(score);
            }
        }
    }
}

/// A group size of the playouts' union-finds: the scorer's `u16` (a side-13 board has 469
/// cells) and the playout policy's `u32`.
pub(super) trait GroupSize: Copy + std::ops::AddAssign + Into<u128> + From<bool> {}

impl GroupSize for u16 {}

impl GroupSize for u32 {}

/// The root of `cell`'s group, halving the path on the way.
#[inline]
pub(super) fn find(parent: &mut [Cell], mut cell: Cell) -> Cell {
    while parent[cell as usize] != cell {
        let grand = parent[parent[cell as usize] as usize];
        parent[cell as usize] = grand;
        cell = grand;
    }
    cell
}

/// Joins the stones of `colours` into groups in one scan in cell order, then points every
/// cell's `parent` at its root and counts the groups' sizes there.
///
/// Why selects, not branches: whether a neighbour has the stone's colour is a coin toss in
/// a random playout, and the branches on it, mispredicted about half the time, were most of
/// the scan's cost (by perf a sixth of the default's time on side 5, with the scorer's
/// product; the scan took 700-750 ns a side-5 board, 360-420 ns this way). Each link goes
/// to a cell earlier in cell order, so the roots and sizes are straight passes.
///
/// Contract: `earlier` is [`Scorer::earlier`] of the board `colours` is on; `colours` holds
/// a colour index or [`NO_STONE`](crate::game::NO_STONE) for each of that board's cells, then
/// one entry for its `outside` index, which holds no colour index; `parent` and `size` have
/// an entry a cell. After it, every cell's `parent` is its group's root (an empty cell is
/// its own, of size 0), and a root's `size` is its group's.
#[inline]
pub(super) fn join_in_cell_order<S: GroupSize>(
    earlier: &[[Cell; 3]],
    colours: &[u8],
    parent: &mut [Cell],
    size: &mut [S],
) {
    let n = earlier.len();
    let (parent, size) = (&mut parent[..n], &mut size[..n]);
    // 1. Each stone links to a neighbour of its colour earlier in cell order, if any:
    //    below-left first, whose group holds the other two when they match (it touches
    //    both); only a stone that joins its left and lower groups but not its below-left
    //    one may join two groups, which a union links, the later root under the earlier
    //    (about one stone in eight).
    for (cell, &[left, below, below_left]) in earlier.iter().enumerate() {
        let colour = colours[cell];
        let stone = (colour as usize) < MAX_PLAYERS;
        let same = |e: Cell| stone & (colours[e as usize] == colour);
        let (l, b, bl) = (same(left), same(below), same(below_left));
        let mut up = cell as Cell;
        up = if b { below } else { up };
        up = if l { left } else { up };
        up = if bl { below_left } else { up };
        parent[cell] = up;
        if l & b & !bl {
            let (x, y) = (find(parent, left), find(parent, below));
            parent[x.max(y) as usize] = x.min(y);
        }
    }
    // 2. Every cell's root, in cell order: a parent comes earlier, so its entry already
    //    holds its root.
    for cell in 0..n {
        parent[cell] = parent[parent[cell] as usize];
    }
    // 3. The group sizes, at the roots.
    size.fill(S::from(false));
    for (&colour, &root) in colours.iter().zip(parent.iter()) {
        size[root as usize] += S::from((colour as usize) < MAX_PLAYERS);
    }
}

/// Every colour's score from groups that [`join_in_cell_order`] (and moves that keep its
/// roots and sizes) made on `colours`, one entry a cell of the board (no `outside`): the
/// product of the sizes of its groups, 0 for a colour without stones or beyond `players`.
#[inline]
pub(super) fn product_of_groups<S: GroupSize>(
    colours: &[u8],
    parent: &[Cell],
    size: &[S],
    players: usize,
) -> [u128; MAX_PLAYERS] {
    let mut scores = [1u128; MAX_PLAYERS];
    let mut stones = [false; MAX_PLAYERS];
    for (cell, (&colour, &up)) in colours.iter().zip(parent).enumerate() {
        if (colour as usize) < MAX_PLAYERS && up as usize == cell {
            scores[colour as usize] *= size[cell].into();
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
    use crate::game::{Colour, Game, NO_STONE};
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

    /// The scorer against a flood fill over the board's neighbours on random colourings,
    /// sparse to full: the two must agree on every colour's score.
    #[test]
    fn scores_equal_a_flood_fill_on_random_colourings() {
        let mut rng = crate::mcts::FastRng::new(11);
        for (side, players) in [(2, 2), (4, 3), (5, 2), (5, 4), (8, 3), (10, 2), (13, 4)] {
            let game = Game::new(side, players).unwrap();
            let board = game.board();
            let mut scorer = Scorer::new(board);
            let n = scorer.cells();
            for round in 0..200 {
                // Empty with chance round/200, else a colour at random.
                let colours: Vec<u8> = (0..n)
                    .map(|_| match rng.below(200) < round {
                        true => NO_STONE,
                        false => rng.below(players) as u8,
                    })
                    .chain([NO_STONE])
                    .collect();
                let mut expected = [0u128; MAX_PLAYERS];
                let mut seen = vec![false; n];
                for start in 0..n {
                    let colour = colours[start];
                    if colour == NO_STONE || seen[start] {
                        continue;
                    }
                    let (mut stack, mut size) = (vec![start], 0u128);
                    seen[start] = true;
                    while let Some(c) = stack.pop() {
                        size += 1;
                        for &nb in board.neighbours(c as Cell) {
                            let nb = nb as usize;
                            if colours[nb] == colour && !seen[nb] {
                                seen[nb] = true;
                                stack.push(nb);
                            }
                        }
                    }
                    let score = &mut expected[colour as usize];
                    *score = (*score).max(1) * size;
                }
                assert_eq!(scorer.scores(&colours, players), expected, "side {side}");
            }
        }
    }
}

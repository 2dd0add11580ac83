//! The playout policy of `mcts`: each stone goes, among a few cells drawn at random, to the
//! one whose local shape is best for the player placing it, judged by the class of the
//! placement for the stone's colour (a new group, the growth of a group of some size, or a
//! merger) and whether the colour is the placing player's own. This mimics Omega's strategy
//! in one line: own stones apart in small groups, the opponents' stones where they merge.
//!
//! The groups of the playout are kept in a plain union-find (path halving, union by size),
//! started from copies of the game's own tables; the final scores are read off its roots.

use super::score::{find, join_in_cell_order, product_of_groups};
use super::{best_drawn, best_drawn_with, next_stone};
use crate::board::{Board, Cell};
use crate::game::MAX_PLAYERS;
use crate::mcts::FastRng;

/// The classes of a placement of a stone of colour c, seen from the player placing it.
pub const CLASSES: usize = 14;
/// Class names, as `--set` takes them (`w_own_new=2`, ...).
pub const CLASS_NAMES: [&str; CLASSES] = [
    "own_new",
    "own_grow1",
    "own_grow2",
    "own_grow3",
    "own_grow4",
    "own_merge_gain",
    "own_merge_loss",
    "opp_new",
    "opp_grow1",
    "opp_grow2",
    "opp_grow3",
    "opp_grow4",
    "opp_merge_gain",
    "opp_merge_loss",
];

/// Preference of each class; higher is placed first.
pub type Weights = [f32; CLASSES];

/// The hand-set start: own stones start groups or grow small ones, the opponents' stones
/// merge their groups or feed large ones.
pub const DEFAULT_WEIGHTS: Weights = [
    2.0, 3.0, 3.0, 1.0, 0.0, 3.0, 0.0, // own
    1.0, 0.0, 0.0, 2.0, 2.0, 1.0, 3.0, // opponents'
];

/// The class of a stone of `colour` on `cell`, placed by `own`'s owner or an opponent,
/// given the sizes of the distinct groups of that colour it touches.
#[inline]
fn class(own: bool, touched: usize, first_size: u32, merged: u32, product: f32) -> usize {
    let base = if own { 0 } else { 7 };
    base + match touched {
        0 => 0,
        1 => first_size.min(4) as usize,
        // A merger is a gain for the colour when the joined group beats the product.
        _ if merged as f32 >= product => 5,
        _ => 6,
    }
}

/// See [`PlayoutGroups::join`].
struct Join {
    touched: usize,
    first: u32,
    merged: u32,
    product: f32,
}

/// A union-find over one playout's board.
#[derive(Clone, Debug, Default)]
pub struct PlayoutGroups {
    parent: Vec<Cell>,
    size: Vec<u32>,
}

impl PlayoutGroups {
    /// Builds the groups of the stones in `colours` from scratch, in the scorer's one scan
    /// ([`join_in_cell_order`]).
    ///
    /// Contract: `earlier` is [`super::Scorer::earlier`] of the board `colours` is on, and
    /// `colours` holds that board's cells and then its `outside` index, never a colour.
    pub fn rebuild(&mut self, earlier: &[[Cell; 3]], colours: &[u8]) {
        let len = earlier.len();
        self.parent.resize(len, 0);
        self.size.resize(len, 0);
        join_in_cell_order(earlier, colours, &mut self.parent, &mut self.size);
    }

    #[inline]
    fn find(&mut self, c: Cell) -> Cell {
        find(&mut self.parent, c)
    }

    /// What a stone of `colour` on the empty `cell` would join: the distinct groups it
    /// touches (their roots left in the first `touched` entries of `roots`, for
    /// [`PlayoutGroups::place_joined`]), the size of the first, the size of the joined
    /// group, and the product of the sizes it joins (a float: six sizes of a large board
    /// overflow an integer).
    #[inline]
    fn join(
        &mut self,
        board: &Board,
        colours: &[u8],
        cell: Cell,
        colour: u8,
        roots: &mut [Cell; 6],
    ) -> Join {
        let mut touched = 0;
        for &nb in board.padded_neighbours(cell) {
            if colours[nb as usize] == colour {
                let r = self.find(nb);
                if !roots[..touched].contains(&r) {
                    roots[touched] = r;
                    touched += 1;
                }
            }
        }
        let mut join = Join {
            touched,
            first: 0,
            merged: 1,
            product: 1.0,
        };
        for &r in &roots[..touched] {
            let s = self.size[r as usize];
            join.merged += s;
            join.product *= s as f32;
        }
        if touched > 0 {
            join.first = self.size[roots[0] as usize];
        }
        join
    }

    /// The factor by which `colour`'s score would change if a stone of it went on the empty
    /// `cell`: `(1 + s1 + ... + sn) / (s1 * ... * sn)` for the sizes of the groups it joins.
    #[inline]
    fn score_factor(&mut self, board: &Board, colours: &[u8], cell: Cell, colour: u8) -> f32 {
        let j = self.join(board, colours, cell, colour, &mut [0; 6]);
        j.merged as f32 / j.product
    }

    /// Puts a stone of `colour` on the empty `cell` and joins it to its groups.
    #[inline]
    fn place(&mut self, board: &Board, colours: &mut [u8], cell: Cell, colour: u8) {
        let mut roots = [0; 6];
        let n = self.join(board, colours, cell, colour, &mut roots).touched;
        self.place_joined(colours, cell, colour, &roots[..n]);
    }

    /// Puts a stone of `colour` on the empty `cell` and joins it to `roots`, the distinct
    /// roots of its colour around it, as [`PlayoutGroups::join`] found them with no
    /// stone placed since.
    #[inline]
    fn place_joined(&mut self, colours: &mut [u8], cell: Cell, colour: u8, roots: &[Cell]) {
        colours[cell as usize] = colour;
        // Union by size: everything goes under the largest root.
        let mut big = cell;
        let mut total = 1;
        for &r in roots {
            total += self.size[r as usize];
            if big == cell || self.size[r as usize] > self.size[big as usize] {
                big = r;
            }
        }
        self.parent[cell as usize] = big;
        for &r in roots {
            self.parent[r as usize] = big;
        }
        self.parent[big as usize] = big;
        self.size[big as usize] = total;
    }

    /// Every colour's score: the product of its group sizes, 0 without stones.
    pub fn scores(&mut self, colours: &[u8], players: usize) -> [u128; MAX_PLAYERS] {
        let cells = &colours[..self.parent.len()];
        product_of_groups(cells, &self.parent, &self.size, players)
    }
}

/// Fills the board: each of the `stones` remaining stones (colours in turn order from
/// `colour`, the player changing after the last colour, starting with `mover`) goes to the
/// best of `candidates` cells drawn from the remaining `empties`, by `weights`.
#[allow(clippy::too_many_arguments)]
pub fn fill(
    board: &Board,
    groups: &mut PlayoutGroups,
    colours: &mut [u8],
    empties: &mut [Cell],
    stones: usize,
    players: usize,
    mut colour: u8,
    mut mover: u8,
    weights: &Weights,
    candidates: usize,
    rng: &mut FastRng,
) {
    let len = empties.len();
    for i in 0..stones {
        let left = len - i;
        let own = colour == mover;
        // The best of the drawn cells, with the roots its stone joins (read once: the
        // placement reuses them).
        let (best, (roots, touched)) = best_drawn_with(i, left, candidates, rng, |j| {
            let mut roots = [0; 6];
            let join = groups.join(board, colours, empties[j], colour, &mut roots);
            let w = weights[class(own, join.touched, join.first, join.merged, join.product)];
            (w, (roots, join.touched))
        });
        empties.swap(i, best);
        groups.place_joined(colours, empties[i], colour, &roots[..touched]);
        next_stone(&mut colour, &mut mover, players);
    }
}

/// A uniformly random fill whose last `greedy.0` stones each take, among the cells still
/// empty (all of them, or the best of `greedy.1` drawn at random when that is not 0), the one
/// best for the player placing it by the exact change of the stone's colour's score: the
/// highest for the player's own colour, the lowest for the others. The last turns of a real
/// game are played so, and the last player's advantage with them; a random fill misses both.
/// `earlier` is the scorer's table of the board ([`PlayoutGroups::rebuild`]).
#[allow(clippy::too_many_arguments)]
pub fn greedy_end_fill(
    board: &Board,
    earlier: &[[Cell; 3]],
    groups: &mut PlayoutGroups,
    colours: &mut [u8],
    empties: &mut [Cell],
    stones: usize,
    players: usize,
    mut colour: u8,
    mut mover: u8,
    greedy: (usize, usize),
    rng: &mut FastRng,
) {
    let len = empties.len();
    let random = stones.saturating_sub(greedy.0);
    // The random part only writes colours; the groups are built once, where the greedy
    // part starts (keeping them through the whole fill cost a third of the playouts).
    for i in 0..random {
        let j = i + rng.below(len - i);
        empties.swap(i, j);
        colours[empties[i] as usize] = colour;
        next_stone(&mut colour, &mut mover, players);
    }
    groups.rebuild(earlier, colours);
    for i in random..stones {
        // The highest factor for the own colour, the lowest for the others (a factor is
        // positive, so the lowest factor has the highest inverse).
        let own = colour == mover;
        let gain = |groups: &mut PlayoutGroups, colours: &[u8], cell: Cell| {
            let factor = groups.score_factor(board, colours, cell, colour);
            if own {
                factor
            } else {
                1.0 / factor
            }
        };
        let j = if greedy.1 > 0 {
            best_drawn(i, len - i, greedy.1, rng, |j| {
                gain(groups, colours, empties[j])
            })
        } else {
            let mut best = (f32::NEG_INFINITY, i);
            for (j, &cell) in empties.iter().enumerate().skip(i) {
                let g = gain(groups, colours, cell);
                if g > best.0 {
                    best = (g, j);
                }
            }
            best.1
        };
        empties.swap(i, j);
        groups.place(board, colours, empties[i], colour);
        next_stone(&mut colour, &mut mover, players);
    }
}

/// The light policy's classes: own or an opponent's colour, and how many stones of that
/// colour touch the cell (0, 1, 2, 3 or more), as `--set` names them (`n_own0=2`, ...).
pub const COUNT_NAMES: [&str; 8] = [
    "own0", "own1", "own2", "own3", "opp0", "opp1", "opp2", "opp3",
];

pub type CountWeights = [f32; 8];

/// Own stones apart or next to one own stone; the opponents' stones where they touch several
/// of their colour.
pub const DEFAULT_COUNT_WEIGHTS: CountWeights = [2.0, 2.0, 0.0, 0.0, 0.0, 1.0, 2.0, 2.0];

/// The light policy: like [`fill`], but a cell's class is only the number of stones of the
/// colour around it, six byte compares without a group lookup, so that the policy costs
/// little more than the random fill; the caller scores the board after.
#[allow(clippy::too_many_arguments)]
pub fn count_fill(
    board: &Board,
    colours: &mut [u8],
    empties: &mut [Cell],
    stones: usize,
    players: usize,
    mut colour: u8,
    mut mover: u8,
    weights: &CountWeights,
    candidates: usize,
    rng: &mut FastRng,
) {
    let len = empties.len();
    let weight = |colours: &[u8], cell: Cell, colour: u8, base: usize| {
        let same: usize = board
            .padded_neighbours(cell)
            .iter()
            .map(|&nb| (colours[nb as usize] == colour) as usize)
            .sum();
        weights[base + same.min(3)]
    };
    for i in 0..stones {
        let left = len - i;
        let base = if colour == mover { 0 } else { 4 };
        let best = best_drawn(i, left, candidates, rng, |j| {
            weight(colours, empties[j], colour, base)
        });
        empties.swap(i, best);
        colours[empties[i] as usize] = colour;
        next_stone(&mut colour, &mut mover, players);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, NO_STONE};
    use crate::player::random_turn;
    use crate::playout::Scorer;

    #[test]
    fn rebuilt_groups_are_the_games_groups_on_random_boards() {
        // Random positions of every number of players, some far into the game, where the
        // one-scan rebuild must join groups that wind back against the cell order.
        for (side, players, turns, seed) in
            [(4, 2, 6, 1), (5, 3, 5, 2), (6, 4, 4, 3), (8, 2, 40, 4)]
        {
            let mut game = Game::new(side, players).unwrap();
            for t in 0..turns {
                let turn = random_turn(&game, seed * 100 + t as u64);
                game.play_turn(game.to_move(), &turn).unwrap();
            }
            let scorer = Scorer::new(game.board());
            let mut colours = game.stone_indices().to_vec();
            colours.push(NO_STONE);
            let mut groups = PlayoutGroups::default();
            groups.rebuild(scorer.earlier(), &colours);
            for cell in game.board().cells() {
                let colour = colours[cell as usize];
                if colour == NO_STONE {
                    continue;
                }
                let root = groups.find(cell);
                assert_eq!(
                    groups.size[root as usize] as usize,
                    game.group_size(cell),
                    "side {side}, cell {cell}"
                );
                for &nb in game.board().padded_neighbours(cell) {
                    if colours[nb as usize] == colour {
                        assert_eq!(groups.find(nb), root, "neighbours of one colour join");
                    }
                }
            }
        }
    }

    #[test]
    fn policy_fills_end_the_game_and_score_as_the_scorer_does() {
        for (side, players, turns) in [(3, 2, 0), (5, 2, 4), (5, 3, 2), (6, 4, 1), (8, 2, 20)] {
            let mut game = Game::new(side, players).unwrap();
            for t in 0..turns {
                let turn = random_turn(&game, t as u64);
                game.play_turn(game.to_move(), &turn).unwrap();
            }
            let mut scorer = Scorer::new(game.board());
            let mut groups = PlayoutGroups::default();
            let mut rng = FastRng::new(side as u64);
            for candidates in [1, 2, 4] {
                let mut colours = game.stone_indices().to_vec();
                colours.push(NO_STONE);
                let mut empties = game.empties().to_vec();
                let stones = game.total_turns() * players - game.stones_placed();
                groups.rebuild(scorer.earlier(), &colours);
                fill(
                    game.board(),
                    &mut groups,
                    &mut colours,
                    &mut empties,
                    stones,
                    players,
                    game.next_stone_colour().index() as u8,
                    game.to_move().index() as u8,
                    &DEFAULT_WEIGHTS,
                    candidates,
                    &mut rng,
                );
                let empty = colours[..colours.len() - 1]
                    .iter()
                    .filter(|&&c| c == NO_STONE)
                    .count();
                assert!(empty < players * players, "the fill runs to the end");
                let first = game.next_stone_colour().index();
                for c in 0..players {
                    let count = |b: &[u8]| b.iter().filter(|&&x| x as usize == c).count();
                    let added = (0..stones).filter(|i| (first + i) % players == c).count();
                    assert_eq!(
                        count(&colours),
                        count(game.stone_indices()) + added,
                        "colour {c} gets its stones"
                    );
                }
                assert_eq!(
                    groups.scores(&colours, players),
                    scorer.scores(&colours, players)
                );
            }
        }
    }

    #[test]
    fn greedy_end_fills_score_as_the_scorer_does_and_the_last_stone_is_the_best() {
        for (side, players, turns) in [(3, 2, 0), (5, 2, 4), (5, 3, 2), (6, 4, 1), (8, 2, 20)] {
            let mut game = Game::new(side, players).unwrap();
            for t in 0..turns {
                let turn = random_turn(&game, t as u64 + 40);
                game.play_turn(game.to_move(), &turn).unwrap();
            }
            let mut scorer = Scorer::new(game.board());
            let mut groups = PlayoutGroups::default();
            let mut rng = FastRng::new(side as u64);
            let stones = game.total_turns() * players - game.stones_placed();
            let first = game.next_stone_colour().index() as u8;
            let mover = game.to_move().index() as u8;
            // The groups are built by the fill itself, whatever they held before.
            for (greedy, candidates) in [(1, 0), (4, 0), (stones, 0), (4, 3), (stones, 2)] {
                let mut colours = game.stone_indices().to_vec();
                colours.push(NO_STONE);
                let mut empties = game.empties().to_vec();
                greedy_end_fill(
                    game.board(),
                    scorer.earlier(),
                    &mut groups,
                    &mut colours,
                    &mut empties,
                    stones,
                    players,
                    first,
                    mover,
                    (greedy, candidates),
                    &mut rng,
                );
                assert_eq!(
                    groups.scores(&colours, players),
                    scorer.scores(&colours, players)
                );
                if candidates > 0 {
                    continue;
                }
                // The last stone, taken back, was the best of the cells then empty for
                // its placer: no other cell gives its colour a better score for them.
                let last = empties[stones - 1];
                let colour = colours[last as usize];
                let placer = ((first as usize + stones - 1) / players + mover as usize) % players;
                let own = colour as usize == placer;
                let mut score_with = |cell: Cell| {
                    let mut b = colours.clone();
                    b[last as usize] = NO_STONE;
                    b[cell as usize] = colour;
                    scorer.scores(&b, players)[colour as usize]
                };
                let chosen = score_with(last);
                for &cell in &empties[stones - 1..] {
                    let other = score_with(cell);
                    assert!(
                        if own {
                            chosen >= other
                        } else {
                            chosen <= other
                        },
                        "side {side}, {players} players: {last} ({chosen}) vs {cell} ({other})"
                    );
                }
            }
        }
    }

    #[test]
    fn classes_follow_the_placement() {
        // (own, groups touched, first size, merged size, product of sizes)
        assert_eq!(CLASS_NAMES[class(true, 0, 0, 1, 1.0)], "own_new");
        assert_eq!(CLASS_NAMES[class(true, 1, 2, 3, 2.0)], "own_grow2");
        assert_eq!(CLASS_NAMES[class(true, 1, 9, 10, 9.0)], "own_grow4");
        assert_eq!(CLASS_NAMES[class(true, 2, 1, 3, 1.0)], "own_merge_gain");
        assert_eq!(CLASS_NAMES[class(false, 2, 3, 7, 9.0)], "opp_merge_loss");
        assert_eq!(CLASS_NAMES[class(false, 1, 1, 2, 1.0)], "opp_grow1");
    }
}

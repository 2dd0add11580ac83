//! The last round of a 3-player game, searched exactly over whole turns, and the last turn
//! of a 4-player one.
//!
//! Why: with 3 players the winner is decided late (docs/strength.md, "The shapes' value with
//! three and four players"). At 100,000 playouts a turn on side 5, ten times the playouts
//! in the last round alone won 88 of 210 games where the default won 76, and five times
//! in the first two rounds 77 ("The last round of three players, solved" in the record).
//!
//! In the last round each colour gets exactly one more stone a turn, so the round's turns
//! are computed, not played stone by stone:
//! 1. A colour's final score depends only on its own new stones: a table per colour of its
//!    score with every ordered choice of its next `t` stones (`t` the turns left in the
//!    round) holds every score the search needs, as ranks, so that equal scores stay equal.
//! 2. Red moves last and wins every tie, so red wins exactly when some distinct cells give
//!    its score at least white's and black's ([`red_turn`], [`last_turn`]). With 4 players
//!    blue's last turn is decided the same way, and its win played ([`forced_win`]); the
//!    rounds before it are beyond a turn's time (16 to 31 empty cells, four turns).
//! 3. [`forced_win`] (the default's, `last_round=win`): a turn after which the mover wins
//!    whatever the others do, a player who can win taking its win. It needs no model of a
//!    player who cannot win, and it cuts at the first reply that spoils a turn.
//! 4. [`best_turn`] (`last_round=model`, measured worse): max^n with a player who cannot
//!    win choosing uniformly among its turns, as a win-or-loss search's values say when all
//!    its moves are lost, and a player who can choosing uniformly among its best; a
//!    certain win ends a player's choice, since every best turn then leaves the others 0.
//!    Against `mcts-plain` that model of a lost red was wrong, and as black it handed white
//!    its games.
//! 5. [`safer_turn`] (the default's, `last_round_safe`): as black, a turn of the tree after
//!    which red can win is traded for the model's best turn when that leaves red no win.
//!    [`white_turn_not_lost`] (the same option): as white, a turn of the tree after which
//!    black or red has a forced win (3.) is traded for the first in the tree's order after
//!    which neither has. With 4 players red's turn before blue's last is checked the same
//!    way, over all of red's turns (`player/before_last.rs`).

use std::time::Instant;

use crate::board::Cell;
use crate::game::last_turn::{last_turn, LastTurn};
use crate::game::Game;

/// The number of players this search is for.
const PLAYERS: usize = 3;

/// The most empty cells at the start of a turn the search takes on (the last round of 3
/// players starts with at most 2 * 9 - 1 = 17).
const MAX_EMPTIES: usize = 17;

/// Each colour's chance of winning, white, black, red.
pub type Chances = [f64; PLAYERS];

/// A chance this close to another counts as equal (the chances are ratios of small counts).
const EPS: f64 = 1e-9;

/// The turn the player to move chooses in the last round of a 3-player game, in colour
/// order, with its chances of winning by the model above; `None` when the game is not in
/// that phase (another number of players, not the last round, mid-turn) or when `deadline`
/// passes before the search ends. Contract: `game` is unchanged.
pub fn best_turn(game: &Game, deadline: Option<Instant>) -> Option<(Vec<Cell>, Chances)> {
    let (tables, mover) = tables_of_last_round(game)?;
    let mut search = LastRound::new(&tables, deadline);
    let (choice, chances) = search.choose(mover, [0; PLAYERS])?;
    (!search.timed_out).then(|| {
        let turn = choice.iter().map(|&i| tables.cells[i]).collect();
        (turn, chances)
    })
}

/// The turn of the player to move that wins whatever the others do, as long as a player who
/// can win takes its win, in the last round of a 3-player game or the last turn of a
/// 4-player one (`None` when there is none, when the game is not in that phase, or when
/// `deadline` passes first). Unlike [`best_turn`] it does not depend on what a player who
/// cannot win does (a search's choice among its lost moves), which the uniform model of
/// [`best_turn`] read wrongly as black ("The last round of three players, solved" in
/// docs/strength.md). Contract: `game` is unchanged.
pub fn forced_win(game: &Game, deadline: Option<Instant>) -> Option<Vec<Cell>> {
    if game.players() >= PLAYERS && game.at_turn_boundary() && game.turns_left() == 1 {
        return last_player_win(game);
    }
    let (tables, mover) = tables_of_last_round(game)?;
    let mut search = LastRound::new(&tables, deadline);
    let turn = search.win_for(mover, mover, [0; PLAYERS])?;
    (!search.timed_out).then(|| turn.iter().map(|&i| tables.cells[i]).collect())
}

/// Black's last turn in a 3-player game, when `turn` (the tree's) lets red win its last turn
/// and another turn does not: the best turn by the model of [`best_turn`], which then leaves
/// red no win (`None` otherwise, or when `deadline` passes first).
///
/// Why: red then wins whenever it finds its win, which a search that does not stall in its
/// own dead ends does. At 100,000 playouts a turn on side 5, against two `mcts-plain` with
/// `lost_proofs` on, black won 8 more games of 210 and lost none; against `mcts-plain`
/// itself, which as red missed at least 13 of the 48 sure wins the default's black had left
/// it, black lost 4 games of 134 and won none ("Proofs of the last turn in the tree, ..."
/// in docs/strength.md). Contract: `game` is unchanged; `turn` is legal for the mover.
pub fn safer_turn(game: &Game, turn: &[Cell], deadline: Option<Instant>) -> Option<Vec<Cell>> {
    let black = crate::game::Colour::from_index(1);
    if game.players() != PLAYERS
        || game.to_move() != black
        || game.turns_left() != 2
        || !game.at_turn_boundary()
    {
        return None;
    }
    let mut after = game.clone();
    after.play_turn(black, turn).ok()?;
    last_player_win(&after)?;
    let (safer, chances) = best_turn(game, deadline)?;
    (chances[black.index()] > 0.0).then_some(safer)
}

/// White's last turn in a 3-player game, when the tree's `turn` loses for sure and another
/// does not: the first turn in the order `order` gives (as for
/// [`super::turn_order::first_not_lost`]) after which neither black nor red has a forced win
/// ([`forced_win`]'s: a player who can win takes its win). `None` when the tree's turn
/// stands, when the game is not at white's last turn of 3 players, or when `deadline`
/// passes first.
///
/// Why: of the default's 34 last turns as white at 1 s a turn on side 5 (the openings of
/// the targets' row), 12 were such sure losses, and in 9 of them between 13 and 578 of
/// white's 3,360 turns were not. Trading them won 14 more games of 420 at 100,000 playouts
/// a turn and lost none. The same trade for black, in place of [`safer_turn`], lost 2
/// ("White's last turn with three players" in docs/strength.md).
/// Contract: `game` is unchanged; `turn` is legal for white.
pub fn white_turn_not_lost(
    game: &Game,
    turn: &[Cell],
    order: impl FnMut(&[Cell]) -> Vec<Cell>,
    deadline: Option<Instant>,
) -> Option<Vec<Cell>> {
    let (tables, mover) = tables_of_last_round(game)?;
    if mover != 0 || turn.len() != PLAYERS {
        return None;
    }
    let index = |cell: Cell| tables.cells.iter().position(|&c| c == cell);
    let mut search = LastRound::new(&tables, deadline);
    super::turn_order::first_not_lost(turn, order, index, |at| {
        search.white_turn_lost([at[0], at[1], at[2]])
    })
}

/// The last player's winning turn in the last turn of the game, with 3 or 4 players, if it
/// has one ([`last_turn`]: the same turn as the search over the tables finds with 3).
fn last_player_win(game: &Game) -> Option<Vec<Cell>> {
    let cells = game.empties();
    match last_turn_of(game) {
        LastTurn::Wins(turn) => Some(turn[..game.players()].iter().map(|&i| cells[i]).collect()),
        _ => None,
    }
}

/// The outcome of the last turn of the game ([`last_turn`]), when `game` is at it; its
/// indices are into `game.empties()`.
pub(super) fn last_turn_of(game: &Game) -> LastTurn {
    let k = game.players();
    let columns: Vec<Vec<u128>> = (0..k).map(|c| one_stone_scores(game, c)).collect();
    let columns: Vec<&[u128]> = columns.iter().map(Vec::as_slice).collect();
    last_turn(&columns)
}

/// Colour `colour`'s score with one more stone of its own on each empty cell of `game`, in
/// the game's order of its empty cells.
fn one_stone_scores(game: &Game, colour: usize) -> Vec<u128> {
    scores_with_stones(game, colour, 1)
}

/// The score tables of the turns left and the player to move, when `game` is at a turn of
/// the last round of 3 players (white's turn starts the round, red's ends the game).
fn tables_of_last_round(game: &Game) -> Option<(ScoreTables, usize)> {
    if game.players() != PLAYERS || !game.at_turn_boundary() || game.is_over() {
        return None;
    }
    let turns_left = game.turns_left();
    let mover = game.to_move().index();
    if turns_left != PLAYERS - mover || game.empties().len() > MAX_EMPTIES {
        return None;
    }
    Some((ScoreTables::new(game, turns_left), mover))
}

/// Every colour's final score by its next stones: `score[c][prefix * n + i]` for the ordered
/// indices (into `cells`) of its `t` stones, `prefix` the index of the first `t - 1` in base
/// `n`; entries with a repeated cell are never read. The scores are kept as their ranks
/// among all the tables' scores (equal scores, equal ranks), so that the hot loops compare
/// 32-bit numbers instead of 128-bit ones.
struct ScoreTables {
    cells: Vec<Cell>,
    score: [Vec<u32>; PLAYERS],
    /// For each mover, the cells' indices in the order its turns are tried: its own stone
    /// where one stone alone scores most for it first, the others' where they score least
    /// (so that a certain win, which ends a choice, tends to come early).
    order: [[Vec<usize>; PLAYERS]; PLAYERS],
}

impl ScoreTables {
    fn new(game: &Game, stones: usize) -> ScoreTables {
        let cells = game.empties().to_vec();
        let n = cells.len();
        let exact: [Vec<u128>; PLAYERS] =
            std::array::from_fn(|c| scores_with_stones(game, c, stones));
        let mut all: Vec<u128> = exact.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        let rank = |x: &u128| all.binary_search(x).expect("a score of the tables") as u32;
        let score = std::array::from_fn(|c| exact[c].iter().map(rank).collect());
        let single: [Vec<u128>; PLAYERS] = std::array::from_fn(|c| one_stone_scores(game, c));
        let order = std::array::from_fn(|mover| {
            std::array::from_fn(|c| {
                let mut indices: Vec<usize> = (0..n).collect();
                if c == mover {
                    indices.sort_by_key(|&i| std::cmp::Reverse(single[c][i]));
                } else {
                    indices.sort_by_key(|&i| single[c][i]);
                }
                indices
            })
        });
        ScoreTables {
            cells,
            score,
            order,
        }
    }
}

/// Colour `colour`'s score with `stones` more stones of its own on each choice of distinct
/// empty cells of `game`: the entry `i_1 + i_2 n + ... + i_t n^(t-1)` for the stones on the
/// empty cells of indices `i_1, ..., i_t` (`n` empty cells; the order of the stones does not
/// change the score); entries with a repeated cell are 0 and never read.
pub(super) fn scores_with_stones(game: &Game, colour: usize, stones: usize) -> Vec<u128> {
    let cells = game.empties();
    let n = cells.len();
    let mut table = vec![0u128; n.pow(stones as u32)];
    let mut chosen = Vec::with_capacity(stones);
    for (key, entry) in table.iter_mut().enumerate() {
        chosen.clear();
        let mut rest = key;
        for _ in 0..stones {
            chosen.push(cells[rest % n]);
            rest /= n;
        }
        if (1..chosen.len()).all(|i| !chosen[..i].contains(&chosen[i])) {
            *entry = score_with(game, colour as u8, &chosen);
        }
    }
    table
}

/// The score of colour `colour` with stones added on the empty `cells` (distinct): the
/// groups they touch and join are merged by a small union-find over the new stones.
fn score_with(game: &Game, colour: u8, cells: &[Cell]) -> u128 {
    let board = game.board();
    // Nodes: the new stones, then the old groups they touch (by root), each with its size.
    let mut roots: Vec<Cell> = Vec::with_capacity(cells.len() * 6);
    let mut size: Vec<u128> = vec![1; cells.len()];
    let mut parent: Vec<usize> = (0..cells.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let union = |parent: &mut Vec<usize>, size: &mut Vec<u128>, a: usize, b: usize| {
        let (ra, rb) = (find(parent, a), find(parent, b));
        if ra != rb {
            parent[rb] = ra;
            size[ra] += size[rb];
        }
    };
    for (i, &cell) in cells.iter().enumerate() {
        let (touched, count) = game.touching_groups(cell, colour);
        for &root in &touched[..count] {
            let node = match roots.iter().position(|&r| r == root) {
                Some(k) => cells.len() + k,
                None => {
                    roots.push(root);
                    parent.push(parent.len());
                    size.push(game.root_size(root) as u128);
                    parent.len() - 1
                }
            };
            union(&mut parent, &mut size, i, node);
        }
        for (j, &other) in cells[..i].iter().enumerate() {
            if board.neighbours(cell).contains(&other) {
                union(&mut parent, &mut size, i, j);
            }
        }
    }
    // The old score without the touched groups, times the merged groups' sizes.
    let old = game.score(crate::game::Colour::from_index(colour as usize));
    let mut score = if old == 0 { 1 } else { old };
    for &root in &roots {
        score /= game.root_size(root) as u128;
    }
    for (i, &group) in size.iter().enumerate() {
        if find(&mut parent, i) == i {
            score = score.saturating_mul(group);
        }
    }
    score
}

struct LastRound<'a> {
    tables: &'a ScoreTables,
    /// By index into `tables.cells`, whether a stone of the search's line is on it.
    used: [bool; MAX_EMPTIES],
    deadline: Option<Instant>,
    timed_out: bool,
}

impl<'a> LastRound<'a> {
    fn new(tables: &'a ScoreTables, deadline: Option<Instant>) -> LastRound<'a> {
        LastRound {
            tables,
            used: [false; MAX_EMPTIES],
            deadline,
            timed_out: false,
        }
    }

    /// The turn `mover` chooses (indices into `tables.cells`, in colour order) and the
    /// chances it leaves, given the prefixes (in base `n`) of each colour's stones placed so
    /// far in the search's line. White and black take the turn with the highest chance for
    /// themselves and leave the mean of their best turns' chances (all turns' when none
    /// wins); red's turn is [`red_turn`]. `None` only when the deadline passed.
    fn choose(
        &mut self,
        mover: usize,
        prefix: [usize; PLAYERS],
    ) -> Option<([usize; PLAYERS], Chances)> {
        if mover == PLAYERS - 1 {
            let (free, [w, b, r]) = self.last_scores(prefix);
            let (choice, chances) = red_turn(&w, &b, &r);
            return Some((choice.map(|k| free[k]), chances));
        }
        let mut best = [0; PLAYERS];
        let (mut best_chance, mut sum, mut ties) = (-1.0, [0.0; PLAYERS], 0usize);
        for (i, turn) in self.turns(mover).into_iter().enumerate() {
            if self.out_of_time(i) {
                return None;
            }
            let (_, chances) = self.after(turn, prefix, |s, next| s.choose(mover + 1, next))?;
            let mine = chances[mover];
            // A certain win ends the choice: every best turn leaves the others 0.
            if mine > 1.0 - EPS {
                return Some((turn, chances));
            }
            if mine > best_chance + EPS {
                (best, best_chance, sum, ties) = (turn, mine, chances, 1);
            } else if mine > best_chance - EPS {
                ties += 1;
                sum.iter_mut().zip(chances).for_each(|(s, x)| *s += x);
            }
        }
        Some((best, sum.map(|s| s / ties as f64)))
    }

    /// Before red's last turn: the free cells, and for each colour its final score (rank)
    /// with its last stone on each of them, given the prefixes of its stones before.
    fn last_scores(&self, prefix: [usize; PLAYERS]) -> (Vec<usize>, [Vec<u32>; PLAYERS]) {
        let n = self.tables.cells.len();
        let free: Vec<usize> = (0..n).filter(|&i| !self.used[i]).collect();
        let columns = std::array::from_fn(|c| {
            let row = &self.tables.score[c][prefix[c] * n..];
            free.iter().map(|&i| row[i]).collect()
        });
        (free, columns)
    }

    /// The turns that can be played from the search's line (distinct free cells for white's,
    /// black's and red's stone), each colour's cells in `tables.order[order_of]`.
    fn turns(&self, order_of: usize) -> Vec<[usize; PLAYERS]> {
        let free = |c: usize| -> Vec<usize> {
            self.tables.order[order_of][c]
                .iter()
                .copied()
                .filter(|&i| !self.used[i])
                .collect()
        };
        let (whites, blacks, reds) = (free(0), free(1), free(2));
        let mut turns = Vec::with_capacity(whites.len().pow(PLAYERS as u32));
        for &w in &whites {
            for &b in blacks.iter().filter(|&&b| b != w) {
                for &r in reds.iter().filter(|&&r| r != w && r != b) {
                    turns.push([w, b, r]);
                }
            }
        }
        turns
    }

    /// `search` run with `turn`'s cells taken and each colour's prefix extended by its cell
    /// (the prefixes `search` is given); the cells are free again on return.
    fn after<T>(
        &mut self,
        turn: [usize; PLAYERS],
        prefix: [usize; PLAYERS],
        search: impl FnOnce(&mut Self, [usize; PLAYERS]) -> T,
    ) -> T {
        let n = self.tables.cells.len();
        let next = std::array::from_fn(|c| prefix[c] * n + turn[c]);
        turn.iter().for_each(|&i| self.used[i] = true);
        let result = search(self, next);
        turn.iter().for_each(|&i| self.used[i] = false);
        result
    }

    /// Whether the deadline has passed, read every 64th turn `i` of a choice (the clock costs
    /// more than a turn of the last level); once passed, it stays passed.
    fn out_of_time(&mut self, i: usize) -> bool {
        if i.is_multiple_of(64) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.timed_out = true;
        }
        self.timed_out
    }
}

impl LastRound<'_> {
    /// Whether white's last turn `turn` (indices, colour order) loses for sure: black or red
    /// then has a forced win. `None` when the deadline passed.
    fn white_turn_lost(&mut self, turn: [usize; PLAYERS]) -> Option<bool> {
        if self.out_of_time(0) {
            return None;
        }
        let lost = self.after(turn, [0; PLAYERS], |s, next| {
            s.win_for(1, 1, next).is_some() || s.win_for(1, 2, next).is_some()
        });
        (!self.timed_out).then_some(lost)
    }

    /// A turn of `mover` after which `hero` wins whatever the others do (a player who can
    /// win takes a win): for the hero's own turn, any such turn; for another's, every turn
    /// must leave the hero winning (the first that does not ends the search). The turn
    /// returned for another mover is its last one tried. `None` when there is none or the
    /// deadline passed.
    fn win_for(
        &mut self,
        mover: usize,
        hero: usize,
        prefix: [usize; PLAYERS],
    ) -> Option<[usize; PLAYERS]> {
        if mover == PLAYERS - 1 {
            let (free, [w, b, r]) = self.last_scores(prefix);
            let choice = match last_turn(&[&w, &b, &r]) {
                LastTurn::Wins(turn) if hero == PLAYERS - 1 => [turn[0], turn[1], turn[2]],
                LastTurn::EveryReply(winner) if winner == hero => [0, 1, 2],
                _ => return None,
            };
            return Some(choice.map(|k| free[k]));
        }
        let mut last = None;
        for (i, turn) in self.turns(hero).into_iter().enumerate() {
            if self.out_of_time(i) {
                return None;
            }
            let wins = self.after(turn, prefix, |s, next| {
                s.win_for(mover + 1, hero, next).is_some()
            });
            if self.timed_out {
                return None;
            }
            match (mover == hero, wins) {
                (true, true) => return Some(turn),
                (false, false) => return None,
                _ => last = Some(turn),
            }
        }
        if mover == hero {
            None
        } else {
            last
        }
    }
}

/// Red's last turn of the game, given each free cell's final score for white, black and red
/// with a stone there (`w`, `b`, `r`, the same cells in the same order): the indices of the
/// cells red takes for white's, black's and its own stone, and the chances that leaves. Red
/// wins every tie (it is last in colour order), so it wins when some distinct cells give it
/// at least the others' scores; otherwise it chooses uniformly (3.), and black wins where its
/// score reaches white's (red is then below one of them whatever it does). Contract: at
/// least 3 cells, the three slices of one length.
fn red_turn(w: &[u32], b: &[u32], r: &[u32]) -> ([usize; PLAYERS], Chances) {
    let n = w.len();
    debug_assert!(n >= PLAYERS && b.len() == n && r.len() == n);
    if let LastTurn::Wins(turn) = last_turn(&[w, b, r]) {
        return ([turn[0], turn[1], turn[2]], [0.0, 0.0, 1.0]);
    }
    let mut black_wins = 0usize;
    for (i, &white) in w.iter().enumerate() {
        black_wins += b
            .iter()
            .enumerate()
            .filter(|&(j, &black)| j != i && black >= white)
            .count();
    }
    let black = black_wins as f64 / (n * (n - 1)) as f64;
    ([0, 1, 2], [1.0 - black, black, 0.0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{every_turn, random_turn_with, white_turn_lost, wins_against_all};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A 3-player game on side `side` played by random turns until `turns_left` remain.
    fn game_with_turns_left(side: usize, turns_left: usize, seed: u64) -> Game {
        let mut game = Game::new(side, PLAYERS).unwrap();
        let mut rng = StdRng::seed_from_u64(seed);
        while game.turns_left() > turns_left {
            let player = game.to_move();
            let turn = random_turn_with(&game, &mut rng);
            game.play_turn(player, &turn).unwrap();
        }
        game
    }

    /// The model of the module, played out on the game itself: at the end the winner by the
    /// rules; before, the mover's best turns' mean chances (all turns' when none wins).
    fn model_chances(game: &mut Game) -> Chances {
        if game.is_over() {
            let mut chances = [0.0; PLAYERS];
            chances[game.winner().0.index()] = 1.0;
            return chances;
        }
        let mover = game.to_move();
        let (mut best, mut sum, mut ties) = (-1.0, [0.0; PLAYERS], 0usize);
        for turn in every_turn(game) {
            game.play_turn(mover, &turn).unwrap();
            let chances = model_chances(game);
            game.undo_turn();
            let mine = chances[mover.index()];
            if mine > best + EPS {
                (best, sum, ties) = (mine, chances, 1);
            } else if mine > best - EPS {
                ties += 1;
                sum.iter_mut().zip(chances).for_each(|(s, x)| *s += x);
            }
        }
        sum.map(|s| s / ties as f64)
    }

    #[test]
    fn the_tables_score_as_the_game_does_after_the_turns() {
        for (side, turns_left, seed) in [(3, 3, 1), (4, 2, 2), (5, 3, 3), (5, 1, 4), (7, 2, 5)] {
            let game = game_with_turns_left(side, turns_left, seed);
            let mut played = game.clone();
            let mut rng = StdRng::seed_from_u64(seed);
            let mut by_colour: [Vec<Cell>; PLAYERS] = Default::default();
            while !played.is_over() {
                let player = played.to_move();
                let turn = random_turn_with(&played, &mut rng);
                for (c, &cell) in turn.iter().enumerate() {
                    by_colour[c].push(cell);
                }
                played.play_turn(player, &turn).unwrap();
            }
            for (c, cells) in by_colour.iter().enumerate() {
                assert_eq!(cells.len(), turns_left);
                let colour = crate::game::Colour::from_index(c);
                assert_eq!(
                    score_with(&game, c as u8, cells),
                    played.score(colour),
                    "side {side}, colour {c}, cells {cells:?}"
                );
            }
        }
    }

    #[test]
    fn red_wins_or_leaves_black_its_share_as_a_count_of_every_turn_says() {
        let mut rng = StdRng::seed_from_u64(7);
        for case in 0..2000 {
            let n = rng.gen_range(3..9);
            // Few distinct values, so that ties are common.
            let mut column = || (0..n).map(|_| rng.gen_range(0..5)).collect::<Vec<u32>>();
            let (w, b, r) = (column(), column(), column());
            let (choice, chances) = red_turn(&w, &b, &r);
            let (mut red_can_win, mut black_wins, mut triples) = (false, 0, 0);
            for (x, &white) in w.iter().enumerate() {
                for y in (0..n).filter(|&y| y != x) {
                    for z in (0..n).filter(|&z| z != x && z != y) {
                        triples += 1;
                        red_can_win |= r[z] >= white && r[z] >= b[y];
                        black_wins += usize::from(b[y] >= white);
                    }
                }
            }
            if red_can_win {
                assert_eq!(chances, [0.0, 0.0, 1.0], "case {case}");
                let [x, y, z] = choice;
                assert!(x != y && y != z && x != z, "case {case}");
                assert!(r[z] >= w[x] && r[z] >= b[y], "case {case}");
            } else {
                let black = black_wins as f64 / triples as f64;
                assert!((chances[1] - black).abs() < 1e-12, "case {case}");
                assert!((chances[0] + chances[1] - 1.0).abs() < 1e-12, "case {case}");
                assert_eq!(chances[2], 0.0, "case {case}");
            }
        }
    }

    #[test]
    fn the_search_finds_the_chances_of_the_model_played_on_the_game() {
        // Side 3: the last round starts with 10 empty cells; side 4 with 10 too (37 cells).
        for (side, turns_left, seed) in [(3, 3, 11), (3, 2, 12), (3, 1, 13), (4, 2, 14), (4, 3, 15)]
        {
            let mut game = game_with_turns_left(side, turns_left, seed);
            let (turn, chances) = best_turn(&game, None).expect("the last round");
            let want = model_chances(&mut game);
            for c in 0..PLAYERS {
                assert!(
                    (chances[c] - want[c]).abs() < 1e-9,
                    "side {side}, {turns_left} turns left: {chances:?} against {want:?}"
                );
            }
            // The turn is one of the mover's best by the model.
            let mover = game.to_move();
            game.play_turn(mover, &turn).unwrap();
            let after = model_chances(&mut game);
            assert!((after[mover.index()] - want[mover.index()]).abs() < 1e-9);
        }
    }

    #[test]
    fn a_forced_win_is_found_exactly_when_the_game_has_one() {
        let mut found = [0; PLAYERS];
        for seed in 0..60 {
            let side = 3 + (seed as usize % 2);
            let turns_left = 1 + (seed as usize / 2) % 3;
            let mut game = game_with_turns_left(side, turns_left, 100 + seed);
            let mover = game.to_move();
            let hero = mover.index();
            let turn = forced_win(&game, None);
            let want = wins_against_all(&mut game, hero);
            assert_eq!(
                turn.is_some(),
                want,
                "seed {seed}, side {side}, {turns_left} left"
            );
            if let Some(turn) = turn {
                found[hero] += 1;
                game.play_turn(mover, &turn).unwrap();
                assert!(wins_against_all(&mut game, hero), "seed {seed}");
            }
        }
        // The cases include forced wins for every seat, not only for red.
        assert!(
            found.iter().all(|&f| f > 0),
            "forced wins by seat {found:?}"
        );
    }

    #[test]
    fn the_search_takes_only_the_last_round_of_three_players() {
        // Two players; three before the last round; mid-turn.
        let mut two = Game::new(3, 2).unwrap();
        while two.turns_left() > 2 {
            let turn = random_turn_with(&two, &mut StdRng::seed_from_u64(1));
            two.play_turn(two.to_move(), &turn).unwrap();
        }
        assert!(best_turn(&two, None).is_none());
        assert!(best_turn(&game_with_turns_left(5, 4, 1), None).is_none());
        let mut mid = game_with_turns_left(5, 3, 1);
        mid.place(mid.empties()[0]);
        assert!(best_turn(&mid, None).is_none());
        // A deadline already passed ends the search without a turn.
        let last = game_with_turns_left(5, 3, 1);
        assert!(best_turn(&last, Some(Instant::now())).is_none());
        assert!(best_turn(&last, None).is_some());
        for game in [&two, &mid] {
            assert!(forced_win(game, None).is_none());
        }
        assert!(forced_win(&game_with_turns_left(5, 4, 1), None).is_none());
    }

    /// Whether red, to move in its last turn, has a winning turn.
    fn red_can_win(game: &mut Game) -> bool {
        let red = game.to_move();
        every_turn(game).into_iter().any(|turn| {
            game.play_turn(red, &turn).unwrap();
            let won = game.winner().0 == red;
            game.undo_turn();
            won
        })
    }

    #[test]
    fn black_trades_a_turn_that_lets_red_win_for_one_that_does_not() {
        let (mut traded, mut kept) = (0, 0);
        for seed in 0..200 {
            let side = 3 + (seed as usize % 3);
            let mut game = game_with_turns_left(side, 2, 300 + seed);
            let black = game.to_move();
            let mut rng = StdRng::seed_from_u64(seed);
            let turn = random_turn_with(&game, &mut rng);
            let safer = safer_turn(&game, &turn, None);
            game.play_turn(black, &turn).unwrap();
            let lets_red_win = red_can_win(&mut game);
            game.undo_turn();
            match safer {
                Some(safer) => {
                    assert!(lets_red_win, "seed {seed}: a turn without red's win traded");
                    game.play_turn(black, &safer).unwrap();
                    assert!(
                        !red_can_win(&mut game),
                        "seed {seed}: red wins after the trade"
                    );
                    assert!(model_chances(&mut game)[black.index()] > 0.0, "seed {seed}");
                    traded += 1;
                }
                None if lets_red_win => {
                    // No turn leaves red without a win and black a chance.
                    for other in every_turn(&game) {
                        game.play_turn(black, &other).unwrap();
                        let hope = !red_can_win(&mut game)
                            && model_chances(&mut game)[black.index()] > 0.0;
                        game.undo_turn();
                        assert!(!hope, "seed {seed}: {other:?} was safer");
                    }
                    kept += 1;
                }
                None => {}
            }
        }
        assert!(traded >= 5 && kept >= 5, "{traded} traded, {kept} kept");
        // Not black's last turn: nothing to trade.
        let white = game_with_turns_left(5, 3, 1);
        let turn = random_turn_with(&white, &mut StdRng::seed_from_u64(1));
        assert!(safer_turn(&white, &turn, None).is_none());
    }

    #[test]
    fn white_trades_a_sure_loss_for_the_first_turn_in_order_that_is_not_one() {
        let (mut traded, mut kept) = (0, 0);
        for seed in 0..24 {
            let side = 3 + (seed as usize % 2);
            let mut game = game_with_turns_left(side, 3, 500 + seed);
            let white = game.to_move();
            let turn = random_turn_with(&game, &mut StdRng::seed_from_u64(seed));
            let in_order = |_: &[Cell]| game.empties().to_vec();
            let trade = white_turn_not_lost(&game, &turn, in_order, None);
            let lost = white_turn_lost(&mut game, &turn);
            // The order above is every_turn's: the trade is the first turn not lost.
            let first_not_lost = every_turn(&game)
                .into_iter()
                .find(|t| !white_turn_lost(&mut game, t));
            match trade {
                Some(t) => {
                    assert!(lost, "seed {seed}: a turn not lost traded");
                    assert_eq!(Some(t), first_not_lost, "seed {seed}");
                    // A deadline already passed ends the check without a trade.
                    let again = |_: &[Cell]| game.empties().to_vec();
                    let late = white_turn_not_lost(&game, &turn, again, Some(Instant::now()));
                    assert_eq!(late, None, "seed {seed}");
                    traded += 1;
                }
                None if lost => {
                    assert_eq!(first_not_lost, None, "seed {seed}: a turn was not lost");
                    kept += 1;
                }
                None => {}
            }
            assert_eq!(white, game.to_move());
        }
        assert!(traded >= 3 && kept >= 1, "{traded} traded, {kept} kept");
        // Only white's last turn is checked.
        let black = game_with_turns_left(4, 2, 1);
        let turn = random_turn_with(&black, &mut StdRng::seed_from_u64(1));
        let in_order = |_: &[Cell]| black.empties().to_vec();
        assert!(white_turn_not_lost(&black, &turn, in_order, None).is_none());
    }
}

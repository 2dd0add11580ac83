//! Red's turn just before blue's last turn in a 4-player game, checked against who can win
//! that last turn.
//!
//! Why: the tree's red cannot see the whole of blue's last turn (15 x 14 x 13 x 12 turns on
//! side 6) and hands blue turns after which red has lost whatever anyone plays: blue can
//! win, or white or black wins whatever blue does. Of the default's 50 last turns as red at
//! 100,000 playouts a turn on side 6, 17 were such sure losses, and in 14 of them another
//! of red's 93,024 turns left the game open; the tree's 256 most visited turns held one in
//! 2. Trading them won 6 more of 400 games against `mcts-plain` and lost none ("Red's turn
//! before blue's last" in docs/strength.md).
//!
//! The check is exact and cheap:
//! 1. In the last turn each colour gets one more stone, so with red's turn also placed a
//!    colour's final score depends on two stones of its own only: a table per colour of its
//!    score with each ordered pair of free cells ([`PairScores`]) holds every score needed.
//! 2. A red turn's outcome is then [`last_turn`] over the tables' rows of that turn's
//!    stones: about a microsecond a turn, so that all of red's turns fit in a turn's time.
//! 3. Red's turns are tried in the tree's order (the most visited cell first at every stone,
//!    then the cells the tree has not tried), and the first that does not lose for sure is
//!    played when the tree's own does.

use std::time::Instant;

use super::last_round::scores_with_stones;
use super::turn_order::first_not_lost;
use crate::board::Cell;
use crate::game::last_turn::{last_turn, LastTurn};
use crate::game::{Colour, Game};

/// The colours of a 4-player game; red (2) moves just before blue (3), the last player.
const COLOURS: usize = 4;
const RED: usize = 2;

/// How often (in turns tried) the clock is read: a turn costs about a microsecond.
const CLOCK_EVERY: usize = 256;

/// The most free cells at red's turn before blue's last: the last round starts with at most
/// 2 x 16 - 1 = 31, and white's and black's turns take 8 of them.
const MAX_FREE: usize = 23;

/// What blue's last turn holds for red after one of red's turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outlook {
    /// Blue can win, or white or black wins whatever blue does.
    SureLoss,
    /// Blue cannot win, and its choice decides.
    Open,
    /// Blue cannot win, and red wins whatever blue does.
    SureWin,
}

impl Outlook {
    fn of(last: LastTurn) -> Outlook {
        match last {
            LastTurn::EveryReply(RED) => Outlook::SureWin,
            LastTurn::Open => Outlook::Open,
            _ => Outlook::SureLoss,
        }
    }
}

/// Red's turn when the tree's `turn` loses for certain and another does not: the first such
/// turn in the order `order` gives (for the cells chosen so far in colour order, the cells
/// to try for the next stone, best first; every free cell not chosen must be among them).
/// `None` when the tree's turn stands, when the game is not at red's last turn of a
/// 4-player game, or when `deadline` passes first.
/// Contract: `game` is unchanged; `turn` is legal for red.
pub fn red_turn_before_last(
    game: &Game,
    turn: &[Cell],
    order: impl FnMut(&[Cell]) -> Vec<Cell>,
    deadline: Option<Instant>,
) -> Option<Vec<Cell>> {
    if !at_red_turn_before_last(game) || turn.len() != COLOURS || game.empties().len() > MAX_FREE {
        return None;
    }
    let scores = PairScores::new(game);
    let mut tried = 0usize;
    first_not_lost(
        turn,
        order,
        |cell| scores.index(cell),
        |at| {
            tried += 1;
            if tried.is_multiple_of(CLOCK_EVERY) && deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            Some(scores.outlook(at) == Outlook::SureLoss)
        },
    )
}

/// Whether `game` is at red's turn of the last round of 4 players (blue's last turn next).
fn at_red_turn_before_last(game: &Game) -> bool {
    game.players() == COLOURS
        && game.to_move() == Colour::from_index(RED)
        && game.turns_left() == 2
        && game.at_turn_boundary()
}

/// Each colour's final score with two more stones of its own, on every ordered pair of the
/// free cells at red's turn: `score[c][s * n + x]` for stones on `cells[s]` and `cells[x]`
/// (`s != x`; the diagonal is unused), as [`scores_with_stones`] lays out two stones.
pub struct PairScores {
    cells: Vec<Cell>,
    /// By cell, its index in `cells` (`usize::MAX` for a cell that is not free).
    index_of: Vec<usize>,
    score: [Vec<u128>; COLOURS],
}

impl PairScores {
    /// Contract: `game` has 4 players and at most [`MAX_FREE`] empty cells (the tables cost
    /// 4 n^2 scores for n free cells).
    pub fn new(game: &Game) -> PairScores {
        let cells = game.empties().to_vec();
        let mut index_of = vec![usize::MAX; game.board().cell_count()];
        for (i, &cell) in cells.iter().enumerate() {
            index_of[cell as usize] = i;
        }
        let score = std::array::from_fn(|c| scores_with_stones(game, c, 2));
        PairScores {
            cells,
            index_of,
            score,
        }
    }

    /// The indices into the free cells of `turn`'s cells; `None` if one is not free (the
    /// tests' way to ask for a turn's outlook).
    #[cfg(test)]
    pub fn indices(&self, turn: &[Cell]) -> Option<Vec<usize>> {
        turn.iter().map(|&cell| self.index(cell)).collect()
    }

    /// The index of `cell` among the free cells, if it is free.
    fn index(&self, cell: Cell) -> Option<usize> {
        self.index_of
            .get(cell as usize)
            .copied()
            .filter(|&i| i != usize::MAX)
    }

    /// The outlook after red's turn `turn` (indices of distinct free cells, colour order).
    pub fn outlook(&self, turn: &[usize]) -> Outlook {
        let n = self.cells.len();
        let m = n - COLOURS;
        // The colours' scores on the cells left free, in stack arrays: a scan tries every
        // turn, and four allocations a turn would cost as much as the rest.
        let mut columns = [[0u128; MAX_FREE]; COLOURS];
        for (c, column) in columns.iter_mut().enumerate() {
            let row = &self.score[c][turn[c] * n..(turn[c] + 1) * n];
            let mut j = 0;
            for (x, &score) in row.iter().enumerate() {
                if !turn.contains(&x) {
                    column[j] = score;
                    j += 1;
                }
            }
        }
        let columns: [&[u128]; COLOURS] = std::array::from_fn(|c| &columns[c][..m]);
        Outlook::of(last_turn(&columns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::every_turn;
    use crate::player::last_round::last_turn_of;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A 4-player game on side `side` played by random turns up to red's turn of the last
    /// round.
    fn game_at_red_turn(side: usize, seed: u64) -> Game {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = Game::new(side, 4).unwrap();
        while !at_red_turn_before_last(&game) {
            let cell = game.empties()[rng.gen_range(0..game.empties().len())];
            game.place(cell);
        }
        game
    }

    /// The outlook by playing the turn on the game and reading the last turn off it.
    fn outlook_on_the_game(game: &Game, turn: &[Cell]) -> Outlook {
        let mut after = game.clone();
        after.play_turn(Colour::from_index(RED), turn).unwrap();
        Outlook::of(last_turn_of(&after))
    }

    #[test]
    fn the_tables_give_the_outlook_of_the_game_after_the_turn() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut seen = [0usize; 3];
        for seed in 0..12 {
            let game = game_at_red_turn(4 + seed as usize % 3, seed);
            let scores = PairScores::new(&game);
            let turns = every_turn(&game);
            for _ in 0..300 {
                let turn = &turns[rng.gen_range(0..turns.len())];
                let expected = outlook_on_the_game(&game, turn);
                let by_tables = scores.outlook(&scores.indices(turn).unwrap());
                assert_eq!(by_tables, expected, "seed {seed}, turn {turn:?}");
                seen[expected as usize] += 1;
            }
        }
        // The test saw every kind of outlook.
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }

    #[test]
    fn a_sure_loss_is_traded_for_the_first_open_turn_in_order() {
        let mut traded = 0;
        for seed in 0..40 {
            // Side 4: red's last turn has 13 free cells, 17,160 turns.
            let game = game_at_red_turn(4, seed);
            let turns = every_turn(&game);
            let outlooks: Vec<Outlook> = turns
                .iter()
                .map(|t| outlook_on_the_game(&game, t))
                .collect();
            // Game order at every stone: the turns in the order `all_turns` lists them.
            let in_game_order = |chosen: &[Cell]| -> Vec<Cell> {
                (game.empties().iter())
                    .filter(|c| !chosen.contains(c))
                    .copied()
                    .collect()
            };
            let first_not_lost = outlooks.iter().position(|&o| o != Outlook::SureLoss);
            for (turn, &outlook) in turns.iter().zip(&outlooks).step_by(1009) {
                let trade = red_turn_before_last(&game, turn, in_game_order, None);
                match (outlook, first_not_lost) {
                    (Outlook::SureLoss, Some(i)) => {
                        assert_eq!(trade.as_ref(), Some(&turns[i]), "seed {seed}");
                        traded += 1;
                    }
                    _ => assert_eq!(trade, None, "seed {seed}"),
                }
            }
        }
        assert!(traded > 0);
    }

    #[test]
    fn only_red_before_blues_last_turn_is_checked() {
        let game = game_at_red_turn(5, 3);
        let mut earlier = game.clone();
        earlier.unplace();
        let any = |chosen: &[Cell]| -> Vec<Cell> {
            game.empties()
                .iter()
                .copied()
                .filter(|c| !chosen.contains(c))
                .collect()
        };
        let turn: Vec<Cell> = game.empties()[..4].to_vec();
        assert!(!at_red_turn_before_last(&earlier));
        assert_eq!(red_turn_before_last(&earlier, &turn, any, None), None);
        let mut three = Game::new(5, 3).unwrap();
        while three.turns_left() > 1 {
            let t: Vec<Cell> = three.empties()[..3].to_vec();
            three.play_turn(three.to_move(), &t).unwrap();
        }
        assert_eq!(red_turn_before_last(&three, &turn[..3], any, None), None);
    }
}

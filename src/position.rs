//! Omega as a [`Position`] for the generic search: one stone per ply, the evaluation of
//! [`crate::eval`] at turn boundaries, the true result at the end of the game.

use crate::board::Cell;
use crate::eval;
use crate::game::{Colour, Game};
use crate::search::{Position, Value, WIN};

/// A game seen by the search. Borrowing the game mutably keeps the search from copying it.
pub struct OmegaPosition<'a> {
    pub game: &'a mut Game,
    scratch: eval::Scratch,
}

impl<'a> OmegaPosition<'a> {
    pub fn new(game: &'a mut Game) -> OmegaPosition<'a> {
        OmegaPosition {
            game,
            scratch: eval::Scratch::default(),
        }
    }
}

/// The true result of a finished game for `player`, beyond every heuristic value: a win
/// (by the rules, ties to the last colour) is worth `WIN` plus a term growing with the margin
/// over the best other colour; a loss the negative of that for the margin it lost by.
pub fn result_value(game: &Game, player: Colour) -> Value {
    let (winner, margin) = game.winner();
    if winner == player {
        WIN + margin_term(margin)
    } else {
        let behind = game.score(winner) - game.score(player);
        -(WIN + margin_term(behind))
    }
}

/// Increasing in the margin, bounded below `WIN` (1000 ln(1 + margin)).
fn margin_term(margin: u128) -> Value {
    ((1.0 + margin as f64).ln() * 1000.0).min((WIN / 2) as f64) as Value
}

impl Position for OmegaPosition<'_> {
    type Move = Cell;

    fn moves(&self, out: &mut Vec<Cell>) {
        if !self.game.is_over() {
            out.extend_from_slice(self.game.empties());
        }
    }

    fn play(&mut self, m: Cell) {
        self.game.place(m);
    }

    fn undo(&mut self) {
        self.game.unplace();
    }

    fn hash(&self) -> u64 {
        self.game.hash()
    }

    fn mover(&self) -> usize {
        self.game.to_move().index()
    }

    fn at_boundary(&self) -> bool {
        self.game.at_turn_boundary()
    }

    fn last_ply_of_turn(&self) -> bool {
        self.game.next_stone_colour().index() == self.game.players() - 1
    }

    fn leaf_children(&mut self, player: usize, moves: &[Cell], out: &mut Vec<Value>) {
        if self.game.next_stone_ends_game() || self.game.empties().len() < 3 {
            for &m in moves {
                self.game.place(m);
                out.push(self.evaluate(player));
                self.game.unplace();
            }
        } else {
            let player = Colour::from_index(player);
            eval::leaf_children_values(self.game, player, moves, &mut self.scratch, out);
        }
    }

    fn is_terminal(&self) -> bool {
        self.game.is_over()
    }

    fn evaluate(&self, player: usize) -> Value {
        let player = Colour::from_index(player);
        if self.game.is_over() {
            result_value(self.game, player)
        } else {
            eval::evaluate(self.game, player)
        }
    }

    fn order_score(&self, m: Cell) -> i32 {
        // The mover wants its own colour to gain and every other colour to lose.
        let colour = self.game.next_stone_colour();
        let delta = eval::placement_delta(self.game, colour, m);
        if colour == self.game.to_move() {
            delta
        } else {
            -delta
        }
    }

    fn move_slot(&self, m: Cell) -> usize {
        self.game.next_stone_colour().index() * self.game.board().cell_count() + m as usize
    }

    fn move_slots(&self) -> usize {
        4 * self.game.board().cell_count()
    }

    fn plies_left(&self) -> usize {
        self.game.turns_left() * self.game.players()
            - (self.game.stones_placed() % self.game.players())
    }
}

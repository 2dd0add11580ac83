//! An in-process game between two or three players of the same game, for tests and quick
//! measurements (the match driver, `omega-match --game`, plays engines as processes).

use super::{GameMove, GamePlayer, GameResult, Rules};
use crate::timeman::Limits;
use std::time::{Duration, Instant};

/// How a duel ended: the result in colours, which seat held each colour at the end (a swap
/// exchanges the two players' colours) and the moves.
#[derive(Clone, Debug)]
pub struct DuelRecord {
    pub result: GameResult,
    /// `seat_of_colour[c]` is the index in `players` of the player holding colour c.
    pub seat_of_colour: Vec<usize>,
    pub moves: Vec<GameMove>,
}

impl DuelRecord {
    /// The seat that won, `None` for a draw.
    pub fn winning_seat(&self) -> Option<usize> {
        match self.result {
            GameResult::Win(c) => Some(self.seat_of_colour[c]),
            GameResult::Draw => None,
        }
    }
}

/// Plays `start` to its end: `players[k]` holds colour k until a swap exchanges colours 0
/// and 1. Each move gets `seconds`. Panics if a player returns an illegal move (a bug).
/// Contract: `players.len() == start.players()`.
pub fn play<R: Rules>(
    start: &R,
    players: &mut [Box<dyn GamePlayer<R>>],
    seconds: f64,
) -> DuelRecord {
    let mut game = start.clone();
    let mut seat_of_colour: Vec<usize> = (0..game.players()).collect();
    for p in players.iter_mut() {
        p.new_game();
    }
    let limits = Limits {
        optimum: Duration::from_secs_f64(seconds),
        maximum: Duration::from_secs_f64(seconds),
        keeps_savings: false,
    };
    let mut moves = Vec::new();
    while let Some(colour) = game.to_move() {
        let seat = seat_of_colour[colour];
        let m = players[seat].choose(&game, Instant::now(), limits);
        if let Err(e) = game.check(colour, m) {
            panic!("{} played an illegal {m:?}: {e}", R::NAME);
        }
        game.play(m);
        moves.push(m);
        if m == GameMove::Swap {
            seat_of_colour.swap(0, 1);
        }
    }
    DuelRecord {
        result: game.result().expect("the game is over"),
        seat_of_colour,
        moves,
    }
}

//! Evaluations of a Yavalath position for the alpha-beta searches, in the search's units
//! (`crate::search::WIN` is a finished game).
//!
//! - [`simple`]: the `negamax4` baseline's: lines of 4 cells holding only one colour's
//!   stones, 2 stones worth 1 and 3 (an "almost 4", a threat) worth 10, own minus others.
//! - [`threats`]: the `alphabeta` player's: the same lines, plus the tactics one ply ahead
//!   that decide a game at once (the mover wins on a threat cell; the mover faces two
//!   threats, or one it cannot block without making 3), and the mover's forced win by a
//!   few threats in a row (`threats::forced_win`).

use super::threats::forced_win;
use super::Yavalath;
use crate::search::{Value, WIN};

/// Threats the evaluation's forced-win check looks ahead (a quiescence search of sorts).
const EVAL_FORCED_DEPTH: usize = 4;
/// Stones it may place: the alpha-beta looks at its clock between nodes, and an unbounded
/// check (exponential in the threats on the board) made a 1 s move 55 ms late.
const EVAL_FORCED_BUDGET: usize = 1_000;
/// A position decided by the threats, short of a finished game.
pub const DECIDED: Value = WIN / 2;

/// Per colour: lines of 4 holding 2 of its stones and no other, and holding 3.
fn line_counts(game: &Yavalath) -> [[i32; 2]; 3] {
    let mut counts = [[0; 2]; 3];
    for w in &game.geo.windows {
        let (mut mark, mut n, mut mixed) = (0u8, 0, false);
        for &c in w {
            let s = game.stones[c as usize];
            if s != 0 {
                mixed |= mark != 0 && mark != s;
                mark = s;
                n += 1;
            }
        }
        if !mixed && (2..=3).contains(&n) {
            counts[mark as usize - 1][n - 2] += 1;
        }
    }
    counts
}

/// Own lines minus the others' (paranoid with three players: minus their sum).
fn lines_value(game: &Yavalath, player: usize, two: i32, three: i32) -> Value {
    let counts = line_counts(game);
    let value = |c: usize| counts[c][0] * two + counts[c][1] * three;
    let others: Value = (0..game.players)
        .filter(|&c| c != player && !game.out[c])
        .map(value)
        .sum();
    value(player) - others
}

/// The `negamax4` baseline's evaluation for `player` of a game that is not over.
pub fn simple(game: &Yavalath, player: usize) -> Value {
    lines_value(game, player, 1, 10)
}

/// The `alphabeta` player's evaluation for `player` of a game that is not over: decided
/// positions one ply ahead, else threat cells and lines.
pub fn threats(game: &mut Yavalath, player: usize) -> Value {
    let mover = game.to_move.expect("the game is not over");
    let sign = if mover == player { 1 } else { -1 };
    if game.players == 2 {
        let opp = 1 - mover;
        if !game.win[mover].is_empty() {
            return sign * DECIDED;
        }
        let threats = game.win[opp];
        let unblockable = threats
            .first()
            .is_some_and(|c| game.lose[mover].contains(c));
        if threats.len() >= 2 || unblockable {
            return -sign * DECIDED;
        }
        if threats.is_empty() && forced_win(game, EVAL_FORCED_DEPTH, EVAL_FORCED_BUDGET).is_some() {
            return sign * DECIDED;
        }
    }
    // Threat cells count when the other colour cannot take them without making 3 (then
    // they are a lasting asset), less when it can.
    let mut value = lines_value(game, player, 3, 0);
    for c in 0..game.players {
        if game.out[c] {
            continue;
        }
        let own: Value = game.win[c]
            .iter()
            .map(|x| {
                let safe = (0..game.players).all(|o| o == c || game.lose[o].contains(x));
                if safe {
                    120
                } else {
                    40
                }
            })
            .sum();
        value += if c == player { own } else { -own };
    }
    value
}

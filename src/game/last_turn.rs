//! Who wins the last turn of the game, from each colour's score with its last stone on each
//! free cell.
//!
//! In the last turn every colour gets exactly one more stone, placed by the last player
//! (red with 3 players, blue with 4), so a colour's final score depends on its own last stone
//! only. The last player wins every tie (it is last in colour order), so it wins exactly when
//! some distinct cells give its own score at least every other colour's. When it cannot, who
//! wins is its choice among its lost turns, and only a colour that wins whatever it chooses
//! is certain. Both facts are proofs, true whatever anyone plays: the tree search's solver
//! takes them at the start of that turn ([`crate::mcts::MctsConfig::last_turn_proofs`]) and
//! the exact search of a 3-player last round at its leaves (`player/last_round.rs`).

use super::MAX_PLAYERS;

/// The outcome of the last turn of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastTurn {
    /// The last player wins with this turn: by colour, the index of the free cell its stone
    /// goes on (the last player's own stone last; entries beyond the players unused). Of the
    /// winning turns it is the first with the last player's own cell first in index order,
    /// then white's, then black's, ...
    Wins([usize; MAX_PLAYERS]),
    /// The last player cannot win, and this colour wins whatever the last player does.
    EveryReply(usize),
    /// The last player cannot win, and its choice decides which of the others wins.
    Open,
}

/// The outcome of the last turn, given by colour (`columns[c]`, every colour of the game, the
/// last player's last) its final score with its last stone on each free cell (the same
/// cells, in the same order, in every column). Scores compare by `Ord`, so any exact score
/// or rank serves. Contract: 2 to [`MAX_PLAYERS`] columns, of one length, at least as long
/// as there are columns (a turn fits).
pub fn last_turn<T: Ord + Copy>(columns: &[&[T]]) -> LastTurn {
    let k = columns.len();
    debug_assert!((2..=MAX_PLAYERS).contains(&k));
    debug_assert!(columns
        .iter()
        .all(|c| c.len() == columns[0].len() && c.len() >= k));
    if let Some(turn) = winning_turn(columns) {
        return LastTurn::Wins(turn);
    }
    match (0..k - 1).find(|&hero| wins_every_reply(columns, hero)) {
        Some(hero) => LastTurn::EveryReply(hero),
        None => LastTurn::Open,
    }
}

/// The last player's first winning turn (see [`LastTurn::Wins`]), if any: its own stone on
/// a cell with score `top`, and every other colour's on a distinct other cell where that
/// colour scores at most `top` (the last player wins ties).
fn winning_turn<T: Ord + Copy>(columns: &[&[T]]) -> Option<[usize; MAX_PLAYERS]> {
    let last = columns.len() - 1;
    let mut turn = [0; MAX_PLAYERS];
    for (own, &top) in columns[last].iter().enumerate() {
        turn[last] = own;
        if place_low(columns, top, 0, &mut turn) {
            return Some(turn);
        }
    }
    None
}

/// Places the stones of colours `colour..last` on distinct cells, none taken by the stones
/// already in `turn` (colours below `colour`, and the last player's own), each where its
/// colour scores at most `top`: the first such placement in index order, colour by colour.
/// At most 3 colours of at most a few dozen cells: the backtracking stays small, and a
/// colour without a low cell ends it at once.
fn place_low<T: Ord + Copy>(
    columns: &[&[T]],
    top: T,
    colour: usize,
    turn: &mut [usize; MAX_PLAYERS],
) -> bool {
    let last = columns.len() - 1;
    if colour == last {
        return true;
    }
    let taken = |cell: usize, turn: &[usize; MAX_PLAYERS]| {
        cell == turn[last] || turn[..colour].contains(&cell)
    };
    for (cell, &score) in columns[colour].iter().enumerate() {
        if score <= top && !taken(cell, turn) {
            turn[colour] = cell;
            if place_low(columns, top, colour + 1, turn) {
                return true;
            }
        }
    }
    false
}

/// Whether colour `hero` (not the last player's) beats every other colour but the last
/// player's whatever cells the last player gives them: with its stone on any cell, above
/// every other colour's score on any other cell (a later colour wins a tie, so against a
/// later colour strictly). With the last player unable to win, that is a win in every reply:
/// the last player is then below someone, so below the hero too.
fn wins_every_reply<T: Ord + Copy>(columns: &[&[T]], hero: usize) -> bool {
    let last = columns.len() - 1;
    let mine = columns[hero];
    (0..last).filter(|&c| c != hero).all(|c| {
        let theirs = columns[c];
        mine.iter().enumerate().all(|(i, &m)| {
            theirs
                .iter()
                .enumerate()
                .all(|(j, &t)| j == i || if c > hero { m > t } else { m >= t })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outcome by trying every turn: who wins each, with the rules' tie order.
    fn brute_force(columns: &[&[u32]]) -> LastTurn {
        let k = columns.len();
        let n = columns[0].len();
        let mut winners = Vec::new();
        let mut first_win = None;
        let mut turn = vec![0; k];
        // Every assignment of distinct cells, the last player's own cell outermost, then
        // white's, black's, ... (the order of `LastTurn::Wins`).
        fn every_turn(
            n: usize,
            order: &[usize],
            depth: usize,
            turn: &mut Vec<usize>,
            out: &mut dyn FnMut(&[usize]),
        ) {
            if depth == order.len() {
                out(turn);
                return;
            }
            for cell in 0..n {
                if order[..depth].iter().any(|&c| turn[c] == cell) {
                    continue;
                }
                turn[order[depth]] = cell;
                every_turn(n, order, depth + 1, turn, out);
            }
        }
        let order: Vec<usize> = std::iter::once(k - 1).chain(0..k - 1).collect();
        every_turn(n, &order, 0, &mut turn, &mut |t: &[usize]| {
            let scores: Vec<u32> = (0..k).map(|c| columns[c][t[c]]).collect();
            let best = *scores.iter().max().unwrap();
            let winner = (0..k).rev().find(|&c| scores[c] == best).unwrap();
            if winner == k - 1 && first_win.is_none() {
                let mut w = [0; MAX_PLAYERS];
                w[..k].copy_from_slice(t);
                first_win = Some(w);
            }
            winners.push(winner);
        });
        if let Some(w) = first_win {
            return LastTurn::Wins(w);
        }
        match winners.iter().all(|&w| w == winners[0]) {
            true => LastTurn::EveryReply(winners[0]),
            false => LastTurn::Open,
        }
    }

    #[test]
    fn the_outcome_is_the_one_of_trying_every_turn() {
        // Small random score columns with many ties, for 2 to 4 colours.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % m) as u32
        };
        let mut seen = [0usize; 3];
        for round in 0..3000 {
            let k = 2 + round % 3;
            let n = k + (next(4) as usize);
            let spread = 2 + next(8) as u64;
            // Each colour's scores shifted by a random lead, so that the last player loses
            // often enough, and one colour is often ahead of all.
            let columns: Vec<Vec<u32>> = (0..k)
                .map(|_| {
                    let lead = next(3) * spread as u32;
                    (0..n).map(|_| lead + next(spread)).collect()
                })
                .collect();
            let refs: Vec<&[u32]> = columns.iter().map(|c| c.as_slice()).collect();
            let expected = brute_force(&refs);
            assert_eq!(last_turn(&refs), expected, "columns {columns:?}");
            seen[match expected {
                LastTurn::Wins(_) => 0,
                LastTurn::EveryReply(_) => 1,
                LastTurn::Open => 2,
            }] += 1;
        }
        // Every outcome came up often enough to be tested.
        assert!(seen.iter().all(|&s| s > 100), "{seen:?}");
    }
}

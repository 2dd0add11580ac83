//! A forced-win check by threats only (threat-space search, after Allis, van den Herik &
//! Huntjens, "Go-Moku and threat-space search", 1993, here for Yavalath's threats): the mover
//! places a stone that leaves a cell where its next stone would make 4 (a "4 with one gap");
//! the opponent must take that cell, and loses at once when taking it makes 3 for it, or
//! cannot when there are two such cells. Only two-player games.

use super::Yavalath;
use crate::board::Cell;

/// The cells where the mover's stone makes a new threat: in a line of 4 cells holding two
/// of its stones and two empty cells, either empty cell (the other becomes the threat).
fn threat_moves(game: &Yavalath, mover: usize, out: &mut Vec<Cell>) {
    let mark = mover as u8 + 1;
    out.clear();
    for w in &game.geo.windows {
        let (mut own, mut empty) = (0, [0 as Cell; 2]);
        let mut ok = true;
        let mut n_empty = 0;
        for &c in w {
            match game.stones[c as usize] {
                0 if n_empty < 2 => {
                    empty[n_empty] = c;
                    n_empty += 1;
                }
                s if s == mark => own += 1,
                _ => ok = false,
            }
        }
        if ok && own == 2 && n_empty == 2 {
            for c in empty {
                if !out.contains(&c) && !game.lose[mover].contains(c) {
                    out.push(c);
                }
            }
        }
    }
}

/// A move that wins by force for the mover of `game` with at most `depth` threats (the
/// opponent's replies forced), or an immediate win; `None` when none is found within
/// `budget` stones placed (the search is exponential in `depth`: the budget bounds its time,
/// about 0.2 µs a stone, and a search cut short finds nothing, so a win it returns is always
/// proven). The game is unchanged on return.
pub fn forced_win(game: &mut Yavalath, depth: usize, budget: usize) -> Option<Cell> {
    let mut left = budget;
    find_win(game, depth, &mut left)
}

/// [`forced_win`] with the stones it may still place in `left`.
fn find_win(game: &mut Yavalath, depth: usize, left: &mut usize) -> Option<Cell> {
    let mover = game.to_move?;
    if game.players != 2 {
        return None;
    }
    if let Some(c) = game.win[mover].first() {
        return Some(c);
    }
    let opp = 1 - mover;
    if depth == 0 || !game.win[opp].is_empty() {
        return None;
    }
    let mut candidates = Vec::new();
    threat_moves(game, mover, &mut candidates);
    candidates.into_iter().find(|&c| {
        if *left == 0 {
            return false;
        }
        *left -= 1;
        game.place(c);
        let wins = wins_after_threat(game, mover, opp, depth, left);
        game.take_back();
        wins
    })
}

/// After the mover's threat (the opponent to move): whether the mover wins by force.
fn wins_after_threat(
    game: &mut Yavalath,
    mover: usize,
    opp: usize,
    depth: usize,
    left: &mut usize,
) -> bool {
    if game.result.is_some() {
        return false; // the threat move ended the game: not by a 4 (checked before)
    }
    let threats = game.win[mover];
    if threats.len() >= 2 {
        return true;
    }
    let Some(block) = threats.first() else {
        return false;
    };
    if game.lose[opp].contains(block) {
        return true;
    }
    game.place(block);
    let wins = game.result.is_none() && find_win(game, depth - 1, left).is_some();
    game.take_back();
    wins
}

//! The evaluation of every child of a node one stone before a turn boundary, at once.
//!
//! Such a node's children are the search's leaves: most of its nodes. Evaluating each
//! from scratch rescans every empty cell; but a child differs from its parent by one stone x
//! of one colour c*, so one scan of the parent serves them all:
//! - for every colour other than c*, the child's cells are the parent's minus x: the best
//!   and worst deltas come from the parent's two best and two worst cells, the losses and
//!   the growth room lose only what x held;
//! - for c*, only the cells around the group x joins change; they are analysed again in the
//!   child, the rest is read from the parent.
//!
//! The result equals [`super::evaluate`] on each child exactly (a test checks it on random
//! positions), only faster.

use super::{
    cell_info, growth_weight, relative, values_from_scans, CellInfo, ColourScan, Totals, NO_GROUP,
};
use crate::board::Cell;
use crate::game::{Colour, Game, MAX_PLAYERS};

/// The two largest and two smallest deltas of one colour over the parent's empty cells, with
/// their cells, so that the best and worst without any one cell are known at once.
#[derive(Clone, Copy)]
struct Extremes {
    top: [(i32, Cell); 2],
    bottom: [(i32, Cell); 2],
}

impl Extremes {
    const NONE: Extremes = Extremes {
        top: [(i32::MIN, NO_GROUP); 2],
        bottom: [(i32::MAX, NO_GROUP); 2],
    };

    fn add(&mut self, d: i32, cell: Cell) {
        if d > self.top[0].0 {
            self.top[1] = self.top[0];
            self.top[0] = (d, cell);
        } else if d > self.top[1].0 {
            self.top[1] = (d, cell);
        }
        if d < self.bottom[0].0 {
            self.bottom[1] = self.bottom[0];
            self.bottom[0] = (d, cell);
        } else if d < self.bottom[1].0 {
            self.bottom[1] = (d, cell);
        }
    }

    fn without(&self, x: Cell) -> (i32, i32) {
        let best = if self.top[0].1 == x {
            self.top[1].0
        } else {
            self.top[0].0
        };
        let worst = if self.bottom[0].1 == x {
            self.bottom[1].0
        } else {
            self.bottom[0].0
        };
        (best, worst)
    }
}

/// The parent's analysis: every empty cell's info and each colour's sums.
struct Parent {
    info: Vec<CellInfo>,
    extremes: [Extremes; MAX_PLAYERS],
    losses: [i32; MAX_PLAYERS],
    growth: [i32; MAX_PLAYERS],
    /// For each small group (by root): how many empty cells are room for it.
    room_count: Vec<u16>,
}

fn analyse_parent(game: &Game) -> Parent {
    let k = game.players();
    let n = game.board().cell_count();
    let mut p = Parent {
        info: vec![
            CellInfo {
                delta: [0; MAX_PLAYERS],
                room_for: [NO_GROUP; MAX_PLAYERS],
            };
            n
        ],
        extremes: [Extremes::NONE; MAX_PLAYERS],
        losses: [0; MAX_PLAYERS],
        growth: [0; MAX_PLAYERS],
        room_count: vec![0; n],
    };
    for &cell in game.empties() {
        let info = cell_info(game, cell);
        p.info[cell as usize] = info;
        for c in 0..k {
            let d = info.delta[c];
            p.extremes[c].add(d, cell);
            p.losses[c] += d.min(0);
            let root = info.room_for[c];
            if root != NO_GROUP {
                if p.room_count[root as usize] == 0 {
                    p.growth[c] += growth_weight(game.root_size(root));
                }
                p.room_count[root as usize] += 1;
            }
        }
    }
    p
}

/// The value for `player` of each child `game + stone on moves[i]`, appended to `out`.
///
/// Contract: the next stone completes the current turn, the children are not the end of the
/// game, and `game` has at least three empty cells; `game` is unchanged on return.
pub fn leaf_children_values(game: &mut Game, player: Colour, moves: &[Cell], out: &mut Vec<i32>) {
    let k = game.players();
    let star = game.next_stone_colour().index();
    let parent = analyse_parent(game);
    // Per child scratch: which cells were analysed again, and their new info.
    let mut redone = vec![false; game.board().cell_count()];
    let mut around: Vec<(Cell, CellInfo)> = Vec::with_capacity(64);
    for &x in moves {
        let mut scans = [ColourScan::default(); MAX_PLAYERS];
        // Colours other than c*: the parent's cells without x.
        for c in (0..k).filter(|&c| c != star) {
            let (best, worst) = parent.extremes[c].without(x);
            let dx = parent.info[x as usize].delta[c];
            let mut growth = parent.growth[c];
            let root = parent.info[x as usize].room_for[c];
            if root != NO_GROUP && parent.room_count[root as usize] == 1 {
                growth -= growth_weight(game.root_size(root));
            }
            scans[c] = Totals {
                best,
                worst,
                losses: parent.losses[c] - dx.min(0),
                growth,
            }
            .finish();
        }

        // c*: the groups x joins disappear into one; the cells around them change.
        let joined = joined_roots(game, x, star);
        let mut growth = parent.growth[star];
        for &g in &joined {
            if parent.room_count[g as usize] > 0 {
                growth -= growth_weight(game.root_size(g));
            }
        }
        game.place(x);
        let group = game.root(x);
        around.clear();
        cells_around_group(game, group, &mut redone, &mut around);
        // A cell next to x that was room for another small group touches two groups now.
        let mut lost: [(Cell, u16); 6] = [(NO_GROUP, 0); 6];
        let mut lost_n = 0;
        for &(cell, _) in &around {
            let h = parent.info[cell as usize].room_for[star];
            if h == NO_GROUP || joined.contains(&h) {
                continue;
            }
            match lost[..lost_n].iter_mut().find(|l| l.0 == h) {
                Some(l) => l.1 += 1,
                None => {
                    lost[lost_n] = (h, 1);
                    lost_n += 1;
                }
            }
        }
        for &(h, n) in &lost[..lost_n] {
            if parent.room_count[h as usize] == n {
                growth -= growth_weight(game.root_size(h));
            }
        }
        let size = game.root_size(group);
        if size <= 2 && around.iter().any(|(_, info)| info.room_for[star] == group) {
            growth += growth_weight(size);
        }
        let mut totals = Totals {
            growth,
            ..Totals::EMPTY
        };
        for &cell in game.empties() {
            if !redone[cell as usize] {
                totals.add(parent.info[cell as usize].delta[star]);
            }
        }
        for &(cell, info) in &around {
            totals.add(info.delta[star]);
            redone[cell as usize] = false;
        }
        scans[star] = totals.finish();
        out.push(relative(&values_from_scans(game, &scans), k, player));
        game.unplace();
    }
}

/// The distinct roots of `colour`'s groups next to the empty cell `x`.
fn joined_roots(game: &Game, x: Cell, colour: usize) -> Vec<Cell> {
    let mut roots = Vec::with_capacity(6);
    for &nb in game.board().neighbours(x) {
        if game.stone_index(nb) as usize == colour {
            let r = game.root(nb);
            if !roots.contains(&r) {
                roots.push(r);
            }
        }
    }
    roots
}

/// The empty cells next to the group of root `group`, analysed in the current position,
/// each once (marked in `redone`).
fn cells_around_group(
    game: &Game,
    group: Cell,
    redone: &mut [bool],
    out: &mut Vec<(Cell, CellInfo)>,
) {
    let mut m = group;
    loop {
        for &nb in game.board().neighbours(m) {
            if game.stone(nb).is_none() && !redone[nb as usize] {
                redone[nb as usize] = true;
                out.push((nb, cell_info(game, nb)));
            }
        }
        m = game.next_member(m);
        if m == group {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;
    use crate::player::random_turn;

    /// Every child's batched value equals a from-scratch evaluation, on random positions of
    /// every phase, for 2, 3 and 4 players.
    #[test]
    fn batched_values_equal_full_evaluation() {
        for (side, players) in [(4, 2), (5, 2), (5, 3), (4, 3), (5, 4), (6, 4)] {
            for seed in 0..12u64 {
                let mut game = Game::new(side, players).unwrap();
                let turns = (seed as usize * 7) % game.total_turns().max(1);
                for t in 0..turns {
                    let turn = random_turn(&game, seed * 100 + t as u64);
                    game.play_turn(game.to_move(), &turn).unwrap();
                }
                // Up to the last stone of the turn.
                for _ in 0..players - 1 {
                    let cell = game.empties()[seed as usize % game.empties().len()];
                    game.place(cell);
                }
                let children_end = game.empties().len() - 1 < players * players
                    && (game.stones_placed() + 1).is_multiple_of(players * players);
                if children_end || game.empties().len() < 3 {
                    continue;
                }
                let moves = game.empties().to_vec();
                for player in game.colours().collect::<Vec<_>>() {
                    let mut got = Vec::new();
                    leaf_children_values(&mut game, player, &moves, &mut got);
                    for (&x, &v) in moves.iter().zip(&got) {
                        game.place(x);
                        let want = evaluate(&game, player);
                        game.unplace();
                        assert_eq!(v, want, "side {side} K {players} seed {seed} {player}");
                    }
                }
                game.check_consistency().unwrap();
            }
        }
    }
}

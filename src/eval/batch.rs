//! The evaluation of every child of a node one stone before a turn boundary, at once.
//!
//! Such a node's children are the search's leaves: most of its nodes. Evaluating each
//! from scratch rescans every empty cell; but a child differs from its parent by one stone x
//! of one colour c*, so one scan of the parent serves them all:
//! - for every colour other than c*, the child's cells are the parent's minus x: the best
//!   and worst deltas come from the parent's few best and worst cells, the losses and the
//!   growth room lose only what x held;
//! - for c*, only the cells around the group x joins change; they are analysed again in the
//!   child, the rest is read from the parent.
//!
//! The result equals [`super::evaluate`] on each child exactly (a test checks it on random
//! positions), only faster.

use super::{
    cell_info, colour_cell_info, growth_weight, relative, values_from_scans, CellInfo, ColourScan,
    Totals, NO_GROUP, WORST_KEPT,
};
use crate::board::Cell;
use crate::game::{ln1000, Colour, Game, MAX_PLAYERS};

/// How many of the largest and smallest deltas are kept per colour.
const KEPT: usize = 8;

/// The [`KEPT`] largest and smallest deltas of one colour over the parent's empty cells, with
/// their cells, so that the best and worst without a few cells are found without a rescan.
#[derive(Clone, Copy)]
struct Extremes {
    /// Descending by value.
    top: [(i32, Cell); KEPT],
    /// Ascending by value.
    bottom: [(i32, Cell); KEPT],
}

impl Extremes {
    const NONE: Extremes = Extremes {
        top: [(i32::MIN, NO_GROUP); KEPT],
        bottom: [(i32::MAX, NO_GROUP); KEPT],
    };

    fn add(&mut self, d: i32, cell: Cell) {
        if d > self.top[KEPT - 1].0 {
            let mut i = KEPT - 1;
            while i > 0 && self.top[i - 1].0 < d {
                self.top[i] = self.top[i - 1];
                i -= 1;
            }
            self.top[i] = (d, cell);
        }
        if d < self.bottom[KEPT - 1].0 {
            let mut i = KEPT - 1;
            while i > 0 && self.bottom[i - 1].0 > d {
                self.bottom[i] = self.bottom[i - 1];
                i -= 1;
            }
            self.bottom[i] = (d, cell);
        }
    }

    /// The largest and the [`WORST_KEPT`] smallest deltas of the cells not excluded, or
    /// `None` when too many kept cells are excluded to know them (the caller then rescans).
    fn without(&self, excluded: impl Fn(Cell) -> bool) -> Option<(i32, [i32; WORST_KEPT])> {
        let best = self
            .top
            .iter()
            .find(|&&(v, c)| v == i32::MIN || !excluded(c))?;
        let mut worst = [i32::MAX; WORST_KEPT];
        let mut n = 0;
        for &(v, c) in &self.bottom {
            if v == i32::MAX || n == WORST_KEPT {
                return Some((best.0, worst));
            }
            if !excluded(c) {
                worst[n] = v;
                n += 1;
            }
        }
        (n == WORST_KEPT).then_some((best.0, worst))
    }
}

/// Buffers of the batched evaluation, kept between calls so that the search allocates
/// nothing on its hot path. Sized for a board on first use.
#[derive(Default)]
pub struct Scratch {
    info: Vec<CellInfo>,
    room_count: Vec<u16>,
    redone: Vec<bool>,
    around: Vec<(Cell, i32, Cell)>,
}

/// The parent's analysis: every empty cell's info and each colour's sums.
struct Parent<'a> {
    info: &'a mut [CellInfo],
    extremes: [Extremes; MAX_PLAYERS],
    losses: [i32; MAX_PLAYERS],
    growth: [i32; MAX_PLAYERS],
    /// For each small group (by root): how many empty cells are room for it.
    room_count: &'a mut [u16],
}

fn analyse_parent<'a>(
    game: &Game,
    info: &'a mut [CellInfo],
    room_count: &'a mut [u16],
) -> Parent<'a> {
    let k = game.players();
    room_count.fill(0);
    let mut p = Parent {
        info,
        extremes: [Extremes::NONE; MAX_PLAYERS],
        losses: [0; MAX_PLAYERS],
        growth: [0; MAX_PLAYERS],
        room_count,
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
pub fn leaf_children_values(
    game: &mut Game,
    player: Colour,
    moves: &[Cell],
    scratch: &mut Scratch,
    out: &mut Vec<i32>,
) {
    let k = game.players();
    let star = game.next_stone_colour().index();
    let n = game.board().cell_count();
    if scratch.info.len() != n {
        let blank = CellInfo {
            delta: [0; MAX_PLAYERS],
            room_for: [NO_GROUP; MAX_PLAYERS],
            groups: [0; MAX_PLAYERS],
        };
        scratch.info = vec![blank; n];
        scratch.room_count = vec![0; n];
        scratch.redone = vec![false; n];
    }
    let Scratch {
        info,
        room_count,
        redone,
        around,
    } = scratch;
    let parent = analyse_parent(game, info, room_count);
    for &x in moves {
        let mut scans = [ColourScan::default(); MAX_PLAYERS];
        // Colours other than c*: the parent's cells without x.
        for c in (0..k).filter(|&c| c != star) {
            // With KEPT > WORST_KEPT, excluding one cell always leaves enough kept entries.
            let (best, worst) = parent.extremes[c]
                .without(|cell| cell == x)
                .expect("KEPT > WORST_KEPT");
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
        for &g in joined.iter().filter(|&&g| g != NO_GROUP) {
            if parent.room_count[g as usize] > 0 {
                growth -= growth_weight(game.root_size(g));
            }
        }
        game.place(x);
        let group = game.root(x);
        around.clear();
        cells_around_group(game, group, star, parent.info, redone, around);
        // A cell next to x that was room for another small group touches two groups now.
        // (A cell next to a joined group was room for that group or for none.)
        let mut lost: [(Cell, u16); 6] = [(NO_GROUP, 0); 6];
        let mut lost_n = 0;
        for &cell in game.board().neighbours(x) {
            if game.stone_index(cell) != u8::MAX {
                continue;
            }
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
        if size <= 2 && around.iter().any(|&(_, _, room)| room == group) {
            growth += growth_weight(size);
        }
        // The cells analysed again leave their old deltas and bring new ones; x leaves.
        let mut totals = Totals {
            growth,
            ..Totals::EMPTY
        };
        match parent.extremes[star].without(|cell| cell == x || redone[cell as usize]) {
            Some((best, worst)) => (totals.best, totals.worst) = (best, worst),
            None => {
                for &cell in game.empties() {
                    if !redone[cell as usize] {
                        totals.add(parent.info[cell as usize].delta[star]);
                    }
                }
            }
        }
        totals.losses = parent.losses[star] - parent.info[x as usize].delta[star].min(0);
        for &(cell, delta, _) in around.iter() {
            totals.losses -= parent.info[cell as usize].delta[star].min(0);
            totals.add(delta);
            redone[cell as usize] = false;
        }
        scans[star] = totals.finish();
        out.push(relative(&values_from_scans(game, &scans), k, player));
        game.unplace();
    }
}

/// The distinct roots of `colour`'s groups next to the empty cell `x` (padded with
/// [`NO_GROUP`]).
fn joined_roots(game: &Game, x: Cell, colour: usize) -> [Cell; 6] {
    let mut roots = [NO_GROUP; 6];
    let mut n = 0;
    for &nb in game.board().neighbours(x) {
        if game.stone_index(nb) as usize == colour {
            let r = game.root(nb);
            if !roots[..n].contains(&r) {
                roots[n] = r;
                n += 1;
            }
        }
    }
    roots
}

/// The empty cells next to the group of root `group` (just joined by the last stone), with
/// their delta and growth room for `colour` in the current position, each once (marked in
/// `redone`). `before` is the analysis of the position before that stone.
fn cells_around_group(
    game: &Game,
    group: Cell,
    colour: usize,
    before: &[CellInfo],
    redone: &mut [bool],
    out: &mut Vec<(Cell, i32, Cell)>,
) {
    let size = game.root_size(group);
    // A cell that touched no group of the colour before touches only this one now.
    let alone = ln1000(size + 1) - ln1000(size);
    let alone_room = if size <= 2 { group } else { NO_GROUP };
    let mut m = group;
    loop {
        for &nb in game.board().neighbours(m) {
            if game.stone_index(nb) == u8::MAX && !redone[nb as usize] {
                redone[nb as usize] = true;
                let (delta, room) = if before[nb as usize].groups[colour] == 0 {
                    (alone, alone_room)
                } else {
                    colour_cell_info(game, nb, colour)
                };
                out.push((nb, delta, room));
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
                if game.next_stone_ends_game() || game.empties().len() < 3 {
                    continue;
                }
                let moves = game.empties().to_vec();
                for player in game.colours().collect::<Vec<_>>() {
                    let mut got = Vec::new();
                    let mut scratch = Scratch::default();
                    leaf_children_values(&mut game, player, &moves, &mut scratch, &mut got);
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

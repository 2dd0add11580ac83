//! The evaluation: what a position is worth to each colour, in fixed-point log units
//! (1000 = a factor e on the final score), since the score is a product and only its
//! logarithm adds up.
//!
//! Terms, for a colour c (see [`colour_values`]):
//! 1. **Log-score** `L_c = Σ 1000 ln(size)` over c's groups: what c would score now.
//! 2. **Growth room**: singletons and pairs are where c gains most (1 → 2 doubles a
//!    factor, 2 → 3 multiplies it by 1.5), but only the ones with an empty neighbour that
//!    touches no other c-group can still grow without risk; each is worth a share of its gain.
//! 3. **Merge cells**: an empty cell touching two or more c-groups whose union would shrink
//!    the product (3 and 3 make 7 < 9) is a place where any opponent can hurt c with one
//!    c-stone. Their losses are summed, the worst counted in full, the others at a share,
//!    because each opponent turn places only one c-stone.
//! 4. **Tempo**: the player to move places the next stone of every colour. It will take the
//!    best gain for its own colour and the worst cell for each other colour, so those are
//!    added (for the mover) or subtracted (for the others) before comparing.
//!
//! The value of a position for a player p is then `V_p - max_{o != p} V_o`: with two players
//! the plain difference, with more the paranoid view (p against the strongest other).

use crate::board::Cell;
use crate::game::{ln1000, Colour, Game, MAX_PLAYERS};

mod batch;
pub use batch::leaf_children_values;

/// Share of a singleton's or pair's gain counted for growth room.
const GROWTH_SHARE_SINGLE: i32 = 300;
const GROWTH_SHARE_PAIR: i32 = 180;
/// Share (per mille) of the merge losses other than the worst one.
const OTHER_THREATS_SHARE: i32 = 250;

/// The change of `1000 ln(score)` of `colour` if a stone of that colour went on the empty
/// cell `cell`: 0 for a lone stone, `ln((s+1)/s)` for growing a group of s, and the
/// difference of logs when it joins several groups.
#[inline]
pub fn placement_delta(game: &Game, colour: Colour, cell: Cell) -> i32 {
    let mut roots = [0 as Cell; 6];
    let mut n = 0;
    let mut joined = 1usize;
    let mut before = 0;
    for &nb in game.board().neighbours(cell) {
        if game.stone(nb) == Some(colour) {
            let r = game.root(nb);
            if !roots[..n].contains(&r) {
                roots[n] = r;
                n += 1;
                let s = game.group_size(r);
                joined += s;
                before += ln1000(s);
            }
        }
    }
    if n == 0 {
        0
    } else {
        ln1000(joined) - before
    }
}

/// What one empty cell means to every colour.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CellInfo {
    /// `placement_delta` of each colour on this cell (0 where it touches none of its groups).
    pub delta: [i32; MAX_PLAYERS],
    /// The root of the one group of each colour this cell touches, if it touches exactly one
    /// and that group is small (size 1 or 2): the cell is room for that group to grow.
    pub room_for: [Cell; MAX_PLAYERS],
}

pub(crate) const NO_GROUP: Cell = Cell::MAX;

/// Analyses one empty cell: one pass over its neighbours serves all colours.
#[inline]
pub(crate) fn cell_info(game: &Game, cell: Cell) -> CellInfo {
    let mut info = CellInfo {
        delta: [0; MAX_PLAYERS],
        room_for: [NO_GROUP; MAX_PLAYERS],
    };
    if game.stone_neighbours(cell) == 0 {
        return info;
    }
    let mut seen = [NO_GROUP; 6];
    let mut n = 0;
    let mut joined = [1usize; MAX_PLAYERS];
    let mut count = [0u8; MAX_PLAYERS];
    for &nb in game.board().padded_neighbours(cell) {
        let c = game.stone_index(nb) as usize;
        if c >= MAX_PLAYERS {
            continue;
        }
        let root = game.root(nb);
        if seen[..n].contains(&root) {
            continue;
        }
        seen[n] = root;
        n += 1;
        let size = game.root_size(root);
        joined[c] += size;
        info.delta[c] -= ln1000(size);
        count[c] += 1;
        info.room_for[c] = if size <= 2 { root } else { NO_GROUP };
    }
    for c in 0..MAX_PLAYERS {
        if count[c] > 0 {
            info.delta[c] += ln1000(joined[c]);
        }
        if count[c] != 1 {
            info.room_for[c] = NO_GROUP;
        }
    }
    info
}

/// The growth weight of a small group of `size`.
#[inline]
pub(crate) fn growth_weight(size: usize) -> i32 {
    if size == 1 {
        GROWTH_SHARE_SINGLE
    } else {
        GROWTH_SHARE_PAIR
    }
}

/// Raw sums over the empty cells for one colour, before they become a [`ColourScan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Totals {
    pub best: i32,
    pub worst: i32,
    /// Sum of the negative deltas.
    pub losses: i32,
    pub growth: i32,
}

impl Totals {
    pub const EMPTY: Totals = Totals {
        best: i32::MIN,
        worst: i32::MAX,
        losses: 0,
        growth: 0,
    };

    #[inline]
    pub fn add(&mut self, d: i32) {
        self.best = self.best.max(d);
        self.worst = self.worst.min(d);
        self.losses += d.min(0);
    }

    pub fn finish(self) -> ColourScan {
        // No empty cell at all: nothing to gain or lose.
        let (best, worst) = if self.best == i32::MIN {
            (0, 0)
        } else {
            (self.best, self.worst)
        };
        ColourScan {
            best_gain: best,
            worst,
            other_losses: (self.losses - worst.min(0)) * OTHER_THREATS_SHARE / 1000,
            growth: self.growth,
        }
    }
}

/// What a scan of the empty cells tells about one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColourScan {
    /// Largest `placement_delta` over the empty cells (what its owner can gain now).
    pub best_gain: i32,
    /// Smallest `placement_delta` (what an opponent can do to it now).
    pub worst: i32,
    /// Sum of the negative deltas other than the worst, at a share.
    pub other_losses: i32,
    /// Small groups with room to grow, weighted.
    pub growth: i32,
}

/// Scans the empty cells once for every colour in play.
pub fn scan(game: &Game) -> [ColourScan; MAX_PLAYERS] {
    let k = game.players();
    let mut totals = [Totals::EMPTY; MAX_PLAYERS];
    // One bit a cell (469 cells at most): the small groups already counted as growable.
    let mut grow_seen = [0u64; 8];
    for &cell in game.empties() {
        let info = cell_info(game, cell);
        for (c, total) in totals.iter_mut().enumerate().take(k) {
            total.add(info.delta[c]);
            let root = info.room_for[c];
            if root != NO_GROUP {
                let (word, bit) = (root as usize / 64, 1u64 << (root % 64));
                if grow_seen[word] & bit == 0 {
                    grow_seen[word] |= bit;
                    total.growth += growth_weight(game.root_size(root));
                }
            }
        }
    }
    let mut out = [ColourScan::default(); MAX_PLAYERS];
    for c in 0..k {
        out[c] = totals[c].finish();
    }
    out
}

/// Every colour's value at a turn boundary, with tempo for the player to move.
pub fn colour_values(game: &Game) -> [i32; MAX_PLAYERS] {
    values_from_scans(game, &scan(game))
}

/// Combines the scans with the log-scores and the tempo of the player to move.
pub(crate) fn values_from_scans(
    game: &Game,
    scans: &[ColourScan; MAX_PLAYERS],
) -> [i32; MAX_PLAYERS] {
    let mover = game.to_move();
    let mut v = [0; MAX_PLAYERS];
    for colour in game.colours() {
        let c = colour.index();
        let s = &scans[c];
        let tempo = if colour == mover {
            s.best_gain
        } else {
            s.worst
        };
        v[c] = game.colour_state(colour).log_score + s.growth + s.other_losses + tempo;
    }
    v
}

/// The value of the position for `player`: its value minus the best other colour's.
pub fn evaluate(game: &Game, player: Colour) -> i32 {
    relative(&colour_values(game), game.players(), player)
}

/// `values[p] - max over others`.
pub fn relative(values: &[i32; MAX_PLAYERS], players: usize, player: Colour) -> i32 {
    let p = player.index();
    let best_other = (0..players)
        .filter(|&c| c != p)
        .map(|c| values[c])
        .max()
        .unwrap_or(0);
    values[p] - best_other
}

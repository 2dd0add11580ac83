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

/// What a scan of the empty cells tells about one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColourScan {
    /// Largest `placement_delta` over the empty cells (what its owner can gain now).
    pub best_gain: i32,
    /// Smallest `placement_delta` (what an opponent can do to it now; 0 if a lone cell exists).
    pub worst: i32,
    /// Sum of the negative deltas other than the worst.
    pub other_losses: i32,
    /// Small groups with room to grow, weighted.
    pub growth: i32,
}

/// Scans the empty cells once for every colour in play.
pub fn scan(game: &Game) -> [ColourScan; MAX_PLAYERS] {
    let k = game.players();
    let mut out = [ColourScan::default(); MAX_PLAYERS];
    let mut worst = [i32::MAX; MAX_PLAYERS];
    let mut losses = [0i32; MAX_PLAYERS];
    let mut best = [i32::MIN; MAX_PLAYERS];
    // One bit a cell (469 cells at most): the small groups already counted.
    let mut grow_seen = [0u64; 8];
    for &cell in game.empties() {
        for colour in game.colours() {
            let d = placement_delta(game, colour, cell);
            let c = colour.index();
            best[c] = best[c].max(d);
            worst[c] = worst[c].min(d);
            if d < 0 {
                losses[c] += d;
            }
            // Growth room: a cell touching exactly one small group of this colour.
            if d > 0 && d >= ln1000(3) - ln1000(2) {
                if let Some(root) = single_small_group(game, colour, cell) {
                    let (word, bit) = (root as usize / 64, 1u64 << (root % 64));
                    if grow_seen[word] & bit == 0 {
                        grow_seen[word] |= bit;
                        out[c].growth += match game.group_size(root) {
                            1 => GROWTH_SHARE_SINGLE,
                            _ => GROWTH_SHARE_PAIR,
                        };
                    }
                }
            }
        }
    }
    for c in 0..k {
        if worst[c] == i32::MAX {
            worst[c] = 0;
            best[c] = 0;
        }
        out[c].best_gain = best[c];
        out[c].worst = worst[c];
        out[c].other_losses = (losses[c] - worst[c].min(0)) * OTHER_THREATS_SHARE / 1000;
    }
    out
}

/// The root of the one group of `colour` of size 1 or 2 that `cell` touches, if it touches
/// exactly one group of that colour and it is that small.
fn single_small_group(game: &Game, colour: Colour, cell: Cell) -> Option<Cell> {
    let mut found = None;
    for &nb in game.board().neighbours(cell) {
        if game.stone(nb) == Some(colour) {
            let r = game.root(nb);
            match found {
                None => found = Some(r),
                Some(f) if f != r => return None,
                _ => {}
            }
        }
    }
    found.filter(|&r| game.group_size(r) <= 2)
}

/// Every colour's value at a turn boundary, with tempo for the player to move.
pub fn colour_values(game: &Game) -> [i32; MAX_PLAYERS] {
    let scans = scan(game);
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

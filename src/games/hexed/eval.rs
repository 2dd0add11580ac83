//! The heuristic evaluation of a Hexed position, in the manner of the classic Othello
//! programs: current mobility, potential mobility, corners and stable stones, and the cells
//! next to empty corners. The features are the ones Rosenbloom's Iago (Artificial
//! Intelligence 19, 1982) and Buro's survey "The Evolution of Strong Othello Programs"
//! (2003) name (mobility, potential mobility, stability; the mobility as a ratio
//! `(a - b) / (a + b)` as Iago scores it); the cells, lines and weights are this board's,
//! the weights chosen by measurement (see docs/hexed.md).

use super::geometry::{shift, Bits, CELLS, CORNERS, DIRS, EDGE, NEIGHBOURS, VALID};
use super::state::{placements, State};
use std::sync::LazyLock;

/// Weights of the features, in evaluation units (a stone is about 100 at the end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Times 100 (a - b) / (a + b + 2) of the two colours' placements.
    pub mobility: i32,
    /// Times 100 (a - b) / (a + b + 2) of the empty cells next to the other colour's
    /// stones (where placements may come).
    pub potential: i32,
    /// A stone on a corner (never flipped).
    pub corner: i32,
    /// A stone that can no longer be flipped (corners included).
    pub stable: i32,
    /// A stone next to an empty corner (it opens the corner to the other colour).
    pub near_corner: i32,
    /// A stone (the count itself; small, the end is solved exactly).
    pub stone: i32,
}

/// The weights the players use (measured: docs/hexed.md).
pub const WEIGHTS: Weights = Weights {
    mobility: 16,
    potential: 4,
    corner: 400,
    stable: 60,
    near_corner: -120,
    stone: 0,
};

/// The cells next to a corner, by corner (an empty corner makes them dangerous).
static NEXT_TO_CORNER: LazyLock<Vec<(Bits, Bits)>> = LazyLock::new(|| {
    (0..CELLS)
        .filter(|&c| super::geometry::bit(c) & CORNERS != 0)
        .map(|c| (super::geometry::bit(c), NEIGHBOURS[c]))
        .collect()
});

/// The lines of the board along each of the three axes (north, north-east, south-east).
static LINES: LazyLock<[Vec<Bits>; 3]> = LazyLock::new(|| {
    std::array::from_fn(|axis| {
        let d = DIRS[axis];
        // A line starts at each cell whose step backwards leaves the board.
        let mut starts = EDGE[axis + 3];
        let mut lines = Vec::new();
        while starts != 0 {
            let mut x = starts & starts.wrapping_neg();
            starts &= starts - 1;
            let mut line = 0;
            while x & VALID != 0 {
                line |= x;
                x = shift(x, d);
            }
            lines.push(line);
        }
        lines
    })
});

/// The stones of `own` that can never be flipped (an under-estimate): on each axis, the line
/// is full, or a neighbour along it is off the board or itself such a stone.
pub fn stable(own: Bits, occupied: Bits) -> Bits {
    let mut full = [0 as Bits; 3];
    for (axis, lines) in LINES.iter().enumerate() {
        for &l in lines {
            if occupied & l == l {
                full[axis] |= l;
            }
        }
    }
    let mut st: Bits = 0;
    loop {
        let mut candidates = own;
        for axis in 0..3 {
            let d = DIRS[axis];
            let ends_forward = EDGE[axis] | shift(st, -d);
            let ends_backward = EDGE[axis + 3] | shift(st, d);
            candidates &= full[axis] | ends_forward | ends_backward;
        }
        let next = st | candidates;
        if next == st {
            return st;
        }
        st = next;
    }
}

/// The empty cells next to a stone of `stones`.
fn frontier(stones: Bits, empty: Bits) -> Bits {
    DIRS.iter().fold(0, |acc, &d| acc | shift(stones, d)) & empty
}

fn ratio(a: u32, b: u32) -> i32 {
    100 * (a as i32 - b as i32) / (a as i32 + b as i32 + 2)
}

/// The heuristic value of `s` for `colour` (positive is good), with `mover_placements` the
/// placements of the colour to move (known to the caller).
pub fn evaluate(s: &State, colour: usize, mover_placements: Bits, w: &Weights) -> i32 {
    let (me, them) = (s.stones[colour], s.stones[1 - colour]);
    let other_placements = placements(s.stones[1 - s.mover], s.stones[s.mover]);
    let (my_moves, their_moves) = if s.mover == colour {
        (mover_placements, other_placements)
    } else {
        (other_placements, mover_placements)
    };
    let empty = VALID & !(me | them);
    let occupied = me | them;
    let mut v = w.mobility * ratio(my_moves.count_ones(), their_moves.count_ones());
    v += w.potential
        * ratio(
            frontier(them, empty).count_ones(),
            frontier(me, empty).count_ones(),
        );
    v += w.corner * ((me & CORNERS).count_ones() as i32 - (them & CORNERS).count_ones() as i32);
    v += w.stable
        * (stable(me, occupied).count_ones() as i32 - stable(them, occupied).count_ones() as i32);
    for &(corner, next) in NEXT_TO_CORNER.iter() {
        if corner & empty != 0 {
            v += w.near_corner
                * ((me & next).count_ones() as i32 - (them & next).count_ones() as i32);
        }
    }
    v + w.stone * (me.count_ones() as i32 - them.count_ones() as i32)
}

/// A cheap preference for a placement on `cell` (move ordering): corners first, cells next
/// to empty corners last.
pub fn order_score(s: &State, cell: usize) -> i32 {
    let b = super::geometry::bit(cell);
    if b & CORNERS != 0 {
        return 3;
    }
    let empty = s.empties();
    let near_empty_corner = NEIGHBOURS[cell] & CORNERS & empty != 0;
    if near_empty_corner {
        return -3;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::super::geometry::{bit, parse_cell};
    use super::*;

    fn set(names: &[&str]) -> Bits {
        names
            .iter()
            .fold(0, |acc, n| acc | bit(parse_cell(n).unwrap()))
    }

    #[test]
    fn corners_are_stable_and_lines_are_whole() {
        assert_eq!(
            LINES
                .iter()
                .map(|l| l.iter().fold(0, |a, &b| a | b))
                .collect::<Vec<_>>(),
            vec![VALID; 3]
        );
        let own = set(&["a1", "a2", "e4"]);
        let st = stable(own, own);
        assert_eq!(
            st,
            set(&["a1", "a2"]),
            "a1 a corner, a2 leans on it and the edge"
        );
        // A full column a: every stone on it ends its diagonals at the edge.
        let col: Vec<String> = (1..=7).map(|r| format!("a{r}")).collect();
        let col: Vec<&str> = col.iter().map(String::as_str).collect();
        assert_eq!(stable(set(&col), set(&col)), set(&col));
    }
}

//! The turns of the player to move in a tree's order, scanned for the first one an exact
//! check accepts: how the last-round checks trade a tree's turn that loses for sure
//! (`before_last.rs`, `last_round.rs`).
//!
//! Why an order and not the best turn by an exact model: the exact checks know only sure
//! outcomes, not what a search makes of the rest, and the tree's visits rank the turns a
//! check leaves open by the search's own judgement. Models of a lost player's choice, the
//! alternative, lost games ("The last round of three players, solved" in docs/strength.md).

use crate::board::Cell;

/// The trade of the last-round checks: when the tree's `turn` is `lost` (given its indices
/// by `index`, colour order), the first turn in the order `order` gives that is not (as for
/// [`first_accepted`]). `None` when `turn` is not lost, when one of its cells is unknown to
/// `index`, when no turn is not lost, or when `lost` says `None` (a deadline).
pub fn first_not_lost(
    turn: &[Cell],
    order: impl FnMut(&[Cell]) -> Vec<Cell>,
    index: impl Fn(Cell) -> Option<usize>,
    mut lost: impl FnMut(&[usize]) -> Option<bool>,
) -> Option<Vec<Cell>> {
    let own: Vec<usize> = turn
        .iter()
        .map(|&cell| index(cell))
        .collect::<Option<_>>()?;
    if !lost(&own)? {
        return None;
    }
    first_accepted(order, index, turn.len(), |at| lost(at).map(|l| !l))
}

/// The first turn of `stones` cells, in the order `order` gives, that `accept` accepts.
/// `order(chosen)` lists the cells to try for the next stone given the cells chosen so far
/// in colour order, best first (every free cell not chosen must be among them; cells that
/// `index` does not know are skipped); `accept` is given the turn's indices (by `index`, in
/// colour order) and says whether to take it, or `None` to stop the scan (a deadline).
/// `None` when no turn is accepted or the scan was stopped.
fn first_accepted(
    mut order: impl FnMut(&[Cell]) -> Vec<Cell>,
    index: impl Fn(Cell) -> Option<usize>,
    stones: usize,
    mut accept: impl FnMut(&[usize]) -> Option<bool>,
) -> Option<Vec<Cell>> {
    let mut scan = Scan {
        stones,
        chosen: Vec::with_capacity(stones),
        at: Vec::with_capacity(stones),
        stopped: false,
    };
    let found = scan.next(&mut order, &index, &mut accept);
    found.filter(|_| !scan.stopped)
}

struct Scan {
    stones: usize,
    /// The cells of the turn so far, colour order, and their indices.
    chosen: Vec<Cell>,
    at: Vec<usize>,
    stopped: bool,
}

impl Scan {
    /// The first accepted turn extending `chosen`; `chosen` and `at` are as given on return.
    fn next(
        &mut self,
        order: &mut impl FnMut(&[Cell]) -> Vec<Cell>,
        index: &impl Fn(Cell) -> Option<usize>,
        accept: &mut impl FnMut(&[usize]) -> Option<bool>,
    ) -> Option<Vec<Cell>> {
        if self.chosen.len() == self.stones {
            return match accept(&self.at) {
                Some(true) => Some(self.chosen.clone()),
                Some(false) => None,
                None => {
                    self.stopped = true;
                    None
                }
            };
        }
        for cell in order(&self.chosen) {
            if self.stopped {
                return None;
            }
            let Some(i) = index(cell) else {
                continue;
            };
            if self.at.contains(&i) {
                continue;
            }
            self.at.push(i);
            self.chosen.push(cell);
            let found = self.next(order, index, accept);
            self.chosen.pop();
            self.at.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells 0..n in increasing order at every stone.
    fn ascending(n: u16) -> impl FnMut(&[Cell]) -> Vec<Cell> {
        move |_: &[Cell]| (0..n).collect()
    }

    #[test]
    fn the_scan_takes_the_first_accepted_turn_in_order_with_distinct_cells() {
        let mut seen = Vec::new();
        let found = first_accepted(
            ascending(4),
            |c| Some(c as usize),
            2,
            |at| {
                seen.push(at.to_vec());
                Some(at == [2, 1])
            },
        );
        assert_eq!(found, Some(vec![2, 1]));
        // Lexicographic order, never a repeated cell, and nothing after the accepted turn.
        let expected: Vec<Vec<usize>> = vec![
            vec![0, 1],
            vec![0, 2],
            vec![0, 3],
            vec![1, 0],
            vec![1, 2],
            vec![1, 3],
            vec![2, 0],
            vec![2, 1],
        ];
        assert_eq!(seen, expected);
    }

    #[test]
    fn the_scan_skips_unknown_cells_and_stops_when_told() {
        // Cell 1 is not free: never offered.
        let found = first_accepted(
            ascending(3),
            |c| (c != 1).then_some(c as usize),
            2,
            |at| {
                assert!(!at.contains(&1));
                Some(false)
            },
        );
        assert_eq!(found, None);
        // A stop ends the scan at once, even with acceptable turns after it.
        let mut calls = 0;
        let found = first_accepted(
            ascending(5),
            |c| Some(c as usize),
            2,
            |_| {
                calls += 1;
                (calls != 3).then_some(false)
            },
        );
        assert_eq!((found, calls), (None, 3));
    }
}

//! The 12 symmetries of the hexagonal board (6 rotations, each with and without a
//! reflection), as permutations of its cells.
//!
//! A cell (col, row) is, from the centre, (a, b) = (col - N + 1, row - N + 1); its six
//! neighbours differ by ±(1, 0), ±(0, 1) and ±(1, 1). In cube coordinates
//! (x, y, z) = (a, b - a, -b) these are the six unit steps, a rotation by 60 degrees is
//! (x, y, z) -> (-z, -x, -y) and a reflection swaps y and z (after Red Blob Games' notes on
//! hexagonal grids).

use crate::board::{Board, Cell, Coord};

/// For each of the 12 symmetries, the image of every cell; the first is the identity.
pub fn symmetries(board: &Board) -> Vec<Vec<Cell>> {
    let centre = board.side() as i64 - 1;
    let mut all = Vec::with_capacity(12);
    for reflect in [false, true] {
        for turns in 0..6 {
            let image = board
                .cells()
                .map(|cell| {
                    let Coord { col, row } = board.coord(cell);
                    let (a, b) = (col as i64 - centre, row as i64 - centre);
                    let (mut x, mut y, mut z) = (a, b - a, -b);
                    if reflect {
                        std::mem::swap(&mut y, &mut z);
                    }
                    for _ in 0..turns {
                        (x, y, z) = (-z, -x, -y);
                    }
                    let _ = y;
                    let coord = Coord {
                        col: (x + centre) as usize,
                        row: (-z + centre) as usize,
                    };
                    board
                        .cell(coord)
                        .expect("a symmetry maps the hexagon onto itself")
                })
                .collect();
            all.push(image);
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symmetry_is_a_distinct_permutation_that_keeps_adjacency() {
        for side in 2..=6 {
            let board = Board::new(side);
            let all = symmetries(&board);
            assert_eq!(all.len(), 12);
            assert!(all[0].iter().enumerate().all(|(c, &i)| c == i as usize));
            for (k, image) in all.iter().enumerate() {
                let mut seen = vec![false; board.cell_count()];
                for &i in image {
                    assert!(!std::mem::replace(&mut seen[i as usize], true));
                }
                for a in board.cells() {
                    for &b in board.neighbours(a) {
                        let (ia, ib) = (image[a as usize], image[b as usize]);
                        assert!(board.neighbours(ia).contains(&ib), "side {side} sym {k}");
                    }
                }
                // Distinct: no two symmetries agree on every cell.
                assert!(all[..k].iter().all(|other| other != image));
            }
        }
    }
}

//! Yavalath's geometry on top of [`Board`]: the three axes through every cell (a step table),
//! the Zobrist keys, and a small fixed-size set of cells.

use crate::board::{Board, Cell, Coord};
use crate::game::mix64;

/// The six steps in (column, row); `2a` and `2a + 1` are the two directions of axis `a`.
const STEPS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)];
/// Cells at most (side 8: 169 cells).
pub const MAX_CELLS: usize = 192;
/// Stones a placement can join along one direction and still matter: the longest run an
/// active colour can hold is 2 (3 ends its game), a colour that is out holds at most 3, so a
/// stone changes the status of empty cells at most 4 steps away.
pub const REACH: usize = 4;

/// The board and the tables every copy of a game shares.
pub struct Geometry {
    pub board: Board,
    /// `step[cell * 6 + d]`: the neighbour of `cell` in direction `d`, or `NONE`.
    step: Vec<Cell>,
    /// `zobrist[colour * cells + cell]`.
    zobrist: Vec<u64>,
    /// Keys of the state besides the stones: the mover (3), each colour out (3), the swap.
    pub mover_key: [u64; 3],
    pub out_key: [u64; 3],
    pub swap_key: u64,
    /// Every line of 4 cells along an axis (the evaluations count what each holds).
    pub windows: Vec<[Cell; 4]>,
}

pub const NONE: Cell = Cell::MAX;

/// Only the side: the tables follow from it (and would flood a game's debug print).
impl std::fmt::Debug for Geometry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Geometry(side {})", self.board.side())
    }
}

impl Geometry {
    /// Contract: `Board::side_is_valid(side)` and the board has at most [`MAX_CELLS`] cells.
    pub fn new(side: usize) -> Geometry {
        let board = Board::new(side);
        let n = board.cell_count();
        assert!(n <= MAX_CELLS, "side {side} too large");
        let mut step = vec![NONE; n * 6];
        for cell in board.cells() {
            let Coord { col, row } = board.coord(cell);
            for (d, (dc, dr)) in STEPS.iter().enumerate() {
                let (c, r) = (col as i32 + dc, row as i32 + dr);
                if c >= 0 && r >= 0 {
                    let to = board.cell(Coord {
                        col: c as usize,
                        row: r as usize,
                    });
                    step[cell as usize * 6 + d] = to.unwrap_or(NONE);
                }
            }
        }
        // splitmix64 from a fixed seed: the same hashes on every run (reproducible searches).
        let mut state: u64 = 0x7a7a_1a7f_0000_0005 ^ side as u64;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            mix64(state)
        };
        let zobrist = (0..3 * n).map(|_| next()).collect();
        let mover_key = [next(), next(), next()];
        let out_key = [next(), next(), next()];
        let swap_key = next();
        let mut windows = Vec::new();
        for cell in board.cells() {
            for d in [0, 2, 4] {
                let mut w = [cell; 4];
                for k in 1..4 {
                    let prev = w[k - 1];
                    w[k] = if prev == NONE {
                        NONE
                    } else {
                        step[prev as usize * 6 + d]
                    };
                }
                if w[3] != NONE {
                    windows.push(w);
                }
            }
        }
        Geometry {
            windows,
            board,
            step,
            zobrist,
            mover_key,
            out_key,
            swap_key,
        }
    }

    pub fn cells(&self) -> usize {
        self.board.cell_count()
    }

    /// The neighbour of `cell` in direction `d` (0..6), or [`NONE`].
    #[inline]
    pub fn step(&self, cell: Cell, d: usize) -> Cell {
        self.step[cell as usize * 6 + d]
    }

    #[inline]
    pub fn key(&self, colour: usize, cell: Cell) -> u64 {
        self.zobrist[colour * self.cells() + cell as usize]
    }

    /// The longest run of `mark` through `cell` along each axis if `cell` held `mark`
    /// (whatever it holds now), as the longest of the three and whether one is exactly 3.
    #[inline]
    pub fn runs(&self, stones: &[u8], cell: Cell, mark: u8) -> (usize, bool) {
        let mut longest = 0;
        let mut three = false;
        for axis in 0..3 {
            let mut run = 1;
            for d in [2 * axis, 2 * axis + 1] {
                let mut c = self.step(cell, d);
                while c != NONE && stones[c as usize] == mark {
                    run += 1;
                    c = self.step(c, d);
                }
            }
            longest = longest.max(run);
            three |= run == 3;
        }
        (longest, three)
    }
}

/// A set of cells of one board, as a fixed bit array.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CellSet([u64; MAX_CELLS / 64]);

impl CellSet {
    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        self.0[c as usize >> 6] >> (c & 63) & 1 != 0
    }
    #[inline]
    pub fn set(&mut self, c: Cell, on: bool) {
        let (w, b) = (c as usize >> 6, c & 63);
        self.0[w] = (self.0[w] & !(1 << b)) | ((on as u64) << b);
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// The lowest cell of the set.
    #[inline]
    pub fn first(&self) -> Option<Cell> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| (i * 64 + w.trailing_zeros() as usize) as Cell)
    }
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    (i * 64 + b) as Cell
                })
            })
        })
    }
}

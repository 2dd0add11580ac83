//! Board geometry: the hexhex board of side N, its cells, neighbour tables and notation.
//!
//! No stones live here. Cells are dense indices `0..cell_count()`, numbered row by row from
//! row 1 upwards and left to right inside a row, so every table elsewhere can be a flat `Vec`.
//!
//! Coordinates: column `c` and row `r`, counted from 0, index a rhombus of (2N-1) x (2N-1)
//! positions; the cell exists iff |c - r| <= N-1. Neighbours of (c, r) are (c±1, r),
//! (c, r±1), (c+1, r+1) and (c-1, r-1).

use std::fmt;

/// Index of a cell on one board (at most 469 cells on side 13).
pub type Cell = u16;

pub const MIN_SIDE: usize = 2;
pub const MAX_SIDE: usize = 13;

/// Column letters: a, b, c, ... skipping `i`, as Go and Hex tools do. 25 letters cover the
/// 2N-1 = 25 columns of side 13.
const COLUMN_LETTERS: &[u8; 25] = b"abcdefghjklmnopqrstuvwxyz";

/// The six neighbour offsets in (column, row).
const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)];

/// A column and a row counted from 0: a position of the rhombus, on the board or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    pub col: usize,
    pub row: usize,
}

/// Why a word does not name a cell of this board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The word is not of the form `<letter><row number>`.
    Syntax(String),
    /// The word is a well-formed cell name, but that cell is not on this board.
    OffBoard(String),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Syntax(w) => write!(f, "'{w}' is not a cell name"),
            NotationError::OffBoard(w) => write!(f, "{w} is off the board"),
        }
    }
}

/// Geometry of the hexhex board of one side.
#[derive(Clone, Debug)]
pub struct Board {
    side: usize,
    /// 2N-1: the width of the rhombus of coordinates.
    width: usize,
    coords: Vec<Coord>,
    /// Rhombus position `row * width + col` to cell, `None` outside the hexagon.
    cell_at: Vec<Option<Cell>>,
    /// `neighbours[neighbour_start[c]..neighbour_start[c + 1]]` are the neighbours of `c`.
    neighbours: Vec<Cell>,
    neighbour_start: Vec<u32>,
    /// The same neighbours, always six, padded with [`Board::outside`]: fixed-length loops
    /// for the hot paths.
    padded: Vec<[Cell; 6]>,
}

impl Board {
    /// The board of side `side`. Panics outside `MIN_SIDE..=MAX_SIDE`: callers validate input
    /// with [`Board::side_is_valid`] first.
    pub fn new(side: usize) -> Board {
        assert!(Self::side_is_valid(side), "side {side} out of range");
        let width = 2 * side - 1;
        let mut coords = Vec::new();
        let mut cell_at = vec![None; width * width];
        for row in 0..width {
            for col in 0..width {
                if col.abs_diff(row) < side {
                    cell_at[row * width + col] = Some(coords.len() as Cell);
                    coords.push(Coord { col, row });
                }
            }
        }
        let mut board = Board {
            side,
            width,
            coords,
            cell_at,
            neighbours: Vec::new(),
            neighbour_start: vec![0],
            padded: Vec::new(),
        };
        for cell in 0..board.cell_count() {
            let Coord { col, row } = board.coords[cell];
            for (dc, dr) in DIRECTIONS {
                let (c, r) = (col as i32 + dc, row as i32 + dr);
                if c >= 0 && r >= 0 {
                    if let Some(n) = board.cell(Coord {
                        col: c as usize,
                        row: r as usize,
                    }) {
                        board.neighbours.push(n);
                    }
                }
            }
            board.neighbour_start.push(board.neighbours.len() as u32);
            let mut six = [board.outside(); 6];
            six[..board.neighbours(cell as Cell).len()]
                .copy_from_slice(board.neighbours(cell as Cell));
            board.padded.push(six);
        }
        board
    }

    pub fn side_is_valid(side: usize) -> bool {
        (MIN_SIDE..=MAX_SIDE).contains(&side)
    }

    pub fn side(&self) -> usize {
        self.side
    }

    /// 2N-1, the number of columns and of rows.
    pub fn width(&self) -> usize {
        self.width
    }

    /// 3N(N-1)+1.
    pub fn cell_count(&self) -> usize {
        self.coords.len()
    }

    pub fn cells(&self) -> impl Iterator<Item = Cell> {
        0..self.cell_count() as Cell
    }

    pub fn coord(&self, cell: Cell) -> Coord {
        self.coords[cell as usize]
    }

    /// The cell at a coordinate, `None` off the board.
    pub fn cell(&self, c: Coord) -> Option<Cell> {
        if c.col < self.width && c.row < self.width {
            self.cell_at[c.row * self.width + c.col]
        } else {
            None
        }
    }

    /// An index one past the last cell, standing for "no cell" in [`Board::padded_neighbours`].
    /// Tables indexed by cell that are read through padded neighbours have one more entry.
    #[inline]
    pub fn outside(&self) -> Cell {
        self.coords.len() as Cell
    }

    /// The neighbours of `cell` followed by [`Board::outside`] up to six entries.
    #[inline]
    pub fn padded_neighbours(&self, cell: Cell) -> &[Cell; 6] {
        &self.padded[cell as usize]
    }

    #[inline]
    pub fn neighbours(&self, cell: Cell) -> &[Cell] {
        let i = cell as usize;
        &self.neighbours[self.neighbour_start[i] as usize..self.neighbour_start[i + 1] as usize]
    }

    /// Lower-case name of a cell, e.g. `e5`.
    pub fn name(&self, cell: Cell) -> String {
        let Coord { col, row } = self.coord(cell);
        format!("{}{}", column_letter(col), row + 1)
    }

    /// The names of `cells`, separated by spaces (as `play` takes them).
    pub fn names(&self, cells: &[Cell]) -> String {
        let names: Vec<String> = cells.iter().map(|&c| self.name(c)).collect();
        names.join(" ")
    }

    /// Parses a cell name, case-insensitively. A letter (not `i`) followed by a positive
    /// decimal row number is a well-formed name; it is off the board when that cell does not
    /// exist on this side.
    pub fn parse(&self, word: &str) -> Result<Cell, NotationError> {
        let coord = parse_coord(word)?;
        self.cell(coord)
            .ok_or_else(|| NotationError::OffBoard(word.to_ascii_lowercase()))
    }
}

/// The letter of column `col` (0-based).
pub fn column_letter(col: usize) -> char {
    COLUMN_LETTERS[col] as char
}

/// Parses `<letter><digits>` into a coordinate of the rhombus of the largest board. Well
/// formed but far-away names (row 0, row 10^30) are off every board, not syntax errors.
pub fn parse_coord(word: &str) -> Result<Coord, NotationError> {
    let syntax = || NotationError::Syntax(word.to_string());
    let off = || NotationError::OffBoard(word.to_ascii_lowercase());
    let bytes = word.as_bytes();
    let (&letter, digits) = bytes.split_first().ok_or_else(syntax)?;
    let letter = letter.to_ascii_lowercase();
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(syntax());
    }
    let col = COLUMN_LETTERS
        .iter()
        .position(|&l| l == letter)
        .ok_or_else(syntax)?;
    // Rows past the largest board are off the board; a short number cannot overflow.
    let significant = digits.iter().skip_while(|&&d| d == b'0').count();
    if significant == 0 || significant > 3 {
        return Err(off());
    }
    let row: usize = std::str::from_utf8(digits)
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(syntax)?;
    Ok(Coord { col, row: row - 1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_counts_match_formula_for_every_side() {
        for n in MIN_SIDE..=MAX_SIDE {
            let b = Board::new(n);
            assert_eq!(b.cell_count(), 3 * n * (n - 1) + 1, "side {n}");
        }
    }

    #[test]
    fn neighbour_counts_and_symmetry() {
        for n in MIN_SIDE..=MAX_SIDE {
            let b = Board::new(n);
            let mut histogram = [0usize; 7];
            for c in b.cells() {
                let ns = b.neighbours(c);
                histogram[ns.len()] += 1;
                for &m in ns {
                    assert!(b.neighbours(m).contains(&c), "neighbourhood not symmetric");
                    assert_ne!(m, c);
                }
            }
            // Six corners with 3 neighbours, 6(N-2) edge cells with 4, the rest inside with 6.
            assert_eq!(histogram[3], 6, "side {n}");
            assert_eq!(histogram[4], 6 * (n - 2), "side {n}");
            assert_eq!(histogram[6], 3 * (n - 1) * (n - 2) + 1, "side {n}");
            assert_eq!(histogram[1] + histogram[2] + histogram[5], 0);
        }
    }

    #[test]
    fn notation_round_trips_on_every_side() {
        for n in MIN_SIDE..=MAX_SIDE {
            let b = Board::new(n);
            for c in b.cells() {
                let name = b.name(c);
                assert_eq!(b.parse(&name), Ok(c));
                assert_eq!(b.parse(&name.to_uppercase()), Ok(c));
            }
        }
    }

    #[test]
    fn side_five_layout_as_documented() {
        let b = Board::new(5);
        let row = |r: usize| -> Vec<String> {
            b.cells()
                .filter(|&c| b.coord(c).row == r - 1)
                .map(|c| b.name(c))
                .collect()
        };
        assert_eq!(row(1), ["a1", "b1", "c1", "d1", "e1"]);
        assert_eq!(row(5).len(), 9);
        assert_eq!(row(5).first().unwrap(), "a5");
        assert_eq!(row(5).last().unwrap(), "j5");
        assert_eq!(row(9), ["e9", "f9", "g9", "h9", "j9"]);
        assert_eq!(b.neighbours(b.parse("a1").unwrap()).len(), 3);
        assert_eq!(b.neighbours(b.parse("e5").unwrap()).len(), 6);
    }

    #[test]
    fn bad_names_are_syntax_errors_and_far_names_off_board() {
        let b = Board::new(5);
        for w in ["", "a", "5", "i5", "a-1", "a+1", "é5", "aa1", "e5x", "pass"] {
            assert!(matches!(b.parse(w), Err(NotationError::Syntax(_))), "{w}");
        }
        for w in [
            "a0",
            "a6",
            "j1",
            "z5",
            "a99999999999999999999999999",
            "e000",
        ] {
            assert!(matches!(b.parse(w), Err(NotationError::OffBoard(_))), "{w}");
        }
        assert_eq!(b.parse("E05"), b.parse("e5"));
    }
}

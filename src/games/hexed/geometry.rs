//! The Hexed board: 9 columns `a`..`j` (no `i`), the 5 columns a, c, e, g, j of 7 cells
//! (rows 1..7), the 4 others of 6 cells (rows 1..6); 59 cells.
//!
//! Coordinates: column c 0-based (a = 0 .. j = 8), row r 0-based (row number r + 1), and the
//! doubled height y = 2r + (c mod 2), so that c + y is even. The six neighbours of (c, y) are
//! (c, y ± 2) (north, south: north is the larger row number) and (c ± 1, y ± 1).
//!
//! Cells are numbered 0..59 column by column (a1..a7 are 0..6, b1..b6 7..12, ...). Sets of
//! cells are 128-bit boards: cell (c, y) is bit `14 c + y`. With 14 bits a column (y is at
//! most 12), a one-step shift that leaves the board lands on a bit that is no cell (y = 13,
//! or a bit of the wrong parity in the next column, or outside the 128 bits), so the six
//! directions are plain shifts masked by the board (the bitboard move generation of
//! Othello programs, on this geometry).

/// A set of cells (bit `14 c + y` for cell (c, y)).
pub type Bits = u128;

pub const COLUMNS: usize = 9;
pub const CELLS: usize = 59;
/// Column letters, a = column 0.
pub const LETTERS: [u8; COLUMNS] = *b"abcdefghj";
const STRIDE: usize = 14;

/// The bit-index steps of the six directions: north (0,+2), north-east (+1,+1), south-east
/// (+1,-1), south (0,-2), south-west (-1,-1), north-west (-1,+1). `DIRS[i + 3] == -DIRS[i]`.
pub const DIRS: [i32; 6] = [2, 15, 13, -2, -15, -13];

/// Cells in column `col`.
pub const fn height(col: usize) -> usize {
    if col.is_multiple_of(2) {
        7
    } else {
        6
    }
}

/// (column, row) of every cell, both 0-based.
pub static COORDS: [(u8, u8); CELLS] = COORDS_TABLE;
/// The bit of every cell.
pub static BIT_INDEX: [u8; CELLS] = BIT_TABLE;
/// The cell of every bit, [`NO_CELL`] for bits that are no cell.
pub static CELL_OF_BIT: [u8; 128] = CELL_TABLE;
pub const NO_CELL: u8 = u8::MAX;
/// The cells whose step in direction `DIRS[i]` leaves the board.
pub static EDGE: [Bits; 6] = EDGE_TABLE;
/// The six neighbours of every cell, as a set.
pub static NEIGHBOURS: [Bits; CELLS] = NEIGHBOUR_TABLE;
/// Every cell of the board.
pub const VALID: Bits = {
    let mut b: Bits = 0;
    let mut k = 0;
    while k < CELLS {
        b |= 1 << BIT_TABLE[k];
        k += 1;
    }
    b
};
/// The corners: the cells with an end of the board on all three lines through them (rows
/// 1 and 7 of columns a, c, e, g, j); a stone there can never be flipped.
pub const CORNERS: Bits = {
    let mut b: Bits = 0;
    let mut k = 0;
    while k < CELLS {
        let m: Bits = 1 << BIT_TABLE[k];
        let (mut axes, mut i) = (0, 0);
        while i < 3 {
            if (EDGE_TABLE[i] | EDGE_TABLE[i + 3]) & m != 0 {
                axes += 1;
            }
            i += 1;
        }
        if axes == 3 {
            b |= m;
        }
        k += 1;
    }
    b
};

const COORDS_TABLE: [(u8, u8); CELLS] = {
    let mut t = [(0u8, 0u8); CELLS];
    let (mut c, mut k) = (0, 0);
    while c < COLUMNS {
        let mut r = 0;
        while r < height(c) {
            t[k] = (c as u8, r as u8);
            k += 1;
            r += 1;
        }
        c += 1;
    }
    t
};

const BIT_TABLE: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut k = 0;
    while k < CELLS {
        let (c, r) = COORDS_TABLE[k];
        t[k] = (c as usize * STRIDE + 2 * r as usize + c as usize % 2) as u8;
        k += 1;
    }
    t
};

const CELL_TABLE: [u8; 128] = {
    let mut t = [NO_CELL; 128];
    let mut k = 0;
    while k < CELLS {
        t[BIT_TABLE[k] as usize] = k as u8;
        k += 1;
    }
    t
};

/// The bit one step from `b` in direction `DIRS[i]`, `None` off the board.
const fn step(b: u8, i: usize) -> Option<u8> {
    let n = b as i32 + DIRS[i];
    if n < 0 || n >= 128 || CELL_TABLE[n as usize] == NO_CELL {
        None
    } else {
        Some(n as u8)
    }
}

const EDGE_TABLE: [Bits; 6] = {
    let mut t = [0 as Bits; 6];
    let mut i = 0;
    while i < 6 {
        let mut k = 0;
        while k < CELLS {
            if step(BIT_TABLE[k], i).is_none() {
                t[i] |= 1 << BIT_TABLE[k];
            }
            k += 1;
        }
        i += 1;
    }
    t
};

const NEIGHBOUR_TABLE: [Bits; CELLS] = {
    let mut t = [0 as Bits; CELLS];
    let mut k = 0;
    while k < CELLS {
        let mut i = 0;
        while i < 6 {
            if let Some(n) = step(BIT_TABLE[k], i) {
                t[k] |= 1 << n;
            }
            i += 1;
        }
        k += 1;
    }
    t
};

/// The six directions as (column, doubled height) steps, in the order of [`DIRS`].
pub const STEPS: [(i32, i32); 6] = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)];

/// The set holding only `cell`.
#[inline]
pub fn bit(cell: usize) -> Bits {
    1 << BIT_INDEX[cell]
}

/// The set moved one step in direction `d` (one of [`DIRS`]); what leaves the board lands
/// on bits that are no cell, or falls off the 128 bits.
#[inline(always)]
pub fn shift(b: Bits, d: i32) -> Bits {
    if d >= 0 {
        b << d as u32
    } else {
        b >> (-d) as u32
    }
}

/// The cells of a set, in cell order (bit order is cell order).
pub fn cells(mut b: Bits) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let c = CELL_OF_BIT[b.trailing_zeros() as usize] as usize;
            b &= b - 1;
            c
        })
    })
}

/// The cell at (column, doubled height), if on the board.
pub fn cell_at(col: i32, y: i32) -> Option<usize> {
    if !(0..COLUMNS as i32).contains(&col) || (col + y) % 2 != 0 || y < 0 {
        return None;
    }
    let r = (y - col % 2) / 2;
    (r < height(col as usize) as i32)
        .then(|| CELL_OF_BIT[col as usize * STRIDE + y as usize] as usize)
}

/// (column, doubled height) of a cell.
pub fn doubled(cell: usize) -> (i32, i32) {
    let (c, r) = COORDS[cell];
    (c as i32, 2 * r as i32 + c as i32 % 2)
}

/// The cell's name: column letter and row number (`e4`).
pub fn name(cell: usize) -> String {
    let (c, r) = COORDS[cell];
    format!("{}{}", LETTERS[c as usize] as char, r + 1)
}

/// The cell a name gives (case-insensitive); the error says why in words.
pub fn parse_cell(word: &str) -> Result<usize, String> {
    let lower = word.to_ascii_lowercase();
    let mut chars = lower.chars();
    let letter = chars.next().filter(char::is_ascii_lowercase);
    let digits = chars.as_str();
    let row =
        (!digits.is_empty() && digits.len() <= 3 && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse::<usize>().ok())
            .flatten();
    let (Some(letter), Some(row)) = (letter, row) else {
        return Err(format!("'{word}' is not a cell name"));
    };
    match LETTERS.iter().position(|&l| l as char == letter) {
        Some(c) if (1..=height(c)).contains(&row) => {
            let first: usize = (0..c).map(height).sum();
            Ok(first + row - 1)
        }
        _ => Err(format!("{word} is off the board")),
    }
}

/// The lowest cell of a non-empty set (bit order is cell order).
#[inline]
pub fn first_cell(b: Bits) -> usize {
    CELL_OF_BIT[b.trailing_zeros() as usize] as usize
}

//! `showboard` for Yavalath, in the style of Omega's drawing (`src/protocol/render.rs`):
//! rows from the top, cell (c, r) at text column `2c - r`, column letters above and below,
//! row numbers on the left; `.` empty, `W` `B` `R` stones, the last stone in lower case.

use super::{GameResult, Rules, Yavalath};
use crate::board::{column_letter, Coord};
use std::fmt::Write;

const MARKS: [char; 3] = ['W', 'B', 'R'];

/// The drawing: the hexagon, then a status line. Contract: as `showboard`'s body, no empty
/// line inside.
pub fn draw(game: &Yavalath) -> String {
    let b = game.board();
    let (side, width) = (b.side(), b.width());
    let last = game.last_cell();
    // Text column of (col, row) is 2 col - row, shifted so that the leftmost cell (a5 on
    // side 5: col 0, row side - 1) lands just after the 4-character row number.
    let shift = side - 1 + 4;
    let at = |col: usize, row: usize| 2 * col + shift - row;
    // Letters: above the top row (columns side-1..width-1), below the bottom row (0..side-1).
    let letter_line = |row: usize, cols: std::ops::Range<usize>| {
        let mut text = vec![b' '; at(cols.end - 1, row) + 1];
        for col in cols {
            text[at(col, row)] = column_letter(col) as u8;
        }
        String::from_utf8(text).expect("ASCII")
    };
    let mut rows = vec![letter_line(width - 1, side - 1..width)];
    for row in (0..width).rev() {
        let mut text = format!("{:>3} ", row + 1).into_bytes();
        for col in row.saturating_sub(side - 1)..=(row + side - 1).min(width - 1) {
            let cell = b.cell(Coord { col, row }).expect("inside the hexagon");
            let mark = game.stone(cell).map_or('.', |c| MARKS[c]);
            let mark = if last == Some(cell) {
                mark.to_ascii_lowercase()
            } else {
                mark
            };
            text.resize(at(col, row), b' ');
            text.push(mark as u8);
        }
        rows.push(String::from_utf8(text).expect("ASCII"));
    }
    rows.push(letter_line(0, 0..side));
    let mut out = rows.join("\n");
    out.push('\n');
    let names = game.colour_names();
    let status = match (game.result(), game.to_move()) {
        (Some(GameResult::Win(c)), _) => format!("game over, {} wins", names[c]),
        (Some(GameResult::Draw), _) => "game over, draw".to_string(),
        (None, Some(c)) => format!("{} to move", names[c]),
        (None, None) => String::new(),
    };
    let out_colours: Vec<&str> = (0..game.players())
        .filter(|&c| game.is_out(c) && game.result().is_none())
        .map(|c| names[c])
        .collect();
    let _ = write!(
        out,
        "move {}, {status}, score {}",
        game.history().len() + 1,
        game.score()
    );
    if !out_colours.is_empty() {
        let _ = write!(out, ", out: {}", out_colours.join(" "));
    }
    out
}

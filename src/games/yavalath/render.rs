//! `showboard` for Yavalath, in the style of Omega's drawing (`src/protocol/render.rs`):
//! rows from the top, cell (c, r) at text column `2c - r`, column letters above and below,
//! row numbers on the left; `.` empty, `W` `B` `R` stones, the last stone in lower case.

use super::{GameResult, Rules, Yavalath};
use crate::board::{column_letter, Coord};
use std::fmt::Write;

const MARKS: [char; 3] = ['W', 'B', 'R'];

pub fn draw(game: &Yavalath) -> String {
    let b = game.board();
    let last = game.last_cell();
    let (n, w) = (b.side() as i64, b.width() as i64);
    let indent = |x: i64| (x + n - 1 + 4) as usize; // 4 columns for the row numbers
    let letters = |cols: std::ops::Range<usize>, x0: i64| {
        let mut line = " ".repeat(indent(x0));
        for c in cols {
            line.push(column_letter(c));
            line.push(' ');
        }
        line.trim_end().to_string()
    };
    let mut out = letters(b.side() - 1..b.width(), 2 * (n - 1) - (w - 1));
    for row in (0..b.width()).rev() {
        let first = row.saturating_sub(b.side() - 1);
        let last_col = (row + b.side() - 1).min(b.width() - 1);
        let x0 = 2 * first as i64 - row as i64;
        let mut line = format!("{:>3} {}", row + 1, " ".repeat(indent(x0) - 4));
        for col in first..=last_col {
            let cell = b.cell(Coord { col, row }).expect("inside the hexagon");
            let mark = game.stone(cell).map_or('.', |c| MARKS[c]);
            line.push(if last == Some(cell) {
                mark.to_ascii_lowercase()
            } else {
                mark
            });
            line.push(' ');
        }
        let _ = write!(out, "\n{}", line.trim_end());
    }
    let _ = write!(out, "\n{}\n", letters(0..b.side(), 0));
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
    let _ = write!(out, "move {}, {status}", game.history().len() + 1);
    if !out_colours.is_empty() {
        let _ = write!(out, ", out: {}", out_colours.join(" "));
    }
    out
}

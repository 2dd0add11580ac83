//! The drawing of `showboard`: the hexagon with column letters and row numbers.

use crate::board::{column_letter, Board, Coord};
use crate::game::Game;
use crate::player::Analysis;
use std::fmt::Write;

/// Rows top (highest) to bottom; cell (c, r) is drawn at text column `2c - r`, so the six
/// neighbours sit left, right and on the four diagonals. Column letters stand above the top
/// row (columns N-1..2N-2) and below the bottom row (columns 0..N-1); each column runs from
/// its lower letter up and to the left. Marks: `.` empty, `W` white, `B` black, `R` red,
/// `U` blue; the stones of the last turn in lower case. No empty line inside, as GTP
/// requires.
pub fn draw(game: &Game) -> String {
    let b = game.board();
    let last_turn = game.turn_history().pop().unwrap_or_default();
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
    let mut out = String::new();
    out.push_str(&letters(b.side() - 1..b.width(), 2 * (n - 1) - (w - 1)));
    for row in (0..b.width()).rev() {
        let first = row.saturating_sub(b.side() - 1);
        let last = (row + b.side() - 1).min(b.width() - 1);
        let x0 = 2 * first as i64 - row as i64;
        let mut line = format!("{:>3} ", row + 1);
        line.push_str(&" ".repeat(indent(x0) - 4));
        for col in first..=last {
            let cell = b.cell(Coord { col, row }).expect("inside the hexagon");
            let mark = game.stone(cell).map_or('.', |c| c.mark());
            line.push(match last_turn.contains(&cell) {
                true => mark.to_ascii_lowercase(),
                false => mark,
            });
            line.push(' ');
        }
        let _ = write!(out, "\n{}", line.trim_end());
    }
    out.push('\n');
    out.push_str(&letters(0..b.side(), 0));
    let scores: Vec<String> = game
        .colours()
        .map(|c| format!("{} {}", c.name(), game.score(c)))
        .collect();
    let status = if game.is_over() {
        "game over".to_string()
    } else {
        format!("{} to move", game.to_move())
    };
    let _ = write!(
        out,
        "\nturn {}, {}, score {}",
        game.turns_played() + 1,
        status,
        scores.join(" ")
    );
    out
}

/// One line of `analyze`: an `info` block a candidate, best first, as KataGo's
/// `kata-analyze` writes them: `info move C1..CK visits N winrate W score S order I pv ...`.
pub fn analysis(board: &Board, a: &Analysis) -> String {
    a.candidates
        .iter()
        .enumerate()
        .map(|(order, c)| {
            format!(
                "info move {} visits {} winrate {:.4} score {:.2} order {order} pv {}",
                board.names(&c.turn),
                c.visits,
                c.winrate,
                c.score,
                board.names(&c.pv)
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

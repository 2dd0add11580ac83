//! Game records: a transcript that can be piped straight back into an engine (`boardsize`,
//! `players`, `clear_board`, then one `play` line per turn), headed by `#` comment lines that
//! say who sat where, the result, why the game ended and the time each seat used.
//!
//! A record is written to a hidden temporary file in the same directory and then renamed into
//! place, so a record exists whole or not at all, even if the match is interrupted.

use super::referee::{Ending, Outcome};
use crate::game::Colour;
use crate::transcript;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The result as a `final_score` answer would give it: `<winner colour>+<margin>`, the margin
/// being the winner's score minus the best other score (0 when the tie rule decided).
/// A forfeit reads `<winner colour>+F (<reason>)`.
pub fn result_text(outcome: &Outcome) -> String {
    match &outcome.ending {
        Ending::Finished => {
            let (winner, margin) = outcome.final_position.winner();
            format!("{winner}+{margin}")
        }
        Ending::Forfeit { reason, .. } => format!("{}+F ({reason})", outcome.winner),
    }
}

/// What a record says besides the outcome.
pub struct RecordHeader<'a> {
    pub game_number: usize,
    pub games: usize,
    /// Per seat: the engine's name and its command line.
    pub seats: Vec<(&'a str, &'a str)>,
    pub size: usize,
    /// How the opening was chosen, e.g. `random opening 2 of seed 7`.
    pub opening: Option<String>,
}

pub fn render(h: &RecordHeader, outcome: &Outcome) -> String {
    let players = h.seats.len();
    let mut s = format!("# omega-match game {} of {}\n", h.game_number, h.games);
    for (k, (name, cmd)) in h.seats.iter().enumerate() {
        s += &format!("# {}: {name} ({cmd})\n", Colour::from_index(k));
    }
    s += &format!("# result: {}\n", result_text(outcome));
    let winner = outcome.winner;
    s += &format!("# winner: {winner} ({})\n", h.seats[winner.index()].0);
    match &outcome.ending {
        Ending::Finished => {
            s += &format!("# ended: game over after {} turns\n", outcome.turns.len())
        }
        Ending::Forfeit { reason, .. } => s += &format!("# ended: forfeit: {reason}\n"),
    }
    let scores: Vec<String> = (0..players)
        .map(|k| format!("{} {}", Colour::from_index(k), outcome.scores[k]))
        .collect();
    s += &format!("# scores: {}\n", scores.join(", "));
    let times: Vec<String> = (0..players)
        .map(|k| {
            let t = outcome.time_used.get(k).map_or(0.0, |d| d.as_secs_f64());
            format!("{} {t:.3} s", Colour::from_index(k))
        })
        .collect();
    s += &format!("# time used: {}\n", times.join(", "));
    if let Some(o) = &h.opening {
        s += &format!(
            "# opening: {o}, the first {} play lines\n",
            outcome.opening_turns
        );
    }
    // The referee's final position holds every turn of the game (`outcome.turns`).
    debug_assert_eq!(outcome.final_position.turn_history(), outcome.turns);
    debug_assert_eq!(outcome.final_position.board().side(), h.size);
    s += &transcript::write(&outcome.final_position);
    s
}

/// The file name of game `number` (from 1).
pub fn file_name(number: usize) -> String {
    format!("game-{number:05}.gtp")
}

/// Writes `text` to `dir/name` whole or not at all (temporary file, then rename).
pub fn write_atomic(dir: &Path, name: &str, text: &str) -> std::io::Result<PathBuf> {
    let tmp = dir.join(format!(".{name}.tmp"));
    let path = dir.join(name);
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        fs::rename(&tmp, &path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map(|_| path)
}

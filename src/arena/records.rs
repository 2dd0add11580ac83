//! Game records: a transcript that can be piped straight back into an engine (`boardsize`,
//! `players`, `clear_board`, then one `play` line per turn), headed by `#` comment lines that
//! say who sat where, the result, why the game ended and the time each seat used.
//!
//! A record is written to a hidden temporary file in the same directory and then renamed into
//! place, so a record exists whole or not at all, even if the match is interrupted.

use super::referee::{Ending, Outcome};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

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
    let colour = |k: usize| outcome.colours[k].as_str();
    let mut s = format!("# omega-match game {} of {}\n", h.game_number, h.games);
    for (k, (name, cmd)) in h.seats.iter().enumerate() {
        s += &format!("# {}: {name} ({cmd})\n", colour(k));
    }
    s += &format!("# result: {}\n", outcome.result);
    match outcome.winner_seat {
        Some(w) => s += &format!("# winner: {} ({})\n", colour(w), h.seats[w].0),
        None => s += "# winner: none (draw)\n",
    }
    match &outcome.ending {
        Ending::Finished => s += &format!("# ended: game over after {} turns\n", outcome.turns),
        Ending::Forfeit { reason, .. } => s += &format!("# ended: forfeit: {reason}\n"),
    }
    let scores: Vec<String> = (0..players)
        .map(|k| format!("{} {}", colour(k), outcome.scores[k]))
        .collect();
    s += &format!("# scores: {}\n", scores.join(", "));
    let times: Vec<String> = (0..players)
        .map(|k| {
            let t = outcome.time_used.get(k).map_or(0.0, |d| d.as_secs_f64());
            format!("{} {t:.3} s", colour(k))
        })
        .collect();
    s += &format!("# time used: {}\n", times.join(", "));
    if let Some(o) = &h.opening {
        s += &format!(
            "# opening: {o}, the first {} play lines\n",
            outcome.opening_turns
        );
    }
    s += &outcome.transcript;
    s
}

/// The file name of game `number` (from 1).
pub fn file_name(number: usize) -> String {
    format!("game-{number:05}.gtp")
}

/// The number of a record file named by [`file_name`], if it is one.
pub fn file_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix("game-")?.strip_suffix(".gtp")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The record files of `dir` by number, in order of their number.
pub fn list(dir: &Path) -> std::io::Result<Vec<(usize, PathBuf)>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if let Some(n) = entry.file_name().to_str().and_then(file_number) {
            out.push((n, entry.path()));
        }
    }
    out.sort();
    Ok(out)
}

/// What a record says of its game's result, read back for `--resume`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedResult {
    /// The game's number in its match (`# omega-match game N of M`).
    pub game_number: usize,
    /// The engine's name in each seat.
    pub names: Vec<String>,
    /// `None` for a draw.
    pub winner_seat: Option<usize>,
    pub forfeit_seat: Option<usize>,
}

/// Reads the result of a record written by [`render`].
pub fn read_result(text: &str) -> Result<RecordedResult, String> {
    let mut game_number = None;
    let mut names = Vec::new();
    let mut winner = None;
    let mut forfeit = None;
    // The seat lines (`# <colour>: NAME (COMMAND)`, in colour order) come first.
    let mut colours: Vec<String> = Vec::new();
    let mut seats_done = false;
    for line in text.lines() {
        let Some(header) = line.strip_prefix("# ") else {
            continue;
        };
        if let Some(rest) = header.strip_prefix("omega-match game ") {
            game_number = rest.split(' ').next().and_then(|n| n.parse().ok());
            continue;
        }
        let Some((key, value)) = header.split_once(": ") else {
            continue;
        };
        if key == "result" {
            seats_done = true;
        }
        if !seats_done {
            colours.push(key.to_string());
            names.push(value.split(" (").next().unwrap_or("").to_string());
            continue;
        }
        match key {
            "winner" => winner = value.split(' ').next().map(str::to_string),
            // `forfeit: <colour> <reason>`: the reason starts with the faulty colour.
            "ended" => {
                if let Some(reason) = value.strip_prefix("forfeit: ") {
                    forfeit = Some(reason.split(' ').next().unwrap_or("").to_string());
                }
            }
            _ => {}
        }
    }
    let game_number = game_number.ok_or("no '# omega-match game N of M' line")?;
    let seat_of = |word: &str| colours.iter().position(|c| c == word);
    let winner = winner.ok_or("no '# winner:' line")?;
    let winner_seat = match winner.as_str() {
        "none" => None,
        w => Some(seat_of(w).ok_or(format!("no seat has the winner's colour {w}"))?),
    };
    let forfeit_seat = match forfeit {
        None => None,
        Some(f) => Some(seat_of(&f).ok_or(format!("no seat has the forfeit's colour {f}"))?),
    };
    if names.len() < 2 {
        return Err("the seats are missing".into());
    }
    Ok(RecordedResult {
        game_number,
        names,
        winner_seat,
        forfeit_seat,
    })
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

/// Appends `text` to the file `path` (created if missing), flushed to disk.
pub fn append(path: &Path, text: &str) -> std::io::Result<()> {
    let mut f = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    f.write_all(text.as_bytes())?;
    f.sync_data()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_and_numbers() {
        assert_eq!(file_name(12), "game-00012.gtp");
        assert_eq!(file_number("game-00012.gtp"), Some(12));
        assert_eq!(file_number("game-123456.gtp"), Some(123_456));
        assert_eq!(file_number(".game-00012.gtp.tmp"), None);
        assert_eq!(file_number("game-.gtp"), None);
        assert_eq!(file_number("game-1x.gtp"), None);
    }

    #[test]
    fn results_read_back() {
        let text = "# omega-match game 7 of 10\n# white: alpha (fake --seed 1)\n\
                    # black: beta (fake)\n# result: white+F (black crashed (exit status: 3))\n\
                    # winner: white (alpha)\n# ended: forfeit: black crashed (exit status: 3) \
                    on 'genmove black'\nboardsize 5\n";
        let r = read_result(text).unwrap();
        assert_eq!(r.game_number, 7);
        assert_eq!(r.names, ["alpha", "beta"]);
        assert_eq!((r.winner_seat, r.forfeit_seat), (Some(0), Some(1)));
        let finished = text.replace(
            "forfeit: black crashed (exit status: 3) on 'genmove black'",
            "game over after 30 turns",
        );
        assert_eq!(read_result(&finished).unwrap().forfeit_seat, None);
        assert!(read_result("# white: a (a)\n").is_err());
        let draw = "# omega-match game 2 of 2\n# red: a (a)\n# green: b (b)\n# result: 0\n\
                    # winner: none (draw)\n# ended: game over after 59 turns\n";
        let r = read_result(draw).unwrap();
        assert_eq!(
            (r.winner_seat, &r.names[..]),
            (None, &["a".to_string(), "b".to_string()][..])
        );
        let bad = draw.replace("none (draw)", "blue (a)");
        assert!(read_result(&bad).is_err());
    }
}

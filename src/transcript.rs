//! Transcripts: the `play` lines of a game after its set-up (`boardsize`, `players`,
//! `clear_board`), as omega-match writes its records and as `omega` reads them on stdin.
//! `#` comments, empty lines and other commands are skipped.

use crate::board::parse_coord;
use crate::game::{Colour, Game, MoveError};
use std::fmt;

/// Why a transcript does not give a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranscriptError {
    /// The line, counted from 1.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The game a transcript describes: side 5 and two players unless it says otherwise; a
/// `boardsize`, `players` or `clear_board` line starts the game afresh.
pub fn read(text: &str) -> Result<Game, TranscriptError> {
    read_with_swap(text).map(|(game, _)| game)
}

/// [`read`], and whether black swapped (`play black swap` after white's first turn, the
/// swap rule of two-player Omega: the players exchange colours, the stones stay).
pub fn read_with_swap(text: &str) -> Result<(Game, bool), TranscriptError> {
    let mut swapped = false;
    let mut side = 5;
    let mut players = 2;
    let mut game = Game::new(side, players).expect("default set-up");
    for (i, raw) in text.lines().enumerate() {
        let error = |message: String| TranscriptError {
            line: i + 1,
            message,
        };
        let line = raw.split('#').next().unwrap_or("");
        let mut words = line.split_whitespace();
        // An id before the command, as GTP allows.
        let mut first = words.next();
        if first.is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit())) {
            first = words.next();
        }
        let Some(command) = first else { continue };
        let number = |w: Option<&str>| {
            w.and_then(|w| w.parse::<usize>().ok())
                .ok_or_else(|| error(format!("{command} needs a number")))
        };
        match command {
            "boardsize" | "players" | "clear_board" => {
                match command {
                    "boardsize" => side = number(words.next())?,
                    "players" => players = number(words.next())?,
                    _ => {}
                }
                game = Game::new(side, players)
                    .map_err(|e| error(format!("unacceptable set-up: {e:?}")))?;
                swapped = false;
            }
            "play" => {
                let colour = words
                    .next()
                    .and_then(Colour::parse)
                    .ok_or_else(|| error("play needs a colour".into()))?;
                let mut words = words.peekable();
                if words.peek() == Some(&"swap") {
                    let allowed = game.players() == 2 && game.turns_played() == 1 && !swapped;
                    if !allowed || colour != Colour::Black {
                        return Err(error("illegal move: a swap is only allowed on black's first turn with two players".into()));
                    }
                    swapped = true;
                    continue;
                }
                let coords = words
                    .map(|w| parse_coord(w).map_err(|e| error(e.to_string())))
                    .collect::<Result<Vec<_>, _>>()?;
                let cells = game
                    .cells_of(&coords)
                    .map_err(|e: MoveError| error(e.to_string()))?;
                game.play_turn(colour, &cells)
                    .map_err(|e| error(format!("illegal move: {e}")))?;
            }
            _ => {}
        }
    }
    Ok((game, swapped))
}

/// The transcript of `game` that [`read`] reads back: its set-up, then one `play` line a
/// turn. It is what `savegame` writes and what omega-match's records hold after their
/// comment lines.
pub fn write(game: &Game) -> String {
    write_with_swap(game, false)
}

/// [`write`], with black's swap after the first turn when `swapped`.
pub fn write_with_swap(game: &Game, swapped: bool) -> String {
    let board = game.board();
    let players = game.players();
    let mut text = format!(
        "boardsize {}\nplayers {players}\nclear_board\n",
        board.side()
    );
    for (t, turn) in game.turn_history().iter().enumerate() {
        text += &format!(
            "play {} {}\n",
            Colour::from_index(t % players),
            board.names(turn)
        );
        if t == 0 && swapped {
            text += "play black swap\n";
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_games_read_back_the_same() {
        let text =
            "boardsize 4\nplayers 3\nclear_board\nplay white a1 b1 c1\nplay black d4 a2 b2\n";
        let game = read(text).unwrap();
        assert_eq!(write(&game), text);
        let again = read(&write(&game)).unwrap();
        assert_eq!(again.hash(), game.hash());
        assert_eq!(again.turn_history(), game.turn_history());
    }

    #[test]
    fn reads_a_record_and_refuses_illegal_turns() {
        let text = "# omega-match game 1\nboardsize 3\nplayers 2\nclear_board\n\
                    play white a1 c3\n7 play black b2 c1 # comment\nfinal_score\n";
        let game = read(text).unwrap();
        assert_eq!(game.board().side(), 3);
        assert_eq!(game.turns_played(), 2);
        assert_eq!(
            game.stone(game.board().parse("c1").unwrap()),
            Some(Colour::Black)
        );
        let bad = read("boardsize 3\nplay white a1 a1\n").unwrap_err();
        assert_eq!(bad.line, 2);
        assert!(bad.message.contains("given twice"), "{bad}");
        assert_eq!(read("play black a1 b1").unwrap_err().line, 1);
        assert!(read("boardsize x").is_err());
    }

    #[test]
    fn a_swap_reads_and_writes_back() {
        let text = "boardsize 3\nplayers 2\nclear_board\nplay white a1 b1\nplay black swap\nplay black c1 c2\n";
        let (game, swapped) = read_with_swap(text).unwrap();
        assert!(swapped);
        assert_eq!(game.turns_played(), 2);
        assert_eq!(write_with_swap(&game, swapped), text);
        assert!(read("play white a1 b1\nplay black swap\nplay black swap\n").is_err());
        assert!(read("play black swap\n").is_err());
        assert!(read("players 3\nplay white a1 b1 c1\nplay black swap\n").is_err());
    }
}

//! Opening books for `--openings file:PATH`.
//!
//! A book is a text file in one of two forms, told apart by its first command word:
//!
//! - **one opening a line**: the cells of its turns in order, K cells a turn for K players
//!   (`c4 b1 h4 a4` is two turns of a two-player game); commas or semicolons may separate the
//!   turns; `#` starts a comment; empty lines are skipped;
//! - **transcripts**, as `omega-match --records` and `savegame` write them (`boardsize`,
//!   `players`, `clear_board`, `play` lines; `#` comments): each game is one opening, all its
//!   `play` lines (cut with `--openings-turns`). Records of a match, concatenated with `cat`
//!   or written by `--records-file`, make a book.
//!
//! Every opening must be legal on the match's board and leave at least one turn to play.

use crate::board::Cell;
use crate::game::Game;
use crate::transcript;

/// Reads a book's `text` for side `size` and `players` players; every opening cut to its
/// first `max_turns` turns when given. Errors name the line.
pub fn parse_book(
    text: &str,
    size: usize,
    players: usize,
    max_turns: Option<usize>,
) -> Result<Vec<Vec<Vec<Cell>>>, String> {
    let is_transcript = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .is_some_and(|l| {
            let word = l.split_whitespace().next().unwrap_or("");
            matches!(word, "boardsize" | "players" | "clear_board" | "play")
        });
    let mut openings = if is_transcript {
        transcripts(text, size, players)?
    } else {
        book_lines(text, size, players)?
    };
    let total = Game::new(size, players)
        .map_err(|e| format!("{e:?}"))?
        .total_turns();
    for (i, o) in openings.iter_mut().enumerate() {
        if let Some(t) = max_turns {
            o.truncate(t);
        }
        if o.len() >= total {
            return Err(format!(
                "opening {} has {} turns and leaves none to play (a game has {total})",
                i + 1,
                o.len()
            ));
        }
    }
    if openings.is_empty() {
        return Err("no opening in the book".into());
    }
    Ok(openings)
}

/// One opening a line.
fn book_lines(text: &str, size: usize, players: usize) -> Result<Vec<Vec<Vec<Cell>>>, String> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .filter(|w| !w.is_empty())
            .collect();
        if words.is_empty() {
            continue;
        }
        let error = |m: String| format!("line {}: {m}", n + 1);
        if !words.len().is_multiple_of(players) {
            return Err(error(format!(
                "{} cells is not a whole number of turns of {players} cells",
                words.len()
            )));
        }
        let mut game = Game::new(size, players).map_err(|e| error(format!("{e:?}")))?;
        let mut turns = Vec::new();
        for turn in words.chunks(players) {
            let cells: Vec<Cell> = turn
                .iter()
                .map(|w| game.board().parse(w).map_err(|e| error(e.to_string())))
                .collect::<Result<_, _>>()?;
            game.play_turn(game.to_move(), &cells)
                .map_err(|e| error(format!("illegal turn '{}': {e}", turn.join(" "))))?;
            turns.push(cells);
        }
        out.push(turns);
    }
    Ok(out)
}

/// Transcripts: a `boardsize`, `players` or `clear_board` line after a `play` line starts
/// the next game.
fn transcripts(text: &str, size: usize, players: usize) -> Result<Vec<Vec<Vec<Cell>>>, String> {
    let mut chunks: Vec<(usize, String)> = Vec::new();
    let mut current = String::new();
    let mut first_line = 1;
    let mut has_play = false;
    for (n, raw) in text.lines().enumerate() {
        let word = raw
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .next();
        if has_play && matches!(word, Some("boardsize" | "players" | "clear_board")) {
            chunks.push((first_line, std::mem::take(&mut current)));
            first_line = n + 1;
            has_play = false;
        }
        has_play |= word == Some("play");
        current.push_str(raw);
        current.push('\n');
    }
    if has_play {
        chunks.push((first_line, current));
    }
    let mut out = Vec::new();
    for (first, chunk) in chunks {
        let game = transcript::read(&chunk)
            .map_err(|e| format!("line {}: {}", first + e.line - 1, e.message))?;
        if game.board().side() != size || game.players() != players {
            return Err(format!(
                "line {first}: a game of side {} with {} players, not side {size} with {players}",
                game.board().side(),
                game.players()
            ));
        }
        out.push(game.turn_history());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_lines_with_separators_and_comments() {
        let text = "# a book\nc4 b1, h4 a4\n\na1 c3 ; b2 e5 # two turns\nb1 a1\n";
        let book = parse_book(text, 5, 2, None).unwrap();
        assert_eq!(book.len(), 3);
        assert_eq!(book[0].len(), 2);
        assert_eq!(book[2].len(), 1);
        let g = Game::new(5, 2).unwrap();
        assert_eq!(book[0][0], [g.board().parse("c4").unwrap(), 1]);
        let cut = parse_book(text, 5, 2, Some(1)).unwrap();
        assert!(cut.iter().all(|o| o.len() == 1));
    }

    #[test]
    fn bad_books_name_the_line() {
        for (text, expect) in [
            ("a1 b1\na1 a1\n", "line 2: illegal turn"),
            ("a1 b1 c1\n", "line 1: 3 cells"),
            ("a1 zz\n", "line 1:"),
            ("# nothing\n", "no opening"),
            ("a1 b1 a2 b2\n", "leaves none"),
        ] {
            let e = parse_book(text, 2, 2, None).unwrap_err();
            assert!(e.contains(expect), "{text:?}: {e}");
        }
    }

    #[test]
    fn transcripts_give_one_opening_a_game() {
        let text = "# omega-match game 1 of 2\nboardsize 4\nplayers 2\nclear_board\n\
                    play white a1 c3\nplay black b2 c1\n\
                    # omega-match game 2 of 2\nboardsize 4\nplayers 2\nclear_board\n\
                    play white d4 a2\n";
        let book = parse_book(text, 4, 2, None).unwrap();
        assert_eq!(book.iter().map(Vec::len).collect::<Vec<_>>(), [2, 1]);
        assert!(parse_book(text, 5, 2, None)
            .unwrap_err()
            .contains("not side 5"));
        let bad = "boardsize 4\nplayers 2\nclear_board\nplay white a1 a1\n";
        assert!(parse_book(bad, 4, 2, None)
            .unwrap_err()
            .starts_with("line 4:"));
    }
}

//! An engine process behind one seat (or behind the hint button), spoken to over the protocol
//! exactly as omega-match's referee does: `boardsize`, `players`, `clear_board`,
//! `time_settings 0 T 1`, a `play` line for every turn it did not play itself, `genmove`.
//!
//! Its game is kept in step with the referee's lazily: before it thinks, [`EngineSeat::sync`]
//! takes back (`undo`) what the engine has beyond the common start of both histories and
//! plays the rest, so undo, review and loaded games need nothing else. An engine that does not
//! know `undo` is cleared and told the whole game again.
//!
//! Everything here blocks on the engine: callers run it on a thread of its own. Every fault
//! comes back as a one-line message saying what the engine did wrong and on which command.

use super::cli::EngineChoice;
use crate::arena::engine_proc::EngineProc;
use crate::arena::referee::secs;
use crate::board::{Board, Cell};
use crate::game::Colour;
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How long an engine may take over a command that is not a search (set-up, `play`, `undo`).
const COMMAND_LIMIT: std::time::Duration = std::time::Duration::from_secs(30);

/// How often (centiseconds) an engine that analyses writes its `info` line while it thinks:
/// about four times a turn, from every 5 to every 50 centiseconds.
fn info_interval(movetime: f64) -> u32 {
    ((movetime * 25.0) as u32).clamp(5, 50)
}

/// What an engine said of its best candidate turn in its latest `info` line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The colour the analysis is for (the engine's seat).
    pub colour: usize,
    /// The candidate turn's cells, in colour order.
    pub best: Vec<String>,
    /// The chance to win for `colour`, 0..1.
    pub winrate: Option<f64>,
    pub visits: Option<u64>,
    /// The expected final log-score margin.
    pub score: Option<f64>,
    /// The principal variation, whole turns, the candidate first.
    pub pv: Vec<String>,
}

/// Reads the first (best) `info` block of an `analyze` line: `info move C.. visits N
/// winrate W score S order I pv C.. info move ...`. `None` for a line without a candidate.
/// Cells that are not on `board` are dropped, so a page never draws off the board.
pub fn parse_info(line: &str, colour: Colour, board: &Board) -> Option<Analysis> {
    let mut words = line.split_whitespace().peekable();
    if words.next() != Some("info") {
        return None;
    }
    let mut a = Analysis {
        colour: colour.index(),
        best: Vec::new(),
        winrate: None,
        visits: None,
        score: None,
        pv: Vec::new(),
    };
    const KEYS: [&str; 7] = ["move", "visits", "winrate", "score", "order", "pv", "info"];
    let is_cell = |w: &str| board.parse(w).is_ok();
    while let Some(key) = words.next() {
        match key {
            "info" => break, // the second candidate
            "move" | "pv" => {
                let mut cells = Vec::new();
                while let Some(w) = words.next_if(|w| !KEYS.contains(w)) {
                    if is_cell(w) {
                        cells.push(w.to_ascii_lowercase());
                    }
                }
                if key == "move" {
                    a.best = cells;
                } else {
                    a.pv = cells;
                }
            }
            "visits" => a.visits = words.next().and_then(|w| w.parse().ok()),
            "winrate" => a.winrate = words.next().and_then(|w| w.parse().ok()),
            "score" => a.score = words.next().and_then(|w| w.parse().ok()),
            _ => {} // `order I` and whatever a later engine adds
        }
    }
    (!a.best.is_empty()).then_some(a)
}

pub struct EngineSeat {
    name: String,
    process: EngineProc,
    players: usize,
    /// Seconds a turn, sent as `time_settings 0 T 1`.
    movetime: f64,
    /// The turns the engine's own game holds, in order.
    known: Vec<Vec<Cell>>,
    /// Whether it answers `genmove_analyze` (asked with `known_command` at the start).
    analyses: bool,
}

impl EngineSeat {
    /// Starts the engine and sets up a new game of `side` and `players` with `movetime`
    /// seconds a turn. `Err` says what went wrong; the process is gone then.
    pub fn start(
        choice: &EngineChoice,
        side: usize,
        players: usize,
        movetime: f64,
        stderr: bool,
        stop: &AtomicBool,
    ) -> Result<EngineSeat, String> {
        let process = EngineProc::spawn(&choice.argv, stderr)
            .map_err(|e| format!("cannot start '{}': {e}", choice.argv.join(" ")))?;
        let mut seat = EngineSeat {
            name: choice.name.clone(),
            process,
            players,
            movetime,
            known: Vec::new(),
            analyses: false,
        };
        for cmd in [
            format!("boardsize {side}"),
            format!("players {players}"),
            "clear_board".to_string(),
            format!("time_settings 0 {} 1", secs(movetime)),
        ] {
            seat.ask(&cmd, stop)?;
        }
        // An engine that does not know known_command simply does not analyse.
        seat.analyses = seat
            .process
            .command("known_command genmove_analyze", COMMAND_LIMIT, stop)
            .is_ok_and(|a| a.trim() == "true");
        Ok(seat)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// One command that must succeed, with the usual limit.
    fn ask(&mut self, cmd: &str, stop: &AtomicBool) -> Result<String, String> {
        self.process
            .command(cmd, COMMAND_LIMIT, stop)
            .map_err(|f| format!("{f} on '{cmd}'"))
    }

    /// Brings the engine's game to `history` (whole turns from the start, the referee's).
    pub fn sync(
        &mut self,
        board: &Board,
        history: &[Vec<Cell>],
        stop: &AtomicBool,
    ) -> Result<(), String> {
        let common = self
            .known
            .iter()
            .zip(history)
            .take_while(|(a, b)| a == b)
            .count();
        while self.known.len() > common {
            if self.process.command("undo", COMMAND_LIMIT, stop).is_err() {
                if !self.process.is_healthy() {
                    return Err("crashed on 'undo'".into());
                }
                // Refused: start again from the empty board.
                self.ask("clear_board", stop)?;
                self.known.clear();
                break;
            }
            self.known.pop();
        }
        for turn in &history[self.known.len()..] {
            let colour = Colour::from_index(self.known.len() % self.players);
            self.ask(&format!("play {colour} {}", board.names(turn)), stop)?;
            self.known.push(turn.clone());
        }
        Ok(())
    }

    /// Asks for `colour`'s turn (`genmove_analyze` when the engine analyses, else `genmove`),
    /// giving every `info` line's best candidate to `on_analysis` as it arrives. Returns the
    /// cells in colour order, not yet checked against the rules; the engine has played them.
    pub fn think(
        &mut self,
        colour: Colour,
        board: &Board,
        stop: &AtomicBool,
        on_analysis: &mut dyn FnMut(Analysis),
    ) -> Result<Vec<Cell>, String> {
        let cmd = if self.analyses {
            format!("genmove_analyze {colour} {}", info_interval(self.movetime))
        } else {
            format!("genmove {colour}")
        };
        // The referee's margin: the budget plus 20 % and one second.
        let limit = Duration::from_secs_f64(self.movetime * 1.2 + 1.0);
        let answer = self
            .process
            .command_streaming(&cmd, limit, stop, &mut |line| {
                if let Some(a) = parse_info(line, colour, board) {
                    on_analysis(a);
                }
            })
            .map_err(|f| format!("{f} on '{cmd}'"))?;
        // genmove_analyze ends with `play C1..CK`; genmove answers the cells alone.
        let last = answer.lines().last().unwrap_or("").trim();
        let turn = last.strip_prefix("play ").unwrap_or(last);
        let cells = self.cells(turn, board, &cmd)?;
        self.known.push(cells.clone());
        Ok(cells)
    }

    /// The turn the engine would play for `colour` (`reg_genmove`: nothing is played).
    pub fn suggest(
        &mut self,
        colour: Colour,
        board: &Board,
        stop: &AtomicBool,
    ) -> Result<Vec<Cell>, String> {
        let cmd = format!("reg_genmove {colour}");
        let limit = Duration::from_secs_f64(self.movetime * 1.2 + 1.0);
        let answer = self
            .process
            .command(&cmd, limit, stop)
            .map_err(|f| format!("{f} on '{cmd}'"))?;
        self.cells(answer.trim(), board, &cmd)
    }

    /// The K cells of an answer, or why they are not K cells of this board.
    fn cells(&self, turn: &str, board: &Board, cmd: &str) -> Result<Vec<Cell>, String> {
        let cells = turn
            .split_whitespace()
            .map(|w| board.parse(w))
            .collect::<Result<Vec<Cell>, _>>()
            .map_err(|e| format!("answered '{turn}' ({e}) on '{cmd}'"))?;
        if cells.len() != self.players {
            return Err(format!(
                "answered '{turn}' (need {} cells) on '{cmd}'",
                self.players
            ));
        }
        Ok(cells)
    }

    /// Says `quit` and makes sure the process is gone (blocks up to about a second).
    pub fn quit(self) {
        self.process.quit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let board = Board::new(3);
        let line = "info move c3 e4 visits 2210 winrate 0.6105 score 0.41 order 0 \
                    pv c3 e4 d2 b1 info move d4 a1 visits 1630 winrate 0.5988 score 0.37 \
                    order 1 pv d4 a1 b3 e5";
        let a = parse_info(line, Colour::Black, &board).unwrap();
        assert_eq!(a.colour, 1);
        assert_eq!(a.best, ["c3", "e4"]);
        assert_eq!(a.visits, Some(2210));
        assert_eq!(a.winrate, Some(0.6105));
        assert_eq!(a.score, Some(0.41));
        assert_eq!(a.pv, ["c3", "e4", "d2", "b1"]);
        // Off-board cells are dropped, junk is no candidate.
        let a = parse_info("info move C3 z9 winrate x pv", Colour::White, &board).unwrap();
        assert_eq!(a.best, ["c3"]);
        assert_eq!(a.winrate, None);
        assert!(parse_info("info visits 3", Colour::White, &board).is_none());
        assert!(parse_info("play c3 e4", Colour::White, &board).is_none());
        assert!(parse_info("", Colour::White, &board).is_none());
    }
}

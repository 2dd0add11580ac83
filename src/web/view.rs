//! What the page is sent: the whole state of a session as one JSON object, made afresh for
//! every change (a side-10 board is 271 cells: small). Cells are named as the protocol names
//! them; scores are decimal strings, since they pass what a JavaScript number holds exactly.

use super::engine_seat::Analysis;
use super::session::{SeatKind, Session};
use crate::game::Colour;
use serde::Serialize;

#[derive(Serialize)]
pub struct CellView {
    pub name: String,
    /// Column and row from 0, as in the protocol's notation.
    pub col: usize,
    pub row: usize,
    /// The colour index of its stone.
    pub stone: Option<usize>,
    /// The size of the stone's group.
    pub group: Option<usize>,
}

#[derive(Serialize)]
pub struct ColourView {
    pub name: &'static str,
    pub score: String,
    /// Its group sizes, largest first (the score is their product).
    pub groups: Vec<usize>,
    pub stones: usize,
}

#[derive(Serialize)]
pub struct SeatView {
    /// "person" or "engine".
    pub kind: &'static str,
    pub engine: Option<String>,
    pub movetime: Option<f64>,
    pub thinking: bool,
    pub fault: Option<String>,
    /// Milliseconds of this seat's turns so far.
    pub used_ms: u64,
}

#[derive(Serialize)]
pub struct HintView {
    pub colour: usize,
    pub cells: Vec<String>,
}

#[derive(Serialize)]
pub struct GameView {
    pub id: String,
    /// Grows with every change: a page keeps the newest it has seen.
    pub version: u64,
    pub side: usize,
    pub players: usize,
    pub cells: Vec<CellView>,
    pub colours: Vec<ColourView>,
    /// Turns played, and in a whole game.
    pub turn: usize,
    pub total_turns: usize,
    /// Every turn played, cell names in colour order.
    pub history: Vec<Vec<String>>,
    /// How many turns were taken back and can be stepped through again.
    pub future: usize,
    /// The player to move, `None` once the game is over.
    pub to_move: Option<usize>,
    /// The colour of the next stone a person places (after the pending ones).
    pub next_stone: Option<usize>,
    pub pending: Vec<String>,
    pub seats: Vec<SeatView>,
    pub over: bool,
    /// The winner by the rules (the official tie rule) once the game is over.
    pub winner: Option<usize>,
    pub paused: bool,
    pub analysis: Option<Analysis>,
    pub hint: Option<HintView>,
    pub hint_busy: bool,
    /// Milliseconds since the current turn began.
    pub turn_ms: u64,
    pub notices: Vec<String>,
}

/// The view of `s` at `version`.
pub fn view(s: &Session, version: u64) -> GameView {
    let game = &s.game;
    let board = game.board();
    let cells = board
        .cells()
        .map(|c| {
            let coord = board.coord(c);
            let stone = game.stone(c);
            CellView {
                name: board.name(c),
                col: coord.col,
                row: coord.row,
                stone: stone.map(Colour::index),
                group: stone.map(|_| game.group_size(c)),
            }
        })
        .collect();
    let colours = game
        .colours()
        .map(|colour| {
            // One entry a group: read the size at each group's root.
            let mut groups: Vec<usize> = board
                .cells()
                .filter(|&c| game.stone(c) == Some(colour) && game.root(c) == c)
                .map(|c| game.group_size(c))
                .collect();
            groups.sort_unstable_by(|a, b| b.cmp(a));
            ColourView {
                name: colour.name(),
                score: game.score(colour).to_string(),
                groups,
                stones: game.colour_state(colour).stones as usize,
            }
        })
        .collect();
    let seats = s
        .seats
        .iter()
        .enumerate()
        .map(|(k, seat)| {
            let (kind, engine, movetime) = match seat.kind {
                SeatKind::Person => ("person", None, None),
                SeatKind::Engine { choice, movetime } => (
                    "engine",
                    Some(s.catalogue[choice].name.clone()),
                    Some(movetime),
                ),
            };
            SeatView {
                kind,
                engine,
                movetime,
                thinking: s.thinking_seat() == Some(k),
                fault: seat.fault.clone(),
                used_ms: seat.used.as_millis() as u64,
            }
        })
        .collect();
    let over = game.is_over();
    let names = |cells: &[crate::board::Cell]| cells.iter().map(|&c| board.name(c)).collect();
    GameView {
        id: s.id.clone(),
        version,
        side: board.side(),
        players: game.players(),
        cells,
        colours,
        turn: game.turns_played(),
        total_turns: game.total_turns(),
        history: game.turn_history().iter().map(|t| names(t)).collect(),
        future: s.future.len(),
        to_move: (!over).then(|| game.to_move().index()),
        next_stone: (!over && s.pending.len() < game.players()).then_some(s.pending.len()),
        pending: names(&s.pending),
        seats,
        over,
        winner: over.then(|| game.winner().0.index()),
        paused: s.paused,
        analysis: s.analysis.clone(),
        hint: s.current_hint().map(|h| HintView {
            colour: h.colour.index(),
            cells: names(&h.cells),
        }),
        hint_busy: s.hint_busy(),
        turn_ms: s.turn_started.elapsed().as_millis() as u64,
        notices: s.notices.clone(),
    }
}

//! One game on the page: the referee's [`Game`], its seats (a person or an engine each), the
//! stones of a person's turn not yet committed, the turns taken back (to step forward again),
//! the clocks, and the engines' latest analysis and hint.
//!
//! Every change goes through a method of [`Session`] that checks it with the rules first and
//! changes nothing when it refuses ([`Refusal`]). The engines' I/O blocks, so it never runs
//! under the session's lock: [`SessionHandle::kick`] lends the engine of the seat to move to a
//! thread of its own, which plays the answer only if the position is still the one it was
//! asked about (the `epoch`) and the seat still belongs to that engine (its `generation`).

use super::cli::{EngineChoice, MOVETIME_RANGE};
use super::engine_seat::{Analysis, EngineSeat};
use crate::board::Cell;
use crate::game::{Colour, Game};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Why a request changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The request itself is wrong: a malformed cell, a seat that does not exist, ...
    BadRequest(String),
    /// The request is well formed but not allowed now: an occupied cell, another's turn, ...
    Conflict(String),
}

fn conflict<T>(message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal::Conflict(message.into()))
}

fn bad<T>(message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal::BadRequest(message.into()))
}

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatKind {
    Person,
    /// An engine of the catalogue, by index, with its time per turn in seconds.
    Engine {
        choice: usize,
        movetime: f64,
    },
}

/// Checks a requested engine seat against the catalogue.
pub fn engine_seat_kind(
    catalogue: &[EngineChoice],
    name: &str,
    movetime: f64,
) -> Result<SeatKind, Refusal> {
    let Some(choice) = catalogue.iter().position(|e| e.name == name) else {
        let names: Vec<&str> = catalogue.iter().map(|e| e.name.as_str()).collect();
        return bad(format!(
            "no engine named '{name}' (there are: {})",
            names.join(", ")
        ));
    };
    if !(MOVETIME_RANGE.0..=MOVETIME_RANGE.1).contains(&movetime) {
        return bad(format!(
            "time per turn {movetime} is not from {} to {} seconds",
            MOVETIME_RANGE.0, MOVETIME_RANGE.1
        ));
    }
    Ok(SeatKind::Engine { choice, movetime })
}

pub struct Seat {
    pub kind: SeatKind,
    /// The engine's process when started and not lent to a thinking thread.
    engine: Option<EngineSeat>,
    /// What went wrong with this seat's engine; it does not move until the seat is given
    /// again (to a person or a restarted engine).
    pub fault: Option<String>,
    /// Bumped whenever the seat is given again, so a thread still thinking for the old
    /// engine knows its answer no longer counts.
    generation: u64,
    /// Wall-clock time of this seat's turns so far.
    pub used: Duration,
}

impl Seat {
    fn new(kind: SeatKind) -> Seat {
        Seat {
            kind,
            engine: None,
            fault: None,
            generation: 0,
            used: Duration::ZERO,
        }
    }
}

/// The engine work under way: which seat (or the hint), and the flag that stops it.
struct Job {
    seat: Option<usize>,
    stop: Arc<AtomicBool>,
}

/// A hint: the turn the hint engine suggests for `colour` in the position of `epoch`.
#[derive(Clone, Debug)]
pub struct Hint {
    pub colour: Colour,
    pub cells: Vec<Cell>,
    epoch: u64,
}

pub struct Session {
    pub id: String,
    pub game: Game,
    pub seats: Vec<Seat>,
    /// The current person's stones of this turn, in colour order, not yet played.
    pub pending: Vec<Cell>,
    /// Turns taken back, the next to play again last.
    pub future: Vec<Vec<Cell>>,
    /// Engines do not move while set (set by stepping through a game, cleared by resume).
    pub paused: bool,
    /// Counts changes of the position; engine answers for an older epoch are dropped.
    epoch: u64,
    thinking: Option<Job>,
    hinting: Option<Job>,
    hint_engine: Option<EngineSeat>,
    pub hint: Option<Hint>,
    /// The latest analysis of the engine to move, for the current epoch only.
    pub analysis: Option<Analysis>,
    /// When the current turn began.
    pub turn_started: Instant,
    /// What happened that the page should say (faults, restarts), newest last, a few only.
    pub notices: Vec<String>,
    pub catalogue: Arc<Vec<EngineChoice>>,
    hint_movetime: f64,
    engine_stderr: bool,
}

/// How many notices a session keeps.
const NOTICES: usize = 8;

impl Session {
    pub fn new(
        id: String,
        game: Game,
        seats: Vec<SeatKind>,
        catalogue: Arc<Vec<EngineChoice>>,
        hint_movetime: f64,
        engine_stderr: bool,
    ) -> Session {
        debug_assert_eq!(seats.len(), game.players());
        Session {
            id,
            game,
            seats: seats.into_iter().map(Seat::new).collect(),
            pending: Vec::new(),
            future: Vec::new(),
            paused: false,
            epoch: 0,
            thinking: None,
            hinting: None,
            hint_engine: None,
            hint: None,
            analysis: None,
            turn_started: Instant::now(),
            notices: Vec::new(),
            catalogue,
            hint_movetime,
            engine_stderr,
        }
    }

    pub fn notice(&mut self, text: String) {
        log::info!("game {}: {text}", self.id);
        self.notices.push(text);
        if self.notices.len() > NOTICES {
            self.notices.remove(0);
        }
    }

    /// The seat whose engine is thinking now, if any.
    pub fn thinking_seat(&self) -> Option<usize> {
        self.thinking.as_ref().and_then(|j| j.seat)
    }

    pub fn hint_busy(&self) -> bool {
        self.hinting.is_some()
    }

    /// The hint, if it is for the current position.
    pub fn current_hint(&self) -> Option<&Hint> {
        self.hint.as_ref().filter(|h| h.epoch == self.epoch)
    }

    pub fn engine_name(&self, seat: usize) -> Option<&str> {
        match self.seats[seat].kind {
            SeatKind::Engine { choice, .. } => Some(&self.catalogue[choice].name),
            SeatKind::Person => None,
        }
    }

    /// The position changed: older engine answers, the analysis and the hint are void, and
    /// a new turn's clock starts.
    fn moved(&mut self) {
        self.epoch += 1;
        self.analysis = None;
        self.pending.clear();
        self.turn_started = Instant::now();
        if let Some(job) = self.thinking.take() {
            job.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Checks that a person may act for `colour` now: the game goes on, it is `colour`'s
    /// turn and a person holds that seat.
    fn check_person(&self, colour: &str) -> Result<Colour, Refusal> {
        let Some(colour) = Colour::parse(colour) else {
            return bad(format!("'{colour}' is not a colour"));
        };
        if !self.game.in_game(colour) {
            return bad(format!("{colour} is not playing"));
        }
        if self.game.is_over() {
            return conflict("the game is over");
        }
        let to_move = self.game.to_move();
        if colour != to_move {
            return conflict(format!("it is {to_move}'s turn, not {colour}'s"));
        }
        if let Some(name) = self.engine_name(colour.index()) {
            return conflict(format!("{colour} is played by the engine {name}"));
        }
        Ok(colour)
    }

    /// Parses a cell name of this board.
    fn cell(&self, name: &str) -> Result<Cell, Refusal> {
        self.game
            .board()
            .parse(name)
            .map_err(|e| Refusal::BadRequest(e.to_string()))
    }

    /// A person's next stone of the turn (its colour is the next in colour order).
    pub fn place_stone(&mut self, colour: &str, cell: &str) -> Result<(), Refusal> {
        let colour = self.check_person(colour)?;
        let cell = self.cell(cell)?;
        let board = self.game.board();
        if self.pending.len() == self.game.players() {
            return conflict(format!(
                "{colour}'s turn already has its {} stones: play it or take one back",
                self.game.players()
            ));
        }
        if let Some(c) = self.game.stone(cell) {
            return conflict(format!("{} holds a {c} stone", board.name(cell)));
        }
        if let Some(k) = self.pending.iter().position(|&p| p == cell) {
            return conflict(format!(
                "{} already holds this turn's {} stone",
                board.name(cell),
                Colour::from_index(k)
            ));
        }
        self.pending.push(cell);
        Ok(())
    }

    /// Takes back the person's last stone of the turn.
    pub fn take_back(&mut self, colour: &str) -> Result<(), Refusal> {
        self.check_person(colour)?;
        if self.pending.pop().is_none() {
            return conflict("no stone of this turn to take back");
        }
        Ok(())
    }

    /// Plays a person's whole turn: `cells` if given, else the stones placed so far.
    pub fn play_turn(&mut self, colour: &str, cells: Option<&[String]>) -> Result<(), Refusal> {
        let colour = self.check_person(colour)?;
        let cells = match cells {
            Some(names) => names
                .iter()
                .map(|n| self.cell(n))
                .collect::<Result<Vec<_>, _>>()?,
            None => self.pending.clone(),
        };
        self.game
            .play_turn(colour, &cells)
            .map_err(|e| Refusal::Conflict(e.to_string()))?;
        self.turn_played(colour, cells);
        Ok(())
    }

    /// Book-keeping after `colour` played `cells` (already on the board).
    fn turn_played(&mut self, colour: Colour, cells: Vec<Cell>) {
        self.seats[colour.index()].used += self.turn_started.elapsed();
        // Playing the turn that was taken back keeps the rest of the line to step through.
        if self.future.last() == Some(&cells) {
            self.future.pop();
        } else {
            self.future.clear();
        }
        self.moved();
    }

    /// Whether any seat is a person's.
    fn has_person(&self) -> bool {
        self.seats.iter().any(|s| s.kind == SeatKind::Person)
    }

    /// Takes back the last whole turn, and more until a person is to move (so that an engine
    /// does not at once play again what was taken back); with engines only, one turn, and
    /// the engines pause. A person's stones of the turn are dropped first.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        if self.game.turns_played() == 0 {
            return conflict("no turn to take back");
        }
        loop {
            let last = self.game.turn_history().pop().expect("a turn was played");
            self.game.undo_turn();
            self.future.push(last);
            let to_move = self.game.to_move().index();
            if self.seats[to_move].kind == SeatKind::Person
                || !self.has_person()
                || self.game.turns_played() == 0
            {
                break;
            }
        }
        if !self.has_person() {
            self.paused = true;
        }
        self.moved();
        Ok(())
    }

    /// Steps to the position after `turn` turns, along the game and the turns taken back;
    /// engines pause so that the position can be looked at.
    pub fn goto(&mut self, turn: usize) -> Result<(), Refusal> {
        let last = self.game.turns_played() + self.future.len();
        if turn > last {
            return bad(format!("turn {turn} is past the last turn, {last}"));
        }
        if turn == self.game.turns_played() {
            return Ok(());
        }
        while self.game.turns_played() > turn {
            self.future
                .push(self.game.turn_history().pop().expect("a turn"));
            self.game.undo_turn();
        }
        while self.game.turns_played() < turn {
            let cells = self.future.pop().expect("a turn taken back");
            let colour = self.game.to_move();
            // The turns taken back were legal in this very line of play.
            if let Err(e) = self.game.play_turn(colour, &cells) {
                log::error!("replaying a turn taken back: {e}");
                self.future.clear();
                break;
            }
        }
        self.paused = true;
        self.moved();
        Ok(())
    }

    /// Lets the engines move again after stepping through the game.
    pub fn resume(&mut self) {
        self.paused = false;
    }

    /// Gives `seat` to a person or an engine (a faulted engine is restarted this way).
    pub fn set_seat(&mut self, seat: usize, kind: SeatKind) -> Result<(), Refusal> {
        if seat >= self.seats.len() {
            return bad(format!(
                "no seat {seat}: this game has seats 0 to {}",
                self.seats.len() - 1
            ));
        }
        if self.thinking_seat() == Some(seat) {
            if let Some(job) = self.thinking.take() {
                job.stop.store(true, Ordering::SeqCst);
            }
            self.analysis = None;
        }
        let s = &mut self.seats[seat];
        s.kind = kind;
        s.generation += 1;
        s.fault = None;
        // A process kept from before ends on its own thread: quitting may take a moment.
        if let Some(engine) = s.engine.take() {
            std::thread::spawn(move || engine.quit());
        }
        self.turn_started = Instant::now();
        Ok(())
    }

    /// Asks whether the colour to move, a person's, may have a hint now.
    fn check_hint(&self, colour: &str) -> Result<Colour, Refusal> {
        let colour = self.check_person(colour)?;
        if self.hinting.is_some() {
            return conflict("the engine is already looking for a hint");
        }
        Ok(colour)
    }

    /// Stops every engine job, for a session that is closing.
    pub fn stop_all(&mut self) {
        for job in [self.thinking.take(), self.hinting.take()]
            .into_iter()
            .flatten()
        {
            job.stop.store(true, Ordering::SeqCst);
        }
        for seat in &mut self.seats {
            seat.generation += 1;
            seat.engine = None;
        }
        self.hint_engine = None;
    }
}

/// A session shared between requests and engine threads, with the channel that tells the
/// page's event stream that something changed.
pub struct SessionHandle {
    session: Mutex<Session>,
    version: watch::Sender<u64>,
}

/// What a thread needs to bring an engine into the position and ask it.
struct Lent {
    engine: Option<EngineSeat>,
    choice: EngineChoice,
    movetime: f64,
    stderr: bool,
    side: usize,
    players: usize,
    history: Vec<Vec<Cell>>,
    colour: Colour,
    epoch: u64,
    stop: Arc<AtomicBool>,
}

impl Lent {
    /// The engine, started if it was not, in the position of `history`.
    fn ready(&mut self) -> Result<EngineSeat, String> {
        let mut engine = match self.engine.take() {
            Some(e) => e,
            None => EngineSeat::start(
                &self.choice,
                self.side,
                self.players,
                self.movetime,
                self.stderr,
                &self.stop,
            )?,
        };
        let board = crate::board::Board::new(self.side);
        engine.sync(&board, &self.history, &self.stop)?;
        Ok(engine)
    }
}

impl SessionHandle {
    pub fn new(session: Session) -> Arc<SessionHandle> {
        Arc::new(SessionHandle {
            session: Mutex::new(session),
            version: watch::Sender::new(0),
        })
    }

    /// The session, locked. A panic elsewhere while it was locked does not make it unusable:
    /// every change is checked before it is made.
    pub fn lock(&self) -> MutexGuard<'_, Session> {
        self.session.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn version(&self) -> u64 {
        *self.version.borrow()
    }

    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }

    /// Tells the watchers that the session changed.
    pub fn changed(&self) {
        self.version.send_modify(|v| *v += 1);
    }

    /// Runs a change; when it is made, tells the watchers and sets the engines going.
    pub fn act<T>(
        self: &Arc<Self>,
        change: impl FnOnce(&mut Session) -> Result<T, Refusal>,
    ) -> Result<T, Refusal> {
        let mut s = self.lock();
        let result = change(&mut s);
        if result.is_ok() {
            // Under the lock, so that a view's version always names the state it shows.
            self.changed();
            drop(s);
            self.kick();
        }
        result
    }

    /// Starts the engine of the seat to move thinking, if that seat is an engine's that is
    /// not thinking, faulted or paused.
    pub fn kick(self: &Arc<Self>) {
        let mut s = self.lock();
        if s.thinking.is_some() || s.paused || s.game.is_over() {
            return;
        }
        let colour = s.game.to_move();
        let seat = colour.index();
        let SeatKind::Engine { choice, movetime } = s.seats[seat].kind else {
            return;
        };
        if s.seats[seat].fault.is_some() {
            return;
        }
        let engine = s.seats[seat].engine.take();
        let lent = s.lend(Some(seat), engine, choice, movetime, colour);
        let generation = s.seats[seat].generation;
        self.changed();
        drop(s);
        let handle = Arc::clone(self);
        std::thread::spawn(move || handle.think(lent, seat, generation));
    }

    /// The thinking thread of the engine of `seat`.
    fn think(self: Arc<Self>, mut lent: Lent, seat: usize, generation: u64) {
        let board = crate::board::Board::new(lent.side);
        let epoch = lent.epoch;
        let answer = lent.ready().and_then(|mut engine| {
            let weak = Arc::downgrade(&self);
            let cells = engine.think(lent.colour, &board, &lent.stop, &mut |a| {
                if let Some(handle) = weak.upgrade() {
                    let mut s = handle.lock();
                    if s.epoch == epoch {
                        s.analysis = Some(a);
                        handle.changed();
                    }
                }
            });
            match cells {
                Ok(cells) => Ok((engine, cells)),
                Err(e) => Err(e),
            }
        });
        let mut s = self.lock();
        let current = s.epoch == epoch && s.seats[seat].generation == generation;
        if current {
            s.thinking = None;
        }
        match answer {
            _ if !current => {
                // The position or the seat changed while it thought: the answer is void; an
                // engine still fit for the seat is kept (the next sync takes its turn back).
                if let Ok((engine, _)) = answer {
                    if s.seats[seat].generation == generation && s.seats[seat].engine.is_none() {
                        s.seats[seat].engine = Some(engine);
                    }
                }
            }
            Ok((engine, cells)) => match s.game.play_turn(lent.colour, &cells) {
                Ok(()) => {
                    s.seats[seat].engine = Some(engine);
                    // Its last estimate stays on show until the position changes again.
                    let analysis = s.analysis.take();
                    s.turn_played(lent.colour, cells);
                    s.analysis = analysis;
                }
                Err(e) => {
                    let names = board.names(&cells);
                    s.fault(seat, format!("played the illegal turn '{names}' ({e})"));
                }
            },
            Err(e) => s.fault(seat, e),
        }
        self.changed();
        drop(s);
        self.kick();
    }

    /// Asks the hint engine for `colour`'s best turn; the answer arrives as the session's
    /// hint (or a notice if the engine fails).
    pub fn hint(self: &Arc<Self>, colour: &str) -> Result<(), Refusal> {
        let mut s = self.lock();
        let colour = s.check_hint(colour)?;
        let engine = s.hint_engine.take();
        let movetime = s.hint_movetime;
        let mut lent = s.lend(None, engine, 0, movetime, colour);
        self.changed();
        drop(s);
        let handle = Arc::clone(self);
        std::thread::spawn(move || {
            let board = crate::board::Board::new(lent.side);
            let answer = lent.ready().and_then(|mut engine| {
                let cells = engine.suggest(lent.colour, &board, &lent.stop)?;
                Ok((engine, cells))
            });
            let mut s = handle.lock();
            s.hinting = None;
            match answer {
                Ok((engine, cells)) => {
                    s.hint_engine = Some(engine);
                    s.hint = Some(Hint {
                        colour: lent.colour,
                        cells,
                        epoch: lent.epoch,
                    });
                }
                Err(e) if !lent.stop.load(Ordering::SeqCst) => {
                    let name = lent.choice.name;
                    s.notice(format!("the hint engine {name} failed: {e}"));
                }
                Err(_) => {}
            }
            handle.changed();
            drop(s);
        });
        Ok(())
    }
}

impl Session {
    /// Starts a job for the engine of `seat` (or the hint engine, `None`): what its thread
    /// needs, and the flag that stops it kept in the session.
    fn lend(
        &mut self,
        seat: Option<usize>,
        engine: Option<EngineSeat>,
        choice: usize,
        movetime: f64,
        colour: Colour,
    ) -> Lent {
        let stop = Arc::new(AtomicBool::new(false));
        let job = Some(Job {
            seat,
            stop: Arc::clone(&stop),
        });
        if seat.is_some() {
            self.thinking = job;
        } else {
            self.hinting = job;
        }
        Lent {
            engine,
            choice: self.catalogue[choice].clone(),
            movetime,
            stderr: self.engine_stderr,
            side: self.game.board().side(),
            players: self.game.players(),
            history: self.game.turn_history(),
            colour,
            epoch: self.epoch,
            stop,
        }
    }

    /// The engine of `seat` failed: it is gone, the seat waits to be given again.
    fn fault(&mut self, seat: usize, what: String) {
        let colour = Colour::from_index(seat);
        let name = self.engine_name(seat).unwrap_or("?").to_string();
        let text = format!("{colour}'s engine {name} {what}");
        self.seats[seat].fault = Some(text.clone());
        self.seats[seat].engine = None;
        self.analysis = None;
        self.notice(format!(
            "{text}. The game goes on: give the seat to a person or restart the engine."
        ));
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_all();
    }
}

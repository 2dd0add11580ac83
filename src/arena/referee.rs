//! The referee: plays one game between engine processes, one process per seat, checking
//! every turn with [`Game`] and scoring the end itself. Engines' own scores are never asked
//! for nor trusted.
//!
//! Results, by the rules: the game's winner is [`Game::winner`] (the official tie rule gives
//! every game a winner, so there are no draws). An engine that crashes, hangs past its time
//! plus a margin, refuses a command, answers malformed text or an illegal turn forfeits: the
//! game stops there, the faulty seat loses, and the winner is the best of the *other* seats
//! by the score of the position reached (ties again to the colour last in colour order). With
//! two players that is simply the opponent.

use super::engine_proc::{EngineProc, Fault};
use crate::board::Cell;
use crate::game::{Colour, Game};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Time control of one seat, in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Byo-yomi: this much per turn (`time_settings 0 T 1`).
    pub movetime: Option<f64>,
    /// Absolute time for the whole game (`time_left` before every genmove).
    pub game_time: Option<f64>,
    /// Longest wait for any answer that has no time budget: start-up, set-up, `play`, and
    /// `genmove` when neither time is set.
    pub timeout: f64,
}

impl TimeControl {
    /// The `time_settings` command, if any time is set.
    pub fn settings_command(&self) -> Option<String> {
        match (self.game_time, self.movetime) {
            (None, None) => None,
            (main, byo) => Some(format!(
                "time_settings {} {} {}",
                secs(main.unwrap_or(0.0)),
                secs(byo.unwrap_or(0.0)),
                u8::from(byo.is_some())
            )),
        }
    }

    /// The wait allowed for an answer when the engine may think `budget` seconds: the
    /// budget plus a margin of 20 % and one second (pipes, process scheduling, a loaded CI).
    pub fn limit(&self, budget: Option<f64>) -> Duration {
        Duration::from_secs_f64(budget.map_or(self.timeout, |b| b * 1.2 + 1.0))
    }

    /// The wait allowed for any command other than a timed `genmove`.
    pub fn command_limit(&self) -> Duration {
        Duration::from_secs_f64(self.timeout)
    }
}

/// Seconds as short decimal text: `2`, `0.25`, `1.5`.
pub fn secs(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Played to the end by the rules.
    Finished,
    /// The seat forfeited for the reason given.
    Forfeit { seat: usize, reason: String },
}

/// How a game ended, in words any game can fill. Seat k is the engine that started the game
/// with colour k (a swap later exchanges the colours of seats 0 and 1).
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The seat that won; `None` for a draw.
    pub winner_seat: Option<usize>,
    /// The winning colour's name at the end (`draw` for a draw).
    pub winner: String,
    pub ending: Ending,
    /// The result as `final_score` gives it, or `<colour>+F (<reason>)` for a forfeit.
    pub result: String,
    /// Each colour's name, in colour order (the seats' starting colours).
    pub colours: Vec<String>,
    /// Each colour's score in the final (or forfeit) position, as text.
    pub scores: Vec<String>,
    /// Turns played, opening included.
    pub turns: usize,
    pub opening_turns: usize,
    /// Thinking time of each seat (wall clock around its genmoves).
    pub time_used: Vec<Duration>,
    /// Per seat, the longest genmove as a fraction of its time budget (1.0 = all of it);
    /// 0 for a seat without a budget or without a timed genmove.
    pub worst_turn: Vec<f64>,
    /// The game as a transcript (set-up and `play` lines), to replay it.
    pub transcript: String,
}

impl Outcome {
    /// An Omega game's outcome from its final position; `forfeit` names the reason when a
    /// seat forfeited (the winner is then `winner`, the best other seat).
    fn omega(game: &Game, winner: Colour, ending: Ending, opening_turns: usize) -> Outcome {
        let players = game.players();
        let result = match &ending {
            Ending::Finished => {
                let (w, margin) = game.winner();
                format!("{w}+{margin}")
            }
            Ending::Forfeit { reason, .. } => format!("{winner}+F ({reason})"),
        };
        Outcome {
            winner_seat: Some(winner.index()),
            winner: winner.to_string(),
            ending,
            result,
            colours: game.colours().map(|c| c.to_string()).collect(),
            scores: game.scores().iter().map(u128::to_string).collect(),
            turns: game.turns_played(),
            opening_turns,
            time_used: vec![Duration::ZERO; players],
            worst_turn: vec![0.0; players],
            transcript: crate::transcript::write(game),
        }
    }
}

/// The outcome of a game stopped because `seat` forfeits in position `game`.
pub fn forfeit(
    game: &Game,
    opening_turns: usize,
    seat: usize,
    reason: String,
    time_used: Vec<Duration>,
) -> Outcome {
    // The best other seat by the rules' tie rule.
    let winner = game
        .best_of(|c| c.index() != seat)
        .unwrap_or(Colour::from_index(1 - seat.min(1)));
    let ending = Ending::Forfeit { seat, reason };
    Outcome {
        worst_turn: vec![0.0; time_used.len()],
        time_used,
        ..Outcome::omega(game, winner, ending, opening_turns)
    }
}

/// Per-seat clock state.
pub struct Clock {
    /// Main time left (absolute time control), if any.
    main: Option<f64>,
    byo: Option<f64>,
}

impl Clock {
    pub fn new(time: &TimeControl) -> Clock {
        Clock {
            main: time.game_time,
            byo: time.movetime,
        }
    }

    fn budget(&self) -> Option<f64> {
        match (self.main, self.byo) {
            (None, None) => None,
            (m, b) => Some(m.unwrap_or(0.0) + b.unwrap_or(0.0)),
        }
    }
}

/// Asks `engine` for `colour`'s move under its clock: `time_left` first when the seat has
/// absolute time, then `genmove COLOUR`, waiting at most the budget plus the margin. The time
/// is charged to `clock`, added to `used.0` and the worst fraction of the budget kept in
/// `used.1`. Errors: the command that failed and the fault.
pub fn timed_genmove(
    engine: &mut EngineProc,
    colour: &str,
    time: &TimeControl,
    clock: &mut Clock,
    used: (&mut Duration, &mut f64),
    stop: &AtomicBool,
) -> Result<String, (String, Fault)> {
    if let Some(main) = clock.main {
        let cmd = match clock.byo {
            Some(b) if main <= 0.0 => format!("time_left {colour} {} 1", secs(b)),
            _ => format!("time_left {colour} {} 0", secs(main)),
        };
        engine
            .command(&cmd, time.command_limit(), stop)
            .map_err(|f| (cmd, f))?;
    }
    let cmd = format!("genmove {colour}");
    let budget = clock.budget();
    let start = Instant::now();
    let answer = engine.command(&cmd, time.limit(budget), stop);
    let elapsed = start.elapsed();
    *used.0 += elapsed;
    if let Some(b) = budget.filter(|&b| b > 0.0) {
        *used.1 = used.1.max(elapsed.as_secs_f64() / b);
    }
    if let Some(main) = clock.main.as_mut() {
        *main = (*main - elapsed.as_secs_f64()).max(0.0);
    }
    answer.map_err(|f| (cmd, f))
}

/// Plays one game. `seats[k]` plays colour k under the time control `times[k]`. `None` when
/// the match is stopping (no result).
pub fn play_game(
    seats: &mut [EngineProc],
    size: usize,
    times: &[TimeControl],
    opening: &[Vec<Cell>],
    stop: &AtomicBool,
) -> Option<Outcome> {
    let players = seats.len();
    assert_eq!(times.len(), players, "one time control a seat");
    let mut game = Game::new(size, players).expect("validated set-up");
    let mut used = vec![Duration::ZERO; players];
    let mut worst_turn = vec![0.0f64; players];
    let mut clocks: Vec<Clock> = times.iter().map(Clock::new).collect();
    // `seat` forfeits for `reason`: the game ends here.
    macro_rules! lose {
        ($seat:expr, $reason:expr) => {{
            let mut outcome = forfeit(&game, opening.len(), $seat, $reason, used);
            outcome.worst_turn = worst_turn;
            return Some(outcome);
        }};
    }
    // A fault of `seat` on `cmd`: None if aborted, else the forfeit.
    macro_rules! fault {
        ($seat:expr, $cmd:expr, $fault:expr) => {{
            let f: Fault = $fault;
            if f == Fault::Aborted {
                return None;
            }
            lose!(
                $seat,
                format!("{} {} on '{}'", Colour::from_index($seat), f, $cmd)
            )
        }};
    }

    for (seat, engine) in seats.iter_mut().enumerate() {
        let mut setup = vec![
            format!("boardsize {size}"),
            format!("players {players}"),
            "clear_board".to_string(),
        ];
        setup.extend(times[seat].settings_command());
        for cmd in &setup {
            if let Err(f) = engine.command(cmd, times[seat].command_limit(), stop) {
                fault!(seat, cmd, f);
            }
        }
    }
    let names = |g: &Game, cells: &[Cell]| -> String {
        let words: Vec<String> = cells.iter().map(|&c| g.board().name(c)).collect();
        words.join(" ")
    };

    for turn in opening {
        let colour = game.to_move();
        let cmd = format!("play {colour} {}", names(&game, turn));
        game.play_turn(colour, turn).expect("openings are legal");
        for (seat, engine) in seats.iter_mut().enumerate() {
            if let Err(f) = engine.command(&cmd, times[seat].command_limit(), stop) {
                fault!(seat, cmd, f);
            }
        }
    }

    while !game.is_over() {
        let colour = game.to_move();
        let seat = colour.index();
        let answer = timed_genmove(
            &mut seats[seat],
            colour.name(),
            &times[seat],
            &mut clocks[seat],
            (&mut used[seat], &mut worst_turn[seat]),
            stop,
        );
        let answer = match answer {
            Ok(a) => a,
            Err((cmd, f)) => fault!(seat, cmd, f),
        };
        let cmd = format!("genmove {colour}");
        if answer.trim().eq_ignore_ascii_case("resign") {
            lose!(seat, format!("{colour} resigned"));
        }
        let cells: Result<Vec<Cell>, _> = answer
            .split_whitespace()
            .map(|w| game.board().parse(w))
            .collect();
        let cells = match cells {
            Ok(c) if c.len() == players => c,
            Ok(_) => fault!(
                seat,
                cmd,
                Fault::Malformed(format!("{answer} (need {players} cells)"))
            ),
            Err(e) => fault!(seat, cmd, Fault::Malformed(format!("{answer} ({e})"))),
        };
        if let Err(e) = game.play_turn(colour, &cells) {
            lose!(seat, format!("{colour} illegal turn '{answer}' ({e})"));
        }
        let play = format!("play {colour} {}", names(&game, &cells));
        for (other, engine) in seats.iter_mut().enumerate() {
            if other != seat {
                if let Err(f) = engine.command(&play, times[other].command_limit(), stop) {
                    fault!(other, play, f);
                }
            }
        }
    }
    Some(Outcome {
        time_used: used,
        worst_turn,
        ..Outcome::omega(&game, game.winner().0, Ending::Finished, opening.len())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_settings_and_limits() {
        let none = TimeControl {
            movetime: None,
            game_time: None,
            timeout: 60.0,
        };
        assert_eq!(none.settings_command(), None);
        assert_eq!(none.limit(None), Duration::from_secs(60));
        let mt = TimeControl {
            movetime: Some(0.5),
            ..none
        };
        assert_eq!(mt.settings_command().unwrap(), "time_settings 0 0.5 1");
        assert_eq!(mt.limit(Some(0.5)), Duration::from_secs_f64(1.6));
        let abs = TimeControl {
            game_time: Some(30.0),
            ..none
        };
        assert_eq!(abs.settings_command().unwrap(), "time_settings 30 0 0");
    }

    #[test]
    fn forfeit_goes_to_best_other_seat() {
        let mut g = Game::new(3, 3).unwrap();
        // White's turn: white a1, black c3, red e5 (far apart: every colour scores 1).
        let cells: Vec<Cell> = ["a1", "c3", "e5"]
            .iter()
            .map(|w| g.board().parse(w).unwrap())
            .collect();
        g.play_turn(Colour::White, &cells).unwrap();
        // Black forfeits: white and red tie at 1, red is later in colour order.
        let o = forfeit(&g, 0, 1, "test".into(), vec![Duration::ZERO; 3]);
        assert_eq!((o.winner.as_str(), o.winner_seat), ("red", Some(2)));
        let o = forfeit(&g, 0, 2, "test".into(), vec![Duration::ZERO; 3]);
        assert_eq!((o.winner.as_str(), o.winner_seat), ("black", Some(1)));
        let two = Game::new(3, 2).unwrap();
        assert_eq!(forfeit(&two, 0, 1, "x".into(), vec![]).winner_seat, Some(0));
        assert_eq!(
            forfeit(&two, 0, 0, "x".into(), vec![]).result,
            "black+F (x)"
        );
    }
}

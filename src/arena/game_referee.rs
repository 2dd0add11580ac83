//! The referee of the games other than Omega (`omega-match --game yavalath|hexed`): plays one
//! game between engine processes with the crate's [`Rules`], one process per seat, exactly
//! as [`super::referee`] does for Omega: every move checked, the end and the result the
//! rules' own, an engine that crashes, hangs, answers malformed text or an illegal move
//! forfeits.
//!
//! Seat k is the engine that starts with colour k. A swap (`play black swap`, the pie rule)
//! exchanges the colours of seats 0 and 1; the record says so (`# swap:`). Games can be
//! drawn. A forfeit gives the game to the next seat in colour order after the faulty one (with
//! two players, the opponent).

use super::engine_proc::{EngineProc, Fault};
use super::referee::{timed_genmove, Clock, Ending, Outcome, TimeControl};
use crate::games::engine::transcript;
use crate::games::hexed::Hexed;
use crate::games::yavalath::Yavalath;
use crate::games::{GameMove, GameResult, Rules};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What a game other than Omega is played with.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSetup {
    pub name: String,
    pub size: usize,
    pub players: usize,
    /// The swap rule, when the match sets it (`--swap`); the game's default otherwise.
    pub swap: Option<bool>,
    /// Random opening moves (`--openings random:T`), from `seed`.
    pub random_moves: usize,
    /// A start drawn from `seed` (`--random-start`) for games with a start of their own.
    pub random_start: bool,
    pub seed: u64,
}

/// Mixed into a game's seed for its random start (`--random-start`).
const RANDOM_START_KEY: u64 = 0x5747_a27e_0000_0001;

/// The record line of a game whose seats exchanged colours.
pub const SWAP_LINE: &str = "# swap: the seats exchanged colours (white and black)";

/// Plays one game of `setup`; `None` when the match is stopping or the game is unknown.
pub fn play_game(
    setup: &GameSetup,
    seats: &mut [EngineProc],
    times: &[TimeControl],
    stop: &AtomicBool,
) -> Option<Outcome> {
    match setup.name.as_str() {
        Yavalath::NAME => play::<Yavalath>(setup, seats, times, stop),
        Hexed::NAME => play::<Hexed>(setup, seats, times, stop),
        _ => None,
    }
}

/// The colour names of the game's seats (seat k starts with colour k), or why the set-up
/// is refused.
pub fn check_setup(setup: &GameSetup) -> Result<Vec<String>, String> {
    fn names<R: Rules>(s: &GameSetup) -> Result<Vec<String>, String> {
        let game = R::new(s.size, s.players, s.swap.unwrap_or(R::DEFAULT_SWAP)).map_err(|e| {
            format!(
                "{} refuses size {} with {} players ({e:?})",
                R::NAME,
                s.size,
                s.players
            )
        })?;
        Ok(game.colour_names().iter().map(|c| c.to_string()).collect())
    }
    match setup.name.as_str() {
        Yavalath::NAME => names::<Yavalath>(setup),
        Hexed::NAME => names::<Hexed>(setup),
        other => Err(format!("unknown game '{other}' (omega, yavalath or hexed)")),
    }
}

/// The board side a game uses when `--size` is not given.
pub fn default_size(name: &str) -> Option<usize> {
    match name {
        Yavalath::NAME => Some(Yavalath::DEFAULT_SIDE),
        Hexed::NAME => Some(Hexed::DEFAULT_SIDE),
        _ => None,
    }
}

/// The outcome of a game stopped before it started because `seat` could not start.
pub fn failed_start(setup: &GameSetup, seat: usize, reason: String) -> Option<Outcome> {
    fn make<R: Rules>(setup: &GameSetup, seat: usize, reason: String) -> Option<Outcome> {
        let game = R::new(
            setup.size,
            setup.players,
            setup.swap.unwrap_or(R::DEFAULT_SWAP),
        )
        .ok()?;
        let seats: Vec<usize> = (0..setup.players).collect();
        let winner = Some((seat + 1) % setup.players);
        let mut o = outcome(&game, winner, Ending::Forfeit { seat, reason }, &seats, 0);
        o.time_used = vec![Duration::ZERO; setup.players];
        o.worst_turn = vec![0.0; setup.players];
        Some(o)
    }
    match setup.name.as_str() {
        Yavalath::NAME => make::<Yavalath>(setup, seat, reason),
        Hexed::NAME => make::<Hexed>(setup, seat, reason),
        _ => None,
    }
}

fn colour_names<R: Rules>(game: &R) -> Vec<String> {
    game.colour_names().iter().map(|c| c.to_string()).collect()
}

/// The outcome of `game` as it stands: won by `winner_seat` (`None`: drawn), ended by
/// `ending`; `seat_of_colour` says which seat holds each colour now. Time fields are empty.
fn outcome<R: Rules>(
    game: &R,
    winner_seat: Option<usize>,
    ending: Ending,
    seat_of_colour: &[usize],
    opening_turns: usize,
) -> Outcome {
    let colours = colour_names(game);
    let winner = match winner_seat {
        Some(w) => colours[seat_of_colour.iter().position(|&s| s == w).unwrap_or(w)].clone(),
        None => "draw".into(),
    };
    let result = match &ending {
        Ending::Finished => game.final_score(),
        Ending::Forfeit { reason, .. } => format!("{winner}+F ({reason})"),
    };
    let score = game.score();
    let words: Vec<&str> = score.split_whitespace().collect();
    let scores = (0..game.players())
        .map(|k| words.get(2 * k + 1).unwrap_or(&"?").to_string())
        .collect();
    let mut text = transcript(game);
    if seat_of_colour.first() == Some(&1) {
        text = format!("{SWAP_LINE}\n{text}");
    }
    Outcome {
        winner_seat,
        winner,
        ending,
        result,
        colours,
        scores,
        turns: game.history().len(),
        opening_turns,
        time_used: Vec::new(),
        worst_turn: Vec::new(),
        transcript: text,
    }
}

fn play<R: Rules>(
    setup: &GameSetup,
    seats: &mut [EngineProc],
    times: &[TimeControl],
    stop: &AtomicBool,
) -> Option<Outcome> {
    let players = seats.len();
    let swap = setup.swap.unwrap_or(R::DEFAULT_SWAP);
    let mut game = R::new(setup.size, players, swap).ok()?;
    if setup.random_start {
        // Drawn apart from the opening moves' generator, which starts from the same seed.
        game = game
            .random_start(setup.seed ^ RANDOM_START_KEY)
            .unwrap_or(game);
    }
    let colours = colour_names(&game);
    let mut seat_of_colour: Vec<usize> = (0..players).collect();
    let mut used = vec![Duration::ZERO; players];
    let mut worst = vec![0.0f64; players];
    let mut clocks: Vec<Clock> = times.iter().map(Clock::new).collect();
    let mut opening_moves = 0;
    // `seat` forfeits for `reason`: the next seat in colour order wins.
    macro_rules! lose {
        ($seat:expr, $reason:expr) => {{
            let seat: usize = $seat;
            let ending = Ending::Forfeit {
                seat,
                reason: $reason,
            };
            let mut o = outcome(
                &game,
                Some((seat + 1) % players),
                ending,
                &seat_of_colour,
                opening_moves,
            );
            o.time_used = used;
            o.worst_turn = worst;
            return Some(o);
        }};
    }
    macro_rules! fault {
        ($seat:expr, $colour:expr, $cmd:expr, $fault:expr) => {{
            let f: Fault = $fault;
            if f == Fault::Aborted {
                return None;
            }
            lose!($seat, format!("{} {} on '{}'", $colour, f, $cmd))
        }};
    }

    for (seat, engine) in seats.iter_mut().enumerate() {
        let mut commands = vec![
            format!("game {}", R::NAME),
            format!("boardsize {}", setup.size),
            format!("players {players}"),
            format!("rules swap {}", if swap { "on" } else { "off" }),
            "clear_board".to_string(),
        ];
        if setup.random_start {
            // Only then: an engine without the game's start command plays the default one.
            commands.extend(game.setup_commands());
        }
        commands.extend(times[seat].settings_command());
        for cmd in &commands {
            if let Err(f) = engine.command(cmd, times[seat].command_limit(), stop) {
                fault!(seat, colours[seat], cmd, f);
            }
        }
    }

    // The opening: seeded random placements (never a swap, never past the end).
    let mut rng = StdRng::seed_from_u64(setup.seed);
    for _ in 0..setup.random_moves {
        let Some(colour) = game.to_move() else { break };
        let mut legal: Vec<GameMove> = game
            .legal_moves()
            .into_iter()
            .filter(|m| matches!(m, GameMove::Place(_)))
            .collect();
        legal.shuffle(&mut rng);
        let Some(&m) = legal.first() else { break };
        debug_assert!(game.check(colour, m).is_ok());
        let cmd = format!("play {} {}", colours[colour], game.move_name(m));
        game.play(m);
        if game.is_over() {
            game.undo();
            break;
        }
        opening_moves += 1;
        for (seat, engine) in seats.iter_mut().enumerate() {
            if let Err(f) = engine.command(&cmd, times[seat].command_limit(), stop) {
                fault!(seat, colours[seat], cmd, f);
            }
        }
    }

    while let Some(colour) = game.to_move() {
        let seat = seat_of_colour[colour];
        let name = &colours[colour];
        let answer = timed_genmove(
            &mut seats[seat],
            name,
            &times[seat],
            &mut clocks[seat],
            (&mut used[seat], &mut worst[seat]),
            stop,
        );
        let answer = match answer {
            Ok(a) => a,
            Err((cmd, f)) => fault!(seat, name, cmd, f),
        };
        let word = answer.trim();
        if word.eq_ignore_ascii_case("resign") {
            lose!(seat, format!("{name} resigned"));
        }
        let m = match game.parse_move(word) {
            Ok(m) => m,
            Err(e) => fault!(
                seat,
                name,
                format!("genmove {name}"),
                Fault::Malformed(format!("{answer} ({e})"))
            ),
        };
        if let Err(e) = game.check(colour, m) {
            lose!(seat, format!("{name} illegal move '{word}' ({e})"));
        }
        let play = format!("play {name} {}", game.move_name(m));
        game.play(m);
        if m == GameMove::Swap {
            seat_of_colour.swap(0, 1);
        }
        for (other, engine) in seats.iter_mut().enumerate() {
            if other != seat {
                if let Err(f) = engine.command(&play, times[other].command_limit(), stop) {
                    let c = seat_of_colour
                        .iter()
                        .position(|&s| s == other)
                        .unwrap_or(other);
                    fault!(other, colours[c], play, f);
                }
            }
        }
    }
    let winner_seat = match game.result() {
        Some(GameResult::Win(c)) => Some(seat_of_colour[c]),
        _ => None,
    };
    let mut o = outcome(
        &game,
        winner_seat,
        Ending::Finished,
        &seat_of_colour,
        opening_moves,
    );
    o.time_used = used;
    o.worst_turn = worst;
    Some(o)
}

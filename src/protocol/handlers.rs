//! What each command does: a few lines each. Commands that mean the same in every game are
//! answered here; the others go to Omega's engine or, while another game is played
//! (`game NAME`), to [`super::variant`].

use super::commands::{usage_error, Command, COMMANDS};
use super::{render, variant, Answer, Reply, Session};
use crate::board::{parse_coord, Cell, NotationError};
use crate::game::{Colour, MoveError};
use crate::games::engine::{new_variant, VariantEngine, GAMES};
use crate::player::{Analysis, PlayerKind, Watch};
use crate::solver::Outcome;
use crate::timeman::TimeControl;
use crate::transcript;
use std::time::Duration;

/// Runs one parsed command; streaming commands write their lines on `answer`. On any error
/// the game is exactly as it was.
pub fn run(session: &mut Session, command: Command, answer: &mut Answer) -> Reply {
    match command {
        Command::ProtocolVersion => Ok("2".into()),
        Command::Name => Ok("omega".into()),
        Command::Version => Ok(env!("CARGO_PKG_VERSION").into()),
        Command::KnownCommand(name) => Ok(COMMANDS.iter().any(|c| c.name == name).to_string()),
        Command::ListCommands => Ok(COMMANDS
            .iter()
            .map(|c| c.name)
            .collect::<Vec<_>>()
            .join("\n")),
        Command::Quit => {
            session.quit = true;
            Ok(String::new())
        }
        Command::GoguiInterrupt => Ok(String::new()),
        Command::Game(name) => switch_game(session, &name),
        Command::ListGames => Ok(GAMES.join("\n")),
        Command::LoadGame(file, turns) => load_game(session, &file, turns),
        command if session.variant.is_some() => variant::run(session, command, answer),
        command => omega(session, command, answer),
    }
}

/// `game NAME`: the game's default board, a new game; the time control carries over.
pub fn switch_game(session: &mut Session, name: &str) -> Reply {
    let engine = &mut session.engine;
    if name == "omega" {
        let player = &engine.config().player_name;
        if PlayerKind::parse(player).is_none() {
            return Err(format!("omega has no player '{player}'"));
        }
        session.variant = None;
        engine.set_up(5, 2).expect("the default set-up is valid");
        return Ok(String::new());
    }
    session.variant = Some(new_game(session, name)?);
    Ok(String::new())
}

/// A new engine of the game `name` (not Omega), with the session's player, options and time
/// control: errors for an unknown game or a player the game does not have.
pub fn new_game(session: &Session, name: &str) -> Result<Box<dyn VariantEngine>, String> {
    let engine = &session.engine;
    let config = engine.config();
    let made = new_variant(
        name,
        &config.player_name,
        &config.options,
        config.move_time,
        &engine.stop_signal(),
    );
    let mut variant = match made {
        None => return Err(format!("unknown game '{name}' (list_games)")),
        Some(made) => made?,
    };
    if let Some(control) = engine.time_control() {
        variant.set_time_control(control);
    }
    Ok(variant)
}

/// Omega's colour named `word`, or the syntax error of `command`.
fn colour(word: &str, command: &str) -> Result<Colour, String> {
    Colour::parse(word).ok_or_else(|| usage_error(command))
}

/// The commands of Omega.
fn omega(session: &mut Session, command: Command, answer: &mut Answer) -> Reply {
    let engine = &mut session.engine;
    match command {
        Command::BoardSize(side) => set_up(session, Some(side), None, "unacceptable size"),
        Command::Players(k) => set_up(session, None, Some(k), "unacceptable player count"),
        Command::ClearBoard => {
            engine.clear_board();
            Ok(String::new())
        }
        Command::Play(c, words) => play(session, colour(&c, "play")?, &words),
        Command::Genmove(c) => genmove(session, colour(&c, "genmove")?, true),
        Command::RegGenmove(c) => genmove(session, colour(&c, "reg_genmove")?, false),
        Command::Analyze(c, interval) => analyze(session, colour(&c, "analyze")?, interval, answer),
        Command::GenmoveAnalyze(c, interval) => {
            genmove_analyze(session, colour(&c, "genmove_analyze")?, interval, answer)
        }
        Command::ListStones(c) => {
            let colour = colour(&c, "list_stones")?;
            in_game(session, colour)?;
            let game = session.engine.game();
            let cells: Vec<Cell> = game
                .board()
                .cells()
                .filter(|&c| game.stone(c) == Some(colour))
                .collect();
            Ok(names(session, &cells))
        }
        Command::SaveGame(file) => save(
            &file,
            &transcript::write_with_swap(engine.game(), engine.swapped()),
        ),
        Command::Solve(seconds) => solve(session, seconds),
        Command::Undo => match engine.undo() {
            true => Ok(String::new()),
            false => Err("cannot undo".into()),
        },
        Command::Score => Ok(score(session)),
        Command::FinalScore => {
            let (winner, margin) = engine.game().winner();
            Ok(format!("{winner}+{margin}"))
        }
        Command::Showboard => Ok(format!("\n{}", render::draw(engine.game()))),
        Command::TimeSettings {
            main,
            byo_yomi,
            stones,
        } => {
            engine.set_time_control(TimeControl::from_gtp(main, byo_yomi, stones));
            Ok(String::new())
        }
        Command::TimeLeft {
            colour: c,
            seconds,
            stones,
        } => {
            let colour = colour(&c, "time_left")?;
            in_game(session, colour)?;
            session.engine.set_time_left(colour, seconds, stones);
            Ok(String::new())
        }
        Command::ToMove => match engine.game().is_over() {
            true => Err("game is over".into()),
            false => Ok(engine.game().to_move().to_string()),
        },
        Command::Rules(None) => Ok(rules_text(engine.swap_rule())),
        Command::Rules(Some(on)) => engine.set_swap_rule(on).map(|_| String::new()),
        Command::HexedStart(..) => Err(only_in("hexed_start", "hexed", "omega")),
        Command::ProtocolVersion
        | Command::Name
        | Command::Version
        | Command::KnownCommand(_)
        | Command::ListCommands
        | Command::Quit
        | Command::GoguiInterrupt
        | Command::Game(_)
        | Command::ListGames
        | Command::LoadGame(..) => Err("answered before any game's commands".into()),
    }
}

/// `rules`' answer.
pub fn rules_text(swap: bool) -> String {
    format!("swap {}", if swap { "on" } else { "off" })
}

/// The refusal of a command that only one game has.
pub fn only_in(command: &str, game: &str, playing: &str) -> String {
    format!("{command} is for {game} only (the game is {playing})")
}

/// Writes `text` to `file` (`savegame`).
pub fn save(file: &str, text: &str) -> Reply {
    std::fs::write(file, text)
        .map(|_| String::new())
        .map_err(|e| format!("cannot write {file}: {e}"))
}

/// `boardsize` and `players`: a new empty game with one of the two changed.
fn set_up(session: &mut Session, side: Option<u64>, players: Option<u64>, refusal: &str) -> Reply {
    let game = session.engine.game();
    let side = side.map_or(game.board().side(), |s| s.min(usize::MAX as u64) as usize);
    let players = players.map_or(game.players(), |k| k.min(usize::MAX as u64) as usize);
    session
        .engine
        .set_up(side, players)
        .map(|_| String::new())
        .map_err(|_| refusal.to_string())
}

fn in_game(session: &Session, colour: Colour) -> Result<(), String> {
    match session.engine.game().in_game(colour) {
        true => Ok(()),
        false => Err(MoveError::NotPlaying(colour).to_string()),
    }
}

fn play(session: &mut Session, colour: Colour, words: &[String]) -> Reply {
    if let [word] = words {
        if word == "swap" {
            return session
                .engine
                .swap(colour)
                .map(|_| String::new())
                .map_err(|e| format!("illegal move: {e}"));
        }
    }
    let mut coords = Vec::with_capacity(words.len());
    for word in words {
        match parse_coord(word) {
            Ok(c) => coords.push(c),
            Err(e @ NotationError::Syntax(_)) => return Err(format!("syntax error: {e}")),
            Err(e @ NotationError::OffBoard(_)) => return Err(format!("illegal move: {e}")),
        }
    }
    session
        .engine
        .play(colour, &coords)
        .map(|_| String::new())
        .map_err(|e| format!("illegal move: {e}"))
}

/// The cells' names, separated by spaces.
fn names(session: &Session, cells: &[Cell]) -> String {
    session.engine.game().board().names(cells)
}

fn genmove(session: &mut Session, colour: Colour, commit: bool) -> Reply {
    let turn = session.interruptible(|s| s.engine.genmove(colour, commit, None));
    turn.map(|turn| turn_name(session, turn))
        .map_err(|e| e.to_string())
}

/// A turn's cells, or `swap`.
fn turn_name(session: &Session, turn: Option<Vec<Cell>>) -> String {
    match turn {
        Some(cells) => names(session, &cells),
        None => "swap".into(),
    }
}

/// An interval in centiseconds as a duration (0 counts as 1).
pub fn interval(centiseconds: u64) -> Duration {
    Duration::from_millis(centiseconds.clamp(1, 1 << 32) * 10)
}

fn analyze(session: &mut Session, colour: Colour, every: u64, answer: &mut Answer) -> Reply {
    if !session.engine.can_analyze() {
        return Err("analyze needs a tree-search player (--player mcts or mcts-plain)".into());
    }
    streamed(session, colour, every, answer, |session, watch| {
        session.until_next_line(|s| s.engine.analyze(colour, watch))
    })
    .map(|_| String::new())
}

fn genmove_analyze(
    session: &mut Session,
    colour: Colour,
    every: u64,
    answer: &mut Answer,
) -> Reply {
    let turn = streamed(session, colour, every, answer, |session, watch| {
        session.interruptible(|s| s.engine.genmove(colour, true, Some(watch)))
    })?;
    Ok(format!("play {}", turn_name(session, turn)))
}

/// Runs `search` for COLOUR, the player to move, with the answer started and an `info` line
/// written at every interval; refused before anything is written when COLOUR may not move.
fn streamed<T>(
    session: &mut Session,
    colour: Colour,
    every: u64,
    answer: &mut Answer,
    search: impl FnOnce(&mut Session, &mut Watch) -> Result<T, MoveError>,
) -> Result<T, String> {
    let game = session.engine.game();
    game.check_mover(colour).map_err(|e| e.to_string())?;
    let board = game.board().clone();
    answer.start();
    let mut emit = |a: &Analysis| {
        if !a.candidates.is_empty() {
            answer.line(&render::analysis(&board, a));
        }
    };
    let mut watch = Watch::new(interval(every), &mut emit);
    search(session, &mut watch).map_err(|e| e.to_string())
}

/// `loadgame`: the game the transcript names in its `game NAME` line (Omega when none), which
/// becomes the game in play once the whole file has been read without error.
fn load_game(session: &mut Session, file: &str, turns: Option<u64>) -> Reply {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    match variant::game_of(&text) {
        Some(name) if name != "omega" => variant::load_game(session, file, name, &text, turns),
        _ => {
            load_omega(session, file, &text, turns)?;
            session.variant = None;
            Ok(String::new())
        }
    }
}

fn load_omega(session: &mut Session, file: &str, text: &str, turns: Option<u64>) -> Reply {
    let (mut game, mut swapped) =
        transcript::read_with_swap(text).map_err(|e| format!("{file}: {e}"))?;
    // TURNS counts the swap as a turn, as `undo` does.
    let keep = turns.map_or(usize::MAX, |t| t.min(usize::MAX as u64) as usize);
    while game.turns_played() + usize::from(swapped) > keep {
        if swapped && game.turns_played() == 1 {
            swapped = false;
        } else {
            game.undo_turn();
        }
    }
    session.engine.load(game, swapped);
    Ok(String::new())
}

/// Seconds `solve` takes when none are given.
pub const SOLVE_SECONDS: f64 = 10.0;

fn solve(session: &mut Session, seconds: Option<f64>) -> Reply {
    if session.engine.game().players() != 2 {
        return Err("solve needs two players".into());
    }
    let limit = Duration::from_secs_f64(seconds.unwrap_or(SOLVE_SECONDS));
    let (outcome, stats) = session.interruptible(|s| s.engine.solve(limit));
    log::info!(
        "info solve nodes {} time {:.3} result {:?}",
        stats.nodes,
        stats.elapsed.as_secs_f64(),
        outcome
    );
    Ok(match outcome {
        Outcome::Unknown => "unknown".into(),
        Outcome::Win { winner, turn } if turn.is_empty() => format!("{winner} wins"),
        Outcome::Win { winner, turn } => format!("{winner} wins {}", names(session, &turn)),
    })
}

fn score(session: &Session) -> String {
    let game = session.engine.game();
    game.colours()
        .map(|c| format!("{} {}", c, game.score(c)))
        .collect::<Vec<_>>()
        .join(" ")
}

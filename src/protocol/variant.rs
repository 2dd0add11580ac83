//! The commands while a game other than Omega is played (`game NAME`): the same meaning as
//! in Omega, on the game's [`VariantEngine`]; what the game does not have is refused.

use super::commands::{find, parse_arguments, split_line, usage_error, Command};
use super::handlers::{interval, new_game, only_in, rules_text, save, SOLVE_SECONDS};
use super::{Answer, Reply, Session};
use crate::games::engine::{InfoWatch, VariantEngine};
use crate::games::SetupError;
use crate::timeman::TimeControl;
use std::time::Duration;

/// Runs one command on the game in play. Contract: a game other than Omega is in play.
pub fn run(session: &mut Session, command: Command, answer: &mut Answer) -> Reply {
    if let Command::TimeSettings {
        main,
        byo_yomi,
        stones,
    } = command
    {
        // Kept by Omega's engine too, which hands it to the next `game` (it carries over).
        let control = TimeControl::from_gtp(main, byo_yomi, stones);
        session.engine.set_time_control(control);
    }
    match command {
        Command::Genmove(c) => genmove(session, &c, "genmove", true),
        Command::RegGenmove(c) => genmove(session, &c, "reg_genmove", false),
        Command::Analyze(c, every) => analyze(session, &c, every, answer),
        Command::GenmoveAnalyze(c, every) => genmove_analyze(session, &c, every, answer),
        Command::Solve(seconds) => session.interruptible(|s| {
            let limit = Duration::from_secs_f64(seconds.unwrap_or(SOLVE_SECONDS));
            variant(s)?.solve(limit)
        }),
        command => on_game(variant(session)?, command),
    }
}

/// The commands that need only the game (not the session's input: no search to interrupt).
fn on_game(game: &mut dyn VariantEngine, command: Command) -> Reply {
    let done = |r: Result<(), String>| r.map(|_| String::new());
    match command {
        Command::BoardSize(side) => set_up(game, Some(side), None),
        Command::Players(k) => set_up(game, None, Some(k)),
        Command::ClearBoard => {
            game.clear_board();
            Ok(String::new())
        }
        Command::Play(c, words) => {
            let c = colour(game, &c, "play")?;
            done(game.play(c, &words))
        }
        Command::Undo => match game.undo() {
            true => Ok(String::new()),
            false => Err("cannot undo".into()),
        },
        Command::Score => Ok(game.score()),
        Command::FinalScore => Ok(game.final_score()),
        Command::Showboard => Ok(format!("\n{}", game.showboard())),
        Command::TimeSettings {
            main,
            byo_yomi,
            stones,
        } => {
            game.set_time_control(TimeControl::from_gtp(main, byo_yomi, stones));
            Ok(String::new())
        }
        Command::TimeLeft {
            colour: c,
            seconds,
            stones,
        } => {
            let c = colour(game, &c, "time_left")?;
            game.set_time_left(c, seconds, stones);
            Ok(String::new())
        }
        Command::ToMove => match game.to_move() {
            None => Err("game is over".into()),
            Some(c) => Ok(game.colour_name(c).into()),
        },
        Command::ListStones(c) => {
            let c = colour(game, &c, "list_stones")?;
            Ok(game.stones(c))
        }
        Command::SaveGame(file) => save(&file, &game.transcript()),
        Command::Rules(None) => Ok(rules_text(game.swap_rule())),
        Command::Rules(Some(on)) => done(game.set_swap(on)),
        Command::HexedStart(cell, c, first) if game.name() == "hexed" => {
            let c = colour(game, &c, "hexed_start")?;
            let first = colour(game, &first, "hexed_start")?;
            done(game.set_start(&cell, c, first))
        }
        Command::HexedStart(..) => Err(only_in("hexed_start", "hexed", game.name())),
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
        // Searches, answered by `run` with the session (its input stops them).
        Command::Genmove(_)
        | Command::RegGenmove(_)
        | Command::Analyze(..)
        | Command::GenmoveAnalyze(..)
        | Command::Solve(_) => Err("answered with the session".into()),
    }
}

/// The game's colour named `word`, or the syntax error of `command`.
fn colour(game: &dyn VariantEngine, word: &str, command: &str) -> Result<usize, String> {
    game.colour(word).ok_or_else(|| usage_error(command))
}

/// `boardsize` and `players`: a new empty game with one of the two changed.
fn set_up(game: &mut dyn VariantEngine, side: Option<u64>, players: Option<u64>) -> Reply {
    let narrow = |n: u64| n.min(usize::MAX as u64) as usize;
    match game.set_up(side.map(narrow), players.map(narrow)) {
        Ok(()) => Ok(String::new()),
        Err(SetupError::Size) => Err("unacceptable size".into()),
        Err(SetupError::Players) => Err("unacceptable player count".into()),
    }
}

/// `genmove` and `reg_genmove`, cut short by an interrupt line.
fn genmove(session: &mut Session, word: &str, command: &str, commit: bool) -> Reply {
    session.interruptible(|s| {
        let game = variant(s)?;
        let c = colour(game, word, command)?;
        game.genmove(c, commit, None)
    })
}

fn variant(session: &mut Session) -> Result<&mut dyn VariantEngine, String> {
    match session.variant.as_deref_mut() {
        Some(game) => Ok(game),
        None => Err("no game other than omega is in play".into()),
    }
}

/// `analyze`: refused at once (nothing streamed) when the player cannot analyse or the
/// colour may not move; else `info` lines every interval until the next input line.
fn analyze(session: &mut Session, word: &str, every: u64, answer: &mut Answer) -> Reply {
    let game = variant(session)?;
    if !game.can_analyze() {
        return Err(format!(
            "analyze needs a tree-search player (--player mcts or mcts-plain) in {}",
            game.name()
        ));
    }
    streamed(session, word, "analyze", every, answer, |s, c, watch| {
        s.until_next_line(|s| variant(s)?.analyze(c, watch))
    })
    .map(|_| String::new())
}

/// `genmove_analyze`: as `genmove`, with the `info` lines of `analyze` while it thinks,
/// then `play MOVE`.
fn genmove_analyze(session: &mut Session, word: &str, every: u64, answer: &mut Answer) -> Reply {
    let name = streamed(
        session,
        word,
        "genmove_analyze",
        every,
        answer,
        |s, c, watch| s.interruptible(|s| variant(s)?.genmove(c, true, Some(watch))),
    )?;
    Ok(format!("play {name}"))
}

/// Runs `search` for the colour `word` names, with the answer started and its `info` lines
/// written as they come; refused before anything is written when that colour may not move.
fn streamed<T>(
    session: &mut Session,
    word: &str,
    command: &str,
    every: u64,
    answer: &mut Answer,
    search: impl FnOnce(&mut Session, usize, &mut InfoWatch) -> Result<T, String>,
) -> Result<T, String> {
    let game = variant(session)?;
    let c = colour(game, word, command)?;
    game.check_mover(c)?;
    answer.start();
    let mut line = |text: &str| answer.line(text);
    let mut watch = InfoWatch {
        every: interval(every),
        line: &mut line,
    };
    search(session, c, &mut watch)
}

/// The game a transcript names in its first `game NAME` line (savegame and omega-match's
/// records of games other than Omega start with one), `None` when it names none.
pub fn game_of(text: &str) -> Option<&str> {
    text.lines().find_map(|raw| {
        let line = raw.split('#').next().unwrap_or("").trim();
        match split_line(line) {
            (_, "game", name) if !name.is_empty() => Some(name.trim()),
            _ => None,
        }
    })
}

/// `loadgame` of a transcript of the game `name` (not Omega): a new engine of that game
/// reads the file's set-up lines (`boardsize`, `players`, `rules swap`, `clear_board`,
/// `hexed_start`) and plays its `play` lines (the first `turns` of them when given); other
/// commands and comments are skipped. Only when the whole file is read without error does
/// it become the game in play (the game switched if need be); otherwise nothing changes.
pub fn load_game(
    session: &mut Session,
    file: &str,
    name: &str,
    text: &str,
    turns: Option<u64>,
) -> Reply {
    let mut game = new_game(session, name).map_err(|e| format!("{file}: {e}"))?;
    let mut played = 0u64;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        let (_, command, args) = split_line(line);
        let Some(spec) = find(command) else {
            continue;
        };
        let parsed =
            parse_arguments(spec, args).map_err(|e| format!("{file}: line {}: {e}", i + 1))?;
        let applied = match parsed {
            Command::Play(..) if turns.is_some_and(|t| played >= t) => Ok(String::new()),
            Command::Play(..) => {
                played += 1;
                on_game(&mut *game, parsed)
            }
            Command::BoardSize(_)
            | Command::Players(_)
            | Command::ClearBoard
            | Command::Rules(Some(_))
            | Command::HexedStart(..) => on_game(&mut *game, parsed),
            _ => Ok(String::new()),
        };
        applied.map_err(|e| format!("{file}: line {}: {e}", i + 1))?;
    }
    session.variant = Some(game);
    Ok(String::new())
}

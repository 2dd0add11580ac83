//! The commands while a game other than Omega is played (`game NAME`): the same meaning as
//! in Omega, on the game's [`VariantEngine`]; what the game does not have is refused.

use super::commands::{usage_error, Command};
use super::handlers::{only_in, rules_text, save};
use super::{Reply, Session};
use crate::games::engine::VariantEngine;
use crate::games::SetupError;
use crate::timeman::TimeControl;

/// Runs one command on the game in play. Contract: a game other than Omega is in play.
pub fn run(session: &mut Session, command: Command) -> Reply {
    let Some(game) = session.variant.as_deref_mut() else {
        return Err("no game other than omega is in play".into());
    };
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
        Command::Genmove(c) => genmove(session, &c, "genmove", true),
        Command::RegGenmove(c) => genmove(session, &c, "reg_genmove", false),
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
        Command::Analyze(..) => Err(unsupported("analyze", game)),
        Command::GenmoveAnalyze(..) => Err(unsupported("genmove_analyze", game)),
        Command::Solve(_) => Err(unsupported("solve", game)),
        Command::LoadGame(..) => Err(unsupported("loadgame", game)),
        Command::ProtocolVersion
        | Command::Name
        | Command::Version
        | Command::KnownCommand(_)
        | Command::ListCommands
        | Command::Quit
        | Command::GoguiInterrupt
        | Command::Game(_)
        | Command::ListGames => Err("answered before any game's commands".into()),
    }
}

fn unsupported(command: &str, game: &dyn VariantEngine) -> String {
    format!(
        "{command} is not supported in {} (only in omega)",
        game.name()
    )
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
        let game = s
            .variant
            .as_deref_mut()
            .ok_or("no game other than omega is in play")?;
        let c = colour(game, word, command)?;
        game.genmove(c, commit)
    })
}

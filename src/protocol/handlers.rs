//! What each command does: a few lines each, on the engine.

use super::commands::{Command, COMMANDS};
use super::{render, Reply, Session};
use crate::board::{parse_coord, NotationError};
use crate::game::{Colour, MoveError};
use crate::timeman::TimeControl;

/// Runs one parsed command. On any error the game is exactly as it was.
pub fn run(session: &mut Session, command: Command) -> Reply {
    let engine = &mut session.engine;
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
        Command::BoardSize(side) => set_up(session, Some(side), None, "unacceptable size"),
        Command::Players(k) => set_up(session, None, Some(k), "unacceptable player count"),
        Command::ClearBoard => {
            engine.clear_board();
            Ok(String::new())
        }
        Command::Play(colour, words) => play(session, colour, &words),
        Command::Genmove(colour) => genmove(session, colour, true),
        Command::RegGenmove(colour) => genmove(session, colour, false),
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
            let stones = stones.min(u32::MAX as u64) as u32;
            engine.set_time_control(TimeControl::from_gtp(main, byo_yomi, stones));
            Ok(String::new())
        }
        Command::TimeLeft {
            colour,
            seconds,
            stones,
        } => {
            in_game(session, colour)?;
            let stones = stones.min(u32::MAX as u64) as u32;
            session.engine.set_time_left(colour, seconds, stones);
            Ok(String::new())
        }
        Command::ToMove => match engine.game().is_over() {
            true => Err("game is over".into()),
            false => Ok(engine.game().to_move().to_string()),
        },
    }
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

fn genmove(session: &mut Session, colour: Colour, commit: bool) -> Reply {
    match session.engine.genmove(colour, commit) {
        Ok(cells) => {
            let board = session.engine.game().board();
            Ok(cells
                .iter()
                .map(|&c| board.name(c))
                .collect::<Vec<_>>()
                .join(" "))
        }
        Err(e) => Err(e.to_string()),
    }
}

fn score(session: &Session) -> String {
    let game = session.engine.game();
    game.colours()
        .map(|c| format!("{} {}", c, game.score(c)))
        .collect::<Vec<_>>()
        .join(" ")
}

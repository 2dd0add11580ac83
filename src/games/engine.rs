//! The engine of a game other than Omega: its position, clocks and player, behind one
//! object-safe trait ([`VariantEngine`]) that the protocol drives whatever the game.
//!
//! Every answer body and refusal message is made here, in the same words as Omega's
//! (`illegal move: ...`, `cannot undo`, ...), so that a controller sees one protocol.

use super::hexed::Hexed;
use super::yavalath::Yavalath;
use super::{GameMove, GamePlayer, Rules, SetupError};
use crate::player::PlayerOptions;
use crate::stop::Stop;
use crate::timeman::{Clocks, TimeControl};
use std::time::Instant;

/// What the protocol asks of a game other than Omega. Errors are the messages of `?`
/// answers; every refused call changes nothing.
pub trait VariantEngine: Send {
    fn name(&self) -> &'static str;
    /// The colour a protocol word names (full name or first letter, any case) among the
    /// colours in play.
    fn colour(&self, word: &str) -> Option<usize>;
    fn colour_name(&self, colour: usize) -> &'static str;
    /// A new empty game with the side and/or the player count changed.
    fn set_up(&mut self, side: Option<usize>, players: Option<usize>) -> Result<(), SetupError>;
    fn clear_board(&mut self);
    /// The swap rule (`rules swap on|off`); refused when it would make the moves played
    /// illegal (turning it off after a swap).
    fn set_swap(&mut self, on: bool) -> Result<(), String>;
    fn swap_rule(&self) -> bool;
    /// A game-specific start (`hexed_start`): a new game from it.
    fn set_start(&mut self, anchor: &str, colour: usize, first: usize) -> Result<(), String>;
    /// `play COLOUR MOVE`: exactly one word, a cell, `swap` or `pass`.
    fn play(&mut self, colour: usize, words: &[String]) -> Result<(), String>;
    /// Chooses a move for `colour` (it must be its turn) within its time, and plays it when
    /// `commit`; returns its name.
    fn genmove(&mut self, colour: usize, commit: bool) -> Result<String, String>;
    fn undo(&mut self) -> bool;
    fn to_move(&self) -> Option<usize>;
    fn showboard(&self) -> String;
    fn score(&self) -> String;
    fn final_score(&self) -> String;
    fn stones(&self, colour: usize) -> String;
    fn set_time_control(&mut self, control: TimeControl);
    fn set_time_left(&mut self, colour: usize, seconds: f64, stones: u32);
    /// The game as a transcript: its set-up and `play` lines.
    fn transcript(&self) -> String;
}

/// Builds the engine of the game named `name` with the player `player`: `None` for an
/// unknown game, `Some(Err)` when the game has no such player.
pub fn new_variant(
    name: &str,
    player: &str,
    options: &PlayerOptions,
    move_time: f64,
    stop: &Stop,
) -> Option<Result<Box<dyn VariantEngine>, String>> {
    fn make<R: Rules>(
        player: &str,
        options: &PlayerOptions,
        move_time: f64,
        stop: &Stop,
    ) -> Result<Box<dyn VariantEngine>, String> {
        GameEngine::<R>::new(player, options, move_time, stop)
            .map(|e| Box::new(e) as Box<dyn VariantEngine>)
    }
    match name {
        Yavalath::NAME => Some(make::<Yavalath>(player, options, move_time, stop)),
        Hexed::NAME => Some(make::<Hexed>(player, options, move_time, stop)),
        _ => None,
    }
}

/// The games `game NAME` knows, Omega first.
pub const GAMES: &[&str] = &["omega", Yavalath::NAME, Hexed::NAME];

/// One game of `R` with its clocks and player.
pub struct GameEngine<R: Rules> {
    game: R,
    player: Box<dyn GamePlayer<R>>,
    clocks: Clocks,
}

impl<R: Rules> GameEngine<R> {
    /// The game's default set-up and `player` (one of [`Rules::player_names`]).
    pub fn new(
        player: &str,
        options: &PlayerOptions,
        move_time: f64,
        stop: &Stop,
    ) -> Result<GameEngine<R>, String> {
        let game = R::new(R::DEFAULT_SIDE, R::DEFAULT_PLAYERS, R::DEFAULT_SWAP)
            .expect("the default set-up is valid");
        let player = R::player(player, options, stop.clone()).ok_or_else(|| {
            format!(
                "{} has no player '{player}' (it has {})",
                R::NAME,
                R::player_names().join(", ")
            )
        })?;
        Ok(GameEngine {
            game,
            player,
            clocks: Clocks::new(TimeControl::PerMove(move_time)),
        })
    }

    fn start(&mut self, game: R) {
        self.game = game;
        self.clocks.restart();
        self.player.new_game();
    }

    /// The move `colour` may make now, or why not.
    fn checked(&self, colour: usize, word: &str) -> Result<GameMove, String> {
        let m = self
            .game
            .parse_move(word)
            .map_err(|e| format!("illegal move: {e}"))?;
        self.game
            .check(colour, m)
            .map_err(|e| format!("illegal move: {e}"))?;
        Ok(m)
    }

    fn check_mover(&self, colour: usize) -> Result<(), String> {
        match self.game.to_move() {
            None => Err("game is over".into()),
            Some(c) if c == colour => Ok(()),
            Some(c) => Err(format!(
                "it is {}'s turn, not {}'s",
                self.colour_name(c),
                self.colour_name(colour)
            )),
        }
    }
}

impl<R: Rules> VariantEngine for GameEngine<R> {
    fn name(&self) -> &'static str {
        R::NAME
    }

    fn colour(&self, word: &str) -> Option<usize> {
        let word = word.to_ascii_lowercase();
        self.game
            .colour_names()
            .iter()
            .position(|name| *name == word || (word.len() == 1 && name.starts_with(&word)))
    }

    fn colour_name(&self, colour: usize) -> &'static str {
        self.game.colour_names()[colour]
    }

    fn set_up(&mut self, side: Option<usize>, players: Option<usize>) -> Result<(), SetupError> {
        let side = side.unwrap_or(self.game.side());
        let players = players.unwrap_or(self.game.players());
        let game = R::new(side, players, self.game.swap_rule())?;
        self.start(game);
        Ok(())
    }

    fn clear_board(&mut self) {
        let game = self.game.cleared();
        self.start(game);
    }

    fn set_swap(&mut self, on: bool) -> Result<(), String> {
        if !on
            && self
                .game
                .history()
                .iter()
                .any(|(_, m)| *m == GameMove::Swap)
        {
            return Err("a swap was played: undo it first".into());
        }
        self.game.set_swap_rule(on);
        Ok(())
    }

    fn swap_rule(&self) -> bool {
        self.game.swap_rule()
    }

    fn set_start(&mut self, anchor: &str, colour: usize, first: usize) -> Result<(), String> {
        let game = self.game.with_start(anchor, colour, first)?;
        self.start(game);
        Ok(())
    }

    fn play(&mut self, colour: usize, words: &[String]) -> Result<(), String> {
        let [word] = words else {
            return Err(format!(
                "illegal move: a turn is one move, got {}",
                words.len()
            ));
        };
        if self.game.is_over() {
            return Err("illegal move: game is over".into());
        }
        let m = self.checked(colour, word)?;
        self.game.play(m);
        Ok(())
    }

    fn genmove(&mut self, colour: usize, commit: bool) -> Result<String, String> {
        self.check_mover(colour)?;
        let start = Instant::now();
        let limits = self.clocks.limits(colour, self.game.own_moves_left());
        let m = self.player.choose(&self.game, start, limits);
        if let Err(e) = self.game.check(colour, m) {
            // A player's bug must not become an illegal answer: log it, refuse.
            log::error!("{} player chose an illegal {m:?}: {e}", R::NAME);
            return Err(format!("the player chose an illegal move: {e}"));
        }
        let name = self.game.move_name(m);
        if commit {
            self.game.play(m);
            let elapsed = start.elapsed().as_secs_f64();
            self.clocks.charge(colour, elapsed);
        }
        Ok(name)
    }

    fn undo(&mut self) -> bool {
        self.game.undo()
    }

    fn to_move(&self) -> Option<usize> {
        self.game.to_move()
    }

    fn showboard(&self) -> String {
        self.game.draw()
    }

    fn score(&self) -> String {
        self.game.score()
    }

    fn final_score(&self) -> String {
        self.game.final_score()
    }

    fn stones(&self, colour: usize) -> String {
        self.game.stones(colour).join(" ")
    }

    fn set_time_control(&mut self, control: TimeControl) {
        self.clocks.set_control(control);
    }

    fn set_time_left(&mut self, colour: usize, seconds: f64, stones: u32) {
        self.clocks.set_time_left(colour, seconds, stones);
    }

    fn transcript(&self) -> String {
        transcript(&self.game)
    }
}

/// The transcript of `game`: its set-up (`game`, `boardsize`, `players`, `rules`,
/// `clear_board`) and one `play` line a move, as `savegame` writes it and omega-match's
/// records hold it. Contract: a game whose start is its own (Hexed's `hexed_start`) writes
/// it in its history's first lines (see the game's `history`).
pub fn transcript<R: Rules>(game: &R) -> String {
    let mut text = format!(
        "game {}\nboardsize {}\nplayers {}\nrules swap {}\nclear_board\n",
        R::NAME,
        game.side(),
        game.players(),
        if game.swap_rule() { "on" } else { "off" }
    );
    for command in game.setup_commands() {
        text += &format!("{command}\n");
    }
    for (colour, m) in game.history() {
        text += &format!(
            "play {} {}\n",
            game.colour_names()[colour],
            game.move_name(m)
        );
    }
    text
}

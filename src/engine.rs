//! The engine: one game, its clocks and a player that chooses turns. The protocol layer
//! talks only to this.

use crate::board::{Cell, Coord};
use crate::game::{Colour, Game, MoveError, SetupError};
use crate::player::{Player, PlayerKind, PlayerOptions, Watch};
use crate::solver::{self, Outcome, Stats};
use crate::stop::Stop;
use crate::timeman::{self, Clock, TimeControl, DEFAULT_MOVE_TIME};
use std::time::{Duration, Instant};

/// How the engine was started (command-line options).
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub player: PlayerKind,
    pub options: PlayerOptions,
    /// Seconds a turn while the controller sends no time control (`--movetime`).
    pub move_time: f64,
    /// Think on the opponents' turns (`--ponder`).
    pub ponder: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig::for_player(PlayerKind::DEFAULT)
    }
}

impl EngineConfig {
    /// `kind` with its default options.
    pub fn for_player(kind: PlayerKind) -> EngineConfig {
        EngineConfig {
            player: kind,
            options: PlayerOptions::for_player(kind),
            move_time: DEFAULT_MOVE_TIME,
            ponder: false,
        }
    }
}

pub struct Engine {
    game: Game,
    control: TimeControl,
    /// The controller has set the time control (`time_settings` or `time_left`).
    control_set: bool,
    clocks: [Clock; 4],
    player: Player,
    stop: Stop,
    ponder: bool,
    /// The colour of the last `genmove`: the engine ponders while another colour is to move.
    own_colour: Option<Colour>,
    /// Threads of the solver (`--threads`).
    solver_threads: usize,
}

impl Engine {
    pub fn new(config: EngineConfig) -> Engine {
        let stop = Stop::new();
        Engine {
            game: Game::new(5, 2).expect("default set-up"),
            control: TimeControl::PerMove(config.move_time),
            control_set: false,
            clocks: [Clock::default(); 4],
            player: Player::new(config.player, config.options, stop.clone()),
            stop,
            ponder: config.ponder,
            own_colour: None,
            solver_threads: config.options.mcts.threads,
        }
    }

    /// The signal that ends the engine's searches early (`genmove` returns its best turn so
    /// far). The protocol's input thread raises it; the protocol lowers it before each
    /// command.
    pub fn stop_signal(&self) -> Stop {
        self.stop.clone()
    }

    /// Whether the player can analyse (`analyze`; `genmove_analyze` shows lines).
    pub fn can_analyze(&self) -> bool {
        self.player.can_analyze()
    }

    /// Replaces the game (`loadgame`): clocks reset, the player's memory forgotten.
    pub fn load(&mut self, game: Game) {
        self.game = game;
        self.new_game();
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn player_kind(&self) -> PlayerKind {
        self.player.kind()
    }

    /// A new empty board of `side` for `players`; nothing changes on error.
    pub fn set_up(&mut self, side: usize, players: usize) -> Result<(), SetupError> {
        self.game = Game::new(side, players)?;
        self.new_game();
        Ok(())
    }

    pub fn clear_board(&mut self) {
        self.game = self.game.cleared();
        self.new_game();
    }

    fn new_game(&mut self) {
        self.own_colour = None;
        self.clocks = [self.control.fresh_clock(); 4];
        self.player.new_game();
    }

    pub fn play(&mut self, player: Colour, coords: &[Coord]) -> Result<(), MoveError> {
        let cells = self.game.cells_of(coords)?;
        self.game.play_turn(player, &cells)
    }

    pub fn undo(&mut self) -> bool {
        self.game.undo_turn()
    }

    /// Chooses a turn for `colour` within its time (or until the stop signal: the best turn
    /// so far) and, when `commit`, plays it and charges its clock (`reg_genmove` passes
    /// false). `watch` sees the analysis while a tree search thinks.
    pub fn genmove(
        &mut self,
        colour: Colour,
        commit: bool,
        watch: Option<&mut Watch>,
    ) -> Result<Vec<Cell>, MoveError> {
        self.game.check_mover(colour)?;
        let start = Instant::now();
        let own_turns_left = self.game.turns_left().div_ceil(self.game.players());
        let limits = timeman::limits(&self.control, &self.clocks[colour.index()], own_turns_left);
        let turn = self.player.choose(&mut self.game, start, limits, watch);
        self.own_colour = Some(colour);
        if commit {
            self.game
                .play_turn(colour, &turn)
                .expect("the player returns legal turns");
            let elapsed = start.elapsed().as_secs_f64();
            self.clocks[colour.index()].charge(&self.control, elapsed);
        }
        Ok(turn)
    }

    /// Searches the position for `colour`, the player to move, until the stop signal,
    /// showing `watch` the analysis at its interval. The game is unchanged. Contract: the
    /// player can analyse ([`Engine::can_analyze`]).
    pub fn analyze(&mut self, colour: Colour, watch: &mut Watch) -> Result<(), MoveError> {
        self.game.check_mover(colour)?;
        let stop = self.stop.clone();
        self.player.analyze(&mut self.game, &stop, watch);
        Ok(())
    }

    /// Whether pondering now would help: on, the game going on, and another colour than the
    /// engine's own to move.
    pub fn wants_to_ponder(&self) -> bool {
        self.ponder
            && self.player.can_analyze()
            && !self.game.is_over()
            && self.own_colour.is_some_and(|c| c != self.game.to_move())
    }

    /// Thinks on the current position until the stop signal. The game is unchanged.
    pub fn ponder(&mut self) {
        if !self.game.is_over() {
            self.player.ponder(&mut self.game);
        }
    }

    /// Proves who wins the position with best play (two players), within `limit` or until
    /// the stop signal. The game is unchanged.
    pub fn solve(&mut self, limit: Duration) -> (Outcome, Stats) {
        solver::solve(&self.game, limit, &self.stop, self.solver_threads)
    }

    pub fn set_time_control(&mut self, control: TimeControl) {
        self.control = control;
        self.control_set = true;
        self.clocks = [control.fresh_clock(); 4];
    }

    /// GTP `time_left`: `stones == 0` means main time is running. Without `time_settings`
    /// the clock it describes becomes the time control (absolute time, or a byo-yomi period),
    /// so that a controller that only sends `time_left` is still obeyed.
    pub fn set_time_left(&mut self, colour: Colour, seconds: f64, stones: u32) {
        if !self.control_set {
            // Every colour gets this clock, not only the one named.
            self.set_time_control(if stones == 0 {
                TimeControl::from_gtp(seconds, 0.0, 0)
            } else {
                TimeControl::from_gtp(0.0, seconds, stones)
            });
        }
        let clock = &mut self.clocks[colour.index()];
        if stones == 0 {
            *clock = Clock {
                main: seconds,
                period: 0.0,
                stones: 0,
            };
        } else {
            *clock = Clock {
                main: 0.0,
                period: seconds,
                stones,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn engine() -> Engine {
        Engine::new(EngineConfig::default())
    }

    #[test]
    fn time_left_alone_limits_the_search() {
        let mut e = engine();
        e.set_time_left(Colour::White, 0.3, 0);
        let start = Instant::now();
        e.genmove(Colour::White, true, None).unwrap();
        // 0.3 s for the whole game: far less than the 1 s default for one turn.
        assert!(start.elapsed().as_secs_f64() < 0.3, "{:?}", start.elapsed());
        assert!(e.clocks[0].main < 0.3);
    }

    #[test]
    fn genmove_charges_its_clock_and_reg_genmove_does_not() {
        let mut e = engine();
        e.set_time_control(TimeControl::from_gtp(5.0, 0.0, 0));
        e.genmove(Colour::White, false, None).unwrap();
        assert_eq!(e.clocks[0].main, 5.0);
        assert_eq!(e.game().stones_placed(), 0);
        e.genmove(Colour::White, true, None).unwrap();
        assert!(e.clocks[0].main < 5.0);
        assert_eq!(e.game().stones_placed(), 2);
    }
}

#[cfg(test)]
mod time_left_tests {
    use super::*;

    #[test]
    fn time_left_for_one_colour_without_settings_gives_the_others_a_clock_too() {
        let mut e = Engine::new(EngineConfig::default());
        e.set_time_left(Colour::Black, 300.0, 0);
        for clock in &e.clocks {
            assert_eq!(clock.main, 300.0);
        }
        let own_turns = e.game().turns_left().div_ceil(2);
        let limits = timeman::limits(&e.control, &e.clocks[0], own_turns);
        assert!(limits.optimum.as_secs_f64() > 1.0, "{limits:?}");
    }
}

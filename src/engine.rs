//! The engine: one game, its clocks and a player that chooses turns. The protocol layer
//! talks only to this.

use crate::board::{Cell, Coord};
use crate::game::{Colour, Game, MoveError, SetupError};
use crate::player::{Player, PlayerKind, PlayerOptions, Watch};
use crate::solver::{self, Outcome, Stats};
use crate::stop::Stop;
use crate::timeman::{Clocks, TimeControl, TurnsLeft, DEFAULT_MOVE_TIME};
use std::time::{Duration, Instant};

/// How the engine was started (command-line options).
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub player: PlayerKind,
    /// The player's name as `--player` gave it: the games other than Omega have players of
    /// their own (see `games`).
    pub player_name: String,
    pub options: PlayerOptions,
    /// Seconds a turn while the controller sends no time control (`--movetime`).
    pub move_time: f64,
    /// Think on the opponents' turns (`--ponder`).
    pub ponder: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            player_name: "search".into(),
            ..EngineConfig::for_player(PlayerKind::DEFAULT)
        }
    }
}

impl EngineConfig {
    /// `kind` with its default options.
    pub fn for_player(kind: PlayerKind) -> EngineConfig {
        EngineConfig {
            player: kind,
            player_name: kind.name().to_string(),
            options: PlayerOptions::for_player(kind),
            move_time: DEFAULT_MOVE_TIME,
            ponder: false,
        }
    }
}

pub struct Engine {
    config: EngineConfig,
    game: Game,
    clocks: Clocks,
    /// The swap rule is on (`rules swap on`): after white's first turn black may take
    /// white's place, `play black swap`.
    swap_rule: bool,
    /// The swap was played (after turn 1).
    swapped: bool,
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
            clocks: Clocks::new(TimeControl::PerMove(config.move_time)),
            swap_rule: false,
            swapped: false,
            player: Player::new(config.player, config.options, stop.clone()),
            stop,
            ponder: config.ponder,
            own_colour: None,
            solver_threads: config.options.mcts.threads,
            config,
        }
    }

    /// How the engine was started.
    pub fn config(&self) -> &EngineConfig {
        &self.config
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

    /// Replaces the game (`loadgame`): clocks reset, the player's memory forgotten. A game
    /// with a swap turns the swap rule on.
    pub fn load(&mut self, game: Game, swapped: bool) {
        self.game = game;
        self.new_game();
        self.swapped = swapped;
        self.swap_rule |= swapped;
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
        self.swapped = false;
        self.clocks.restart();
        self.player.new_game();
    }

    /// Plays a turn the controller gives; a tree search moves its tree to the new position
    /// now, off the clock of the next `genmove`.
    pub fn play(&mut self, player: Colour, coords: &[Coord]) -> Result<(), MoveError> {
        let cells = self.game.cells_of(coords)?;
        self.game.play_turn(player, &cells)?;
        self.player.follow(&self.game);
        Ok(())
    }

    /// The playouts the tree search's tree holds for the current position (`None` for
    /// players without a tree).
    pub fn kept_playouts(&self) -> Option<u64> {
        self.player.kept_playouts(&self.game)
    }

    /// Takes back the last turn (the swap counts as one).
    pub fn undo(&mut self) -> bool {
        if self.swapped && self.game.turns_played() == 1 {
            self.swapped = false;
            return true;
        }
        self.game.undo_turn()
    }

    /// The swap rule: on or off; refused off once a swap was played.
    pub fn set_swap_rule(&mut self, on: bool) -> Result<(), String> {
        if !on && self.swapped {
            return Err("a swap was played: undo it first".into());
        }
        self.swap_rule = on;
        Ok(())
    }

    pub fn swap_rule(&self) -> bool {
        self.swap_rule
    }

    /// Whether a swap was played.
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// Whether the colour to move may swap now: the rule on, two players, white's first
    /// turn played and nothing after it.
    pub fn can_swap(&self) -> bool {
        self.swap_rule
            && self.game.players() == 2
            && self.game.turns_played() == 1
            && !self.swapped
            && !self.game.is_over()
    }

    /// `play black swap`: black takes white's place. The stones keep their colours; the
    /// players exchange colours, so black (now the first player) moves again.
    pub fn swap(&mut self, colour: Colour) -> Result<(), String> {
        if !self.can_swap() {
            return Err(match self.swap_rule {
                false => "the swap rule is off (rules swap on)".into(),
                true => "a swap is only allowed on black's first turn with two players".into(),
            });
        }
        self.game.check_mover(colour).map_err(|e| e.to_string())?;
        self.swapped = true;
        Ok(())
    }

    /// Chooses a turn for `colour` within its time (or until the stop signal: the best turn
    /// so far) and, when `commit`, plays it and charges its clock (`reg_genmove` passes
    /// false). `watch` sees the analysis while a tree search thinks. `None` is the swap:
    /// chosen when it is allowed and the tree search gives the best turn less than
    /// [`SWAP_BELOW`] to win.
    pub fn genmove(
        &mut self,
        colour: Colour,
        commit: bool,
        watch: Option<&mut Watch>,
    ) -> Result<Option<Vec<Cell>>, MoveError> {
        self.game.check_mover(colour)?;
        let start = Instant::now();
        let limits = self.clocks.limits(colour.index(), turns_left(&self.game));
        let turn = self.player.choose(&mut self.game, start, limits, watch);
        self.own_colour = Some(colour);
        let swap = self.can_swap()
            && self
                .player
                .mover_winrate(&self.game)
                .is_some_and(|w| w < SWAP_BELOW);
        if commit {
            if swap {
                self.swapped = true;
            } else {
                self.game
                    .play_turn(colour, &turn)
                    .expect("the player returns legal turns");
            }
            let elapsed = start.elapsed().as_secs_f64();
            self.clocks.charge(colour.index(), elapsed);
        }
        Ok(if swap { None } else { Some(turn) })
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

    /// The time control the controller set, if it set one.
    pub fn time_control(&self) -> Option<TimeControl> {
        self.clocks.control_set.then_some(self.clocks.control)
    }

    pub fn set_time_control(&mut self, control: TimeControl) {
        self.clocks.set_control(control);
    }

    /// GTP `time_left` ([`Clocks::set_time_left`]).
    pub fn set_time_left(&mut self, colour: Colour, seconds: f64, stones: u32) {
        self.clocks.set_time_left(colour.index(), seconds, stones);
    }
}

/// The swap is played when the best turn's chance to win is below this.
pub const SWAP_BELOW: f64 = 0.5;

/// Empty cells at the start of a turn from which the tree search usually proves the result
/// within a fraction of a second: on side 5 with two players at 1 s a turn it proved it with
/// 11 to 13 empty cells (`RUST_LOG=info` logs of `omega-match`), and the exact solver of
/// `solve` takes about 1 s at 19. Turns that start with this many or fewer count as light
/// when main time is shared out ([`TurnsLeft`]).
const LIGHT_TURN_EMPTIES: usize = 13;

/// The turns the player to move has left (this one included), the light ones among them
/// being, with two players, those that start with at most [`LIGHT_TURN_EMPTIES`] empty
/// cells. With 3 or 4 players none is light: a turn of 3 or 4 stones near the end is a far
/// bigger search, and the weights were measured with two. Contract: `game` is at a turn
/// boundary (a round of K turns places K*K stones).
fn turns_left(game: &Game) -> TurnsLeft {
    let k = game.players();
    let own = game.turns_left().div_ceil(k);
    let empties = game.empties().len();
    let light = match k {
        2 => (0..own)
            .filter(|&j| empties.saturating_sub(j * k * k) <= LIGHT_TURN_EMPTIES)
            .count(),
        _ => 0,
    };
    TurnsLeft { own, light }
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
        assert!(e.clocks.clocks[0].main < 0.3);
    }

    #[test]
    fn genmove_charges_its_clock_and_reg_genmove_does_not() {
        let mut e = engine();
        e.set_time_control(TimeControl::from_gtp(5.0, 0.0, 0));
        e.genmove(Colour::White, false, None).unwrap();
        assert_eq!(e.clocks.clocks[0].main, 5.0);
        assert_eq!(e.game().stones_placed(), 0);
        e.genmove(Colour::White, true, None).unwrap();
        assert!(e.clocks.clocks[0].main < 5.0);
        assert_eq!(e.game().stones_placed(), 2);
    }
}

#[cfg(test)]
mod time_left_tests {
    use super::*;

    #[test]
    fn the_last_turns_with_few_empty_cells_count_as_light() {
        // Side 5, two players: white's turns start with 61, 57, ..., 13, 9 and 5 empty cells.
        let mut game = Game::new(5, 2).unwrap();
        assert_eq!(turns_left(&game), TurnsLeft { own: 15, light: 3 });
        for seed in 0..24 {
            let turn = crate::player::random_turn(&game, seed);
            game.play_turn(game.to_move(), &turn).unwrap();
        }
        assert_eq!(game.empties().len(), 13);
        assert_eq!(turns_left(&game), TurnsLeft { own: 3, light: 3 });
        // Black's turns start with 59, 55, ..., 11, 7 and 3.
        let mut game = Game::new(5, 2).unwrap();
        let turn = crate::player::random_turn(&game, 1);
        game.play_turn(Colour::White, &turn).unwrap();
        assert_eq!(turns_left(&game), TurnsLeft { own: 15, light: 3 });
        // Three players on side 5: black's last turn starts with 13 empty cells, but with 3
        // or 4 players no turn counts as light.
        let mut game = Game::new(5, 3).unwrap();
        let turn = crate::player::random_turn(&game, 1);
        game.play_turn(Colour::White, &turn).unwrap();
        assert_eq!(turns_left(&game), TurnsLeft { own: 6, light: 0 });
    }

    #[test]
    fn time_left_for_one_colour_without_settings_gives_the_others_a_clock_too() {
        let mut e = Engine::new(EngineConfig::default());
        e.set_time_left(Colour::Black, 300.0, 0);
        for clock in &e.clocks.clocks {
            assert_eq!(clock.main, 300.0);
        }
        let own_turns = e.game().turns_left().div_ceil(2);
        let limits = e.clocks.limits(0, own_turns);
        assert!(limits.optimum.as_secs_f64() > 1.0, "{limits:?}");
    }
}

//! The players that choose a turn: the tree search `mcts` (the default, as `search`), the
//! baseline `mcts-plain`, the alpha-beta search `alphabeta`, and two plumbing baselines,
//! `random` (uniform, seeded) and `greedy` (best single turn by the evaluation).

mod alphabeta;
mod baselines;
mod before_last;
mod helpers;
mod last_round;
mod mcts;
mod turn_order;

pub use alphabeta::{AlphaBetaPlayer, SearchOptions};
pub use baselines::{greedy_turn, random_turn, random_turn_with};
pub use mcts::{LastRound, LastTurnWin, MctsOptions, MctsPlayer, SeatSet};

use crate::board::Cell;
use crate::game::{Colour, Game, MAX_PLAYERS};
use crate::stop::Stop;
use crate::timeman::Limits;
use std::time::{Duration, Instant};

/// One candidate turn of an analysis, for the player to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The K cells of the turn, in colour order.
    pub turn: Vec<Cell>,
    /// Playouts that went through this whole turn.
    pub visits: u32,
    /// The mover's chance to win after this turn, in [0, 1] (1 or 0 when proven).
    pub winrate: f64,
    /// The mover's expected final log-score margin after this turn: the mean of
    /// `ln(own score) - ln(best other score)` over random playouts.
    pub score: f64,
    /// The turn and the expected continuation, whole turns only.
    pub pv: Vec<Cell>,
}

/// What a search thinks of its position: its candidate turns, best first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Playouts below the root, those kept from earlier searches included.
    pub visits: u32,
    pub candidates: Vec<Candidate>,
}

/// Someone watching a search: shown the analysis every `every`.
pub struct Watch<'a> {
    pub every: Duration,
    /// When the next analysis is due, counted from the search's start (kept by the player).
    pub next: Duration,
    pub emit: &'a mut dyn FnMut(&Analysis),
}

impl<'a> Watch<'a> {
    pub fn new(every: Duration, emit: &'a mut dyn FnMut(&Analysis)) -> Watch<'a> {
        Watch {
            every,
            next: every,
            emit,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    Mcts,
    MctsPlain,
    AlphaBeta,
    Greedy,
    Random,
}

impl PlayerKind {
    /// The player `search` names: the one that measured strongest (see the README).
    pub const DEFAULT: PlayerKind = PlayerKind::Mcts;

    pub fn parse(word: &str) -> Option<PlayerKind> {
        match word {
            "search" => Some(PlayerKind::DEFAULT),
            "mcts" => Some(PlayerKind::Mcts),
            "mcts-plain" => Some(PlayerKind::MctsPlain),
            "alphabeta" => Some(PlayerKind::AlphaBeta),
            "greedy" => Some(PlayerKind::Greedy),
            "random" => Some(PlayerKind::Random),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Mcts => "mcts",
            PlayerKind::MctsPlain => "mcts-plain",
            PlayerKind::AlphaBeta => "alphabeta",
            PlayerKind::Greedy => "greedy",
            PlayerKind::Random => "random",
        }
    }
}

/// Options of every player; each uses its own part.
#[derive(Clone, Copy, Debug)]
pub struct PlayerOptions {
    pub seed: u64,
    pub alphabeta: SearchOptions,
    /// For `mcts` and `mcts-plain`: start from [`PlayerOptions::for_player`], which gives
    /// each its own configuration.
    pub mcts: MctsOptions,
    /// The options of the tree search's turns as one colour, where they differ from
    /// [`PlayerOptions::mcts`] (`--set COLOUR:NAME=VALUE`; index: the colour's,
    /// [`PlayerOptions::set_seat`]).
    pub mcts_seats: [Option<MctsOptions>; MAX_PLAYERS],
}

impl PlayerOptions {
    /// The default options of `kind`.
    pub fn for_player(kind: PlayerKind) -> PlayerOptions {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        PlayerOptions {
            seed: 0,
            alphabeta: SearchOptions {
                threads,
                ..SearchOptions::default()
            },
            mcts: MctsOptions {
                threads,
                ..match kind {
                    PlayerKind::MctsPlain => MctsOptions::plain(),
                    _ => MctsOptions::strong(),
                }
            },
            mcts_seats: [None; MAX_PLAYERS],
        }
    }

    /// Sets one tree-search parameter for the turns of one colour only (`--set
    /// black:NAME=VALUE`), on top of [`PlayerOptions::mcts`] as it is now: a seat's options
    /// are a copy taken at its first such setting, so the caller applies every setting for
    /// all seats first. What threads share (`threads`, `parallel`) is the same for every
    /// seat and refused here.
    pub fn set_seat(&mut self, colour: Colour, name: &str, value: &str) -> Result<(), String> {
        if SHARED_BY_SEATS.contains(&name) {
            return Err(format!("{name} is the same for every colour"));
        }
        let mut seat = self.mcts_seats[colour.index()].unwrap_or(self.mcts);
        seat.set(name, value)?;
        self.mcts_seats[colour.index()] = Some(seat);
        Ok(())
    }
}

/// The tree-search parameters the threads and the tree's memory depend on: one value for
/// every seat.
const SHARED_BY_SEATS: [&str; 2] = ["threads", "parallel"];

enum Inner {
    Mcts(Box<MctsPlayer>),
    AlphaBeta(Box<AlphaBetaPlayer>),
    Greedy,
    Random(u64),
}

pub struct Player {
    kind: PlayerKind,
    inner: Inner,
}

impl Player {
    /// Searching players allocate their tables here, not inside the first timed move. Their
    /// searches end early when `stop` is raised.
    pub fn new(kind: PlayerKind, options: PlayerOptions, stop: Stop) -> Player {
        let inner = match kind {
            PlayerKind::Mcts | PlayerKind::MctsPlain => {
                let mut player = MctsPlayer::new(options.mcts, options.seed, stop);
                for colour in Colour::ALL {
                    if let Some(seat) = options.mcts_seats[colour.index()] {
                        player.set_seat_options(colour, seat);
                    }
                }
                Inner::Mcts(Box::new(player))
            }
            PlayerKind::AlphaBeta => {
                Inner::AlphaBeta(Box::new(AlphaBetaPlayer::new(options.alphabeta, stop)))
            }
            PlayerKind::Greedy => Inner::Greedy,
            PlayerKind::Random => Inner::Random(options.seed),
        };
        Player { kind, inner }
    }

    pub fn kind(&self) -> PlayerKind {
        self.kind
    }

    /// Forgets what was learnt of the last game.
    pub fn new_game(&mut self) {
        match &mut self.inner {
            Inner::Mcts(p) => p.new_game(),
            Inner::AlphaBeta(p) => p.new_game(),
            Inner::Greedy | Inner::Random(_) => {}
        }
    }

    /// Whether the player can show its thinking (`analyze`, pondering).
    pub fn can_analyze(&self) -> bool {
        matches!(self.inner, Inner::Mcts(_))
    }

    /// Searches until `stop` is raised, showing `watch` the analysis at its interval. Does
    /// nothing for a player that cannot analyse. Contract: the game is not over and is at a
    /// turn boundary; it is unchanged on return.
    pub fn analyze(&mut self, game: &mut Game, stop: &Stop, watch: &mut Watch) {
        if let Inner::Mcts(p) = &mut self.inner {
            p.analyze(game, stop, watch);
        }
    }

    /// The chance to win of the player to move after its best turn, as the last search
    /// left it in its tree (`None` for players without one).
    pub fn mover_winrate(&mut self, game: &Game) -> Option<f64> {
        match &mut self.inner {
            Inner::Mcts(p) => p.analysis(game).candidates.first().map(|c| c.winrate),
            _ => None,
        }
    }

    /// Moves a tree search's tree to `game`, the position after a turn played by the
    /// controller, so that the next search does not spend its time on it (see
    /// [`MctsPlayer::follow`]); nothing for the other players.
    pub fn follow(&mut self, game: &Game) {
        if let Inner::Mcts(p) = &mut self.inner {
            p.follow(game);
        }
    }

    /// The playouts a tree search's tree holds for `game`'s position (0 when its root is
    /// another position); `None` for players without a tree.
    pub fn kept_playouts(&self, game: &Game) -> Option<u64> {
        match &self.inner {
            Inner::Mcts(p) => Some(p.kept_playouts(game)),
            _ => None,
        }
    }

    /// Thinks on an opponent's turn until the stop signal, keeping what it learns for the
    /// engine's next turn (a player that cannot analyse returns at once). Contract: as
    /// `analyze`.
    pub fn ponder(&mut self, game: &mut Game) {
        if let Inner::Mcts(p) = &mut self.inner {
            p.ponder(game);
        }
    }

    /// A legal turn for the player to move; a tree search shows `watch` its analysis while
    /// it thinks. Contract: the game is not over and is at a turn boundary; it is unchanged
    /// on return.
    pub fn choose(
        &mut self,
        game: &mut Game,
        start: Instant,
        limits: Limits,
        watch: Option<&mut Watch>,
    ) -> Vec<Cell> {
        match &mut self.inner {
            Inner::Mcts(p) => p.choose(game, start, limits, watch),
            Inner::AlphaBeta(p) => p.choose(game, start, limits),
            Inner::Greedy => greedy_turn(game),
            Inner::Random(seed) => random_turn(game, *seed),
        }
    }
}

/// Every turn of the player to move: distinct empty cells, one a colour, in colour order;
/// the turns in the order of the game's empty cells, white's stone first.
#[cfg(test)]
pub(crate) fn every_turn(game: &Game) -> Vec<Vec<Cell>> {
    let mut turns: Vec<Vec<Cell>> = vec![Vec::new()];
    for _ in 0..game.players() {
        let mut longer = Vec::new();
        for turn in &turns {
            for &cell in game.empties().iter().filter(|cell| !turn.contains(cell)) {
                longer.push([turn.as_slice(), &[cell]].concat());
            }
        }
        turns = longer;
    }
    turns
}

/// Whether `hero` wins whatever every player does from here, a player who can win taking
/// its win: by playing out every turn of the game.
#[cfg(test)]
pub(crate) fn wins_against_all(game: &mut Game, hero: usize) -> bool {
    if game.is_over() {
        return game.winner().0.index() == hero;
    }
    let mover = game.to_move();
    let mut results = every_turn(game).into_iter().map(|turn| {
        game.play_turn(mover, &turn).unwrap();
        let wins = wins_against_all(game, hero);
        game.undo_turn();
        wins
    });
    if mover.index() == hero {
        results.any(|w| w)
    } else {
        results.all(|w| w)
    }
}

/// With 3 players, whether white's last turn `turn` loses for sure: black or red then wins
/// whatever the others do, by playing out every later turn. Contract: `game` is at white's
/// last turn; it is unchanged on return.
#[cfg(test)]
pub(crate) fn white_turn_lost(game: &mut Game, turn: &[Cell]) -> bool {
    let white = game.to_move();
    game.play_turn(white, turn).unwrap();
    let lost = wins_against_all(game, 1) || wins_against_all(game, 2);
    game.undo_turn();
    lost
}

//! The players that choose a turn: the tree search `mcts` (the default, as `search`), the
//! baseline `mcts-plain`, the alpha-beta search `alphabeta`, and two plumbing baselines,
//! `random` (uniform, seeded) and `greedy` (best single turn by the evaluation).

mod alphabeta;
mod baselines;
mod mcts;

pub use alphabeta::{AlphaBetaPlayer, SearchOptions};
pub use baselines::{greedy_turn, random_turn, random_turn_with};
pub use mcts::{MctsOptions, MctsPlayer};

use crate::board::Cell;
use crate::game::Game;
use crate::timeman::Limits;
use std::time::Instant;

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
}

impl PlayerOptions {
    /// The default options of `kind`.
    pub fn for_player(kind: PlayerKind) -> PlayerOptions {
        PlayerOptions {
            seed: 0,
            alphabeta: SearchOptions::default(),
            mcts: match kind {
                PlayerKind::MctsPlain => MctsOptions::plain(),
                _ => MctsOptions::strong(),
            },
        }
    }
}

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
    /// Searching players allocate their tables here, not inside the first timed move.
    pub fn new(kind: PlayerKind, options: PlayerOptions) -> Player {
        let inner = match kind {
            PlayerKind::Mcts | PlayerKind::MctsPlain => {
                Inner::Mcts(Box::new(MctsPlayer::new(options.mcts, options.seed)))
            }
            PlayerKind::AlphaBeta => {
                Inner::AlphaBeta(Box::new(AlphaBetaPlayer::new(options.alphabeta)))
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

    /// A legal turn for the player to move. Contract: the game is not over and is at a turn
    /// boundary; it is unchanged on return.
    pub fn choose(&mut self, game: &mut Game, start: Instant, limits: Limits) -> Vec<Cell> {
        match &mut self.inner {
            Inner::Mcts(p) => p.choose(game, start, limits),
            Inner::AlphaBeta(p) => p.choose(game, start, limits),
            Inner::Greedy => greedy_turn(game),
            Inner::Random(seed) => random_turn(game, *seed),
        }
    }
}

//! Games other than Omega on hex boards, played through the same binary, protocol and
//! search cores (`mcts` and `search` are generic over a position trait): Yavalath and Hexed.
//!
//! Each game lives in a folder of its own and gives:
//! - its rules as a [`Rules`] value (stones, turns, undo, the end and the result), with
//!   typed errors and never protocol text beyond the names of cells and colours;
//! - its players through [`Rules::player`] (the searches it measured strongest, the
//!   baselines its strength is measured against);
//! - a bench line ([`Rules::bench`]).
//!
//! The protocol drives any of them through `engine::GameEngine`; the match driver referees
//! them with the same [`Rules`].

pub mod duel;
pub mod engine;
pub mod hexed;
pub mod yavalath;

use crate::player::PlayerOptions;
use crate::stop::Stop;
use crate::timeman::Limits;
use std::time::Instant;

/// One move of a one-stone-per-turn game, as the protocol names it: a cell (`a1`), the swap
/// of the pie rule (`swap`) or a pass (`pass`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameMove {
    /// A stone of the mover's colour on this cell (the game's own cell index).
    Place(u16),
    /// The pie rule: the mover takes the first player's place instead of moving. The stones
    /// keep their colours; the players exchange colours (see each game's documentation).
    Swap,
    /// No move (only when the game allows it: Hexed, with no legal placement).
    Pass,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The colour (0-based index) that won.
    Win(usize),
    Draw,
}

/// The rules of a game, as the engine, the protocol and the referee drive them.
///
/// Contracts: `undo` takes back moves in reverse order of `play` and restores everything
/// (hash, history, swap state); `play` is only called with a move `check` accepted.
pub trait Rules: Clone + Send + std::fmt::Debug + 'static {
    /// The protocol's name of the game (`game NAME`).
    const NAME: &'static str;
    /// The board and player count that `game NAME` sets up.
    const DEFAULT_SIDE: usize;
    const DEFAULT_PLAYERS: usize;
    /// Whether the swap rule is on by default.
    const DEFAULT_SWAP: bool;

    /// An empty board. Errors: [`SetupError::Size`] or [`SetupError::Players`].
    fn new(side: usize, players: usize, swap: bool) -> Result<Self, SetupError>;
    /// The same set-up, empty (`clear_board`).
    fn cleared(&self) -> Self;
    fn side(&self) -> usize;
    fn players(&self) -> usize;
    fn swap_rule(&self) -> bool;
    /// Turns the swap rule on or off. Contract: no swap was played when turned off.
    fn set_swap_rule(&mut self, on: bool);

    /// The colour names in play, in the order of play (`colour_names()[k]` is colour k).
    fn colour_names(&self) -> &'static [&'static str];
    /// The colour to move, `None` once the game is over.
    fn to_move(&self) -> Option<usize>;
    fn is_over(&self) -> bool;
    /// The result once the game is over.
    fn result(&self) -> Option<GameResult>;

    /// Reads a move's word: a cell name of this board, `swap` or `pass`. Errors say why in
    /// words (`"z9 is off the board"`), without the protocol's `illegal move:` prefix.
    fn parse_move(&self, word: &str) -> Result<GameMove, String>;
    fn move_name(&self, m: GameMove) -> String;
    /// Whether `colour` may play `m` now; the error says why in words.
    fn check(&self, colour: usize, m: GameMove) -> Result<(), String>;
    /// Contract: `check(to_move, m)` accepted `m`.
    fn play(&mut self, m: GameMove);
    /// The moves the colour to move may make (`check` accepts each), none once over.
    fn legal_moves(&self) -> Vec<GameMove>;
    /// Takes back the last move; false when there is none.
    fn undo(&mut self) -> bool;
    /// The moves played, in order, with the colour that played each.
    fn history(&self) -> Vec<(usize, GameMove)>;

    /// The board drawn in text for `showboard` (lines without the leading `= `), the last
    /// move marked.
    fn draw(&self) -> String;
    /// The cells of `colour` (`list_stones`), by name.
    fn stones(&self, colour: usize) -> Vec<String>;
    /// `score`'s answer: each colour and a number (stones, or what the game counts).
    fn score(&self) -> String;
    /// `final_score`'s answer in GTP style: `W+`, `B+`, `0` for a draw, ... (documented per
    /// game in protocol.md); the current standing when the game is not over.
    fn final_score(&self) -> String;

    /// The player that `--player NAME` names in this game (`search` is the strongest),
    /// `None` when the game has no player of that name. Its searches stop early when `stop`
    /// is raised.
    fn player(name: &str, options: &PlayerOptions, stop: Stop)
        -> Option<Box<dyn GamePlayer<Self>>>;
    /// The names [`Rules::player`] knows, the default first.
    fn player_names() -> &'static [&'static str];
    /// The moves the colour to move is likely still to make, for sharing main time.
    fn own_moves_left(&self) -> usize {
        20
    }
    /// A game with a start position of its own (Hexed's `hexed_start CELL COLOUR FIRST`): an
    /// empty game of this set-up whose start is described by the cell `anchor`, the colour
    /// `colour` and the colour `first` that moves first. Games without one refuse.
    fn with_start(&self, anchor: &str, colour: usize, first: usize) -> Result<Self, String> {
        let _ = (anchor, colour, first);
        Err(format!("{} has no start position to set", Self::NAME))
    }
    /// A game with a start position of its own: the same empty set-up from a start drawn by
    /// `seed` among every start the board allows (as Hexed's game program draws one), the
    /// same start for the same seed. `None` for games without one.
    fn random_start(&self, seed: u64) -> Option<Self> {
        let _ = seed;
        None
    }
    /// The protocol commands, after `clear_board`, that set this game's start up when it is
    /// not the empty board (Hexed's `hexed_start`), for transcripts.
    fn setup_commands(&self) -> Vec<String> {
        Vec::new()
    }
    /// `omega bench`'s lines for this game (fixed positions, fixed work, nodes/s or
    /// playouts/s), each ending with a line feed.
    fn bench(options: &PlayerOptions) -> String;
}

/// A player of game `R`: chooses the move of the colour to move.
pub trait GamePlayer<R: Rules>: Send {
    /// Forgets what it learnt of the last game (a new game starts).
    fn new_game(&mut self);
    /// A legal move for the colour to move (`check` accepts it), within `limits` counted
    /// from `start` (or at once when the stop signal is raised: the best move so far).
    /// Contract: the game is not over. The game is unchanged on return.
    fn choose(&mut self, game: &R, start: Instant, limits: Limits) -> GameMove;
}

/// Why a game cannot be set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    Size,
    Players,
}

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

use crate::mcts::{Mcts, NodeId, PackedMove, UNPROVEN};
use crate::player::PlayerOptions;
use crate::search::exact::{ExactStats, Result3, RootChild, Solution};
use crate::search::Position;
use crate::stop::Stop;
use crate::timeman::Limits;
use std::time::{Duration, Instant};

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
    /// `solve`: the exact result of this two-player position for the colour to move, within
    /// `limit` or until `stop` is raised; `None` when the game has no solver. Contract: two
    /// players, the game not over.
    fn solve(&self, limit: Duration, stop: &Stop) -> Option<(Solution<GameMove>, ExactStats)> {
        let _ = (limit, stop);
        None
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
    /// Whether [`GamePlayer::choose_watched`] shows analyses (the tree searches do).
    fn can_analyze(&self) -> bool {
        false
    }
    /// As [`GamePlayer::choose`], showing `watch` the search's analysis every `watch.every`
    /// while it thinks; a player that cannot analyse shows nothing. Contract: as `choose`.
    fn choose_watched(
        &mut self,
        game: &R,
        start: Instant,
        limits: Limits,
        watch: &mut GameWatch,
    ) -> GameMove {
        let _ = watch;
        self.choose(game, start, limits)
    }
}

/// One candidate move of an analysis (`analyze`), as the tree sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameCandidate {
    pub mv: GameMove,
    /// Playouts through the move.
    pub visits: u32,
    /// The mover's chance to win after the move, in [0, 1] (1 or 0 when proven; a draw
    /// counts half).
    pub winrate: f64,
    /// The move and the tree's most visited continuation.
    pub pv: Vec<GameMove>,
}

/// What a tree search thinks of its position: its candidates, most visited first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameAnalysis {
    pub candidates: Vec<GameCandidate>,
}

/// Someone watching a search of a game: shown the analysis every `every`.
pub struct GameWatch<'a> {
    pub every: Duration,
    pub emit: &'a mut dyn FnMut(&GameAnalysis),
}

/// Candidates an analysis shows at most, and the length of their lines (as Omega's).
const ANALYSIS_CANDIDATES: usize = 10;
const ANALYSIS_PV_MOVES: usize = 10;

/// The analysis of `mcts`'s tree for the root's mover `mover` (a player of the search's
/// position): one candidate per visited root child, most visited first, `to_move` naming
/// the tree's moves as the game's.
pub fn tree_analysis<M: PackedMove>(
    mcts: &Mcts<M>,
    mover: usize,
    to_move: impl Fn(M) -> GameMove,
) -> GameAnalysis {
    let tree = mcts.tree();
    let mut candidates: Vec<GameCandidate> = tree
        .root()
        .children()
        .map(|c| c as NodeId)
        .filter(|&c| tree.at(c).visits() > 0)
        .map(|c| {
            let node = tree.get(c);
            let winrate = match node.proven {
                UNPROVEN => node.mean(),
                w if w as usize == mover => 1.0,
                _ => 0.0,
            };
            let mut pv = vec![to_move(node.mv)];
            pv.extend(
                mcts.line_from(c, ANALYSIS_PV_MOVES - 1)
                    .into_iter()
                    .map(&to_move),
            );
            GameCandidate {
                mv: to_move(node.mv),
                visits: node.visits,
                winrate,
                pv,
            }
        })
        .collect();
    candidates.sort_by_key(|c| std::cmp::Reverse(c.visits));
    candidates.truncate(ANALYSIS_CANDIDATES);
    GameAnalysis { candidates }
}

/// Why a game cannot be set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    Size,
    Players,
}

/// The moves of `game`'s root as the generic exact solver ([`crate::search::exact`]) sees
/// them: every legal move played on a copy, the position after it seen through `position`,
/// and `same_player` saying whether the root's mover moves again there. Contract: two
/// players, the game not over.
pub fn root_children<R: Rules, P: Position>(
    game: &R,
    position: impl Fn(&R) -> P,
    same_player: impl Fn(&R, &P) -> bool,
) -> Vec<RootChild<GameMove, P>> {
    let mover = game.to_move().expect("the game is not over");
    game.legal_moves()
        .into_iter()
        .map(|m| {
            let mut after = game.clone();
            after.play(m);
            match after.result() {
                Some(result) => RootChild::Over(m, result_for(result, mover)),
                None => {
                    let p = position(&after);
                    RootChild::Open {
                        action: m,
                        same_player: same_player(&after, &p),
                        position: p,
                    }
                }
            }
        })
        .collect()
}

/// A finished game's result for `colour`: +1 won, 0 drawn, -1 lost.
fn result_for(result: GameResult, colour: usize) -> Result3 {
    match result {
        GameResult::Win(c) if c == colour => 1,
        GameResult::Win(_) => -1,
        GameResult::Draw => 0,
    }
}

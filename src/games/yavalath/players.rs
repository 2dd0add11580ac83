//! Yavalath's players: searches over [`YavalathPosition`] behind one swap-aware wrapper.
//!
//! - `search`: the strongest measured (see docs/yavalath.md): `mcts`.
//! - `mcts`: the generic MCTS with the solver and tactical moves and playouts (decisive,
//!   anti-decisive, no suicide), a forced-win check by threats at the root and at every
//!   node it expands, tree reuse between moves.
//! - `mcts-plain`: the baseline: plain UCT (no RAVE, no solver), uniformly random playouts,
//!   win/loss/draw rewards.
//! - `alphabeta`: the generic alpha-beta with tactical moves and the threat evaluation.
//! - `negamax4`: the baseline: negamax alpha-beta to depth 4 with killer moves only, every
//!   legal move, the simple line-count evaluation.
//! - `random`: a uniformly random legal move (the swap included), seeded.
//!
//! The swap: on black's first turn a baseline searches the position as black; if black's
//! chances are below even, it swaps (and so takes white's place). With the swap rule on, the
//! `mcts` and `alphabeta` players open on a corner (see [`FAIR_OPENINGS`]) so that a swap
//! gains the other player little.

use super::eval::DECIDED;
use super::position::{moves, Eval, YavalathPosition};
use super::threats::forced_win;
use super::Yavalath;
use crate::board::Cell;
use crate::game::mix64;
use crate::games::{GameMove, GamePlayer};
use crate::mcts::{Mcts, MctsConfig, MctsLimits};
use crate::player::PlayerOptions;
use crate::search::{Features, SearchLimits, Searcher};
use crate::stop::Stop;
use crate::timeman::Limits;
use std::time::Instant;

pub const PLAYER_NAMES: &[&str] = &[
    "search",
    "mcts",
    "mcts-plain",
    "alphabeta",
    "negamax4",
    "random",
];

/// Threats the forced-win check looks ahead before a search.
const FORCED_WIN_DEPTH: usize = 12;
/// Threats the forced-win check looks ahead at each node the tree search expands.
const TREE_FORCED_DEPTH: usize = 4;
/// Share of the optimum past which the alpha-beta starts no new iteration.
const NEW_ITERATION_SHARE: f64 = 0.45;
/// Memory of a tree search's tree.
const TREE_MB: usize = 256;
/// A first white stone this close to the centre is swapped: the first move is a strong
/// (winning) advantage in Yavalath (Browne, "Evolutionary Game Design", 2011, ch. 7), and
/// the central cells measured best for white (docs/yavalath.md); the tree search's values
/// of single stones on an empty board are too flat (0.48-0.53) to decide by themselves.
const SWAP_DISTANCE: usize = 2;
/// Opening cells of side 5: the six corners, which the tactical MCTS measured among the
/// lowest for white (0.48-0.49, docs/yavalath.md), so that a swap gains little; on other
/// sides the first move is the search's own.
const FAIR_OPENINGS: &[&str] = &["a1", "a5", "e1", "e9", "j5", "j9"];

/// One search of a position for its mover: the move to play and the mover's chances in
/// [0, 1] after it.
trait Core: Send {
    fn new_game(&mut self);
    fn search(&mut self, game: &Yavalath, start: Instant, limits: Limits) -> (Cell, f64);
}

/// The generic MCTS over the game.
struct MctsCore {
    mcts: Mcts<Cell>,
    tactical: bool,
    playouts: Option<u64>,
    seed: u64,
    /// See [`YavalathPosition::forced_depth`].
    forced_depth: usize,
    /// The placements up to the tree's root, for tree reuse.
    root_line: Vec<Cell>,
    reuse: bool,
}

fn placements(game: &Yavalath) -> Vec<Cell> {
    game.history
        .iter()
        .filter_map(|r| match r.mv {
            GameMove::Place(c) => Some(c),
            _ => None,
        })
        .collect()
}

impl Core for MctsCore {
    fn new_game(&mut self) {
        self.mcts.clear();
        self.root_line.clear();
    }

    fn search(&mut self, game: &Yavalath, start: Instant, limits: Limits) -> (Cell, f64) {
        let line = placements(game);
        let kept = self.reuse
            && line.starts_with(&self.root_line)
            && self.mcts.advance(&line[self.root_line.len()..]);
        if !kept {
            self.mcts.clear();
        }
        self.root_line = line;
        self.mcts
            .reseed(mix64(self.seed ^ game.hash() ^ game.stones_placed() as u64));
        let mut pos = YavalathPosition::new(game, self.tactical, Eval::Threats);
        pos.forced_depth = self.forced_depth;
        let limits = MctsLimits {
            start,
            time: self.playouts.is_none().then_some(limits.optimum),
            playouts: self.playouts,
        };
        let mover = game.to_move.expect("the game is not over");
        let progress = self.mcts.search(&mut pos, limits, None, |_, _| {});
        let best = self.mcts.best_child(0).map(|c| self.mcts.tree().get(c).mv);
        let Some(cell) = best else {
            return (first_move(game), 0.5);
        };
        let value = match progress {
            Some(p) => p.proven.map_or(p.value, |w| (w == mover) as u8 as f64),
            None => 0.5,
        };
        (cell, value)
    }
}

/// The generic alpha-beta over the game.
struct AlphaBetaCore {
    searcher: Searcher<Cell>,
    tactical: bool,
    eval: Eval,
    /// The search treats this many plies as the end (negamax4's fixed depth).
    horizon: usize,
    depth: Option<usize>,
    nodes: Option<u64>,
}

impl Core for AlphaBetaCore {
    fn new_game(&mut self) {
        self.searcher.clear();
    }

    fn search(&mut self, game: &Yavalath, start: Instant, limits: Limits) -> (Cell, f64) {
        let mut pos = YavalathPosition::new(game, self.tactical, self.eval);
        pos.horizon = self.horizon;
        let limits = SearchLimits {
            soft: limits.optimum.mul_f64(NEW_ITERATION_SHARE),
            hard: limits.maximum,
            depth: self.depth,
            nodes: self.nodes,
        };
        let best = self.searcher.search(&mut pos, start, limits, |_| {});
        match best.filter(|b| !b.pv.is_empty()) {
            // A logistic of the value: about even at 0, decided positions at 0 or 1.
            Some(b) => {
                let v = (b.value as f64 / 150.0).clamp(-50.0, 50.0);
                let chance = if b.value.abs() >= DECIDED {
                    (b.value > 0) as u8 as f64
                } else {
                    1.0 / (1.0 + (-v).exp())
                };
                (b.pv[0], chance)
            }
            None => (first_move(game), 0.5),
        }
    }
}

/// A legal placement (the tactical generator's first): what a search that found nothing
/// plays.
fn first_move(game: &Yavalath) -> Cell {
    let mut out = Vec::new();
    moves(game, true, &mut out);
    out[0]
}

/// A search behind the swap decision and the choice of opening.
struct SearchPlayer {
    core: Box<dyn Core>,
    /// Opens on a fair cell with the swap rule on, and swaps by the centre rule (else by the
    /// search's value: the baselines).
    openings: bool,
    seed: u64,
}

impl GamePlayer<Yavalath> for SearchPlayer {
    fn new_game(&mut self) {
        self.core.new_game();
    }

    fn choose(&mut self, game: &Yavalath, start: Instant, limits: Limits) -> GameMove {
        if self.openings && game.swap_rule && game.players == 2 && game.history.is_empty() {
            if let Some(c) = fair_opening(game, self.seed) {
                return GameMove::Place(c);
            }
        }
        if self.openings && game.can_swap() {
            let first = game.last_cell().expect("white's stone");
            let b = game.board();
            if centre_distance(b, first) <= SWAP_DISTANCE {
                return GameMove::Swap;
            }
        }
        if self.openings {
            if let Some(c) = forced_win(&mut game.clone(), FORCED_WIN_DEPTH) {
                return GameMove::Place(c);
            }
        }
        let (cell, chance) = self.core.search(game, start, limits);
        if !self.openings && game.can_swap() && chance < 0.5 {
            GameMove::Swap
        } else {
            GameMove::Place(cell)
        }
    }
}

/// Hex distance of `cell` from the centre of the board.
fn centre_distance(board: &crate::board::Board, cell: Cell) -> usize {
    let c = board.coord(cell);
    let (dc, dr) = (
        c.col as i64 - board.side() as i64 + 1,
        c.row as i64 - board.side() as i64 + 1,
    );
    if (dc >= 0) == (dr >= 0) {
        dc.abs().max(dr.abs()) as usize
    } else {
        (dc.abs() + dr.abs()) as usize
    }
}

/// One of [`FAIR_OPENINGS`] at random (seeded), on side 5.
fn fair_opening(game: &Yavalath, seed: u64) -> Option<Cell> {
    if game.board().side() != 5 {
        return None;
    }
    let k = mix64(seed ^ 0xfa1e) as usize % FAIR_OPENINGS.len();
    game.board().parse(FAIR_OPENINGS[k]).ok()
}

struct RandomPlayer {
    seed: u64,
}

impl GamePlayer<Yavalath> for RandomPlayer {
    fn new_game(&mut self) {}

    fn choose(&mut self, game: &Yavalath, _start: Instant, _limits: Limits) -> GameMove {
        let mut cells = Vec::new();
        moves(game, false, &mut cells);
        cells.sort_unstable();
        let mut choices: Vec<GameMove> = cells.into_iter().map(GameMove::Place).collect();
        if game.can_swap() {
            choices.push(GameMove::Swap);
        }
        let k = mix64(self.seed ^ game.hash() ^ game.stones_placed() as u64) as usize;
        choices[k % choices.len()]
    }
}

/// The MCTS configuration of `mcts`.
fn mcts_config() -> MctsConfig {
    MctsConfig {
        max_nodes: (TREE_MB << 20) / crate::mcts::node_bytes(),
        ..MctsConfig::default()
    }
}

/// The MCTS configuration of `mcts-plain`: UCT, no RAVE, no solver.
fn plain_config() -> MctsConfig {
    MctsConfig {
        exploration: 1.0,
        rave: false,
        solver: false,
        ..mcts_config()
    }
}

pub fn make(
    name: &str,
    options: &PlayerOptions,
    stop: Stop,
) -> Option<Box<dyn GamePlayer<Yavalath>>> {
    let seed = options.seed;
    let mcts = |config: MctsConfig, tactical: bool, forced_depth, reuse| -> Box<dyn Core> {
        let mut mcts = Mcts::new(config, seed);
        mcts.set_stop(stop.clone());
        Box::new(MctsCore {
            mcts,
            tactical,
            forced_depth,
            playouts: options.mcts.playouts,
            seed,
            root_line: Vec::new(),
            reuse,
        })
    };
    let alphabeta = |features: Features, tactical, eval, horizon, limited: bool| -> Box<dyn Core> {
        let mut searcher = Searcher::new(options.alphabeta.hash_mb.min(64), features);
        searcher.set_stop(stop.clone());
        Box::new(AlphaBetaCore {
            searcher,
            tactical,
            eval,
            horizon,
            depth: options.alphabeta.depth.filter(|_| limited),
            nodes: options.alphabeta.nodes.filter(|_| limited),
        })
    };
    let (core, openings) = match name {
        "search" | "mcts" => (mcts(mcts_config(), true, TREE_FORCED_DEPTH, true), true),
        "mcts-plain" => (mcts(plain_config(), false, 0, false), false),
        "alphabeta" => (
            alphabeta(Features::default(), true, Eval::Threats, usize::MAX, true),
            true,
        ),
        "negamax4" => {
            let features = Features {
                tt: false,
                killers: true,
                history: false,
                pvs: false,
                aspiration: false,
                width: 0,
            };
            (alphabeta(features, false, Eval::Simple, 4, false), false)
        }
        "random" => return Some(Box::new(RandomPlayer { seed })),
        _ => return None,
    };
    Some(Box::new(SearchPlayer {
        core,
        openings,
        seed,
    }))
}

/// White's chances after each first stone of side `side`, by the `mcts` search with
/// `playouts` playouts for black (the measurement behind [`FAIR_OPENINGS`]): (cell, chance).
pub fn opening_values(side: usize, playouts: u64) -> Vec<(String, f64)> {
    use crate::games::Rules;
    let empty = Yavalath::new(side, 2, false).expect("valid side");
    let mut core = MctsCore {
        mcts: Mcts::new(mcts_config(), 1),
        tactical: true,
        forced_depth: 0,
        playouts: Some(playouts),
        seed: 1,
        root_line: Vec::new(),
        reuse: false,
    };
    let far = Limits {
        optimum: std::time::Duration::from_secs(3600),
        maximum: std::time::Duration::from_secs(3600),
    };
    empty
        .board()
        .cells()
        .map(|c| {
            let mut g = empty.clone();
            g.place(c);
            let (_, black) = core.search(&g, Instant::now(), far);
            (g.board().name(c), 1.0 - black)
        })
        .collect()
}

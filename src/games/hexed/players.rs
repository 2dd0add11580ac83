//! The Hexed players and the bench.
//!
//! - `search` (the default) and `alphabeta`: the generic alpha-beta (`crate::search`) with the
//!   reversi evaluation of `eval`; near the end its iterations reach the last empty cell and
//!   the search is exact (the endgame solve).
//! - `mcts`: the generic tree search with the settings measured best here; `mcts-plain`:
//!   plain UCT over uniformly random playouts (the comparison baseline).
//! - `minimax6`: a depth-6 alpha-beta whose evaluation is the stone count (the baseline of
//!   the strength target).
//! - `random`: a uniformly random legal move.
//!
//! Every player answers `pass` at once when the colour to move has no placement.

use super::eval::WEIGHTS;
use super::geometry::{cells, name, CELLS};
use super::position::{Evaluation, HexedPosition, SWAP};
use super::Hexed;
use crate::games::{tree_analysis, GameMove, GamePlayer, GameWatch, Rules};
use crate::mcts::{FastRng, Mcts, MctsConfig, MctsLimits};
use crate::player::PlayerOptions;
use crate::search::exact::{self, ExactLimit};
use crate::search::{Features, Iteration, Position, SearchLimits, Searcher, WIN};
use crate::stop::Stop;
use crate::timeman::Limits;
use std::fmt::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The names [`player`] knows, the default first.
pub const NAMES: &[&str] = &[
    "search",
    "alphabeta",
    "mcts",
    "mcts-plain",
    "minimax6",
    "random",
];

/// Share of the optimum past which the alpha-beta starts no new iteration (as Omega's).
const NEW_ITERATION_SHARE: f64 = 0.45;
/// The depth of the `minimax6` baseline.
const BASELINE_DEPTH: usize = 6;
/// How often the baseline's watchdog looks at the clock.
const WATCHDOG_POLL: Duration = Duration::from_millis(1);

/// The player `name` names, `None` for an unknown name.
pub fn player(
    name: &str,
    options: &PlayerOptions,
    stop: Stop,
) -> Option<Box<dyn GamePlayer<Hexed>>> {
    let heuristic = Evaluation::Heuristic(WEIGHTS);
    Some(match name {
        "search" | "alphabeta" => {
            let mut player = AlphaBetaPlayer::new(options, heuristic, None, stop.clone());
            player.resist = Some(MctsPlayer::new(options, strong_config(), stop));
            Box::new(player)
        }
        "minimax6" => Box::new(AlphaBetaPlayer::new(
            options,
            Evaluation::StoneCount,
            Some(BASELINE_DEPTH),
            stop,
        )),
        "mcts" => Box::new(MctsPlayer::new(options, strong_config(), stop)),
        "mcts-plain" => Box::new(MctsPlayer::new(options, plain_config(), stop)),
        "random" => Box::new(RandomPlayer {
            rng: FastRng::new(options.seed),
        }),
        _ => return None,
    })
}

/// Plain UCT: no RAVE, no priors, no solver (draws are results too), exploration 1.
pub fn plain_config() -> MctsConfig {
    MctsConfig {
        exploration: 1.0,
        rave: false,
        solver: false,
        ..MctsConfig::default()
    }
}

/// The tree search measured best on this game (docs/hexed.md): RAVE (all moves as first)
/// measured far weaker (stones flip, so where a colour ended says little of who played
/// there), and exploration 0.5 no better than 1: the plain settings.
pub fn strong_config() -> MctsConfig {
    plain_config()
}

/// The move to give without a search: `pass` when the colour to move cannot place (the only
/// legal move besides a swap, which a player never needs then).
fn forced(game: &Hexed) -> Option<GameMove> {
    let colour = game.to_move()?;
    game.placements(colour).is_empty().then_some(GameMove::Pass)
}

fn game_move(m: u16) -> GameMove {
    if m == SWAP {
        GameMove::Swap
    } else {
        GameMove::Place(m)
    }
}

/// The alpha-beta players: `alphabeta` (and `search`) and the `minimax6` baseline.
struct AlphaBetaPlayer {
    searcher: Searcher<u16>,
    evaluation: Evaluation,
    depth: Option<usize>,
    nodes: Option<u64>,
    /// A fixed depth that must still end at the move's maximum time (the baseline): the
    /// search then holds `deadline` and a watchdog raises it at the maximum or when `stop`
    /// is raised.
    fixed_depth: bool,
    stop: Stop,
    deadline: Stop,
    /// The default's resistance: when the search proves the mover lost, this tree search
    /// picks the move for the rest of the time (see [`AlphaBetaPlayer::choose`]).
    resist: Option<MctsPlayer>,
}

impl AlphaBetaPlayer {
    fn new(
        options: &PlayerOptions,
        evaluation: Evaluation,
        fixed_depth: Option<usize>,
        stop: Stop,
    ) -> AlphaBetaPlayer {
        let ab = &options.alphabeta;
        let mut searcher = Searcher::new(ab.hash_mb.max(1), Features::default());
        let deadline = Stop::new();
        let (depth, nodes) = match fixed_depth {
            Some(d) => {
                searcher.set_stop(deadline.clone());
                (Some(d), None)
            }
            None => {
                searcher.set_stop(stop.clone());
                (ab.depth, ab.nodes)
            }
        };
        AlphaBetaPlayer {
            searcher,
            evaluation,
            depth,
            nodes,
            fixed_depth: fixed_depth.is_some(),
            stop,
            deadline,
            resist: None,
        }
    }
}

impl GamePlayer<Hexed> for AlphaBetaPlayer {
    fn new_game(&mut self) {
        self.searcher.clear();
    }

    fn choose(&mut self, game: &Hexed, start: Instant, limits: Limits) -> GameMove {
        if let Some(m) = forced(game) {
            return m;
        }
        let mut pos = HexedPosition::new(game, self.evaluation);
        let search_limits = SearchLimits {
            soft: limits.optimum.mul_f64(NEW_ITERATION_SHARE),
            hard: limits.maximum,
            depth: self.depth,
            nodes: self.nodes,
        };
        let log = |it: &Iteration<u16>| log_iteration(it);
        let best = if self.fixed_depth {
            let (searcher, deadline, stop) = (&mut self.searcher, &self.deadline, &self.stop);
            deadline.lower();
            let done = AtomicBool::new(false);
            std::thread::scope(|scope| {
                scope.spawn(|| {
                    while !done.load(Ordering::Relaxed) {
                        if stop.is_raised() || start.elapsed() >= limits.maximum {
                            deadline.raise();
                            break;
                        }
                        std::thread::sleep(WATCHDOG_POLL);
                    }
                });
                let best = searcher.search(&mut pos, start, search_limits, log);
                done.store(true, Ordering::Relaxed);
                best
            })
        } else {
            self.searcher.search(&mut pos, start, search_limits, log)
        };
        // A proven loss: every move loses against best play, and the search plays the one
        // that loses by least, often one whose refutation is short and easy to find (a
        // wipe-out a few moves deep). Against a fallible opponent the move to play is the one
        // that makes the win hardest to find (see [`resist`]).
        let lost = best.as_ref().is_some_and(|b| b.value <= -WIN);
        if let (true, Some(resist)) = (lost, self.resist.as_mut()) {
            if self.depth.is_none() && self.nodes.is_none() && !self.stop.is_raised() {
                return resist_loss(resist, game, start, limits, &self.stop);
            }
        }
        match best.and_then(|b| b.pv.first().copied()) {
            Some(m) => game_move(m),
            // Stopped before any root move was searched: the first move in the search's
            // own order.
            None => {
                let mut moves = Vec::new();
                Position::moves(&pos, &mut moves);
                let m = moves
                    .iter()
                    .copied()
                    .max_by_key(|&m| (pos.order_score(m), std::cmp::Reverse(m)))
                    .expect("the colour to move can place");
                game_move(m)
            }
        }
    }
}

/// Share of the time left that the longest-resistance search may take in a lost position;
/// the tree search has the rest.
const RESISTANCE_SHARE: f64 = 0.5;

/// The move of a lost position that resists best: the moves whose loss against best play
/// is the deepest (the exact solver's longest resistance, as a mated chess engine plays the
/// longest mate), and among them the one the tree search without a solver visits most in
/// the rest of the time (the one after which the opponent's playouts convert least often).
/// Contract: the game is not over and the colour to move can place.
fn resist_loss(
    mcts: &mut MctsPlayer,
    game: &Hexed,
    start: Instant,
    limits: Limits,
    stop: &Stop,
) -> GameMove {
    let left = limits.optimum.saturating_sub(start.elapsed());
    let limit = ExactLimit::Time(left.mul_f64(RESISTANCE_SHARE));
    let survivors = exact::longest_resistance(game.exact_children(), limit, stop);
    if let [only] = survivors[..] {
        return only;
    }
    let first = mcts.search(game, start, limits, None);
    let ranked = mcts.mcts.root_children();
    let visits = |m: GameMove| {
        ranked
            .iter()
            .find(|c| game_move(c.mv) == m)
            .map_or(0, |c| c.visits)
    };
    survivors
        .iter()
        .copied()
        .max_by_key(|&m| visits(m))
        .unwrap_or(first)
}

/// One `info` line per finished iteration, to stderr through `log`.
fn log_iteration(it: &Iteration<u16>) {
    if log::log_enabled!(log::Level::Info) {
        let pv: Vec<String> = it.pv.iter().map(|&m| move_word(m)).collect();
        let exact = if it.exact { " exact" } else { "" };
        let (depth, value, nodes) = (it.depth, it.value, it.nodes);
        let secs = it.elapsed.as_secs_f64();
        log::info!(
            "info depth {depth} score {value}{exact} nodes {nodes} time {secs:.3} pv {}",
            pv.join(" ")
        );
    }
}

fn move_word(m: u16) -> String {
    if m == SWAP {
        "swap".into()
    } else {
        name(m as usize)
    }
}

/// The tree-search players (`mcts`, `mcts-plain`): a fresh tree every move.
struct MctsPlayer {
    mcts: Mcts<u16>,
    seed: u64,
    playouts: Option<u64>,
}

impl MctsPlayer {
    fn new(options: &PlayerOptions, config: MctsConfig, stop: Stop) -> MctsPlayer {
        let nodes = crate::mcts::nodes_in_mib(options.mcts.tree_mb.max(1));
        let config = MctsConfig {
            max_nodes: nodes.max(1024),
            ..config
        };
        let mut mcts = Mcts::new(config, options.seed);
        mcts.set_stop(stop);
        MctsPlayer {
            mcts,
            seed: options.seed,
            playouts: options.mcts.playouts,
        }
    }
}

impl GamePlayer<Hexed> for MctsPlayer {
    fn new_game(&mut self) {
        self.mcts.clear();
    }

    fn choose(&mut self, game: &Hexed, start: Instant, limits: Limits) -> GameMove {
        self.search(game, start, limits, None)
    }

    fn can_analyze(&self) -> bool {
        true
    }

    fn choose_watched(
        &mut self,
        game: &Hexed,
        start: Instant,
        limits: Limits,
        watch: &mut GameWatch,
    ) -> GameMove {
        self.search(game, start, limits, Some(watch))
    }
}

impl MctsPlayer {
    /// A fresh tree's search of `game`, shown to `watch`. Contract: the game is not over.
    fn search(
        &mut self,
        game: &Hexed,
        start: Instant,
        limits: Limits,
        watch: Option<&mut GameWatch>,
    ) -> GameMove {
        if let Some(m) = forced(game) {
            return m;
        }
        let mut pos = HexedPosition::new(game, Evaluation::StoneCount);
        self.mcts.clear();
        if self.playouts.is_some() {
            // Reproducible: the same position gets the same playouts.
            self.mcts.reseed(self.seed ^ game.hash());
        }
        let mcts_limits = MctsLimits {
            start,
            time: match self.playouts {
                Some(_) => None,
                None => Some(limits.optimum.min(limits.maximum)),
            },
            playouts: self.playouts,
            settle: None,
        };
        match watch {
            Some(watch) => {
                let seat = Position::mover(&pos);
                let report = |mcts: &Mcts<u16>, _: &_| {
                    (watch.emit)(&tree_analysis(mcts, seat, game_move));
                };
                self.mcts
                    .search(&mut pos, mcts_limits, Some(watch.every), report)
            }
            None => self.mcts.search(&mut pos, mcts_limits, None, |_, _| {}),
        };
        let best = self.mcts.best_child(0).map(|c| self.mcts.tree().at(c).mv());
        match best {
            Some(m) => game_move(m),
            None => GameMove::Place(cells(pos_placements(game)).next().unwrap_or(0) as u16),
        }
    }
}

fn pos_placements(game: &Hexed) -> super::geometry::Bits {
    game.state().placements_of(game.state().mover)
}

/// A uniformly random legal move (the swap included when it is legal).
struct RandomPlayer {
    rng: FastRng,
}

impl GamePlayer<Hexed> for RandomPlayer {
    fn new_game(&mut self) {}

    fn choose(&mut self, game: &Hexed, _start: Instant, _limits: Limits) -> GameMove {
        let moves = game.legal_moves();
        moves[self.rng.below(moves.len())]
    }
}

/// A game from the default start after `moves` uniformly random moves (fewer if it ends).
pub fn random_opening(moves: usize, seed: u64) -> Hexed {
    let mut game = Hexed::new(super::SIDE, 2, false).expect("the default board");
    let mut rng = FastRng::new(seed);
    for _ in 0..moves {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        game.play(legal[rng.below(legal.len())]);
    }
    game
}

/// The bench positions: random moves from the default start (a negative count: moves
/// before the end of that random game), and the alpha-beta depth (the last one reaches
/// the end: an exact solve).
const BENCH_POSITIONS: [(i32, usize); 3] = [(6, 13), (20, 13), (-12, 40)];
/// Playouts of the tree-search line.
const BENCH_PLAYOUTS: u64 = 20_000;

/// A search to `depth`, whatever the clock.
fn to_depth(depth: usize) -> SearchLimits {
    SearchLimits {
        soft: Duration::MAX,
        hard: Duration::MAX,
        depth: Some(depth),
        nodes: None,
    }
}

/// `omega bench`'s Hexed lines: alpha-beta at fixed depths (the last one an exact endgame
/// solve) and `mcts-plain` at a fixed playout count, with nodes/s and playouts/s.
pub fn bench(options: &PlayerOptions) -> String {
    let mut out = String::new();
    let (mut nodes, mut node_time) = (0u64, Duration::ZERO);
    for (moves, depth) in BENCH_POSITIONS {
        let moves = if moves >= 0 {
            moves as usize
        } else {
            let length = random_opening(CELLS, 2026).history().len();
            length.saturating_sub(moves.unsigned_abs() as usize)
        };
        let game = random_opening(moves, 2026);
        let mut searcher: Searcher<u16> =
            Searcher::new(options.alphabeta.hash_mb.max(1), Features::default());
        let mut pos = HexedPosition::new(&game, Evaluation::Heuristic(WEIGHTS));
        let depth = options.alphabeta.depth.unwrap_or(depth);
        let start = Instant::now();
        let Some(result) = searcher.search(&mut pos, start, to_depth(depth), |_| {}) else {
            continue;
        };
        let elapsed = start.elapsed();
        (nodes, node_time) = (nodes + result.nodes, node_time + elapsed);
        let _ = writeln!(
            out,
            "hexed alphabeta move {moves:>2} depth {:>2}{} value {:>9} nodes {:>9} time {:.3}",
            result.depth,
            if result.exact { " exact" } else { "      " },
            result.value,
            result.nodes,
            elapsed.as_secs_f64()
        );
    }
    let game = random_opening(0, 2026);
    let mut mcts: Mcts<u16> = Mcts::new(
        MctsConfig {
            max_nodes: 1 << 20,
            ..plain_config()
        },
        2026,
    );
    let start = Instant::now();
    let limits = MctsLimits {
        start,
        time: None,
        playouts: Some(options.mcts.playouts.unwrap_or(BENCH_PLAYOUTS)),
        settle: None,
    };
    let mut pos = HexedPosition::new(&game, Evaluation::StoneCount);
    let progress = mcts.search(&mut pos, limits, None, |_, _| {});
    let elapsed = start.elapsed();
    let playouts = progress.map_or(0, |p| p.playouts);
    let rate = |n: u64, t: Duration| n as f64 / t.as_secs_f64().max(1e-9);
    let _ = writeln!(
        out,
        "hexed mcts-plain start playouts {playouts} time {:.3} pps {:.0}",
        elapsed.as_secs_f64(),
        rate(playouts, elapsed)
    );
    let _ = writeln!(
        out,
        "hexed total nodes {nodes} playouts {playouts} nps {:.0} pps {:.0}",
        rate(nodes, node_time),
        rate(playouts, elapsed)
    );
    out
}

//! The alpha-beta player: iterative deepening over one stone per ply (see `crate::search`).

use super::baselines::complete_greedily;
use crate::board::{Board, Cell};
use crate::game::Game;
use crate::position::OmegaPosition;
use crate::search::{Features, Iteration, SearchLimits, Searcher};
use crate::stop::Stop;
use crate::timeman::Limits;
use std::time::Instant;

/// Share of the optimum past which no new iteration starts: each iteration costs several
/// times the previous one, so one started later would rarely finish by the maximum.
const NEW_ITERATION_SHARE: f64 = 0.45;

/// Options of the alpha-beta player.
#[derive(Clone, Copy, Debug)]
pub struct SearchOptions {
    pub hash_mb: usize,
    pub depth: Option<usize>,
    pub nodes: Option<u64>,
    pub features: Features,
    /// Threads searching (lazy SMP: one shared table); at least 1.
    pub threads: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            hash_mb: 64,
            depth: None,
            nodes: None,
            features: Features::default(),
            threads: 1,
        }
    }
}

pub struct AlphaBetaPlayer {
    options: SearchOptions,
    searcher: Searcher<Cell>,
    /// The other threads of a lazy SMP search (Stockfish's scheme since 2015): each searches
    /// the same position with the shared table and killers and history of its own, every
    /// other one a ply deeper; what they store speeds up the main search, whose result is
    /// played.
    helpers: Vec<Searcher<Cell>>,
    /// Ends the helpers' searches when the main one ends.
    helpers_stop: Stop,
}

impl AlphaBetaPlayer {
    /// Allocates the table here, not inside the first timed move.
    pub fn new(options: SearchOptions, stop: Stop) -> AlphaBetaPlayer {
        let mut searcher = Searcher::new(options.hash_mb, options.features);
        searcher.set_stop(stop);
        let helpers_stop = Stop::new();
        let helpers = (1..options.threads.max(1))
            .map(|i| {
                let mut helper = searcher.helper(1 + i % 2);
                helper.set_stop(helpers_stop.clone());
                helper
            })
            .collect();
        AlphaBetaPlayer {
            options,
            searcher,
            helpers,
            helpers_stop,
        }
    }

    pub fn new_game(&mut self) {
        // The helpers share the main searcher's table: it is emptied once.
        self.searcher.clear();
        self.helpers.iter_mut().for_each(Searcher::forget_moves);
    }

    /// Contract: the game is not over and is at a turn boundary; it is unchanged on return.
    pub fn choose(&mut self, game: &mut Game, start: Instant, limits: Limits) -> Vec<Cell> {
        let limits = SearchLimits {
            soft: limits.optimum.mul_f64(NEW_ITERATION_SHARE),
            hard: limits.maximum,
            depth: self.options.depth,
            nodes: self.options.nodes,
        };
        let k = game.players();
        // The board names the PV's cells in the log; copied only when the log is on.
        let board = log::log_enabled!(log::Level::Info).then(|| game.board().clone());
        let mut copies: Vec<Game> = self.helpers.iter().map(|_| game.clone()).collect();
        let (searcher, helpers_stop) = (&mut self.searcher, &self.helpers_stop);
        helpers_stop.lower();
        let best = std::thread::scope(|scope| {
            for (helper, copy) in self.helpers.iter_mut().zip(&mut copies) {
                scope.spawn(move || {
                    helper.search(&mut OmegaPosition::new(copy), start, limits, |_| {});
                });
            }
            let mut pos = OmegaPosition::new(&mut *game);
            let best = searcher.search(&mut pos, start, limits, |it| {
                if let Some(board) = &board {
                    log_iteration(board, it);
                }
            });
            helpers_stop.raise();
            best
        });
        let mut turn: Vec<Cell> = best.map(|b| b.pv).unwrap_or_default();
        turn.truncate(k);
        // A search stopped before its first iteration, or a PV cut short by the table:
        // complete the turn greedily.
        complete_greedily(game, &mut turn);
        turn
    }
}

/// One `info` line per finished iteration, to stderr through `log`; the PV in cell names,
/// one stone a ply.
fn log_iteration(board: &Board, it: &Iteration<Cell>) {
    let secs = it.elapsed.as_secs_f64().max(1e-9);
    let pv = board.names(&it.pv);
    log::info!(
        "info depth {} score {}{} nodes {} nps {:.0} time {:.3} pv {}",
        it.depth,
        it.value,
        if it.exact { " exact" } else { "" },
        it.nodes,
        it.nodes as f64 / secs,
        secs,
        pv
    );
}

//! The players that choose a turn: the search (default), and two baselines for tests and
//! matches: `random` (uniform, seeded) and `greedy` (best single turn by the evaluation).

use crate::board::{Board, Cell};
use crate::eval;
use crate::game::{Colour, Game};
use crate::position::OmegaPosition;
use crate::search::{Features, Iteration, Position, SearchLimits, Searcher};
use crate::timeman::Limits;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    Search,
    Greedy,
    Random,
}

impl PlayerKind {
    pub fn parse(word: &str) -> Option<PlayerKind> {
        match word {
            "search" => Some(PlayerKind::Search),
            "greedy" => Some(PlayerKind::Greedy),
            "random" => Some(PlayerKind::Random),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Search => "search",
            PlayerKind::Greedy => "greedy",
            PlayerKind::Random => "random",
        }
    }
}

/// Options of the search player.
#[derive(Clone, Copy, Debug)]
pub struct SearchOptions {
    pub hash_mb: usize,
    pub depth: Option<usize>,
    pub nodes: Option<u64>,
    pub features: Features,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            hash_mb: 64,
            depth: None,
            nodes: None,
            features: Features::default(),
        }
    }
}

pub struct Player {
    kind: PlayerKind,
    seed: u64,
    options: SearchOptions,
    searcher: Option<Searcher<Cell>>,
}

impl Player {
    /// The search player allocates its table here, not inside the first timed move.
    pub fn new(kind: PlayerKind, seed: u64, options: SearchOptions) -> Player {
        let searcher =
            (kind == PlayerKind::Search).then(|| Searcher::new(options.hash_mb, options.features));
        Player {
            kind,
            seed,
            options,
            searcher,
        }
    }

    pub fn kind(&self) -> PlayerKind {
        self.kind
    }

    pub fn new_game(&mut self) {
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
    }

    /// A legal turn for the player to move. Contract: the game is not over and is at a turn
    /// boundary; it is unchanged on return.
    pub fn choose(&mut self, game: &mut Game, start: Instant, limits: Limits) -> Vec<Cell> {
        match self.kind {
            PlayerKind::Random => random_turn(game, self.seed),
            PlayerKind::Greedy => greedy_turn(game),
            PlayerKind::Search => self.search_turn(game, start, limits),
        }
    }

    fn search_turn(&mut self, game: &mut Game, start: Instant, limits: Limits) -> Vec<Cell> {
        let options = self.options;
        let searcher = self
            .searcher
            .get_or_insert_with(|| Searcher::new(options.hash_mb, options.features));
        let limits = SearchLimits {
            soft: limits.soft,
            hard: limits.hard,
            depth: options.depth,
            nodes: options.nodes,
        };
        let k = game.players();
        // The board names the PV's cells in the log; copied only when the log is on.
        let board = log::log_enabled!(log::Level::Info).then(|| game.board().clone());
        let best = {
            let mut pos = OmegaPosition::new(&mut *game);
            searcher.search(&mut pos, start, limits, |it| {
                if let Some(board) = &board {
                    log_iteration(board, it);
                }
            })
        };
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
    let pv: Vec<String> = it.pv.iter().map(|&c| board.name(c)).collect();
    log::info!(
        "info depth {} score {}{} nodes {} nps {:.0} time {:.3} pv {}",
        it.depth,
        it.value,
        if it.exact { " exact" } else { "" },
        it.nodes,
        it.nodes as f64 / secs,
        secs,
        pv.join(" ")
    );
}

/// K distinct empty cells, uniformly, from a generator seeded by the seed and the position,
/// so that the same position gives the same turn on every run.
pub fn random_turn(game: &Game, seed: u64) -> Vec<Cell> {
    let mix = game.hash() ^ (game.stones_placed() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    random_turn_with(game, &mut StdRng::seed_from_u64(seed ^ mix))
}

/// K distinct empty cells drawn uniformly with `rng`, from the empty cells in cell order (so
/// that the same generator state gives the same turn whatever the game's history).
pub fn random_turn_with(game: &Game, rng: &mut impl rand::Rng) -> Vec<Cell> {
    let mut empties = game.empties().to_vec();
    empties.sort_unstable();
    empties
        .choose_multiple(rng, game.players())
        .copied()
        .collect()
}

/// The best single turn by the evaluation, one stone at a time in colour order: the mover's
/// own stone where the mover's value is highest, every other stone where it is lowest for
/// that colour. No search.
pub fn greedy_turn(game: &mut Game) -> Vec<Cell> {
    let mut turn = Vec::new();
    complete_greedily(game, &mut turn);
    turn
}

/// Appends greedy stones to `turn` (a legal prefix of the current turn) until it is whole.
fn complete_greedily(game: &mut Game, turn: &mut Vec<Cell>) {
    let mover = game.to_move();
    for &cell in turn.iter() {
        game.place(cell);
    }
    while turn.len() < game.players() {
        let colour = game.next_stone_colour();
        let cell = best_placement(game, colour, mover);
        game.place(cell);
        turn.push(cell);
    }
    for _ in 0..turn.len() {
        game.unplace();
    }
}

/// The empty cell where a stone of `colour` is best for `mover`, judged by the placement's
/// change of that colour's log-score and, among equals, by the mover's evaluation after it.
fn best_placement(game: &mut Game, colour: Colour, mover: Colour) -> Cell {
    let sign = if colour == mover { 1 } else { -1 };
    let mut cells = game.empties().to_vec();
    cells.sort_unstable();
    // After the last stone of the turn, the mover's evaluation of each result breaks ties
    // (all at once, as the search evaluates its leaves).
    let mut after = Vec::with_capacity(cells.len());
    if game.next_stone_colour().index() == game.players() - 1 {
        OmegaPosition::new(game).leaf_children(mover.index(), &cells, &mut after);
    }
    let mut best = (i64::MIN, cells[0]);
    for (i, &cell) in cells.iter().enumerate() {
        let delta = sign * eval::placement_delta(game, colour, cell);
        let value = (delta as i64) * (1 << 32) + after.get(i).copied().unwrap_or(0) as i64;
        if value > best.0 {
            best = (value, cell);
        }
    }
    best.1
}

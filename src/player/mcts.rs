//! The tree-search players: `mcts` (the strongest configuration measured) and `mcts-plain`
//! (UCT + RAVE with uniformly random playouts and nothing else, the baseline kept for ever as
//! the in-house stand-in for a plain public Monte-Carlo engine).

use crate::board::{Board, Cell};
use crate::game::{mix64, Game};
use crate::mcts::{Mcts, MctsConfig, MctsLimits, Progress};
use crate::playout::{OmegaTree, PlayoutConfig, Scratch, CLASS_NAMES, COUNT_NAMES};
use crate::position::OmegaPosition;
use crate::search::{Features, SearchLimits, Searcher, WIN};
use crate::timeman::Limits;
use std::time::{Duration, Instant};

/// Bytes a tree node takes, to turn `--tree-mb` into a node count.
const NODE_BYTES: usize = crate::mcts::node_bytes::<Cell>();
/// Playouts of a continuation search, when the main search did not reach the end of the turn
/// (it also stops at the move's maximum time, but never before `mcts::MIN_PLAYOUTS`).
const CONTINUATION_PLAYOUTS: u64 = 256;
/// What the MAST statistics keep from one search to the next.
const MAST_DECAY: f32 = 0.5;
/// Share of a move's optimum time the exact endgame search may take.
const EXACT_SHARE: f64 = 0.5;
/// Transposition table of the exact endgame search, in MiB.
const EXACT_HASH_MB: usize = 16;
/// How often a long search logs its progress.
const REPORT_EVERY: Duration = Duration::from_secs(1);

/// Options of the tree-search players.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsOptions {
    /// Stop after this many playouts, ignoring the clock: reproducible with `--seed`.
    pub playouts: Option<u64>,
    /// Memory for the tree, in MiB.
    pub tree_mb: usize,
    pub search: MctsConfig,
    pub playout: PlayoutConfig,
    /// With this many stones or fewer left to the end of the game, an exact alpha-beta
    /// search runs first, and a proven win it finds is played (0 = never).
    pub exact_plies: usize,
}

impl MctsOptions {
    /// `mcts-plain`: UCT + RAVE over uniformly random playouts, win or loss, no priors.
    pub fn plain() -> MctsOptions {
        MctsOptions {
            playouts: None,
            tree_mb: 512,
            search: MctsConfig::default(),
            playout: PlayoutConfig::default(),
            exact_plies: 0,
        }
    }

    /// `mcts`: the configuration that measured strongest (figures in the README): plain,
    /// plus the AMAF values a new node inherits from its nearest well-visited ancestor
    /// (GRAVE), where with two players the ancestor may be one where the other player
    /// places the colours.
    pub fn strong() -> MctsOptions {
        MctsOptions {
            search: MctsConfig {
                ancestor_amaf: 50.0,
                ancestor_flip: true,
                ..MctsConfig::default()
            },
            ..MctsOptions::plain()
        }
    }

    /// Sets one parameter by name (`--set NAME=VALUE`, for experiments and tuning).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let number = || {
            value
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or(format!("{name}: '{value}' is not a number"))
        };
        let flag = || match value {
            "on" | "true" | "1" => Ok(true),
            "off" | "false" | "0" => Ok(false),
            _ => Err(format!("{name}: '{value}' is not on or off")),
        };
        let s = &mut self.search;
        let p = &mut self.playout;
        match name {
            "exploration" => s.exploration = number()?,
            "rave" => s.rave = flag()?,
            "rave_equivalence" => s.rave_equivalence = number()?.max(1e-3),
            "prior_visits" => s.prior_visits = number()?.max(0.0),
            "prior_rave_visits" => s.prior_rave_visits = number()?.max(0.0),
            "first_play_urgency" => s.first_play_urgency = number()?,
            "expand_visits" => s.expand_visits = number()?.max(0.0) as u32,
            "solver" => s.solver = flag()?,
            "ancestor_amaf" => s.ancestor_amaf = number()?.max(0.0),
            "ancestor_flip" => s.ancestor_flip = flag()?,
            "ancestor_ref" => s.ancestor_ref = number()?.max(0.0) as u32,
            "score_weight" => p.score_weight = number()?.clamp(0.0, 1.0),
            "score_scale" => p.score_scale = number()?.max(1e-3),
            "prior_scale" => p.prior_scale = number()?.max(0.0),
            "exact_plies" => self.exact_plies = number()?.clamp(0.0, 64.0) as usize,
            "candidates" => p.candidates = number()?.clamp(1.0, 64.0) as usize,
            "pattern_prior" => p.pattern_prior = number()?.max(0.0),
            "mast_candidates" => p.mast_candidates = number()?.clamp(1.0, 16.0) as usize,
            "pattern_candidates" => p.pattern_candidates = number()?.clamp(1.0, 16.0) as usize,
            "count_candidates" => p.count_candidates = number()?.clamp(1.0, 64.0) as usize,
            _ => {
                let class = |prefix: &str, names: &[&str]| {
                    name.strip_prefix(prefix)
                        .and_then(|c| names.iter().position(|&n| n == c))
                };
                if let Some(i) = class("w_", &CLASS_NAMES) {
                    p.weights[i] = number()?;
                } else if let Some(i) = class("n_", &COUNT_NAMES) {
                    p.count_weights[i] = number()?;
                } else {
                    return Err(format!("unknown parameter '{name}'"));
                }
            }
        }
        Ok(())
    }
}

pub struct MctsPlayer {
    options: MctsOptions,
    seed: u64,
    mcts: Mcts<Cell>,
    scratch: Scratch,
    /// The stones placed from the start of the game to the tree's root.
    root_history: Vec<Cell>,
    /// The exact endgame search, made at its first use.
    exact: Option<Searcher<Cell>>,
}

impl MctsPlayer {
    pub fn new(mut options: MctsOptions, seed: u64) -> MctsPlayer {
        options.search.max_nodes = (options.tree_mb << 20) / NODE_BYTES;
        MctsPlayer {
            options,
            seed,
            mcts: Mcts::new(options.search, seed),
            scratch: Scratch::default(),
            root_history: Vec::new(),
            exact: None,
        }
    }

    pub fn new_game(&mut self) {
        self.mcts.clear();
        self.root_history.clear();
        if let Some(exact) = self.exact.as_mut() {
            exact.clear();
        }
    }

    /// Contract: the game is not over and is at a turn boundary; it is unchanged on return.
    pub fn choose(&mut self, game: &mut Game, start: Instant, limits: Limits) -> Vec<Cell> {
        if !self.scratch.fits(game) {
            self.scratch = Scratch::new(game);
            self.new_game();
        }
        if let Some(turn) = self.proven_win(game, start, limits) {
            return turn;
        }
        self.move_root(game);
        let k = game.players();
        let mut turn: Vec<Cell> = Vec::with_capacity(k);
        // Reproducible with a playout limit: the clock is then ignored.
        let timed = self.options.playouts.is_none();
        let clock = |t: Duration| timed.then_some(t);
        let mut time = clock(limits.optimum);
        let mut budget = self.options.playouts;
        loop {
            // 1. Search from the root (the position after the stones of the turn chosen so
            // far), then read the turn off the tree's most visited line.
            self.search(game, start, time, budget);
            let chosen = self.mcts.principal_variation(k - turn.len());
            for &cell in &chosen {
                game.place(cell);
            }
            turn.extend_from_slice(&chosen);
            if turn.len() == k {
                break;
            }
            // 2. The line stops inside the turn (a tiny budget on a big board): move the root
            // to its end and search on from there, so that every stone is searched.
            self.move_root(game);
            budget = Some(budget.map_or(CONTINUATION_PLAYOUTS, |b| b.min(CONTINUATION_PLAYOUTS)));
            time = clock(limits.maximum);
        }
        for _ in 0..turn.len() {
            game.unplace();
        }
        turn
    }

    /// Near the end of the game: an exact alpha-beta search (paranoid with 3-4 players, so a
    /// win it proves holds against any play of the others) and its turn when it proves a win.
    /// It may take [`EXACT_SHARE`] of the optimum; the tree search has the rest.
    fn proven_win(&mut self, game: &mut Game, start: Instant, limits: Limits) -> Option<Vec<Cell>> {
        let k = game.players();
        let plies_left = game.total_turns() * k - game.stones_placed();
        if plies_left > self.options.exact_plies {
            return None;
        }
        let limits = match self.options.playouts {
            // Reproducible: the exact depth, whatever the clock says.
            Some(_) => SearchLimits {
                soft: Duration::MAX,
                hard: Duration::MAX,
                depth: Some(plies_left),
                nodes: None,
            },
            None => SearchLimits {
                soft: limits.optimum.mul_f64(EXACT_SHARE),
                hard: limits.optimum.mul_f64(EXACT_SHARE),
                depth: None,
                nodes: None,
            },
        };
        let searcher = self
            .exact
            .get_or_insert_with(|| Searcher::new(EXACT_HASH_MB, Features::default()));
        let it = searcher.search(&mut OmegaPosition::new(game), start, limits, |_| {})?;
        if it.exact && it.value >= WIN && it.pv.len() >= k {
            log::info!("info exact win in {plies_left} plies, nodes {}", it.nodes);
            Some(it.pv[..k].to_vec())
        } else {
            None
        }
    }

    /// Keeps the part of the tree below the current position, when the tree's root is an
    /// earlier position of the same game.
    fn move_root(&mut self, game: &Game) {
        let history = game.stone_history();
        let kept = history.starts_with(&self.root_history)
            && self.mcts.advance(&history[self.root_history.len()..]);
        if !kept {
            self.mcts.clear();
        }
        self.root_history = history;
    }

    fn search(
        &mut self,
        game: &mut Game,
        start: Instant,
        time: Option<Duration>,
        playouts: Option<u64>,
    ) {
        // Reproducible: the same position, seed and playout limit give the same search.
        self.mcts
            .reseed(mix64(self.seed ^ game.hash() ^ game.stones_placed() as u64));
        let limits = MctsLimits {
            start,
            time,
            playouts,
        };
        let board = log::log_enabled!(log::Level::Info).then(|| game.board().clone());
        self.scratch.decay_mast(MAST_DECAY);
        let mut tree = OmegaTree::new(game, &mut self.scratch, self.options.playout);
        let last = self
            .mcts
            .search(&mut tree, limits, Some(REPORT_EVERY), |p| {
                if let Some(board) = &board {
                    log_progress(board, p);
                }
            });
        if let (Some(board), Some(p)) = (&board, &last) {
            log_progress(board, p);
        }
    }
}

/// One `info` line on stderr through `log`: playouts, speed, the win rate of the best move
/// for the player to move (or the proven winner), and the most visited line.
fn log_progress(board: &Board, p: &Progress<Cell>) {
    let secs = p.elapsed.as_secs_f64().max(1e-9);
    let pv: Vec<String> = p.pv.iter().take(12).map(|&c| board.name(c)).collect();
    let result = match p.proven {
        Some(w) => format!("proven {}", crate::game::Colour::from_index(w)),
        None => format!("winrate {:.3}", p.value),
    };
    log::info!(
        "info playouts {} pps {:.0} visits {} nodes {} time {:.3} {} pv {}",
        p.playouts,
        p.playouts as f64 / secs,
        p.root_visits,
        p.nodes,
        secs,
        result,
        pv.join(" ")
    );
}

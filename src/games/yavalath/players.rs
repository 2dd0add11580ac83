//! Yavalath's players: searches over [`YavalathPosition`] behind one swap-aware wrapper.
//!
//! - `search`: the strongest measured (see docs/yavalath.md, step 12): with two players,
//!   `alphabeta`'s move while fewer than [`OPENING_STONES`] stones are on the board, then
//!   `mcts`'s.
//! - `mcts`: the generic MCTS with the solver and tactical moves and playouts (decisive,
//!   anti-decisive, no suicide), a forced-win check by threats at the root and at every
//!   node it expands, tree reuse between moves, and in a position it proves lost the move
//!   that resists best (a second search without the solver).
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
use crate::games::{tree_analysis, GameMove, GamePlayer, GameWatch};
use crate::mcts::{Mcts, MctsConfig, MctsLimits};
use crate::player::PlayerOptions;
use crate::search::exact::{self, ExactLimit};
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
/// Stones the forced-win check before a search may place (at most some 40 ms; the most any
/// position of 200 games at 1 s took unbounded was 18 ms).
const FORCED_WIN_BUDGET: usize = 200_000;
/// Threats the forced-win check looks ahead at each node the tree search expands.
pub const TREE_FORCED_DEPTH: usize = 4;
/// Stones the check at each expanded node may place (well under a millisecond: a search
/// looks at its clock between nodes, and an unbounded check made a move 55 ms late).
pub const TREE_FORCED_BUDGET: usize = 2_000;
/// Share of the optimum past which the alpha-beta starts no new iteration.
const NEW_ITERATION_SHARE: f64 = 0.45;
/// Memory of a tree search's tree.
const TREE_MB: usize = 256;
/// Memory of the tree that picks a move in a lost position (see [`MctsCore::resist`]).
const RESIST_TREE_MB: usize = 64;
/// Share of the time left that the longest-resistance search may take in a lost position
/// (see [`MctsCore::resist`]), and its nodes when the search counts playouts instead.
const RESISTANCE_SHARE: f64 = 0.5;
const RESISTANCE_NODES: u64 = 1 << 20;
/// Stones on the board below which the default (`search`) plays the alpha-beta's move (the
/// threat evaluation) rather than the tree search's. In the opening the tree's values are
/// flat (random playouts from a nearly empty board decide little), so it answered a
/// central stone in a far corner and lost the fight at the centre; the alpha-beta's lines
/// of 4 see that fight. Measured (docs/yavalath.md, step 12): defending every swapped first
/// stone against `negamax4` at 1 s, 50/61 with the tree search alone, 59/61 with the
/// alpha-beta below 10 stones.
const OPENING_STONES: usize = 10;
/// With a playout limit, the opening alpha-beta's node limit per playout: both take about
/// the same time (Yavalath's bench: about 245,000 nodes/s and 53,000 playouts/s).
const OPENING_NODES_PER_PLAYOUT: u64 = 5;
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
    /// Contract: the game is not over. A core that can analyse shows `watch` its analysis.
    fn search(
        &mut self,
        game: &Yavalath,
        start: Instant,
        limits: Limits,
        watch: Option<&mut GameWatch>,
    ) -> (Cell, f64);
    /// Whether `search` shows analyses.
    fn can_analyze(&self) -> bool {
        false
    }
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
    /// The default's two additions: the tree is kept between moves, and a proven loss is
    /// resisted (else the first search's move is played).
    strong: bool,
    /// When the search proves the mover lost: a second search without the solver picks the
    /// move that resists best (see [`MctsCore::resist`]); made at its first use.
    resist: Option<Mcts<Cell>>,
    /// The stop signal, for the resisting search too.
    stop: Stop,
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

    fn can_analyze(&self) -> bool {
        true
    }

    fn search(
        &mut self,
        game: &Yavalath,
        start: Instant,
        limits: Limits,
        watch: Option<&mut GameWatch>,
    ) -> (Cell, f64) {
        let line = placements(game);
        let kept = self.strong
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
            settle: None,
        };
        let mover = game.to_move.expect("the game is not over");
        let progress = match watch {
            Some(watch) => {
                let report = |mcts: &Mcts<Cell>, _: &_| {
                    (watch.emit)(&tree_analysis(mcts, mover, GameMove::Place));
                };
                self.mcts
                    .search(&mut pos, limits, Some(watch.every), report)
            }
            None => self.mcts.search(&mut pos, limits, None, |_, _| {}),
        };
        let lost = progress
            .as_ref()
            .and_then(|p| p.proven)
            .is_some_and(|w| w != mover);
        if lost && self.strong {
            if let Some(cell) = self.resist(game, &mut pos, limits) {
                return (cell, 0.0);
            }
        }
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

impl MctsCore {
    /// The move to play in a position the search has proven lost (every move loses against
    /// best play; the solver then stops at once, and its tree holds no preference among the
    /// losing moves, so the first search would play any of them, often a far corner).
    /// Against a fallible opponent the move to play is the one that makes the win hardest
    /// to find. First the exact solver keeps the moves whose loss is the deepest (the
    /// longest resistance, as a mated chess engine plays the longest mate), with
    /// [`RESISTANCE_SHARE`] of the time left; then a second search of the position, for the
    /// rest of the time, with the solver off, ranks them by how often the opponent fails to
    /// convert in the playouts. `None` when that search finds nothing.
    fn resist(
        &mut self,
        game: &Yavalath,
        pos: &mut YavalathPosition,
        limits: MctsLimits,
    ) -> Option<Cell> {
        let limit = match limits.time {
            Some(t) => {
                let left = t.saturating_sub(limits.start.elapsed());
                ExactLimit::Time(left.mul_f64(RESISTANCE_SHARE))
            }
            None => ExactLimit::Nodes(RESISTANCE_NODES),
        };
        let survivors: Vec<Cell> =
            exact::longest_resistance(game.exact_children(), limit, &self.stop)
                .into_iter()
                .filter_map(|m| match m {
                    GameMove::Place(c) => Some(c),
                    _ => None,
                })
                .collect();
        if let [only] = survivors[..] {
            return Some(only);
        }
        let mcts = self.resist.get_or_insert_with(|| {
            let config = MctsConfig {
                solver: false,
                max_nodes: crate::mcts::nodes_in_mib(RESIST_TREE_MB),
                ..mcts_config()
            };
            let mut mcts = Mcts::new(config, self.seed);
            mcts.set_stop(self.stop.clone());
            mcts
        });
        mcts.clear();
        mcts.reseed(mix64(self.seed ^ pos.game.hash() ^ 0x5e515));
        mcts.search(pos, limits, None, |_, _| {});
        let ranked = mcts.root_children();
        ranked
            .iter()
            .find(|c| survivors.contains(&c.mv))
            .or(ranked.first())
            .map(|c| c.mv)
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

    fn search(
        &mut self,
        game: &Yavalath,
        start: Instant,
        limits: Limits,
        _watch: Option<&mut GameWatch>,
    ) -> (Cell, f64) {
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
    /// The default's opening search: with two players, while fewer than
    /// [`OPENING_STONES`] stones are on the board, it chooses instead of `core`.
    opening: Option<Box<dyn Core>>,
}

impl GamePlayer<Yavalath> for SearchPlayer {
    fn new_game(&mut self) {
        self.core.new_game();
    }

    fn choose(&mut self, game: &Yavalath, start: Instant, limits: Limits) -> GameMove {
        self.decide(game, start, limits, None)
    }

    fn can_analyze(&self) -> bool {
        self.core.can_analyze()
    }

    fn choose_watched(
        &mut self,
        game: &Yavalath,
        start: Instant,
        limits: Limits,
        watch: &mut GameWatch,
    ) -> GameMove {
        self.decide(game, start, limits, Some(watch))
    }
}

impl SearchPlayer {
    /// The move: an opening, the swap or a forced win by rule, else the core's search
    /// (shown to `watch`).
    fn decide(
        &mut self,
        game: &Yavalath,
        start: Instant,
        limits: Limits,
        watch: Option<&mut GameWatch>,
    ) -> GameMove {
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
            if let Some(c) = forced_win(&mut game.clone(), FORCED_WIN_DEPTH, FORCED_WIN_BUDGET) {
                return GameMove::Place(c);
            }
        }
        // An analysis is the tree search's (the alpha-beta shows no candidates as it goes).
        let core = match &mut self.opening {
            Some(opening)
                if watch.is_none()
                    && game.players == 2
                    && game.stones_placed() < OPENING_STONES =>
            {
                opening
            }
            _ => &mut self.core,
        };
        let (cell, chance) = core.search(game, start, limits, watch);
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
        max_nodes: crate::mcts::nodes_in_mib(TREE_MB),
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
    // `strong`: tree reuse between moves and resistance in lost positions (the default's).
    let mcts = |config: MctsConfig, tactical: bool, forced_depth, strong: bool| -> Box<dyn Core> {
        let mut mcts = Mcts::new(config, seed);
        mcts.set_stop(stop.clone());
        Box::new(MctsCore {
            mcts,
            tactical,
            forced_depth,
            playouts: options.mcts.playouts,
            seed,
            root_line: Vec::new(),
            strong,
            resist: None,
            stop: stop.clone(),
        })
    };
    // `depth` and `nodes`: limits that make the search reproducible (else the clock's).
    let alphabeta = |features: Features, tactical, eval, horizon, depth, nodes| -> Box<dyn Core> {
        let mut searcher = Searcher::new(options.alphabeta.hash_mb.min(64), features);
        searcher.set_stop(stop.clone());
        Box::new(AlphaBetaCore {
            searcher,
            tactical,
            eval,
            horizon,
            depth,
            nodes,
        })
    };
    // The alpha-beta with the threat evaluation: `alphabeta`, and the default's opening.
    let threats_alphabeta = |depth, nodes| {
        alphabeta(
            Features::default(),
            true,
            Eval::Threats,
            usize::MAX,
            depth,
            nodes,
        )
    };
    let (core, openings) = match name {
        "search" | "mcts" => (mcts(mcts_config(), true, TREE_FORCED_DEPTH, true), true),
        "mcts-plain" => (mcts(plain_config(), false, 0, false), false),
        "alphabeta" => (
            threats_alphabeta(options.alphabeta.depth, options.alphabeta.nodes),
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
            (
                alphabeta(features, false, Eval::Simple, 4, None, None),
                false,
            )
        }
        "random" => return Some(Box::new(RandomPlayer { seed })),
        _ => return None,
    };
    // A playout limit makes the whole default reproducible: its opening search then counts
    // nodes instead of watching the clock.
    let opening = (name == "search").then(|| {
        let nodes = options.mcts.playouts.map(|p| p * OPENING_NODES_PER_PLAYOUT);
        threats_alphabeta(None, nodes)
    });
    Some(Box::new(SearchPlayer {
        core,
        openings,
        seed,
        opening,
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
        strong: false,
        resist: None,
        stop: Stop::default(),
    };
    let far = Limits {
        optimum: std::time::Duration::from_secs(3600),
        maximum: std::time::Duration::from_secs(3600),
        keeps_savings: false,
    };
    empty
        .board()
        .cells()
        .map(|c| {
            let mut g = empty.clone();
            g.place(c);
            let (_, black) = core.search(&g, Instant::now(), far, None);
            (g.board().name(c), 1.0 - black)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Rules;

    /// The game `moves` (words) lead to, from the empty side-5 board with the swap rule.
    fn after(moves: &str) -> Yavalath {
        let mut game = Yavalath::new(5, 2, true).expect("valid set-up");
        for w in moves.split_whitespace() {
            let m = game.parse_move(w).expect("a move");
            game.play(m);
        }
        game
    }

    /// The fewest threats white needs for its forced win in `game` (white to move), if any.
    fn threats_to_win(game: &Yavalath) -> Option<usize> {
        (1..=FORCED_WIN_DEPTH)
            .find(|&d| forced_win(&mut game.clone(), d, FORCED_WIN_BUDGET).is_some())
    }

    #[test]
    fn a_lost_position_is_resisted_not_given_up() {
        // From a game lost to `negamax4` (docs/yavalath.md): white c4, black swaps (the
        // players exchange colours, the stone stays), then black f4, white c5, black f6,
        // white d5. The tree search proves black lost;
        // without resistance it played a1, after which white wins with 3 threats in a row.
        // The default now plays a move that leaves white a longer forced line, or none that
        // the threat search finds.
        let lost = after("c4 swap f4 c5 f6 d5");
        assert_eq!(threats_to_win(&after("c4 swap f4 c5 f6 d5 a1")), Some(3));
        let limits = Limits {
            optimum: std::time::Duration::from_secs(60),
            maximum: std::time::Duration::from_secs(60),
            keeps_savings: false,
        };
        for seed in 1..=3 {
            let mut options = PlayerOptions::for_player(crate::player::PlayerKind::Mcts);
            options.seed = seed;
            options.mcts.playouts = Some(5000);
            let mut player = make("search", &options, Stop::new()).expect("a player");
            let GameMove::Place(cell) = player.choose(&lost, Instant::now(), limits) else {
                panic!("a placement");
            };
            let mut next = lost.clone();
            next.place(cell);
            let threats = threats_to_win(&next);
            let name = lost.board().name(cell);
            assert!(
                threats.is_none_or(|t| t > 3),
                "seed {seed}: {name}, {threats:?}"
            );
        }
    }
}

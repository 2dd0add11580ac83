//! A game-independent alpha-beta search: iterative deepening, negamax with principal
//! variation search and aspiration windows, a transposition table, killer moves and the
//! history heuristic, under soft and hard time limits.
//!
//! It is generic over [`Position`], so other games with multi-stone turns can use it. A ply
//! is one stone; a turn may hold several plies of the same player, and only positions at a
//! turn boundary are evaluated (a leaf reached mid-turn is searched on to the boundary).
//! With more than two players the search is *paranoid* (Sturtevant & Korf 2000): the root
//! player maximises, every other player minimises the root player's value.
//!
//! The search never prints: it reports finished iterations through a callback.

mod alphabeta;
pub mod exact;
mod tt;

use crate::moves::PackedMove;
use crate::stop::Stop;
use std::sync::Arc;
use std::time::{Duration, Instant};
pub use tt::TranspositionTable;

pub type Value = i32;
/// Larger than any evaluation or result.
pub const INFINITY: Value = 1 << 28;
/// Results of finished games are `±(WIN + margin term)`, beyond every heuristic value.
pub const WIN: Value = 1 << 24;

/// What the search needs to know of a game.
///
/// Contract: `undo` is called in reverse order of `play`, and restores the position exactly
/// (hash included).
pub trait Position {
    type Move: Copy + Eq + Default + std::fmt::Debug;
    /// Appends the legal moves of this ply, in any order; none exactly when `is_terminal`.
    fn moves(&self, out: &mut Vec<Self::Move>);
    fn play(&mut self, m: Self::Move);
    fn undo(&mut self);
    fn hash(&self) -> u64;
    /// The player to move, 0-based.
    fn mover(&self) -> usize;
    fn at_boundary(&self) -> bool;
    /// The next ply ends the current turn.
    fn last_ply_of_turn(&self) -> bool;
    fn is_terminal(&self) -> bool;
    /// Value for `player`, called at turn boundaries: heuristic, or exact (beyond `±WIN`) when
    /// the game is over.
    fn evaluate(&self, player: usize) -> Value;
    /// A cheap preference of the mover for `m` here (higher is tried earlier).
    fn order_score(&self, m: Self::Move) -> i32;
    /// Index of `m` in `0..move_slots()`, for the history table.
    fn move_slot(&self, m: Self::Move) -> usize;
    fn move_slots(&self) -> usize;
    /// Plies until the end of the game: a search this deep is exact.
    fn plies_left(&self) -> usize;
    /// The values for `player` of the children `moves`, called when every child is a leaf
    /// (the next ply ends the turn and the depth is used up), appended to `out`. The default
    /// plays, evaluates and takes back each move; a position may do it faster.
    fn leaf_children(&mut self, player: usize, moves: &[Self::Move], out: &mut Vec<Value>) {
        for &m in moves {
            self.play(m);
            out.push(self.evaluate(player));
            self.undo();
        }
    }
}

/// Limits of one search. Depth and node limits make a search reproducible: with either set,
/// the time limits are ignored.
#[derive(Clone, Copy, Debug)]
pub struct SearchLimits {
    pub soft: Duration,
    pub hard: Duration,
    pub depth: Option<usize>,
    pub nodes: Option<u64>,
}

/// Which enhancements are on. Tests turn them off to compare with minimax; `omega bench
/// --disable/--enable` measures them. Node counts of the bench (deterministic) with each one
/// off, against 15.7 M with the defaults: table 30.4 M, killers 136.8 M, history 16.0 M,
/// PVS 17.8 M. Aspiration windows *on* (250 wide) give 19.1 M, 20.3 M at 800, 15.7 M at
/// 2000: they do not pay here (the value swings between depths as turns complete), so they
/// are off by default. These counts were measured before the evaluation's threat share went
/// from 250 to 750, which moved the default count from 15,695,686 to 15,673,780.
#[derive(Clone, Copy, Debug)]
pub struct Features {
    pub tt: bool,
    pub killers: bool,
    pub history: bool,
    pub pvs: bool,
    pub aspiration: bool,
    /// Forward pruning: at inner nodes (not the root, not in an exact search), only the first
    /// `width` moves in order are searched. 0 = full width.
    pub width: usize,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            tt: true,
            killers: true,
            history: true,
            pvs: true,
            aspiration: false,
            width: 0,
        }
    }
}

/// One finished iteration, as reported to the callback and returned.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    pub depth: usize,
    /// Value for the root player.
    pub value: Value,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<M>,
    /// The iteration searched to the end of the game: the value is the true result.
    pub exact: bool,
}

const ASPIRATION_WINDOW: Value = 250;
const MAX_PLY: usize = 128;
/// Nodes between two looks at the clock. A look costs some 25 ns, little beside Omega's
/// 200 ns nodes; Yavalath's nodes, with the threat evaluation, can take a millisecond: at
/// 2048 nodes a 1 s move came 0.19 s late, at 128 still 0.06 s late.
const CLOCK_CHECK_NODES: u64 = 32;

pub struct Searcher<M> {
    /// Shared by the threads of a lazy SMP search (see [`Searcher::helper`]).
    tt: Arc<TranspositionTable<M>>,
    history: Vec<i32>,
    killers: [[M; 2]; MAX_PLY],
    pv: Vec<Vec<M>>,
    /// Per-ply buffers, reused so that the search does not allocate.
    move_lists: Vec<Vec<M>>,
    ordered: Vec<Vec<(i64, M)>>,
    values: Vec<Value>,
    /// Node count at which the clock is read next.
    next_clock_check: u64,
    features: Features,
    nodes: u64,
    stopped: bool,
    start: Instant,
    limits: SearchLimits,
    root_player: usize,
    /// Plies of the root player's turn still to play at the root: table cut-offs wait until
    /// they are all played, so that the search's own line holds a whole first turn.
    root_turn_plies: usize,
    exact: bool,
    /// An iteration has finished, so a node limit may stop the search.
    can_stop: bool,
    /// Raised by another thread to end the search early (see [`Searcher::set_stop`]).
    stop: Option<Stop>,
    /// The first depth of the iterative deepening (1; a lazy SMP helper may start deeper).
    first_depth: usize,
}

impl<M: PackedMove> Searcher<M> {
    pub fn new(hash_mb: usize, features: Features) -> Searcher<M> {
        Self::with_table(Arc::new(TranspositionTable::new(hash_mb)), features)
    }

    /// A searcher for another thread of a lazy SMP search: it shares this one's table and
    /// features, has killers and history of its own, and deepens from `first_depth` (helpers
    /// that start one ply deeper spread the threads over two depths, as in Stockfish's lazy
    /// SMP). Helpers and the main searcher may search the same position at once; what one
    /// stores, the others read.
    pub fn helper(&self, first_depth: usize) -> Searcher<M> {
        let mut helper = Self::with_table(Arc::clone(&self.tt), self.features);
        helper.first_depth = first_depth.max(1);
        helper
    }

    fn with_table(tt: Arc<TranspositionTable<M>>, features: Features) -> Searcher<M> {
        Searcher {
            tt,
            history: Vec::new(),
            killers: [[M::default(); 2]; MAX_PLY],
            pv: vec![Vec::new(); MAX_PLY + 1],
            move_lists: vec![Vec::new(); MAX_PLY + 1],
            ordered: vec![Vec::new(); MAX_PLY + 1],
            values: Vec::new(),
            next_clock_check: 0,
            can_stop: false,
            features,
            nodes: 0,
            stopped: false,
            start: Instant::now(),
            limits: SearchLimits {
                soft: Duration::MAX,
                hard: Duration::MAX,
                depth: None,
                nodes: None,
            },
            root_player: 0,
            root_turn_plies: 1,
            exact: false,
            stop: None,
            first_depth: 1,
        }
    }

    /// From now on every search also ends once `stop` is raised, as at its hard limit (the
    /// signal is read with the clock, every few thousand nodes).
    pub fn set_stop(&mut self, stop: Stop) {
        self.stop = Some(stop);
    }

    /// Forgets everything learnt (a new game); the table is emptied for every searcher that
    /// shares it. Contract: none of them is searching.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.forget_moves();
    }

    /// Forgets this searcher's own move ordering (history, killers), not the table it may
    /// share: what a lazy SMP helper does at a new game, after the main searcher's `clear`.
    pub fn forget_moves(&mut self) {
        self.history.clear();
        self.killers = [[M::default(); 2]; MAX_PLY];
    }

    pub fn features(&self) -> Features {
        self.features
    }

    /// Iterative deepening from `pos` for its player to move. Returns the last finished
    /// iteration (or a better root move from an unfinished one); `None` only if the position
    /// is terminal. `report` sees every finished iteration.
    ///
    /// Contract: `pos` is at a turn boundary and is unchanged on return.
    pub fn search<P: Position<Move = M>>(
        &mut self,
        pos: &mut P,
        start: Instant,
        limits: SearchLimits,
        mut report: impl FnMut(&Iteration<M>),
    ) -> Option<Iteration<M>> {
        if pos.is_terminal() {
            return None;
        }
        // 1. Reset the per-search state; keep the table and decay the history.
        self.start = start;
        self.limits = limits;
        self.nodes = 0;
        self.next_clock_check = CLOCK_CHECK_NODES;
        self.stopped = false;
        self.can_stop = false;
        self.root_player = pos.mover();
        self.root_turn_plies = turn_plies(pos);
        if self.history.len() != pos.move_slots() {
            self.history = vec![0; pos.move_slots()];
        }
        self.history.iter_mut().for_each(|h| *h /= 8);
        let max_depth = limits.depth.unwrap_or(MAX_PLY - 1).min(MAX_PLY - 1);
        let mut best: Option<Iteration<M>> = None;

        // 2. Deepen one ply at a time until a limit, or until the search reaches the end.
        for depth in self.first_depth.min(max_depth)..=max_depth {
            self.exact = depth >= pos.plies_left();
            let value = self.aspiration(pos, depth, best.as_ref().map(|b| b.value));
            let mut pv = self.pv[0].clone();
            if !self.stopped {
                self.extend_pv(pos, &mut pv, depth);
            }
            if self.stopped {
                // 3. An unfinished iteration: keep its best fully searched root move if it
                // beat the last iteration's move (searched first, as the table move, so any
                // other move in the PV beat it at this depth), or if no iteration finished.
                match (best.as_mut(), value) {
                    (Some(b), Some(v)) if !pv.is_empty() && pv[0] != b.pv[0] => {
                        b.pv = pv;
                        b.value = v;
                    }
                    (None, Some(v)) if !pv.is_empty() => {
                        best = Some(Iteration {
                            depth: depth - 1,
                            value: v,
                            nodes: self.nodes,
                            elapsed: start.elapsed(),
                            pv,
                            exact: false,
                        });
                    }
                    _ => {}
                }
                break;
            }
            let it = Iteration {
                depth,
                value: value.expect("finished iteration has a value"),
                nodes: self.nodes,
                elapsed: start.elapsed(),
                pv,
                exact: self.exact,
            };
            report(&it);
            best = Some(it);
            self.can_stop = true;
            // 4. Stop when exact, at the node limit, or past the soft limit.
            if self.exact || self.limits.nodes.is_some_and(|n| self.nodes >= n) {
                break;
            }
            if self.uses_clock() && start.elapsed() >= limits.soft {
                break;
            }
        }
        if let Some(b) = best.as_mut() {
            b.nodes = self.nodes;
            b.elapsed = start.elapsed();
        }
        best
    }

    /// A PV cut short by a table hit is continued with the table's best moves, as far as
    /// they are legal, the iteration's depth goes and the turn then ends.
    fn extend_pv<P: Position<Move = M>>(&mut self, pos: &mut P, pv: &mut Vec<M>, depth: usize) {
        if !self.features.tt {
            return;
        }
        for &m in pv.iter() {
            pos.play(m);
        }
        let mut legal = Vec::new();
        while (pv.len() < depth || !pos.at_boundary()) && !pos.is_terminal() {
            let key = self.key(pos);
            // Only an exact entry's move is a best move (a bound's is the first that cut, or
            // just the first tried).
            let Some(e) = self.tt.probe(key).filter(|e| e.bound == tt::Bound::Exact) else {
                break;
            };
            legal.clear();
            pos.moves(&mut legal);
            if !legal.contains(&e.mv) {
                break;
            }
            pos.play(e.mv);
            pv.push(e.mv);
        }
        for _ in 0..pv.len() {
            pos.undo();
        }
    }

    /// The table key: the position's hash, salted with the root player (paranoid values
    /// depend on who the root player is).
    fn key<P: Position<Move = M>>(&self, pos: &P) -> u64 {
        pos.hash() ^ (self.root_player as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn uses_clock(&self) -> bool {
        self.limits.depth.is_none() && self.limits.nodes.is_none()
    }
}

/// The plies from `pos` to the end of the current turn (or of the game), found by playing
/// the first legal move of each ply and taking them back.
fn turn_plies<P: Position>(pos: &mut P) -> usize {
    let mut played = 0;
    let mut moves = Vec::new();
    loop {
        moves.clear();
        pos.moves(&mut moves);
        let Some(&m) = moves.first() else { break };
        pos.play(m);
        played += 1;
        if pos.at_boundary() {
            break;
        }
    }
    for _ in 0..played {
        pos.undo();
    }
    played.max(1)
}

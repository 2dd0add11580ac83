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

mod tt;

use std::time::{Duration, Instant};
pub use tt::TranspositionTable;
use tt::{Bound, Entry};

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
/// are off by default.
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
/// Nodes between two looks at the clock.
const CLOCK_CHECK_NODES: u64 = 2048;

pub struct Searcher<M> {
    tt: TranspositionTable<M>,
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
    exact: bool,
    /// An iteration has finished, so a node limit may stop the search.
    can_stop: bool,
}

impl<M: Copy + Eq + Default + std::fmt::Debug> Searcher<M> {
    pub fn new(hash_mb: usize, features: Features) -> Searcher<M> {
        Searcher {
            tt: TranspositionTable::new(hash_mb),
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
            exact: false,
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
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
        if self.history.len() != pos.move_slots() {
            self.history = vec![0; pos.move_slots()];
        }
        self.history.iter_mut().for_each(|h| *h /= 8);
        let max_depth = limits.depth.unwrap_or(MAX_PLY - 1).min(MAX_PLY - 1);
        let mut best: Option<Iteration<M>> = None;

        // 2. Deepen one ply at a time until a limit, or until the search reaches the end.
        for depth in 1..=max_depth {
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
            let Some(e) = self.tt.probe(key) else { break };
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

    /// One iteration with an aspiration window around the last value, widened on failure.
    /// Returns the root value (for the root player), or the best fully searched root value
    /// of an iteration cut short (`None` if there was none).
    fn aspiration<P: Position<Move = M>>(
        &mut self,
        pos: &mut P,
        depth: usize,
        previous: Option<Value>,
    ) -> Option<Value> {
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = match previous {
            Some(v) if self.features.aspiration && depth >= 3 && v.abs() < WIN => {
                (v - delta, v + delta)
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            self.pv[0].clear();
            let v = self.negamax(pos, depth as i32, 0, alpha, beta);
            if self.stopped {
                return (!self.pv[0].is_empty() && v > alpha && v < beta).then_some(v);
            }
            if v <= alpha && alpha > -INFINITY {
                alpha = (alpha - delta).max(-INFINITY);
            } else if v >= beta && beta < INFINITY {
                beta = (beta + delta).min(INFINITY);
            } else {
                return Some(v);
            }
            delta *= 4;
        }
    }

    fn tick(&mut self) {
        self.nodes += 1;
        if let Some(n) = self.limits.nodes {
            // Deterministic: the same tree is cut at the same node on every run. Only a
            // search past its first iteration may stop, so that a move always exists.
            if self.nodes >= n && self.can_stop {
                self.stopped = true;
            }
        } else if self.uses_clock() && self.nodes >= self.next_clock_check {
            self.next_clock_check = self.nodes + CLOCK_CHECK_NODES;
            if self.start.elapsed() >= self.limits.hard {
                self.stopped = true;
            }
        }
    }

    /// Negamax: the value of `pos` for its mover's side (the root player, or the coalition of
    /// all the others), searched `depth` more plies and on to the next turn boundary.
    fn negamax<P: Position<Move = M>>(
        &mut self,
        pos: &mut P,
        depth: i32,
        ply: usize,
        mut alpha: Value,
        beta: Value,
    ) -> Value {
        // 1. Count the node and look at the clock.
        self.tick();
        self.pv[ply].clear();
        if self.stopped && ply > 0 {
            return 0;
        }
        let us = pos.mover() == self.root_player;
        let sign = if us { 1 } else { -1 };

        // 2. Leaves: the end of the game, or the depth used up at a turn boundary.
        if pos.is_terminal() || (depth <= 0 && pos.at_boundary()) || ply >= MAX_PLY {
            return sign * pos.evaluate(self.root_player);
        }

        // 3. Transposition table: a cut-off, or at least a move to try first.
        let key = self.key(pos);
        let mut tt_move = None;
        if self.features.tt {
            if let Some(e) = self.tt.probe(key) {
                tt_move = Some(e.mv);
                // Entries of width-pruned iterations must not cut an exact one.
                let trusted = !self.exact || self.features.width == 0;
                if ply > 0 && e.depth as i32 >= depth && trusted {
                    let cut = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.value >= beta,
                        Bound::Upper => e.value <= alpha,
                    };
                    if cut {
                        return e.value;
                    }
                }
            }
        }

        // 4. One ply before the leaves: every child is evaluated at once.
        if depth <= 1 && pos.last_ply_of_turn() {
            return self.leaf_parent(pos, ply, sign, key);
        }

        // 5. Generate and order the moves: table move, killers, then history and the
        // position's own preference.
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        pos.moves(&mut moves);
        let mut scored = std::mem::take(&mut self.ordered[ply]);
        scored.clear();
        scored.extend(
            moves
                .iter()
                .map(|&m| (self.move_order(pos, m, ply, tt_move), m)),
        );
        self.move_lists[ply] = moves;
        // Equal scores in move-slot order, whatever order the position listed them in, so
        // that the same position is searched the same way: reproducible searches.
        scored.sort_unstable_by_key(|&(score, m)| (std::cmp::Reverse(score), pos.move_slot(m)));
        if self.features.width > 0 && ply > 0 && !self.exact {
            scored.truncate(self.features.width);
        }

        // 6. Search the moves, the first with the full window, the others with a null
        // window first (principal variation search).
        let alpha_orig = alpha;
        let mut best_value = -INFINITY;
        let mut best_move = scored[0].1;
        for (i, &(_, m)) in scored.iter().enumerate() {
            pos.play(m);
            let same_side = (pos.mover() == self.root_player) == us;
            let v = if i == 0 || !self.features.pvs {
                self.child(pos, same_side, depth - 1, ply + 1, alpha, beta)
            } else {
                let v = self.child(pos, same_side, depth - 1, ply + 1, alpha, alpha + 1);
                if v > alpha && v < beta && !self.stopped {
                    self.child(pos, same_side, depth - 1, ply + 1, alpha, beta)
                } else {
                    v
                }
            };
            pos.undo();
            if self.stopped {
                break;
            }
            if v > best_value {
                best_value = v;
                best_move = m;
                if v > alpha {
                    alpha = v;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                }
                if v >= beta {
                    // 7. A cut-off: remember the move as a killer and in the history.
                    self.reward(pos, m, depth, ply, tt_move);
                    break;
                }
            }
        }
        self.ordered[ply] = scored;

        // 8. Store the result, unless the search was cut short.
        if self.features.tt && !self.stopped {
            let bound = if best_value >= beta {
                Bound::Lower
            } else if best_value > alpha_orig {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(Entry {
                key,
                value: best_value,
                depth: depth.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                bound,
                mv: best_move,
            });
        }
        best_value
    }

    /// A node whose children are all leaves: their values come from the position in one
    /// call, each child counts as a node, and the exact best is stored.
    fn leaf_parent<P: Position<Move = M>>(
        &mut self,
        pos: &mut P,
        ply: usize,
        sign: Value,
        key: u64,
    ) -> Value {
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        pos.moves(&mut moves);
        let mut values = std::mem::take(&mut self.values);
        values.clear();
        pos.leaf_children(self.root_player, &moves, &mut values);
        self.nodes += moves.len() as u64;
        // The best child; among equals the lowest move slot (reproducible, as in step 5).
        let (mut best_value, mut best_move) = (-INFINITY, moves[0]);
        for (&m, &v) in moves.iter().zip(&values) {
            let better = sign * v > best_value
                || (sign * v == best_value && pos.move_slot(m) < pos.move_slot(best_move));
            if better {
                best_value = sign * v;
                best_move = m;
            }
        }
        self.pv[ply].clear();
        self.pv[ply].push(best_move);
        self.move_lists[ply] = moves;
        self.values = values;
        if self.features.tt {
            self.tt.store(Entry {
                key,
                value: best_value,
                depth: 1,
                bound: Bound::Exact,
                mv: best_move,
            });
        }
        best_value
    }

    /// Searches a child: with the same window when the same side moves there, negated
    /// otherwise.
    fn child<P: Position<Move = M>>(
        &mut self,
        pos: &mut P,
        same_side: bool,
        depth: i32,
        ply: usize,
        alpha: Value,
        beta: Value,
    ) -> Value {
        if same_side {
            self.negamax(pos, depth, ply, alpha, beta)
        } else {
            -self.negamax(pos, depth, ply, -beta, -alpha)
        }
    }

    fn move_order<P: Position<Move = M>>(
        &self,
        pos: &P,
        m: M,
        ply: usize,
        tt_move: Option<M>,
    ) -> i64 {
        if Some(m) == tt_move {
            return i64::MAX;
        }
        if self.features.killers {
            if m == self.killers[ply][0] {
                return i64::MAX - 1;
            }
            if m == self.killers[ply][1] {
                return i64::MAX - 2;
            }
        }
        let history = if self.features.history {
            self.history[pos.move_slot(m)] as i64
        } else {
            0
        };
        // The position's preference dominates; history breaks its ties.
        (pos.order_score(m) as i64) * (1 << 24) + history
    }

    fn reward<P: Position<Move = M>>(
        &mut self,
        pos: &P,
        m: M,
        depth: i32,
        ply: usize,
        tt_move: Option<M>,
    ) {
        if Some(m) == tt_move {
            return;
        }
        if self.features.killers && self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        if self.features.history {
            let d = depth.max(1);
            let h = &mut self.history[pos.move_slot(m)];
            *h = (*h + d * d).min(1 << 22);
        }
    }
}

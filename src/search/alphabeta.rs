//! One iteration of the search: negamax alpha-beta with principal variation search and
//! aspiration windows, the transposition table, killer and history move ordering, and the
//! batched evaluation of a leaf's siblings. [`Searcher::search`] drives it.

use super::tt::{Bound, Entry};
use super::{
    Position, Searcher, Value, ASPIRATION_WINDOW, CLOCK_CHECK_NODES, INFINITY, MAX_PLY, WIN,
};
use crate::moves::PackedMove;
use crate::stop::Stop;

impl<M: PackedMove> Searcher<M> {
    /// One iteration with an aspiration window around the last value, widened on failure.
    /// Returns the root value (for the root player), or the best fully searched root value
    /// of an iteration cut short (`None` if there was none).
    pub(super) fn aspiration<P: Position<Move = M>>(
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
        }
        if self.nodes >= self.next_clock_check {
            self.next_clock_check = self.nodes + CLOCK_CHECK_NODES;
            let late = self.uses_clock() && self.start.elapsed() >= self.limits.hard;
            if late || self.stop.as_ref().is_some_and(Stop::is_raised) {
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
                // Entries of width-pruned iterations must not cut an exact one. No cut-off
                // inside the root player's turn: a cut leaves the line there empty, and the
                // table, which lazy SMP helpers overwrite, might not complete the turn.
                let trusted = !self.exact || self.features.width == 0;
                if ply >= self.root_turn_plies && e.depth as i32 >= depth && trusted {
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

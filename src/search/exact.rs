//! An exact solver for two-player games with draws, generic over [`Position`]: whether the
//! player to move wins, draws or loses with best play, and a first move that does it.
//! Yavalath and Hexed answer `solve` with it (Omega has its own solver, `crate::solver`,
//! which knows Omega's scores).
//!
//! The search asks two yes-or-no questions of a position, as a chess engine's mate search
//! does: "does the mover win within `depth` plies?" and "does the mover lose within `depth`
//! plies?", each a depth-first AND/OR search:
//! 1. a finished game answers at once (`evaluate` beyond `±WIN` is a win or a loss, else a
//!    draw); with no depth left, nothing is proven;
//! 2. the mover wins when one of its moves leads to a position the other player loses (or,
//!    after a pass, that the mover itself wins): the first such move cuts the rest; the
//!    mover loses when every move does the contrary, and the first move that escapes cuts
//!    the rest, which is what makes the question cheap to ask of a shallow depth;
//! 3. iterative deepening from the root, one ply deeper each round, so that short wins are
//!    found first; a game's `plies_left` bounds its length, so at that depth both answers
//!    are final, and when both are no, best play draws;
//! 4. a table by hash: proven wins and losses hold at any depth, a "no" holds up to the
//!    depth it was asked at; the move that proved a win is tried first next time, then the
//!    moves by `order_score`.
//!
//! The search never prints; it stops at the deadline or the stop signal, and what it proved
//! before stays proved.

use super::{Position, WIN};
use crate::stop::Stop;
use std::time::{Duration, Instant};

/// A result for the player to move: -1 loss, 0 draw, +1 win.
pub type Result3 = i8;

/// What the solver proved of the root, for the player to move there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution<A> {
    /// Not proved before the deadline or the stop signal.
    Unknown,
    /// The mover wins by playing this move first.
    Win(A),
    /// Best play draws; this move holds the draw.
    Draw(A),
    /// Every move loses.
    Loss,
}

/// One move of the root and the position after it, as the game sees them.
pub enum RootChild<A, P> {
    /// The move ends the game with this result for the root's mover.
    Over(A, Result3),
    /// The position after the move; `same_player` when the root's mover moves again there
    /// (the other player had to pass).
    Open {
        action: A,
        position: P,
        same_player: bool,
    },
}

/// What the search did.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExactStats {
    pub nodes: u64,
    pub elapsed: Duration,
    /// The depth of the last round the search finished (plies below the root's moves).
    pub depth: usize,
}

/// How long a search may go on: a time (from its start), or a number of nodes (the same
/// result on every run, for reproducible players).
#[derive(Clone, Copy, Debug)]
pub enum ExactLimit {
    Time(Duration),
    Nodes(u64),
}

/// Table entries: 2^22 of 16 bytes, 64 MiB, for `solve` (seconds to minutes); 2^20, 16 MiB,
/// for the resistance of a lost position, which has a part of one move's time (a bigger
/// table costs more to clear than that search can fill).
const SOLVE_TABLE_BITS: u32 = 22;
const RESISTANCE_TABLE_BITS: u32 = 20;
/// Nodes between two looks at the clock and the stop signal.
const CHECK_EVERY: u64 = 4096;

/// The two questions of the search, asked of the mover of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Question {
    Wins,
    Loses,
}

impl Question {
    /// The question to ask of a child position, for the same player or the other.
    fn of_child(self, same_player: bool) -> Question {
        match (self, same_player) {
            (q, true) => q,
            (Question::Wins, false) => Question::Loses,
            (Question::Loses, false) => Question::Wins,
        }
    }

    /// Whether a finished child with `result` for the asking player answers yes.
    fn answered_by(self, result: Result3) -> bool {
        match self {
            Question::Wins => result == 1,
            Question::Loses => result == -1,
        }
    }
}

/// Solves the root whose moves are `children` within `limit` (time or nodes; or until `stop`
/// is raised). Contract: two players, and `children` are every legal move of the root.
pub fn solve<A: Clone, P: Position>(
    mut children: Vec<RootChild<A, P>>,
    limit: ExactLimit,
    stop: &Stop,
) -> (Solution<A>, ExactStats) {
    let start = Instant::now();
    let mut solver = Solver::new(limit, stop, SOLVE_TABLE_BITS);
    // Every child at this depth is searched to its end.
    let complete = complete_depth(&children);
    let mut stats = ExactStats::default();
    let mut solution = Solution::Unknown;
    for depth in 0..=complete {
        // Step 3: one round; a child's answer to "does the root's mover win / lose".
        let mut answer = |child: &mut RootChild<A, P>, q: Question| match child {
            RootChild::Over(_, result) => q.answered_by(*result),
            RootChild::Open {
                position,
                same_player,
                ..
            } => solver.ask(position, q.of_child(*same_player), depth),
        };
        let mut win = None;
        let mut all_lose = true;
        let mut holds_draw = None;
        for child in children.iter_mut() {
            if answer(child, Question::Wins) {
                win = Some(action_of(child));
                break;
            }
            // At the complete depth, a move the opponent cannot win after holds the draw.
            let loses = answer(child, Question::Loses);
            all_lose &= loses;
            if !loses && holds_draw.is_none() {
                holds_draw = Some(action_of(child));
            }
        }
        stats.nodes = solver.nodes;
        stats.elapsed = start.elapsed();
        if solver.stopped {
            break;
        }
        stats.depth = depth;
        solution = match (win, all_lose, holds_draw) {
            (Some(a), _, _) => Solution::Win(a),
            (None, true, _) => Solution::Loss,
            (None, false, Some(a)) if depth == complete => Solution::Draw(a),
            _ => continue,
        };
        break;
    }
    (solution, stats)
}

/// The moves of a root whose mover is lost that hold out longest against best play, as a
/// chess engine that is mated plays the longest mate: one ply deeper each round, the
/// moves after which the other player provably wins within that depth drop out; the
/// survivors of the last round that left any are returned (all of them when a round was cut
/// short by `limit` or `stop`). Against a fallible opponent these are the moves whose
/// refutation is deepest. Contract: two players, `children` are every legal move of the
/// root, and there is at least one.
pub fn longest_resistance<A: Clone, P: Position>(
    mut children: Vec<RootChild<A, P>>,
    limit: ExactLimit,
    stop: &Stop,
) -> Vec<A> {
    let mut solver = Solver::new(limit, stop, RESISTANCE_TABLE_BITS);
    let complete = complete_depth(&children);
    let mut alive: Vec<usize> = (0..children.len()).collect();
    for depth in 0..=complete {
        let mut next = Vec::new();
        for &i in &alive {
            let lost = match &mut children[i] {
                RootChild::Over(_, result) => *result == -1,
                RootChild::Open {
                    position,
                    same_player,
                    ..
                } => solver.ask(position, Question::Loses.of_child(*same_player), depth),
            };
            if solver.stopped {
                return alive.iter().map(|&i| action_of(&children[i])).collect();
            }
            if !lost {
                next.push(i);
            }
        }
        if next.is_empty() {
            break;
        }
        alive = next;
        if alive.len() == 1 {
            break;
        }
    }
    alive.iter().map(|&i| action_of(&children[i])).collect()
}

/// The depth at which every child's search reaches the end of the game.
fn complete_depth<A, P: Position>(children: &[RootChild<A, P>]) -> usize {
    children
        .iter()
        .map(|c| match c {
            RootChild::Over(..) => 0,
            RootChild::Open { position, .. } => position.plies_left(),
        })
        .max()
        .unwrap_or(0)
}

fn action_of<A: Clone, P>(child: &RootChild<A, P>) -> A {
    match child {
        RootChild::Over(a, _) | RootChild::Open { action: a, .. } => a.clone(),
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// The position's hash; 0 is an empty slot.
    key: u64,
    /// The proven result for the mover (`Some` at any depth).
    proven: Option<Result3>,
    /// The deepest "no" to each question ([`Question::Wins`], [`Question::Loses`]).
    no: [u8; 2],
    /// The slot of the move that proved a win, plus one (0: none).
    best: u16,
}

struct Solver {
    table: Vec<Entry>,
    nodes: u64,
    max_nodes: u64,
    deadline: Instant,
    stop: Stop,
    stopped: bool,
}

impl Solver {
    fn new(limit: ExactLimit, stop: &Stop, table_bits: u32) -> Solver {
        let (deadline, max_nodes) = match limit {
            ExactLimit::Time(t) => (Instant::now() + t, u64::MAX),
            // Far enough never to come: the node count stops the search first.
            ExactLimit::Nodes(n) => (Instant::now() + Duration::from_secs(1 << 30), n),
        };
        Solver {
            table: vec![Entry::default(); 1 << table_bits],
            nodes: 0,
            max_nodes,
            deadline,
            stop: stop.clone(),
            stopped: false,
        }
    }

    /// Whether the mover of `pos` provably wins (or loses, as `q` asks) within `depth`
    /// plies. Contract: two players; `pos` is not over and is unchanged on return. A stopped
    /// search answers no, and stores nothing it did not prove.
    fn ask<P: Position>(&mut self, pos: &mut P, q: Question, depth: usize) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY)
            && (self.nodes >= self.max_nodes
                || Instant::now() >= self.deadline
                || self.stop.is_raised())
        {
            self.stopped = true;
        }
        if depth == 0 || self.stopped {
            return false;
        }
        // Step 4: the table.
        let hash = pos.hash();
        let slot = (hash as usize) & (self.table.len() - 1);
        let mut entry = self.table[slot];
        if entry.key != hash {
            entry = Entry {
                key: hash,
                ..Entry::default()
            };
        }
        let wanted = if q == Question::Wins { 1 } else { -1 };
        match entry.proven {
            Some(r) => return r == wanted,
            None if usize::from(entry.no[q as usize]) >= depth => return false,
            None => {}
        }
        // Step 2: the moves, the one that proved a win first.
        let mut moves = Vec::new();
        pos.moves(&mut moves);
        let first = entry.best.checked_sub(1).map(usize::from);
        let mut keyed: Vec<(i32, usize, P::Move)> = moves
            .into_iter()
            .map(|m| {
                let slot = pos.move_slot(m);
                let score = match Some(slot) == first {
                    true => i32::MAX,
                    false => pos.order_score(m),
                };
                (score, slot, m)
            })
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        let mover = pos.mover();
        // Wins: does some move answer yes? Loses: does every move?
        let mut yes = q == Question::Loses;
        for &(_, move_slot, m) in &keyed {
            pos.play(m);
            let child_yes = if pos.is_terminal() {
                let v = pos.evaluate(mover);
                q.answered_by(if v >= WIN {
                    1
                } else if v <= -WIN {
                    -1
                } else {
                    0
                })
            } else {
                self.ask(pos, q.of_child(pos.mover() == mover), depth - 1)
            };
            pos.undo();
            if child_yes && q == Question::Wins {
                yes = true;
                entry.best = (move_slot + 1) as u16;
                break;
            }
            if !child_yes && q == Question::Loses {
                yes = false;
                break;
            }
        }
        if self.stopped && !yes {
            return false;
        }
        if yes {
            entry.proven = Some(wanted);
        } else {
            let d = &mut entry.no[q as usize];
            *d = (*d).max(depth.min(u8::MAX as usize) as u8);
        }
        self.table[slot] = entry;
        yes
    }
}

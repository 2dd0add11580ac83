//! A game-independent Monte-Carlo tree search: UCT with RAVE (Gelly & Silver 2007, 2011),
//! prior knowledge as virtual experience, max^n-style backups for two to four players, an
//! MCTS-Solver for the proven ends of the tree (Winands, Björnsson & Saito 2008), and tree
//! reuse between turns.
//!
//! It is generic over [`MctsPosition`], so that other games on the same kind of board can use
//! it. A ply is one move of one player; a game whose turns place several stones gives each
//! stone its own ply (the same player moves several plies in a row).
//!
//! Multi-player: every playout returns one reward per player, and every edge keeps the
//! rewards of the player who chose it, so each player maximises its own reward (max^n), never
//! a paranoid coalition's.
//!
//! The search never prints: it reports through a callback.

mod rng;
mod tree;

pub use rng::FastRng;
use tree::AMAF_HALVING;
pub use tree::{node_bytes, Amaf, Node, NodeId, Tree, UNPROVEN};

use crate::stop::Stop;
use std::time::{Duration, Instant};

/// The most players a position may have.
pub const MAX_PLAYERS: usize = 4;
/// One reward per player, each in [0, 1].
pub type Rewards = [f32; MAX_PLAYERS];

/// What the tree search needs to know of a game.
///
/// Contracts: `undo` is called in reverse order of `play` and restores the position exactly;
/// `playout` leaves the position as it found it.
pub trait MctsPosition {
    type Move: Copy + Eq + Default + std::fmt::Debug;
    fn players(&self) -> usize;
    /// The player to move, 0-based.
    fn mover(&self) -> usize;
    fn is_terminal(&self) -> bool;
    /// Appends the legal moves; none exactly when `is_terminal`.
    fn moves(&self, out: &mut Vec<Self::Move>);
    fn play(&mut self, m: Self::Move);
    fn undo(&mut self);
    /// The all-moves-as-first table has `amaf_len` entries; a move of this position is
    /// credited with a playout's result when, at the end of the playout, entry
    /// `amaf_key(m)` holds `amaf_tag()` (for a stone game: the cell ended with the colour
    /// this ply places).
    fn amaf_len(&self) -> usize;
    fn amaf_key(m: Self::Move) -> usize;
    fn amaf_tag(&self) -> u8;
    /// Prior values of `moves` for the mover, each in [0, 1], appended to `out`; leaving
    /// `out` empty means no prior knowledge.
    fn priors(&mut self, moves: &[Self::Move], out: &mut Vec<f32>) {
        let _ = (moves, out);
    }
    /// Plays the game to its end from here, fills `amaf` (the tag that ended on every key;
    /// entries for keys never played hold anything else), writes the rewards of every
    /// player and returns the winner. From a terminal position it only scores.
    fn playout(&mut self, rng: &mut FastRng, amaf: &mut [u8], rewards: &mut Rewards) -> usize;
}

/// The parameters of the search. Each was chosen by measurement (see `src/player/mcts.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// UCT exploration constant c in `c sqrt(ln N / (n + 1))`.
    pub exploration: f32,
    /// RAVE on or off.
    pub rave: bool,
    /// The RAVE equivalence parameter k: the AMAF value weighs `ñ / (ñ + n + n ñ / k)`
    /// against the move's own mean (Gelly & Silver's schedule; at n = k visits it counts
    /// about half as much as it did at the start).
    pub rave_equivalence: f32,
    /// Virtual playouts of the prior in a move's own statistics.
    pub prior_visits: f32,
    /// Virtual playouts of the prior in a move's RAVE statistics.
    pub prior_rave_visits: f32,
    /// Value of a move with no statistics at all (first-play urgency).
    pub first_play_urgency: f32,
    /// A leaf is expanded once this many playouts have passed through it.
    pub expand_visits: u32,
    /// Most nodes in the tree (about 40 bytes each).
    pub max_nodes: usize,
    /// Proven results propagate up the tree (MCTS-Solver).
    pub solver: bool,
    /// New children start with their move's AMAF statistics at the nearest ancestor where
    /// the same player places the same colour, at most this many playouts' worth (0 = off),
    /// taken from an ancestor with at least `ancestor_ref` playouts.
    pub ancestor_amaf: f32,
    pub ancestor_ref: u32,
    /// With two players, an ancestor where the other player places the colour serves too.
    pub ancestor_flip: bool,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 0.0,
            rave: true,
            rave_equivalence: 1000.0,
            prior_visits: 0.0,
            prior_rave_visits: 0.0,
            first_play_urgency: 1.0,
            expand_visits: 2,
            max_nodes: 1 << 24,
            solver: true,
            ancestor_amaf: 0.0,
            ancestor_ref: 100,
            ancestor_flip: false,
        }
    }
}

/// When a search stops: at the first limit reached, or when the root is proven, but never
/// before [`MIN_PLAYOUTS`] (so that every search has looked at its position). Without a time
/// limit the search is reproducible.
#[derive(Clone, Copy, Debug)]
pub struct MctsLimits {
    pub start: Instant,
    pub time: Option<Duration>,
    pub playouts: Option<u64>,
}

/// Playouts every search makes, whatever its limits.
pub const MIN_PLAYOUTS: u64 = 16;

/// A snapshot of the search, for reports and for the caller's choice.
#[derive(Clone, Debug)]
pub struct Progress<M> {
    /// Playouts of this search (not counting those kept from earlier turns).
    pub playouts: u64,
    /// Playouts below the root, kept ones included.
    pub root_visits: u32,
    pub nodes: usize,
    pub elapsed: Duration,
    /// The most visited line from the root.
    pub pv: Vec<M>,
    /// Mean reward of the first move of the line for the root's mover.
    pub value: f64,
    /// The winner with best play, when the root is proven.
    pub proven: Option<usize>,
}

/// One step of a descent: the node, and who moves there with which AMAF tag.
#[derive(Clone, Copy, Debug)]
struct Step {
    node: NodeId,
    mover: u8,
    tag: u8,
}

/// 1.0 at index 0, else 0.0: `MATCH[(a ^ b) as usize]` is whether `a == b`, as a number.
static MATCH: [f32; 256] = {
    let mut t = [0.0; 256];
    t[0] = 1.0;
    t
};

/// Playouts between two looks at the clock (a look costs about 25 ns, a playout microseconds).
const CLOCK_CHECK_PLAYOUTS: u64 = 16;

pub struct Mcts<M> {
    tree: Tree<M>,
    config: MctsConfig,
    rng: FastRng,
    path: Vec<Step>,
    moves: Vec<M>,
    priors: Vec<f32>,
    amaf: Vec<u8>,
    rewards: Rewards,
    /// AMAF statistics borrowed from an ancestor, by key, valid where the stamp is current.
    borrowed: Vec<(u32, f32, f32)>,
    stamp: u32,
    /// Players of the position searched.
    players: usize,
    /// Raised by another thread to end the search early (see [`Mcts::set_stop`]).
    stop: Option<Stop>,
}

impl<M: Copy + Eq + Default + std::fmt::Debug> Mcts<M> {
    pub fn new(config: MctsConfig, seed: u64) -> Mcts<M> {
        Mcts {
            tree: Tree::new(config.max_nodes),
            config,
            rng: FastRng::new(seed),
            path: Vec::new(),
            moves: Vec::new(),
            priors: Vec::new(),
            amaf: Vec::new(),
            rewards: [0.0; MAX_PLAYERS],
            borrowed: Vec::new(),
            stamp: 0,
            players: 2,
            stop: None,
        }
    }

    /// Whether the stop signal is raised.
    pub fn is_stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(Stop::is_raised)
    }

    /// From now on every search also ends (after [`MIN_PLAYOUTS`]) once `stop` is raised;
    /// it is read at each look at the clock, so within microseconds.
    pub fn set_stop(&mut self, stop: Stop) {
        self.stop = Some(stop);
    }

    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    pub fn tree(&self) -> &Tree<M> {
        &self.tree
    }

    /// Forgets the tree (a new game).
    pub fn clear(&mut self) {
        self.tree.clear();
    }

    /// Reseeds the playouts (a reproducible search starts from a known state).
    pub fn reseed(&mut self, seed: u64) {
        self.rng = FastRng::new(seed);
    }

    /// Moves the root down the tree along `moves`, the plies played since the last search,
    /// keeping what was learnt below; clears the tree when the line was not explored.
    /// Returns whether anything was kept.
    pub fn advance(&mut self, moves: &[M]) -> bool {
        self.tree.reroot(moves)
    }

    /// Searches `pos` until the limits (or the stop signal) and returns the final snapshot;
    /// `report` is called every `report_every` (when set) with the search itself, to read
    /// the tree, and a snapshot. `None` when `pos` is terminal.
    ///
    /// Contract: the tree's root is `pos` (a fresh tree, or one moved along by
    /// [`Mcts::advance`]); `pos` is unchanged on return.
    pub fn search<P: MctsPosition<Move = M>>(
        &mut self,
        pos: &mut P,
        limits: MctsLimits,
        report_every: Option<Duration>,
        mut report: impl FnMut(&Self, &Progress<M>),
    ) -> Option<Progress<M>> {
        if pos.is_terminal() {
            return None;
        }
        // 1. The root is always expanded, so that every search has a move to give.
        self.path.clear();
        self.players = pos.players();
        self.amaf.resize(pos.amaf_len(), 0);
        self.borrowed.resize(pos.amaf_len(), (0, 0.0, 0.0));
        if !self.tree.root().is_expanded() && !self.expand(pos, 0) {
            return None;
        }
        let mut playouts = 0u64;
        let mut next_report = report_every.map(|d| limits.start + d);
        // 2. Playouts until a limit, or until the root is proven.
        loop {
            if self.tree.root().proven != UNPROVEN {
                break;
            }
            let done = playouts >= MIN_PLAYOUTS;
            if done && limits.playouts.is_some_and(|n| playouts >= n) {
                break;
            }
            if playouts.is_multiple_of(CLOCK_CHECK_PLAYOUTS)
                && (limits.time.is_some() || next_report.is_some() || self.stop.is_some())
            {
                if done && self.stop.as_ref().is_some_and(Stop::is_raised) {
                    break;
                }
                let now = Instant::now();
                if done
                    && limits
                        .time
                        .is_some_and(|t| now.duration_since(limits.start) >= t)
                {
                    break;
                }
                if let (Some(at), Some(every)) = (next_report, report_every) {
                    if now >= at {
                        report(self, &self.progress(playouts, limits.start));
                        next_report = Some(now + every);
                    }
                }
            }
            self.iterate(pos);
            playouts += 1;
        }
        Some(self.progress(playouts, limits.start))
    }

    /// A snapshot of the search so far.
    pub fn progress(&self, playouts: u64, start: Instant) -> Progress<M> {
        let pv = self.principal_variation(usize::MAX);
        let root = self.tree.root();
        let value = self
            .best_child(0)
            .map_or(0.5, |c| self.tree.nodes[c as usize].mean());
        Progress {
            playouts,
            root_visits: root.visits,
            nodes: self.tree.len(),
            elapsed: start.elapsed(),
            pv,
            value,
            proven: (root.proven != UNPROVEN).then_some(root.proven as usize),
        }
    }

    /// The line of best children from the root, at most `max_len` moves.
    pub fn principal_variation(&self, max_len: usize) -> Vec<M> {
        self.line_from(0, max_len)
    }

    /// The line of best children from `node` (not including its own move), at most
    /// `max_len` moves.
    pub fn line_from(&self, mut node: NodeId, max_len: usize) -> Vec<M> {
        let mut pv = Vec::new();
        while pv.len() < max_len {
            match self.best_child(node) {
                Some(c) => {
                    pv.push(self.tree.nodes[c as usize].mv);
                    node = c;
                }
                None => break,
            }
        }
        pv
    }

    /// The child to play from `node`: a proven win for the node's mover if there is one
    /// (the mover of a proven node is the winner exactly when it has such a child), else the
    /// most visited child that is not a proven loss, else the most visited. `None` when the
    /// node has no visited child.
    pub fn best_child(&self, node: NodeId) -> Option<NodeId> {
        let n = &self.tree.nodes[node as usize];
        let nodes = &self.tree.nodes;
        if n.proven != UNPROVEN {
            if let Some(c) = n.children().find(|&c| nodes[c].proven == n.proven) {
                // The proven result is this child's; for the winner it is the winning move.
                return Some(c as NodeId);
            }
        }
        let key = |c: usize| {
            let child = &nodes[c];
            let losing = child.proven != UNPROVEN && n.proven == UNPROVEN;
            (!losing, child.visits, child.value.to_bits())
        };
        n.children()
            .filter(|&c| nodes[c].visits > 0)
            .max_by_key(|&c| key(c))
            .map(|c| c as NodeId)
    }

    /// The children of the root with their statistics, most visited first.
    pub fn root_children(&self) -> Vec<Node<M>> {
        let mut children: Vec<Node<M>> = self.tree.nodes[self.tree.root().children()].to_vec();
        children.sort_by_key(|c| std::cmp::Reverse(c.visits));
        children
    }

    /// Gives `node` its children (with priors). Returns false when there is no room or no
    /// move.
    fn expand<P: MctsPosition<Move = M>>(&mut self, pos: &mut P, node: NodeId) -> bool {
        self.moves.clear();
        pos.moves(&mut self.moves);
        if self.moves.is_empty() || !self.tree.has_room(self.moves.len()) {
            return false;
        }
        self.priors.clear();
        if self.config.prior_visits > 0.0 || self.config.prior_rave_visits > 0.0 {
            pos.priors(&self.moves, &mut self.priors);
        }
        self.tree
            .expand(node, &self.moves, P::amaf_key, &self.priors);
        if self.config.ancestor_amaf > 0.0 {
            self.inherit_amaf(node);
        }
        true
    }

    /// GRAVE-like start for new children (after Cazenave 2015, "Generalized Rapid Action
    /// Value Estimation"): the AMAF statistics of the nearest ancestor on the current path
    /// where the same player places the same colour and which has seen at least
    /// `ancestor_ref` playouts, capped at `ancestor_amaf` playouts a move. A node just
    /// expanded has seen almost nothing; that ancestor has seen its position's neighbourhood
    /// many times. Contract: `node` was just expanded.
    fn inherit_amaf(&mut self, node: NodeId) {
        let Some(&last) = self.path.last().filter(|s| s.node == node) else {
            return; // the root, expanded before any descent
        };
        let nodes = &self.tree.nodes;
        // With two players the rewards add up to 1, so the other player's statistics serve
        // too, turned round.
        let flip_ok = self.config.ancestor_flip && self.players == 2;
        let Some((ancestor, flip)) = self.path[..self.path.len() - 1]
            .iter()
            .rev()
            .find(|s| {
                s.tag == last.tag
                    && (s.mover == last.mover || flip_ok)
                    && nodes[s.node as usize].visits >= self.config.ancestor_ref
            })
            .map(|s| (s.node, s.mover != last.mover))
        else {
            return;
        };
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.borrowed.iter_mut().for_each(|b| b.0 = 0);
            self.stamp = 1;
        }
        let cap = self.config.ancestor_amaf;
        for a in &self.tree.amaf[nodes[ancestor as usize].children()] {
            let scale = if a.visits > cap { cap / a.visits } else { 1.0 };
            let value = if flip { a.visits - a.value } else { a.value };
            self.borrowed[a.key as usize] = (self.stamp, a.visits * scale, value * scale);
        }
        for a in &mut self.tree.amaf[nodes[node as usize].children()] {
            let (stamp, visits, value) = self.borrowed[a.key as usize];
            if stamp == self.stamp {
                a.visits += visits;
                a.value += value;
            }
        }
    }

    /// One playout: select down the tree, expand a leaf, play out, back up.
    fn iterate<P: MctsPosition<Move = M>>(&mut self, pos: &mut P) {
        // 1. Selection: follow the best child by UCT-RAVE down to a leaf or a proven node.
        self.path.clear();
        let mut node: NodeId = 0;
        loop {
            let mover = pos.mover();
            self.path.push(Step {
                node,
                mover: mover as u8,
                tag: pos.amaf_tag(),
            });
            let n = &self.tree.nodes[node as usize];
            if n.proven != UNPROVEN {
                break;
            }
            if !n.is_expanded() {
                // 2. Expansion, once the leaf has been visited often enough.
                if n.visits < self.config.expand_visits
                    || pos.is_terminal()
                    || !self.expand(pos, node)
                {
                    break;
                }
            }
            let child = self.select(node, mover);
            pos.play(self.tree.nodes[child as usize].mv);
            node = child;
        }

        // 3. Simulation: a playout from the leaf, or the proven result.
        let leaf = node;
        let proven = self.tree.nodes[leaf as usize].proven;
        let played_out = proven == UNPROVEN;
        if played_out {
            let terminal = pos.is_terminal();
            let winner = pos.playout(&mut self.rng, &mut self.amaf, &mut self.rewards);
            if terminal && self.config.solver {
                self.tree.nodes[leaf as usize].proven = winner as u8;
            }
        } else {
            self.rewards = [0.0; MAX_PLAYERS];
            self.rewards[proven as usize] = 1.0;
        }
        for _ in 1..self.path.len() {
            pos.undo();
        }

        // 4. Backup: every edge of the path gets the reward of the player who chose it, and
        // every sibling whose move the playout made gets it in its RAVE statistics.
        let nodes = &mut self.tree.nodes;
        nodes[0].visits += 1;
        for w in self.path.windows(2) {
            let child = &mut nodes[w[1].node as usize];
            child.visits += 1;
            child.value += self.rewards[w[0].mover as usize] as f64;
        }
        if played_out && self.config.rave {
            for step in &self.path {
                let range = nodes[step.node as usize].children();
                let reward = self.rewards[step.mover as usize];
                // Branch-free (about half the siblings match, at random, so a branch would be
                // mispredicted half the time): the match is read from a table.
                for a in &mut self.tree.amaf[range] {
                    let hit = MATCH[(self.amaf[a.key as usize] ^ step.tag) as usize];
                    a.visits += hit;
                    a.value += reward * hit;
                    if a.visits >= AMAF_HALVING {
                        a.visits *= 0.5;
                        a.value *= 0.5;
                    }
                }
            }
        }

        // 5. Proofs climb while they decide the parent.
        if self.config.solver && self.tree.nodes[leaf as usize].proven != UNPROVEN {
            self.propagate_proof();
        }
    }

    /// After a leaf was proven: a parent is proven when a child wins for the parent's mover,
    /// or when every child is proven with the same winner.
    fn propagate_proof(&mut self) {
        let nodes = &mut self.tree.nodes;
        for i in (0..self.path.len() - 1).rev() {
            let (parent, mover) = (self.path[i].node as usize, self.path[i].mover);
            let winner = nodes[self.path[i + 1].node as usize].proven;
            if winner == UNPROVEN || nodes[parent].proven != UNPROVEN {
                break;
            }
            if winner == mover
                || nodes[nodes[parent].children()]
                    .iter()
                    .all(|c| c.proven == winner)
            {
                nodes[parent].proven = winner;
            } else {
                break;
            }
        }
    }

    /// The child of `node` with the highest UCT-RAVE score for `mover`. Proven wins are taken
    /// at once; proven losses only when every child is one. Contract: `node` is expanded.
    ///
    /// The blend of a move's mean `v / n` and its AMAF mean `r / m` with Gelly & Silver's
    /// weight `β = m / (m + n + n m / k)` is, multiplied out, `(v (1 + m / k) + r) / (m + n +
    /// n m / k)`: one division a child instead of three. The priors count as `prior_visits`
    /// and `prior_rave_visits` virtual playouts of value `prior` in the two statistics.
    fn select(&self, node: NodeId, mover: usize) -> NodeId {
        let c = &self.config;
        let parent = &self.tree.nodes[node as usize];
        let range = parent.children();
        let first = range.start;
        let explore = if c.exploration > 0.0 {
            c.exploration * ((parent.visits as f32 + 1.0).ln()).sqrt()
        } else {
            0.0
        };
        let inv_k = if c.rave {
            1.0 / c.rave_equivalence
        } else {
            0.0
        };
        let rave = if c.rave { 1.0 } else { 0.0 };
        let mut best = (f32::NEG_INFINITY, first);
        let mut best_lost = (f32::NEG_INFINITY, first);
        let amaf = &self.tree.amaf[range.clone()];
        for (i, (child, a)) in self.tree.nodes[range].iter().zip(amaf).enumerate() {
            let n = child.visits as f32 + c.prior_visits;
            let v = child.value as f32 + c.prior_visits * child.prior;
            let m = rave * (a.visits + c.prior_rave_visits);
            let r = rave * (a.value + c.prior_rave_visits * child.prior);
            let den = m + n + n * m * inv_k;
            let mut q = if den > 0.0 {
                (v * (1.0 + m * inv_k) + r) / den
            } else {
                c.first_play_urgency
            };
            if explore > 0.0 {
                q += explore / (child.visits as f32 + 1.0).sqrt();
            }
            if child.proven != UNPROVEN {
                if child.proven as usize == mover {
                    return (first + i) as NodeId;
                }
                if q > best_lost.0 {
                    best_lost = (q, first + i);
                }
            } else if q > best.0 {
                best = (q, first + i);
            }
        }
        if best.0 == f32::NEG_INFINITY {
            best = best_lost;
        }
        best.1 as NodeId
    }
}

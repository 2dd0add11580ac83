//! Deferred backups at the busiest nodes of a shared tree (tree parallelism only).
//!
//! Why: a playout's RAVE backup writes the AMAF statistics of every child of every node on
//! its path. With one tree searched by several threads, the nodes near the root are on
//! almost every thread's path, so their children's statistics (about 60 to 120 on side 5)
//! are written by each thread at each playout, and every write takes the cache lines away
//! from the other cores: `omega bench`'s shared tree made 0.84x the playouts of one thread
//! with two (2026-11-27). Fuego's lock-free search (Enzenberger & Müller 2009) keeps its
//! updates racy but cheap; here the busiest nodes' updates are also batched: each thread
//! sums its backups to such a node in a buffer of its own and writes them to the tree once
//! it holds an eighth of the node's playouts ([`flush_after`]: at least [`FLUSH_PLAYOUTS`],
//! at most [`FLUSH_PLAYOUTS_MAX`]). A node with [`HOT_VISITS`] playouts or more barely moves
//! with one more playout's AMAF share, so selection there loses nothing measurable by
//! seeing the other threads' sums a few playouts late.
//!
//! The same holds for the visit counts and reward sums of a hot node's children (the edges
//! the path takes): with the AMAF sums deferred, perf still found three quarters of a shared
//! playout's descent in the atomic adds of those counts, each a cache line taken from the
//! other core. They are deferred too, with one difference: the thread's own selection at the
//! node must see its own pending visits at once (else it would take the same child for a
//! whole buffer's playouts, as if it had no virtual loss), so [`Deferred::own_edges`] gives
//! them to the selection, which adds them to what it reads. The other threads see them up to
//! an eighth of the node's playouts late: a virtual loss that arrives late at a node of a few
//! hundred playouts or more, where the threads' paths spread anyway.
//!
//! Why a share of the node's playouts rather than a fixed count (forty-seventh session):
//! with a fixed 16 and nodes hot from 1024 playouts, two threads made 1.3 to 1.4 times the
//! playouts of one (`omega --threads 2` against `--threads 1`, the same total, side 5); the
//! extra work was the write-backs and the cache lines they take from the other core. With
//! an eighth of the node's playouts, and nodes hot from 256, they make 1.6 to 1.7 times,
//! and 25 to 30 % more playouts in a 1-s turn, for the same play at a playout limit (400
//! games against `mcts-plain` in `docs/strength.md`). The other thread's view of a node
//! lags by at most an eighth of its playouts, which moves a move's mean by at most about
//! an eighth of the distance to the new playouts' mean; its own view is always current.
use super::{amaf_hit, Step};
use crate::mcts::tree::{PackedMove, Tree};
use crate::mcts::NodeId;
use std::ops::Range;

/// Playouts a node must have seen before its RAVE backups are deferred.
pub const HOT_VISITS: u32 = 256;
/// The fewest backups a buffer sums before it writes them to the tree.
const FLUSH_PLAYOUTS: u32 = 16;
/// The most: at the root and the nodes just below it, where a few thousand playouts are
/// still a small share, the reports and the stop rules read the counts.
const FLUSH_PLAYOUTS_MAX: u32 = 1024;
/// Between the two, a buffer holds this share of its node's playouts (one over it).
const FLUSH_SHARE_INVERSE: u32 = 8;
/// Buffers a thread keeps (the hot nodes of its recent paths); the oldest is written out
/// and reused when a new hot node arrives.
const SLOTS: usize = 32;
/// Entries of the direct-mapped index from a node to its buffer (a power of two, at least
/// [`SLOTS`], so that the hot nodes of one path rarely share an entry).
const INDEX_SIZE: usize = 64;
const _: () = assert!(SLOTS < u8::MAX as usize && INDEX_SIZE.is_power_of_two());

/// One hot node's pending sums, by child.
struct Pending {
    node: NodeId,
    /// The node's children when the buffer was opened: the sums are written back to
    /// exactly these slots.
    children: Range<usize>,
    /// RAVE backups summed since the last write.
    playouts: u32,
    /// The backups (RAVE ones or rewards) after which the buffer is written:
    /// [`flush_after`] of the node's playouts when it was opened or last flushed.
    flush_at: u32,
    /// Rewards of edges summed since the last write.
    rewards: u32,
    /// (hits, reward summed over the hits) for each child.
    sums: Vec<(f32, f32)>,
    /// (visits, reward summed) for each child: the edge statistics not yet written.
    edges: Vec<(u32, f64)>,
}

/// One thread's deferred backups. Contract: [`Deferred::flush_all`] is called before the
/// search's results are read and before the tree is moved or cleared.
pub struct Deferred {
    pending: Vec<Pending>,
    /// The buffer to reuse next when all are taken (round robin).
    next: usize,
    /// Visits of the root not yet written (the root has no parent to keep them).
    root_visits: u32,
    /// A guess of each node's buffer, by [`index_key`]: its position in `pending` plus one,
    /// 0 for none. Why: a playout looks up the buffer of each hot node on its path about
    /// four times (selection, visit, reward, RAVE), and the linear search through the
    /// buffers took about 3 % of a shared search's time (perf, 2026-11-28). The guess is
    /// checked against the buffer's node, so a stale or shared entry only costs the search.
    index: [u8; INDEX_SIZE],
}

impl Default for Deferred {
    fn default() -> Self {
        Deferred {
            pending: Vec::new(),
            next: 0,
            root_visits: 0,
            index: [0; INDEX_SIZE],
        }
    }
}

/// The backups a buffer of a node with `visits` playouts sums before it writes them: an
/// eighth of them, within [`FLUSH_PLAYOUTS`] and [`FLUSH_PLAYOUTS_MAX`].
fn flush_after(visits: u32) -> u32 {
    (visits / FLUSH_SHARE_INVERSE).clamp(FLUSH_PLAYOUTS, FLUSH_PLAYOUTS_MAX)
}

/// The entry of `node` in [`Deferred::index`] (Fibonacci hashing: node ids close together,
/// such as siblings, land on different entries).
fn index_key(node: NodeId) -> usize {
    (node.wrapping_mul(0x9E37_79B9) >> (32 - INDEX_SIZE.trailing_zeros())) as usize
}

impl Deferred {
    /// Adds one playout's RAVE backup at `step` (reward `reward` for its mover; `amaf` the
    /// playout's tags by key) to this thread's buffer for the node, writing the buffer to
    /// the tree when it holds [`flush_after`] the node's playouts of them.
    pub fn add<M: PackedMove>(&mut self, tree: &Tree<M>, step: &Step, reward: f32, amaf: &[u8]) {
        let children = tree.at(step.node).children();
        let i = self.slot(tree, step.node, &children);
        let p = &mut self.pending[i];
        for (s, a) in p.sums.iter_mut().zip(tree.slots(children).1) {
            let hit = amaf_hit(amaf[a.key()], step.tag);
            s.0 += hit;
            s.1 += reward * hit;
        }
        p.playouts += 1;
        if p.playouts >= p.flush_at {
            p.flush(tree);
        }
    }

    /// Counts one visit of the root; returns this thread's visits of it not yet written
    /// (before this one).
    pub fn add_root_visit<M: PackedMove>(&mut self, tree: &Tree<M>) -> u32 {
        let before = self.root_visits;
        self.root_visits += 1;
        if self.root_visits >= flush_after(tree.at(0).visits()) {
            tree.at(0).add_visits(std::mem::take(&mut self.root_visits));
        }
        before
    }

    /// This thread's visits of the root not yet written.
    pub fn own_root_visits(&self) -> u32 {
        self.root_visits
    }

    /// Counts one visit of `child`, a child of the hot node `parent`, in this thread's
    /// buffer; returns this thread's visits of it not yet written (before this one). None,
    /// and nothing counted, when the child is no longer among the parent's children (the
    /// parent grew a new block of them meanwhile: [`Tree::grow`]).
    pub fn add_visit<M: PackedMove>(
        &mut self,
        tree: &Tree<M>,
        parent: NodeId,
        child: NodeId,
    ) -> Option<u32> {
        let (i, k) = self.edge_slot(tree, parent, child)?;
        let edge = &mut self.pending[i].edges[k];
        edge.0 += 1;
        Some(edge.0 - 1)
    }

    /// Adds one playout's reward to the sum of `child`, a child of the hot node `parent`;
    /// writes the node's buffer to the tree when it holds [`flush_after`] the node's
    /// playouts.
    pub fn add_value<M: PackedMove>(
        &mut self,
        tree: &Tree<M>,
        parent: NodeId,
        child: NodeId,
        reward: f64,
    ) {
        let Some((i, k)) = self.edge_slot(tree, parent, child) else {
            tree.at(child).add_value(reward);
            return;
        };
        let p = &mut self.pending[i];
        p.edges[k].1 += reward;
        p.rewards += 1;
        if p.rewards >= p.flush_at {
            p.flush(tree);
        }
    }

    /// The buffer of `parent` and `child`'s index in it; None when the child is no longer
    /// among the parent's children (see [`Deferred::add_visit`]).
    fn edge_slot<M: PackedMove>(
        &mut self,
        tree: &Tree<M>,
        parent: NodeId,
        child: NodeId,
    ) -> Option<(usize, usize)> {
        let children = tree.at(parent).children();
        if !children.contains(&(child as usize)) {
            return None;
        }
        let i = self.slot(tree, parent, &children);
        Some((i, child as usize - children.start))
    }

    /// This thread's (visits, reward sum) of the children of `node` not yet written, in the
    /// order of `children`, the node's children now, from the first; None when it keeps none
    /// for them.
    pub fn own_edges(&self, node: NodeId, children: &Range<usize>) -> Option<&[(u32, f64)]> {
        let p = &self.pending[self.find(node)?];
        (p.children == *children).then_some(&p.edges[..])
    }

    /// The position of `node`'s buffer in `pending`, if it has one: the index's guess when
    /// it is right, else a search.
    fn find(&self, node: NodeId) -> Option<usize> {
        let guess = self.index[index_key(node)] as usize;
        if guess > 0 && self.pending.get(guess - 1).is_some_and(|p| p.node == node) {
            return Some(guess - 1);
        }
        self.pending.iter().position(|p| p.node == node)
    }

    /// Writes every buffer to the tree and forgets them.
    pub fn flush_all<M: PackedMove>(&mut self, tree: &Tree<M>) {
        for p in &mut self.pending {
            p.write(tree);
        }
        self.pending.clear();
        self.next = 0;
        self.index = [0; INDEX_SIZE];
        tree.at(0).add_visits(std::mem::take(&mut self.root_visits));
    }

    /// The buffer of `node`, opened (or reopened, if its children changed) when needed.
    fn slot<M: PackedMove>(
        &mut self,
        tree: &Tree<M>,
        node: NodeId,
        children: &Range<usize>,
    ) -> usize {
        let found = self.find(node);
        let i = match found {
            Some(i) => i,
            None if self.pending.len() < SLOTS => {
                self.pending.push(Pending {
                    node,
                    children: 0..0,
                    playouts: 0,
                    flush_at: FLUSH_PLAYOUTS,
                    rewards: 0,
                    sums: Vec::new(),
                    edges: Vec::new(),
                });
                self.pending.len() - 1
            }
            None => {
                let i = self.next;
                self.next = (self.next + 1) % SLOTS;
                i
            }
        };
        // `SLOTS` fits in a u8, so the position plus one does too.
        self.index[index_key(node)] = (i + 1) as u8;
        if found.is_some() && self.pending[i].children == *children {
            return i;
        }
        let p = &mut self.pending[i];
        p.write(tree);
        p.node = node;
        p.children = children.clone();
        p.sums.clear();
        p.sums.resize(children.len(), (0.0, 0.0));
        p.edges.clear();
        p.edges.resize(children.len(), (0, 0.0));
        p.flush_at = flush_after(tree.at(node).visits());
        i
    }
}

impl Pending {
    /// A full buffer: [`Pending::write`], and the next write waits for [`flush_after`]
    /// the node's playouts now.
    fn flush<M: PackedMove>(&mut self, tree: &Tree<M>) {
        self.write(tree);
        self.flush_at = flush_after(tree.at(self.node).visits());
    }

    /// Adds the sums to the tree's statistics of the children and zeroes them.
    fn write<M: PackedMove>(&mut self, tree: &Tree<M>) {
        let (children, amaf) = tree.slots(self.children.clone());
        for (e, child) in self.edges.iter_mut().zip(children) {
            if e.0 > 0 {
                child.add_visits(e.0);
            }
            if e.1 != 0.0 {
                child.add_value(e.1);
            }
            *e = (0, 0.0);
        }
        self.rewards = 0;
        if self.playouts == 0 {
            // No RAVE backup summed since the last write.
            return;
        }
        for (s, a) in self.sums.iter_mut().zip(amaf) {
            if s.0 > 0.0 {
                a.add(s.0, s.1);
            }
            *s = (0.0, 0.0);
        }
        self.playouts = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::{add_rave_now, FastRng, Slab};

    /// A root with `width` children, each with `width` children of its own (moves and AMAF
    /// keys 0..width).
    fn two_level_tree(width: u16) -> (Tree<u16>, Vec<NodeId>) {
        let tree: Tree<u16> = Tree::new(2000);
        let moves: Vec<u16> = (0..width).collect();
        let mut slab = Slab::default();
        let mut add = |parent: NodeId| {
            let first = tree
                .add_children(&mut slab, &moves, |m| m as usize, &[])
                .unwrap();
            tree.publish(parent, first, moves.len(), moves.len());
        };
        add(0);
        let mut nodes = vec![0];
        for m in 0..width {
            let child = tree.child(0, m).unwrap();
            add(child);
            nodes.push(child);
        }
        (tree, nodes)
    }

    /// Every child's (AMAF playouts, AMAF reward) in the order of `nodes`.
    fn amaf_of(tree: &Tree<u16>, nodes: &[NodeId]) -> Vec<(f32, f32)> {
        nodes
            .iter()
            .flat_map(|&n| tree.slots(tree.at(n).children()).1)
            .map(|a| (a.visits(), a.value()))
            .collect()
    }

    #[test]
    fn deferred_backups_add_up_to_the_direct_ones_once_flushed() {
        let width = 40;
        let (direct, nodes) = two_level_tree(width);
        let (tree, _) = two_level_tree(width);
        assert!(nodes.len() > SLOTS, "the buffers must be reused");
        let mut deferred = Deferred::default();
        let mut rng = FastRng::new(7);
        let mut amaf = vec![0u8; width as usize];
        for playout in 0..2000 {
            // A playout's tags (0 or 1 by key), and the nodes of its path with their tags.
            amaf.iter_mut()
                .for_each(|t| *t = (rng.next_u64() % 2) as u8);
            let reward = (rng.next_u64() % 2) as f32;
            let deep = nodes[1 + (rng.next_u64() % width as u64) as usize];
            for node in [0, deep] {
                let step = Step {
                    node,
                    mover: 0,
                    tag: (rng.next_u64() % 2) as u8,
                };
                add_rave_now(&direct, &step, reward, &amaf);
                deferred.add(&tree, &step, reward, &amaf);
            }
            if playout < FLUSH_PLAYOUTS as usize - 1 {
                assert!(
                    amaf_of(&tree, &nodes).iter().all(|&s| s == (0.0, 0.0)),
                    "nothing is written before a buffer is full"
                );
            }
        }
        assert_ne!(amaf_of(&tree, &nodes), amaf_of(&direct, &nodes));
        deferred.flush_all(&tree);
        // The sums are of small integers, exact in f32 in any order.
        let want = amaf_of(&direct, &nodes);
        assert!(want.iter().all(|d| d.0 > 0.0), "every child was hit");
        assert_eq!(amaf_of(&tree, &nodes), want);
    }

    #[test]
    fn a_busy_nodes_buffer_waits_for_an_eighth_of_its_playouts_within_the_bounds() {
        assert_eq!(flush_after(0), FLUSH_PLAYOUTS);
        assert_eq!(flush_after(4000), 500);
        assert_eq!(flush_after(1 << 30), FLUSH_PLAYOUTS_MAX);
        // A root of 4000 playouts and its first child of 100: the root's buffer is written
        // at its 500th backup, the child's at its 16th, then again 16 later.
        let width = 8;
        let (tree, nodes) = two_level_tree(width);
        tree.at(0).add_visits(4000);
        tree.at(nodes[1]).add_visits(100);
        let mut deferred = Deferred::default();
        let amaf = vec![0u8; width as usize];
        let written = |node: NodeId| tree.slots(tree.at(node).children()).1[0].visits();
        for backup in 1..=500u32 {
            for node in [0, nodes[1]] {
                let step = Step {
                    node,
                    mover: 0,
                    tag: 0,
                };
                deferred.add(&tree, &step, 1.0, &amaf);
            }
            let root_want = if backup < 500 { 0 } else { 500 };
            assert_eq!(written(0), root_want as f32, "root after {backup}");
            assert_eq!(
                written(nodes[1]),
                (backup / 16 * 16) as f32,
                "child after {backup}"
            );
        }
    }

    #[test]
    fn the_index_finds_each_nodes_buffer_and_no_other() {
        // 41 hot nodes for 32 buffers and 64 index entries: buffers are reused and some
        // nodes share an entry, so stale and shared guesses both occur.
        let width = 40;
        let (tree, nodes) = two_level_tree(width);
        let mut deferred = Deferred::default();
        let mut rng = FastRng::new(5);
        let keys: std::collections::HashSet<usize> = nodes.iter().map(|&n| index_key(n)).collect();
        assert!(keys.len() < nodes.len(), "some nodes share an index entry");
        for _ in 0..5000 {
            let node = nodes[(rng.next_u64() % nodes.len() as u64) as usize];
            let i = deferred.slot(&tree, node, &tree.at(node).children());
            assert_eq!(deferred.pending[i].node, node);
            for &n in &nodes {
                assert_eq!(
                    deferred.find(n),
                    deferred.pending.iter().position(|p| p.node == n),
                    "the guess is only taken when it is the node's buffer"
                );
            }
        }
        deferred.flush_all(&tree);
        assert!(nodes.iter().all(|&n| deferred.find(n).is_none()));
    }

    /// Every child's (visits, reward sum) in the order of `nodes`, and the root's visits.
    fn edges_of(tree: &Tree<u16>, nodes: &[NodeId]) -> (Vec<(u32, f64)>, u32) {
        let edges = nodes
            .iter()
            .flat_map(|&n| tree.slots(tree.at(n).children()).0)
            .map(|c| (c.visits(), c.value()))
            .collect();
        (edges, tree.at(0).visits())
    }

    #[test]
    fn deferred_visits_and_rewards_show_to_their_thread_and_add_up_once_flushed() {
        let width = 40;
        let (direct, nodes) = two_level_tree(width);
        let (tree, _) = two_level_tree(width);
        let mut deferred = Deferred::default();
        let mut rng = FastRng::new(11);
        for playout in 0..3000u32 {
            // A path root -> child -> grandchild, counted on the way down as a descent does,
            // then a reward of 0, 0.5 or 1 for each edge (exact in any order of sums).
            let reward = (rng.next_u64() % 3) as f64 * 0.5;
            let child = tree
                .child(0, (rng.next_u64() % width as u64) as u16)
                .unwrap();
            let grandchild = tree
                .child(child, (rng.next_u64() % width as u64) as u16)
                .unwrap();
            direct.at(0).add_visit();
            deferred.add_root_visit(&tree);
            for (parent, node) in [(0, child), (child, grandchild)] {
                direct.at(node).add_visit();
                let before = deferred.add_visit(&tree, parent, node).unwrap();
                let i = node as usize - tree.at(parent).children().start;
                let own = deferred
                    .own_edges(parent, &tree.at(parent).children())
                    .unwrap();
                assert_eq!(
                    own[i].0,
                    before + 1,
                    "the thread sees its own visit at once"
                );
                assert_eq!(
                    tree.at(node).visits() + own[i].0,
                    direct.at(node).visits(),
                    "the tree and the thread's buffer hold every visit once"
                );
            }
            for (parent, node) in [(0, child), (child, grandchild)] {
                direct.at(node).add_value(reward);
                deferred.add_value(&tree, parent, node, reward);
            }
            if playout < FLUSH_PLAYOUTS - 2 {
                assert_eq!(tree.at(0).visits(), 0, "the root's visits wait too");
                assert!(
                    edges_of(&tree, &nodes).0.iter().all(|&e| e == (0, 0.0)),
                    "nothing is written before a buffer is full"
                );
            }
        }
        // A node that is not among the parent's children is left to the caller.
        assert_eq!(deferred.add_visit(&tree, nodes[1], nodes[2]), None);
        assert_ne!(edges_of(&tree, &nodes), edges_of(&direct, &nodes));
        deferred.flush_all(&tree);
        assert!(deferred.own_edges(0, &tree.at(0).children()).is_none());
        let want = edges_of(&direct, &nodes);
        assert_eq!(want.1, 3000);
        assert_eq!(edges_of(&tree, &nodes), want);
    }
}

//! Deferred RAVE backups at the busiest nodes of a shared tree (tree parallelism only).
//!
//! Why: a playout's RAVE backup writes the AMAF statistics of every child of every node on
//! its path. With one tree searched by several threads, the nodes near the root are on
//! almost every thread's path, so their children's statistics (about 60 to 120 on side 5)
//! are written by each thread at each playout, and every write takes the cache lines away
//! from the other cores: `omega bench`'s shared tree made 0.84x the playouts of one thread
//! with two (2026-11-27). Fuego's lock-free search (Enzenberger & Müller 2009) keeps its
//! updates racy but cheap; here the busiest nodes' updates are also batched: each thread
//! sums its backups to such a node in a buffer of its own and writes them to the tree once
//! every [`FLUSH_PLAYOUTS`] playouts. A node with [`HOT_VISITS`] playouts or more barely
//! moves with one more playout's AMAF share, so selection there loses nothing measurable
//! by seeing the sums a few playouts late.

use super::{amaf_hit, Step};
use crate::mcts::tree::{PackedMove, Tree};
use crate::mcts::NodeId;
use std::ops::Range;

/// Playouts a node must have seen before its RAVE backups are deferred.
pub const HOT_VISITS: u32 = 1024;
/// Backups a buffer sums before it writes them to the tree.
const FLUSH_PLAYOUTS: u32 = 16;
/// Buffers a thread keeps (the hot nodes of its recent paths); the oldest is written out
/// and reused when a new hot node arrives.
const SLOTS: usize = 32;

/// One hot node's pending AMAF sums, by child.
struct Pending {
    node: NodeId,
    /// The node's children when the buffer was opened: the sums are written back to
    /// exactly these slots.
    children: Range<usize>,
    /// Backups summed since the last write.
    playouts: u32,
    /// (hits, reward summed over the hits) for each child.
    sums: Vec<(f32, f32)>,
}

/// One thread's deferred backups. Contract: [`Deferred::flush_all`] is called before the
/// search's results are read and before the tree is moved or cleared.
#[derive(Default)]
pub struct Deferred {
    pending: Vec<Pending>,
    /// The buffer to reuse next when all are taken (round robin).
    next: usize,
}

impl Deferred {
    /// Adds one playout's RAVE backup at `step` (reward `reward` for its mover; `amaf` the
    /// playout's tags by key) to this thread's buffer for the node, writing the buffer to
    /// the tree when it holds [`FLUSH_PLAYOUTS`] of them.
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
        if p.playouts >= FLUSH_PLAYOUTS {
            p.write(tree);
        }
    }

    /// Writes every buffer to the tree and forgets them.
    pub fn flush_all<M: PackedMove>(&mut self, tree: &Tree<M>) {
        for p in &mut self.pending {
            p.write(tree);
        }
        self.pending.clear();
        self.next = 0;
    }

    /// The buffer of `node`, opened (or reopened, if its children changed) when needed.
    fn slot<M: PackedMove>(
        &mut self,
        tree: &Tree<M>,
        node: NodeId,
        children: &Range<usize>,
    ) -> usize {
        let found = self.pending.iter().position(|p| p.node == node);
        let i = match found {
            Some(i) if self.pending[i].children == *children => return i,
            Some(i) => i,
            None if self.pending.len() < SLOTS => {
                self.pending.push(Pending {
                    node,
                    children: 0..0,
                    playouts: 0,
                    sums: Vec::new(),
                });
                self.pending.len() - 1
            }
            None => {
                let i = self.next;
                self.next = (self.next + 1) % SLOTS;
                i
            }
        };
        let p = &mut self.pending[i];
        p.write(tree);
        p.node = node;
        p.children = children.clone();
        p.sums.clear();
        p.sums.resize(children.len(), (0.0, 0.0));
        i
    }
}

impl Pending {
    /// Adds the sums to the tree's statistics of the children and zeroes them.
    fn write<M: PackedMove>(&mut self, tree: &Tree<M>) {
        if self.playouts == 0 {
            return;
        }
        for (s, a) in self
            .sums
            .iter_mut()
            .zip(tree.slots(self.children.clone()).1)
        {
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
    use crate::mcts::{add_rave_now, FastRng};

    /// A root with `width` children, each with `width` children of its own (moves and AMAF
    /// keys 0..width).
    fn two_level_tree(width: u16) -> (Tree<u16>, Vec<NodeId>) {
        let tree: Tree<u16> = Tree::new(2000);
        let moves: Vec<u16> = (0..width).collect();
        let add = |parent: NodeId| {
            let first = tree.add_children(&moves, |m| m as usize, &[]).unwrap();
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
}

//! The search tree: nodes in one arena, the children of a node side by side, so that a
//! selection scans one contiguous slice (as Fuego's `SgUctTree` lays them out).
//!
//! Statistics are kept per edge, in the child: `visits` and `value` are the playouts through
//! the child and the sum of their rewards *for the player who chose the child* (the parent's
//! mover), which is what max^n-style backups need. The all-moves-as-first (RAVE) statistics
//! of the child's move seen from the parent live in a second arena with the same indices,
//! 12 bytes an entry: every playout updates them for every child of every node on its path,
//! so they are kept small and dense.

/// The index of a node in the arena. The root is always node 0, so 0 also means "no
/// children" in [`Node::first_child`].
pub type NodeId = u32;

/// Not proven: the game-theoretic result below this node is unknown.
pub const UNPROVEN: u8 = u8::MAX;

#[derive(Clone, Copy, Debug)]
pub struct Node<M> {
    /// The move that leads from the parent to this node.
    pub mv: M,
    /// Proven result: the winner with best play from here, or [`UNPROVEN`].
    pub proven: u8,
    pub child_count: u16,
    /// First child in the arena; 0 while the node is not expanded.
    pub first_child: NodeId,
    pub visits: u32,
    /// Prior value of the move for the parent's mover, in [0, 1] (0.5 when there is none).
    pub prior: f32,
    /// Sum of rewards. f64: a root child can see tens of millions of playouts, past the
    /// point where an f32 sum stops counting single rewards.
    pub value: f64,
}

impl<M: Copy + Default> Node<M> {
    pub fn new(mv: M, prior: f32) -> Node<M> {
        Node {
            mv,
            proven: UNPROVEN,
            child_count: 0,
            first_child: 0,
            visits: 0,
            prior,
            value: 0.0,
        }
    }

    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.first_child != 0
    }

    #[inline]
    pub fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.child_count as usize
    }

    /// Mean reward of the playouts through this node for the parent's mover (0.5 unvisited).
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.value / self.visits as f64
        }
    }
}

/// The RAVE statistics of one edge.
#[derive(Clone, Copy, Debug, Default)]
pub struct Amaf {
    /// The move's key in the position's AMAF table.
    pub key: u32,
    /// Playouts that made the move later, and the sum of their rewards. Both are halved
    /// together past [`AMAF_HALVING`], which keeps the mean and keeps f32 sums exact enough
    /// (one reward moves a sum of 2^18 by at least 1/64 of an ulp's error); so many AMAF
    /// playouts weigh nearly nothing against the move's own anyway.
    pub visits: f32,
    pub value: f32,
}

/// See [`Amaf::visits`].
pub const AMAF_HALVING: f32 = (1 << 18) as f32;

/// The arena: node 0 is the root.
pub struct Tree<M> {
    pub nodes: Vec<Node<M>>,
    pub amaf: Vec<Amaf>,
    /// The arena never grows past this many nodes; leaves are then no longer expanded.
    capacity: usize,
    /// Second arenas, reused when the tree is re-rooted.
    spare_nodes: Vec<Node<M>>,
    spare_amaf: Vec<Amaf>,
}

/// Bytes one node takes in both arenas.
pub const fn node_bytes<M>() -> usize {
    std::mem::size_of::<Node<M>>() + std::mem::size_of::<Amaf>()
}

impl<M: Copy + Default + Eq> Tree<M> {
    pub fn new(capacity: usize) -> Tree<M> {
        Tree {
            nodes: vec![Node::new(M::default(), 0.5)],
            amaf: vec![Amaf::default()],
            capacity: capacity.max(2),
            spare_nodes: Vec::new(),
            spare_amaf: Vec::new(),
        }
    }

    /// Forgets everything but an empty root.
    pub fn clear(&mut self) {
        self.nodes.truncate(1);
        self.nodes[0] = Node::new(M::default(), 0.5);
        self.amaf.truncate(1);
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn root(&self) -> &Node<M> {
        &self.nodes[0]
    }

    /// Whether `count` more nodes fit.
    pub fn has_room(&self, count: usize) -> bool {
        self.nodes.len() + count <= self.capacity
    }

    /// Gives `parent` one child for each move, with its AMAF key and prior (0.5 where
    /// `priors` is short). Contract: the parent is not expanded, `moves` is not empty and
    /// fits ([`Tree::has_room`]).
    pub fn expand(
        &mut self,
        parent: NodeId,
        moves: &[M],
        key: impl Fn(M) -> usize,
        priors: &[f32],
    ) {
        debug_assert!(!self.nodes[parent as usize].is_expanded() && !moves.is_empty());
        let first = self.nodes.len() as NodeId;
        for (i, &mv) in moves.iter().enumerate() {
            let prior = priors.get(i).copied().unwrap_or(0.5);
            self.nodes.push(Node::new(mv, prior));
            self.amaf.push(Amaf {
                key: key(mv) as u32,
                ..Amaf::default()
            });
        }
        let p = &mut self.nodes[parent as usize];
        p.first_child = first;
        p.child_count = moves.len() as u16;
    }

    /// The child of `parent` reached by `mv`, if the parent is expanded.
    pub fn child(&self, parent: NodeId, mv: M) -> Option<NodeId> {
        self.nodes[parent as usize]
            .children()
            .find(|&c| self.nodes[c].mv == mv)
            .map(|c| c as NodeId)
    }

    /// Makes the subtree below the node reached from the root by `moves` the whole tree
    /// (tree reuse between turns). Returns false, with the tree cleared, when that node is
    /// not in the tree.
    pub fn reroot(&mut self, moves: &[M]) -> bool {
        let mut node = 0;
        for &mv in moves {
            match self.child(node, mv) {
                Some(c) => node = c,
                None => {
                    self.clear();
                    return false;
                }
            }
        }
        if node == 0 {
            return true;
        }
        // Breadth-first copy into the spare arenas: every node's children stay side by side.
        let mut nodes = std::mem::take(&mut self.spare_nodes);
        let mut amaf = std::mem::take(&mut self.spare_amaf);
        nodes.clear();
        amaf.clear();
        nodes.push(self.nodes[node as usize]);
        amaf.push(self.amaf[node as usize]);
        let mut next = 0;
        while next < nodes.len() {
            let old = nodes[next];
            if old.is_expanded() {
                let first = nodes.len() as NodeId;
                nodes.extend_from_slice(&self.nodes[old.children()]);
                amaf.extend_from_slice(&self.amaf[old.children()]);
                nodes[next].first_child = first;
            }
            next += 1;
        }
        self.spare_nodes = std::mem::replace(&mut self.nodes, nodes);
        self.spare_amaf = std::mem::replace(&mut self.amaf, amaf);
        self.spare_nodes.clear();
        self.spare_amaf.clear();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(m: u16) -> usize {
        m as usize
    }

    #[test]
    fn reroot_keeps_the_subtree_and_its_statistics() {
        let mut t: Tree<u16> = Tree::new(100);
        t.expand(0, &[1, 2, 3], key, &[]);
        let two = t.child(0, 2).unwrap();
        t.nodes[two as usize].visits = 7;
        t.expand(two, &[5, 6], key, &[0.25, 0.75]);
        let six = t.child(two, 6).unwrap();
        t.nodes[six as usize].visits = 3;
        t.amaf[six as usize].visits = 11.0;
        t.expand(six, &[9], key, &[]);
        assert!(t.reroot(&[2]));
        assert_eq!(t.len(), 4);
        assert_eq!(t.amaf.len(), 4);
        assert_eq!(t.root().visits, 7);
        let six = t.child(0, 6).unwrap();
        assert_eq!(t.nodes[six as usize].visits, 3);
        assert_eq!(t.nodes[six as usize].prior, 0.75);
        assert_eq!(t.amaf[six as usize].visits, 11.0);
        assert_eq!(t.amaf[six as usize].key, 6);
        assert!(t.child(six, 9).is_some());
        assert!(!t.reroot(&[4]), "a move not in the tree clears it");
        assert_eq!(t.len(), 1);
        assert!(!t.root().is_expanded());
    }

    #[test]
    fn expansion_stops_at_capacity() {
        let t: Tree<u16> = Tree::new(3);
        assert!(t.has_room(2));
        assert!(!t.has_room(3));
    }
}

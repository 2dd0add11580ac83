//! The search tree, shared by every thread of a search: nodes in one arena, the children of
//! a node side by side, so that a selection scans one contiguous slice (as Fuego's
//! `SgUctTree` lays them out).
//!
//! Statistics are kept per edge, in the child: `visits` and `value` are the playouts through
//! the child and the sum of their rewards *for the player who chose the child* (the parent's
//! mover), which is what max^n-style backups need. The all-moves-as-first (RAVE) statistics
//! of the child's move seen from the parent live in a second arena with the same indices,
//! 12 bytes an entry: every playout updates them for every child of every node on its path,
//! so they are kept small and dense.
//!
//! Lock-free sharing (after Enzenberger & Müller, "A Lock-free Multithreaded Monte-Carlo Tree
//! Search Algorithm", 2009, the scheme of Fuego): every field is an atomic. A thread that
//! expands a node first claims it ([`Tree::claim`]), reserves a block of the arena from its
//! own slab of slots ([`Slab`]; a compare-and-swap of the shared count takes a new slab
//! every few thousand slots), writes the children there, and only then publishes
//! them with a release store of the parent's `children` word; a reader that sees the children
//! (acquire load) sees them whole. Visits are counted with atomic adds, and at the start of
//! a descent (a virtual loss: the playout counts as a loss until its reward arrives);
//! reward sums are added by compare-and-swap (below the busiest nodes both are first summed
//! in each thread's buffers: `deferred.rs`); the AMAF statistics are read and written
//! without read-modify-write, so two threads may now and then lose one update, which Fuego
//! measured as harmless and which costs nothing on one thread.

use std::marker::PhantomData;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, AtomicUsize};
use std::sync::atomic::{Ordering::Acquire, Ordering::Relaxed, Ordering::Release};

/// The index of a node in the arena. The root is always node 0, so 0 also means "no
/// children" in a node's first child.
pub type NodeId = u32;

/// Not proven: the game-theoretic result below this node is unknown.
pub const UNPROVEN: u8 = u8::MAX;

/// Proven lost for the node's own mover, with 3-4 players, where no single winner is proven:
/// every move loses for the mover, but to different players, so who wins is the mover's
/// choice, which max^n leaves open ([`crate::mcts::MctsConfig::lost_proofs`]). Set only on
/// the root and on nodes whose parent's mover is their own (a later stone of the same turn),
/// so that a child marked `LOST` is a proven loss for its parent's mover, as a child won by
/// another player is; and only for the searching player (the root's mover). Never a
/// winner: readers of a winner check for it.
pub const LOST: u8 = u8::MAX - 1;

pub use crate::moves::PackedMove;

/// A node as it is stored. All zeros is a valid node (no move, no children, unvisited); the
/// arena is allocated zeroed, so untouched pages cost no memory.
#[derive(Default)]
pub struct AtomicNode {
    mv: AtomicU32,
    /// The published children, one word so that a reader sees a first child and a count
    /// that belong together even while another thread grows the node: the first child in
    /// the arena (bits 0-31; 0 while there are none), the children written there (bits
    /// 32-47) and the moves of the node's position (bits 48-63; more than the children
    /// when the children are written lazily, best prior first: see [`Tree::grow`]).
    children: AtomicU64,
    /// Playouts through the node, the ones in flight included (virtual loss).
    visits: AtomicU32,
    /// Prior value of the move for the parent's mover, f32 bits.
    prior: AtomicU32,
    /// Sum of rewards, f64 bits: a root child can see tens of millions of playouts, past the
    /// point where an f32 sum stops counting single rewards.
    value: AtomicU64,
    /// The winner with best play from here, or [`UNPROVEN`]; stored as its complement so
    /// that a zeroed node is unproven.
    not_proven: AtomicU8,
    /// Some thread has taken the expansion of this node.
    claimed: AtomicBool,
    /// Some thread is growing this node's children (see [`Tree::grow`]).
    growing: AtomicBool,
}

/// The packed `children` word of a node: `first` child, `count` written, `moves` in all.
#[inline]
fn pack_children(first: NodeId, count: usize, moves: usize) -> u64 {
    first as u64 | (count as u64) << 32 | (moves as u64) << 48
}

impl AtomicNode {
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }
    #[inline]
    pub fn value(&self) -> f64 {
        f64::from_bits(self.value.load(Relaxed))
    }
    #[inline]
    pub fn prior(&self) -> f32 {
        f32::from_bits(self.prior.load(Relaxed))
    }
    #[inline]
    pub fn proven(&self) -> u8 {
        !self.not_proven.load(Relaxed)
    }
    #[inline]
    pub fn set_proven(&self, winner: u8) {
        self.not_proven.store(!winner, Relaxed);
    }
    #[inline]
    pub fn mv<M: PackedMove>(&self) -> M {
        M::unpack(self.mv.load(Relaxed) as u16)
    }
    /// The published children (empty while there are none).
    #[inline]
    pub fn children(&self) -> Range<usize> {
        let word = self.children.load(Acquire);
        let first = word as u32 as usize;
        if first == 0 {
            return 0..0;
        }
        first..first + (word >> 32) as u16 as usize
    }
    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.children.load(Acquire) as u32 != 0
    }
    /// The moves of the node's position, written as children or not (0 until it is
    /// expanded): one load of the children word, so a node another thread is growing never
    /// shows a count of one moment and a remainder of the next.
    #[inline]
    pub fn moves(&self) -> usize {
        (self.children.load(Relaxed) >> 48) as usize
    }
    /// The moves of the node's position that have no child yet (0 until it is expanded).
    #[inline]
    pub fn unwritten(&self) -> usize {
        let word = self.children.load(Relaxed);
        if word as u32 == 0 {
            return 0;
        }
        ((word >> 48) as usize).saturating_sub((word >> 32) as u16 as usize)
    }
    /// Counts one more playout through the node; returns the count before.
    #[inline]
    pub fn add_visit(&self) -> u32 {
        self.visits.fetch_add(1, Relaxed)
    }
    /// Counts `n` more playouts through the node (a thread's deferred visits).
    #[inline]
    pub fn add_visits(&self, n: u32) {
        self.visits.fetch_add(n, Relaxed);
    }
    /// Adds a reward to the node's sum.
    #[inline]
    pub fn add_value(&self, reward: f64) {
        let mut old = self.value.load(Relaxed);
        loop {
            let new = (f64::from_bits(old) + reward).to_bits();
            match self.value.compare_exchange_weak(old, new, Relaxed, Relaxed) {
                Ok(_) => return,
                Err(seen) => old = seen,
            }
        }
    }
    /// A plain copy of the node's fields.
    pub fn snapshot<M: PackedMove>(&self) -> Node<M> {
        let children = self.children();
        Node {
            mv: self.mv(),
            proven: self.proven(),
            child_count: children.len() as u16,
            unwritten: self.unwritten() as u16,
            first_child: children.start as NodeId,
            visits: self.visits(),
            prior: self.prior(),
            value: self.value(),
        }
    }
    /// Makes this (unpublished) slot a fresh node for `mv`.
    fn init(&self, mv: u32, prior: f32) {
        self.mv.store(mv, Relaxed);
        self.children.store(0, Relaxed);
        self.visits.store(0, Relaxed);
        self.prior.store(prior.to_bits(), Relaxed);
        self.value.store(0, Relaxed);
        self.not_proven.store(!UNPROVEN, Relaxed);
        self.claimed.store(false, Relaxed);
        self.growing.store(false, Relaxed);
    }
    /// Copies `other`'s statistics into this unpublished slot, with its children at `first`
    /// (0: none; an unexpanded node is left unclaimed, so that it can be expanded).
    fn copy_from(&self, other: &AtomicNode, first: NodeId) {
        self.init(other.mv.load(Relaxed), other.prior());
        self.visits.store(other.visits(), Relaxed);
        self.value.store(other.value.load(Relaxed), Relaxed);
        self.not_proven
            .store(other.not_proven.load(Relaxed), Relaxed);
        let word = other.children.load(Acquire);
        if first != 0 && word as u32 != 0 {
            self.children
                .store(word & !(u32::MAX as u64) | first as u64, Relaxed);
            self.claimed.store(true, Relaxed);
        }
    }
}

/// A plain copy of a node, for reading the tree outside the search's hot loops.
#[derive(Clone, Copy, Debug)]
pub struct Node<M> {
    /// The move that leads from the parent to this node.
    pub mv: M,
    /// Proven result: the winner with best play from here, or [`UNPROVEN`].
    pub proven: u8,
    pub child_count: u16,
    /// Moves of the node's position that have no child yet (see [`Tree::grow`]).
    pub unwritten: u16,
    /// First child in the arena; 0 while the node is not expanded.
    pub first_child: NodeId,
    pub visits: u32,
    /// Prior value of the move for the parent's mover, in [0, 1] (0.5 when there is none).
    pub prior: f32,
    pub value: f64,
}

impl<M> Node<M> {
    pub fn is_expanded(&self) -> bool {
        self.first_child != 0
    }

    pub fn children(&self) -> Range<usize> {
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

/// The RAVE statistics of one edge. Playouts that made the move later, and the sum of their
/// rewards, f32 bits: both are halved together past [`AMAF_HALVING`], which keeps the mean
/// and keeps f32 sums exact enough (one reward moves a sum of 2^18 by at least 1/64 of an
/// ulp's error); so many AMAF playouts weigh nearly nothing against the move's own anyway.
#[derive(Default)]
pub struct Amaf {
    /// The move's key in the position's AMAF table.
    key: AtomicU32,
    visits: AtomicU32,
    value: AtomicU32,
}

impl Amaf {
    #[inline]
    pub fn key(&self) -> usize {
        self.key.load(Relaxed) as usize
    }
    #[inline]
    pub fn visits(&self) -> f32 {
        f32::from_bits(self.visits.load(Relaxed))
    }
    #[inline]
    pub fn value(&self) -> f32 {
        f32::from_bits(self.value.load(Relaxed))
    }
    /// Adds `visits` playouts of summed reward `value`, halving both past [`AMAF_HALVING`].
    /// Not atomic as a whole: a concurrent update may be lost (see the module's notes).
    #[inline]
    pub fn add(&self, visits: f32, value: f32) {
        let v = self.visits() + visits;
        let r = self.value() + value;
        self.visits.store(v.to_bits(), Relaxed);
        self.value.store(r.to_bits(), Relaxed);
        // A branch to a cold call, not a select: the RAVE backup adds to some 60 children a
        // node, and the halving is for one add in a quarter million of them.
        if v >= AMAF_HALVING {
            self.halve();
        }
    }
    /// Halves both sums, past [`AMAF_HALVING`] playouts (see [`Amaf::add`]).
    #[cold]
    #[inline(never)]
    fn halve(&self) {
        self.visits.store((self.visits() * 0.5).to_bits(), Relaxed);
        self.value.store((self.value() * 0.5).to_bits(), Relaxed);
    }
    fn init(&self, key: u32) {
        self.key.store(key, Relaxed);
        self.visits.store(0, Relaxed);
        self.value.store(0, Relaxed);
    }
    fn copy_from(&self, other: &Amaf) {
        self.key.store(other.key.load(Relaxed), Relaxed);
        self.visits.store(other.visits.load(Relaxed), Relaxed);
        self.value.store(other.value.load(Relaxed), Relaxed);
    }
}

/// See [`Amaf`].
pub const AMAF_HALVING: f32 = (1 << 18) as f32;

/// The node arena and the AMAF arena beside it.
type Arenas = (Box<[AtomicNode]>, Box<[Amaf]>);

/// The arena: node 0 is the root.
pub struct Tree<M> {
    nodes: Box<[AtomicNode]>,
    amaf: Box<[Amaf]>,
    /// Slots in use; the arena never grows past its capacity (see [`Tree::is_full`]).
    len: OwnLine<AtomicUsize>,
    /// Raised when a block of children did not fit: from then on no leaf can be expanded
    /// until [`Tree::prune`] makes room.
    full: OwnLine<AtomicBool>,
    /// Counts the clears, re-rootings and prunings, each of which makes every [`Slab`]
    /// taken before it stale (its slots may now hold the tree's nodes).
    generation: u64,
    /// The arenas of before the last re-rooting, reused by the next one: their pages are
    /// already in memory (a fresh arena costs a page fault every 128 nodes).
    spare: Option<Arenas>,
    _move: PhantomData<M>,
}

/// A value on a cache line of its own, away from the fields every access of the tree reads
/// (the arenas' addresses). `len` is written by every expansion and `full` read at every
/// playout: beside each other or beside the arenas' addresses, each write by one thread
/// would take the line from the others, and their next read of the tree would miss the
/// cache. (The compiler had put `len` on the line of the arenas' addresses; moving it away
/// changed no speed this 2-core virtual machine could measure, see the README's "Threads".)
#[repr(align(64))]
#[derive(Default)]
struct OwnLine<T>(T);

/// Slots a [`Slab`] takes from the arena at once (or more, for a bigger block). With two
/// threads in one tree, reserving each block of children from the shared count moved the
/// count's cache line between the cores at every expansion (a few hundred thousand times a
/// second on side 5), and the two threads' blocks lay interleaved in the arena; a slab of
/// 4,096 slots takes the line a few thousand times a second, and wastes at most a block's
/// worth of slots each time (none with one thread, whose slabs always follow each other).
const SLAB_SLOTS: usize = 4096;

/// One thread's run of reserved, unused slots of a [`Tree`]'s arena: [`Tree::add_children`]
/// and [`Tree::grow`] take their blocks from it, and take a new slab from the shared count
/// only when it runs short. A default slab is empty; a slab taken before the tree was last
/// cleared, re-rooted or pruned counts as empty.
///
/// Contract: each thread has a slab of its own, used with one tree.
#[derive(Clone, Debug, Default)]
pub struct Slab {
    generation: u64,
    next: usize,
    end: usize,
}

/// Bytes one node takes in both arenas.
const fn node_bytes() -> usize {
    std::mem::size_of::<AtomicNode>() + std::mem::size_of::<Amaf>()
}

/// The nodes `mib` MiB of memory hold in both arenas: how every player turns its tree's
/// memory (`--tree-mb` and the games' fixed sizes) into [`crate::mcts::MctsConfig::max_nodes`].
pub const fn nodes_in_mib(mib: usize) -> usize {
    (mib << 20) / node_bytes()
}

/// `len` values of an all-atomic type, zeroed by the allocator (lazily, page by page).
///
/// Contract (the callers'): `T` is valid when all its bytes are zero, as structs of atomics
/// are.
fn zeroed<T>(len: usize) -> Box<[T]> {
    // SAFETY: `T` is AtomicNode or Amaf, structs of integer atomics, which have the same
    // in-memory representation as the integers and are valid at zero.
    //
    // Not backed by huge pages (`crate::huge_pages`): on the 2-core virtual machine a fresh
    // tree then grew about half as fast (side 10, the first turns at 1 s: 26,000 playouts
    // against 49,000; kernel time 1.9 s against 0.4 s for two games of ten turns), for 2 to
    // 5 % more playouts once the pages were in use.
    unsafe { Box::<[T]>::new_zeroed_slice(len).assume_init() }
}

/// Prefetches every cache line of `values` (see [`Tree::prefetch_children`]).
#[inline]
fn prefetch<T>(values: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let start = values.as_ptr() as *const i8;
        for offset in (0..std::mem::size_of_val(values)).step_by(64) {
            // SAFETY: a prefetch never faults and changes no memory; the address is inside
            // `values`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = values;
}

impl<M: PackedMove> Tree<M> {
    /// A tree with only a root, with room for `capacity` nodes (at least 2), which take
    /// memory only as they are used.
    pub fn new(capacity: usize) -> Tree<M> {
        let capacity = capacity.max(2);
        let tree = Tree {
            nodes: zeroed(capacity),
            amaf: zeroed(capacity),
            len: OwnLine(AtomicUsize::new(1)),
            full: OwnLine::default(),
            generation: 0,
            spare: None,
            _move: PhantomData,
        };
        tree.nodes[0].init(M::default().pack() as u32, 0.5);
        tree
    }

    /// Forgets everything but an empty root.
    pub fn clear(&mut self) {
        self.nodes[0].init(M::default().pack() as u32, 0.5);
        self.amaf[0].init(0);
        *self.len.0.get_mut() = 1;
        *self.full.0.get_mut() = false;
        self.generation += 1;
    }

    /// Whether a block of children has failed to fit since the arena was last cleared,
    /// re-rooted or pruned: the search then grows no further until it prunes the tree.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.full.0.load(Relaxed)
    }

    /// Slots taken: the nodes of the tree, and the slots the threads' slabs hold unused (at
    /// most [`SLAB_SLOTS`] a thread).
    pub fn len(&self) -> usize {
        self.len.0.load(Relaxed)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    /// The stored node `id`, for the search's hot loops.
    #[inline]
    pub fn at(&self, id: NodeId) -> &AtomicNode {
        &self.nodes[id as usize]
    }

    /// A copy of node `id`.
    pub fn get(&self, id: NodeId) -> Node<M> {
        self.nodes[id as usize].snapshot()
    }

    pub fn root(&self) -> Node<M> {
        self.get(0)
    }

    /// The stored nodes and AMAF statistics of a range of the arena (a node's children).
    #[inline]
    pub fn slots(&self, range: Range<usize>) -> (&[AtomicNode], &[Amaf]) {
        (&self.nodes[range.clone()], &self.amaf[range])
    }

    /// Asks the processor to start loading the children of `id` and their AMAF statistics
    /// into its cache. A hint only, no effect on the search's results: the descent calls it
    /// as soon as it has chosen a child, so that the memory of the next selection's scan
    /// arrives while the move is played (by perf on side 5, the scan's loads of
    /// the children were its slowest part: the children of a deep node are seldom cached).
    #[inline]
    pub fn prefetch_children(&self, id: NodeId) {
        let range = self.at(id).children();
        if !range.is_empty() {
            let (nodes, amaf) = self.slots(range);
            prefetch(nodes);
            prefetch(amaf);
        }
    }

    /// Takes the expansion of `node` for the calling thread: true for exactly one caller
    /// between two clears of the node.
    #[inline]
    pub fn claim(&self, node: NodeId) -> bool {
        !self.nodes[node as usize].claimed.swap(true, Relaxed)
    }

    /// Reserves `count` consecutive slots from `slab` and returns the first, or `None` when
    /// they do not fit in the arena (the tree is then full).
    fn reserve(&self, slab: &mut Slab, count: usize) -> Option<NodeId> {
        if slab.generation != self.generation {
            *slab = Slab {
                generation: self.generation,
                ..Slab::default()
            };
        }
        if slab.end - slab.next < count {
            self.refill(slab, count)?;
        }
        let first = slab.next;
        slab.next += count;
        Some(first as NodeId)
    }

    /// Test support: counts the slots up to `len` (at most the capacity) as taken, as slabs
    /// that wrote nothing would.
    #[cfg(test)]
    pub fn take_slots_up_to(&self, len: usize) {
        self.len.0.store(len.min(self.capacity()), Relaxed);
    }

    /// Takes more slots for `slab`, so that it holds at least `count`: [`SLAB_SLOTS`] or
    /// `count` if more, or what is left of the arena if less. The new slots extend the
    /// slab when they follow it; otherwise its unused slots are abandoned.
    fn refill(&self, slab: &mut Slab, count: usize) -> Option<()> {
        let mut len = self.len.0.load(Relaxed);
        loop {
            let start = if len == slab.end { slab.next } else { len };
            let needed = count - (len - start);
            let room = self.capacity() - len;
            if room < needed {
                self.full.0.store(true, Relaxed);
                return None;
            }
            let take = needed.max(SLAB_SLOTS).min(room);
            match self
                .len
                .0
                .compare_exchange_weak(len, len + take, Relaxed, Relaxed)
            {
                Ok(_) => {
                    slab.next = start;
                    slab.end = len + take;
                    return Some(());
                }
                Err(seen) => len = seen,
            }
        }
    }

    /// Writes a fresh node for `mv` into a reserved slot. Contract: `slot` came from
    /// [`Tree::reserve`] and is not published yet.
    fn init_child(&self, slot: NodeId, mv: M, key: usize, prior: f32) {
        self.nodes[slot as usize].init(mv.pack() as u32, prior);
        self.amaf[slot as usize].init(key as u32);
    }

    /// Makes the `count` slots from `first` the children of `parent`, for every thread at
    /// once; the parent's position has `moves` moves in all (`count` when every move has its
    /// child). Contract: the slots are written ([`Tree::add_children`]); the caller claimed
    /// the parent; `count <= moves <= u16::MAX`.
    pub fn publish(&self, parent: NodeId, first: NodeId, count: usize, moves: usize) {
        debug_assert!(count <= moves && moves <= u16::MAX as usize);
        self.nodes[parent as usize]
            .children
            .store(pack_children(first, count, moves), Release);
    }

    /// Takes the growing of `node`'s children for the calling thread: true for one caller
    /// until it calls [`Tree::end_growth`].
    #[inline]
    pub fn claim_growth(&self, node: NodeId) -> bool {
        !self.nodes[node as usize].growing.swap(true, Acquire)
    }

    pub fn end_growth(&self, node: NodeId) {
        self.nodes[node as usize].growing.store(false, Release);
    }

    /// Copies the children of `node` into a new block of `moves.len()` slots, whose first
    /// slots they take (with their statistics and subtrees), writes fresh children for the
    /// rest of `moves` after them, and returns the block's first slot, unpublished (the old
    /// block stays in the arena, unused); `None` when it does not fit.
    ///
    /// Contract: the caller claimed the growth; `moves` starts with the node's children's
    /// moves in their order; `slab` is the calling thread's ([`Slab`]). With several
    /// threads, a playout that updates an old child while it is copied may be lost, as the
    /// AMAF updates may (see the module's notes); the subtree below the child still counts
    /// it, so there a child may show a few playouts fewer than its children together.
    pub fn grow(
        &self,
        slab: &mut Slab,
        node: NodeId,
        moves: &[M],
        key: impl Fn(M) -> usize,
        priors: &[f32],
    ) -> Option<NodeId> {
        let old = self.nodes[node as usize].children();
        debug_assert!(old.len() <= moves.len());
        let first = self.reserve(slab, moves.len())?;
        for (i, o) in old.clone().enumerate() {
            let slot = first as usize + i;
            debug_assert!(self.nodes[o].mv::<M>() == moves[i]);
            let grandchildren = self.nodes[o].children().start as NodeId;
            self.nodes[slot].copy_from(&self.nodes[o], grandchildren);
            self.amaf[slot].copy_from(&self.amaf[o]);
        }
        self.write_children(first, old.len(), moves, key, priors);
        Some(first)
    }

    /// Writes one unpublished child for each move, with its AMAF key and prior (0.5 where
    /// `priors` is short), into slots taken from `slab`, the calling thread's ([`Slab`]), and
    /// returns the first; `None` when they do not fit. [`Tree::publish`] then makes them
    /// some node's children.
    pub fn add_children(
        &self,
        slab: &mut Slab,
        moves: &[M],
        key: impl Fn(M) -> usize,
        priors: &[f32],
    ) -> Option<NodeId> {
        let first = self.reserve(slab, moves.len())?;
        self.write_children(first, 0, moves, key, priors);
        Some(first)
    }

    /// Writes a fresh child for each of `moves` from index `from` on, at slot `first + i`,
    /// with its AMAF key and prior (0.5 where `priors` is short). Contract: the slots came
    /// from [`Tree::reserve`] and are not published.
    fn write_children(
        &self,
        first: NodeId,
        from: usize,
        moves: &[M],
        key: impl Fn(M) -> usize,
        priors: &[f32],
    ) {
        for (i, &mv) in moves.iter().enumerate().skip(from) {
            let prior = priors.get(i).copied().unwrap_or(0.5);
            self.init_child(first + i as NodeId, mv, key(mv), prior);
        }
    }

    /// The child of `parent` reached by `mv`, if the parent is expanded.
    pub fn child(&self, parent: NodeId, mv: M) -> Option<NodeId> {
        self.nodes[parent as usize]
            .children()
            .find(|&c| self.nodes[c].mv::<M>() == mv)
            .map(|c| c as NodeId)
    }

    /// Makes the subtree below the node reached from the root by `moves` the whole tree
    /// (tree reuse between turns). Returns false, with the tree cleared, when that node is
    /// not in the tree. The subtree moves to the spare arenas, which become the tree's. A
    /// node with fewer than `min_visits` playouts keeps its own statistics but not its
    /// children (it is expanded again when a playout next reaches it): most of a big
    /// subtree is the children of such nodes, each seen by a playout or two, and the copy
    /// is part of the next turn's time.
    ///
    /// At most `max_kept` nodes are copied: when the tree holds more, the threshold doubles
    /// from `min_visits` until the copy fits ([`Tree::threshold_below`]), so that the copy's
    /// time is bounded whatever the tree's size (the node reached always keeps its
    /// children, so a copy may exceed `max_kept` by those alone).
    pub fn reroot(&mut self, moves: &[M], min_visits: u32, max_kept: usize) -> bool {
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
        if node != 0 {
            let min_visits = if self.len() > max_kept {
                self.threshold_below(node, min_visits, max_kept)
            } else {
                min_visits
            };
            self.copy_below(node, min_visits);
        }
        true
    }

    /// Makes room in a full arena during a search (as Fuego's `SgUctSearch` prunes a full
    /// tree): the tree is copied into the spare arenas, where a node with fewer than
    /// `min_visits` playouts keeps its statistics but not its children, as in
    /// [`Tree::reroot`]; the root keeps its children. Returns the nodes kept; the tree is no
    /// longer full.
    ///
    /// Contract: no search is running (node ids held across the call, in selection memos
    /// or deferred backups, are stale after it).
    pub fn prune(&mut self, min_visits: u32) -> usize {
        self.copy_below(0, min_visits);
        self.len()
    }

    /// The threshold [`Tree::prune`] needs to keep at most `max_kept` nodes: see
    /// [`Tree::threshold_below`] from the root.
    pub fn prune_threshold(&self, min_visits: u32, max_kept: usize) -> u32 {
        self.threshold_below(0, min_visits, max_kept)
    }

    /// The threshold a copy of the subtree below `top` (a pruning when `top` is the root, a
    /// re-rooting otherwise) needs to keep at most `max_kept` nodes: the smallest of
    /// `min_visits`, twice it, 4 times, ... that does, or `u32::MAX` (`top` and its
    /// children only) when none does. The count falls as the threshold grows, so a binary
    /// search over the doublings finds it in at most six walks that copy nothing, each
    /// ending once it has counted more than `max_kept`: the cost is bounded by the cap,
    /// not by the tree (a re-rooting on a short turn's clock may find a tree of tens of
    /// millions of nodes left by a long one).
    pub fn threshold_below(&self, top: NodeId, min_visits: u32, max_kept: usize) -> u32 {
        let min_visits = min_visits.max(1);
        let mut stack = Vec::new();
        let mut fits = |j: u32| self.kept_below(top, min_visits << j, max_kept, &mut stack);
        let last = (u32::MAX / min_visits).ilog2();
        if !fits(last) {
            return u32::MAX;
        }
        // The smallest doubling that fits lies in (misses, fits_at].
        let (mut misses, mut fits_at) = (-1i64, last as i64);
        while fits_at - misses > 1 {
            let mid = (misses + fits_at) / 2;
            if fits(mid as u32) {
                fits_at = mid;
            } else {
                misses = mid;
            }
        }
        min_visits << fits_at
    }

    /// Whether a copy below `top` at `threshold` ([`Tree::copy_below`]) keeps at most
    /// `max_kept` nodes: `top`, its children, and the children of every node below it
    /// whose visits, and its ancestors' up to `top` (excluded), are at least `threshold`.
    /// Stops counting past `max_kept`. `stack` is scratch space.
    fn kept_below(
        &self,
        top: NodeId,
        threshold: u32,
        max_kept: usize,
        stack: &mut Vec<NodeId>,
    ) -> bool {
        stack.clear();
        stack.push(top);
        let mut kept = 1;
        while let Some(node) = stack.pop() {
            let range = self.nodes[node as usize].children();
            kept += range.len();
            if kept > max_kept {
                return false;
            }
            stack.extend(
                range
                    .filter(|&c| self.nodes[c].visits() >= threshold)
                    .map(|c| c as NodeId),
            );
        }
        true
    }

    /// Replaces the tree by the subtree below `node`, copied breadth-first into the spare
    /// arenas (see [`Tree::reroot`] for `min_visits`); `node` becomes the root.
    fn copy_below(&mut self, node: NodeId, min_visits: u32) {
        // Breadth-first copy: every node's children stay side by side.
        let capacity = self.capacity();
        let (nodes, amaf) = self
            .spare
            .take()
            .unwrap_or_else(|| (zeroed(capacity), zeroed(capacity)));
        // The node at place i of the queue goes to slot i.
        let mut queue: Vec<NodeId> = vec![node];
        let mut next = 0;
        while next < queue.len() {
            let old = queue[next] as usize;
            let children = if next == 0 || self.nodes[old].visits() >= min_visits {
                self.nodes[old].children()
            } else {
                0..0
            };
            let first = if children.is_empty() { 0 } else { queue.len() };
            nodes[next].copy_from(&self.nodes[old], first as NodeId);
            amaf[next].copy_from(&self.amaf[old]);
            queue.extend(children.map(|c| c as NodeId));
            next += 1;
        }
        let old_nodes = std::mem::replace(&mut self.nodes, nodes);
        let old_amaf = std::mem::replace(&mut self.amaf, amaf);
        self.spare = Some((old_nodes, old_amaf));
        *self.len.0.get_mut() = queue.len();
        *self.full.0.get_mut() = false;
        self.generation += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(m: u16) -> usize {
        m as usize
    }

    /// Gives `parent` children for `moves`; false when they do not fit.
    fn expand(t: &Tree<u16>, s: &mut Slab, parent: NodeId, moves: &[u16], priors: &[f32]) -> bool {
        match t.add_children(s, moves, key, priors) {
            Some(first) => {
                t.publish(parent, first, moves.len(), moves.len());
                true
            }
            None => false,
        }
    }

    #[test]
    fn reroot_keeps_the_subtree_and_its_statistics() {
        let mut t: Tree<u16> = Tree::new(100);
        let mut s = Slab::default();
        assert!(t.claim(0) && !t.claim(0), "one expansion a node");
        assert!(expand(&t, &mut s, 0, &[1, 2, 3], &[]));
        let two = t.child(0, 2).unwrap();
        t.at(two).visits.store(7, Relaxed);
        assert!(expand(&t, &mut s, two, &[5, 6], &[0.25, 0.75]));
        let six = t.child(two, 6).unwrap();
        t.at(six).visits.store(3, Relaxed);
        t.at(six).set_proven(1);
        t.amaf[six as usize].add(11.0, 4.0);
        assert!(expand(&t, &mut s, six, &[9], &[]));
        assert!(t.reroot(&[2], 0, usize::MAX));
        assert_eq!(t.len(), 4);
        assert_eq!(t.root().visits, 7);
        assert!(!t.claim(0), "an expanded node stays claimed");
        let six = t.child(0, 6).unwrap();
        let node = t.get(six);
        assert_eq!((node.visits, node.prior, node.proven), (3, 0.75, 1));
        assert_eq!(t.amaf[six as usize].visits(), 11.0);
        assert_eq!(t.amaf[six as usize].value(), 4.0);
        assert_eq!(t.amaf[six as usize].key(), 6);
        assert_eq!(t.get(t.child(0, 5).unwrap()).proven, UNPROVEN);
        assert!(t.child(six, 9).is_some());
        assert!(
            !t.reroot(&[4], 0, usize::MAX),
            "a move not in the tree clears it"
        );
        assert_eq!(t.len(), 1);
        assert!(!t.root().is_expanded());
        assert!(t.claim(0), "a cleared root can be expanded again");
    }

    /// The counters threads write (`len` at every expansion, `full` when the arena fills)
    /// sit on cache lines of their own, not on the line of the arenas' addresses, which
    /// every access of the tree reads (see [`OwnLine`]).
    #[test]
    fn the_written_counters_keep_off_the_line_of_the_arenas_addresses() {
        type T = Tree<u16>;
        assert_eq!(
            std::mem::align_of::<T>() % 64,
            0,
            "lines counted from the start"
        );
        let line = |offset: usize| offset / 64;
        let fat_pointer = std::mem::size_of::<Box<[Amaf]>>();
        let read = [
            std::mem::offset_of!(T, nodes),
            std::mem::offset_of!(T, nodes) + fat_pointer - 1,
            std::mem::offset_of!(T, amaf),
            std::mem::offset_of!(T, amaf) + fat_pointer - 1,
        ];
        let written = [std::mem::offset_of!(T, len), std::mem::offset_of!(T, full)];
        assert_ne!(line(written[0]), line(written[1]));
        for w in written {
            for r in read {
                assert_ne!(line(w), line(r), "written at {w}, read at {r}");
            }
        }
    }

    /// A block of children that does not fit raises the full flag; pruning copies the tree
    /// without the children of nodes below the threshold (the root keeps its own), frees
    /// their slots and lowers the flag, and a node that lost its children can be expanded
    /// again.
    #[test]
    fn a_full_arena_is_flagged_and_pruning_makes_room() {
        let mut t: Tree<u16> = Tree::new(10);
        let mut s = Slab::default();
        assert!(t.claim(0));
        assert!(expand(&t, &mut s, 0, &[1, 2, 3], &[]));
        let (two, three) = (t.child(0, 2).unwrap(), t.child(0, 3).unwrap());
        t.at(two).visits.store(20, Relaxed);
        t.at(three).visits.store(3, Relaxed);
        t.at(three).add_value(2.0);
        assert!(t.claim(two) && expand(&t, &mut s, two, &[5, 6], &[]));
        assert!(t.claim(three) && expand(&t, &mut s, three, &[7, 8], &[]));
        assert_eq!(
            (s.next, t.len()),
            (8, 10),
            "8 slots used, the slab took all 10"
        );
        assert!(!t.is_full());
        let six = t.child(two, 6).unwrap();
        assert!(t.claim(six));
        assert!(
            !expand(&t, &mut s, six, &[7, 8, 9], &[]),
            "three more do not fit in 10"
        );
        assert!(t.is_full());
        assert_eq!(t.prune(10), 6, "the root, its three children and two's two");
        assert!(!t.is_full());
        assert_eq!(t.root().child_count, 3);
        let three = t.child(0, 3).unwrap();
        assert_eq!((t.get(three).visits, t.get(three).value), (3, 2.0));
        assert!(!t.at(three).is_expanded());
        assert!(t.claim(three), "a pruned node can be expanded again");
        let two = t.child(0, 2).unwrap();
        assert_eq!(t.get(two).visits, 20);
        assert!(t.child(two, 5).is_some() && t.child(two, 6).is_some());
        assert!(
            expand(&t, &mut s, three, &[7, 8, 9], &[]),
            "the freed slots take new children"
        );
        assert_eq!(s.next, 9, "a new slab after the pruned tree's 6 nodes");
    }

    /// A random tree of about `size` nodes, the same for the same seed: each node's
    /// visits drawn up to twice its parent's, so that some nodes have more than their parent.
    fn random_tree(size: usize, seed: u64) -> Tree<u16> {
        let t: Tree<u16> = Tree::new(size + 8);
        let mut s = Slab::default();
        let mut rng = crate::mcts::FastRng::new(seed);
        t.at(0).visits.store(1 << 20, Relaxed);
        // Leaves not yet expanded, one drawn at random each time.
        let mut open: Vec<NodeId> = vec![0];
        while !open.is_empty() {
            let parent = open.swap_remove(rng.below(open.len()));
            let moves: Vec<u16> = (0..1 + rng.below(6) as u16).collect();
            if !t.claim(parent) || !expand(&t, &mut s, parent, &moves, &[]) {
                break;
            }
            let most = (t.get(parent).visits.max(1) as usize * 2).min(u32::MAX as usize);
            for c in t.at(parent).children() {
                t.at(c as NodeId)
                    .visits
                    .store(rng.below(most) as u32, Relaxed);
                open.push(c as NodeId);
            }
        }
        t
    }

    /// The threshold found by one walk is the one the doubling of pruning after pruning
    /// found: the first from the start that keeps at most the allowed nodes.
    #[test]
    fn the_prune_threshold_is_the_first_doubling_that_fits() {
        for seed in 1..=8 {
            // `prune` changes the tree, so each pruning gets a fresh copy of it.
            let tree = random_tree(3000, seed);
            let (whole, children) = (tree.len(), tree.root().child_count as usize);
            for max_kept in [1, 4, 50, whole / 10, whole / 2, whole] {
                let threshold = tree.prune_threshold(16, max_kept);
                let kept = random_tree(3000, seed).prune(threshold);
                if threshold == u32::MAX {
                    assert_eq!(kept, 1 + children, "seed {seed}: the root and its children");
                    assert!(random_tree(3000, seed).prune(1 << 31) > max_kept);
                } else {
                    assert!(kept <= max_kept, "seed {seed}, {max_kept}: {kept} kept");
                }
                if threshold > 16 && threshold < u32::MAX {
                    let below = random_tree(3000, seed).prune(threshold / 2);
                    assert!(below > max_kept, "seed {seed}: half of {threshold} fits");
                }
            }
        }
    }

    /// A re-rooting under a cap copies at most the cap (or the new root and its children,
    /// when those alone exceed it), exactly what a re-rooting at the threshold the walk from
    /// the new root finds copies, and the threshold is the first doubling from the start
    /// that fits; a cap of the whole tree or more copies the whole subtree.
    #[test]
    fn a_capped_reroot_keeps_at_most_the_cap() {
        for seed in 1..=8 {
            let tree = random_tree(3000, seed);
            // The new root: the root's child with the most visits, and a line to it.
            let top = tree
                .root()
                .children()
                .max_by_key(|&c| tree.get(c as NodeId).visits)
                .unwrap() as NodeId;
            let line = [tree.get(top).mv];
            // The walk counts from one playout (a search's node has a playout before it
            // has children; this tree's nodes of none may have some).
            let mut whole = random_tree(3000, seed);
            assert!(whole.reroot(&line, 1, usize::MAX));
            let (all, children) = (whole.len(), whole.root().child_count as usize);
            for max_kept in [1, 10, all / 4, all / 2, all - 1, all, 3000] {
                let threshold = tree.threshold_below(top, 1, max_kept);
                let mut capped = random_tree(3000, seed);
                assert!(capped.reroot(&line, 1, max_kept));
                let mut at = random_tree(3000, seed);
                assert!(at.reroot(&line, threshold, usize::MAX));
                assert_eq!(capped.len(), at.len(), "seed {seed}, cap {max_kept}");
                if max_kept >= all {
                    assert_eq!(capped.len(), all, "seed {seed}: a cap above it keeps all");
                } else if threshold == u32::MAX {
                    assert_eq!(capped.len(), 1 + children, "seed {seed}: top and children");
                } else {
                    assert!(
                        capped.len() <= max_kept,
                        "seed {seed}: {} kept",
                        capped.len()
                    );
                }
                if threshold > 1 && threshold < u32::MAX {
                    let mut below = random_tree(3000, seed);
                    assert!(below.reroot(&line, threshold / 2, usize::MAX));
                    assert!(
                        below.len() > max_kept,
                        "seed {seed}: half of {threshold} fits"
                    );
                }
            }
        }
    }

    /// With a visit threshold, a node below it keeps its statistics and its proof but
    /// loses its children, and can be expanded again; the new root keeps its children
    /// whatever its visits.
    #[test]
    fn reroot_drops_the_children_of_nodes_below_the_threshold() {
        let mut t: Tree<u16> = Tree::new(100);
        let mut s = Slab::default();
        assert!(t.claim(0));
        assert!(expand(&t, &mut s, 0, &[1, 2], &[]));
        let two = t.child(0, 2).unwrap();
        t.at(two).visits.store(3, Relaxed);
        assert!(t.claim(two));
        assert!(expand(&t, &mut s, two, &[5, 6], &[]));
        let (five, six) = (t.child(two, 5).unwrap(), t.child(two, 6).unwrap());
        t.at(five).visits.store(2, Relaxed);
        t.at(five).add_value(1.5);
        t.at(five).set_proven(0);
        t.amaf[five as usize].add(4.0, 3.0);
        assert!(t.claim(five));
        assert!(expand(&t, &mut s, five, &[7, 8], &[]));
        t.at(six).visits.store(1, Relaxed);
        assert!(t.claim(six));
        assert!(expand(&t, &mut s, six, &[9], &[]));
        assert_eq!(s.next, 8);
        assert!(t.reroot(&[2], 2, usize::MAX));
        assert_eq!(t.len(), 5, "the root, its two children and five's two");
        assert_eq!(t.root().visits, 3);
        let five = t.child(0, 5).unwrap();
        let node = t.get(five);
        assert_eq!((node.visits, node.value, node.proven), (2, 1.5, 0));
        assert_eq!(t.amaf[five as usize].visits(), 4.0);
        assert!(t.child(five, 8).is_some(), "at the threshold: kept");
        let six = t.child(0, 6).unwrap();
        assert_eq!(t.get(six).visits, 1);
        assert!(!t.at(six).is_expanded(), "below it: no children");
        assert!(t.claim(six), "and it can be expanded again");
    }

    #[test]
    fn growing_keeps_the_children_and_writes_the_others_after_them() {
        let mut t: Tree<u16> = Tree::new(100);
        assert!(t.claim(0));
        // Two children written of four moves.
        let slab = &mut Slab::default();
        let first = t.add_children(slab, &[1, 2], key, &[0.9, 0.8]).unwrap();
        t.publish(0, first, 2, 4);
        assert_eq!((t.root().child_count, t.root().unwritten), (2, 2));
        let two = t.child(0, 2).unwrap();
        t.at(two).visits.store(5, Relaxed);
        t.amaf[two as usize].add(3.0, 1.0);
        let first = t.add_children(slab, &[7], key, &[]).unwrap();
        t.publish(two, first, 1, 3);
        assert!(
            t.claim_growth(0) && !t.claim_growth(0),
            "one growth at a time"
        );
        let first = t.grow(slab, 0, &[1, 2, 3], key, &[0.9, 0.8, 0.7]).unwrap();
        t.publish(0, first, 3, 4);
        t.end_growth(0);
        assert!(t.claim_growth(0), "free again");
        t.end_growth(0);
        assert_eq!((t.root().child_count, t.root().unwritten), (3, 1));
        let moved = t.child(0, 2).unwrap();
        assert_ne!(moved, two, "a new block");
        assert_eq!(t.get(moved).visits, 5);
        assert_eq!(t.amaf[moved as usize].visits(), 3.0);
        assert_eq!(t.amaf[moved as usize].key(), 2);
        assert!(t.child(moved, 7).is_some(), "the subtree comes along");
        let three = t.get(t.child(0, 3).unwrap());
        assert_eq!((three.prior, three.visits), (0.7, 0));
        assert_eq!(t.amaf[t.child(0, 3).unwrap() as usize].key(), 3);
        // Re-rooting keeps what a node has still to write.
        assert!(t.reroot(&[2], 0, usize::MAX));
        assert_eq!((t.root().child_count, t.root().unwritten), (1, 2));
    }

    #[test]
    fn expansion_stops_at_capacity() {
        let t: Tree<u16> = Tree::new(3);
        let mut s = Slab::default();
        assert!(!expand(&t, &mut s, 0, &[1, 2, 3], &[]));
        assert!(expand(&t, &mut s, 0, &[1, 2], &[]));
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn amaf_halves_past_its_limit() {
        let a = Amaf::default();
        a.add(AMAF_HALVING - 1.0, 10.0);
        a.add(1.0, 2.0);
        assert_eq!((a.visits(), a.value()), (AMAF_HALVING / 2.0, 6.0));
    }

    #[test]
    fn threads_expand_and_count_without_loss() {
        let t: Tree<u16> = Tree::new(10_000);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        t.at(0).add_visit();
                        t.at(0).add_value(0.5);
                    }
                    if t.claim(0) {
                        assert!(expand(&t, &mut Slab::default(), 0, &[1, 2, 3], &[]));
                    }
                });
            }
        });
        assert_eq!(t.root().visits, 4000);
        assert_eq!(t.root().value, 2000.0);
        assert_eq!(
            t.len(),
            1 + SLAB_SLOTS,
            "the root was expanded once, from one slab"
        );
        assert_eq!(t.root().child_count, 3);
    }

    #[test]
    fn a_slab_hands_out_consecutive_blocks_and_takes_the_shared_count_once() {
        let t: Tree<u16> = Tree::new(100_000);
        let (mut a, mut b) = (Slab::default(), Slab::default());
        let a1 = t.add_children(&mut a, &[1, 2, 3], key, &[]).unwrap();
        let b1 = t.add_children(&mut b, &[4, 5], key, &[]).unwrap();
        let a2 = t.add_children(&mut a, &[6], key, &[]).unwrap();
        assert_eq!((a1, a2), (1, 4), "a's blocks follow each other");
        assert_eq!(b1 as usize, 1 + SLAB_SLOTS, "b's slab starts after a's");
        assert_eq!(t.len(), 1 + 2 * SLAB_SLOTS, "one compare-and-swap a slab");
        // A block bigger than what is left of a's slab: b's slab follows a's, so a takes a
        // new one after b's and abandons the rest of its own.
        let whole = vec![9u16; SLAB_SLOTS];
        let a3 = t.add_children(&mut a, &whole, key, &[]).unwrap();
        assert_eq!(a3 as usize, 1 + 2 * SLAB_SLOTS);
        let b2 = t.add_children(&mut b, &whole[1..], key, &[]).unwrap();
        assert_eq!(b2 as usize, 1 + 3 * SLAB_SLOTS, "b's too, after a's");
        // b's slab (one slot left) is now the last one taken: it is extended, so the next
        // block starts at its first unused slot.
        let b3 = t.add_children(&mut b, &[1; 10], key, &[]).unwrap();
        assert_eq!(b3 as usize, b2 as usize + SLAB_SLOTS - 1);
        assert_eq!(t.len(), 1 + 5 * SLAB_SLOTS, "extended by a slab");
    }

    #[test]
    fn a_slab_taken_before_a_clear_or_a_pruning_is_not_used_after_it() {
        let mut t: Tree<u16> = Tree::new(100_000);
        let mut slab = Slab::default();
        assert!(t.claim(0));
        let first = t.add_children(&mut slab, &[1, 2], key, &[]).unwrap();
        t.publish(0, first, 2, 2);
        let one = t.child(0, 1).unwrap();
        let first = t.add_children(&mut slab, &[5, 6], key, &[]).unwrap();
        t.publish(one, first, 2, 2);
        assert_eq!(slab.next, 5);
        // Node one has no visits: the pruning drops its children, so the tree's free slots
        // start at 3, before the slab's next slot.
        assert_eq!(t.prune(10), 3, "the root and its two children");
        let after_prune = t.add_children(&mut slab, &[3], key, &[]).unwrap();
        assert_eq!(
            after_prune, 3,
            "the pruned tree's first free slot, not the slab's next"
        );
        t.clear();
        let after_clear = t.add_children(&mut slab, &[4], key, &[]).unwrap();
        assert_eq!(after_clear, 1, "slot 1 is free again, not the slab's next");
    }

    #[test]
    fn the_last_slab_takes_what_is_left_and_then_the_tree_is_full() {
        let t: Tree<u16> = Tree::new(10);
        let mut slab = Slab::default();
        assert_eq!(t.add_children(&mut slab, &[1, 2, 3], key, &[]), Some(1));
        assert_eq!(t.len(), 10, "the whole arena, less than a slab");
        assert!(!t.is_full());
        assert_eq!(t.add_children(&mut slab, &[4; 6], key, &[]), Some(4));
        assert_eq!(t.add_children(&mut Slab::default(), &[5], key, &[]), None);
        assert!(t.is_full());
    }
}

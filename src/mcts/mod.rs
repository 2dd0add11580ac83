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

mod deferred;
mod rng;
mod tree;

pub use rng::FastRng;
pub use tree::{
    nodes_in_mib, Amaf, AtomicNode, Node, NodeId, PackedMove, Slab, Tree, LOST, UNPROVEN,
};

use crate::stop::Stop;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
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
    /// The winner of this position when the rules already decide it, whatever anyone plays
    /// (a proof, as a terminal position's winner is), if the position can tell cheaply;
    /// `None` by default. Asked at a leaf of the tree before its playout, with
    /// [`MctsConfig::last_turn_proofs`]; never at a terminal position or the root.
    fn known_winner(&mut self) -> Option<usize> {
        None
    }
    /// Another playout from the same position, as [`MctsPosition::playout`]: a batch of
    /// [`MctsConfig::leaf_playouts`] asks for one right after each of its odd-numbered
    /// playouts, and a position may make it that playout's antithetic twin (the same random
    /// choices turned round, so that the pair's mean varies less than two independent
    /// playouts'). Contract: called only right after `playout`, from the same position (no
    /// `play` or `undo` between). By default an independent playout.
    fn playout_twin(&mut self, rng: &mut FastRng, amaf: &mut [u8], rewards: &mut Rewards) -> usize {
        self.playout(rng, amaf, rewards)
    }
}

/// The parameters of the search. Each was chosen by measurement (see `src/player/mcts.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// UCT exploration constant c in `c sqrt(ln N / (n + 1))`.
    pub exploration: f32,
    /// The same constant at the root only, where it is larger than `exploration` (0 = off).
    pub root_exploration: f32,
    /// Progressive bias (Chaslot et al. 2008, "Progressive strategies"): a term
    /// `prior_bias * prior / (n + 1)` added to a move's score, which fades with its own
    /// visits instead of with its AMAF playouts (0 = off).
    pub prior_bias: f32,
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
    /// A prior stands for a win rate around its mover's mean: the prior of an average move
    /// (0.5) is mapped to the mean reward of the mover over this search's playouts so far,
    /// 0 and 1 stay where they are (piecewise linear). Without it an average move's virtual
    /// playouts say 0.5, which with 3-4 players is twice a player's fair share, and for a
    /// player far behind (white with 4 players wins about one game in twenty) many times its
    /// real chances: every move it has not tried looks better than those it has. Measured
    /// no better with 3 or 4 players (README), so off by default.
    pub prior_mean: bool,
    /// Priors only at the nodes where the searching player (the root's mover) moves; the
    /// other players' moves start equal, as in a search without knowledge.
    pub prior_own_only: bool,
    /// Priors only at the nodes where another player than the searching one moves; the
    /// searching player's own moves start equal. Off: with 4 players it cost a third of the
    /// default's wins, with 3 it kept the priors' harm (docs/strength.md, "A search for each
    /// stone of the turn, ..."). With `prior_own_only` as well, no node counts them.
    pub prior_others_only: bool,
    /// With 3-4 players, each opponent's reward is blended toward the searching player's
    /// loss: `(1 - paranoid) r + paranoid (1 - r_root)` (0 = max^n, each player for
    /// itself; 1 = paranoid, every opponent against the root's mover: Sturtevant & Korf
    /// 2000, in MCTS as Nijssen & Winands 2013 compare it). Not applied to the AMAF shares
    /// of `leaf_playouts` batches; the solver's proofs stay max^n (a proven node is a win
    /// for the player it names, and its reward is blended like a playout's).
    pub paranoid: f32,
    /// Tree reuse keeps the children of the nodes with at least this many playouts only
    /// (0 = the whole subtree; see [`Tree::reroot`]).
    pub reuse_visits: u32,
    /// Value of a move with no statistics at all (first-play urgency).
    pub first_play_urgency: f32,
    /// A leaf is expanded once this many playouts have passed through it (more once the
    /// tree's arena is half full: see `expand_threshold`).
    pub expand_visits: u32,
    /// On big boards a leaf waits for more playouts before it is expanded: `expand_visits`
    /// times its parent's moves over this many, rounded (at least once; 0 = off). An
    /// expansion writes and scores a child for every move, and each later visit of the node
    /// scans them all, so the cost of a node grows with the board (see
    /// [`expand_visits_for`]).
    pub expand_moves: u32,
    /// Most nodes in the tree (about 40 bytes each).
    pub max_nodes: usize,
    /// Proven results propagate up the tree (MCTS-Solver).
    pub solver: bool,
    /// With 3-4 players, the solver also proves a node [`LOST`] for the searching player
    /// (the root's mover) when it is that player's to move and every child is a proven loss
    /// for it, won by other players but not all by the same one; within a turn and at the
    /// root only (see [`LOST`]). Without it such a node stays unproven, and with no
    /// exploration term its best scored child takes every later playout (all the mover's
    /// values being 0, ties go to the first), so that a parent of the same mover keeps
    /// visiting the dead node while a sibling that wins has had one playout: at 100,000
    /// playouts a turn the default as red missed sure wins of its last turn that way. The
    /// other players' dead ends are left unproven: marking them too modelled the opponents
    /// as escaping them, where `mcts-plain`'s own search stalls as described, and lost
    /// games as white and black against it; against `mcts-plain` with this setting on
    /// (no stall in its own turns) marking them won a few more (docs/strength.md, "Dead
    /// ends of the solver with three players").
    pub lost_proofs: bool,
    /// The solver takes a leaf's winner from the position when the rules already decide it
    /// ([`MctsPosition::known_winner`]: for Omega with 3-4 players, at the start of the last
    /// turn of the game), instead of playing its plies out to prove it. Sound, but not in
    /// the default: with 3 players on side 5 at 100,000 playouts a turn it won 78 of 210
    /// games against two `mcts-plain` where the default won 87, and 77 when the last
    /// player's wins were taken only in its own searches (as red, 6 openings won alone
    /// against 14 in both). The proofs make the other players of the tree see the last
    /// player's sure wins and steer away from them, which `mcts-plain`'s own search often
    /// does not. Against two `mcts-plain` with `lost_proofs` on, which do, 69 of 210 where
    /// the default won 67 (docs/strength.md, "Proofs of the last turn in the tree, ...").
    pub last_turn_proofs: bool,
    /// New children start with their move's AMAF statistics at the nearest ancestor where
    /// the same player places the same colour, at most this many playouts' worth (0 = off),
    /// taken from an ancestor with at least `ancestor_ref` playouts.
    pub ancestor_amaf: f32,
    pub ancestor_ref: u32,
    /// With two players, an ancestor where the other player places the colour serves too.
    pub ancestor_flip: bool,
    /// Progressive widening (after Coulom 2007 and Chaslot et al. 2008, "Progressive
    /// strategies"): a node's children are kept best prior first, and selection looks only
    /// at the first `widen * cbrt(visits + 1)` of them (0 = all, always).
    pub widen: f32,
    /// With `widen`, a node's children are written lazily: only as many as the widening
    /// looks at, at least [`LAZY_BLOCK`], and twice as many (or the width) each time the
    /// width outgrows them. On a big board most leaves are visited a few times, and writing
    /// a child for every empty cell (271 on side 10) fills the arena and the RAVE backups.
    pub lazy_children: bool,
    /// Selection memo: at a node with at least `memo_visits` playouts, the child a full scan
    /// chose is taken again without a scan, for up to `memo_span` playouts, while its score
    /// stays above the runner-up's score of that scan (0 = always scan).
    pub memo_span: u32,
    pub memo_visits: u32,
    /// Playouts from each leaf a descent reaches (1 = one, as usual). With more, the leaf's
    /// edge gets their mean reward as one visit, and every sibling on the path its AMAF
    /// share of the batch: selection and backup, most of a search's time, are paid once for
    /// several playouts.
    pub leaf_playouts: u32,
    /// With `leaf_playouts`, the AMAF statistics count every playout of the batch in full
    /// (instead of their mean as one playout).
    pub leaf_amaf_full: bool,
    /// The move played (and every move of the line shown) is the child with the best lower
    /// confidence bound `mean - final_lcb / sqrt(visits)` among those with at least a tenth
    /// of the most visited one's visits, instead of the most visited (0 = most visited).
    pub final_lcb: f32,
    /// The RAVE backup skips the nodes with fewer playouts than this (0 = none): a node
    /// that has just been expanded starts with its ancestor's AMAF values and its priors,
    /// 100 and 20 playouts' worth in the default, beside which its first few playouts add
    /// little, and its children are a backup's coldest memory.
    pub rave_min_visits: u32,
    /// A node with fewer moves than this (0 = none) mixes its children's AMAF values with
    /// [`MctsConfig::late_rave_equivalence`] instead of [`MctsConfig::rave_equivalence`].
    pub late_moves: u32,
    /// The RAVE equivalence of the nodes of fewer than [`MctsConfig::late_moves`] moves. Why
    /// a larger one there: a playout from such a node fills only the few cells left, so a
    /// move's AMAF value is gathered over playouts nearly as short as those where it came
    /// first, and says nearly what its own mean says, with far more playouts behind it.
    /// With two players on side 5 at 20,000 playouts a turn, 10,000 below 30 moves won 23
    /// more games of 400 against `mcts-plain` than 1000 everywhere (docs/strength.md, "How the
    /// default was found").
    pub late_rave_equivalence: f32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 0.0,
            root_exploration: 0.0,
            prior_bias: 0.0,
            rave: true,
            rave_equivalence: 1000.0,
            prior_visits: 0.0,
            prior_rave_visits: 0.0,
            prior_mean: false,
            prior_own_only: false,
            prior_others_only: false,
            paranoid: 0.0,
            reuse_visits: 0,
            first_play_urgency: 1.0,
            expand_visits: 2,
            expand_moves: 0,
            max_nodes: 1 << 24,
            solver: true,
            lost_proofs: false,
            last_turn_proofs: false,
            ancestor_amaf: 0.0,
            ancestor_ref: 100,
            ancestor_flip: false,
            widen: 0.0,
            lazy_children: false,
            memo_span: 0,
            memo_visits: 256,
            leaf_playouts: 1,
            leaf_amaf_full: false,
            final_lcb: 0.0,
            rave_min_visits: 0,
            late_moves: 0,
            late_rave_equivalence: 1000.0,
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
    /// With a time limit: stop as soon as the choice is settled (see [`Settle`]).
    pub settle: Option<Settle>,
}

/// Stopping a timed search once its choice is settled, so that a clock that keeps unused
/// time has it for later turns: the STOP strategy of Baier & Winands (2015, "Time
/// Management for Monte Carlo Tree Search"), the most effective they measured in five games.
/// The search stops when, on each of the first `plies` moves of the most visited line, the
/// most visited child leads the runner-up by more playouts than `share` of the time left
/// would make at the rate so far (with `share` 1 no playout to come could change the line;
/// below 1 the search stops sooner, betting that the runner-up would not catch up).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settle {
    pub plies: usize,
    pub share: f64,
}

/// Share of its time a search spends before it may stop as settled: below that the visit
/// counts and the rate say too little.
const SETTLE_AFTER: f64 = 0.1;
/// Playouts between two looks at whether the choice is settled (a look walks a line of a
/// few nodes and scans their children).
const SETTLE_CHECK_PLAYOUTS: u64 = 256;

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

/// 1.0 if a playout's AMAF tag `tag_of_key` (its entry for a child's key) is the tag of
/// the step, else 0.0. Branch-free (about half the siblings match, at random, so a branch
/// would be mispredicted half the time): the match is read from a table.
#[inline]
fn amaf_hit(tag_of_key: u8, step_tag: u8) -> f32 {
    MATCH[(tag_of_key ^ step_tag) as usize]
}

/// One playout's RAVE backup at `step`, written to the tree at once: every child of the
/// node whose key the playout tagged with the step's tag gets `reward` (the step's mover's)
/// in its AMAF statistics. `amaf` holds the playout's tags by key.
#[inline]
fn add_rave_now<M: PackedMove>(tree: &Tree<M>, step: &Step, reward: f32, amaf: &[u8]) {
    for a in tree.slots(tree.at(step.node).children()).1 {
        let hit = amaf_hit(amaf[a.key()], step.tag);
        a.add(hit, reward * hit);
    }
}

/// The visits a leaf whose parent has `moves` moves needs before it is expanded, while the
/// arena is at most half full: `expand_visits` below `1.5 expand_moves` moves, else
/// `expand_visits` (at least 1) times `moves / expand_moves`, rounded; just `expand_visits`
/// when `expand_moves` is 0 ([`MctsConfig::expand_moves`]).
#[inline]
fn expand_visits_for(expand_visits: u32, expand_moves: u32, moves: usize) -> u32 {
    if expand_moves == 0 {
        return expand_visits;
    }
    let factor = (moves as u32 + expand_moves / 2) / expand_moves;
    if factor <= 1 {
        expand_visits
    } else {
        // Saturating: `--set expand_visits` takes any number.
        expand_visits.max(1).saturating_mul(factor)
    }
}

/// The visits a leaf needs before it is expanded: [`MctsConfig::expand_visits`] while the
/// arena is at most half full, then twice, 4, 8 and 16 times as many as each further eighth
/// of it fills. A long search on a big board so slows the growth of its tree instead of
/// running into the cap and playing out from unexpanded leaves for the rest of the turn.
#[inline]
fn expand_threshold<M: PackedMove>(expand_visits: u32, tree: &Tree<M>) -> u32 {
    let (len, capacity) = (tree.len(), tree.capacity());
    if len <= capacity / 2 {
        return expand_visits;
    }
    let eighths = (len - capacity / 2) * 8 / capacity;
    expand_visits.max(1) << (eighths as u32 + 1).min(4)
}

/// The prior `p` (in 0..=1, 0.5 for an average move) moved so that 0.5 stands for `mean`:
/// piecewise linear through (0, 0), (0.5, mean) and (1, 1), so the order is kept.
fn centre_prior(p: f32, mean: f32) -> f32 {
    if p <= 0.5 {
        2.0 * p * mean
    } else {
        mean + (2.0 * p - 1.0) * (1.0 - mean)
    }
}

/// Playouts' worth of the fair share in the mean a prior is centred on, before the search's
/// own playouts outweigh it (see [`MctsConfig::prior_mean`]).
const PRIOR_MEAN_START: f32 = 50.0;

/// The fewest children a lazily expanded node gets (see [`MctsConfig::lazy_children`]).
pub const LAZY_BLOCK: usize = 8;

/// The children progressive widening looks at, at a node of `visits` playouts (at least 1).
#[inline]
fn widen_width(widen: f32, visits: u32) -> usize {
    ((widen * (visits as f32 + 1.0).cbrt()) as usize).max(1)
}

/// Playouts between two looks at the clock (a look costs about 25 ns, a playout microseconds).
const CLOCK_CHECK_PLAYOUTS: u64 = 16;

/// The search: the tree, its parameters and the first thread's random numbers.
pub struct Mcts<M> {
    tree: Tree<M>,
    config: MctsConfig,
    rng: FastRng,
    /// Raised by another thread to end the search early (see [`Mcts::set_stop`]).
    stop: Option<Stop>,
}

/// One thread's share of a search: its random numbers and buffers. The tree is shared.
struct Worker<M> {
    rng: FastRng,
    path: Vec<Step>,
    moves: Vec<M>,
    priors: Vec<f32>,
    /// The moves with their priors, best first (progressive widening's order).
    ranked: Vec<(f32, M)>,
    /// By AMAF key, the stamp of the last growth that found a child for the key
    /// ([`Worker::grow`]; `stamp` numbers both these and the borrowed statistics).
    written: Vec<u32>,
    amaf: Vec<u8>,
    rewards: Rewards,
    /// AMAF statistics borrowed from an ancestor, by key, valid where the stamp is current.
    borrowed: Vec<(u32, f32, f32)>,
    stamp: u32,
    /// Players of the position searched.
    players: usize,
    /// Each player's rewards summed over this worker's playouts, and their count (kept only
    /// with [`MctsConfig::prior_mean`]).
    reward_sums: Rewards,
    reward_count: f32,
    /// The selection memos, a direct-mapped table by node.
    memos: Vec<Memo>,
    /// Selection's scratch: the children's statistics as columns, and their scores.
    columns: EdgeStats,
    scores: Vec<f32>,
    /// A batch of playouts from one leaf (see [`MctsConfig::leaf_playouts`]): by AMAF key
    /// and tag, the playouts that ended with the tag there, then each player's reward summed
    /// over them ([`BATCH_STRIDE`] numbers a key and tag).
    batch: Vec<f32>,
    /// Whether other threads search the same tree: the RAVE backups of the busiest nodes
    /// are then deferred ([`deferred`]).
    shared: bool,
    deferred: deferred::Deferred,
    /// The arena slots this thread writes its new children into.
    slab: Slab,
}

/// AMAF tags a batch tells apart (the colours of a stone game); other tags are not credited.
const BATCH_TAGS: usize = 4;
/// Numbers a batch keeps for a key and tag: the count, then a reward sum a player.
const BATCH_STRIDE: usize = 1 + MAX_PLAYERS;

/// What a full scan of a well-visited node found (see [`MctsConfig::memo_span`]).
#[derive(Clone, Copy, Debug, Default)]
struct Memo {
    node: NodeId,
    /// The chosen child, and the node's visits up to which it may be taken again.
    child: NodeId,
    until: u32,
    /// The runner-up's score at the scan.
    runner_up: f32,
}

/// Entries of the memo table (a power of two).
const MEMOS: usize = 4096;

/// What the threads of one search share besides the tree.
#[derive(Default)]
struct Race {
    /// Playouts handed out (in batches of [`CLAIM_BATCH`]).
    begun: AtomicU64,
    /// Playouts finished (added in batches).
    made: AtomicU64,
    /// Raised by the first thread when the search ends: the others stop at once.
    over: AtomicBool,
}

/// Playouts a thread takes from the shared count at once: shared counters touched every
/// playout would bounce their cache line between the cores.
const CLAIM_BATCH: u64 = 16;

/// One thread's playouts: those it may still make, and those made but not yet counted.
#[derive(Default)]
struct Claim {
    left: u64,
    unreported: u64,
}

impl Race {
    /// Takes one more playout; false when the playout limit (never below [`MIN_PLAYOUTS`])
    /// is reached.
    fn take(&self, claim: &mut Claim, limit: Option<u64>) -> bool {
        if claim.left == 0 {
            self.report(claim);
            let k = self.begun.fetch_add(CLAIM_BATCH, Relaxed);
            claim.left = match limit {
                None => CLAIM_BATCH,
                Some(n) => n.max(MIN_PLAYOUTS).saturating_sub(k).min(CLAIM_BATCH),
            };
            // A short claim took all that was left: the rest of the batch goes back, so
            // that `begun` stays what was handed out and [`Race::give_back`] can return
            // playouts to it.
            if claim.left < CLAIM_BATCH {
                self.begun.fetch_sub(CLAIM_BATCH - claim.left, Relaxed);
            }
            if claim.left == 0 {
                return false;
            }
        }
        claim.left -= 1;
        claim.unreported += 1;
        true
    }

    /// Counts the playouts of `claim` made so far.
    fn report(&self, claim: &mut Claim) {
        self.made
            .fetch_add(std::mem::take(&mut claim.unreported), Relaxed);
    }

    /// Counts the playouts of `claim` made so far and hands back those it did not make, so
    /// that a search that pauses (to prune a full tree) still makes exactly its playout
    /// limit. Contract: the thread takes no more playouts with `claim` in this round.
    fn give_back(&self, claim: &mut Claim) {
        self.report(claim);
        self.begun
            .fetch_sub(std::mem::take(&mut claim.left), Relaxed);
    }
}

/// What a search carries from one round to the next (rounds end where a full tree is
/// pruned): when the first thread reports the search's progress (every `report_every`, the
/// next at `next_report`), and whether the threads stop when the arena fills.
struct Round {
    report_every: Option<Duration>,
    next_report: Option<Instant>,
    stop_when_full: bool,
}

/// Playouts a node needs to keep its children when a full tree is first pruned (Fuego's
/// `prune_min_count` default); the threshold doubles while a pruning would keep more than
/// half the arena ([`Tree::prune_threshold`]).
const PRUNE_MIN_VISITS: u32 = 16;

impl<M: PackedMove> Mcts<M> {
    pub fn new(config: MctsConfig, seed: u64) -> Mcts<M> {
        Mcts {
            tree: Tree::new(config.max_nodes),
            config,
            rng: FastRng::new(seed),
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

    /// Replaces the configuration for the searches to come, keeping the tree and its room
    /// ([`MctsConfig::max_nodes`] stays; [`Mcts::set_max_nodes`] changes it). Contract:
    /// called between searches; the statistics already in the tree stay as they were
    /// gathered (priors written under the old configuration included).
    pub fn set_config(&mut self, config: MctsConfig) {
        self.config = MctsConfig {
            max_nodes: self.config.max_nodes,
            ..config
        };
    }

    /// Turns the MCTS-Solver on or off for the searches to come. Contract: the tree holds no
    /// proof when the solver is turned off (proofs found before would still steer selection).
    pub fn set_solver(&mut self, on: bool) {
        self.config.solver = on;
    }

    /// Sets [`MctsConfig::expand_moves`] for the searches to come (the player sets it by the
    /// board's size).
    pub fn set_expand_moves(&mut self, expand_moves: u32) {
        self.config.expand_moves = expand_moves;
    }

    /// Gives the tree room for `max_nodes` nodes ([`MctsConfig::max_nodes`]; the player
    /// sizes it by the number of players). Contract: when the room changes, the tree is
    /// forgotten (a new, empty arena, whose memory is taken only as it is used); called
    /// between searches.
    pub fn set_max_nodes(&mut self, max_nodes: usize) {
        if max_nodes != self.config.max_nodes {
            self.config.max_nodes = max_nodes;
            self.tree = Tree::new(max_nodes);
        }
    }

    /// Sets [`MctsConfig::prior_visits`] and [`MctsConfig::prior_rave_visits`] for the
    /// searches to come (the player sets them by the number of players). Contract: called
    /// between searches, as the priors already in the tree are weighed by it too.
    pub fn set_prior_visits(&mut self, prior_visits: f32, prior_rave_visits: f32) {
        self.config.prior_visits = prior_visits;
        self.config.prior_rave_visits = prior_rave_visits;
    }

    /// Sets [`MctsConfig::late_moves`] (the players' own rule per number of players).
    pub fn set_late_moves(&mut self, late_moves: u32) {
        self.config.late_moves = late_moves;
    }

    /// The winner the root is proven for, if it is.
    pub fn root_proven(&self) -> Option<usize> {
        let proven = self.tree.root().proven;
        (proven != UNPROVEN && proven != LOST).then_some(proven as usize)
    }

    /// Whether the root is proven lost for its mover: won by another player, or [`LOST`].
    pub fn root_lost(&self, mover: usize) -> bool {
        match self.tree.root().proven {
            UNPROVEN => false,
            LOST => true,
            winner => winner as usize != mover,
        }
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
        self.advance_within(moves, usize::MAX)
    }

    /// [`Mcts::advance`], copying at most about `max_kept` nodes (the least visited nodes
    /// lose their children first, [`Tree::reroot`]): for a move of the root on a turn's
    /// clock, where copying a big tree whole could take much of the turn.
    pub fn advance_within(&mut self, moves: &[M], max_kept: usize) -> bool {
        self.tree.reroot(moves, self.config.reuse_visits, max_kept)
    }

    /// Searches `pos` on the calling thread; see [`Mcts::search_threads`].
    pub fn search<P: MctsPosition<Move = M> + Send>(
        &mut self,
        pos: &mut P,
        limits: MctsLimits,
        report_every: Option<Duration>,
        report: impl FnMut(&Self, &Progress<M>),
    ) -> Option<Progress<M>> {
        self.search_threads(std::slice::from_mut(pos), limits, report_every, report)
    }

    /// Searches with one thread a position, all in the one tree (tree parallelism with
    /// virtual loss, as Fuego and KataGo search), until the limits (or the stop signal) and
    /// returns the final snapshot. The first position is searched by the calling thread,
    /// which alone watches the clock and calls `report` every `report_every` (when set) with
    /// the search itself, to read the tree, and a snapshot; every other position by a thread
    /// of its own. The playout limit counts the playouts of all threads. `None` when the
    /// position is terminal or `positions` is empty.
    ///
    /// Contract: every position is the tree's root (a fresh tree, or one moved along by
    /// [`Mcts::advance`]); they are unchanged on return. With one position and no time limit
    /// the search is reproducible; with more, the threads' interleaving is not.
    pub fn search_threads<P: MctsPosition<Move = M> + Send>(
        &mut self,
        positions: &mut [P],
        limits: MctsLimits,
        report_every: Option<Duration>,
        mut report: impl FnMut(&Self, &Progress<M>),
    ) -> Option<Progress<M>> {
        let (first, others) = positions.split_first_mut()?;
        if first.is_terminal() {
            return None;
        }
        // 1. The root is always expanded, so that every search has a move to give.
        let mut main = Worker::new(self.rng.clone(), first);
        main.shared = !others.is_empty();
        if !self.tree.root().is_expanded() {
            self.tree.claim(0);
            main.path.clear();
            if !main.expand(self, first, 0) {
                return None;
            }
        }
        let race = Race::default();
        let mut round = Round {
            report_every,
            next_report: report_every.map(|d| limits.start + d),
            stop_when_full: true,
        };
        let mut prune_visits = PRUNE_MIN_VISITS;
        let mut made_at_pruning = None;
        loop {
            // 2. Playouts until a limit, or until the root is proven, or until the arena is
            //    full; the other threads until the first one ends.
            let seeds: Vec<u64> = others.iter().map(|_| main.rng.next_u64()).collect();
            race.over.store(false, Relaxed);
            let this: &Self = self;
            let stop_when_full = round.stop_when_full;
            let full = std::thread::scope(|scope| {
                for (pos, seed) in others.iter_mut().zip(seeds) {
                    let race = &race;
                    scope.spawn(move || {
                        let mut worker = Worker::new(FastRng::new(seed), pos);
                        worker.shared = true;
                        let mut claim = Claim::default();
                        while !race.over.load(Relaxed)
                            && !this.round_ends(stop_when_full)
                            && this.tree.at(0).proven() == UNPROVEN
                            && race.take(&mut claim, limits.playouts)
                        {
                            worker.iterate(this, pos);
                        }
                        worker.deferred.flush_all(&this.tree);
                        race.give_back(&mut claim);
                    });
                }
                let full = this.run_first(&mut main, first, &race, limits, &mut round, &mut report);
                main.deferred.flush_all(&this.tree);
                // Under a playout limit the others make the rest of the playouts handed out.
                if full || limits.playouts.is_none() || this.is_stopped() {
                    race.over.store(true, Relaxed);
                }
                full
            });
            if !full {
                break;
            }
            // A round after a pruning that made no playout at all: the arena is too small to
            // grow even pruned. A search past half its time: the copy (a tenth of a second
            // or more for a big arena) could run past the turn's time. Either goes on
            // without growing, as it would without pruning. (A tree may also start a search
            // full, when the last search filled it and the root has not moved since.)
            let made = race.made.load(Relaxed);
            let late = limits.time.is_some_and(|t| limits.start.elapsed() * 2 > t);
            if made_at_pruning == Some(made) || late {
                round.stop_when_full = false;
                continue;
            }
            made_at_pruning = Some(made);
            // 3. The arena is full: no leaf could be expanded any more, and a leaf that
            //    gathered its playouts after that would keep its one-playout-deep mean
            //    whatever they said (a 15 s analysis on side 5 showed one with 1.6 million
            //    playouts and a better mean than the searched move above it). So the tree
            //    is pruned, as Fuego prunes a full tree: the nodes below `prune_visits`
            //    playouts lose their children, the threshold doubled as often as it takes
            //    to free half the arena (found by one walk, then one copy). Then the
            //    search goes on.
            let (before, started) = (self.tree.len(), Instant::now());
            prune_visits = self
                .tree
                .prune_threshold(prune_visits, self.tree.capacity() / 2);
            let kept = self.tree.prune(prune_visits);
            main.memos.clear();
            log::info!(
                "info tree full at {before} nodes, pruned to {kept} in {:.3} s: the children of nodes of {prune_visits} playouts or more kept",
                started.elapsed().as_secs_f64()
            );
        }
        self.rng = main.rng;
        Some(self.progress(race.made.load(Relaxed), limits.start))
    }

    /// The first thread's loop: playouts, the clock, the stop signal and the reports.
    /// Returns true when it stopped because the arena is full (and no limit is reached).
    fn run_first<P: MctsPosition<Move = M>>(
        &self,
        worker: &mut Worker<M>,
        pos: &mut P,
        race: &Race,
        limits: MctsLimits,
        round: &mut Round,
        report: &mut impl FnMut(&Self, &Progress<M>),
    ) -> bool {
        let mut own = 0u64;
        let mut claim = Claim::default();
        loop {
            if self.tree.at(0).proven() != UNPROVEN {
                break;
            }
            if own.is_multiple_of(CLOCK_CHECK_PLAYOUTS)
                && (limits.time.is_some() || round.next_report.is_some() || self.stop.is_some())
            {
                race.report(&mut claim);
                let made = race.made.load(Relaxed);
                let done = made >= MIN_PLAYOUTS;
                if done && self.is_stopped() {
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
                if done
                    && own.is_multiple_of(SETTLE_CHECK_PLAYOUTS)
                    && self.is_settled(&limits, made, now)
                {
                    log::debug!("settled after {made} playouts");
                    break;
                }
                if let (Some(at), Some(every)) = (round.next_report, round.report_every) {
                    if now >= at {
                        report(self, &self.progress(made, limits.start));
                        round.next_report = Some(now + every);
                    }
                }
            }
            if self.round_ends(round.stop_when_full) {
                race.give_back(&mut claim);
                return true;
            }
            if !race.take(&mut claim, limits.playouts) {
                break;
            }
            worker.iterate(self, pos);
            own += 1;
        }
        race.give_back(&mut claim);
        false
    }

    /// Whether the threads stop for a pruning: the arena is full, and the search prunes it
    /// (`stop_when_full`).
    #[inline]
    fn round_ends(&self, stop_when_full: bool) -> bool {
        stop_when_full && self.tree.is_full()
    }

    /// Whether a search with `limits` that has made `made` playouts by `now` may stop because
    /// its choice is settled ([`Settle`]).
    fn is_settled(&self, limits: &MctsLimits, made: u64, now: Instant) -> bool {
        let (Some(settle), Some(time)) = (limits.settle, limits.time) else {
            return false;
        };
        let elapsed = now.duration_since(limits.start).as_secs_f64();
        let time = time.as_secs_f64();
        if elapsed < time * SETTLE_AFTER || elapsed <= 0.0 {
            return false;
        }
        let to_come = made as f64 / elapsed * (time - elapsed).max(0.0) * settle.share;
        self.line_leads_by(settle.plies, to_come)
    }

    /// Whether, on each of the first `plies` moves of the line of best children from the
    /// root, the best child leads every other child that is not a proven loss by more than
    /// `playouts` visits. A proven node's move is settled whatever its visits; where the
    /// line ends early, nothing is.
    pub fn line_leads_by(&self, plies: usize, playouts: f64) -> bool {
        let tree = &self.tree;
        let mut node: NodeId = 0;
        for _ in 0..plies {
            let Some(best) = self.best_child(node) else {
                return false;
            };
            let n = tree.get(node);
            if n.proven == UNPROVEN {
                // The proven children of an unproven node are losses for its mover.
                let runner_up = n
                    .children()
                    .filter(|&c| c as NodeId != best)
                    .map(|c| tree.get(c as NodeId))
                    .filter(|c| c.proven == UNPROVEN)
                    .map(|c| c.visits)
                    .max()
                    .unwrap_or(0);
                let lead = tree.get(best).visits.saturating_sub(runner_up);
                if lead as f64 <= playouts {
                    return false;
                }
            }
            node = best;
        }
        true
    }

    /// A snapshot of the search so far.
    pub fn progress(&self, playouts: u64, start: Instant) -> Progress<M> {
        let pv = self.principal_variation(usize::MAX);
        let value = self.best_child(0).map_or(0.5, |c| self.tree.get(c).mean());
        let root = self.tree.root();
        Progress {
            playouts,
            root_visits: root.visits,
            nodes: self.tree.len(),
            elapsed: start.elapsed(),
            pv,
            value,
            proven: self.root_proven(),
        }
    }

    /// The line of best children from the root, at most `max_len` moves.
    pub fn principal_variation(&self, max_len: usize) -> Vec<M> {
        self.line_from(0, max_len)
    }

    /// The visited moves of the node reached from the root by `line`, most visited first
    /// (ties in the tree's order); empty when the tree has not followed `line` to its end.
    pub fn children_by_visits(&self, line: &[M]) -> Vec<M> {
        let mut node = 0;
        for &mv in line {
            match self.tree.child(node, mv) {
                Some(child) => node = child,
                None => return Vec::new(),
            }
        }
        let mut children: Vec<(u32, M)> = self
            .tree
            .at(node)
            .children()
            .map(|c| self.tree.at(c as NodeId))
            .filter(|child| child.visits() > 0)
            .map(|child| (child.visits(), child.mv()))
            .collect();
        children.sort_by_key(|&(visits, _)| std::cmp::Reverse(visits));
        children.into_iter().map(|(_, mv)| mv).collect()
    }

    /// The line of best children from `node` (not including its own move), at most
    /// `max_len` moves.
    pub fn line_from(&self, mut node: NodeId, max_len: usize) -> Vec<M> {
        let mut pv = Vec::new();
        while pv.len() < max_len {
            match self.best_child(node) {
                Some(c) => {
                    pv.push(self.tree.at(c).mv());
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
        let n = self.tree.get(node);
        let tree = &self.tree;
        if n.proven != UNPROVEN {
            if let Some(c) = n
                .children()
                .find(|&c| tree.at(c as NodeId).proven() == n.proven)
            {
                // The proven result is this child's; for the winner it is the winning move.
                return Some(c as NodeId);
            }
        }
        // A proven loss is chosen last, unless the node itself is proven.
        let losing = |child: &Node<M>| child.proven != UNPROVEN && n.proven == UNPROVEN;
        let key = |c: usize| {
            let child = tree.get(c as NodeId);
            (!losing(&child), child.visits, child.value.to_bits())
        };
        let lcb = self.config.final_lcb as f64;
        if lcb > 0.0 {
            let most = n.children().map(|c| tree.at(c as NodeId).visits()).max();
            let floor = most.map_or(1, |m| (m / 10).max(1));
            // Each child's bound once, not once per comparison.
            return n
                .children()
                .map(|c| (c, tree.get(c as NodeId)))
                .filter(|(_, child)| child.visits >= floor)
                .map(|(c, child)| {
                    let bound = child.mean() - lcb / (child.visits as f64).sqrt();
                    (c, !losing(&child), bound)
                })
                .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
                .map(|(c, ..)| c as NodeId);
        }
        n.children()
            .filter(|&c| tree.at(c as NodeId).visits() > 0)
            .max_by_key(|&c| key(c))
            .map(|c| c as NodeId)
    }

    /// The children of the root with their statistics, most visited first.
    pub fn root_children(&self) -> Vec<Node<M>> {
        let mut children: Vec<Node<M>> = self
            .tree
            .root()
            .children()
            .map(|c| self.tree.get(c as NodeId))
            .collect();
        children.sort_by_key(|c| std::cmp::Reverse(c.visits));
        children
    }
}

impl<M: PackedMove> Worker<M> {
    fn new<P: MctsPosition<Move = M>>(rng: FastRng, pos: &P) -> Worker<M> {
        Worker {
            rng,
            path: Vec::new(),
            moves: Vec::new(),
            priors: Vec::new(),
            ranked: Vec::new(),
            written: vec![0; pos.amaf_len()],
            amaf: vec![0; pos.amaf_len()],
            rewards: [0.0; MAX_PLAYERS],
            borrowed: vec![(0, 0.0, 0.0); pos.amaf_len()],
            stamp: 0,
            players: pos.players(),
            reward_sums: [0.0; MAX_PLAYERS],
            reward_count: 0.0,
            memos: Vec::new(),
            columns: EdgeStats::default(),
            scores: Vec::new(),
            batch: Vec::new(),
            shared: false,
            deferred: deferred::Deferred::default(),
            slab: Slab::default(),
        }
    }

    /// Gives `node` its children (with priors) and publishes them. Returns false when there
    /// is no room or no move. Contract: this thread claimed `node`.
    fn expand<P: MctsPosition<Move = M>>(
        &mut self,
        mcts: &Mcts<M>,
        pos: &mut P,
        node: NodeId,
    ) -> bool {
        let (tree, config) = (&mcts.tree, &mcts.config);
        let count = self.rank_moves(config, pos);
        if count == 0 {
            return false;
        }
        let written = if self.is_lazy(config, count) {
            widen_width(config.widen, tree.at(node).visits())
                .max(LAZY_BLOCK)
                .min(count)
        } else {
            count
        };
        let Some(first) = tree.add_children(
            &mut self.slab,
            &self.moves[..written],
            P::amaf_key,
            &self.priors,
        ) else {
            return false;
        };
        if config.ancestor_amaf > 0.0 {
            self.inherit_amaf(mcts, node, first as usize..first as usize + written);
        }
        tree.publish(node, first, written, count);
        true
    }

    /// The moves of `pos` into `self.moves` and their priors into `self.priors` (left empty
    /// when the search uses none), best prior first under progressive widening; returns the
    /// number of moves.
    fn rank_moves<P: MctsPosition<Move = M>>(&mut self, config: &MctsConfig, pos: &mut P) -> usize {
        self.moves.clear();
        pos.moves(&mut self.moves);
        let count = self.moves.len();
        self.priors.clear();
        if count == 0 {
            return 0;
        }
        let searchers_node = self
            .path
            .first()
            .is_none_or(|s| s.mover as usize == pos.mover());
        let counted = if searchers_node {
            !config.prior_others_only
        } else {
            !config.prior_own_only
        };
        if (config.prior_visits > 0.0 || config.prior_rave_visits > 0.0 || config.widen > 0.0)
            && counted
        {
            pos.priors(&self.moves, &mut self.priors);
            if config.prior_mean {
                self.centre_priors(pos.mover());
            }
        }
        if config.widen > 0.0 && self.priors.len() == count {
            // Best prior first, for the widening (a stable sort: equal priors keep the
            // position's order, so a seeded search stays reproducible).
            self.ranked.clear();
            self.ranked
                .extend(self.priors.iter().copied().zip(self.moves.iter().copied()));
            self.ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
            for (i, &(prior, mv)) in self.ranked.iter().enumerate() {
                self.priors[i] = prior;
                self.moves[i] = mv;
            }
        }
        count
    }

    /// Maps `self.priors` so that 0.5 stands for `mover`'s mean reward so far (see
    /// [`MctsConfig::prior_mean`]); the order of the priors is kept. Before the first
    /// playouts the mean leans on the fair share, `1 / players`, counted as
    /// [`PRIOR_MEAN_START`] playouts.
    fn centre_priors(&mut self, mover: usize) {
        let fair = 1.0 / self.players.max(1) as f32;
        let mean = (self.reward_sums[mover] + fair * PRIOR_MEAN_START)
            / (self.reward_count + PRIOR_MEAN_START);
        for p in &mut self.priors {
            *p = centre_prior(*p, mean);
        }
    }

    /// A new stamp for `borrowed` and `written`, which are cleared when the count wraps.
    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.borrowed.iter_mut().for_each(|b| b.0 = 0);
            self.written.iter_mut().for_each(|w| *w = 0);
            self.stamp = 1;
        }
    }

    /// Whether the children of a node whose moves were just ranked are written lazily.
    fn is_lazy(&self, config: &MctsConfig, count: usize) -> bool {
        config.lazy_children && config.widen > 0.0 && self.priors.len() == count
    }

    /// Gives a lazily expanded `node` more children once the widening's width has outgrown
    /// those it has: twice as many, or the width, best prior first, each new one with the
    /// inherited AMAF statistics a new child gets. Nothing happens when the arena is full or
    /// another thread is growing the node. Contract: `pos` is at `node`, the last step of
    /// the current path; `node` is expanded.
    #[inline(never)] // off the default's path: kept out of `iterate`, which stays small
    fn grow<P: MctsPosition<Move = M>>(&mut self, mcts: &Mcts<M>, pos: &mut P, node: NodeId) {
        let (tree, config) = (&mcts.tree, &mcts.config);
        let n = tree.at(node);
        let width = widen_width(config.widen, n.visits());
        if width <= n.children().len() || !tree.claim_growth(node) {
            return;
        }
        // Read after the claim: another thread may have grown the node meanwhile.
        let old = n.children();
        let count = self.rank_moves(config, pos);
        if width > old.len() && self.is_lazy(config, count) && count > old.len() {
            // The node's children keep their places, first; the best of the other moves follow.
            self.next_stamp();
            let (children, _) = tree.slots(old.clone());
            self.ranked.clear();
            for child in children {
                let mv: M = child.mv();
                self.written[P::amaf_key(mv)] = self.stamp;
                self.ranked.push((child.prior(), mv));
            }
            let target = (2 * old.len()).max(width).min(count);
            for (&mv, &prior) in self.moves.iter().zip(&self.priors) {
                if self.ranked.len() == target {
                    break;
                }
                if self.written[P::amaf_key(mv)] != self.stamp {
                    self.ranked.push((prior, mv));
                }
            }
            self.moves.clear();
            self.priors.clear();
            for &(prior, mv) in &self.ranked {
                self.moves.push(mv);
                self.priors.push(prior);
            }
            if let Some(first) =
                tree.grow(&mut self.slab, node, &self.moves, P::amaf_key, &self.priors)
            {
                let start = first as usize;
                if config.ancestor_amaf > 0.0 {
                    self.inherit_amaf(mcts, node, start + old.len()..start + self.moves.len());
                }
                tree.publish(node, first, self.moves.len(), count);
            }
        }
        tree.end_growth(node);
    }

    /// GRAVE-like start for new children (after Cazenave 2015, "Generalized Rapid Action
    /// Value Estimation"): the AMAF statistics of the nearest ancestor on the current path
    /// where the same player places the same colour and which has seen at least
    /// `ancestor_ref` playouts, capped at `ancestor_amaf` playouts a move. A node just
    /// expanded has seen almost nothing; that ancestor has seen its position's neighbourhood
    /// many times. Contract: `children` are `node`'s, written but not yet published.
    fn inherit_amaf(&mut self, mcts: &Mcts<M>, node: NodeId, children: Range<usize>) {
        let Some(&last) = self.path.last().filter(|s| s.node == node) else {
            return; // the root, expanded before any descent
        };
        let (tree, config) = (&mcts.tree, &mcts.config);
        // With two players the rewards add up to 1, so the other player's statistics serve
        // too, turned round.
        let flip_ok = config.ancestor_flip && self.players == 2;
        let Some((ancestor, flip)) = self.path[..self.path.len() - 1]
            .iter()
            .rev()
            .find(|s| {
                s.tag == last.tag
                    && (s.mover == last.mover || flip_ok)
                    && tree.at(s.node).visits() >= config.ancestor_ref
            })
            .map(|s| (s.node, s.mover != last.mover))
        else {
            return;
        };
        self.next_stamp();
        let cap = config.ancestor_amaf;
        for a in tree.slots(tree.at(ancestor).children()).1 {
            let visits = a.visits();
            let scale = if visits > cap { cap / visits } else { 1.0 };
            let value = if flip { visits - a.value() } else { a.value() };
            self.borrowed[a.key()] = (self.stamp, visits * scale, value * scale);
        }
        for a in tree.slots(children).1 {
            let (stamp, visits, value) = self.borrowed[a.key()];
            if stamp == self.stamp {
                a.add(visits, value);
            }
        }
    }

    /// One playout: select down the tree, expand a leaf, play out, back up.
    fn iterate<P: MctsPosition<Move = M>>(&mut self, mcts: &Mcts<M>, pos: &mut P) {
        let (tree, config) = (&mcts.tree, &mcts.config);
        // 1. Selection: follow the best child by UCT-RAVE down to a leaf or a proven node.
        // Each node is counted as visited on the way down (virtual loss: other threads see
        // the playout as a loss until its reward arrives, and spread out).
        // At a node of a shared tree busy enough ([`deferred`]), the visit and the reward
        // of the child taken are kept in this thread's buffer for a few playouts instead of
        // written at once; `own` is this thread's unwritten visits of the current node.
        self.path.clear();
        let mut node: NodeId = 0;
        let root = tree.at(0);
        let (mut visits_before, mut own) = if self.is_hot(root) {
            let before = self.deferred.add_root_visit(tree);
            (root.visits() + before, self.deferred.own_root_visits())
        } else {
            (root.add_visit(), 0)
        };
        loop {
            let mover = pos.mover();
            self.path.push(Step {
                node,
                mover: mover as u8,
                tag: pos.amaf_tag(),
            });
            let n = tree.at(node);
            // A node lost for its mover (every child proven) is played through: its
            // children's results are the ones that differ for the other players.
            if n.proven() != UNPROVEN && n.proven() != LOST {
                break;
            }
            if !n.is_expanded() {
                // 2. Expansion, once the leaf has been visited often enough, by the one
                // thread that claims it (the others play out from the leaf meanwhile).
                let parent_moves = match config.expand_moves {
                    0 => 0,
                    _ => self.parent_moves(tree),
                };
                let expand_visits =
                    expand_visits_for(config.expand_visits, config.expand_moves, parent_moves);
                if visits_before < expand_threshold(expand_visits, tree)
                    || pos.is_terminal()
                    || !tree.claim(node)
                    || !self.expand(mcts, pos, node)
                {
                    break;
                }
            }
            if config.lazy_children && n.unwritten() > 0 {
                self.grow(mcts, pos, node);
            }
            let child = self.select(mcts, node, mover, own);
            tree.prefetch_children(child);
            let c = tree.at(child);
            let deferred = if self.is_hot(n) {
                self.deferred.add_visit(tree, node, child)
            } else {
                None
            };
            (visits_before, own) = match deferred {
                Some(before) => (c.visits() + before, before + 1),
                None => (c.add_visit(), 0),
            };
            pos.play(c.mv());
            node = child;
        }

        // 3. Simulation: a playout from the leaf, or the proven result (from the tree or, at
        // a leaf the rules decide, from the position).
        let leaf = tree.at(node);
        if config.solver
            && config.last_turn_proofs
            && self.path.len() > 1
            && leaf.proven() == UNPROVEN
            && !pos.is_terminal()
        {
            if let Some(winner) = pos.known_winner() {
                leaf.set_proven(winner as u8);
            }
        }
        let proven = leaf.proven();
        let played_out = proven == UNPROVEN;
        let mut batched = false;
        if played_out {
            let terminal = pos.is_terminal();
            if terminal || config.leaf_playouts <= 1 {
                let winner = pos.playout(&mut self.rng, &mut self.amaf, &mut self.rewards);
                if terminal && config.solver {
                    leaf.set_proven(winner as u8);
                }
            } else {
                self.playout_batch(pos, config.leaf_playouts);
                batched = true;
            }
        } else {
            self.rewards = [0.0; MAX_PLAYERS];
            self.rewards[proven as usize] = 1.0;
        }
        if config.paranoid > 0.0 && self.players > 2 {
            let root = self.path[0].mover as usize;
            let against = 1.0 - self.rewards[root];
            let a = config.paranoid;
            for (p, r) in self.rewards[..self.players].iter_mut().enumerate() {
                if p != root {
                    *r = (1.0 - a) * *r + a * against;
                }
            }
        }
        for _ in 1..self.path.len() {
            pos.undo();
        }
        if played_out && config.prior_mean {
            let players = self.players;
            let sums = &mut self.reward_sums[..players];
            sums.iter_mut()
                .zip(&self.rewards[..players])
                .for_each(|(s, r)| *s += r);
            self.reward_count += 1.0;
        }

        // 4. Backup: every edge of the path gets the reward of the player who chose it, and
        // every sibling whose move the playout made gets it in its RAVE statistics.
        for w in self.path.windows(2) {
            let reward = self.rewards[w[0].mover as usize] as f64;
            if self.is_hot(tree.at(w[0].node)) {
                self.deferred.add_value(tree, w[0].node, w[1].node, reward);
            } else {
                tree.at(w[1].node).add_value(reward);
            }
        }
        if batched && config.rave {
            self.backup_batch(tree, config);
        } else if played_out && config.rave {
            for step in &self.path {
                let visits = tree.at(step.node).visits();
                if visits < config.rave_min_visits {
                    // The path's nodes below a skipped one have fewer playouts still.
                    break;
                }
                let reward = self.rewards[step.mover as usize];
                if self.shared && visits >= deferred::HOT_VISITS {
                    self.deferred.add(tree, step, reward, &self.amaf);
                    continue;
                }
                add_rave_now(tree, step, reward, &self.amaf);
            }
        }

        // 5. Proofs climb while they decide the parent.
        if config.solver && tree.at(node).proven() != UNPROVEN {
            self.propagate_proof(tree, config.lost_proofs);
        }
    }

    /// `count` playouts from `pos` (not terminal): their mean rewards in `self.rewards`, and
    /// in `self.batch` by key and tag the playouts that ended with the tag there and their
    /// rewards.
    fn playout_batch<P: MctsPosition<Move = M>>(&mut self, pos: &mut P, count: u32) {
        let len = self.amaf.len();
        self.batch.clear();
        self.batch.resize(len * BATCH_TAGS * BATCH_STRIDE, 0.0);
        let mut sum = [0.0f32; MAX_PLAYERS];
        let players = self.players;
        for i in 0..count {
            if i % 2 == 0 {
                pos.playout(&mut self.rng, &mut self.amaf, &mut self.rewards);
            } else {
                pos.playout_twin(&mut self.rng, &mut self.amaf, &mut self.rewards);
            }
            let rewards = &self.rewards[..players];
            sum.iter_mut().zip(rewards).for_each(|(s, r)| *s += r);
            for (key, &tag) in self.amaf.iter().enumerate() {
                if (tag as usize) < BATCH_TAGS {
                    let base = (key * BATCH_TAGS + tag as usize) * BATCH_STRIDE;
                    let slot = &mut self.batch[base..base + 1 + players];
                    slot[0] += 1.0;
                    slot[1..].iter_mut().zip(rewards).for_each(|(s, r)| *s += r);
                }
            }
        }
        let inv = 1.0 / count as f32;
        for (r, s) in self.rewards.iter_mut().zip(sum) {
            *r = s * inv;
        }
    }

    /// The RAVE backup of a batch: every sibling on the path gets its key's share of the
    /// batch for the tag the path placed there, as a mean (one playout's worth) or in full.
    fn backup_batch(&self, tree: &Tree<M>, config: &MctsConfig) {
        let scale = if config.leaf_amaf_full {
            1.0
        } else {
            1.0 / config.leaf_playouts as f32
        };
        for step in &self.path {
            let tag = step.tag as usize;
            if tag >= BATCH_TAGS {
                continue;
            }
            let mover = step.mover as usize;
            for a in tree.slots(tree.at(step.node).children()).1 {
                let base = (a.key() * BATCH_TAGS + tag) * BATCH_STRIDE;
                let hits = self.batch[base];
                if hits > 0.0 {
                    a.add(hits * scale, self.batch[base + 1 + mover] * scale);
                }
            }
        }
    }

    /// After a leaf was proven: a parent is proven when a child wins for the parent's mover,
    /// or when every child is proven with the same winner; with `lost_proofs`, [`LOST`] when
    /// every child is proven lost for the parent's mover with different winners, if that
    /// mover is the root's and the parent is the root or its own parent's mover is the same
    /// player (see [`LOST`] and [`MctsConfig::lost_proofs`]).
    fn propagate_proof(&self, tree: &Tree<M>, lost_proofs: bool) {
        for i in (0..self.path.len() - 1).rev() {
            let (parent, mover) = (tree.at(self.path[i].node), self.path[i].mover);
            let proven = tree.at(self.path[i + 1].node).proven();
            if proven == UNPROVEN || parent.proven() != UNPROVEN {
                break;
            }
            if proven == mover {
                parent.set_proven(mover);
                continue;
            }
            // A node whose children are written lazily is proven lost only once every move
            // has its child.
            if parent.unwritten() != 0 {
                break;
            }
            let children = tree.slots(parent.children()).0;
            if proven != LOST && children.iter().all(|c| c.proven() == proven) {
                parent.set_proven(proven);
            } else if lost_proofs
                && mover == self.path[0].mover
                && (i == 0 || self.path[i - 1].mover == mover)
                && children
                    .iter()
                    .all(|c| c.proven() != UNPROVEN && c.proven() != mover)
            {
                parent.set_proven(LOST);
            } else {
                break;
            }
        }
    }

    /// The moves of the parent of the path's last node, written or not (0 for the root): the
    /// leaf's moves, near enough, for [`MctsConfig::expand_moves`].
    #[inline]
    fn parent_moves(&self, tree: &Tree<M>) -> usize {
        match self.path.len().checked_sub(2) {
            Some(i) => tree.at(self.path[i].node).moves(),
            None => 0,
        }
    }

    /// Whether other threads search this tree and `node` is busy enough that the backups to
    /// its children go through this thread's [`deferred`] buffers.
    #[inline]
    fn is_hot(&self, node: &AtomicNode) -> bool {
        self.shared && node.visits() >= deferred::HOT_VISITS
    }

    /// The child of `node` with the highest UCT-RAVE score for `mover`. Proven wins are taken
    /// at once; proven losses only when every child is one. Contract: `node` is expanded.
    ///
    /// The blend of a move's mean `v / n` and its AMAF mean `r / m` with Gelly & Silver's
    /// weight `β = m / (m + n + n m / k)` is, multiplied out, `(v (1 + m / k) + r) / (m + n +
    /// n m / k)`: one division a child instead of three. The priors count as `prior_visits`
    /// and `prior_rave_visits` virtual playouts of value `prior` in the two statistics.
    ///
    /// With [`MctsConfig::memo_span`] set, a well-visited node remembers its last full scan
    /// (see [`Memo`]): a move's score changes by about `1 / visits` a playout, so for a few
    /// playouts the child that led the scan leads still while its score stays above the
    /// runner-up's, and the scan of every child, most of a search's time, is skipped.
    fn select(&mut self, mcts: &Mcts<M>, node: NodeId, mover: usize, own: u32) -> NodeId {
        let (tree, c) = (&mcts.tree, &mcts.config);
        let parent = tree.at(node);
        let parent_visits = parent.visits() + own;
        let range = parent.children();
        let own_edges = if self.is_hot(parent) {
            self.deferred.own_edges(node, &range)
        } else {
            None
        };
        let first = range.start;
        let exploration = if node == 0 {
            c.exploration.max(c.root_exploration)
        } else {
            c.exploration
        };
        // The position's moves, whether or not lazy children have written them all.
        let late = parent.moves() < c.late_moves as usize;
        let weights = ScoreWeights {
            explore: if exploration > 0.0 {
                exploration * ((parent_visits as f32).ln()).sqrt()
            } else {
                0.0
            },
            inv_k: if !c.rave {
                0.0
            } else if late {
                1.0 / c.late_rave_equivalence
            } else {
                1.0 / c.rave_equivalence
            },
            rave: if c.rave { 1.0 } else { 0.0 },
            prior_visits: c.prior_visits,
            prior_rave_visits: c.prior_rave_visits,
            prior_bias: c.prior_bias,
            first_play_urgency: c.first_play_urgency,
        };
        let (mut children, mut amaf) = tree.slots(range);
        // 1. The memo: a well-visited node takes the child of its last scan again while that
        //    child's score stays above the runner-up's of that scan.
        let memo_slot = (c.memo_span > 0 && parent_visits >= c.memo_visits)
            .then_some(node as usize & (MEMOS - 1));
        if let Some(slot) = memo_slot {
            if self.memos.is_empty() {
                self.memos = vec![Memo::default(); MEMOS];
            }
            let memo = self.memos[slot];
            if memo.node == node && parent_visits < memo.until {
                let i = (memo.child as usize).wrapping_sub(first);
                if let (Some(child), Some(a)) = (children.get(i), amaf.get(i)) {
                    let pending = own_edges.and_then(|e| e.get(i)).copied();
                    if child.proven() == UNPROVEN
                        && weights.score_one(child, a, pending) >= memo.runner_up
                    {
                        return memo.child;
                    }
                }
            }
        }
        if c.widen > 0.0 {
            let width = widen_width(c.widen, parent_visits).min(children.len());
            children = &children[..width];
            amaf = &amaf[..width];
        }
        // 2. Every child's score, in three passes over the children: their statistics read
        //    into columns, the scores computed from the columns (a loop the compiler
        //    vectorises), the best taken. By perf (side 5), selection is about half of a
        //    plain search's time; one pass that read, scored and compared each child in turn
        //    made 248,000 to 255,000 playouts a second in `omega bench` (`mcts-plain`), the
        //    three passes with the prefetch of `Tree::prefetch_children` 273,000 to 281,000.
        let len = children.len();
        let any_proven = self.columns.read(children, amaf);
        if let Some(edges) = own_edges {
            self.columns.add_own(edges);
        }
        let scores = &mut self.scores;
        if scores.len() < len {
            scores.resize(len, 0.0);
        }
        let scores = &mut scores[..len];
        weights.score(&self.columns, scores);
        // 3. The best child, and the runner-up's score for the memo. A proven child is
        //    taken at once if it wins for the mover, and only when nothing else is left if
        //    it loses.
        let (best, runner_up) = if any_proven {
            let mut best = (f32::NEG_INFINITY, first);
            let mut runner_up = f32::NEG_INFINITY;
            let mut best_lost = (f32::NEG_INFINITY, first);
            for (i, (&q, child)) in scores.iter().zip(children).enumerate() {
                let proven = child.proven();
                if proven != UNPROVEN {
                    if proven as usize == mover {
                        return (first + i) as NodeId;
                    }
                    if q > best_lost.0 {
                        best_lost = (q, first + i);
                    }
                    continue;
                }
                if q > best.0 {
                    runner_up = best.0;
                    best = (q, first + i);
                } else if q > runner_up {
                    runner_up = q;
                }
            }
            if best.0 == f32::NEG_INFINITY {
                return best_lost.1 as NodeId;
            }
            (best, runner_up)
        } else {
            let (i, q, runner_up) = best_two(scores);
            ((q, first + i), runner_up)
        };
        if let Some(slot) = memo_slot {
            self.memos[slot] = Memo {
                node,
                child: best.1 as NodeId,
                until: parent_visits.saturating_add(c.memo_span),
                runner_up,
            };
        }
        best.1 as NodeId
    }
}

/// The index of the first highest of `scores`, that score, and the highest of the others
/// (the runner-up's; equal to the best on a tie), or `(0, -inf, -inf)` when empty.
/// Contract: no score is NaN.
///
/// The same as one pass that keeps the best and the runner-up, but without its branches,
/// which the scores' order made hard to predict (by perf on side 5, that pass was two
/// fifths of the selection's own time): each of eight lanes keeps its two highest with
/// `max` and `min`, which the compiler turns into vector instructions, then the lanes are
/// merged and the first index of the best found.
#[inline]
fn best_two(scores: &[f32]) -> (usize, f32, f32) {
    const LANES: usize = 8;
    // `>` rather than `f32::max`: no NaN to handle, so one instruction (maxps, minps).
    let max = |a: f32, b: f32| if a > b { a } else { b };
    let min = |a: f32, b: f32| if a < b { a } else { b };
    let mut top = [f32::NEG_INFINITY; LANES];
    let mut second = [f32::NEG_INFINITY; LANES];
    let mut chunks = scores.chunks_exact(LANES);
    for chunk in chunks.by_ref() {
        for j in 0..LANES {
            second[j] = max(second[j], min(top[j], chunk[j]));
            top[j] = max(top[j], chunk[j]);
        }
    }
    for (j, &q) in chunks.remainder().iter().enumerate() {
        second[j] = max(second[j], min(top[j], q));
        top[j] = max(top[j], q);
    }
    let (mut best, mut runner_up) = (f32::NEG_INFINITY, f32::NEG_INFINITY);
    for j in 0..LANES {
        runner_up = max(max(runner_up, second[j]), min(best, top[j]));
        best = max(best, top[j]);
    }
    let index = scores.iter().position(|&q| q == best).unwrap_or(0);
    (index, best, runner_up)
}

/// The constants of a selection's UCT-RAVE score at one node (see [`ScoreWeights::score`]).
struct ScoreWeights {
    /// `c sqrt(ln N)` for the parent's N visits (0 = no exploration term).
    explore: f32,
    /// 1 / the RAVE equivalence (0 without RAVE).
    inv_k: f32,
    /// 1 with RAVE, 0 without.
    rave: f32,
    prior_visits: f32,
    prior_rave_visits: f32,
    prior_bias: f32,
    first_play_urgency: f32,
}

impl ScoreWeights {
    /// Scores the children whose statistics are `edges` into `scores` (the same length):
    /// the move's own mean and its AMAF mean, each with the prior's virtual playouts,
    /// mixed as `(v (1 + m / k) + r) / (m + n + n m / k)` (Gelly and Silver's RAVE with
    /// equivalence k, written over one denominator), plus the UCT and progressive-bias
    /// terms when they are on. A child with no playouts at all scores the first-play
    /// urgency.
    ///
    /// Contract: every column of `edges` is at least as long as `scores`. Straight-line
    /// arithmetic over the columns, so that the compiler can vectorise it.
    #[inline]
    fn score(&self, edges: &EdgeStats, scores: &mut [f32]) {
        let len = scores.len();
        let (visits, value) = (&edges.visits[..len], &edges.value[..len]);
        let (amaf_visits, amaf_value) = (&edges.amaf_visits[..len], &edges.amaf_value[..len]);
        let prior = &edges.prior[..len];
        for i in 0..len {
            scores[i] = self.mean(visits[i], value[i], amaf_visits[i], amaf_value[i], prior[i]);
        }
        if self.additive() {
            for i in 0..len {
                scores[i] += self.nudge(visits[i], prior[i]);
            }
        }
    }

    /// The score of one child, as [`ScoreWeights::score`] computes it.
    /// `pending`: this thread's unwritten (visits, reward sum) of the child, if it keeps any.
    fn score_one(&self, child: &AtomicNode, a: &Amaf, pending: Option<(u32, f64)>) -> f32 {
        let (own_visits, own_value) = pending.unwrap_or((0, 0.0));
        let visits = (child.visits() + own_visits) as f32;
        let value = (child.value() + own_value) as f32;
        let prior = child.prior();
        let mean = self.mean(visits, value, a.visits(), a.value(), prior);
        if self.additive() {
            mean + self.nudge(visits, prior)
        } else {
            mean
        }
    }

    /// The terms outside the RAVE mean are on.
    #[inline]
    fn additive(&self) -> bool {
        self.explore > 0.0 || self.prior_bias > 0.0
    }

    /// The RAVE mean of a child, its prior's virtual playouts included.
    #[inline(always)]
    fn mean(&self, visits: f32, value: f32, amaf_visits: f32, amaf_value: f32, prior: f32) -> f32 {
        let n = visits + self.prior_visits;
        let v = value + self.prior_visits * prior;
        let m = self.rave * (amaf_visits + self.prior_rave_visits);
        let r = self.rave * (amaf_value + self.prior_rave_visits * prior);
        let den = m + n + n * m * self.inv_k;
        let q = (v * (1.0 + m * self.inv_k) + r) / den;
        if den > 0.0 {
            q
        } else {
            self.first_play_urgency
        }
    }

    /// The UCT exploration and progressive-bias terms of a child.
    #[inline(always)]
    fn nudge(&self, visits: f32, prior: f32) -> f32 {
        let root = (visits + 1.0).sqrt();
        self.explore / root + self.prior_bias * prior / (root * root)
    }
}

/// The statistics of a node's children as columns of f32 (see [`ScoreWeights::score`]).
#[derive(Default)]
struct EdgeStats {
    visits: Vec<f32>,
    value: Vec<f32>,
    amaf_visits: Vec<f32>,
    amaf_value: Vec<f32>,
    prior: Vec<f32>,
}

impl EdgeStats {
    /// Reads the statistics of `children` and their `amaf` (equally long) into the first
    /// columns' entries, growing them if needed; returns whether some child is proven.
    fn read(&mut self, children: &[AtomicNode], amaf: &[Amaf]) -> bool {
        let len = children.len();
        if self.visits.len() < len {
            for column in [
                &mut self.visits,
                &mut self.value,
                &mut self.amaf_visits,
                &mut self.amaf_value,
                &mut self.prior,
            ] {
                column.resize(len, 0.0);
            }
        }
        // Every slice cut to `len` first, so that the loop indexes without bounds checks.
        let (children, amaf) = (&children[..len], &amaf[..len]);
        let (visits, value) = (&mut self.visits[..len], &mut self.value[..len]);
        let (amaf_visits, amaf_value) = (&mut self.amaf_visits[..len], &mut self.amaf_value[..len]);
        let prior = &mut self.prior[..len];
        let mut proven = false;
        for i in 0..len {
            let (child, a) = (&children[i], &amaf[i]);
            visits[i] = child.visits() as f32;
            value[i] = child.value() as f32;
            amaf_visits[i] = a.visits();
            amaf_value[i] = a.value();
            prior[i] = child.prior();
            proven |= child.proven() != UNPROVEN;
        }
        proven
    }

    /// Adds a thread's unwritten (visits, reward sum) of the children, first child first, to
    /// the columns read (see [`deferred::Deferred::own_edges`]).
    fn add_own(&mut self, edges: &[(u32, f64)]) {
        let len = edges.len().min(self.visits.len());
        for (i, &(visits, value)) in edges[..len].iter().enumerate() {
            self.visits[i] += visits as f32;
            self.value[i] += value as f32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A centred prior keeps the ends and the order, and puts an average move (0.5) on the
    /// mover's mean: with 4 players and a mean of 0.1, a move the patterns like (0.8) is
    /// worth 0.64, not 0.8.
    #[test]
    fn centred_priors_keep_the_order_and_put_the_average_on_the_mean() {
        for mean in [0.05, 0.25, 0.5, 0.9] {
            assert_eq!(centre_prior(0.0, mean), 0.0);
            assert!((centre_prior(0.5, mean) - mean).abs() < 1e-6);
            assert!((centre_prior(1.0, mean) - 1.0).abs() < 1e-6);
            let mapped: Vec<f32> = (0..=20)
                .map(|i| centre_prior(i as f32 / 20.0, mean))
                .collect();
            assert!(
                mapped.windows(2).all(|w| w[0] < w[1]),
                "mean {mean}: {mapped:?}"
            );
        }
        assert!((centre_prior(0.8, 0.1) - 0.64).abs() < 1e-6);
        // With a mean of 0.5 nothing moves.
        assert!((centre_prior(0.3, 0.5) - 0.3).abs() < 1e-6);
    }

    #[test]
    fn best_two_is_the_first_best_and_the_runner_up() {
        // The one-pass loop it replaces: the first index of the best, the best of the rest.
        fn by_loop(scores: &[f32]) -> (usize, f32, f32) {
            let (mut best, mut runner_up) = ((0, f32::NEG_INFINITY), f32::NEG_INFINITY);
            for (i, &q) in scores.iter().enumerate() {
                if q > best.1 {
                    runner_up = best.1;
                    best = (i, q);
                } else if q > runner_up {
                    runner_up = q;
                }
            }
            (best.0, best.1, runner_up)
        }
        let mut rng = FastRng::new(7);
        for len in 0..40 {
            for _ in 0..50 {
                // Few distinct values, so that ties at the top and below it are common.
                let scores: Vec<f32> = (0..len).map(|_| (rng.below(6) as f32) * 0.25).collect();
                assert_eq!(best_two(&scores), by_loop(&scores), "{scores:?}");
            }
        }
        assert_eq!(
            best_two(&[f32::NEG_INFINITY, 1.0]),
            (1, 1.0, f32::NEG_INFINITY)
        );
    }

    /// The scan's scores (three passes over columns) are the scores the memo computes for one
    /// child, follow the RAVE formula, and give the first-play urgency to an unvisited child:
    /// the memo's "still above the runner-up" test compares like with like.
    #[test]
    fn column_scores_are_the_single_child_scores() {
        let tree: Tree<u16> = Tree::new(64);
        let moves: Vec<u16> = (0..9).collect();
        let priors: Vec<f32> = (0..9).map(|i| i as f32 / 10.0).collect();
        let first = tree
            .add_children(&mut Slab::default(), &moves, |m| m as usize, &priors)
            .unwrap() as usize;
        let (children, amaf) = tree.slots(first..first + 9);
        for (i, (child, a)) in children.iter().zip(amaf).enumerate().skip(1) {
            for _ in 0..i * 3 {
                child.add_visit();
            }
            child.add_value(i as f64);
            a.add((10 * i) as f32, (7 * i % 11) as f32);
        }
        for (explore, prior_bias) in [(0.0, 0.0), (0.4, 0.0), (0.0, 0.5)] {
            let weights = ScoreWeights {
                explore,
                inv_k: 1.0 / 1000.0,
                rave: 1.0,
                prior_visits: 2.0,
                prior_rave_visits: 20.0,
                prior_bias,
                first_play_urgency: 1.0,
            };
            let mut columns = EdgeStats::default();
            assert!(!columns.read(children, amaf));
            let mut scores = vec![0.0; 9];
            weights.score(&columns, &mut scores);
            for (i, (child, a)) in children.iter().zip(amaf).enumerate() {
                assert_eq!(scores[i], weights.score_one(child, a, None), "child {i}");
                let (n, m) = (child.visits() as f32 + 2.0, a.visits() + 20.0);
                let v = child.value() as f32 + 2.0 * child.prior();
                let r = a.value() + 20.0 * child.prior();
                let k = 1000.0;
                let rave = (v * (1.0 + m / k) + r) / (m + n + n * m / k);
                let root = (child.visits() as f32 + 1.0).sqrt();
                let nudge = explore / root + prior_bias * child.prior() / (root * root);
                assert!((scores[i] - rave - nudge).abs() < 1e-5, "child {i}");
            }
        }
        // Without virtual playouts an unvisited child scores the first-play urgency.
        let weights = ScoreWeights {
            explore: 0.0,
            inv_k: 1.0 / 1000.0,
            rave: 1.0,
            prior_visits: 0.0,
            prior_rave_visits: 0.0,
            prior_bias: 0.0,
            first_play_urgency: 0.75,
        };
        assert_eq!(weights.score_one(&children[0], &amaf[0], None), 0.75);
        // A proven child is reported.
        children[4].set_proven(1);
        assert!(EdgeStats::default().read(children, amaf));
    }

    /// Takes slots of `tree` (writing no node) until it counts `len`.
    fn fill_to(tree: &Tree<u16>, len: usize) {
        tree.take_slots_up_to(len);
        assert_eq!(tree.len(), len);
    }

    /// A game of `plies` picks, the players in turn, each one of `MOVES` moves. With two
    /// players ([`Picks::new`]) the first player wins only if its first pick is the last
    /// move, which the priors rank last; [`Picks::three`] has three players and a winner
    /// given by the picks.
    struct Picks {
        plies: usize,
        players: usize,
        winner: fn(&[u16]) -> usize,
        picked: Vec<u16>,
        /// The AMAF tag of every ply; playouts fill the AMAF board with 1, so a tag of 1
        /// makes every move a hit for AMAF, the default 0 none.
        tag: u8,
    }

    impl Picks {
        fn new(plies: usize) -> Picks {
            Picks {
                plies,
                players: 2,
                winner: |picked| usize::from(picked.first() != Some(&(MOVES - 1))),
                picked: Vec::new(),
                tag: 0,
            }
        }

        fn three(plies: usize, winner: fn(&[u16]) -> usize) -> Picks {
            Picks {
                plies,
                players: 3,
                winner,
                picked: Vec::new(),
                tag: 0,
            }
        }
    }

    const MOVES: u16 = 20;

    impl MctsPosition for Picks {
        type Move = u16;
        fn players(&self) -> usize {
            self.players
        }
        fn mover(&self) -> usize {
            self.picked.len() % self.players
        }
        fn is_terminal(&self) -> bool {
            self.picked.len() == self.plies
        }
        fn moves(&self, out: &mut Vec<u16>) {
            if !self.is_terminal() {
                out.extend(0..MOVES);
            }
        }
        fn play(&mut self, m: u16) {
            self.picked.push(m);
        }
        fn undo(&mut self) {
            self.picked.pop();
        }
        fn amaf_len(&self) -> usize {
            MOVES as usize
        }
        fn amaf_key(m: u16) -> usize {
            m as usize
        }
        fn amaf_tag(&self) -> u8 {
            self.tag
        }
        fn priors(&mut self, moves: &[u16], out: &mut Vec<f32>) {
            out.extend(
                moves
                    .iter()
                    .map(|&m| if m == MOVES - 1 { 0.1 } else { 0.9 }),
            );
        }
        fn playout(&mut self, _: &mut FastRng, amaf: &mut [u8], rewards: &mut Rewards) -> usize {
            amaf.fill(1);
            let winner = (self.winner)(&self.picked);
            *rewards = [0.0; MAX_PLAYERS];
            rewards[winner] = 1.0;
            winner
        }
    }

    /// A search of `playouts` playouts of `game` with `config`, from a fresh tree.
    fn search_picks(
        config: MctsConfig,
        game: &mut Picks,
        playouts: u64,
    ) -> (Mcts<u16>, Progress<u16>) {
        let mut mcts: Mcts<u16> = Mcts::new(config, 1);
        let limits = MctsLimits {
            start: Instant::now(),
            time: None,
            playouts: Some(playouts),
            settle: None,
        };
        let progress = mcts.search(game, limits, None, |_, _| {}).unwrap();
        (mcts, progress)
    }

    #[test]
    fn a_lazily_expanded_node_is_not_proven_lost_before_every_move_is_written() {
        let config = MctsConfig {
            widen: 1.0,
            lazy_children: true,
            prior_rave_visits: 20.0,
            ..MctsConfig::default()
        };
        let (_, progress) = search_picks(config, &mut Picks::new(1), 20_000);
        // The first children written are all lost; the win is found once the width grows.
        assert_eq!(progress.proven, Some(0));
        assert_eq!(progress.pv, vec![MOVES - 1]);
        assert!(progress.playouts > LAZY_BLOCK as u64);
    }

    /// With `rave_min_visits` the RAVE backup leaves alone the children of nodes with fewer
    /// playouts: the root's children gather AMAF playouts, the children of a node with fewer
    /// than 50 keep none (no priors, no inheritance here); without it both gather.
    #[test]
    fn the_rave_backup_skips_the_nodes_below_its_threshold() {
        for min in [0, 50] {
            let config = MctsConfig {
                solver: false,
                exploration: 1.0,
                rave_min_visits: min,
                ..MctsConfig::default()
            };
            // Three players and a winner that every pick can change: the visits spread.
            let mut game = Picks::three(4, |p| p.iter().map(|&m| m as usize).sum::<usize>() % 3);
            game.tag = 1;
            let (mcts, _) = search_picks(config, &mut game, 3_000);
            let tree = &mcts.tree;
            let amaf_playouts = |node: NodeId| -> f32 {
                let range = tree.at(node).children();
                tree.slots(range).1.iter().map(|a| a.visits()).sum()
            };
            assert!(amaf_playouts(0) > 0.0, "min {min}: the root's children");
            let small: Vec<NodeId> = (0..tree.len() as NodeId)
                .filter(|&n| tree.at(n).is_expanded() && tree.at(n).visits() < 50)
                .collect();
            assert!(small.len() > 5, "{}", small.len());
            for n in small {
                let got = amaf_playouts(n);
                if min == 0 {
                    assert!(got > 0.0, "node {n}");
                } else {
                    assert_eq!(got, 0.0, "node {n}");
                }
            }
        }
    }

    /// `late_moves` switches a node to `late_rave_equivalence` when it has fewer moves than
    /// that, and only then. One pick of 20, the last of which alone wins, and every move an
    /// AMAF hit: the AMAF values of all the root's children are the same mostly lost
    /// playouts, so the more they weigh (a huge equivalence), the fewer playouts the winning
    /// move gets.
    #[test]
    fn late_nodes_mix_the_amaf_values_with_their_own_equivalence() {
        let winning_visits = |late_moves: u32| {
            let config = MctsConfig {
                solver: false,
                exploration: 1.0,
                late_moves,
                late_rave_equivalence: 1e9,
                ..MctsConfig::default()
            };
            let mut game = Picks::new(1);
            game.tag = 1;
            let (mcts, _) = search_picks(config, &mut game, 5_000);
            let tree = &mcts.tree;
            let last = tree.child(0, MOVES - 1).unwrap();
            tree.at(last).visits()
        };
        let default = winning_visits(0);
        assert_eq!(winning_visits(MOVES as u32), default);
        let late = winning_visits(MOVES as u32 + 1);
        assert!(default > 3_000 && late < default - 500, "{default} {late}");
    }

    /// With `prior_own_only` the searching player's nodes get the priors and the
    /// opponent's nodes none (every child 0.5); with `prior_others_only` the other way
    /// round; without either both get them.
    #[test]
    fn priors_at_one_side_leave_the_other_sides_moves_equal() {
        for (own_only, others_only) in [(false, false), (true, false), (false, true)] {
            let config = MctsConfig {
                prior_rave_visits: 20.0,
                prior_own_only: own_only,
                prior_others_only: others_only,
                solver: false,
                ..MctsConfig::default()
            };
            let (mcts, _) = search_picks(config, &mut Picks::new(2), 5_000);
            let tree = &mcts.tree;
            let priors = |node: NodeId| -> Vec<f32> {
                let range = tree.at(node).children();
                tree.slots(range).0.iter().map(|c| c.prior()).collect()
            };
            let last_move = MOVES as usize - 1;
            let root = priors(0);
            assert_eq!(root.len(), MOVES as usize);
            if others_only {
                assert!(root.iter().all(|&p| p == 0.5), "others_only: {root:?}");
            } else {
                assert_eq!(root[last_move], 0.1);
                assert!(root[..last_move].iter().all(|&p| p == 0.9));
            }
            let expanded: Vec<NodeId> = tree
                .at(0)
                .children()
                .map(|c| c as NodeId)
                .filter(|&c| tree.at(c).is_expanded())
                .collect();
            assert!(!expanded.is_empty());
            for child in expanded {
                let replies = priors(child);
                assert_eq!(
                    replies[last_move],
                    if own_only { 0.5 } else { 0.1 },
                    "own_only {own_only}, others_only {others_only}"
                );
            }
        }
    }

    /// With three players, the second player's pick decides between the root's mover
    /// (player 0) and the third player, never for itself. For itself (max^n) every move is
    /// a loss; with `paranoid = 1` a move that makes the root's mover lose is a win for it,
    /// and with 0.5 half a win.
    #[test]
    fn paranoid_opponents_score_the_root_movers_loss() {
        for (paranoid, third_wins) in [(0.0, 0.0), (0.5, 0.5), (1.0, 1.0)] {
            let config = MctsConfig {
                paranoid,
                solver: false,
                ..MctsConfig::default()
            };
            // Move 0 of the second pick makes the third player win, any other the first.
            let winner = |picked: &[u16]| if picked.get(1) == Some(&0) { 2 } else { 0 };
            let (mcts, _) = search_picks(config, &mut Picks::three(2, winner), 20_000);
            let tree = &mcts.tree;
            let reply = tree.at(0).children().next().unwrap() as NodeId;
            assert!(tree.at(reply).is_expanded());
            for c in tree.at(reply).children() {
                let child = tree.get(c as NodeId);
                if child.visits == 0 {
                    continue;
                }
                let mean = child.value / child.visits as f64;
                let expected = if child.mv == 0 { third_wins } else { 0.0 };
                assert!(
                    (mean - expected).abs() < 1e-6,
                    "paranoid {paranoid}: move {} mean {mean}",
                    child.mv
                );
            }
            // The root's mover: every second pick but 0 wins for it, whatever the setting.
            assert!(tree.get(reply).value > 0.0);
        }
    }

    /// The game of the pruning tests: the first player to pick anything but 0 loses, so
    /// the search follows the line of zeros, 40 picks long.
    fn zeros() -> Picks {
        Picks {
            plies: 40,
            players: 2,
            winner: |picked| match picked.iter().position(|&m| m != 0) {
                Some(i) => 1 - i % 2,
                None => 1,
            },
            picked: Vec::new(),
            tag: 0,
        }
    }

    /// The pruning tests' search: room for 400 nodes (20 expansions of [`zeros`]), no
    /// solver (every move of the first player loses).
    fn small_arena() -> MctsConfig {
        MctsConfig {
            solver: false,
            max_nodes: 400,
            ..MctsConfig::default()
        }
    }

    /// Asserts that every node of the most visited line with 500 playouts or more has
    /// children, and that at least 4 such nodes lead down the line. (Deep in the line every
    /// move of the first player loses, so the line need not stay on the zeros.)
    fn assert_line_grown(tree: &Tree<u16>, plies: usize) {
        let mut node: NodeId = 0;
        let mut depth = 0;
        while tree.at(node).visits() >= 500 && depth < plies {
            let children = tree.at(node).children();
            assert!(
                !children.is_empty(),
                "depth {depth}: {} playouts and no children",
                tree.at(node).visits()
            );
            node = children
                .max_by_key(|&c| tree.at(c as NodeId).visits())
                .unwrap() as NodeId;
            depth += 1;
        }
        assert!(
            depth >= 4,
            "the line of 500 playouts or more is {depth} deep"
        );
    }

    /// A search whose arena fills prunes the tree and goes on growing it. The arena has
    /// room for 400 nodes, 20 expansions. With 30,000 playouts the search makes every
    /// playout, the tree stays in its arena, and the line is grown ([`assert_line_grown`]);
    /// without pruning, the line ended in a leaf that had gathered thousands of playouts
    /// after the arena filled, each scored by one random playout.
    #[test]
    fn a_full_tree_is_pruned_and_the_search_goes_on_growing() {
        let mut game = zeros();
        let (mcts, progress) = search_picks(small_arena(), &mut game, 30_000);
        assert_eq!(progress.playouts, 30_000);
        assert!(mcts.tree.len() <= mcts.tree.capacity());
        assert_line_grown(&mcts.tree, game.plies);
    }

    /// A tree that starts a search full (the search before filled it and did not prune,
    /// and the root has not moved since) is pruned too, though the first round makes no
    /// playout.
    #[test]
    fn a_tree_full_from_the_search_before_is_pruned() {
        let mut game = zeros();
        let (mut mcts, _) = search_picks(small_arena(), &mut game, 16);
        fill_to(&mcts.tree, 400);
        assert!(mcts
            .tree
            .add_children(&mut Slab::default(), &[1], |m| m as usize, &[])
            .is_none());
        assert!(mcts.tree.is_full());
        let limits = MctsLimits {
            start: Instant::now(),
            time: None,
            playouts: Some(30_000),
            settle: None,
        };
        let progress = mcts.search(&mut game, limits, None, |_, _| {}).unwrap();
        assert_eq!(progress.playouts, 30_000);
        assert_line_grown(&mcts.tree, game.plies);
    }

    #[test]
    fn expansion_waits_longer_as_the_arena_fills() {
        let tree: Tree<u16> = Tree::new(1600);
        // Up to half full: the configured threshold, also 0 (expand on the first visit).
        fill_to(&tree, 800);
        assert_eq!(expand_threshold(1, &tree), 1);
        assert_eq!(expand_threshold(0, &tree), 0);
        assert_eq!(expand_threshold(2, &tree), 2);
        // Then doubled for each further eighth, up to 16 times.
        fill_to(&tree, 801);
        assert_eq!(expand_threshold(1, &tree), 2);
        assert_eq!(expand_threshold(0, &tree), 2);
        fill_to(&tree, 1000);
        assert_eq!(expand_threshold(1, &tree), 4);
        fill_to(&tree, 1200);
        assert_eq!(expand_threshold(2, &tree), 16);
        fill_to(&tree, 1600);
        assert_eq!(expand_threshold(1, &tree), 16);
        assert_eq!(expand_threshold(2, &tree), 32);
    }

    #[test]
    fn expansion_waits_longer_on_bigger_boards() {
        // Off: the configured visits whatever the moves.
        assert_eq!(expand_visits_for(1, 0, 271), 1);
        assert_eq!(expand_visits_for(0, 0, 271), 0);
        // One visit for every 64 moves, rounded: 1 below 96 moves, 2 from 96, 3 from 160
        // (side 8 has 169 cells), 4 from 224 (side 10 has 271).
        for (moves, visits) in [
            (61, 1),
            (95, 1),
            (96, 2),
            (159, 2),
            (169, 3),
            (224, 4),
            (271, 4),
        ] {
            assert_eq!(expand_visits_for(1, 64, moves), visits, "{moves} moves");
        }
        assert_eq!(expand_visits_for(2, 64, 271), 8);
        // Expansion on the first visit stays so on small boards, not on big ones.
        assert_eq!(expand_visits_for(0, 64, 61), 0);
        assert_eq!(expand_visits_for(0, 64, 271), 4);
        assert_eq!(expand_visits_for(u32::MAX, 64, 271), u32::MAX);
    }

    /// The descent reads the parent's moves: with 20 moves a node and `expand_moves` 6, a
    /// leaf waits for 3 playouts instead of 1, so the same playouts grow a tree of fewer
    /// nodes, and no node below the root is expanded with fewer than 4 playouts.
    #[test]
    fn the_descent_waits_by_the_parents_moves() {
        let grown = |expand_moves| {
            let config = MctsConfig {
                expand_visits: 1,
                expand_moves,
                solver: false,
                ..MctsConfig::default()
            };
            // A game whose winner follows the parity of the picks: every line is as good
            // as another, so the search spreads and expands many leaves.
            let mut game = Picks {
                plies: 6,
                players: 2,
                winner: |picked| picked.iter().map(|&m| m as usize).sum::<usize>() % 2,
                picked: Vec::new(),
                tag: 0,
            };
            let (mcts, _) = search_picks(config, &mut game, 5_000);
            let tree = &mcts.tree;
            let fewest = (1..tree.len())
                .map(|id| tree.at(id as NodeId))
                .filter(|n| n.is_expanded())
                .map(|n| n.visits())
                .min()
                .unwrap();
            (tree.len(), fewest)
        };
        let (nodes_before, _) = grown(0);
        let (nodes, fewest) = grown(6);
        assert!(
            nodes * 3 < nodes_before * 2,
            "{nodes} nodes against {nodes_before}"
        );
        assert!(fewest >= 4, "an expanded node with {fewest} playouts");
    }
}

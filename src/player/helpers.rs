//! The threads of the tree search beyond the first, in one of two ways (`--set
//! parallel=root|tree`):
//! - root parallelism (Chaslot, Winands & van den Herik, "Parallel Monte-Carlo Tree Search",
//!   2008), `mcts-plain`'s way: every extra thread searches a tree of its own from the same
//!   position with its own random numbers, and the turn is read off the visits summed over
//!   all the trees. The trees share nothing while they search, so the playouts scale with
//!   the cores (1.7x-2.0x with two threads here), and each tree is as reproducible under a
//!   playout limit as a single one; but each tree is as deep as one thread makes it.
//! - tree parallelism with virtual loss ([`Mcts::search_threads`]), the default `mcts`'s
//!   way: all threads search the one tree. Its nodes are shared cache lines, and RAVE
//!   updates every sibling on a playout's path, so the busiest nodes' RAVE backups are
//!   summed by each thread and written every few playouts (`mcts/deferred.rs`): 1.1x-1.7x
//!   the playouts of one thread on the 2-core machine, and at 1 s a turn stronger than two
//!   trees (README, "Threads").

use crate::board::Cell;
use crate::mcts::{Mcts, MctsConfig, MctsLimits, NodeId, Progress, UNPROVEN};
use crate::playout::{OmegaTree, Scratch};
use crate::stop::Stop;
use std::time::Duration;

/// One extra thread's tree (root parallelism) and playout buffers (both ways).
pub struct Helper {
    pub mcts: Mcts<Cell>,
    pub scratch: Scratch,
}

impl Helper {
    /// Its searches end when `stop` is raised.
    pub fn new(config: MctsConfig, seed: u64, stop: Stop) -> Helper {
        let mut mcts = Mcts::new(config, seed);
        mcts.set_stop(stop);
        Helper {
            mcts,
            scratch: Scratch::default(),
        }
    }
}

/// How much earlier than the main thread the helpers stop on the clock: about one time
/// slice of the scheduler, so that a helper waiting for a core still ends in time.
const HELPER_LEAD: Duration = Duration::from_millis(10);

/// Root parallelism: `main` searches `positions[0]` on this thread (reporting as
/// [`Mcts::search`] does) while each of `trees` searches the next position on a thread of
/// its own, reseeded from `seed`. Returns the main search's last snapshot and the other
/// threads' playouts. Under a playout limit each thread makes its own playouts
/// (reproducible); on the clock, or when stopped, all end with the main one (`stop` is
/// raised then: the trees' own stop signal).
///
/// Contract: one position for `main` and one for each tree, every tree's root the position.
pub fn root_parallel(
    main: &mut Mcts<Cell>,
    trees: Vec<&mut Mcts<Cell>>,
    positions: &mut [OmegaTree],
    limits: MctsLimits,
    seed: u64,
    stop: &Stop,
    (every, report): (Duration, impl FnMut(&Mcts<Cell>, &Progress<Cell>)),
) -> (Option<Progress<Cell>>, u64) {
    let Some((first, others)) = positions.split_first_mut() else {
        return (None, 0);
    };
    stop.lower();
    // The helpers stop a little before the main thread, so that they have ended when it
    // joins them: a helper that waits for a core when the main thread ends would make the
    // turn late (with the other core busy, 0.05 s turns took up to 57 ms that way). Whether
    // the turn is settled is the main thread's call, on its tree; it then stops the helpers
    // (a helper settling on its own tree would leave its core idle while the main one
    // searches on).
    let helper_limits = MctsLimits {
        time: limits
            .time
            .map(|t| t.saturating_sub(HELPER_LEAD.min(t / 4))),
        settle: None,
        ..limits
    };
    std::thread::scope(|scope| {
        let threads: Vec<_> = trees
            .into_iter()
            .zip(others)
            .enumerate()
            .map(|(i, (tree, position))| {
                tree.reseed(crate::game::mix64(seed ^ (i as u64 + 1)));
                scope.spawn(move || {
                    tree.search(position, helper_limits, None, |_, _| {})
                        .map_or(0, |p| p.playouts)
                })
            })
            .collect();
        let last = main.search(first, limits, Some(every), report);
        if limits.playouts.is_none() || main.is_stopped() {
            stop.raise();
        }
        let others = threads.into_iter().map(|t| t.join().unwrap_or(0)).sum();
        (last, others)
    })
}

/// The line from the common root by the most playouts summed over `trees`, at most
/// `max_len` moves: at each step a proven result of any tree decides (its winning move), else
/// the move with the most visits over the trees' unproven children; the line ends where no
/// tree has gone further.
pub fn merged_line(trees: &[&Mcts<Cell>], max_len: usize) -> Vec<Cell> {
    let mut at: Vec<Option<NodeId>> = vec![Some(0); trees.len()];
    let mut line = Vec::new();
    while line.len() < max_len {
        let proven = trees.iter().zip(&at).find_map(|(t, &n)| {
            let n = n?;
            (t.tree().at(n).proven() != UNPROVEN)
                .then(|| t.best_child(n))
                .flatten()
                .map(|c| t.tree().at(c).mv())
        });
        let mv = match proven {
            Some(mv) => Some(mv),
            None => most_visited(trees, &at),
        };
        let Some(mv) = mv else { break };
        line.push(mv);
        for (t, n) in trees.iter().zip(at.iter_mut()) {
            *n = n.and_then(|n| t.tree().child(n, mv));
        }
    }
    line
}

/// The move with the most visits summed over the trees' children of `at` that are not
/// proven (an unproven node's proven child is a loss for its mover), or failing that the
/// first tree's best child.
fn most_visited(trees: &[&Mcts<Cell>], at: &[Option<NodeId>]) -> Option<Cell> {
    let mut tally: Vec<(Cell, u64)> = Vec::new();
    for (t, n) in trees.iter().zip(at) {
        let Some(n) = *n else { continue };
        for c in t.tree().at(n).children() {
            let child = t.tree().get(c as NodeId);
            if child.visits == 0 || child.proven != UNPROVEN {
                continue;
            }
            match tally.iter_mut().find(|(mv, _)| *mv == child.mv) {
                Some(entry) => entry.1 += child.visits as u64,
                None => tally.push((child.mv, child.visits as u64)),
            }
        }
    }
    // Ties go to the first move seen, so the choice does not depend on the order of a scan.
    let best = tally
        .iter()
        .fold(None, |best: Option<(Cell, u64)>, &(mv, v)| match best {
            Some((_, b)) if b >= v => best,
            _ => Some((mv, v)),
        });
    best.map(|(mv, _)| mv).or_else(|| {
        trees.iter().zip(at).find_map(|(t, &n)| {
            let c = t.best_child(n?)?;
            Some(t.tree().at(c).mv())
        })
    })
}

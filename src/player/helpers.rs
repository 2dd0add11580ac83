//! More threads for the tree search by root parallelism (Chaslot, Winands & van den Herik,
//! "Parallel Monte-Carlo Tree Search", 2008): every extra thread searches a tree of its own
//! from the same position with its own random numbers, and the turn is read off the visits
//! summed over all the trees. The trees share nothing while they search, so the playouts
//! scale with the cores, and each tree is as reproducible under a playout limit as a single
//! one. Chaslot et al. found it as strong as tree parallelism with virtual loss at the
//! thread counts of a desktop machine.

use crate::board::Cell;
use crate::game::Game;
use crate::mcts::{Mcts, MctsConfig, MctsLimits, NodeId, UNPROVEN};
use crate::playout::{OmegaTree, PlayoutConfig, Scratch};
use crate::stop::Stop;

/// One extra thread's tree and buffers.
pub struct Helper {
    mcts: Mcts<Cell>,
    scratch: Scratch,
}

impl Helper {
    pub fn new(config: MctsConfig, seed: u64, stop: Stop) -> Helper {
        let mut mcts = Mcts::new(config, seed);
        mcts.set_stop(stop);
        Helper {
            mcts,
            scratch: Scratch::default(),
        }
    }

    pub fn tree(&self) -> &Mcts<Cell> {
        &self.mcts
    }

    pub fn clear(&mut self) {
        self.mcts.clear();
    }

    /// Moves the root along `moves` (see [`Mcts::advance`]), or clears the tree.
    pub fn advance(&mut self, moves: &[Cell]) {
        if !self.mcts.advance(moves) {
            self.mcts.clear();
        }
    }

    /// Searches `game` until the limits and returns the playouts made. Contract: the tree's
    /// root is `game`.
    pub fn search(
        &mut self,
        game: &mut Game,
        limits: MctsLimits,
        config: PlayoutConfig,
        seed: u64,
    ) -> u64 {
        if !self.scratch.fits(game) {
            self.scratch = Scratch::new(game);
        }
        self.mcts.reseed(seed);
        let mut tree = OmegaTree::new(game, &mut self.scratch, config);
        let last = self.mcts.search(&mut tree, limits, None, |_, _| {});
        last.map_or(0, |p| p.playouts)
    }
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
            let nodes = &t.tree().nodes;
            (nodes[n as usize].proven != UNPROVEN)
                .then(|| t.best_child(n))
                .flatten()
                .map(|c| nodes[c as usize].mv)
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
        let nodes = &t.tree().nodes;
        for child in &nodes[nodes[n as usize].children()] {
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
            Some(t.tree().nodes[c as usize].mv)
        })
    })
}

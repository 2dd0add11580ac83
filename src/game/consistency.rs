//! The from-scratch check of everything [`Game`] keeps incrementally, for the tests.

use super::{tables::zobrist, ColourState, Game, EMPTY, MAX_PLAYERS};

impl Game {
    /// Rebuilds groups, scores, counters, hash and the empty list from the stones alone and
    /// compares them with the incremental state. For tests; O(cells).
    pub fn check_consistency(&self) -> Result<(), String> {
        let n = self.board.cell_count();
        let mut expected = [ColourState::default(); MAX_PLAYERS];
        let mut hash = 0u64;
        let mut seen = vec![false; n];
        for start in self.board.cells() {
            let Some(colour) = self.stone(start) else {
                continue;
            };
            hash ^= zobrist(colour.index(), start);
            if seen[start as usize] {
                continue;
            }
            // Flood fill one group.
            let mut stack = vec![start];
            let mut members = Vec::new();
            seen[start as usize] = true;
            while let Some(c) = stack.pop() {
                members.push(c);
                for &nb in self.board.neighbours(c) {
                    if !seen[nb as usize] && self.stone(nb) == Some(colour) {
                        seen[nb as usize] = true;
                        stack.push(nb);
                    }
                }
            }
            let state = &mut expected[colour.index()];
            state.score = state.score.max(1) * members.len() as u128;
            state.stones += members.len() as u16;
            state.add_group(members.len(), 1);
            let root = self.root(start);
            if self.size[root as usize] as usize != members.len() {
                return Err(format!(
                    "group at {} has size {} but union-find says {}",
                    self.board.name(start),
                    members.len(),
                    self.size[root as usize]
                ));
            }
            let mut listed = 1;
            let mut m = self.next[root as usize];
            while m != root && listed <= members.len() {
                listed += 1;
                m = self.next[m as usize];
            }
            if listed != members.len() {
                return Err(format!(
                    "member list of {} is wrong",
                    self.board.name(start)
                ));
            }
            for &m in &members {
                if self.root(m) != root {
                    return Err(format!(
                        "{} not in the union-find group of {}",
                        self.board.name(m),
                        self.board.name(start)
                    ));
                }
            }
        }
        if expected != self.colours {
            return Err(format!(
                "colour states differ: recount {:?}, incremental {:?}",
                &expected[..self.players],
                &self.colours[..self.players]
            ));
        }
        if hash != self.hash {
            return Err("hash differs from recount".into());
        }
        let empty_count = self.stone[..n].iter().filter(|&&s| s == EMPTY).count();
        let placed = self.history.len();
        let k = self.players;
        if (self.phase as usize, self.mover as usize) != (placed % k, placed / k % k) {
            return Err("turn counters differ from the history".into());
        }
        if empty_count != self.empties.len() || empty_count + self.history.len() != n {
            return Err("empty list has the wrong length".into());
        }
        for c in self.board.cells() {
            let touching = self
                .board
                .neighbours(c)
                .iter()
                .filter(|&&m| self.stone[m as usize] != EMPTY)
                .count();
            if touching != self.stone_neighbours[c as usize] as usize {
                return Err(format!(
                    "stone neighbour count wrong at {}",
                    self.board.name(c)
                ));
            }
        }
        for (i, &c) in self.empties.iter().enumerate() {
            if self.stone[c as usize] != EMPTY || self.empty_index[c as usize] as usize != i {
                return Err(format!("empty list wrong at {}", self.board.name(c)));
            }
        }
        for (i, p) in self.history.iter().enumerate() {
            if p.colour as usize != i % self.players || self.stone[p.cell as usize] != p.colour {
                return Err("history does not match the stones".into());
            }
        }
        Ok(())
    }
}

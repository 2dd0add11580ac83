//! Yavalath as a position of the two generic searches (`crate::mcts`, `crate::search`).
//!
//! Two move generators and playout policies:
//! - plain: every legal placement, uniformly random playouts (the baselines);
//! - tactical: a winning cell when there is one; else the block of the opponent's threat
//!   when there is one; else every cell that does not make 3 (unless all do). Playouts follow
//!   the same rule at random: the decisive and anti-decisive moves of Teytaud & Teytaud,
//!   "On the huge benefit of decisive moves in Monte-Carlo Tree Search algorithms" (IEEE CIG
//!   2010), who measured them on Havannah, plus the avoidance of suicidal moves that
//!   Yavalath's 3-loses rule adds. Pruning this way keeps every proof sound: a win is
//!   taken, any other move than the one block loses at once, and so does a suicide.

use super::eval;
use super::players::TREE_FORCED_BUDGET;
use super::threats::forced_win;
use super::{GameResult, Yavalath};
use crate::board::Cell;
use crate::mcts::{FastRng, MctsPosition, Rewards, UNPROVEN};
use crate::search::{Position, Value, WIN};

/// Which evaluation the alpha-beta search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    Simple,
    Threats,
}

/// A game seen by a search.
pub struct YavalathPosition {
    pub game: Yavalath,
    /// Tactical moves and playouts (else plain).
    pub tactical: bool,
    pub eval: Eval,
    /// At most this many plies are searched by the alpha-beta (its "end of the game").
    pub horizon: usize,
    /// With tactical moves, a forced win by at most this many threats (see `threats.rs`)
    /// is the only move (0 = off).
    pub forced_depth: usize,
    buffer: Vec<Cell>,
    /// The copy a playout runs on.
    spare: Yavalath,
    /// The copy the evaluation's forced-win check plays on (`evaluate` takes `&self`).
    probe: std::cell::RefCell<Yavalath>,
}

impl YavalathPosition {
    pub fn new(game: &Yavalath, tactical: bool, eval: Eval) -> YavalathPosition {
        YavalathPosition {
            game: game.clone(),
            tactical,
            eval,
            horizon: usize::MAX,
            forced_depth: 0,
            buffer: Vec::new(),
            spare: game.clone(),
            probe: std::cell::RefCell::new(game.clone()),
        }
    }

    /// The moves the searches expand: [`moves`], or only a forced win when one is found.
    fn tree_moves(&self, out: &mut Vec<Cell>) {
        let start = out.len();
        moves(&self.game, self.tactical, out);
        if self.forced_depth > 0 && out.len() - start > 1 && self.game.players == 2 {
            let mut probe = self.probe.borrow_mut();
            probe.copy_from(&self.game);
            if let Some(c) = forced_win(&mut probe, self.forced_depth, TREE_FORCED_BUDGET) {
                out.truncate(start);
                out.push(c);
            }
        }
    }

    /// The mover of the search: the colour to move, or after the end the one that would
    /// have been (any fixed choice keeps negamax's signs consistent).
    fn search_mover(&self) -> usize {
        self.game.to_move.unwrap_or_else(|| {
            let last = self.game.history.last().map_or(0, |r| r.colour as usize);
            (last + 1) % self.game.players
        })
    }
}

/// The moves of `game` (not over) for its mover, plain or tactical, appended to `out`.
pub fn moves(game: &Yavalath, tactical: bool, out: &mut Vec<Cell>) {
    let Some(mover) = game.to_move else {
        return;
    };
    if !tactical {
        match game.forced_block(mover) {
            Some(b) => out.push(b),
            None => out.extend_from_slice(&game.empties),
        }
        return;
    }
    if let Some(c) = game.win[mover].first() {
        out.push(c);
        return;
    }
    let block = if game.players == 2 {
        game.win[1 - mover].first()
    } else {
        game.forced_block(mover)
    };
    if let Some(b) = block {
        out.push(b);
        return;
    }
    let lose = &game.lose[mover];
    let start = out.len();
    out.extend(game.empties.iter().filter(|&&c| !lose.contains(c)));
    if out.len() == start {
        out.push(game.empties[0]);
    }
}

/// One move of a playout for the mover of `game` (not over).
fn playout_move(game: &Yavalath, tactical: bool, rng: &mut FastRng, buf: &mut Vec<Cell>) -> Cell {
    let mover = game.to_move.expect("not over");
    let empties = &game.empties;
    if !tactical {
        return match game.forced_block(mover) {
            Some(b) => b,
            None => empties[rng.below(empties.len())],
        };
    }
    if let Some(c) = game.win[mover].first() {
        return c;
    }
    let block = if game.players == 2 {
        game.win[1 - mover].first()
    } else {
        game.forced_block(mover)
    };
    if let Some(b) = block {
        return b;
    }
    // A few draws usually find a cell that does not make 3; else choose among those.
    let lose = &game.lose[mover];
    for _ in 0..4 {
        let c = empties[rng.below(empties.len())];
        if !lose.contains(c) {
            return c;
        }
    }
    buf.clear();
    buf.extend(empties.iter().filter(|&&c| !lose.contains(c)));
    if buf.is_empty() {
        empties[rng.below(empties.len())]
    } else {
        buf[rng.below(buf.len())]
    }
}

/// The rewards of a finished game: 1 to the winner; a draw shares 1 among the colours in.
/// Returns the winner, or [`UNPROVEN`] for a draw (a draw proves nothing to the solver).
pub fn score(game: &Yavalath, rewards: &mut Rewards) -> usize {
    *rewards = [0.0; crate::mcts::MAX_PLAYERS];
    match game.result {
        Some(GameResult::Win(c)) => {
            rewards[c] = 1.0;
            c
        }
        _ => {
            let active: Vec<usize> = (0..game.players).filter(|&c| !game.out[c]).collect();
            for &c in &active {
                rewards[c] = 1.0 / active.len() as f32;
            }
            UNPROVEN as usize
        }
    }
}

impl MctsPosition for YavalathPosition {
    type Move = Cell;

    fn players(&self) -> usize {
        self.game.players
    }

    fn mover(&self) -> usize {
        self.search_mover()
    }

    fn is_terminal(&self) -> bool {
        self.game.result.is_some()
    }

    fn moves(&self, out: &mut Vec<Cell>) {
        self.tree_moves(out);
    }

    fn play(&mut self, m: Cell) {
        self.game.place(m);
    }

    fn undo(&mut self) {
        self.game.take_back();
    }

    fn amaf_len(&self) -> usize {
        self.game.stones.len()
    }

    fn amaf_key(m: Cell) -> usize {
        m as usize
    }

    fn amaf_tag(&self) -> u8 {
        self.game.to_move.map_or(0, |c| c as u8 + 1)
    }

    fn playout(&mut self, rng: &mut FastRng, amaf: &mut [u8], rewards: &mut Rewards) -> usize {
        let game = &mut self.spare;
        game.copy_from(&self.game);
        while game.result.is_none() {
            let m = playout_move(game, self.tactical, rng, &mut self.buffer);
            game.place(m);
        }
        amaf.copy_from_slice(&game.stones);
        score(game, rewards)
    }
}

impl Position for YavalathPosition {
    type Move = Cell;

    fn hash(&self) -> u64 {
        self.game.hash()
    }

    fn mover(&self) -> usize {
        self.search_mover()
    }

    fn moves(&self, out: &mut Vec<Cell>) {
        self.tree_moves(out);
    }

    fn undo(&mut self) {
        self.game.take_back();
    }

    fn play(&mut self, m: Cell) {
        self.game.place(m);
    }

    fn at_boundary(&self) -> bool {
        true
    }

    fn last_ply_of_turn(&self) -> bool {
        true
    }

    fn is_terminal(&self) -> bool {
        self.game.result.is_some()
    }

    fn evaluate(&self, player: usize) -> Value {
        match self.game.result {
            // Sooner wins are better: the empty cells left count.
            Some(GameResult::Win(c)) => {
                let v = WIN + self.game.empties.len() as Value;
                if c == player {
                    v
                } else {
                    -v
                }
            }
            Some(GameResult::Draw) => 0,
            None => match self.eval {
                Eval::Simple => eval::simple(&self.game, player),
                Eval::Threats => {
                    let mut probe = self.probe.borrow_mut();
                    probe.copy_from(&self.game);
                    eval::threats(&mut probe, player)
                }
            },
        }
    }

    fn order_score(&self, m: Cell) -> i32 {
        // Stones nearby first: own and others' neighbours, more for threats.
        let g = &self.game;
        let mover = self.search_mover();
        let mut score = 0;
        for &n in g.board().neighbours(m) {
            score += (g.stones[n as usize] != 0) as i32;
        }
        for c in 0..g.players {
            if g.win[c].contains(m) {
                score += if c == mover { 100 } else { 50 };
            }
        }
        score
    }

    fn move_slot(&self, m: Cell) -> usize {
        m as usize
    }

    fn move_slots(&self) -> usize {
        self.game.stones.len()
    }

    fn plies_left(&self) -> usize {
        self.game.empties.len().min(self.horizon)
    }
}

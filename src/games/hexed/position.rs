//! Hexed as a position of the generic searches: [`crate::search::Position`] (alpha-beta)
//! and [`crate::mcts::MctsPosition`] (the tree search).
//!
//! A ply is one placement (or the swap). Passes are not plies: when the colour to move
//! next has no placement, the same colour moves again, so every ply fills a cell and
//! `plies_left` (the empty cells) bounds the game exactly. Players are seats (0 is the
//! player who held red at the start), so that after a swap the search still knows whose
//! value it maximises.

use super::eval::{self, Weights};
use super::geometry::{cells, first_cell, Bits, CELLS, VALID};
use super::state::State;
use super::Hexed;
use crate::mcts::{FastRng, MctsPosition, Rewards};
use crate::search::{Position, Value, WIN};

/// The swap as a move of the searches (cells are 0..59).
pub const SWAP: u16 = CELLS as u16;

/// How the alpha-beta values a position that is not over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Evaluation {
    /// Own stones minus the other colour's (the `minimax6` baseline).
    StoneCount,
    Heuristic(Weights),
}

#[derive(Clone, Copy, Debug)]
struct Node {
    state: State,
    /// The placements of the colour to move (none only at the end).
    placements: Bits,
    /// Moves played since the start of the game (only 0, 1 and more matter: the swap).
    plies: u16,
    over: bool,
}

impl Node {
    fn new(state: State, plies: u16) -> Node {
        let mut node = Node {
            state,
            placements: 0,
            plies,
            over: false,
        };
        node.settle();
        node
    }

    /// After a move: the colour to move passes when it must; the end when neither can place.
    fn settle(&mut self) {
        self.placements = self.state.placements_of(self.state.mover);
        if self.placements == 0 {
            self.state.pass();
            self.placements = self.state.placements_of(self.state.mover);
            self.over = self.placements == 0;
        }
    }
}

/// A Hexed game as the searches see it.
#[derive(Clone, Debug)]
pub struct HexedPosition {
    node: Node,
    stack: Vec<Node>,
    swap_rule: bool,
    evaluation: Evaluation,
}

impl HexedPosition {
    /// The game's position. Contract: the game is not over and the colour to move has a
    /// placement (a forced pass is the player's to answer, not the search's).
    pub fn new(game: &Hexed, evaluation: Evaluation) -> HexedPosition {
        let plies = game.history.len().min(u16::MAX as usize) as u16;
        HexedPosition {
            node: Node::new(*game.state(), plies),
            stack: Vec::with_capacity(64),
            swap_rule: game.swap_rule,
            evaluation,
        }
    }

    fn swap_allowed(&self) -> bool {
        self.swap_rule && self.node.plies == 1 && !self.node.over
    }

    /// The final value for colour `colour`: beyond `±WIN`, growing with the margin.
    fn result_value(&self, colour: usize) -> Value {
        let s = &self.node.state;
        let diff = s.count(colour) as Value - s.count(1 - colour) as Value;
        match diff {
            0 => 0,
            d if d > 0 => WIN + d,
            d => -WIN + d,
        }
    }
}

impl Position for HexedPosition {
    type Move = u16;

    fn moves(&self, out: &mut Vec<u16>) {
        if self.node.over {
            return;
        }
        out.extend(cells(self.node.placements).map(|c| c as u16));
        if self.swap_allowed() {
            out.push(SWAP);
        }
    }

    fn play(&mut self, m: u16) {
        self.stack.push(self.node);
        let n = &mut self.node;
        if m == SWAP {
            n.state.swap();
        } else {
            let flipped = n.state.flips_of(m as usize);
            n.state.place(m as usize, flipped);
            n.settle();
        }
        n.plies = n.plies.saturating_add(1);
    }

    fn undo(&mut self) {
        if let Some(n) = self.stack.pop() {
            self.node = n;
        }
    }

    fn hash(&self) -> u64 {
        self.node.state.hash
    }

    fn mover(&self) -> usize {
        self.node.state.seat_of(self.node.state.mover)
    }

    fn at_boundary(&self) -> bool {
        true
    }

    fn last_ply_of_turn(&self) -> bool {
        true
    }

    fn is_terminal(&self) -> bool {
        self.node.over
    }

    fn evaluate(&self, player: usize) -> Value {
        let colour = self.node.state.seat_of(player);
        if self.node.over {
            return self.result_value(colour);
        }
        let s = &self.node.state;
        match &self.evaluation {
            Evaluation::StoneCount => s.count(colour) as Value - s.count(1 - colour) as Value,
            Evaluation::Heuristic(w) => eval::evaluate(s, colour, self.node.placements, w),
        }
    }

    fn order_score(&self, m: u16) -> i32 {
        if m == SWAP {
            0
        } else {
            eval::order_score(&self.node.state, m as usize)
        }
    }

    fn move_slot(&self, m: u16) -> usize {
        m as usize
    }

    fn move_slots(&self) -> usize {
        CELLS + 1
    }

    fn plies_left(&self) -> usize {
        self.node.state.empties().count_ones() as usize + self.swap_allowed() as usize
    }
}

/// AMAF tags: the cell ended with red (1) or green (2); 0 empty.
const TAG_OF_COLOUR: [u8; 2] = [1, 2];

impl MctsPosition for HexedPosition {
    type Move = u16;

    fn players(&self) -> usize {
        2
    }

    fn mover(&self) -> usize {
        Position::mover(self)
    }

    fn is_terminal(&self) -> bool {
        self.node.over
    }

    fn moves(&self, out: &mut Vec<u16>) {
        Position::moves(self, out);
    }

    fn play(&mut self, m: u16) {
        Position::play(self, m);
    }

    fn undo(&mut self) {
        Position::undo(self);
    }

    fn amaf_len(&self) -> usize {
        CELLS + 1
    }

    fn amaf_key(m: u16) -> usize {
        m as usize
    }

    fn amaf_tag(&self) -> u8 {
        TAG_OF_COLOUR[self.node.state.mover]
    }

    /// Uniformly random placements (passing when one must) to the end, on a copy.
    fn playout(&mut self, rng: &mut FastRng, amaf: &mut [u8], rewards: &mut Rewards) -> usize {
        let mut n = self.node;
        while !n.over {
            let mut choice = n.placements;
            for _ in 0..rng.below(choice.count_ones() as usize) {
                choice &= choice - 1;
            }
            let cell = first_cell(choice);
            let flipped = n.state.flips_of(cell);
            n.state.place(cell, flipped);
            n.settle();
        }
        let s = &n.state;
        amaf.fill(0);
        for (&stones, &tag) in s.stones.iter().zip(&TAG_OF_COLOUR) {
            for c in cells(stones & VALID) {
                amaf[c] = tag;
            }
        }
        *rewards = [0.0; crate::mcts::MAX_PLAYERS];
        let (red, green) = (s.count(0), s.count(1));
        let winner_colour = match red.cmp(&green) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => {
                rewards[0] = 0.5;
                rewards[1] = 0.5;
                return 0;
            }
        };
        let winner = s.seat_of(winner_colour);
        rewards[winner] = 1.0;
        winner
    }
}

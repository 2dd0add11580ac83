//! Yavalath (Cameron Browne, 2007) on the hexhex board: each player places one stone of its
//! colour a turn; a placement that makes an unbroken line of 4 or more of the mover's stones
//! wins, one that makes a line of exactly 3 (and no 4) loses. A full board is a draw.
//!
//! Two players (white first) with the swap rule: on black's first turn black may `swap`.
//! In colour terms: the stones keep their colours, the two players exchange colours, and
//! black (now held by the player who placed the first, white, stone) moves next: `swap` is a
//! move of black after which black is to move again. `final_score` reports colours.
//!
//! Three players (white, black, red): a player must block the next player's immediate win
//! when it can (one cell would give that player 4 and this move does not win at once); a
//! player who makes 3 without 4 is out (its stones stay) and is skipped; the first to make 4,
//! or the last one left, wins.
//!
//! The state is incremental: besides the stones, for every colour the empty cells where its
//! stone would win (make 4) and where it would lose (make exactly 3), so that the searches
//! see threats at once; a Zobrist hash of the stones, the mover, the colours out and the swap.

mod bench;
mod eval;
mod lines;
mod players;
mod position;
mod render;
mod threats;

pub use lines::CellSet;
pub use players::{opening_values, PLAYER_NAMES};

use super::{GameMove, GamePlayer, GameResult, Rules, SetupError};
use crate::board::Cell;
use crate::player::PlayerOptions;
use crate::search::exact::{self, ExactStats, RootChild, Solution};
use crate::stop::Stop;
use lines::{Geometry, NONE, REACH};
use position::{Eval, YavalathPosition};
use std::sync::Arc;

const COLOURS_2: &[&str] = &["white", "black"];
const COLOURS_3: &[&str] = &["white", "black", "red"];
/// `final_score`'s letter of each colour's win.
const WIN_LETTERS: [&str; 3] = ["W+", "B+", "R+"];
pub const MIN_SIDE: usize = 3;
pub const MAX_SIDE: usize = 8;

/// What `undo` restores besides the stone.
#[derive(Clone, Copy, Debug)]
struct Record {
    colour: u8,
    mv: GameMove,
    to_move: Option<usize>,
    result: Option<GameResult>,
    out: [bool; 3],
}

/// A game of Yavalath: the set-up, the stones, the threats and the history.
#[derive(Clone, Debug)]
pub struct Yavalath {
    geo: Arc<Geometry>,
    players: usize,
    swap_rule: bool,
    /// 0 empty, else colour + 1; one more entry for [`lines::NONE`] is never read.
    stones: Vec<u8>,
    /// The empty cells in any order, and each empty cell's index in it.
    empties: Vec<Cell>,
    slot: Vec<u16>,
    /// For each colour, the empty cells where its stone would make 4 or more (`win`), and
    /// where it would make exactly 3 and no 4 (`lose`).
    win: [CellSet; 3],
    lose: [CellSet; 3],
    /// Zobrist hash of the stones alone.
    stone_hash: u64,
    to_move: Option<usize>,
    out: [bool; 3],
    result: Option<GameResult>,
    swapped: bool,
    history: Vec<Record>,
}

impl Yavalath {
    /// The cells, as the game numbers them (the board's own numbering).
    /// The root's moves for the exact solver (`solve`, the resistance of lost positions):
    /// after any move, the swap included, the other player moves. The move generator's
    /// forced moves (a win, the one block) prune soundly, and a win by threats that the
    /// threat search finds is the only move tried (see `position.rs`, `threats.rs`).
    /// Contract: two players, the game not over.
    pub fn exact_children(&self) -> Vec<RootChild<GameMove, YavalathPosition>> {
        let position = |g: &Yavalath| {
            let mut p = YavalathPosition::new(g, true, Eval::Simple);
            p.forced_depth = players::TREE_FORCED_DEPTH;
            p
        };
        super::root_children(self, position, |_, _| false)
    }

    pub fn board(&self) -> &crate::board::Board {
        &self.geo.board
    }

    pub fn empties(&self) -> &[Cell] {
        &self.empties
    }

    /// The stone on `cell`: `Some(colour)` or `None` when empty.
    pub fn stone(&self, cell: Cell) -> Option<usize> {
        self.stones[cell as usize].checked_sub(1).map(usize::from)
    }

    /// The empty cells where a stone of `colour` would make 4 or more.
    pub fn wins(&self, colour: usize) -> &CellSet {
        &self.win[colour]
    }

    /// The empty cells where a stone of `colour` would make exactly 3 (and no 4).
    pub fn losses(&self, colour: usize) -> &CellSet {
        &self.lose[colour]
    }

    pub fn is_out(&self, colour: usize) -> bool {
        self.out[colour]
    }

    /// The last stone placed, if the last move was a placement.
    pub fn last_cell(&self) -> Option<Cell> {
        match self.history.last()?.mv {
            GameMove::Place(c) => Some(c),
            _ => None,
        }
    }

    pub fn stones_placed(&self) -> usize {
        self.geo.cells() - self.empties.len()
    }

    /// The hash of everything that decides the future: stones, mover, colours out, swap.
    pub fn hash(&self) -> u64 {
        let mut h = self.stone_hash;
        if let Some(m) = self.to_move {
            h ^= self.geo.mover_key[m];
        }
        for c in 0..self.players {
            if self.out[c] {
                h ^= self.geo.out_key[c];
            }
        }
        if self.swapped {
            h ^= self.geo.swap_key;
        }
        h
    }

    /// Whether the mover may swap now (the rule on, two players, black's first turn).
    pub fn can_swap(&self) -> bool {
        self.swap_rule
            && self.players == 2
            && self.history.len() == 1
            && self.to_move == Some(1)
            && matches!(self.history[0].mv, GameMove::Place(_))
    }

    /// The colour after `colour` in the order of play that is still in.
    pub fn next_active(&self, colour: usize) -> usize {
        let mut c = (colour + 1) % self.players;
        while self.out[c] && c != colour {
            c = (c + 1) % self.players;
        }
        c
    }

    /// In a three-player game, the one cell the mover must take to stop the next player's
    /// immediate win, when there is exactly one such cell and the mover cannot win at once
    /// (then every other placement is illegal). `None` with two players.
    pub fn forced_block(&self, colour: usize) -> Option<Cell> {
        if self.players < 3 || !self.win[colour].is_empty() {
            return None;
        }
        let threats = &self.win[self.next_active(colour)];
        (threats.len() == 1).then(|| threats.first()).flatten()
    }

    /// Places a stone of the mover's colour on the empty `cell`. Contract: the game is not
    /// over, `cell` is empty and legal (see [`Rules::check`]).
    pub fn place(&mut self, cell: Cell) {
        let colour = self.to_move.expect("the game is not over");
        self.history.push(Record {
            colour: colour as u8,
            mv: GameMove::Place(cell),
            to_move: self.to_move,
            result: self.result,
            out: self.out,
        });
        let wins = self.win[colour].contains(cell);
        let loses = self.lose[colour].contains(cell);
        self.put(cell, colour as u8 + 1);
        // The end: 4 wins; else 3 loses (two players) or puts the mover out (three).
        let next = self.next_active(colour);
        if wins {
            self.result = Some(GameResult::Win(colour));
        } else if loses {
            self.out[colour] = true;
            if self.next_active(next) == next {
                self.result = Some(GameResult::Win(next));
            }
        }
        if self.result.is_none() && self.empties.is_empty() {
            self.result = Some(GameResult::Draw);
        }
        self.to_move = self.result.is_none().then_some(next);
    }

    /// Takes back the last move (placement or swap); false when there is none.
    pub fn take_back(&mut self) -> bool {
        let Some(r) = self.history.pop() else {
            return false;
        };
        match r.mv {
            GameMove::Place(cell) => self.put(cell, 0),
            GameMove::Swap => self.swapped = false,
            GameMove::Pass => {}
        }
        self.to_move = r.to_move;
        self.result = r.result;
        self.out = r.out;
        true
    }

    /// Sets `cell` to `mark` (0 empty, colour + 1) and brings the empties, the hash and the
    /// threat sets of the cells it can affect up to date.
    fn put(&mut self, cell: Cell, mark: u8) {
        let old = self.stones[cell as usize];
        if old != 0 {
            self.stone_hash ^= self.geo.key(old as usize - 1, cell);
        }
        if mark != 0 {
            self.stone_hash ^= self.geo.key(mark as usize - 1, cell);
            let i = self.slot[cell as usize] as usize;
            let last = *self.empties.last().expect("cell was empty");
            self.empties.swap_remove(i);
            if last != cell {
                self.slot[last as usize] = i as u16;
            }
        } else {
            // The exact inverse of the removal (undo is last in, first out): the cell goes
            // back to its old index (still in `slot`), the cell that took it to the end.
            let i = self.slot[cell as usize] as usize;
            if i < self.empties.len() {
                let moved = self.empties[i];
                self.slot[moved as usize] = self.empties.len() as u16;
                self.empties.push(moved);
                self.empties[i] = cell;
            } else {
                self.slot[cell as usize] = self.empties.len() as u16;
                self.empties.push(cell);
            }
        }
        self.stones[cell as usize] = mark;
        self.refresh(cell);
        for d in 0..6 {
            let mut c = self.geo.step(cell, d);
            for _ in 0..REACH {
                if c == NONE {
                    break;
                }
                self.refresh(c);
                c = self.geo.step(c, d);
            }
        }
    }

    /// Recomputes whether each colour would win or lose at `cell`.
    fn refresh(&mut self, cell: Cell) {
        let empty = self.stones[cell as usize] == 0;
        for colour in 0..self.players {
            let (win, lose) = if empty {
                let (longest, three) = self.geo.runs(&self.stones, cell, colour as u8 + 1);
                (longest >= 4, longest < 4 && three)
            } else {
                (false, false)
            };
            self.win[colour].set(cell, win);
            self.lose[colour].set(cell, lose);
        }
    }

    /// Makes this game a copy of `from` (same set-up), reusing its memory: a playout runs
    /// on a copy instead of taking back every stone.
    pub fn copy_from(&mut self, from: &Yavalath) {
        self.geo.clone_from(&from.geo);
        self.players = from.players;
        self.swap_rule = from.swap_rule;
        self.stones.clone_from(&from.stones);
        self.empties.clone_from(&from.empties);
        self.slot.clone_from(&from.slot);
        self.win = from.win;
        self.lose = from.lose;
        self.stone_hash = from.stone_hash;
        self.to_move = from.to_move;
        self.out = from.out;
        self.result = from.result;
        self.swapped = from.swapped;
        self.history.clone_from(&from.history);
    }

    /// The threat sets and hash recomputed from the stones alone (for tests: they must equal
    /// the incremental ones).
    pub fn recount(&self) -> ([CellSet; 3], [CellSet; 3], u64) {
        let (mut win, mut lose) = ([CellSet::default(); 3], [CellSet::default(); 3]);
        let mut hash = 0;
        for cell in self.board().cells() {
            match self.stone(cell) {
                Some(c) => hash ^= self.geo.key(c, cell),
                None => {
                    for colour in 0..self.players {
                        let (longest, three) = self.geo.runs(&self.stones, cell, colour as u8 + 1);
                        win[colour].set(cell, longest >= 4);
                        lose[colour].set(cell, longest < 4 && three);
                    }
                }
            }
        }
        (win, lose, hash)
    }

    /// The incremental threat sets and stone hash, to compare with [`Yavalath::recount`].
    pub fn incremental(&self) -> ([CellSet; 3], [CellSet; 3], u64) {
        (self.win, self.lose, self.stone_hash)
    }

    /// Whether the empty list agrees with the stones.
    pub fn empties_consistent(&self) -> bool {
        let mut listed = CellSet::default();
        for (i, &c) in self.empties.iter().enumerate() {
            if self.stones[c as usize] != 0 || self.slot[c as usize] as usize != i {
                return false;
            }
            listed.set(c, true);
        }
        self.board()
            .cells()
            .all(|c| listed.contains(c) == (self.stones[c as usize] == 0))
    }
}

impl Rules for Yavalath {
    const NAME: &'static str = "yavalath";
    const DEFAULT_SIDE: usize = 5;
    const DEFAULT_PLAYERS: usize = 2;
    const DEFAULT_SWAP: bool = true;

    fn new(side: usize, players: usize, swap: bool) -> Result<Self, SetupError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
            return Err(SetupError::Size);
        }
        if !(2..=3).contains(&players) {
            return Err(SetupError::Players);
        }
        let geo = Arc::new(Geometry::new(side));
        let n = geo.cells();
        Ok(Yavalath {
            players,
            swap_rule: swap,
            stones: vec![0; n + 1],
            empties: (0..n as Cell).collect(),
            slot: (0..n as u16).collect(),
            win: Default::default(),
            lose: Default::default(),
            stone_hash: 0,
            to_move: Some(0),
            out: [false; 3],
            result: None,
            swapped: false,
            history: Vec::new(),
            geo,
        })
    }

    fn cleared(&self) -> Self {
        let mut g = self.clone();
        while g.take_back() {}
        g
    }

    fn side(&self) -> usize {
        self.geo.board.side()
    }

    fn players(&self) -> usize {
        self.players
    }

    fn set_swap_rule(&mut self, on: bool) {
        self.swap_rule = on;
    }

    fn legal_moves(&self) -> Vec<GameMove> {
        let Some(mover) = self.to_move() else {
            return Vec::new();
        };
        let mut moves: Vec<GameMove> = self
            .empties
            .iter()
            .map(|&c| GameMove::Place(c))
            .filter(|&m| self.check(mover, m).is_ok())
            .collect();
        if self.can_swap() {
            moves.push(GameMove::Swap);
        }
        moves
    }

    fn swap_rule(&self) -> bool {
        self.swap_rule
    }

    fn colour_names(&self) -> &'static [&'static str] {
        if self.players == 3 {
            COLOURS_3
        } else {
            COLOURS_2
        }
    }

    fn to_move(&self) -> Option<usize> {
        self.to_move
    }

    fn is_over(&self) -> bool {
        self.result.is_some()
    }

    fn result(&self) -> Option<GameResult> {
        self.result
    }

    fn parse_move(&self, word: &str) -> Result<GameMove, String> {
        match word.to_ascii_lowercase().as_str() {
            "swap" => Ok(GameMove::Swap),
            "pass" => Ok(GameMove::Pass),
            _ => self
                .board()
                .parse(word)
                .map(GameMove::Place)
                .map_err(|e| e.to_string()),
        }
    }

    fn move_name(&self, m: GameMove) -> String {
        match m {
            GameMove::Place(c) if (c as usize) < self.geo.cells() => self.board().name(c),
            GameMove::Place(c) => format!("cell#{c}"),
            GameMove::Swap => "swap".to_string(),
            GameMove::Pass => "pass".to_string(),
        }
    }

    fn check(&self, colour: usize, m: GameMove) -> Result<(), String> {
        let names = self.colour_names();
        let Some(mover) = self.to_move else {
            return Err("the game is over".to_string());
        };
        if colour != mover {
            let who = names.get(colour).copied().unwrap_or("that colour");
            return Err(format!("{who} is not to move ({} is)", names[mover]));
        }
        match m {
            GameMove::Pass => Err("there is no passing in yavalath".to_string()),
            GameMove::Swap if !self.swap_rule => Err("the swap rule is off".to_string()),
            GameMove::Swap if self.players != 2 => {
                Err("there is no swap with three players".to_string())
            }
            GameMove::Swap if !self.can_swap() => {
                Err("swap is only allowed on black's first turn".to_string())
            }
            GameMove::Swap => Ok(()),
            GameMove::Place(c) if c as usize >= self.geo.cells() => {
                Err(format!("{} is off the board", self.move_name(m)))
            }
            GameMove::Place(c) if self.stones[c as usize] != 0 => {
                Err(format!("{} is occupied", self.board().name(c)))
            }
            GameMove::Place(c) => match self.forced_block(colour) {
                Some(b) if b != c => Err(format!(
                    "{} must block {}'s win at {}",
                    names[colour],
                    names[self.next_active(colour)],
                    self.board().name(b)
                )),
                _ => Ok(()),
            },
        }
    }

    fn play(&mut self, m: GameMove) {
        match m {
            GameMove::Place(c) => self.place(c),
            GameMove::Swap => {
                self.history.push(Record {
                    colour: 1,
                    mv: GameMove::Swap,
                    to_move: self.to_move,
                    result: self.result,
                    out: self.out,
                });
                self.swapped = true;
            }
            GameMove::Pass => {}
        }
    }

    fn undo(&mut self) -> bool {
        self.take_back()
    }

    fn history(&self) -> Vec<(usize, GameMove)> {
        self.history
            .iter()
            .map(|r| (r.colour as usize, r.mv))
            .collect()
    }

    fn draw(&self) -> String {
        render::draw(self)
    }

    fn stones(&self, colour: usize) -> Vec<String> {
        self.board()
            .cells()
            .filter(|&c| self.stone(c) == Some(colour))
            .map(|c| self.board().name(c))
            .collect()
    }

    fn score(&self) -> String {
        let names = self.colour_names();
        (0..self.players)
            .map(|c| {
                let n = self.board().cells().filter(|&x| self.stone(x) == Some(c));
                format!("{} {}", names[c], n.count())
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn final_score(&self) -> String {
        match self.result {
            Some(GameResult::Win(c)) => WIN_LETTERS[c].to_string(),
            Some(GameResult::Draw) => "0".to_string(),
            None => "unknown".to_string(),
        }
    }

    fn player(
        name: &str,
        options: &PlayerOptions,
        stop: Stop,
    ) -> Option<Box<dyn GamePlayer<Self>>> {
        players::make(name, options, stop)
    }

    fn player_names() -> &'static [&'static str] {
        PLAYER_NAMES
    }

    /// Two players only: see [`Yavalath::exact_children`].
    fn solve(
        &self,
        limit: std::time::Duration,
        stop: &Stop,
    ) -> Option<(Solution<GameMove>, ExactStats)> {
        Some(exact::solve(
            self.exact_children(),
            exact::ExactLimit::Time(limit),
            stop,
        ))
    }

    fn bench(options: &PlayerOptions) -> String {
        bench::run(options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str) -> Yavalath {
        let mut g = Yavalath::new(5, 2, false).unwrap();
        for w in moves.split_whitespace() {
            let m = g.parse_move(w).unwrap();
            g.check(g.to_move().unwrap(), m).unwrap();
            g.play(m);
        }
        g
    }

    #[test]
    fn threat_sets_follow_the_stones() {
        // White a1 b1 (row 1 runs a1..e1): c1 makes 3 (loses), d1 makes ... a1 b1 _ d1.
        let g = game("a1 e5 b1 e6");
        let c1 = g.board().parse("c1").unwrap();
        assert!(g.losses(0).contains(c1));
        assert!(!g.wins(0).contains(c1));
        let g = game("a1 e5 b1 e6 d1 e8");
        assert!(g.wins(0).contains(c1), "a1 b1 _ d1: c1 makes 4");
        assert_eq!(g.recount(), g.incremental());
    }
}

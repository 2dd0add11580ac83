//! The rules of Omega: stones, turns, groups, scores, the end of the game.
//!
//! Groups are kept by a union-find with union by size, in its quick-find form: every stone
//! carries the label (root) of its group, and a union relabels the smaller groups, walking
//! their members through a circular member list. A find is then one read, and there is no
//! path compression to undo: every placement is taken back exactly from an undo log (the
//! unions it made, in reverse). Union by size keeps the relabelling at O(log n) a stone.
//!
//! Each colour's score (the exact product of its group sizes) and a few shape counters used
//! by the evaluation are kept current at every placement; nothing here ever recounts the
//! board, except [`Game::check_consistency`], which exists to check exactly that.
//!
//! Two levels of moves:
//! - stone level, for the search: [`Game::place`] puts the next stone of the turn (its colour
//!   is implied: white, black, red, blue in order), [`Game::unplace`] takes the last one back;
//! - turn level, for users: [`Game::play_turn`] validates and plays a whole turn,
//!   [`Game::undo_turn`] takes the last whole turn back.

mod colour;
mod consistency;
pub mod last_turn;
mod tables;

pub use colour::{Colour, MoveError, SetupError};
pub use tables::{ln1000, mix64};

use crate::board::{Board, Cell, Coord};
use std::sync::Arc;
use tables::zobrist;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 4;
const MAX_CELLS: usize = 3 * 13 * 12 + 1;
const EMPTY: u8 = u8::MAX;
/// What [`Game::stone_indices`] holds on an empty cell.
pub const NO_STONE: u8 = EMPTY;

/// Sizes at and above this share the last bucket of [`ColourState::size_counts`].
pub const SIZE_BUCKETS: usize = 8;

/// Everything kept per colour, copied whole into the undo log at each placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ColourState {
    /// Product of group sizes; 0 while the colour has no stone. Fits: the largest product
    /// of sizes summing to 235 (side 13, two players) is about 3^78 < 2^128.
    pub score: u128,
    pub stones: u16,
    pub groups: u16,
    /// Sum over groups of `round(1000 ln(size))`: the log-score in fixed point, exact and
    /// reversible, for the evaluation.
    pub log_score: i32,
    /// Number of groups of size 1, 2, ..., SIZE_BUCKETS-1, and SIZE_BUCKETS or more (index
    /// size-1, the last bucket counting all the larger ones).
    pub size_counts: [u16; SIZE_BUCKETS],
}

impl ColourState {
    fn add_group(&mut self, size: usize, sign: i32) {
        self.log_score += sign * ln1000(size);
        let b = size.min(SIZE_BUCKETS) - 1;
        if sign > 0 {
            self.size_counts[b] += 1;
            self.groups += 1;
        } else {
            self.size_counts[b] -= 1;
            self.groups -= 1;
        }
    }
}

/// One placement in the undo log.
#[derive(Clone, Copy, Debug)]
struct Placement {
    cell: Cell,
    colour: u8,
    /// How many entries of `links` this placement pushed.
    links: u8,
    /// Where the cell stood in `empties` before it was taken.
    empty_index: u16,
    before: ColourState,
}

/// One union: the group of root `child` (a root until then) joined the group of `parent`.
#[derive(Clone, Copy, Debug)]
struct Link {
    child: Cell,
    parent: Cell,
}

/// Gives every member of the group listed from `start` the label `root`.
#[inline]
fn relabel(label: &mut [Cell], next: &[Cell], start: Cell, root: Cell) {
    let mut m = start;
    loop {
        label[m as usize] = root;
        m = next[m as usize];
        if m == start {
            break;
        }
    }
}

/// A game of Omega in progress.
#[derive(Clone, Debug)]
pub struct Game {
    board: Arc<Board>,
    players: usize,
    stone: Vec<u8>,
    /// The root of each stone's group (meaningless on empty cells).
    label: Vec<Cell>,
    /// Circular list of each group's members: `next` of a member is another member.
    next: Vec<Cell>,
    /// Group size, meaningful at roots; a former root keeps the size it had when its group
    /// joined another, which is exactly what undo needs to subtract.
    size: Vec<u16>,
    /// Number of stones (of any colour) next to each cell.
    stone_neighbours: Vec<u16>,
    /// The empty cells, in an order that undo restores exactly; `empty_index` is the inverse.
    empties: Vec<Cell>,
    empty_index: Vec<u16>,
    colours: [ColourState; MAX_PLAYERS],
    hash: u64,
    history: Vec<Placement>,
    links: Vec<Link>,
    /// Kept with the history so that the hot path divides nothing: the stones of the current
    /// turn placed so far (the colour of the next stone) and the player to move.
    phase: u8,
    mover: u8,
}

impl Game {
    pub fn new(side: usize, players: usize) -> Result<Game, SetupError> {
        if !Board::side_is_valid(side) {
            return Err(SetupError::Side(side));
        }
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(SetupError::Players(players));
        }
        let board = Arc::new(Board::new(side));
        let n = board.cell_count();
        // Tables read through padded neighbours have an entry for `outside` (index n), which
        // stays empty forever.
        Ok(Game {
            board,
            players,
            stone: vec![EMPTY; n + 1],
            label: (0..=n as Cell).collect(),
            next: (0..=n as Cell).collect(),
            size: vec![1; n + 1],
            stone_neighbours: vec![0; n + 1],
            empties: (0..n as Cell).collect(),
            empty_index: (0..n as u16).collect(),
            colours: [ColourState::default(); MAX_PLAYERS],
            hash: 0,
            history: Vec::with_capacity(n),
            links: Vec::with_capacity(n),
            phase: 0,
            mover: 0,
        })
    }

    /// The same board and players, no stones.
    pub fn cleared(&self) -> Game {
        Game::new(self.board.side(), self.players).expect("valid set-up")
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn players(&self) -> usize {
        self.players
    }

    pub fn colours(&self) -> impl Iterator<Item = Colour> {
        Colour::ALL[..self.players].iter().copied()
    }

    pub fn stone(&self, cell: Cell) -> Option<Colour> {
        let s = self.stone[cell as usize];
        (s != EMPTY).then(|| Colour::from_index(s as usize))
    }

    pub fn empties(&self) -> &[Cell] {
        &self.empties
    }

    pub fn stones_placed(&self) -> usize {
        self.history.len()
    }

    /// Whole turns played so far.
    pub fn turns_played(&self) -> usize {
        self.history.len() / self.players
    }

    /// The player whose turn it is (also in the middle of a turn, at stone level).
    #[inline]
    pub fn to_move(&self) -> Colour {
        Colour::from_index(self.mover as usize)
    }

    /// The colour of the next stone of the current turn.
    #[inline]
    pub fn next_stone_colour(&self) -> Colour {
        Colour::from_index(self.phase as usize)
    }

    #[inline]
    pub fn at_turn_boundary(&self) -> bool {
        self.phase == 0
    }

    /// The game ends just before white's turn when fewer than K*K cells are empty.
    #[inline]
    pub fn is_over(&self) -> bool {
        let k = self.players;
        self.phase == 0 && self.mover == 0 && self.empties.len() < k * k
    }

    /// Whether the next stone ends the game (it completes a round after which fewer than K*K
    /// cells are empty).
    pub fn next_stone_ends_game(&self) -> bool {
        let k = self.players;
        self.phase as usize == k - 1
            && self.mover as usize == k - 1
            && self.empties.len() - 1 < k * k
    }

    /// Whole turns in a complete game: every round of K turns takes K*K cells, and a round
    /// starts only while at least K*K cells are empty.
    pub fn total_turns(&self) -> usize {
        let round = self.players * self.players;
        let cells = self.board.cell_count();
        let rounds = if cells < round {
            0
        } else {
            (cells - round) / round + 1
        };
        rounds * self.players
    }

    /// Whole turns left until the end, counting the current turn if it has begun.
    pub fn turns_left(&self) -> usize {
        self.total_turns() - self.turns_played()
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn colour_state(&self, colour: Colour) -> &ColourState {
        &self.colours[colour.index()]
    }

    pub fn score(&self, colour: Colour) -> u128 {
        self.colours[colour.index()].score
    }

    pub fn scores(&self) -> Vec<u128> {
        self.colours().map(|c| self.score(c)).collect()
    }

    /// The winner by the rules (a tie at the top goes to the tied colour last in colour order)
    /// and the margin over the best other colour.
    pub fn winner(&self) -> (Colour, u128) {
        let best = self.best_of(|_| true).expect("at least two colours");
        let other = self
            .colours()
            .filter(|&c| c != best)
            .map(|c| self.score(c))
            .max()
            .unwrap_or(0);
        (best, self.score(best) - other)
    }

    /// The colour with the highest score among those `allowed`, a tie going to the last in
    /// colour order (the rules' tie rule); `None` if none is allowed.
    pub fn best_of(&self, allowed: impl Fn(Colour) -> bool) -> Option<Colour> {
        let mut best: Option<Colour> = None;
        for c in self.colours().filter(|&c| allowed(c)) {
            if best.is_none_or(|b| self.score(c) >= self.score(b)) {
                best = Some(c);
            }
        }
        best
    }

    /// The root of the group holding `cell` (which must hold a stone).
    #[inline]
    pub fn root(&self, cell: Cell) -> Cell {
        self.label[cell as usize]
    }

    /// Another member of the group of the stone on `cell`: following it from any member
    /// visits the whole group and comes back.
    #[inline]
    pub fn next_member(&self, cell: Cell) -> Cell {
        self.next[cell as usize]
    }

    /// How many stones of any colour touch `cell`.
    #[inline]
    pub fn stone_neighbours(&self, cell: Cell) -> usize {
        self.stone_neighbours[cell as usize] as usize
    }

    /// The distinct groups of colour index `colour` that a stone on `cell` would touch: their
    /// roots in the first `count` entries, and `count`.
    #[inline]
    pub fn touching_groups(&self, cell: Cell, colour: u8) -> ([Cell; 6], usize) {
        let mut roots = [0 as Cell; 6];
        let mut count = 0;
        // Padded: off-board entries read as empty.
        for &nb in self.board.padded_neighbours(cell) {
            if self.stone[nb as usize] == colour {
                let root = self.root(nb);
                if !roots[..count].contains(&root) {
                    roots[count] = root;
                    count += 1;
                }
            }
        }
        (roots, count)
    }

    /// The colour index of the stone on `cell`, or `u8::MAX` when empty (for hot loops).
    #[inline]
    pub fn stone_index(&self, cell: Cell) -> u8 {
        self.stone[cell as usize]
    }

    /// The colour index of the stone on every cell, [`NO_STONE`] on empty ones (one entry a
    /// cell, in cell order): a playout starts from a copy of it.
    pub fn stone_indices(&self) -> &[u8] {
        &self.stone[..self.board.cell_count()]
    }

    /// The group tables, one entry a cell: each stone's root (meaningless on empty cells)
    /// and each root's group size (meaningless elsewhere). A playout's own union-find starts
    /// from copies of them.
    pub fn group_tables(&self) -> (&[Cell], &[u16]) {
        let n = self.board.cell_count();
        (&self.label[..n], &self.size[..n])
    }

    /// The size of the group whose root is `root`.
    #[inline]
    pub fn root_size(&self, root: Cell) -> usize {
        self.size[root as usize] as usize
    }

    /// The size of the group holding `cell` (which must hold a stone).
    pub fn group_size(&self, cell: Cell) -> usize {
        self.size[self.root(cell) as usize] as usize
    }

    /// Places the next stone of the current turn on `cell`.
    ///
    /// Contract: `cell` is empty and the game is not over (checked in debug builds only:
    /// this is the search's hot path; users go through [`Game::play_turn`]).
    pub fn place(&mut self, cell: Cell) {
        debug_assert!(self.stone[cell as usize] == EMPTY && !self.is_over());
        let colour = self.next_stone_colour().index();
        let c8 = colour as u8;
        let board = &*self.board;

        // Distinct neighbouring roots of the same colour: the groups this stone joins.
        let mut roots = [0 as Cell; 6];
        let mut n = 0;
        for &nb in board.padded_neighbours(cell) {
            self.stone_neighbours[nb as usize] += 1;
            if self.stone[nb as usize] == c8 {
                let r = self.label[nb as usize];
                if !roots[..n].contains(&r) {
                    roots[n] = r;
                    n += 1;
                }
            }
        }

        let state = &mut self.colours[colour];
        let before = *state;
        let links_before = self.links.len();
        self.label[cell as usize] = cell;
        self.next[cell as usize] = cell;
        self.size[cell as usize] = 1;
        if n == 0 {
            state.add_group(1, 1);
            if state.stones == 0 {
                state.score = 1;
            }
        } else {
            let roots = &roots[..n];
            let big = *roots
                .iter()
                .max_by_key(|&&r| (self.size[r as usize], r))
                .expect("n > 0");
            let mut total = 1usize;
            let mut product = 1u64;
            for &r in roots {
                let s = self.size[r as usize] as usize;
                total += s;
                product *= s as u64;
                state.add_group(s, -1);
                if r != big {
                    relabel(&mut self.label, &self.next, r, big);
                    self.next.swap(r as usize, big as usize);
                    self.links.push(Link {
                        child: r,
                        parent: big,
                    });
                }
            }
            self.label[cell as usize] = big;
            self.next.swap(cell as usize, big as usize);
            self.links.push(Link {
                child: cell,
                parent: big,
            });
            self.size[big as usize] = total as u16;
            state.add_group(total, 1);
            // Exact: the product holds each merged size as a factor.
            state.score = if state.score <= u64::MAX as u128 {
                ((state.score as u64 / product) as u128) * total as u128
            } else {
                state.score / product as u128 * total as u128
            };
        }
        state.stones += 1;

        self.stone[cell as usize] = c8;
        self.hash ^= zobrist(colour, cell);
        let index = self.empty_index[cell as usize];
        let last = *self.empties.last().expect("an empty cell");
        self.empties.swap_remove(index as usize);
        self.empty_index[last as usize] = index;
        self.history.push(Placement {
            cell,
            colour: c8,
            links: (self.links.len() - links_before) as u8,
            empty_index: index,
            before,
        });
        self.phase += 1;
        if self.phase as usize == self.players {
            self.phase = 0;
            self.mover = if self.mover as usize + 1 == self.players {
                0
            } else {
                self.mover + 1
            };
        }
    }

    /// Takes back the last stone placed. Contract: unplace is called in reverse order of
    /// place, and only when a stone has been placed; the state is then exactly as before.
    pub fn unplace(&mut self) {
        let p = self.history.pop().expect("unplace without place");
        if self.phase == 0 {
            self.phase = self.players as u8 - 1;
            self.mover = if self.mover == 0 {
                self.players as u8 - 1
            } else {
                self.mover - 1
            };
        } else {
            self.phase -= 1;
        }
        for _ in 0..p.links {
            let Link { child, parent } = self.links.pop().expect("link logged");
            // Swapping the same two `next` pointers again splits the member lists apart.
            self.next.swap(child as usize, parent as usize);
            self.size[parent as usize] -= self.size[child as usize];
            relabel(&mut self.label, &self.next, child, child);
        }
        for &nb in self.board.padded_neighbours(p.cell) {
            self.stone_neighbours[nb as usize] -= 1;
        }
        self.colours[p.colour as usize] = p.before;
        self.stone[p.cell as usize] = EMPTY;
        self.hash ^= zobrist(p.colour as usize, p.cell);
        // Reverse the swap_remove: the cell goes back to its index, the moved cell to the end.
        let index = p.empty_index as usize;
        self.empties.push(p.cell);
        let end = self.empties.len() - 1;
        self.empties.swap(index, end);
        self.empty_index[self.empties[index] as usize] = index as u16;
        self.empty_index[self.empties[end] as usize] = end as u16;
    }

    /// Converts coordinates to cells, refusing those off this board.
    pub fn cells_of(&self, coords: &[Coord]) -> Result<Vec<Cell>, MoveError> {
        coords
            .iter()
            .map(|&c| self.board.cell(c).ok_or(MoveError::OffBoard(c)))
            .collect()
    }

    /// Whether `colour` is one of the colours in play.
    pub fn in_game(&self, colour: Colour) -> bool {
        colour.index() < self.players
    }

    /// Checks that `player` is the one to take the next turn: in the game, the game not
    /// over, and its turn.
    pub fn check_mover(&self, player: Colour) -> Result<(), MoveError> {
        if !self.in_game(player) {
            return Err(MoveError::NotPlaying(player));
        }
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if player != self.to_move() {
            return Err(MoveError::NotYourTurn {
                expected: self.to_move(),
                got: player,
            });
        }
        Ok(())
    }

    /// Checks that `player` may play `cells` as a whole turn now, changing nothing.
    pub fn check_turn(&self, player: Colour, cells: &[Cell]) -> Result<(), MoveError> {
        self.check_mover(player)?;
        if cells.len() != self.players {
            return Err(MoveError::WrongStoneCount {
                expected: self.players,
                got: cells.len(),
            });
        }
        for (i, &cell) in cells.iter().enumerate() {
            let coord = self.board.coord(cell);
            if self.stone[cell as usize] != EMPTY {
                return Err(MoveError::Occupied(coord));
            }
            if cells[..i].contains(&cell) {
                return Err(MoveError::Repeated(coord));
            }
        }
        Ok(())
    }

    /// Plays a whole turn for `player`: `cells[k]` gets a stone of colour k. Must be called at
    /// a turn boundary; on error nothing changes.
    pub fn play_turn(&mut self, player: Colour, cells: &[Cell]) -> Result<(), MoveError> {
        debug_assert!(self.at_turn_boundary());
        self.check_turn(player, cells)?;
        for &cell in cells {
            self.place(cell);
        }
        Ok(())
    }

    /// Takes back the last whole turn; false (and nothing changes) at the start of the game.
    pub fn undo_turn(&mut self) -> bool {
        if self.history.len() < self.players {
            return false;
        }
        for _ in 0..self.players {
            self.unplace();
        }
        true
    }

    /// The cell of the last stone placed, if any.
    pub fn last_stone(&self) -> Option<Cell> {
        self.history.last().map(|p| p.cell)
    }

    /// The cell of the stone placed `back` stones before the last one (0: the last), if any.
    pub fn recent_stone(&self, back: usize) -> Option<Cell> {
        let len = self.history.len();
        (back < len).then(|| self.history[len - 1 - back].cell)
    }

    /// The cells of every stone placed so far, in order.
    pub fn stone_history(&self) -> Vec<Cell> {
        self.history.iter().map(|p| p.cell).collect()
    }

    /// The cells of every turn played so far, in order.
    pub fn turn_history(&self) -> Vec<Vec<Cell>> {
        self.history
            .chunks(self.players)
            .map(|t| t.iter().map(|p| p.cell).collect())
            .collect()
    }
}

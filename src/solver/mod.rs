//! An exact solver for two players: who wins the current position with best play, by the
//! rules (a tie goes to black), and a first winning turn.
//!
//! A depth-first AND/OR search over one stone a ply (the mover places its own stone and the
//! opponent's: both plies are the mover's choices), with
//! 1. a table of solved positions keyed by a Zobrist hash that is the same for the 12
//!    images of a position under the hexagon's symmetries (the smallest of the 12 hashes),
//!    so that a position is solved once for all its rotations and reflections;
//! 2. move ordering by the game's strategy: a player's own stone first where it touches
//!    none of its colour (a new small group), the opponent's first where it touches the most
//!    of the opponent's stones (merging its groups);
//! 3. the first winning move cuts the rest (one winning child proves an OR node), and
//!    before any child is searched, one already in the table as a win cuts them all
//!    (enhanced transposition cut-offs: the empty side-3 board took 2.6 million positions
//!    without them, 1.15 million with them);
//! 4. the game's last two turns are not searched stone by stone but computed from the
//!    scores with one or two stones added (see `last_turns_winner`), and only as far as
//!    the mover's first winning choice needs;
//! 5. with several threads, the others search the same position in other orders and share
//!    the table (as lazy SMP shares a transposition table): what one proves, the others
//!    find. An entry is one word, the key with the winner in its lowest bit, so threads
//!    read and write it without locks.
//!
//! The search never prints; it stops at the time limit or the stop signal with `Unknown`.

mod symmetry;

use crate::board::Cell;
use crate::game::{mix64, Colour, Game};
use crate::stop::Stop;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};
pub use symmetry::symmetries;

/// The result of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The time ran out (or the search was stopped) before a proof.
    Unknown,
    /// `winner` wins with best play; `turn` is a first winning turn when the winner is to
    /// move, empty otherwise (and when the game is over).
    Win { winner: Colour, turn: Vec<Cell> },
}

/// What the search did.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Entries of the table of solved positions: 2^(cells + 2), at most 2^23 (64 MiB). On small
/// boards a small table fits the processor's caches (32 MiB of last level on the development
/// machine): the empty side-3 board (19 cells, 2^21 entries, 16 MiB) stores about 1.1
/// million positions and was solved 1.3x faster than with the 64 MiB table.
fn table_entries(cells: usize) -> usize {
    1 << (cells + 2).clamp(12, 23)
}
/// Empty cells when two turns are left, at most (two players: fewer than 4 cells would end
/// the game before white's turn, so at most 7 are empty before the last round).
const LAST_CELLS: usize = 8;
/// Plies below the root where the other threads take the moves in another order.
const REORDER_PLIES: usize = 64;
/// Nodes between two looks at the clock and the stop signal.
const CHECK_EVERY: u64 = 4096;

/// Solves `game` for its two players within `limit` (or until `stop` is raised), with
/// `threads` threads (at least one). Contract: two players, the game at a turn boundary.
pub fn solve(game: &Game, limit: Duration, stop: &Stop, threads: usize) -> (Outcome, Stats) {
    let threads = threads.max(1);
    let start = Instant::now();
    // SAFETY: an AtomicU64 has the representation of a u64, and zero is a valid one. The
    // allocator zeroes the table lazily, page by page, as the search touches it.
    let entries = table_entries(game.board().cell_count());
    let table = unsafe { Box::<[AtomicU64]>::new_zeroed_slice(entries).assume_init() };
    let done = AtomicBool::new(false);
    let shared = Shared {
        table: &table,
        deadline: start + limit,
        stop,
        done: &done,
    };
    let (outcome, nodes) = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map(|i| {
                scope.spawn(move || {
                    let mut helper = Solver::new(game, shared, i, threads);
                    helper.root();
                    helper.nodes
                })
            })
            .collect();
        let mut solver = Solver::new(game, shared, 0, threads);
        let outcome = solver.root();
        done.store(true, Relaxed);
        let others: u64 = helpers.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        (outcome, solver.nodes + others)
    });
    let stats = Stats {
        nodes,
        elapsed: start.elapsed(),
    };
    (outcome, stats)
}

/// What the threads of one solve share.
#[derive(Clone, Copy)]
struct Shared<'a> {
    /// Solved positions: the canonical hash with its lowest bit replaced by the winner.
    table: &'a [AtomicU64],
    deadline: Instant,
    stop: &'a Stop,
    /// Raised when the first thread has its answer: the others stop.
    done: &'a AtomicBool,
}

struct Solver<'a> {
    game: Game,
    /// For each symmetry, the image of every cell.
    images: Vec<Vec<Cell>>,
    /// Random keys by colour and cell.
    keys: Vec<[u64; 2]>,
    /// The hash of the position's image under each symmetry.
    hashes: Vec<u64>,
    shared: Shared<'a>,
    /// 0 for the thread whose answer counts; the others vary the move order by it.
    /// Cut-offs by colour placed, mover's own or not, and cell, weighted by the turns left
    /// (the history heuristic: a stone that won in one position often wins in its siblings).
    history: Vec<u64>,
    /// Move lists by depth, and the buffer they are sorted in.
    lists: Vec<Vec<Cell>>,
    scored: Vec<(i64, Cell)>,
    thread: usize,
    /// The player to move at the root.
    root_mover: Colour,
    /// Stones placed below which the other threads reorder their moves.
    ordered_until: usize,
    /// Threads of the solve.
    threads: usize,
    nodes: u64,
    aborted: bool,
}

impl<'a> Solver<'a> {
    fn new(game: &Game, shared: Shared<'a>, thread: usize, threads: usize) -> Solver<'a> {
        let board = game.board();
        let images = symmetries(board);
        let keys = (0..board.cell_count() as u64)
            .map(|c| [mix64(2 * c + 1), mix64(2 * c + 2)])
            .collect();
        let mut solver = Solver {
            game: game.clone(),
            hashes: vec![0; images.len()],
            images,
            keys,
            shared,
            thread,
            root_mover: game.to_move(),
            ordered_until: game.stones_placed() + REORDER_PLIES,
            threads,
            history: vec![0; 4 * board.cell_count()],
            lists: Vec::new(),
            scored: Vec::new(),
            nodes: 0,
            aborted: false,
        };
        for cell in board.cells() {
            if let Some(colour) = game.stone(cell) {
                solver.toggle(cell, colour.index());
            }
        }
        solver
    }

    /// Adds or removes a stone in every symmetric hash.
    fn toggle(&mut self, cell: Cell, colour: usize) {
        for (hash, image) in self.hashes.iter_mut().zip(&self.images) {
            *hash ^= stone_key(&self.keys, image, cell, colour);
        }
    }

    fn place(&mut self, cell: Cell) {
        let colour = self.game.next_stone_colour().index();
        self.game.place(cell);
        self.toggle(cell, colour);
    }

    fn unplace(&mut self, cell: Cell) {
        self.game.unplace();
        // The stone taken back is of the colour to be placed next.
        let colour = self.game.next_stone_colour().index();
        self.toggle(cell, colour);
    }

    /// The history entry of placing `cell` next: by the colour placed and whether it is
    /// the mover's own.
    fn slot(&self, cell: Cell) -> usize {
        let colour = self.game.next_stone_colour().index();
        (colour * 2 + usize::from(colour == self.game.to_move().index()))
            * self.game.board().cell_count()
            + cell as usize
    }

    /// The key shared by the position's 12 images.
    fn canonical(&self) -> u64 {
        canonical_of(self.hashes.iter().copied())
    }

    /// The search at the root: the winner, and a winning turn when the mover wins.
    fn root(&mut self) -> Outcome {
        if self.game.is_over() {
            let (winner, _) = self.game.winner();
            return Outcome::Win {
                winner,
                turn: Vec::new(),
            };
        }
        let mover = self.game.to_move().index();
        let mut turn = Vec::new();
        match self.line(mover, &mut turn) {
            None => Outcome::Unknown,
            Some(w) if w == mover => Outcome::Win {
                winner: Colour::from_index(w),
                turn,
            },
            Some(w) => Outcome::Win {
                winner: Colour::from_index(w),
                turn: Vec::new(),
            },
        }
    }

    /// Like [`Solver::winner`], and when the root's mover wins, the winning stones it places
    /// until the end of its turn go into `turn`.
    fn line(&mut self, mover: usize, turn: &mut Vec<Cell>) -> Option<usize> {
        if self.game.is_over() || self.game.to_move().index() != mover {
            return self.winner();
        }
        let moves = self.ordered_moves();
        for &cell in &moves {
            self.place(cell);
            turn.push(cell);
            let w = self.line(mover, turn);
            if w == Some(mover) {
                self.unplace(cell);
                return w;
            }
            turn.pop();
            self.unplace(cell);
            w?;
        }
        Some(1 - mover)
    }

    /// The winner of the position with best play; `None` when stopped.
    fn winner(&mut self) -> Option<usize> {
        self.nodes += 1;
        let shared = &self.shared;
        if self.nodes.is_multiple_of(CHECK_EVERY)
            && (Instant::now() >= shared.deadline
                || shared.stop.is_raised()
                || shared.done.load(Relaxed))
        {
            self.aborted = true;
        }
        if self.aborted {
            return None;
        }
        if self.game.is_over() {
            return Some(self.game.winner().0.index());
        }
        let key = self.canonical();
        let slot = self.slot_of(key);
        let entry = self.shared.table[slot].load(Relaxed);
        if entry | 1 == key {
            return Some((entry & 1) as usize);
        }
        if self.game.turns_left() <= 2 && self.game.at_turn_boundary() {
            let result = self.last_turns_winner();
            self.store(slot, key, result);
            return Some(result);
        }
        let mover = self.game.to_move().index();
        let moves = self.ordered_moves();
        if self.child_wins_by_table(&moves, mover) {
            self.recycle(moves);
            self.store(slot, key, mover);
            return Some(mover);
        }
        let mut result = 1 - mover;
        for &cell in &moves {
            self.place(cell);
            let w = self.winner();
            self.unplace(cell);
            match w {
                None => {
                    self.recycle(moves);
                    return None;
                }
                Some(w) if w == mover => {
                    result = mover;
                    let slot = self.slot(cell);
                    self.history[slot] += 1 << self.game.turns_left().min(20);
                    break;
                }
                _ => {}
            }
        }
        self.recycle(moves);
        self.store(slot, key, result);
        Some(result)
    }

    /// Whether the table already holds one of the `moves` as a win for `mover`: enhanced
    /// transposition cut-offs (Schaeffer & Plaat, "New Advances in Alpha-Beta Searching",
    /// 1996). In Omega the same stones arrive in many orders, so a child is often solved
    /// before its parent reaches it; a look at the table costs the 12 symmetric hashes of
    /// the child and one probe, far less than the child's search.
    fn child_wins_by_table(&self, moves: &[Cell], mover: usize) -> bool {
        let colour = self.game.next_stone_colour().index();
        moves.iter().any(|&cell| {
            let key = canonical_of(
                self.hashes
                    .iter()
                    .zip(&self.images)
                    .map(|(hash, image)| hash ^ stone_key(&self.keys, image, cell, colour)),
            );
            let entry = self.shared.table[self.slot_of(key)].load(Relaxed);
            entry | 1 == key && (entry & 1) as usize == mover
        })
    }

    /// The table's slot for a position's key. Contract: the table's length is a power of 2.
    #[inline]
    fn slot_of(&self, key: u64) -> usize {
        (mix64(key) as usize) & (self.shared.table.len() - 1)
    }

    fn store(&self, slot: usize, key: u64, winner: usize) {
        self.shared.table[slot].store((key & !1) | winner as u64, Relaxed);
    }

    /// The winner when one or two turns are left (step 4 of the module): each turn places
    /// one stone of each colour, and stones change only their own colour's score, so the
    /// final scores follow from each colour's score with its last one or two stones added,
    /// computed without playing them. Contract: two players, at a turn boundary, one or two
    /// turns left.
    fn last_turns_winner(&self) -> usize {
        let mover = self.game.to_move().index();
        let empties = self.game.empties();
        // Fewer than 4 cells are empty before white's last turn, so at most 7 before it.
        debug_assert!(empties.len() <= LAST_CELLS);
        let n = empties.len().min(LAST_CELLS);
        let cells = &empties[..n];
        let black_wins = |b: u128, w: u128| b >= w; // ties go to black
        let (white_score, black_score) = (
            self.game.score(Colour::White),
            self.game.score(Colour::Black),
        );
        let mut touches = [[Touch::default(); LAST_CELLS]; 2];
        for (i, &c) in cells.iter().enumerate() {
            touches[0][i] = Touch::new(&self.game, Colour::White, c);
            touches[1][i] = Touch::new(&self.game, Colour::Black, c);
        }
        let mover_wins = if self.game.turns_left() == 1 {
            // The mover puts white on i and black on j.
            let (mut white, mut black) = ([0u128; LAST_CELLS], [0u128; LAST_CELLS]);
            for i in 0..n {
                white[i] = score_plus_one(white_score, &touches[0][i]);
                black[i] = score_plus_one(black_score, &touches[1][i]);
            }
            (0..n).any(|i| (0..n).any(|j| i != j && black_wins(black[j], white[i]) == (mover == 1)))
        } else {
            // The mover puts white on a and black on b, then the other player white on c and
            // black on d. The other player's reply to (a, b) needs only its two best white
            // cells and its two best black cells (the best pair with c != d is among them):
            // black wants white's score low and its own high, white the reverse. For each of
            // the mover's cells, the other player's three best replies in that colour: with
            // a and b excluded, at least its two best are left. A row is computed only when
            // the mover's search first needs it: once a winning (a, b) is found the others
            // are never scored (the rows were two thirds of a solve's time).
            let board = self.game.board();
            let other_black = mover == 0;
            let better =
                |x: u128, y: u128, wants_high: bool| if wants_high { x > y } else { x < y };
            // Row x of a colour: its score with stones on x and on each other cell y, and
            // the other player's three best y for it. A pair's score, once computed, serves
            // both of its rows (`known` holds the pairs done, a bit each).
            let mut pairs = [[[0u128; LAST_CELLS]; LAST_CELLS]; 2];
            let mut known = [0u64; 2];
            let mut row = |colour: usize, x: usize| {
                let base = if colour == 0 {
                    white_score
                } else {
                    black_score
                };
                let wants_high = (colour == 1) == other_black;
                let mut top = [usize::MAX; 3];
                for y in (0..n).filter(|&y| y != x) {
                    if known[colour] & (1 << (x * LAST_CELLS + y)) == 0 {
                        let adjacent = board.neighbours(cells[x]).contains(&cells[y]);
                        let t = &touches[colour];
                        let score = score_plus_two(base, &t[x], &t[y], adjacent);
                        pairs[colour][x][y] = score;
                        pairs[colour][y][x] = score;
                        known[colour] |= 1 << (x * LAST_CELLS + y) | 1 << (y * LAST_CELLS + x);
                    }
                    let scores = &pairs[colour][x];
                    let mut at = y;
                    for slot in top.iter_mut() {
                        if *slot == usize::MAX || better(scores[at], scores[*slot], wants_high) {
                            std::mem::swap(slot, &mut at);
                            if at == usize::MAX {
                                break;
                            }
                        }
                    }
                }
                (pairs[colour][x], top)
            };
            let mut black_rows = [None; LAST_CELLS];
            let mut mover_wins = false;
            'search: for a in 0..n {
                // Each white row is needed once; a black row again for every a.
                let (white, white_replies) = row(0, a);
                for b in (0..n).filter(|&b| b != a) {
                    let (black, black_replies) = *black_rows[b].get_or_insert_with(|| row(1, b));
                    let free = |i: &&usize| **i != usize::MAX && **i != a && **i != b;
                    let other_wins = white_replies.iter().filter(free).take(2).any(|&c| {
                        black_replies
                            .iter()
                            .filter(free)
                            .take(2)
                            .any(|&d| c != d && black_wins(black[d], white[c]) == other_black)
                    });
                    if !other_wins {
                        mover_wins = true;
                        break 'search;
                    }
                }
            }
            mover_wins
        };
        if mover_wins {
            mover
        } else {
            1 - mover
        }
    }

    /// The empty cells, most promising first for the mover (see the module's step 2), in
    /// this depth's buffer: give it back with [`Solver::recycle`] (the search does not
    /// allocate then).
    fn ordered_moves(&mut self) -> Vec<Cell> {
        let depth = self.game.stones_placed();
        if self.lists.len() <= depth {
            self.lists.resize_with(depth + 1, Vec::new);
        }
        let mut scored = std::mem::take(&mut self.scored);
        scored.clear();
        let colour = self.game.next_stone_colour();
        let own = colour == self.game.to_move();
        let board = self.game.board();
        for &cell in self.game.empties() {
            let touching = board
                .neighbours(cell)
                .iter()
                .filter(|&&n| self.game.stone(n) == Some(colour))
                .count() as i64;
            let history = self.history[self.slot(cell)] as i64;
            let key = -history * 8 + if own { touching } else { -touching };
            scored.push((key, cell));
        }
        scored.sort_unstable();
        // The other threads take the replies of the root mover's opponent in another order:
        // if the root mover wins, every one of them must be refuted, so work done there is
        // work the first thread needs (at the root mover's own turns one winning move is
        // enough, and the first thread's first choice is the likeliest).
        if self.thread > 0 && self.game.to_move() != self.root_mover && depth < self.ordered_until {
            let len = scored.len().max(1);
            scored.rotate_left((self.thread * len) / self.threads);
        }
        let mut moves = std::mem::take(&mut self.lists[depth]);
        moves.clear();
        moves.extend(scored.iter().map(|&(_, c)| c));
        self.scored = scored;
        moves
    }

    /// Gives back the buffer of [`Solver::ordered_moves`] at the same position.
    fn recycle(&mut self, moves: Vec<Cell>) {
        let depth = self.game.stones_placed();
        self.lists[depth] = moves;
    }
}

/// The key of a stone of `colour` on `cell` in the image of the board under one symmetry.
#[inline]
fn stone_key(keys: &[[u64; 2]], image: &[Cell], cell: Cell, colour: usize) -> u64 {
    keys[image[cell as usize] as usize][colour]
}

/// The table key of a position from the hashes of its 12 images: the smallest, with the
/// lowest bit set (the bit an entry replaces by the winner).
fn canonical_of(hashes: impl Iterator<Item = u64>) -> u64 {
    hashes.min().unwrap_or(0) | 1
}

/// The distinct groups of one colour that a stone on an empty cell would touch.
#[derive(Clone, Copy, Default)]
struct Touch {
    roots: [Cell; 6],
    sizes: [u128; 6],
    len: usize,
}

impl Touch {
    fn new(game: &Game, colour: Colour, cell: Cell) -> Touch {
        let (roots, len) = game.touching_groups(cell, colour.index() as u8);
        let mut sizes = [0; 6];
        for (size, &root) in sizes.iter_mut().zip(&roots[..len]) {
            *size = game.root_size(root) as u128;
        }
        Touch { roots, sizes, len }
    }

    fn sizes(&self) -> &[u128] {
        &self.sizes[..self.len]
    }
}

/// A colour's score (`score`, 0 without stones) with one stone added that touches `t`: the
/// groups it touches merge with it.
fn score_plus_one(score: u128, t: &Touch) -> u128 {
    // A colour without stones starts from the empty product 1.
    score.max(1) / t.sizes().iter().product::<u128>() * (1 + t.sizes().iter().sum::<u128>())
}

/// A colour's score with two stones added, touching `s` and `t`; `adjacent` when the two
/// touch each other. Stones that touch each other or the same group end in one group.
fn score_plus_two(score: u128, s: &Touch, t: &Touch, adjacent: bool) -> u128 {
    let shared = s.roots[..s.len]
        .iter()
        .any(|r| t.roots[..t.len].contains(r));
    if !adjacent && !shared {
        return score_plus_one(score_plus_one(score, s), t);
    }
    let mut score = score.max(1);
    let mut merged = 2;
    for &size in s.sizes() {
        score /= size;
        merged += size;
    }
    for i in (0..t.len).filter(|&i| !s.roots[..s.len].contains(&t.roots[i])) {
        score /= t.sizes[i];
        merged += t.sizes[i];
    }
    score * merged
}

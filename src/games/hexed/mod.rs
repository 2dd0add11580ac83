//! Hexed: reversi on a board of hexes, for two players, red and green.
//!
//! The board (see `geometry`): 9 columns `a`..`j` without `i`; columns a, c, e, g, j have 7
//! cells (rows 1..7), b, d, f, h 6 (rows 1..6); 59 cells. North is the larger row number.
//!
//! - The start is a ring of six stones around one empty cell X, alternating colours: the
//!   north neighbour's colour is also on X's south-east and south-west neighbours, the other
//!   colour on north-east, south and north-west. [`Hexed::with_start`] sets it from the
//!   north neighbour's cell and colour and the colour that moves first; the default is the
//!   ring around e4 with red on e5, red first.
//! - A move places one's stone on an empty cell from which, in at least one of the six
//!   directions, a line of one or more opponent stones runs ended by one's own stone; every
//!   such line flips at once. A player with no such placement passes (and only then).
//! - The game ends when neither colour can place (a full board included); more stones wins,
//!   equal counts draw.
//! - The swap rule (off by default): the second colour's first move may be `swap`. The
//!   stones keep their colours; the two players exchange colours; the same colour (the one
//!   that swapped, now held by the other player) moves again. Results are in colours.

mod eval;
mod geometry;
mod players;
mod position;
mod state;

pub use geometry::{name as cell_name, parse_cell, CELLS};
pub use players::{bench, random_opening};

use super::{GameMove, GamePlayer, GameResult, Rules, SetupError};
use crate::game::mix64;
use crate::player::PlayerOptions;
use crate::search::exact::{self, ExactStats, RootChild, Solution};
use crate::search::Position;
use crate::stop::Stop;
use geometry::{bit, cell_at, cells, doubled, Bits, COLUMNS, STEPS};
use position::{Evaluation, HexedPosition};
use state::State;

/// The colour names: colour 0 red, colour 1 green.
pub const COLOUR_NAMES: [&str; 2] = ["red", "green"];
/// The one board size `boardsize` accepts: the number of columns.
pub const SIDE: usize = 9;
/// The default start: the ring around e4, red on its north neighbour e5, red first.
const DEFAULT_NORTH: usize = 30;

/// Where the start ring lies and who moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    /// The north neighbour of the ring's empty centre.
    pub north: usize,
    /// Its colour (also on the centre's south-east and south-west neighbours).
    pub north_colour: usize,
    /// The colour that moves first.
    pub first: usize,
}

/// One move of the history and what it flipped, to take it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Played {
    colour: usize,
    mv: GameMove,
    flipped: Bits,
}

/// A game of Hexed: the position, the history and the set-up.
#[derive(Clone, Debug)]
pub struct Hexed {
    state: State,
    start: Start,
    swap_rule: bool,
    history: Vec<Played>,
    /// Neither colour can place (kept up to date by `play` and `undo`).
    over: bool,
}

impl Hexed {
    /// The start ring around the south neighbour X of `north` (X one row below it), `north`
    /// and X's south-east and south-west neighbours of `north_colour`, the other three of
    /// the other colour; `first` moves first. Errors when the ring does not fit on the board
    /// or a colour is not 0 or 1.
    pub fn with_start(
        north: usize,
        north_colour: usize,
        first: usize,
        swap_rule: bool,
    ) -> Result<Hexed, String> {
        if north >= CELLS {
            return Err("the north cell is off the board".into());
        }
        if north_colour > 1 || first > 1 {
            return Err("colours are red and green".into());
        }
        let (c, y) = doubled(north);
        let ring_error = || {
            format!(
                "the ring with {} as its north stone does not fit on the board",
                geometry::name(north)
            )
        };
        cell_at(c, y - 2).ok_or_else(ring_error)?;
        let mut stones: [Bits; 2] = [0, 0];
        for (i, (dc, dy)) in STEPS.iter().enumerate() {
            let cell = cell_at(c + dc, y - 2 + dy).ok_or_else(ring_error)?;
            let colour = if i % 2 == 0 {
                north_colour
            } else {
                1 - north_colour
            };
            stones[colour] |= bit(cell);
        }
        let state = State::new(stones, first, false);
        Ok(Hexed {
            over: state.is_over(),
            state,
            start: Start {
                north,
                north_colour,
                first,
            },
            swap_rule,
            history: Vec::new(),
        })
    }

    /// A hand-made position (tests, analysis): these stones, `to_move` to move, no history;
    /// `cleared` gives the default ring start. Errors on a bad cell name, a cell named
    /// twice or a colour other than 0 and 1.
    pub fn from_stones(
        red: &[&str],
        green: &[&str],
        to_move: usize,
        swap_rule: bool,
    ) -> Result<Hexed, String> {
        if to_move > 1 {
            return Err("colours are red and green".into());
        }
        let mut stones: [Bits; 2] = [0, 0];
        for (colour, names) in [red, green].iter().enumerate() {
            for n in names.iter() {
                let b = bit(parse_cell(n)?);
                if (stones[0] | stones[1]) & b != 0 {
                    return Err(format!("{n} is named twice"));
                }
                stones[colour] |= b;
            }
        }
        let state = State::new(stones, to_move, false);
        Ok(Hexed {
            over: state.is_over(),
            state,
            start: Start {
                north: DEFAULT_NORTH,
                north_colour: 0,
                first: 0,
            },
            swap_rule,
            history: Vec::new(),
        })
    }

    pub fn start(&self) -> Start {
        self.start
    }

    /// The stones of `colour`, counted.
    pub fn count(&self, colour: usize) -> u32 {
        self.state.count(colour)
    }

    /// The colour on `cell`, if any.
    pub fn stone(&self, cell: usize) -> Option<usize> {
        (0..2).find(|&c| self.state.stones[c] & bit(cell) != 0)
    }

    /// The position hash (stones, colour to move, swap played).
    pub fn hash(&self) -> u64 {
        self.state.hash
    }

    /// The hash recomputed from scratch (tests compare it with [`Hexed::hash`]).
    pub fn recount_hash(&self) -> u64 {
        self.state.recount_hash()
    }

    /// Whether the game is over, recomputed from the stones (tests compare it with
    /// [`Rules::is_over`]).
    pub fn recount_over(&self) -> bool {
        self.state.is_over()
    }

    /// The cells where `colour` may place now (as if it were to move), by cell index.
    pub fn placements(&self, colour: usize) -> Vec<usize> {
        cells(self.state.placements_of(colour)).collect()
    }

    /// Every move `check` accepts now, for the colour to move (none once the game is over).
    /// The root's moves for the exact solver (`solve`, the resistance of lost positions),
    /// passes and the swap included: the position's players are seats, so a move after
    /// which the same seat moves again (the other had to pass) keeps the mover's side.
    /// Contract: the game is not over.
    pub fn exact_children(&self) -> Vec<RootChild<GameMove, HexedPosition>> {
        let seat = self.state().seat_of(self.state().mover);
        let position = |g: &Hexed| HexedPosition::new(g, Evaluation::StoneCount);
        let same_player = |_: &Hexed, p: &HexedPosition| Position::mover(p) == seat;
        super::root_children(self, position, same_player)
    }

    pub fn legal_moves(&self) -> Vec<GameMove> {
        let Some(colour) = self.to_move() else {
            return Vec::new();
        };
        let mut moves: Vec<GameMove> = self
            .placements(colour)
            .into_iter()
            .map(|c| GameMove::Place(c as u16))
            .collect();
        if moves.is_empty() {
            moves.push(GameMove::Pass);
        }
        if self.swap_allowed() {
            moves.push(GameMove::Swap);
        }
        moves
    }

    /// The swap may be played now: the rule is on and only the first move was played.
    fn swap_allowed(&self) -> bool {
        self.swap_rule && self.history.len() == 1 && !self.over
    }

    /// Whether a swap was played (the players hold each other's start colours).
    pub fn swapped(&self) -> bool {
        self.state.swapped
    }

    /// The position as the searches see it.
    fn state(&self) -> &State {
        &self.state
    }
}

impl Rules for Hexed {
    const NAME: &'static str = "hexed";
    const DEFAULT_SIDE: usize = SIDE;
    const DEFAULT_PLAYERS: usize = 2;
    const DEFAULT_SWAP: bool = false;

    fn new(side: usize, players: usize, swap: bool) -> Result<Self, SetupError> {
        if side != SIDE {
            return Err(SetupError::Size);
        }
        if players != 2 {
            return Err(SetupError::Players);
        }
        Ok(Hexed::with_start(DEFAULT_NORTH, 0, 0, swap).expect("the default ring fits"))
    }

    fn cleared(&self) -> Self {
        let s = self.start;
        Hexed::with_start(s.north, s.north_colour, s.first, self.swap_rule)
            .expect("the ring was accepted before")
    }

    fn side(&self) -> usize {
        SIDE
    }

    fn players(&self) -> usize {
        2
    }

    fn swap_rule(&self) -> bool {
        self.swap_rule
    }

    fn colour_names(&self) -> &'static [&'static str] {
        &COLOUR_NAMES
    }

    fn to_move(&self) -> Option<usize> {
        (!self.over).then_some(self.state.mover)
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn result(&self) -> Option<GameResult> {
        if !self.over {
            return None;
        }
        let (red, green) = (self.count(0), self.count(1));
        Some(match red.cmp(&green) {
            std::cmp::Ordering::Greater => GameResult::Win(0),
            std::cmp::Ordering::Less => GameResult::Win(1),
            std::cmp::Ordering::Equal => GameResult::Draw,
        })
    }

    fn parse_move(&self, word: &str) -> Result<GameMove, String> {
        if word.eq_ignore_ascii_case("swap") {
            return Ok(GameMove::Swap);
        }
        if word.eq_ignore_ascii_case("pass") {
            return Ok(GameMove::Pass);
        }
        parse_cell(word).map(|c| GameMove::Place(c as u16))
    }

    fn move_name(&self, m: GameMove) -> String {
        match m {
            GameMove::Place(c) if (c as usize) < CELLS => geometry::name(c as usize),
            GameMove::Place(c) => format!("cell{c}"),
            GameMove::Swap => "swap".into(),
            GameMove::Pass => "pass".into(),
        }
    }

    fn check(&self, colour: usize, m: GameMove) -> Result<(), String> {
        if self.over {
            return Err("the game is over".into());
        }
        if colour > 1 {
            return Err("Hexed has two colours, red and green".into());
        }
        if colour != self.state.mover {
            return Err(format!(
                "it is {}'s turn, not {}'s",
                COLOUR_NAMES[self.state.mover], COLOUR_NAMES[colour]
            ));
        }
        match m {
            GameMove::Place(c) => {
                let c = c as usize;
                if c >= CELLS {
                    return Err("that cell is off the board".into());
                }
                let name = geometry::name(c);
                if self.stone(c).is_some() {
                    return Err(format!("{name} is occupied"));
                }
                if self.state.flips_of(c) == 0 {
                    return Err(format!("{name} flips no stone"));
                }
                Ok(())
            }
            GameMove::Pass => {
                if self.state.placements_of(colour) != 0 {
                    return Err(format!(
                        "{} has a placement: pass only without one",
                        COLOUR_NAMES[colour]
                    ));
                }
                Ok(())
            }
            GameMove::Swap => {
                if !self.swap_rule {
                    return Err("the swap rule is off".into());
                }
                if !self.swap_allowed() {
                    return Err("swap is only the second colour's first move".into());
                }
                Ok(())
            }
        }
    }

    fn play(&mut self, m: GameMove) {
        let colour = self.state.mover;
        let mut flipped = 0;
        match m {
            GameMove::Place(c) => {
                flipped = self.state.flips_of(c as usize);
                self.state.place(c as usize, flipped);
            }
            GameMove::Pass => self.state.pass(),
            GameMove::Swap => self.state.swap(),
        }
        self.history.push(Played {
            colour,
            mv: m,
            flipped,
        });
        self.over = self.state.is_over();
    }

    fn undo(&mut self) -> bool {
        let Some(last) = self.history.pop() else {
            return false;
        };
        match last.mv {
            GameMove::Place(c) => self.state.unplace(c as usize, last.flipped),
            GameMove::Pass => self.state.pass(),
            GameMove::Swap => self.state.swap(),
        }
        self.over = self.state.is_over();
        true
    }

    fn history(&self) -> Vec<(usize, GameMove)> {
        self.history.iter().map(|p| (p.colour, p.mv)).collect()
    }

    fn draw(&self) -> String {
        draw(self)
    }

    fn stones(&self, colour: usize) -> Vec<String> {
        match self.state.stones.get(colour) {
            Some(&b) => cells(b).map(geometry::name).collect(),
            None => Vec::new(),
        }
    }

    fn score(&self) -> String {
        format!("red {} green {}", self.count(0), self.count(1))
    }

    fn final_score(&self) -> String {
        let (red, green) = (self.count(0) as i64, self.count(1) as i64);
        match red - green {
            0 => "0".into(),
            d if d > 0 => format!("R+{d}"),
            d => format!("G+{}", -d),
        }
    }

    fn player(
        name: &str,
        options: &PlayerOptions,
        stop: Stop,
    ) -> Option<Box<dyn GamePlayer<Self>>> {
        players::player(name, options, stop)
    }

    fn player_names() -> &'static [&'static str] {
        players::NAMES
    }

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
        players::bench(options)
    }

    fn set_swap_rule(&mut self, on: bool) {
        self.swap_rule = on;
    }

    fn legal_moves(&self) -> Vec<GameMove> {
        Hexed::legal_moves(self)
    }

    fn own_moves_left(&self) -> usize {
        // Every empty cell is filled by one of the two players, or nearly.
        (CELLS - (self.count(0) + self.count(1)) as usize)
            .div_ceil(2)
            .max(1)
    }

    fn with_start(&self, anchor: &str, colour: usize, first: usize) -> Result<Self, String> {
        Hexed::with_start(geometry::parse_cell(anchor)?, colour, first, self.swap_rule)
    }

    fn random_start(&self, seed: u64) -> Option<Self> {
        // Every ring that fits, with either colour north and either colour first, and a
        // move to play (a start where neither colour can move would end at once).
        let starts: Vec<Hexed> = (0..CELLS)
            .flat_map(|north| {
                (0..4).filter_map(move |k| {
                    Hexed::with_start(north, k & 1, k >> 1, self.swap_rule).ok()
                })
            })
            .filter(|g| !g.over)
            .collect();
        let k = (mix64(seed) % starts.len().max(1) as u64) as usize;
        starts.into_iter().nth(k)
    }

    fn setup_commands(&self) -> Vec<String> {
        let s = self.start;
        vec![format!(
            "hexed_start {} {} {}",
            geometry::name(s.north),
            COLOUR_NAMES[s.north_colour],
            COLOUR_NAMES[s.first]
        )]
    }
}

/// The drawing of `showboard`: one text line per doubled height y, top (y = 12) to bottom,
/// each column in a text column of its own, so that a column's cells stand above each other
/// and the diagonal neighbours sit one line up or down in the next column. Lines of even y
/// hold the columns a, c, e, g, j, lines of odd y the others; the number in front is the row
/// of the cells on that line. Marks: `.` empty, `R` red, `G` green, the last placement in
/// lower case.
fn draw(game: &Hexed) -> String {
    let last = game.history.iter().rev().find_map(|p| match p.mv {
        GameMove::Place(c) => Some(c as usize),
        _ => None,
    });
    let letters: String = geometry::LETTERS
        .iter()
        .map(|&l| format!("{} ", l as char))
        .collect();
    let letters = format!("    {}", letters.trim_end());
    let mut lines = vec![letters.clone()];
    for y in (0..=12).rev() {
        let mut line = format!("{:>2}  ", y / 2 + 1);
        for col in 0..COLUMNS as i32 {
            let mark = match cell_at(col, y) {
                None => ' ',
                Some(cell) => {
                    let m = match game.stone(cell) {
                        None => '.',
                        Some(0) => 'R',
                        Some(_) => 'G',
                    };
                    if Some(cell) == last {
                        m.to_ascii_lowercase()
                    } else {
                        m
                    }
                }
            };
            line.push(mark);
            line.push(' ');
        }
        lines.push(line.trim_end().to_string());
    }
    lines.push(letters);
    let status = match game.to_move() {
        None => "game over".to_string(),
        Some(c) => format!("{} to move", COLOUR_NAMES[c]),
    };
    lines.push(format!(
        "move {}, {}, score {}{}",
        game.history.len() + 1,
        status,
        game.score(),
        if game.swapped() { ", swapped" } else { "" }
    ));
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::geometry::*;
    use super::state::placements;
    use super::*;

    #[test]
    fn every_shift_is_a_neighbour_or_leaves_the_board() {
        for cell in 0..CELLS {
            let (c, y) = doubled(cell);
            for (i, &d) in geometry::DIRS.iter().enumerate() {
                let moved = shift(bit(cell), d) & VALID;
                let (dc, dy) = STEPS[i];
                match cell_at(c + dc, y + dy) {
                    Some(n) => assert_eq!(moved, bit(n), "{} dir {i}", name(cell)),
                    None => assert_eq!(moved, 0, "{} dir {i}", name(cell)),
                }
            }
        }
    }

    #[test]
    fn the_board_has_59_cells_and_10_corners() {
        assert_eq!(VALID.count_ones(), 59);
        let corners: Vec<String> = cells(CORNERS).map(name).collect();
        assert_eq!(
            corners,
            ["a1", "a7", "c1", "c7", "e1", "e7", "g1", "g7", "j1", "j7"]
        );
        for cell in 0..CELLS {
            assert_eq!(parse_cell(&name(cell)), Ok(cell));
        }
        assert_eq!(name(DEFAULT_NORTH), "e5");
    }

    #[test]
    fn placements_agree_with_flips() {
        let g = <Hexed as Rules>::new(SIDE, 2, false).unwrap();
        let s = g.state();
        let p = placements(s.stones[0], s.stones[1]);
        for cell in 0..CELLS {
            let legal = g.stone(cell).is_none() && s.flips_of(cell) != 0;
            assert_eq!(p & bit(cell) != 0, legal, "{}", name(cell));
        }
        assert!(p != 0);
    }
}

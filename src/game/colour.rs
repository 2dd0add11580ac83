//! The colours and the typed errors of the rules.

use crate::board::{column_letter, Coord};
use std::fmt;

/// The four colours, in turn order. Player k owns colour k.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    White = 0,
    Black = 1,
    Red = 2,
    Blue = 3,
}

impl Colour {
    pub const ALL: [Colour; super::MAX_PLAYERS] =
        [Colour::White, Colour::Black, Colour::Red, Colour::Blue];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Colour {
        Colour::ALL[i]
    }

    pub fn name(self) -> &'static str {
        ["white", "black", "red", "blue"][self.index()]
    }

    /// The one-letter mark used on drawn boards.
    pub fn mark(self) -> char {
        ['W', 'B', 'R', 'U'][self.index()]
    }

    /// Accepts the full names and `w`/`b`, case-insensitively.
    pub fn parse(word: &str) -> Option<Colour> {
        match word.to_ascii_lowercase().as_str() {
            "white" | "w" => Some(Colour::White),
            "black" | "b" => Some(Colour::Black),
            "red" => Some(Colour::Red),
            "blue" => Some(Colour::Blue),
            _ => None,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A refused game set-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    Side(usize),
    Players(usize),
}

/// Why a turn is illegal. The game is unchanged whenever one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    GameOver,
    /// The colour is not in this game (red or blue with fewer players).
    NotPlaying(Colour),
    NotYourTurn {
        expected: Colour,
        got: Colour,
    },
    WrongStoneCount {
        expected: usize,
        got: usize,
    },
    OffBoard(Coord),
    Occupied(Coord),
    Repeated(Coord),
}

fn coord_name(c: Coord) -> String {
    format!("{}{}", column_letter(c.col), c.row + 1)
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver => write!(f, "game is over"),
            MoveError::NotPlaying(c) => write!(f, "{c} is not playing"),
            MoveError::NotYourTurn { expected, got } => {
                write!(f, "it is {expected}'s turn, not {got}'s")
            }
            MoveError::WrongStoneCount { expected, got } => {
                write!(f, "a turn places {expected} stones, got {got}")
            }
            MoveError::OffBoard(c) => write!(f, "{} is off the board", coord_name(*c)),
            MoveError::Occupied(c) => write!(f, "{} is occupied", coord_name(*c)),
            MoveError::Repeated(c) => write!(f, "{} is given twice", coord_name(*c)),
        }
    }
}

//! `omega-match`: an engine-vs-engine match driver in the manner of cutechess-cli, fastchess
//! and gogui-twogtp, for any engines that speak the Omega text protocol.
//!
//! - [`cli`]: the command line; [`words`]: shell-like splitting of engine commands;
//! - [`engine_proc`]: a child process and its line protocol, with deadlines;
//! - [`schedule`]: seats, game pairs and openings; [`openings`]: opening books;
//!   [`referee`]: one game, refereed with [`crate::game`];
//! - [`records`]: replayable game transcripts; [`stats`] and [`tally`]: score, Elo, error
//!   bars, LOS, SPRT, pentanomial counts, the Bradley-Terry ratings; [`runner`]: the whole
//!   match (records, `--resume`).
//!
//! Points: the official tie rule gives every game one winner, so there are no draws; the
//! engine in the winning seat gets the game's point (1) and the others 0, with any number of
//! players. See [`tally`] for the rating of three or more engines against the field, and
//! [`referee`] for who wins a forfeited game.

pub mod cli;
pub mod engine_proc;
pub mod game_referee;
pub mod openings;
pub mod records;
pub mod referee;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod tally;
pub mod words;

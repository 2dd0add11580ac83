//! `omega-web`: a board in the browser to play and analyse Omega against any engine that
//! speaks the protocol.
//!
//! A thin layer over the referee ([`crate::game`]) and the engine processes of the match
//! driver ([`crate::arena::engine_proc`]): the server checks every stone with the rules, so
//! the page cannot make an illegal move, and talks to engines as omega-match does.
//!
//! - [`cli`]: the command line and the engine catalogue;
//! - [`session`]: one game, its seats, and the threads that let engines think;
//! - [`engine_seat`]: one engine process kept in step with the game;
//! - [`view`]: the state the page is sent;
//! - [`api`]: the routes (the page's files and the JSON API) and their errors.
//!
//! The page itself is plain HTML, CSS and JavaScript in `web/`, built into the binary.

pub mod api;
pub mod cli;
pub mod engine_seat;
pub mod session;
pub mod view;

pub use api::{router, App};

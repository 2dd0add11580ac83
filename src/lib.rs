//! Omega engine library: geometry, rules, evaluation, search, players, engine and protocol.
//!
//! Dependencies run one way: `protocol -> engine -> player -> mcts, search (generic cores)
//! and playout, position (Omega for each core) -> eval -> game -> board`;
//! `arena` (the match driver) uses only `game`, `board` and `transcript`: engines are child
//! processes; `web` (the board in the browser) uses those and `arena`'s engine processes;
//! `cli` is the `omega` binary's command line over `protocol` (omega-web runs it too).

pub mod arena;
pub mod bench;
pub mod board;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod game;
pub mod games;
pub mod huge_pages;
pub mod mcts;
pub mod moves;
pub mod player;
pub mod playout;
pub mod position;
pub mod protocol;
pub mod search;
pub mod solver;
pub mod stop;
pub mod timeman;
pub mod transcript;
pub mod web;

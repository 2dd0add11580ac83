//! Omega engine library: geometry, rules, search, engine and protocol.
//!
//! Dependencies run one way: `protocol -> engine -> search -> game -> board`.

pub mod arena;
pub mod board;
pub mod game;

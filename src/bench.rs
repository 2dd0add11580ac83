//! `omega bench`: fixed positions searched to a fixed depth with a fresh table each, so the
//! node count is the same on every run and every machine; only the speed varies.

use crate::game::Game;
use crate::player::{random_turn, SearchOptions};
use crate::position::OmegaPosition;
use crate::search::{SearchLimits, Searcher};
use std::fmt::Write;
use std::time::{Duration, Instant};

/// (name, side, players, random turns played first, depth in plies)
const POSITIONS: &[(&str, usize, usize, usize, usize)] = &[
    ("opening 5x2", 5, 2, 1, 5),
    ("middle 5x2", 5, 2, 12, 6),
    ("end 5x2", 5, 2, 24, 12),
    ("middle 5x3", 5, 3, 6, 5),
];

/// Runs the bench and returns its report; the last line is `nodes <total> nps <rate>`.
/// `options.depth`, when set, replaces every position's depth.
pub fn run(options: &SearchOptions) -> String {
    let mut out = String::new();
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for &(name, side, players, turns, depth) in POSITIONS {
        let mut game = Game::new(side, players).expect("valid bench position");
        for _ in 0..turns {
            let turn = random_turn(&game, 2026);
            game.play_turn(game.to_move(), &turn).expect("legal");
        }
        let mut searcher = Searcher::new(options.hash_mb, options.features);
        let limits = SearchLimits {
            soft: Duration::MAX,
            hard: Duration::MAX,
            depth: Some(options.depth.unwrap_or(depth)),
            nodes: None,
        };
        let start = Instant::now();
        let result = searcher
            .search(&mut OmegaPosition::new(&mut game), start, limits, |_| {})
            .expect("bench positions are not over");
        let elapsed = start.elapsed();
        total_nodes += result.nodes;
        total_time += elapsed;
        let _ = writeln!(
            out,
            "{name:<12} depth {:>2} value {:>8} nodes {:>10} time {:.3}",
            result.depth,
            result.value,
            result.nodes,
            elapsed.as_secs_f64()
        );
    }
    let nps = total_nodes as f64 / total_time.as_secs_f64().max(1e-9);
    let _ = write!(out, "nodes {total_nodes} nps {nps:.0}");
    out
}

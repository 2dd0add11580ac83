//! Yavalath's bench lines: fixed positions, fixed work (alpha-beta to a fixed depth, MCTS
//! to a fixed number of playouts) from fresh tables and trees, so that the node and playout
//! counts are the same on every run; only the speed varies.

use super::position::{moves, Eval, YavalathPosition};
use super::Yavalath;
use crate::board::Cell;
use crate::games::Rules;
use crate::mcts::{FastRng, Mcts, MctsLimits};
use crate::player::PlayerOptions;
use crate::search::{Features, SearchLimits, Searcher};
use std::fmt::Write;
use std::time::{Duration, Instant};

/// (name, stones placed first, alpha-beta depth)
const POSITIONS: &[(&str, usize, usize)] = &[("opening", 2, 5), ("middle", 14, 6), ("end", 30, 8)];
/// Playouts of each MCTS line unless `--playouts` says.
const BENCH_PLAYOUTS: u64 = 200_000;

/// A fixed position of side 5: `stones` placements that neither win nor lose, drawn from a
/// fixed-seed generator.
fn position(stones: usize) -> Yavalath {
    let mut game = Yavalath::new(5, 2, false).expect("side 5 is valid");
    let mut rng = FastRng::new(0x5eed_0005);
    let mut list: Vec<Cell> = Vec::new();
    while game.stones_placed() < stones {
        list.clear();
        moves(&game, true, &mut list);
        let mover = game.to_move.expect("not over");
        list.retain(|&c| !game.win[mover].contains(c) && !game.lose[mover].contains(c));
        if list.is_empty() {
            break;
        }
        list.sort_unstable();
        game.place(list[rng.below(list.len())]);
    }
    game
}

pub fn run(options: &PlayerOptions) -> String {
    let mut out = String::new();
    let (mut nodes, mut node_time) = (0, Duration::ZERO);
    for &(name, stones, depth) in POSITIONS {
        let game = position(stones);
        let depth = options.alphabeta.depth.unwrap_or(depth);
        let mut searcher = Searcher::new(16, Features::default());
        let mut pos = YavalathPosition::new(&game, true, Eval::Threats);
        let limits = SearchLimits {
            soft: Duration::MAX,
            hard: Duration::MAX,
            depth: Some(depth),
            nodes: None,
        };
        let start = Instant::now();
        let it = searcher.search(&mut pos, start, limits, |_| {});
        let t = start.elapsed();
        let n = it.map_or(0, |i| i.nodes);
        nodes += n;
        node_time += t;
        let _ = writeln!(
            out,
            "yavalath alphabeta {name:<8} depth {depth} nodes {n} time {:.3} nps {:.0}",
            t.as_secs_f64(),
            n as f64 / t.as_secs_f64().max(1e-9)
        );
    }
    let count = options.mcts.playouts.unwrap_or(BENCH_PLAYOUTS);
    let (mut playouts, mut playout_time) = (0, Duration::ZERO);
    for (name, tactical) in [("mcts-plain", false), ("mcts", true)] {
        let game = position(0);
        let mut mcts: Mcts<Cell> = Mcts::new(crate::mcts::MctsConfig::default(), 1);
        let mut pos = YavalathPosition::new(&game, tactical, Eval::Threats);
        let start = Instant::now();
        let limits = MctsLimits {
            start,
            time: None,
            playouts: Some(count),
        };
        let p = mcts.search(&mut pos, limits, None, |_, _| {});
        let t = start.elapsed();
        let n = p.map_or(0, |p| p.playouts);
        playouts += n;
        playout_time += t;
        let _ = writeln!(
            out,
            "yavalath {name:<10} empty board playouts {n} time {:.3} pps {:.0}",
            t.as_secs_f64(),
            n as f64 / t.as_secs_f64().max(1e-9)
        );
    }
    let rate = |n: u64, t: Duration| n as f64 / t.as_secs_f64().max(1e-9);
    let _ = writeln!(
        out,
        "yavalath nodes {nodes} nps {:.0} playouts {playouts} pps {:.0}",
        rate(nodes, node_time),
        rate(playouts, playout_time)
    );
    out
}

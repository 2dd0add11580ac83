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

/// Work per second, safe for a zero time.
fn rate(n: u64, t: Duration) -> f64 {
    n as f64 / t.as_secs_f64().max(1e-9)
}

/// Runs the lines; the last totals them: `yavalath nodes N nps X playouts P pps Y`.
pub fn run(options: &PlayerOptions) -> String {
    let mut out = String::new();
    // (total work, total time) of the alpha-beta lines, then of the MCTS lines.
    let mut totals = [(0u64, Duration::ZERO); 2];
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
        let label = format!("alphabeta {name:<8} depth {depth} nodes");
        line(
            &mut out,
            &mut totals[0],
            &label,
            "nps",
            it.map_or(0, |i| i.nodes),
            start,
        );
    }
    let count = options.mcts.playouts.unwrap_or(BENCH_PLAYOUTS);
    for (name, tactical) in [("mcts-plain", false), ("mcts", true)] {
        let mut mcts: Mcts<Cell> = Mcts::new(crate::mcts::MctsConfig::default(), 1);
        let mut pos = YavalathPosition::new(&position(0), tactical, Eval::Threats);
        let start = Instant::now();
        let limits = MctsLimits {
            start,
            time: None,
            playouts: Some(count),
            settle: None,
        };
        let p = mcts.search(&mut pos, limits, None, |_, _| {});
        let label = format!("{name:<10} empty board playouts");
        line(
            &mut out,
            &mut totals[1],
            &label,
            "pps",
            p.map_or(0, |p| p.playouts),
            start,
        );
    }
    let [(nodes, node_time), (playouts, playout_time)] = totals;
    let _ = writeln!(
        out,
        "yavalath nodes {nodes} nps {:.0} playouts {playouts} pps {:.0}",
        rate(nodes, node_time),
        rate(playouts, playout_time)
    );
    out
}

/// One bench line for `work` done since `start`, added to `total`.
fn line(
    out: &mut String,
    total: &mut (u64, Duration),
    label: &str,
    unit: &str,
    work: u64,
    start: Instant,
) {
    let t = start.elapsed();
    total.0 += work;
    total.1 += t;
    let secs = t.as_secs_f64();
    let per_second = rate(work, t);
    let _ = writeln!(
        out,
        "yavalath {label} {work} time {secs:.3} {unit} {per_second:.0}"
    );
}

//! `omega bench`: fixed positions searched to a fixed depth (alpha-beta) or a fixed number of
//! playouts (tree search) from fresh tables and trees, so that the node and playout counts are
//! the same on every run and every machine; only the speed varies.

use crate::game::Game;
use crate::games::Rules;
use crate::mcts::{Mcts, MctsLimits};
use crate::player::{random_turn, MctsOptions, MctsPlayer, PlayerOptions};
use crate::playout::{OmegaTree, Scratch};
use crate::position::OmegaPosition;
use crate::search::{SearchLimits, Searcher};
use crate::stop::Stop;
use crate::timeman::Limits;
use std::fmt::Write;
use std::time::{Duration, Instant};

/// (name, side, players, random turns played first, depth in plies)
const POSITIONS: &[(&str, usize, usize, usize, usize)] = &[
    ("opening 5x2", 5, 2, 1, 5),
    ("middle 5x2", 5, 2, 12, 6),
    ("end 5x2", 5, 2, 24, 12),
    ("middle 5x3", 5, 3, 6, 5),
];

/// Playouts of each tree-search line, from the empty side-5 board, unless `--playouts` says.
const BENCH_PLAYOUTS: u64 = 250_000;

/// Runs the bench and returns its report; the last line is
/// `nodes <total> nps <rate> playouts <total> pps <rate>`. `options.alphabeta.depth`, when
/// set, replaces every position's depth; `options.mcts.playouts` the playout count.
pub fn run(options: &PlayerOptions) -> String {
    let mut out = String::new();
    let (nodes, node_time) = alphabeta_lines(options, &mut out);
    let mut playouts = 0;
    let mut playout_time = Duration::ZERO;
    let count = options.mcts.playouts.unwrap_or(BENCH_PLAYOUTS);
    // The two tree searches of every kind of line: the baseline, then the player's own.
    let searches = [("mcts-plain", MctsOptions::plain()), ("mcts", options.mcts)];
    // The playouts a second of each search on one thread.
    let mut one_thread = [0.0; 2];
    for (i, (name, mcts)) in searches.into_iter().enumerate() {
        let (p, t) = mcts_line(name, &mcts, count, 1, &mut out);
        playouts += p;
        playout_time += t;
        one_thread[i] = per_second(p, t);
    }
    // The same two searches again, each in a tree arena a search of this process has
    // already used, as in a game from its first turns on: a fresh arena costs the kernel a
    // page fault and a zeroed page every 4 KiB of new nodes (by `perf`, about a sixth of
    // the default's first search), which the lines above pay and a game pays only once.
    // Not in the totals, which stay those of the fresh searches.
    for (name, mcts) in searches {
        warm_line(name, &mcts, count, &mut out);
    }
    // The first turn with 3 and 4 players, where the seats' options, the priors and the
    // expansion rule differ from the 2-player search above. Not in the totals either.
    for &(shape, side, players) in MULTI_PLAYER {
        for (name, mcts) in searches {
            player_line(name, &mcts, shape, side, players, count, &mut out);
        }
    }
    let threads = options.mcts.threads;
    if threads > 1 {
        // Root parallelism (the default): each thread searches a tree of its own.
        let start = Instant::now();
        let total: u64 = std::thread::scope(|scope| {
            let searches: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let plain = MctsOptions::plain();
                        mcts_line("", &plain, count, 1, &mut String::new()).0
                    })
                })
                .collect();
            searches.into_iter().map(|s| s.join().unwrap_or(0)).sum()
        });
        let elapsed = start.elapsed().as_secs_f64().max(1e-9);
        let pps = total as f64 / elapsed;
        let _ = writeln!(
            out,
            "mcts-plain   {threads} trees   playouts {total} time {elapsed:.3} pps {pps:.0} ({:.2}x one thread)",
            pps / one_thread[0].max(1e-9)
        );
        // Tree parallelism: the threads search one tree, as many playouts each; `mcts-plain`,
        // then the default, whose own way it is (its deferred backups of the busiest nodes
        // included: they are the tree's, not the player's).
        for ((name, mcts), alone) in searches.into_iter().zip(one_thread) {
            let name = format!("{name} {threads}t");
            let (p, t) = mcts_line(&name, &mcts, count * threads as u64, threads, &mut out);
            let pps = per_second(p, t);
            out.pop();
            let _ = writeln!(out, " ({:.2}x one thread)", pps / alone.max(1e-9));
        }
    }
    let _ = write!(
        out,
        "nodes {nodes} nps {:.0} playouts {playouts} pps {:.0}",
        per_second(nodes, node_time),
        per_second(playouts, playout_time)
    );
    // The other games' lines (their searches, their positions), after Omega's summary.
    out.push('\n');
    out += &crate::games::yavalath::Yavalath::bench(options);
    out += &crate::games::hexed::Hexed::bench(options);
    out
}

fn alphabeta_lines(options: &PlayerOptions, out: &mut String) -> (u64, Duration) {
    let ab = &options.alphabeta;
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for &(name, side, players, turns, depth) in POSITIONS {
        let mut game = Game::new(side, players).expect("valid bench position");
        for _ in 0..turns {
            let turn = random_turn(&game, 2026);
            game.play_turn(game.to_move(), &turn).expect("legal");
        }
        let mut searcher = Searcher::new(ab.hash_mb, ab.features);
        let limits = SearchLimits {
            soft: Duration::MAX,
            hard: Duration::MAX,
            depth: Some(ab.depth.unwrap_or(depth)),
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
    (total_nodes, total_time)
}

/// One tree search of `count` playouts from the empty side-5 board, two players, by
/// `threads` threads, in a fresh tree.
fn mcts_line(
    name: &str,
    options: &MctsOptions,
    count: u64,
    threads: usize,
    out: &mut String,
) -> (u64, Duration) {
    let mut mcts = Mcts::new(options.search, BENCH_SEED);
    search_line(name, &mut mcts, options, count, threads, out)
}

/// [`mcts_line`] on one thread, searched twice in the same tree arena, the second time
/// after the tree is cleared and the search reseeded (the same playouts and nodes again);
/// only the second search is reported, as `<name> warm`.
fn warm_line(name: &str, options: &MctsOptions, count: u64, out: &mut String) {
    let mut mcts = Mcts::new(options.search, BENCH_SEED);
    search_line(name, &mut mcts, options, count, 1, &mut String::new());
    mcts.clear();
    mcts.reseed(BENCH_SEED);
    search_line(&format!("{name} warm"), &mut mcts, options, count, 1, out);
}

/// The boards of the multi-player lines: (name, side, players).
const MULTI_PLAYER: &[(&str, usize, usize)] = &[("5x3", 5, 3), ("6x4", 6, 4)];

/// White's first turn from the empty board of `side` with `players` players, chosen by a
/// fresh [`MctsPlayer`] on one thread with `count` playouts: the configuration a game's
/// search has (the seat's options, the priors and expansion rule for the board and the
/// number of players, the trees' memory), where [`mcts_line`] has the search's own. The
/// line counts every playout the player made: a turn whose most visited line stops inside
/// the turn (a budget far too small for the board) searches on from there.
fn player_line(
    name: &str,
    options: &MctsOptions,
    shape: &str,
    side: usize,
    players: usize,
    count: u64,
    out: &mut String,
) {
    let options = MctsOptions {
        playouts: Some(count),
        threads: 1,
        ..*options
    };
    let mut player = MctsPlayer::new(options, BENCH_SEED, Stop::new());
    let mut game = Game::new(side, players).expect("valid bench board");
    // With a playout limit the clock is not read; these limits only have to be valid.
    let limits = Limits {
        optimum: Duration::from_secs(3600),
        maximum: Duration::from_secs(3600),
        keeps_savings: false,
    };
    let start = Instant::now();
    player.choose(&mut game, start, limits, None);
    let elapsed = start.elapsed();
    let playouts = player.playouts_made();
    let _ = writeln!(
        out,
        "{name:<12} empty {shape} playouts {playouts} nodes {} time {:.3} pps {:.0}",
        player.tree_nodes(),
        elapsed.as_secs_f64(),
        per_second(playouts, elapsed)
    );
}

/// `n` a second over `t` (a zero time counts as a nanosecond, not a division by zero).
fn per_second(n: u64, t: Duration) -> f64 {
    n as f64 / t.as_secs_f64().max(1e-9)
}

/// The random seed of the bench's tree searches.
const BENCH_SEED: u64 = 2026;

/// One search by `mcts` (see [`mcts_line`]), reported on a line of `out`.
fn search_line(
    name: &str,
    mcts: &mut Mcts<u16>,
    options: &MctsOptions,
    count: u64,
    threads: usize,
    out: &mut String,
) -> (u64, Duration) {
    let mut games = vec![Game::new(5, 2).expect("valid bench position"); threads];
    let mut scratches: Vec<Scratch> = games.iter().map(Scratch::new).collect();
    let start = Instant::now();
    let limits = MctsLimits {
        start,
        time: None,
        playouts: Some(count),
        settle: None,
    };
    let mut positions: Vec<OmegaTree> = games
        .iter_mut()
        .zip(&mut scratches)
        .map(|(game, scratch)| OmegaTree::new(game, scratch, options.playout))
        .collect();
    let result = mcts
        .search_threads(&mut positions, limits, None, |_, _| {})
        .expect("the empty board is not over");
    let elapsed = start.elapsed();
    let _ = writeln!(
        out,
        "{name:<12} empty 5x2 playouts {} nodes {} time {:.3} pps {:.0}",
        result.playouts,
        result.nodes,
        elapsed.as_secs_f64(),
        per_second(result.playouts, elapsed)
    );
    (result.playouts, elapsed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::PlayerKind;

    /// The word after `key` on the line of the report that `name` begins and that searches
    /// the empty `board` (`5x2`, `5x3`, `6x4`).
    fn field_of(report: &str, name: &str, board: &str, key: &str) -> String {
        let line = report
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")) && l.contains(&format!("empty {board}")))
            .unwrap_or_else(|| panic!("no line {name} {board} in {report}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == key).expect(key);
        words[at + 1].to_string()
    }

    /// The nodes of a 2-player line of the report, by the line's first words.
    fn nodes_of(report: &str, name: &str) -> String {
        field_of(report, name, "5x2", "nodes")
    }

    /// A short bench's report: `threads` for the tree searches, `playouts` a line, the
    /// alpha-beta on one thread to depth 2.
    fn short_report(threads: usize, playouts: u64) -> String {
        let mut o = PlayerOptions::for_player(PlayerKind::Mcts);
        o.mcts.threads = threads;
        o.alphabeta.threads = 1;
        o.alphabeta.depth = Some(2);
        o.mcts.playouts = Some(playouts);
        run(&o)
    }

    /// The warm lines search the same playouts as the fresh ones (the arena cleared, the
    /// search reseeded), and the totals count the fresh searches only.
    #[test]
    fn the_warm_lines_repeat_the_fresh_searches() {
        let report = short_report(1, 3000);
        for name in ["mcts-plain", "mcts"] {
            assert_eq!(
                nodes_of(&report, name),
                nodes_of(&report, &format!("{name} warm")),
                "{report}"
            );
        }
        assert!(report.contains(" playouts 6000 pps "), "{report}");
        assert!(!report.contains("2t empty"), "{report}");
    }

    /// Each tree search gets a line of white's first turn with 3 players on side 5 and 4 on
    /// side 6, searched by the player to its budget (counted as the player made them),
    /// growing the same tree every run; the totals stay the 2-player lines'.
    #[test]
    fn the_multi_player_lines_are_the_same_searches_every_run() {
        let (a, b) = (short_report(1, 3000), short_report(1, 3000));
        for name in ["mcts-plain", "mcts"] {
            for board in ["5x3", "6x4"] {
                let playouts: u64 = field_of(&a, name, board, "playouts")
                    .parse()
                    .expect("a count");
                // The budget, and a continuation's if the line stopped inside the turn.
                assert!((3000..=3000 + 4 * 256).contains(&playouts), "{a}");
                for key in ["playouts", "nodes"] {
                    assert_eq!(
                        field_of(&a, name, board, key),
                        field_of(&b, name, board, key),
                        "{a}\n{b}"
                    );
                }
            }
        }
        assert!(a.contains(" playouts 6000 pps "), "{a}");
    }

    /// With two threads, both tree searches get a line of one shared tree, with twice the
    /// playouts, beside the two trees of `mcts-plain`; the totals stay the one-thread lines'.
    #[test]
    fn two_threads_add_the_shared_tree_lines() {
        let report = short_report(2, 2000);
        for name in ["mcts-plain 2t", "mcts 2t"] {
            let line = report
                .lines()
                .find(|l| l.starts_with(&format!("{name} ")))
                .unwrap_or_else(|| panic!("no line {name} in {report}"));
            assert!(
                line.contains(" playouts 4000 ") && line.ends_with("x one thread)"),
                "{report}"
            );
        }
        assert!(
            report.contains("mcts-plain   2 trees   playouts 4000 "),
            "{report}"
        );
        assert!(report.contains(" playouts 4000 pps "), "{report}");
    }
}

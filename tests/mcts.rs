//! The tree search: its proofs against exhaustive search, reproducibility, tree reuse, and
//! legal turns on every board and player count.

use omega::board::Cell;
use omega::engine::{Engine, EngineConfig};
use omega::game::{Colour, Game};
use omega::mcts::{Mcts, MctsLimits, Settle, UNPROVEN};
use omega::player::{random_turn, MctsOptions, PlayerKind, SeatSet};
use omega::playout::{OmegaTree, PlayoutConfig, Scratch};
use std::time::{Duration, Instant};

fn position(side: usize, players: usize, turns: usize, seed: u64) -> Game {
    let mut game = Game::new(side, players).unwrap();
    for _ in 0..turns {
        let t = random_turn(&game, seed);
        game.play_turn(game.to_move(), &t).unwrap();
    }
    game
}

/// Whether `w` can force a win from here whatever the other players do (an AND-OR search
/// over every stone).
fn forced_win(game: &mut Game, w: Colour) -> bool {
    if game.is_over() {
        return game.winner().0 == w;
    }
    let ours = game.to_move() == w;
    for cell in game.empties().to_vec() {
        game.place(cell);
        let won = forced_win(game, w);
        game.unplace();
        if won == ours {
            return ours;
        }
    }
    !ours
}

/// What a search proved of its root.
struct Proof {
    /// The winner with best play.
    winner: Option<usize>,
    /// The root is proven lost for its mover (won by another player or [`LOST`]).
    lost: bool,
}

/// A search of `playouts` from `game` with the given options by `threads` threads in one
/// tree; returns what it proved. Checks that the game is unchanged and that the shared
/// tree's counts add up: every playout through a node went through its parent.
fn search_threads(
    game: &mut Game,
    options: &MctsOptions,
    playouts: u64,
    seed: u64,
    threads: usize,
) -> Proof {
    let mut copies = vec![game.clone(); threads - 1];
    let mut scratch: Vec<Scratch> = (0..threads).map(|_| Scratch::new(game)).collect();
    let mut mcts: Mcts<Cell> = Mcts::new(options.search, seed);
    let limits = MctsLimits {
        start: Instant::now(),
        time: None,
        playouts: Some(playouts),
        settle: None,
    };
    let before = game.hash();
    let (first, rest) = scratch.split_first_mut().unwrap();
    let mut positions = vec![OmegaTree::new(game, first, options.playout)];
    for (copy, s) in copies.iter_mut().zip(rest) {
        positions.push(OmegaTree::new(copy, s, options.playout));
    }
    let progress = mcts
        .search_threads(&mut positions, limits, None, |_, _| {})
        .expect("not over");
    drop(positions);
    assert_eq!(game.hash(), before, "the search leaves the game as it was");
    game.check_consistency().unwrap();
    let tree = mcts.tree();
    assert_eq!(tree.root().visits as u64, progress.playouts);
    let lost = mcts.root_lost(game.to_move().index());
    if progress.proven.is_none() && !lost {
        assert_eq!(
            progress.playouts, playouts,
            "the limit counts every thread's playouts"
        );
    }
    for id in reachable(tree) {
        let node = tree.get(id);
        let below: u64 = node
            .children()
            .map(|c| tree.get(c as u32).visits as u64)
            .sum();
        assert!(
            below <= node.visits as u64,
            "node {id}: {below} > {}",
            node.visits
        );
    }
    Proof {
        winner: progress.proven,
        lost,
    }
}

/// The nodes reachable from the root, parents before children (a node that grew its
/// children lazily leaves the old block behind, unreachable).
fn reachable(tree: &omega::mcts::Tree<Cell>) -> Vec<u32> {
    let mut nodes = vec![0];
    let mut next = 0;
    while next < nodes.len() {
        nodes.extend(tree.get(nodes[next]).children().map(|c| c as u32));
        next += 1;
    }
    nodes
}

fn search(game: &mut Game, options: &MctsOptions, playouts: u64, seed: u64) -> Option<usize> {
    search_threads(game, options, playouts, seed, 1).winner
}

/// A proof is sound: the proven winner can force its win against every choice of the
/// others. With 3-4 players a position may have no such winner (the result then depends on
/// what the others prefer): it stays unproven, or is proven lost for the mover (`LOST`,
/// `lost_proofs`), who then cannot force a win.
#[test]
fn proofs_agree_with_exhaustive_search_on_small_endgames() {
    // (side, players, turns played first); every case is small enough to search through.
    let cases = [
        (2, 2, 0),
        (3, 2, 5),
        (3, 2, 6),
        (3, 3, 3),
        (3, 3, 4),
        (4, 4, 5),
    ];
    let (mut proofs, mut losses) = (0, 0);
    for (side, players, turns) in cases {
        for seed in 0..6 {
            let mut game = position(side, players, turns, seed);
            // One thread, and two in one tree (tree parallelism).
            for (options, threads) in [
                (MctsOptions::plain(), 1),
                (MctsOptions::strong(), 2),
                (lazy_options(), 1),
                (last_turn_options(), 1),
            ] {
                let label = format!("side {side} K {players} turns {turns} seed {seed}");
                let proof = search_threads(&mut game, &options, 300_000, seed, threads);
                if proof.lost && proof.winner.is_none() {
                    let mover = game.to_move();
                    assert!(
                        !forced_win(&mut game, mover),
                        "{label}: proven lost, but {mover} can force a win"
                    );
                    losses += 1;
                }
                match proof.winner {
                    Some(w) => {
                        let w = Colour::from_index(w);
                        assert!(
                            forced_win(&mut game, w),
                            "{label}: {w} proven, no forced win"
                        );
                        proofs += 1;
                    }
                    None => assert!(players > 2, "{label}: two-player endgames are proven"),
                }
            }
        }
    }
    assert!(
        proofs >= 80,
        "most of the 144 searches end in a proof ({proofs})"
    );
    assert!(
        losses > 0,
        "some 3-4 player roots are proven lost without a winner"
    );
}

/// The default with progressive widening whose children are written lazily.
fn lazy_options() -> MctsOptions {
    let mut options = MctsOptions::strong();
    options.search.widen = 4.0;
    options.search.lazy_children = true;
    options
}

/// The default with the winner of the last turn taken from the rules (`last_turn_proofs`).
fn last_turn_options() -> MctsOptions {
    let mut options = MctsOptions::strong();
    options.search.last_turn_proofs = true;
    options
}

/// The default with priors centred on the mover's mean reward (`prior_mean`).
fn mean_options() -> MctsOptions {
    let mut options = MctsOptions::strong();
    options.search.prior_mean = true;
    options
}

/// Red's last turn in a game of three players on side 5 (the default as red against two
/// `mcts-plain`, 100,000 playouts a turn): red wins with `a4 a5 j6`, every colour at 72 and
/// the tie red's. After the white stone at j6 every black stone loses for red, at a5 to
/// white and elsewhere to black: the node stays unproven by max^n, and without
/// `lost_proofs` its first child took every playout while the winning white stones had one
/// each.
fn red_to_win_its_last_turn() -> Game {
    let turns = [
        "f2 e7 f8", "e5 h8 g7", "f5 e1 b5", "e2 f4 d1", "d3 b2 d6", "e4 a3 c1", "d7 d2 e3",
        "g6 f3 c7", "e6 g3 h5", "e8 d8 e9", "d5 f7 d4", "c2 j5 f9", "c6 c5 h9", "f6 b4 a1",
        "b1 b3 b6", "j7 c4 j9", "h6 h7 g9",
    ];
    let mut game = Game::new(5, 3).unwrap();
    for turn in turns {
        let cells: Vec<Cell> = turn
            .split(' ')
            .map(|name| game.board().parse(name).unwrap())
            .collect();
        game.play_turn(game.to_move(), &cells).unwrap();
    }
    game
}

#[test]
fn a_stone_lost_for_its_mover_is_proven_and_the_sure_win_found() {
    let mut game = red_to_win_its_last_turn();
    assert_eq!(game.to_move(), Colour::Red);
    let red = Colour::Red.index();
    let seeds = 8u64;
    let mut found = 0;
    for seed in 0..seeds {
        let mut plain = MctsOptions::plain();
        assert!(!plain.search.lost_proofs, "mcts-plain is kept as it was");
        found += u64::from(search(&mut game, &plain, 20_000, seed) == Some(red));
        plain.search.lost_proofs = true;
        for options in [plain, MctsOptions::strong()] {
            let proof = search_threads(&mut game, &options, 20_000, seed, 1);
            assert_eq!(proof.winner, Some(red), "seed {seed}");
            assert!(!proof.lost);
        }
    }
    // The baseline keeps the dead end: some seeds never leave it.
    assert!(found < seeds, "mcts-plain found the win at every seed");
    // The player plays the win (the exact last round off, so that the tree decides).
    let mut options = MctsOptions::strong();
    options.last_round = omega::player::LastRound::Off;
    options.playouts = Some(20_000);
    options.tree_mb_multi = 16;
    let limits = omega::timeman::Limits {
        optimum: Duration::from_secs(5),
        maximum: Duration::from_secs(5),
        keeps_savings: false,
    };
    let mut player = omega::player::MctsPlayer::new(options, 3, omega::stop::Stop::new());
    let turn = player.choose(&mut game, Instant::now(), limits, None);
    game.play_turn(Colour::Red, &turn).unwrap();
    assert_eq!(game.winner().0, Colour::Red, "{turn:?}");
}

#[test]
fn two_player_endgames_are_proven_for_the_right_side() {
    for seed in 0..10 {
        let mut game = position(3, 2, 5, seed);
        let white_wins = forced_win(&mut game, Colour::White);
        for options in [MctsOptions::strong(), lazy_options(), mean_options()] {
            let proven = search(&mut game, &options, 300_000, seed);
            assert_eq!(proven, Some(if white_wins { 0 } else { 1 }), "seed {seed}");
        }
    }
}

/// A reproducible configuration of `kind`: `playouts` a thread, small trees.
fn engine_config(
    kind: PlayerKind,
    playouts: u64,
    seed: u64,
    threads: usize,
    tree: bool,
) -> EngineConfig {
    let mut config = EngineConfig::for_player(kind);
    config.options.seed = seed;
    config.options.mcts.playouts = Some(playouts);
    config.options.mcts.set_tree_mb(16);
    config.options.mcts.threads = threads;
    config.options.mcts.tree_parallel = tree;
    config
}

fn engine(kind: PlayerKind, playouts: u64, seed: u64, threads: usize, tree: bool) -> Engine {
    Engine::new(engine_config(kind, playouts, seed, threads, tree))
}

#[test]
fn a_playout_limit_and_a_seed_give_the_same_game_on_every_run() {
    // With several threads each searches its own tree to the limit: as reproducible.
    for (kind, threads) in [
        (PlayerKind::Mcts, 1),
        (PlayerKind::MctsPlain, 1),
        (PlayerKind::Mcts, 3),
    ] {
        let games: Vec<Vec<Vec<Cell>>> = (0..2)
            .map(|_| {
                let mut e = engine(kind, 2_000, 9, threads, false);
                e.set_up(4, 2).unwrap();
                while !e.game().is_over() {
                    e.genmove(e.game().to_move(), true, None).unwrap();
                }
                e.game().turn_history()
            })
            .collect();
        assert_eq!(games[0], games[1], "{kind:?} {threads} threads");
    }
}

/// Whole games (small boards) and first turns (large ones) for every side and player
/// count, both ways of using threads, every turn checked by a separate referee; tree reuse
/// across turns included.
#[test]
fn genmove_is_legal_on_every_side_for_two_three_and_four_players() {
    for side in 2..=13 {
        for players in 2..=4 {
            // Two threads: a tree each on odd sides, one shared tree on even ones.
            let mut e = engine(PlayerKind::Mcts, 300, side as u64, 2, side % 2 == 0);
            e.set_up(side, players).unwrap();
            let mut referee = Game::new(side, players).unwrap();
            let turns = if side <= 5 { usize::MAX } else { 2 };
            while !referee.is_over() && referee.turns_played() < turns {
                let colour = referee.to_move();
                let turn = e
                    .genmove(colour, true, None)
                    .unwrap()
                    .expect("no swap rule");
                referee.play_turn(colour, &turn).unwrap();
                assert_eq!(referee.hash(), e.game().hash());
            }
        }
    }
}

/// `--playouts N` counts a thread's playouts: two threads make 2N in one shared tree, and
/// N in the first thread's tree of their own each.
#[test]
fn a_playout_limit_counts_each_threads_playouts() {
    for tree in [false, true] {
        let mut e = engine(PlayerKind::Mcts, 3_000, 4, 2, tree);
        e.set_up(5, 2).unwrap();
        e.genmove(Colour::White, false, None).unwrap().unwrap();
        let searched = e.kept_playouts().unwrap();
        let range = if tree { 6_000..9_000 } else { 3_000..6_000 };
        assert!(range.contains(&searched), "tree {tree}: {searched}");
    }
}

#[test]
fn the_tree_below_the_turns_played_is_kept() {
    let mut game = position(5, 2, 2, 3);
    let options = MctsOptions::strong();
    let mut scratch = Scratch::new(&game);
    let mut mcts: Mcts<Cell> = Mcts::new(options.search, 1);
    let limits = MctsLimits {
        start: Instant::now(),
        time: None,
        playouts: Some(20_000),
        settle: None,
    };
    let first = mcts
        .search(
            &mut OmegaTree::new(&mut game, &mut scratch, options.playout),
            limits,
            None,
            |_, _| {},
        )
        .unwrap();
    // The expected line: the most visited turn, then the most visited reply.
    let line: Vec<Cell> = first.pv[..4].to_vec();
    assert!(mcts.advance(&line));
    let kept = mcts.tree().root().visits;
    assert!(kept > 20, "the reply's subtree is kept ({kept} playouts)");
    for &c in &line {
        game.place(c);
    }
    let second = mcts
        .search(
            &mut OmegaTree::new(&mut game, &mut scratch, options.playout),
            limits,
            None,
            |_, _| {},
        )
        .unwrap();
    assert_eq!(second.root_visits as u64, kept as u64 + 20_000);
    // A line the tree never saw clears it.
    let unseen: Vec<Cell> = game.empties().iter().rev().take(2).copied().collect();
    mcts.advance(&[unseen[0], unseen[1], unseen[0]]);
    assert_eq!(mcts.tree().len(), 1);
}

/// `play` moves the tree to the position after the opponent's turn at once, so that the
/// next `genmove` does not spend its clock copying the subtree: the tree holds playouts
/// for the new position before any search of it; a turn it never saw clears it.
#[test]
fn play_moves_the_tree_to_the_new_position_before_the_next_genmove() {
    let turn = |e: &mut Engine, colour| e.genmove(colour, true, None).unwrap().unwrap();
    let coords = |e: &Engine, cells: &[Cell]| -> Vec<_> {
        cells.iter().map(|&c| e.game().board().coord(c)).collect()
    };
    // `reg_genmove black` (a search that does not play) leaves the tree's root after
    // white's turn; `play` of the turn it chose moves the root below it.
    let mut e = engine(PlayerKind::Mcts, 3_000, 4, 1, false);
    e.set_up(5, 2).unwrap();
    assert_eq!(
        e.kept_playouts(),
        Some(0),
        "no tree before the first search"
    );
    let white = turn(&mut e, Colour::White);
    assert_eq!(
        e.kept_playouts(),
        Some(0),
        "the tree's root is before white's turn"
    );
    let black = e.genmove(Colour::Black, false, None).unwrap().unwrap();
    let searched = e.kept_playouts().unwrap();
    assert!(searched >= 3_000, "{searched}");
    e.play(Colour::Black, &coords(&e, &black)).unwrap();
    let kept = e.kept_playouts().unwrap();
    assert!(
        kept > 100 && kept < searched,
        "black's turn was searched: {kept} of {searched} playouts kept"
    );
    // A turn the tree never saw clears it at once; the next search starts afresh.
    let mut unseen = Game::new(5, 2).unwrap();
    let far: Vec<Cell> = e.game().empties().iter().rev().take(2).copied().collect();
    e.play(Colour::White, &coords(&e, &far)).unwrap();
    assert_eq!(e.kept_playouts(), Some(0));
    unseen.play_turn(Colour::White, &white).unwrap();
    unseen.play_turn(Colour::Black, &black).unwrap();
    unseen.play_turn(Colour::White, &far).unwrap();
    assert_eq!(unseen.hash(), e.game().hash());
    turn(&mut e, Colour::Black);
    // Other players keep no tree.
    let mut greedy = engine(PlayerKind::Greedy, 1, 1, 1, false);
    greedy.set_up(5, 2).unwrap();
    assert_eq!(greedy.kept_playouts(), None);
}

/// The tree of a search of `playouts` (seed 5) from a side-5 middle game.
fn middle_game_search(
    config: omega::mcts::MctsConfig,
    playout: omega::playout::PlayoutConfig,
    playouts: u64,
) -> Mcts<Cell> {
    let mut game = position(5, 2, 4, 21);
    let mut scratch = Scratch::new(&game);
    let mut mcts: Mcts<Cell> = Mcts::new(config, 5);
    let limits = MctsLimits {
        start: Instant::now(),
        time: None,
        playouts: Some(playouts),
        settle: None,
    };
    mcts.search(
        &mut OmegaTree::new(&mut game, &mut scratch, playout),
        limits,
        None,
        |_, _| {},
    )
    .unwrap();
    mcts
}

/// The largest AMAF count a node's children show beyond the node's own visits, after a
/// search of `playouts` from a side-5 middle game; checks on the way that every AMAF mean
/// stays a probability (the inherited values turned round for the other player included).
fn amaf_beyond_visits(config: omega::mcts::MctsConfig, playouts: u64) -> f32 {
    let mcts = middle_game_search(config, MctsOptions::plain().playout, playouts);
    let tree = mcts.tree();
    let mut beyond: f32 = 0.0;
    for id in 0..tree.len() as u32 {
        let node = tree.get(id);
        for a in tree.slots(node.children()).1 {
            let (visits, value) = (a.visits(), a.value());
            assert!(value >= -1e-3 && value <= visits + 1e-3, "{visits} {value}");
            beyond = beyond.max(visits - node.visits as f32);
        }
    }
    beyond
}

/// Plain RAVE counts each playout through a node at most once in its children's AMAF;
/// GRAVE-style inheritance starts new children with an ancestor's counts, capped.
#[test]
fn new_nodes_inherit_capped_amaf_values_from_an_ancestor() {
    let plain = MctsOptions::plain().search;
    assert!(amaf_beyond_visits(plain, 20_000) <= 0.0);
    for flip in [false, true] {
        let config = omega::mcts::MctsConfig {
            ancestor_amaf: 30.0,
            ancestor_flip: flip,
            ..plain
        };
        let beyond = amaf_beyond_visits(config, 20_000);
        assert!(
            beyond > 10.0 && beyond <= 30.0 + 1e-3,
            "flip {flip}: {beyond}"
        );
    }
}

/// Several playouts from each leaf (`leaf_playouts`): the leaf's edge gets their mean as one
/// visit, so the tree's counts still add up and every mean stays a probability; the AMAF
/// statistics get the batch's mean (at most one playout's worth a descent) or, with
/// `leaf_amaf_full`, every playout of the batch.
#[test]
fn a_batch_of_playouts_from_each_leaf_counts_as_one_descent() {
    let plain = MctsOptions::plain().search;
    let batched = omega::mcts::MctsConfig {
        leaf_playouts: 4,
        ..plain
    };
    assert!(amaf_beyond_visits(batched, 20_000) <= 1e-3);
    let full = omega::mcts::MctsConfig {
        leaf_amaf_full: true,
        ..batched
    };
    assert!(amaf_beyond_visits(full, 20_000) > 100.0);
    let mcts = middle_game_search(batched, MctsOptions::plain().playout, 20_000);
    let tree = mcts.tree();
    for id in 1..tree.len() as u32 {
        let node = tree.get(id);
        assert!(node.value >= 0.0 && node.value <= node.visits as f64 + 1e-6);
    }
    // Two to four players, one thread and two: the counts add up (checked by search_threads).
    let mut options = MctsOptions::strong();
    options.search.leaf_playouts = 4;
    for (players, threads) in [(2, 1), (3, 2), (4, 1)] {
        let mut game = position(6, players, 2, 7);
        search_threads(&mut game, &options, 3_000, 9, threads);
    }
}

/// The widening the test sets.
const WIDEN: f32 = 8.0;

/// Whether every expanded node of a search from a side-5 middle game visits only the first
/// `WIDEN * cbrt(visits + 1)` of its children, after `playouts` with the default's priors and
/// widening `widen`; with `widen` > 0 it also checks that the children are best prior first.
fn widening_holds(widen: f32, playouts: u64) -> bool {
    let options = MctsOptions::strong();
    let config = omega::mcts::MctsConfig {
        widen,
        ..options.search
    };
    let mcts = middle_game_search(config, options.playout, playouts);
    let tree = mcts.tree();
    let mut holds = true;
    for id in 0..tree.len() as u32 {
        let node = tree.get(id);
        let children: Vec<_> = node.children().map(|c| tree.get(c as u32)).collect();
        if widen > 0.0 {
            assert!(
                children.windows(2).all(|w| w[0].prior >= w[1].prior),
                "node {id}: children not best prior first"
            );
        }
        // The width only grows with the visits, so the final count bounds every selection.
        let width = (WIDEN * (node.visits as f32 + 1.0).cbrt()) as usize;
        holds &= children.iter().skip(width.max(1)).all(|c| c.visits == 0);
    }
    holds
}

#[test]
fn progressive_widening_looks_only_at_the_best_prior_children() {
    assert!(widening_holds(WIDEN, 5_000));
    // Without the widening the search does visit children past that width.
    assert!(!widening_holds(0.0, 5_000));
}

/// Lazily written children: every expanded node has a child for each move the widening
/// looks at (at least 8), none twice, best prior first, and its other moves still to write;
/// the tree so holds a fraction of the nodes, and the counts add up with 2-4 players. (Not
/// with several threads in one tree: a playout that passes a child while its parent grows
/// may be counted below the child and not in it; see `Tree::grow`.)
#[test]
fn lazy_children_are_written_as_the_widening_reaches_them() {
    let options = MctsOptions::strong();
    let widened = omega::mcts::MctsConfig {
        widen: WIDEN,
        ..options.search
    };
    let lazy = omega::mcts::MctsConfig {
        lazy_children: true,
        ..widened
    };
    let full = middle_game_search(widened, options.playout, 5_000);
    let mcts = middle_game_search(lazy, options.playout, 5_000);
    let tree = mcts.tree();
    assert!(
        tree.len() * 4 < full.tree().len() * 3,
        "{} nodes, {} without",
        tree.len(),
        full.tree().len()
    );
    let moves =
        |node: &omega::mcts::Node<Cell>| node.child_count as usize + node.unwritten as usize;
    let mut partial = 0;
    for id in reachable(tree) {
        let node = tree.get(id);
        if !node.is_expanded() {
            continue;
        }
        let children: Vec<_> = node.children().map(|c| tree.get(c as u32)).collect();
        let width = ((WIDEN * (node.visits as f32 + 1.0).cbrt()) as usize).max(8);
        assert!(children.len() >= width.min(moves(&node)), "node {id}");
        assert!(
            children.windows(2).all(|w| w[0].prior >= w[1].prior),
            "node {id}"
        );
        let mut cells: Vec<Cell> = children.iter().map(|c| c.mv).collect();
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(cells.len(), children.len(), "node {id}: a move twice");
        partial += usize::from(node.unwritten > 0);
    }
    assert!(partial > 10, "{partial} nodes with moves still to write");
    assert_eq!(moves(&tree.root()), position(5, 2, 4, 21).empties().len());
    for players in 2..=4 {
        let mut game = position(6, players, 2, 7);
        search(&mut game, &lazy_options(), 5_000, 9);
    }
}

/// The root's children (prior, visits) after 5,000 playouts from a side-5 middle game with
/// the default's settings changed by `change`.
fn root_after(change: impl Fn(&mut omega::mcts::MctsConfig)) -> Vec<(f32, u32)> {
    let options = MctsOptions::strong();
    let mut config = options.search;
    change(&mut config);
    let mcts = middle_game_search(config, options.playout, 5_000);
    mcts.root_children()
        .iter()
        .map(|c| (c.prior, c.visits))
        .collect()
}

/// Exploration at the root alone spreads the root's visits over more of its moves; a strong
/// progressive bias makes the visits follow the priors (`prior_bias / (n + 1)` outweighs the
/// values, so a move's visits grow with its prior).
#[test]
fn root_exploration_spreads_and_progressive_bias_follows_the_priors() {
    let tried = |children: &[(f32, u32)]| children.iter().filter(|c| c.1 >= 10).count();
    let plain = root_after(|_| {});
    let explored = root_after(|c| c.root_exploration = 1.0);
    let (explored, plain_tried) = (tried(&explored), tried(&plain));
    assert!(
        explored > plain_tried + 5,
        "{explored} moves tried against {plain_tried}"
    );
    // Of the pairs of children with different priors, the share whose visits are in the
    // same order (a tie in visits counts half).
    let concordance = |children: &[(f32, u32)]| {
        let (mut agree, mut pairs) = (0.0, 0.0);
        for a in children {
            for b in children.iter().filter(|b| b.0 < a.0) {
                pairs += 1.0;
                agree += match a.1.cmp(&b.1) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
            }
        }
        agree / pairs
    };
    let biased = concordance(&root_after(|c| c.prior_bias = 1000.0));
    let unbiased = concordance(&plain);
    assert!(
        biased > 0.9 && biased > unbiased + 0.1,
        "visits in the priors' order: {biased} biased, {unbiased} without"
    );
}

/// The root's children of a search of 50,000 playouts from a side-5 middle game with the
/// default's settings but the memo span `memo`: (move, visits) most visited first, and the
/// root's value.
fn memo_search(memo: u32, seed: u64) -> (Vec<(Cell, u32)>, f64) {
    let options = MctsOptions::strong();
    let mut game = position(5, 2, 4, 21);
    let mut scratch = Scratch::new(&game);
    let config = omega::mcts::MctsConfig {
        memo_span: memo,
        ..options.search
    };
    let mut mcts: Mcts<Cell> = Mcts::new(config, seed);
    let limits = MctsLimits {
        start: Instant::now(),
        time: None,
        playouts: Some(50_000),
        settle: None,
    };
    let tree = &mut OmegaTree::new(&mut game, &mut scratch, options.playout);
    let progress = mcts.search(tree, limits, None, |_, _| {}).unwrap();
    let children = mcts
        .root_children()
        .iter()
        .map(|c| (c.mv, c.visits))
        .collect();
    (children, progress.value)
}

/// The selection memo skips scans but must not change what the search finds. A memo of one
/// playout is never used (the search is the same as without); the default's memo does act
/// (the searches differ), never locks the root onto one move, and over four seeds gives the
/// root the same value as the searches without it (the position is flat: the best move
/// changes from seed to seed with or without the memo, so it cannot be compared).
#[test]
fn the_selection_memo_keeps_what_the_search_finds() {
    let span = MctsOptions::strong().search.memo_span;
    assert!(span > 1, "the default uses the memo");
    assert_eq!(memo_search(1, 5), memo_search(0, 5));
    let (mut with, mut without) = (0.0, 0.0);
    for seed in 1..=4 {
        let (children, value) = memo_search(span, seed);
        let (plain_children, plain_value) = memo_search(0, seed);
        assert_ne!(
            children, plain_children,
            "seed {seed}: the memo changed nothing"
        );
        let total: u32 = children.iter().map(|c| c.1).sum();
        assert!(
            children[0].1 < total * 9 / 10,
            "seed {seed}: the root is locked on one move: {:?}",
            &children[..3]
        );
        with += value / 4.0;
        without += plain_value / 4.0;
    }
    assert!((with - without).abs() < 0.02, "{with} vs {without}");
}

/// Every playout policy, from middle games of 2, 3 and 4 players, at the tree's root and three
/// plies below it: the playout fills the board to the end with each colour's right number of
/// stones, keeps the stones already there (the root's and the plies'), leaves the game as it
/// was, and its winner and rewards are those of a from-scratch count of the filled board (so
/// a policy that keeps groups must start from the node's stones, not the root's).
#[test]
fn every_playout_policy_fills_the_board_and_scores_it_as_the_rules() {
    use omega::mcts::{FastRng, MctsPosition};
    use omega::playout::{winner, PlayoutConfig, Scorer};
    let policies: [(&str, &str); 10] = [
        ("uniform", ""),
        ("last turn's win", "last_turn_win"),
        ("last good reply", "last_good_reply=on"),
        ("greedy end", "greedy_end=4"),
        ("greedy to the end", "greedy_end=1000"),
        ("drawn greedy end", "greedy_end=8,greedy_candidates=3"),
        ("classes", "candidates=2"),
        ("counts", "count_candidates=2"),
        ("patterns", "pattern_candidates=4"),
        ("mast", "mast_candidates=2"),
    ];
    for (side, players, turns) in [(5, 2, 6), (5, 3, 2), (6, 4, 3), (4, 2, 0)] {
        let mut game = position(side, players, turns, 17);
        let before = game.stone_indices().to_vec();
        let hash = game.hash();
        let n = game.board().cell_count();
        let mut scorer = Scorer::new(game.board());
        for (name, settings) in policies {
            let mut options = MctsOptions::plain();
            for s in settings.split(',').filter(|s| !s.is_empty()) {
                match s.split_once('=') {
                    Some((k, v)) => options.set(k, v).unwrap(),
                    // Set for each search by the seat; here on in every playout.
                    None => options.playout.last_turn_win = true,
                }
            }
            let config: PlayoutConfig = options.playout;
            let mut scratch = Scratch::new(&game);
            let mut rng = FastRng::new(3);
            let mut tree = OmegaTree::new(&mut game, &mut scratch, config);
            let mut amaf = vec![0u8; tree.amaf_len()];
            let first_colour = tree.game().next_stone_colour().index();
            let mut kept = before.clone();
            let mut played = 0;
            for ply in [0, 3] {
                while played < ply {
                    // One ply deeper: the stone of the next colour on the first empty cell.
                    let mut moves = Vec::new();
                    tree.moves(&mut moves);
                    tree.play(moves[0]);
                    kept[moves[0] as usize] = ((first_colour + played) % players) as u8;
                    played += 1;
                }
                for _ in 0..50 {
                    let mut rewards = [0.0; 4];
                    let won = tree.playout(&mut rng, &mut amaf, &mut rewards);
                    let board = &amaf[..n];
                    for (cell, &stone) in kept.iter().enumerate() {
                        if (stone as usize) < players {
                            assert_eq!(board[cell], stone, "{name}, ply {ply}: a stone moved");
                        }
                    }
                    let empty = board.iter().filter(|&&c| c as usize >= players).count();
                    assert!(empty < players * players, "{name}: {empty} cells left");
                    let counts: Vec<usize> = (0..players)
                        .map(|c| board.iter().filter(|&&x| x as usize == c).count())
                        .collect();
                    // The game ends after whole turns: every colour has as many stones.
                    assert!(
                        counts.iter().all(|&k| k == counts[0]),
                        "{name}: colours {counts:?}"
                    );
                    let mut filled = board.to_vec();
                    filled.push(omega::game::NO_STONE);
                    let scores = scorer.scores(&filled, players);
                    assert_eq!(won, winner(&scores, players), "{name}, ply {ply}");
                    assert_eq!(rewards[won], 1.0, "{name}");
                }
            }
            for _ in 0..played {
                tree.undo();
            }
            assert_eq!(tree.game().hash(), hash, "{name}: the game changed");
        }
    }
}

/// `antithetic=on` (two players): the twin of a uniform playout fills the same cells, each
/// with the other colour but for the first of an odd count of stones, keeps every stone of
/// the position, gives each colour its right number of stones and scores as the rules; a
/// second twin asked for in a row is a playout of its own.
#[test]
fn the_antithetic_twin_fills_the_same_cells_with_the_colours_turned() {
    use omega::mcts::{FastRng, MctsPosition};
    use omega::playout::{winner, Scorer};
    let mut game = position(5, 2, 6, 23);
    let n = game.board().cell_count();
    let mut scorer = Scorer::new(game.board());
    let mut options = MctsOptions::plain();
    options.set("antithetic", "on").unwrap();
    let mut scratch = Scratch::new(&game);
    let mut rng = FastRng::new(5);
    let mut tree = OmegaTree::new(&mut game, &mut scratch, options.playout);
    let mut first = vec![0u8; tree.amaf_len()];
    let mut twin = vec![0u8; tree.amaf_len()];
    let mut plies = 0;
    for ply in [0, 1, 4] {
        while plies < ply {
            let mut moves = Vec::new();
            tree.moves(&mut moves);
            tree.play(moves[moves.len() / 2]);
            plies += 1;
        }
        // `start`: the position's board, before any fill (the first fill with its
        // position's empty cells cleared).
        let mut start = vec![0u8; tree.amaf_len()];
        let mut rewards = [0.0; 4];
        let mut empties = Vec::new();
        tree.moves(&mut empties);
        for _ in 0..20 {
            tree.playout(&mut rng, &mut first, &mut rewards);
            let won = tree.playout_twin(&mut rng, &mut twin, &mut rewards);
            start.copy_from_slice(&first);
            for &cell in &empties {
                start[cell as usize] = omega::game::NO_STONE;
            }
            let kept = (0..n)
                .filter(|&c| start[c] < 2)
                .all(|c| twin[c] == start[c]);
            assert!(kept, "ply {ply}: the twin moved a stone");
            // The game ends after whole turns, so a cell or two may stay empty: the twin
            // leaves the same ones.
            let filled: Vec<Cell> = empties
                .iter()
                .copied()
                .filter(|&c| first[c as usize] < 2)
                .collect();
            assert!(
                filled.len() + 2 >= empties.len(),
                "ply {ply}: too few stones"
            );
            let twin_filled = empties.iter().filter(|&&c| twin[c as usize] < 2).count();
            assert_eq!(twin_filled, filled.len(), "ply {ply}: other cells");
            let turned = filled
                .iter()
                .filter(|&&c| first[c as usize] != twin[c as usize])
                .count();
            assert_eq!(turned, filled.len() - filled.len() % 2, "ply {ply}");
            let count = |b: &[u8], c: u8| b[..n].iter().filter(|&&x| x == c).count();
            assert_eq!(count(&twin, 0), count(&twin, 1), "ply {ply}: colour counts");
            let scores = scorer.scores(&twin, 2);
            assert_eq!(won, winner(&scores, 2), "ply {ply}");
            assert_eq!(rewards[won], 1.0);
        }
    }
    // Twice in a row: the second is a playout of its own, not a twin of a twin.
    tree.playout(&mut rng, &mut first, &mut [0.0; 4]);
    tree.playout_twin(&mut rng, &mut twin, &mut [0.0; 4]);
    let again = tree.playout_twin(&mut rng, &mut first, &mut [0.0; 4]);
    let scores = scorer.scores(&first, 2);
    assert_eq!(again, winner(&scores, 2));
    for _ in 0..plies {
        tree.undo();
    }
}

/// What the twin is for: from an early position its result goes against its first
/// playout's (white's reward in the pair correlates negatively), where two independent
/// playouts' do not correlate.
#[test]
fn an_antithetic_pair_tends_opposite_ways() {
    use omega::mcts::{FastRng, MctsPosition};
    let correlation = |antithetic: &str| {
        let mut game = position(5, 2, 2, 29);
        let mut options = MctsOptions::plain();
        options.set("antithetic", antithetic).unwrap();
        let mut scratch = Scratch::new(&game);
        let mut rng = FastRng::new(7);
        let mut tree = OmegaTree::new(&mut game, &mut scratch, options.playout);
        let mut amaf = vec![0u8; tree.amaf_len()];
        let (mut sx, mut sy, mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
        let pairs = 2000.0;
        for _ in 0..pairs as usize {
            let mut rewards = [0.0f32; 4];
            tree.playout(&mut rng, &mut amaf, &mut rewards);
            let x = f64::from(rewards[0]);
            tree.playout_twin(&mut rng, &mut amaf, &mut rewards);
            let y = f64::from(rewards[0]);
            (sx, sy, sxx, syy, sxy) = (sx + x, sy + y, sxx + x * x, syy + y * y, sxy + x * y);
        }
        let cov = sxy / pairs - sx * sy / pairs / pairs;
        let var = |s: f64, ss: f64| ss / pairs - s * s / pairs / pairs;
        cov / (var(sx, sxx) * var(sy, syy)).sqrt()
    };
    let twin = correlation("on");
    let independent = correlation("off");
    assert!(twin < -0.3, "twin correlation {twin}");
    assert!(
        independent.abs() < 0.1,
        "independent correlation {independent}"
    );
}

/// The tree's plies are played on light stones, not on the game (see `playout/stones.rs`):
/// deep in a descent, the moves, the priors (the default's patterns with the near-last
/// factors, and the placement deltas that read the game's evaluation) and the end of the game
/// are those of a game brought to the same position, and the root game is left as it was.
#[test]
fn the_tree_reads_its_position_as_a_game_played_to_it_would() {
    use omega::mcts::MctsPosition;
    let priors_of = |tree: &mut OmegaTree, moves: &[Cell]| {
        let mut out = Vec::new();
        tree.priors(moves, &mut out);
        out
    };
    for (side, players, turns) in [(5, 2, 3), (5, 3, 2), (6, 4, 1), (3, 2, 0)] {
        for settings in ["", "pattern_prior=0,prior_scale=300"] {
            let mut options = MctsOptions::strong();
            for s in settings.split(',').filter(|s| !s.is_empty()) {
                let (k, v) = s.split_once('=').unwrap();
                options.set(k, v).unwrap();
            }
            let mut root = position(side, players, turns, 23);
            let hash = root.hash();
            let mut reached = root.clone();
            let mut scratch = Scratch::new(&root);
            let mut tree = OmegaTree::new(&mut root, &mut scratch, options.playout);
            let mut depth = 0;
            // A descent of up to 2 turns and a stone, to the end of small boards.
            while !tree.is_terminal() && depth < 2 * players + 1 {
                let mut moves = Vec::new();
                tree.moves(&mut moves);
                assert_eq!(moves, reached.empties(), "{settings}: the moves at {depth}");
                assert_eq!(tree.mover(), reached.to_move().index());
                let mut fresh_scratch = Scratch::new(&reached);
                let mut copy = reached.clone();
                let mut fresh = OmegaTree::new(&mut copy, &mut fresh_scratch, options.playout);
                assert_eq!(
                    priors_of(&mut tree, &moves),
                    priors_of(&mut fresh, &moves),
                    "{settings}: the priors at {depth}"
                );
                let cell = moves[(depth * 7) % moves.len()];
                tree.play(cell);
                reached.place(cell);
                depth += 1;
            }
            assert_eq!(tree.is_terminal(), reached.is_over());
            for _ in 0..depth {
                tree.undo();
            }
            assert_eq!(
                tree.game().hash(),
                hash,
                "{settings}: the root game changed"
            );
        }
    }
}

/// With `play_on`, a turn the solver proves lost is chosen by a search without proofs: its
/// analysis shows the chance that the opponent errs, where the solver's shows exactly zero.
/// Either way the turn is legal.
#[test]
fn a_proven_loss_is_played_on_without_proofs() {
    use omega::player::MctsPlayer;
    use omega::stop::Stop;
    use omega::timeman::Limits;
    use std::time::Duration;
    let (mut lost, mut played_on) = (0, 0);
    for seed in 0..40 {
        let mut game = position(3, 2, 4 + seed as usize % 2, seed);
        let mover = game.to_move();
        if forced_win(&mut game, mover) {
            continue;
        }
        let winrate = |play_on: bool, game: &mut Game| {
            let mut options = MctsOptions::strong();
            options.playouts = Some(50_000);
            options.set_tree_mb(16);
            options.play_on = play_on;
            let mut player = MctsPlayer::new(options, seed, Stop::new());
            let limits = Limits {
                optimum: Duration::from_secs(1),
                maximum: Duration::from_secs(1),
                keeps_savings: false,
            };
            let turn = player.choose(game, Instant::now(), limits, None);
            game.clone().play_turn(mover, &turn).unwrap();
            let candidates = player.analysis(game).candidates;
            candidates.iter().map(|c| c.winrate).fold(0.0, f64::max)
        };
        // Zero for every candidate turn: the solver proved each of them lost.
        if winrate(false, &mut game) == 0.0 {
            lost += 1;
            if winrate(true, &mut game) > 0.0 {
                played_on += 1;
            }
        }
    }
    assert!(lost >= 8, "the solver proves {lost} positions lost");
    assert!(played_on * 4 >= lost * 3, "{played_on} of {lost} played on");
}

/// The legal moves of `game` and the priors `config` gives them, one a move.
fn legal_moves_and_priors(game: &mut Game, config: PlayoutConfig) -> (Vec<Cell>, Vec<f32>) {
    let (moves, out) = moves_and_priors(game, config);
    assert_eq!(out.len(), moves.len());
    (moves, out)
}

/// The legal moves of `game` and the priors `config` gives them: one a move, or none at all.
fn moves_and_priors(game: &mut Game, config: PlayoutConfig) -> (Vec<Cell>, Vec<f32>) {
    use omega::mcts::MctsPosition;
    let mut scratch = Scratch::new(game);
    let mut tree = OmegaTree::new(game, &mut scratch, config);
    let (mut moves, mut out) = (Vec::new(), Vec::new());
    tree.moves(&mut moves);
    tree.priors(&moves, &mut out);
    (moves, out)
}

/// The pattern priors are `g^a / (g^a + 1)`, with the power `pattern_prior` for a stone of
/// the mover's own colour and `pattern_prior_other` (when set) for another player's: a prior
/// p of the power 1 is p² / (p² + (1 - p)²) with the power 2.
#[test]
fn pattern_priors_follow_their_power_colour_by_colour() {
    let priors = |game: &mut Game, own: f32, other: f32| {
        let config = PlayoutConfig {
            pattern_prior: own,
            pattern_prior_other: other,
            ..PlayoutConfig::default()
        };
        legal_moves_and_priors(game, config).1
    };
    let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5);
    let mut game = position(5, 2, 3, 7);
    let mut own_plies = 0;
    // Both plies of a turn: one places the mover's colour, the other the opponent's.
    for _ in 0..2 {
        let own = game.next_stone_colour() == game.to_move();
        own_plies += usize::from(own);
        let (p1, p2, mixed) = (
            priors(&mut game, 1.0, 0.0),
            priors(&mut game, 2.0, 0.0),
            priors(&mut game, 2.0, 1.0),
        );
        assert!(
            p1.iter().any(|&p| (p - 0.5).abs() > 0.1),
            "the patterns differ"
        );
        let squared: Vec<f32> = p1
            .iter()
            .map(|p| p * p / (p * p + (1.0 - p).powi(2)))
            .collect();
        assert!(close(&p2, &squared), "power 2 squares the odds");
        assert!(
            close(&mixed, if own { &p2 } else { &p1 }),
            "own colour: {own}"
        );
        game.place(game.empties()[0]);
    }
    assert_eq!(own_plies, 1);
}

/// `pattern_prior_players`: the pattern priors are given only in
/// games of at most that many players; above it no child gets a prior. The default player
/// uses them with every number of players, each with the table learnt from its games.
#[test]
fn pattern_priors_stop_above_their_number_of_players() {
    let priors = |game: &mut Game, limit: usize| {
        let config = PlayoutConfig {
            pattern_prior: 2.0,
            pattern_prior_players: limit,
            ..PlayoutConfig::default()
        };
        moves_and_priors(game, config).1
    };
    for players in 2..=4 {
        let mut game = position(6, players, 2, 5);
        for limit in 2..=4 {
            let out = priors(&mut game, limit);
            if players <= limit {
                assert_eq!(
                    out.len(),
                    game.empties().len(),
                    "{players} players, {limit}"
                );
            } else {
                assert!(out.is_empty(), "{players} players, limit {limit}");
            }
        }
    }
    let default = omega::player::MctsOptions::strong().playout;
    assert_eq!(default.pattern_prior_players, 4);
}

/// `near_last_own` / `near_last_other`: a cell next to a stone of the previous turn has its
/// pattern gamma multiplied by the factor of the stone's kind (so, with the squared priors,
/// its odds by the factor squared); every other cell keeps its prior, and in the first turn,
/// with no turn before it, nothing changes.
#[test]
fn priors_favour_the_cells_next_to_the_previous_turn_by_their_factor() {
    let priors = |game: &mut Game, own: f32, other: f32| {
        let config = PlayoutConfig {
            pattern_prior: 2.0,
            near_last_own: own,
            near_last_other: other,
            ..PlayoutConfig::default()
        };
        legal_moves_and_priors(game, config)
    };
    let odds = |p: f32| p / (1.0 - p);
    let first = position(5, 2, 0, 1);
    let (_, plain) = priors(&mut first.clone(), 1.0, 1.0);
    assert_eq!(
        plain,
        priors(&mut first.clone(), 3.0, 3.0).1,
        "no previous turn"
    );
    let mut game = position(5, 2, 4, 9);
    let last_turn = game.turn_history().pop().unwrap();
    for _ in 0..2 {
        let own = game.next_stone_colour() == game.to_move();
        let factor: f32 = if own { 1.5 } else { 3.0 };
        let (moves, plain) = priors(&mut game, 1.0, 1.0);
        let (_, near) = priors(&mut game, 1.5, 3.0);
        let mut favoured = 0;
        for ((&m, &p), &q) in moves.iter().zip(&plain).zip(&near) {
            let next_to_last = last_turn
                .iter()
                .any(|&s| game.board().neighbours(s).contains(&m));
            if next_to_last {
                favoured += 1;
                let ratio = odds(q) / odds(p);
                assert!(
                    (ratio / (factor * factor) - 1.0).abs() < 1e-3,
                    "{ratio} own {own}"
                );
            } else {
                assert_eq!(p, q, "a cell away from the last turn keeps its prior");
            }
        }
        assert!(favoured >= 3, "{favoured} cells next to the last turn");
        // The first stone of this turn does not count as the previous turn's.
        game.place(moves[0]);
    }
}

/// `final_lcb`: the move chosen is the best `mean - c / sqrt(visits)` among the children with
/// a tenth of the most visits; a tiny c picks the best mean among them, a huge one the most
/// visited, as without it.
#[test]
fn the_final_choice_by_lower_confidence_bound() {
    let choice = |lcb: f32| {
        let config = omega::mcts::MctsConfig {
            final_lcb: lcb,
            ..MctsOptions::strong().search
        };
        // Without the shapes' value, whose playouts make this position's most visited move
        // its best mean too: the test is of the final choice, not of the playouts.
        let playout = PlayoutConfig {
            value_blend: 0.0,
            ..MctsOptions::strong().playout
        };
        let mcts = middle_game_search(config, playout, 5_000);
        (mcts.principal_variation(1)[0], mcts.root_children())
    };
    let (most_visited, children) = choice(0.0);
    assert_eq!(most_visited, children[0].mv);
    let floor = children[0].visits / 10;
    let best_mean = children
        .iter()
        .filter(|c| c.visits >= floor)
        .max_by(|a, b| a.mean().total_cmp(&b.mean()))
        .unwrap();
    assert_ne!(
        best_mean.mv, most_visited,
        "this position tells the two apart"
    );
    assert_eq!(choice(1e-9).0, best_mean.mv);
    assert_eq!(choice(1e9).0, most_visited);
}

/// A search of `game` until `time` that may stop once `settle` says so; how long it took.
fn timed_search(
    mcts: &mut Mcts<Cell>,
    game: &mut Game,
    settle: Settle,
    time: Duration,
) -> Duration {
    let options = MctsOptions::strong();
    let mut scratch = Scratch::new(game);
    let start = Instant::now();
    let limits = MctsLimits {
        start,
        time: Some(time),
        playouts: None,
        settle: Some(settle),
    };
    mcts.search(
        &mut OmegaTree::new(game, &mut scratch, options.playout),
        limits,
        None,
        |_, _| {},
    )
    .unwrap();
    start.elapsed()
}

/// Stopping once settled (Baier & Winands's STOP): the lead of the most visited line is read
/// as the visits say, a search stops once its line leads by what the rest of its time could
/// not overturn, and never while it does not.
#[test]
fn a_timed_search_stops_once_its_line_is_settled_and_not_before() {
    let options = MctsOptions::strong();
    let mcts = middle_game_search(options.search, options.playout, 20_000);
    let unproven: Vec<u32> = mcts
        .root_children()
        .iter()
        .filter(|c| c.proven == UNPROVEN)
        .map(|c| c.visits)
        .collect();
    let lead = (unproven[0] - unproven[1]) as f64;
    assert!(lead > 0.0, "{unproven:?}");
    assert!(mcts.line_leads_by(1, lead - 1.0));
    assert!(!mcts.line_leads_by(1, lead));
    assert!(
        !mcts.line_leads_by(2, lead),
        "the second stone leads by less"
    );
    assert!(mcts.line_leads_by(0, f64::MAX), "an empty line is settled");

    // A lead of any size is enough: the search stops soon after a tenth of its time.
    let mut game = position(5, 2, 4, 21);
    let mut mcts: Mcts<Cell> = Mcts::new(options.search, 5);
    let any = Settle {
        plies: 2,
        share: 0.0,
    };
    let took = timed_search(&mut mcts, &mut game, any, Duration::from_secs(3));
    assert!(took < Duration::from_secs(2), "took {took:?}");
    assert!(mcts.line_leads_by(2, 0.0));

    // A lead no search could reach: it runs its whole time.
    let mut mcts: Mcts<Cell> = Mcts::new(options.search, 5);
    let never = Settle {
        plies: 2,
        share: 1e12,
    };
    let time = Duration::from_millis(300);
    assert!(timed_search(&mut mcts, &mut game, never, time) >= time);
}

/// `value_blend`: a 2-player playout's rewards are blended with the shapes' value of the
/// leaf it starts from, the same for every playout from that leaf, where the leaf has at
/// least `value_min_empties` empty cells and `value_min_share` of its cells empty, on a
/// board of at most `value_max_cells` cells; a playout anywhere else keeps its win-or-loss
/// rewards. With 3 and 4 players the blend is `value_blend_multi`'s.
#[test]
fn playout_rewards_blend_the_shape_value_where_it_applies() {
    use omega::mcts::{FastRng, MctsPosition};
    let rewards_of = |game: &mut Game, config: PlayoutConfig| {
        let mut scratch = Scratch::new(game);
        let mut tree = OmegaTree::new(game, &mut scratch, config);
        let mut amaf = vec![0u8; tree.amaf_len()];
        let mut rng = FastRng::new(9);
        (0..40)
            .map(|_| {
                let mut rewards = [0.0; 4];
                tree.playout(&mut rng, &mut amaf, &mut rewards);
                rewards
            })
            .collect::<Vec<_>>()
    };
    let blend = |l: f32, min: usize, max: usize| PlayoutConfig {
        value_blend: l,
        value_min_empties: min,
        value_min_share: 0.0,
        value_max_cells: max,
        ..PlayoutConfig::default()
    };
    let win_or_loss = |r: &[[f32; 4]], players: usize| {
        r.iter()
            .all(|r| r[..players].iter().all(|&x| x == 0.0 || x == 1.0))
    };
    let mut game = position(5, 2, 2, 4);
    let empties = game.empties().len();
    // The whole reward from the value: one value for every playout, strictly inside (0, 1).
    let full = rewards_of(&mut game, blend(1.0, empties, 61));
    let v = full[0][0];
    assert!(v > 0.0 && v < 1.0, "{v}");
    assert!(full
        .iter()
        .all(|r| (r[0] - v).abs() < 1e-6 && (r[1] - (1.0 - v)).abs() < 1e-6));
    // A quarter of it: each reward a quarter of the way from the win or loss to the value.
    let quarter = rewards_of(&mut game, blend(0.25, empties, 61));
    for r in &quarter {
        let white_won = r[0] > r[1];
        let (w, b) = if white_won { (1.0, 0.0) } else { (0.0, 1.0) };
        assert!((r[0] - (0.75 * w + 0.25 * v)).abs() < 1e-6, "{r:?}");
        assert!((r[1] - (0.75 * b + 0.25 * (1.0 - v))).abs() < 1e-6, "{r:?}");
    }
    // Too few empty cells, too big a board, or three players: no blend.
    assert!(win_or_loss(
        &rewards_of(&mut game, blend(1.0, empties + 1, 61)),
        2
    ));
    assert!(win_or_loss(&rewards_of(&mut game, blend(1.0, 0, 60)), 2));
    // The share of empty cells: just reached blends, just missed does not.
    let share = |s: f32| PlayoutConfig {
        value_min_share: s,
        ..blend(1.0, 0, 61)
    };
    let reached = empties as f32 / 61.0;
    assert_eq!(rewards_of(&mut game, share(reached - 0.25 / 61.0)), full);
    assert!(win_or_loss(
        &rewards_of(&mut game, share(reached + 0.25 / 61.0)),
        2
    ));
    assert!(win_or_loss(
        &rewards_of(&mut position(5, 3, 2, 4), blend(1.0, 0, 61)),
        3
    ));
    // With 3 and 4 players, `value_blend_multi`: the whole reward from each colour's chance
    // by the shapes, one vector for every playout, inside (0, 1) and summing to 1.
    for (side, players) in [(5, 3), (6, 4)] {
        let multi = PlayoutConfig {
            value_blend_multi: 1.0,
            ..blend(0.0, 0, usize::MAX)
        };
        let r = rewards_of(&mut position(side, players, 2, 4), multi);
        let sum: f32 = r[0][..players].iter().sum();
        assert!((sum - 1.0).abs() < 1e-5, "{:?}", r[0]);
        assert!(r[0][..players].iter().all(|&v| v > 0.0 && v < 1.0));
        assert!(r
            .iter()
            .all(|x| x.iter().zip(&r[0]).all(|(a, b)| (a - b).abs() < 1e-6)));
    }
    // The default: a quarter of the value, from 30 empty cells up on side 5 (as tuned
    // there), 62 on side 7 and 133 on side 10, on every board.
    let default = MctsOptions::strong().playout;
    assert_eq!(
        (default.value_blend, default.value_max_cells),
        (0.25, usize::MAX)
    );
    for (cells, least) in [(61, 30), (127, 62), (271, 133)] {
        let share = |players, empties| default.shape_value_share(players, empties, cells);
        assert!(
            share(2, least) == 0.25 && share(2, least - 1) == 0.0,
            "{cells} cells"
        );
        for players in [3, 4] {
            assert_eq!(share(players, cells), default.value_blend_multi);
        }
    }
}

/// `value_prior`: with two players the pattern priors move with the shapes' value change of
/// each move, the mover's way (so some up and some down); with three they stay as they are.
#[test]
fn the_shape_value_prior_moves_two_player_priors_only() {
    let config = |b: f32| PlayoutConfig {
        pattern_prior: 2.0,
        value_prior: b,
        ..PlayoutConfig::default()
    };
    for turns in [2, 3] {
        let game = position(5, 2, turns, 6);
        let (_, plain) = legal_moves_and_priors(&mut game.clone(), config(0.0));
        let (_, valued) = legal_moves_and_priors(&mut game.clone(), config(1.0));
        let (_, against) = legal_moves_and_priors(&mut game.clone(), config(-1.0));
        let up = plain.iter().zip(&valued).filter(|(p, q)| q > p).count();
        let down = plain.iter().zip(&valued).filter(|(p, q)| q < p).count();
        assert!(up > 0 && down > 0, "{up} up, {down} down");
        // The opposite weight moves each prior the other way.
        for ((p, q), r) in plain.iter().zip(&valued).zip(&against) {
            assert_eq!(q > p, r < p, "{p} {q} {r}");
        }
    }
    let game = position(5, 3, 2, 6);
    let (_, plain) = legal_moves_and_priors(&mut game.clone(), config(0.0));
    assert_eq!(
        plain,
        legal_moves_and_priors(&mut game.clone(), config(1.0)).1
    );
}

/// Who wins the last turn by trying every turn of the last player: the last player when one
/// of its turns wins, else the one colour that wins them all, else none.
fn last_turn_by_trying(game: &mut Game) -> Option<usize> {
    fn winners(game: &mut Game, stones: usize, out: &mut Vec<usize>) {
        if stones == 0 {
            out.push(game.winner().0.index());
            return;
        }
        for cell in game.empties().to_vec() {
            game.place(cell);
            winners(game, stones - 1, out);
            game.unplace();
        }
    }
    let (k, mut all) = (game.players(), Vec::new());
    winners(game, k, &mut all);
    if all.contains(&(k - 1)) {
        Some(k - 1)
    } else {
        all.iter().all(|&w| w == all[0]).then_some(all[0])
    }
}

/// With 3-4 players, the tree's position knows the winner at the start of the last player's
/// last turn exactly when trying every turn shows one (`last_turn_proofs`), also when the
/// tree reached it by its own plies; at the start of the turn before it knows none.
#[test]
fn the_last_turn_is_known_as_trying_every_turn_shows() {
    use omega::mcts::MctsPosition;
    let mut outcomes = [0; 3];
    for (side, players) in [(4, 3), (5, 3), (4, 4), (6, 4)] {
        for seed in 0..12u64 {
            let mut game = Game::new(side, players).unwrap();
            while game.turns_left() > 2 {
                let turn = random_turn(&game, seed);
                game.play_turn(game.to_move(), &turn).unwrap();
            }
            let mut root = game.clone();
            let mut scratch = Scratch::new(&root);
            let mut tree = OmegaTree::new(&mut root, &mut scratch, PlayoutConfig::default());
            assert_eq!(
                tree.known_winner(),
                None,
                "side {side} K {players} seed {seed}"
            );
            for cell in random_turn(&game, seed + 100) {
                tree.play(cell);
                game.place(cell);
            }
            let expected = last_turn_by_trying(&mut game);
            let label = format!("side {side} K {players} seed {seed}");
            assert_eq!(tree.known_winner(), expected, "{label}: in the tree");
            let mut scratch = Scratch::new(&game);
            let mut fresh = OmegaTree::new(&mut game, &mut scratch, PlayoutConfig::default());
            assert_eq!(fresh.known_winner(), expected, "{label}: as a root");
            outcomes[match expected {
                Some(w) if w == players - 1 => 0,
                Some(_) => 1,
                None => 2,
            }] += 1;
        }
    }
    // The last player's wins, another colour's sure wins and open turns all came up.
    assert!(outcomes.iter().all(|&n| n > 0), "{outcomes:?}");
}

/// With `last_turn_win`, a playout from the start of the last player's last turn is won by
/// the last player exactly when one of its turns wins (trying every turn); from a turn
/// earlier it still scores as the rules (the policies' test above), and the last player
/// wins more of them than random last turns give it.
#[test]
fn playouts_take_the_last_players_win_where_trying_every_turn_finds_one() {
    use omega::mcts::{FastRng, MctsPosition};
    let (mut wins, mut others, mut earlier) = (0, 0, [0usize; 2]);
    for (side, players) in [(4, 3), (5, 3), (4, 4), (6, 4), (4, 2)] {
        for seed in 0..10u64 {
            let mut game = Game::new(side, players).unwrap();
            while game.turns_left() > 2 {
                let turn = random_turn(&game, seed);
                game.play_turn(game.to_move(), &turn).unwrap();
            }
            // A turn before the last: the last player's share of 200 playouts each way.
            for (on, count) in earlier.iter_mut().enumerate() {
                let mut root = game.clone();
                let mut scratch = Scratch::new(&root);
                let config = PlayoutConfig {
                    last_turn_win: on == 1,
                    ..PlayoutConfig::default()
                };
                let mut tree = OmegaTree::new(&mut root, &mut scratch, config);
                let mut amaf = vec![0u8; tree.amaf_len()];
                let mut rng = FastRng::new(seed);
                for _ in 0..200 {
                    let won = tree.playout(&mut rng, &mut amaf, &mut [0.0; 4]);
                    *count += usize::from(won == players - 1);
                }
            }
            let last = random_turn(&game, seed + 100);
            game.play_turn(game.to_move(), &last).unwrap();
            let expected = last_turn_by_trying(&mut game);
            let config = PlayoutConfig {
                last_turn_win: true,
                ..PlayoutConfig::default()
            };
            let mut scratch = Scratch::new(&game);
            let mut tree = OmegaTree::new(&mut game, &mut scratch, config);
            let mut amaf = vec![0u8; tree.amaf_len()];
            let mut rng = FastRng::new(seed);
            for _ in 0..20 {
                let won = tree.playout(&mut rng, &mut amaf, &mut [0.0; 4]);
                let label = format!("side {side} K {players} seed {seed}");
                if expected == Some(players - 1) {
                    assert_eq!(won, players - 1, "{label}: the last player's win missed");
                } else {
                    assert_ne!(won, players - 1, "{label}: a win where none is");
                }
            }
            if expected == Some(players - 1) {
                wins += 1;
            } else {
                others += 1;
            }
        }
    }
    // Both cases came up, and the wins taken show before the last turn too.
    assert!(wins > 0 && others > 0, "{wins} / {others}");
    assert!(earlier[1] > earlier[0], "{earlier:?}");
}

/// `last_turn_win=before_last` (the default) plays the last player's win in the playouts
/// of the seat just before the last player with 3 players only (black); `every` in all,
/// `off` in none.
#[test]
fn the_last_turn_win_is_for_the_seat_before_the_last() {
    use omega::player::LastTurnWin;
    let seats = |rule: LastTurnWin, players: usize| -> Vec<usize> {
        (0..players).filter(|&m| rule.applies(players, m)).collect()
    };
    assert_eq!(MctsOptions::strong().last_turn_win, LastTurnWin::BeforeLast);
    assert_eq!(MctsOptions::plain().last_turn_win, LastTurnWin::Off);
    assert_eq!(seats(LastTurnWin::BeforeLast, 2), Vec::<usize>::new());
    assert_eq!(seats(LastTurnWin::BeforeLast, 3), vec![1]);
    assert_eq!(seats(LastTurnWin::BeforeLast, 4), Vec::<usize>::new());
    assert_eq!(seats(LastTurnWin::Every, 3), vec![0, 1, 2]);
    assert_eq!(seats(LastTurnWin::Off, 4), Vec::<usize>::new());
    let mut options = MctsOptions::strong();
    options.set("last_turn_win", "every").unwrap();
    assert_eq!(options.last_turn_win, LastTurnWin::Every);
    assert!(options.set("last_turn_win", "on").is_err());
    assert_eq!(
        options.last_turn_win,
        LastTurnWin::Every,
        "a bad value changes nothing"
    );
}

/// `plain_seats=4:red` (the default): the default's turns as red with 4 players are
/// searched as `mcts-plain`'s (the same seed and playouts give the same turn), and its turns
/// in the other seats and with 3 players stay those of `plain_seats=none`. Bad values are
/// refused and change nothing.
#[test]
fn a_plain_seat_searches_as_mcts_plain() {
    let turn = |kind: PlayerKind, plain_seats: Option<&str>, game: &Game| {
        let mut config = engine_config(kind, 3_000, 5, 1, true);
        if let Some(value) = plain_seats {
            config.options.mcts.set("plain_seats", value).unwrap();
        }
        turn_at(&mut Engine::new(config), game)
    };
    for seed in [1, 2, 3] {
        let red_to_move = position(5, 4, 2, seed);
        let blue_to_move = position(5, 4, 3, seed);
        let red_of_three = position(5, 3, 2, seed);
        assert_eq!(red_to_move.to_move(), Colour::Red);
        let plain = turn(PlayerKind::MctsPlain, None, &red_to_move);
        // The kind of search matters there, so the comparisons below can fail.
        assert_ne!(
            plain,
            turn(PlayerKind::Mcts, Some("none"), &red_to_move),
            "seed {seed}"
        );
        assert_eq!(
            turn(PlayerKind::Mcts, None, &red_to_move),
            plain,
            "seed {seed}"
        );
        for game in [&blue_to_move, &red_of_three] {
            assert_eq!(
                turn(PlayerKind::Mcts, Some("4:red+3:white"), game),
                turn(PlayerKind::Mcts, Some("none"), game),
                "seed {seed}"
            );
        }
    }
    // The default's red with 4 players; `mcts-plain` has no such seat.
    assert!(MctsOptions::strong().plain_seats.holds(4, 2));
    assert_eq!(MctsOptions::plain().plain_seats, SeatSet::NONE);
    let mut options = MctsOptions::strong();
    options.set("plain_seats", "4:red+3:BLACK").unwrap();
    let seats = options.plain_seats;
    assert!(seats.holds(4, 2) && seats.holds(3, 1));
    assert!(!seats.holds(4, 1) && !seats.holds(3, 2) && !seats.holds(2, 1));
    for bad in [
        "3:blue",
        "5:red",
        "red",
        "4:",
        "4:green",
        "4:red,3:black",
        "",
    ] {
        assert!(options.set("plain_seats", bad).is_err(), "{bad}");
        assert_eq!(options.plain_seats, seats, "'{bad}' changes nothing");
    }
    options.set("plain_seats", "none").unwrap();
    assert!(!options.plain_seats.holds(4, 2));
}

/// An engine of the default player, reproducible, with `setting` for every colour (`all`)
/// and for `seat`'s turns only.
fn engine_with_setting(setting: (&str, &str), all: bool, seat: Option<Colour>) -> Engine {
    let mut config = engine_config(PlayerKind::Mcts, 3_000, 5, 1, true);
    if all {
        config.options.mcts.set(setting.0, setting.1).unwrap();
    }
    if let Some(colour) = seat {
        config
            .options
            .set_seat(colour, setting.0, setting.1)
            .unwrap();
    }
    Engine::new(config)
}

/// The turn `engine` chooses for the player to move at `game` (loaded: the tree forgotten).
fn turn_at(engine: &mut Engine, game: &Game) -> Vec<Cell> {
    engine.load(game.clone(), false);
    engine
        .genmove(game.to_move(), false, None)
        .unwrap()
        .unwrap()
}

/// `--set black:NAME=VALUE`: black's turns search as with the setting everywhere, the other
/// colours' as without it, also in an engine that has just searched a turn of black's (the
/// trees are given each seat's configuration before its search).
#[test]
fn a_colours_own_setting_changes_that_colours_turns_only() {
    let setting = ("exploration", "3");
    let black = Some(Colour::Black);
    for seed in [1, 2, 3] {
        let black_to_move = position(5, 3, 1, seed);
        let white_to_move = position(5, 3, 3, seed);
        let with = turn_at(
            &mut engine_with_setting(setting, true, None),
            &black_to_move,
        );
        let without = turn_at(
            &mut engine_with_setting(setting, false, None),
            &black_to_move,
        );
        // The setting matters there, so the comparisons below can fail.
        assert_ne!(with, without, "seed {seed}");
        let mut scoped = engine_with_setting(setting, false, black);
        assert_eq!(turn_at(&mut scoped, &black_to_move), with, "seed {seed}");
        let white_without = turn_at(
            &mut engine_with_setting(setting, false, None),
            &white_to_move,
        );
        assert_eq!(
            turn_at(&mut scoped, &white_to_move),
            white_without,
            "seed {seed}"
        );
    }
}

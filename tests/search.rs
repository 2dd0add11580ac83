//! The search against plain minimax, the endgame solver, legality and reproducibility.

use omega::board::Cell;
use omega::engine::{Engine, EngineConfig};
use omega::game::{Colour, Game};
use omega::player::{random_turn, PlayerKind, SearchOptions};
use omega::position::OmegaPosition;
use omega::search::{Features, Position, SearchLimits, Searcher, Value, INFINITY, WIN};
use std::time::{Duration, Instant};

/// Plain minimax with the search's own leaf rule (depth used up at a turn boundary, or the
/// end of the game) and paranoid semantics: the root player maximises, all others minimise.
fn minimax(game: &mut Game, depth: i32, root: Colour) -> Value {
    if game.is_over() || (depth <= 0 && game.at_turn_boundary()) {
        return OmegaPosition::new(game).evaluate(root.index());
    }
    let maximise = game.to_move() == root;
    let mut best = if maximise { -INFINITY } else { INFINITY };
    for cell in game.empties().to_vec() {
        game.place(cell);
        let v = minimax(game, depth - 1, root);
        game.unplace();
        best = if maximise { best.max(v) } else { best.min(v) };
    }
    best
}

fn search_value(game: &mut Game, depth: usize, features: Features) -> (Value, Vec<Cell>, bool) {
    let mut searcher = Searcher::new(4, features);
    let limits = SearchLimits {
        soft: Duration::MAX,
        hard: Duration::MAX,
        depth: Some(depth),
        nodes: None,
    };
    let it = searcher
        .search(
            &mut OmegaPosition::new(game),
            Instant::now(),
            limits,
            |_| {},
        )
        .expect("not over");
    (it.value, it.pv, it.exact)
}

fn position(side: usize, players: usize, turns: usize, seed: u64) -> Game {
    let mut game = Game::new(side, players).unwrap();
    for _ in 0..turns {
        let t = random_turn(&game, seed);
        game.play_turn(game.to_move(), &t).unwrap();
    }
    game
}

#[test]
fn search_with_every_enhancement_equals_minimax_on_tiny_positions() {
    // (side, players, turns played first, depths to compare)
    let cases: &[(usize, usize, usize, &[usize])] = &[
        (3, 2, 3, &[1, 2, 3, 4]),
        (3, 2, 5, &[2, 4, 6]),
        (3, 3, 4, &[3, 6]),
        (4, 4, 7, &[2, 4]),
        (3, 4, 3, &[4]),
    ];
    // Every enhancement on (aspiration windows too, off by default), the defaults, and
    // the defaults without the table or without PVS.
    let variants = [
        Features {
            aspiration: true,
            ..Features::default()
        },
        Features::default(),
        Features {
            tt: false,
            ..Features::default()
        },
        Features {
            pvs: false,
            ..Features::default()
        },
    ];
    for &(side, players, turns, depths) in cases {
        for seed in 0..4 {
            let mut game = position(side, players, turns, seed);
            let before = game.hash();
            for &depth in depths {
                let mover = game.to_move();
                let want = minimax(&mut game, depth as i32, mover);
                for features in variants {
                    let (got, pv, _) = search_value(&mut game, depth, features);
                    assert_eq!(
                        got, want,
                        "side {side} K {players} turns {turns} seed {seed} depth {depth} {features:?}"
                    );
                    assert!(!pv.is_empty());
                }
                assert_eq!(game.hash(), before, "search must leave the game as it was");
                game.check_consistency().unwrap();
            }
        }
    }
}

#[test]
fn endgame_solver_finds_that_black_wins_on_side_two() {
    let mut game = Game::new(2, 2).unwrap();
    let truth = minimax(&mut game, 100, Colour::White);
    assert!(truth <= -WIN, "minimax: white loses side 2 (value {truth})");
    let (value, _, exact) = search_value(&mut game, 100, Features::default());
    assert!(exact, "a deep enough search is exact");
    assert_eq!(value, truth);
    // And from black's side after any white turn, black's best reply wins.
    let mut engine = Engine::new(EngineConfig::default());
    engine.set_up(2, 2).unwrap();
    let white = engine
        .genmove(Colour::White, true, None)
        .unwrap()
        .expect("no swap rule");
    assert_eq!(white.len(), 2);
    engine.genmove(Colour::Black, true, None).unwrap();
    assert!(engine.game().is_over());
    assert_eq!(engine.game().winner().0, Colour::Black);
}

#[test]
fn endgame_is_solved_exactly_on_side_five() {
    // 13 empty cells: three rounds of four stones are left, twelve plies: exact.
    let mut game = position(5, 2, 24, 7);
    let (value, pv, exact) = search_value(&mut game, 60, Features::default());
    assert!(exact);
    assert!(
        value.abs() >= WIN,
        "an exact value is a result, got {value}"
    );
    // Playing the principal variation out reaches the end with the promised result.
    for &cell in &pv {
        game.place(cell);
    }
    assert!(game.is_over(), "the PV of an exact search runs to the end");
    let (winner, _) = game.winner();
    assert_eq!(winner == Colour::White, value > 0);
}

/// Lazy SMP: helpers that share the table while the main search runs (and write into it
/// concurrently) do not change the exact value.
#[test]
fn lazy_smp_helpers_leave_exact_results_exact() {
    let stop = omega::stop::Stop::new();
    for seed in 0..4 {
        let mut game = position(5, 2, 23, seed);
        let (alone, _, _) = search_value(&mut game.clone(), 60, Features::default());
        let mut main: Searcher<Cell> = Searcher::new(4, Features::default());
        let mut helpers: Vec<Searcher<Cell>> = (1..4).map(|i| main.helper(1 + i % 2)).collect();
        let limits = SearchLimits {
            soft: Duration::MAX,
            hard: Duration::MAX,
            depth: Some(60),
            nodes: None,
        };
        stop.lower();
        let mut copies = vec![game.clone(); helpers.len()];
        let it = std::thread::scope(|scope| {
            for (helper, copy) in helpers.iter_mut().zip(&mut copies) {
                helper.set_stop(stop.clone());
                scope.spawn(move || {
                    helper.search(
                        &mut OmegaPosition::new(copy),
                        Instant::now(),
                        limits,
                        |_| {},
                    )
                });
            }
            let it = main.search(
                &mut OmegaPosition::new(&mut game),
                Instant::now(),
                limits,
                |_| {},
            );
            stop.raise();
            it.expect("not over")
        });
        assert!(it.exact, "seed {seed}");
        assert_eq!(
            it.value, alone,
            "seed {seed}: the same exact value with helpers"
        );
        // The line beyond the search's own is read from the table, which the helpers write
        // too: only its first turn is checked.
        assert!(it.pv.len() >= 2, "seed {seed}: a whole first turn");
        game.play_turn(game.to_move(), &it.pv[..2]).unwrap();
    }
}

/// Plays whole games with the search player at a small node budget, checking every turn it
/// proposes with the referee's rules before playing it.
#[test]
fn genmove_is_legal_in_every_phase_for_two_three_and_four_players() {
    for (side, players) in [(4, 2), (5, 2), (4, 3), (5, 3), (4, 4), (5, 4)] {
        let mut config = EngineConfig::for_player(PlayerKind::AlphaBeta);
        config.options.seed = 1;
        config.options.alphabeta = SearchOptions {
            nodes: Some(3000),
            hash_mb: 4,
            // One thread on side 4, lazy SMP with two on side 5.
            threads: side - 3,
            ..SearchOptions::default()
        };
        let mut engine = Engine::new(config);
        engine.set_up(side, players).unwrap();
        let mut referee = Game::new(side, players).unwrap();
        while !referee.is_over() {
            let colour = referee.to_move();
            let turn = engine
                .genmove(colour, true, None)
                .unwrap()
                .expect("no swap rule");
            referee.check_turn(colour, &turn).unwrap();
            referee.play_turn(colour, &turn).unwrap();
            assert_eq!(referee.hash(), engine.game().hash());
        }
        assert!(engine.genmove(Colour::White, true, None).is_err());
    }
}

#[test]
fn depth_and_node_limits_give_the_same_move_on_every_run() {
    for options in [
        SearchOptions {
            depth: Some(3),
            ..SearchOptions::default()
        },
        SearchOptions {
            nodes: Some(20_000),
            ..SearchOptions::default()
        },
    ] {
        let moves: Vec<Vec<Cell>> = (0..3)
            .map(|_| {
                let mut config = EngineConfig::for_player(PlayerKind::AlphaBeta);
                config.options.alphabeta = options;
                let mut engine = Engine::new(config);
                let game = position(5, 2, 4, 3);
                for t in game.turn_history() {
                    let coords: Vec<_> = t.iter().map(|&c| game.board().coord(c)).collect();
                    let mover = engine.game().to_move();
                    engine.play(mover, &coords).unwrap();
                }
                engine
                    .genmove(game.to_move(), false, None)
                    .unwrap()
                    .expect("no swap rule")
            })
            .collect();
        assert_eq!(moves[0], moves[1]);
        assert_eq!(moves[1], moves[2]);
    }
}

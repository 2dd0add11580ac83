//! The exact solver of Yavalath and Hexed (`solve`, `omega::search::exact`) against a brute
//! force written here: a plain negamax over every legal move of the rules, three results.
//! Positions come from seeded random games with few empty cells left; each answer must be
//! the brute force's value, and the move given must keep it (a win's move wins, a draw's
//! move draws at least).

use omega::games::hexed::Hexed;
use omega::games::yavalath::Yavalath;
use omega::games::{GameResult, Rules};
use omega::search::exact::{longest_resistance, solve, ExactLimit, ExactStats, Solution};
use omega::stop::Stop;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;

/// A finished game's result for `colour`: 1 won, 0 drawn, -1 lost.
fn result_for(result: GameResult, colour: usize) -> i8 {
    match result {
        GameResult::Win(c) if c == colour => 1,
        GameResult::Win(_) => -1,
        GameResult::Draw => 0,
    }
}

/// The value of `game` for its mover with best play, by trying every move. Contract: no
/// swap can be played (colours and players stay together).
fn brute<R: Rules>(game: &mut R) -> i8 {
    let mover = game.to_move().expect("not over");
    let mut best = -1;
    for m in game.legal_moves() {
        game.play(m);
        let v = match game.result() {
            Some(r) => result_for(r, mover),
            None if game.to_move() == Some(mover) => brute(game),
            None => -brute(game),
        };
        assert!(game.undo());
        best = best.max(v);
        if best == 1 {
            break;
        }
    }
    best
}

/// The brute force's value for `game`'s mover after `solution`'s move, or of the root for a
/// loss; panics on `Unknown`.
fn check<R: Rules>(game: &R, solution: &Solution<omega::games::GameMove>, what: &str) {
    let mut g = game.clone();
    let value = brute(&mut g);
    let mover = game.to_move().unwrap();
    let after = |m| {
        let mut g = game.clone();
        g.play(m);
        match g.result() {
            Some(r) => result_for(r, mover),
            None if g.to_move() == Some(mover) => brute(&mut g),
            None => -brute(&mut g),
        }
    };
    match *solution {
        Solution::Unknown => panic!("{what}: not solved"),
        Solution::Win(m) => {
            assert_eq!(value, 1, "{what}: a win the brute force does not see");
            assert_eq!(after(m), 1, "{what}: the winning move {m:?} does not win");
        }
        Solution::Draw(m) => {
            assert_eq!(value, 0, "{what}: a draw, the brute force says {value}");
            assert_eq!(after(m), 0, "{what}: the drawing move {m:?} does not draw");
        }
        Solution::Loss => assert_eq!(value, -1, "{what}: a loss, the brute force says {value}"),
    }
}

/// Plays random legal moves on `game` until `empty_left` cells are left, or gives up when
/// the game ends first (`None`).
fn random_position<R: Rules>(mut game: R, moves: usize, rng: &mut StdRng) -> Option<R> {
    for _ in 0..moves {
        let legal = game.legal_moves();
        if legal.is_empty() {
            return None;
        }
        game.play(legal[rng.gen_range(0..legal.len())]);
        if game.is_over() {
            return None;
        }
    }
    Some(game)
}

fn solve_and_check<R: Rules>(start: R, moves: usize, positions: usize, seed: u64) -> [usize; 3] {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut kinds = [0; 3];
    let mut found = 0;
    while found < positions {
        let Some(game) = random_position(start.clone(), moves, &mut rng) else {
            continue;
        };
        found += 1;
        let (solution, _) = game
            .solve(Duration::from_secs(60), &Stop::new())
            .expect("the game has a solver");
        let what = format!("{} after {:?}", R::NAME, game.history());
        check(&game, &solution, &what);
        kinds[match solution {
            Solution::Win(_) => 0,
            Solution::Draw(_) => 1,
            _ => 2,
        }] += 1;
    }
    kinds
}

#[test]
fn yavalath_solutions_agree_with_brute_force() {
    // Side 3 (19 cells), 9 or 10 stones placed: 9 or 10 empty cells to search.
    let mut draws = 0;
    for (moves, seed) in [(9, 1), (10, 2)] {
        let start = Yavalath::new(3, 2, false).unwrap();
        let kinds = solve_and_check(start, moves, 40, seed);
        eprintln!("yavalath, {moves} stones: wins, draws, losses {kinds:?}");
        // Both results occur, so both kinds of proof were checked.
        assert!(kinds[0] > 0 && kinds[2] > 0, "{kinds:?}");
        draws += kinds[1];
    }
    assert!(draws > 0, "no draw was checked");
}

#[test]
fn hexed_solutions_agree_with_brute_force() {
    // 59 cells, 6 in the start ring: 45 placements leave 8 empty cells or fewer (passes
    // aside).
    let start = Hexed::new(9, 2, false).unwrap();
    let kinds = solve_and_check(start, 45, 25, 3);
    eprintln!("hexed: wins, draws, losses {kinds:?}");
    assert!(kinds[0] > 0 && kinds[2] > 0, "{kinds:?}");
}

/// The node budget of each search of the tests of the lost position below, at least ten times
/// what one takes, so that their answers do not depend on the machine's load: the proof that
/// black has lost took 0.7 million nodes, the deepest of the losses solved (white's win after
/// `Place(27)`, at depth 11) 3.2 million.
const LOST_POSITION_NODES: u64 = 30_000_000;

/// `game` solved within [`LOST_POSITION_NODES`].
fn solve_by_nodes(game: &Yavalath) -> (Solution<omega::games::GameMove>, ExactStats) {
    solve(
        game.exact_children(),
        ExactLimit::Nodes(LOST_POSITION_NODES),
        &Stop::new(),
    )
}

/// A side-5 Yavalath position from a game lost to `negamax4` (docs/yavalath.md): white c4,
/// black swaps, black f4, white c5, black f6, white d5; black to move has lost.
fn lost_to_negamax4() -> Yavalath {
    let mut game = Yavalath::new(5, 2, true).unwrap();
    for w in "c4 swap f4 c5 f6 d5".split_whitespace() {
        let m = game.parse_move(w).unwrap();
        game.play(m);
    }
    game
}

#[test]
fn a_yavalath_loss_by_threats_is_proven() {
    // From a game lost to `negamax4` (docs/yavalath.md): black to move has lost; after a1,
    // white wins with a2 (three threats in a row).
    let mut game = lost_to_negamax4();
    assert_eq!(solve_by_nodes(&game).0, Solution::Loss);
    game.play(game.parse_move("a1").unwrap());
    let Solution::Win(m) = solve_by_nodes(&game).0 else {
        panic!("white wins");
    };
    assert_eq!(game.move_name(m), "a2");
}

#[test]
fn a_stopped_solve_answers_unknown() {
    let game = Yavalath::new(5, 2, true).unwrap();
    let stop = Stop::new();
    stop.raise();
    let start = std::time::Instant::now();
    let (solution, _) = game.solve(Duration::from_secs(60), &stop).unwrap();
    assert_eq!(solution, Solution::Unknown);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "the stop was not obeyed"
    );
}

#[test]
fn a_lost_yavalath_position_resists_longest() {
    // Black is lost (above); a1 loses to 3 threats in a row. The longest resistance keeps
    // the moves whose loss is deepest: not a1, and each of them holds out longer. Node
    // budgets, not time (with 60 s a solve, a busy 2-core machine ran out before the
    // deepest loss was proven).
    let game = lost_to_negamax4();
    let survivors = longest_resistance(
        game.exact_children(),
        ExactLimit::Nodes(LOST_POSITION_NODES),
        &Stop::new(),
    );
    let a1 = game.parse_move("a1").unwrap();
    assert!(
        !survivors.is_empty() && !survivors.contains(&a1),
        "{survivors:?}"
    );
    // The depth at which white's win is proven after a move.
    let loss_depth = |m| {
        let mut g = game.clone();
        g.play(m);
        let (solution, stats) = solve_by_nodes(&g);
        assert!(matches!(solution, Solution::Win(_)), "{m:?}: {solution:?}");
        stats.depth
    };
    let shallow = loss_depth(a1);
    for &m in survivors.iter().take(3) {
        assert!(loss_depth(m) > shallow, "{m:?}");
    }
}

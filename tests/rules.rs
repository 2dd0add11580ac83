//! The rules, checked over many seeded random games: incremental state equals a recount,
//! undo restores everything, games last exactly as long as the end rule says.

use omega::board::Cell;
use omega::game::{Colour, Game, MoveError};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

const SIDES: [usize; 5] = [2, 3, 4, 5, 7];

fn random_turn(game: &Game, rng: &mut StdRng) -> Vec<Cell> {
    game.empties()
        .choose_multiple(rng, game.players())
        .copied()
        .collect()
}

/// Stones, scores, hash, each cell's group size and the empty list.
type Snapshot = (Vec<Option<Colour>>, Vec<u128>, u64, Vec<usize>, Vec<Cell>);

/// A full snapshot of everything observable, to compare before and after undo.
fn snapshot(game: &Game) -> Snapshot {
    let b = game.board();
    let stones = b.cells().map(|c| game.stone(c)).collect();
    let groups = b
        .cells()
        .map(|c| game.stone(c).map_or(0, |_| game.group_size(c)))
        .collect();
    (
        stones,
        game.scores(),
        game.hash(),
        groups,
        game.empties().to_vec(),
    )
}

/// Score of a colour recounted by flood fill, independently of the library.
fn recount(game: &Game, colour: Colour) -> u128 {
    let b = game.board();
    let mut seen = vec![false; b.cell_count()];
    let mut score = 0u128;
    for start in b.cells() {
        if seen[start as usize] || game.stone(start) != Some(colour) {
            continue;
        }
        let mut stack = vec![start];
        seen[start as usize] = true;
        let mut size = 0u128;
        while let Some(c) = stack.pop() {
            size += 1;
            for &n in b.neighbours(c) {
                if !seen[n as usize] && game.stone(n) == Some(colour) {
                    seen[n as usize] = true;
                    stack.push(n);
                }
            }
        }
        score = score.max(1) * size;
    }
    score
}

#[test]
fn incremental_scores_equal_recount_after_every_turn() {
    for players in 2..=4 {
        for side in SIDES {
            for seed in 0..6 {
                let mut rng =
                    StdRng::seed_from_u64(seed * 1000 + side as u64 * 10 + players as u64);
                let mut game = Game::new(side, players).unwrap();
                while !game.is_over() {
                    let turn = random_turn(&game, &mut rng);
                    game.play_turn(game.to_move(), &turn).unwrap();
                    game.check_consistency().unwrap();
                    for c in game.colours() {
                        assert_eq!(
                            game.score(c),
                            recount(&game, c),
                            "{c} side {side} K {players}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn random_play_undo_sequences_restore_everything() {
    for players in 2..=4 {
        for side in SIDES {
            let mut rng = StdRng::seed_from_u64(77 + side as u64 * 5 + players as u64);
            let mut game = Game::new(side, players).unwrap();
            let mut snapshots = vec![snapshot(&game)];
            for _ in 0..400 {
                let undo = rng.gen_bool(0.35) || game.is_over();
                if undo {
                    let had_turn = snapshots.len() > 1;
                    assert_eq!(game.undo_turn(), had_turn);
                    if had_turn {
                        snapshots.pop();
                    }
                    assert_eq!(&snapshot(&game), snapshots.last().unwrap());
                } else {
                    let turn = random_turn(&game, &mut rng);
                    game.play_turn(game.to_move(), &turn).unwrap();
                    snapshots.push(snapshot(&game));
                }
                game.check_consistency().unwrap();
            }
        }
    }
}

#[test]
fn stone_level_unplace_restores_mid_turn_states() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut game = Game::new(6, 3).unwrap();
    let mut snapshots = vec![snapshot(&game)];
    for _ in 0..2000 {
        if (rng.gen_bool(0.4) && snapshots.len() > 1) || game.is_over() {
            game.unplace();
            snapshots.pop();
            assert_eq!(&snapshot(&game), snapshots.last().unwrap());
        } else {
            let cell = *game.empties().choose(&mut rng).unwrap();
            game.place(cell);
            snapshots.push(snapshot(&game));
        }
    }
    game.check_consistency().unwrap();
}

#[test]
fn games_last_as_the_end_rule_says() {
    // Documented examples on side 5.
    for (players, turns) in [(2, 30), (3, 18), (4, 12)] {
        assert_eq!(Game::new(5, players).unwrap().total_turns(), turns);
    }
    for players in 2..=4 {
        for side in 2..=13 {
            let mut game = Game::new(side, players).unwrap();
            let mut rng = StdRng::seed_from_u64(side as u64);
            let mut turns = 0;
            while !game.is_over() {
                assert_eq!(game.turns_left(), game.total_turns() - turns);
                let turn = random_turn(&game, &mut rng);
                game.play_turn(game.to_move(), &turn).unwrap();
                turns += 1;
            }
            let k2 = players * players;
            let cells = game.board().cell_count();
            // Every player had the same number of turns, fewer than K*K cells are left, and
            // one more round would not have fit before this one.
            assert_eq!(turns % players, 0);
            assert!(game.empties().len() < k2, "side {side} K {players}");
            assert_eq!(turns * players + game.empties().len(), cells);
            assert_eq!(turns, game.total_turns());
            assert_eq!(game.turns_left(), 0);
            assert_eq!(game.to_move(), Colour::White);
        }
    }
}

#[test]
fn illegal_turns_are_refused_and_change_nothing() {
    let mut game = Game::new(3, 2).unwrap();
    let a1 = game.board().parse("a1").unwrap();
    let b1 = game.board().parse("b1").unwrap();
    let c1 = game.board().parse("c1").unwrap();
    game.play_turn(Colour::White, &[a1, b1]).unwrap();
    let before = snapshot(&game);
    let cases: Vec<(Colour, Vec<Cell>)> = vec![
        (Colour::White, vec![c1, game.board().parse("c2").unwrap()]),
        (Colour::Black, vec![a1, c1]),
        (Colour::Black, vec![c1, c1]),
        (Colour::Black, vec![c1]),
        (
            Colour::Black,
            vec![
                c1,
                game.board().parse("a2").unwrap(),
                game.board().parse("a3").unwrap(),
            ],
        ),
        (Colour::Red, vec![c1, game.board().parse("a2").unwrap()]),
    ];
    for (player, cells) in cases {
        assert!(game.play_turn(player, &cells).is_err());
        assert_eq!(snapshot(&game), before);
    }
    assert_eq!(
        game.play_turn(Colour::Black, &[c1, c1]),
        Err(MoveError::Repeated(game.board().coord(c1)))
    );
}

#[test]
fn winner_and_tie_rule() {
    // Side 2, two players. White plays white a1, black b1; black plays white b2, black c2.
    let mut game = Game::new(2, 2).unwrap();
    let b = game.board().clone();
    let cell = |n: &str| b.parse(n).unwrap();
    // White a1-b2 and black b1-c2 are each one group of 2 ((c+1, r+1) is a neighbour):
    // a tie, which goes to black, last in colour order.
    game.play_turn(Colour::White, &[cell("a1"), cell("b1")])
        .unwrap();
    game.play_turn(Colour::Black, &[cell("b2"), cell("c2")])
        .unwrap();
    assert!(
        game.is_over(),
        "side 2 with two players ends after 2 turns (3 cells left)"
    );
    assert_eq!(game.scores(), vec![2, 2]);
    assert_eq!(game.winner(), (Colour::Black, 0));
}

#[test]
fn large_boards_keep_exact_scores_past_u64() {
    // Side 13, two players: white builds rows of triples on even rows (separated by one
    // cell), black fills the rest, so white's exact score is far past 2^64.
    let mut game = Game::new(13, 2).unwrap();
    let b = game.board().clone();
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for cell in b.cells() {
        let co = b.coord(cell);
        let first_col = co.row.saturating_sub(12);
        if co.row.is_multiple_of(2) && (co.col - first_col) % 4 != 3 {
            white.push(cell);
        } else {
            black.push(cell);
        }
    }
    for (&w, &k) in white.iter().zip(&black) {
        game.place(w);
        game.place(k);
    }
    game.check_consistency().unwrap();
    let score = game.score(Colour::White);
    assert!(score > u64::MAX as u128, "score {score}");
    assert_eq!(score, recount(&game, Colour::White));
    assert_eq!(game.score(Colour::Black), recount(&game, Colour::Black));
}

//! Hexed: the rules on hand-made positions (the ring start, flips in several directions at
//! once, passes, the end, the swap), property tests over seeded random games (undo restores
//! everything, the incremental state equals a recount, `check` agrees with a naive rule
//! book written here from the coordinates), and the players (legal, in time, reproducible).
//!
//! `cargo test --release --test hexed`; the strength measurement is an ignored test:
//! `HEXED_DUEL=search,minimax6,40,0.1 cargo test --release --test hexed duel -- --ignored
//! --nocapture` (players, games, seconds a move).

use omega::games::duel;
use omega::games::hexed::{cell_name, random_opening, Hexed, CELLS};
use omega::games::{GameMove, GamePlayer, GameResult, Rules, SetupError};
use omega::player::{PlayerKind, PlayerOptions};
use omega::stop::Stop;
use omega::timeman::Limits;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::time::{Duration, Instant};

fn game() -> Hexed {
    Hexed::new(9, 2, false).unwrap()
}

fn place(g: &Hexed, name: &str) -> GameMove {
    g.parse_move(name).unwrap()
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------------------
// A naive rule book from the coordinates, independent of the library's bitboards.

const LETTERS: &str = "abcdefghj";
const STEPS: [(i32, i32); 6] = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)];

/// (column, doubled height) of a cell name.
fn coords(name: &str) -> (i32, i32) {
    let col = LETTERS.find(&name[..1]).unwrap() as i32;
    let row: i32 = name[1..].parse().unwrap();
    (col, 2 * (row - 1) + col % 2)
}

fn name_at(col: i32, y: i32) -> Option<String> {
    if !(0..9).contains(&col) || y < 0 || (col + y) % 2 != 0 {
        return None;
    }
    let row = (y - col % 2) / 2 + 1;
    let height = if col % 2 == 0 { 7 } else { 6 };
    (row <= height).then(|| format!("{}{}", &LETTERS[col as usize..col as usize + 1], row))
}

/// The cells a placement of `colour` on `cell` flips, walking each direction.
fn naive_flips(g: &Hexed, colour: usize, cell: &str) -> HashSet<String> {
    let own: HashSet<String> = g.stones(colour).into_iter().collect();
    let opp: HashSet<String> = g.stones(1 - colour).into_iter().collect();
    flips_between(&own, &opp, cell)
}

fn flips_between(own: &HashSet<String>, opp: &HashSet<String>, cell: &str) -> HashSet<String> {
    let mut flipped = HashSet::new();
    if own.contains(cell) || opp.contains(cell) {
        return flipped;
    }
    let (c, y) = coords(cell);
    for (dc, dy) in STEPS {
        let mut line = Vec::new();
        let (mut x, mut h) = (c + dc, y + dy);
        while let Some(n) = name_at(x, h).filter(|n| opp.contains(n)) {
            line.push(n);
            x += dc;
            h += dy;
        }
        if name_at(x, h).is_some_and(|n| own.contains(&n)) {
            flipped.extend(line);
        }
    }
    flipped
}

fn naive_placements(g: &Hexed, colour: usize) -> Vec<String> {
    let own: HashSet<String> = g.stones(colour).into_iter().collect();
    let opp: HashSet<String> = g.stones(1 - colour).into_iter().collect();
    let mut v: Vec<String> = (0..CELLS)
        .map(cell_name)
        .filter(|n| !flips_between(&own, &opp, n).is_empty())
        .collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------
// Set-up.

#[test]
fn only_the_nine_column_board_and_two_players() {
    assert_eq!(Hexed::new(8, 2, false).unwrap_err(), SetupError::Size);
    assert_eq!(Hexed::new(5, 2, false).unwrap_err(), SetupError::Size);
    assert_eq!(Hexed::new(9, 3, false).unwrap_err(), SetupError::Players);
    let g = game();
    assert_eq!((g.side(), g.players(), g.swap_rule()), (9, 2, false));
    assert!(Hexed::new(9, 2, true).unwrap().swap_rule());
    assert_eq!(g.colour_names(), &["red", "green"]);
}

#[test]
fn the_default_start_is_the_ring_around_e4_red_first() {
    let g = game();
    assert_eq!(g.stones(0), names(&["d3", "e5", "f3"]));
    assert_eq!(g.stones(1), names(&["d4", "e3", "f4"]));
    assert_eq!(g.to_move(), Some(0));
    assert_eq!(g.score(), "red 3 green 3");
    assert_eq!(g.final_score(), "0");
    // Red's placements are the cells beyond a green ring stone from a red one.
    let mut p: Vec<String> = g.placements(0).into_iter().map(cell_name).collect();
    p.sort();
    assert_eq!(p, naive_placements(&g, 0));
    assert!(!p.contains(&"e4".to_string()), "the centre flanks nothing");
}

#[test]
fn a_start_ring_anywhere_it_fits_and_green_may_start() {
    let g = Hexed::with_start(cell("b3"), 1, 1, false).unwrap();
    // Centre b2: north b3, north-east c3, south-east c2, south b1, south-west a2, north-west a3.
    assert_eq!(g.stones(1), names(&["a2", "b3", "c2"]));
    assert_eq!(g.stones(0), names(&["a3", "b1", "c3"]));
    assert_eq!(g.to_move(), Some(1), "green moves first");
    let cleared = {
        let mut h = g.clone();
        let m = h.legal_moves()[0];
        h.play(m);
        h.cleared()
    };
    assert_eq!(cleared.stones(1), g.stones(1), "cleared keeps the start");
    assert_eq!(cleared.to_move(), Some(1));
    assert_eq!(cleared.hash(), g.hash());
    // Rings that leave the board: the centre on the edge or off it.
    for north in ["a7", "e1", "j4", "a4", "h1", "b1"] {
        assert!(
            Hexed::with_start(cell(north), 0, 0, false).is_err(),
            "{north}"
        );
    }
    assert!(Hexed::with_start(cell("e5"), 2, 0, false).is_err());
    // `hexed_start h4 green red` as the protocol passes it: cell name, colour indices (the
    // protocol reads the colour words; `hexed_start e5 blue red` is in transcript 20).
    let w = Rules::with_start(&game(), "h4", 1, 0).unwrap();
    assert_eq!(w.start().north, cell("h4"));
    assert_eq!(w.to_move(), Some(0));
    assert!(Rules::with_start(&game(), "i4", 0, 0).is_err());
}

fn cell(name: &str) -> usize {
    omega::games::hexed::parse_cell(name).unwrap()
}

#[test]
fn move_words_and_their_errors() {
    let g = game();
    assert_eq!(g.parse_move("E2"), Ok(GameMove::Place(cell("e2") as u16)));
    assert_eq!(g.parse_move("pass"), Ok(GameMove::Pass));
    assert_eq!(g.parse_move("SWAP"), Ok(GameMove::Swap));
    assert_eq!(g.parse_move("j7").map(|m| g.move_name(m)), Ok("j7".into()));
    for bad in ["i3", "a8", "b7", "e0", "z9"] {
        assert_eq!(g.parse_move(bad), Err(format!("{bad} is off the board")));
    }
    for bad in ["", "e", "44", "e4x", "e-1", "swapp"] {
        assert!(
            g.parse_move(bad).unwrap_err().contains("not a cell name"),
            "{bad}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Flips, passes, the end.

#[test]
fn one_placement_flips_lines_in_several_directions_at_once() {
    // Red e4: north e5 (ended by e6), south e3 (ended by e2), north-east f4 (ended by g5),
    // south-west d3 and c3 (ended by b2); north-west d4 has no red stone beyond it.
    let mut g = Hexed::from_stones(
        &["e6", "e2", "g5", "b2"],
        &["e5", "e3", "f4", "d3", "c3", "d4"],
        0,
        false,
    )
    .unwrap();
    let m = place(&g, "e4");
    assert_eq!(g.check(0, m), Ok(()));
    g.play(m);
    assert_eq!(
        g.stones(0),
        names(&["b2", "c3", "d3", "e2", "e3", "e4", "e5", "e6", "f4", "g5"])
    );
    assert_eq!(g.stones(1), names(&["d4"]));
    assert_eq!(g.score(), "red 10 green 1");
    assert!(
        g.draw().contains("\n 4  .   .   r   .   .\n"),
        "the last placement is marked"
    );
    assert!(g.undo());
    assert_eq!(g.stones(1).len(), 6);
    assert_eq!(g.hash(), g.recount_hash());
}

#[test]
fn check_refuses_what_the_rules_forbid_with_a_reason() {
    let g = game();
    assert_eq!(g.check(0, place(&g, "e5")), Err("e5 is occupied".into()));
    assert_eq!(g.check(0, place(&g, "e4")), Err("e4 flips no stone".into()));
    assert_eq!(g.check(0, place(&g, "a1")), Err("a1 flips no stone".into()));
    assert!(g
        .check(1, place(&g, "e6"))
        .unwrap_err()
        .contains("red's turn"));
    assert!(g
        .check(0, GameMove::Pass)
        .unwrap_err()
        .contains("has a placement"));
    assert_eq!(
        g.check(0, GameMove::Swap),
        Err("the swap rule is off".into())
    );
    assert!(g.check(0, GameMove::Place(CELLS as u16)).is_err());
    assert!(g.check(2, GameMove::Pass).is_err());
}

/// Red a1 b1, green a2..a7: red has no placement, green has c1 (flipping b1).
fn red_must_pass() -> Hexed {
    Hexed::from_stones(
        &["a1", "b1"],
        &["a2", "a3", "a4", "a5", "a6", "a7"],
        0,
        false,
    )
    .unwrap()
}

#[test]
fn a_player_without_a_placement_passes_and_only_then() {
    let mut g = red_must_pass();
    assert!(g.placements(0).is_empty());
    assert_eq!(g.legal_moves(), vec![GameMove::Pass]);
    assert_eq!(g.check(0, place(&g, "c1")), Err("c1 flips no stone".into()));
    assert_eq!(g.check(0, GameMove::Pass), Ok(()));
    g.play(GameMove::Pass);
    assert_eq!(g.to_move(), Some(1));
    assert!(g.check(1, GameMove::Pass).is_err(), "green can place");
    assert_eq!(g.check(1, place(&g, "c1")), Ok(()));
    // Undo takes the pass back too.
    let before = g.hash();
    g.play(place(&g, "c1"));
    assert!(g.undo());
    assert_eq!(g.hash(), before);
    assert!(g.undo());
    assert_eq!(g.to_move(), Some(0));
    assert_eq!(g.hash(), red_must_pass().hash());
    assert!(!g.undo(), "nothing left to take back");
}

#[test]
fn the_game_ends_when_neither_can_place_and_more_stones_win() {
    // Green e4 e5 between red e3 and the empty e6: red e6 flips both, green has no stone
    // left, and neither colour can place, with 56 cells empty.
    let mut g = Hexed::from_stones(&["e3"], &["e4", "e5"], 0, false).unwrap();
    assert!(!g.is_over());
    g.play(place(&g, "e6"));
    assert!(g.is_over());
    assert_eq!(g.to_move(), None);
    assert_eq!(g.result(), Some(GameResult::Win(0)));
    assert_eq!(g.score(), "red 4 green 0");
    assert_eq!(g.final_score(), "R+4");
    assert_eq!(g.check(0, GameMove::Pass), Err("the game is over".into()));
    assert!(g.draw().ends_with("move 2, game over, score red 4 green 0"));
    assert!(g.undo());
    assert!(!g.is_over());
    let mut green = Hexed::from_stones(&["e4", "e5"], &["e3"], 1, false).unwrap();
    green.play(place(&green, "e6"));
    assert_eq!(
        (green.result(), green.final_score()),
        (Some(GameResult::Win(1)), "G+4".into())
    );
    // Equal counts draw; red ahead shows R+.
    let d = Hexed::from_stones(&["a1"], &["j7"], 0, false).unwrap();
    assert!(d.is_over());
    assert_eq!(
        (d.result(), d.final_score()),
        (Some(GameResult::Draw), "0".into())
    );
    let r = Hexed::from_stones(&["a1", "j1"], &["j7"], 1, false).unwrap();
    assert_eq!(
        (r.result(), r.final_score()),
        (Some(GameResult::Win(0)), "R+1".into())
    );
}

#[test]
fn a_full_board_ends_the_game() {
    // Every cell red but one green and one empty: after red fills it, the board is full.
    let all: Vec<String> = (0..CELLS).map(cell_name).collect();
    let red: Vec<&str> = all
        .iter()
        .map(String::as_str)
        .filter(|&n| n != "e1" && n != "e2")
        .collect();
    let mut g = Hexed::from_stones(&red, &["e2"], 0, false).unwrap();
    assert!(!g.is_over());
    g.play(place(&g, "e1"));
    assert!(g.is_over());
    assert_eq!(g.final_score(), "R+59");
}

#[test]
fn the_swap_exchanges_the_players_and_the_same_colour_moves_again() {
    let mut g = Hexed::new(9, 2, true).unwrap();
    assert!(g.check(0, GameMove::Swap).is_err(), "not the first move");
    let first = g.legal_moves()[0];
    g.play(first);
    assert!(g.legal_moves().contains(&GameMove::Swap));
    assert_eq!(g.check(1, GameMove::Swap), Ok(()));
    let before = (g.hash(), g.stones(0), g.stones(1));
    g.play(GameMove::Swap);
    assert!(g.swapped());
    assert_eq!(g.to_move(), Some(1), "green moves again");
    assert_eq!(
        (g.stones(0), g.stones(1)),
        (before.1.clone(), before.2.clone())
    );
    assert!(g.draw().contains("swapped"));
    assert_eq!(g.history(), vec![(0, first), (1, GameMove::Swap)]);
    assert!(g.check(1, GameMove::Swap).is_err(), "one swap only");
    let m = g.legal_moves()[0];
    g.play(m);
    assert!(g.check(0, GameMove::Swap).is_err());
    assert!(g.undo() && g.undo());
    assert!(!g.swapped());
    assert_eq!(g.hash(), before.0);
    assert_eq!(g.to_move(), Some(1));
}

#[test]
fn showboard_draws_the_columns_and_marks_the_last_move() {
    let mut g = game();
    let expected = "    a b c d e f g h j
 7  .   .   .   .   .
 6    .   .   .   .
 6  .   .   .   .   .
 5    .   .   .   .
 5  .   .   R   .   .
 4    .   G   G   .
 4  .   .   .   .   .
 3    .   R   R   .
 3  .   .   G   .   .
 2    .   .   .   .
 2  .   .   .   .   .
 1    .   .   .   .
 1  .   .   .   .   .
    a b c d e f g h j
move 1, red to move, score red 3 green 3";
    assert_eq!(g.draw(), expected);
    // Red f2 flips e3 (f2, e3, d3 on one line).
    g.play(place(&g, "f2"));
    let drawn = g.draw();
    assert!(
        drawn.contains("\n 3  .   .   R   .   .\n 2    .   .   r   .\n"),
        "{drawn}"
    );
    assert!(
        drawn.ends_with("move 2, green to move, score red 5 green 2"),
        "{drawn}"
    );
}

// ---------------------------------------------------------------------------------------
// Property tests over seeded random games.

/// Everything observable of a game, to compare before and after play/undo.
fn snapshot(g: &Hexed) -> (u64, Vec<String>, Vec<String>, Option<usize>, String, usize) {
    (
        g.hash(),
        g.stones(0),
        g.stones(1),
        g.to_move(),
        g.draw(),
        g.history().len(),
    )
}

#[test]
fn random_games_keep_the_state_consistent_and_end_with_a_result() {
    let mut rng = StdRng::seed_from_u64(12);
    let mut finished = 0;
    for game_index in 0..300 {
        let swap = game_index % 3 == 0;
        let mut g = Hexed::new(9, 2, swap).unwrap();
        if game_index % 2 == 1 {
            // A random ring that fits.
            loop {
                let north = rng.gen_range(0..CELLS);
                if let Ok(h) =
                    Hexed::with_start(north, rng.gen_range(0..2), rng.gen_range(0..2), swap)
                {
                    g = h;
                    break;
                }
            }
        }
        let start = snapshot(&g);
        let mut trail = vec![snapshot(&g)];
        while let Some(colour) = g.to_move() {
            // The incremental state equals a recount.
            assert_eq!(g.hash(), g.recount_hash());
            assert_eq!(g.is_over(), g.recount_over());
            assert_eq!(g.stones(0).len() as u32, g.count(0));
            // The legal placements are the naive rule book's, for both colours.
            for c in 0..2 {
                let mut p: Vec<String> = g.placements(c).into_iter().map(cell_name).collect();
                p.sort();
                assert_eq!(p, naive_placements(&g, c));
            }
            // `check` accepts exactly the legal moves.
            let legal = g.legal_moves();
            for cell in 0..CELLS {
                let m = GameMove::Place(cell as u16);
                assert_eq!(g.check(colour, m).is_ok(), legal.contains(&m));
                assert!(g.check(1 - colour, m).is_err());
            }
            assert_eq!(
                g.check(colour, GameMove::Pass).is_ok(),
                legal.contains(&GameMove::Pass)
            );
            assert_eq!(
                g.check(colour, GameMove::Swap).is_ok(),
                legal.contains(&GameMove::Swap)
            );
            // Play a random legal move: it flips what the rule book says; undo restores.
            let m = legal[rng.gen_range(0..legal.len())];
            let before = snapshot(&g);
            let expected_flips = match m {
                GameMove::Place(c) => naive_flips(&g, colour, &cell_name(c as usize)),
                _ => HashSet::new(),
            };
            let theirs_before: HashSet<String> = g.stones(1 - colour).into_iter().collect();
            g.play(m);
            let theirs_after: HashSet<String> = g.stones(1 - colour).into_iter().collect();
            let flipped: HashSet<String> =
                theirs_before.difference(&theirs_after).cloned().collect();
            assert_eq!(flipped, expected_flips);
            assert!(g.undo());
            assert_eq!(snapshot(&g), before);
            g.play(m);
            trail.push(snapshot(&g));
            if m == GameMove::Pass {
                assert!(
                    !g.is_over(),
                    "a pass never ends the game: the other colour can place"
                );
            }
        }
        assert!(g.result().is_some());
        assert!(g.placements(0).is_empty() && g.placements(1).is_empty());
        let (r, gr) = (g.count(0), g.count(1));
        let expected = match r.cmp(&gr) {
            std::cmp::Ordering::Greater => GameResult::Win(0),
            std::cmp::Ordering::Less => GameResult::Win(1),
            std::cmp::Ordering::Equal => GameResult::Draw,
        };
        assert_eq!(g.result(), Some(expected));
        finished += 1;
        // Undo to the start, every step restoring the snapshot of the way there.
        trail.pop();
        while let Some(s) = trail.pop() {
            assert!(g.undo());
            assert_eq!(snapshot(&g), s);
        }
        assert!(!g.undo());
        assert_eq!(snapshot(&g), start);
    }
    assert_eq!(finished, 300);
}

// ---------------------------------------------------------------------------------------
// Players.

fn options(seed: u64) -> PlayerOptions {
    let mut o = PlayerOptions::for_player(PlayerKind::Mcts);
    o.seed = seed;
    o.alphabeta.threads = 1;
    o.mcts.threads = 1;
    o.alphabeta.hash_mb = 8;
    o.mcts.tree_mb = 32;
    o
}

fn limits(seconds: f64) -> Limits {
    Limits {
        optimum: Duration::from_secs_f64(seconds),
        maximum: Duration::from_secs_f64(seconds),
        keeps_savings: false,
    }
}

#[test]
fn every_player_answers_a_legal_move_in_time() {
    assert_eq!(Hexed::player_names()[0], "search");
    assert!(Hexed::player("nobody", &options(1), Stop::new()).is_none());
    let mut positions: Vec<Hexed> = (0..6).map(|k| random_opening(k * 9, k as u64)).collect();
    positions.retain(|g| !g.is_over());
    positions.push(red_must_pass());
    let mut swap = Hexed::new(9, 2, true).unwrap();
    swap.play(swap.legal_moves()[0]);
    positions.push(swap);
    for &name in Hexed::player_names() {
        let mut p = Hexed::player(name, &options(3), Stop::new()).unwrap();
        p.new_game();
        for g in &positions {
            let start = Instant::now();
            let m = p.choose(g, start, limits(0.05));
            let took = start.elapsed();
            let colour = g.to_move().unwrap();
            assert_eq!(g.check(colour, m), Ok(()), "{name} in\n{}", g.draw());
            assert!(took < Duration::from_millis(80), "{name} took {took:?}");
        }
        let m = p.choose(&red_must_pass(), Instant::now(), limits(0.05));
        assert_eq!(m, GameMove::Pass, "{name} passes when it must");
    }
}

#[test]
fn a_raised_stop_signal_ends_every_search_at_once() {
    let g = random_opening(10, 5);
    for &name in Hexed::player_names() {
        let stop = Stop::new();
        let mut p = Hexed::player(name, &options(3), stop.clone()).unwrap();
        stop.raise();
        let start = Instant::now();
        let m = p.choose(&g, start, limits(5.0));
        assert!(start.elapsed() < Duration::from_millis(500), "{name}");
        assert!(g.check(g.to_move().unwrap(), m).is_ok());
    }
}

#[test]
fn fixed_work_searches_are_reproducible() {
    let g = random_opening(14, 8);
    let mut o = options(21);
    o.alphabeta.depth = Some(5);
    o.mcts.playouts = Some(3000);
    for name in ["alphabeta", "mcts", "mcts-plain", "minimax6"] {
        let pick = || {
            let mut p = Hexed::player(name, &o, Stop::new()).unwrap();
            p.new_game();
            p.choose(&g, Instant::now(), limits(30.0))
        };
        assert_eq!(pick(), pick(), "{name}");
    }
}

/// The final stone difference for the colour to move with perfect play from here (a naive
/// negamax over the rules, passes included).
fn exact_margin(g: &mut Hexed) -> i32 {
    let Some(colour) = g.to_move() else {
        return 0;
    };
    let mut best = i32::MIN;
    for m in g.legal_moves() {
        g.play(m);
        let v = match g.to_move() {
            None => g.count(colour) as i32 - g.count(1 - colour) as i32,
            Some(c) if c == colour => exact_margin(g),
            Some(_) => -exact_margin(g),
        };
        g.undo();
        best = best.max(v);
    }
    best
}

#[test]
fn the_alphabeta_solves_the_end_exactly() {
    // With few cells empty the iterations reach the end: the move chosen keeps the best
    // margin a naive solver finds.
    let mut tested = 0;
    for seed in 0..40 {
        // Eight moves before the end of a random game (random games end with cells empty).
        let length = random_opening(CELLS, seed).history().len();
        let mut g = random_opening(length.saturating_sub(8), seed);
        if g.is_over() || g.legal_moves().len() < 2 {
            continue;
        }
        let colour = g.to_move().unwrap();
        let best = exact_margin(&mut g);
        let mut o = options(1);
        o.alphabeta.depth = Some(30);
        let mut p = Hexed::player("search", &o, Stop::new()).unwrap();
        let m = p.choose(&g, Instant::now(), limits(30.0));
        g.play(m);
        let after = match g.to_move() {
            None => g.count(colour) as i32 - g.count(1 - colour) as i32,
            Some(c) if c == colour => exact_margin(&mut g),
            Some(_) => -exact_margin(&mut g),
        };
        assert_eq!(after, best, "seed {seed}");
        tested += 1;
        if tested == 8 {
            break;
        }
    }
    assert_eq!(tested, 8);
}

#[test]
fn the_default_beats_random_at_fixed_depth() {
    let mut o = options(4);
    o.alphabeta.depth = Some(6);
    let mut wins = 0;
    for k in 0..4 {
        let start = random_opening(2, k);
        let mut ps: Vec<Box<dyn GamePlayer<Hexed>>> = vec![
            Hexed::player("search", &o, Stop::new()).unwrap(),
            Hexed::player("random", &o, Stop::new()).unwrap(),
        ];
        if k % 2 == 1 {
            ps.reverse();
        }
        let rec = duel::play(&start, &mut ps, 5.0);
        if rec.winning_seat() == Some(k as usize % 2) {
            wins += 1;
        }
    }
    assert_eq!(wins, 4, "search beats random every time");
}

/// The strength measurement (ignored: minutes of CPU): `HEXED_DUEL=A,B,GAMES,SECONDS`.
/// Seats alternate; every pair of games starts from the same random opening of 2-4 moves.
#[test]
#[ignore]
fn duel() {
    let spec = std::env::var("HEXED_DUEL").unwrap_or("search,minimax6,20,0.1".into());
    let parts: Vec<&str> = spec.split(',').collect();
    let (a, b) = (parts[0], parts[1]);
    let games: usize = parts[2].parse().unwrap();
    let seconds: f64 = parts[3].parse().unwrap();
    let depth = std::env::var("HEXED_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok());
    let playouts = std::env::var("HEXED_PLAYOUTS")
        .ok()
        .and_then(|d| d.parse().ok());
    let (mut score, mut draws) = (0.0, 0);
    for k in 0..games {
        let mut o = options(k as u64);
        o.alphabeta.hash_mb = 32;
        o.mcts.tree_mb = 256;
        o.alphabeta.depth = depth;
        o.mcts.playouts = playouts;
        let start = random_opening(2 + (k / 2) % 3, 1000 + (k / 2) as u64);
        let mut ps = vec![
            Hexed::player(a, &o, Stop::new()).unwrap(),
            Hexed::player(b, &o, Stop::new()).unwrap(),
        ];
        let a_seat = k % 2;
        if a_seat == 1 {
            ps.reverse();
        }
        let rec = duel::play(&start, &mut ps, seconds);
        match rec.winning_seat() {
            Some(s) if s == a_seat => score += 1.0,
            Some(_) => {}
            None => {
                score += 0.5;
                draws += 1;
            }
        }
    }
    let n = games as f64;
    let p = score / n;
    // Wilson 95 % interval of the score.
    let z = 1.96;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    println!(
        "{a} vs {b}: {games} games at {seconds} s, score {score}/{games} = {:.1} % (draws {draws}), 95 % Wilson [{:.1}, {:.1}] %",
        100.0 * p,
        100.0 * (centre - half),
        100.0 * (centre + half)
    );
}

/// `omega bench`'s Hexed lines (ignored: a few seconds): `cargo test --release --test hexed
/// bench -- --ignored --nocapture`.
#[test]
#[ignore]
fn bench() {
    print!("{}", Hexed::bench(&options(0)));
}

#[test]
fn the_bench_searches_fixed_work() {
    let mut o = options(0);
    o.alphabeta.depth = Some(3);
    o.mcts.playouts = Some(500);
    let a = Hexed::bench(&o);
    let nodes = |s: &str| -> Vec<String> {
        s.lines()
            .map(|l| {
                l.split(" time ")
                    .next()
                    .unwrap_or("")
                    .split(" nps ")
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    };
    assert_eq!(nodes(&a), nodes(&Hexed::bench(&o)), "{a}");
    assert_eq!(a.lines().count(), 5, "{a}");
    assert!(a.contains("playouts 500"), "{a}");
}

//! Yavalath: the rules on hand-made positions, property tests over random games, the players
//! (legal moves, the swap decision), and an ignored strength duel (run by hand, see
//! docs/yavalath.md).

use omega::games::yavalath::Yavalath;
use omega::games::{duel, GameMove, GamePlayer, GameResult, Rules, SetupError};
use omega::player::{PlayerKind, PlayerOptions};
use omega::stop::Stop;
use omega::timeman::Limits;
use std::time::{Duration, Instant};

fn new(side: usize, players: usize, swap: bool) -> Yavalath {
    Yavalath::new(side, players, swap).expect("valid set-up")
}

/// Plays `moves` (words), each checked first.
fn play(game: &mut Yavalath, moves: &str) {
    for w in moves.split_whitespace() {
        let m = game.parse_move(w).unwrap();
        let colour = game.to_move().expect("game not over");
        if let Err(e) = game.check(colour, m) {
            panic!("{w} refused: {e}");
        }
        game.play(m);
    }
}

/// A setting of the hand-run measurements: the environment variable `key`, else `default`.
fn env(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_string())
}

fn cell(game: &Yavalath, name: &str) -> GameMove {
    game.parse_move(name).unwrap()
}

#[test]
fn setup_errors() {
    assert_eq!(Yavalath::new(2, 2, true).unwrap_err(), SetupError::Size);
    assert_eq!(Yavalath::new(9, 2, true).unwrap_err(), SetupError::Size);
    assert_eq!(Yavalath::new(5, 1, true).unwrap_err(), SetupError::Players);
    assert_eq!(Yavalath::new(5, 4, true).unwrap_err(), SetupError::Players);
    for side in 3..=8 {
        let g = new(side, 2, true);
        assert_eq!(g.board().cell_count(), 3 * side * (side - 1) + 1);
    }
    let g = new(5, 3, false);
    assert_eq!(g.colour_names(), &["white", "black", "red"]);
    assert_eq!(new(5, 2, true).colour_names(), &["white", "black"]);
    const { assert!(Yavalath::DEFAULT_SWAP) };
    assert_eq!(Yavalath::DEFAULT_SIDE, 5);
}

#[test]
fn four_in_a_row_wins() {
    let mut g = new(5, 2, false);
    play(&mut g, "a1 j9 b1 e9 d1 j5");
    assert!(!g.is_over());
    play(&mut g, "c1");
    assert_eq!(g.result(), Some(GameResult::Win(0)));
    assert_eq!(g.to_move(), None);
    assert_eq!(g.final_score(), "W+");
    assert!(g.check(1, cell(&g, "e5")).unwrap_err().contains("over"));
}

#[test]
fn three_in_a_row_loses() {
    let mut g = new(5, 2, false);
    play(&mut g, "a1 j9 b1 e9");
    assert_eq!(g.final_score(), "unknown");
    play(&mut g, "c1");
    assert_eq!(g.result(), Some(GameResult::Win(1)));
    assert_eq!(g.final_score(), "B+");
    // The same for black: a column of three (j5 j6 j7).
    let mut g = new(5, 2, false);
    play(&mut g, "a1 j5 c1 j6 e1 j7");
    assert_eq!(g.result(), Some(GameResult::Win(0)));
}

#[test]
fn four_and_three_at_once_wins() {
    // White c1 makes a1 b1 c1 d1 (4) and c1 c2 c3 (3): the 4 wins.
    let mut g = new(5, 2, false);
    play(&mut g, "a1 j9 b1 e9 d1 j5 c2 g9 c3 h4 c1");
    assert_eq!(g.result(), Some(GameResult::Win(0)));
    // A longer line (5) wins too: a1 b1 _ d1 e1, then c1.
    let mut g = new(5, 2, false);
    play(&mut g, "a1 j9 b1 e9 d1 j5 e1 g9");
    assert!(g.wins(0).contains(g.board().parse("c1").unwrap()));
    play(&mut g, "c1");
    assert_eq!(g.result(), Some(GameResult::Win(0)));
}

#[test]
fn broken_lines_do_not_count() {
    // a1 b1 _ d1 e1 with c1 black: no line of 3 or 4 for white.
    let mut g = new(5, 2, false);
    play(&mut g, "a1 c1 b1 j9 d1 e9 e1");
    assert!(!g.is_over());
}

#[test]
fn full_board_without_result_is_a_draw() {
    // Random games on side 3 (19 cells) that avoid every 3 and 4 while they can: some fill
    // the board, and those are draws.
    let mut draws = 0;
    for seed in 0..400u64 {
        let mut g = new(3, 2, false);
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        while let Some(c) = g.to_move() {
            let safe: Vec<u16> = g
                .empties()
                .iter()
                .copied()
                .filter(|&e| !g.wins(c).contains(e) && !g.losses(c).contains(e))
                .collect();
            let pool = if safe.is_empty() {
                g.empties().to_vec()
            } else {
                safe
            };
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            g.play(GameMove::Place(pool[(x % pool.len() as u64) as usize]));
        }
        if g.empties().is_empty() && g.result() == Some(GameResult::Draw) {
            draws += 1;
            assert_eq!(g.final_score(), "0");
            assert!(g.draw().contains("game over, draw"));
        }
        if g.result() == Some(GameResult::Draw) {
            assert!(g.empties().is_empty(), "a draw only on a full board");
        }
    }
    assert!(draws > 0, "no drawn game found");
}

#[test]
fn no_passing_and_bad_cells() {
    let mut g = new(5, 2, true);
    assert!(g.check(0, GameMove::Pass).unwrap_err().contains("passing"));
    assert!(g.parse_move("z9").unwrap_err().contains("off the board"));
    assert!(g.parse_move("a6").unwrap_err().contains("off the board"));
    assert!(g.parse_move("e").is_err());
    assert!(g.check(0, GameMove::Place(61)).is_err());
    assert!(g
        .check(1, cell(&g, "e5"))
        .unwrap_err()
        .contains("not to move"));
    play(&mut g, "e5");
    assert!(g.check(1, cell(&g, "e5")).unwrap_err().contains("occupied"));
    assert_eq!(g.parse_move("SWAP"), Ok(GameMove::Swap));
}

#[test]
fn swap_in_colour_terms() {
    let mut g = new(5, 2, true);
    let err = g.check(0, GameMove::Swap).unwrap_err();
    assert!(err.contains("black's first turn"), "{err}");
    play(&mut g, "e5");
    let before = g.hash();
    assert!(g.can_swap());
    play(&mut g, "swap");
    // The stones keep their colours; black moves again.
    assert_eq!(g.to_move(), Some(1));
    assert_eq!(g.stones(0), vec!["e5"]);
    assert_ne!(g.hash(), before);
    assert_eq!(g.history(), vec![(0, cell(&g, "e5")), (1, GameMove::Swap)]);
    assert!(g.check(1, GameMove::Swap).is_err(), "only one swap");
    assert!(g.draw().contains("black to move"));
    play(&mut g, "a1");
    assert_eq!(g.to_move(), Some(0));
    assert!(g.check(0, GameMove::Swap).is_err());
    // Undo takes the placement and then the swap back.
    assert!(g.undo());
    assert!(g.undo());
    assert_eq!(g.hash(), before);
    assert!(g.can_swap());
    assert_eq!(g.to_move(), Some(1));
    // After black's first placement, no more.
    play(&mut g, "a1");
    assert!(g.check(0, GameMove::Swap).is_err());
    // Off by the rule, and with three players.
    let mut g = new(5, 2, false);
    play(&mut g, "e5");
    assert!(g.check(1, GameMove::Swap).unwrap_err().contains("off"));
    let mut g = new(5, 3, true);
    play(&mut g, "e5");
    assert!(g.check(1, GameMove::Swap).unwrap_err().contains("three"));
}

#[test]
fn three_players_must_block_the_next_player() {
    let mut g = new(5, 3, false);
    // Red holds a1 b1 d1: c1 would give red 4. Black, before red, must block it.
    play(&mut g, "e5 j9 a1 g7 h9 b1 c5 a5 d1 h8");
    assert_eq!(g.to_move(), Some(1));
    let err = g.check(1, cell(&g, "e1")).unwrap_err();
    assert_eq!(err, "black must block red's win at c1");
    assert!(g.check(1, cell(&g, "c1")).is_ok());
    // White, two places before red, is not bound: it moved h8 freely above.
    play(&mut g, "c1");
    assert_eq!(g.to_move(), Some(2));
}

#[test]
fn three_players_out_and_last_left() {
    let mut g = new(5, 3, false);
    play(&mut g, "a1 j9 e9 b1 j5 e7 c1");
    // White made 3: out, its stones stay, and it is skipped.
    assert!(g.is_out(0));
    assert!(!g.is_over());
    assert_eq!(g.stones(0), vec!["a1", "b1", "c1"]);
    assert_eq!(g.to_move(), Some(1));
    play(&mut g, "g9");
    assert_eq!(g.to_move(), Some(2));
    play(&mut g, "a5");
    assert_eq!(g.to_move(), Some(1), "white is skipped");
    play(&mut g, "j7");
    // Red makes 3 (e7 e8 e9): out, and black is the last one left.
    play(&mut g, "e8");
    assert_eq!(g.result(), Some(GameResult::Win(1)));
    assert_eq!(g.final_score(), "B+");
}

#[test]
fn three_players_four_wins() {
    // White makes two threats at once with d1 (c1 in row 1, f3 on the d1-g4 diagonal): red
    // cannot block both, so it is free; it blocks one and white wins on the other.
    let mut g = new(5, 3, false);
    play(&mut g, "a1 j9 e9 b1 j5 e7 e2 h9 a5 g4 f5 c5 d1 h4");
    assert_eq!(g.wins(0).len(), 2);
    assert!(
        g.check(2, cell(&g, "a3")).is_ok(),
        "no single block to force"
    );
    play(&mut g, "c1 f3");
    assert_eq!(g.result(), Some(GameResult::Win(0)));
    assert_eq!(g.final_score(), "W+");
    // Red, the last one left after white and black made 3, wins: R+.
    let mut g = new(5, 3, false);
    play(&mut g, "a1 j9 e5 b1 j8 g7 c1 j7");
    assert_eq!(g.result(), Some(GameResult::Win(2)));
    assert_eq!(g.final_score(), "R+");
}

#[test]
fn drawing_as_documented() {
    let mut g = new(5, 2, true);
    play(&mut g, "e5 d4 f6");
    let expected = [
        "        e f g h j",
        "  9     . . . . .",
        "  8    . . . . . .",
        "  7   . . . . . . .",
        "  6  . . . . w . . .",
        "  5 . . . . W . . . .",
        "  4  . . . B . . . .",
        "  3   . . . . . . .",
        "  2    . . . . . .",
        "  1     . . . . .",
        "        a b c d e",
        "move 4, black to move, score white 2 black 1",
    ];
    assert_eq!(g.draw(), expected.join("\n"));
}

#[test]
fn drawing_marks_the_last_move() {
    let mut g = new(5, 2, true);
    play(&mut g, "e5 a1");
    let d = g.draw();
    assert!(d.contains(" W "), "{d}");
    let row1 = d.lines().find(|l| l.starts_with("  1 ")).unwrap();
    assert!(row1.contains('b') && !row1.contains('B'), "{d}");
    let row5 = d.lines().find(|l| l.starts_with("  5 ")).unwrap();
    assert!(row5.contains('W'), "{d}");
    assert!(
        d.ends_with("move 3, white to move, score white 1 black 1"),
        "{d}"
    );
    assert_eq!(d.lines().count(), 9 + 2 + 1);
    assert!(!d.contains("\n\n"));
    assert_eq!(g.score(), "white 1 black 1");
}

/// A tiny deterministic generator for the random games.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Everything observable of a game, to compare before a move and after its undo.
fn snapshot(g: &Yavalath) -> String {
    format!("{g:?}")
}

#[test]
fn random_games_keep_the_state_consistent() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for game_no in 0..300 {
        let side = 3 + game_no % 6;
        let players = 2 + (game_no % 5 == 0) as usize;
        let mut g = new(side, players, game_no % 3 != 0);
        let mut snapshots = Vec::new();
        while let Some(colour) = g.to_move() {
            // Any word a user could send: each accepted move keeps the state consistent.
            let m = if g.can_swap() && rng.below(3) == 0 {
                GameMove::Swap
            } else {
                GameMove::Place(rng.below(g.board().cell_count()) as u16)
            };
            if g.check(colour, m).is_err() {
                continue;
            }
            snapshots.push((snapshot(&g), g.hash()));
            g.play(m);
            let (win, lose, hash) = g.incremental();
            assert_eq!((win, lose, hash), g.recount(), "incremental = recount");
            assert!(g.empties_consistent());
            // Play/undo of every legal next placement restores everything.
            if let Some(c) = g.to_move() {
                let before = snapshot(&g);
                for cell in g.board().cells() {
                    if g.check(c, GameMove::Place(cell)).is_ok() {
                        g.play(GameMove::Place(cell));
                        assert!(g.undo());
                        assert_eq!(snapshot(&g), before);
                    }
                }
            }
        }
        assert!(g.result().is_some(), "a finished game has a result");
        assert!(g.final_score() != "unknown");
        // Undo back to the start, checking every step.
        while let Some((s, h)) = snapshots.pop() {
            assert!(g.undo());
            assert_eq!(g.hash(), h);
            assert_eq!(snapshot(&g), s);
        }
        assert!(!g.undo());
        assert_eq!(snapshot(&g), snapshot(&g.cleared()));
    }
}

#[test]
fn hash_tells_positions_apart() {
    // The same stones with another mover or another colour out hash differently.
    let mut a = new(5, 2, false);
    play(&mut a, "a1 e5");
    let mut b = new(5, 2, false);
    play(&mut b, "a1 e5 j9");
    assert!(b.undo());
    assert_eq!(a.hash(), b.hash());
    let mut c = new(5, 2, true);
    play(&mut c, "e5");
    let h = c.hash();
    play(&mut c, "swap");
    assert_ne!(c.hash(), h);
}

#[test]
fn bench_counts_are_fixed() {
    let mut o = options(0);
    o.mcts.playouts = Some(2000);
    o.alphabeta.depth = Some(3);
    let a = Yavalath::bench(&o);
    let b = Yavalath::bench(&o);
    let counts = |s: &str| -> Vec<String> {
        s.lines()
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let at = w
                    .iter()
                    .position(|&x| x == "nodes" || x == "playouts")
                    .unwrap();
                w[at + 1].to_string()
            })
            .collect()
    };
    assert_eq!(a.lines().count(), 6, "{a}");
    assert!(a.ends_with('\n'));
    assert_eq!(counts(&a), counts(&b));
    assert!(a.contains("playouts 2000"), "{a}");
}

fn options(seed: u64) -> PlayerOptions {
    let mut o = PlayerOptions::for_player(PlayerKind::Mcts);
    o.seed = seed;
    o.mcts.threads = 1;
    o.alphabeta.threads = 1;
    o
}

fn limits(ms: u64) -> Limits {
    Limits {
        optimum: Duration::from_millis(ms),
        maximum: Duration::from_millis(ms),
        keeps_savings: false,
    }
}

#[test]
fn every_player_plays_legal_moves_in_time() {
    assert_eq!(Yavalath::player_names()[0], "search");
    assert!(Yavalath::player("nonsense", &options(1), Stop::new()).is_none());
    for &name in Yavalath::player_names() {
        for players in [2, 3] {
            let start = new(5, players, true);
            let mut seats: Vec<Box<dyn GamePlayer<Yavalath>>> = (0..players)
                .map(|k| Yavalath::player(name, &options(k as u64), Stop::new()).unwrap())
                .collect();
            let t = Instant::now();
            let record = duel::play(&start, &mut seats, 0.02);
            // duel::play panics on an illegal move; every move within its time (loosely).
            let per_move = t.elapsed().as_secs_f64() / record.moves.len() as f64;
            assert!(per_move < 0.1, "{name}: {per_move:.3} s a move");
        }
    }
}

#[test]
fn players_take_wins_and_block_threats() {
    // White threatens c1 (a1 b1 _ d1): black must block; if white to move, white wins.
    for &name in &["search", "mcts", "alphabeta", "negamax4"] {
        let mut g = new(5, 2, false);
        play(&mut g, "a1 j9 b1 e9 d1");
        let mut p = Yavalath::player(name, &options(3), Stop::new()).unwrap();
        let m = p.choose(&g, Instant::now(), limits(100));
        assert_eq!(m, cell(&g, "c1"), "{name} blocks");
        play(&mut g, "e7");
        let m = p.choose(&g, Instant::now(), limits(100));
        assert_eq!(m, cell(&g, "c1"), "{name} wins");
    }
}

#[test]
fn searches_stop_on_the_signal_and_playout_limits_reproduce() {
    let g = new(5, 2, false);
    let stop = Stop::new();
    stop.raise();
    let mut p = Yavalath::player("search", &options(1), stop.clone()).unwrap();
    let t = Instant::now();
    let m = p.choose(&g, t, limits(5_000));
    assert!(t.elapsed() < Duration::from_millis(500));
    assert!(g.check(0, m).is_ok());
    // A playout limit: the same move every time.
    let mut o = options(7);
    o.mcts.playouts = Some(3000);
    let moves: Vec<GameMove> = (0..2)
        .map(|_| {
            let mut p = Yavalath::player("mcts", &o, Stop::new()).unwrap();
            let mut g = new(5, 2, false);
            play(&mut g, "e5 a1");
            p.choose(&g, Instant::now(), limits(60_000))
        })
        .collect();
    assert_eq!(moves[0], moves[1]);
}

/// The default plays the alpha-beta's move while fewer than 10 stones are on the board (the
/// tree search's values are flat in the opening; docs/yavalath.md, step 12), the tree
/// search's after; with a playout limit the opening search counts 5 nodes a playout, so the
/// default stays reproducible.
#[test]
fn the_default_opens_by_the_alpha_beta_then_searches_the_tree() {
    let playouts = 2000;
    let mut o = options(3);
    o.mcts.playouts = Some(playouts);
    o.alphabeta.nodes = Some(5 * playouts);
    let choose = |name: &str, moves: &str| {
        let mut g = new(5, 2, true);
        play(&mut g, moves);
        let mut p = Yavalath::player(name, &o, Stop::new()).unwrap();
        p.choose(&g, Instant::now(), limits(60_000))
    };
    // After a swapped central stone the tree search and the alpha-beta disagree here.
    let opening = "e6 swap";
    assert_ne!(choose("mcts", opening), choose("alphabeta", opening));
    assert_eq!(choose("search", opening), choose("alphabeta", opening));
    assert_eq!(choose("search", opening), choose("search", opening));
    let later = "e6 swap j5 d5 f4 d6 d8 e7 b6 e4 e5";
    assert_eq!(choose("search", later), choose("mcts", later));
}

#[test]
fn the_swap_decision_follows_the_search() {
    // A centre opening is strong for white: the searching players take it (swap).
    for &name in &["search", "alphabeta"] {
        let mut g = new(5, 2, true);
        play(&mut g, "e5");
        let mut p = Yavalath::player(name, &options(5), Stop::new()).unwrap();
        let m = p.choose(&g, Instant::now(), limits(300));
        assert_eq!(m, GameMove::Swap, "{name}");
    }
}

/// Strength: `YAV_A` against `YAV_B` (player names), `YAV_GAMES` games at `YAV_SECONDS` a
/// move, seats alternated, two random opening moves. Run by hand:
/// `YAV_A=search YAV_B=negamax4 cargo test --release --test yavalath -- --ignored --nocapture`.
#[test]
#[ignore]
fn duel_strength() {
    let (a, b) = (env("YAV_A", "search"), env("YAV_B", "mcts-plain"));
    let games: usize = env("YAV_GAMES", "20").parse().unwrap();
    let seconds: f64 = env("YAV_SECONDS", "0.1").parse().unwrap();
    let swap = env("YAV_SWAP", "1") == "1";
    let openings: usize = env("YAV_OPENINGS", "0").parse().unwrap();
    let (mut score, mut draws) = (0.0, 0);
    let mut rng = Rng(0xdead_beef_1234_5677);
    for k in 0..games {
        let mut start = new(5, 2, swap);
        for _ in 0..openings {
            let cells = start.empties().to_vec();
            let c = cells[rng.below(cells.len())];
            let colour = start.to_move().unwrap();
            if start.check(colour, GameMove::Place(c)).is_ok()
                && !start.wins(colour).contains(c)
                && !start.losses(colour).contains(c)
            {
                start.play(GameMove::Place(c));
            }
        }
        let pa = Yavalath::player(&a, &options(k as u64), Stop::new()).unwrap();
        let pb = Yavalath::player(&b, &options(k as u64 + 1000), Stop::new()).unwrap();
        let a_seat = k % 2;
        let mut seats = if a_seat == 0 {
            vec![pa, pb]
        } else {
            vec![pb, pa]
        };
        let r = duel::play(&start, &mut seats, seconds);
        let s = match r.winning_seat() {
            Some(seat) if seat == a_seat => 1.0,
            Some(_) => 0.0,
            None => {
                draws += 1;
                0.5
            }
        };
        score += s;
        eprintln!(
            "game {k}: {a} as seat {a_seat} scores {s} in {} moves ({:?})",
            r.moves.len(),
            r.result
        );
    }
    let n = games as f64;
    let p = score / n;
    // Wilson 95 % interval.
    let z = 1.96;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    eprintln!(
        "{a} vs {b}: {score}/{games} ({:.1} %, Wilson 95 % {:.1}-{:.1} %), draws {draws}",
        100.0 * p,
        100.0 * (centre - half),
        100.0 * (centre + half)
    );
}

/// White's chances after each first stone, by the MCTS (the figures behind the fair
/// openings). Run by hand: `cargo test --release --test yavalath -- --ignored openings`.
#[test]
#[ignore]
fn openings() {
    let playouts = std::env::var("YAV_PLAYOUTS").map_or(50_000, |p| p.parse().unwrap());
    let mut v = omega::games::yavalath::opening_values(5, playouts);
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    for (cell, chance) in v {
        eprintln!("{cell} {chance:.3}");
    }
}

/// The bench lines (`omega bench` prints them once the protocol glue is in). Run by hand:
/// `cargo test --release --test yavalath -- --ignored print_bench --nocapture`.
#[test]
#[ignore]
fn print_bench() {
    eprint!("{}", Yavalath::bench(&options(0)));
}

#[test]
fn forced_wins_by_threats_are_played() {
    // White a1 b1 and e2 g4: d1 makes two threats at once (c1 and f3); black has no threat.
    // The default finds a forced win and keeps it whatever black answers.
    let mut g = new(5, 2, false);
    play(&mut g, "a1 j9 b1 e9 e2 j5 g4 h9");
    assert!(g.wins(0).is_empty() && g.wins(1).is_empty());
    let mut white = Yavalath::player("search", &options(2), Stop::new()).unwrap();
    let mut black = Yavalath::player("search", &options(3), Stop::new()).unwrap();
    while let Some(c) = g.to_move() {
        let p = if c == 0 { &mut white } else { &mut black };
        let m = p.choose(&g, Instant::now(), limits(50));
        assert!(g.check(c, m).is_ok());
        g.play(m);
    }
    assert_eq!(g.result(), Some(GameResult::Win(0)));
    assert!(
        g.history().len() <= 8 + 5,
        "a short forced win: {:?}",
        g.history()
    );
}

/// The second player's side of every swapped first stone, the games the default lost to
/// `negamax4` at 1 s (docs/yavalath.md, steps 10-11): for each cell X of side 5, white's X,
/// black's swap, then `YAV_A` (holding black, to move) against `YAV_B` (holding white's X),
/// `YAV_SECONDS` a move. `YAV_PART=k/n` plays every n-th cell from the k-th (to split the
/// cells between processes). Run by hand:
/// `YAV_A=search YAV_B=negamax4 YAV_SECONDS=1 cargo test --release --test yavalath -- --ignored defence --nocapture`
#[test]
#[ignore]
fn defence() {
    let (a, b) = (env("YAV_A", "search"), env("YAV_B", "negamax4"));
    let seconds: f64 = env("YAV_SECONDS", "1").parse().unwrap();
    let part = env("YAV_PART", "0/1");
    let (k, n) = part.split_once('/').unwrap();
    let (k, n): (usize, usize) = (k.parse().unwrap(), n.parse().unwrap());
    let cells: Vec<_> = new(5, 2, true).empties().to_vec();
    let (mut won, mut played) = (0.0, 0);
    for (i, &x) in cells.iter().enumerate().skip(k).step_by(n) {
        let mut start = new(5, 2, true);
        start.play(GameMove::Place(x));
        start.play(GameMove::Swap);
        let pa = Yavalath::player(&a, &options(i as u64), Stop::new()).unwrap();
        let pb = Yavalath::player(&b, &options(i as u64 + 1000), Stop::new()).unwrap();
        // Seat 1 holds black, which moves after the swap.
        let r = duel::play(&start, &mut [pb, pa], seconds);
        let s = match r.winning_seat() {
            Some(1) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        won += s;
        played += 1;
        let line: Vec<String> = r.moves.iter().map(|m| start.move_name(*m)).collect();
        eprintln!(
            "cell {}: {a} scores {s}: {}",
            start.move_name(GameMove::Place(x)),
            line.join(" ")
        );
    }
    eprintln!("{a} defending against {b}: {won}/{played}");
}

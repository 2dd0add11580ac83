//! Who sits where, and which opening each game starts from.
//!
//! Games come in *groups* that share one opening, and every group seats one set of engines in
//! every rotation of the seats, so no engine profits from a lucky start or a favoured seat:
//!
//! - E engines, K seats, E >= K: the groups run through the K-engine subsets of the engines
//!   in lexicographic order, cyclically. Group g seats subset `g mod C(E, K)`, and its K games
//!   rotate that subset through the seats (game r of the group gives seat s to the subset's
//!   member (s + r) mod K). With two seats every pair of engines meets with both colours on the
//!   same opening: a *game pair*, as cutechess-cli's `-repeat` and fastchess's `-games 2`.
//! - E < K (some engine must hold several seats): a group is E games, and game r of it gives
//!   seat s to engine (s + r) mod E.
//!
//! Over a whole *cycle* (every subset once) each engine holds each seat equally often, and
//! each pair of engines meets equally often.

use crate::board::Cell;
use crate::game::{mix64, Game};
use crate::player::random_turn_with;
use rand::rngs::StdRng;
use rand::SeedableRng;

/// The K-element subsets of 0..n in lexicographic order (C(n, k) of them; one empty subset
/// when k = 0).
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(current.clone());
        // The rightmost member that can still move right, moved, and those after it reset.
        let Some(i) = (0..k).rev().find(|&i| current[i] < n - k + i) else {
            return out;
        };
        current[i] += 1;
        for j in i + 1..k {
            current[j] = current[j - 1] + 1;
        }
    }
}

/// Games per group (the games that share an opening).
pub fn group_size(engines: usize, players: usize) -> usize {
    if engines >= players {
        players
    } else {
        engines
    }
}

/// Games per cycle: after a whole number of cycles every engine has held every seat equally
/// often and every pair of engines has met equally often.
pub fn cycle(engines: usize, players: usize) -> usize {
    if engines >= players {
        subsets(engines, players).len() * players
    } else {
        engines
    }
}

/// The group of game `game` (counted from 0), which is also its opening number.
pub fn group(game: usize, engines: usize, players: usize) -> usize {
    game / group_size(engines, players)
}

/// The engine in each seat of game `game` (counted from 0).
pub fn seats(game: usize, engines: usize, players: usize) -> Vec<usize> {
    let size = group_size(engines, players);
    let rotation = game % size;
    if engines >= players {
        let all = subsets(engines, players);
        let subset = &all[(game / size) % all.len()];
        (0..players)
            .map(|s| subset[(s + rotation) % players])
            .collect()
    } else {
        (0..players).map(|s| (s + rotation) % engines).collect()
    }
}

/// Opening number `index` of a match seeded with `seed`: `turns` uniformly random legal
/// turns, the same on every run with the same seed.
pub fn random_opening(
    seed: u64,
    index: usize,
    size: usize,
    players: usize,
    turns: usize,
) -> Vec<Vec<Cell>> {
    // Mix the index into the seed so nearby openings are unrelated.
    let mut rng = StdRng::seed_from_u64(mix64(
        seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
    ));
    let mut game = Game::new(size, players).expect("validated set-up");
    let mut out = Vec::with_capacity(turns);
    for _ in 0..turns {
        if game.is_over() {
            break;
        }
        let turn = random_turn_with(&game, &mut rng);
        game.play_turn(game.to_move(), &turn)
            .expect("distinct empty cells");
        out.push(turn);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_in_order() {
        assert_eq!(subsets(4, 2).len(), 6);
        assert_eq!(subsets(3, 2), [[0, 1], [0, 2], [1, 2]]);
        assert_eq!(subsets(3, 3), [[0, 1, 2]]);
        assert_eq!(subsets(5, 4).len(), 5);
    }

    /// Over one cycle every engine holds every seat equally often, and every pair of engines
    /// meets with each of them in each seat equally often (two seats: both colours).
    #[test]
    fn a_cycle_balances_seats_and_pairs() {
        for engines in 2..=6 {
            for players in 2..=4 {
                let n = cycle(engines, players);
                let mut seat_count = vec![vec![0; players]; engines];
                let mut ordered = vec![vec![0; engines]; engines];
                for g in 3 * n..4 * n {
                    let s = seats(g, engines, players);
                    for (seat, &e) in s.iter().enumerate() {
                        seat_count[e][seat] += 1;
                    }
                    if players == 2 {
                        ordered[s[0]][s[1]] += 1;
                    }
                }
                let first = seat_count[0][0];
                assert!(
                    first > 0 && seat_count.iter().flatten().all(|&c| c == first),
                    "{engines} engines, {players} players: {seat_count:?}"
                );
                if players == 2 {
                    for (a, row) in ordered.iter().enumerate() {
                        for (b, &n) in row.iter().enumerate() {
                            assert_eq!(n, usize::from(a != b), "{engines}: {a} vs {b}");
                        }
                    }
                }
            }
        }
    }

    /// The fault this schedule fixes: with three engines and two seats, A was always white
    /// against B. Now each pair plays a game pair with colours swapped on one opening.
    #[test]
    fn three_engines_two_seats_play_game_pairs() {
        let games: Vec<Vec<usize>> = (0..6).map(|g| seats(g, 3, 2)).collect();
        assert_eq!(
            games,
            [[0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]].map(|s| s.to_vec())
        );
        assert_eq!(group(0, 3, 2), group(1, 3, 2));
        assert_ne!(group(1, 3, 2), group(2, 3, 2));
        // Fewer engines than seats: two engines, three seats, as before.
        assert_eq!(seats(0, 2, 3), [0, 1, 0]);
        assert_eq!(seats(1, 2, 3), [1, 0, 1]);
        assert_eq!(cycle(2, 3), 2);
        assert_eq!(cycle(2, 2), 2);
        assert_eq!(cycle(4, 3), 12);
    }

    #[test]
    fn openings_are_reproducible_and_legal() {
        let a = random_opening(42, 3, 5, 2, 4);
        assert_eq!(a, random_opening(42, 3, 5, 2, 4));
        assert_ne!(a, random_opening(42, 4, 5, 2, 4));
        assert_ne!(a, random_opening(43, 3, 5, 2, 4));
        assert_eq!(a.len(), 4);
        let mut g = Game::new(5, 2).unwrap();
        for t in &a {
            g.play_turn(g.to_move(), t).unwrap();
        }
    }
}

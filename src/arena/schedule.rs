//! Who sits where, and which opening each game starts from.
//!
//! With E engines and K seats, game g (counted from 0) gives seat s to engine (g + s) mod E:
//! the seats are filled from the engines round-robin, and the assignment rotates by one
//! every game. Over any E consecutive games starting at a multiple of E (a *rotation*) each
//! engine holds each seat exactly once. Every opening is shared by the games of one rotation,
//! so each engine plays it from every seat and no engine profits from a lucky start.

use crate::board::Cell;
use crate::game::{mix64, Game};
use crate::player::random_turn_with;
use rand::rngs::StdRng;
use rand::SeedableRng;

/// The engine in each seat of game `game`.
pub fn seats(game: usize, engines: usize, players: usize) -> Vec<usize> {
    (0..players).map(|s| (game + s) % engines).collect()
}

/// Games per rotation.
pub fn rotation(engines: usize) -> usize {
    engines
}

/// The opening number of game `game`.
pub fn opening_index(game: usize, engines: usize) -> usize {
    game / rotation(engines)
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
    fn every_engine_holds_every_seat_once_per_rotation() {
        for engines in 2..=5 {
            for players in 2..=4 {
                for start in [0, engines, 3 * engines] {
                    let mut count = vec![vec![0; players]; engines];
                    for g in start..start + rotation(engines) {
                        for (seat, e) in seats(g, engines, players).into_iter().enumerate() {
                            count[e][seat] += 1;
                        }
                    }
                    assert!(
                        count.iter().flatten().all(|&c| c == 1),
                        "{engines} engines, {players} players: {count:?}"
                    );
                }
            }
        }
        assert_eq!(seats(0, 2, 2), [0, 1]);
        assert_eq!(seats(1, 2, 2), [1, 0]);
        assert_eq!(seats(1, 2, 3), [1, 0, 1]);
    }

    #[test]
    fn openings_are_reproducible_legal_and_shared_by_a_rotation() {
        let a = random_opening(42, 3, 5, 2, 4);
        assert_eq!(a, random_opening(42, 3, 5, 2, 4));
        assert_ne!(a, random_opening(42, 4, 5, 2, 4));
        assert_ne!(a, random_opening(43, 3, 5, 2, 4));
        assert_eq!(a.len(), 4);
        let mut g = Game::new(5, 2).unwrap();
        for t in &a {
            g.play_turn(g.to_move(), t).unwrap();
        }
        assert_eq!(opening_index(0, 3), opening_index(2, 3));
        assert_ne!(opening_index(2, 3), opening_index(3, 3));
    }
}

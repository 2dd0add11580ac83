//! Learning the pattern weights from games (`omega learn-patterns`): every stone of every
//! game is a choice among the empty cells, each cell seen as its pattern class; the weights
//! ("gammas") that make the choices most likely under a Bradley-Terry model, P(cell) =
//! gamma(cell) / sum of the gammas of all empty cells, are found by minorization-maximization
//! (Hunter 2004; Coulom 2007, "Computing Elo ratings of move patterns in the game of Go",
//! whose prior of one virtual win and one virtual loss against a gamma of 1 is used here).
//! The stones of the placing player's own colour and those of its opponents' colours are two
//! separate models.

use super::pattern::{canonical, code, rings, states, CODES, OFF_BOARD};
use crate::game::{Game, NO_STONE};
use std::fmt::Write;

/// One choice: the class chosen and how many empty cells of each class there were.
struct Choice {
    chosen: u16,
    counts: Vec<(u16, u16)>,
}

/// The choices of games, by model (own colour, opponents' colours).
#[derive(Default)]
pub struct Choices {
    models: [Vec<Choice>; 2],
}

impl Choices {
    /// Adds every stone of `game` (from its start to the position reached).
    pub fn add_game(&mut self, game: &Game) {
        let history = game.stone_history();
        let mut replay = game.cleared();
        let rings = rings(game.board());
        let n = game.board().cell_count();
        let mut colours = vec![NO_STONE; n + 1];
        colours[n] = OFF_BOARD;
        let mut counts = vec![0u16; CODES];
        for &cell in &history {
            let colour = replay.next_stone_colour().index() as u8;
            let own = replay.next_stone_colour() == replay.to_move();
            let states = states(colour);
            let mut seen = Vec::new();
            for &e in replay.empties() {
                let c = canonical(code(&colours, &rings[e as usize], &states));
                if counts[c as usize] == 0 {
                    seen.push(c);
                }
                counts[c as usize] += 1;
            }
            let chosen = canonical(code(&colours, &rings[cell as usize], &states));
            let choice = Choice {
                chosen,
                counts: seen.iter().map(|&c| (c, counts[c as usize])).collect(),
            };
            for &c in &seen {
                counts[c as usize] = 0;
            }
            self.models[usize::from(!own)].push(choice);
            replay.place(cell);
            colours[cell as usize] = colour;
        }
    }

    pub fn len(&self) -> usize {
        self.models[0].len() + self.models[1].len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The gammas of both models, indexed by code (equal within a class), after `rounds` of
    /// minorization-maximization, each model scaled so that its geometric mean over the classes
    /// seen is 1.
    pub fn fit(&self, rounds: usize) -> [Vec<f64>; 2] {
        [0, 1].map(|m| fit_model(&self.models[m], rounds))
    }
}

fn fit_model(choices: &[Choice], rounds: usize) -> Vec<f64> {
    let mut gamma = vec![1.0f64; CODES];
    let mut wins = vec![0.0f64; CODES];
    let mut present = vec![false; CODES];
    for ch in choices {
        wins[ch.chosen as usize] += 1.0;
        for &(c, _) in &ch.counts {
            present[c as usize] = true;
        }
    }
    for _ in 0..rounds {
        let mut denominator = vec![0.0f64; CODES];
        for ch in choices {
            let total: f64 = ch
                .counts
                .iter()
                .map(|&(c, k)| k as f64 * gamma[c as usize])
                .sum();
            for &(c, k) in &ch.counts {
                denominator[c as usize] += k as f64 / total;
            }
        }
        for c in 0..CODES {
            if present[c] {
                // The prior: one win and one loss against a virtual opponent of gamma 1.
                gamma[c] = (wins[c] + 1.0) / (denominator[c] + 2.0 / (gamma[c] + 1.0));
            }
        }
    }
    let seen: Vec<usize> = (0..CODES).filter(|&c| present[c]).collect();
    let mean_log = seen.iter().map(|&c| gamma[c].ln()).sum::<f64>() / seen.len().max(1) as f64;
    (0..CODES)
        .map(|code| {
            let c = canonical(code as u16) as usize;
            if present[c] {
                (gamma[c].ln() - mean_log).exp()
            } else {
                1.0
            }
        })
        .collect()
}

/// The gammas as the Rust source of `pattern_weights.rs`: one line a class, with its code.
pub fn to_source(gammas: &[Vec<f64>; 2], about: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "//! Pattern gammas learnt by `omega learn-patterns` ({about})."
    );
    let _ = writeln!(
        s,
        "//! Generated: do not edit; rerun `scripts/learn-patterns.sh`."
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "/// (class code, gamma of an own stone, gamma of an opponent's stone)"
    );
    let classes: Vec<u16> = (0..CODES as u16).filter(|&c| canonical(c) == c).collect();
    let _ = writeln!(
        s,
        "pub const GAMMAS: [(u16, f32, f32); {}] = [",
        classes.len()
    );
    for c in classes {
        let _ = writeln!(
            s,
            "    ({c}, {:.4}, {:.4}),",
            gammas[0][c as usize], gammas[1][c as usize]
        );
    }
    let _ = writeln!(s, "];");
    s
}

#[cfg(test)]
mod tests {
    use super::super::pattern::{state, SAME};
    use super::*;
    use crate::board::Cell;

    /// Games where every stone goes to the lowest empty cell with no neighbour of its colour
    /// when there is one: the learnt gammas must prefer such cells.
    #[test]
    fn learning_finds_the_preference_the_games_show() {
        let mut choices = Choices::default();
        for seed in 0..6u64 {
            let mut game = Game::new(4, 2).unwrap();
            let mut rng = crate::mcts::FastRng::new(seed);
            while !game.is_over() {
                let colour = game.next_stone_colour();
                let lonely = |g: &Game, c: Cell| {
                    g.board()
                        .neighbours(c)
                        .iter()
                        .all(|&n| g.stone(n) != Some(colour))
                };
                let empties = game.empties().to_vec();
                let pick = empties
                    .iter()
                    .copied()
                    .find(|&c| lonely(&game, c))
                    .unwrap_or(empties[rng.below(empties.len())]);
                game.place(pick);
            }
            choices.add_game(&game);
        }
        let gammas = choices.fit(20);
        // Mean log-gamma of the classes seen with and without a neighbour of the colour.
        let touches = |code: usize| (0..6).any(|i| state(code as u16, i) == SAME);
        for model in &gammas {
            let mean = |with: bool| {
                let logs: Vec<f64> = (0..CODES)
                    .filter(|&c| model[c] != 1.0 && touches(c) == with)
                    .map(|c| model[c].ln())
                    .collect();
                logs.iter().sum::<f64>() / logs.len() as f64
            };
            assert!(
                mean(false) > mean(true) + 1.0,
                "{} {}",
                mean(false),
                mean(true)
            );
        }
        let source = to_source(&gammas, "test");
        assert!(source.contains("pub const GAMMAS: [(u16, f32, f32); 430]"));
    }
}

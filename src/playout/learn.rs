//! Learning the pattern weights from games (`omega learn-patterns`): every stone of every
//! game is a choice among the empty cells, each cell seen as its pattern class and its size
//! class (see `pattern.rs`); the weights ("gammas") that make the choices most likely under a
//! generalized Bradley-Terry model, P(cell) = gamma(cell) / sum of the gammas of all empty
//! cells, where a cell's gamma is its pattern's times its size class's, are found by
//! minorization-maximization (Hunter 2004; Coulom 2007, "Computing Elo ratings of move
//! patterns in the game of Go": the two kinds of feature updated in turn, and the prior of one
//! virtual win and one virtual loss against a gamma of 1).
//! The stones of the placing player's own colour and those of its opponents' colours are two
//! separate models.

use super::pattern::{canonical, code, rings, size_class, states, CODES, OFF_BOARD, SIZE_CLASSES};
use crate::game::{Game, NO_STONE};
use std::fmt::Write;

/// One choice: the (pattern class, size class) chosen, and how many empty cells of each
/// such pair there were.
struct Choice {
    chosen: (u16, u8),
    counts: Vec<(u16, u8, u16)>,
}

/// The choices of games, by model (own colour, opponents' colours).
#[derive(Default)]
pub struct Choices {
    models: [Vec<Choice>; 2],
}

/// The gammas of one model: of every pattern code (equal within a class) and of every size
/// class, each scaled so that its geometric mean over the classes seen is 1 (a common factor
/// of one kind of feature cancels out of every choice's probability).
pub struct Gammas {
    pub patterns: Vec<f64>,
    pub sizes: Vec<f64>,
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
        let mut counts = vec![0u16; CODES * SIZE_CLASSES];
        for &cell in &history {
            let colour = replay.next_stone_colour().index() as u8;
            let own = replay.next_stone_colour() == replay.to_move();
            let states = states(colour);
            let pair = |c: crate::board::Cell| {
                let p = canonical(code(&colours, &rings[c as usize], &states));
                (p, size_class(&replay, c, colour) as u8)
            };
            let key = |(p, z): (u16, u8)| p as usize * SIZE_CLASSES + z as usize;
            let mut seen = Vec::new();
            for &e in replay.empties() {
                let pz = pair(e);
                if counts[key(pz)] == 0 {
                    seen.push(pz);
                }
                counts[key(pz)] += 1;
            }
            let choice = Choice {
                chosen: pair(cell),
                counts: seen
                    .iter()
                    .map(|&(p, z)| (p, z, counts[key((p, z))]))
                    .collect(),
            };
            for &pz in &seen {
                counts[key(pz)] = 0;
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

    /// The gammas of both models after `rounds` of minorization-maximization; with
    /// `fit_sizes` false the size classes are held at 1 (the patterns alone, as the committed
    /// 2-player table is).
    pub fn fit(&self, rounds: usize, fit_sizes: bool) -> [Gammas; 2] {
        [0, 1].map(|m| fit_model(&self.models[m], rounds, fit_sizes))
    }
}

/// One feature kind's gammas: `gamma[i]` for its classes, with their wins (times chosen) and
/// whether they were ever a candidate.
struct Kind {
    gamma: Vec<f64>,
    wins: Vec<f64>,
    present: Vec<bool>,
}

impl Kind {
    fn new(len: usize) -> Kind {
        Kind {
            gamma: vec![1.0; len],
            wins: vec![0.0; len],
            present: vec![false; len],
        }
    }

    /// One MM step (Coulom 2007, eq. 5): gamma = wins / sum over choices of the weight of the
    /// candidates holding the feature, each times its teammates' gammas, over the choice's
    /// total; with the prior of one win and one loss against a virtual gamma of 1.
    fn update(&mut self, denominator: &[f64]) {
        for (i, g) in self.gamma.iter_mut().enumerate() {
            if self.present[i] {
                *g = (self.wins[i] + 1.0) / (denominator[i] + 2.0 / (*g + 1.0));
            }
        }
    }

    /// The gammas scaled to a geometric mean of 1 over the classes seen.
    fn normalised(&self) -> Vec<f64> {
        let seen: Vec<f64> = (0..self.gamma.len())
            .filter(|&i| self.present[i])
            .map(|i| self.gamma[i].ln())
            .collect();
        let mean_log = seen.iter().sum::<f64>() / seen.len().max(1) as f64;
        (0..self.gamma.len())
            .map(|i| {
                if self.present[i] {
                    (self.gamma[i].ln() - mean_log).exp()
                } else {
                    1.0
                }
            })
            .collect()
    }
}

/// The MM denominators of the patterns' gammas (`of_patterns`) or of the size classes': for
/// each class, the sum over choices of the candidates holding it, each times its teammate's
/// gamma, over the choice's total.
fn denominators(choices: &[Choice], patterns: &Kind, sizes: &Kind, of_patterns: bool) -> Vec<f64> {
    let mut denominator = vec![0.0f64; if of_patterns { CODES } else { SIZE_CLASSES }];
    for ch in choices {
        let gamma = |c: u16, s: u8| patterns.gamma[c as usize] * sizes.gamma[s as usize];
        let total: f64 = ch
            .counts
            .iter()
            .map(|&(c, s, k)| k as f64 * gamma(c, s))
            .sum();
        for &(c, s, k) in &ch.counts {
            let (class, mate) = if of_patterns {
                (c as usize, sizes.gamma[s as usize])
            } else {
                (s as usize, patterns.gamma[c as usize])
            };
            denominator[class] += k as f64 * mate / total;
        }
    }
    denominator
}

fn fit_model(choices: &[Choice], rounds: usize, fit_sizes: bool) -> Gammas {
    let mut patterns = Kind::new(CODES);
    let mut sizes = Kind::new(SIZE_CLASSES);
    for ch in choices {
        patterns.wins[ch.chosen.0 as usize] += 1.0;
        sizes.wins[ch.chosen.1 as usize] += 1.0;
        for &(p, z, _) in &ch.counts {
            patterns.present[p as usize] = true;
            sizes.present[z as usize] = true;
        }
    }
    for _ in 0..rounds {
        // The two kinds in turn, each with the other's gammas held.
        patterns.update(&denominators(choices, &patterns, &sizes, true));
        if fit_sizes {
            sizes.update(&denominators(choices, &patterns, &sizes, false));
        }
    }
    let by_class = patterns.normalised();
    Gammas {
        patterns: (0..CODES)
            .map(|code| by_class[canonical(code as u16) as usize])
            .collect(),
        sizes: sizes.normalised(),
    }
}

/// The gammas as the Rust source of a table (`pattern_weights.rs` for 2 players,
/// `pattern_weights_3p.rs`, `pattern_weights_4p.rs`): one line a class, with its code.
pub fn to_source(gammas: &[Gammas; 2], about: &str) -> String {
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
            gammas[0].patterns[c as usize], gammas[1].patterns[c as usize]
        );
    }
    let _ = writeln!(s, "];");
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "/// (gamma of an own stone, gamma of an opponent's stone) of each size class"
    );
    let _ = writeln!(s, "pub const SIZE_GAMMAS: [(f32, f32); {SIZE_CLASSES}] = [");
    for z in 0..SIZE_CLASSES {
        let _ = writeln!(
            s,
            "    ({:.4}, {:.4}),",
            gammas[0].sizes[z], gammas[1].sizes[z]
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

    /// The fit of six side-4 games where every stone goes to the first empty cell `pick`
    /// likes, when there is one, and to a random one otherwise.
    fn fit_games(pick: impl Fn(&Game, Cell) -> bool) -> [Gammas; 2] {
        let mut choices = Choices::default();
        for seed in 0..6u64 {
            let mut game = Game::new(4, 2).unwrap();
            let mut rng = crate::mcts::FastRng::new(seed);
            while !game.is_over() {
                let empties = game.empties().to_vec();
                let cell = empties
                    .iter()
                    .copied()
                    .find(|&c| pick(&game, c))
                    .unwrap_or(empties[rng.below(empties.len())]);
                game.place(cell);
            }
            choices.add_game(&game);
        }
        choices.fit(20, true)
    }

    /// Games where every stone goes to the lowest empty cell with no neighbour of its colour
    /// when there is one: the learnt gammas must prefer such cells.
    #[test]
    fn learning_finds_the_preference_the_games_show() {
        let gammas = fit_games(|g, c| {
            let colour = g.next_stone_colour();
            g.board()
                .neighbours(c)
                .iter()
                .all(|&n| g.stone(n) != Some(colour))
        });
        // Mean log-gamma of the classes seen with and without a neighbour of the colour,
        // pattern and size class together (the two see the same thing here).
        let touches = |code: usize| (0..6).any(|i| state(code as u16, i) == SAME);
        for model in &gammas {
            let mean = |with: bool| {
                let logs: Vec<f64> = (0..CODES)
                    .filter(|&c| model.patterns[c] != 1.0 && touches(c) == with)
                    .map(|c| model.patterns[c].ln())
                    .collect();
                logs.iter().sum::<f64>() / logs.len() as f64
            };
            let alone = mean(false) + model.sizes[0].ln();
            let grown = mean(true) + model.sizes[1].ln();
            assert!(alone > grown + 1.0, "{alone} {grown}");
        }
        let source = to_source(&gammas, "test");
        assert!(source.contains("pub const GAMMAS: [(u16, f32, f32); 430]"));
        assert!(source.contains("pub const SIZE_GAMMAS: [(f32, f32); 16]"));
    }

    /// Games where every stone grows a group of its colour to exactly three stones when it
    /// can: the ring cannot see that, the size class can, and must prefer it.
    #[test]
    fn learning_finds_the_group_size_the_games_prefer() {
        let gammas = fit_games(|g, c| {
            let colour = g.next_stone_colour().index() as u8;
            size_class(g, c, colour) == 2
        });
        for model in &gammas {
            for z in [1, 3, 4] {
                assert!(
                    model.sizes[2] > 2.0 * model.sizes[z],
                    "size 3 {} against class {z} {}",
                    model.sizes[2],
                    model.sizes[z]
                );
            }
        }
    }
}

//! Omega as an [`MctsPosition`] for the tree search: one stone per ply (a turn of K stones is
//! K plies of one player), fast playouts on a scratch copy of the board, exact scoring of the
//! filled board, and prior values of the moves from the evaluation's placement deltas.

mod learn;
mod pattern;
mod pattern_weights;
mod pattern_weights_3p;
mod pattern_weights_4p;
mod policy;
mod reply;
mod score;
mod shape;
mod shape_weights;
mod shape_weights_3p;
mod shape_weights_4p;
mod stones;

pub use learn::{to_source, Choices};
pub use pattern::OFF_BOARD;
use policy::PlayoutGroups;
pub use policy::{
    CountWeights, Weights, CLASS_NAMES, COUNT_NAMES, DEFAULT_COUNT_WEIGHTS, DEFAULT_WEIGHTS,
};
pub use score::{winner, Scorer};
use stones::TreeStones;

use crate::board::Cell;
use crate::eval;
use crate::game::last_turn::{last_turn, LastTurn};
use crate::game::{Colour, Game, MAX_PLAYERS};
use crate::mcts::{FastRng, MctsPosition, Rewards};

/// The share of a board's cells that must be empty at a leaf for the shapes' value to be
/// blended into its playouts' rewards: 30 empty cells or more on side 5 (61 cells), where the
/// blend was tuned (`value_min_empties=30` then), 62 on side 7, 133 on side 10.
pub const VALUE_MIN_SHARE: f32 = 0.488;

/// How playouts and priors are made. `Default` is the plain baseline: uniformly random
/// playouts, win or loss only, no priors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutConfig {
    /// Share of the reward that comes from the final score margin instead of the win
    /// (0 = win or loss only).
    pub score_weight: f32,
    /// The margin, in natural logarithm of the score ratio, that makes the score part of the
    /// reward 0.73 (the logistic of 1).
    pub score_scale: f32,
    /// Priors from the placement deltas: a delta of this many thousandths of a natural log
    /// moves the prior from 0.5 to about 0.88 (tanh of 1). 0 = no priors.
    pub prior_scale: f32,
    /// Cells drawn for each stone of a playout, the best by `weights` taking the stone;
    /// 1 = a uniformly random fill.
    pub candidates: usize,
    /// Cells drawn for each stone by the light policy (neighbour counts only), when
    /// `candidates` is 1; 1 = none.
    pub count_candidates: usize,
    pub count_weights: CountWeights,
    /// Cells drawn for each stone by the pattern policy (learnt gammas), when the other two
    /// policies are off; 1 = none.
    pub pattern_candidates: usize,
    /// Cells drawn for each stone by MAST (Finnsson & Björnsson 2008: the mean reward of a
    /// colour's owner over the playouts where the cell ended with the colour); 1 = none.
    pub mast_candidates: usize,
    /// Priors from the patterns' gammas g, as `g^a / (g^a + 1)` with this a (0 = the
    /// placement-delta priors of `prior_scale` instead).
    pub pattern_prior: f32,
    /// The power for the stones of another player's colour, when it differs (0 = the same
    /// as `pattern_prior`): the two colours' gammas come from two models fitted apart.
    pub pattern_prior_other: f32,
    /// The pattern priors are used only in games of at most this many players (an
    /// experiment's switch: each number of players has its own learnt table, see
    /// `pattern.rs`). With 4 players, side 6, 10,000 playouts a turn, one seat against three
    /// `mcts-plain`, 400 games, the default won 68 with the 2-player table, 98 without
    /// priors, and 132 with the table learnt from 4-player games.
    pub pattern_prior_players: usize,
    /// The patterns' priors are taken relative to the geometric mean of the gammas of the
    /// position's moves, `g^a / (g^a + mean^a)`, so that a move as good as the average one
    /// starts at 0.5, whatever the position (off: relative to the mean over all classes).
    pub pattern_centre: bool,
    /// With two players, each pattern prior's `g^a` is multiplied by `exp(value_prior *
    /// change)`, where the change is how much the move moves the learnt value of local
    /// shapes, in logits of the mover's winning (see `shape.rs`; 0 = off). Beside the blend,
    /// 1 won about 3 points more against `mcts-plain` at equal playouts on side 5 and was
    /// even head to head at equal time, its cost (about a tenth of a search) taking the
    /// gain back (docs/strength.md, "The tree's move on the clock, ...").
    pub value_prior: f32,
    /// With two players, a playout's rewards are blended with the learnt value of local
    /// shapes at the leaf it starts from: `(1 - value_blend) r + value_blend v` (0 = off), at
    /// leaves with at least `value_min_empties` empty cells and at least `value_min_share`
    /// of the board's cells empty (nearer the end the playouts judge better than the shapes:
    /// docs/strength.md, "How the default was found"), on boards of at most
    /// `value_max_cells` cells.
    /// The weights were learnt on side 5; read on side 7 and 10 too, they measured stronger.
    pub value_blend: f32,
    /// The same blend with 3 and 4 players, of each colour's chance of winning by the
    /// multi-player shapes' value (`shape::colour_values`), at the same leaves (0 = off).
    pub value_blend_multi: f32,
    pub value_min_empties: usize,
    pub value_min_share: f32,
    pub value_max_cells: usize,
    /// The pattern gamma of a cell next to a stone of the previous turn (the last player's
    /// stones) is multiplied by this, for a stone of the placing player's own colour and for
    /// one of another colour (1 = no change). In games of the default, a stone was placed next
    /// to the previous turn's stones 1.5 (own colour) and 1.9 (other colour) times as often as
    /// a cell touching stones was (60 games at 60,000 playouts a turn): the opponent's last
    /// stones make the threats to answer, which a 3x3 ring cannot tell from older stones.
    pub near_last_own: f32,
    pub near_last_other: f32,
    /// Preferences of the placement classes (see `policy.rs`).
    pub weights: Weights,
    /// Uniform playouts play the last good reply where there is one (see `reply.rs`).
    pub last_good_reply: bool,
    /// The last this many stones of a uniform playout are placed greedily (0 = none; see
    /// `policy::greedy_end_fill`).
    pub greedy_end: usize,
    /// Those stones take the best of this many cells drawn at random instead of the best
    /// of all (0 = all).
    pub greedy_candidates: usize,
    /// Uniform 2-player playouts come in antithetic pairs within a batch of
    /// `leaf_playouts`: every second playout from the leaf fills the same cells in the same
    /// order with the colours swapped (but for the first stone of an odd count, which keeps
    /// the colour counts right), so that the pair's mean reward varies less than two
    /// independent playouts' (see [`MctsPosition::playout_twin`]).
    pub antithetic: bool,
    /// A uniform playout that reaches the last turn of the game plays the last player's
    /// winning turn there when it has one ([`last_turn`]: its own stone and each other
    /// colour's on distinct cells where its score is at least each other's), as a player
    /// who looks two to four stones ahead does, instead of random stones (off: random). Set
    /// for each search by the searching player's seat (`MctsOptions::last_turn_win`).
    pub last_turn_win: bool,
}

impl PlayoutConfig {
    /// The share of a playout's rewards that comes from the shapes' value at a leaf with
    /// `empties` empty cells, in a game of `players` players on a board of `cells` cells
    /// ([`PlayoutConfig::value_blend`], [`PlayoutConfig::value_blend_multi`]): 0 unless at
    /// least `value_min_empties` and `value_min_share` of the cells are empty and the board
    /// has at most `value_max_cells` cells.
    pub fn shape_value_share(&self, players: usize, empties: usize, cells: usize) -> f32 {
        let blend = match players {
            2 => self.value_blend,
            _ => self.value_blend_multi,
        };
        // The blend first: with both blends 0 (`mcts-plain`) a playout skips the bounds.
        let applies = blend > 0.0
            && empties >= self.value_min_empties
            && empties as f32 >= self.value_min_share * cells as f32
            && cells <= self.value_max_cells;
        if applies {
            blend
        } else {
            0.0
        }
    }
}

impl Default for PlayoutConfig {
    fn default() -> Self {
        PlayoutConfig {
            score_weight: 0.0,
            score_scale: 1.0,
            prior_scale: 0.0,
            candidates: 1,
            weights: DEFAULT_WEIGHTS,
            count_candidates: 1,
            pattern_candidates: 1,
            mast_candidates: 1,
            pattern_prior: 0.0,
            pattern_prior_other: 0.0,
            pattern_prior_players: MAX_PLAYERS,
            pattern_centre: false,
            value_prior: 0.0,
            value_blend: 0.0,
            value_blend_multi: 0.0,
            value_min_empties: 0,
            value_min_share: VALUE_MIN_SHARE,
            value_max_cells: usize::MAX,
            near_last_own: 1.0,
            near_last_other: 1.0,
            count_weights: DEFAULT_COUNT_WEIGHTS,
            last_good_reply: false,
            greedy_end: 0,
            greedy_candidates: 0,
            antithetic: false,
            last_turn_win: false,
        }
    }
}

/// Buffers kept between playouts, built for one board.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    scorer: Scorer,
    /// MAST: for every colour and cell, playouts that ended with the colour there and the
    /// sum of its owner's rewards.
    mast: Vec<(f32, f32)>,
    rings: Vec<[Cell; 6]>,
    groups: PlayoutGroups,
    empties: Vec<Cell>,
    replies: reply::Replies,
    /// By cell, the stamp of the last prior computation that found it next to a stone of the
    /// previous turn.
    near_last: Vec<u32>,
    near_stamp: u32,
    /// The stones of the tree's current position (see `stones.rs`).
    stones: TreeStones,
    /// The shapes' hexagons of the position whose priors were last computed
    /// ([`PlayoutConfig::value_prior`]).
    shape_deltas: shape::ShapeDeltas,
    /// Whether the last playout was a uniform 2-player fill whose antithetic twin may
    /// follow ([`PlayoutConfig::antithetic`]): `empties` then still begins with the cells it
    /// filled, in order.
    twin_ready: bool,
    /// By colour, its score with its last stone on each empty cell, at the start of the last
    /// turn ([`MctsPosition::known_winner`]).
    last_stones: [Vec<u128>; MAX_PLAYERS],
}

impl Scratch {
    pub fn new(game: &Game) -> Scratch {
        Scratch {
            scorer: Scorer::new(game.board()),
            mast: vec![(0.0, 0.0); MAX_PLAYERS * game.board().cell_count()],
            rings: pattern::rings(game.board()),
            groups: PlayoutGroups::default(),
            empties: Vec::with_capacity(game.board().cell_count()),
            replies: reply::Replies::new(game.board().cell_count(), game.players()),
            near_last: vec![0; game.board().cell_count() + 1],
            near_stamp: 0,
            stones: TreeStones::default(),
            shape_deltas: shape::ShapeDeltas::default(),
            twin_ready: false,
            last_stones: Default::default(),
        }
    }

    /// Scales the MAST statistics down (a new search: the position has changed).
    pub fn decay_mast(&mut self, factor: f32) {
        for m in &mut self.mast {
            m.0 *= factor;
            m.1 *= factor;
        }
    }

    /// Whether these buffers were built for `game`'s board.
    pub fn fits(&self, game: &Game) -> bool {
        self.scorer.cells() == game.board().cell_count()
            && self.replies.fits(game.board().cell_count(), game.players())
    }
}

/// A game seen by the tree search. Its plies are played on the light stones of
/// `scratch.stones`; `game` stays at the search's root, and is brought to the current
/// position only for the experiments that read its groups ([`OmegaTree::at_node`]).
pub struct OmegaTree<'a> {
    game: &'a mut Game,
    scratch: &'a mut Scratch,
    config: PlayoutConfig,
}

impl<'a> OmegaTree<'a> {
    /// Contract: `scratch` fits the game's board ([`Scratch::fits`]). The game is left as it
    /// is: every ply the search plays it takes back.
    pub fn new(game: &'a mut Game, scratch: &'a mut Scratch, config: PlayoutConfig) -> Self {
        debug_assert!(scratch.fits(game));
        scratch.stones.reset(game);
        OmegaTree {
            game,
            scratch,
            config,
        }
    }

    /// The game at the search's root.
    pub fn game(&self) -> &Game {
        self.game
    }

    /// Stones still to be placed until the end of the game.
    fn stones_left(&self) -> usize {
        self.game.total_turns() * self.game.players() - self.scratch.stones.stones_placed()
    }

    /// `f` on the game brought to the tree's current position: the stones placed since the
    /// root are placed on it, and taken back afterwards. For the settings that read the
    /// game's groups or evaluation (none of the default's), at the cost of the replay.
    fn at_node<R>(&mut self, f: impl FnOnce(&Game, &mut Scratch) -> R) -> R {
        let mut depth = 0;
        for cell in self.scratch.stones.path() {
            self.game.place(cell);
            depth += 1;
        }
        let result = f(self.game, self.scratch);
        for _ in 0..depth {
            self.game.unplace();
        }
        result
    }

    /// The colour of the next stone.
    #[inline]
    fn next_colour(&self) -> Colour {
        Colour::from_index(self.scratch.stones.phase() as usize)
    }

    /// Whether the next stone is of the colour of the player placing it.
    #[inline]
    fn own_colour(&self) -> bool {
        self.scratch.stones.phase() == self.scratch.stones.mover()
    }

    /// The rewards of a finished board with `scores`: 1 for the winner, 0 for the others,
    /// blended with the logistic of each player's log-score margin over its best rival.
    fn rewards(&self, scores: &[u128; MAX_PLAYERS], winner: usize, out: &mut Rewards) {
        let k = self.game.players();
        *out = [0.0; MAX_PLAYERS];
        out[winner] = 1.0;
        let w = self.config.score_weight;
        if w <= 0.0 {
            return;
        }
        let mut logs = [0f32; MAX_PLAYERS];
        for c in 0..k {
            logs[c] = (scores[c].max(1) as f64).ln() as f32;
        }
        for p in 0..k {
            let rival = (0..k)
                .filter(|&o| o != p)
                .map(|o| logs[o])
                .fold(f32::NEG_INFINITY, f32::max);
            let margin = (logs[p] - rival) / self.config.score_scale;
            out[p] = (1.0 - w) * out[p] + w / (1.0 + (-margin).exp());
        }
    }
}

impl OmegaTree<'_> {
    /// Blends the rewards of a playout from the current position (the leaf) with the
    /// shapes' value there, by the share [`PlayoutConfig::shape_value_share`] gives.
    fn blend_shape_value(&self, rewards: &mut Rewards) {
        let tree = &self.scratch.stones;
        let empties = tree.empties().len();
        let players = self.game.players();
        let cells = self.game.board().cell_count();
        let blend = self.config.shape_value_share(players, empties, cells);
        if blend <= 0.0 {
            return;
        }
        let (board, rings) = (tree.board(), &self.scratch.rings);
        if players == 2 {
            let v = shape::white_value(board, rings, empties, tree.mover(), tree.phase());
            rewards[0] += blend * (v - rewards[0]);
            rewards[1] += blend * (1.0 - v - rewards[1]);
        } else if let Some(v) =
            shape::colour_values(board, rings, empties, players, tree.mover(), tree.phase())
        {
            for (r, v) in rewards.iter_mut().zip(v).take(players) {
                *r += blend * (v - *r);
            }
        }
    }
}

impl MctsPosition for OmegaTree<'_> {
    type Move = Cell;

    fn players(&self) -> usize {
        self.game.players()
    }

    #[inline]
    fn mover(&self) -> usize {
        self.scratch.stones.mover() as usize
    }

    #[inline]
    fn is_terminal(&self) -> bool {
        self.scratch.stones.is_over()
    }

    fn moves(&self, out: &mut Vec<Cell>) {
        if !self.scratch.stones.is_over() {
            out.extend_from_slice(self.scratch.stones.empties());
        }
    }

    #[inline]
    fn play(&mut self, m: Cell) {
        self.scratch.stones.place(m);
    }

    #[inline]
    fn undo(&mut self) {
        self.scratch.stones.unplace();
    }

    /// At the start of the last player's last turn with 3 or 4 players, the winner when the
    /// rules already decide it: the last player when it can win, or the one colour that wins
    /// whatever it does ([`crate::game::last_turn`]). With 2 players the turn is two plies
    /// and the solver proves it at once; nothing is measured there.
    fn known_winner(&mut self) -> Option<usize> {
        let k = self.game.players();
        let stones = &self.scratch.stones;
        let empties = stones.empties().len();
        if k < 3 || stones.phase() != 0 || stones.mover() as usize != k - 1 || empties >= k * k + k
        {
            return None;
        }
        let scratch = &mut *self.scratch;
        let (board, rings) = (scratch.stones.board(), &scratch.rings);
        let empties = scratch.stones.empties();
        let out = &mut scratch.last_stones;
        scratch
            .scorer
            .with_one_more_stone(board, k, empties, rings, out);
        let columns: [&[u128]; MAX_PLAYERS] = std::array::from_fn(|c| out[c].as_slice());
        match last_turn(&columns[..k]) {
            LastTurn::Wins(_) => Some(k - 1),
            LastTurn::EveryReply(winner) => Some(winner),
            LastTurn::Open => None,
        }
    }

    fn amaf_len(&self) -> usize {
        // One entry more: the board's `outside` index, which the scorer reads as empty.
        self.game.board().cell_count() + 1
    }

    #[inline]
    fn amaf_key(m: Cell) -> usize {
        m as usize
    }

    #[inline]
    fn amaf_tag(&self) -> u8 {
        self.scratch.stones.phase()
    }

    fn priors(&mut self, moves: &[Cell], out: &mut Vec<f32>) {
        let power = self.config.pattern_prior;
        let players = self.game.players();
        if power > 0.0 && players <= self.config.pattern_prior_players {
            // The pattern's gamma g, relative to the geometric mean 1: g^a / (g^a + 1).
            let own = self.own_colour();
            let power = match self.config.pattern_prior_other {
                other if !own && other > 0.0 => other,
                _ => power,
            };
            let near = if own {
                self.config.near_last_own
            } else {
                self.config.near_last_other
            };
            let stamp = if near != 1.0 {
                mark_near_last_turn(self.game, self.scratch)
            } else {
                0
            };
            let colour = self.scratch.stones.phase();
            let model = &pattern::gammas(players)[usize::from(!own)];
            let states = pattern::colour_states(colour);
            let start = out.len();
            let scratch = &*self.scratch;
            let board = scratch.stones.board();
            debug_assert_eq!(board.len(), self.game.board().cell_count() + 1);
            for &m in moves {
                let g = model[pattern::code(board, &scratch.rings[m as usize], states) as usize];
                out.push(if stamp != 0 && scratch.near_last[m as usize] == stamp {
                    g * near
                } else {
                    g
                });
            }
            if let Some(sizes) = pattern::size_gammas(players).map(|t| &t[usize::from(!own)]) {
                // The size classes read the groups, which only the game keeps.
                self.at_node(|game, _| {
                    for (g, &m) in out[start..].iter_mut().zip(moves) {
                        *g *= sizes[pattern::size_class(game, m, colour)];
                    }
                });
            }
            // powf was 2.5 % of a search's time (perf): the powers 1 and 2 multiply.
            if power == 2.0 {
                out[start..].iter_mut().for_each(|g| *g *= *g);
            } else if power != 1.0 {
                out[start..].iter_mut().for_each(|g| *g = g.powf(power));
            }
            let beta = self.config.value_prior;
            if beta != 0.0 && players == 2 {
                // The value is white's: the mover gains with it when it is white's player.
                let beta = if self.mover() == 0 { beta } else { -beta };
                let scratch = &mut *self.scratch;
                let empties = scratch.stones.empties().len();
                let shapes = &mut scratch.shape_deltas;
                shapes.read(scratch.stones.board(), &scratch.rings, empties);
                for (g, &m) in out[start..].iter_mut().zip(moves) {
                    *g *= (beta * shapes.delta(&scratch.rings, m, colour)).exp();
                }
            }
            let mean = if self.config.pattern_centre && !moves.is_empty() {
                let logs: f32 = out[start..].iter().map(|g| g.ln()).sum();
                (logs / moves.len() as f32).exp()
            } else {
                1.0
            };
            for g in &mut out[start..] {
                *g /= *g + mean;
            }
            return;
        }
        let scale = self.config.prior_scale;
        if scale <= 0.0 {
            return;
        }
        // The mover wants its own colour to grow and every other colour to lose.
        let colour = self.next_colour();
        let sign = if self.own_colour() { 1.0 } else { -1.0 };
        self.at_node(|game, _| {
            for &m in moves {
                let delta = eval::placement_delta(game, colour, m) as f32;
                out.push(0.5 + 0.5 * (sign * delta / scale).tanh());
            }
        });
    }

    /// A fill of the board to the end, then its scores: uniformly random (the empty cells in
    /// random order take the colours of the remaining stones in turn order, then one scoring
    /// pass), or by the policy. The board used is `amaf` itself, which so ends holding the
    /// final colours, as the RAVE update wants.
    fn playout(&mut self, rng: &mut FastRng, amaf: &mut [u8], rewards: &mut Rewards) -> usize {
        let n = self.game.board().cell_count();
        let k = self.game.players();
        amaf[..=n].copy_from_slice(self.scratch.stones.board());
        let stones = self.stones_left();
        self.scratch.twin_ready = false;
        if self.config.candidates > 1 {
            // The placement classes start from the groups of the node's stones, built in
            // the scorer's one scan (replaying the descent on the game's own groups and
            // taking it back cost more).
            let scratch = &mut *self.scratch;
            scratch.groups.rebuild(scratch.scorer.earlier(), amaf);
        }
        let tree = &self.scratch.stones;
        let (colour, mover) = (tree.phase(), tree.mover());
        let last = tree.recent_stone(self.game, 0);
        self.scratch.empties.clear();
        self.scratch
            .empties
            .extend_from_slice(self.scratch.stones.empties());
        let scratch = &mut *self.scratch;
        let mut replied = false;
        let mut last_scores = None;
        let scores = if self.config.candidates <= 1 && self.config.greedy_end > 0 {
            policy::greedy_end_fill(
                self.game.board(),
                scratch.scorer.earlier(),
                &mut scratch.groups,
                amaf,
                &mut scratch.empties,
                stones,
                k,
                colour,
                mover,
                (self.config.greedy_end, self.config.greedy_candidates),
                rng,
            );
            scratch.groups.scores(amaf, k)
        } else if self.config.candidates <= 1 {
            if self.config.mast_candidates > 1 {
                mast_fill(
                    &scratch.mast,
                    n,
                    amaf,
                    &mut scratch.empties,
                    stones,
                    k,
                    colour,
                    mover,
                    self.config.mast_candidates,
                    rng,
                );
            } else if self.config.pattern_candidates > 1 {
                pattern::fill(
                    &scratch.rings,
                    amaf,
                    &mut scratch.empties,
                    stones,
                    k,
                    colour,
                    mover,
                    self.config.pattern_candidates,
                    rng,
                );
            } else if self.config.last_good_reply {
                replied = true;
                scratch.replies.fill(
                    &mut scratch.empties,
                    amaf,
                    crate::game::NO_STONE,
                    stones,
                    k,
                    colour,
                    mover,
                    last,
                    rng,
                );
            } else if self.config.count_candidates <= 1 {
                if self.config.last_turn_win && k >= 2 && stones >= k {
                    uniform_fill(&mut scratch.empties, amaf, stones - k, k, colour, rng);
                    last_scores = Some(last_turn_fill(scratch, amaf, stones - k, k, rng));
                } else {
                    uniform_fill(&mut scratch.empties, amaf, stones, k, colour, rng);
                }
                scratch.twin_ready = self.config.antithetic && k == 2;
            } else {
                policy::count_fill(
                    self.game.board(),
                    amaf,
                    &mut scratch.empties,
                    stones,
                    k,
                    colour,
                    mover,
                    &self.config.count_weights,
                    self.config.count_candidates,
                    rng,
                );
            }
            match last_scores {
                Some(scores) => scores,
                None => scratch.scorer.scores(amaf, k),
            }
        } else {
            policy::fill(
                self.game.board(),
                &mut scratch.groups,
                amaf,
                &mut scratch.empties,
                stones,
                k,
                colour,
                mover,
                &self.config.weights,
                self.config.candidates,
                rng,
            );
            scratch.groups.scores(amaf, k)
        };
        let winner = winner(&scores, k);
        self.rewards(&scores, winner, rewards);
        self.blend_shape_value(rewards);
        if replied {
            self.scratch.replies.learn(
                &self.scratch.empties[..stones],
                k,
                colour,
                mover,
                last,
                winner,
            );
        }
        if self.config.mast_candidates > 1 {
            for (cell, &c) in amaf[..n].iter().enumerate() {
                if (c as usize) < k {
                    let m = &mut self.scratch.mast[c as usize * n + cell];
                    m.0 += 1.0;
                    m.1 += rewards[c as usize];
                }
            }
        }
        winner
    }

    /// The antithetic twin of the last playout when it was a uniform 2-player fill and
    /// [`PlayoutConfig::antithetic`] is on: the same cells in the same order, each with the
    /// other colour, but for the first of an odd count of stones, which keeps its colour so
    /// that each colour has as many stones as the rules give it. The fill is as likely as
    /// the first, and its result tends the other way, so the pair's mean varies less than
    /// two independent playouts'. Otherwise an independent playout.
    fn playout_twin(&mut self, rng: &mut FastRng, amaf: &mut [u8], rewards: &mut Rewards) -> usize {
        if !self.scratch.twin_ready {
            return self.playout(rng, amaf, rewards);
        }
        self.scratch.twin_ready = false;
        let n = self.game.board().cell_count();
        amaf[..=n].copy_from_slice(self.scratch.stones.board());
        let colour = self.scratch.stones.phase() as usize;
        // The same position as the last playout's (the contract), so the same stones left.
        let cells = &self.scratch.empties[..self.stones_left()];
        let keep = cells.len() % 2;
        for (i, &cell) in cells.iter().enumerate() {
            amaf[cell as usize] = ((colour + i + usize::from(i >= keep)) % 2) as u8;
        }
        let scores = self.scratch.scorer.scores(amaf, 2);
        let winner = winner(&scores, 2);
        self.rewards(&scores, winner, rewards);
        self.blend_shape_value(rewards);
        winner
    }
}

/// Marks in `scratch.near_last`, with a new stamp that it returns, the cells next to a stone
/// of the previous turn (the turn before the current one; none in the first turn).
fn mark_near_last_turn(game: &Game, scratch: &mut Scratch) -> u32 {
    scratch.near_stamp = scratch.near_stamp.wrapping_add(1);
    if scratch.near_stamp == 0 {
        scratch.near_last.iter_mut().for_each(|s| *s = 0);
        scratch.near_stamp = 1;
    }
    let stamp = scratch.near_stamp;
    let k = game.players();
    // Back from the last stone: this turn's stones so far are skipped, the k before them are
    // the previous turn's (placed in the tree, or before its root in the game).
    let this_turn = scratch.stones.phase() as usize;
    for back in this_turn..this_turn + k {
        if let Some(cell) = scratch.stones.recent_stone(game, back) {
            for &nb in &scratch.rings[cell as usize] {
                scratch.near_last[nb as usize] = stamp;
            }
        }
    }
    stamp
}

/// The mean over `playouts` uniformly random fills from `game` of `player`'s final
/// log-score margin, `ln(own score) - ln(best other score)` (a score of 0 counts as 1): how
/// far ahead the player ends, in the units of the score ratio's logarithm. The analysis
/// shows it beside the win rate. Contract: `scratch` fits the game's board.
pub fn mean_log_margin(
    game: &Game,
    scratch: &mut Scratch,
    rng: &mut FastRng,
    player: usize,
    playouts: usize,
) -> f64 {
    let n = game.board().cell_count();
    let k = game.players();
    let stones = game.total_turns() * k - game.stones_placed();
    let colour = game.next_stone_colour().index() as u8;
    let mut board = Vec::with_capacity(n + 1);
    let mut sum = 0.0;
    for _ in 0..playouts {
        board.clear();
        board.extend_from_slice(game.stone_indices());
        board.push(OFF_BOARD);
        scratch.empties.clear();
        scratch.empties.extend_from_slice(game.empties());
        uniform_fill(&mut scratch.empties, &mut board, stones, k, colour, rng);
        let scores = scratch.scorer.scores(&board, k);
        let log = |c: usize| (scores[c].max(1) as f64).ln();
        let rival = (0..k)
            .filter(|&c| c != player)
            .map(log)
            .fold(f64::NEG_INFINITY, f64::max);
        sum += log(player) - rival;
    }
    sum / playouts.max(1) as f64
}

/// The first `stones` of `empties`, in random order (a partial Fisher-Yates shuffle, one
/// random number a stone), take the colours from `colour` on in turn order.
fn uniform_fill(
    empties: &mut [Cell],
    colours: &mut [u8],
    stones: usize,
    players: usize,
    mut colour: u8,
    rng: &mut FastRng,
) {
    let len = empties.len();
    for i in 0..stones {
        let j = i + rng.below(len - i);
        empties.swap(i, j);
        colours[empties[i] as usize] = colour;
        colour += 1;
        if colour as usize == players {
            colour = 0;
        }
    }
}

/// The last turn of a playout whose first `filled` stones of `scratch.empties` are placed,
/// and the final scores: the last player's winning turn when it has one, else `players`
/// random stones (colours 0 to `players - 1`, the last turn's). Each colour's final score is
/// read from its column of scores with one more stone ([`Scorer::with_one_more_stone`]), so
/// the board is scanned once, as a plain playout's scoring does. The cells placed end up at
/// `empties[filled..]` in colour order. Contract: `colours` holds the board with the
/// `filled` stones; at least `players` cells remain.
fn last_turn_fill(
    scratch: &mut Scratch,
    colours: &mut [u8],
    filled: usize,
    players: usize,
    rng: &mut FastRng,
) -> [u128; MAX_PLAYERS] {
    let free = &scratch.empties[filled..];
    scratch.scorer.with_one_more_stone(
        colours,
        players,
        free,
        &scratch.rings,
        &mut scratch.last_stones,
    );
    let columns: [&[u128]; MAX_PLAYERS] =
        std::array::from_fn(|c| scratch.last_stones[c].as_slice());
    let turn = match last_turn(&columns[..players]) {
        LastTurn::Wins(turn) => turn,
        _ => {
            let mut turn = [usize::MAX; MAX_PLAYERS];
            for c in 0..players {
                let mut j = rng.below(free.len());
                while turn[..c].contains(&j) {
                    j = rng.below(free.len());
                }
                turn[c] = j;
            }
            turn
        }
    };
    let mut scores = [0; MAX_PLAYERS];
    let mut cells = [0 as Cell; MAX_PLAYERS];
    for c in 0..players {
        scores[c] = columns[c][turn[c]];
        cells[c] = free[turn[c]];
    }
    let empties = &mut scratch.empties;
    for (c, &cell) in cells.iter().enumerate().take(players) {
        let from = filled + c;
        let at = from + empties[from..].iter().position(|&e| e == cell).unwrap_or(0);
        empties.swap(from, at);
        colours[cell as usize] = c as u8;
    }
    scores
}

/// The index in `empties` of the best by `score` of `candidates` (at least one) indices drawn
/// at random from `first..first + left`; the earliest drawn wins a tie. The policy fills
/// share it, so that they draw the same random numbers.
#[inline]
fn best_drawn(
    first: usize,
    left: usize,
    candidates: usize,
    rng: &mut FastRng,
    mut score: impl FnMut(usize) -> f32,
) -> usize {
    best_drawn_with(first, left, candidates, rng, |j| (score(j), ())).0
}

/// [`best_drawn`] when scoring a cell finds more than its score: the best index and what its
/// scoring found besides (the placement-class fill keeps the roots its stone joins).
#[inline]
fn best_drawn_with<T>(
    first: usize,
    left: usize,
    candidates: usize,
    rng: &mut FastRng,
    mut score: impl FnMut(usize) -> (f32, T),
) -> (usize, T) {
    let mut best = first + rng.below(left);
    let (mut best_score, mut best_found) = score(best);
    for _ in 1..candidates {
        let j = first + rng.below(left);
        let (s, found) = score(j);
        if s > best_score {
            (best, best_score, best_found) = (j, s, found);
        }
    }
    (best, best_found)
}

/// After a stone of `colour` placed by `mover`: the next colour in turn order, and after the
/// last colour of a turn the next player.
#[inline]
fn next_stone(colour: &mut u8, mover: &mut u8, players: usize) {
    *colour += 1;
    if *colour as usize == players {
        *colour = 0;
        *mover += 1;
        if *mover as usize == players {
            *mover = 0;
        }
    }
}

/// The MAST fill: each stone goes to the best of `candidates` drawn cells by the MAST mean of
/// its colour there, the highest for the placing player's own colour, the lowest for the
/// others'.
#[allow(clippy::too_many_arguments)]
fn mast_fill(
    mast: &[(f32, f32)],
    cells: usize,
    colours: &mut [u8],
    empties: &mut [Cell],
    stones: usize,
    players: usize,
    mut colour: u8,
    mut mover: u8,
    candidates: usize,
    rng: &mut FastRng,
) {
    let len = empties.len();
    let value = |colour: u8, cell: Cell| {
        let (n, v) = mast[colour as usize * cells + cell as usize];
        (v + 0.5) / (n + 1.0)
    };
    for i in 0..stones {
        let left = len - i;
        let sign = if colour == mover { 1.0 } else { -1.0 };
        let best = best_drawn(i, left, candidates, rng, |j| {
            sign * value(colour, empties[j])
        });
        empties.swap(i, best);
        colours[empties[i] as usize] = colour;
        next_stone(&mut colour, &mut mover, players);
    }
}

//! The tree-search players: `mcts` (the strongest configuration measured) and `mcts-plain`
//! (UCT + RAVE with uniformly random playouts, plus only MCTS-Solver proofs and tree reuse:
//! the baseline kept for ever as the in-house stand-in for a plain public Monte-Carlo engine).

use super::helpers::{merged_line, root_parallel, Helper};
use super::{Analysis, Candidate, Watch};
use crate::board::{Board, Cell};
use crate::game::{mix64, Colour, Game, MAX_PLAYERS};
use crate::mcts::{FastRng, Mcts, MctsConfig, MctsLimits, NodeId, Progress, Settle, UNPROVEN};
use crate::playout::{
    mean_log_margin, OmegaTree, PlayoutConfig, Scratch, CLASS_NAMES, COUNT_NAMES,
};
use crate::position::OmegaPosition;
use crate::search::{Features, SearchLimits, Searcher, WIN};
use crate::stop::Stop;
use crate::timeman::Limits;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Playouts of a continuation search, when the main search did not reach the end of the turn
/// (it also stops at the move's maximum time, but never before `mcts::MIN_PLAYOUTS`).
const CONTINUATION_PLAYOUTS: u64 = 256;
/// What the MAST statistics keep from one search to the next.
const MAST_DECAY: f32 = 0.5;
/// Under a clock that keeps unused time, a search stops once no runner-up on its turn's line
/// could catch up with the best in this share of the playouts its time left would make
/// ([`Settle`]).
const SETTLE_SHARE: f64 = 0.5;
/// A search that may stop once settled aims this much past the optimum (never past the
/// maximum): most such searches stop well before their aim, and the stretch gives the time
/// they save to the first turns, where a 2-player game is decided. Without it, the savings
/// went to the later turns and the settling cost strength (docs/strength.md, "Time under a game
/// clock").
const SETTLE_STRETCH: f64 = 1.5;
/// Settling is for turns of at most this many stones (2 players). A turn of 3 or 4 stones
/// seldom settles on all of them, so the stretch only moved the last turns' time to the
/// first: with 4 players it won 3 of 40 games where its fair share was 10.
const SETTLE_MAX_STONES: usize = 2;
/// Share of a move's optimum time the exact endgame search may take.
const EXACT_SHARE: f64 = 0.5;
/// Share of a move's optimum time the exact search of a 3-player last round may take
/// before the tree search has the rest.
const LAST_ROUND_SHARE: f64 = 0.6;
/// Transposition table of the exact endgame search, in MiB.
const EXACT_HASH_MB: usize = 16;
/// The share of a turn's time left to the exact check of the tree's turn after the search
/// ([`MctsPlayer::safer_last_turn`]): with 4 players on side 6, trying all of red's 93,024
/// turns takes 30 to 60 ms, and side 10 has at most 212,520; with 3 players a white turn
/// takes about a millisecond, and white's trades at 1 s a turn on side 5 were found within
/// 75 ms.
const CHECK_SHARE: f64 = 0.25;

/// The turns whose tree turn the exact last-round checks may trade
/// ([`MctsPlayer::safer_last_turn`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LastTurnCheck {
    /// 3 players, white's last turn: black or red must not have a forced win after it.
    White,
    /// 3 players, black's last turn: red must not be able to win after it.
    Black,
    /// 4 players, red's turn before blue's last: it must not lose whatever blue does.
    Red,
}
/// The fewest cells of a board on which the default expands by its leaves' moves: side 8
/// (169 cells) and up; side 7 has 127.
pub const EXPAND_MIN_CELLS: usize = 160;
/// The share of a turn's optimum time that moving the tree's root on the turn's own clock
/// may take (two `genmove`s in a row, with no `play` between to move it off the clock).
const REROOT_SHARE: f64 = 0.1;
/// Nodes a second a tree's copy makes at the slowest measured: on side 5, two `genmove`s in
/// a row at 1 s a turn copied 4.4 to 7.7 million nodes in 100 to 260 ms with 2 players,
/// and 7.4 million in 478 ms with 3, the first copies into fresh pages of a 2048 MiB arena;
/// before the cap a copy once took more than the whole turn.
const REROOT_NODES_PER_SEC: f64 = 15e6;
/// The cap never keeps fewer nodes than this (a copy of a few milliseconds).
const REROOT_MIN_NODES: usize = 50_000;
/// How often a long search logs its progress.
const REPORT_EVERY: Duration = Duration::from_secs(1);
/// Candidate turns an analysis shows at most.
const ANALYSIS_CANDIDATES: usize = 10;
/// Whole turns of a candidate's line an analysis shows beyond the candidate itself.
const ANALYSIS_PV_TURNS: usize = 5;
/// Random playouts after each candidate, at each report, for its expected final score; they
/// add up over the reports of one position.
const SCORE_PLAYOUTS: usize = 100;
/// How often a finished analysis looks for the stop signal.
const STOP_POLL: Duration = Duration::from_millis(5);

/// Options of the tree-search players.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsOptions {
    /// Stop after this many playouts, ignoring the clock: reproducible with `--seed`.
    pub playouts: Option<u64>,
    /// Memory for the search trees of all threads together, in MiB, in games of 2 players.
    pub tree_mb: usize,
    /// The same in games of 3 or more players. A turn of 3 or 4 stones is 3 or 4 plies of
    /// the tree, so a search of the same time writes more nodes: at 1 s a turn the
    /// default's two threads wrote 6 to 9 of the 12 million nodes of 512 MiB with 3
    /// players on side 5 and 7 to 10 million with 4 on side 6, and past half of the arena
    /// a leaf waits for more visits (`mcts::expand_threshold`). With 2048 MiB the default
    /// won 143 of 432 games against `mcts-plain` where it won 120 with 512 on the same
    /// openings (docs/strength.md, "The tree's memory with three and four players").
    /// `--tree-mb` sets both.
    pub tree_mb_multi: usize,
    /// Threads searching (see `helpers.rs`); at least 1.
    pub threads: usize,
    /// The threads search one tree (tree parallelism with virtual loss) instead of a tree
    /// each (root parallelism).
    pub tree_parallel: bool,
    pub search: MctsConfig,
    pub playout: PlayoutConfig,
    /// With this many stones or fewer left to the end of the game, an exact alpha-beta
    /// search runs first, and a proven win it finds is played (0 = never).
    pub exact_plies: usize,
    /// With 3 players, what the exact search of the last round
    /// ([`last_round`](super::last_round)) decides; the tree search has the turn otherwise.
    pub last_round: LastRound,
    /// With 3 players, black's last turn: a turn of the tree after which red can win is
    /// replaced by the best turn by the model of [`super::last_round::best_turn`] when that
    /// leaves red no win ([`super::last_round::safer_turn`]); white's last turn: a turn of
    /// the tree after which black or red has a forced win is replaced by the first in the
    /// tree's order after which neither has
    /// ([`super::last_round::white_turn_not_lost`]). With 4 players, red's turn before
    /// blue's last: a turn of the tree that loses whatever blue does is replaced by the
    /// first in the tree's order that does not
    /// ([`super::before_last::red_turn_before_last`]). With `last_round` on only; at those
    /// turns the search leaves the check [`CHECK_SHARE`] of its time.
    pub last_round_safe: bool,
    /// When the search proves the turn lost (the opponents win whatever it plays), the tree
    /// is cleared and searched again without proofs, for the rest of the time: the most
    /// visited move of that search is the one most likely to win if an opponent errs, where
    /// a proven-lost node's children are all equal to the solver.
    pub play_on: bool,
    /// `search.expand_moves` holds on boards of at least this many cells only; on smaller
    /// ones a leaf is expanded after `search.expand_visits` whatever its moves (measured: the
    /// slower expansion won on side 10 and lost on side 7, docs/strength.md, "Expansion on the big
    /// boards").
    pub expand_min_cells: usize,
    /// The numbers of players whose games count the priors (`search.prior_visits` and
    /// `search.prior_rave_visits`), bit `n` for `n` players; in the others a search starts
    /// its children equal and computes no priors. The default leaves out 3 players (on boards
    /// below [`MctsOptions::prior_min_cells`]): there
    /// the priors' virtual playouts, about a fair share's double for an average move, made
    /// the default as black lose the games its white neighbour won (docs/strength.md, "The
    /// priors with three players"). The priors help there at small searches only: at 10,000 and
    /// 50,000 playouts a turn they won 477 of 1,200 and 120 of 300 games against two
    /// `mcts-plain` where the default won 386 and 86, and at 1 s a turn 29 of 102 where it
    /// won 41 on the same openings (docs/strength.md, "The priors with three players,
    /// again" and "Fading priors"); priors that fade with a node's playouts did no better
    /// at 150,000 playouts a turn, and at 100,000 the priors were even (79 of 210 against
    /// 76; "Three and four players at 1 s with the faster shared tree"). The harm comes
    /// with the priors wherever they are counted: at the searching player's own turn only
    /// (the first 3 plies) they let white beside the default's black win 28 of 70 games,
    /// at the other players' nodes only 22, everywhere 20, against 12 without priors ("The
    /// priors with three players on the big boards" and "A search for each stone of the
    /// turn, ..."). Not
    /// `playout.pattern_prior_players`, which only swaps the learnt table for equal priors
    /// of 0.5, still counted: those did the same harm.
    pub prior_players: u8,
    /// The fewest cells of a board on which every number of players counts the priors,
    /// whatever [`MctsOptions::prior_players`] says, in the searches of the seats that
    /// [`MctsOptions::priorless_seats`] leaves (`--set prior_players` turns this off,
    /// so that the counts it gives hold on every board). On a big board a search of 1 s a turn is
    /// a small one for its branching (about 170,000 playouts over 169 cells a ply on side 8
    /// with 3 players), where the priors help with 3 players too: on side 8 at 50,000
    /// playouts a turn they won 57 of 150 games against two `mcts-plain` where the default
    /// without them won 44, and at 1 s a turn 38 of 102 where a build without them won 42
    /// on the same openings (docs/strength.md, "The priors with three players on the big
    /// boards"). Sides 6 and 7 were not measured.
    pub prior_min_cells: usize,
    /// The seats whose searches count no priors, whatever [`MctsOptions::prior_players`]
    /// and [`MctsOptions::prior_min_cells`] say (`--set prior_players` empties it, so that
    /// the counts it gives hold in every seat). The default holds black and red with 3
    /// players, so that with 3 players only white counts them, on the big boards. The
    /// priors' harm on side 5 had been black's ("The priors with three players" in
    /// docs/strength.md), and on side 8 at 1 s a turn, one thread each, one seat's games
    /// against two `mcts-plain`: black without them won 74 of 160 (46.3 %) where the
    /// default won 38 of 114 (33.3 %), 31 openings won without the priors alone and 18
    /// with them alone; at the targets' two threads this black won 37 of 60 (61.7 %) where
    /// the default's had won 20 of 67 ("Black's turns without the priors with 3 players on
    /// side 8" and "Black without the priors, again"). Red without them won 35 of 60 where
    /// red with them won 24 (21 openings alone against 10); white won 16 of 60 either way
    /// (10 openings alone each way), so white keeps them ("White's and red's turns without
    /// the priors").
    pub priorless_seats: SeatSet,
    /// Whose searches play the last player's winning turn at the end of their playouts
    /// ([`PlayoutConfig::last_turn_win`]), by the searching player's seat (the root's mover).
    /// `PlayoutConfig::last_turn_win` itself is set for each search from this.
    pub last_turn_win: LastTurnWin,
    /// The seats whose turns are searched as `mcts-plain`'s ([`MctsOptions::plain`], keeping
    /// what threads share, the trees' memory, the playout limit and this set), by number of
    /// players. The default holds red with 4 players:
    /// the default's red stopped blue and handed the games to white and black (at 100,000
    /// playouts a turn on side 6 it lost 36 of 100 red games to black, 25 to white and 7 to
    /// blue), where `mcts-plain` in its seat wins more and loses to blue. At 1 s a turn on
    /// side 6 (one thread each, 100 red games a set against three `mcts-plain`) red won
    /// 38 and 39 as `mcts-plain` where the default won 31 and 34, and on side 10 14 of 40
    /// where it won 12 (docs/strength.md, "Red's searches as `mcts-plain`'s with four
    /// players"). With 3 players the default's additions win in every seat.
    pub plain_seats: SeatSet,
}

/// A set of (number of players, seat) pairs: the seats whose turns
/// [`MctsOptions::plain_seats`] searches as `mcts-plain`'s, or whose searches
/// [`MctsOptions::priorless_seats`] start without priors. Written `4:red+3:black` (a `+`
/// because a comma would end the `--set` item), or `none`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SeatSet(u16);

impl SeatSet {
    /// No seat.
    pub const NONE: SeatSet = SeatSet(0);

    /// The bit of seat `seat` (0 = white) in a game of `players` players, if both are in
    /// range (2 to 4 players; the seat below the number of players).
    fn bit(players: usize, seat: usize) -> Option<u16> {
        ((2..=MAX_PLAYERS).contains(&players) && seat < players)
            .then(|| 1 << ((players - 2) * MAX_PLAYERS + seat))
    }

    /// The set with seat `seat` of `players` players added. Contract: 2 <= `players` <= 4
    /// and `seat` < `players`; anything else leaves the set as it is.
    pub fn with(self, players: usize, seat: usize) -> SeatSet {
        SeatSet(self.0 | SeatSet::bit(players, seat).unwrap_or(0))
    }

    /// Whether the set holds seat `seat` (0 = white) in a game of `players` players.
    pub fn holds(self, players: usize, seat: usize) -> bool {
        SeatSet::bit(players, seat).is_some_and(|bit| self.0 & bit != 0)
    }

    /// Parses `none` or `PLAYERS:COLOUR` items joined by `+` (`4:red`), the value of the
    /// option `name` (named in the error).
    fn parse(name: &str, value: &str) -> Result<SeatSet, String> {
        if value == "none" {
            return Ok(SeatSet::NONE);
        }
        value.split('+').try_fold(SeatSet::NONE, |seats, item| {
            let (players, colour) = item.split_once(':').unwrap_or((item, ""));
            let players = players.trim().parse::<usize>().ok();
            let seat = Colour::parse(colour.trim()).map(Colour::index);
            match (players, seat) {
                (Some(players), Some(seat)) if SeatSet::bit(players, seat).is_some() => {
                    Ok(seats.with(players, seat))
                }
                _ => Err(format!(
                    "{name}: '{item}' is not PLAYERS:COLOUR with 2 to {MAX_PLAYERS} players \
                     and a colour in play"
                )),
            }
        })
    }
}

/// Whose searches play the last player's winning turn in their playouts
/// ([`MctsOptions::last_turn_win`]).
///
/// Why black's searches with 3 players only (docs/strength.md, "The last player's win in
/// the playouts"): random playouts give the last player (red) a random last turn, where a
/// real one takes its win when it has one, so the searches underrate it. Black, which moves
/// just before red, is the seat that can still stop it, and with the win in its playouts it
/// did: at 100,000 playouts a turn on side 5 the default as black won 38 and 38 of 70 games
/// against two `mcts-plain` where it had won 18 and 27 (two sets of openings), and at 1 s a
/// turn 19 of 34 where the build before won 9. As white and red the same playouts lost (8
/// and 37 of 70 where they had won 18 and 52): each then spends its stones against the last
/// player, and the third player collects the games. On side 8 black gained nothing (18 of
/// 50 games at 25,000 playouts a turn, 20 without; 6 of 20 at 1 s, as the build before),
/// and it stays on there: the difference is within the error ("Black's seat once more, and
/// side 8").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastTurnWin {
    /// Random last turns in every search (as `mcts-plain`).
    Off,
    /// In the searches of the player who moves just before the last player, with 3 players
    /// (black). With 4 players red's searches won 30 of 100 screen games where the default
    /// won 29, and with 2 white's won 67 of 100 where it won 70: not there.
    BeforeLast,
    /// In every search (measured worse).
    Every,
}

impl LastTurnWin {
    /// Whether the searches of the player of seat `mover` (0 = white) play the last
    /// player's winning turn in a game of `players` players.
    pub fn applies(self, players: usize, mover: usize) -> bool {
        match self {
            LastTurnWin::Off => false,
            LastTurnWin::BeforeLast => players == 3 && mover == 1,
            LastTurnWin::Every => true,
        }
    }
}

/// What the exact search of a 3-player game's last round (and of a 4-player game's last
/// turn) decides ([`MctsOptions::last_round`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastRound {
    /// Nothing: the tree search has every turn.
    Off,
    /// A turn that wins whatever the others do (a player who can win taking its win) is
    /// played at once ([`super::last_round::forced_win`]); with 4 players, blue's in the
    /// last turn only.
    Win,
    /// The turn with the best chance by the model of [`super::last_round::best_turn`] (a
    /// player who cannot win choosing at random) is played when it leaves the mover a
    /// chance; measured worse than `Win` as black.
    Model,
}

/// Every number of players, as [`MctsOptions::prior_players`] bits.
const ALL_PLAYERS: u8 = u8::MAX;

/// The (`prior_visits`, `prior_rave_visits`) of a search with `players` players on a board
/// of `cells` cells: the options' own, or none where [`MctsOptions::prior_players`] leaves
/// the count out on a board smaller than [`MctsOptions::prior_min_cells`].
fn prior_visits_for(options: &MctsOptions, players: usize, cells: usize) -> (f32, f32) {
    if cells >= options.prior_min_cells
        || players < 8 && options.prior_players & (1 << players) != 0
    {
        (
            options.search.prior_visits,
            options.search.prior_rave_visits,
        )
    } else {
        (0.0, 0.0)
    }
}

/// The [`MctsConfig::late_moves`] of a search with `players` players: the options' own with
/// two players, where it was measured, and none with more.
fn late_moves_for(options: &MctsOptions, players: usize) -> u32 {
    if players == 2 {
        options.search.late_moves
    } else {
        0
    }
}

/// Parses a `prior_players` value: player counts joined by `+` ("2+4"; a comma would end the
/// `--set` item), or "none".
fn parse_player_counts(value: &str) -> Result<u8, String> {
    if value == "none" {
        return Ok(0);
    }
    value
        .split('+')
        .try_fold(0u8, |bits, count| match count.trim().parse::<usize>() {
            Ok(n) if (1..=MAX_PLAYERS).contains(&n) => Ok(bits | 1 << n),
            _ => Err(format!(
                "prior_players: '{count}' is not a number of players from 1 to {MAX_PLAYERS}"
            )),
        })
}

/// The nodes of the first thread's tree and of each helper's in games of `players` players:
/// [`MctsOptions::tree_mb`] or [`MctsOptions::tree_mb_multi`], shared among the threads'
/// trees (root parallelism), or all in the first thread's tree, which the helpers search,
/// keeping an empty one of their own (tree parallelism).
fn tree_nodes(options: &MctsOptions, players: usize) -> (usize, usize) {
    let mb = if players <= 2 {
        options.tree_mb
    } else {
        options.tree_mb_multi
    };
    let nodes = crate::mcts::nodes_in_mib(mb);
    if options.tree_parallel {
        (nodes, 2)
    } else {
        let each = nodes / options.threads.max(1);
        (each, each)
    }
}

/// The [`MctsConfig::expand_moves`] of a search on a board of `cells` cells.
fn expand_moves_on(options: &MctsOptions, cells: usize) -> u32 {
    if cells >= options.expand_min_cells {
        options.search.expand_moves
    } else {
        0
    }
}

impl MctsOptions {
    /// `mcts-plain`: UCT + RAVE over uniformly random playouts, win or loss, no priors.
    pub fn plain() -> MctsOptions {
        MctsOptions {
            playouts: None,
            tree_mb: 512,
            tree_mb_multi: 512,
            threads: 1,
            tree_parallel: false,
            search: MctsConfig::default(),
            playout: PlayoutConfig::default(),
            exact_plies: 0,
            last_round: LastRound::Off,
            last_round_safe: false,
            play_on: false,
            expand_min_cells: 0,
            prior_players: ALL_PLAYERS,
            prior_min_cells: usize::MAX,
            priorless_seats: SeatSet::NONE,
            last_turn_win: LastTurnWin::Off,
            plain_seats: SeatSet::NONE,
        }
    }

    /// These options as `mcts-plain`'s for one search ([`MctsOptions::plain_seats`]): what
    /// the threads share, the trees' memory, the playout limit and the seat set stay. The
    /// exact checks of the last turns go too (`last_round`, `last_round_safe`): with the
    /// check of red's turn before blue's last, a plain red won 61 of 200 games at 1 s a
    /// turn where it won 77 without (docs/strength.md, "Red's searches as `mcts-plain`'s
    /// with four players").
    fn as_plain(&self) -> MctsOptions {
        MctsOptions {
            playouts: self.playouts,
            plain_seats: self.plain_seats,
            ..MctsOptions::plain()
        }
        .sharing_with(self)
    }

    /// These options with what the threads and the trees' memory depend on taken from
    /// `base`: `threads`, `tree_parallel`, `tree_mb`, `tree_mb_multi` and the nodes of the
    /// first tree.
    fn sharing_with(self, base: &MctsOptions) -> MctsOptions {
        MctsOptions {
            threads: base.threads,
            tree_parallel: base.tree_parallel,
            tree_mb: base.tree_mb,
            tree_mb_multi: base.tree_mb_multi,
            search: MctsConfig {
                max_nodes: base.search.max_nodes,
                ..self.search
            },
            ..self
        }
    }

    /// `mcts`: the configuration that measured strongest (figures in the README): plain,
    /// plus the AMAF values a new node inherits from its nearest well-visited ancestor
    /// (GRAVE), where with two players the ancestor may be one where the other player
    /// places the colours; plus priors from the learnt 3x3 patterns, `g² / (g² + 1)` for a
    /// pattern of gamma g, counted as 20 AMAF playouts of each new child; and the selection
    /// memo (16 playouts at nodes of 256 or more), a quarter more playouts a second; and a
    /// proven loss played on without proofs (`play_on`); and three small steps, measured
    /// together (+36.6 ± 34.4 Elo at equal time): a leaf expanded on its second visit
    /// instead of its third, the inherited AMAF capped at 100 playouts instead of 50, and
    /// the gamma of a cell next to the previous turn's stones times 1.3 (a stone of the
    /// placing player's colour) or 1.5 (another colour); on boards of side 8 and up
    /// ([`EXPAND_MIN_CELLS`]) a leaf waits for one playout for every 64 moves of its parent,
    /// rounded, before it is expanded (side 10: 4 at the start), which won head to head on
    /// side 10 at equal time and lost on side 7. The priors come from the pattern
    /// table of the game's number of players (the 2-player table cost the default its fair
    /// share with 4 players; the 4-player table won it back and more at equal playouts),
    /// and count with 2 and 4 players, and with 3 on boards of side 8 and up in white's
    /// searches ([`MctsOptions::prior_players`], [`MctsOptions::prior_min_cells`],
    /// [`MctsOptions::priorless_seats`]). With 3 and 4
    /// players the trees get 2048 MiB instead of 512 ([`MctsOptions::tree_mb_multi`]).
    /// Several threads search one tree (tree parallelism, with the busiest nodes' RAVE
    /// backups deferred): at 1 s a turn on side 5 it scored better against `mcts-plain`
    /// than a tree a thread did (README, "Threads"). With two players, a playout from a leaf
    /// with 30 or more empty cells on side 5 (a share of the board's cells,
    /// [`crate::playout::VALUE_MIN_SHARE`]) has a quarter of its reward from the learnt
    /// value of local shapes at the leaf (`playout.value_blend`): 171 - 29 against
    /// `mcts-plain` at 20,000 playouts where the default without it scored 153 - 47 on the
    /// same openings; on side 7, with the same side-5 weights, 194 - 6 where it scored
    /// 167 - 33. With two players, a node with fewer than 30 moves mixes its children's
    /// AMAF values with a RAVE equivalence of 10,000 instead of 1000
    /// ([`MctsConfig::late_rave_equivalence`]): on side 5 at 20,000 playouts, 348 - 52 and
    /// 334 - 66 against `mcts-plain` where the default without it scored 325 - 75 on the same
    /// openings. With 3 players, a turn of the last round that wins whatever the others do
    /// is found exactly and played ([`LastRound::Win`]): at 100,000 playouts a turn on side
    /// 5 the tree had missed such wins, most of them red's last turn (docs/strength.md,
    /// "The last round of three players, solved"); with 4 players, so is blue's winning
    /// last turn (at 100,000 playouts a turn on side 6 the tree had found every one of
    /// them in 96 games: a guarantee for short searches, not measured there). As black in
    /// the last round of 3 players, a turn of the tree after which red can win is traded
    /// for one that leaves red no win ([`MctsOptions::last_round_safe`]): 8 more games of
    /// 210 at 100,000 playouts on side 5 against a `mcts-plain` that takes its sure wins
    /// (`lost_proofs` on), 4 fewer of 134 against `mcts-plain`, which as red missed at
    /// least 13 of the 48 such wins the tree's black had left it. With 4 players, as red
    /// before blue's last turn, a turn of the tree that loses whatever blue does is traded
    /// for the first in the tree's order that does not (same option): 6 more games of 400
    /// at 100,000 playouts on side 6 against `mcts-plain`, none fewer ("Red's turn before
    /// blue's last" in docs/strength.md). As white in the last round of 3 players, a turn
    /// of the tree after which black or red has a forced win is traded for the first in the
    /// tree's order after which neither has (same option): 14 more games of 420 at 100,000
    /// playouts on side 5 against the two baselines, none fewer ("White's last turn with
    /// three players"). With 3-4 players the
    /// solver proves the searching player's dead ends lost ([`MctsConfig::lost_proofs`]):
    /// the tree had missed those sure wins because a node where every move lost to
    /// different players stayed unproven and took every playout ("Dead ends of the solver
    /// with three players"). With 3 players black's playouts end with red's winning last
    /// turn where red has one ([`MctsOptions::last_turn_win`]): 20 and 11 more of 70 games
    /// as black at 100,000 playouts on two sets of side-5 openings ("The last player's win
    /// in the playouts"). With 4 players red's turns are searched as `mcts-plain`'s, without
    /// the check of red's turn before blue's last ([`MctsOptions::plain_seats`]).
    pub fn strong() -> MctsOptions {
        MctsOptions {
            play_on: true,
            tree_parallel: true,
            expand_min_cells: EXPAND_MIN_CELLS,
            prior_players: ALL_PLAYERS & !(1 << 3),
            prior_min_cells: EXPAND_MIN_CELLS,
            priorless_seats: SeatSet::NONE.with(3, 1).with(3, 2),
            tree_mb_multi: 2048,
            last_round: LastRound::Win,
            last_round_safe: true,
            last_turn_win: LastTurnWin::BeforeLast,
            plain_seats: SeatSet::NONE.with(4, 2),
            search: MctsConfig {
                lost_proofs: true,
                ancestor_amaf: 100.0,
                ancestor_flip: true,
                prior_rave_visits: 20.0,
                memo_span: 16,
                expand_visits: 1,
                expand_moves: 64,
                late_moves: 30,
                late_rave_equivalence: 10_000.0,
                ..MctsConfig::default()
            },
            playout: PlayoutConfig {
                pattern_prior: 2.0,
                near_last_own: 1.3,
                near_last_other: 1.5,
                value_blend: 0.25,
                ..PlayoutConfig::default()
            },
            ..MctsOptions::plain()
        }
    }

    /// Gives the trees `mb` MiB in games of any number of players (`--tree-mb`): both
    /// [`MctsOptions::tree_mb`] and [`MctsOptions::tree_mb_multi`].
    pub fn set_tree_mb(&mut self, mb: usize) {
        self.tree_mb = mb;
        self.tree_mb_multi = mb;
    }

    /// Sets one parameter by name (`--set NAME=VALUE`, for experiments and tuning).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let number = || {
            value
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or(format!("{name}: '{value}' is not a number"))
        };
        let flag = || match value {
            "on" | "true" | "1" => Ok(true),
            "off" | "false" | "0" => Ok(false),
            _ => Err(format!("{name}: '{value}' is not on or off")),
        };
        let s = &mut self.search;
        let p = &mut self.playout;
        match name {
            "exploration" => s.exploration = number()?,
            "root_exploration" => s.root_exploration = number()?.max(0.0),
            "prior_bias" => s.prior_bias = number()?.max(0.0),
            "rave" => s.rave = flag()?,
            "rave_equivalence" => s.rave_equivalence = number()?.max(1e-3),
            "prior_visits" => s.prior_visits = number()?.max(0.0),
            "prior_rave_visits" => s.prior_rave_visits = number()?.max(0.0),
            "prior_mean" => s.prior_mean = flag()?,
            "prior_own_only" => s.prior_own_only = flag()?,
            "prior_others_only" => s.prior_others_only = flag()?,
            "paranoid" => s.paranoid = number()?.clamp(0.0, 1.0),
            "reuse_visits" => s.reuse_visits = number()?.max(0.0) as u32,
            "first_play_urgency" => s.first_play_urgency = number()?,
            "expand_visits" => s.expand_visits = number()?.max(0.0) as u32,
            "expand_moves" => s.expand_moves = number()?.max(0.0) as u32,
            "solver" => s.solver = flag()?,
            "lost_proofs" => s.lost_proofs = flag()?,
            "last_turn_proofs" => s.last_turn_proofs = flag()?,
            "ancestor_amaf" => s.ancestor_amaf = number()?.max(0.0),
            "ancestor_flip" => s.ancestor_flip = flag()?,
            "widen" => s.widen = number()?.max(0.0),
            "lazy_children" => s.lazy_children = flag()?,
            "memo_span" => s.memo_span = number()?.max(0.0) as u32,
            "memo_visits" => s.memo_visits = number()?.max(0.0) as u32,
            "leaf_playouts" => s.leaf_playouts = number()?.clamp(1.0, 64.0) as u32,
            "leaf_amaf_full" => s.leaf_amaf_full = flag()?,
            "final_lcb" => s.final_lcb = number()?.max(0.0),
            "rave_min_visits" => s.rave_min_visits = number()?.max(0.0) as u32,
            "late_moves" => s.late_moves = number()?.max(0.0) as u32,
            "late_rave_equivalence" => s.late_rave_equivalence = number()?.max(1e-3),
            "ancestor_ref" => s.ancestor_ref = number()?.max(0.0) as u32,
            "score_weight" => p.score_weight = number()?.clamp(0.0, 1.0),
            "score_scale" => p.score_scale = number()?.max(1e-3),
            "prior_scale" => p.prior_scale = number()?.max(0.0),
            "threads" => self.threads = number()?.clamp(1.0, 256.0) as usize,
            "parallel" => {
                self.tree_parallel = match value {
                    "tree" => true,
                    "root" => false,
                    _ => return Err(format!("parallel: '{value}' is not root or tree")),
                }
            }
            "exact_plies" => self.exact_plies = number()?.clamp(0.0, 64.0) as usize,
            "play_on" => self.play_on = flag()?,
            "last_round_safe" => self.last_round_safe = flag()?,
            "last_round" => {
                self.last_round = match value {
                    "off" => LastRound::Off,
                    "win" => LastRound::Win,
                    "model" => LastRound::Model,
                    _ => return Err(format!("last_round: '{value}' is not off, win or model")),
                }
            }
            "expand_min_cells" => self.expand_min_cells = number()?.max(0.0) as usize,
            "prior_players" => {
                // The counts given hold on every board and in every seat, as before the
                // big boards' rule and the priorless seats' (the record's commands keep
                // their meaning); `prior_min_cells` and `priorless_seats` after it bring
                // those back.
                self.prior_players = parse_player_counts(value)?;
                self.prior_min_cells = usize::MAX;
                self.priorless_seats = SeatSet::NONE;
            }
            "prior_min_cells" => self.prior_min_cells = number()?.max(0.0) as usize,
            "candidates" => p.candidates = number()?.clamp(1.0, 64.0) as usize,
            "pattern_prior" => p.pattern_prior = number()?.max(0.0),
            "pattern_prior_other" => p.pattern_prior_other = number()?.max(0.0),
            "pattern_prior_players" => {
                p.pattern_prior_players = number()?.clamp(0.0, MAX_PLAYERS as f32) as usize
            }
            "pattern_centre" => p.pattern_centre = flag()?,
            "value_prior" => p.value_prior = number()?,
            "value_blend" => p.value_blend = number()?.clamp(0.0, 1.0),
            "value_blend_multi" => p.value_blend_multi = number()?.clamp(0.0, 1.0),
            "value_min_empties" => p.value_min_empties = number()?.max(0.0) as usize,
            "value_min_share" => p.value_min_share = number()?.clamp(0.0, 1.0),
            "value_max_cells" => p.value_max_cells = number()?.max(0.0) as usize,
            "near_last_own" => p.near_last_own = number()?.max(0.0),
            "near_last_other" => p.near_last_other = number()?.max(0.0),
            "last_good_reply" => p.last_good_reply = flag()?,
            "last_turn_win" => {
                self.last_turn_win = match value {
                    "off" => LastTurnWin::Off,
                    "before_last" => LastTurnWin::BeforeLast,
                    "every" => LastTurnWin::Every,
                    _ => {
                        return Err(format!(
                            "last_turn_win: '{value}' is not off, before_last or every"
                        ))
                    }
                }
            }
            "plain_seats" => self.plain_seats = SeatSet::parse(name, value)?,
            "priorless_seats" => self.priorless_seats = SeatSet::parse(name, value)?,
            "greedy_end" => p.greedy_end = number()?.clamp(0.0, 1000.0) as usize,
            "antithetic" => p.antithetic = flag()?,
            "greedy_candidates" => p.greedy_candidates = number()?.clamp(0.0, 64.0) as usize,
            "mast_candidates" => p.mast_candidates = number()?.clamp(1.0, 16.0) as usize,
            "pattern_candidates" => p.pattern_candidates = number()?.clamp(1.0, 16.0) as usize,
            "count_candidates" => p.count_candidates = number()?.clamp(1.0, 64.0) as usize,
            _ => {
                let class = |prefix: &str, names: &[&str]| {
                    name.strip_prefix(prefix)
                        .and_then(|c| names.iter().position(|&n| n == c))
                };
                if let Some(i) = class("w_", &CLASS_NAMES) {
                    p.weights[i] = number()?;
                } else if let Some(i) = class("n_", &COUNT_NAMES) {
                    p.count_weights[i] = number()?;
                } else {
                    return Err(format!("unknown parameter '{name}'"));
                }
            }
        }
        Ok(())
    }
}

pub struct MctsPlayer {
    /// The options of the search under way or of the last one: those of its mover's seat.
    options: MctsOptions,
    /// The options of each colour's turns ([`MctsPlayer::set_seat_options`]; all the same
    /// unless set).
    seat_options: [MctsOptions; MAX_PLAYERS],
    seed: u64,
    mcts: Mcts<Cell>,
    scratch: Scratch,
    /// The analysis' own buffers and score estimates (the search holds `scratch` while it
    /// reports).
    analysis_state: AnalysisState,
    /// The stones placed from the start of the game to the tree's root.
    root_history: Vec<Cell>,
    /// The exact endgame search, made at its first use.
    exact: Option<Searcher<Cell>>,
    stop: Stop,
    /// The threads beyond the first: their trees (root parallelism) and buffers.
    helpers: Vec<Helper>,
    /// Ends the helpers' searches (root parallelism): raised when this thread's search ends
    /// (by its limits, a proof or the stop signal), so that all end together.
    helpers_stop: Stop,
    /// The playouts of every search since the player was made, all threads'.
    playouts_made: u64,
}

impl MctsPlayer {
    /// `stop` ends searches early when raised (see [`crate::stop`]).
    pub fn new(mut options: MctsOptions, seed: u64, stop: Stop) -> MctsPlayer {
        options.threads = options.threads.max(1);
        let (nodes, helper_nodes) = tree_nodes(&options, 2);
        options.search.max_nodes = nodes;
        let mut mcts = Mcts::new(options.search, seed);
        mcts.set_stop(stop.clone());
        let helpers_stop = Stop::new();
        let helper_config = MctsConfig {
            max_nodes: helper_nodes,
            ..options.search
        };
        let helpers = (1..options.threads as u64)
            .map(|i| Helper::new(helper_config, mix64(seed ^ i), helpers_stop.clone()))
            .collect();
        MctsPlayer {
            options,
            seat_options: [options; MAX_PLAYERS],
            seed,
            mcts,
            scratch: Scratch::default(),
            analysis_state: AnalysisState::default(),
            root_history: Vec::new(),
            exact: None,
            stop,
            helpers,
            helpers_stop,
            playouts_made: 0,
        }
    }

    /// The turns of `colour` use `options` from now on (`--set black:NAME=VALUE`). Contract:
    /// what threads share is as in the options given to [`MctsPlayer::new`] (`threads`,
    /// `tree_parallel`, the trees' memory; [`crate::player::PlayerOptions::set_seat`]
    /// refuses to change them).
    pub fn set_seat_options(&mut self, colour: Colour, options: MctsOptions) {
        self.seat_options[colour.index()] = options.sharing_with(&self.options);
    }

    pub fn new_game(&mut self) {
        self.trees_mut().for_each(|mcts| mcts.clear());
        self.root_history.clear();
        if let Some(exact) = self.exact.as_mut() {
            exact.clear();
        }
    }

    /// Contract: the game is not over and is at a turn boundary; it is unchanged on return.
    /// `watch`, when given, sees the analysis every interval while the search runs.
    pub fn choose(
        &mut self,
        game: &mut Game,
        start: Instant,
        limits: Limits,
        mut watch: Option<&mut Watch>,
    ) -> Vec<Cell> {
        // Reproducible with a playout limit: the clock is then ignored.
        let timed = self.options.playouts.is_none();
        // On the clock, the tree's root moves within a share of the turn.
        let copy_cap = if timed {
            reroot_cap(limits.optimum)
        } else {
            usize::MAX
        };
        self.prepare(game, copy_cap);
        if let Some(turn) = self.proven_win(game, start, limits) {
            return turn;
        }
        if let Some(turn) = self.last_round_turn(game, start, limits) {
            return turn;
        }
        let k = game.players();
        let mut turn: Vec<Cell> = Vec::with_capacity(k);
        let clock = |t: Duration| timed.then_some(t);
        let mut budget = self.options.playouts;
        // Stop early once the turn is settled only where the time saved is kept for later.
        let settles = timed && limits.keeps_savings && k <= SETTLE_MAX_STONES;
        let mut settle = settles.then_some(Settle {
            plies: k,
            share: SETTLE_SHARE,
        });
        let mut time = clock(if settles {
            limits.optimum.mul_f64(SETTLE_STRETCH).min(limits.maximum)
        } else {
            limits.optimum
        });
        // A turn the exact check after the search may trade (step 3) leaves that check a share
        // of the time: with a time per turn the optimum is the maximum, and a check that
        // started there would always run out of time.
        if self.check_at(game).is_some() {
            time = time.map(|t| t.mul_f64(1.0 - CHECK_SHARE));
        }
        loop {
            // 1. Search from the root (the position after the stones of the turn chosen so
            // far), then read the turn off the tree's most visited line.
            self.search(game, start, time, budget, settle, watch.as_deref_mut());
            if self.options.play_on && self.is_lost(game) {
                self.play_on(game, start, time, budget, settle, watch.as_deref_mut());
            }
            let chosen = self.line(k - turn.len());
            for &cell in &chosen {
                game.place(cell);
            }
            turn.extend_from_slice(&chosen);
            if turn.len() == k {
                break;
            }
            // 2. The line stops inside the turn (a tiny budget on a big board): move the root
            // to its end and search on from there, so that every stone is searched.
            self.move_root(game, copy_cap);
            budget = Some(budget.map_or(CONTINUATION_PLAYOUTS, |b| b.min(CONTINUATION_PLAYOUTS)));
            time = clock(limits.maximum);
            settle = None;
        }
        for _ in 0..turn.len() {
            game.unplace();
        }
        // 3. A sure loss the exact search can avoid is not played.
        self.safer_last_turn(game, &turn, start, limits)
            .unwrap_or(turn)
    }

    /// Searches the current position until the stop signal, showing `watch` the analysis
    /// every interval (also after the search has proven the result and stopped by itself).
    /// Contract: the game is not over and is at a turn boundary; it is unchanged on return.
    pub fn analyze(&mut self, game: &mut Game, stop: &Stop, watch: &mut Watch) {
        self.prepare(game, usize::MAX);
        let start = Instant::now();
        self.search(game, start, None, None, None, Some(&mut *watch));
        // The root is proven (or the tree cannot grow): the analysis no longer changes.
        while !stop.is_raised() {
            std::thread::sleep(STOP_POLL);
            if start.elapsed() >= watch.next {
                let analysis = self.analysis(game);
                (watch.emit)(&analysis);
                watch.next += watch.every;
            }
        }
    }

    /// Thinks on the current position (an opponent's turn) until the stop signal, so that
    /// the tree is ready when the game comes back to the engine. Contract: as `analyze`.
    pub fn ponder(&mut self, game: &mut Game) {
        self.prepare(game, usize::MAX);
        self.search(game, Instant::now(), None, None, None, None);
    }

    /// The candidate turns for the player to move, as the tree sees them now. Contract: the
    /// tree's root is `game` (after a search of it).
    pub fn analysis(&mut self, game: &Game) -> Analysis {
        let mut rng = FastRng::new(mix64(self.seed ^ game.hash()));
        analysis(&self.mcts, game, &mut self.analysis_state, &mut rng)
    }

    /// Moves the tree's root to `game`, the position after a turn the controller played
    /// (`play`), keeping the subtree below it. Copying that subtree takes 40 to 150 ms with
    /// millions of nodes: done here, it is off the clock of the next `genmove`, which finds
    /// the tree already at its position. Does nothing before the first search on this
    /// board. Contract: `game` is at a turn boundary.
    pub fn follow(&mut self, game: &Game) {
        if self.scratch.fits(game) {
            self.move_root(game, usize::MAX);
        }
    }

    /// The nodes of the first thread's tree (the one tree of a shared search).
    pub fn tree_nodes(&self) -> usize {
        self.mcts.tree().len()
    }

    /// The playouts of every search since the player was made (all threads', kept ones
    /// not counted again): a turn's search, its continuations inside the turn, pondering
    /// and analysis alike.
    pub fn playouts_made(&self) -> u64 {
        self.playouts_made
    }

    /// The playouts the tree holds for `game`'s position: 0 when its root is another
    /// position (the tree is moved there by the next search or [`MctsPlayer::follow`]).
    pub fn kept_playouts(&self, game: &Game) -> u64 {
        if self.root_history == game.stone_history() {
            self.mcts.tree().root().visits as u64
        } else {
            0
        }
    }

    /// Buffers, the options of the mover's seat, the expansion rule, the priors' weight and
    /// the trees' memory for the game's board and number of players, and the tree moved to
    /// the game's position (copying at most about `copy_cap` nodes,
    /// [`MctsPlayer::move_root`]).
    fn prepare(&mut self, game: &Game, copy_cap: usize) {
        let mover = game.to_move().index();
        let mut seat = self.seat_options[mover];
        if seat.plain_seats.holds(game.players(), mover) {
            seat = seat.as_plain();
        }
        if seat.priorless_seats.holds(game.players(), mover) {
            // As options of their own, so that a change of seat configures the trees again.
            seat.search.prior_visits = 0.0;
            seat.search.prior_rave_visits = 0.0;
        }
        let fits = self.scratch.fits(game);
        if !fits {
            self.scratch = Scratch::new(game);
            for helper in &mut self.helpers {
                helper.scratch = Scratch::new(game);
            }
            self.new_game();
        }
        if !fits || seat != self.options {
            self.options = seat;
            self.configure_trees(game);
        }
        self.move_root(game, copy_cap);
    }

    /// Gives the trees the configuration of [`MctsPlayer::options`] for the game's board
    /// and number of players. Contract: called between searches.
    fn configure_trees(&mut self, game: &Game) {
        let options = self.options;
        let expand_moves = expand_moves_on(&options, game.board().cell_count());
        let (prior_visits, prior_rave_visits) =
            prior_visits_for(&options, game.players(), game.board().cell_count());
        let (nodes, helper_nodes) = tree_nodes(&options, game.players());
        let late_moves = late_moves_for(&options, game.players());
        self.trees_mut().enumerate().for_each(|(i, mcts)| {
            mcts.set_config(options.search);
            mcts.set_expand_moves(expand_moves);
            mcts.set_prior_visits(prior_visits, prior_rave_visits);
            mcts.set_late_moves(late_moves);
            mcts.set_max_nodes(if i == 0 { nodes } else { helper_nodes });
        });
    }

    /// Near the end of the game: an exact alpha-beta search (paranoid with 3-4 players, so a
    /// win it proves holds against any play of the others) and its turn when it proves a win.
    /// It may take [`EXACT_SHARE`] of the optimum; the tree search has the rest.
    fn proven_win(&mut self, game: &mut Game, start: Instant, limits: Limits) -> Option<Vec<Cell>> {
        let k = game.players();
        let plies_left = game.total_turns() * k - game.stones_placed();
        if plies_left > self.options.exact_plies {
            return None;
        }
        let limits = match self.options.playouts {
            // Reproducible: the exact depth, whatever the clock says.
            Some(_) => SearchLimits {
                soft: Duration::MAX,
                hard: Duration::MAX,
                depth: Some(plies_left),
                nodes: None,
            },
            None => SearchLimits {
                soft: limits.optimum.mul_f64(EXACT_SHARE),
                hard: limits.optimum.mul_f64(EXACT_SHARE),
                depth: None,
                nodes: None,
            },
        };
        let searcher = self.exact.get_or_insert_with(|| {
            let mut searcher = Searcher::new(EXACT_HASH_MB, Features::default());
            searcher.set_stop(self.stop.clone());
            searcher
        });
        let it = searcher.search(&mut OmegaPosition::new(game), start, limits, |_| {})?;
        if it.exact && it.value >= WIN && it.pv.len() >= k {
            log::info!("info exact win in {plies_left} plies, nodes {}", it.nodes);
            Some(it.pv[..k].to_vec())
        } else {
            None
        }
    }

    /// With 3 players in the last round ([`MctsOptions::last_round`]): the exact search's
    /// turn, when it ends within [`LAST_ROUND_SHARE`] of the optimum (always with a playout
    /// limit, so that the turn does not depend on the clock) and wins for certain (`Win`)
    /// or leaves the mover a chance by its model (`Model`); else the tree's.
    fn last_round_turn(&self, game: &Game, start: Instant, limits: Limits) -> Option<Vec<Cell>> {
        let deadline = self
            .options
            .playouts
            .is_none()
            .then(|| start + limits.optimum.mul_f64(LAST_ROUND_SHARE));
        let turn = match self.options.last_round {
            LastRound::Off => None,
            LastRound::Win => super::last_round::forced_win(game, deadline),
            LastRound::Model => super::last_round::best_turn(game, deadline)
                .filter(|(_, chances)| chances[game.to_move().index()] > 0.0)
                .map(|(turn, _)| turn),
        };
        let exact_phase = match game.players() {
            3 => game.turns_left() <= 3,
            4 => game.turns_left() == 1,
            _ => false,
        };
        if self.options.last_round != LastRound::Off && exact_phase {
            log::info!(
                "info last round exact: {} in {} ms",
                if turn.is_some() { "played" } else { "none" },
                start.elapsed().as_millis()
            );
        }
        turn
    }

    /// The check [`MctsPlayer::safer_last_turn`] makes at `game`'s turn, if any: white's and
    /// black's last turns with 3 players, red's with 4.
    fn check_at(&self, game: &Game) -> Option<LastTurnCheck> {
        let check = match (game.players(), game.turns_left(), game.to_move().index()) {
            (3, 3, 0) => LastTurnCheck::White,
            (3, 2, 1) => LastTurnCheck::Black,
            (4, 2, 2) => LastTurnCheck::Red,
            _ => return None,
        };
        (self.options.last_round_safe
            && self.options.last_round != LastRound::Off
            && game.at_turn_boundary())
        .then_some(check)
    }

    /// With [`MctsOptions::last_round_safe`]: black's turn of the last round of 3 players
    /// when the tree's `turn` lets red win and another does not
    /// ([`super::last_round::safer_turn`]); white's last turn of 3 players when the tree's
    /// `turn` lets black or red force a win and another does not
    /// ([`super::last_round::white_turn_not_lost`]); or red's turn before blue's last with 4
    /// players when the tree's `turn` loses whatever blue does and another does not
    /// ([`super::before_last::red_turn_before_last`]); found before the maximum (always
    /// with a playout limit).
    fn safer_last_turn(
        &self,
        game: &Game,
        turn: &[Cell],
        start: Instant,
        limits: Limits,
    ) -> Option<Vec<Cell>> {
        let check = self.check_at(game)?;
        let deadline = self
            .options
            .playouts
            .is_none()
            .then(|| start + limits.maximum);
        if check == LastTurnCheck::Black {
            let safer = super::last_round::safer_turn(game, turn, deadline)?;
            log::info!(
                "info last round exact: the tree's turn lets red win, played a safer one ({} ms)",
                start.elapsed().as_millis()
            );
            return Some(safer);
        }
        // The mover's turns in the tree's order: at each stone its most visited cells first,
        // then the cells it has not tried. The tree's root is the position unless the turn
        // was completed from a root inside it.
        let tree_at_game = self.root_history == game.stone_history();
        let order = |chosen: &[Cell]| {
            let mut cells = if tree_at_game {
                self.mcts.children_by_visits(chosen)
            } else {
                Vec::new()
            };
            let rest: Vec<Cell> = (game.empties().iter())
                .filter(|c| !chosen.contains(c) && !cells.contains(c))
                .copied()
                .collect();
            cells.extend(rest);
            cells
        };
        let traded = if check == LastTurnCheck::White {
            super::last_round::white_turn_not_lost(game, turn, order, deadline)?
        } else {
            super::before_last::red_turn_before_last(game, turn, order, deadline)?
        };
        log::info!(
            "info last round exact: the tree's turn loses for sure, played one that does not \
             ({} ms)",
            start.elapsed().as_millis()
        );
        Some(traded)
    }

    /// Whether the tree proves the position (its root) lost for the player to move.
    fn is_lost(&self, game: &Game) -> bool {
        self.mcts.root_lost(game.to_move().index())
    }

    /// Searches the lost root again from a cleared tree without the solver, until the same
    /// limits (the time counts from `start`, so it is the rest of the turn's time), so that
    /// the turn played is the search's best hope rather than any of the equally lost moves.
    /// Contract: as `search`.
    fn play_on(
        &mut self,
        game: &mut Game,
        start: Instant,
        time: Option<Duration>,
        playouts: Option<u64>,
        settle: Option<Settle>,
        watch: Option<&mut Watch>,
    ) {
        // `settle` reads its rate off the playouts of this search over the time since `start`,
        // the proof included: it may stop sooner than a fresh turn would, which a position
        // proven lost can afford.
        log::info!("info the position is proven lost: playing on without proofs");
        for mcts in self.trees_mut() {
            mcts.clear();
            mcts.set_solver(false);
        }
        self.search(game, start, time, playouts, settle, watch);
        let solver = self.options.search.solver;
        for mcts in self.trees_mut() {
            mcts.set_solver(solver);
        }
    }

    /// The search trees of all threads, this one's first.
    fn trees_mut(&mut self) -> impl Iterator<Item = &mut Mcts<Cell>> {
        std::iter::once(&mut self.mcts).chain(self.helpers.iter_mut().map(|h| &mut h.mcts))
    }

    /// Keeps the part of the tree below the current position, when the tree's root is an
    /// earlier position of the same game. Nothing to do when the root is the position
    /// already (a `genmove` after `play` moved it). At most about `copy_cap` nodes are
    /// copied: the least visited nodes of the subtree lose their children first
    /// ([`Mcts::advance_within`]).
    fn move_root(&mut self, game: &Game, copy_cap: usize) {
        let history = game.stone_history();
        let later = history.starts_with(&self.root_history);
        let played = &history[self.root_history.len().min(history.len())..];
        if later && played.is_empty() {
            return;
        }
        let reuse_start = Instant::now();
        for mcts in self.trees_mut() {
            if !(later && mcts.advance_within(played, copy_cap)) {
                mcts.clear();
            }
        }
        log::debug!(
            "tree reuse: {} nodes kept in {:.1} ms",
            self.mcts.tree().len(),
            reuse_start.elapsed().as_secs_f64() * 1e3
        );
        self.root_history = history;
    }

    /// The line to play from the root, at most `max_len` stones: the most visited, over all
    /// the threads' trees.
    fn line(&self, max_len: usize) -> Vec<Cell> {
        if self.helpers.is_empty() || self.options.tree_parallel {
            return self.mcts.principal_variation(max_len);
        }
        let trees: Vec<&Mcts<Cell>> = std::iter::once(&self.mcts)
            .chain(self.helpers.iter().map(|h| &h.mcts))
            .collect();
        merged_line(&trees, max_len)
    }

    /// One search of the current position (the tree's root), from `start` until `time` or
    /// `playouts` (or the stop signal), showing `watch` the analysis at its interval.
    fn search(
        &mut self,
        game: &mut Game,
        start: Instant,
        time: Option<Duration>,
        playouts: Option<u64>,
        settle: Option<Settle>,
        mut watch: Option<&mut Watch>,
    ) {
        // Reproducible: the same position, seed and playout limit give the same search.
        let seed = mix64(self.seed ^ game.hash() ^ game.stones_placed() as u64);
        self.mcts.reseed(seed);
        // `--playouts` counts a thread's playouts; the one shared tree gets every thread's.
        let threads = self.helpers.len() as u64 + 1;
        let playouts = if self.options.tree_parallel {
            playouts.map(|n| n.saturating_mul(threads))
        } else {
            playouts
        };
        let limits = MctsLimits {
            start,
            time,
            playouts,
            settle,
        };
        let board = log::log_enabled!(log::Level::Info).then(|| game.board().clone());
        // The analysis plays its candidates on a copy of the root position.
        let root = watch.is_some().then(|| game.clone());
        let every = watch.as_ref().map_or(REPORT_EVERY, |w| w.every);
        let mut rng = FastRng::new(mix64(self.seed ^ game.hash()));
        self.scratch.decay_mast(MAST_DECAY);
        let mut playout = self.options.playout;
        playout.last_turn_win = self
            .options
            .last_turn_win
            .applies(game.players(), game.to_move().index());
        // The other threads search, each from a copy of the position with buffers of its
        // own, while this one searches, watches the clock and reports.
        let mut copies: Vec<Game> = self.helpers.iter().map(|_| game.clone()).collect();
        let mut positions = vec![OmegaTree::new(game, &mut self.scratch, playout)];
        let mut trees = Vec::new();
        for (copy, helper) in copies.iter_mut().zip(&mut self.helpers) {
            helper.scratch.decay_mast(MAST_DECAY);
            positions.push(OmegaTree::new(copy, &mut helper.scratch, playout));
            trees.push(&mut helper.mcts);
        }
        let analysis_state = &mut self.analysis_state;
        let report = |mcts: &Mcts<Cell>, p: &Progress<Cell>| {
            if let Some(board) = &board {
                log_progress(board, p);
            }
            if let (Some(w), Some(root)) = (watch.as_deref_mut(), &root) {
                (w.emit)(&analysis(mcts, root, analysis_state, &mut rng));
                w.next = p.elapsed + w.every;
            }
        };
        let (last, others) = if self.options.tree_parallel {
            let last = self
                .mcts
                .search_threads(&mut positions, limits, Some(every), report);
            (last, 0)
        } else {
            let stop = &self.helpers_stop;
            root_parallel(
                &mut self.mcts,
                trees,
                &mut positions,
                limits,
                seed,
                stop,
                (every, report),
            )
        };
        let Some(p) = &last else {
            return;
        };
        let all = p.playouts + others;
        self.playouts_made += all;
        if let Some(board) = &board {
            log_progress(board, p);
            if !self.helpers.is_empty() {
                let secs = p.elapsed.as_secs_f64().max(1e-9);
                log::info!(
                    "info threads {} playouts {all} pps {:.0}",
                    self.helpers.len() + 1,
                    all as f64 / secs
                );
            }
        }
    }
}

/// The most nodes a move of the tree's root may copy on the clock of a turn whose optimum
/// time is `optimum`: [`REROOT_SHARE`] of it at [`REROOT_NODES_PER_SEC`].
fn reroot_cap(optimum: Duration) -> usize {
    let nodes = optimum.as_secs_f64() * REROOT_SHARE * REROOT_NODES_PER_SEC;
    (nodes as usize).max(REROOT_MIN_NODES)
}

/// What the analysis keeps from one report to the next.
#[derive(Default)]
struct AnalysisState {
    scratch: Scratch,
    /// The position the scores are for (its hash).
    root: Option<u64>,
    /// For each candidate turn shown, the sum of the score playouts' means (weighted) and
    /// their number: every report adds [`SCORE_PLAYOUTS`] more, so the estimates settle.
    scores: HashMap<Vec<Cell>, (f64, usize)>,
}

/// The analysis of the tree whose root is `game`: one candidate a first stone, completed to
/// a whole turn by the most visited children, ranked by the playouts through the whole turn.
/// Candidates the tree has not yet followed to the end of the turn are left out.
fn analysis(
    mcts: &Mcts<Cell>,
    game: &Game,
    state: &mut AnalysisState,
    rng: &mut FastRng,
) -> Analysis {
    if !state.scratch.fits(game) {
        state.scratch = Scratch::new(game);
    }
    if state.root != Some(game.hash()) {
        state.root = Some(game.hash());
        state.scores.clear();
    }
    let k = game.players();
    let mover = game.to_move().index();
    let tree = mcts.tree();
    let mut candidates = Vec::new();
    for first in tree.root().children() {
        let first = first as NodeId;
        if tree.at(first).visits() == 0 {
            continue;
        }
        let mut node = first;
        let mut turn = vec![tree.at(first).mv()];
        while turn.len() < k {
            let Some(c) = mcts.best_child(node) else {
                break;
            };
            turn.push(tree.at(c).mv());
            node = c;
        }
        if turn.len() < k {
            continue;
        }
        let end = tree.get(node);
        let winrate = match end.proven {
            UNPROVEN => end.mean(),
            w if w as usize == mover => 1.0,
            _ => 0.0,
        };
        let mut pv = turn.clone();
        pv.extend(mcts.line_from(node, ANALYSIS_PV_TURNS * k));
        pv.truncate(pv.len() / k * k);
        candidates.push(Candidate {
            turn,
            visits: end.visits,
            winrate,
            score: 0.0,
            pv,
        });
    }
    candidates.sort_by_key(|c| std::cmp::Reverse(c.visits));
    candidates.truncate(ANALYSIS_CANDIDATES);
    let mut after = game.clone();
    for c in &mut candidates {
        for &cell in &c.turn {
            after.place(cell);
        }
        let mean = mean_log_margin(&after, &mut state.scratch, rng, mover, SCORE_PLAYOUTS);
        let (sum, count) = state.scores.entry(c.turn.clone()).or_insert((0.0, 0));
        *sum += mean * SCORE_PLAYOUTS as f64;
        *count += SCORE_PLAYOUTS;
        c.score = *sum / *count as f64;
        for _ in 0..k {
            after.unplace();
        }
    }
    Analysis {
        visits: tree.root().visits,
        candidates,
    }
}

/// One `info` line on stderr through `log`: playouts, speed, the win rate of the best move
/// for the player to move (or the proven winner), and the most visited line.
fn log_progress(board: &Board, p: &Progress<Cell>) {
    let secs = p.elapsed.as_secs_f64().max(1e-9);
    let pv = board.names(&p.pv[..p.pv.len().min(12)]);
    let result = match p.proven {
        Some(w) => format!("proven {}", crate::game::Colour::from_index(w)),
        None => format!("winrate {:.3}", p.value),
    };
    log::info!(
        "info playouts {} pps {:.0} visits {} nodes {} time {:.3} {} pv {}",
        p.playouts,
        p.playouts as f64 / secs,
        p.root_visits,
        p.nodes,
        secs,
        result,
        pv
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::player::every_turn;

    /// The default expands by the leaves' moves from side 8 on, as it was measured; below
    /// that, and in `mcts-plain`, never.
    #[test]
    fn the_default_expands_by_moves_from_side_8() {
        let strong = MctsOptions::strong();
        let cells = |side| Board::new(side).cell_count();
        for side in 2..=7 {
            assert_eq!(expand_moves_on(&strong, cells(side)), 0, "side {side}");
        }
        for side in 8..=13 {
            assert_eq!(expand_moves_on(&strong, cells(side)), 64, "side {side}");
        }
        let plain = MctsOptions::plain();
        assert_eq!(expand_moves_on(&plain, cells(10)), 0);
        let mut everywhere = MctsOptions::strong();
        everywhere.set("expand_min_cells", "0").unwrap();
        assert_eq!(expand_moves_on(&everywhere, cells(5)), 64);
    }

    /// The default player with two threads, a tree each (so that each tree's settings show).
    fn default_with_two_trees() -> MctsPlayer {
        let mut options = MctsOptions::strong();
        options.set("threads", "2").unwrap();
        options.set("parallel", "root").unwrap();
        options.tree_mb = 16;
        options.tree_mb_multi = 64;
        MctsPlayer::new(options, 1, Stop::new())
    }

    /// What `read` sees in each thread's tree, the first thread's first.
    fn per_tree<T>(player: &mut MctsPlayer, read: impl Fn(&Mcts<Cell>) -> T) -> Vec<T> {
        player.trees_mut().map(|mcts| read(mcts)).collect()
    }

    /// The player gives its trees the memory of the game's number of players, shared among
    /// the threads' trees (root parallelism) or all in the one shared tree (tree
    /// parallelism, whose helpers keep their empty trees), again when the count changes;
    /// `mcts-plain` keeps 512 MiB with any count.
    #[test]
    fn the_player_sizes_the_trees_by_the_number_of_players() {
        let nodes = crate::mcts::nodes_in_mib;
        let mut player = default_with_two_trees();
        for (players, mb) in [(3, 64), (2, 16), (4, 64), (2, 16)] {
            player.prepare(&Game::new(5, players).unwrap(), usize::MAX);
            let capacities = per_tree(&mut player, |mcts| mcts.tree().capacity());
            assert_eq!(capacities, [nodes(mb) / 2; 2], "{players} players");
        }
        let mut options = MctsOptions::strong();
        options.threads = 2;
        options.tree_mb = 8;
        options.tree_mb_multi = 24;
        let mut shared = MctsPlayer::new(options, 1, Stop::new());
        for (players, mb) in [(3, 24), (2, 8)] {
            shared.prepare(&Game::new(4, players).unwrap(), usize::MAX);
            let capacities = per_tree(&mut shared, |mcts| mcts.tree().capacity());
            assert_eq!(capacities, [nodes(mb), 2], "{players} players");
        }
        let (strong, plain) = (MctsOptions::strong(), MctsOptions::plain());
        assert_eq!((strong.tree_mb, strong.tree_mb_multi), (512, 2048));
        assert_eq!((plain.tree_mb, plain.tree_mb_multi), (512, 512));
    }

    /// The player gives every thread's tree the rule of the board it is set up for, again
    /// when the board changes.
    #[test]
    fn the_player_sets_the_rule_by_the_board() {
        let mut player = default_with_two_trees();
        for (side, expected) in [(10, 64), (5, 0), (8, 64), (7, 0)] {
            player.prepare(&Game::new(side, 2).unwrap(), usize::MAX);
            let rules = per_tree(&mut player, |mcts| mcts.config().expand_moves);
            assert_eq!(rules, [expected, expected], "side {side}");
        }
    }

    /// The default counts the priors with 2 and 4 players and, below side 8, not with 3, in
    /// every thread's tree, again when the board or the number of players changes;
    /// `prior_players` sets the counts on every board and in every seat, and
    /// `prior_min_cells` the boards where all count.
    #[test]
    fn the_player_counts_the_priors_by_the_number_of_players_and_the_board() {
        let rave = MctsOptions::strong().search.prior_rave_visits;
        assert!(rave > 0.0);
        let mut player = default_with_two_trees();
        let cases = [
            (2, 5, rave),
            (3, 5, 0.0),
            (4, 5, rave),
            (3, 8, rave),
            (3, 7, 0.0),
            (2, 5, rave),
        ];
        for (players, side, expected) in cases {
            player.prepare(&Game::new(side, players).unwrap(), usize::MAX);
            let weights = per_tree(&mut player, |mcts| mcts.config().prior_rave_visits);
            assert_eq!(
                weights,
                [expected, expected],
                "{players} players, side {side}"
            );
        }
        let mut options = MctsOptions::strong();
        options.set("prior_players", "3+4").unwrap();
        assert_eq!(
            options.priorless_seats,
            SeatSet::NONE,
            "the priorless seats' rule goes too"
        );
        assert_eq!(prior_visits_for(&options, 4, 61).1, rave);
        assert_eq!(prior_visits_for(&options, 3, 61).1, rave);
        assert_eq!(prior_visits_for(&options, 2, 61), (0.0, 0.0));
        assert_eq!(prior_visits_for(&options, 2, 169), (0.0, 0.0));
        options.set("prior_min_cells", "160").unwrap();
        assert_eq!(prior_visits_for(&options, 2, 169).1, rave);
        assert_eq!(prior_visits_for(&options, 2, 127), (0.0, 0.0));
        options.set("prior_players", "none").unwrap();
        assert!((1..=MAX_PLAYERS).all(|k| prior_visits_for(&options, k, 271) == (0.0, 0.0)));
        for bad in ["", "0", "5", "2+x", "2,4", "two"] {
            let before = options;
            assert!(options.set("prior_players", bad).is_err(), "'{bad}'");
            assert_eq!(options, before, "'{bad}' changes nothing");
        }
    }

    /// The default's black and red with 3 players count no priors, on the big boards too,
    /// where white counts them; black with 2 and 4 players counts them. The trees
    /// are configured again when the seat to move changes, and `priorless_seats` sets the
    /// seats.
    #[test]
    fn the_default_searches_black_and_red_without_priors_with_three_players() {
        let rave = MctsOptions::strong().search.prior_rave_visits;
        let weights_at = |player: &mut MctsPlayer, players: usize, turns: usize| {
            let total = Game::new(8, players).unwrap().total_turns();
            let game = random_game_until(8, players, total - turns, 1);
            player.prepare(&game, usize::MAX);
            per_tree(player, |mcts| mcts.config().prior_rave_visits)
        };
        let mut player = default_with_two_trees();
        // White, black, red, white again with 3 players; then black with 2 and 4 players.
        let cases = [
            (3, 0, rave),
            (3, 1, 0.0),
            (3, 2, 0.0),
            (3, 3, rave),
            (3, 1, 0.0),
            (2, 1, rave),
            (4, 1, rave),
        ];
        for (players, turns, expected) in cases {
            let weights = weights_at(&mut player, players, turns);
            assert_eq!(weights, [expected; 2], "{players} players, {turns} turns");
        }
        let mut options = MctsOptions::strong();
        assert!(options.priorless_seats.holds(3, 1) && options.priorless_seats.holds(3, 2));
        options.set("priorless_seats", "none").unwrap();
        options.tree_mb_multi = 64;
        let mut player = MctsPlayer::new(options, 1, Stop::new());
        assert_eq!(weights_at(&mut player, 3, 1), [rave]);
        let mut options = MctsOptions::strong();
        options.set("priorless_seats", "3:white+4:blue").unwrap();
        assert!(options.priorless_seats.holds(3, 0) && options.priorless_seats.holds(4, 3));
        assert!(!options.priorless_seats.holds(3, 1));
        let before = options;
        let error = options.set("priorless_seats", "3:blue").unwrap_err();
        assert!(error.starts_with("priorless_seats: '3:blue'"), "{error}");
        assert_eq!(options, before, "a bad value changes nothing");
    }

    #[test]
    fn the_default_plays_a_forced_win_of_the_last_round_and_the_baseline_does_not_look() {
        assert_eq!(MctsOptions::plain().last_round, LastRound::Off);
        assert_eq!(MctsOptions::strong().last_round, LastRound::Win);
        assert!(!MctsOptions::plain().last_round_safe);
        assert!(MctsOptions::strong().last_round_safe);
        let mut safe = MctsOptions::strong();
        safe.set("last_round_safe", "off").unwrap();
        assert!(!safe.last_round_safe);
        assert!(safe.set("last_round_safe", "maybe").is_err());
        let mut options = MctsOptions::strong();
        for (value, mode) in [
            ("off", LastRound::Off),
            ("model", LastRound::Model),
            ("win", LastRound::Win),
        ] {
            options.set("last_round", value).unwrap();
            assert_eq!(options.last_round, mode);
        }
        for bad in ["", "on", "Win", "1"] {
            let before = options;
            assert!(options.set("last_round", bad).is_err(), "'{bad}'");
            assert_eq!(options, before, "'{bad}' changes nothing");
        }
        // Side-3 games of 3 players at the last round until one has a forced win.
        let limits = Limits {
            optimum: Duration::from_secs(5),
            maximum: Duration::from_secs(5),
            keeps_savings: false,
        };
        let mut played = 0;
        for seed in 0..40u64 {
            let mut game = random_game_until(3, 3, 1 + seed as usize % 3, seed);
            let Some(win) = super::super::last_round::forced_win(&game, None) else {
                continue;
            };
            assert_eq!(default_turn(&mut game, seed, limits), win, "seed {seed}");
            played += 1;
        }
        assert!(played >= 3, "only {played} positions with a forced win");
        // With 4 players, blue's last turn (side 4: 9 empty cells): a win is found exactly
        // when one of blue's turns wins, and played.
        let (mut wins, mut none) = (0, 0);
        for seed in 0..30u64 {
            let mut game = random_game_until(4, 4, 1, seed);
            let blue = game.to_move();
            let can_win = every_turn(&game).into_iter().any(|turn| {
                let mut after = game.clone();
                after.play_turn(blue, &turn).unwrap();
                after.winner().0 == blue
            });
            let found = super::super::last_round::forced_win(&game, None);
            assert_eq!(found.is_some(), can_win, "seed {seed}");
            let Some(win) = found else {
                none += 1;
                continue;
            };
            let turn = default_turn(&mut game, seed, limits);
            assert_eq!(turn, win, "seed {seed}");
            game.play_turn(blue, &turn).unwrap();
            assert_eq!(game.winner().0, blue, "seed {seed}");
            wins += 1;
        }
        assert!(wins >= 3 && none >= 3, "{wins} wins, {none} without");
    }

    /// With 4 players, red's turn just before blue's last turn (side 4: 13 empty cells) loses
    /// whatever blue does only when every red turn does; the tree's own turn (the trade off)
    /// did in some of these games.
    #[test]
    fn reds_turn_before_blues_last_is_a_sure_loss_only_when_every_turn_is() {
        use super::super::before_last::{Outlook, PairScores};
        check_the_trade(
            |seed| random_game_until(4, 4, 2, seed),
            |game, turn| {
                let scores = PairScores::new(game);
                scores.outlook(&scores.indices(turn).unwrap()) == Outlook::SureLoss
            },
        );
    }

    /// With 3 players, the default's last turn as white (sides 3-4: 10 empty cells) lets
    /// black or red force a win only when every white turn does; the tree's own turn (the
    /// trade off) did in some of these games.
    #[test]
    fn whites_last_turn_is_a_sure_loss_only_when_every_turn_is() {
        check_the_trade(
            |seed| random_game_until(3 + seed as usize % 2, 3, 3, seed),
            crate::player::white_turn_lost,
        );
    }

    /// Over 30 games from `game_for(seed)`: where some turn is not `lost`, the default's turn
    /// is not, and the tree's own turn (the trades off) is in at least 3 of at least 10.
    fn check_the_trade(game_for: impl Fn(u64) -> Game, lost: impl Fn(&mut Game, &[Cell]) -> bool) {
        let limits = Limits {
            optimum: Duration::from_secs(5),
            maximum: Duration::from_secs(5),
            keeps_savings: false,
        };
        let (mut open, mut lost_by_the_tree) = (0, 0);
        for seed in 0..30u64 {
            let mut game = game_for(seed);
            if every_turn(&game).iter().all(|t| lost(&mut game, t)) {
                continue;
            }
            open += 1;
            let turn = default_turn(&mut game, seed, limits);
            assert!(!lost(&mut game, &turn), "seed {seed}");
            let tree_turn = tree_turn(&mut game, seed, limits);
            if lost(&mut game, &tree_turn) {
                lost_by_the_tree += 1;
            }
        }
        assert!(
            open >= 10 && lost_by_the_tree >= 3,
            "{open} open, {lost_by_the_tree} lost"
        );
    }

    /// A game of `players` on side `side` played by random turns until `turns_left` remain.
    fn random_game_until(side: usize, players: usize, turns_left: usize, seed: u64) -> Game {
        let mut game = Game::new(side, players).unwrap();
        let mut rng = FastRng::new(seed);
        while game.turns_left() > turns_left {
            let turn = crate::player::random_turn(&game, rng.next_u64());
            game.play_turn(game.to_move(), &turn).unwrap();
        }
        game
    }

    /// The default's turn with 64 playouts.
    fn default_turn(game: &mut Game, seed: u64, limits: Limits) -> Vec<Cell> {
        turn_with_64_playouts(game, seed, limits, true)
    }

    /// The tree's own turn with 64 playouts: the default without the exact checks' trades
    /// (`last_round_safe` off).
    fn tree_turn(game: &mut Game, seed: u64, limits: Limits) -> Vec<Cell> {
        turn_with_64_playouts(game, seed, limits, false)
    }

    /// Red's turns with 4 players are searched as the other seats' (`plain_seats` none): the
    /// default searches them as `mcts-plain`'s, without the check these tests read.
    fn turn_with_64_playouts(game: &mut Game, seed: u64, limits: Limits, safe: bool) -> Vec<Cell> {
        let mut options = MctsOptions::strong();
        options.plain_seats = SeatSet::NONE;
        options.playouts = Some(64);
        options.tree_mb_multi = 16;
        options.last_round_safe = safe;
        let mut player = MctsPlayer::new(options, seed, Stop::new());
        player.choose(game, Instant::now(), limits, None)
    }
}

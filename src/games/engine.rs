//! The engine of a game other than Omega: its position, clocks and player, behind one
//! object-safe trait ([`VariantEngine`]) that the protocol drives whatever the game.
//!
//! Every answer body and refusal message is made here, in the same words as Omega's
//! (`illegal move: ...`, `cannot undo`, ...), so that a controller sees one protocol.

use super::hexed::Hexed;
use super::yavalath::Yavalath;
use super::{GameAnalysis, GameMove, GamePlayer, GameResult, GameWatch, Rules, SetupError};
use crate::player::PlayerOptions;
use crate::search::exact::Solution;
use crate::stop::Stop;
use crate::timeman::{Clocks, Limits, TimeControl};
use std::time::{Duration, Instant};

/// What the protocol asks of a game other than Omega. Errors are the messages of `?`
/// answers; every refused call changes nothing.
pub trait VariantEngine: Send {
    fn name(&self) -> &'static str;
    /// The colour a protocol word names (full name or first letter, any case) among the
    /// colours in play.
    fn colour(&self, word: &str) -> Option<usize>;
    fn colour_name(&self, colour: usize) -> &'static str;
    /// A new empty game with the side and/or the player count changed.
    fn set_up(&mut self, side: Option<usize>, players: Option<usize>) -> Result<(), SetupError>;
    fn clear_board(&mut self);
    /// The swap rule (`rules swap on|off`); refused when it would make the moves played
    /// illegal (turning it off after a swap).
    fn set_swap(&mut self, on: bool) -> Result<(), String>;
    fn swap_rule(&self) -> bool;
    /// A game-specific start (`hexed_start`): a new game from it.
    fn set_start(&mut self, anchor: &str, colour: usize, first: usize) -> Result<(), String>;
    /// `play COLOUR MOVE`: exactly one word, a cell, `swap` or `pass`.
    fn play(&mut self, colour: usize, words: &[String]) -> Result<(), String>;
    /// Chooses a move for `colour` (it must be its turn) within its time, and plays it when
    /// `commit`; returns its name. With `watch`, the search's analysis is shown as it thinks
    /// (players that cannot analyse show nothing).
    fn genmove(
        &mut self,
        colour: usize,
        commit: bool,
        watch: Option<&mut InfoWatch>,
    ) -> Result<String, String>;
    /// Whether `colour` may move now, or why not (`game is over`, another's turn).
    fn check_mover(&self, colour: usize) -> Result<(), String>;
    /// Whether the player analyses (`analyze`): the tree searches.
    fn can_analyze(&self) -> bool;
    /// `analyze`: searches for `colour` (it must be its turn) until the stop signal, showing
    /// `watch` the analysis every interval; the game is unchanged.
    fn analyze(&mut self, colour: usize, watch: &mut InfoWatch) -> Result<(), String>;
    fn undo(&mut self) -> bool;
    fn to_move(&self) -> Option<usize>;
    fn showboard(&self) -> String;
    fn score(&self) -> String;
    fn final_score(&self) -> String;
    fn stones(&self, colour: usize) -> String;
    fn set_time_control(&mut self, control: TimeControl);
    fn set_time_left(&mut self, colour: usize, seconds: f64, stones: u32);
    /// The game as a transcript: its set-up and `play` lines.
    fn transcript(&self) -> String;
    /// `solve`'s answer for the position (`white wins c4`, `black wins`, `draw c4`,
    /// `unknown`) within `limit`; refused with three players or in a game without a solver.
    fn solve(&mut self, limit: Duration) -> Result<String, String>;
}

/// Someone watching a search: shown the `info` line of its analysis (the candidates, best
/// first, in the words of `analyze`) every `every`.
pub struct InfoWatch<'a> {
    pub every: Duration,
    pub line: &'a mut dyn FnMut(&str),
}

/// How long `analyze` searches when nothing stops it: for ever, in effect.
const ANALYZE_LIMIT: Duration = Duration::from_secs(1 << 30);
/// How often `analyze` looks at the stop signal once its search has ended by itself.
const STOP_POLL: Duration = Duration::from_millis(10);

/// Builds the engine of the game named `name` with the player `player`: `None` for an
/// unknown game, `Some(Err)` when the game has no such player.
pub fn new_variant(
    name: &str,
    player: &str,
    options: &PlayerOptions,
    move_time: f64,
    stop: &Stop,
) -> Option<Result<Box<dyn VariantEngine>, String>> {
    fn make<R: Rules>(
        player: &str,
        options: &PlayerOptions,
        move_time: f64,
        stop: &Stop,
    ) -> Result<Box<dyn VariantEngine>, String> {
        GameEngine::<R>::new(player, options, move_time, stop)
            .map(|e| Box::new(e) as Box<dyn VariantEngine>)
    }
    match name {
        Yavalath::NAME => Some(make::<Yavalath>(player, options, move_time, stop)),
        Hexed::NAME => Some(make::<Hexed>(player, options, move_time, stop)),
        _ => None,
    }
}

/// The games `game NAME` knows, Omega first.
pub const GAMES: &[&str] = &["omega", Yavalath::NAME, Hexed::NAME];

/// One game of `R` with its clocks and player.
pub struct GameEngine<R: Rules> {
    game: R,
    player: Box<dyn GamePlayer<R>>,
    clocks: Clocks,
    /// The stop signal the player's searches obey (`# interrupt`); `solve` obeys it too.
    stop: Stop,
}

impl<R: Rules> GameEngine<R> {
    /// The game's default set-up and `player` (one of [`Rules::player_names`]).
    pub fn new(
        player: &str,
        options: &PlayerOptions,
        move_time: f64,
        stop: &Stop,
    ) -> Result<GameEngine<R>, String> {
        let game = R::new(R::DEFAULT_SIDE, R::DEFAULT_PLAYERS, R::DEFAULT_SWAP)
            .expect("the default set-up is valid");
        let player = R::player(player, options, stop.clone()).ok_or_else(|| {
            format!(
                "{} has no player '{player}' (it has {})",
                R::NAME,
                R::player_names().join(", ")
            )
        })?;
        Ok(GameEngine {
            game,
            player,
            clocks: Clocks::new(TimeControl::PerMove(move_time)),
            stop: stop.clone(),
        })
    }

    fn start(&mut self, game: R) {
        self.game = game;
        self.clocks.restart();
        self.player.new_game();
    }

    /// The move `colour` may make now, or why not.
    fn checked(&self, colour: usize, word: &str) -> Result<GameMove, String> {
        let m = self
            .game
            .parse_move(word)
            .map_err(|e| format!("illegal move: {e}"))?;
        self.game
            .check(colour, m)
            .map_err(|e| format!("illegal move: {e}"))?;
        Ok(m)
    }

    /// The player's move, its analysis shown to `watch` as `info` lines; also the last line
    /// shown.
    fn watched(
        &mut self,
        start: Instant,
        limits: Limits,
        watch: &mut InfoWatch,
    ) -> (GameMove, Option<String>) {
        let game = &self.game;
        let mut last = None;
        let mut emit = |a: &GameAnalysis| {
            if !a.candidates.is_empty() {
                let line = info_line(game, a);
                (watch.line)(&line);
                last = Some(line);
            }
        };
        let mut inner = GameWatch {
            every: watch.every,
            emit: &mut emit,
        };
        let m = self.player.choose_watched(game, start, limits, &mut inner);
        (m, last)
    }
}

impl<R: Rules> VariantEngine for GameEngine<R> {
    fn name(&self) -> &'static str {
        R::NAME
    }

    fn colour(&self, word: &str) -> Option<usize> {
        let word = word.to_ascii_lowercase();
        self.game
            .colour_names()
            .iter()
            .position(|name| *name == word || (word.len() == 1 && name.starts_with(&word)))
    }

    fn colour_name(&self, colour: usize) -> &'static str {
        self.game.colour_names()[colour]
    }

    fn set_up(&mut self, side: Option<usize>, players: Option<usize>) -> Result<(), SetupError> {
        let side = side.unwrap_or(self.game.side());
        let players = players.unwrap_or(self.game.players());
        let game = R::new(side, players, self.game.swap_rule())?;
        self.start(game);
        Ok(())
    }

    fn clear_board(&mut self) {
        let game = self.game.cleared();
        self.start(game);
    }

    fn set_swap(&mut self, on: bool) -> Result<(), String> {
        if !on
            && self
                .game
                .history()
                .iter()
                .any(|(_, m)| *m == GameMove::Swap)
        {
            return Err("a swap was played: undo it first".into());
        }
        self.game.set_swap_rule(on);
        Ok(())
    }

    fn swap_rule(&self) -> bool {
        self.game.swap_rule()
    }

    fn set_start(&mut self, anchor: &str, colour: usize, first: usize) -> Result<(), String> {
        let game = self.game.with_start(anchor, colour, first)?;
        self.start(game);
        Ok(())
    }

    fn play(&mut self, colour: usize, words: &[String]) -> Result<(), String> {
        let [word] = words else {
            return Err(format!(
                "illegal move: a turn is one move, got {}",
                words.len()
            ));
        };
        if self.game.is_over() {
            return Err("illegal move: game is over".into());
        }
        let m = self.checked(colour, word)?;
        self.game.play(m);
        Ok(())
    }

    fn genmove(
        &mut self,
        colour: usize,
        commit: bool,
        watch: Option<&mut InfoWatch>,
    ) -> Result<String, String> {
        self.check_mover(colour)?;
        let start = Instant::now();
        let limits = self.clocks.limits(colour, self.game.own_moves_left());
        let m = match watch {
            Some(watch) => self.watched(start, limits, watch).0,
            None => self.player.choose(&self.game, start, limits),
        };
        if let Err(e) = self.game.check(colour, m) {
            // A player's bug must not become an illegal answer: log it, refuse.
            log::error!("{} player chose an illegal {m:?}: {e}", R::NAME);
            return Err(format!("the player chose an illegal move: {e}"));
        }
        let name = self.game.move_name(m);
        if commit {
            self.game.play(m);
            let elapsed = start.elapsed().as_secs_f64();
            self.clocks.charge(colour, elapsed);
        }
        Ok(name)
    }

    fn can_analyze(&self) -> bool {
        self.player.can_analyze()
    }

    fn check_mover(&self, colour: usize) -> Result<(), String> {
        match self.game.to_move() {
            None => Err("game is over".into()),
            Some(c) if c == colour => Ok(()),
            Some(c) => Err(format!(
                "it is {}'s turn, not {}'s",
                self.colour_name(c),
                self.colour_name(colour)
            )),
        }
    }

    fn analyze(&mut self, colour: usize, watch: &mut InfoWatch) -> Result<(), String> {
        self.check_mover(colour)?;
        let start = Instant::now();
        let limits = Limits {
            optimum: ANALYZE_LIMIT,
            maximum: ANALYZE_LIMIT,
            keeps_savings: false,
        };
        let (_, last) = self.watched(start, limits, watch);
        // The search ended by itself (the position proven, or a playout limit): its
        // analysis no longer changes, and is shown until the stop.
        let mut next = start.elapsed() + watch.every;
        while !self.stop.is_raised() {
            std::thread::sleep(STOP_POLL);
            if start.elapsed() >= next {
                if let Some(line) = &last {
                    (watch.line)(line);
                }
                next += watch.every;
            }
        }
        Ok(())
    }

    fn undo(&mut self) -> bool {
        self.game.undo()
    }

    fn to_move(&self) -> Option<usize> {
        self.game.to_move()
    }

    fn showboard(&self) -> String {
        self.game.draw()
    }

    fn score(&self) -> String {
        self.game.score()
    }

    fn final_score(&self) -> String {
        self.game.final_score()
    }

    fn stones(&self, colour: usize) -> String {
        self.game.stones(colour).join(" ")
    }

    fn set_time_control(&mut self, control: TimeControl) {
        self.clocks.set_control(control);
    }

    fn set_time_left(&mut self, colour: usize, seconds: f64, stones: u32) {
        self.clocks.set_time_left(colour, seconds, stones);
    }

    fn transcript(&self) -> String {
        transcript(&self.game)
    }

    fn solve(&mut self, limit: Duration) -> Result<String, String> {
        let name = |c: usize| self.game.colour_names()[c];
        let Some(mover) = self.game.to_move() else {
            return Ok(match self.game.result() {
                Some(GameResult::Win(c)) => format!("{} wins", name(c)),
                _ => "draw".into(),
            });
        };
        if self.game.players() != 2 {
            return Err("solve needs two players".into());
        }
        let (solution, stats) = self
            .game
            .solve(limit, &self.stop)
            .ok_or_else(|| format!("solve is not supported in {}", R::NAME))?;
        log::info!(
            "info solve nodes {} time {:.3} depth {} result {:?}",
            stats.nodes,
            stats.elapsed.as_secs_f64(),
            stats.depth,
            solution
        );
        Ok(match solution {
            Solution::Unknown => "unknown".into(),
            Solution::Win(m) => format!("{} wins {}", name(mover), self.game.move_name(m)),
            Solution::Draw(m) => format!("draw {}", self.game.move_name(m)),
            Solution::Loss => format!("{} wins", name(1 - mover)),
        })
    }
}

/// One `info` line of an analysis, in the words of Omega's `analyze` without its `score`:
/// `info move M visits N winrate W order I pv M ...` for each candidate, best first.
fn info_line<R: Rules>(game: &R, a: &GameAnalysis) -> String {
    let names = |moves: &[GameMove]| {
        let words: Vec<String> = moves.iter().map(|&m| game.move_name(m)).collect();
        words.join(" ")
    };
    a.candidates
        .iter()
        .enumerate()
        .map(|(order, c)| {
            format!(
                "info move {} visits {} winrate {:.4} order {order} pv {}",
                game.move_name(c.mv),
                c.visits,
                c.winrate,
                names(&c.pv)
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The transcript of `game`: its set-up (`game`, `boardsize`, `players`, `rules`,
/// `clear_board`) and one `play` line a move, as `savegame` writes it and omega-match's
/// records hold it. Contract: a game whose start is its own (Hexed's `hexed_start`) writes
/// it in its history's first lines (see the game's `history`).
pub fn transcript<R: Rules>(game: &R) -> String {
    let mut text = format!(
        "game {}\nboardsize {}\nplayers {}\nrules swap {}\nclear_board\n",
        R::NAME,
        game.side(),
        game.players(),
        if game.swap_rule() { "on" } else { "off" }
    );
    for command in game.setup_commands() {
        text += &format!("{command}\n");
    }
    for (colour, m) in game.history() {
        text += &format!(
            "play {} {}\n",
            game.colour_names()[colour],
            game.move_name(m)
        );
    }
    text
}

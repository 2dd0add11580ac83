//! The command line of `omega-match`: a small table of flags, parsed by hand.

use super::game_referee::{check_setup, default_size, GameSetup};
use super::openings::parse_book;
use super::referee::TimeControl;
use super::schedule;
use super::stats::Sprt;
use super::tally::SprtModel;
use super::words::split_words;
use crate::board::{Board, Cell};
use crate::game::{Colour, Game, MAX_PLAYERS, MIN_PLAYERS};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::path::{Path, PathBuf};

pub const USAGE: &str = "\
usage: omega-match --engine CMD --engine CMD [--engine CMD ...] [options]
       omega-match --resume DIR [--concurrency C] [--engine-stderr]

Plays games between engines that speak the Omega text protocol, referees them and prints
the score with Elo error bars (like cutechess-cli and fastchess).

engines (--name, --dir, --engine-movetime and --engine-time apply to the --engine before):
  --engine CMD          an engine's command line, split into words as a shell would
                        (repeat for every engine, at least two)
  --name NAME           its name (default: its answer to 'name', made unique: -2, -3, ...)
  --dir DIR             its working directory (default: omega-match's)
  --engine-movetime S   its time per turn, instead of --movetime (time odds)
  --engine-time S       its time for the whole game, instead of --time (time odds)
  --engine-stderr       let the engines' stderr through (default: only kept, and its last
                        lines shown when an engine fails to start)

games:
  --game NAME           omega (the default), yavalath or hexed: the engines get `game NAME`
                        and the referee plays by that game's rules
  --swap on|off         the swap (pie) rule (default: the game's: on in yavalath)
  --random-start        hexed: each game pair from a start ring drawn with the seed
                        (cell, colours, who moves first), as Hexed's game program draws
                        it; without it, the default ring
  --games N             number of games (default 10)
  --size S              board side, 2..13 (default 5; other games: their default board)
  --players K           players per game, 2..4 (default 2)
  --seed X              seed of the openings (default: from the clock, printed)
  --movetime SECONDS    time per turn (sent as time_settings 0 SECONDS 1)
  --time SECONDS        time for the whole game per player (time_left before every genmove)
  --timeout SECONDS     longest wait for an answer without a time budget: start-up, set-up,
                        play, and genmove without time control (default 60)
  --concurrency C       games played in parallel (default 1)
  --openings random:T   start each game with T seeded random turns
  --openings file:PATH  start each game with an opening of a book: one opening a line
                        (the cells of its turns in order) or transcripts (docs/match.md)
  --openings-order ORDER  sequential (default) or random (shuffled with the seed)
  --openings-turns T    cut every opening of the book to its first T turns
  --seat SEAT           play only the games of the schedule in which the first --engine
                        holds SEAT (white, black, red, blue or 1..4); the others are
                        skipped: one seat's share, to measure a setting by seat

records:
  --records DIR         write one replayable transcript per game into DIR
  --records-file PATH   append every game's transcript to PATH as it finishes
  --append              add to records that DIR or PATH already hold (numbered on)
  --resume DIR          continue the match whose records DIR holds (after Ctrl-C or a
                        crash): its settings come from DIR/omega-match.args
  --first-record N      number the record files from N (default 1; set by --append)

statistics:
  --sprt ELO0 ELO1 ALPHA BETA
                        stop as soon as the sequential probability ratio test decides
                        (two engines only)
  --sprt-model MODEL    pentanomial (game pairs, the default) or trinomial (single games)

  -h, --help            print this help
  -V, --version         print the version

Games come in groups that share an opening: each group seats one set of engines in every
rotation of the seats (with two players: a game pair, colours swapped). Over a whole cycle
every engine holds every seat equally often and every pair of engines meets equally often.
";

/// The version line of `--version`.
pub const VERSION: &str = concat!("omega-match ", env!("CARGO_PKG_VERSION"));

/// The file in a records directory that holds the match's arguments, for `--resume`.
pub const ARGS_FILE: &str = "omega-match.args";

#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The command line as given.
    pub command: String,
    pub argv: Vec<String>,
    /// Given with `--name`; otherwise the engine's answer to `name`.
    pub name: Option<String>,
    /// Working directory (`--dir`).
    pub dir: Option<PathBuf>,
    /// Time per turn and per game of this engine, instead of the match's (time odds).
    pub movetime: Option<f64>,
    pub game_time: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Openings {
    None,
    /// This many seeded random turns.
    Random(usize),
    /// A book read from `path` (in play order: shuffled already for `--openings-order random`).
    Book {
        path: PathBuf,
        openings: Vec<Vec<Vec<Cell>>>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub engines: Vec<EngineSpec>,
    pub games: usize,
    /// `omega`, or the game of [`GameSetup`]'s referee.
    pub game: String,
    /// `--swap`, if given.
    pub swap: Option<bool>,
    /// `--random-start`: each game pair from a seeded random start (Hexed's start ring).
    pub random_start: bool,
    pub size: usize,
    pub players: usize,
    pub seed: u64,
    /// Whether `--seed` was given (else the seed comes from the clock).
    pub seed_given: bool,
    pub movetime: Option<f64>,
    pub game_time: Option<f64>,
    pub timeout: f64,
    pub concurrency: usize,
    pub openings: Openings,
    pub records: Option<PathBuf>,
    pub records_file: Option<PathBuf>,
    pub append: bool,
    /// Continue the match of `records` (`--resume`).
    pub resume: bool,
    /// Number of the first record file.
    pub first_record: usize,
    pub sprt: Option<Sprt>,
    pub sprt_model: SprtModel,
    /// `--seat`: only the games in which the first engine holds this seat (0 = the first
    /// to move) are played; the schedule and the game numbers stay those of the whole match.
    pub seat: Option<usize>,
    pub engine_stderr: bool,
    /// The arguments as given (after `--resume` has read the saved ones).
    pub args: Vec<String>,
}

impl Config {
    /// The set-up of a game other than Omega, its random opening seeded for schedule group
    /// `group` (both games of a pair get the same opening).
    pub fn game_setup(&self, group: usize) -> GameSetup {
        let random_moves = match self.openings {
            Openings::Random(t) => t,
            _ => 0,
        };
        GameSetup {
            name: self.game.clone(),
            size: self.size,
            players: self.players,
            swap: self.swap,
            random_moves,
            random_start: self.random_start,
            seed: self.seed ^ (group as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        }
    }

    /// Whether game `number` (counted from 1) is played under `--seat`: the first engine
    /// holds that seat in it (every game without `--seat`).
    pub fn holds_seat(&self, number: usize) -> bool {
        self.seat.is_none_or(|seat| {
            schedule::seats(number - 1, self.engines.len(), self.players)[seat] == 0
        })
    }

    /// The time control of engine `e`.
    pub fn time_control(&self, e: usize) -> TimeControl {
        let spec = &self.engines[e];
        TimeControl {
            movetime: spec.movetime.or(self.movetime),
            game_time: spec.game_time.or(self.game_time),
            timeout: self.timeout,
        }
    }

    /// The arguments to save for `--resume`: as given, with the seed and the number of the
    /// first record pinned, and without `--append`.
    pub fn args_to_save(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut i = 0;
        while i < self.args.len() {
            let a = &self.args[i];
            let flag = a.split_once('=').map_or(a.as_str(), |(f, _)| f);
            let skip = match flag {
                "--append" => 1,
                "--seed" | "--first-record" if !a.contains('=') => 2,
                "--seed" | "--first-record" => 1,
                _ => 0,
            };
            if skip == 0 {
                out.push(a.clone());
                i += 1;
            } else {
                i += skip;
            }
        }
        out.extend([
            "--seed".to_string(),
            self.seed.to_string(),
            "--first-record".to_string(),
            self.first_record.to_string(),
        ]);
        out
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum CliError {
    Help,
    Version,
    Usage(String),
}

fn usage(msg: impl Into<String>) -> CliError {
    CliError::Usage(msg.into())
}

fn number<T: std::str::FromStr>(flag: &str, word: &str) -> Result<T, CliError> {
    word.parse()
        .map_err(|_| usage(format!("{flag}: '{word}' is not a valid number")))
}

/// Time flags above this (about 31 years, the engine's own cap) are refused: every wait the
/// driver derives from them must fit in a `Duration`.
const MAX_SECONDS: f64 = crate::protocol::commands::MAX_SECONDS;

fn seconds(flag: &str, word: &str) -> Result<f64, CliError> {
    let x: f64 = number(flag, word)?;
    if x.is_finite() && x > 0.0 && x <= MAX_SECONDS {
        Ok(x)
    } else {
        Err(usage(format!(
            "{flag}: expected a positive number of seconds up to {MAX_SECONDS}, got '{word}'"
        )))
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

/// The engine a per-engine flag applies to: the last `--engine` before it.
fn last_engine<'a>(
    engines: &'a mut [EngineSpec],
    flag: &str,
) -> Result<&'a mut EngineSpec, CliError> {
    engines
        .last_mut()
        .ok_or_else(|| usage(format!("{flag} must follow the --engine it applies to")))
}

/// The arguments of `--resume DIR`: those saved in `DIR/omega-match.args`, then the
/// overrides given beside `--resume` (only `--concurrency` and `--engine-stderr`).
fn resume_args(args: &[String]) -> Result<Option<Vec<String>>, CliError> {
    let Some(at) = args
        .iter()
        .position(|a| a == "--resume" || a.starts_with("--resume="))
    else {
        return Ok(None);
    };
    let dir = match args[at].split_once('=') {
        Some((_, d)) => d.to_string(),
        None => args
            .get(at + 1)
            .cloned()
            .ok_or_else(|| usage("--resume needs the records directory"))?,
    };
    let used = if args[at].contains('=') { 1 } else { 2 };
    let extra: Vec<String> = args[..at]
        .iter()
        .chain(&args[at + used..])
        .cloned()
        .collect();
    let mut k = 0;
    while k < extra.len() {
        let flag = extra[k]
            .split_once('=')
            .map_or(extra[k].as_str(), |(f, _)| f);
        k += match flag {
            "--engine-stderr" => 1,
            "--concurrency" if !extra[k].contains('=') => 2,
            "--concurrency" => 1,
            other => {
                return Err(usage(format!(
                    "--resume takes its settings from {dir}/{ARGS_FILE}; only --concurrency \
                     and --engine-stderr may be given beside it, not '{other}'"
                )))
            }
        };
    }
    let path = Path::new(&dir).join(ARGS_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        usage(format!(
            "--resume {dir}: cannot read {}: {e} (was the match run with --records {dir}?)",
            path.display()
        ))
    })?;
    let mut saved: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    saved.extend(extra);
    Ok(Some(saved))
}

/// Parses the arguments after the program name. `--flag=value` and `--flag value` both work.
pub fn parse_args(args: &[String]) -> Result<Config, CliError> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return Err(CliError::Help);
    }
    if args.iter().any(|a| a == "-V" || a == "--version") {
        return Err(CliError::Version);
    }
    let (args, resume) = match resume_args(args)? {
        Some(saved) => (saved, true),
        None => (args.to_vec(), false),
    };
    let mut config = Config {
        engines: Vec::new(),
        games: 10,
        game: "omega".into(),
        swap: None,
        random_start: false,
        size: 5,
        players: 2,
        seed: clock_seed(),
        seed_given: false,
        movetime: None,
        game_time: None,
        timeout: 60.0,
        concurrency: 1,
        openings: Openings::None,
        records: None,
        records_file: None,
        append: false,
        resume,
        first_record: 1,
        sprt: None,
        sprt_model: SprtModel::Pentanomial,
        seat: None,
        engine_stderr: false,
        args: args.clone(),
    };
    // Read once every flag is known: the book depends on the size, players and seed.
    let mut book: Option<String> = None;
    let mut book_order_random = false;
    let mut book_turns: Option<usize> = None;
    let mut size_given = false;
    let mut i = 0;
    while i < args.len() {
        let (flag, inline) = match args[i].split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (args[i].clone(), None),
        };
        i += 1;
        let arity = match flag.as_str() {
            "--engine-stderr" | "--append" | "--random-start" => 0,
            "--sprt" => 4,
            "--engine" | "--name" | "--dir" | "--engine-movetime" | "--engine-time" | "--games"
            | "--game" | "--swap" | "--size" | "--players" | "--seed" | "--movetime" | "--time"
            | "--timeout" | "--concurrency" | "--openings" | "--openings-order"
            | "--openings-turns" | "--records" | "--records-file" | "--first-record"
            | "--sprt-model" | "--seat" => 1,
            "--resume" => return Err(usage("--resume is given once, with a directory")),
            other => return Err(usage(format!("unknown option '{other}' (try --help)"))),
        };
        let mut values: Vec<String> = inline.into_iter().collect();
        while values.len() < arity {
            match args.get(i) {
                Some(v) => values.push(v.clone()),
                None => return Err(usage(format!("{flag} needs {arity} value(s)"))),
            }
            i += 1;
        }
        if values.len() != arity {
            return Err(usage(format!("{flag} takes {arity} value(s)")));
        }
        let v = values.first().map(String::as_str).unwrap_or("");
        match flag.as_str() {
            "--engine-stderr" => config.engine_stderr = true,
            "--append" => config.append = true,
            "--random-start" => config.random_start = true,
            "--engine" => {
                let argv = split_words(v).map_err(|e| usage(format!("--engine '{v}': {e}")))?;
                if argv.is_empty() {
                    return Err(usage("--engine: empty command"));
                }
                config.engines.push(EngineSpec {
                    command: v.to_string(),
                    argv,
                    name: None,
                    dir: None,
                    movetime: None,
                    game_time: None,
                });
            }
            "--name" => {
                let e = last_engine(&mut config.engines, &flag)?;
                if v.trim().is_empty() {
                    return Err(usage("--name: empty name"));
                }
                e.name = Some(v.split_whitespace().collect::<Vec<_>>().join("_"));
            }
            "--dir" => {
                let e = last_engine(&mut config.engines, &flag)?;
                if !Path::new(v).is_dir() {
                    return Err(usage(format!("--dir: '{v}' is not a directory")));
                }
                e.dir = Some(PathBuf::from(v));
            }
            "--engine-movetime" => {
                let t = seconds(&flag, v)?;
                last_engine(&mut config.engines, &flag)?.movetime = Some(t);
            }
            "--engine-time" => {
                let t = seconds(&flag, v)?;
                last_engine(&mut config.engines, &flag)?.game_time = Some(t);
            }
            "--games" => config.games = number(&flag, v)?,
            "--size" => {
                config.size = number(&flag, v)?;
                size_given = true;
            }
            "--game" => config.game = v.to_string(),
            "--swap" => {
                config.swap = Some(match v {
                    "on" => true,
                    "off" => false,
                    _ => return Err(usage(format!("--swap: '{v}' is not on or off"))),
                })
            }
            "--players" => config.players = number(&flag, v)?,
            "--seed" => {
                config.seed = number(&flag, v)?;
                config.seed_given = true;
            }
            "--movetime" => config.movetime = Some(seconds(&flag, v)?),
            "--time" => config.game_time = Some(seconds(&flag, v)?),
            "--timeout" => config.timeout = seconds(&flag, v)?,
            "--concurrency" => config.concurrency = number(&flag, v)?,
            "--records" => config.records = Some(PathBuf::from(v)),
            "--records-file" => config.records_file = Some(PathBuf::from(v)),
            "--first-record" => config.first_record = number(&flag, v)?,
            "--openings" => {
                if let Some(turns) = v.strip_prefix("random:") {
                    config.openings = Openings::Random(number(&flag, turns)?);
                    book = None;
                } else if let Some(path) = v.strip_prefix("file:") {
                    book = Some(path.to_string());
                } else {
                    return Err(usage(format!(
                        "--openings: expected random:T or file:PATH, got '{v}'"
                    )));
                }
            }
            "--openings-order" => {
                book_order_random = match v {
                    "random" => true,
                    "sequential" => false,
                    _ => {
                        return Err(usage(format!(
                            "--openings-order: expected sequential or random, got '{v}'"
                        )))
                    }
                }
            }
            "--openings-turns" => book_turns = Some(number(&flag, v)?),
            "--seat" => {
                let seat = Colour::parse(v)
                    .map(Colour::index)
                    .or_else(|| v.parse::<usize>().ok().filter(|&n| n >= 1).map(|n| n - 1));
                config.seat = Some(seat.ok_or_else(|| {
                    usage(format!(
                        "--seat: expected white, black, red, blue or a seat number, got '{v}'"
                    ))
                })?);
            }
            "--sprt-model" => {
                config.sprt_model = match v {
                    "pentanomial" => SprtModel::Pentanomial,
                    "trinomial" => SprtModel::Trinomial,
                    _ => {
                        return Err(usage(format!(
                            "--sprt-model: expected pentanomial or trinomial, got '{v}'"
                        )))
                    }
                }
            }
            "--sprt" => {
                let x: Vec<f64> = values
                    .iter()
                    .map(|w| number(&flag, w))
                    .collect::<Result<_, _>>()?;
                config.sprt = Some(Sprt {
                    elo0: x[0],
                    elo1: x[1],
                    alpha: x[2],
                    beta: x[3],
                });
            }
            _ => unreachable!("flag table and match agree"),
        }
    }
    if let Some(side) = default_size(&config.game).filter(|_| !size_given) {
        config.size = side;
    }
    validate(&config)?;
    if let Some(path) = book {
        if config.game != "omega" {
            return Err(usage("--openings file:PATH is for omega only"));
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| usage(format!("--openings file:{path}: {e}")))?;
        let mut openings = parse_book(&text, config.size, config.players, book_turns)
            .map_err(|e| usage(format!("--openings file:{path}: {e}")))?;
        if book_order_random {
            openings.shuffle(&mut StdRng::seed_from_u64(config.seed));
        }
        config.openings = Openings::Book {
            path: PathBuf::from(path),
            openings,
        };
    } else if book_order_random || book_turns.is_some() {
        return Err(usage(
            "--openings-order and --openings-turns go with --openings file:PATH",
        ));
    }
    Ok(config)
}

fn validate(c: &Config) -> Result<(), CliError> {
    if c.engines.len() < 2 {
        return Err(usage(
            "at least two --engine options are needed (try --help)",
        ));
    }
    if c.game != "omega" {
        check_setup(&c.game_setup(0)).map_err(usage)?;
        if c.players > 2 && c.engines.len() < 2 {
            return Err(usage("at least two --engine options are needed"));
        }
    } else if !Board::side_is_valid(c.size) {
        return Err(usage(format!("--size must be 2..13, got {}", c.size)));
    } else if c.swap.is_some() {
        return Err(usage(
            "--swap is for yavalath and hexed (omega-match referees omega without it)",
        ));
    }
    if c.random_start && c.game != "hexed" {
        return Err(usage(format!(
            "--random-start is for hexed (a game with a start of its own), not {}",
            c.game
        )));
    }
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&c.players) {
        return Err(usage(format!(
            "--players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {}",
            c.players
        )));
    }
    if c.games == 0 {
        return Err(usage("--games must be at least 1"));
    }
    if c.concurrency == 0 {
        return Err(usage("--concurrency must be at least 1"));
    }
    if c.first_record == 0 {
        return Err(usage("--first-record must be at least 1"));
    }
    if c.append && c.records.is_none() && c.records_file.is_none() {
        return Err(usage("--append goes with --records or --records-file"));
    }
    if let (Openings::Random(t), "omega") = (&c.openings, c.game.as_str()) {
        let t = *t;
        let total = Game::new(c.size, c.players)
            .map(|g| g.total_turns())
            .unwrap_or(0);
        if t >= total {
            return Err(usage(format!(
                "--openings random:{t} leaves no turn to play (a game has {total} turns)"
            )));
        }
    }
    if let Some(seat) = c.seat {
        if seat >= c.players {
            return Err(usage(format!(
                "--seat: a game of {} players has no seat {}",
                c.players,
                seat + 1
            )));
        }
        // The test's pairs (and its single games' balance) need every seat.
        if c.sprt.is_some() {
            return Err(usage("--seat and --sprt do not go together"));
        }
        if !(1..=c.games).any(|n| c.holds_seat(n)) {
            return Err(usage(format!(
                "--seat: none of the {} games seats the first engine there (a group is {} games)",
                c.games,
                schedule::group_size(c.engines.len(), c.players)
            )));
        }
    }
    if let Some(s) = c.sprt {
        let ok = |p: f64| p > 0.0 && p < 1.0;
        if !(s.elo0 < s.elo1
            && ok(s.alpha)
            && ok(s.beta)
            && s.elo0.is_finite()
            && s.elo1.is_finite())
        {
            return Err(usage("--sprt needs ELO0 < ELO1 and 0 < ALPHA, BETA < 1"));
        }
        if c.engines.len() != 2 {
            return Err(usage("--sprt needs exactly two engines"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Config, CliError> {
        let args: Vec<String> = split_words(s).unwrap();
        parse_args(&args)
    }

    fn refused(bad: &str) {
        assert!(
            matches!(parse(bad), Err(CliError::Usage(_))),
            "accepted: {bad}"
        );
    }

    #[test]
    fn full_command_line() {
        let c = parse(
            "--engine 'omega --player random' --name rnd --engine=omega --games 20 --size 4 \
             --players 3 --seed 7 --movetime 0.25 --concurrency 2 --openings random:3 \
             --records out --sprt 0 10 0.05 0.1 --engine-stderr",
        );
        // --sprt with two engines is fine; --players 3 too.
        let c = c.unwrap();
        assert_eq!(c.engines[0].argv, ["omega", "--player", "random"]);
        assert_eq!(c.engines[1].argv, ["omega"]);
        assert_eq!(c.engines[0].name.as_deref(), Some("rnd"));
        assert_eq!(c.engines[1].name, None);
        assert_eq!((c.games, c.size, c.players, c.seed), (20, 4, 3, 7));
        assert_eq!(c.movetime, Some(0.25));
        assert_eq!(c.game_time, None);
        assert_eq!(c.concurrency, 2);
        assert_eq!(c.openings, Openings::Random(3));
        assert_eq!(c.records, Some(PathBuf::from("out")));
        assert_eq!(c.sprt.unwrap().beta, 0.1);
        assert!(c.engine_stderr);
    }

    #[test]
    fn help_and_errors() {
        assert_eq!(parse("--engine a --help"), Err(CliError::Help));
        for bad in [
            "--engine a",
            "--engine a --engine b --games",
            "--engine a --engine b --games x",
            "--engine a --engine b --size 14",
            "--engine a --engine b --players 5",
            "--engine a --engine b --movetime -1",
            "--engine a --engine b --time nan",
            "--engine a --engine b --openings book:3",
            "--engine a --engine b --openings random:30",
            "--engine a --engine b --sprt 10 0 0.05 0.05",
            "--engine a --engine b --engine c --sprt 0 10 0.05 0.05",
            "--engine a --engine b --frobnicate",
            "--name x --engine a --engine b",
            "--engine a --engine b --games=0",
            "--engine-stderr=yes --engine a --engine b",
            "--engine a --engine b --seat green",
            "--engine a --engine b --seat 0",
            "--engine a --engine b --seat red",
            "--engine a --engine b --players 3 --seat 4",
            "--engine a --engine b --seat black --sprt 0 10 0.05 0.05",
            "--engine a --engine b --games 1 --seat black",
        ] {
            refused(bad);
        }
        let seat = |s: &str| {
            parse(&format!("--engine a --engine b --players 4 {s}"))
                .unwrap()
                .seat
        };
        assert_eq!(seat("--seat red"), Some(2));
        assert_eq!(seat("--seat=Blue"), Some(3));
        assert_eq!(seat("--seat 2"), Some(1));
        assert_eq!(seat(""), None);
        let args = vec!["--engine".to_string(), "'unterminated".to_string()];
        assert!(matches!(parse_args(&args), Err(CliError::Usage(_))));
    }

    #[test]
    fn per_engine_options_and_saved_arguments() {
        let c = parse(
            "--engine a --name A --dir . --engine-movetime 0.5 --engine b --engine-time 9 \
             --movetime 0.1 --records r --append --sprt-model trinomial --seed=5",
        )
        .unwrap();
        assert_eq!(c.engines[0].dir, Some(PathBuf::from(".")));
        assert_eq!(c.time_control(0).movetime, Some(0.5));
        assert_eq!(c.time_control(1).movetime, Some(0.1));
        assert_eq!(c.time_control(1).game_time, Some(9.0));
        assert_eq!(c.sprt_model, SprtModel::Trinomial);
        assert!(c.append && c.seed_given);
        // Saved for --resume: seed and first record pinned, --append dropped.
        let saved = c.args_to_save();
        assert!(!saved.iter().any(|a| a == "--append" || a == "--seed=5"));
        assert_eq!(
            saved[saved.len() - 4..],
            ["--seed", "5", "--first-record", "1"]
        );
        for bad in [
            "--dir . --engine a --engine b",
            "--engine a --dir /nonexistent/dir --engine b",
            "--engine a --engine b --openings-order random",
            "--engine a --engine b --openings file:/nonexistent/book",
            "--engine a --engine b --sprt-model binomial",
            "--engine a --engine b --append",
            "--engine a --engine b --resume",
        ] {
            refused(bad);
        }
        assert_eq!(parse("--engine a -V"), Err(CliError::Version));
    }
}

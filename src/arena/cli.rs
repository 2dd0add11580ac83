//! The command line of `omega-match`: a small table of flags, parsed by hand.

use super::stats::Sprt;
use super::words::split_words;
use crate::board::Board;
use crate::game::{Game, MAX_PLAYERS, MIN_PLAYERS};
use std::path::PathBuf;

pub const USAGE: &str = "\
usage: omega-match --engine CMD --engine CMD [--engine CMD ...] [options]

Plays games between engines that speak the Omega text protocol, referees them and prints
the score with Elo error bars (like cutechess-cli).

  --engine CMD          an engine's command line, split into words as a shell would
                        (repeat for every engine, at least two)
  --name NAME           name the engine of the --engine before it (default: its answer
                        to 'name', made unique with -2, -3, ...)
  --games N             number of games (default 10)
  --size S              board side, 2..13 (default 5)
  --players K           players per game, 2..4 (default 2)
  --seed X              seed of the openings (default: from the clock, printed)
  --movetime SECONDS    time per turn (sent as time_settings 0 SECONDS 1)
  --time SECONDS        time for the whole game per player (time_left before every genmove)
  --timeout SECONDS     longest wait for a genmove without time control (default 60)
  --concurrency C       games played in parallel (default 1)
  --openings random:T   start each game with T seeded random turns; every opening is
                        played once per seat rotation
  --records DIR         write one replayable transcript per game into DIR
  --sprt ELO0 ELO1 ALPHA BETA
                        stop as soon as the sequential probability ratio test decides
                        (two engines only)
  --engine-stderr       let the engines' stderr through (default: discarded)
  -h, --help            print this help

Seats are filled from the engines round-robin and rotated every game, so each engine plays
each seat equally often over every cycle of (number of engines) games.
";

#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The command line as given.
    pub command: String,
    pub argv: Vec<String>,
    /// Given with `--name`; otherwise the engine's answer to `name`.
    pub name: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Openings {
    None,
    /// This many seeded random turns.
    Random(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub engines: Vec<EngineSpec>,
    pub games: usize,
    pub size: usize,
    pub players: usize,
    pub seed: u64,
    pub movetime: Option<f64>,
    pub game_time: Option<f64>,
    pub timeout: f64,
    pub concurrency: usize,
    pub openings: Openings,
    pub records: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    pub engine_stderr: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CliError {
    Help,
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

/// Parses the arguments after the program name. `--flag=value` and `--flag value` both work.
pub fn parse_args(args: &[String]) -> Result<Config, CliError> {
    let mut config = Config {
        engines: Vec::new(),
        games: 10,
        size: 5,
        players: 2,
        seed: clock_seed(),
        movetime: None,
        game_time: None,
        timeout: 60.0,
        concurrency: 1,
        openings: Openings::None,
        records: None,
        sprt: None,
        engine_stderr: false,
    };
    let mut i = 0;
    while i < args.len() {
        let (flag, inline) = match args[i].split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (args[i].clone(), None),
        };
        i += 1;
        let arity = match flag.as_str() {
            "-h" | "--help" => return Err(CliError::Help),
            "--engine-stderr" => 0,
            "--sprt" => 4,
            "--engine" | "--name" | "--games" | "--size" | "--players" | "--seed"
            | "--movetime" | "--time" | "--timeout" | "--concurrency" | "--openings"
            | "--records" => 1,
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
            "--engine" => {
                let argv = split_words(v).map_err(|e| usage(format!("--engine '{v}': {e}")))?;
                if argv.is_empty() {
                    return Err(usage("--engine: empty command"));
                }
                config.engines.push(EngineSpec {
                    command: v.to_string(),
                    argv,
                    name: None,
                });
            }
            "--name" => match config.engines.last_mut() {
                Some(e) if !v.trim().is_empty() => {
                    e.name = Some(v.split_whitespace().collect::<Vec<_>>().join("_"))
                }
                Some(_) => return Err(usage("--name: empty name")),
                None => return Err(usage("--name must follow the --engine it names")),
            },
            "--games" => config.games = number(&flag, v)?,
            "--size" => config.size = number(&flag, v)?,
            "--players" => config.players = number(&flag, v)?,
            "--seed" => config.seed = number(&flag, v)?,
            "--movetime" => config.movetime = Some(seconds(&flag, v)?),
            "--time" => config.game_time = Some(seconds(&flag, v)?),
            "--timeout" => config.timeout = seconds(&flag, v)?,
            "--concurrency" => config.concurrency = number(&flag, v)?,
            "--records" => config.records = Some(PathBuf::from(v)),
            "--openings" => {
                let turns = v
                    .strip_prefix("random:")
                    .ok_or_else(|| usage(format!("--openings: expected random:T, got '{v}'")))?;
                config.openings = Openings::Random(number(&flag, turns)?);
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
    validate(&config)?;
    Ok(config)
}

fn validate(c: &Config) -> Result<(), CliError> {
    if c.engines.len() < 2 {
        return Err(usage(
            "at least two --engine options are needed (try --help)",
        ));
    }
    if !Board::side_is_valid(c.size) {
        return Err(usage(format!("--size must be 2..13, got {}", c.size)));
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
    if let Openings::Random(t) = c.openings {
        let total = Game::new(c.size, c.players)
            .map(|g| g.total_turns())
            .unwrap_or(0);
        if t >= total {
            return Err(usage(format!(
                "--openings random:{t} leaves no turn to play (a game has {total} turns)"
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
        ] {
            assert!(
                matches!(parse(bad), Err(CliError::Usage(_))),
                "accepted: {bad}"
            );
        }
        let args = vec!["--engine".to_string(), "'unterminated".to_string()];
        assert!(matches!(parse_args(&args), Err(CliError::Usage(_))));
    }
}

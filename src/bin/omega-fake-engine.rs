//! A fake engine for testing `omega-match`: it speaks the protocol, plays uniformly random
//! legal turns from a seed, and can be told to misbehave at its N-th genmove of a game.
//!
//! ```text
//! omega-fake-engine [--seed X] [--name NAME] [--delay SECONDS]
//!                   [--crash-at N | --illegal-at N | --garbage-at N | --hang-at N]
//!                   [--startup-delay SECONDS] [--fail-at-start MESSAGE]
//! ```
//!
//! `--startup-delay` waits before reading any command (a slow start); `--fail-at-start`
//! writes MESSAGE to stderr and exits with status 4 before reading any command. With
//! `--time-used FRACTION` a genmove under `time_settings 0 T 1` sleeps FRACTION of T.

use omega::board::Cell;
use omega::game::{Colour, Game};
use omega::player::random_turn_with;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Default)]
struct Options {
    seed: u64,
    name: String,
    delay: f64,
    crash_at: Option<usize>,
    illegal_at: Option<usize>,
    garbage_at: Option<usize>,
    hang_at: Option<usize>,
    startup_delay: f64,
    fail_at_start: Option<String>,
    time_used: f64,
}

fn options() -> Options {
    let mut o = Options {
        name: "fake".into(),
        ..Options::default()
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.chunks(2);
    while let Some([flag, value]) = it.next() {
        let n = || value.parse::<usize>().ok();
        match flag.as_str() {
            "--seed" => o.seed = value.parse().unwrap_or(0),
            "--name" => o.name = value.clone(),
            "--delay" => o.delay = value.parse().unwrap_or(0.0),
            "--crash-at" => o.crash_at = n(),
            "--illegal-at" => o.illegal_at = n(),
            "--garbage-at" => o.garbage_at = n(),
            "--hang-at" => o.hang_at = n(),
            "--startup-delay" => o.startup_delay = value.parse().unwrap_or(0.0),
            "--fail-at-start" => o.fail_at_start = Some(value.clone()),
            "--time-used" => o.time_used = value.parse().unwrap_or(0.0),
            _ => {
                eprintln!("omega-fake-engine: unknown option {flag}");
                std::process::exit(2);
            }
        }
    }
    o
}

fn main() {
    let o = options();
    if let Some(message) = &o.fail_at_start {
        eprintln!("omega-fake-engine: starting");
        eprintln!("omega-fake-engine: {message}");
        std::process::exit(4);
    }
    std::thread::sleep(Duration::from_secs_f64(o.startup_delay));
    // Seconds a turn under `time_settings 0 T 1`, when set.
    let mut movetime = 0.0;
    let mut rng = StdRng::seed_from_u64(o.seed);
    let (mut side, mut players) = (5, 2);
    let mut game = Game::new(side, players).expect("default set-up");
    let mut genmoves = 0;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.split('#').next().unwrap_or("").trim().to_string();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let id = if words[0].chars().all(|c| c.is_ascii_digit()) {
            words.remove(0)
        } else {
            ""
        };
        let Some((&cmd, args)) = words.split_first() else {
            continue;
        };
        let answer: Result<String, String> = match cmd {
            "name" => Ok(o.name.clone()),
            "version" => Ok("0".into()),
            "protocol_version" => Ok("2".into()),
            "quit" => {
                let _ = write!(out, "={id}\n\n");
                let _ = out.flush();
                return;
            }
            "boardsize" | "players" | "clear_board" => {
                let n = args.first().and_then(|a| a.parse().ok());
                let (new_side, new_players) = match (cmd, n) {
                    ("boardsize", Some(n)) => (n, players),
                    ("players", Some(n)) => (side, n),
                    _ => (side, players),
                };
                // A refused set-up changes nothing.
                Game::new(new_side, new_players)
                    .map(|g| {
                        (game, side, players, genmoves) = (g, new_side, new_players, 0);
                        String::new()
                    })
                    .map_err(|e| format!("{e:?}"))
            }
            "time_settings" => {
                let byo = args.get(1).and_then(|a| a.parse::<f64>().ok());
                movetime = byo.filter(|b| b.is_finite() && *b >= 0.0).unwrap_or(0.0);
                Ok(String::new())
            }
            "time_left" => Ok(String::new()),
            "play" => play(&mut game, args),
            "genmove" => {
                genmoves += 1;
                std::thread::sleep(Duration::from_secs_f64(o.delay + o.time_used * movetime));
                if o.crash_at == Some(genmoves) {
                    std::process::exit(3);
                }
                if o.hang_at == Some(genmoves) {
                    std::thread::sleep(Duration::from_secs(3600));
                }
                if o.garbage_at == Some(genmoves) {
                    Ok("what is this".into())
                } else if o.illegal_at == Some(genmoves) {
                    // The same cell for every colour: never legal.
                    let c = game.empties()[0];
                    Ok(vec![game.board().name(c); players].join(" "))
                } else {
                    genmove(&mut game, &mut rng, args)
                }
            }
            "final_score" => {
                let (w, margin) = game.winner();
                Ok(format!("{w}+{margin}"))
            }
            _ => Err("unknown command".into()),
        };
        let _ = match answer {
            Ok(body) if body.is_empty() => write!(out, "={id}\n\n"),
            Ok(body) => write!(out, "={id} {body}\n\n"),
            Err(e) => write!(out, "?{id} {e}\n\n"),
        };
        let _ = out.flush();
    }
}

fn play(game: &mut Game, args: &[&str]) -> Result<String, String> {
    let (colour, cells) = args.split_first().ok_or("missing colour")?;
    let colour = Colour::parse(colour).ok_or("bad colour")?;
    let cells: Vec<Cell> = cells
        .iter()
        .map(|w| game.board().parse(w).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    game.play_turn(colour, &cells).map_err(|e| e.to_string())?;
    Ok(String::new())
}

fn genmove(game: &mut Game, rng: &mut StdRng, args: &[&str]) -> Result<String, String> {
    let colour = args
        .first()
        .and_then(|c| Colour::parse(c))
        .ok_or("bad colour")?;
    if game.is_over() {
        return Err("game is over".into());
    }
    let cells = random_turn_with(game, rng);
    game.play_turn(colour, &cells).map_err(|e| e.to_string())?;
    let names: Vec<String> = cells.iter().map(|&c| game.board().name(c)).collect();
    Ok(names.join(" "))
}

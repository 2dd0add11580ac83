//! Runs a whole match: finds the engines' names, plays the games on `concurrency` worker
//! threads, writes records, prints progress and the summary, and stops early on a decided
//! SPRT or an interrupt.
//!
//! Engine processes are kept in a pool per engine and reused from game to game (with
//! `clear_board`); a process that faulted is killed and a fresh one started when needed.

use super::cli::{Config, Openings};
use super::engine_proc::EngineProc;
use super::records::{self, RecordHeader};
use super::referee::{self, Ending, Outcome, TimeControl};
use super::schedule;
use super::stats::SprtDecision;
use super::tally::Tally;
use crate::game::{Colour, Game};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// Exit codes.
pub const EXIT_OK: i32 = 0;
pub const EXIT_SETUP: i32 = 1;
pub const EXIT_INTERRUPTED: i32 = 130;
/// A game worker failed (a bug of the driver, not of an engine): EX_SOFTWARE.
pub const EXIT_INTERNAL: i32 = 70;

/// One finished game, sent from a worker to the main thread.
struct Finished {
    number: usize,
    seats: Vec<usize>,
    outcome: Outcome,
}

/// Names made unique: a name seen before gets `-2`, `-3`, ... appended.
pub fn unique_names(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        let mut candidate = name.clone();
        let mut k = 1;
        while out.contains(&candidate) {
            k += 1;
            candidate = format!("{name}-{k}");
        }
        out.push(candidate);
    }
    out
}

struct Shared {
    config: Config,
    names: Vec<String>,
    time: TimeControl,
    pool: Mutex<Vec<Vec<EngineProc>>>,
    next_game: AtomicUsize,
    stop: AtomicBool,
}

/// Starts every engine once to ask its name; the processes go into the pool.
fn probe(
    config: &Config,
    stop: &AtomicBool,
) -> Result<(Vec<String>, Vec<Vec<EngineProc>>), String> {
    let mut names = Vec::new();
    let mut pool = Vec::new();
    for spec in &config.engines {
        let mut p = EngineProc::spawn(&spec.argv, config.engine_stderr)
            .map_err(|e| format!("cannot start engine '{}': {e}", spec.command))?;
        let answer = p
            .command("name", referee::COMMAND_LIMIT, stop)
            .map_err(|f| format!("engine '{}' {f} on 'name'", spec.command))?;
        let name = match &spec.name {
            Some(n) => n.clone(),
            None => answer.split_whitespace().collect::<Vec<_>>().join("_"),
        };
        names.push(if name.is_empty() {
            "engine".into()
        } else {
            name
        });
        pool.push(vec![p]);
    }
    Ok((unique_names(&names), pool))
}

fn play_one(shared: &Shared, number: usize) -> Option<Finished> {
    let c = &shared.config;
    let engines = c.engines.len();
    let seats = schedule::seats(number - 1, engines, c.players);
    let opening = match c.openings {
        Openings::None => Vec::new(),
        Openings::Random(t) => {
            let index = schedule::opening_index(number - 1, engines);
            schedule::random_opening(c.seed, index, c.size, c.players, t)
        }
    };
    let mut procs = Vec::new();
    let mut failed = None;
    for (seat, &e) in seats.iter().enumerate() {
        let pooled = shared.pool.lock().expect("pool lock")[e].pop();
        match pooled.map_or_else(
            || EngineProc::spawn(&c.engines[e].argv, c.engine_stderr),
            Ok,
        ) {
            Ok(p) => procs.push(p),
            Err(err) => {
                failed = Some((seat, err));
                break;
            }
        }
    }
    let outcome = match failed {
        Some((seat, err)) => {
            let game = Game::new(c.size, c.players).expect("validated set-up");
            let reason = format!("{} failed to start: {err}", Colour::from_index(seat));
            let zero = vec![Duration::ZERO; c.players];
            Some(referee::forfeit(&game, 0, seat, reason, zero))
        }
        None => referee::play_game(&mut procs, c.size, &shared.time, &opening, &shared.stop),
    };
    let forfeit_seat = match outcome.as_ref().map(|o| &o.ending) {
        Some(Ending::Forfeit { seat, .. }) => Some(*seat),
        _ => None,
    };
    for (seat, p) in procs.into_iter().enumerate() {
        if p.is_healthy() && forfeit_seat != Some(seat) && outcome.is_some() {
            shared.pool.lock().expect("pool lock")[seats[seat]].push(p);
        }
        // Otherwise dropping the process kills it; a fresh one starts next game.
    }
    let outcome = outcome?;
    if let Some(dir) = &c.records {
        let header = RecordHeader {
            game_number: number,
            games: c.games,
            seats: seats
                .iter()
                .map(|&e| (shared.names[e].as_str(), c.engines[e].command.as_str()))
                .collect(),
            size: c.size,
            opening: match c.openings {
                Openings::None => None,
                Openings::Random(_) => Some(format!(
                    "random opening {} of seed {}",
                    schedule::opening_index(number - 1, engines) + 1,
                    c.seed
                )),
            },
        };
        let text = records::render(&header, &outcome);
        if let Err(e) = records::write_atomic(dir, &records::file_name(number), &text) {
            eprintln!("omega-match: cannot write the record of game {number}: {e}");
        }
    }
    Some(Finished {
        number,
        seats,
        outcome,
    })
}

fn progress_line(shared: &Shared, f: &Finished) -> String {
    let who: Vec<String> = f
        .seats
        .iter()
        .enumerate()
        .map(|(k, &e)| format!("{} {}", Colour::from_index(k), shared.names[e]))
        .collect();
    let w = f.outcome.winner;
    let how = match &f.outcome.ending {
        Ending::Finished => records::result_text(&f.outcome),
        Ending::Forfeit { reason, .. } => format!("forfeit: {reason}"),
    };
    format!(
        "Finished game {} of {} ({}): {w} {} wins {{{how}}}",
        f.number,
        shared.config.games,
        who.join(", "),
        shared.names[f.seats[w.index()]]
    )
}

/// Runs the match. `interrupt` is set by the Ctrl-C handler. Returns the exit code.
pub fn run(config: Config, interrupt: Arc<AtomicBool>) -> i32 {
    let never = AtomicBool::new(false);
    let (names, pool) = match probe(&config, &never) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("omega-match: {e}");
            return EXIT_SETUP;
        }
    };
    if let Some(dir) = &config.records {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("omega-match: cannot create {}: {e}", dir.display());
            return EXIT_SETUP;
        }
    }
    let engines = names.len();
    println!(
        "omega-match: {} games, size {}, {} players, seed {}{}",
        config.games,
        config.size,
        config.players,
        config.seed,
        match config.openings {
            Openings::Random(t) => format!(", openings random:{t}"),
            Openings::None => String::new(),
        }
    );
    for (name, spec) in names.iter().zip(&config.engines) {
        println!("Engine {name}: {}", spec.command);
    }
    if !config.games.is_multiple_of(schedule::rotation(engines)) {
        eprintln!(
            "omega-match: note: {} games is not a multiple of {engines}; seats are balanced \
             only over whole rotations",
            config.games
        );
    }
    let time = TimeControl {
        movetime: config.movetime,
        game_time: config.game_time,
        timeout: config.timeout,
    };
    let workers = config.concurrency.min(config.games);
    let shared = Arc::new(Shared {
        config,
        names,
        time,
        pool: Mutex::new(pool),
        next_game: AtomicUsize::new(1),
        stop: AtomicBool::new(false),
    });
    let (tx, rx) = mpsc::channel::<Finished>();
    let mut handles = Vec::new();
    for _ in 0..workers {
        let shared = Arc::clone(&shared);
        let tx = tx.clone();
        handles.push(thread::spawn(move || {
            while !shared.stop.load(Ordering::SeqCst) {
                let number = shared.next_game.fetch_add(1, Ordering::SeqCst);
                if number > shared.config.games {
                    break;
                }
                match play_one(&shared, number) {
                    Some(f) => {
                        if tx.send(f).is_err() {
                            break;
                        }
                    }
                    None => break,
                }
            }
        }));
    }
    drop(tx);

    let mut tally = Tally::new(shared.names.clone());
    let sprt = shared.config.sprt;
    let mut interrupted = false;
    loop {
        if interrupt.load(Ordering::SeqCst) && !interrupted {
            interrupted = true;
            shared.stop.store(true, Ordering::SeqCst);
            eprintln!("omega-match: interrupted, stopping the games in progress");
        }
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(f) => {
                let forfeit = match &f.outcome.ending {
                    Ending::Forfeit { seat, .. } => Some(*seat),
                    Ending::Finished => None,
                };
                tally.add(&f.seats, f.outcome.winner.index(), forfeit);
                println!("{}", progress_line(&shared, &f));
                if engines == 2 {
                    println!("{}", tally.score_line());
                }
                if let Some(s) = &sprt {
                    if s.decision(&tally.pair) != SprtDecision::Continue
                        && !shared.stop.swap(true, Ordering::SeqCst)
                    {
                        println!("{}", tally.sprt_line(s));
                    }
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    // A worker that panicked is a bug of the driver: the run must not look successful.
    let panicked = handles
        .into_iter()
        .map(|h| h.join())
        .filter(Result::is_err)
        .count();
    let pool = std::mem::take(&mut *shared.pool.lock().expect("pool lock"));
    for p in pool.into_iter().flatten() {
        p.quit();
    }
    println!();
    println!(
        "{} after {} games",
        if interrupted {
            "Match interrupted"
        } else {
            "Match finished"
        },
        tally.games()
    );
    print!("{}", tally.summary(sprt.as_ref()));
    if panicked > 0 {
        eprintln!("omega-match: internal error: {panicked} game worker(s) failed");
        EXIT_INTERNAL
    } else if interrupted {
        EXIT_INTERRUPTED
    } else {
        EXIT_OK
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_made_unique() {
        let names: Vec<String> = ["omega", "omega", "x", "omega"].map(String::from).to_vec();
        assert_eq!(
            super::unique_names(&names),
            ["omega", "omega-2", "x", "omega-3"]
        );
    }
}

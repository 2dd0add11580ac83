//! Runs a whole match: prepares the records, finds the engines' names, takes in the games a
//! resumed match already played, plays the others on `concurrency` worker threads, writes
//! records, prints progress and the summary, and stops early on a decided SPRT, an interrupt
//! or a closed stdout.
//!
//! Engine processes are kept in a pool per engine and reused from game to game (with
//! `clear_board`); a process that faulted is killed and a fresh one started when needed.
//!
//! Nothing here panics on an I/O error: stdout and stderr are written through [`Out`] and
//! [`note`], which take a failed write as the reader having gone.

use super::cli::{Config, Openings, ARGS_FILE};
use super::engine_proc::{EngineProc, Fault};
use super::game_referee;
use super::records::{self, RecordHeader};
use super::referee::{self, Ending, Outcome, TimeControl};
use super::schedule;
use super::stats::SprtDecision;
use super::tally::Tally;
use crate::board::Cell;
use crate::game::{Colour, Game};
use std::collections::BTreeSet;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

/// Exit codes.
pub const EXIT_OK: i32 = 0;
pub const EXIT_SETUP: i32 = 1;
pub const EXIT_INTERRUPTED: i32 = 130;
/// A game worker failed (a bug of the driver, not of an engine): EX_SOFTWARE.
pub const EXIT_INTERNAL: i32 = 70;
/// Stdout was closed (`omega-match ... | head`): the match stopped, as a program killed by
/// SIGPIPE would report in a shell (128 + 13).
pub const EXIT_OUTPUT_CLOSED: i32 = 141;

/// A message on stderr, `omega-match: ` first. A closed stderr is ignored: there is no one
/// left to tell.
pub fn note(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "omega-match: {message}");
}

/// Stdout, line by line, flushed at once. After a failed write (the reader is gone) it
/// writes nothing more and [`Out::closed`] says so.
#[derive(Default)]
pub struct Out {
    closed: bool,
}

impl Out {
    pub fn line(&mut self, text: &str) {
        if self.closed {
            return;
        }
        let mut stdout = std::io::stdout().lock();
        if writeln!(stdout, "{text}")
            .and_then(|_| stdout.flush())
            .is_err()
        {
            self.closed = true;
        }
    }

    pub fn closed(&self) -> bool {
        self.closed
    }
}

/// What a worker reports to the main thread.
enum Event {
    Started {
        number: usize,
        seats: Vec<usize>,
    },
    Finished {
        number: usize,
        seats: Vec<usize>,
        outcome: Box<Outcome>,
        record: String,
    },
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
    /// The colour of each seat at the start of a game.
    colours: Vec<String>,
    /// Per engine.
    times: Vec<TimeControl>,
    pool: Mutex<Vec<Vec<EngineProc>>>,
    /// The game numbers to play, and the index of the next one to take.
    pending: Vec<usize>,
    next: AtomicUsize,
    stop: AtomicBool,
    /// Per engine, the largest peak memory (KiB) of its processes that have ended.
    peak_kib: Mutex<Vec<u64>>,
}

/// A lock that survives a panicked holder (the data are plain counters and processes).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// Notes the peak memory of `p`, an engine `e` process about to end.
    fn note_peak(&self, e: usize, p: &EngineProc) {
        if let Some(kib) = p.peak_memory_kib() {
            let mut peaks = lock(&self.peak_kib);
            peaks[e] = peaks[e].max(kib);
        }
    }
}

/// `Fault` on start-up, with the last lines the engine wrote to stderr.
fn startup_failure(command: &str, fault: &Fault, p: &mut EngineProc) -> String {
    let mut message = format!("engine '{command}' {fault} on 'name'");
    let tail = p.stderr_tail();
    if tail.is_empty() {
        message += " (it wrote nothing to stderr)";
    } else {
        message += "; the last lines of its stderr:";
        for line in tail {
            message += "\n  ";
            message += &line;
        }
    }
    message
}

/// Starts every engine once to ask its name; the processes go into the pool.
fn probe(
    config: &Config,
    stop: &AtomicBool,
) -> Result<(Vec<String>, Vec<Vec<EngineProc>>), String> {
    let mut names = Vec::new();
    let mut pool = Vec::new();
    for (e, spec) in config.engines.iter().enumerate() {
        let mut p = EngineProc::spawn_in(&spec.argv, spec.dir.as_deref(), config.engine_stderr)
            .map_err(|err| format!("cannot start engine '{}': {err}", spec.command))?;
        let limit = config.time_control(e).command_limit();
        let answer = match p.command("name", limit, stop) {
            Ok(a) => a,
            Err(f) => return Err(startup_failure(&spec.command, &f, &mut p)),
        };
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

/// The opening of game `number` and how the record describes it.
fn opening(c: &Config, number: usize) -> (Vec<Vec<Cell>>, Option<String>) {
    let group = schedule::group(number - 1, c.engines.len(), c.players);
    match &c.openings {
        Openings::None => (Vec::new(), None),
        Openings::Random(t) => (
            schedule::random_opening(c.seed, group, c.size, c.players, *t),
            Some(format!("random opening {} of seed {}", group + 1, c.seed)),
        ),
        Openings::Book { path, openings } => {
            let k = group % openings.len();
            (
                openings[k].clone(),
                Some(format!("opening {} of {}", k + 1, path.display())),
            )
        }
    }
}

fn play_one(shared: &Shared, number: usize, events: &Sender<Event>) -> Option<()> {
    let c = &shared.config;
    let engines = c.engines.len();
    let seats = schedule::seats(number - 1, engines, c.players);
    let (opening, opening_text) = opening(c, number);
    let _ = events.send(Event::Started {
        number,
        seats: seats.clone(),
    });
    let mut procs = Vec::new();
    let mut failed = None;
    for (seat, &e) in seats.iter().enumerate() {
        let pooled = lock(&shared.pool)[e].pop();
        let spec = &c.engines[e];
        match pooled.map_or_else(
            || EngineProc::spawn_in(&spec.argv, spec.dir.as_deref(), c.engine_stderr),
            Ok,
        ) {
            Ok(p) => procs.push(p),
            Err(err) => {
                failed = Some((seat, err));
                break;
            }
        }
    }
    let times: Vec<TimeControl> = seats.iter().map(|&e| shared.times[e]).collect();
    let group = schedule::group(number - 1, engines, c.players);
    let other_game = (c.game != "omega").then(|| c.game_setup(group));
    let outcome = match (failed, other_game) {
        (Some((seat, err)), Some(setup)) => {
            let reason = format!("{} failed to start: {err}", shared.colours[seat]);
            game_referee::failed_start(&setup, seat, reason)
        }
        (None, Some(setup)) => game_referee::play_game(&setup, &mut procs, &times, &shared.stop),
        (Some((seat, err)), None) => {
            let game = Game::new(c.size, c.players).expect("validated set-up");
            let reason = format!("{} failed to start: {err}", shared.colours[seat]);
            let zero = vec![Duration::ZERO; c.players];
            Some(referee::forfeit(&game, 0, seat, reason, zero))
        }
        (None, None) => referee::play_game(&mut procs, c.size, &times, &opening, &shared.stop),
    };
    let forfeit_seat = match outcome.as_ref().map(|o| &o.ending) {
        Some(Ending::Forfeit { seat, .. }) => Some(*seat),
        _ => None,
    };
    for (seat, p) in procs.into_iter().enumerate() {
        if p.is_healthy() && forfeit_seat != Some(seat) && outcome.is_some() {
            lock(&shared.pool)[seats[seat]].push(p);
        } else {
            // Dropping the process kills it; a fresh one starts next game.
            shared.note_peak(seats[seat], &p);
        }
    }
    let outcome = outcome?;
    let header = RecordHeader {
        game_number: number,
        games: c.games,
        seats: seats
            .iter()
            .map(|&e| (shared.names[e].as_str(), c.engines[e].command.as_str()))
            .collect(),
        size: c.size,
        opening: opening_text,
    };
    let record = records::render(&header, &outcome);
    events
        .send(Event::Finished {
            number,
            seats,
            outcome: Box::new(outcome),
            record,
        })
        .ok()
}

fn seat_list(shared: &Shared, seats: &[usize]) -> String {
    let who: Vec<String> = seats
        .iter()
        .enumerate()
        .map(|(k, &e)| format!("{} {}", shared.colours[k], shared.names[e]))
        .collect();
    who.join(", ")
}

fn progress_line(shared: &Shared, number: usize, seats: &[usize], outcome: &Outcome) -> String {
    let how = match &outcome.ending {
        Ending::Finished => outcome.result.clone(),
        Ending::Forfeit { reason, .. } => format!("forfeit: {reason}"),
    };
    let who = match outcome.winner_seat {
        Some(w) => format!("{} {} wins", outcome.winner, shared.names[seats[w]]),
        None => "draw".into(),
    };
    format!(
        "Finished game {number} of {} ({}): {who} {{{how}}}",
        shared.config.games,
        seat_list(shared, seats),
    )
}

/// Checks and prepares where the records go: a records directory or file that already holds
/// records is refused unless `--append` (the numbering then goes on after them) or
/// `--resume`. Saves the arguments for `--resume`. Returns the set-up error, if any.
fn prepare_records(config: &mut Config) -> Result<(), String> {
    if let Some(dir) = &config.records {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let existing =
            records::list(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        if let Some(&(last, _)) = existing.last() {
            if config.append {
                config.first_record = config.first_record.max(last + 1);
            } else if !config.resume {
                return Err(format!(
                    "{} already holds {} records: give --append to add this match's after \
                     them, --resume {} to continue their match, or another directory",
                    dir.display(),
                    existing.len(),
                    dir.display()
                ));
            }
        }
        if !config.resume {
            let mut text = format!(
                "# The arguments of this match: `omega-match --resume {}` continues it.\n",
                dir.display()
            );
            for arg in config.args_to_save() {
                text += &arg;
                text.push('\n');
            }
            records::write_atomic(dir, ARGS_FILE, &text)
                .map_err(|e| format!("cannot write {}/{ARGS_FILE}: {e}", dir.display()))?;
        }
    }
    if let Some(path) = &config.records_file {
        let used = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
        if used && !config.append && !config.resume {
            return Err(format!(
                "{} is not empty: give --append to add this match's games to it, or \
                 another file",
                path.display()
            ));
        }
    }
    Ok(())
}

/// The games of a resumed match that its records directory already holds, counted into
/// `tally`. Returns their numbers.
fn resume_games(
    config: &Config,
    names: &[String],
    tally: &mut Tally,
) -> Result<BTreeSet<usize>, String> {
    let mut done = BTreeSet::new();
    let Some(dir) = &config.records else {
        return Ok(done);
    };
    let engines = config.engines.len();
    let files = records::list(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for (file_number, path) in files {
        if file_number < config.first_record {
            continue; // records of an earlier match in the same directory
        }
        let number = file_number - config.first_record + 1;
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let r = records::read_result(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let seats = schedule::seats(number - 1, engines, config.players);
        let expected: Vec<&str> = seats.iter().map(|&e| names[e].as_str()).collect();
        if r.game_number != number || r.names != expected || number > config.games {
            return Err(format!(
                "{} is not game {number} of this match (it seats {}; this match would seat {})",
                path.display(),
                r.names.join(", "),
                expected.join(", ")
            ));
        }
        let group = schedule::group(number - 1, engines, config.players);
        let size = schedule::group_size(engines, config.players);
        tally.add_in_group(group, size, &seats, r.winner_seat, r.forfeit_seat);
        done.insert(number);
    }
    Ok(done)
}

/// The longest turn of the match as a fraction of its budget: (fraction, engine, game).
#[derive(Default)]
struct WorstTurn {
    fraction: f64,
    engine: usize,
    game: usize,
}

/// Runs the match. `interrupt` is set by the Ctrl-C handler. Returns the exit code.
pub fn run(mut config: Config, interrupt: Arc<AtomicBool>) -> i32 {
    let mut out = Out::default();
    if let Err(e) = prepare_records(&mut config) {
        note(&e);
        return EXIT_SETUP;
    }
    let never = AtomicBool::new(false);
    let (names, pool) = match probe(&config, &never) {
        Ok(x) => x,
        Err(e) => {
            note(&e);
            return EXIT_SETUP;
        }
    };
    let engines = names.len();
    let group_size = schedule::group_size(engines, config.players);
    let mut tally = Tally::new(names.clone());
    let colours = match config.game.as_str() {
        "omega" => (0..config.players)
            .map(|k| Colour::from_index(k).to_string())
            .collect(),
        _ => game_referee::check_setup(&config.game_setup(0)).unwrap_or_default(),
    };
    tally.seat_names = colours.clone();
    let done = match resume_games(&config, &names, &mut tally) {
        Ok(d) => d,
        Err(e) => {
            note(&e);
            return EXIT_SETUP;
        }
    };
    out.line(&format!(
        "omega-match: {} games, size {}, {} players, seed {}{}",
        config.games,
        config.size,
        config.players,
        config.seed,
        match &config.openings {
            Openings::Random(t) => format!(", openings random:{t}"),
            Openings::Book { path, openings } => format!(
                ", openings file:{} ({} openings)",
                path.display(),
                openings.len()
            ),
            Openings::None => String::new(),
        }
    ));
    for (e, (name, spec)) in names.iter().zip(&config.engines).enumerate() {
        let t = config.time_control(e);
        let odds = if spec.movetime.is_some() || spec.game_time.is_some() {
            let parts: Vec<String> = [("movetime", t.movetime), ("time", t.game_time)]
                .iter()
                .filter_map(|(k, v)| v.map(|v| format!("{k} {}", referee::secs(v))))
                .collect();
            format!(" [{}]", parts.join(", "))
        } else {
            String::new()
        };
        out.line(&format!("Engine {name}: {}{odds}", spec.command));
    }
    if !done.is_empty() {
        out.line(&format!(
            "Resumed: {} games of {} already played",
            done.len(),
            config.games
        ));
        if engines == 2 {
            out.line(&tally.score_line());
        }
    }
    let cycle = schedule::cycle(engines, config.players);
    if !config.games.is_multiple_of(cycle) {
        note(&format!(
            "note: {} games is not a multiple of {cycle}; seats and pairs are balanced only \
             over whole cycles of {cycle} games",
            config.games
        ));
    }
    let sprt = config.sprt.map(|s| (s, config.sprt_model));
    let decided =
        |t: &Tally| sprt.is_some_and(|(s, m)| t.sprt_decision(&s, m) != SprtDecision::Continue);
    // The games of the schedule this run plays: all, or under `--seat` those of one seat.
    let scheduled: Vec<usize> = (1..=config.games)
        .filter(|&n| config.holds_seat(n))
        .collect();
    if let Some(seat) = config.seat {
        out.line(&format!(
            "Seat: only the {} games of {} in which {} is {}",
            scheduled.len(),
            config.games,
            names[0],
            colours[seat]
        ));
    }
    let pending: Vec<usize> = if decided(&tally) {
        Vec::new()
    } else {
        scheduled
            .into_iter()
            .filter(|n| !done.contains(n))
            .collect()
    };
    let workers = config.concurrency.min(pending.len());
    let times = (0..engines).map(|e| config.time_control(e)).collect();
    let shared = Arc::new(Shared {
        config,
        names,
        colours,
        times,
        pool: Mutex::new(pool),
        pending,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        peak_kib: Mutex::new(vec![0; engines]),
    });
    let (tx, rx) = mpsc::channel::<Event>();
    let mut handles = Vec::new();
    for _ in 0..workers {
        let shared = Arc::clone(&shared);
        let tx = tx.clone();
        handles.push(thread::spawn(move || {
            while !shared.stop.load(Ordering::SeqCst) {
                let index = shared.next.fetch_add(1, Ordering::SeqCst);
                let Some(&number) = shared.pending.get(index) else {
                    break;
                };
                if play_one(&shared, number, &tx).is_none() {
                    break;
                }
            }
        }));
    }
    drop(tx);

    let c = &shared.config;
    let mut interrupted = false;
    let mut worst = WorstTurn::default();
    loop {
        if interrupt.load(Ordering::SeqCst) && !interrupted {
            interrupted = true;
            shared.stop.store(true, Ordering::SeqCst);
            note("interrupted, stopping the games in progress");
        }
        if out.closed() {
            shared.stop.store(true, Ordering::SeqCst);
        }
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(Event::Started { number, seats }) => out.line(&format!(
                "Started game {number} of {} ({})",
                c.games,
                seat_list(&shared, &seats)
            )),
            Ok(Event::Finished {
                number,
                seats,
                outcome,
                record,
            }) => {
                let file_number = c.first_record + number - 1;
                if let Some(dir) = &c.records {
                    let name = records::file_name(file_number);
                    if let Err(e) = records::write_atomic(dir, &name, &record) {
                        note(&format!("cannot write the record of game {number}: {e}"));
                    }
                }
                if let Some(path) = &c.records_file {
                    if let Err(e) = records::append(path, &(record + "\n")) {
                        note(&format!(
                            "cannot append game {number} to {}: {e}",
                            path.display()
                        ));
                    }
                }
                let forfeit = match &outcome.ending {
                    Ending::Forfeit { seat, .. } => Some(*seat),
                    Ending::Finished => None,
                };
                for (seat, &f) in outcome.worst_turn.iter().enumerate() {
                    if f > worst.fraction {
                        worst = WorstTurn {
                            fraction: f,
                            engine: seats[seat],
                            game: number,
                        };
                    }
                }
                let group = schedule::group(number - 1, engines, c.players);
                tally.add_in_group(group, group_size, &seats, outcome.winner_seat, forfeit);
                out.line(&progress_line(&shared, number, &seats, &outcome));
                if engines == 2 {
                    out.line(&tally.score_line());
                }
                if let Some((s, model)) = &sprt {
                    if decided(&tally) && !shared.stop.swap(true, Ordering::SeqCst) {
                        out.line(&tally.sprt_line(s, *model));
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
    let pool = std::mem::take(&mut *lock(&shared.pool));
    for (e, procs) in pool.into_iter().enumerate() {
        for p in procs {
            shared.note_peak(e, &p);
            p.quit();
        }
    }
    out.line("");
    out.line(&format!(
        "{} after {} games",
        if interrupted {
            "Match interrupted"
        } else {
            "Match finished"
        },
        tally.games()
    ));
    for line in tally.summary(sprt.as_ref().map(|(s, m)| (s, *m))).lines() {
        out.line(line);
    }
    if worst.game > 0 {
        out.line(&format!(
            "Longest turn: {:.3} of its time budget ({}, game {})",
            worst.fraction, shared.names[worst.engine], worst.game
        ));
    }
    let peaks = lock(&shared.peak_kib).clone();
    if peaks.iter().any(|&k| k > 0) {
        let list: Vec<String> = shared
            .names
            .iter()
            .zip(&peaks)
            .map(|(n, &k)| match k {
                // Every process of this engine ended on its own (a crash) or `/proc` was
                // silent: an unknown figure, not a zero.
                0 => format!("{n} unknown"),
                _ => format!("{n} {:.1} MiB", k as f64 / 1024.0),
            })
            .collect();
        out.line(&format!("Peak memory: {}", list.join(", ")));
    }
    if panicked > 0 {
        note(&format!("internal error: {panicked} game worker(s) failed"));
        EXIT_INTERNAL
    } else if out.closed() {
        EXIT_OUTPUT_CLOSED
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

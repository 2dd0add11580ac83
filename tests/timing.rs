//! The engine answers inside its time as the caller measures it, also with the other core
//! busy: a move under `time_settings 0 1 1`, and a whole game under `time_settings 10 0 0`
//! with `time_left` before every move.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        Engine::start_with(args, Stdio::null(), "warn")
    }

    /// With the search's `info` lines written to `log`.
    fn start_logged(args: &[&str], log: &std::path::Path) -> Engine {
        let file = std::fs::File::create(log).expect("log file");
        Engine::start_with(args, Stdio::from(file), "info")
    }

    fn start_with(args: &[&str], stderr: Stdio, level: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_omega"))
            .args(args)
            .env("RUST_LOG", level)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("start omega");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one command and returns the answer's first line and how long it took.
    fn ask(&mut self, command: &str) -> (String, Duration) {
        let start = Instant::now();
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
        let mut first = String::new();
        self.stdout.read_line(&mut first).unwrap();
        let mut blank = String::new();
        self.stdout.read_line(&mut blank).unwrap();
        assert_eq!(blank, "\n", "answer to {command:?} is one line");
        (first.trim_end().to_string(), start.elapsed())
    }

    /// Asks for a turn of `colour` and checks it is one, answered within `within`.
    fn genmove_within(&mut self, colour: &str, within: Duration, context: &str) {
        let (answer, took) = self.ask(&format!("genmove {colour}"));
        assert!(answer.starts_with("= "), "{context}: {answer}");
        assert!(took < within, "{context}: genmove {colour} took {took:?}");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Keeps one core busy until dropped.
struct Busy(
    Arc<AtomicBool>,
    Option<thread::JoinHandle<()>>,
    #[allow(dead_code)] std::sync::MutexGuard<'static, ()>,
);

/// One timing test at a time: run side by side (as `cargo test` runs them), their engines
/// and load generators would share two cores between five busy threads.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn busy_core() -> Busy {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let handle = thread::spawn(move || {
        let mut x = 0u64;
        while !flag.load(Ordering::Relaxed) {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            std::hint::black_box(x);
        }
    });
    Busy(stop, Some(handle), guard)
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        if let Some(h) = self.1.take() {
            let _ = h.join();
        }
    }
}

/// The playouts of each `info playouts` line of a search's log (its reports each second
/// and its last), `u64::MAX` for a proof.
fn logged_playouts(log: &str) -> Vec<u64> {
    log.lines()
        .filter_map(|l| l.split("info playouts ").nth(1))
        .filter_map(|rest| match rest.contains(" proven ") {
            true => Some(u64::MAX),
            false => rest.split(' ').next()?.parse().ok(),
        })
        .collect()
}

#[test]
fn a_move_under_one_second_byo_yomi_is_answered_within_one_second() {
    let _busy = busy_core();
    for (side, players) in [(5, 2), (5, 3), (5, 4), (9, 2), (13, 4)] {
        let mut engine = Engine::start(&[]);
        assert_eq!(engine.ask(&format!("boardsize {side}")).0, "=");
        assert_eq!(engine.ask(&format!("players {players}")).0, "=");
        assert_eq!(engine.ask("time_settings 0 1 1").0, "=");
        for colour in ["white", "black", "red", "blue"].iter().take(players) {
            let context = format!("side {side} K {players}");
            engine.genmove_within(colour, Duration::from_secs(1), &context);
        }
    }
}

/// The floor: a 1 s turn thinks at least 0.85 s (the search is not proven at the
/// start of a game, so it has no reason to stop early).
#[test]
fn a_one_second_turn_uses_most_of_its_second() {
    let _busy = busy_core();
    for (side, players) in [(5, 2), (10, 3)] {
        let mut engine = Engine::start(&[]);
        engine.ask(&format!("boardsize {side}"));
        engine.ask(&format!("players {players}"));
        engine.ask("time_settings 0 1 1");
        let (answer, took) = engine.ask("genmove white");
        assert!(answer.starts_with("= "), "{answer}");
        assert!(
            took >= Duration::from_millis(850) && took < Duration::from_secs(1),
            "side {side} K {players}: {took:?}"
        );
    }
}

/// At 0.05 s a turn every board and player count still gets a searched turn in time: the
/// search's log shows its playouts (at least the 16 every search makes), or a proof.
#[test]
fn a_twentieth_of_a_second_is_enough_for_a_searched_turn_on_every_board() {
    let _busy = busy_core();
    let dir = std::env::temp_dir().join(format!("omega-timing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (side, players) in [(2, 2), (5, 2), (7, 3), (10, 2), (10, 4), (13, 2), (13, 4)] {
        let log = dir.join(format!("{side}-{players}.log"));
        let mut engine = Engine::start_logged(&[], &log);
        engine.ask(&format!("boardsize {side}"));
        engine.ask(&format!("players {players}"));
        engine.ask("time_settings 0 0.05 1");
        for colour in ["white", "black", "red", "blue"].iter().take(players) {
            let context = format!("side {side} K {players}");
            engine.genmove_within(colour, Duration::from_millis(50), &context);
        }
        drop(engine);
        let text = std::fs::read_to_string(&log).unwrap();
        let searches = logged_playouts(&text);
        assert!(searches.len() >= players, "side {side} K {players}: {text}");
        assert!(
            searches.iter().all(|&p| p >= 16),
            "side {side} K {players}: {searches:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_whole_game_under_ten_seconds_absolute_uses_at_most_ten_seconds() {
    let _busy = busy_core();
    let mut engine = Engine::start(&[]);
    let mut referee = Engine::start(&["--player", "random", "--seed", "3"]);
    assert_eq!(engine.ask("time_settings 10 0 0").0, "=");
    let mut used = Duration::ZERO;
    loop {
        let left = (10.0 - used.as_secs_f64()).max(0.0);
        assert_eq!(engine.ask(&format!("time_left white {left:.3} 0")).0, "=");
        let (answer, took) = engine.ask("genmove white");
        if answer == "? game is over" {
            break;
        }
        used += took;
        let cells = answer.trim_start_matches("= ").to_string();
        assert_eq!(referee.ask(&format!("play white {cells}")).0, "=");
        let (reply, _) = referee.ask("genmove black");
        let cells = reply.trim_start_matches("= ").to_string();
        assert_eq!(engine.ask(&format!("play black {cells}")).0, "=", "{reply}");
    }
    assert!(used < Duration::from_secs(10), "white used {used:?}");
    // The clock was used, not wasted: more than a few moves' worth of the default.
    assert!(used > Duration::from_secs(4), "white used only {used:?}");
}

/// A `genmove` right after the engine's own long `genmove` (no `play` between, as a GUI
/// letting the engine play both sides sends them) moves the big tree's root on the short
/// turn's own clock: the copy is capped by that turn's time, so the turn is still answered
/// in time and searched. Without the cap the copy of a 4 s tree's subtree took most of a
/// 0.25 s turn or more than all of it.
#[test]
fn a_short_turn_after_a_long_one_of_the_same_engine_is_answered_in_time() {
    let _busy = busy_core();
    let dir = std::env::temp_dir().join(format!("omega-reroot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for players in [2, 3] {
        let log = dir.join(format!("{players}.log"));
        let mut engine = Engine::start_logged(&[], &log);
        engine.ask("boardsize 5");
        engine.ask(&format!("players {players}"));
        assert_eq!(engine.ask("time_settings 0 4 1").0, "=");
        assert!(engine.ask("genmove white").0.starts_with("= "));
        assert_eq!(engine.ask("time_settings 0 0.25 1").0, "=");
        engine.genmove_within("black", Duration::from_millis(250), &format!("K {players}"));
        drop(engine);
        let text = std::fs::read_to_string(&log).unwrap();
        let playouts = logged_playouts(&text);
        // Progress lines each second of the long search, then the short search's own.
        assert!(playouts.len() >= 2, "K {players}: two searches: {text}");
        let short = *playouts.last().unwrap();
        assert!(short >= 1000, "K {players}: {playouts:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

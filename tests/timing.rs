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
        let mut child = Command::new(env!("CARGO_BIN_EXE_omega"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
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
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Keeps one core busy until dropped.
struct Busy(Arc<AtomicBool>, Option<thread::JoinHandle<()>>);

fn busy_core() -> Busy {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let handle = thread::spawn(move || {
        let mut x = 0u64;
        while !flag.load(Ordering::Relaxed) {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            std::hint::black_box(x);
        }
    });
    Busy(stop, Some(handle))
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        if let Some(h) = self.1.take() {
            let _ = h.join();
        }
    }
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
            let (answer, took) = engine.ask(&format!("genmove {colour}"));
            assert!(answer.starts_with("= "), "{answer}");
            assert!(
                took < Duration::from_secs(1),
                "side {side} K {players}: genmove took {took:?}"
            );
        }
    }
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

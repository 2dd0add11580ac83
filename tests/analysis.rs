//! The commands that run until the next line: `analyze` streams its lines at the interval
//! and stops within one interval of the next command, which is then answered; the game is
//! unchanged. Also `genmove_analyze`, GoGui's `# interrupt` and `--ponder`. These run the
//! built binary over pipes, as a GUI does.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// Time allowed on top of what a check expects, for a loaded test machine.
const SLACK: Duration = Duration::from_millis(400);

/// One test at a time: side by side their engines (two threads each by default) would
/// share the two cores of the test machine and measure the scheduler, not the engine.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_omega"))
            .args(args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start omega");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn line(&self, within: Duration) -> String {
        self.lines
            .recv_timeout(within)
            .unwrap_or_else(|e| panic!("no line within {within:?}: {e}"))
    }

    /// The lines of one whole answer (without its empty line).
    fn answer(&self, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.line(left);
            if line.is_empty() {
                return lines;
            }
            lines.push(line);
        }
    }

    fn ask(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.answer(Duration::from_secs(20))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The candidates of one `info` line: (turn, visits, winrate, score, order, pv); the score
/// is absent in the other games.
type Info = (Vec<String>, u64, f64, Option<f64>, usize, Vec<String>);

fn parse_info(line: &str) -> Vec<Info> {
    let mut infos = Vec::new();
    for block in line.split("info ").filter(|b| !b.is_empty()) {
        let words: Vec<&str> = block.split_whitespace().collect();
        let at = |key: &str| words.iter().position(|&w| w == key).expect(key);
        assert_eq!(words[0], "move", "{block}");
        let turn: Vec<String> = words[1..at("visits")]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let value = |key: &str| words[at(key) + 1];
        let pv = words[at("pv") + 1..]
            .iter()
            .map(|s| s.to_string())
            .collect();
        infos.push((
            turn,
            value("visits").parse().unwrap(),
            value("winrate").parse().unwrap(),
            words
                .iter()
                .position(|&w| w == "score")
                .map(|i| words[i + 1].parse().unwrap()),
            value("order").parse().unwrap(),
            pv,
        ));
    }
    infos
}

fn check_info(line: &str, k: usize) {
    check_candidates(line, k, true);
}

/// Checks one `info` line of turns of `k` moves, with or without `score` fields.
fn check_candidates(line: &str, k: usize, scored: bool) {
    let infos = parse_info(line);
    assert!(!infos.is_empty(), "{line}");
    for (i, (turn, visits, winrate, score, order, pv)) in infos.iter().enumerate() {
        assert_eq!(turn.len(), k, "{line}");
        assert_eq!(*order, i, "{line}");
        assert!(*visits > 0, "{line}");
        assert!((0.0..=1.0).contains(winrate), "{line}");
        assert_eq!(score.is_some(), scored, "{line}");
        assert!(score.is_none_or(f64::is_finite), "{line}");
        assert!(pv.len() >= k && pv.len() % k == 0, "{line}");
        assert_eq!(&pv[..k], &turn[..], "{line}");
        if i > 0 {
            assert!(infos[i - 1].1 >= *visits, "best first: {line}");
        }
    }
}

#[test]
fn analyze_streams_until_the_next_command_and_changes_nothing() {
    let _one_at_a_time = serial();
    let mut e = Engine::start(&["--player", "mcts"]);
    assert_eq!(e.ask("boardsize 4"), ["= "]);
    assert_eq!(e.ask("play white a1 d4"), ["= "]);
    let board = e.ask("showboard");
    let interval = Duration::from_millis(100);
    e.send("7 analyze black 10");
    assert_eq!(e.line(SLACK), "=7 ");
    let started = Instant::now();
    let mut infos = 0;
    while infos < 3 {
        let line = e.line(interval + SLACK);
        check_info(&line, 2);
        infos += 1;
    }
    assert!(
        started.elapsed() >= interval * 2,
        "lines come at the interval"
    );
    // The next command ends the answer within an interval, and is answered right after.
    e.send("8 showboard");
    let asked = Instant::now();
    loop {
        let line = e.line(interval + SLACK);
        if line.is_empty() {
            break;
        }
        check_info(&line, 2);
    }
    assert!(asked.elapsed() <= interval + SLACK, "{:?}", asked.elapsed());
    let mut after = e.answer(SLACK);
    assert_eq!(after[0], "=8 ");
    after[0] = "= ".into();
    assert_eq!(after, board, "analysis changed the game");
    // Refusals come before anything is streamed.
    assert_eq!(
        e.ask("analyze white"),
        ["? it is black's turn, not white's"]
    );
    assert_eq!(e.ask("analyze red"), ["? red is not playing"]);
}

/// The line that carries `analyze` must not itself count as the next line: it once did when
/// the input thread read the mode after handing the line on (1 start in 5 ended at once).
#[test]
fn analyze_is_not_stopped_by_its_own_line() {
    let _one_at_a_time = serial();
    let mut e = Engine::start(&["--player", "mcts"]);
    assert_eq!(e.ask("boardsize 4"), ["= "]);
    for round in 0..25 {
        e.send(&format!("{round} analyze white 2"));
        assert_eq!(e.line(SLACK), format!("={round} "));
        let first = e.line(SLACK);
        assert!(
            !first.is_empty(),
            "round {round}: the analysis ended at once"
        );
        check_info(&first, 2);
        e.send("name");
        while !e.line(SLACK).is_empty() {}
        assert_eq!(e.answer(SLACK), ["= omega"]);
    }
}

#[test]
fn genmove_analyze_streams_then_plays() {
    let _one_at_a_time = serial();
    let mut e = Engine::start(&["--player", "mcts", "--movetime", "0.5"]);
    assert_eq!(e.ask("boardsize 5"), ["= "]);
    let started = Instant::now();
    let answer = e.ask("genmove_analyze white 10");
    let took = started.elapsed();
    assert_eq!(answer[0], "= ");
    let last = answer.last().unwrap();
    let cells: Vec<&str> = last.strip_prefix("play ").expect(last).split(' ').collect();
    assert_eq!(cells.len(), 2);
    assert!(answer.len() >= 4, "lines about every 0.1 s: {answer:?}");
    for line in &answer[1..answer.len() - 1] {
        check_info(line, 2);
    }
    assert!(took >= Duration::from_millis(400) && took <= Duration::from_millis(500) + SLACK);
    // The turn was played.
    assert_eq!(e.ask("to_move"), ["= black"]);
    assert_eq!(e.ask("list_stones white"), [format!("= {}", cells[0])]);
}

#[test]
fn an_interrupt_line_cuts_a_long_genmove_short() {
    let _one_at_a_time = serial();
    for player in ["mcts", "alphabeta"] {
        let mut e = Engine::start(&["--player", player, "--movetime", "30"]);
        assert_eq!(e.ask("boardsize 6"), ["= "]);
        e.send("genmove white");
        thread::sleep(Duration::from_millis(300));
        let sent = Instant::now();
        e.send("# interrupt");
        let answer = e.answer(Duration::from_secs(5));
        assert!(sent.elapsed() <= SLACK, "{player}: {:?}", sent.elapsed());
        assert_eq!(answer.len(), 1, "{answer:?}");
        assert_eq!(answer[0].split(' ').count(), 3, "{player}: {answer:?}");
        // The interrupt is not answered and does not cut the next command.
        assert_eq!(e.ask("to_move"), ["= black"]);
    }
}

#[test]
fn a_pondering_engine_answers_at_once() {
    let _one_at_a_time = serial();
    let mut e = Engine::start(&["--player", "mcts", "--ponder", "--movetime", "0.2"]);
    assert_eq!(e.ask("boardsize 5"), ["= "]);
    let turn = e.ask("genmove white");
    assert_eq!(turn[0].split(' ').count(), 3);
    // Now it thinks on black's turn; the next command stops that at once.
    thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    assert_eq!(e.ask("name"), ["= omega"]);
    assert!(sent.elapsed() <= SLACK, "{:?}", sent.elapsed());
    assert_eq!(
        e.ask("reg_genmove white"),
        ["? it is black's turn, not white's"]
    );
    let reply = e.ask("genmove black");
    assert_eq!(reply[0].split(' ').count(), 3);
}

#[test]
fn other_games_analyse_with_one_move_candidates() {
    let _one_at_a_time = serial();
    let mut e = Engine::start(&["--game", "yavalath", "--movetime", "0.5"]);
    assert_eq!(e.ask("play white c4"), ["= "]);
    assert_eq!(e.ask("play black e5"), ["= "]);
    let board = e.ask("showboard");
    let interval = Duration::from_millis(100);
    e.send("3 analyze white 10");
    assert_eq!(e.line(SLACK), "=3 ");
    for _ in 0..3 {
        check_candidates(&e.line(interval + SLACK), 1, false);
    }
    e.send("4 showboard");
    while !e.line(interval + SLACK).is_empty() {}
    let mut after = e.answer(SLACK);
    assert_eq!(after[0], "=4 ");
    after[0] = "= ".into();
    assert_eq!(after, board, "analysis changed the game");
    assert_eq!(
        e.ask("analyze black"),
        ["? it is white's turn, not black's"]
    );
    // genmove_analyze streams, then plays its move.
    let answer = e.ask("genmove_analyze white 10");
    assert_eq!(answer[0], "= ");
    assert!(answer.len() >= 4, "lines about every 0.1 s: {answer:?}");
    for line in &answer[1..answer.len() - 1] {
        check_candidates(line, 1, false);
    }
    let last = answer.last().unwrap();
    let cell = last.strip_prefix("play ").expect(last);
    assert_eq!(e.ask("to_move"), ["= black"]);
    assert!(e.ask("list_stones white")[0].contains(cell), "{cell}");
    // Hexed's default, an alpha-beta, cannot analyse; its tree search can.
    assert_eq!(e.ask("game hexed"), ["= "]);
    assert_eq!(
        e.ask("analyze red"),
        ["? analyze needs a tree-search player (--player mcts or mcts-plain) in hexed"]
    );
}

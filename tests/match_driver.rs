//! End-to-end tests of `omega-match`: real processes, the fake engine as opponent (and the
//! real `omega --player random`), records replayed with `Game`.

use omega::arena::stats::{Sprt, Wld};
use omega::game::{Colour, Game};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const MATCH: &str = env!("CARGO_BIN_EXE_omega-match");
const FAKE: &str = env!("CARGO_BIN_EXE_omega-fake-engine");
const OMEGA: &str = env!("CARGO_BIN_EXE_omega");

fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(args: &[&str]) -> (Output, String) {
    let out = Command::new(MATCH)
        .args(args)
        .output()
        .expect("run omega-match");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    (out, stdout)
}

/// A record's `#` headers (key -> value) and the final position of its `play` lines.
struct Replay {
    headers: HashMap<String, String>,
    game: Game,
    plays: Vec<String>,
}

fn replay(path: &Path) -> Replay {
    let text = std::fs::read_to_string(path).unwrap();
    let mut headers = HashMap::new();
    let (mut size, mut players) = (0, 0);
    let mut game = None;
    let mut plays = Vec::new();
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("# ") {
            if let Some((k, v)) = h.split_once(": ") {
                headers.insert(k.to_string(), v.to_string());
            }
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "boardsize" => size = words[1].parse().unwrap(),
            "players" => players = words[1].parse().unwrap(),
            "clear_board" => game = Some(Game::new(size, players).unwrap()),
            "play" => {
                let g = game.as_mut().expect("clear_board before play");
                let colour = Colour::parse(words[1]).unwrap();
                let cells: Vec<_> = words[2..]
                    .iter()
                    .map(|w| g.board().parse(w).unwrap())
                    .collect();
                g.play_turn(colour, &cells)
                    .unwrap_or_else(|e| panic!("{}: illegal '{line}': {e}", path.display()));
                plays.push(line.to_string());
            }
            other => panic!("unexpected line '{other}' in {}", path.display()),
        }
    }
    Replay {
        headers,
        game: game.expect("a clear_board line"),
        plays,
    }
}

fn scores_text(g: &Game) -> String {
    g.colours()
        .map(|c| format!("{c} {}", g.score(c)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks a record against the rules: the moves replay legally, the scores are those of the
/// final position, and a finished game's result and winner are the rules' ones.
fn check_record(path: &Path) -> Replay {
    let r = replay(path);
    assert_eq!(
        r.headers["scores"],
        scores_text(&r.game),
        "{}",
        path.display()
    );
    if r.headers["ended"].starts_with("game over") {
        assert!(r.game.is_over(), "{}", path.display());
        let (w, margin) = r.game.winner();
        assert_eq!(r.headers["result"], format!("{w}+{margin}"));
        assert!(r.headers["winner"].starts_with(&format!("{w} (")));
    } else {
        assert!(r.headers["ended"].starts_with("forfeit: "));
        assert!(r.headers["result"].contains("+F ("));
    }
    r
}

fn records(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

/// `Score of A vs B: W - L - D [s] N` -> (W, L, D, N), from the last such line.
fn last_score(stdout: &str) -> (u64, u64, u64, u64) {
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("Score of "))
        .expect("a score line");
    let after = line.split(": ").nth(1).unwrap();
    let n: Vec<u64> = after
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter(|w| !w.is_empty() && !w.contains('.'))
        .map(|w| w.parse().unwrap())
        .collect();
    (n[0], n[1], n[2], n[3])
}

#[test]
fn fake_match_records_replay_to_their_stated_results() {
    let dir = fresh_dir("replay");
    let a = format!("{FAKE} --seed 1 --name alpha");
    let b = format!("{FAKE} --seed 2 --name beta");
    let (out, stdout) = run(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "6",
        "--openings",
        "random:3",
        "--seed",
        "9",
        "--records",
        dir.to_str().unwrap(),
        "--concurrency",
        "2",
    ]);
    assert!(out.status.success(), "{stdout}");
    let files = records(&dir);
    assert_eq!(files.len(), 6, "{files:?}");
    let mut alpha_wins = 0;
    for (i, f) in files.iter().enumerate() {
        let r = check_record(f);
        assert!(r.headers["ended"].starts_with("game over"));
        // Seats rotate: alpha is white in odd-numbered games, black in even ones.
        let white_is_alpha = r.headers["white"].starts_with("alpha (");
        assert_eq!(white_is_alpha, i % 2 == 0, "{}", f.display());
        if r.headers["winner"].contains("(alpha)") {
            alpha_wins += 1;
        }
    }
    // Each opening is played from both seats: games 1 and 2 share their first 3 turns.
    let (g1, g2, g3) = (replay(&files[0]), replay(&files[1]), replay(&files[2]));
    assert_eq!(g1.plays[..3], g2.plays[..3]);
    assert_ne!(g1.plays[..3], g3.plays[..3]);
    assert_eq!(last_score(&stdout), (alpha_wins, 6 - alpha_wins, 0, 6));
    assert!(stdout.contains("Elo difference: "), "{stdout}");
}

#[test]
fn records_pipe_back_into_an_engine() {
    let dir = fresh_dir("pipe");
    let a = format!("{FAKE} --seed 3");
    let b = format!("{FAKE} --seed 4");
    let (out, _) = run(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "1",
        "--records",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let path = &records(&dir)[0];
    let text = std::fs::read_to_string(path).unwrap() + "final_score\n";
    let mut child = Command::new(FAKE)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let answers = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    assert!(!answers.contains('?'), "{answers}");
    let last = answers.lines().rfind(|l| !l.is_empty()).unwrap();
    let result = &replay(path).headers["result"];
    assert_eq!(last, format!("= {result}"));
}

#[test]
fn crashing_engine_loses_by_forfeit_and_the_match_completes() {
    let dir = fresh_dir("crash");
    let crash = format!("{FAKE} --seed 1 --name crasher --crash-at 3");
    let ok = format!("{FAKE} --seed 2 --name steady");
    let (out, stdout) = run(&[
        "--engine",
        &crash,
        "--engine",
        &ok,
        "--games",
        "4",
        "--records",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(last_score(&stdout), (0, 4, 0, 4), "{stdout}");
    assert!(stdout.contains("Forfeits: crasher 4, steady 0"), "{stdout}");
    let files = records(&dir);
    assert_eq!(files.len(), 4);
    for (i, f) in files.iter().enumerate() {
        let r = check_record(f);
        assert!(
            r.headers["ended"].contains("crashed (exit status: 3)"),
            "{:?}",
            r.headers
        );
        assert!(r.headers["winner"].ends_with("(steady)"));
        // Two genmoves answered, the third crashes: 4 turns as white, 5 as black.
        assert_eq!(r.plays.len(), if i % 2 == 0 { 4 } else { 5 });
    }
}

#[test]
fn illegal_malformed_and_hanging_engines_forfeit() {
    for (fault, flag, extra, expect) in [
        ("illegal", "--illegal-at", None, "illegal turn"),
        ("garbage", "--garbage-at", None, "malformed answer"),
        (
            "hang",
            "--hang-at",
            Some(["--movetime", "0.1"]),
            "no answer within 1.120 s",
        ),
    ] {
        let dir = fresh_dir(fault);
        let bad = format!("{FAKE} --seed 5 --name bad {flag} 2");
        let good = format!("{FAKE} --seed 6 --name good");
        let mut args = vec!["--engine", &bad, "--engine", &good, "--games", "2"];
        args.extend(["--records", dir.to_str().unwrap()]);
        args.extend(extra.iter().flatten());
        let (out, stdout) = run(&args);
        assert!(out.status.success(), "{stdout}");
        assert_eq!(last_score(&stdout), (0, 2, 0, 2), "{fault}: {stdout}");
        for f in records(&dir) {
            let r = check_record(&f);
            assert!(
                r.headers["ended"].contains(expect),
                "{fault}: {:?}",
                r.headers
            );
        }
    }
}

#[test]
fn three_players_three_engines_table() {
    let dir = fresh_dir("three");
    let engines: Vec<String> = (1..=3)
        .map(|s| format!("{FAKE} --seed {s} --name e{s}"))
        .collect();
    let (out, stdout) = run(&[
        "--engine",
        &engines[0],
        "--engine",
        &engines[1],
        "--engine",
        &engines[2],
        "--players",
        "3",
        "--size",
        "4",
        "--games",
        "3",
        "--records",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{stdout}");
    let files = records(&dir);
    assert_eq!(files.len(), 3);
    let mut wins = HashMap::new();
    // (engine, seat) -> (won, played), from the records' headers.
    let mut seats: HashMap<(String, &str), (u32, u32)> = HashMap::new();
    for f in &files {
        let r = check_record(f);
        assert!(r.game.is_over());
        let winner_seat = r.headers["winner"].split(' ').next().unwrap().to_string();
        for seat in ["white", "black", "red"] {
            let engine = r.headers[seat].split(' ').next().unwrap().to_string();
            let e = seats.entry((engine, seat)).or_default();
            e.0 += u32::from(winner_seat == seat);
            e.1 += 1;
        }
        let name = r.headers["winner"]
            .split('(')
            .nth(1)
            .unwrap()
            .trim_end_matches(')');
        *wins.entry(name.to_string()).or_insert(0) += 1;
    }
    // The table lists each engine with its points (games won) and 3 games.
    for e in ["e1", "e2", "e3"] {
        let row = stdout
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(e))
            .unwrap_or_else(|| panic!("no row for {e}: {stdout}"));
        let cols: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cols[4], wins.get(e).unwrap_or(&0).to_string(), "{row}");
        assert_eq!(cols[5], "3", "{row}");
        // Seats rotate: each engine held each seat once.
        let by_seat: String = ["white", "black", "red"]
            .iter()
            .map(|&seat| {
                let (won, played) = seats[&(e.to_string(), seat)];
                format!("  {seat} {won}/{played}")
            })
            .collect();
        let line = format!("  {e}{by_seat}");
        assert!(stdout.lines().any(|l| l == line), "{line:?} in {stdout}");
    }
    assert!(stdout.contains("\nWins by seat:\n"), "{stdout}");
}

#[test]
fn sprt_stops_the_match_and_reports_its_llr() {
    // Equal engines against H0: +200 Elo, H1: +400 Elo: H0 is accepted quickly.
    let a = format!("{FAKE} --seed 7");
    let b = format!("{FAKE} --seed 8");
    let (out, stdout) = run(&[
        "--engine", &a, "--engine", &b, "--games", "400", "--sprt", "200", "400", "0.2", "0.2",
    ]);
    assert!(out.status.success(), "{stdout}");
    let (w, l, d, n) = last_score(&stdout);
    assert!(n < 400, "did not stop: {stdout}");
    let sprt = Sprt {
        elo0: 200.0,
        elo1: 400.0,
        alpha: 0.2,
        beta: 0.2,
    };
    let llr = sprt.llr(&Wld {
        wins: w,
        losses: l,
        draws: d,
    });
    let line = stdout.lines().rfind(|l| l.starts_with("SPRT: ")).unwrap();
    assert!(line.starts_with(&format!("SPRT: llr {llr:.3} (")), "{line}");
    assert!(
        line.ends_with("lbound -1.386, ubound 1.386 - H0 was accepted"),
        "{line}"
    );
}

#[test]
fn bad_flags_exit_2_and_help_prints_usage() {
    for args in [
        vec!["--engine", "x"],
        vec!["--engine", "x", "--engine", "y", "--games", "many"],
        vec!["--engine", "x", "--engine", "'y", "--games", "1"],
        vec!["--engine", "x", "--engine", "y", "--movetime", "1e300"],
        vec!["--engine", "x", "--engine", "y", "--time", "-1"],
        vec!["--bogus"],
    ] {
        let (out, _) = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("omega-match: "));
    }
    let (out, stdout) = run(&["--help"]);
    assert!(out.status.success());
    assert!(stdout.contains("--sprt ELO0 ELO1 ALPHA BETA"));
    // An engine that cannot start is a set-up error, not a panic.
    let (out, _) = run(&["--engine", "/nonexistent/engine", "--engine", FAKE]);
    assert_eq!(out.status.code(), Some(1));
}

/// The real engine against its random player: a short match whose records replay legally
/// to their stated results.
#[test]
fn omega_against_omega_random() {
    let dir = fresh_dir("omega");
    let random = format!("{OMEGA} --player random --seed 5");
    let args = "--games 2 --movetime 0.05 --openings random:1 --concurrency 2 --records";
    let mut argv = vec!["--engine", OMEGA, "--engine", &random];
    argv.extend(args.split(' '));
    argv.push(dir.to_str().unwrap());
    let (out, stdout) = run(&argv);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    let (w, l, _, n) = last_score(&stdout);
    assert_eq!(n, 2);
    let files = records(&dir);
    assert_eq!(files.len(), 2);
    let mut omega_wins = 0;
    for f in &files {
        let r = check_record(f);
        assert!(
            r.headers["ended"].starts_with("game over"),
            "{:?}",
            r.headers
        );
        omega_wins += u64::from(r.headers["winner"].ends_with("(omega)"));
    }
    assert_eq!((w, l), (omega_wins, 2 - omega_wins), "{stdout}");
}

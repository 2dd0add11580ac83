//! End-to-end tests of `omega-match`: real processes, the fake engine as opponent (and the
//! real `omega --player random`), records replayed with `Game`.

use omega::arena::stats::{Pentanomial, Sprt, Wld};
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

/// The game records of `dir` (`game-NNNNN.gtp`), in order.
fn records(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("game-") && name.ends_with(".gtp")
        })
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

/// A 3-player match on side 4 of `games` games between three fake engines named e1, e2 and
/// e3 (in that order), its records in `dir`, with `extra` arguments.
fn three_fake_engines(dir: &Path, games: usize, extra: &[&str]) -> (Output, String) {
    let mut args: Vec<String> = Vec::new();
    for s in 1..=3 {
        args.push("--engine".to_string());
        args.push(format!("{FAKE} --seed {s} --name e{s}"));
    }
    let games = games.to_string();
    let dir = dir.to_str().unwrap();
    let fixed = [
        "--players",
        "3",
        "--size",
        "4",
        "--games",
        &games,
        "--records",
        dir,
    ];
    args.extend(fixed.iter().chain(extra).map(|a| a.to_string()));
    run(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn three_players_three_engines_table() {
    let dir = fresh_dir("three");
    let (out, stdout) = three_fake_engines(&dir, 3, &[]);
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
fn one_seat_plays_only_the_games_where_the_first_engine_holds_it() {
    let dir = fresh_dir("one_seat");
    let (out, stdout) = three_fake_engines(&dir, 6, &["--seat", "red"]);
    assert!(out.status.success(), "{stdout}");
    // Game r of a group of three seats e1 in seat (s + r) mod 3 = 0: red (seat 2) is e1's
    // in the second game of each group.
    let files = records(&dir);
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    assert_eq!(names, ["game-00002.gtp", "game-00005.gtp"], "{stdout}");
    for f in &files {
        let r = check_record(f);
        assert!(r.headers["red"].starts_with("e1 "), "{:?}", r.headers);
    }
    assert!(
        stdout.contains("Seat: only the 2 games of 6 in which e1 is red\n"),
        "{stdout}"
    );
    assert!(stdout.contains("\n  e1  red "), "{stdout}");
    assert!(!stdout.contains("e1  white"), "{stdout}");
    // A seat the game does not have is refused before any game.
    let (out, _) = three_fake_engines(&dir, 6, &["--seat", "blue"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(records(&dir).len(), 2);
}

#[test]
fn sprt_stops_the_match_and_reports_its_llr() {
    // Equal engines against H0: +200 Elo, H1: +400 Elo: H0 is accepted quickly.
    let a = format!("{FAKE} --seed 7");
    let b = format!("{FAKE} --seed 8");
    let (out, stdout) = run(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "400",
        "--sprt",
        "200",
        "400",
        "0.2",
        "0.2",
        "--sprt-model",
        "trinomial",
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
    let line = stdout.lines().rfind(|l| l.starts_with("SPRT ")).unwrap();
    assert!(
        line.starts_with(&format!("SPRT (trinomial): llr {llr:.3} (")),
        "{line}"
    );
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

/// Runs omega-match with stdout and stderr captured.
fn run_in(args: &[&str]) -> (Output, String, String) {
    let out = Command::new(MATCH)
        .args(args)
        .output()
        .expect("run omega-match");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    (out, stdout, stderr)
}

/// Runs omega-match with an `--engine` for each of `engines`, then `extra`.
fn run_engines(engines: &[String], extra: &[&str]) -> (Output, String, String) {
    let mut args: Vec<&str> = Vec::new();
    for e in engines {
        args.extend(["--engine", e.as_str()]);
    }
    args.extend(extra);
    run_in(&args)
}

fn fakes(n: usize) -> Vec<String> {
    (1..=n)
        .map(|s| format!("{FAKE} --seed {s} --name e{s}"))
        .collect()
}

/// Fault: `omega-match ... | head -2` panicked ("failed printing to stdout"). Now a closed
/// stdout stops the match quietly with status 141, as a program killed by SIGPIPE.
#[test]
fn closed_stdout_stops_the_match_without_a_panic() {
    use std::io::{BufRead, BufReader};
    let e = fakes(2);
    let mut child = Command::new(MATCH)
        .args(["--engine", &e[0], "--engine", &e[1], "--games", "100000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..2 {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
    }
    drop(reader); // as `head -2` does
    let start = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(141), "{stderr}");
    assert!(start.elapsed().as_secs() < 20, "did not stop");
}

/// (engine, seat colour) of every seat of every record.
fn seat_names(r: &Replay, players: usize) -> Vec<String> {
    (0..players)
        .map(|k| {
            let seat = Colour::from_index(k).name();
            r.headers[seat].split(' ').next().unwrap().to_string()
        })
        .collect()
}

/// Fault: with three engines and two players, A was always white against B. Now every pair
/// plays a game pair: both colours, one opening.
#[test]
fn round_robin_gives_every_pair_both_seats_on_one_opening() {
    let dir = fresh_dir("round-robin");
    let e = fakes(3);
    let (out, stdout, stderr) = run_engines(
        &e[..3],
        &[
            "--games",
            "12",
            "--openings",
            "random:2",
            "--seed",
            "3",
            "--records",
            dir.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    let games: Vec<Replay> = records(&dir).iter().map(|f| check_record(f)).collect();
    assert_eq!(games.len(), 12);
    let mut met: HashMap<(String, String), u32> = HashMap::new();
    for (k, g) in games.iter().enumerate() {
        let s = seat_names(g, 2);
        *met.entry((s[0].clone(), s[1].clone())).or_default() += 1;
        if k % 2 == 1 {
            // The second game of a pair: the same engines, colours swapped, same opening.
            assert_eq!(
                s,
                seat_names(&games[k - 1], 2)
                    .into_iter()
                    .rev()
                    .collect::<Vec<_>>()
            );
            assert_eq!(g.plays[..2], games[k - 1].plays[..2]);
        }
    }
    for a in ["e1", "e2", "e3"] {
        for b in ["e1", "e2", "e3"] {
            let n = met
                .get(&(a.to_string(), b.to_string()))
                .copied()
                .unwrap_or(0);
            assert_eq!(
                n,
                u32::from(a != b) * 2,
                "{a} white against {b} black: {met:?}"
            );
        }
    }
}

/// Fault: the start-up wait was 30 s whatever --timeout said, and a failed engine's stderr
/// was thrown away.
#[test]
fn start_up_honours_timeout_and_shows_the_engines_stderr() {
    let slow = format!("{FAKE} --startup-delay 20");
    let start = std::time::Instant::now();
    let (out, _, stderr) = run_in(&["--engine", &slow, "--engine", FAKE, "--timeout", "0.5"]);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        start.elapsed().as_secs_f64() < 10.0,
        "waited {:?}",
        start.elapsed()
    );
    assert!(
        stderr.contains("no answer within 0.500 s on 'name'"),
        "{stderr}"
    );

    let failing = format!("{FAKE} --fail-at-start 'cannot read the weights file'");
    let (out, _, stderr) = run_in(&["--engine", FAKE, "--engine", &failing]);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("exit status: 4"), "{stderr}");
    assert!(
        stderr.contains(
            "the last lines of its stderr:\n  omega-fake-engine: starting\n  \
                         omega-fake-engine: cannot read the weights file"
        ),
        "{stderr}"
    );
}

/// Fault: a records directory that held records was silently mixed with the new ones.
#[test]
fn used_records_directory_is_refused_unless_appending() {
    let dir = fresh_dir("used-records");
    let d = dir.to_str().unwrap();
    let e = fakes(2);
    let base = [
        "--engine",
        &e[0],
        "--engine",
        &e[1],
        "--games",
        "2",
        "--records",
        d,
    ];
    let (out, _, stderr) = run_in(&base);
    assert!(out.status.success(), "{stderr}");
    let first: Vec<String> = records(&dir)
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let (out, _, stderr) = run_in(&base);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("already holds 2 records: give --append"),
        "{stderr}"
    );
    let mut append = base.to_vec();
    append.push("--append");
    let (out, _, stderr) = run_in(&append);
    assert!(out.status.success(), "{stderr}");
    let files = records(&dir);
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().to_string())
        .filter(|n| n.starts_with("game-"))
        .collect();
    assert_eq!(
        names,
        [
            "game-00001.gtp",
            "game-00002.gtp",
            "game-00003.gtp",
            "game-00004.gtp"
        ]
    );
    // The first match's records are untouched; the new ones are whole games.
    for (f, text) in files.iter().zip(&first) {
        assert_eq!(&std::fs::read_to_string(f).unwrap(), text);
    }
    check_record(&dir.join("game-00004.gtp"));
}

/// Fault: the table printed `+/- 0.0` and inf/NaN beside finite rows. Now a Bradley-Terry fit
/// with a prior: finite ratings and intervals, even for an engine that loses every game.
#[test]
fn table_ratings_are_finite_with_a_sweep() {
    let mut e = fakes(2);
    e.push(format!("{FAKE} --seed 3 --name loser --crash-at 1"));
    let (out, stdout, stderr) = run_engines(&e[..3], &["--games", "6"]);
    assert!(out.status.success(), "{stderr}");
    let table: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("Rank"))
        .skip(1)
        .take(3)
        .collect();
    assert_eq!(table.len(), 3, "{stdout}");
    assert!(table[2].contains(" loser "), "{stdout}");
    for row in table {
        let cols: Vec<&str> = row.split_whitespace().collect();
        let (elo, err): (f64, f64) = (cols[2].parse().unwrap(), cols[3].parse().unwrap());
        assert!(elo.is_finite() && err.is_finite() && err > 1.0, "{row}");
    }
}

/// Fault: docs and README fell behind the program. Every flag of `--help` is in the docs'
/// table, and the README says how omega-match is built.
#[test]
fn docs_list_every_flag_and_readme_says_how_to_build() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("docs/match.md")).unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let (_, help) = run(&["--help"]);
    let flags: std::collections::BTreeSet<&str> = help
        .split(|c: char| c.is_whitespace() || ",;[]()".contains(c))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .collect();
    assert!(flags.len() > 20, "{flags:?}");
    for flag in flags {
        assert!(
            docs.contains(&format!("| `{flag}")),
            "docs/match.md has no row for {flag}"
        );
    }
    assert!(readme.contains("cargo build --release"), "README");
    assert!(readme.contains("target/release/omega-match"), "README");
}

/// The numbers of a `Ptnml(0-2): [a, b, c, d, e], ...` line.
fn pentanomial(stdout: &str) -> [u64; 5] {
    let line = stdout
        .lines()
        .rfind(|l| l.starts_with("Ptnml(0-2): ["))
        .expect("a Ptnml line");
    let inner = line.split('[').nth(1).unwrap().split(']').next().unwrap();
    let v: Vec<u64> = inner.split(", ").map(|w| w.parse().unwrap()).collect();
    v.try_into().unwrap()
}

/// Game pairs: the pentanomial count agrees with the records, and the SPRT decides on it by
/// default.
#[test]
fn pentanomial_counts_and_sprt_from_game_pairs() {
    let dir = fresh_dir("ptnml");
    let e = fakes(2);
    let (out, stdout, stderr) = run_engines(
        &e[..2],
        &[
            "--games",
            "400",
            "--openings",
            "random:1",
            // A fixed seed: with one from the clock, a CI run once needed more than its 400 games.
            "--seed",
            "3",
            "--sprt",
            "200",
            "400",
            "0.2",
            "0.2",
            "--records",
            dir.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{stderr}");
    let mut counts = [0u64; 5];
    let files = records(&dir);
    for pair in files.chunks(2).filter(|p| p.len() == 2) {
        let wins = pair
            .iter()
            .filter(|f| replay(f).headers["winner"].ends_with("(e1)"))
            .count();
        counts[2 * wins] += 1;
    }
    assert_eq!(pentanomial(&stdout), counts, "{stdout}");
    let sprt = Sprt {
        elo0: 200.0,
        elo1: 400.0,
        alpha: 0.2,
        beta: 0.2,
    };
    let llr = sprt.llr_pentanomial(&Pentanomial { counts });
    let line = stdout.lines().rfind(|l| l.starts_with("SPRT ")).unwrap();
    assert!(
        line.starts_with(&format!("SPRT (pentanomial): llr {llr:.3} (")),
        "{line}"
    );
    assert!(line.ends_with("H0 was accepted"), "{line}");
}

#[test]
fn openings_from_a_book_file_in_order_and_from_transcripts() {
    let dir = fresh_dir("book");
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.txt");
    std::fs::write(&book, "# two openings\na1 c3, b2 e5\nc4 b1\n").unwrap();
    let e = fakes(2);
    let recs = dir.join("games");
    let all = dir.join("all.gtp");
    let spec = format!("file:{}", book.display());
    let (out, stdout, stderr) = run_engines(
        &e[..2],
        &[
            "--games",
            "6",
            "--openings",
            &spec,
            "--records",
            recs.to_str().unwrap(),
            "--records-file",
            all.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("openings file:"), "{stdout}");
    let files = records(&recs);
    let firsts: Vec<String> = files.iter().map(|f| replay(f).plays[0].clone()).collect();
    assert_eq!(
        firsts,
        [
            "play white a1 c3",
            "play white a1 c3",
            "play white c4 b1",
            "play white c4 b1",
            "play white a1 c3",
            "play white a1 c3"
        ]
    );
    assert_eq!(replay(&files[0]).plays[1], "play black b2 e5");
    // The combined file is every record, in the order the games finished.
    let joined: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap() + "\n")
        .collect();
    assert_eq!(std::fs::read_to_string(&all).unwrap(), joined);
    // ...and makes a book itself: the transcripts' first turns, shuffled with the seed.
    let spec = format!("file:{}", all.display());
    let (out, stdout, stderr) = run_engines(
        &e[..2],
        &[
            "--games",
            "2",
            "--openings",
            &spec,
            "--openings-turns",
            "1",
            "--openings-order",
            "random",
        ],
    );
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("(6 openings)"), "{stdout}");
    // A non-empty records file is refused without --append.
    let (out, _, stderr) = run_engines(&e[..2], &["--records-file", all.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("is not empty: give --append"), "{stderr}");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "a1 a1\n").unwrap();
    let spec = format!("file:{}", bad.display());
    let (out, _, stderr) = run_engines(&e[..2], &["--openings", &spec]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("line 1: illegal turn"), "{stderr}");
}

/// Per-engine working directory and time (time odds), `Started game` lines, the longest
/// turn and the engines' peak memory.
#[test]
fn engine_options_time_odds_and_started_lines() {
    let dir = fresh_dir("engine-dir");
    std::fs::create_dir_all(&dir).unwrap();
    let here = format!("sh -c 'pwd > where.txt; exec {FAKE} --name slow --time-used 0.5'");
    let quick = format!("{FAKE} --name quick --time-used 0.5");
    let (out, stdout, stderr) = run_in(&[
        "--engine",
        &here,
        "--dir",
        dir.to_str().unwrap(),
        "--engine-movetime",
        "0.2",
        "--engine",
        &quick,
        "--movetime",
        "0.02",
        "--games",
        "2",
        "--size",
        "3",
    ]);
    assert!(out.status.success(), "{stderr}");
    let written = std::fs::read_to_string(dir.join("where.txt")).unwrap();
    assert_eq!(
        Path::new(written.trim()).canonicalize().unwrap(),
        dir.canonicalize().unwrap()
    );
    assert!(stdout.contains("Engine slow: sh -c"), "{stdout}");
    assert!(stdout.contains("[movetime 0.2]\n"), "{stdout}");
    let started = stdout.find("Started game 1 of 2 (white slow, black quick)");
    let finished = stdout.find("Finished game 1 of 2");
    assert!(started.is_some() && started < finished, "{stdout}");
    // The slow engine thinks half of 0.2 s a turn, the quick one half of 0.02 s: each about
    // half its budget, so the longest turn is about half a budget.
    let longest = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Longest turn: "))
        .expect("a Longest turn line");
    let fraction: f64 = longest.split(' ').next().unwrap().parse().unwrap();
    assert!(fraction > 0.45 && fraction < 1.0, "{longest}");
    let memory = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Peak memory: slow "))
        .expect("a Peak memory line");
    let mib: f64 = memory.split(' ').next().unwrap().parse().unwrap();
    assert!(mib > 0.0, "{memory}");
    let (out, stdout) = run(&["--version"]);
    assert!(out.status.success());
    assert_eq!(
        stdout,
        format!("omega-match {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// The `play` lines of a record's text.
fn replay_text(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("play "))
        .map(str::to_string)
        .collect()
}

/// `--resume DIR` takes the settings saved in DIR, counts the games recorded there and plays
/// only the others.
#[test]
fn resume_plays_only_the_missing_games() {
    let dir = fresh_dir("resume");
    let d = dir.to_str().unwrap();
    let e = fakes(2);
    let (out, _, stderr) = run_engines(
        &e[..2],
        &["--games", "6", "--openings", "random:1", "--records", d],
    );
    assert!(out.status.success(), "{stderr}");
    let full: Vec<String> = records(&dir)
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    // As if the match had stopped after game 3, one record half written.
    for n in 4..=6 {
        std::fs::remove_file(dir.join(format!("game-0000{n}.gtp"))).unwrap();
    }
    std::fs::write(
        dir.join(".game-00004.gtp.tmp"),
        "# omega-match game 4 of 6\n",
    )
    .unwrap();
    let (out, stdout, stderr) = run_in(&["--resume", d, "--concurrency", "2"]);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("Resumed: 3 games of 6 already played"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("Finished game ").count(), 3, "{stdout}");
    assert!(!stdout.contains("Finished game 1 "), "{stdout}");
    // Games 1-3 are untouched; 4-6 are played again with the same seats and openings (the
    // fake engines' own random turns differ: their generators went on from game to game).
    let files = records(&dir);
    assert_eq!(files.len(), 6);
    let mut wins = 0;
    for (k, f) in files.iter().enumerate() {
        let text = std::fs::read_to_string(f).unwrap();
        if k < 3 {
            assert_eq!(text, full[k]);
        }
        let (a, b) = (replay(f), check_record(f));
        for key in ["white", "black", "opening"] {
            let before: HashMap<String, String> = full[k]
                .lines()
                .filter_map(|l| l.strip_prefix("# ")?.split_once(": "))
                .map(|(x, y)| (x.to_string(), y.to_string()))
                .collect();
            assert_eq!(a.headers[key], before[key], "{key} of game {}", k + 1);
        }
        assert_eq!(a.plays[0], replay_text(&full[k])[0]);
        wins += u64::from(b.headers["winner"].ends_with("(e1)"));
    }
    assert_eq!(last_score(&stdout), (wins, 6 - wins, 0, 6));
    let (out, _, stderr) = run_in(&["--resume", d, "--games", "8"]);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
}

/// The `hexed_start` line of each record of `dir`, in order.
fn hexed_starts(dir: &Path) -> Vec<String> {
    records(dir)
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let line = text.lines().find(|l| l.starts_with("hexed_start"));
            line.expect("a hexed_start line").to_string()
        })
        .collect()
}

#[test]
fn hexed_matches_draw_a_start_for_each_game_pair_when_asked() {
    let engine = format!("{OMEGA} --game hexed --player random");
    let run_with = |name: &str, extra: &[&str]| {
        let dir = fresh_dir(name);
        let mut args = vec!["--game", "hexed", "--engine", &engine, "--engine", &engine];
        args.extend_from_slice(&["--games", "8", "--movetime", "0.05", "--seed", "5"]);
        args.extend_from_slice(extra);
        let dir_text = dir.to_string_lossy().to_string();
        args.extend_from_slice(&["--records", &dir_text]);
        let (out, stdout) = run(&args);
        assert!(out.status.success(), "{stdout}");
        hexed_starts(&dir)
    };
    // Without the flag every game starts from the default ring.
    let fixed = run_with("hexed-fixed-start", &[]);
    assert_eq!(fixed.len(), 8);
    assert!(
        fixed.iter().all(|l| l == "hexed_start e5 red red"),
        "{fixed:?}"
    );
    // With it, both games of a pair share a start, and the pairs do not all share one.
    let drawn = run_with("hexed-random-start", &["--random-start"]);
    assert_eq!(drawn.len(), 8);
    for pair in drawn.chunks(2) {
        assert_eq!(pair[0], pair[1]);
    }
    let mut distinct = drawn.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() >= 3, "{drawn:?}");
    // Only a game with a start of its own takes the flag.
    let (out, _) = run(&["--engine", OMEGA, "--engine", OMEGA, "--random-start"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--random-start is for hexed"));
}

/// Ctrl-C stops the match at once with the summary so far, exit status 130; the engines it
/// killed in the middle of a turn are still measured (their peak memory is read before the
/// kill: once reaped, `/proc` no longer knows them).
#[test]
fn ctrl_c_stops_the_match_and_still_measures_the_engines_it_killed() {
    use std::io::{BufRead, BufReader};
    // Both engines hang at their first genmove, well within the 30 s turn: the match is
    // stopped in the middle of a turn, and every engine process is killed.
    let a = format!("{FAKE} --seed 1 --name a --hang-at 1");
    let b = format!("{FAKE} --seed 2 --name b --hang-at 1");
    let mut child = Command::new(MATCH)
        .args(["--engine", &a, "--engine", &b, "--games", "2"])
        .args(["--movetime", "30", "--size", "3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run omega-match");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut stdout = String::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        stdout += &line;
        stdout.push('\n');
        if line.starts_with("Started game 1 of 2") {
            break;
        }
    }
    // Time for the driver to send the genmove the engine hangs on.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(sent.success());
    for line in lines {
        stdout += &line.unwrap();
        stdout.push('\n');
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{stdout}");
    assert!(
        stdout.contains("Match interrupted after 0 games"),
        "{stdout}"
    );
    let memory = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Peak memory: "))
        .unwrap_or_else(|| panic!("a Peak memory line: {stdout}"));
    for (name, figure) in memory.split(", ").map(|e| e.split_once(' ').unwrap()) {
        assert!(name == "a" || name == "b", "{memory}");
        let mib: f64 = figure.trim_end_matches(" MiB").parse().expect(memory);
        assert!(mib > 0.0, "{memory}");
    }
    assert_eq!(memory.split(", ").count(), 2, "{memory}");
}

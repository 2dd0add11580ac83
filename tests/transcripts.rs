//! Transcript tests: the built `omega` binary is run on every `tests/transcripts/*.in` and its
//! stdout must equal the `.out` beside it byte for byte; it must exit with status 0 and print
//! no panic on stderr.
//!
//! An optional first line `# args: ...` gives the command-line flags (the engine itself reads
//! it as a comment). Transcripts that use `genmove` must pick `--player random --seed N`, so
//! that tuning the search never changes them.
//!
//! `BLESS=1 cargo test --test transcripts` rewrites the `.out` files from the engine's output.
//! Review every rewritten file against protocol.md before committing it: the expected files
//! encode the contract, not whatever the code happens to do.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// A transcript taking longer than this is a hang.
const TIMEOUT: Duration = Duration::from_secs(20);

fn transcript_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts")
}

/// The flags of an optional first line `# args: ...`.
fn flags(input: &[u8]) -> Vec<String> {
    let first = input.split(|&b| b == b'\n').next().unwrap_or(b"");
    let first = String::from_utf8_lossy(first);
    match first.trim_end().strip_prefix("# args:") {
        Some(rest) => rest.split_whitespace().map(str::to_string).collect(),
        None => Vec::new(),
    }
}

struct Run {
    stdout: Vec<u8>,
    stderr: String,
    status: Option<i32>,
}

/// Runs the engine with `args` on `input`, killing it after [`TIMEOUT`].
fn run_engine(args: &[String], input: Vec<u8>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_omega"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start omega");
    let mut stdin = child.stdin.take().unwrap();
    // The engine may stop reading (quit): a broken pipe here is expected.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = thread::spawn(move || {
        let mut v = Vec::new();
        out.read_to_end(&mut v).unwrap();
        v
    });
    let err_reader = thread::spawn(move || {
        let mut v = Vec::new();
        err.read_to_end(&mut v).unwrap();
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code();
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        thread::sleep(Duration::from_millis(5));
    };
    writer.join().unwrap();
    Run {
        stdout: reader.join().unwrap(),
        stderr: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
        status,
    }
}

/// Shows a byte string line by line, with invisible bytes made visible.
fn visible(line: &[u8]) -> String {
    let mut s = String::new();
    for chunk in line.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\r' => s.push_str("\\r"),
                '\t' => s.push_str("\\t"),
                c if c.is_control() => s.push_str(&format!("\\u{{{:x}}}", c as u32)),
                c => s.push(c),
            }
        }
        for b in chunk.invalid() {
            s.push_str(&format!("\\x{b:02x}"));
        }
    }
    if s.ends_with(' ') {
        s.push('⏎'); // make trailing spaces visible
    }
    s
}

/// A line diff (longest common subsequence) of `expected` and `actual`, `-` and `+` marked,
/// with two lines of context around each change.
fn diff(expected: &[u8], actual: &[u8]) -> String {
    let a: Vec<&[u8]> = expected.split(|&b| b == b'\n').collect();
    let b: Vec<&[u8]> = actual.split(|&b| b == b'\n').collect();
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut ops = Vec::new(); // (mark, text)
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push((' ', visible(a[i])));
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            ops.push(('+', visible(b[j])));
            j += 1;
        } else {
            ops.push(('-', visible(a[i])));
            i += 1;
        }
    }
    let near_change = |k: usize| {
        ops[k.saturating_sub(2)..(k + 3).min(ops.len())]
            .iter()
            .any(|(mark, _)| *mark != ' ')
    };
    let mut out = String::from("--- expected\n+++ actual\n");
    let mut skipped = false;
    for (k, (mark, text)) in ops.iter().enumerate() {
        if near_change(k) {
            out.push_str(&format!("{mark} {text}\n"));
            skipped = false;
        } else if !skipped {
            out.push_str("  ...\n");
            skipped = true;
        }
    }
    out
}

/// Checks one transcript; returns a description of every failure.
fn check(input_path: &Path, bless: bool) -> Vec<String> {
    let name = input_path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let input = std::fs::read(input_path).unwrap();
    let args = flags(&input);
    let run = run_engine(&args, input);
    let mut failures = Vec::new();
    match run.status {
        Some(0) => {}
        Some(code) => failures.push(format!("{name}: exit status {code}, expected 0")),
        None => failures.push(format!("{name}: killed (timeout or signal)")),
    }
    if run.stderr.contains("panicked") || run.stderr.contains("RUST_BACKTRACE") {
        failures.push(format!("{name}: panic on stderr:\n{}", run.stderr));
    }
    let out_path = input_path.with_extension("out");
    if bless {
        std::fs::write(&out_path, &run.stdout).unwrap();
        return failures;
    }
    match std::fs::read(&out_path) {
        Err(e) => failures.push(format!("{name}: cannot read {}: {e}", out_path.display())),
        Ok(expected) if expected != run.stdout => failures.push(format!(
            "{name}: stdout differs from {}\n{}",
            out_path.file_name().unwrap().to_string_lossy(),
            diff(&expected, &run.stdout)
        )),
        Ok(_) => {}
    }
    failures
}

fn transcripts() -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(transcript_dir())
        .expect("tests/transcripts exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    inputs.sort();
    inputs
}

#[test]
fn transcripts_match_expected_output() {
    let bless = std::env::var_os("BLESS").is_some_and(|v| v != "0");
    let inputs = transcripts();
    assert!(inputs.len() >= 10, "transcripts missing: {inputs:?}");
    // Transcript 16 saves and loads games under `target/`, which a build with
    // CARGO_TARGET_DIR set elsewhere does not make.
    std::fs::create_dir_all("target").unwrap();
    // Run them two at a time (CI has 2 cores).
    let failures: Vec<String> = inputs
        .chunks(2)
        .flat_map(|pair| {
            let handles: Vec<_> = pair
                .iter()
                .cloned()
                .map(|p| thread::spawn(move || check(&p, bless)))
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failure(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Every command `list_commands` names appears in some transcript, so none goes untested.
#[test]
fn every_listed_command_has_a_transcript() {
    let run = run_engine(&[], b"list_commands\n".to_vec());
    let out = String::from_utf8(run.stdout).unwrap();
    let body = out
        .strip_prefix("= ")
        .and_then(|s| s.strip_suffix("\n\n"))
        .expect("framed answer");
    let all_inputs: Vec<String> = transcripts()
        .iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned())
        .collect();
    let commands: Vec<&str> = body.lines().collect();
    assert!(commands.len() >= 18, "{commands:?}");
    for command in commands {
        let used = all_inputs.iter().any(|text| {
            text.lines().any(|line| {
                let mut words = line.split_whitespace();
                let first = words.next();
                first == Some(command)
                    || (first.is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()))
                        && words.next() == Some(command))
            })
        });
        assert!(used, "no transcript uses `{command}`");
    }
}

/// The harness itself: a wrong expectation must be caught, and the diff must show it.
#[test]
fn harness_detects_a_difference() {
    let d = diff(b"= 2\n\n= omega\n\n", b"= 2\n\n= omgea\n\n");
    assert!(d.contains("- = omega") && d.contains("+ = omgea"), "{d}");
    assert_eq!(
        flags(b"# args: --player random --seed 3\nname\n"),
        ["--player", "random", "--seed", "3"]
    );
    assert!(flags(b"name\n").is_empty());
    let run = run_engine(&[], b"name\n".to_vec());
    assert_eq!(run.status, Some(0));
    // The answer and its empty line, exactly: one byte less or more is a difference.
    assert_eq!(run.stdout, b"= omega\n\n");
}

/// protocol.md shows the example transcripts and the empty side-3 board exactly as the
/// engine prints them.
#[test]
fn protocol_md_examples_are_real_output() {
    let doc_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md");
    let doc = std::fs::read_to_string(doc_path).expect("protocol.md");
    let examples: Vec<PathBuf> = transcripts()
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("example"))
        .collect();
    assert!(examples.len() >= 2, "{examples:?}");
    for input_path in examples {
        let input = std::fs::read_to_string(&input_path).unwrap();
        let (first, commands) = input.split_once('\n').unwrap();
        let args = first
            .strip_prefix("# args:")
            .expect("examples give their flags")
            .trim();
        let output = std::fs::read_to_string(input_path.with_extension("out")).unwrap();
        for shown in [
            format!("`omega {args}`"),
            format!("```\n{commands}```"),
            format!("```\n{output}```"),
        ] {
            assert!(
                doc.contains(&shown),
                "protocol.md does not show {}:\n{shown}",
                input_path.display()
            );
        }
    }
    let run = run_engine(&[], b"boardsize 3\nshowboard\n".to_vec());
    let out = String::from_utf8(run.stdout).unwrap();
    let board = out.strip_prefix("= \n\n= \n").unwrap().trim_end();
    assert!(doc.contains(&format!("```\n{board}\n```")), "{board}");
}

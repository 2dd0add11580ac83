//! One engine as a child process speaking the line protocol (GTP 2 framing).
//!
//! A reader thread pushes the engine's stdout lines into a channel, so that every answer is
//! awaited with a deadline (`recv_timeout`): an engine that hangs is detected, killed and
//! reported, never waited on forever. The wait is cut into short slices so that a stop
//! request (Ctrl-C, a decided SPRT) aborts it quickly.
//!
//! The engine's stderr is always read by a thread of its own: its last lines are kept
//! ([`EngineProc::stderr_tail`]) to say why an engine failed, and they are passed on to the
//! driver's stderr when asked (`inherit_stderr`).

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How many of the engine's last stderr lines are kept.
pub const STDERR_TAIL_LINES: usize = 10;
/// Longest stderr line kept, in bytes (a runaway line must not fill the memory).
const STDERR_LINE_MAX: usize = 500;

/// The last lines an engine wrote to stderr, and whether it closed stderr.
#[derive(Default)]
struct StderrTail {
    lines: VecDeque<String>,
    closed: bool,
}

/// Why a command did not get a successful answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// The engine closed its output or could not be written to.
    Crashed(String),
    /// No complete answer within the limit; the engine has been killed.
    Timeout(Duration),
    /// A `? message` answer.
    Refused(String),
    /// An answer that is neither `= ...` nor `? ...`.
    Malformed(String),
    /// The match is stopping; the engine has been killed.
    Aborted,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Crashed(s) => write!(f, "crashed ({s})"),
            Fault::Timeout(d) => write!(f, "no answer within {:.3} s", d.as_secs_f64()),
            Fault::Refused(s) => write!(f, "answered '? {s}'"),
            Fault::Malformed(s) => write!(f, "malformed answer '{s}'"),
            Fault::Aborted => write!(f, "aborted"),
        }
    }
}

pub struct EngineProc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// False once the engine is known to be dead, hung or killed.
    healthy: bool,
    stderr: Arc<Mutex<StderrTail>>,
    /// The peak memory read just before the driver killed the process: once it is reaped
    /// `/proc` no longer knows it (and its id may belong to another process).
    peak_kib_at_kill: Option<u64>,
    /// True once the driver has killed and reaped the process.
    reaped: bool,
}

/// How often a wait looks at the stop flag.
const SLICE: Duration = Duration::from_millis(50);

impl EngineProc {
    /// Starts `argv` with piped stdin and stdout, in the driver's working directory. Its
    /// stderr lines are passed on to the driver's stderr when `inherit_stderr`, else only
    /// kept (the last few, see [`EngineProc::stderr_tail`]). The child gets a process group
    /// of its own so that Ctrl-C on the terminal reaches only the driver, which then stops
    /// the engines itself.
    pub fn spawn(argv: &[String], inherit_stderr: bool) -> std::io::Result<EngineProc> {
        EngineProc::spawn_in(argv, None, inherit_stderr)
    }

    /// [`EngineProc::spawn`] in the working directory `dir` (the driver's when `None`). A
    /// program named by a relative path with a `/` is found from `dir`, as a shell started
    /// there would find it.
    pub fn spawn_in(
        argv: &[String],
        dir: Option<&Path>,
        inherit_stderr: bool,
    ) -> std::io::Result<EngineProc> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| std::io::Error::other("empty command"))?;
        let mut command = Command::new(program);
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        let mut child = command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let stderr = Arc::new(Mutex::new(StderrTail::default()));
        let err_pipe = child.stderr.take().expect("piped stderr");
        let tail = Arc::clone(&stderr);
        thread::spawn(move || read_stderr(err_pipe, &tail, inherit_stderr));
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            for_each_line(stdout, |raw| {
                let line = String::from_utf8_lossy(raw);
                let line = line.trim_end_matches(['\n', '\r']).to_string();
                tx.send(line).is_ok()
            })
        });
        Ok(EngineProc {
            child,
            stdin,
            lines: rx,
            healthy: true,
            stderr,
            peak_kib_at_kill: None,
            reaped: false,
        })
    }

    pub fn is_healthy(&self) -> bool {
        self.healthy
    }

    /// The operating system's id of the process.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The last lines (at most [`STDERR_TAIL_LINES`]) the engine wrote to stderr. When the
    /// engine has ended, waits up to half a second for the reader to take in what it wrote
    /// last.
    pub fn stderr_tail(&mut self) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            let closed = self.stderr.lock().map(|t| t.closed).unwrap_or(true);
            let running = matches!(self.child.try_wait(), Ok(None));
            if closed || running || Instant::now() >= deadline {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        match self.stderr.lock() {
            Ok(t) => t.lines.iter().cloned().collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The engine's peak resident memory so far, in KiB (`VmHWM` of `/proc/PID/status`).
    /// After [`EngineProc::kill`], the figure read just before the kill, so that the engines
    /// a stopped match (Ctrl-C, a decided SPRT) or a time-out killed are still measured.
    /// `None` where `/proc` does not say, and for a process that ended on its own.
    pub fn peak_memory_kib(&self) -> Option<u64> {
        if self.reaped {
            return self.peak_kib_at_kill;
        }
        self.read_peak_memory_kib()
    }

    fn read_peak_memory_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Sends one command and waits for its answer, at most `limit`. Returns the body of a
    /// `=` answer (its lines joined by newlines) or the fault. After any fault other than
    /// `Refused` the engine is dead or killed and must not be used again.
    pub fn command(
        &mut self,
        cmd: &str,
        limit: Duration,
        stop: &AtomicBool,
    ) -> Result<String, Fault> {
        self.command_streaming(cmd, limit, stop, &mut |_| {})
    }

    /// As [`EngineProc::command`], and every line of the answer is also given to `on_line`
    /// as soon as it arrives (the first with its `=`), for answers that stream while the
    /// engine thinks (`analyze`, `genmove_analyze`).
    pub fn command_streaming(
        &mut self,
        cmd: &str,
        limit: Duration,
        stop: &AtomicBool,
        on_line: &mut dyn FnMut(&str),
    ) -> Result<String, Fault> {
        if !self.healthy {
            return Err(Fault::Crashed("already stopped".into()));
        }
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{cmd}").and_then(|_| stdin.flush()),
            None => Err(std::io::Error::other("stdin closed")),
        };
        if let Err(e) = written {
            let status = self.exit_status();
            self.kill();
            return Err(Fault::Crashed(format!(
                "cannot send '{cmd}': {e}; {status}"
            )));
        }
        let deadline = Instant::now() + limit;
        let mut answer: Vec<String> = Vec::new();
        loop {
            let now = Instant::now();
            if stop.load(Ordering::SeqCst) {
                self.kill();
                return Err(Fault::Aborted);
            }
            if now >= deadline {
                self.kill();
                return Err(Fault::Timeout(limit));
            }
            match self.lines.recv_timeout(SLICE.min(deadline - now)) {
                Ok(line) => {
                    if answer.is_empty() && line.trim().is_empty() {
                        continue; // blank lines between answers
                    }
                    if !answer.is_empty() && line.trim().is_empty() {
                        return self.finish(answer);
                    }
                    on_line(&line);
                    answer.push(line);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    // The engine closed its output before the answer's empty line: whatever
                    // it wrote of the answer does not count, it crashed.
                    let status = self.exit_status();
                    self.healthy = false;
                    return Err(Fault::Crashed(status));
                }
            }
        }
    }

    /// Interprets a complete answer: `=[id] body` or `?[id] message`.
    fn finish(&mut self, answer: Vec<String>) -> Result<String, Fault> {
        let first = &answer[0];
        let (ok, rest) = match first.chars().next() {
            Some('=') => (true, &first[1..]),
            Some('?') => (false, &first[1..]),
            _ => return Err(Fault::Malformed(answer.join(" / "))),
        };
        // Skip an optional numeric id right after the sign.
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        let mut body = rest.trim().to_string();
        for more in &answer[1..] {
            body.push('\n');
            body.push_str(more.trim());
        }
        if ok {
            Ok(body)
        } else {
            Err(Fault::Refused(body))
        }
    }

    /// A description of how the process ended, waiting briefly for it to end.
    fn exit_status(&mut self) -> String {
        for _ in 0..20 {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("{status}"),
                Ok(None) => thread::sleep(Duration::from_millis(10)),
                Err(e) => return format!("wait failed: {e}"),
            }
        }
        "output closed".to_string()
    }

    /// Kills the process and reaps it, keeping its peak memory for
    /// [`EngineProc::peak_memory_kib`].
    pub fn kill(&mut self) {
        self.healthy = false;
        self.stdin = None;
        if !self.reaped {
            self.peak_kib_at_kill = self.read_peak_memory_kib();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reaped = true;
    }

    /// Sends `quit`, gives the engine a moment to leave, then makes sure it is gone.
    pub fn quit(mut self) {
        if self.healthy {
            let never = AtomicBool::new(false);
            let _ = self.command("quit", Duration::from_millis(500), &never);
        }
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}

/// Reads the engine's stderr to its end: keeps the last lines, passes them on if asked.
fn read_stderr(pipe: impl Read, tail: &Mutex<StderrTail>, pass_on: bool) {
    for_each_line(pipe, |raw| {
        if pass_on {
            // The driver's stderr may be closed: nothing to do about it.
            let _ = std::io::stderr().write_all(raw);
        }
        let mut line = String::from_utf8_lossy(raw).trim_end().to_string();
        if line.len() > STDERR_LINE_MAX {
            let mut cut = STDERR_LINE_MAX;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            line.truncate(cut);
            line.push_str("...");
        }
        let Ok(mut t) = tail.lock() else {
            return false;
        };
        if t.lines.len() == STDERR_TAIL_LINES {
            t.lines.pop_front();
        }
        t.lines.push_back(line);
        true
    });
    if let Ok(mut t) = tail.lock() {
        t.closed = true;
    }
}

/// Calls `f` with every line of `pipe` (its line feed included) until the end, an error, or
/// `f` returns false.
fn for_each_line(pipe: impl Read, mut f: impl FnMut(&[u8]) -> bool) {
    let mut reader = BufReader::new(pipe);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if !f(&buf) {
                    return;
                }
            }
        }
    }
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

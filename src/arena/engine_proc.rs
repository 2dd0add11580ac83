//! One engine as a child process speaking the line protocol (GTP 2 framing).
//!
//! A reader thread pushes the engine's stdout lines into a channel, so that every answer is
//! awaited with a deadline (`recv_timeout`): an engine that hangs is detected, killed and
//! reported, never waited on forever. The wait is cut into short slices so that a stop
//! request (Ctrl-C, a decided SPRT) aborts it quickly.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

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
}

/// How often a wait looks at the stop flag.
const SLICE: Duration = Duration::from_millis(50);

impl EngineProc {
    /// Starts `argv` with piped stdin and stdout. Its stderr is inherited or discarded. The
    /// child gets a process group of its own so that Ctrl-C on the terminal reaches only the
    /// driver, which then stops the engines itself.
    pub fn spawn(argv: &[String], inherit_stderr: bool) -> std::io::Result<EngineProc> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| std::io::Error::other("empty command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if inherit_stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .process_group(0)
            .spawn()?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(EngineProc {
            child,
            stdin,
            lines: rx,
            healthy: true,
        })
    }

    pub fn is_healthy(&self) -> bool {
        self.healthy
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

    pub fn kill(&mut self) {
        self.healthy = false;
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
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

impl Drop for EngineProc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

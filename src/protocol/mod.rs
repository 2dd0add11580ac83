//! The text protocol: GTP version 2 framing (a command line `[id] name [args]`, answers
//! `=[id] body` or `?[id] message`, each followed by an empty line) over any reader and
//! writer. The reference for users is `protocol.md`.

pub mod commands;
pub mod fuzzcheck;
mod handlers;
pub mod render;
mod variant;

use crate::engine::Engine;
use crate::games::engine::VariantEngine;
use crate::stop::Stop;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

/// Lines longer than this are refused whole (and read to their end without being kept), so
/// that no input can make the engine hold unbounded memory.
pub const MAX_LINE: usize = 1 << 20;

/// What a command produced: the body of its answer, or the message of its refusal.
pub type Reply = Result<String, String>;

/// The line with which GoGui asks to cut the running command short (its `gogui-interrupt`
/// convention): a comment, so it is never answered.
pub const INTERRUPT_LINE: &str = "# interrupt";

/// What an arriving input line does to the command that is running.
const IDLE: u8 = 0;
/// `genmove` and the like: only [`INTERRUPT_LINE`] stops them.
const INTERRUPTIBLE: u8 = 1;
/// `analyze` and pondering: any line (or the end of input) stops them.
const UNTIL_NEXT_LINE: u8 = 2;

/// What the input thread and the command loop share.
#[derive(Debug)]
struct Signals {
    /// The engine's stop signal.
    stop: Stop,
    /// [`IDLE`], [`INTERRUPTIBLE`] or [`UNTIL_NEXT_LINE`].
    mode: AtomicU8,
    /// Lines read by the input thread and not yet taken by the command loop.
    pending: AtomicUsize,
}

/// A protocol session: the engine, and whether `quit` was asked.
pub struct Session {
    /// Omega's engine; it also keeps the configuration that other games' engines start from.
    pub engine: Engine,
    /// The game being played when it is not Omega (`game NAME`).
    variant: Option<Box<dyn VariantEngine>>,
    quit: bool,
    signals: Arc<Signals>,
    /// Whether an input thread feeds the session ([`run`]). Without one, no line can ever
    /// arrive to end an `analyze`, so it ends at once.
    attached: bool,
}

impl Session {
    pub fn new(engine: Engine) -> Session {
        let signals = Arc::new(Signals {
            stop: engine.stop_signal(),
            mode: AtomicU8::new(IDLE),
            pending: AtomicUsize::new(0),
        });
        Session {
            engine,
            variant: None,
            quit: false,
            signals,
            attached: false,
        }
    }

    /// Answers one raw input line on `out`: nothing when the line holds no command (empty or
    /// a comment after preprocessing), otherwise the whole framed answer, empty line
    /// included. Streaming answers (`analyze`) write their lines as they come.
    pub fn answer_line(&mut self, raw: &[u8], out: &mut dyn Write) -> io::Result<()> {
        let Some(line) = preprocess(raw) else {
            return Ok(());
        };
        let (id, name, args) = commands::split_line(&line);
        // A stop raised for the last command (a late interrupt) must not cut this one.
        self.signals.stop.lower();
        let mut answer = Answer::new(out, id.unwrap_or(""));
        let reply = match commands::find(name) {
            None => Err("unknown command".to_string()),
            Some(spec) => commands::parse_arguments(spec, args)
                .map_err(|e| format!("syntax error: {e}"))
                .and_then(|command| handlers::run(self, command, &mut answer)),
        };
        answer.finish(reply)
    }

    /// [`Session::answer_line`] into a string: `None` when the line holds no command.
    pub fn answer(&mut self, raw: &[u8]) -> Option<String> {
        let mut out = Vec::new();
        self.answer_line(raw, &mut out)
            .expect("writing to memory does not fail");
        (!out.is_empty()).then(|| String::from_utf8_lossy(&out).into_owned())
    }

    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Sets up the game the command line names (`--game`, `--swap`), as `game NAME` and
    /// `rules swap on|off` would; the error says why not (an unknown game, a player the
    /// game does not have).
    pub fn start(&mut self, game: Option<&str>, swap: Option<bool>) -> Result<(), String> {
        let name = game.unwrap_or("omega");
        handlers::switch_game(self, name)?;
        if let Some(on) = swap {
            let command = commands::Command::Rules(Some(on));
            let mut sink = Vec::new();
            let mut answer = Answer::new(&mut sink, "");
            handlers::run(self, command, &mut answer)?;
        }
        Ok(())
    }

    /// The transcript of the game in play when it is not Omega.
    pub fn variant_transcript(&self) -> Option<String> {
        self.variant.as_ref().map(|v| v.transcript())
    }

    /// The name of the game being played.
    pub fn game_name(&self) -> &'static str {
        self.variant.as_ref().map_or("omega", |v| v.name())
    }

    /// Runs `f` so that [`INTERRUPT_LINE`] stops its search (`genmove`, `solve`).
    fn interruptible<T>(&mut self, f: impl FnOnce(&mut Session) -> T) -> T {
        self.with_mode(INTERRUPTIBLE, f)
    }

    /// Runs `f` until the next input line arrives (`analyze`, pondering): the stop signal
    /// is raised then, or at once if a line is already waiting.
    fn until_next_line<T>(&mut self, f: impl FnOnce(&mut Session) -> T) -> T {
        self.with_mode(UNTIL_NEXT_LINE, f)
    }

    fn with_mode<T>(&mut self, mode: u8, f: impl FnOnce(&mut Session) -> T) -> T {
        self.signals.mode.store(mode, Ordering::SeqCst);
        // The input thread counts a line and then reads the mode; here the mode is set and
        // then the count read: one of the two sees the other, so no line is missed.
        if mode == UNTIL_NEXT_LINE && self.line_waiting() {
            self.signals.stop.raise();
        }
        let result = f(self);
        self.signals.mode.store(IDLE, Ordering::SeqCst);
        result
    }

    fn line_waiting(&self) -> bool {
        !self.attached || self.signals.pending.load(Ordering::SeqCst) > 0
    }

    /// Thinks on an opponent's turn until the next line arrives, if the engine wants to.
    fn ponder(&mut self) {
        if self.variant.is_none() && self.engine.wants_to_ponder() && !self.line_waiting() {
            self.signals.stop.lower();
            self.until_next_line(|s| s.engine.ponder());
        }
    }
}

/// The answer to one command, written as it is made. A plain answer is framed whole:
/// `=[id] body` or `?[id] message`, then the empty line. A streaming answer starts with the
/// line `=[id] ` at once, then one line at a time, and ends with its last body line (if any)
/// and the empty line.
pub struct Answer<'a> {
    out: &'a mut dyn Write,
    id: String,
    started: bool,
    /// The first write error: later writes are skipped and [`Answer::finish`] returns it.
    error: Option<io::Error>,
}

impl<'a> Answer<'a> {
    fn new(out: &'a mut dyn Write, id: &str) -> Answer<'a> {
        Answer {
            out,
            id: id.to_string(),
            started: false,
            error: None,
        }
    }

    /// Starts a streaming answer. Contract: the command can no longer be refused.
    pub fn start(&mut self) {
        if !self.started {
            self.started = true;
            let head = format!("={} \n", self.id);
            self.write(&head);
        }
    }

    /// One more line of a streaming answer (started if it was not), flushed at once.
    /// Contract: `text` holds no line feed and is not empty.
    pub fn line(&mut self, text: &str) {
        self.start();
        self.write(&format!("{text}\n"));
    }

    fn write(&mut self, text: &str) {
        if self.error.is_none() {
            let written = self.out.write_all(text.as_bytes());
            if let Err(e) = written.and_then(|_| self.out.flush()) {
                self.error = Some(e);
            }
        }
    }

    fn finish(mut self, reply: Reply) -> io::Result<()> {
        let tail = match (self.started, reply) {
            (false, reply) => frame(&self.id, reply),
            (true, Ok(body)) if body.is_empty() => "\n".to_string(),
            (true, Ok(body)) => format!("{body}\n\n"),
            (true, Err(message)) => {
                // Contract broken: report it on the log, end the answer all the same.
                log::error!("a started answer was refused: {message}");
                "\n".to_string()
            }
        };
        self.write(&tail);
        self.error.map_or(Ok(()), Err)
    }
}

/// GTP 2 section 3.1: drop control characters but tab (LF ends the line already), cut `#`
/// comments, tab becomes space; lines left empty hold no command. Bytes that are not UTF-8
/// become U+FFFD, so they can only ever spell an unknown word.
pub fn preprocess(raw: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(raw);
    let mut line: String = text
        .chars()
        .take_while(|&c| c != '#')
        .filter(|&c| c == '\t' || !c.is_control())
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    line = line.trim_matches(' ').to_string();
    (!line.is_empty()).then_some(line)
}

fn frame(id: &str, reply: Reply) -> String {
    match reply {
        Ok(body) => format!("={id} {body}\n\n"),
        Err(message) => format!("?{id} {message}\n\n"),
    }
}

/// Bytes kept of a line longer than [`MAX_LINE`]: enough to find its id.
const KEPT_OF_LONG_LINE: usize = 64;

/// Reads one line into `buf` (without its LF). Returns `Ok(None)` at end of input, and
/// `Ok(Some(false))` for a line longer than [`MAX_LINE`], whose bytes are skipped but for
/// its first [`KEPT_OF_LONG_LINE`], left in `buf` so that its id can still be echoed.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
    buf.clear();
    let mut fits = true;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any.then_some(fits));
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if fits && buf.len() + part.len() <= MAX_LINE {
            buf.extend_from_slice(part);
        } else if fits {
            fits = false;
            let missing = KEPT_OF_LONG_LINE.saturating_sub(buf.len());
            buf.extend_from_slice(&part[..missing.min(part.len())]);
            buf.truncate(KEPT_OF_LONG_LINE);
        }
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            return Ok(Some(fits));
        }
    }
}

/// What the input thread hands the command loop.
enum Input {
    /// A line (without its LF), and whether it fit in [`MAX_LINE`]; a line too long keeps
    /// only its start, for its id.
    Line(Vec<u8>, bool),
    Error(io::Error),
}

/// The input thread: reads lines until the end of input (or an error) and hands them on;
/// stops the running command when a line arrives that should stop it.
fn read_input(mut input: impl BufRead, lines: mpsc::Sender<Input>, signals: Arc<Signals>) {
    loop {
        let mut buf = Vec::new();
        let item = match read_line(&mut input, &mut buf) {
            Ok(Some(fits)) => Some(Input::Line(buf, fits)),
            Ok(None) => None,
            Err(e) => Some(Input::Error(e)),
        };
        let interrupt = matches!(&item, Some(Input::Line(l, _)) if is_interrupt(l));
        let last = !matches!(item, Some(Input::Line(..)));
        signals.pending.fetch_add(1, Ordering::SeqCst);
        // The mode is read before the line is handed on: afterwards it could already be the
        // mode of the command this very line carries (an `analyze` would stop itself).
        // The end of input counts as a line: it ends an `analyze` too.
        let mode = signals.mode.load(Ordering::SeqCst);
        if mode == UNTIL_NEXT_LINE || (mode == INTERRUPTIBLE && interrupt) {
            signals.stop.raise();
        }
        let sent = match item {
            Some(item) => lines.send(item).is_ok(),
            None => true,
        };
        if last || !sent {
            return;
        }
    }
}

fn is_interrupt(line: &[u8]) -> bool {
    String::from_utf8_lossy(line).trim() == INTERRUPT_LINE
}

/// Runs the protocol until `quit` or the end of input. Every answer is flushed at once.
/// Input is read by a thread of its own, so that a line can stop a running search.
pub fn run(
    session: &mut Session,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    let (sender, lines) = mpsc::channel();
    let signals = Arc::clone(&session.signals);
    session.attached = true;
    std::thread::spawn(move || read_input(input, sender, signals));
    loop {
        session.ponder();
        // The sender is gone at the end of input.
        let Ok(item) = lines.recv() else { break };
        session.signals.pending.fetch_sub(1, Ordering::SeqCst);
        match item {
            Input::Line(buf, true) => session.answer_line(&buf, &mut output)?,
            Input::Line(start, false) => {
                let id = preprocess(&start)
                    .and_then(|start| commands::split_line(&start).0.map(str::to_string))
                    .unwrap_or_default();
                let answer = frame(&id, Err(format!("line longer than {MAX_LINE} bytes")));
                output.write_all(answer.as_bytes())?;
                output.flush()?;
            }
            Input::Error(e) => return Err(e),
        }
        if session.quit_requested() {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing_follows_gtp() {
        assert_eq!(preprocess(b"  name  # comment"), Some("name".into()));
        assert_eq!(preprocess(b"# only a comment"), None);
        assert_eq!(preprocess(b"\t \r"), None);
        assert_eq!(preprocess(b"play\tw\ta1\r"), Some("play w a1".into()));
        assert_eq!(preprocess(b"na\x01me\x7f"), Some("name".into()));
        assert_eq!(preprocess(b"\xff\xfe"), Some("\u{fffd}\u{fffd}".into()));
    }

    #[test]
    fn long_lines_are_skipped_whole() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\nname\n");
        let mut reader = io::Cursor::new(input);
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut reader, &mut buf).unwrap(), Some(false));
        assert_eq!(buf.len(), KEPT_OF_LONG_LINE, "the start is kept for the id");
        assert_eq!(read_line(&mut reader, &mut buf).unwrap(), Some(true));
        assert_eq!(buf, b"name");
        assert_eq!(read_line(&mut reader, &mut buf).unwrap(), None);
    }
}

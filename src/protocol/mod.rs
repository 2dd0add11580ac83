//! The text protocol: GTP version 2 framing (a command line `[id] name [args]`, answers
//! `=[id] body` or `?[id] message`, each followed by an empty line) over any reader and
//! writer. The reference for users is `protocol.md`.

pub mod commands;
mod handlers;
pub mod render;

use crate::engine::Engine;
use std::io::{self, BufRead, Write};

/// Lines longer than this are refused whole (and read to their end without being kept), so
/// that no input can make the engine hold unbounded memory.
pub const MAX_LINE: usize = 1 << 20;

/// What a command produced.
pub type Reply = Result<String, String>;

/// A protocol session: the engine, and whether `quit` was asked.
pub struct Session {
    pub engine: Engine,
    quit: bool,
}

impl Session {
    pub fn new(engine: Engine) -> Session {
        Session {
            engine,
            quit: false,
        }
    }

    /// Answers one raw input line: `None` when the line holds no command (empty or a comment
    /// after preprocessing), otherwise the whole framed answer, empty line included.
    pub fn answer_line(&mut self, raw: &[u8]) -> Option<String> {
        let line = preprocess(raw)?;
        let (id, name, args) = commands::split_line(&line);
        let reply = match commands::find(name) {
            None => Err("unknown command".to_string()),
            Some(spec) => commands::parse_arguments(spec, args)
                .map_err(|e| format!("syntax error: {e}"))
                .and_then(|command| handlers::run(self, command)),
        };
        Some(frame(id.unwrap_or(""), reply))
    }

    pub fn quit_requested(&self) -> bool {
        self.quit
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

/// Runs the protocol until `quit` or the end of input. Every answer is flushed at once.
pub fn run(
    session: &mut Session,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut buf = Vec::new();
    while let Some(fits) = read_line(&mut input, &mut buf)? {
        let answer = if fits {
            session.answer_line(&buf)
        } else {
            let id = preprocess(&buf)
                .and_then(|start| commands::split_line(&start).0.map(str::to_string))
                .unwrap_or_default();
            Some(frame(
                &id,
                Err(format!("line longer than {MAX_LINE} bytes")),
            ))
        };
        if let Some(answer) = answer {
            output.write_all(answer.as_bytes())?;
            output.flush()?;
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

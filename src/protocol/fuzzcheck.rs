//! One step of protocol fuzzing, shared by the property tests (`tests/protocol_fuzz.rs`),
//! the coverage-guided fuzz target (`fuzz/`) and the test that replays its saved corpus
//! (`tests/fuzz_corpus.rs`): a line is answered, the answer is framed as GTP 2 requires, and
//! a refused command leaves the game exactly as it was.

use super::{preprocess, Session};
use crate::engine::{Engine, EngineConfig};
use crate::game::Colour;
use crate::player::PlayerKind;

/// Everything observable about the game.
#[derive(Debug, PartialEq)]
pub struct Snapshot {
    side: usize,
    players: usize,
    hash: u64,
    stones_placed: usize,
    to_move: Colour,
    over: bool,
    scores: Vec<u128>,
    history: Vec<Vec<u16>>,
    swap: (bool, bool),
    /// The game in play, and when it is not Omega its transcript (set-up, rules, moves).
    game: &'static str,
    other: Option<String>,
}

pub fn snapshot(s: &Session) -> Snapshot {
    let g = s.engine.game();
    Snapshot {
        side: g.board().side(),
        players: g.players(),
        hash: g.hash(),
        stones_placed: g.stones_placed(),
        to_move: g.to_move(),
        over: g.is_over(),
        scores: g.scores(),
        history: g.turn_history(),
        swap: (s.engine.swap_rule(), s.engine.swapped()),
        game: s.game_name(),
        other: s.variant_transcript(),
    }
}

/// A session of the random player (fast turns), seeded.
pub fn random_session(seed: u64) -> Session {
    let mut config = EngineConfig::for_player(PlayerKind::Random);
    config.options.seed = seed;
    Session::new(Engine::new(config))
}

/// A line shortened for messages.
pub fn show(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(&line[..line.len().min(120)]).into_owned();
    match line.len() > 120 {
        true => format!("{text:?}... ({} bytes)", line.len()),
        false => format!("{text:?}"),
    }
}

/// The id a well-formed command line carries, by GTP's grammar: digits, spaces, a word.
fn expected_id(line: &[u8]) -> Option<String> {
    let text = preprocess(line)?;
    let (id, rest) = text.split_once(' ')?;
    (id.bytes().all(|b| b.is_ascii_digit()) && !rest.trim_start_matches(' ').is_empty())
        .then(|| id.to_string())
}

/// Checks the framing of the answer to `line`: whether it is a success, or what is wrong.
pub fn check_frame(line: &[u8], answer: &str) -> Result<bool, String> {
    let ok = match answer.as_bytes().first() {
        Some(b'=') => true,
        Some(b'?') => false,
        _ => return Err(format!("bad status: {answer:?}")),
    };
    if !answer.ends_with("\n\n") {
        return Err(format!("no empty line after {answer:?}"));
    }
    let body = &answer[..answer.len() - 2];
    if body.ends_with('\n') {
        return Err(format!("more than one empty line: {answer:?}"));
    }
    if body.contains("\n\n") {
        return Err(format!("empty line inside: {answer:?}"));
    }
    let id = expected_id(line).unwrap_or_default();
    if !answer[1..].starts_with(&format!("{id} ")) {
        return Err(format!(
            "id {id:?} not echoed in {answer:?} for {}",
            show(line)
        ));
    }
    Ok(ok)
}

/// Answers `line` and checks the answer and the game: framing, a refusal changes nothing,
/// the game stays consistent, and only lines without a command go unanswered.
pub fn step(s: &mut Session, line: &[u8]) -> Result<(), String> {
    let before = snapshot(s);
    let Some(answer) = s.answer(line) else {
        if preprocess(line).is_some() {
            return Err(format!("no answer to {}", show(line)));
        }
        return Ok(());
    };
    if preprocess(line).is_none() {
        return Err(format!("an answer to the empty line {}", show(line)));
    }
    if !check_frame(line, &answer)? && snapshot(s) != before {
        return Err(format!(
            "refused {} -> {answer:?} changed the game",
            show(line)
        ));
    }
    s.engine.game().check_consistency()
}

/// Whether a fuzzer may send `line`: not `savegame` (it writes files wherever its argument
/// says) nor `solve` (an exact search that may take its whole limit, minutes). Both are
/// covered by their own tests.
pub fn fuzzable(line: &[u8]) -> bool {
    let Some(text) = preprocess(line) else {
        return true;
    };
    let (_, name, _) = super::commands::split_line(&text);
    !["savegame", "solve"]
        .iter()
        .any(|n| name.eq_ignore_ascii_case(n))
}

/// Lines taken from one fuzz input, and the longest line kept (the engine's own limit,
/// [`super::MAX_LINE`], is tested elsewhere; long inputs only slow the fuzzer).
pub const MAX_FUZZ_LINES: usize = 200;
pub const MAX_FUZZ_LINE: usize = 4096;

/// One fuzz input: a fresh session (its seed from the first byte) answers the input's lines,
/// each checked by [`step`]. Returns the number of lines sent, or the first fault found.
pub fn run_input(data: &[u8]) -> Result<usize, String> {
    let mut sent = 0;
    let seed = data.first().copied().unwrap_or(0);
    let mut s = random_session(u64::from(seed));
    for line in data.split(|&b| b == b'\n').take(MAX_FUZZ_LINES) {
        if line.len() > MAX_FUZZ_LINE || !fuzzable(line) {
            continue;
        }
        step(&mut s, line)?;
        sent += 1;
        if s.quit_requested() {
            break;
        }
    }
    Ok(sent)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks themselves must be able to fail.
    #[test]
    fn checks_reject_bad_answers() {
        assert_eq!(check_frame(b"name", "= omega\n\n"), Ok(true));
        assert_eq!(check_frame(b"7 foo", "?7 unknown command\n\n"), Ok(false));
        assert!(check_frame(b"7 name", "= omega\n\n").is_err());
        assert!(check_frame(b"name", "= omega\n").is_err());
        assert!(check_frame(b"name", "omega\n\n").is_err());
        assert!(!fuzzable(b"savegame /tmp/x") && !fuzzable(b"1 so\x01lve 9"));
        assert!(fuzzable(b"name") && fuzzable(b"# solve"));
        assert!(run_input(b"\x00boardsize 3\nplay white a1 c3\ngenmove black\nfoo\n").is_ok());
    }
}

//! Fuzz target: every input is a list of protocol lines answered by a fresh session; a
//! panic, a badly framed answer, or a refused command that changes the game is a crash.
//! The checks are `omega::protocol::fuzzcheck`'s, which `tests/fuzz_corpus.rs` also runs
//! over the saved corpus. Every million lines sent it prints `lines sent: N` to stderr.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::atomic::{AtomicU64, Ordering};

static LINES: AtomicU64 = AtomicU64::new(0);
const REPORT_EVERY: u64 = 1_000_000;

fuzz_target!(|data: &[u8]| {
    match omega::protocol::fuzzcheck::run_input(data) {
        Ok(sent) => {
            let before = LINES.fetch_add(sent as u64, Ordering::Relaxed);
            let after = before + sent as u64;
            if after / REPORT_EVERY > before / REPORT_EVERY {
                eprintln!("lines sent: {after}");
            }
        }
        Err(fault) => panic!("{fault}"),
    }
});

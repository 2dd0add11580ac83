//! The saved corpus of the coverage-guided protocol fuzzer (`fuzz/`, `scripts/fuzz.sh`)
//! replayed as an ordinary test: every input answered without a panic, every answer framed,
//! every refused command leaving the game unchanged (the checks of
//! `omega::protocol::fuzzcheck`, the same the fuzz target runs).

use omega::protocol::fuzzcheck::run_input;
use std::path::Path;

#[test]
fn saved_fuzz_corpus_replays_cleanly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/protocol");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 100, "only {} inputs", inputs.len());
    let mut lines = 0;
    for path in &inputs {
        let data = std::fs::read(path).unwrap();
        match run_input(&data) {
            Ok(sent) => lines += sent,
            Err(fault) => panic!("{}: {fault}", path.display()),
        }
    }
    assert!(lines > 10_000, "{lines} lines");
}

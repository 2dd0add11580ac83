#!/usr/bin/env bash
# Coverage-guided fuzzing of the protocol with libFuzzer (the crate in fuzz/), on the stable
# toolchain: libfuzzer-sys brings libFuzzer, and the coverage instrumentation is asked for
# with stable -C flags (what `cargo fuzz` adds, minus the nightly-only sanitizer flag).
#   scripts/fuzz.sh [SECONDS]        default 60; one job, new inputs kept in fuzz/corpus/protocol
#   scripts/fuzz.sh 600              about 10^7 lines (20,000-25,000 lines/s on one core here)
#   MERGE=1 scripts/fuzz.sh 0        only minimise the corpus (keep the inputs that add coverage)
# Prints libFuzzer's status and `lines sent: N` every million lines. A fault (panic, bad
# framing, a refused command that changed the game) stops it and leaves the input in
# fuzz/artifacts/. `cargo test --release` replays the saved corpus (tests/fuzz_corpus.rs).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds=${1:-60}
target=$(rustc -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
cargo build --release --target "$target" --bin protocol
bin=target/$target/release/protocol
mkdir -p corpus/protocol artifacts
if [[ -n ${MERGE:-} ]]; then
    fresh=$(mktemp -d)
    "$bin" -merge=1 -max_len=4096 "$fresh" corpus/protocol ../tests/transcripts
    rm -rf corpus/protocol && mv "$fresh" corpus/protocol
    exit 0
fi
"$bin" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix=artifacts/ -print_final_stats=1 corpus/protocol ../tests/transcripts

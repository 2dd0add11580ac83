#!/usr/bin/env bash
# Strength test of the working tree against a saved baseline build, stopped by an SPRT.
#   scripts/save-baseline.sh             # once, on the commit to compare against
#   scripts/sprt.sh [omega-match flags]  # e.g. --movetime 0.2 --size 6
# Environment: BASELINE (default target/baseline/omega), SPRT (default "0 10 0.05 0.05"),
# GAMES (default 2000, the cap), MOVETIME (default 0.1), CONCURRENCY (default 2),
# OPENINGS (default random:2), RECORDS (default target/sprt-records/<time>).
set -euo pipefail
cd "$(dirname "$0")/.."
baseline=${BASELINE:-target/baseline/omega}
if [[ ! -x $baseline ]]; then
    echo "no baseline at $baseline: run scripts/save-baseline.sh first" >&2
    exit 2
fi
cargo build --release --bin omega --bin omega-match
# A copy, so that a rebuild during the test does not change the engine under test.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp target/release/omega "$work/omega-new"
records=${RECORDS:-target/sprt-records/$(date +%Y%m%d-%H%M%S)}
# shellcheck disable=SC2086 # SPRT holds four words on purpose
target/release/omega-match \
    --engine "$work/omega-new --threads 1" --name new --engine "$baseline" --name baseline \
    --games "${GAMES:-2000}" --movetime "${MOVETIME:-0.1}" \
    --concurrency "${CONCURRENCY:-2}" --openings "${OPENINGS:-random:2}" \
    --sprt ${SPRT:-0 10 0.05 0.05} --records "$records" "$@"

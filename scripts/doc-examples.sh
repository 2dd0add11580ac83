#!/usr/bin/env bash
# Runs the example commands of docs/match.md and prints what they print, to regenerate the
# examples there (about a minute on 2 cores). The outputs go to target/doc-examples/*.txt.
#   scripts/doc-examples.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
out=target/doc-examples
rm -rf "$out" matches/greedy matches/three
mkdir -p "$out"
om=target/release/omega-match
run() { # name, then the omega-match arguments
    local name=$1
    shift
    echo "=== $name: omega-match $*" >&2
    "$om" "$@" >"$out/$name.txt" || true
}
run greedy \
    --engine "target/release/omega --threads 1" --name omega \
    --engine "target/release/omega --player greedy" --name greedy \
    --games 10 --movetime 0.1 --openings random:2 --seed 42 --concurrency 2 \
    --records matches/greedy
cp matches/greedy/game-00001.gtp "$out/record.txt"
run sprt \
    --engine "target/release/omega --player alphabeta --depth 4" --name depth4 \
    --engine "target/release/omega --player alphabeta --depth 1" --name depth1 \
    --games 400 --openings random:2 --seed 7 --concurrency 2 --sprt 0 50 0.05 0.05
run three \
    --engine "target/release/omega --player greedy" --name greedy \
    --engine "target/release/omega --player random --seed 1" --name random \
    --engine "target/release/omega --player alphabeta --depth 2" --name depth2 \
    --games 30 --openings random:1 --seed 5 --concurrency 2
"$om" --help >"$out/help.txt"
"$om" --version >"$out/version.txt"
for f in "$out"/*.txt; do
    echo "--- $f"
    cat "$f"
done

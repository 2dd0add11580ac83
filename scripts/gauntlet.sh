#!/usr/bin/env bash
# Gauntlet: the engine of the working tree against its random and greedy players.
#   scripts/gauntlet.sh [omega-match flags]
# Environment: GAMES per opponent (default 20), MOVETIME (default 0.1),
# CONCURRENCY (default 2), OPENINGS (default random:2).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin omega --bin omega-match
omega=target/release/omega
for opponent in random greedy; do
    echo "=== omega vs omega --player $opponent"
    target/release/omega-match \
        --engine "$omega --threads 1" --name omega --engine "$omega --player $opponent --seed 1" --name "$opponent" \
        --games "${GAMES:-20}" --movetime "${MOVETIME:-0.1}" \
        --concurrency "${CONCURRENCY:-2}" --openings "${OPENINGS:-random:2}" "$@" \
        | awk '/^Match / { done = 1 } /^(Finished game|Score of)/ && !done { next } { print }'
    echo
done

#!/usr/bin/env bash
# How far `solve` gets on side 4: positions of random games (--player random --seed T) with
# T turns left (side 4 has 18), each solved within LIMIT seconds (default 600).
#   scripts/solve-side4.sh [TURNS_LEFT...]      # default: 4 to 11
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin omega
for left in "${@:-4 5 6 7 8 9 10 11}"; do
    for l in $left; do
        {
            echo "boardsize 4"
            for ((i = 1; i <= 18 - l; i++)); do
                if ((i % 2)); then echo "genmove white"; else echo "genmove black"; fi
            done
            echo "solve ${LIMIT:-600}"
        } | RUST_LOG=info target/release/omega --player random --seed "$l" 2>&1 |
            grep -E "info solve" | sed "s/^/turns left $l: /"
    done
done

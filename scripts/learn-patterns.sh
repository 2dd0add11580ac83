#!/usr/bin/env bash
# Learns the playout pattern weights from self-play and writes src/playout/pattern_weights.rs.
#   scripts/learn-patterns.sh            # then rebuild, and measure the new weights
# Environment: GAMES per board size (default 500), PLAYOUTS per move of the self-play
# (default 20000), SIZES (default "4 5 6 7"), PLAYER (default mcts-plain), SEED (default 77),
# CONCURRENCY (default 2). The same settings give the same games and the same weights.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin omega --bin omega-match
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp target/release/omega "$work/omega"
for size in ${SIZES:-4 5 6 7}; do
    echo "self-play on side $size" >&2
    target/release/omega-match \
        --engine "$work/omega --player ${PLAYER:-mcts-plain} --playouts ${PLAYOUTS:-20000}" --name a \
        --engine "$work/omega --player ${PLAYER:-mcts-plain} --playouts ${PLAYOUTS:-20000} --seed 1" --name b \
        --games "${GAMES:-500}" --size "$size" --openings random:1 --seed "${SEED:-77}" \
        --concurrency "${CONCURRENCY:-2}" --records "$work/games-$size" | tail -n 3 >&2
done
"$work/omega" learn-patterns "$work"/games-*/*.gtp > src/playout/pattern_weights.rs
echo "wrote src/playout/pattern_weights.rs" >&2

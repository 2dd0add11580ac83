#!/usr/bin/env bash
# A match between two settings of the tree search at a fixed number of playouts a turn, the
# way every step of `mcts` in the README was measured (the same seed gives the same games).
#   scripts/param-match.sh "SET_A" "SET_B" [GAMES] [PLAYOUTS] [omega-match flags]
#   scripts/param-match.sh "ancestor_amaf=50,ancestor_flip=on" "" 400 20000
# SET_A and SET_B are `--set` lists for `--player mcts-plain` ("" = plain itself).
# Environment: PLAYER_A, PLAYER_B (default mcts-plain), SEED (default 11), CONCURRENCY (2).
set -euo pipefail
cd "$(dirname "$0")/.."
set_a=${1?settings of A}; set_b=${2-}; games=${3:-400}; playouts=${4:-20000}
shift $(( $# < 4 ? $# : 4 ))
cargo build --release --bin omega --bin omega-match
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp target/release/omega "$work/omega"
engine() { # player settings
    # One thread each: CONCURRENCY games share the cores.
    local cmd="$work/omega --player $1 --playouts $playouts --threads 1"
    [[ -n $2 ]] && cmd="$cmd --set $2"
    echo "$cmd"
}
target/release/omega-match \
    --engine "$(engine "${PLAYER_A:-mcts-plain}" "$set_a")" --name A \
    --engine "$(engine "${PLAYER_B:-mcts-plain}" "$set_b")" --name B \
    --games "$games" --openings random:1 --seed "${SEED:-11}" \
    --concurrency "${CONCURRENCY:-2}" "$@" |
    awk '/^Match / { done = 1 } /^(Finished game|Started)/ && !done { next } { print }'

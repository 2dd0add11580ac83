#!/usr/bin/env bash
# Learns the pattern weights from self-play and writes the table for a number of players:
# src/playout/pattern_weights.rs (2 players), pattern_weights_3p.rs or pattern_weights_4p.rs.
#   scripts/learn-patterns.sh               # 2 players; then rebuild, and measure the weights
#   PLAYERS=4 scripts/learn-patterns.sh     # 4 players
# Environment:
#   PLAYERS      2, 3 or 4 (default 2)
#   SIZES        board sides, each SIDE or SIDE:GAMES (default "5:1500" with 2 players, the
#                committed table; "4 5 6 7" with 3, "5 6 7 8" with 4)
#   PATTERNS_ONLY  1: fit the 3x3 patterns alone, the size classes held at 1 (default 1 with
#                2 players, as the committed table: the joint fit measured no better there);
#                0: fit both (the 3- and 4-player tables)
#   GAMES        games of a side without its own count (default 500)
#   PLAYOUTS     playouts a turn of the self-play, one thread an engine (default 20000)
#   PLAYER       the self-play player (default mcts-plain)
#   SEED         the match seed (default 77); the engine of seat k has seed k-1
#   CONCURRENCY  games at a time (default 2)
#   RECORDS      keep the games in this folder (default: a temporary folder, removed)
# The same settings give the same games and the same weights on any machine.
set -euo pipefail
cd "$(dirname "$0")/.."
players=${PLAYERS:-2}
case $players in
    2) out=src/playout/pattern_weights.rs; sizes="5:1500" ;;
    3) out=src/playout/pattern_weights_3p.rs; sizes="4 5 6 7" ;;
    4) out=src/playout/pattern_weights_4p.rs; sizes="5 6 7 8" ;;
    *) echo "PLAYERS must be 2, 3 or 4" >&2; exit 2 ;;
esac
cargo build --release --bin omega --bin omega-match
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
records=${RECORDS:-$work/games}
cp target/release/omega "$work/omega"
engines=()
for seat in $(seq 1 "$players"); do
    engines+=(--engine "$work/omega --player ${PLAYER:-mcts-plain} --playouts ${PLAYOUTS:-20000} --threads 1 --seed $((seat - 1))" --name "p$seat")
done
for entry in ${SIZES:-$sizes}; do
    size=${entry%%:*}
    games=${GAMES:-500}
    [[ $entry == *:* ]] && games=${entry#*:}
    echo "self-play on side $size, $players players, $games games" >&2
    target/release/omega-match --players "$players" "${engines[@]}" \
        --games "$games" --size "$size" --openings random:1 --seed "${SEED:-77}" \
        --concurrency "${CONCURRENCY:-2}" --records "$records/side-$size" | tail -n 3 >&2
done
fit=()
[[ ${PATTERNS_ONLY:-$((players == 2 ? 1 : 0))} == 1 ]] && fit=(--patterns-only)
"$work/omega" learn-patterns "${fit[@]}" "$records"/side-*/*.gtp > "$out"
echo "wrote $out" >&2

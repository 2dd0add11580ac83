#!/usr/bin/env bash
# Reliability soak: the default engine against itself and against `--player mcts-plain`,
# about 1,000 games at per-turn times from 0.05 s to 1 s and with absolute time, sides 4-10,
# 2-4 players, one game at a time while a load generator keeps the other core busy. Reports
# the games, the forfeits by cause, engine panics, the longest turn as a fraction of its time
# budget (measured by omega-match around the pipe) and the engines' peak memory.
#   scripts/soak.sh            the full soak (about half an hour on 2 cores)
#   scripts/soak.sh --quick    the same mix at 1/25 of the games (a few minutes)
#   SCALE=0.1 scripts/soak.sh  any other fraction of the games
# Target: 0 forfeits, 0 panics, no turn over its budget. Exit status 1 if a target is missed.
# Work files (records, logs) go to target/soak/.
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${SCALE:-1}
[[ ${1:-} == --quick ]] && scale=0.04
cargo build --release --bin omega --bin omega-match
work=target/soak
rm -rf "$work"
mkdir -p "$work"
cp target/release/omega "$work/omega"
# The load generator: one busy process for the whole soak, stopped on any exit.
(while :; do :; done) &
load=$!
trap 'kill "$load" 2>/dev/null || true' EXIT
omega="$work/omega --threads 1"

# segment NAME GAMES SIZE PLAYERS TIME-FLAGS...: GAMES (scaled, at least 2, even) split
# between self-play and the match against mcts-plain.
segment() {
    local name=$1 games=$2 size=$3 players=$4
    shift 4
    games=$(awk -v g="$games" -v s="$scale" 'BEGIN { n = int(g * s / 2 + 0.5); if (n < 1) n = 1; print n }')
    for opponent in self plain; do
        local other="$omega --seed 1" oname=omega-2
        if [[ $opponent == plain ]]; then
            other="$omega --player mcts-plain"
            oname=plain
        fi
        local dir="$work/$name-$opponent"
        echo "soak: $name $opponent: $games games, side $size, $players players, $*" >&2
        local status=0
        target/release/omega-match --engine "$omega" --name omega --engine "$other" --name "$oname" \
            --games "$games" --size "$size" --players "$players" --openings random:1 \
            --seed 1 --records "$dir" --engine-stderr "$@" \
            >"$dir.out" 2>"$dir.err" || status=$?
        echo "$status" >"$dir.status"
    done
}

segment s4-0.05 400 4 2 --movetime 0.05
segment s5-0.05 200 5 2 --movetime 0.05
segment s5-3p-0.1 100 5 3 --movetime 0.1
segment s6-4p-0.05 100 6 4 --movetime 0.05
segment s4-0.2 80 4 2 --movetime 0.2
segment s7-abs3 50 7 2 --time 3
segment s4-0.5 30 4 2 --movetime 0.5
segment s4-1 20 4 2 --movetime 1
segment s10-0.05 10 10 2 --movetime 0.05
segment s8-3p-abs5 10 8 3 --time 5

kill "$load" 2>/dev/null || true
# The report.
games=$(cat "$work"/*.out | sed -n 's/^Match [a-z]* after \([0-9]*\) games$/\1/p' | awk '{ s += $1 } END { print s + 0 }')
failed_runs=$(grep -L '^0$' "$work"/*.status | wc -l)
forfeits=$(cat "$work"/*/game-*.gtp | grep -c '^# ended: forfeit: ' || true)
panics=$(cat "$work"/*.err | grep -c 'panicked' || true)
echo "soak: $games games in $(( SECONDS / 60 )) min $(( SECONDS % 60 )) s, scale $scale"
echo "soak: runs that did not finish cleanly: $failed_runs"
echo "soak: forfeits: $forfeits"
cat "$work"/*/game-*.gtp | sed -n 's/^# ended: forfeit: //p' |
    sed -E "s/^[a-z]+ //; s/(crashed|no answer within|illegal turn|malformed answer|answered|resigned|failed to start).*/\1/" |
    sort | uniq -c | sed 's/^/soak:   /'
echo "soak: engine panics: $panics"
worst=$(cat "$work"/*.out | sed -n 's/^Longest turn: \([0-9.]*\) .*/\1/p' | sort -g | tail -1)
echo "soak: longest turn: ${worst:-0} of its time budget ($(grep -h '^Longest turn' "$work"/*.out | sort -t: -k2 -g | tail -1 | sed 's/.*(//; s/)//'))"
echo "soak: peak memory: $(grep -h '^Peak memory' "$work"/*.out | tr ',' '\n' | sed -n 's/.* \([0-9.]*\) MiB/\1/p' | sort -g | tail -1) MiB (largest engine process)"
if (( failed_runs > 0 || forfeits > 0 || panics > 0 )) || awk -v w="${worst:-0}" 'BEGIN { exit !(w > 1) }'; then
    echo "soak: a target was missed"
    exit 1
fi
echo "soak: all targets met"

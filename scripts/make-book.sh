#!/usr/bin/env bash
# A balanced opening book for `omega-match --openings file:PATH`: random openings of TURNS
# turns, kept when the engine's own search gives the player to move a winning chance within
# MARGIN of even (1/K for K players). One opening a line, the chance as a comment.
#   scripts/make-book.sh [COUNT] > book.txt          (default COUNT 20)
# Environment: SIZE (default 5), PLAYERS (2), TURNS (2), PLAYOUTS (20000: the search of each
# evaluation, reproducible), MARGIN (0.1), SEED (1: the first random opening's seed), TRIES
# (the most openings tried, default 20 x COUNT). The same settings give the same book.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-20}
size=${SIZE:-5} players=${PLAYERS:-2} turns=${TURNS:-2}
playouts=${PLAYOUTS:-20000} margin=${MARGIN:-0.1} seed=${SEED:-1}
tries=${TRIES:-$((20 * count))}
cargo build --release --bin omega >&2
omega=target/release/omega
colours=(white black red blue)
setup="boardsize $size
players $players
clear_board"
found=0
echo "# omega-match opening book: side $size, $players players, $turns turns, search of $playouts playouts, chance within $margin of even"
for ((t = 0; t < tries && found < count; t++)); do
    # A random opening: the random player's turns, seeded.
    commands=$setup
    for ((k = 0; k < turns; k++)); do
        commands+=$'\n'"genmove ${colours[k % players]}"
    done
    cells=$(printf '%s\nquit\n' "$commands" | "$omega" --player random --seed $((seed + t)) |
        sed -n 's/^= \(..*\)$/\1/p' | paste -sd ',' | sed 's/,/, /g')
    [[ -z $cells ]] && continue
    # Its evaluation: the winning chance of the player to move, the search's last word.
    plays=$setup
    k=0
    IFS=',' read -ra played <<<"$cells"
    for turn in "${played[@]}"; do
        plays+=$'\n'"play ${colours[k % players]} $turn"
        k=$((k + 1))
    done
    mover=${colours[turns % players]}
    chance=$(printf '%s\ngenmove_analyze %s 2\nquit\n' "$plays" "$mover" |
        "$omega" --player mcts --playouts "$playouts" --threads 1 --seed 1 2>/dev/null |
        grep '^info ' | tail -1 | sed -n 's/^info move [^v]* visits [0-9]* winrate \([0-9.]*\).*/\1/p')
    [[ -z $chance ]] && continue
    if awk -v c="$chance" -v m="$margin" -v k="$players" 'BEGIN { d = c - 1 / k; exit !(d <= m && -d <= m) }'; then
        echo "$cells # $mover to move: winning chance $chance"
        found=$((found + 1))
    fi
done
echo "make-book: $found openings of $t tried" >&2

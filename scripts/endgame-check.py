#!/usr/bin/env python3
"""Does the engine keep the won endgames it is given?

Plays GAMES side-5 games of the default against itself at 5,000 playouts a turn (two random
opening turns, drawn from SEED), and from turn 22 on asks the exact solver (`solve 20`) who
wins each position. Where the player to move is proven to win, the engine under test
(`omega --movetime MOVETIME` plus any extra flags) chooses the turn, and the solver checks
that the position after it is still won. Prints one line a proven position and the totals
by empty cells: {empty cells: [won positions, turns that lost the win]}.

    cargo build --release
    python3 scripts/endgame-check.py SEED GAMES MOVETIME [omega flags...]
    python3 scripts/endgame-check.py 1 8 1
"""
import random
import subprocess
import sys

OMEGA = "target/release/omega"
COLOURS = ["white", "black"]


def engine(args):
    return subprocess.Popen([OMEGA, "--threads", "1"] + args, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)


def ask(proc, line):
    """Sends one command and returns its answer's lines joined by spaces."""
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    out = []
    while True:
        answer = proc.stdout.readline()
        if not answer:
            raise SystemExit(f"the engine closed its output after: {line}")
        if answer.strip() == "" and out:
            return " ".join(out)
        if answer.strip():
            out.append(answer.strip())


def main():
    seed, games, movetime = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    gen = engine(["--playouts", "5000", "--seed", str(seed)])
    solver = engine([])
    tested = engine(["--movetime", movetime] + sys.argv[4:])
    cells = [c + str(r) for c in "abcdefghj" for r in range(1, 10)]
    totals = {}
    for g in range(games):
        for p in (gen, solver, tested):
            ask(p, "boardsize 5")
            ask(p, "clear_board")
        rnd = random.Random(seed * 1000 + g)
        for t in range(21):
            colour = COLOURS[t % 2]
            if t < 2:
                while True:
                    turn = " ".join(rnd.sample(cells, 2))
                    if ask(gen, f"play {colour} {turn}").startswith("="):
                        break
            else:
                turn = ask(gen, f"genmove {colour}")[2:]
            for p in (solver, tested):
                ask(p, f"play {colour} {turn}")
        for t in range(21, 26):
            colour = COLOURS[t % 2]
            before = ask(solver, "solve 20")
            turn = ask(tested, f"genmove {colour}")[2:]
            ask(solver, f"play {colour} {turn}")
            ask(gen, f"play {colour} {turn}")
            if f"{colour} wins" in before:
                after = ask(solver, "solve 20")
                kept = f"{colour} wins" in after
                lost = not kept and "unknown" not in after
                empty = 61 - 2 * t
                total = totals.setdefault(empty, [0, 0])
                total[0] += 1
                total[1] += int(lost)
                print(g, "empty", empty, "won for", colour, "played", turn, "->", after,
                      "LOST THE WIN" if lost else "", flush=True)
    print(totals)


if __name__ == "__main__":
    main()

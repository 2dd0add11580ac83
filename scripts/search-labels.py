#!/usr/bin/env python3
"""Label self-play positions with a search's value, as targets for the shapes' value.

usage: search-labels.py "OMEGA ARGS" OUT FIRST LAST DIR...

Walks the games FIRST..LAST (0-based, over the sorted *.gtp of the DIRs, as shape-value.py
numbers them) and before each turn t in 4..15 asks the engine `reg_genmove` for the mover,
reading the final `info playouts` log line (RUST_LOG=info, stderr merged): the mover's
winrate or the proven winner. Writes "game turn white_value" lines to OUT, which
shape-value-distill.py reads. Thirty-seventh session (README, "How the default was found"):
the 7,000 games of the shapes' value, two workers of 3,500 games each, 10 minutes:

    python3 scripts/search-labels.py "omega --threads 1 --playouts 5000 --seed 1" \
        lab1.txt 0 3499 DIR1 DIR2 DIR3
"""
import glob
import os
import subprocess
import sys

FIRST_TURN, LAST_TURN = 4, 15


def main():
    engine, out, first, last = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    dirs = sys.argv[5:]
    paths = [p for d in dirs for p in sorted(glob.glob(d + "/*.gtp"))]
    env = dict(os.environ, RUST_LOG="info")
    proc = subprocess.Popen(engine.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1, env=env)

    def ask(command):
        proc.stdin.write(command + "\n")
        proc.stdin.flush()
        logs = []
        while True:
            line = proc.stdout.readline()
            if not line:
                sys.exit("engine died")
            if line.startswith("=") or line.startswith("?"):
                answer = line
                # The blank line that ends the answer.
                while line.strip():
                    line = proc.stdout.readline()
                return answer, logs
            logs.append(line)

    with open(out, "w") as f:
        for number in range(first, min(last + 1, len(paths))):
            lines = open(paths[number]).read().splitlines()
            plays = [l for l in lines if l.startswith("play ")]
            ask("clear_board")
            for t, play in enumerate(plays):
                if FIRST_TURN <= t <= LAST_TURN:
                    mover = play.split()[1]
                    answer, logs = ask(f"reg_genmove {mover}")
                    info = [l for l in logs if "info playouts " in l]
                    if not answer.startswith("=") or not info:
                        sys.exit(f"game {number} turn {t}: {answer!r} {logs!r}")
                    words = info[-1].split()
                    if "proven" in words:
                        winner = words[words.index("proven") + 1]
                        white = 1.0 if winner == "white" else 0.0
                    else:
                        w = float(words[words.index("winrate") + 1])
                        white = w if mover == "white" else 1.0 - w
                    f.write(f"{number} {t} {white:.4f}\n")
                answer, _ = ask(play)
                if not answer.startswith("="):
                    sys.exit(f"game {number}: {play}: {answer!r}")
            f.flush()
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()


if __name__ == "__main__":
    main()

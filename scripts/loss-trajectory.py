#!/usr/bin/env python3
"""Where are a match's games won and lost? The win rate an engine sees, turn by turn.

Reads the 2-player game records of omega-match (`--records DIR`), keeps the games where the
engine named NAME (as the records' header names it: `omega`, `omega-2`, ...) played white,
replays each in a fresh ENGINE process and, before every turn NAME played after the opening
line, runs `genmove_analyze white` at MOVETIME seconds a turn. It records the best
candidate's win rate, whether that search chose the turn the game's engine played, and,
when the turn played is among the candidates listed, that turn's win rate. Then it `undo`es
the search's turn and plays the game's.

Output: one line per game (`turn:winrate`, `*` where the search chose another turn, the
played turn's win rate in brackets when listed), then, for the games NAME won and lost
apart, the mean and median win rate at each turn and how often the search disagreed.

Figures of the thirty-second session: docs/strength.md, "How the default was found". One core
or two by ENGINE's own options; about 25 seconds a game at MOVETIME 2 on side 5.

    omega-match --size 5 --engine "omega" --engine "omega --threads 1 --player mcts-plain" \\
        --games 100 --movetime 1 --openings random:1 --seed 3801 --concurrency 1 \\
        --records DIR
    python3 scripts/loss-trajectory.py "omega" DIR omega 2 [GAMES]

GAMES: read only the first GAMES records of DIR (by file name); all by default.
"""
import glob
import re
import shlex
import statistics
import subprocess
import sys


def header(lines, key):
    for line in lines:
        if line.startswith(f"# {key}: "):
            return line[len(key) + 4:]
    return ""


class Engine:
    """One engine process, spoken to one command at a time."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def ask(self, command):
        """The answer's lines, up to the empty line that ends it; fails on `?`."""
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        answer = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"engine ended during '{command}'")
            line = line.strip()
            if not line:
                if answer:
                    break
                continue
            answer.append(line)
        if answer[0].startswith("?"):
            raise RuntimeError(f"'{command}': {answer[0]}")
        return answer

    def close(self):
        self.ask("quit")
        self.proc.wait()


def candidates(info_line):
    """(cells, winrate) of each candidate of one `info` line, best first."""
    out = []
    for block in info_line.split("info move ")[1:]:
        words = block.split()
        at = words.index("visits")
        out.append((words[:at], float(words[words.index("winrate") + 1])))
    return out


def trajectory(engine_argv, movetime, lines):
    """[(turn, best winrate, agrees, played turn's winrate or None)] for white's turns."""
    plays = [line for line in lines if line.startswith("play ")]
    first = re.search(r"first (\d+) play lines", header(lines, "opening"))
    opening = int(first.group(1)) if first else 0
    engine = Engine(engine_argv + ["--movetime", str(movetime)])
    size = next(line.split()[1] for line in lines if line.startswith("boardsize"))
    engine.ask(f"boardsize {size}")
    engine.ask("players 2")
    # An `info` line every tenth of the turn (in centiseconds): the last one comes at most
    # that long before the search ends.
    interval = max(1, round(float(movetime) * 10))
    out = []
    for turn, play in enumerate(plays, start=1):
        words = play.split()
        if words[1] == "white" and turn > opening:
            answer = engine.ask(f"genmove_analyze white {interval}")
            infos = [line for line in answer if line.startswith("info")]
            listed = candidates(infos[-1]) if infos else []
            chosen = answer[-1].split()[1:]
            played = words[2:]
            best = listed[0][1] if listed else float("nan")
            played_rate = next((w for cells, w in listed if cells == played), None)
            out.append((turn, best, chosen == played, played_rate))
            engine.ask("undo")
        engine.ask(play)
    engine.close()
    return out


def summary(label, rows):
    print(f"{label}: {len(rows)} games")
    if not rows:
        return
    for turn in sorted({t for row in rows for t, *_ in row}):
        at = [(w, agrees) for row in rows for t, w, agrees, _ in row if t == turn]
        if len(at) < len(rows) / 2:
            continue
        rates = [w for w, _ in at if w == w]  # NaN: no candidate listed yet
        if not rates:
            continue
        disagree = sum(1 for _, agrees in at if not agrees)
        print(f"  turn {turn:2}: win rate mean {statistics.mean(rates):.3f} "
              f"median {statistics.median(rates):.3f}, another turn chosen {disagree}/{len(at)}")


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    engine_argv, folder, name, movetime = shlex.split(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    limit = int(sys.argv[5]) if len(sys.argv) > 5 else None
    won, lost = [], []
    for path in sorted(glob.glob(f"{folder}/*.gtp"))[:limit]:
        lines = open(path).read().splitlines()
        # Only 2-player games: `players 2` below, and white's win rate is its chance alone.
        if "players 2" not in lines or not header(lines, "white").startswith(f"{name} ("):
            continue
        row = trajectory(engine_argv, movetime, lines)
        white_won = header(lines, "winner").startswith("white")
        (won if white_won else lost).append(row)
        marks = " ".join(
            f"{t}:{w:.2f}{'' if agrees else '*'}"
            + ("" if agrees or played is None else f"({played:.2f})")
            for t, w, agrees, played in row)
        print(f"{path.split('/')[-1]} {'won' if white_won else 'lost'} {marks}", flush=True)
    summary(f"{name} as white, won", won)
    summary(f"{name} as white, lost", lost)


if __name__ == "__main__":
    main()

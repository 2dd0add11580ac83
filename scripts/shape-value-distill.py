#!/usr/bin/env python3
"""shape-value.py's fit with search values as (part of) the targets (distillation).

usage: shape-value-distill.py MIX LABELS OUT.rs DIR...

LABELS: label.py's "game turn white_value" lines (several files joined). A position of turn t
(at the turn's start, or after its white stone) with a label gets the target
(1 - MIX) * winner + MIX * value; unlabelled positions keep the winner. Prints the held-out
Brier scores (against the winner) and writes the table to OUT.rs, in the form of
src/playout/shape_weights.rs. Needs numpy; about ten minutes for 7,000 games.
"""
import glob
import importlib.util
import os
import sys

import numpy as np

# The board, the hexagons, the fit and the export are shape-value.py's.
_spec = importlib.util.spec_from_file_location(
    "sv", os.path.join(os.path.dirname(os.path.abspath(__file__)), "shape-value.py"))
sv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sv)


def positions(directories):
    rows, boards = [], []
    paths = [p for d in directories for p in sorted(glob.glob(d + "/*.gtp"))]
    for number, path in enumerate(paths):
        lines = open(path).read().splitlines()
        winner = next(l for l in lines if l.startswith("# winner:")).split()[2]
        white_won = 1.0 if winner == "white" else 0.0
        board = np.zeros(len(sv.CELLS) + 1, dtype=np.int64)
        board[sv.OUTSIDE_CELL] = sv.OFF

        def add(turn, phase):
            if 4 <= turn <= 26:
                rows.append([number, np.count_nonzero(board == sv.EMPTY), turn % 2, phase,
                             white_won, turn])
                boards.append(board.copy())

        for turn, words in enumerate(l.split() for l in lines if l.startswith("play ")):
            board[sv.NAME[words[2]]] = sv.WHITE
            add(turn, 1)
            board[sv.NAME[words[3]]] = sv.BLACK
            add(turn + 1, 0)
    return np.array(rows), np.array(boards)


def main():
    mix, labels_path, target = float(sys.argv[1]), sys.argv[2], sys.argv[3]
    dirs = sys.argv[4:]
    labels = {}
    for line in open(labels_path):
        g, t, v = line.split()
        labels[(int(g), int(t))] = float(v)
    data, boards = positions(dirs)
    game, empties, mover, phase, z, turn = (data[:, i] for i in range(6))
    q = np.array([labels.get((int(g), int(t)), np.nan) for g, t in zip(game, turn)])
    labelled = ~np.isnan(q)
    # Only the labelled games: their unlabelled late positions keep the winner.
    in_games = np.isin(game, np.unique(game[labelled]))
    y = np.where(labelled, (1 - mix) * z + mix * np.nan_to_num(q), z)
    print(f"{labelled.sum()} labelled positions in {len(np.unique(game[labelled]))} games; "
          f"mean |q - z| {np.abs(q[labelled] - z[labelled]).mean():.3f}")
    keep = in_games
    game, empties, mover, phase, z, y = (a[keep] for a in (game, empties, mover, phase, z, y))
    boards = boards[keep]
    stage = empties / len(sv.CELLS)
    test = game % 5 == 0
    train = ~test
    white, black = sv.hexagon_keys(boards, sv.canonical_codes())
    x, keys = sv.class_counts(white, black, train)
    base = np.column_stack([stage, mover, phase])
    terms = np.column_stack([base, x, x * stage[:, None]])
    fit = sv.value_study.fit_with_weights
    models = {"stage, mover": fit(base, z, train, iterations=15)[0],
              "hexagons, winner": fit(terms, z, train, iterations=15)[0],
              f"hexagons, mix {mix}": fit(terms, y, train, iterations=15)[0]}
    sv.value_study.print_scores(models, z, test, empties)
    x, keys = sv.class_counts(white, black, game >= 0)
    terms = np.column_stack([base, x, x * stage[:, None]])
    w = fit(terms, y, game >= 0, iterations=15)[1]
    k = len(keys)
    sv.export(target, w[:4], keys, w[4:4 + k], w[4 + k:], int(len(np.unique(game))))
    print(f"wrote {target}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""How well do random playouts judge a side-5 position, and what do group features add?

Reads the 2-player side-5 game records of each DIR (omega-match `--records DIR`), takes every
position from the fifth turn to the twenty-seventh, at each turn's start and after its
white stone, and for each computes
  - rf: the share of FILLS uniformly random fills of the rest of the game that white wins
    (the fill the default's playouts make: the empty cells in random order take the
    remaining stones' colours in turn order), the value a random-playout search converges
    to at a leaf;
  - 12 group features a colour: the sum of the logs of its group sizes (its log-score), its
    group count, its groups of size 1, 2, 3, 4 and 5 or more, the logs of the sizes of 5 and
    up, the empty cells next to two or more of its groups with the log-score a stone there
    would lose, the empty cells next to exactly one of its groups, and next to none.
Then it fits logistic models of the game's winner (Newton's method, a little L2) on the games
not numbered 0 mod 5 and prints, on the others, the Brier score and log-loss by empty
cells: rf as it is; rf calibrated (the logit of rf, times the stage too, with the stage and
the mover); the features alone; the features with the logit of rf. With `--patterns` it
also fits the features and rf with local shapes beside them, as an n-tuple evaluation
would read the board: every cell's hexagon (the cell and its six neighbours, each empty,
own, the other colour's or off the board) as a class up to the hexagon's twelve symmetries,
counted from white's side less from black's, for the classes seen at least MIN_COUNT times
in the training games, fitted with L2 of 1e-3 and of 1e-2 a row, then with 1e-3 and the
counts times the stage beside them.

Figures of the twenty-ninth session, and with `--patterns` of the thirty-third
(docs/strength.md, "How the default was found"). Needs numpy (`pip install numpy`); about
two minutes for 800 games, with or without `--patterns`.

    omega-match --size 5 --engine "omega --threads 1 --playouts 10000" \\
        --engine "omega --threads 1 --playouts 10000 --seed 7" --games 800 \\
        --openings random:1 --seed 3601 --concurrency 2 --records DIR
    python3 scripts/value-study.py DIR... [FILLS] [--patterns]
"""
import glob
import math
import os
import random
import sys

import numpy as np

SIDE = 5
WIDTH = 2 * SIDE - 1
LETTERS = "abcdefghjklmnopqrstuvwxyz"
CELLS = [(c, r) for r in range(WIDTH) for c in range(WIDTH) if abs(c - r) <= SIDE - 1]
INDEX = {p: i for i, p in enumerate(CELLS)}
NAME = {f"{LETTERS[c]}{r + 1}": INDEX[(c, r)] for (c, r) in CELLS}
# The six neighbours in turn around a cell (-1 off the board): the ring the hexagon classes
# rotate and reflect, and, off-board ones left out, the neighbours of the group scans.
AROUND = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)]
RING = [[INDEX.get((c + dc, r + dr), -1) for dc, dr in AROUND] for (c, r) in CELLS]
NEIGHBOURS = [[n for n in ring if n >= 0] for ring in RING]
EMPTY, WHITE, BLACK = 0, 1, 2


def groups(board, colour):
    """Each cell's group number (-1 off the colour) and the groups' sizes."""
    group = [-1] * len(board)
    sizes = []
    for start, stone in enumerate(board):
        if stone != colour or group[start] >= 0:
            continue
        group[start] = len(sizes)
        stack, size = [start], 0
        while stack:
            cell = stack.pop()
            size += 1
            for n in NEIGHBOURS[cell]:
                if board[n] == colour and group[n] < 0:
                    group[n] = group[start]
                    stack.append(n)
        sizes.append(size)
    return group, sizes


def score(board, colour):
    sizes = groups(board, colour)[1]
    return math.prod(sizes) if sizes else 0


def features(board):
    empties = [i for i, s in enumerate(board) if s == EMPTY]
    out = []
    for colour in (WHITE, BLACK):
        group, sizes = groups(board, colour)
        by_size = [sum(1 for s in sizes if s == k) for k in (1, 2, 3, 4)]
        by_size.append(sum(1 for s in sizes if s >= 5))
        merges = merge_loss = ones = nones = 0
        for e in empties:
            touched = {group[n] for n in NEIGHBOURS[e] if board[n] == colour}
            if len(touched) >= 2:
                merges += 1
                merge_loss += sum(math.log(sizes[g]) for g in touched)
                merge_loss -= math.log(sum(sizes[g] for g in touched) + 1)
            elif touched:
                ones += 1
            else:
                nones += 1
        out += [sum(math.log(s) for s in sizes), len(sizes), *by_size,
                sum(math.log(s) for s in sizes if s >= 5), merges, merge_loss, ones, nones]
    return out


OUTSIDE = 3
MIN_COUNT = 30


def canonical_ring(ring):
    """The least of the ring's 12 images under rotation and reflection."""
    images = []
    for seq in (ring, ring[::-1]):
        for k in range(6):
            images.append(seq[k:] + seq[:k])
    return min(images)


def hexagons(board):
    """Each cell's hexagon class from white's side, then from black's: the centre and the
    canonical ring, each entry 0 empty, 1 the side's colour, 2 the other, 3 off the board,
    as the digits of one number in base 4 (small to keep for 200,000 positions)."""
    def state(cell, own):
        if cell < 0:
            return OUTSIDE
        stone = board[cell]
        return 0 if stone == EMPTY else (1 if stone == own else 2)

    out = []
    for own in (WHITE, BLACK):
        keys = []
        for cell in range(len(board)):
            key = state(cell, own)
            for digit in canonical_ring(tuple(state(n, own) for n in RING[cell])):
                key = key * 4 + digit
            keys.append(key)
        out.append(keys)
    return out


def random_fill_value(board, next_colour, fills, rng):
    """White's share of wins over `fills` uniformly random fills (one cell stays empty)."""
    empties = [i for i, s in enumerate(board) if s == EMPTY]
    stones = len(empties) - 1
    wins = 0
    for _ in range(fills):
        filled = board[:]
        rng.shuffle(empties)
        for k in range(stones):
            filled[empties[k]] = WHITE if (k + next_colour) % 2 == 0 else BLACK
        wins += score(filled, WHITE) > score(filled, BLACK)
    return wins / fills


def positions(directories, fills, patterns=False):
    """Rows of game number, empty cells, mover, phase, rf, white won, features; and, with
    `patterns`, each row's hexagon keys from white's and from black's side."""
    rng = random.Random(1)
    rows = []
    shapes = []
    paths = [p for d in directories for p in sorted(glob.glob(d + "/*.gtp"))]
    for number, path in enumerate(paths):
        lines = open(path).read().splitlines()
        winner = next(l for l in lines if l.startswith("# winner:")).split()[2]
        white_won = 1.0 if winner == "white" else 0.0
        board = [EMPTY] * len(CELLS)

        def add(turn, phase):
            """The position in `turn` (0-based) with `phase` of its stones placed."""
            if 4 <= turn <= 26:
                rows.append([number, board.count(EMPTY), turn % 2, phase,
                             random_fill_value(board, phase, fills, rng), white_won]
                            + features(board))
                if patterns:
                    shapes.append(hexagons(board))

        for turn, words in enumerate(l.split() for l in lines if l.startswith("play ")):
            board[NAME[words[2]]] = WHITE
            add(turn, 1)
            board[NAME[words[3]]] = BLACK
            add(turn + 1, 0)
    return np.array(rows), shapes


def pattern_counts(shapes, train):
    """Each row's hexagon classes counted from white's side less from black's, for the
    classes seen at least MIN_COUNT times in the `train` rows."""
    seen = {}
    for row in np.flatnonzero(train):
        for key in shapes[row][0] + shapes[row][1]:
            seen[key] = seen.get(key, 0) + 1
    column = {key: i for i, key in enumerate(k for k, n in seen.items() if n >= MIN_COUNT)}
    x = np.zeros((len(shapes), len(column)))
    for row, (white, black) in enumerate(shapes):
        for key in white:
            if key in column:
                x[row, column[key]] += 1
        for key in black:
            if key in column:
                x[row, column[key]] -= 1
    return x


def logit(p):
    p = np.clip(p, 0.01, 0.99)
    return np.log(p / (1 - p))


def fit_with_weights(x, y, train, l2=1e-3, iterations=50):
    """A logistic regression fitted on the `train` rows: every row's prediction, and the
    intercept and the weights of the raw (not standardised) columns."""
    mean, sd = x[train].mean(0), x[train].std(0) + 1e-9
    z = np.column_stack([np.ones(len(x)), (x - mean) / sd])
    zt, yt = z[train], y[train]
    w = np.zeros(z.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-zt @ w))
        gradient = zt.T @ (p - yt) + l2 * len(p) * w
        hessian = (zt * (p * (1 - p))[:, None]).T @ zt + l2 * len(p) * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    raw = w[1:] / sd
    return 1 / (1 + np.exp(-z @ w)), np.concatenate([[w[0] - raw @ mean], raw])


def fit(x, y, train, l2=1e-3, iterations=50):
    """A logistic regression's predictions for every row, fitted on the `train` rows."""
    return fit_with_weights(x, y, train, l2, iterations)[0]


def print_scores(models, y, test, empties):
    """The Brier score and log-loss of each model's predictions on the `test` rows, by
    empty cells."""
    for name, p in models.items():
        cells = []
        for low, high in ((8, 22), (23, 30), (31, 40), (41, 53)):
            m = test & (empties >= low) & (empties <= high)
            q = np.clip(p[m], 0.01, 0.99)
            brier = np.mean((p[m] - y[m]) ** 2)
            loss = -np.mean(y[m] * np.log(q) + (1 - y[m]) * np.log(1 - q))
            cells.append(f"{low}-{high} empty: Brier {brier:.4f}, log-loss {loss:.4f}")
        print(f"{name:14s} " + "; ".join(cells))


def main():
    args = [a for a in sys.argv[1:] if a != "--patterns"]
    patterns = len(args) < len(sys.argv) - 1
    if not args:
        sys.exit(__doc__)
    # A last argument that is a number and no folder is FILLS.
    fills = int(args.pop()) if args[-1].isdigit() and not os.path.isdir(args[-1]) else 64
    if not args:
        sys.exit(__doc__)
    data, shapes = positions(args, fills, patterns)
    game, empties, mover, phase, rf, y, f = (data[:, 0], data[:, 1], data[:, 2], data[:, 3],
                                            data[:, 4], data[:, 5], data[:, 6:])
    stage = empties / len(CELLS)
    test = game % 5 == 0
    train = ~test
    group_terms = [f, f * stage[:, None], mover, stage, phase, f * phase[:, None]]
    rf_terms = [logit(rf), logit(rf) * stage]
    models = {
        "rf": rf,
        "rf calibrated": fit(np.column_stack(rf_terms + [stage, mover]), y, train),
        "features": fit(np.column_stack(group_terms), y, train),
        "features + rf": fit(np.column_stack(group_terms + rf_terms), y, train),
    }
    if patterns:
        x = pattern_counts(shapes, train)
        print(f"{x.shape[1]} hexagon classes seen {MIN_COUNT} times or more")
        terms = np.column_stack(group_terms + rf_terms + [x])
        for l2 in (1e-3, 1e-2):
            models[f"+ hexagons {l2:g}"] = fit(terms, y, train, l2=l2, iterations=15)
        terms = np.column_stack(group_terms + rf_terms + [x, x * stage[:, None]])
        models["+ hexagons, by stage"] = fit(terms, y, train, iterations=15)
    print(f"{len(y)} positions of {int(game.max()) + 1} games; white won {y.mean():.3f}")
    print_scores(models, y, test, empties)


if __name__ == "__main__":
    main()

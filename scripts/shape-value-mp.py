#!/usr/bin/env python3
"""A value of local shapes for 3- and 4-player Omega, fitted for the tree search.

The multi-player kin of shape-value.py. Reads the game records of each DIR (omega-match
`--records DIR`; one number of players and one side in all of them), takes every position
from the second turn on with at least a quarter of the cells empty, at each turn's start and
after each of its stones but the last, and reads every cell's hexagon (the cell and its six
neighbours, each empty, own, another colour's or off the board) as a class up to the
hexagon's twelve symmetries, from each colour's side in turn.

Each colour c gets a score, the sum of its hexagons' weights `w0 + w1 * stage` (stage: empty
cells over cells) and of its seat's: its place in the turn order (white moves first), with
and without the stage, its place after the mover and after the colour of the next stone. The
chance that c wins is the softmax of the scores over the colours (a conditional logit: one
set of weights, read from every colour's side). It is fitted by Newton's method (an L2
penalty of L2 a row on the hexagons' raw weights) on the games not numbered 0 mod 5, and the
script prints, on the others, the Brier score (summed over the colours) and the log-loss of
the winner by empty cells beside those of the seats alone.

With `--export FILE` it fits again on every game and writes the weights as Rust source for
src/playout/shape.rs's multi-player table: the seats' weights, and for every class seen at
least MIN_COUNT times its key (the centre's state times 4096 plus the least ring code among
the twelve images, the codes of src/playout/pattern.rs) and its two weights.

Figures of the thirty-ninth session (docs/strength.md, "The shapes' value with three and four
players"). Needs numpy and scipy; about two minutes for 3,000 games.

    omega-match --size 5 --players 3 --engine "omega --threads 1 --playouts 10000" \\
        --engine "omega --threads 1 --playouts 10000 --seed 7" \\
        --engine "omega --threads 1 --playouts 10000 --seed 8" --games 3000 \\
        --openings random:1 --seed 5001 --records DIR
    python3 scripts/shape-value-mp.py DIR... [--export src/playout/shape_weights_3p.rs]
"""
import glob
import importlib.util
import os
import sys

import numpy as np
import scipy.sparse as sp

# The ring classes and the arguments' reading are shape-value.py's.
_spec = importlib.util.spec_from_file_location(
    "shape_value", os.path.join(os.path.dirname(os.path.abspath(__file__)), "shape-value.py"))
shape_value = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shape_value)

COLOURS = ["white", "black", "red", "blue"]
LETTERS = "abcdefghjklmnopqrstuvwxyz"
# The neighbours in turn around a cell, in src/playout/pattern.rs's RING order.
AROUND = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)]
EMPTY, OWN, OTHER, OFF = 0, 1, 2, 3
CODES = shape_value.CODES
MIN_COUNT = 30
MIN_SHARE = 0.25
# The L2 penalty a row on the hexagons' raw weights: with 1e-3, as shape-value.py's, the fit
# on 930 3-player games did worse on the held-out games than the seats alone.
L2 = 0.03


def geometry(side):
    """The board of `side`: each cell's name to its index, and each cell's ring (the index
    one past the last cell off the board)."""
    width = 2 * side - 1
    cells = [(c, r) for r in range(width) for c in range(width) if abs(c - r) <= side - 1]
    index = {p: i for i, p in enumerate(cells)}
    names = {f"{LETTERS[c]}{r + 1}": i for (c, r), i in index.items()}
    ring = [[index.get((c + dc, r + dr), len(cells)) for dc, dr in AROUND] for (c, r) in cells]
    return names, np.array(ring)


def positions(directories):
    """The positions' (game, empties, mover, phase, winner) rows and boards (colour + 1, 0
    empty, the last entry off the board), the players, the side and the cells' rings."""
    paths = [p for d in directories for p in sorted(glob.glob(d + "/*.gtp"))]
    rows, boards, shape = [], [], None
    for number, path in enumerate(paths):
        lines = open(path).read().splitlines()
        side = int(next(l for l in lines if l.startswith("boardsize")).split()[1])
        players = int(next(l for l in lines if l.startswith("players")).split()[1])
        if shape is None:
            shape = (players, side, *geometry(side))
        elif shape[:2] != (players, side):
            sys.exit(f"{path}: {players} players on side {side}, not {shape[:2]}")
        names = shape[2]
        winner = next(l for l in lines if l.startswith("# winner:")).split()[2]
        if winner not in COLOURS:
            continue  # a shared win
        board = np.zeros(len(names) + 1, dtype=np.int8)
        board[len(names)] = -1
        plays = [l.split()[2:] for l in lines if l.startswith("play ")]
        for turn, cells in enumerate(plays):
            for phase, cell in enumerate(cells):
                empties = np.count_nonzero(board == 0)
                if turn >= 1 and empties >= MIN_SHARE * len(names):
                    rows.append([number, empties, turn % players, phase,
                                 COLOURS.index(winner)])
                    boards.append(board.copy())
                board[names[cell]] = phase + 1
    players, side, names, ring = shape
    return np.array(rows), np.array(boards), players, side, ring


def hexagon_keys(boards, ring, players, canon):
    """Each position's hexagon classes (centre state times 4096 plus the ring's class) from
    each colour's side: a (colours x positions x cells) array."""
    keys = []
    for colour in range(players):
        # Board entry (colour + 1, 0 empty, -1 off) to the state from `colour`'s side.
        states = np.where(boards == 0, EMPTY,
                          np.where(boards < 0, OFF, np.where(boards == colour + 1, OWN, OTHER)))
        code = np.zeros((len(boards), ring.shape[0]), dtype=np.int64)
        for i in range(6):
            code |= states[:, ring[:, i]].astype(np.int64) << (2 * i)
        keys.append(states[:, :ring.shape[0]] * CODES + canon[code])
    return np.array(keys)


def design(keys, kept, stage, seat, phase, players):
    """Each colour's sparse features: the counts of the `kept` classes and the counts times
    the stage, then the colour's seat (1..K-1, white 0 moving first) with and without the
    stage, its place after the mover (1..K-1) and after the next stone's colour (1..K-1)."""
    column = np.full(3 * CODES, -1)
    column[kept] = np.arange(len(kept))
    n, cells = keys.shape[1], keys.shape[2]
    rows = np.repeat(np.arange(n), cells)
    out = []
    for c in range(players):
        cols = column[keys[c].ravel()]
        on = cols >= 0
        counts = sp.csr_matrix((np.ones(on.sum()), (rows[on], cols[on])), shape=(n, len(kept)))
        counts.sum_duplicates()
        after_mover = (c - seat) % players
        after_phase = (c - phase) % players
        seats = np.zeros((n, 4 * (players - 1)))
        for k in range(1, players):
            seats[:, k - 1] = c == k
            seats[:, players - 2 + k] = (c == k) * stage
            seats[:, 2 * players - 3 + k] = after_mover == k
            seats[:, 3 * players - 4 + k] = after_phase == k
        out.append(sp.hstack([counts, counts.multiply(stage[:, None]), sp.csr_matrix(seats)])
                   .tocsr())
    return out


def softmax(xs, w):
    s = np.column_stack([x @ w for x in xs])
    s -= s.max(1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(1, keepdims=True)


def fit(xs, winner, train, free=0, l2=L2, iterations=12):
    """The conditional logit's weights, by Newton's method on the `train` rows, with an L2
    penalty on all but the last `free` columns (the seats')."""
    xs_t = [x[train] for x in xs]
    y = np.eye(len(xs))[winner[train]]
    d = xs[0].shape[1]
    penalty = np.full(d, l2 * len(y))
    penalty[d - free:] = 1e-6 * len(y)
    w = np.zeros(d)
    for _ in range(iterations):
        p = softmax(xs_t, w)
        gradient = penalty * w + sum(x.T @ (p[:, c] - y[:, c]) for c, x in enumerate(xs_t))
        mean = sum(x.multiply(p[:, c:c + 1]) for c, x in enumerate(xs_t)).tocsr()
        hessian = sum((x.T @ x.multiply(p[:, c:c + 1])) for c, x in enumerate(xs_t))
        hessian = (hessian - mean.T @ mean).toarray() + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-5:
            break
    return w


def print_scores(models, winner, test, empties, cells):
    for name, p in models.items():
        parts = []
        for low, high in ((0.25, 0.4), (0.4, 0.55), (0.55, 0.7), (0.7, 1.01)):
            m = test & (empties >= low * cells) & (empties < high * cells)
            y = np.eye(p.shape[1])[winner[m]]
            brier = np.mean(((p[m] - y) ** 2).sum(1))
            loss = -np.mean(np.log(np.clip(p[m][np.arange(m.sum()), winner[m]], 1e-3, 1)))
            parts.append(f"{low:.2f}-{min(high, 1):.2f}: Brier {brier:.4f}, log-loss {loss:.4f}")
        print(f"{name:10s} " + "; ".join(parts))


def export(path, w, kept, players, games, side):
    k = len(kept)
    seats = w[2 * k:]
    with open(path, "w") as f:
        f.write(f"//! Learnt by `scripts/shape-value-mp.py --export` from {games} games of "
                f"{players}-player\n//! self-play on side {side} (see that script and "
                "`shape.rs`), in the colours' softmax scores.\n")
        f.write("#![allow(clippy::approx_constant)]\n\n")
        f.write("/// The seats' weights: for the seats 1.. (white moving first) without and "
                "with the stage,\n/// then for the places 1.. after the mover and 1.. after "
                "the next stone's colour.\n")
        f.write("#[rustfmt::skip]\n")
        f.write(f"pub const SEATS: [f32; {len(seats)}] = ["
                + ", ".join(f"{s:.5f}" for s in seats) + "];\n\n")
        f.write("/// The hexagon classes: (centre state * 4096 + ring class, weight, weight per "
                "unit of stage).\n")
        f.write("#[rustfmt::skip]\n")
        f.write(f"pub const WEIGHTS: [(u16, f32, f32); {k}] = [\n")
        for key, a, b in zip(kept, w[:k], w[k:2 * k]):
            f.write(f"    ({int(key)}, {a:.5f}, {b:.5f}),\n")
        f.write("];\n")


def main():
    target, args = shape_value.export_target(sys.argv[1:], __doc__)
    data, boards, players, side, ring = positions(args)
    game, empties, seat, phase, winner = (data[:, i] for i in range(5))
    cells = ring.shape[0]
    stage = empties / cells
    test = game % 5 == 0
    keys = hexagon_keys(boards, ring, players, shape_value.canonical_codes())
    share = np.bincount(winner, minlength=players) / len(winner)
    print(f"{len(winner)} positions of {len(np.unique(game))} games, {players} players, "
          f"{cells} cells; positions won by seat: " + " ".join(f"{s:.3f}" for s in share))

    def kept_classes(rows):
        values, seen = np.unique(keys[:, rows].ravel(), return_counts=True)
        return values[seen >= MIN_COUNT]

    kept = kept_classes(~test)
    xs = design(keys, kept, stage, seat, phase, players)
    k = len(kept)
    seats_only = [x[:, 2 * k:] for x in xs]
    models = {"seats": softmax(seats_only, fit(seats_only, winner, ~test, free=seats_only[0].shape[1]))}
    w = fit(xs, winner, ~test, free=xs[0].shape[1] - 2 * k)
    models["+ hexagons"] = softmax(xs, w)
    print(f"{k} hexagon classes seen {MIN_COUNT} times or more")
    print_scores(models, winner, test, empties, cells)
    if target:
        everything = game >= 0
        kept = kept_classes(everything)
        xs = design(keys, kept, stage, seat, phase, players)
        w = fit(xs, winner, everything, free=xs[0].shape[1] - 2 * len(kept))
        export(target, w, kept, players, len(np.unique(game)), side)
        print(f"wrote {target}")


if __name__ == "__main__":
    main()

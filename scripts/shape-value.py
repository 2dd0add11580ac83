#!/usr/bin/env python3
"""A value of local shapes for 2-player side-5 Omega, fitted for the tree search.

Reads the 2-player side-5 game records of each DIR (omega-match `--records DIR`), takes every
position from the fifth turn to the twenty-seventh, at each turn's start and after its white
stone (as value-study.py does), and reads every cell's hexagon (the cell and its six
neighbours, each empty, own, the other colour's or off the board) as a class up to the
hexagon's twelve symmetries, from white's side and from black's. It fits a logistic model of
the game's winner (Newton's method, L2 of 1e-3 a row) on the games not numbered 0 mod 5 from
the classes' counts, white's side less black's, the counts times the stage (empty cells over
cells), the stage, the mover and the phase, and prints, on the other games, the Brier score
and log-loss by empty cells beside those of the stage, mover and phase alone.

Unlike value-study.py its model reads no random fills and no groups: the tree search has
neither at hand at a leaf, but can read the hexagons cheaply, so this is the value the
search uses (`value_blend` and `value_prior`, src/playout/shape.rs). With `--export FILE`
it fits the model again on every game and writes the weights as Rust source for that
file's table: for every class seen at least MIN_COUNT times, its key (the centre's state
times 4096 plus the least ring code among the twelve images, the codes of
src/playout/pattern.rs) and the two weights of its count, in logits of white's winning:
`w0 + w1 * stage` for each hexagon of the class on white's side, less that for each on
black's side.

With `--groups` it also fits the hexagons with value-study.py's 24 group features beside
them (with the features times the stage and times the phase), to ask what the groups would
add to a value the tree could read with a group scan at each leaf.

Figures of the thirty-fourth session, and with `--groups` of the thirty-fifth
(docs/strength.md, "How the default was found"). Needs numpy; about five minutes for 7,000
games, and with `--groups` half an hour at the lowest priority beside a match.

    omega-match --size 5 --engine "omega --threads 1 --playouts 10000" \\
        --engine "omega --threads 1 --playouts 10000 --seed 7" --games 3200 \\
        --openings random:1 --seed 4001 --concurrency 2 --records DIR
    python3 scripts/shape-value.py DIR... [--groups] [--export src/playout/shape_weights.rs]
"""
import glob
import importlib.util
import os
import sys

import numpy as np

# The logistic fit, the scores' table and the board are value-study.py's.
_spec = importlib.util.spec_from_file_location(
    "value_study", os.path.join(os.path.dirname(os.path.abspath(__file__)), "value-study.py"))
value_study = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(value_study)

# The board, its cells' names and the neighbours in turn around a cell (the order of
# src/playout/pattern.rs's RING) are value-study.py's; the board arrays here hold one entry
# more, off the board, where the rings point past the edge.
CELLS, NAME = value_study.CELLS, value_study.NAME
OUTSIDE_CELL = len(CELLS)
RING = np.array([[n if n >= 0 else OUTSIDE_CELL for n in ring] for ring in value_study.RING])
EMPTY, WHITE, BLACK, OFF = 0, 1, 2, 3
MIN_COUNT = 30
CODES = 1 << 12


def canonical_codes():
    """The class of every ring code, as src/playout/pattern.rs's `canonical`: the least code
    among its 12 images (direction i in bits 2i and 2i + 1)."""
    def state(code, i):
        return (code >> (2 * i)) & 3

    def rotate(code):
        return ((code << 2) | (code >> 10)) & (CODES - 1)

    def reflect(code):
        return sum(state(code, i) << (2 * ((6 - i) % 6)) for i in range(6))

    table = np.zeros(CODES, dtype=np.int64)
    for code in range(CODES):
        best, c = code, code
        for _ in range(6):
            c = rotate(c)
            best = min(best, c, reflect(c))
        table[code] = best
    return table


def positions(directories):
    """The positions' (game number, empty cells, mover, phase, white won) rows and boards
    (0 empty, 1 white, 2 black, the last entry off the board)."""
    rows, boards = [], []
    paths = [p for d in directories for p in sorted(glob.glob(d + "/*.gtp"))]
    for number, path in enumerate(paths):
        lines = open(path).read().splitlines()
        winner = next(l for l in lines if l.startswith("# winner:")).split()[2]
        white_won = 1.0 if winner == "white" else 0.0
        board = np.zeros(len(CELLS) + 1, dtype=np.int64)
        board[OUTSIDE_CELL] = OFF

        def add(turn, phase):
            if 4 <= turn <= 26:
                rows.append([number, np.count_nonzero(board == EMPTY), turn % 2, phase,
                             white_won])
                boards.append(board.copy())

        for turn, words in enumerate(l.split() for l in lines if l.startswith("play ")):
            board[NAME[words[2]]] = WHITE
            add(turn, 1)
            board[NAME[words[3]]] = BLACK
            add(turn + 1, 0)
    return np.array(rows), np.array(boards)


def hexagon_keys(boards, canon):
    """Each position's hexagon classes (centre state times 4096 plus the ring's class) from
    white's side and from black's, as two (positions x cells) arrays."""
    out = []
    for view in (np.array([EMPTY, WHITE, BLACK, OFF]), np.array([EMPTY, BLACK, WHITE, OFF])):
        states = view[boards]
        code = np.zeros((len(boards), len(CELLS)), dtype=np.int64)
        for i in range(6):
            code |= states[:, RING[:, i]] << (2 * i)
        out.append(states[:, :len(CELLS)] * CODES + canon[code])
    return out


def class_counts(white, black, train):
    """The counts of the classes seen MIN_COUNT times in the `train` rows, white's side less
    black's, and the classes' keys in column order."""
    keys, seen = np.unique(np.concatenate([white[train].ravel(), black[train].ravel()]),
                           return_counts=True)
    keys = keys[seen >= MIN_COUNT]
    column = {k: i for i, k in enumerate(keys)}
    x = np.zeros((len(white), len(keys)), dtype=np.float32)
    lookup = np.vectorize(lambda k: column.get(k, -1))
    for side, sign in ((white, 1.0), (black, -1.0)):
        cols = lookup(side)
        rows = np.repeat(np.arange(len(side)), side.shape[1]).reshape(side.shape)
        kept = cols >= 0
        np.add.at(x, (rows[kept], cols[kept]), sign)
    return x, keys


def fit_in_chunks(x, y, train, l2=1e-3, iterations=15, chunk=50_000):
    """value-study.py's `fit_with_weights` (the same standardised Newton steps and L2 a row,
    the intercept's too) on float32 columns, a chunk of rows at a time: its dense copies of
    the columns took more than 16 GB at 13,000 games. Every row's prediction, and the
    intercept and the weights of the raw columns."""
    x = x.astype(np.float32, copy=False)
    mean = x[train].mean(0, dtype=np.float64)
    sd = x[train].std(0, dtype=np.float64) + 1e-9
    rows = np.flatnonzero(train)

    def standardised(part):
        z = (x[part] - mean.astype(np.float32)) / sd.astype(np.float32)
        return np.column_stack([np.ones(len(z), np.float32), z])

    w = np.zeros(x.shape[1] + 1)
    for _ in range(iterations):
        gradient = l2 * len(rows) * w
        hessian = l2 * len(rows) * np.eye(len(w))
        for start in range(0, len(rows), chunk):
            part = rows[start:start + chunk]
            z = standardised(part)
            p = 1 / (1 + np.exp(-(z @ w.astype(np.float32)).astype(np.float64)))
            gradient += z.T.astype(np.float64) @ (p - y[part])
            hessian += ((z * (p * (1 - p)).astype(np.float32)[:, None]).T @ z).astype(np.float64)
        w -= np.linalg.solve(hessian, gradient)
    logits = np.concatenate([standardised(np.arange(start, min(start + chunk, len(x)))) @ w
                             for start in range(0, len(x), chunk)])
    raw = w[1:] / sd
    return 1 / (1 + np.exp(-logits)), np.concatenate([[w[0] - raw @ mean], raw])


def export(path, base, keys, w0, w1, games):
    with open(path, "w") as f:
        f.write("//! Learnt by `scripts/shape-value.py --export` from "
                f"{games} games of self-play on side 5\n")
        f.write("//! (see that script and `shape.rs`), in logits of white's winning.\n")
        # Learnt numbers, some of which look like mathematical constants to clippy.
        f.write("#![allow(clippy::approx_constant)]\n\n")
        f.write("/// The intercept and the weights of the stage, the mover and the phase.\n")
        f.write("pub const SHAPE_BASE: [f32; 4] = [" + ", ".join(f"{b:.5f}" for b in base)
                + "];\n\n")
        f.write("/// The hexagon classes: (centre state * 4096 + ring class, weight, weight per "
                "unit of stage).\n")
        f.write("#[rustfmt::skip]\n")
        f.write(f"pub const SHAPE_WEIGHTS: [(u16, f32, f32); {len(keys)}] = [\n")
        for k, a, b in zip(keys, w0, w1):
            f.write(f"    ({int(k)}, {a:.5f}, {b:.5f}),\n")
        f.write("];\n")


def export_target(args, usage):
    """The file of `--export FILE` among `args` (None without it) and the other arguments, the
    record directories; exits with `usage` when FILE or every directory is missing."""
    args, target = list(args), None
    if "--export" in args:
        i = args.index("--export")
        if i + 1 >= len(args):
            sys.exit(usage)
        target = args[i + 1]
        del args[i:i + 2]
    if not args:
        sys.exit(usage)
    return target, args


def main():
    args = sys.argv[1:]
    groups = "--groups" in args
    args = [a for a in args if a != "--groups"]
    target, args = export_target(args, __doc__)
    data, boards = positions(args)
    game, empties, mover, phase, y = (data[:, i] for i in range(5))
    stage = empties / len(CELLS)
    test = game % 5 == 0
    train = ~test
    white, black = hexagon_keys(boards, canonical_codes())
    x, keys = class_counts(white, black, train)
    print(f"{len(y)} positions of {int(game.max()) + 1} games; white won {y.mean():.3f}; "
          f"{len(keys)} hexagon classes seen {MIN_COUNT} times or more")
    base = np.column_stack([stage, mover, phase]).astype(np.float32)
    fit = fit_in_chunks
    models = {"stage, mover": fit(base, y, train)[0]}
    terms = np.column_stack([base, x, x * stage[:, None].astype(np.float32)])
    models["+ hexagons, by stage"] = fit(terms, y, train)[0]
    if groups:
        f = np.array([value_study.features(list(b[:len(CELLS)])) for b in boards])
        group_terms = [f, f * stage[:, None], f * phase[:, None]]
        models["+ group features"] = fit(np.column_stack([terms] + group_terms), y, train)[0]
    value_study.print_scores(models, y, test, empties)
    if target:
        # The table is fitted again on every game, held-out ones too.
        x, keys = class_counts(white, black, game >= 0)
        terms = np.column_stack([base, x, x * stage[:, None].astype(np.float32)])
        w = fit(terms, y, game >= 0)[1]
        k = len(keys)
        export(target, w[:4], keys, w[4:4 + k], w[4 + k:], int(game.max()) + 1)
        print(f"wrote {target}")


if __name__ == "__main__":
    main()

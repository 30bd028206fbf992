"""The SHA-256 digest of the full table that a folded table unfolds to, without holding the full table:
the digest that ``solver/neutreeko/table-digests.csv`` and ``docs/scaling.md`` give for the full tables.

    python scripts/unfolded_digest.py --board 9x9 [--rule connected] [--table PATH]

The folded table is read whole (one byte per class: 0.8 GB on 9 x 9) and checked against its own
digest; its unfolding is then digested a stretch of indices at a time, in index order, so that the
memory stays that of the folded table (the full 9 x 9 table would be 6.5 GB).
"""

from __future__ import annotations

import argparse
import hashlib
import time
from pathlib import Path

import numpy as np

from solver.neutreeko.folding import Classes
from solver.neutreeko.game import Game
from solver.neutreeko.table import open_table
from solver.neutreeko.values import ILLEGAL

# Indices unfolded at a time.
_STRETCH = 1 << 24


def unfolded_digest(game: Game, folded: np.ndarray) -> str:
    """``"sha256:<hex>"`` of the full table that ``folded`` (one byte per legal class) unfolds to."""
    classes = Classes.of(game)
    hasher = hashlib.sha256()
    for first in range(0, game.positions, _STRETCH):
        numbers = classes.numbers(np.arange(first, min(first + _STRETCH, game.positions), dtype=np.int64))
        hasher.update(np.where(numbers >= 0, folded[np.maximum(numbers, 0)], np.uint8(ILLEGAL)).astype(np.uint8).data)
    return "sha256:" + hasher.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="5x5")
    parser.add_argument("--rule", default="connected")
    parser.add_argument("--table", type=Path, help="the folded table (default: the tables directory's)")
    arguments = parser.parse_args()
    game = Game.of(arguments.board, arguments.rule)
    table = open_table(game, arguments.table)
    if not table.folded:
        parser.error(f"{table.path} is a full table: its digest attribute is the one asked for")
    began = time.perf_counter()
    print(f"{game}: {unfolded_digest(game, table.data)} ({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()

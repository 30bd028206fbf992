"""The SHA-256 digest of the full table that a folded table unfolds to, without holding the full table:
the digest that ``solver/neutreeko/tables/table-digests.csv`` and ``docs/scaling.md`` give for the full tables.

    python scripts/unfolded_digest.py --board 9x9 [--rule connected] [--table PATH]

The folded table is read whole (one byte per class: 0.8 GB on 9 x 9, 3.0 GB on 10 x 10) and checked
against its own digest and counts; its unfolding is then digested a stretch of indices at a time, in
index order (:meth:`solver.neutreeko.tables.table.Table.result_digest`, as ``neutreeko publish`` does), so that
the memory stays that of the folded table (the full 9 x 9 table would be 6.5 GB, 10 x 10's 24 GB).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from solver.neutreeko.model.game import Game
from solver.neutreeko.tables.table import open_table


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
    print(f"{game}: {table.result_digest()} ({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()

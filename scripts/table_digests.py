"""Write ``solver/neutreeko/tables/table-digests.csv``: the SHA-256 digest of the result bytes of every table
the survey builds (every board from 3 x 3 to 7 x 7 under every rule offered on it), as the tables
store it. The rows of other boards already in the file (the larger tables of ``docs/scaling.md``) are
kept as they are, after those.

    python scripts/table_digests.py [--max-board 7x7] [--out solver/neutreeko/tables/table-digests.csv]

Tables are read from the tables directory and built where missing (7 x 7 takes about a minute and
2 GB each). The test suite checks the digests of the boards it solves against this file, so that a
change to the solver that changes any result byte is seen; ``neutreeko publish`` and ``fetch`` check
tables against it (:mod:`solver.neutreeko.tables.digests`).
"""

from __future__ import annotations

import argparse
import csv
import io
from pathlib import Path

from solver.core.files import write_atomically
from solver.neutreeko.model.board import Board
from solver.neutreeko.model.rules import RULES
from solver.neutreeko.studies.survey import survey_games
from solver.neutreeko.tables.build import ensure_table
from solver.neutreeko.tables.digests import committed

DIGESTS = Path(__file__).resolve().parent.parent / "solver" / "neutreeko" / "tables" / "table-digests.csv"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-board", default="7x7")
    parser.add_argument("--out", type=Path, default=DIGESTS)
    arguments = parser.parse_args()
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["board", "rule", "indices", "digest"])
    written = set()
    for game in survey_games(Board.parse(arguments.max_board), RULES.values()):
        table = ensure_table(game, on_build=lambda path: print(f"building {path} ...", flush=True), build_large=True)
        digest = table.result_digest()  # of the result bytes, a folded table's too
        writer.writerow([str(game.board), game.rule.name, game.positions, digest])
        written.add((str(game.board), game.rule.name))
        print(f"{game}: {digest}", flush=True)
    for (board, rule), (indices, digest) in committed().items():
        if (board, rule) not in written:
            writer.writerow([board, rule, indices, digest])
    write_atomically(arguments.out, text.getvalue())


if __name__ == "__main__":
    main()

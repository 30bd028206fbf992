"""The committed digests of Neutreeko's result bytes: ``table-digests.csv`` beside this module, shipped
with the package, one row per board and rule (``board,rule,indices,digest``), the digest
``"sha256:<hex>"`` of the result bytes, one per index (:attr:`solver.neutreeko.tables.table.Table.result`).

It holds every table the survey builds, from 3 x 3 to 7 x 7 (``scripts/table_digests.py`` writes those
rows; the test suite solves the small boards and compares), and the larger tables measured in
``docs/scaling.md`` (8 x 8 under four rules, 9 x 9 and 10 x 10 under the standard one). A table that matches its
row holds the solver's results byte for byte, wherever it came from: ``neutreeko publish`` and
``neutreeko fetch`` refuse one that does not.
"""

from __future__ import annotations

import functools

from solver.neutreeko.model.game import Game

#: The file, in this package.
DIGESTS_FILE = "table-digests.csv"


@functools.cache
def committed() -> dict[tuple[str, str], tuple[int, str]]:
    """``(board, rule) -> (indices, digest)`` for every row of the file."""
    import csv  # here: opening a table needs no digest, and importlib.resources is slow to import
    import io
    from importlib import resources

    text = resources.files(__package__ or "solver.neutreeko.tables").joinpath(DIGESTS_FILE).read_text(encoding="utf-8")
    return {(row["board"], row["rule"]): (int(row["indices"]), row["digest"]) for row in csv.DictReader(io.StringIO(text))}


def committed_digest(game: Game) -> str | None:
    """The committed digest of ``game``'s result bytes, or None if none is committed.

    >>> committed_digest(Game.of("3x3", "connected"))
    'sha256:dea5cad4fcd20c99d96dd1f0d5dc0e1c540d73fe463e6da1fc4bc8161be177cf'
    """
    row = committed().get((str(game.board), game.rule.name))
    return row[1] if row else None

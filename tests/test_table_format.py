"""``docs/table-format.md`` describes the files truly: its reader of one position's value, plain h5py and
numpy, run from the document, agrees with the tablebase; and the chunk map it describes is there."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import h5py
import numpy as np

from solver.core.chunks import MAP_ENTRY
from solver.neutreeko.game import Game
from solver.neutreeko.position import random_positions
from solver.neutreeko.table import open_table

DOCUMENT = Path(__file__).resolve().parent.parent / "docs" / "table-format.md"


def _reader(table: Path) -> tuple[dict[str, object], str]:
    """The document's Python example run against ``table``: its namespace and what it printed."""
    code = re.search(r"```python\n(.*?)```", DOCUMENT.read_text(), re.S).group(1)
    assert "tables/neutreeko-5x5.h5" in code and len(code.splitlines()) <= 20
    namespace: dict[str, object] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code.replace("tables/neutreeko-5x5.h5", str(table)), namespace)
    return namespace, printed.getvalue()


def _squares(game: Game, squares: tuple[int, ...]) -> list[tuple[int, int]]:
    width = game.board.width
    return [(square % width, square // width) for square in squares]


def test_the_documented_reader_agrees_with_the_tables(table_5x5, tables_4x4):
    namespace, printed = _reader(table_5x5)
    assert printed == "draw\n"
    value = namespace["value"]
    for game, path in ((Game.of("5x5"), table_5x5), (Game.of("4x4"), tables_4x4 / "neutreeko-4x4.h5")):
        table = open_table(game, path)
        for position in random_positions(game, 40, seed=3):
            expected = int(table.lookup(position.index()))
            board = game.board
            assert value(str(path), board.width, board.height, _squares(game, position.mover),
                         _squares(game, position.other)) == expected


def test_the_chunk_map_is_an_ordinary_dataset(table_5x5):
    """Any HDF5 reader sees the chunk map as the document describes it: one entry per chunk, each giving
    the place in the file of the bytes HDF5 stores for that chunk."""
    contents = table_5x5.read_bytes()
    with h5py.File(table_5x5, "r") as file:
        entries = file["chunk_map"][()]
        stored = file["result"]
        assert entries.dtype == MAP_ENTRY and len(entries) == stored.id.get_num_chunks()
        for number, entry in enumerate(entries):
            raw = stored.id.read_direct_chunk((number * stored.chunks[0],))[1]
            offset = int(entry["offset"])
            assert contents[offset:offset + int(entry["size"])] == raw and entry["fence"] == 0
        assert np.array_equal(stored[:10], open_table(Game.of("5x5"), table_5x5).lookup(np.arange(10)))

"""``docs/table-format.md`` describes the files truly: its reader of one position's value, plain h5py and
numpy, run from the document, agrees with the tablebase, and so does its reader of a folded table; and the chunk map it describes is there."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import h5py
import numpy as np

from solver.core.storage.chunks import MAP_ENTRY
from solver.core.storage.container import CHUNK_BYTES
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position, random_positions
from solver.neutreeko.model.symmetry import symmetries
from solver.neutreeko.tables.folding import Classes
from solver.neutreeko.tables.table import open_table, write_table

DOCUMENT = Path(__file__).resolve().parent.parent / "docs" / "table-format.md"


def _readers() -> tuple[str, str]:
    """The document's two Python examples: the reader of a full table, and of a folded one."""
    full, folded = re.findall(r"```python\n(.*?)```", DOCUMENT.read_text(), re.S)
    assert "tables/neutreeko-5x5.h5" in full and len(full.splitlines()) <= 20
    return full, folded


def _run(code: str, replacements: dict[str, str]) -> tuple[dict[str, object], str]:
    """``code`` run with its file names replaced: its namespace and what it printed."""
    for name, replacement in replacements.items():
        code = code.replace(name, replacement)
    namespace: dict[str, object] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code, namespace)
    return namespace, printed.getvalue()


def _squares(game: Game, squares: tuple[int, ...]) -> list[tuple[int, int]]:
    width = game.board.width
    return [(square % width, square // width) for square in squares]


def _samples(game: Game, count: int) -> list[Position]:
    """Random positions, the start and positions whose mover's triple some symmetry keeps (the folded
    reader counts those blocks one by one)."""
    symmetric = [position for position in random_positions(game, 4000, seed=5)
                 if any(sorted(image) == list(position.mover) for image in _triple_images(game, position.mover))]
    assert len(symmetric) >= count
    return [Position.start(game), *random_positions(game, count, seed=3), *symmetric[:count]]


def _triple_images(game: Game, triple: tuple[int, ...]) -> list[list[int]]:
    """The images of ``triple`` under every symmetry of the board but the identity."""
    return [[int(permutation[square]) for square in triple] for permutation in symmetries(game.board)[1:]]


def test_the_documented_readers_agree_with_the_tables(table_5x5, tables_4x4, tmp_path):
    full, folded = _readers()
    namespace, printed = _run(full, {"tables/neutreeko-5x5.h5": str(table_5x5)})
    assert printed == "draw\n"
    value, folded_value = namespace["value"], _run(folded, {})[0]["folded_value"]
    for game, path, count in ((Game.of("5x5"), table_5x5, 3), (Game.of("4x4"), tables_4x4 / "neutreeko-4x4.h5", 12)):
        table = open_table(game, path)
        folded_path = tmp_path / f"folded-{game.board}.h5"
        write_table(game, table.result, folded_path, 0.0, fold=True)
        board = game.board
        for position in _samples(game, count):
            expected = int(table.probe(position.index()))
            squares = (board.width, board.height, _squares(game, position.mover), _squares(game, position.other))
            assert value(str(path), *squares) == expected
            assert folded_value(str(folded_path), *squares) == expected, position


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
        assert np.array_equal(stored[:10], open_table(Game.of("5x5"), table_5x5).probe(np.arange(10)))


def test_the_documented_map_sizes_are_the_folded_tables():
    """The chunk map's size the document gives for each big folded table: 56 bytes a chunk, a chunk of
    :data:`~solver.core.storage.container.CHUNK_BYTES` classes."""
    text = " ".join(DOCUMENT.read_text().split())
    stated = re.search(r"([\d,]+) bytes on 8 x 8, ([\d,]+) on 9 x 9, ([\d,]+) on 10 x 10 and ([\d,]+) on 11 x 11", text)
    assert stated, "the map sizes are not in the document"
    for board, figure in zip(("8x8", "9x9", "10x10", "11x11"), stated.groups()):
        chunks = -(-Classes.of(Game.of(board)).count // CHUNK_BYTES)
        assert int(figure.replace(",", "")) == chunks * MAP_ENTRY.itemsize, board

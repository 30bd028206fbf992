"""A probe costs what it reads: a cold probe reads the header, the metadata and one chunk; batches read
each chunk once through a bounded cache; the chunked answers are the whole table's; a damaged byte is
refused when, and only when, something reads it."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solver.core.errors import TableError
from solver.core.storage import chunks, container
from solver.core.storage.container import CHUNK_BYTES, check_file, open_contents, write
from solver.necnon.model.keys import find
from solver.necnon.model.rules import Game as NecnonGame
from solver.necnon.tables.build import build_table as build_necnon_table
from solver.necnon.tables.table import open_table as open_necnon_table
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.querying.probe import Tablebase
from solver.neutreeko.solving.solve_classes import solve_classes
from solver.neutreeko.tables.folding import unfold
from solver.neutreeko.tables.table import open_table, write_table

pytestmark = pytest.mark.kernel

ROOT = Path(__file__).resolve().parents[2]
GAME = Game.of("5x5")


@pytest.fixture(scope="module")
def table_6x6(tmp_path_factory) -> Path:
    """The 6 x 6 table over positions, from the quicker solve over classes unfolded (the same values)."""
    game = Game.of("6x6")
    path = tmp_path_factory.mktemp("tables-6x6") / "neutreeko-6x6.h5"
    solution = solve_classes(game)
    write_table(game, unfold(game, solution.folded), path, solution.seconds)
    return path


@pytest.fixture
def counted_reads(monkeypatch) -> list[int]:
    """The sizes of every ``os.pread`` from here on."""
    sizes: list[int] = []
    real = os.pread

    def pread(descriptor: int, length: int, offset: int) -> bytes:
        sizes.append(length)
        return real(descriptor, length, offset)

    monkeypatch.setattr(os, "pread", pread)
    return sizes


def test_a_cold_probe_reads_the_header_the_metadata_and_one_chunk(table_6x6, counted_reads):
    with Tablebase(table_6x6.parent) as tablebase:
        assert str(tablebase.probe(Position.start(Game.of("6x6")))) == "win in 11"
    size = table_6x6.stat().st_size
    assert size > 16_000_000
    # The header (4 kB), the chunk map (56 bytes a chunk), the rest of the metadata, and one chunk of
    # at most 256 kB compressed: together under a sixtieth of the file.
    assert sum(counted_reads) < 300_000 and len(counted_reads) < 400


def test_opening_starts_no_thread_and_a_whole_file_digest_does(table_5x5, monkeypatch):
    """A local table's metadata is digested in the opening thread (a pool would cost more than it
    reads); digesting a whole file of several blocks reads them by threads."""
    pools = []
    real = container.ThreadPoolExecutor

    def counted(*arguments, **options):
        pools.append(arguments)
        return real(*arguments, **options)

    monkeypatch.setattr(container, "ThreadPoolExecutor", counted)
    open_contents(table_5x5).close()
    assert pools == []
    assert table_5x5.stat().st_size > 1 << 20 and check_file(table_5x5) == table_5x5.stat().st_size
    assert len(pools) == 1



def _chunk_map(offsets: list[int], sizes: list[int]) -> np.ndarray:
    entries = np.zeros(len(offsets), chunks.MAP_ENTRY)
    entries["offset"], entries["size"] = offsets, sizes
    return entries


def test_the_metadata_digest_is_of_every_byte_in_no_chunk(tmp_path):
    """Chunks in any order, adjacent, overlapping, repeated, empty, at the region's ends (within it, as
    a verified chunk map's are): the digest is of the region's bytes that no chunk covers, in order."""
    data = np.random.default_rng(5).integers(0, 256, 50_000, dtype=np.uint8)
    path = tmp_path / "region"
    path.write_bytes(data.tobytes())
    rng = np.random.default_rng(6)
    file = chunks.OpenFile(os.open(path, os.O_RDONLY))
    try:
        for _ in range(100):
            start, end = sorted(rng.integers(0, len(data) + 1, 2).tolist())
            offsets = rng.integers(start, end + 1, int(rng.integers(0, 30))).tolist()
            sizes = [min(size, end - offset) for size, offset in zip(rng.choice([0, 1, 100, 3_000], len(offsets)).tolist(),
                                                                      offsets)]
            offsets += [offset + size for offset, size in zip(offsets[:5], sizes[:5])]  # adjacent to another
            sizes += [0 for _ in sizes[:5]]
            offsets += [start, end]
            sizes += [min(10, end - start), 0]
            covered = np.zeros(len(data), dtype=bool)
            for offset, size in zip(offsets, sizes):
                covered[offset:offset + size] = True
            expected = hashlib.sha256(data[start:end][~covered[start:end]].tobytes()).hexdigest()
            assert container._metadata_digest(file, _chunk_map(offsets, sizes), start, end) == expected
    finally:
        file.close()


def test_thousands_of_small_metadata_pieces_are_read_in_this_thread(tmp_path, counted_reads, monkeypatch):
    """A big table's metadata lies in a few hundred small pieces between thousands of chunks, most of
    them adjacent: each piece is one read, in the opening thread, however much they hold together."""
    pools = []
    monkeypatch.setattr(container, "ThreadPoolExecutor", lambda *arguments: pools.append(arguments))
    path = tmp_path / "region"
    path.write_bytes(bytes(4 << 20))
    offsets = [piece * 2_000 + pair * 1_000 for piece in range(2_000) for pair in range(2)]
    entries = _chunk_map(offsets, [1_000, 400] * 2_000)  # two adjacent chunks, then a gap of 600 bytes
    file = chunks.OpenFile(os.open(path, os.O_RDONLY))
    try:
        container._metadata_digest(file, entries, 0, 4_000_000)
    finally:
        file.close()
    assert pools == [] and counted_reads == [600] * 2_000  # 1.2 MB, more than a block

def test_a_batch_reads_each_chunk_once(table_5x5, counted_reads):
    table = open_table(GAME, table_5x5)
    opened = len(counted_reads)
    table.probe(np.arange(0, GAME.positions, 7))
    assert len(counted_reads) - opened == table.chunks.count == 14
    table.probe(np.arange(3, GAME.positions, 11))  # every chunk now comes from the cache
    assert len(counted_reads) - opened == 14


def test_chunked_answers_are_the_whole_tables(table_5x5, solved_5x5):
    table = open_table(GAME, table_5x5)
    indices = np.random.default_rng(5).integers(0, GAME.positions, 20_000)
    assert np.array_equal(table.probe(indices), solved_5x5.result[indices])
    assert table.probe(int(indices[0])) == solved_5x5.result[indices[0]]
    assert table.probe(np.empty(0, dtype=np.int64)).shape == (0,)
    assert np.array_equal(table.probe(indices.reshape(100, 200)), solved_5x5.result[indices].reshape(100, 200))
    assert np.array_equal(table.result, solved_5x5.result)
    with pytest.raises(IndexError):
        table.probe(GAME.positions)


def test_the_cache_stays_within_its_bound(table_5x5):
    limit = chunks.cache_limit()
    try:
        chunks.set_cache_limit(3 * CHUNK_BYTES)
        table = open_table(GAME, table_5x5)
        table.probe(np.arange(0, GAME.positions, 1000))
        assert 0 < chunks.cache_size() <= chunks.cache_limit()
        table.close()
        assert chunks.cache_size() == 0
    finally:
        chunks.set_cache_limit(limit)


def test_necnon_probes_search_the_chunks_by_their_first_keys(tmp_path):
    game = NecnonGame.of("5x3", "nec")
    path = tmp_path / "necnon-5x3-nec.h5"
    build_necnon_table(game, path)
    table = open_necnon_table(game, path)
    assert table.chunks.count > 10
    records = table.records
    rng = np.random.default_rng(2)
    sample = records["key"][rng.integers(0, len(records), 3000)]
    absent = sample[:300] + np.uint64(1)
    keys = np.concatenate([sample, absent[~np.isin(absent, records["key"])], np.array([0, 2**63], np.uint64),
                           records["key"][table.chunks.chunk_items * np.arange(1, table.chunks.count)]])  # fences
    present, found = table.probe(keys)
    rows = find(records, keys)
    assert np.array_equal(present, rows >= 0) and present[:3000].all()
    assert np.array_equal(found[present], records[rows[present]])
    assert table.summary.classes == len(records)


# -- damage: refused when read ---------------------------------------------------------------------


def flip_and_probe(path: str, near: int, far: int) -> None:
    """In the child: flip, one at a time, every byte of the 5 x 5 table at ``path`` outside its chunks,
    and a sample of the bytes inside them; print what was not as promised (JSON)."""
    from solver.core.storage.container import check_file
    from solver.neutreeko.tables.table import open_table

    intact = open_table(GAME, Path(path))
    entries = intact.chunks.entries
    in_chunks = np.zeros(os.path.getsize(path), dtype=bool)
    for entry in entries:
        in_chunks[int(entry["offset"]):int(entry["offset"] + entry["size"])] = True
    truth = {index: int(intact.probe(index)) for index in (near, far)}
    intact.close()
    inside = np.flatnonzero(in_chunks)[::997]
    wrong: list[object] = []
    descriptor = os.open(path, os.O_RDWR)
    for offset in [*np.flatnonzero(~in_chunks).tolist(), *inside.tolist()]:
        byte = os.pread(descriptor, 1, offset)
        os.pwrite(descriptor, bytes([byte[0] ^ 0x01]), offset)
        chunk = np.searchsorted(entries["offset"], offset, side="right") - 1 if in_chunks[offset] else -1
        try:
            table = open_table(GAME, Path(path))
            for index, value in truth.items():
                damaged = index // table.chunks.chunk_items == chunk
                try:
                    answer = int(table.probe(index))
                    if damaged or answer != value:
                        wrong.append([offset, index, "answered", answer])
                except TableError as error:
                    if not damaged or "\n" in str(error):
                        wrong.append([offset, index, str(error)])
            table.close()
            if chunk < 0:
                wrong.append([offset, "opened"])
        except TableError as error:
            refusal = "is damaged" in str(error) or "not a neutreeko-solver table" in str(error)
            if chunk >= 0 or "\n" in str(error) or not refusal:
                wrong.append([offset, str(error)])
        try:
            check_file(Path(path))
            wrong.append([offset, "check-file passed"])
        except TableError:
            pass
        os.pwrite(descriptor, byte, offset)
    os.close(descriptor)
    print(json.dumps({"outside": int((~in_chunks).sum()), "inside": len(inside), "wrong": wrong}))


def test_a_flipped_byte_is_refused_when_read_and_only_then(table_5x5, tmp_path):
    """Outside the chunks (header, HDF5's metadata, the chunk map) every flip is refused on opening;
    inside a chunk, a probe of that chunk is refused and a probe of another is answered; check-file
    refuses every flip."""
    path = tmp_path / "neutreeko-5x5.h5"
    path.write_bytes(table_5x5.read_bytes())
    near, far = 100, GAME.positions - 100
    done = subprocess.run([sys.executable, "-c", f"from tests.core.test_chunks import flip_and_probe; "
                                                 f"flip_and_probe({str(path)!r}, {near}, {far})"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    outcome = json.loads(done.stdout)
    assert outcome["outside"] > 4096 + 10_000 and outcome["inside"] > 1000
    assert outcome["wrong"] == []
    assert path.read_bytes() == table_5x5.read_bytes()
    assert check_file(path) == path.stat().st_size
    open_contents(path).close()


def test_a_forgotten_tables_chunks_are_never_another_tables(table_5x5, tables_4x4, solved_5x5):
    """Tables opened and forgotten one after another (as a server reopening a table replaced on disk
    does): each answers from its own chunks, though a new reader may take the memory of a forgotten one."""
    small = Game.of("4x4")
    for _ in range(12):
        forgotten = open_table(small, tables_4x4 / "neutreeko-4x4.h5")
        forgotten.probe(np.arange(0, small.positions, 9_999))
        del forgotten  # freed at once: no cycle holds a table
        table = open_table(GAME, table_5x5)
        assert np.array_equal(table.probe(np.arange(0, 150_000, 997)), solved_5x5.result[:150_000:997])
        del table


def test_necnon_records_that_contradict_their_attributes_are_damaged(necnon_tables, tmp_path):
    """Records rewritten through the container with the original attributes: every digest holds, the
    figures give them away, named."""
    game = NecnonGame.of("3x3", "nec")
    intact = open_necnon_table(game, necnon_tables / "necnon-3x3-nec.h5")
    records = intact.records.copy()
    records["margin"] = 0  # every position a draw
    attributes = {name: value for name, value in intact.attributes.items()
                  if name not in ("format", "digest", "writer", "written", "sorted_by")}
    path = tmp_path / "necnon-3x3-nec.h5"
    write(path, "classes", records, attributes, sorted_by="key")
    with pytest.raises(TableError, match=f"table {path} is damaged: its data has (black_wins|draws|green_wins) "):
        open_necnon_table(game, path).summary


@pytest.mark.parametrize("value", ["9" * 5000, "-1", "12MB", "\u00b2", "1" * 13])
def test_a_bad_cache_size_in_the_environment_is_one_line_at_first_use(tables_4x4, value):
    """Read when the cache is first needed, not at import: a command that reads no table still runs."""
    environment = {**os.environ, "NEUTREEKO_CACHE_MB": value, "NEUTREEKO_TABLES": str(tables_4x4),
                   "PYTHONPATH": str(ROOT)}
    imported = subprocess.run([sys.executable, "-m", "solver", "--help"], cwd=ROOT, env=environment,
                              capture_output=True, text=True, timeout=60)
    assert imported.returncode == 0, imported.stderr[-2000:]
    done = subprocess.run([sys.executable, "-m", "solver", "query", "--board", "4x4", "w1w1/b3/2b1/2wb b"],
                          cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and done.stdout == "" and len(lines) == 1, done.stderr[-2000:]
    assert lines[0].startswith("neutreeko: error: NEUTREEKO_CACHE_MB") and "12 digits" in lines[0]
    assert len(lines[0]) < 200

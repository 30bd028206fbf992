"""The HDF5 table: its attributes, determinism, atomic writes, and every way a file can be refused."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import h5py
import numpy as np
import pytest

import solver.core.storage.container
from solver.core.errors import MissingTableError, TableError, TableMismatchError
from solver.core.storage import legacy
from solver.core.storage.chunks import Chunks
from solver.core.storage.container import FORMAT, check_file, digest
from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.values import ENCODING
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.tables.build import TableExistsError, build_table
from solver.neutreeko.tables.stats import summarize, summarize_stretches
from solver.neutreeko.tables.table import FORMAT_VERSION, convert_table, open_table, table_path, tables_dir, write_table
from tests.helpers import (
    assert_one_line_error,
    edit_data,
    invoke,
    overwrite_with_text,
    replace_with_foreign_hdf5,
    stamped,
    truncate,
    write_first_format,
)

GAME = Game.of("5x5")

# Every test gets its own tables directory, so that none writes into the checkout's.
pytestmark = pytest.mark.usefixtures("fresh_tables")


def _copy(source: Path, directory: Path, name: str = "neutreeko-5x5.h5") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(source, directory / name))


def _files(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir())


# -- attributes and data ---------------------------------------------------------------------------


def test_attributes_describe_the_table(table_5x5):
    with h5py.File(table_5x5, "r") as file:
        attributes = dict(file.attrs)
        dataset = file["result"]
        assert dataset.dtype == np.uint8 and dataset.shape == (GAME.positions,)
        assert dataset.chunks is not None and dataset.compression == "gzip"
        data = dataset[()]
    assert attributes["format"] == FORMAT
    assert attributes["format_version"] == FORMAT_VERSION
    assert (attributes["board"], attributes["rule"]) == ("5x5", "connected")
    assert attributes["index_scheme"] == index.INDEX_SCHEME
    assert attributes["value_encoding"] == ENCODING
    counts = {name: int(attributes[name]) for name in
              ("legal", "wins", "losses", "draws", "longest_win", "longest_loss", "no_move")}
    assert counts == {"legal": 3_468_080, "wins": 2_473_028, "losses": 890_392, "draws": 104_660,
                      "longest_win": 51, "longest_loss": 50, "no_move": 0}
    assert counts["wins"] + counts["losses"] + counts["draws"] == counts["legal"]
    assert attributes["digest"] == digest(data)
    assert attributes["digest"].startswith("sha256:")
    assert attributes["writer"].startswith("neutreeko-solver ") and attributes["written"].endswith("Z")
    assert "rank(mover) * C(N-3, 3)" in attributes["index_description"]


def test_open_reads_what_was_written(table_5x5, solved_5x5):
    table = open_table(GAME, table_5x5)
    assert table.game == GAME and table.path == table_5x5
    assert np.array_equal(table.result, solved_5x5.result)
    assert table.probe(5) == solved_5x5.result[5]


def test_same_inputs_give_same_bytes(solved_5x5, table_5x5, tmp_path):
    """A second solve gives identical result bytes; its table the same data and digests."""
    again = solve(GAME)
    assert np.array_equal(again.result, solved_5x5.result)
    path = tmp_path / "again.h5"
    write_table(GAME, again.result, path, again.seconds)
    with h5py.File(table_5x5, "r") as first, h5py.File(path, "r") as second:
        assert first["result"][()].tobytes() == second["result"][()].tobytes()
        assert first.attrs["digest"] == second.attrs["digest"]
        assert {name for name in first.attrs} == {name for name in second.attrs}
        varying = ("solve_seconds", "written")
        assert {name: value for name, value in first.attrs.items() if name not in varying} == \
            {name: value for name, value in second.attrs.items() if name not in varying}


def test_table_file_is_not_private(table_5x5, tmp_path):
    """The temporary file is private; the table renamed from it gets the usual permissions."""
    previous = os.umask(0o022)
    try:
        path = tmp_path / "t.h5"
        write_table(Game.of("3x3"), solve(Game.of("3x3")).result, path, 0.0)
    finally:
        os.umask(previous)
    assert path.stat().st_mode & 0o777 == 0o644


# -- where tables live -----------------------------------------------------------------------------


def test_environment_chooses_the_tables_directory(fresh_tables):
    assert tables_dir() == fresh_tables
    assert table_path(GAME) == fresh_tables / "neutreeko-5x5.h5"
    assert table_path(Game.of("5x5", "centre")) == fresh_tables / "neutreeko-5x5-centre.h5"


@pytest.mark.kernel
def test_build_writes_into_the_tables_directory(fresh_tables):
    path, summary, _ = build_table(Game.of("3x4"))
    assert path == fresh_tables / "neutreeko-3x4.h5" and path.is_file()
    assert _files(fresh_tables) == ["neutreeko-3x4.h5"]
    assert open_table(Game.of("3x4")).attributes["legal"] == summary.legal


# -- atomic writes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("failure", [KeyboardInterrupt(), OSError(28, "No space left on device")])
def test_failed_write_keeps_the_previous_table(table_5x5, solved_5x5, tmp_path, monkeypatch, failure):
    """A write interrupted half way (here: after the data, before the attributes) leaves the previous
    table as it was and no temporary file."""
    path = _copy(table_5x5, tmp_path / "out")
    before = path.read_bytes()

    def fail(data):
        raise failure

    monkeypatch.setattr(solver.core.storage.container, "digest", fail)
    with pytest.raises(type(failure) if isinstance(failure, KeyboardInterrupt) else TableError):
        write_table(GAME, solved_5x5.result, path, 0.0)
    assert path.read_bytes() == before
    assert _files(path.parent) == [path.name]


def test_unwritable_destination_fails_before_solving(tmp_path, monkeypatch):
    """An impossible destination is found before the solve, which may take minutes."""
    monkeypatch.setattr("solver.neutreeko.tables.build.solve", lambda *args: pytest.fail("solved anyway"))
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(TableError, match="not a directory"):
        build_table(GAME, blocker / "t.h5")
    with pytest.raises(TableError, match="is a directory"):
        build_table(GAME, tmp_path)
    assert _files(tmp_path) == ["file"]


def test_build_refuses_to_overwrite_without_force(table_5x5, tmp_path, monkeypatch):
    monkeypatch.setattr("solver.neutreeko.tables.build.solve", lambda *args: pytest.fail("solved anyway"))
    valid = _copy(table_5x5, tmp_path)
    with pytest.raises(TableExistsError, match="already exists.*--force"):
        build_table(GAME, valid)
    notes = tmp_path / "notes.txt"
    notes.write_text("someone's data")
    with pytest.raises(TableExistsError, match="not overwriting .*notes.txt without --force"):
        build_table(GAME, notes)
    assert notes.read_text() == "someone's data"


@pytest.mark.kernel
def test_force_rebuilds(tmp_path):
    game = Game.of("3x3")
    path, _, _ = build_table(game, tmp_path / "t.h5")
    path.write_text("junk")
    build_table(game, path, force=True)
    assert open_table(game, path).attributes["board"] == "3x3"
    assert _files(tmp_path) == ["t.h5"]


# -- refused files ---------------------------------------------------------------------------------


def _edit_attribute(path: Path) -> None:
    with h5py.File(path, "r+") as file:
        file.attrs["legal"] = 123


def _edit_rule(path: Path) -> None:
    with h5py.File(path, "r+") as file:
        file.attrs["rule"] = "orthogonal"


def _flip_stored_byte(path: Path) -> None:
    """Flip one byte in the middle of a compressed chunk, as a bad disk would."""
    with h5py.File(path, "r") as file:
        chunk = file["result"].id.get_chunk_info(3)
    with open(path, "r+b") as raw:
        raw.seek(chunk.byte_offset + chunk.size // 2)
        byte = raw.read(1)
        raw.seek(-1, os.SEEK_CUR)
        raw.write(bytes([byte[0] ^ 0x40]))


def _wrong_format_version(path: Path) -> None:
    with h5py.File(path, "r+") as file:
        file.attrs["format_version"] = FORMAT_VERSION + 1


def _replace_dataset_by_group(path: Path) -> None:
    with h5py.File(path, "r+") as file:
        del file["result"]
        file.create_group("result")


def _solve_seconds_text(path: Path) -> None:
    with h5py.File(path, "r+") as file:
        file.attrs["solve_seconds"] = "fast"


def _set(name: str, value) -> Callable[[Path], None]:
    """A change that sets the attribute ``name`` to ``value`` (deletes it if None)."""
    def change(path: Path) -> None:
        with h5py.File(path, "r+") as file:
            if value is None:
                del file.attrs[name]
            else:
                file.attrs[name] = value

    return change


def _use(table) -> None:
    """Read what the commands read: a probe in every chunk, then the whole table and its counts."""
    table.probe(np.arange(0, GAME.positions, 100_000))
    table.summary


REBUILD = r"; rebuild it with neutreeko solve --board 5x5 --rule connected --out \S+ --force$"
# A change made through HDF5 moves or rewrites its bookkeeping: the metadata region no longer matches.
METADATA = r"is damaged: (its metadata does not match its digest|it has [\d,]+ bytes, not [\d,]+)" + REBUILD
DAMAGE = {
    "text file": (overwrite_with_text, "not a neutreeko-solver table"),
    "foreign HDF5 file": (replace_with_foreign_hdf5, "not a neutreeko-solver table .an HDF5 file without"),
    "truncated": (truncate, r"is damaged: it is truncated \(20,000 of [\d,]+ bytes\)"),
    "edited data": (edit_data, METADATA),
    "flipped stored byte": (_flip_stored_byte, "is damaged: chunk 3 does not match its digest" + REBUILD),
    "edited count": (_edit_attribute, METADATA),
    "dataset replaced by a group": (_replace_dataset_by_group, METADATA),
    "solve_seconds a text": (_solve_seconds_text, METADATA),
    # Re-stamped: every digest recomputed after the change, as a forger would. What remains are the
    # checks of the data against the attributes, and the attributes against what this version reads.
    "edited data, stamped": (stamped(edit_data), "is damaged: its data does not match its digest"),
    "flipped stored byte, stamped": (stamped(_flip_stored_byte), "is damaged: chunk 3 does not decompress"),
    "edited count, stamped": (stamped(_edit_attribute), "is damaged: its data has legal 3,468,080, its attributes 123"),
    "edited rule, stamped": (stamped(_edit_rule), "is a table for 5x5 orthogonal, not 5x5 connected"),
    "another format version, stamped": (stamped(_wrong_format_version), "format"),
    "solve_seconds a text, stamped": (stamped(_solve_seconds_text),
                                      "its attribute solve_seconds is 'fast', not a time in seconds" + REBUILD),
    "solve_seconds infinite, stamped": (stamped(_set("solve_seconds", float("inf"))),
                                        "its attribute solve_seconds is inf, not a text, finite number"),
    "count a text, stamped": (stamped(_set("legal", "lots")), "its attribute legal is 'lots', not a count" + REBUILD),
    "count negative, stamped": (stamped(_set("wins", -5)), "its attribute wins is -5, not a count"),
    "count missing, stamped": (stamped(_set("draws", None)), "its attribute draws is missing" + REBUILD),
}


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_damaged_or_foreign_file_is_refused(table_5x5, tmp_path, damage):
    change, message = DAMAGE[damage]
    path = _copy(table_5x5, tmp_path)
    change(path)
    with pytest.raises(TableError, match=message) as raised:
        _use(open_table(GAME, path))
    assert not isinstance(raised.value, MissingTableError)
    assert "\n" not in str(raised.value) and str(path) in str(raised.value)
    if "stamped" not in damage:  # a re-stamped file is consistent with its digests: what a forger makes
        with pytest.raises(TableError):
            check_file(path)


def test_check_file_passes_an_intact_table(table_5x5):
    assert check_file(table_5x5) == table_5x5.stat().st_size


def test_a_table_of_the_first_format_is_refused_with_the_command_that_converts_it(table_5x5, tmp_path):
    path = tmp_path / "old.h5"
    intact = open_table(GAME, table_5x5)
    write_first_format(path, "result", intact.result, intact.attributes)
    with pytest.raises(TableError, match=f"{path} is a table in the first container format; rewrite it with "
                                         f"neutreeko convert {path}"):
        open_table(GAME, path)
    assert convert_table(path, *legacy.read(path)) == GAME
    table = open_table(GAME, path)
    assert table.attributes["digest"] == open_table(GAME, table_5x5).attributes["digest"]
    assert table.summary.draws == 104_660


def test_table_of_another_board_is_refused(table_5x5):
    with pytest.raises(TableMismatchError, match="is a table for 5x5 connected, not 4x4 connected"):
        open_table(Game.of("4x4"), table_5x5)


def test_missing_table_is_a_key_error(tmp_path):
    with pytest.raises(KeyError):
        open_table(GAME, tmp_path / "none.h5")
    with pytest.raises(MissingTableError, match="neutreeko solve --board 5x5 --rule connected --out"):
        open_table(GAME, tmp_path / "none.h5")


def test_directory_is_not_a_table(tmp_path):
    with pytest.raises(TableError, match="is a directory"):
        open_table(GAME, tmp_path)


# -- invented data behind intact digests -------------------------------------------------------------


def _all_illegal(result: np.ndarray) -> np.ndarray:
    return np.full_like(result, 255)


def _start_illegal(result: np.ndarray) -> np.ndarray:
    changed = result.copy()
    changed[Position.start(GAME).index()] = 255
    return changed


def _all_drawn(result: np.ndarray) -> np.ndarray:
    return np.where(result == 255, result, 0).astype(np.uint8)


def _random_bytes(result: np.ndarray) -> np.ndarray:
    return np.random.default_rng(0).integers(0, 256, len(result), dtype=np.uint8)


INVENTED = {"every byte 255": _all_illegal, "the start's byte 255": _start_illegal,
            "every legal position drawn": _all_drawn, "random bytes": _random_bytes}


@pytest.mark.parametrize("invent", INVENTED, ids=list(INVENTED))
@pytest.mark.parametrize("command", [["stats"], ["verify"], ["starts", "--count", "2"], ["check"]])
def test_invented_data_with_the_original_attributes_is_damaged(table_5x5, tmp_path, monkeypatch, invent, command):
    """Data rewritten through the container with the original attributes, so that every digest holds:
    the counts and the legal set of the index still give it away, to every reader of the whole table."""
    intact = open_table(GAME, table_5x5)
    attributes = {name: value for name, value in intact.attributes.items()
                  if name not in ("format", "digest", "writer", "written")}
    monkeypatch.setenv("NEUTREEKO_TABLES", str(tmp_path))
    path = tmp_path / "neutreeko-5x5.h5"
    solver.core.storage.container.write(path, "result", INVENTED[invent](intact.result), attributes)
    if command == ["verify"]:  # verify reads the 4 x 4 table too
        write_table(Game.of("4x4"), solve(Game.of("4x4")).result, tmp_path / "neutreeko-4x4.h5", 0.0)
    result = invoke(*command)
    assert_one_line_error(result, f"table {path} is damaged", code=1)


def test_a_full_table_is_counted_a_chunk_at_a_time(table_5x5, solved_5x5, monkeypatch):
    """The summary of a full table streams its chunks (never the whole array at once) and agrees with
    the counts of the whole array, however the stretches fall: the longest wins found across them."""
    monkeypatch.setattr(Chunks, "whole", lambda self: pytest.fail("the whole dataset was read at once"))
    streamed = open_table(GAME, table_5x5).summary
    assert streamed == summarize(GAME, solved_5x5.result)
    bounds = [0, 1, 1_000, 262_144, 262_145, 2_000_000, 3_000_000, GAME.positions]
    ragged = [(first, solved_5x5.result[first:end]) for first, end in zip(bounds, bounds[1:])]
    assert summarize_stretches(GAME, ragged) == streamed and len(streamed.longest_win_indices) > 1

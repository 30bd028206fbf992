"""Positions and helpers shared by the tests: running a command, the one-line error it must give, and
ways to damage a table (the fixtures are in conftest.py)."""

from __future__ import annotations

import faulthandler
import hashlib
import importlib.util
import inspect
import json
import os
import select
import shlex
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable, Iterator

import click
import h5py
import numpy as np
import pytest
from click.testing import CliRunner, Result

import solver.neutreeko.model.position
from solver.cli import cli
from solver.core.answers.record import GameLine, RecordError, write_record
from solver.core.storage.chunks import MAP_ENTRY
from solver.core.storage.container import stamp
from solver.neutreeko.model.board import Board
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.model.rules import RuleError

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
GAME = Game.of("5x5")
START = "1w1w1/2b2/5/2w2/1b1b1 b"
LONGEST = "w4/5/1b3/2w2/bw1b1 b"


def offered(rule: str, board: Board | str) -> bool:
    """Is ``rule`` offered on ``board``?"""
    try:
        Game.of(board, rule)
    except RuleError:
        return False
    return True


def random_positions(count: int, seed: int = 0) -> list[Position]:
    """``count`` random legal 5 x 5 positions, reproducibly."""
    return solver.neutreeko.model.position.random_positions(GAME, count, seed)


def colour_twin(position: Position) -> Position:
    """The position with colours swapped and the board turned 180 degrees (square s -> N-1-s)."""
    last = position.game.board.size - 1
    black = tuple(sorted(last - square for square in position.white))
    white = tuple(sorted(last - square for square in position.black))
    return Position(position.game, black, white, not position.black_to_move)


def script(name: str) -> ModuleType:
    """The script ``scripts/<name>.py`` as a module (loaded once), its folder on the path as when it runs
    (the scripts import their helpers, ``benchjson``, from there)."""
    if name in sys.modules:
        return sys.modules[name]
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


# -- the command line -------------------------------------------------------------------------------

def runner() -> CliRunner:
    """A click test runner keeping standard output and standard error apart, whatever the click version."""
    separate = {"mix_stderr": False} if "mix_stderr" in inspect.signature(CliRunner).parameters else {}
    return CliRunner(**separate)


def invoke(*args: str, input: str | None = None, program: click.Command = cli) -> Result:
    """``neutreeko ARGS`` (or another ``program``) in process, with standard output and standard error
    apart whatever the click version; ``input`` is standard input. Only ``SystemExit`` may end it."""
    result = runner().invoke(program, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def help_examples(help_text: str, program: str = "neutreeko") -> list[tuple[list[str], str | None]]:
    """The example commands of a help text (the lines after ``Example ...:`` that run ``program``, or
    pipe ``printf '...'`` into it): (arguments after the program's name, standard input or None)."""
    examples = []
    for line in help_text.split("Example", 1)[1].splitlines()[1:]:
        line = line.strip()
        if not line.startswith((f"{program} ", "printf ")):
            break
        feed, _, command = line.rpartition("| ")
        words = shlex.split(command)
        assert words[0] == program, line
        examples.append((words[1:], shlex.split(feed)[1].encode().decode("unicode_escape") if feed else None))
    return examples


def assert_record_refused(parse: Callable[[str], object], text: str, words: Iterable[str]) -> None:
    """``parse(text)`` raises a :class:`RecordError` of one line naming every one of ``words``."""
    with pytest.raises(RecordError) as raised:
        parse(text)
    for word in words:
        assert word in str(raised.value), (word, str(raised.value))
    assert "\n" not in str(raised.value)


def assert_round_trip(record: GameLine[Any, Any], parse: Callable[[str], GameLine[Any, Any]], path: Path,
                      read: Callable[[Path], GameLine[Any, Any]]) -> GameLine[Any, Any]:
    """``record``'s text reads back (``parse``) equal and is written again the same; written to ``path``
    (:func:`write_record`), it reads back (``read``) equal, with lines of at most 78 columns; its main
    line replayed from its start ends at its end. Returns the record read from ``path``."""
    text = record.text()
    assert parse(text) == record and parse(text).text() == text
    write_record(path, record)
    again = read(path)
    assert again == record and again.text() == text
    assert max(len(line) for line in text.splitlines()) <= 78
    replayed = again.start
    for step in again.line:
        replayed = replayed.play(step)
    assert replayed == record.end
    return again


def assert_one_line_error(result: Result, *words: str, code: int | None = None,
                          program: str = "neutreeko") -> str:
    """A non-zero exit (``code`` if given), nothing on standard output and one line on standard error,
    ``<program>: error: ...``, naming every one of ``words``; returns that line."""
    assert result.exit_code != 0 if code is None else result.exit_code == code, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert result.stdout == "", result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{program}: error: "), result.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


# -- ways to damage a copy of a table file ----------------------------------------------------------

def overwrite_with_text(path: Path) -> None:
    path.write_text("hello\n")


def replace_with_foreign_hdf5(path: Path) -> None:
    """An HDF5 file, but not one of ours."""
    path.unlink()
    with h5py.File(path, "w") as file:
        file["x"] = np.arange(3)


def truncate(path: Path) -> None:
    with open(path, "r+b") as raw:
        raw.truncate(20_000)


def edit_data(path: Path) -> None:
    """Change one result byte through HDF5: the file no longer matches its header's digest."""
    with h5py.File(path, "r+") as file:
        file["result"][1_000_000] ^= 3


def stamped(change: Callable[[Path], None]) -> Callable[[Path], None]:
    """``change``, then the header rewritten to match (as a writer with a bug might leave a file), so
    that the checks behind the whole file's digest are reached."""
    def change_and_stamp(path: Path) -> None:
        change(path)
        stamp(path)

    return change_and_stamp


def write_first_format(path: Path, dataset: str, data: np.ndarray, attributes: dict) -> None:
    """Write a table as the first container format wrote them: a 512-byte header with the file's size
    and the SHA-256 of every byte after it, then HDF5 holding ``data`` as ``dataset`` and ``attributes``
    (a table's, as read today), with the digests of the data and of the other attributes but
    ``solve_seconds``."""
    attributes = {name: value for name, value in attributes.items() if name not in ("writer", "written", "sorted_by")}
    digested = {name: value for name, value in attributes.items() if name != "solve_seconds"}
    text = json.dumps(digested, sort_keys=True, separators=(",", ":"), default=str)
    attributes["attributes_digest"] = "sha256:" + hashlib.sha256(text.encode()).hexdigest()
    with h5py.File(path, "w", track_order=True, userblock_size=512) as file:
        file.create_dataset(dataset, data=data, chunks=(min(len(data), 1 << 18),), compression="gzip")
        file.attrs.update(attributes)
    body = path.read_bytes()[512:]
    header = f"neutreeko-solver table container 1\nsize {512 + len(body)}\nsha256 {hashlib.sha256(body).hexdigest()}\n"
    with open(path, "r+b") as raw:
        raw.write(header.encode().ljust(512, b"\0"))


def restamped(table: bytes) -> bytes:
    """The bytes of a table file, ``table``, with every digest recomputed as a forger who knows the
    format would, without the HDF5 library: each chunk's where the map says it is, the map's, the
    metadata region's, the body's and the header's (see ``docs/table-format.md``). The header's other
    fields and the length stay."""
    data = bytearray(table)
    start = data.index(b"\n", data.index(b"\n") + 1) + 1
    header = json.loads(data[start:data.index(b"\n", start)])
    count = -(-header["shape"][0] // header["chunk_items"])
    entries = np.frombuffer(bytes(data[header["map_offset"]:header["map_offset"] + 56 * count]), MAP_ENTRY).copy()
    for entry in entries:
        stored = bytes(data[int(entry["offset"]):int(entry["offset"] + entry["size"])])
        entry["sha256"] = np.frombuffer(hashlib.sha256(stored).digest(), np.uint8)
    data[header["map_offset"]:header["map_offset"] + entries.nbytes] = entries.tobytes()
    covered = np.zeros(len(data), dtype=bool)
    for entry in entries:
        covered[int(entry["offset"]):int(entry["offset"] + entry["size"])] = True
    covered[:header["header_bytes"]] = True
    header.update(map_sha256=hashlib.sha256(entries.tobytes()).hexdigest(),
                  metadata_sha256=hashlib.sha256(np.frombuffer(bytes(data), np.uint8)[~covered].tobytes()).hexdigest(),
                  body_sha256=hashlib.sha256(bytes(data[header["header_bytes"]:])).hexdigest())
    text = json.dumps(header, separators=(",", ":")).encode()
    lines = (b"neutreeko-solver table container 2\n" + f"header {len(text)} sha256 ".encode()
             + hashlib.sha256(text).hexdigest().encode() + b"\n" + text + b"\n")
    data[:header["header_bytes"]] = lines.ljust(header["header_bytes"], b"\0")
    return bytes(data)


def read_terminal(master: int, until: bytes | None, timeout: float) -> bytes:
    """What the program writes to the terminal, until ``until`` appears, or until it closes."""
    seen = b""
    while until is None or until not in seen:
        ready, _, _ = select.select([master], [], [], timeout)
        if not ready:
            raise TimeoutError(f"no {until!r} after {timeout} s; saw {seen[-500:]!r}")
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the other side closed (Linux)
            break
        if not chunk:
            break
        seen += chunk
    return seen


def time_bound(seconds: float) -> Callable[[], Iterator[None]]:
    """An autouse fixture for a module (``_bounded = time_bound(60)``): a test that runs longer than
    ``seconds`` ends the run with every thread's traceback, so that a hang is seen, not waited for."""
    @pytest.fixture(autouse=True)
    def bounded() -> Iterator[None]:
        faulthandler.dump_traceback_later(seconds, exit=True)
        yield
        faulthandler.cancel_dump_traceback_later()
    return bounded

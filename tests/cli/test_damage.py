"""A damaged table never aborts, hangs or crashes a command, whatever byte changed: every byte of a small
table is flipped in turn, and each time the command ends with exit 1 and one line naming the table (the
flips run in a child process, so that an abort or a hang fails the test instead of ending the run)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from solver.core.storage.container import HEADER_BYTES
from solver.neutreeko.model.game import Game
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.tables.table import open_table, write_table

ROOT = Path(__file__).resolve().parents[2]
#: The whole run's bound: about 10,000 commands at a few milliseconds each.
TIMEOUT = 120
ARGS = ["query", "--board", "3x3", "ww1/w1b/bb1 b", "--table"]


def flip_each_byte(path: str) -> None:
    """In the child: flip each byte of the table at ``path`` in turn (all its bits), run the command on
    it, put the byte back; print a JSON object: how many flips, and those not refused in one line."""
    from solver.cli import cli
    from tests.helpers import runner

    original = Path(path).read_bytes()
    run = runner()
    wrong = []
    descriptor = os.open(path, os.O_RDWR)
    for offset, byte in enumerate(original):
        os.pwrite(descriptor, bytes([byte ^ 0xFF]), offset)
        result = run.invoke(cli, [*ARGS, path])
        lines = result.stderr.splitlines()
        refusals = (f"neutreeko: error: table {path} is damaged: ",  # a flip in the header's first line:
                    f"neutreeko: error: {path} is not a neutreeko-solver table")
        if not (result.exit_code == 1 and len(lines) == 1 and lines[0].startswith(refusals)):
            wrong.append([offset, result.exit_code, result.stderr[-300:], repr(result.exception)])
        os.pwrite(descriptor, bytes([byte]), offset)
    os.close(descriptor)
    print(json.dumps({"flips": len(original), "wrong": wrong}))


def test_every_flipped_byte_is_refused_in_one_line(tmp_path):
    game = Game.of("3x3")
    path = tmp_path / "neutreeko-3x3.h5"
    write_table(game, solve(game).result, path, 0.5)
    intact = path.read_bytes()
    done = subprocess.run([sys.executable, "-c", f"from tests.cli.test_damage import flip_each_byte; "
                                                 f"flip_each_byte({str(path)!r})"],
                          cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr[-2000:]
    outcome = json.loads(done.stdout)
    assert outcome["flips"] == len(intact) > HEADER_BYTES + 4_000  # the header, the metadata and the data
    assert outcome["wrong"] == []
    assert path.read_bytes() == intact


def test_damaged_default_table_is_not_rebuilt_silently(tmp_path, monkeypatch):
    """A damaged table where the commands look for it: one line saying how to rebuild it, exit 1."""
    game = Game.of("3x3")
    directory = tmp_path / "tables"
    directory.mkdir()
    path = directory / "neutreeko-3x3.h5"
    write_table(game, solve(game).result, path, 0.5)
    damaged = bytearray(path.read_bytes())
    damaged[-100] ^= 0xFF
    path.write_bytes(damaged)
    env = {**os.environ, "NEUTREEKO_TABLES": str(directory)}
    done = subprocess.run([sys.executable, "-m", "solver", "query", "--board", "3x3", "ww1/w1b/bb1 b"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"neutreeko: error: table {path} is damaged: its metadata does not match its digest; "
        f"rebuild it with neutreeko solve --board 3x3 --rule connected --force"]
    assert path.read_bytes() == damaged and os.listdir(directory) == [path.name]


def query_each_forgery(path: str) -> None:
    """In the child: for each byte of the 3 x 3 table at ``path`` after its header and outside its
    chunk, flip its lowest bit and re-stamp the file (every digest recomputed), then run the command on
    it; print a JSON object: how many forgeries, and those not answered rightly or refused in one line
    within a second."""
    from solver.cli import cli
    from tests.helpers import restamped, runner

    original = Path(path).read_bytes()
    run = runner()
    truth = run.invoke(cli, [*ARGS, path]).stdout
    table = open_table(Game.of("3x3"), Path(path))
    (entry,) = table.chunks.entries
    table.close()
    chunk = range(int(entry["offset"]), int(entry["offset"] + entry["size"]))
    wrong = []
    hdf5 = original.index(b"\x89HDF\r\n\x1a\n")  # the end of the header
    offsets = [offset for offset in range(hdf5, len(original)) if offset not in chunk]
    # Written in place, as the flips are: a file truncated and written again is flushed to the disk
    # when closed (ext4's auto_da_alloc), which costs more than the command.
    descriptor = os.open(path, os.O_WRONLY)
    for offset in offsets:
        forged = bytearray(original)
        forged[offset] ^= 0x01
        os.pwrite(descriptor, restamped(forged), 0)
        began = time.perf_counter()
        result = run.invoke(cli, [*ARGS, path])
        seconds = time.perf_counter() - began
        lines = result.stderr.splitlines()
        answered = result.exit_code == 0 and result.stdout == truth
        refused = result.exit_code == 1 and len(lines) == 1 and "is damaged" in lines[0]
        if not (answered or refused) or seconds > 1:
            wrong.append([offset, result.exit_code, round(seconds, 2), result.stderr[-300:]])
    os.pwrite(descriptor, original, 0)
    os.close(descriptor)
    print(json.dumps({"forgeries": len(offsets), "wrong": wrong}))


def test_a_forged_table_never_hangs_the_reader(tmp_path):
    """A forger who recomputes every digest after changing HDF5's metadata or the chunk map: the HDF5
    library never parses those bytes, so each forgery is answered as the intact table answers, or
    refused in one line, at once."""
    game = Game.of("3x3")
    path = tmp_path / "neutreeko-3x3.h5"
    write_table(game, solve(game).result, path, 0.5)
    done = subprocess.run([sys.executable, "-c", f"from tests.cli.test_damage import query_each_forgery; "
                                                 f"query_each_forgery({str(path)!r})"],
                          cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr[-2000:]
    outcome = json.loads(done.stdout)
    assert outcome["forgeries"] > 3_000
    assert outcome["wrong"] == []

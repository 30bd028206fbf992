"""Tables read over HTTP: every reader answers from a table's address (``--table URL``) or a release's
(``NEUTREEKO_TABLES=URL``) as from the local file, and a server that lies is refused in one line naming
the address, exit 1, never with an answer. The servers are the test's own, on the loopback interface:
:mod:`solver.web.static_host` (Python's own server answers no ``Range``), and a liar built on it."""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from solver.cli import group
from solver.core.storage import remote_file
from solver.core.storage.chunks import MAP_ENTRY
from solver.core.storage.container import open_contents
from solver.core.storage.remote import Url
from solver.necnon.model.rules import Game as NecnonGame
from solver.necnon.querying.probe import Tablebase as NecnonTablebase
from solver.necnon.tables.table import table_path as necnon_table_path
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import random_positions
from solver.neutreeko.querying.probe import Tablebase
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.tables.table import open_table, table_path, write_table
from solver.web.api import Explorer
from solver.web.static_host import RangeHandler, RangeServer
from tests.helpers import assert_one_line_error, invoke, time_bound

FOUR = Game.of("4x4")
FOLDED = Game.of("5x4")
NECNON = NecnonGame.of("3x3", "nec")
HEX = NecnonGame.of("hex2", "nec")
#: No test of this module may take longer: a hang ends the run with the threads' tracebacks.
BOUND_SECONDS = 60
_bounded = time_bound(BOUND_SECONDS)


@pytest.fixture(scope="module")
def release(tables_4x4, necnon_tables, tmp_path_factory) -> Path:
    """A release (``publish``) of 4 x 4 (full), 5 x 4 (folded), NECNON 3 x 3 and hex2: never change it."""
    source = tmp_path_factory.mktemp("remote-source")
    shutil.copy(tables_4x4 / table_path(FOUR).name, source)
    for game in (NECNON, HEX):
        shutil.copy(necnon_tables / necnon_table_path(game).name, source)
    solved = solve(FOLDED)
    write_table(FOLDED, solved.result, source / table_path(FOLDED).name, solved.seconds, fold=True)
    directory = tmp_path_factory.mktemp("remote-release") / "release"
    result = invoke("publish", str(directory), *(str(path) for path in sorted(source.iterdir())))
    assert result.exit_code == 0, result.stderr
    return directory


@pytest.fixture
def serve() -> Iterator:
    """A function serving a directory on an ephemeral loopback port (with ``handler``), returning the
    server; every server stops at the test's end."""
    running = []

    def start(directory: Path, handler: type = RangeHandler):
        server = RangeServer(directory, handler=handler).start()
        running.append(server)
        return server

    yield start
    for server in running:
        server.stop()


def _name(game: Game) -> str:
    return table_path(game).name


@pytest.mark.parametrize("game", [FOUR, FOLDED], ids=str)
def test_a_table_at_an_address_answers_every_index_as_the_local_file(release, serve, game):
    url = serve(release).url
    local, distant = open_table(game, release / _name(game)), open_table(game, Url(url + _name(game)))
    assert distant.folded == local.folded == (game == FOLDED)
    indices = np.arange(game.positions)
    assert np.array_equal(distant.probe(indices), local.probe(indices))
    assert distant.attributes == local.attributes


def test_the_5x5_table_at_an_address_answers_every_index_as_the_local_file(tables_5x5, serve):
    game = Game.of("5x5")
    local, distant = open_table(game, tables_5x5 / _name(game)), open_table(game, Url(serve(tables_5x5).url + _name(game)))
    indices = np.arange(game.positions)
    assert np.array_equal(distant.probe(indices), local.probe(indices))


def test_a_release_address_is_a_tables_directory_for_every_reader(release, serve, monkeypatch):
    url = serve(release).url
    positions = [*random_positions(FOUR, 40, 1), *random_positions(FOLDED, 40, 2)]
    with Tablebase(release) as local, Tablebase(Url(url)) as distant:
        for position in positions:
            assert distant.probe(position) == local.probe(position)
            assert distant.moves(position) == local.moves(position)
    with NecnonTablebase(release) as local_necnon, NecnonTablebase(Url(url)) as distant_necnon:
        for game in (NECNON, HEX):
            assert np.array_equal(distant_necnon.table(game).records, local_necnon.table(game).records)
    record = "1. C1-A3"
    for arguments, feed in ((["query", "start", "--board", "4x4"], None), (["query", "start", "--board", "5x4"], None),
                            (["line", "start", "--board", "5x4"], None), (["show", "start", "--board", "5x4"], None),
                            (["annotate", "-", "--json"], f'[Board "4x4"]\n\n{record}\n')):
        monkeypatch.setenv("NEUTREEKO_TABLES", str(release))
        here = invoke(*arguments, input=feed)
        monkeypatch.setenv("NEUTREEKO_TABLES", url)
        there = invoke(*arguments, input=feed)
        assert here.exit_code == there.exit_code == 0, (here.stderr, there.stderr)
        assert there.stdout == here.stdout
        board = Game.of(arguments[3]) if "--board" in arguments else FOUR
        there = invoke(*arguments, "--table", url + _name(board), input=feed)
        assert there.exit_code == 0 and there.stdout == here.stdout, there.stderr
    monkeypatch.setenv("NEUTREEKO_TABLES", str(release))
    here = invoke("query", "empty", "--board", "3x3", program=group("necnon"))
    there = invoke("query", "empty", "--board", "3x3", "--table", url + necnon_table_path(NECNON).name,
                   program=group("necnon"))
    assert here.exit_code == there.exit_code == 0 and there.stdout == here.stdout, there.stderr


def test_the_explorer_answers_from_a_release_address(release, serve):
    url = serve(release).url
    parameters = {"board": "5x4", "position": "start"}
    here = Explorer(release).answer("/api/position", parameters)
    there = Explorer(Url(url)).answer("/api/position", parameters)
    assert there == here
    games = Explorer(Url(url)).answer("/api/games", {})
    states = {(item["board"], item.get("rule", item.get("protocol"))): item["table"] for item in games["games"]}
    assert {states[key] for key in (("4x4", "connected"), ("5x4", "connected"), ("3x3", "nec"))} == {"ready"}
    assert states["3x3", "connected"] == states["2x2", "nec"] == "missing"  # never built at an address


class Recorder(RangeHandler):
    """The honest server, noting each range asked for in :attr:`asked`."""

    asked: list[tuple[int, int]] = []

    def reply(self, status: int, headers: dict[str, str], body: bytes) -> None:
        first, last = (int(end) for end in re.findall("[0-9]+", self.headers["Range"]))
        self.asked.append((first, last + 1))
        super().reply(status, headers, body)


def test_opening_reads_the_header_and_map_and_a_probe_one_chunk(release, serve):
    recorder = type("Recording", (Recorder,), {"asked": []})
    server = serve(release, recorder)
    contents = open_contents(Url(server.url + _name(FOUR)))
    opened = server.sent
    header, entries = contents._header, contents._entries
    map_range = (header["map_offset"], header["map_offset"] + len(entries) * MAP_ENTRY.itemsize)
    # The header, then the map; no byte of the metadata region (nothing of it is needed to find a chunk).
    assert recorder.asked[0][0] == 0 and max(last for _, last in recorder.asked[:-1]) <= header["header_bytes"]
    assert recorder.asked[-1] == map_range
    assert opened == sum(last - first for first, last in recorder.asked)
    chunks = contents.chunks("result", FOUR.positions, np.uint8)
    chunks.chunk(0)
    assert server.sent - opened == int(chunks.entries[0]["size"])
    contents.close()


class Liar(RangeHandler):
    """The honest server, but for the lie :attr:`lie` names."""

    lie = ""
    release = threading.Event()
    #: Where "elsewhere" redirects to (an address of the same scheme).
    elsewhere = ""

    def reply(self, status: int, headers: dict[str, str], body: bytes) -> None:
        if self.lie == "silence":
            self.release.wait(5)
            return
        if self.lie == "content range" and status == 206:
            first, last, size = re.findall("[0-9]+", headers["Content-Range"])
            headers["Content-Range"] = f"bytes {int(first) + 1}-{int(last) + 1}/{size}"
        elif self.lie == "whole file" and status == 206:
            status, body = 200, Path(self.translate_path(self.path)).read_bytes()
            headers = {"Content-Length": str(len(body))}
        elif self.lie == "short body":
            self.close_connection = True
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body[:-1])
            return
        elif self.lie == "long body":
            body += b"\0" * 16
            headers["Content-Length"] = str(len(body))
        elif self.lie == "elsewhere":
            status, headers, body = 307, {"Location": self.elsewhere + self.path.lstrip("/"), "Content-Length": "0"}, b""
        elif self.lie == "other scheme":
            status, headers, body = 302, {"Location": "ftp://127.0.0.1/table.h5", "Content-Length": "0"}, b""
        super().reply(status, headers, body)


LIES = {"content range": "with bytes", "whole file": "whole file (HTTP 200)", "short body": "bytes for a range of",
        "long body": "Content-Length", "other scheme": "not an http:// address"}


@pytest.mark.parametrize("lie", sorted(LIES))
def test_a_server_that_lies_is_refused_in_one_line(release, serve, lie):
    server = serve(release, type("Lying", (Liar,), {"lie": lie}))
    url = server.url + _name(FOUR)
    assert_one_line_error(invoke("query", "start", "--board", "4x4", "--table", url), url, LIES[lie], code=1)


def test_a_redirect_within_its_scheme_is_followed(release, serve, monkeypatch):
    honest = serve(release).url
    url = serve(release, type("Moved", (Liar,), {"lie": "elsewhere", "elsewhere": honest})).url + _name(FOUR)
    monkeypatch.setenv("NEUTREEKO_TABLES", str(release))
    here, there = invoke("query", "start", "--board", "4x4"), invoke("query", "start", "--board", "4x4", "--table", url)
    assert here.exit_code == there.exit_code == 0 and there.stdout == here.stdout, there.stderr


def test_a_table_a_release_lacks_is_missing(release, serve, monkeypatch):
    url = serve(release).url
    with Tablebase(Url(url)) as tablebase:
        assert tablebase.get("start", default="no table") == "no table"  # 5 x 5: not in the release
    monkeypatch.setenv("NEUTREEKO_TABLES", url)
    assert_one_line_error(invoke("query", "start", "--board", "3x3"), f"no table at {url}neutreeko-3x3.h5 (HTTP 404)",
                          code=1)


def test_python_s_own_server_answers_no_range_and_is_refused(release):
    quiet = type("Quiet", (http.server.SimpleHTTPRequestHandler,), {"log_message": lambda *arguments: None})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(quiet, directory=str(release)))
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/{_name(FOUR)}"
        assert_one_line_error(invoke("query", "start", "--board", "4x4", "--table", url), url,
                              "its host must answer Range requests", code=1)
    finally:
        server.shutdown()
        server.server_close()


def _changed_copy(release: Path, target: Path, change) -> Path:
    """A copy of the 4 x 4 table of ``release`` in ``target``, changed by ``change(bytes, contents)``."""
    target.mkdir()
    path = target / _name(FOUR)
    contents = open_contents(release / _name(FOUR))
    data = bytearray((release / _name(FOUR)).read_bytes())
    path.write_bytes(change(data, contents))
    contents.close()
    return target


def test_a_file_longer_than_its_header_says_is_refused(release, serve, tmp_path):
    served = _changed_copy(release, tmp_path / "longer", lambda data, contents: bytes(data) + b"\0" * 100)
    url = serve(served).url + _name(FOUR)
    size = (release / _name(FOUR)).stat().st_size
    line = assert_one_line_error(invoke("query", "start", "--board", "4x4", "--table", url), url, "damaged",
                                 f"{size + 100:,} bytes, not {size:,}", code=1)
    assert "--out" not in line and line.endswith("publish it there again")


def test_a_chunk_that_fails_its_digest_is_refused_without_an_answer(release, serve, tmp_path):
    def flip_every_chunk(data: bytearray, contents) -> bytes:
        entries = np.frombuffer(contents._file.read(len(contents._entries) * MAP_ENTRY.itemsize,
                                                    contents._header["map_offset"]), MAP_ENTRY)
        for entry in entries:
            data[int(entry["offset"]) + int(entry["size"]) // 2] ^= 0xFF
        return bytes(data)

    served = _changed_copy(release, tmp_path / "flipped", flip_every_chunk)
    url = serve(served).url + _name(FOUR)
    result = invoke("query", "start", "--board", "4x4", "--table", url)
    assert result.exit_code == 1
    assert not any(word in result.stdout for word in ("wins", "loses", "draw"))
    (line,) = result.stderr.splitlines()
    assert "does not match its digest" in line and url in line and line.endswith("publish it there again")


def test_damaged_metadata_is_not_read_over_http_and_check_file_finds_it(release, serve, tmp_path):
    def flip_the_superblock(data: bytearray, contents) -> bytes:
        data[contents._header["header_bytes"] + 16] ^= 0xFF  # HDF5's superblock: metadata, in no chunk
        return bytes(data)

    served = _changed_copy(release, tmp_path / "metadata", flip_the_superblock)
    url = serve(served).url + _name(FOUR)
    local = invoke("query", "start", "--board", "4x4", "--table", str(served / _name(FOUR)))
    assert local.exit_code == 1 and "its metadata does not match its digest" in local.stderr
    intact = invoke("query", "start", "--board", "4x4", "--table", str(release / _name(FOUR)))
    there = invoke("query", "start", "--board", "4x4", "--table", url)
    assert there.exit_code == intact.exit_code == 0 and there.stdout == intact.stdout, there.stderr
    assert_one_line_error(invoke("check-file", url), url, "its contents do not match their digest", code=1)
    checked = invoke("check-file", serve(release).url + _name(FOUR))
    assert checked.exit_code == 0 and checked.stdout.endswith(f"intact ({(release / _name(FOUR)).stat().st_size:,} "
                                                              "bytes digested)\n")


def test_a_refused_connection_and_a_silent_server_are_refused_in_one_line(release, serve, monkeypatch):
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    url = f"http://127.0.0.1:{port}/{_name(FOUR)}"
    assert_one_line_error(invoke("query", "start", "--board", "4x4", "--table", url), url, "refused", code=1)
    monkeypatch.setattr(remote_file, "TIMEOUT", 0.3)
    server = serve(release, type("Silent", (Liar,), {"lie": "silence"}))
    url = server.url + _name(FOUR)
    try:
        assert_one_line_error(invoke("query", "start", "--board", "4x4", "--table", url), url, "timed out",
                              code=1)
    finally:
        Liar.release.set()


@pytest.mark.parametrize("address", ["http://a b/t.h5", "http://[::1/t.h5", "http://127.0.0.1:99999/t.h5",
                                     "http://127.0.0.1/t\r\nRange: bytes=0-1", "https://", "http://" + "a" * 300 + "/t.h5",
                                     "http://\u00e9.org/t.h5"])
def test_a_text_that_is_no_address_is_refused_in_one_line(address, monkeypatch):
    assert_one_line_error(invoke("query", "start", "--board", "4x4", "--table", address), "is not an address", code=2)
    monkeypatch.setenv("NEUTREEKO_TABLES", address)
    assert_one_line_error(invoke("query", "start", "--board", "4x4"), "is not an address", code=2)


def test_an_address_is_never_written_to(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # where a path made of the address would be written
    monkeypatch.setenv("NEUTREEKO_TABLES", "http://127.0.0.1:9/release/")
    assert_one_line_error(invoke("solve", "--board", "3x3"), "cannot write a table at http://127.0.0.1:9/release/",
                          code=1)
    assert not list(tmp_path.iterdir())


@pytest.mark.integration  # a server
def test_a_started_server_stops_at_once(tmp_path):
    """:meth:`RangeServer.stop` returns within a few hundredths of a second, not after a loop of
    ``serve_forever``'s default half-second wait (which every test with a server would pay)."""
    server = RangeServer(tmp_path).start()
    began = time.monotonic()
    server.stop()
    assert time.monotonic() - began < 0.25

"""The explorer's server held against hostile clients and files: connections, request heads and their
time bounded, out of file descriptors without spinning, the Host header checked (DNS rebinding), builds
one at a time in a child process, a failed build remembered and told in one line, a table replaced,
deleted or damaged on disk, and Ctrl-C during a build. Everything on an ephemeral loopback port, with
the bounds scaled down, each test a few seconds at most."""

from __future__ import annotations

import http.client
import json
import os
import resource
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest

from solver.core.errors import TableError
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.outcome import ending
from solver.neutreeko.model.position import Position
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.tables.table import table_path, write_table
from solver.neutreeko.web import api as neutreeko_api
from solver.web.api import Explorer
from solver.web.game_api import MAX_NESTING, MAX_TREE_PLIES
from solver.web.server import MAX_HEADER_BYTES, ExplorerServer, Limits
from solver.web.tables import BuildError, BuildLimits, BusyError
from tests.web.test_web import get_json, raw, request, serve

GAME_4X4 = Game.of("4x4")


@contextmanager
def running(explorer: Explorer, limits: Limits = Limits(), host: str = "127.0.0.1") -> Iterator[ExplorerServer]:
    """An explorer server on an ephemeral port of ``host``, serving in a thread until the block ends."""
    server = ExplorerServer(host, 0, explorer, limits=limits)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def connect(server: ExplorerServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=5)


def closed_within(connection: socket.socket, seconds: float) -> bool:
    """Does the server close ``connection`` within ``seconds`` (anything it sends first is read)?"""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        if select.select([connection], [], [], left)[0]:
            try:
                if not connection.recv(65536):
                    return True
            except ConnectionError:
                return True
    return False


def copy_4x4(tables_4x4: Path, directory: Path) -> Path:
    directory.mkdir(exist_ok=True)
    return Path(shutil.copy(tables_4x4 / table_path(GAME_4X4).name, directory))


def flip_byte(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))


def leftovers(directory: Path) -> list[str]:
    """What a build left in ``directory`` besides tables: temporary files and directories."""
    return sorted(path.name for path in directory.rglob(".*")) if directory.exists() else []


# -- connections ----------------------------------------------------------------------------------------

def test_connections_beyond_the_bound_get_a_503_at_once(tables_4x4):
    """With 8 connections held open, a 9th is answered 503 at once, without a thread; when one closes,
    a new one is answered."""
    with running(Explorer(tables_4x4), Limits(connections=8)) as server:
        threads = threading.active_count()
        held = [connect(server) for _ in range(8)]  # accepted in turn, before the next one
        try:
            with connect(server) as extra:
                answer = b""
                while chunk := extra.recv(65536):
                    answer += chunk
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.split()[1] == b"503" and b"Connection: close" in head and b"Retry-After: " in head
            assert "8 connections" in json.loads(body)["error"]
            assert threading.active_count() - threads <= 8
            held.pop().close()
            for _ in range(100):
                try:
                    status, _ = get_json(server.url, "/api/games")
                except ConnectionError:
                    status = None
                if status == 200:
                    break
                time.sleep(0.02)
            assert status == 200
        finally:
            for connection in held:
                connection.close()


def test_a_request_trickling_in_is_cut_off_at_its_deadline(tables_4x4):
    """A byte every 0.2 s keeps an idle timeout from ever firing; the request's deadline (1 s from its
    first byte) closes the connection all the same, and its thread ends."""
    with running(Explorer(tables_4x4), Limits(idle_seconds=5, request_seconds=1)) as server:
        threads = threading.active_count()
        with connect(server) as connection:
            began = time.monotonic()
            connection.sendall(b"GET /api/games HTTP/1.1\r\n")
            closed = False
            while not closed and time.monotonic() - began < 3:
                try:
                    connection.sendall(b"X")
                except ConnectionError:
                    break
                closed = closed_within(connection, 0.2)
            assert 0.8 < time.monotonic() - began < 2.5
        for _ in range(50):
            if threading.active_count() <= threads:
                break
            time.sleep(0.02)
        assert threading.active_count() <= threads


def test_an_idle_connection_is_closed(tables_4x4):
    with running(Explorer(tables_4x4), Limits(idle_seconds=0.5)) as server, connect(server) as connection:
        began = time.monotonic()
        assert closed_within(connection, 3) and time.monotonic() - began < 1.5


def test_a_slow_request_within_its_deadline_is_answered(tables_4x4):
    with running(Explorer(tables_4x4), Limits(request_seconds=2)) as server, connect(server) as connection:
        for part in (b"GET /api/games HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n", b"Connection: close\r\n", b"\r\n"):
            connection.sendall(part)
            time.sleep(0.1)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
        assert answer.split()[1] == b"200"


def test_the_header_lines_are_bounded_in_all(tables_4x4):
    """Header lines of 2,000 bytes each, every one under the bound of a line: over 64 KiB in all is a 400."""
    def headers(count: int) -> bytes:
        return b"".join(b"X-%d: %s\r\n" % (number, b"h" * 2000) for number in range(count))

    with running(Explorer(tables_4x4)) as server:
        answer = raw(server.url, b"GET /api/games HTTP/1.1\r\nConnection: close\r\n" + headers(40) + b"\r\n")
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.split()[1] == b"400" and f"{MAX_HEADER_BYTES:,}" in json.loads(body)["error"]
        answer = raw(server.url, b"GET /api/games HTTP/1.1\r\nConnection: close\r\n" + headers(30) + b"\r\n")
        assert answer.split()[1] == b"200"


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc/self/fd")
def test_out_of_file_descriptors_the_accept_loop_pauses(tables_4x4):
    """With no file descriptor left, a waiting connection cannot be accepted: the loop pauses instead of
    spinning (it would take a core), and answers the connection once descriptors are free again."""
    with running(Explorer(tables_4x4)) as server:
        client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        fillers = []
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(int(name) for name in os.listdir("/proc/self/fd")) + 1,
                                                        hard))
            while True:
                try:
                    fillers.append(os.open(os.devnull, os.O_RDONLY))
                except OSError:
                    break
            client.connect(("127.0.0.1", server.server_address[1]))
            used = time.process_time()
            time.sleep(1)
            used = time.process_time() - used
        finally:
            for descriptor in fillers:
                os.close(descriptor)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        with client:
            client.settimeout(5)
            client.sendall(b"GET /api/games HTTP/1.1\r\nConnection: close\r\n\r\n")
            assert client.recv(100).split()[1] == b"200"
        assert used < 0.15, f"{used:.2f} s of processor in 1 s"


# -- game trees ------------------------------------------------------------------------------------------

def tree_counts(answer: dict) -> tuple[int, int, int]:
    """The moves judged, the positions answered and the depth of the variations of an /api/game answer."""
    judged, positions, depth = len(answer["annotation"]["moves"]), len(answer["positions"]), 0
    level = answer["variations"]
    while level:
        depth += 1
        judged += sum(len(each["moves"]) for each in level)
        positions += sum(len(each["positions"]) for each in level)
        level = [nested for each in level for nested in each["variations"]]
    return judged, positions, depth


def playing_on(plies: int) -> list[str]:
    """``plies`` moves on 4 x 4 from the start that do not end the game, each the first that does not."""
    position, seen, names = Position.start(GAME_4X4), Counter([Position.start(GAME_4X4)]), []
    for _ in range(plies):
        move = next(move for move in position.moves() if ending(after := position.play(move), seen[after] + 1) is None)
        position = after
        seen[position] += 1
        names.append(move.name(GAME_4X4.board))
    return names


def test_a_game_tree_is_answered_in_linear_room(tables_4x4):
    """/api/game judges each move of a variation once, as its own: not the whole line from the start again."""
    main = playing_on(40)
    alternatives = [next(move.name(GAME_4X4.board) for move in position.moves() if move.name(GAME_4X4.board) != name)
                    for position, name in zip(positions_of(main), main)]
    text = " ".join(f"{name} ({alternative})" if ply > 20 else name
                    for ply, (name, alternative) in enumerate(zip(main, alternatives), 1))
    with running(Explorer(tables_4x4)) as server:
        status, _, body = request(server.url, "/api/game", "POST", f'[Board "4x4"]\n{text}\n'.encode())
    assert status == 200
    assert tree_counts(json.loads(body)) == (40 + 20, 41 + 20, 1)


def positions_of(names: list[str]) -> list[Position]:
    """The position before each of the moves ``names`` on 4 x 4 from the start."""
    positions = [Position.start(GAME_4X4)]
    for name in names:
        positions.append(positions[-1].play(positions[-1].parse_move(name)))
    return positions[:-1]


def test_game_trees_too_large_or_too_deep_are_refused_with_413(tables_4x4):
    """Variations nested deeper than the bound (as deep as Python recurses, and more) and more moves than
    the bound in all are refused for every endpoint that reads a tree, both ways; as deep as the bound is
    answered, each level nested in the answer."""
    first = playing_on(1)[0]
    deep, allowed = (f"{first} " + f"({first} " * depth + ")" * depth for depth in (500, MAX_NESTING))
    wide = f"{first}\n" + "\n".join([f"({first}) " * 100] * (MAX_TREE_PLIES // 100))  # one move too many
    with running(Explorer(tables_4x4)) as server:
        for text, words in ((deep, f"nest more than {MAX_NESTING} deep"), (wide, f"more than {MAX_TREE_PLIES:,} moves")):
            for endpoint in ("/api/game", "/api/annotate"):
                status, _, body = request(server.url, endpoint, "POST", f'[Board "4x4"]\n{text}\n'.encode())
                assert status == 413 and words in json.loads(body)["error"], (endpoint, body[:200])
        for endpoint in ("/api/game", "/api/record"):
            status, answer = get_json(server.url, f"{endpoint}?board=4x4&moves={quote(deep)}")
            assert status == 413 and f"nest more than {MAX_NESTING} deep" in answer["error"], endpoint
        status, answer = get_json(server.url, f"/api/game?board=4x4&moves={quote(allowed)}")
        assert status == 200 and tree_counts(answer) == (1 + MAX_NESTING, 2 + MAX_NESTING, MAX_NESTING)


def test_a_posted_record_may_start_with_a_byte_order_mark(tables_4x4):
    """As ``neutreeko annotate`` reads the file: one byte order mark skipped; bytes not UTF-8 a 400."""
    record = f'[Board "4x4"]\n{" ".join(playing_on(3))}\n'.encode()
    with running(Explorer(tables_4x4)) as server:
        for endpoint in ("/api/game", "/api/annotate"):
            status, _, plain = request(server.url, endpoint, "POST", record)
            assert status == 200 and request(server.url, endpoint, "POST", b"\xef\xbb\xbf" + record)[::2] == (200, plain)
        status, _, body = request(server.url, "/api/game", "POST", b"\xef\xbb\xbf\xff" + record)
        assert status == 400 and "cannot read the body: it is not UTF-8" in json.loads(body)["error"]


# -- the Host header --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def host_server(tables_4x4) -> Iterator[ExplorerServer]:
    with running(Explorer(tables_4x4)) as server:
        yield server


@pytest.mark.parametrize("host, allowed", [
    ("127.0.0.1:{port}", True), ("127.0.0.1", True), ("localhost:{port}", True), ("LocalHost", True),
    ("[::1]:{port}", True), ("[::1]", True),
    ("evil.example", False), ("evil.example:{port}", False), ("127.0.0.1.nip.io:{port}", False),
    ("localhost.evil.example:{port}", False), ("localhost:1", False), ("127.0.0.1:{port}0", False),
    ("10.0.0.1:{port}", False), ("", False), ("[::1]x", False), ("::1", False),
])
def test_only_this_server_s_names_are_answered(host_server, host, allowed):
    """DNS rebinding: a page of evil.example whose name now resolves to 127.0.0.1 sends its own name."""
    port = host_server.server_address[1]
    status, response, body = request(host_server.url, "/api/games", headers={"Host": host.format(port=port)})
    if allowed:
        assert status == 200
    else:
        assert status == 421 and len(body) < 300 and "does not answer for the host" in json.loads(body)["error"]
        assert response.getheader("Connection") == "close"


def test_a_request_without_host_is_answered_and_two_hosts_are_refused(host_server):
    assert raw(host_server.url, b"GET /api/games HTTP/1.0\r\n\r\n").split()[1] == b"200"
    answer = raw(host_server.url, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split()[1] == b"400" and "Host is given more than once" in json.loads(body)["error"]


def test_on_every_address_any_address_is_a_name_of_the_server(tables_4x4):
    """Listening on 0.0.0.0, the machine's addresses cannot all be known: any address is allowed (a
    rebinding page sends a name, never an address), names other than the server's are not."""
    try:
        server = ExplorerServer("0.0.0.0", 0, Explorer(tables_4x4))
    except OSError as error:
        pytest.skip(f"cannot listen on 0.0.0.0: {error}")
    with server:  # never serving: only its names are asked about
        port = server.server_address[1]
        for host in ("192.0.2.7", f"192.0.2.7:{port}", "[2001:db8::1]", "0.0.0.0", "localhost"):
            assert server.allows_host(host), host
        for host in ("evil.example", f"evil.example:{port}", "192.0.2.7:1"):
            assert not server.allows_host(host), host


@pytest.mark.parametrize("target, status", [
    ("http://127.0.0.1:{port}/api/games", 200), ("HTTP://LOCALHOST/api/games?", 200), ("http://[::1]:{port}", 200),
    ("http://evil.example:{port}/api/games", 421), ("http://evil.example/api/games", 421),
    ("http://127.0.0.1:{port}@evil.example:{port}/api/games", 421), ("http:///api/games", 421),
    ("ftp://127.0.0.1:{port}/api/games", 400), ("127.0.0.1:{port}/api/games", 400),
])
def test_an_absolute_target_names_the_host_in_place_of_host(host_server, target, status):
    """RFC 9112: the host of a target written as a URL replaces the ``Host`` header, which is then
    ours and proves nothing; the target's path is what is answered."""
    port = host_server.server_address[1]
    target = target.format(port=port)
    answer = raw(host_server.url, f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                                  f"Connection: close\r\n\r\n".encode())
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split()[1] == str(status).encode(), answer[:300]
    if status == 421:
        assert "does not answer for the host" in json.loads(body)["error"]
    elif status == 400:
        assert "neither /path nor http://host/path" in json.loads(body)["error"]
    elif target.endswith("games") or target.endswith("?"):
        assert json.loads(body) == get_json(host_server.url, "/api/games")[1]


# -- builds ------------------------------------------------------------------------------------------------

def fake_build(tmp_path: Path, seconds: float, said: str) -> tuple[list[str], Path]:
    """A child that counts its runs in a file, sleeps ``seconds``, says ``said`` and fails: (command, count file)."""
    runs = tmp_path / "runs"
    code = f"import sys, time; open({str(runs)!r}, 'a').write('run\\n'); time.sleep({seconds}); print({said!r}); " \
           f"sys.exit(1)"
    return [sys.executable, "-c", code], runs


def test_a_ready_table_does_not_wait_for_a_build_and_builds_go_one_at_a_time(tmp_path, tables_4x4, monkeypatch):
    """While the 5 x 5 centre table builds (a child taking 2 s): the ready 4 x 4 table is answered at
    once; another missing table, and the one building, get BusyError after the wait (0.5 s here); the
    failed build is then remembered: asking again gets the same error without another run."""
    command, runs = fake_build(tmp_path, 2, "no table written")
    monkeypatch.setattr(neutreeko_api, "_build_command", lambda game, out: command)
    explorer = Explorer(copy_4x4(tables_4x4, tmp_path / "tables").parent, limits=BuildLimits(wait_seconds=0.5))
    outcome: list[BaseException] = []

    def build() -> None:
        try:
            explorer.answer("/api/position", {"board": "5x5", "rule": "centre"})
        except BaseException as error:
            outcome.append(error)

    building = threading.Thread(target=build)
    building.start()
    try:
        time.sleep(0.5)
        began = time.monotonic()
        assert explorer.answer("/api/position", {"board": "4x4"})["board"] == "4x4"
        assert time.monotonic() - began < 0.3
        with pytest.raises(BusyError, match="building the 5x5 centre table, one at a time"):
            explorer.answer("/api/position", {"board": "3x3"})
        with pytest.raises(BusyError, match="5x5 centre table is being built"):
            explorer.answer("/api/position", {"board": "5x5", "rule": "centre"})
    finally:
        building.join(10)
    assert len(outcome) == 1 and isinstance(outcome[0], BuildError), outcome
    message = str(outcome[0])
    assert message.startswith("cannot build the 5x5 centre table at ") and "no table written" in message
    assert "\n" not in message and "not tried again for 60 s" in message
    began = time.monotonic()
    with pytest.raises(BuildError) as again:
        explorer.answer("/api/position", {"board": "5x5", "rule": "centre"})
    assert str(again.value) == message and time.monotonic() - began < 0.2
    assert runs.read_text() == "run\n"
    assert leftovers(tmp_path / "tables") == []


def test_a_failed_build_is_tried_again_after_a_while(tmp_path, monkeypatch):
    command, runs = fake_build(tmp_path, 0, "no table written")
    monkeypatch.setattr(neutreeko_api, "_build_command", lambda game, out: command)
    explorer = Explorer(tmp_path / "tables", limits=BuildLimits(failure_seconds=0.5))
    for _ in range(2):
        with pytest.raises(BuildError, match="not tried again for 0.5 s"):
            explorer.answer("/api/position", {"board": "3x3"})
    time.sleep(0.6)
    with pytest.raises(BuildError):
        explorer.answer("/api/position", {"board": "3x3"})
    assert runs.read_text() == "run\n" * 2


def test_a_build_whose_process_dies_says_so(tmp_path, monkeypatch):
    killed = [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"]
    monkeypatch.setattr(neutreeko_api, "_build_command", lambda game, out: killed)
    with pytest.raises(BuildError, match=r"3x3 connected table .*: its process ended on a signal \(Killed\)"):
        Explorer(tmp_path / "tables").answer("/api/position", {"board": "3x3"})
    assert leftovers(tmp_path / "tables") == []


FULL_DISK = ("import resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
             "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096)); sys.argv[0] = 'neutreeko'; "
             "from solver.__main__ import main; main()")


def test_a_build_that_cannot_write_is_one_clean_line_remembered(tmp_path):
    """The server's files limited to 4 kB (as a full disk): the HDF5 library's error, which names the
    temporary file and buffer addresses, becomes the system's words; the next request gets the same
    line at once, without a second build. (Under the limit numba cannot write its cache: the kernels are
    compiled first, here, so that the build reads them instead of compiling them in every run.)"""
    directory = tmp_path / "tables"
    solve(GAME_4X4)  # compiled here, into numba's cache: the limited build then reads its kernels, not compiles them
    process = subprocess.Popen([sys.executable, "-c", FULL_DISK, "serve", "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "NEUTREEKO_TABLES": str(directory)})
    try:
        url = process.stdout.readline().split()[3]
        answers = [get_json(url, "/api/position?board=4x4", timeout=120) for _ in range(2)]
    finally:
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=60)
    (status, answer), again = answers
    assert status == 500 and list(answer) == ["error"] and again == answers[0]
    message = answer["error"]
    assert message == f"cannot build the 4x4 connected table at {directory / table_path(GAME_4X4).name}: " \
                      f"File too large (not tried again for 60 s)"
    assert errors.count("building the 4x4 connected table") == 1 and "Traceback" not in errors, errors
    assert leftovers(directory) == []


# -- tables changed on disk -------------------------------------------------------------------------------

def test_a_table_replaced_damaged_or_deleted_on_disk_is_noticed(tmp_path, tables_4x4):
    """A table replaced by a damaged copy is refused at the next request, the good one served again
    once it is back; a deleted one is built again on demand, as ``/api/games`` says."""
    path = copy_4x4(tables_4x4, tmp_path / "tables")
    messages: list[str] = []
    explorer = Explorer(path.parent, announce=messages.append)
    answer = explorer.answer("/api/position", {"board": "4x4"})
    damaged = tmp_path / "damaged.h5"
    shutil.copy(path, damaged)
    flip_byte(damaged, 100)  # in the header
    os.replace(damaged, path)
    with pytest.raises(TableError, match="is damaged"):
        explorer.answer("/api/position", {"board": "4x4"})
    shutil.copy(tables_4x4 / path.name, tmp_path / "good.h5")
    os.replace(tmp_path / "good.h5", path)
    assert explorer.answer("/api/position", {"board": "4x4"}) == answer
    path.unlink()
    assert {game["board"]: game["table"] for game in explorer.games()["games"] if game["game"] == "neutreeko"}["4x4"] \
        == "on demand"
    assert explorer.answer("/api/position", {"board": "4x4"}) == answer
    assert path.is_file() and any("building the 4x4 connected table" in message for message in messages)


def test_a_damaged_table_is_a_500_and_the_others_are_served(tmp_path, tables_4x4):
    """A byte flipped in the middle of the 4 x 4 table (in its one chunk): that table's requests get a
    500 with one line naming it, again and again; the 3 x 3 table, the page and the API stay served."""
    path = copy_4x4(tables_4x4, tmp_path / "tables")
    flip_byte(path, path.stat().st_size // 2)
    game = Game.of("3x3")
    solved = solve(game)
    write_table(game, solved.result, path.parent / table_path(game).name, solved.seconds)
    with running(Explorer(path.parent)) as server:
        for _ in range(2):
            status, answer = get_json(server.url, "/api/position?board=4x4")
            assert status == 500 and list(answer) == ["error"]
            assert answer["error"].startswith(f"table {path} is damaged") and "\n" not in answer["error"]
            assert get_json(server.url, "/api/position?board=3x3")[0] == 200
            assert request(server.url, "/")[0] == 200
            assert get_json(server.url, "/api/games")[0] == 200


# -- stopping during a build ------------------------------------------------------------------------------

def processes_naming(text: str) -> list[str]:
    """The command lines of this machine's processes that hold ``text``."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            line = cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in line:
            found.append(line)
    return found


@pytest.mark.parametrize("delay", [0.1, 0.7, 1.3])
def test_ctrl_c_during_a_build_stops_at_once_and_leaves_nothing(tmp_path, delay):
    """``serve`` on an empty tables directory, the 5 x 5 position asked for (its table built on first use),
    SIGINT ``delay`` s after the build began (its child starting, solving, writing): "stopped", exit 0
    within 2 s, no temporary file or directory left, no child left running."""
    directory = tmp_path / "tables"
    process, url = serve(env={"NEUTREEKO_TABLES": str(directory)})

    def ask() -> None:
        try:
            request(url, "/api/position")
        except (OSError, http.client.HTTPException):
            pass

    asking = threading.Thread(target=ask, daemon=True)
    try:
        asking.start()
        said = process.stderr.readline()
        assert "building the 5x5 connected table" in said, said
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        began = time.monotonic()
        _, errors = process.communicate(timeout=10)
        took = time.monotonic() - began
    finally:
        process.kill()
    # the request may be answered (503, the server stopping) and logged after "stopped"
    assert process.returncode == 0 and "neutreeko serve: stopped" in errors.splitlines(), errors
    assert took < 2, f"{took:.1f} s to stop"
    assert "Traceback" not in errors
    assert leftovers(directory) == []
    if Path("/proc/self/cmdline").is_file():
        assert processes_naming(str(directory)) == []

"""The explorer's server, through HTTP on an ephemeral loopback port: its answers against the tablebase
and the command line's JSON, its errors (400 JSON naming the problem), what it refuses to serve, and
the ``serve`` command as a process (start, Ctrl-C, a warning off loopback, ``--open``)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from urllib.parse import quote, urlsplit

import pytest

from solver.core.errors import MissingTableError
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.tables.table import table_path
from solver.web.api import Explorer
from solver.web.assets import palette_css
from solver.web.game_api import MAX_POSITIONS
from solver.web.server import ExplorerServer
from solver.web.tables import BuildLimits
from tests.helpers import LONGEST, START, assert_one_line_error, invoke, random_positions


def request(url: str, path: str, method: str = "GET", body: bytes | None = None,
            headers: dict[str, str] | None = None, timeout: float = 10) -> tuple[int, http.client.HTTPResponse, bytes]:
    """(status, response, body) of one request to the server at ``url``, waiting ``timeout`` seconds."""
    address = urlsplit(url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=timeout)
    try:
        connection.request(method, path, body, headers or {})
        response = connection.getresponse()
        return response.status, response, response.read()
    finally:
        connection.close()


def get_json(url: str, path: str, timeout: float = 10) -> tuple[int, dict]:
    status, response, body = request(url, path, timeout=timeout)
    assert response.getheader("Content-Type") == "application/json"
    return status, json.loads(body)


def raw(url: str, data: bytes) -> bytes:
    """What the server answers to ``data`` sent as it is, up to its closing the connection."""
    address = urlsplit(url)
    with socket.create_connection((address.hostname, address.port), timeout=10) as connection:
        connection.sendall(data)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def position_path(fen: str, **extra: str) -> str:
    return "/api/position?" + "&".join(f"{name}={quote(value)}" for name, value in {"position": fen, **extra}.items())


# -- answers ------------------------------------------------------------------------------------------

def test_values_equal_the_tablebase(explorer_url, tablebase):
    """Every position's value, and every move's value, plies and position, as Tablebase gives them."""
    for position in [Position.parse(START), Position.parse(LONGEST), *random_positions(40, seed=5)]:
        status, answer = get_json(explorer_url, position_path(position.fen()))
        assert status == 200, answer
        evaluation = tablebase.probe(position)
        assert (answer["position"], answer["value"], answer["plies"]) == \
            (position.fen(), evaluation.value, evaluation.plies)
        assert [(move["move"], move["value"], move["plies"], move["position"]) for move in answer["moves"]] == \
            [(move.name, move.value, move.plies, move.position.fen()) for move in tablebase.moves(position)]


def test_position_and_line_answer_as_the_command_line_does(explorer_url, tables_env):
    """The same objects as ``query --json`` and ``line --json``, moves played first in both."""
    for fen, moves in ((START, ""), (LONGEST, "A1-A4"), ("start", "C4-C3 D5-D2")):
        for endpoint, command in (("position", "query"), ("line", "line")):
            status, answer = get_json(explorer_url, f"/api/{endpoint}?position={quote(fen)}&moves={quote(moves)}")
            assert status == 200, answer
            assert answer == json.loads(invoke(command, fen, "--moves", moves, "--json").stdout)


RECORD = '[Board "5x5"]\n[Rule "connected"]\n[Black "me"]\n\n1. C4-C3 D5-D2 2. B1-B4\n'


def test_annotate_answers_as_the_command_line_does(explorer_url, tables_env):
    """GET with moves, and POST of a game record: the ``annotate --json`` object, marks and all."""
    expected = json.loads(invoke("annotate", "-", "--json", input=RECORD).stdout)
    assert [move["mark"] for move in expected["moves"]] == ["mistake", "best", "best"]
    status, answer = get_json(explorer_url, "/api/annotate?moves=" + quote("1. C4-C3 D5-D2 2. B1-B4"))
    assert (status, answer) == (200, expected)
    status, response, body = request(explorer_url, "/api/annotate", "POST", RECORD.encode(),
                                     {"Content-Type": "text/plain"})
    assert (status, json.loads(body)) == (200, expected)


@pytest.mark.parametrize("path, body, words", [
    ("/api/annotate", b"1. C4-C3 C4-C2", ["line 1", "C4-C2"]),
    ("/api/annotate", b'[Board "12x12"]\n', ["line 1", "12x12"]),
    ("/api/annotate", b"\xff\xfe", ["UTF-8"]),
    ("/api/annotate", b"x" * 70_000, ["70,000 bytes", "65,536"]),
    ("/api/annotate?moves=C4-C3", b"", ["in the body"]),
])
def test_a_bad_record_is_a_400_naming_the_problem(explorer_url, path, body, words):
    status, _, answer = request(explorer_url, path, "POST", body)
    assert status == 400
    for word in words:
        assert word in json.loads(answer)["error"], (word, answer)


def test_a_chunked_body_is_refused(explorer_url):
    answer = raw(explorer_url, b"POST /api/annotate HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                               b"5\r\nC4-C3\r\n0\r\n\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split()[1] == b"400" and "Content-Length" in json.loads(body)["error"]


def test_moves_may_be_numbered_or_separated_by_commas_or_plus_signs(explorer_url):
    status, answer = get_json(explorer_url, "/api/position?position=start&moves=c4-c3,D5-D2")
    assert (status, answer["value"], answer["plies"]) == (200, "loss", 2)
    assert get_json(explorer_url, "/api/position?moves=C4-C3+D5-D2")[1] == answer  # position: start by default
    assert get_json(explorer_url, "/api/position?moves=" + quote("1. C4-C3 D5-D2"))[1] == answer


def test_line_stops_at_max_plies(explorer_url):
    status, answer = get_json(explorer_url, f"/api/line?position={quote(LONGEST)}&max_plies=3")
    assert (status, len(answer["moves"]), answer["result"]) == (200, 3, "stopped")
    status, answer = get_json(explorer_url, f"/api/line?position={quote(LONGEST)}")
    assert (status, len(answer["moves"]), answer["result"]) == (200, 51, "black wins")


def test_games_lists_every_board_and_rule_with_its_table(explorer_url):
    status, answer = get_json(explorer_url, "/api/games")
    assert status == 200
    tables = {(game["board"], game["rule"]): game["table"] for game in answer["games"] if game["game"] == "neutreeko"}
    assert tables[("5x5", "connected")] == "ready"
    assert tables[("5x5", "centre")] == "on demand"   # no file in the fixture's directory: built on first use
    assert tables[("4x6", "connected")] == tables[("3x3", "connected")] == "on demand"  # up to 25 squares
    assert tables[("6x6", "connected")] == tables[("5x6", "connected")] == "missing"
    assert ("3x3", "diagonal") not in tables          # not offered on 3 x 3
    assert answer["default"] == {"board": "5x5", "rule": "connected"}


def test_game_answers_every_position_and_the_annotation_at_once(explorer_url):
    """/api/game: the /api/position object of the start and of each position after it, and the
    /api/annotate object of the moves, in one answer."""
    moves = ["C4-C3", "D5-D2", "B1-C1"]
    status, answer = get_json(explorer_url, f"/api/game?moves={quote(' '.join(moves))}")
    assert status == 200 and answer["start"] == "start" and answer["refused"] is None
    assert answer["annotation"] == get_json(explorer_url, f"/api/annotate?moves={quote(' '.join(moves))}")[1]
    assert answer["positions"] == [get_json(explorer_url, position_path("start", moves=" ".join(moves[:ply])))[1]
                                   for ply in range(len(moves) + 1)]
    status, answer = get_json(explorer_url, "/api/game?" + f"position={quote(LONGEST)}")
    assert status == 200 and answer["start"] == LONGEST and len(answer["positions"]) == 1


def test_game_plays_the_moves_up_to_the_first_refused(explorer_url):
    """The moves before a bad one, or before one played after the game's end, are answered; the bad one
    is named."""
    status, answer = get_json(explorer_url, "/api/game?moves=B1-C1+B5-A5+C4-C9+D1-D2")
    assert status == 200 and len(answer["positions"]) == 3
    assert [judged["move"] for judged in answer["annotation"]["moves"]] == ["B1-C1", "B5-A5"]
    assert answer["refused"].startswith("ply 3, C4-C9, cannot be played: ") and "C9" in answer["refused"][30:]
    won = ["C4-C3", *[step["move"] for step in get_json(explorer_url, "/api/line?moves=C4-C3")[1]["moves"]]]
    status, answer = get_json(explorer_url, f"/api/game?moves={quote(' '.join([*won, 'A1-A2']))}")
    assert len(answer["positions"]) == len(won) + 1 and answer["annotation"]["result"] == "white wins"
    assert answer["refused"] == f"ply {len(won) + 1}, A1-A2, cannot be played: the game is over (white wins)"
    assert get_json(explorer_url, "/api/game?board=12x12")[0] == 400


TREE = "C4-C3 (B1-C1 B5-A5 (C2-C3) C1-A3) (D1-C1) D5-D2 D1-E1"


def test_game_answers_the_variations_as_their_own_lines(explorer_url):
    """/api/game with variations: the main line as without them; each variation its ply, the positions
    after its moves and each of them judged as the annotation of its whole line judges it, its own
    variations nested."""
    status, answer = get_json(explorer_url, f"/api/game?moves={quote(TREE)}")
    assert status == 200 and answer["refused"] is None
    main = get_json(explorer_url, "/api/game?moves=C4-C3+D5-D2+D1-E1")[1]
    assert {key: answer[key] for key in main if key != "variations"} == {key: main[key] for key in main if key != "variations"}
    first, second = answer["variations"]
    assert first["ply"] == 1 and first["moves"] == get_json(explorer_url, "/api/annotate?moves=B1-C1+B5-A5+C1-A3")[1]["moves"]
    assert [node["position"] for node in first["positions"]] == \
        [get_json(explorer_url, position_path("start", moves=" ".join(["B1-C1", "B5-A5", "C1-A3"][:ply])))[1]["position"]
         for ply in (1, 2, 3)]
    nested, = first["variations"]
    assert nested["ply"] == 2 and nested["moves"] == get_json(explorer_url, "/api/annotate?moves=B1-C1+C2-C3")[1]["moves"][1:]
    assert (second["ply"], len(second["positions"]), second["variations"]) == (1, 1, [])
    status, answer = get_json(explorer_url, f"/api/game?moves={quote('C4-C3 (B1-C1 B1-B2) D5-D2')}")
    assert status == 200 and answer["refused"].startswith("ply 2, B1-B2, cannot be played: ")
    assert len(answer["positions"]) == 2 and [len(each["positions"]) for each in answer["variations"]] == [1]


def test_a_record_posted_to_game_and_a_record_written(explorer_url):
    """POST /api/game reads a record's variations; /api/record writes the record of a tree, which POSTed
    back answers the same game."""
    status, written = get_json(explorer_url, f"/api/record?moves={quote(TREE)}")
    assert status == 200
    assert written["record"] == ('[Board "5x5"]\n[Rule "connected"]\n[Result "*"]\n\n'
                                 "1. C4-C3 (1. B1-C1 B5-A5 (1... C2-C3) 2. C1-A3) (1. D1-C1) 1... D5-D2 2. D1-E1\n")
    status, _, body = request(explorer_url, "/api/game", "POST", written["record"].encode())
    assert status == 200 and json.loads(body) == get_json(explorer_url, f"/api/game?moves={quote(TREE)}")[1]
    status, answer = get_json(explorer_url, f"/api/record?moves={quote('C4-C3 (B1-C1 B1-B2)')}")
    assert status == 400 and "B1-B2" in answer["error"] and "not legal" in answer["error"]
    status, _, body = request(explorer_url, "/api/game", "POST", b"1. C4-C3 (1. B1-C1\n")
    assert status == 400 and "line 1: a variation is not closed" in json.loads(body)["error"]


def test_many_positions_posted_are_answered_one_by_one_as_query_dash_does(explorer_url, tables_env):
    """POST /api/positions: one answer a line, in order, as ``query -`` prints them, a bad line an error
    object among the others; more than MAX_POSITIONS lines 413, no line 400, GET 405."""
    lines = ["start", "1w1w1/5/2b2/2w2/1b1b1 w", "", "5/5/5/5/5 q", "1w1w1/2b2/5/2w2/1b1b1 b"]
    text = "\r\n".join(lines) + "\n"
    status, _, body = request(explorer_url, "/api/positions", "POST", text.encode())
    assert status == 200, body
    answer = json.loads(body)
    printed = invoke("query", "-", input=text)
    assert answer["answers"] == [json.loads(line) for line in printed.stdout.splitlines()]
    assert answer["errors"] == 2 and answer["answers"][2] == {"line": 3, "input": "", "error": "empty line"}
    assert answer["answers"][1]["value"] == "win" and "moves" not in answer["answers"][1]
    status, _, body = request(explorer_url, "/api/positions?rule=bent", "POST", b"start\n")
    assert status == 400 and "unknown rule 'bent'" in json.loads(body)["error"]
    for body_text, expected, words in [
        (b"start\n" * (MAX_POSITIONS + 1), 413, [f"at most {MAX_POSITIONS:,} positions"]),
        (b"", 400, ["no position"]),
    ]:
        status, _, body = request(explorer_url, "/api/positions", "POST", body_text)
        assert status == expected and all(word in json.loads(body)["error"] for word in words), body
    status, _, body = request(explorer_url, "/api/positions?moves=C4-C3", "POST", b"start\n")
    assert status == 400 and "only game, board, rule in the URL" in json.loads(body)["error"]
    status, response, body = request(explorer_url, "/api/positions")
    assert status == 405 and response.getheader("Allow") == "POST" and "use POST" in json.loads(body)["error"]


def test_games_is_kept_until_a_table_is_added_or_removed(tmp_path):
    explorer = Explorer(tmp_path)

    def table_of_4x4() -> str:
        return {(game["board"], game["rule"]): game["table"] for game in explorer.games()["games"]
                if game["game"] == "neutreeko"}[("4x4", "connected")]

    assert table_of_4x4() == "on demand" and explorer.games() is explorer.games()
    (tmp_path / table_path(Game.of("4x4")).name).write_bytes(b"")
    assert table_of_4x4() == "ready"
    (tmp_path / table_path(Game.of("4x4")).name).unlink()
    assert table_of_4x4() == "on demand"


def test_page_and_its_files(explorer_url):
    status, response, body = request(explorer_url, "/")
    assert status == 200 and response.getheader("Content-Type").startswith("text/html")
    page = body.decode()
    for part in ('src="/explorer.js"', 'href="/explorer.css"', 'href="/palette.css"'):
        assert part in page
    assert "http" not in page.replace("http-equiv", "")  # nothing fetched from elsewhere: works offline
    assert "script-src 'self'" in response.getheader("Content-Security-Policy")
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    for path, media_type in (("/explorer.js", "text/javascript"), ("/explorer.css", "text/css"),
                             ("/favicon.svg", "image/svg+xml")):
        status, response, body = request(explorer_url, path)
        assert status == 200 and response.getheader("Content-Type").startswith(media_type) and body
    status, _, body = request(explorer_url, "/palette.css")
    assert status == 200 and body.decode() == palette_css() and "--win: #0072b2;" in body.decode()
    status, response, body = request(explorer_url, "/", method="HEAD")
    assert status == 200 and body == b"" and int(response.getheader("Content-Length")) == len(page.encode())


def test_one_connection_serves_many_requests(explorer_url):
    """HTTP/1.1 keep-alive, an error on the way included."""
    address = urlsplit(explorer_url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
    try:
        for path, expected in (("/api/position", 200), ("/api/position?position=x", 400), ("/", 200),
                               ("/api/games", 200)):
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            assert response.status == expected
    finally:
        connection.close()


# -- errors ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("path, words", [
    ("/api/position?position=xx", ["position 'xx'"]),
    ("/api/position?position=" + quote("1w1w1/2b2/5/2w2/1b1b1 x"), ["side to move"]),
    ("/api/position?position=" + quote("bbb2/5/5/5/ww1w1 b"), ["not a legal position"]),
    ("/api/position?moves=C4-C9", ["C9"]),
    ("/api/position?moves=C4-C2", ["C4-C2", "not legal"]),
    ("/api/position?moves=B1", ["FROM-TO"]),
    ("/api/position?board=12x12", ["12x12"]),
    ("/api/position?board=five", ["five"]),
    ("/api/position?rule=../../etc/passwd", ["unknown rule"]),
    ("/api/position?board=3x3&rule=diagonal", ["diagonal", "3x3"]),
    ("/api/position?position=" + quote(START) + "&board=4x4", ["4x4"]),
    ("/api/position?board=6x6", ["no table for 6x6", "neutreeko solve"]),
    ("/api/position?color=black", ["unknown parameter 'color'"]),
    ("/api/position?position=start&position=start", ["given twice"]),
    ("/api/position?position=%ff", ["UTF-8"]),
    ("/api/position?" + "&".join(f"p{number}=1" for number in range(20)), ["more than 16 parameters"]),
    ("/api/line?max_plies=-1", ["max_plies"]),
    ("/api/line?max_plies=1001", ["max_plies"]),
    ("/api/line?max_plies=%D9%A3", ["max_plies"]),  # an Arabic-Indic digit
    ("/api/games?board=5x5", ["unknown parameter 'board'"]),
    ("/api/position?moves=" + "C4-C3+" * 1500, ["URL", "8,192"]),
])
def test_a_bad_request_is_a_400_naming_the_problem(explorer_url, path, words):
    status, answer = get_json(explorer_url, path)
    assert status == 400, answer
    assert list(answer) == ["error"]
    for word in words:
        assert word in answer["error"], (word, answer)


@pytest.mark.parametrize("path", [
    "/api/annotations", "/api", "/index.html/..", "/../pyproject.toml", "/%2e%2e/%2e%2e/etc/passwd",
    "/static/explorer.js", "/explorer.js/../../solver/web/api.py", "//etc/passwd", "/solver/web/api.py",
    "/explorer.js%00", "/favicon.ico",
])
def test_only_the_page_s_own_files_are_served(explorer_url, path):
    status, answer = get_json(explorer_url, path)
    assert status == 404 and list(answer) == ["error"]


@pytest.mark.parametrize("method, path", [("POST", "/api/position"), ("POST", "/"), ("PUT", "/api/annotate"),
                                          ("DELETE", "/api/position"), ("BREW", "/")])
def test_other_methods_are_refused(explorer_url, method, path):
    status, response, body = request(explorer_url, path, method, b"{}")
    assert status == 405 and "error" in json.loads(body)
    assert response.getheader("Content-Type") == "application/json"


@pytest.mark.parametrize("data", [
    b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n",                        # a request line over 64 KiB
    b"GET / HTTP/1.1\r\nX-Big: " + b"b" * 70_000 + b"\r\n\r\n",              # a header line over 64 KiB
    b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % n for n in range(120)) + b"\r\n",  # too many headers
    b"HELLO\r\n\r\n",                                                         # not HTTP
    b"GET /\r\n\r\n",                                                          # HTTP/0.9
    b"GET / HTTP/9.9\r\n\r\n",                                                # an unknown version
])
def test_a_malformed_or_oversized_request_is_a_400(explorer_url, data):
    answer = raw(explorer_url, data)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split()[1] in (b"400", b"505"), head
    assert b"Content-Type: application/json" in head and "error" in json.loads(body)
    assert b"Traceback" not in answer


@pytest.mark.parametrize("headers, words", [
    (b"Content-Length: 0\r\nContent-Length: 46\r\n", ["Content-Length", "more than once"]),
    (b"Content-Length: 46\r\nContent-Length: 46\r\n", ["Content-Length", "more than once"]),
    (b"X-Note: a\r\n folded\r\n", ["folded"]),
    (b"X-Note: a\r\n\tfolded\r\n", ["folded"]),
    (b"X-Note: a\n folded\n", ["folded"]),
    (b" X-Note: a\r\n", ["Name: value"]),                          # a continuation before any header
    (b"X-Note\r\nContent-Length: 46\r\n", ["Name: value"]),       # hides the headers after it
])
def test_ambiguous_framing_is_a_400_and_nothing_after_it_is_answered(explorer_url, headers, words):
    """Request smuggling (RFC 9112): headers that a proxy could read otherwise than the server, and so
    frame another request into the body, are refused; the connection is closed unread."""
    smuggled = b"GET /api/games HTTP/1.1\r\nConnection: close\r\n\r\n"
    assert len(smuggled) == 46
    answer = raw(explorer_url, b"GET /api/games HTTP/1.1\r\n" + headers + b"\r\n" + smuggled)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert answer.count(b"HTTP/1.") == 1 and head.split()[1] == b"400", answer[:300]
    assert b"Connection: close" in head
    for word in words:
        assert word in json.loads(body)["error"], (word, body)


@pytest.mark.parametrize("length", ["0" * 4_400 + "46", "0" * 17 + "46", "+46", "-46", "46 46", "0x2e", "4\u00b2",
                                    "\u00b2", ""])
def test_a_content_length_that_is_not_a_plain_number_is_a_400_and_closes(explorer_url, length):
    """Request smuggling through Content-Length: a value another reader could take otherwise (leading
    zeros past what a number needs, a sign, digits other than ASCII) would frame the request after it
    into the body, or the body into a request."""
    smuggled = b"GET /api/games HTTP/1.1\r\nConnection: close\r\n\r\n"
    answer = raw(explorer_url, b"POST /api/annotate HTTP/1.1\r\nContent-Length: " + length.encode("latin-1")
                 + b"\r\n\r\n" + smuggled)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert answer.count(b"HTTP/1.") == 1 and head.split()[1] == b"400", answer[:300]
    assert b"Connection: close" in head
    error = json.loads(body)["error"]
    assert "the Content-Length" in error and "is not a number of 1 to 18 ASCII digits" in error and len(error) < 150


def test_a_content_length_of_18_digits_with_spaces_around_is_read(explorer_url):
    record = b"1. C4-C3"
    answer = raw(explorer_url, b"POST /api/annotate HTTP/1.1\r\nConnection: close\r\nContent-Length: \t"
                 + b"%018d " % len(record) + b"\r\n\r\n" + record)
    assert answer.count(b"HTTP/1.") == 1 and answer.split()[1] == b"200", answer[:300]


@pytest.mark.parametrize("host, loopback", [("127.0.0.1", True), ("::ffff:127.0.0.1", True), ("0.0.0.0", False)])
def test_on_loopback(tmp_path, host, loopback):
    """An IPv4 loopback address mapped into IPv6 is loopback (``serve`` warns when not on loopback)."""
    try:
        server = ExplorerServer(host, 0, Explorer(tmp_path))
    except OSError as error:
        pytest.skip(f"cannot listen on {host}: {error}")
    with server:
        assert server.on_loopback is loopback


def test_a_get_with_a_body_is_refused_and_the_connection_closed(explorer_url):
    status, response, body = request(explorer_url, "/api/games", "GET", b"GET /api/games HTTP/1.1\r\n\r\n")
    assert status == 400 and "no body" in json.loads(body)["error"]
    assert response.getheader("Connection") == "close"


def test_no_file_is_touched_before_the_board_and_rule_are_checked(tmp_path):
    """A bad board or rule is refused before the tables directory is looked at: it is never created."""
    directory = tmp_path / "tables"
    explorer = Explorer(directory)
    for parameters in ({"board": "12x12"}, {"rule": "../../x"}, {"board": "4x4", "rule": "centre"},
                       {"board": "5x5", "position": START, "moves": "C4-C9"}):
        with pytest.raises(Exception) as raised:
            explorer.answer("/api/position", parameters)
        assert "Table" not in type(raised.value).__name__
    assert not directory.exists()


# -- building on first use ------------------------------------------------------------------------------

def test_a_missing_5x5_table_is_built_once_on_first_use(tmp_path, solved_5x5):
    """Two first requests at once: one build, announced, then both answered from the new table; a
    missing table of a board larger than 5 x 5 is not built."""
    directory, messages, answers = tmp_path / "tables", [], []
    # A loaded machine may take longer than a request's usual wait for the build's child process.
    explorer = Explorer(directory, announce=messages.append, limits=BuildLimits(wait_seconds=120))
    threads = [threading.Thread(target=lambda: answers.append(explorer.answer("/api/position", {"rule": "centre"})))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    game = Game.of("5x5", "centre")
    assert (directory / table_path(game).name).is_file()
    assert len(messages) == 2 and "building the 5x5 centre table" in messages[0] and "built" in messages[1]
    assert len(answers) == 2 and answers[0] == answers[1] and answers[0]["position"] == Position.start(game).fen()
    with pytest.raises(MissingTableError, match="neutreeko solve --board 5x6") as refused:
        explorer.answer("/api/position", {"board": "5x6"})
    assert str(directory) not in str(refused.value)  # the page is not told where the server keeps its tables
    assert sorted(path.name for path in directory.iterdir()) == [table_path(game).name]


# -- the serve command ----------------------------------------------------------------------------------

def serve(*arguments: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """``neutreeko serve --port 0 ARGUMENTS`` started, and the address it printed."""
    process = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", "0", *arguments],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, **(env or {})})
    line = process.stdout.readline()
    assert line.startswith("Neutreeko explorer at http://"), (line, process.stderr.read() if not line else "")
    return process, line.split()[3]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_serve_answers_then_stops_cleanly(tables_env, stop):
    process, url = serve()
    try:
        status, answer = get_json(url, position_path(LONGEST))
        assert (status, answer["value"], answer["plies"]) == (200, "win", 51)
    finally:
        process.send_signal(stop)
        _, errors = process.communicate(timeout=10)
    assert process.returncode == 0, errors
    assert errors.splitlines()[-1] == "neutreeko serve: stopped"
    assert "Traceback" not in errors and '"GET /api/position?position=w4/5' in errors  # the request's log line
    assert "warning" not in errors


def test_serve_warns_when_not_on_loopback_and_opens_a_browser(tables_env, tmp_path):
    """``--host 0.0.0.0`` warns; ``--open`` runs the browser ($BROWSER here) on the address."""
    opened = tmp_path / "opened"
    browser = tmp_path / "browser"
    browser.write_text(f"#!/bin/sh\necho \"$1\" > {opened}\n")
    browser.chmod(0o755)
    process, url = serve("--host", "0.0.0.0", "--open", "--quiet", env={"BROWSER": str(browser)})
    try:
        port = urlsplit(url).port
        assert get_json(f"http://127.0.0.1:{port}/", "/api/games")[0] == 200
        for _ in range(100):
            if opened.exists() and opened.read_text():
                break
            threading.Event().wait(0.05)
        assert opened.read_text().strip() == url
    finally:
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=10)
    assert process.returncode == 0
    assert "warning: listening on 0.0.0.0, not on loopback" in errors
    assert "GET" not in errors  # --quiet


def test_serve_on_a_port_in_use_is_one_line(tables_env):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = invoke("serve", "--port", str(taken.getsockname()[1]))
    assert_one_line_error(result, "cannot listen on 127.0.0.1 port", code=1)
    assert_one_line_error(invoke("serve", "--port", "70000"), "70000", code=2)

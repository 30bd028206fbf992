"""The static explorer (``neutreeko site``) in headless Chromium, served by a static server with ``Range``
on loopback: the in-browser reader's answers equal the Python ones on thousands of random legal
positions of every board built here (a full table, folded ones of a square and an oblong board, and
NECNON's tables of square and hexhex boards, one of many chunks), and a chunk changed on the server
makes the page say the table is damaged and show no value."""

from __future__ import annotations

import json
import random
import re
import shutil
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

import pytest

from solver.necnon.model.position import Position as NecnonPosition
from solver.necnon.model.rules import Game as NecnonGame
from solver.necnon.tables.build import build_table as build_necnon_table
from solver.necnon.tables.table import table_path as necnon_table_path
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import random_positions
from solver.neutreeko.querying.probe import Tablebase
from solver.neutreeko.querying.report import query_object
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.tables.folding import Classes
from solver.neutreeko.tables.table import open_table, table_path, write_table
from solver.web.api import Explorer
from solver.web.static_host import RangeHandler, static_server
from tests.helpers import invoke
from tests.web import test_browser
from tests.web.test_browser import text_of, wait_until

browser = test_browser.browser  # the harness's fixture: a headless Chromium
#: The boards of the release and whether each table is folded.
BOARDS = {"4x4": False, "5x5": True, "3x5": True}
#: NECNON's boards of the release (those of the session's NECNON tables, and 4 x 4, of many chunks) and the
#: random positions compared on each.
NECNON_BOARDS = {("3x3", "nec"): 300, ("hex2", "nec"): 200, ("3x2", "non"): 200, ("4x4", "nec"): 1000}
#: Random positions compared on each board.
POSITIONS = 1000
# Asks the page's reader for the answers of many requests at once: [endpoint, parameters] each.
_ASK = """const done = arguments[arguments.length - 1];
import(new URL("reader/api.js", document.baseURI).href)
  .then(reader => Promise.all(arguments[0].map(([endpoint, parameters]) =>
    reader.answer(endpoint, parameters).catch(error => ({error: error.message})))))
  .then(done, error => done({error: String(error)}));"""


@pytest.fixture(scope="module")
def tables(solved_5x5, tables_4x4, necnon_tables, tmp_path_factory) -> Path:
    """The tables of :data:`BOARDS` and :data:`NECNON_BOARDS`, written once."""
    directory = tmp_path_factory.mktemp("static-tables")
    shutil.copy(tables_4x4 / "neutreeko-4x4.h5", directory)
    for table in necnon_tables.glob("*.h5"):
        shutil.copy(table, directory)
    game = NecnonGame.of("4x4", "nec")
    build_necnon_table(game, directory / necnon_table_path(game).name)
    game = Game.of("5x5")
    write_table(game, solved_5x5.result, directory / table_path(game).name, 1.0, fold=True)
    game = Game.of("3x5")
    write_table(game, solve(game).result, directory / table_path(game).name, 1.0, fold=True)
    return directory


@pytest.fixture(scope="module")
def site(tables, tmp_path_factory) -> Path:
    """The static explorer written by ``neutreeko site DIR --tables DIR``."""
    directory = tmp_path_factory.mktemp("site")
    done = invoke("site", str(directory), "--tables", str(tables))
    assert done.exit_code == 0, done.stderr
    return directory


def ask(browser, url: str, requests: list[tuple[str, dict[str, str]]]) -> list[dict]:
    """The reader's answers to ``requests`` in the page at ``url``."""
    if browser.current_url != url:
        browser.get(url)
    browser.set_script_timeout(120)
    answers = browser.execute_async_script(_ASK, [list(request) for request in requests])
    assert isinstance(answers, list), answers
    return answers


@pytest.mark.parametrize("board", BOARDS)
def test_the_reader_answers_as_python_does(browser, site, tables, board):
    game = Game.of(board)
    assert open_table(game, tables / table_path(game).name).folded is BOARDS[board]
    positions = random_positions(game, POSITIONS, seed=41)
    with Tablebase(tables) as tablebase, static_server(site) as url:
        expected = [query_object(p, tablebase.probe(p), tablebase.moves(p)) for p in positions]
        answers = ask(browser, url, [("position", {"position": p.fen(), "board": board}) for p in positions])
    wrong = [(p.fen(), got) for p, got, want in zip(positions, answers, expected) if got != json.loads(json.dumps(want))]
    assert not wrong, (len(wrong), wrong[:2])


def test_games_lines_and_annotations_as_the_server_gives_them(browser, site, tables):
    explorer = Explorer(tables)
    requests = [("game", {"board": "4x4", "position": "start", "moves": "1. A1-C3 B4-A4 2. C3-B3"}),
                ("game", {"board": "5x5", "position": "start", "moves": "C4-C3 D5-D2 B1-A1 B5-B2 D1-E1"}),
                ("line", {"board": "5x5", "position": "start", "moves": "C4-C3"}),
                ("line", {"board": "3x5", "position": "start", "max_plies": "7"}),
                ("annotate", {"board": "4x4", "position": "start", "moves": "C1-C3 B4-A4"})]
    with static_server(site) as url:
        answers = ask(browser, url, requests)
    for (endpoint, parameters), got in zip(requests, answers):
        assert got == json.loads(json.dumps(explorer.answer(f"/api/{endpoint}", parameters))), endpoint


def test_what_needs_python_says_so(browser, site):
    with static_server(site) as url:
        missing, search = ask(browser, url, [("position", {"board": "6x6", "position": "start"}),
                                             ("stats", {"board": "4x4"})])
    assert "no table for 6x6 connected in this site's release" in missing["error"]
    assert "needs the installed explorer" in missing["error"] and "needs the installed explorer" in search["error"]


def test_a_chunk_changed_on_the_server_is_refused(browser, site, tmp_path):
    damaged = tmp_path / "site"
    shutil.copytree(site, damaged)
    path = damaged / "tables" / "neutreeko-5x5.h5"  # the default board's: the page has nothing to fall back on
    data = bytearray(path.read_bytes())
    header = json.loads(data.split(b"\n")[2])
    chunks = -(-header["shape"][0] // header["chunk_items"])
    for number in range(chunks):  # one byte of each chunk, so that whichever is read is damaged
        at = header["map_offset"] + 56 * number
        offset, size = (int.from_bytes(data[at + shift:at + shift + 8], "little") for shift in (0, 8))
        data[offset + size // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with static_server(damaged) as url:
        browser.get(url + "?board=5x5&rule=connected")
        wait_until(browser, lambda: "damaged" in text_of(browser, "message"), "the page did not say the table is damaged")
        assert "neutreeko-5x5.h5 is damaged: chunk" in text_of(browser, "message")
        assert "does not match its digest" in text_of(browser, "message")
        assert not text_of(browser, "status") and not text_of(browser, "moves")


def test_the_page_shows_a_folded_table_s_values(browser, site):
    with static_server(site) as url:
        browser.get(url + "?board=5x5&rule=connected&moves=C4-C3")
        wait_until(browser, lambda: "win in 3" in text_of(browser, "status"), "the page did not show the value")
        assert "D5-D2" in text_of(browser, "moves")


def test_a_host_without_range_is_named(browser, site):
    """Python 3.11's own http.server answers a Range request with the whole file: the page says why it
    cannot read the table."""
    class Plain(SimpleHTTPRequestHandler):
        def log_message(self, format, *args):
            pass

    with static_server(site, handler=Plain) as url:
        answer, = ask(browser, url, [("position", {"board": "4x4"})])
    assert "the server answered 200, not 206 (the host must answer Range requests)" in answer["error"]


def necnon_positions(game: NecnonGame, count: int, seed: int) -> list[NecnonPosition]:
    """``count`` positions reachable from the empty board: random turns, a random number of them."""
    rng, positions = random.Random(seed), []
    while len(positions) < count:
        position = NecnonPosition.empty(game)
        for _ in range(rng.randrange(game.grid.cells)):
            if position.over:
                break
            position = position.play(rng.choice(position.turns()))
        positions.append(position)
    return positions


@pytest.mark.parametrize(("board", "protocol"), NECNON_BOARDS)
def test_the_reader_answers_necnon_as_python_does(browser, site, tables, board, protocol):
    game = NecnonGame.of(board, protocol)
    positions = necnon_positions(game, NECNON_BOARDS[board, protocol], seed=41)
    explorer = Explorer(tables)
    requests = [{"game": "necnon", "board": board, "protocol": protocol, "position": p.notation()} for p in positions]
    expected = [explorer.answer("/api/position", request) for request in requests]
    with static_server(site) as url:
        answers = ask(browser, url, [("position", request) for request in requests])
    wrong = [(p.notation(), got) for p, got, want in zip(positions, answers, expected) if got != json.loads(json.dumps(want))]
    assert not wrong, (len(wrong), wrong[:2])


def test_necnon_games_lines_and_rules_as_the_server_gives_them(browser, site, tables):
    explorer = Explorer(tables)
    requests = [("game", {"game": "necnon", "board": "4x4", "protocol": "nec", "moves": "b2 a1,c3 d4,a4"}),
                ("game", {"game": "necnon", "board": "hex2", "protocol": "nec", "moves": "b2 a1,zz"}),
                ("line", {"game": "necnon", "board": "3x3", "protocol": "nec", "moves": "b2"}),
                ("rules", {"game": "necnon", "board": "3x2", "protocol": "non", "moves": "a1"}),
                ("games", {})]
    with static_server(site) as url:
        answers = ask(browser, url, requests)
    for (endpoint, parameters), got in zip(requests, answers):
        want = json.loads(json.dumps(explorer.answer(f"/api/{endpoint}", parameters)))
        if endpoint == "games":  # the release's tables are ready; a server builds small ones on demand
            want = [{**entry, "table": "missing" if entry["table"] == "on demand" else entry["table"]}
                    for entry in want["games"]]
            got = got["games"]
        assert got == want, endpoint


def test_the_necnon_page_shows_a_table_s_values(browser, site):
    with static_server(site) as url:
        browser.get(url + "necnon.html?board=4x4&protocol=nec&moves=b2")
        wait_until(browser, lambda: "turn 1 of 1" in text_of(browser, "status"), "the page did not show the position")
        assert "Green to move\ndraw in 8 turns" in text_of(browser, "status")
        assert not text_of(browser, "message")


#: Boards and rules without a table here: the reader's model (moves, the index, the class numbers of a
#: folded table) against Python's, on every side from 3 to 11 and on every rule.
MODELS = [*((f"{side}x{side}", "connected") for side in range(3, 12)), ("3x11", "connected"), ("11x4", "connected"),
          ("10x6", "orthogonal"), ("6x4", "diagonal"), ("7x5", "equidistant"), ("9x9", "centre"), ("5x7", "centre")]
_MODEL = """const done = arguments[arguments.length - 1];
import(new URL("reader/neutreeko.js", document.baseURI).href).then(N => arguments[0].map(([board, rule, fens]) => {
  const game = N.gameOf(board, rule);
  return fens.map(fen => {
    const p = N.parsePosition(fen, board, rule);
    return [N.fen(p), N.indexOf(game, N.mover(p), N.other(p)), N.classNumber(game, N.mover(p), N.other(p)),
            N.moves(p).map(move => [N.moveName(game, move), N.fen(N.play(p, move))])];
  });
})).then(done, error => done({error: String(error)}));"""


def test_the_reader_s_model_of_every_board_is_python_s(browser, site):
    expected, asked = [], []
    for board, rule in MODELS:
        game = Game.of(board, rule)
        positions = random_positions(game, 100, seed=41)
        classes = Classes.of(game).numbers([p.index() for p in positions]).tolist()
        expected.append([[p.fen(), p.index(), number, [[move.name(game.board), p.play(move).fen()] for move in p.moves()]]
                         for p, number in zip(positions, classes)])
        asked.append([board, rule, [p.fen() for p in positions]])
    with static_server(site) as url:
        browser.get(url + "site.json")
        browser.set_script_timeout(120)
        answers = browser.execute_async_script(_MODEL, asked)
    for (board, rule), got, want in zip(MODELS, answers, expected):
        assert got == want, (board, rule)


class _Lying(RangeHandler):
    """Answers as :class:`RangeHandler` does but for the ``Content-Range`` it sends: ``lie`` rewrites it."""

    lie = staticmethod(lambda first, last, size: (first, last, size))

    def send_header(self, keyword: str, value: str) -> None:
        if keyword == "Content-Range":
            first, last, size = (int(part) for part in re.findall(r"\d+", value))
            value = "bytes {}-{}/{}".format(*self.lie(first, last, size))
        super().send_header(keyword, value)


@pytest.mark.parametrize(("lie", "said"), [
    (lambda first, last, size: (first + 1, last + 1, size), "the server did not send the bytes asked for"),
    (lambda first, last, size: (first, last, size + 4096), "is damaged: it has"),
])
def test_a_server_that_lies_is_refused(browser, site, lie, said):
    with static_server(site, handler=type("Lie", (_Lying,), {"lie": staticmethod(lie)})) as url:
        answer, = ask(browser, url, [("position", {"board": "4x4"})])
    assert said in answer["error"] and "neutreeko-4x4.h5" in answer["error"]

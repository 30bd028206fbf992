"""The static explorer (``neutreeko site``) in headless Chromium, served by a static server with ``Range``
on loopback: the in-browser reader's answers equal the Python ones on thousands of random legal
positions of every board built here (a full table, and folded ones of a square and an oblong board),
and a chunk changed on the server makes the page say the table is damaged and show no value."""

from __future__ import annotations

import json
import shutil
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import random_positions
from solver.neutreeko.querying.probe import Tablebase
from solver.neutreeko.querying.report import query_object
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.tables.table import open_table, table_path, write_table
from solver.web.api import Explorer
from solver.web.site import static_server
from tests.helpers import invoke
from tests.web import test_browser
from tests.web.test_browser import text_of, wait_until

browser = test_browser.browser  # the harness's fixture: a headless Chromium
#: The boards of the release and whether each table is folded.
BOARDS = {"4x4": False, "5x5": True, "3x5": True}
#: Random positions compared on each board.
POSITIONS = 1000
# Asks the page's reader for the answers of many requests at once: [endpoint, parameters] each.
_ASK = """const done = arguments[arguments.length - 1];
import(new URL("reader/api.js", document.baseURI).href)
  .then(reader => Promise.all(arguments[0].map(([endpoint, parameters]) =>
    reader.answer(endpoint, parameters).catch(error => ({error: error.message})))))
  .then(done, error => done({error: String(error)}));"""


@pytest.fixture(scope="module")
def tables(solved_5x5, tables_4x4, tmp_path_factory) -> Path:
    """The tables of :data:`BOARDS`, written once."""
    directory = tmp_path_factory.mktemp("static-tables")
    shutil.copy(tables_4x4 / "neutreeko-4x4.h5", directory)
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
    requests = [("game", {"board": "4x4", "position": "start", "moves": "A1-C3 B4-A4 C3-B3"}),
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

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Plain, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        answer, = ask(browser, f"http://127.0.0.1:{server.server_address[1]}/", [("position", {"board": "4x4"})])
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
    assert "the server answered 200, not 206 (the host must answer Range requests)" in answer["error"]

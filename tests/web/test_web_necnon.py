"""NECNON in the explorer's API, through HTTP: ``game=necnon`` beside Neutreeko in ``/api/games``, answers
equal to ``necnon query --json`` and ``necnon line --json``, the rules and the game of a link in one
answer, bad input as a one-line 400, and the search engine: bounded in time, one search at a time."""

from __future__ import annotations

import json
import threading
import time
from functools import partial
from urllib.parse import quote, urlencode

import pytest

from solver.cli import group
from solver.necnon.model.position import Position
from solver.necnon.model.rules import Game
from solver.necnon.web.api import NecnonApi
from solver.web import api
from solver.web.game_api import MAX_NESTING
from solver.web.server import ExplorerServer
from solver.web.tables import BusyError
from tests.helpers import invoke
from tests.web.test_web import get_json, request

cli = group("necnon")

LINKS = [("3x3", "nec", "empty", ""), ("3x3", "nec", "empty", "b2 a1,c3"), ("hex2", "nec", "empty", "b2"),
         ("3x2", "non", "empty", "a1"), ("hex2", "nec", "2/1b1/2 g", "a1,c3")]


def path(endpoint: str, **parameters: str) -> str:
    return f"/api/{endpoint}?" + urlencode({"game": "necnon", **parameters})


def test_games_lists_both_games(necnon_url):
    status, answer = get_json(necnon_url, "/api/games")
    assert status == 200
    entries = answer["games"]
    assert {entry["game"] for entry in entries} == {"neutreeko", "necnon"}
    assert {"game": "neutreeko", "board": "5x5", "rule": "connected", "table": "on demand"} in entries
    tables = {(entry["board"], entry["protocol"]): entry["table"] for entry in entries if entry["game"] == "necnon"}
    assert tables[("3x3", "nec")] == tables[("hex2", "nec")] == tables[("3x2", "non")] == "ready"
    assert tables[("4x4", "nec")] == tables[("3x3", "non")] == "on demand"    # up to 16 cells: built on first use
    assert tables[("hex3", "nec")] == tables[("5x4", "non-nec")] == "missing"  # necnon solve --build
    assert tables[("hex4", "nec")] == tables[("7x7", "non")] == "too large"    # the search engine plays them
    assert len(tables) == (6 * 6 + 5) * 4
    assert all(list(entry) == ["game", "board", "protocol", "table"] for entry in entries if entry["game"] == "necnon")


@pytest.mark.parametrize("board, protocol, position, moves", LINKS)
def test_position_and_line_answer_as_the_command_line_does(necnon_url, necnon_env, board, protocol, position, moves):
    for endpoint, command in (("position", "query"), ("line", "line")):
        status, answer = get_json(necnon_url, path(endpoint, board=board, protocol=protocol, position=position,
                                                   moves=moves))
        assert status == 200, answer
        expected = invoke(command, position, "--board", board, "--protocol", protocol, "--moves", moves, "--json",
                          program=cli)
        assert answer == json.loads(expected.stdout)


@pytest.mark.parametrize("board, protocol", [("3x3", "nec"), ("3x2", "non")])
def test_stats_answers_as_the_command_line_does(necnon_url, necnon_env, board, protocol):
    status, answer = get_json(necnon_url, path("stats", board=board, protocol=protocol))
    assert status == 200, answer
    assert answer == json.loads(invoke("stats", "--board", board, "--protocol", protocol, "--json", program=cli).stdout)
    assert answer["positions"] == sum(answer["margins"].values())


def test_the_board_and_the_protocol_default_as_on_the_command_line(necnon_url):
    """The board the position is written on; 3x2 non's empty board when named."""
    status, answer = get_json(necnon_url, "/api/position?game=necnon&position=" + quote("2/1b1/2 g"))
    assert (status, answer["board"], answer["protocol"]) == (200, "hex2", "nec")
    assert get_json(necnon_url, path("position", board="3x2", protocol="non"))[1]["position"] == "3/3 b"


def test_rules_say_the_cells_allowed_and_the_end(necnon_url):
    status, answer = get_json(necnon_url, path("rules", board="3x3", moves="b2"))
    assert status == 200
    position = Position.empty(Game.of("3x3")).play_line("b2")
    assert answer["allowed"] == [position.game.grid.name(cell) for cell in position.allowed()]
    assert answer["stones"] == 2 and answer["to_move"] == "green" and not answer["over"]
    end = get_json(necnon_url, path("line", board="3x3"))[1]
    status, over = get_json(necnon_url, path("rules", board="3x3", position=end["line"][-1]["position"]))
    assert over["over"] and over["allowed"] == [] and over["stones"] == 0
    assert (over["points"], over["smothered"]) == (end["points"], end["smothered"])
    status, answer = get_json(necnon_url, path("rules", board="hex6"))  # any board: no table read
    assert status == 200 and len(answer["allowed"]) == 91 and answer["stones"] == 1


def test_game_answers_every_position_at_once_up_to_the_first_refused(necnon_url):
    status, answer = get_json(necnon_url, path("game", board="3x3", moves="b2 a1,c3 c9 a2"))
    assert status == 200 and answer["start"] == "empty"
    assert answer["refused"].startswith("turn 3, c9, cannot be played: ") and "c9" in answer["refused"][30:]
    assert answer["positions"] == [get_json(necnon_url, path("rules", board="3x3", moves=moves))[1]
                                   for moves in ("", "b2", "b2 a1,c3")]
    assert answer["values"] == [get_json(necnon_url, path("position", board="3x3", moves=moves))[1]
                                for moves in ("", "b2", "b2 a1,c3")]
    grid = answer["grid"]
    assert grid["kind"] == "square" and grid["rows"][0] == ["a3", "b3", "c3"] and len(grid["cells"]) == 9
    status, answer = get_json(necnon_url, path("game", board="hex4", moves="d4"))
    assert status == 200 and answer["values"] is None and answer["refused"] is None  # no table: the engine plays
    assert answer["grid"]["kind"] == "hex" and len(answer["grid"]["cells"]) == 37


#: A tree on 3 x 3 as a link holds it: Green's first turn and an alternative, which has its own; the
#: second cell of a turn given before the first (the answer names it in board order).
TREE = "b2 a1,c3 (c1,a1 a2,c2 (a3,b3)) b1,c1"


def test_game_answers_the_variations_of_a_tree(necnon_url):
    """Each variation in parentheses: the turn it replaces, its turns as the rules write them, the state
    and values of the position after each (as /api/rules and /api/position answer them), its own."""
    status, answer = get_json(necnon_url, path("game", board="3x3", moves=TREE))
    assert status == 200 and answer["refused"] is None
    assert list(answer) == ["start", "grid", "turns", "positions", "values", "refused", "variations"]
    assert answer["turns"] == ["b2", "a1,c3", "b1,c1"] and len(answer["positions"]) == 4
    [variation] = answer["variations"]
    assert (variation["ply"], variation["turns"]) == (2, ["a1,c1", "a2,c2"])
    assert variation["positions"] == [get_json(necnon_url, path("rules", board="3x3", moves=moves))[1]
                                      for moves in ("b2 a1,c1", "b2 a1,c1 a2,c2")]
    assert variation["values"] == [get_json(necnon_url, path("position", board="3x3", moves=moves))[1]
                                   for moves in ("b2 a1,c1", "b2 a1,c1 a2,c2")]
    [nested] = variation["variations"]
    assert (nested["ply"], nested["turns"], nested["variations"]) == (3, ["a3,b3"], [])
    assert nested["positions"][0]["position"] == Position.empty(Game.of("3x3")).play_line("b2 a1,c1 a3,b3").notation()
    status, answer = get_json(necnon_url, path("game", board="hex4", moves="d4 (c3) c3,e5"))
    assert status == 200 and answer["values"] is None and answer["variations"][0]["values"] is None  # no table
    status, answer = get_json(necnon_url, path("game", board="3x3", moves="b2 (a1 a2,b3 c9) a1,c3"))
    assert answer["turns"] == ["b2"] and answer["variations"][0]["turns"] == ["a1", "a2,b3"]
    assert answer["refused"].startswith("turn 3, c9, cannot be played: ")


def test_variations_nested_too_deep_are_refused_with_413(necnon_url):
    """Variations nested deeper than the bound (as deep as Python recurses, and more) are refused by
    /api/game (a link or a record) and /api/record; as deep as the bound is answered, nested alike."""
    deep, allowed = ("b2 " + "(a1 " * depth + ")" * depth for depth in (500, MAX_NESTING))
    for endpoint in ("game", "record"):
        status, answer = get_json(necnon_url, path(endpoint, board="3x3", moves=deep))
        assert status == 413 and f"nest more than {MAX_NESTING} deep" in answer["error"], endpoint
    status, _, body = request(necnon_url, "/api/game?game=necnon", "POST", f'[Board "3x3"]\n{deep}\n'.encode())
    assert status == 413 and f"nest more than {MAX_NESTING} deep" in json.loads(body)["error"]
    status, answer = get_json(necnon_url, path("game", board="3x3", moves=allowed))
    assert status == 200
    for _ in range(MAX_NESTING):
        [answer] = answer["variations"]
        assert (answer["ply"], answer["turns"], len(answer["values"])) == (1, ["a1"], 1)
    assert answer["variations"] == []


def test_a_record_written_and_posted_back_answers_the_same_game(necnon_url):
    """/api/record writes the tree's record; POSTed to /api/game (the game named in the URL) it gives the
    game of the link; a bad record, or a POST with more than the game in its URL, is a 400 naming it."""
    status, written = get_json(necnon_url, path("record", board="3x3", moves=TREE))
    assert status == 200
    assert written["record"] == ('[Board "3x3"]\n[Protocol "nec"]\n[Result "*"]\n\n'
                                 "1. b2 2. a1,c3 (2. a1,c1 3. a2,c2 (3. a3,b3)) 3. b1,c1\n")
    status, _, body = request(necnon_url, "/api/game?game=necnon", "POST", written["record"].encode())
    assert status == 200 and json.loads(body) == get_json(necnon_url, path("game", board="3x3", moves=TREE))[1]
    for url, record, words in [
        ("/api/game?game=necnon", b'[Board "3x3"]\n1. b2 (1. a1\n', ["line 2: a variation is not closed"]),
        ("/api/game?game=necnon", b"1. b2 2. b2,c1", ["line 1", "b2 is occupied"]),
        ("/api/game?game=necnon&board=3x3", b"1. b2", ["in the body, and only game in the URL"]),
        ("/api/annotate?game=necnon", b"1. b2", ["necnon has no POST to /api/annotate", "/api/game"]),
        ("/api/game?game=chess", b"1. b2", ["unknown game 'chess'"]),
    ]:
        status, _, body = request(necnon_url, url, "POST", record)
        assert status == 400 and list(json.loads(body)) == ["error"], body
        for word in words:
            assert word in json.loads(body)["error"], (word, body)
    status, answer = get_json(necnon_url, path("record", board="3x3", moves="b2 (a1 a1,b2)"))
    assert status == 400 and "a1 is occupied" in answer["error"]


def test_many_positions_posted_are_answered_each_with_its_value_or_its_error(necnon_url):
    """POST /api/positions?game=necnon: each line's value as /api/position gives it (without the
    ranking), a bad line an error object naming what /api/position would say of it."""
    lines = ["empty", "3/1b1/3 g", "3/1b1/3 x", "2b1/g3/4/3g b"]
    status, _, body = request(necnon_url, "/api/positions?game=necnon&board=3x3", "POST", "\n".join(lines).encode())
    assert status == 200, body
    answer = json.loads(body)
    for line, each in zip(lines[:2], answer["answers"]):
        expected = get_json(necnon_url, path("position", board="3x3", position=line))[1]
        del expected["ranking"]
        assert each == expected
    assert answer["errors"] == 2
    assert answer["answers"][2] == {"line": 3, "input": "3/1b1/3 x",
                                    "error": get_json(necnon_url, path("position", board="3x3", position=lines[2]))[1]["error"]}
    assert answer["answers"][3]["line"] == 4 and "4x4" in answer["answers"][3]["error"]


@pytest.mark.parametrize("query, words", [
    ("game=chess", ["unknown game 'chess'", "neutreeko, necnon"]),
    ("game=necnon&board=9x9", ["9x9", "from 2 to 7"]),
    ("game=necnon&board=hex9", ["hex9"]),
    ("game=necnon&board=tri3", ["tri3", "hexN"]),
    ("game=necnon&protocol=nop", ["unknown protocol 'nop'"]),
    ("game=necnon&position=" + quote("2b/g3/4 b"), ["rows of 3, 4, 4"]),
    ("game=necnon&position=xyz", ["unexpected 'xyz' in row 1"]),
    ("game=necnon&board=3x3&position=" + quote("2/3/2 b"), ["hex2", "not 3x3"]),
    ("game=necnon&board=3x3&moves=a1,b1", ["first turn lays one stone"]),
    ("game=necnon&board=3x3&moves=pass", ["cannot pass"]),
    ("game=necnon&rule=connected", ["unknown parameter 'rule'", "protocol"]),
    ("game=necnon&board=hex3", ["no table for hex3 nec", "necnon solve --board hex3"]),
    ("game=necnon&board=hex4", ["no table for hex4 nec", "/api/search"]),
])
def test_a_bad_request_is_a_400_naming_the_problem(necnon_url, query, words):
    status, answer = get_json(necnon_url, f"/api/position?{query}")
    assert status == 400, answer
    assert list(answer) == ["error"] and "\n" not in answer["error"]
    for word in words:
        assert word in answer["error"], (word, answer)


@pytest.mark.parametrize("endpoint, query, words", [
    ("annotate", "game=necnon", ["necnon has no endpoint /api/annotate"]),
    ("search", "game=necnon&seconds=0", ["seconds '0'"]),
    ("search", "game=necnon&seconds=11", ["at most 10"]),
    ("search", "game=necnon&seconds=1e3", ["seconds '1e3'"]),
    ("search", "game=necnon&board=2x2&moves=" + quote("a1 b2"), ["b2 alone", "two stones"]),
    ("rules", "game=neutreeko", ["neutreeko has no endpoint /api/rules"]),
])
def test_bad_requests_of_the_other_endpoints(necnon_url, endpoint, query, words):
    status, answer = get_json(necnon_url, f"/api/{endpoint}?{query}")
    assert status == 400 and list(answer) == ["error"], answer
    for word in words:
        assert word in answer["error"], (word, answer)


def test_a_search_on_a_board_without_a_table_answers_within_its_time(necnon_url):
    """hex4 (37 cells, no table can exist): the engine's view, its turns most visited first, each a legal
    turn with the position it leads to, within the time asked (and a little for the answer)."""
    position = Position.empty(Game.of("hex4")).play_line("d4")
    get_json(necnon_url, path("search", board="hex4", seconds="0.1"))  # the engine's kernels loaded
    began = time.monotonic()
    status, answer = get_json(necnon_url, path("search", board="hex4", moves="d4", seconds="0.5"))
    took = time.monotonic() - began
    assert status == 200 and 0.5 <= took < 1.5, (took, answer)
    assert answer["position"] == position.notation() and answer["to_move"] == "green"
    assert answer["iterations"] > 50 and 0.5 <= answer["seconds"] < 0.7
    visits = [turn["visits"] for turn in answer["turns"]]
    assert visits == sorted(visits, reverse=True) and sum(visits) <= answer["iterations"]
    for turn in answer["turns"][:10]:
        assert position.play(position.parse_turn(turn["turn"])).notation() == turn["position"]
        assert 0 <= turn["won"] <= 1
    status, answer = get_json(necnon_url, path("search", board="2x2", moves="b1 a2,b2 a1"))  # over
    assert status == 400 and "the game is over" in answer["error"]


def test_one_search_at_a_time(necnon_tables):
    """Two searches asked at once: the second waits for the first, then thinks its own time; with a
    shorter wait than the first's thinking, the second is refused with BusyError saying why."""
    def race(api: NecnonApi) -> list[tuple[str, float, object]]:
        outcomes: list[tuple[str, float, object]] = []
        began = time.monotonic()

        def ask(name: str) -> None:
            try:
                answer: object = api.answer("/api/search", {"board": "hex4", "seconds": "0.6"})
            except BusyError as error:
                answer = error
            outcomes.append((name, time.monotonic() - began, answer))

        threads = [threading.Thread(target=ask, args=(name,)) for name in ("first", "second")]
        for thread in threads:
            thread.start()
            time.sleep(0.1)
        for thread in threads:
            thread.join()
        return outcomes

    api = NecnonApi(necnon_tables)
    api.answer("/api/search", {"board": "hex4", "seconds": "0.1"})  # the engine's kernels loaded
    (_, first, _), (_, second, answer) = sorted(race(api))  # by name: the first asked first
    assert isinstance(answer, dict) and second >= first + 0.55  # after the first, not beside it
    (_, _, first_answer), (_, waited, refused) = sorted(race(NecnonApi(necnon_tables, search_wait=0.2)))
    # Refused, not answered after the first: its wait of 0.2 s ends while the first search thinks.
    assert isinstance(first_answer, dict) and isinstance(refused, BusyError) and waited < 0.5
    assert "one search at a time" in str(refused)


def test_a_busy_search_is_a_503_with_retry_after(necnon_tables):
    """Over HTTP: the refused search is a 503, one line of JSON and Retry-After."""
    busy = {**api.makers(), "necnon": partial(NecnonApi, search_wait=0.1)}
    server = ExplorerServer("127.0.0.1", 0, api.Explorer(necnon_tables, apis=busy))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        get_json(server.url, path("search", board="hex4", seconds="0.1"))
        answers: list[tuple[int, object, bytes]] = []
        asking = threading.Thread(target=lambda: answers.append(request(server.url, path("search", board="hex4"))))
        asking.start()
        time.sleep(0.2)
        status, response, body = request(server.url, path("search", board="hex4"))
        asking.join()
    finally:
        server.shutdown()
        server.server_close()
    assert status == 503 and response.getheader("Retry-After") == "2" and answers[0][0] == 200
    assert list(json.loads(body)) == ["error"] and "one search at a time" in json.loads(body)["error"]

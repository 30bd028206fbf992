"""``GET /api/stats``: the ``neutreeko stats --json`` object of a table and the start's value, as the
command line prints them; a large table counted in the background, one count at a time, each summary
counted once while its table stays open; bad requests a one-line 400."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path

import h5py
import pytest

from solver.core.errors import TableError
from solver.core.storage.container import stamp
from solver.neutreeko.model.game import Game
from solver.neutreeko.tables.stats import COUNT_NAMES
from solver.neutreeko.tables.table import Table, open_table, table_path
from solver.neutreeko.web.api import NeutreekoApi
from solver.neutreeko.web.summaries import Summaries
from tests.helpers import invoke
from tests.web.test_web import get_json

BOARDS = ("4x4", "5x5")


@pytest.fixture(scope="module")
def both_tables(tables_4x4, tables_5x5, tmp_path_factory) -> Path:
    """A directory holding the tables of 4 x 4 and 5 x 5."""
    directory = tmp_path_factory.mktemp("tables-4x4-5x5")
    for source, board in ((tables_4x4, "4x4"), (tables_5x5, "5x5")):
        name = table_path(Game.of(board)).name
        shutil.copyfile(source / name, directory / name)
    return directory


@pytest.fixture(scope="module")
def stats_url(both_tables, serve_tables) -> str:
    return serve_tables(both_tables)


def wait_counted(api: NeutreekoApi, parameters: dict[str, str]) -> dict:
    """The first answer of ``api`` to ``/api/stats`` with ``parameters`` that is not still counting (10 s at most)."""
    deadline = time.monotonic() + 10
    while (answer := api.answer("/api/stats", parameters))["counting"]:
        assert time.monotonic() < deadline, "the count never ended"
        time.sleep(0.01)
    return answer


@pytest.mark.parametrize("board", BOARDS)
def test_stats_answers_as_the_command_line_does(stats_url, both_tables, monkeypatch, board):
    """The ``stats --json`` object, with the start's value as /api/position gives it (its moves apart)."""
    monkeypatch.setenv("NEUTREEKO_TABLES", str(both_tables))
    status, answer = get_json(stats_url, f"/api/stats?board={board}&rule=connected")
    assert status == 200, answer
    expected = json.loads(invoke("stats", "--board", board, "--json").stdout)
    start, counting = answer.pop("start"), answer.pop("counting")
    assert (counting, answer) == (False, expected)
    _, position = get_json(stats_url, f"/api/position?board={board}")
    del position["moves"]
    assert start == position
    assert get_json(stats_url, f"/api/stats?board={board}")[1] == {**answer, "counting": False, "start": start}


def test_the_default_is_5x5_connected(stats_url):
    status, answer = get_json(stats_url, "/api/stats")
    assert (status, answer["board"], answer["rule"], answer["longest_win"]) == (200, "5x5", "connected", 51)
    assert answer["start"] == {"position": "1w1w1/2b2/5/2w2/1b1b1 b", "board": "5x5", "to_move": "black",
                               "value": "draw", "plies": None}


@pytest.mark.parametrize("path, words", [
    ("/api/stats?board=12x12", ["12x12"]),
    ("/api/stats?rule=nonsense", ["unknown rule 'nonsense'"]),
    ("/api/stats?board=3x3&rule=diagonal", ["diagonal", "3x3"]),
    ("/api/stats?position=start", ["unknown parameter 'position'", "board, rule"]),
    ("/api/stats?game=necnon&rule=connected", ["unknown parameter 'rule'", "board, protocol"]),
    ("/api/stats?board=6x6", ["no table for 6x6", "neutreeko solve"]),
])
def test_a_bad_stats_request_is_a_400_naming_the_problem(stats_url, path, words):
    status, answer = get_json(stats_url, path)
    assert status == 400, answer
    assert list(answer) == ["error"] and "\n" not in answer["error"]
    for word in words:
        assert word in answer["error"], (word, answer)


def test_a_large_table_is_counted_in_the_background(both_tables):
    """Beyond the bound (here 1 million indices: 5 x 5's 3.5 million are beyond it, 4 x 4's 160,160
    within), the first answers say "counting" with the counts the table's attributes state, at once;
    the complete answer follows, the same as a table counted at once gives."""
    api = NeutreekoApi(both_tables, summaries=Summaries(background_indices=1_000_000))
    assert api.answer("/api/stats", {"board": "4x4"})["counting"] is False  # counted in the request's thread
    first = api.answer("/api/stats", {"board": "5x5"})
    complete = wait_counted(api, {"board": "5x5"})
    assert first["counting"] is True
    assert first == {"counting": True, "board": "5x5", "rule": "connected",
                     **{name: complete[name] for name in COUNT_NAMES}, "start": complete["start"]}
    assert complete == NeutreekoApi(both_tables).answer("/api/stats", {"board": "5x5"})


@pytest.fixture
def gated_counts(monkeypatch) -> tuple[threading.Event, list[str]]:
    """Every count of a table's summary waits for the event returned, and is listed (by board) as it begins."""
    gate, begun = threading.Event(), []
    count = Table.__dict__["summary"].func

    def gated(table: Table):
        begun.append(str(table.game.board))
        assert gate.wait(10)
        return count(table)

    monkeypatch.setattr(Table, "summary", property(gated))
    return gate, begun


def counting_threads() -> list[str]:
    return [thread.name for thread in threading.enumerate() if thread.name.startswith("summary of")]


def wait_idle() -> None:
    deadline = time.monotonic() + 10
    while counting_threads():
        assert time.monotonic() < deadline, counting_threads()
        time.sleep(0.01)


def test_one_count_at_a_time_and_each_table_counted_once(both_tables, gated_counts):
    gate, begun = gated_counts
    summaries = Summaries(background_indices=0)
    small, large = (open_table(Game.of(board), both_tables / table_path(Game.of(board)).name) for board in BOARDS)
    assert summaries.summary(large) is None
    assert summaries.summary(small) is None  # another table is being counted: nothing started
    assert summaries.summary(large) is None
    assert counting_threads() == ["summary of 5x5 connected"] and begun == ["5x5"]
    gate.set()
    wait_idle()
    summary = summaries.summary(large)
    assert summary is not None and summary.legal == large.attributes["legal"]
    assert summaries.summary(small) is None  # its count starts now
    wait_idle()
    assert summaries.summary(small).legal == small.attributes["legal"]
    assert summaries.summary(large) is summary and begun == ["5x5", "4x4"]  # each counted once


def test_a_failed_count_is_kept_as_its_error(both_tables, monkeypatch):
    begun = []

    def damaged(table: Table):
        begun.append(table.game)
        raise TableError(f"{table.path} is damaged: its data has legal 1, its attributes 153,296")

    monkeypatch.setattr(Table, "summary", property(damaged))
    summaries, table = Summaries(), open_table(Game.of("4x4"), both_tables / table_path(Game.of("4x4")).name)
    for _ in range(2):
        with pytest.raises(TableError, match="damaged"):
            summaries.summary(table)
    assert len(begun) == 1


def test_a_table_replaced_on_disk_is_counted_again(tables_5x5, tmp_path):
    """The summary lives with its table: a file replaced (another inode) is opened again and counted again."""
    name = table_path(Game.of("5x5")).name
    shutil.copyfile(tables_5x5 / name, tmp_path / name)
    api = NeutreekoApi(tmp_path, summaries=Summaries(background_indices=0))
    assert api.answer("/api/stats", {})["counting"] is True
    complete = wait_counted(api, {})
    assert api.answer("/api/stats", {}) == complete
    shutil.copyfile(tables_5x5 / name, tmp_path / "copy")
    (tmp_path / "copy").replace(tmp_path / name)
    assert api.answer("/api/stats", {})["counting"] is True
    assert wait_counted(api, {}) == complete


@pytest.mark.parametrize("value", ["lots", None])
def test_a_table_with_a_bad_count_attribute_is_refused_naming_it(tables_5x5, tmp_path, serve_tables, value):
    """A re-stamped table (every digest right) whose count is not one, or missing: refused where it is
    opened, before the background count would state its counts; over HTTP a 500 naming the attribute."""
    name = table_path(Game.of("5x5")).name
    shutil.copyfile(tables_5x5 / name, tmp_path / name)
    with h5py.File(tmp_path / name, "r+") as file:
        if value is None:
            del file.attrs["legal"]
        else:
            file.attrs["legal"] = value
    stamp(tmp_path / name)
    api = NeutreekoApi(tmp_path, summaries=Summaries(background_indices=0))
    with pytest.raises(TableError, match="its attribute legal is"):
        api.answer("/api/stats", {})
    status, answer = get_json(serve_tables(tmp_path), "/api/stats")
    assert status == 500 and "its attribute legal is" in answer["error"], answer

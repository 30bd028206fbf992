"""NECNON's part of the explorer's JSON API (``game=necnon``; see :mod:`solver.web.api`): an endpoint and
its parameters in, a JSON object of :mod:`solver.necnon.querying.report` out.

:class:`NecnonApi` answers ``/api/position``, ``/api/line``, ``/api/rules``, ``/api/game``,
``/api/record``, ``/api/positions``, ``/api/stats``, ``/api/search`` and ``/api/games``, every value Black's points minus Green's under
perfect play, whoever is to move (see :mod:`solver.necnon.querying.probe`). ``/api/rules`` and
``/api/search`` answer on any board, the others need a table; a search thinks
:data:`SEARCH_SECONDS` unless asked otherwise, at most :data:`MAX_SEARCH_SECONDS`, one at a time (see
:mod:`solver.web.searches`). The endpoints, their parameters and answers: docs/reference/json-api.md.

Bad input raises :class:`~solver.core.errors.InputError` naming it (HTTP 400), as for Neutreeko,
before any file is touched; a game tree too large (:func:`~solver.web.game_api.check_tree`) 413, as for
Neutreeko; a table being built :class:`~solver.web.tables.BusyError` (503), and so does a search still
waiting for another after :data:`MAX_SEARCH_SECONDS`.

Run as ``python -m solver.necnon.web.api BOARD PROTOCOL OUT``, the module is the child process that
builds a table on demand (see :mod:`solver.web.tables`): it writes the table of BOARD and PROTOCOL to OUT.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Mapping
from functools import lru_cache, partial
from pathlib import Path

from solver.core.answers.record import Variation
from solver.core.answers.report import line_error
from solver.core.errors import InputError, MissingTableError
from solver.core.storage.remote import Location
from solver.necnon.model.grid import MAX_BASE, MAX_SIDE, MIN_BASE, MIN_SIDE, Grid
from solver.necnon.model.keys import check_solvable
from solver.necnon.model.position import MAX_POSITION_LENGTH, Position, Turn, notation_grid
from solver.necnon.model.rules import SETTINGS, Game
from solver.necnon.playing.record import GameRecord, parse_record, read_playable, read_variations
from solver.necnon.querying import report
from solver.necnon.querying.probe import Tablebase
from solver.necnon.searching.engine import SearchEngine
from solver.necnon.tables.build import UNASKED_CELLS, build_table
from solver.necnon.tables.table import Table, open_table, solve_command, table_path
from solver.web.game_api import ApiError, JSONObject, check_tree, position_lines, variation_objects
from solver.web.searches import OneSearch
from solver.web.tables import Builds, BusyError, LiveTables, buildable, is_present, listing, run_child

#: The board and protocol setting of a request that names neither (and of the empty board).
DEFAULT_GAME = Game.of()
#: Seconds a search thinks unless told, and the most it may be told.
SEARCH_SECONDS, MAX_SEARCH_SECONDS = 1.0, 10.0

_POSITION_PARAMETERS = ("position", "moves", "board", "protocol")
#: Each endpoint and the parameters it reads (``game`` apart).
ENDPOINTS: dict[str, tuple[str, ...]] = {
    "/api/position": _POSITION_PARAMETERS,
    "/api/line": _POSITION_PARAMETERS,
    "/api/rules": _POSITION_PARAMETERS,
    "/api/game": _POSITION_PARAMETERS,
    "/api/record": _POSITION_PARAMETERS,
    "/api/search": (*_POSITION_PARAMETERS, "seconds"),
    "/api/stats": ("board", "protocol"),
}
#: The endpoints that take a POST's body (a game record; positions one a line), and the parameters each
#: reads from the URL.
POSTED: dict[str, tuple[str, ...]] = {"/api/game": (), "/api/positions": ("board", "protocol")}
_SECONDS = re.compile(r"[0-9]{1,2}(\.[0-9]{1,3})?")


class NecnonApi:
    """Answers NECNON's requests from the tables in ``directory`` (default: the tables directory), and
    from the search engine on any board. A missing table of a board of at most
    :data:`~solver.necnon.tables.build.UNASKED_CELLS` cells is built on first use by ``builds``, in a child
    process, as Neutreeko's are (see :mod:`solver.web.tables`). A search waits at most ``search_wait``
    seconds for the one before it. Safe to call from several threads at once."""

    endpoints = ENDPOINTS
    posted = POSTED

    def __init__(self, directory: Location | None = None, builds: Builds | None = None,
                 search_wait: float = MAX_SEARCH_SECONDS) -> None:
        self._directory = directory
        self._tables: LiveTables[Table] = LiveTables(builds or Builds())
        self._searches = OneSearch(search_wait)
        self._engine_loading = threading.Lock()  # held by the first request that starts loading the engine
        self._games: tuple[frozenset[str] | None, list[JSONObject]] | None = None  # the directory's names, the list

    def answer(self, endpoint: str, parameters: Mapping[str, str]) -> JSONObject:
        """The JSON object ``endpoint`` (one of :data:`ENDPOINTS`) answers with for ``parameters`` (see the
        module docstring)."""
        if endpoint == "/api/game":
            return self.game(read_start(parameters), parameters.get("moves", ""))
        if endpoint == "/api/record":
            return self.record(read_start(parameters), parameters.get("moves", ""))
        if endpoint == "/api/stats":
            return self.stats(game_of(parameters.get("board", str(DEFAULT_GAME.grid)),
                                      parameters.get("protocol", DEFAULT_GAME.setting)))
        position = read_start(parameters).play_line(parameters.get("moves", ""))
        if endpoint == "/api/rules":
            return report.state_object(position)
        if endpoint == "/api/search":
            return self.search(position, read_seconds(parameters.get("seconds")))
        tablebase = self._tablebase(position.game)
        if endpoint == "/api/line":
            return report.line_object(tablebase.line(position))
        return report.query_object(position, tablebase.probe(position), tablebase.turns(position))

    def answer_body(self, endpoint: str, parameters: Mapping[str, str], text: str) -> JSONObject:
        """For ``/api/positions`` :meth:`positions`; for ``/api/game`` the ``/api/game`` object of the game
        record ``text``, its variations included; raises :class:`~solver.core.answers.record.RecordError`
        naming the line of a record that cannot be read."""
        if endpoint == "/api/positions":
            return self.positions(game_of(parameters.get("board", str(DEFAULT_GAME.grid)),
                                          parameters.get("protocol", DEFAULT_GAME.setting)), position_lines(text))
        record = parse_record(text)
        return self._game_object(record.start, record.turns, record.variations, None)

    def positions(self, game: Game, lines: list[str]) -> JSONObject:
        """``{"answers": [...], "errors": n}``: each of ``lines`` (a position of ``game``) answered by
        its value as ``necnon query --json`` gives it, without its ranking, or by an error object
        ``{"line", "input", "error"}`` naming what is wrong with it."""
        tablebase = self._tablebase(game)
        answers: list[JSONObject] = []
        for number, text in enumerate(lines, 1):
            try:
                if not text.strip():
                    raise InputError("empty line")
                position = Position.parse(text, game)
            except InputError as error:
                answers.append(line_error(number, text, str(error), MAX_POSITION_LENGTH))
                continue
            answers.append(report.position_object(position, tablebase.probe(position)))
        return {"answers": answers, "errors": sum("error" in answer for answer in answers)}

    def game(self, start: Position, text: str) -> JSONObject:
        """The ``/api/game`` object of the turns ``text`` (variations included) from ``start``, read while
        each is legal (see :func:`~solver.necnon.playing.record.read_playable`); the first that is not is refused."""
        return self._game_object(start, *read_playable(start, text))

    def record(self, start: Position, text: str) -> JSONObject:
        """``{"record": the text of the game record}`` of the turns ``text`` (variations included) from
        ``start``; raises :class:`~solver.core.answers.record.RecordError` for a turn that is wrong."""
        turns, variations = read_variations(start, text)
        check_tree(turns, variations)
        return {"record": GameRecord(start, turns, (), variations).text()}

    def _game_object(self, start: Position, turns: tuple[Turn, ...], variations: tuple[Variation[Turn], ...],
                     refused: str | None) -> JSONObject:
        check_tree(turns, variations)
        try:
            tablebase: Tablebase | None = self._tablebase(start.game)
        except MissingTableError:
            tablebase = None  # the search engine plays this board: its searches will soon be asked for
            self._load_engine()
        grid = start.game.grid

        def names(turns: tuple[Turn, ...]) -> list[str]:
            return [turn.name(grid) for turn in turns]

        def said(positions: list[Position]) -> JSONObject:
            """The state object and the values (with a table) of each of ``positions``."""
            return {"positions": [report.state_object(position) for position in positions],
                    "values": None if tablebase is None else
                    [report.query_object(position, tablebase.probe(position), tablebase.turns(position))
                     for position in positions]}

        def branch(variation: Variation[Turn], before: Position, after: list[Position]) -> JSONObject:
            return {"ply": variation.ply, "turns": names(variation.moves), **said(after)}

        positions = [start, *_played(start, turns)]
        return {"start": "empty" if start.first_turn else start.notation(), "grid": _grid_object(grid),
                "turns": names(turns), **said(positions), "refused": refused,
                "variations": variation_objects(positions, variations, Position.play, branch)}

    def stats(self, game: Game) -> JSONObject:
        """The ``necnon stats --json`` object of ``game``'s table (its records read and checked once a table)."""
        table = self._tablebase(game).table(game)
        return report.stats_object(game, table.summary, table.attributes["solve_seconds"])

    def search(self, position: Position, seconds: float) -> JSONObject:
        """The search object of ``position`` after ``seconds`` of thinking, one search at a time."""
        if position.over:
            raise ApiError(f"the game is over in {position.notation()}: there is nothing to search")
        with self._searches.turn():
            verdict = SearchEngine(position.game, seconds=seconds).search(position)
        return report.search_object(position, verdict)

    def _load_engine(self) -> None:
        """Load the search engine's compiled kernels in the background, once a server: a second (longer
        the first time on a machine, when numba compiles them) that the first search would otherwise
        spend before it thinks. It is a search of its own, so that a search asked meanwhile waits for it."""
        if not self._engine_loading.acquire(blocking=False):
            return  # loaded, or being loaded

        def load() -> None:
            try:
                with self._searches.turn():
                    SearchEngine(DEFAULT_GAME, iterations=1).search(Position.empty(DEFAULT_GAME))
            except BusyError:
                pass  # a search ran all along: the kernels are loaded

        threading.Thread(target=load, name="necnon engine loading", daemon=True).start()

    def games(self) -> list[JSONObject]:
        """Every board and protocol setting, with the state of its table; kept while the names in the
        tables directory stay the same."""
        names = listing(self._path(DEFAULT_GAME).parent)
        if self._games is None or self._games[0] != names:
            self._games = names, [{"game": "necnon", "board": str(game.grid), "protocol": game.setting,
                                   "table": self._table_state(game)} for game in _every_game()]
        return self._games[1]

    def catalogue(self) -> JSONObject:
        """What ``/api/games`` says of NECNON beside the lists when it is the default game: its default
        board and protocol."""
        return {"default": {"board": str(DEFAULT_GAME.grid), "protocol": DEFAULT_GAME.setting}}

    def _table_state(self, game: Game) -> str:
        path = self._path(game)
        if is_present(path):
            return "ready"
        if game.grid.cells <= UNASKED_CELLS and buildable(path):
            return "on demand"
        try:
            check_solvable(game.grid)
        except InputError:
            return "too large"
        return "missing"

    def _path(self, game: Game) -> Location:
        return table_path(game) if self._directory is None else self._directory / table_path(game).name

    def _tablebase(self, game: Game) -> Tablebase:
        """A tablebase for one request, ``game``'s table already at hand (opened, reopened or built now)."""
        tablebase = Tablebase(opener=self._table)
        tablebase.table(game)
        return tablebase

    def _table(self, game: Game) -> Table:
        """``game``'s table as it is on disk now; a missing one that is not built on demand is said to
        the page by how to build it (or that none can be), not by where the server keeps it."""
        build = partial(_build_command, game) if game.grid.cells <= UNASKED_CELLS else None
        try:
            return self._tables.get(str(game), self._path(game), partial(open_table, game), build)
        except MissingTableError:
            if build is not None:
                raise
            if self._table_state(game) == "too large":
                raise MissingTableError(f"no table for {game}: the board has more cells than the solver takes "
                                        f"(the search engine plays it: /api/search)") from None
            raise MissingTableError(f"no table for {game} on this server (build it with: "
                                    f"{solve_command(game)})") from None


def _played(position: Position, turns: tuple[Turn, ...]) -> list[Position]:
    """The position after each of ``turns`` played from ``position``."""
    after = []
    for turn in turns:
        position = position.play(turn)
        after.append(position)
    return after


def _every_game() -> list[Game]:
    """Every board (squares by width, then height; then hexhex by base) under every protocol setting."""
    grids = [Grid.square(width, height) for width in range(MIN_SIDE, MAX_SIDE + 1)
             for height in range(MIN_SIDE, MAX_SIDE + 1)]
    grids += [Grid.hexhex(base) for base in range(MIN_BASE, MAX_BASE + 1)]
    return [Game(grid, *protocols) for grid in grids for protocols in SETTINGS.values()]


@lru_cache(maxsize=64)
def game_of(board: str, protocol: str) -> Game:
    """The game of a board and a protocol setting by name, made once; raises as :meth:`Game.of
    <solver.necnon.model.rules.Game.of>` does."""
    return Game.of(board, protocol)


@lru_cache(maxsize=16)
def _grid_object(grid: Grid) -> JSONObject:
    return report.grid_object(grid)


def read_start(parameters: Mapping[str, str]) -> Position:
    """The position ``parameters`` name before their turns (see the module docstring), the board and the
    protocol checked first. Raises :class:`~solver.core.errors.InputError` naming what is wrong."""
    text = parameters.get("position", "empty")
    board = parameters.get("board")
    game = game_of(board if board is not None else str(notation_grid(text) or DEFAULT_GAME.grid),
                   parameters.get("protocol", DEFAULT_GAME.setting))
    return Position.parse(text, game)


def read_seconds(text: str | None) -> float:
    """A search's thinking time: ``text`` (None: :data:`SEARCH_SECONDS`) seconds, more than 0 and at most
    :data:`MAX_SEARCH_SECONDS`; :class:`~solver.web.game_api.ApiError` otherwise."""
    if text is None:
        return SEARCH_SECONDS
    if not _SECONDS.fullmatch(text) or not 0 < float(text) <= MAX_SEARCH_SECONDS:
        raise ApiError(f"seconds {text[:20]!r} is not a number of seconds above 0 and at most {MAX_SEARCH_SECONDS:g}")
    return float(text)


def _build_command(game: Game, out: Path) -> list[str]:
    """The child process that writes ``game``'s table to ``out``: this module run as a program."""
    return [sys.executable, "-m", "solver.necnon.web.api", str(game.grid), game.setting, str(out)]


def build_into(board: str, protocol: str, out: str) -> None:
    """Write the table of ``board`` and ``protocol`` to ``out`` (the work of a build's child process)."""
    build_table(Game.of(board, protocol), Path(out))


if __name__ == "__main__":
    run_child(build_into, sys.argv[1:])

"""The explorer's JSON API, apart from HTTP: an endpoint and its parameters in, a JSON object out.

Every value is from the point of view of the side to move (see :mod:`solver.neutreeko.probe`)::

    GET /api/position?position=P[&moves=M][&board=B][&rule=R]
        the ``neutreeko query --json`` object (:func:`solver.neutreeko.report.query_object`) of P
        after the moves M: its value and every move best first, each with its resulting position
    GET /api/line?position=P[&moves=M][&board=B][&rule=R][&max_plies=N]
        the ``neutreeko line --json`` object (:func:`solver.neutreeko.report.line_object`) of the
        perfect-play line from there, stopped after N plies (default and most: :data:`MAX_LINE_PLIES`)
    GET /api/annotate?position=P[&moves=M][&board=B][&rule=R]
        the ``neutreeko annotate --json`` object (:func:`solver.neutreeko.annotate.annotation_object`)
        of the game of the moves M from P: every ply judged (best, inaccuracy, mistake, blunder, with
        the best moves), a summary per side, the first decisive error
    POST /api/annotate   (the body: a game record, see :mod:`solver.neutreeko.record`)
        the same object for the game the record describes (:meth:`Explorer.annotate_record`)
    GET /api/games
        {"games": [{"board": "5x5", "rule": "connected", "table": "ready"}, ...], "default": {...},
         "max_line_plies": 1000}: every board and rule, and whether its table is "ready", will be
        built on first use ("on demand": a board of at most 25 squares, about a second) or is "missing"
        (build it with ``neutreeko solve``)

P is a position in notation or ``start`` (the start of the board and rule; the default); M is move text
as ``--moves`` takes it (``FROM-TO`` separated by spaces, ``+`` in a URL, or commas, and optionally
numbered: ``1. C4-C3 D5-D2``), each move checked; B defaults to the board P is
written on (5 x 5 for ``start``) and R to ``connected``. The board and the rule are checked against the
known ones before any file is touched.

A request that cannot be answered raises :class:`ApiError` (HTTP 400, 404 for an unknown endpoint) or
an :class:`~solver.core.errors.InputError` naming the problem (400); a damaged table raises
:class:`~solver.core.errors.TableError` (the server's fault: 500). :class:`Explorer` is safe to call from
several threads at once.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path

from solver.core.errors import InputError, MissingTableError
from solver.neutreeko import report
from solver.neutreeko.annotate import annotate, annotation_object
from solver.neutreeko.board import MAX_SIDE, MIN_SIDE
from solver.neutreeko.build import ensure_table, is_large
from solver.neutreeko.game import Game
from solver.neutreeko.position import Position
from solver.neutreeko.probe import Tablebase
from solver.neutreeko.record import after_moves, parse_record, read_moves
from solver.neutreeko.report import JSONObject
from solver.neutreeko.rules import DEFAULT_RULE, RULES, RuleError
from solver.neutreeko.table import Table, open_table, solve_command, table_path

#: The most plies ``/api/line`` answers with: its lines stop there ("stopped").
MAX_LINE_PLIES = 1000

_POSITION_PARAMETERS = ("position", "moves", "board", "rule")
#: Each endpoint and the parameters it reads.
ENDPOINTS: dict[str, tuple[str, ...]] = {
    "/api/position": _POSITION_PARAMETERS,
    "/api/line": (*_POSITION_PARAMETERS, "max_plies"),
    "/api/annotate": _POSITION_PARAMETERS,
    "/api/games": (),
}
_PLIES = re.compile(r"[0-9]{1,4}")


class ApiError(InputError):
    """A request the API cannot answer, with the HTTP status to answer it with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Explorer:
    """Answers the API's requests from the tables in ``directory`` (default: the tables directory).
    A missing table of a board of at most 25 squares (5 x 5) is built on first use, as every command
    builds it (:func:`~solver.neutreeko.build.ensure_table`); ``announce`` is told, in words, when a
    build starts and ends. A request for another game waits while a table is opened or built."""

    def __init__(self, directory: Path | None = None, announce: Callable[[str], None] = lambda message: None) -> None:
        self._directory = directory
        self._announce = announce
        self._tablebase = Tablebase(opener=self._open)
        self._opening = threading.Lock()

    def answer(self, endpoint: str, parameters: Mapping[str, str]) -> JSONObject:
        """The JSON object ``endpoint`` answers with for ``parameters`` (see the module docstring)."""
        if endpoint not in ENDPOINTS:
            raise ApiError(f"no endpoint {endpoint}; the API has {', '.join(ENDPOINTS)}", 404)
        unknown = sorted(set(parameters) - set(ENDPOINTS[endpoint]))
        if unknown:
            known = ", ".join(ENDPOINTS[endpoint]) or "none"
            raise ApiError(f"unknown parameter {unknown[0]!r} for {endpoint}; it takes: {known}")
        if endpoint == "/api/games":
            return self.games()
        if endpoint == "/api/annotate":
            start = read_start(parameters)
            moves = read_moves(start, _move_text(parameters))
            self._ready(start.game)
            return annotation_object(annotate(self._tablebase, start, moves))
        position = read_position(parameters)
        self._ready(position.game)
        if endpoint == "/api/line":
            plies = parameters.get("max_plies", str(MAX_LINE_PLIES))
            if not _PLIES.fullmatch(plies) or int(plies) > MAX_LINE_PLIES:
                raise ApiError(f"max_plies {plies[:20]!r} is not a whole number from 0 to {MAX_LINE_PLIES}")
            return report.line_object(self._tablebase.line(position, int(plies)))
        return report.query_object(position, self._tablebase.probe(position), self._tablebase.moves(position))

    def annotate_record(self, text: str) -> JSONObject:
        """The annotation object (as ``/api/annotate`` answers) of the game record ``text``; raises
        :class:`~solver.neutreeko.record.RecordError` naming the line of a record that cannot be read."""
        record = parse_record(text)
        self._ready(record.start.game)
        return annotation_object(annotate(self._tablebase, record.start, record.moves))

    def games(self) -> JSONObject:
        """Every board and rule the explorer knows, with the state of its table."""
        games = []
        for width in range(MIN_SIDE, MAX_SIDE + 1):
            for height in range(MIN_SIDE, MAX_SIDE + 1):
                for rule in RULES:
                    try:
                        game = game_of(f"{width}x{height}", rule)
                    except RuleError:
                        continue
                    games.append({"board": str(game.board), "rule": rule, "table": self._table_state(game)})
        return {"games": games, "default": {"board": str(Game.of().board), "rule": DEFAULT_RULE},
                "max_line_plies": MAX_LINE_PLIES}

    def _table_state(self, game: Game) -> str:
        if self._path(game).is_file():
            return "ready"
        return "missing" if is_large(game) else "on demand"

    def _path(self, game: Game) -> Path:
        return table_path(game) if self._directory is None else self._directory / table_path(game).name

    def _ready(self, game: Game) -> None:
        """Open ``game``'s table (building it if it may be) once, whichever thread asks first."""
        with self._opening:
            self._tablebase.table(game)

    def _open(self, game: Game) -> Table:
        path = self._path(game)
        if is_large(game):
            try:
                return open_table(game, path)
            except MissingTableError:  # said to the page: how to build it, not where the server keeps it
                raise MissingTableError(f"no table for {game} on this server (build it with: "
                                        f"{solve_command(game)})") from None
        began: list[float] = []

        def building(path: Path) -> None:
            began.append(time.perf_counter())
            self._announce(f"building the {game} table at {path} (first use) ...")

        table = ensure_table(game, path, on_build=building)
        if began:
            self._announce(f"built the {game} table in {time.perf_counter() - began[0]:.1f} s")
        return table


@lru_cache(maxsize=64)
def game_of(board: str, rule: str) -> Game:
    """The game of a board and a rule by name, made once (its lookup tables with it); raises as
    :meth:`Game.of <solver.neutreeko.game.Game.of>` does."""
    return Game.of(board, rule)


def read_start(parameters: Mapping[str, str]) -> Position:
    """The position ``parameters`` name before their moves (see the module docstring), the board and
    the rule checked first. Raises :class:`~solver.core.errors.InputError` naming what is wrong."""
    rule = parameters.get("rule", DEFAULT_RULE)
    board = parameters.get("board")
    return Position.parse(parameters.get("position", "start"), rule, None if board is None else game_of(board, rule))


def read_position(parameters: Mapping[str, str]) -> Position:
    """The position ``parameters`` describe: :func:`read_start` after their moves, each checked."""
    return after_moves(read_start(parameters), _move_text(parameters))


def _move_text(parameters: Mapping[str, str]) -> str:
    return parameters.get("moves", "").replace(",", " ")

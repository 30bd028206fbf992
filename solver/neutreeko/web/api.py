"""Neutreeko's part of the explorer's JSON API (``game=neutreeko``, the default; see
:mod:`solver.web.api`): an endpoint and its parameters in, a JSON object out.

:class:`NeutreekoApi` answers ``/api/position``, ``/api/line``, ``/api/annotate``, ``/api/game``,
``/api/record``, ``/api/positions``, ``/api/stats``, ``/api/puzzles``, ``/api/try`` and ``/api/games`` with the objects of
:mod:`solver.neutreeko.querying.report`, :mod:`solver.neutreeko.playing.annotate` and
:mod:`solver.neutreeko.web.training`, every value from the point of view of the side to move (see
:mod:`solver.neutreeko.querying.probe`), a line of at most :data:`MAX_LINE_PLIES` plies. The endpoints,
their parameters and answers: docs/reference/json-api.md.

A request that cannot be answered raises :class:`~solver.web.game_api.ApiError` (HTTP 400; 413 for a
game tree larger than :func:`~solver.web.game_api.check_tree` allows) or an
:class:`~solver.core.errors.InputError` naming the problem (400), before any file is touched; a damaged
table, or one that could not be built, raises :class:`~solver.core.errors.TableError` (the server's
fault: 500), and a table being built :class:`~solver.web.tables.BusyError` (503). :class:`NeutreekoApi`
is safe to call from several threads at once.

Run as ``python -m solver.neutreeko.web.api BOARD RULE OUT``, the module is the child process that
builds a table on demand (see :mod:`solver.web.tables`): it writes the table of BOARD and RULE to OUT.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping, Sequence
from functools import lru_cache, partial
from itertools import count
from pathlib import Path

from solver.core.answers.record import Variation
from solver.core.errors import MissingTableError
from solver.core.storage.remote import Location
from solver.neutreeko.model.board import MAX_SIDE, MIN_SIDE
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Move, Position
from solver.neutreeko.model.rules import DEFAULT_RULE, RULES, RuleError
from solver.neutreeko.playing.annotate import annotate, annotation_object, judge, ply_object
from solver.neutreeko.playing.record import (
    GameRecord,
    after_moves,
    parse_record,
    read_moves,
    read_playable,
    read_variations,
)
from solver.neutreeko.querying import report
from solver.neutreeko.querying.bulk import answer_lines
from solver.neutreeko.querying.probe import Tablebase
from solver.neutreeko.tables.build import build_table, is_large
from solver.neutreeko.tables.stats import COUNT_NAMES
from solver.neutreeko.tables.table import Table, open_table, solve_command, table_path
from solver.neutreeko.web import training
from solver.neutreeko.web.summaries import Summaries
from solver.web.game_api import ApiError, JSONObject, check_tree, position_lines, variation_objects
from solver.web.tables import Builds, LiveTables, buildable, is_present, listing, run_child

#: The most plies ``/api/line`` answers with: its lines stop there ("stopped").
MAX_LINE_PLIES = 1000

_POSITION_PARAMETERS = ("position", "moves", "board", "rule")
#: Each endpoint and the parameters it reads.
ENDPOINTS: dict[str, tuple[str, ...]] = {
    "/api/position": _POSITION_PARAMETERS,
    "/api/line": (*_POSITION_PARAMETERS, "max_plies"),
    "/api/annotate": _POSITION_PARAMETERS,
    "/api/game": _POSITION_PARAMETERS,
    "/api/record": _POSITION_PARAMETERS,
    "/api/stats": ("board", "rule"),
    "/api/puzzles": training.PUZZLES_PARAMETERS,
    "/api/try": training.TRY_PARAMETERS,
}
#: The endpoints that take a POST's body (a game record; positions one a line), and the parameters each
#: reads from the URL.
POSTED: dict[str, tuple[str, ...]] = {"/api/annotate": (), "/api/game": (), "/api/positions": ("board", "rule")}
_PLIES = re.compile(r"[0-9]{1,4}")


class NeutreekoApi:
    """Answers Neutreeko's requests from the tables in ``directory`` (default: the tables directory).
    A missing table of a board of at most 25 squares (5 x 5) is built on first use by ``builds``, in a
    child process, one at a time (see :mod:`solver.web.tables`). A table replaced or deleted on disk is
    noticed at the next request. A request for a ready table never waits for a build."""

    endpoints = ENDPOINTS
    posted = POSTED

    def __init__(self, directory: Location | None = None, builds: Builds | None = None,
                 summaries: Summaries | None = None) -> None:
        self._directory = directory
        self._tables: LiveTables[Table] = LiveTables(builds or Builds())
        self._summaries = summaries or Summaries()
        self._games: tuple[frozenset[str] | None, list[JSONObject]] | None = None  # the directory's names, the list

    def answer(self, endpoint: str, parameters: Mapping[str, str]) -> JSONObject:
        """The JSON object ``endpoint`` (one of :data:`ENDPOINTS`) answers with for ``parameters`` (see the
        module docstring)."""
        if endpoint == "/api/game":
            return self.game(read_start(parameters), _move_text(parameters))
        if endpoint == "/api/record":
            return self.record(read_start(parameters), _move_text(parameters))
        if endpoint == "/api/stats":
            return self.stats(game_of(parameters.get("board", str(Game.of().board)),
                                      parameters.get("rule", DEFAULT_RULE)))
        if endpoint == "/api/puzzles":
            game = game_of(parameters.get("board", str(Game.of().board)), parameters.get("rule", DEFAULT_RULE))
            return training.puzzles(self._tablebase(game), game, parameters)
        if endpoint == "/api/annotate":
            start = read_start(parameters)
            moves = read_moves(start, _move_text(parameters))
            return annotation_object(annotate(self._tablebase(start.game), start, moves))
        position = read_position(parameters)
        tablebase = self._tablebase(position.game)
        if endpoint == "/api/try":
            return training.try_move(tablebase, position, parameters.get("move"))
        if endpoint == "/api/line":
            plies = parameters.get("max_plies", str(MAX_LINE_PLIES))
            if not _PLIES.fullmatch(plies) or int(plies) > MAX_LINE_PLIES:
                raise ApiError(f"max_plies {plies[:20]!r} is not a whole number from 0 to {MAX_LINE_PLIES}")
            return report.line_object(tablebase.line(position, int(plies)))
        return report.query_object(position, tablebase.probe(position), tablebase.moves(position))

    def answer_body(self, endpoint: str, parameters: Mapping[str, str], text: str) -> JSONObject:
        """The JSON object ``endpoint`` (one of :data:`POSTED`) answers with for the body ``text``."""
        if endpoint == "/api/positions":
            return self.positions(game_of(parameters.get("board", str(Game.of().board)),
                                          parameters.get("rule", DEFAULT_RULE)), position_lines(text))
        return self.annotate_record(text) if endpoint == "/api/annotate" else self.game_record(text)

    def positions(self, game: Game, lines: list[str]) -> JSONObject:
        """``{"answers": [...], "errors": n}``: each of ``lines`` answered as ``query -`` answers it (the
        ``query --json`` object without its moves, or an error object ``{"line", "input", "error"}``)."""
        answers = answer_lines(lines, self._tablebase(game), game)
        return {"answers": [json.loads(text) for text in answers.texts], "errors": answers.errors}

    def annotate_record(self, text: str) -> JSONObject:
        """The annotation object (as ``/api/annotate`` answers) of the game record ``text``; raises
        :class:`~solver.core.answers.record.RecordError` naming the line of a record that cannot be read."""
        record = parse_record(text)
        check_tree(record.moves, record.variations)
        return annotation_object(annotate(self._tablebase(record.start.game), record.start, record.moves))

    def game(self, start: Position, text: str) -> JSONObject:
        """The ``/api/game`` object of the move text ``text`` (variations included) from ``start``: read
        while each token is legal and its game goes on (see :func:`~solver.neutreeko.playing.record.read_playable`);
        the first that is not is refused."""
        moves, variations, refused = read_playable(start, text)
        return self._game_object(start, moves, variations, refused)

    def game_record(self, text: str) -> JSONObject:
        """The ``/api/game`` object of the game record ``text``, its variations included; raises
        :class:`~solver.core.answers.record.RecordError` naming the line of a record that cannot be read."""
        record = parse_record(text)
        return self._game_object(record.start, record.moves, record.variations, None)

    def record(self, start: Position, text: str) -> JSONObject:
        """``{"record": the text of the game record}`` of the move text ``text`` (variations included)
        from ``start``; raises :class:`~solver.core.answers.record.RecordError` for a move that is wrong."""
        moves, variations = read_variations(start, text)
        check_tree(moves, variations)
        return {"record": GameRecord(start, moves, (), variations).text()}

    def stats(self, game: Game) -> JSONObject:
        """The ``/api/stats`` object of ``game``'s table (see the module docstring): counted in this
        thread, or being counted in the background (see :class:`~solver.neutreeko.web.summaries.Summaries`)."""
        tablebase = self._tablebase(game)
        table = tablebase.table(game)
        start = Position.start(game)
        value = {"start": report.position_object(start, tablebase.probe(start))}
        summary = self._summaries.summary(table)
        if summary is None:
            stated = {name: table.attributes[name] for name in COUNT_NAMES}
            return {"counting": True, "board": str(game.board), "rule": game.rule.name, **stated, **value}
        return {"counting": False, **report.stats_object(game, summary), **value}

    def _game_object(self, start: Position, moves: Sequence[Move], variations: Sequence[Variation[Move]],
                     refused: str | None) -> JSONObject:
        check_tree(moves, variations)
        tablebase = self._tablebase(start.game)

        def node(position: Position) -> JSONObject:
            return report.query_object(position, tablebase.probe(position), tablebase.moves(position))

        def said(variation: Variation[Move], before: Position, after: list[Position]) -> JSONObject:
            judged = [judge(tablebase, start, ply, position, move)
                      for ply, position, move in zip(count(variation.ply), [before, *after], variation.moves)]
            return {"ply": variation.ply, "positions": [node(each) for each in after],
                    "moves": [ply_object(each) for each in judged]}

        positions = [start]
        for move in moves:
            positions.append(positions[-1].play(move))
        return {"start": "start" if start == Position.start(start.game) else start.fen(),
                "positions": [node(each) for each in positions],
                "annotation": annotation_object(annotate(tablebase, start, moves)), "refused": refused,
                "variations": variation_objects(positions, variations, Position.play, said)}

    def games(self) -> list[JSONObject]:
        """Every board and rule, with the state of its table; the list is kept while the names in the
        tables directory stay the same (a table added, removed or renamed into place changes them;
        listing them costs microseconds, making the list tens of milliseconds)."""
        names = listing(self._path(Game.of()).parent)
        if self._games is None or self._games[0] != names:
            self._games = names, self._list_games()
        return self._games[1]

    def catalogue(self) -> JSONObject:
        """What ``/api/games`` says of Neutreeko beside its list: the default board and rule, and the
        longest line ``/api/line`` answers."""
        return {"default": {"board": str(Game.of().board), "rule": DEFAULT_RULE}, "max_line_plies": MAX_LINE_PLIES}

    def _list_games(self) -> list[JSONObject]:
        games = []
        for width in range(MIN_SIDE, MAX_SIDE + 1):
            for height in range(MIN_SIDE, MAX_SIDE + 1):
                for rule in RULES:
                    try:
                        game = game_of(f"{width}x{height}", rule)
                    except RuleError:
                        continue
                    games.append({"game": "neutreeko", "board": str(game.board), "rule": rule,
                                  "table": self._table_state(game)})
        return games

    def _table_state(self, game: Game) -> str:
        path = self._path(game)
        if is_present(path):
            return "ready"
        return "missing" if is_large(game) or not buildable(path) else "on demand"

    def _path(self, game: Game) -> Location:
        return table_path(game) if self._directory is None else self._directory / table_path(game).name

    def _tablebase(self, game: Game) -> Tablebase:
        """A tablebase for one request, ``game``'s table already at hand (opened, reopened or built
        now): so that a request is answered from one file, and an error is raised before any work."""
        tablebase = Tablebase(opener=self._table)
        tablebase.table(game)
        return tablebase

    def _table(self, game: Game) -> Table:
        """``game``'s table as it is on disk now (see :class:`~solver.web.tables.LiveTables`); a missing
        large table is said to the page by how to build it, not by where the server keeps it."""
        build = None if is_large(game) else partial(_build_command, game)
        try:
            return self._tables.get(str(game), self._path(game), partial(open_table, game), build)
        except MissingTableError:
            if build is not None:
                raise
            raise MissingTableError(f"no table for {game} on this server (build it with: "
                                    f"{solve_command(game)})") from None


def _build_command(game: Game, out: Path) -> list[str]:
    """The child process that writes ``game``'s table to ``out``: this module run as a program."""
    return [sys.executable, "-m", "solver.neutreeko.web.api", str(game.board), game.rule.name, str(out)]


def build_into(board: str, rule: str, out: str) -> None:
    """Write the table of ``board`` and ``rule`` to ``out`` (the work of a build's child process)."""
    build_table(Game.of(board, rule), Path(out))


@lru_cache(maxsize=64)
def game_of(board: str, rule: str) -> Game:
    """The game of a board and a rule by name, made once (its lookup tables with it); raises as
    :meth:`Game.of <solver.neutreeko.model.game.Game.of>` does."""
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


if __name__ == "__main__":
    run_child(build_into, sys.argv[1:])

"""The registry of games: every game the command line, the explorer and releases know.

A game is registered by one line of :data:`BUILTIN` (the package that defines its ``GAME``), by an
entry point of the group :data:`ENTRY_POINTS` (``name = "package:GAME"``, for games installed apart),
or at run time by :func:`register`. Nothing outside a game's package and this module names a game.
A built-in game's command starts without reading the entry points (``importlib.metadata`` is slow
to import): :func:`default` and :func:`program` look at the built-in and registered games first.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path

from solver.core.answers.notation import quote
from solver.core.errors import InputError, TableError
from solver.core.games import GameEntry, load

#: The packages of the games shipped with the package, the first being the default game.
BUILTIN = ("solver.neutreeko:GAME", "solver.necnon:GAME")
#: The entry-point group through which installed packages add games.
ENTRY_POINTS = "neutreeko_solver.games"

_registered: list[GameEntry] = []
_discovered: tuple[GameEntry, ...] | None = None


def register(entry: GameEntry) -> None:
    """Add ``entry`` to the games (a game of the same name already there is replaced: see :func:`games`)."""
    global _discovered
    _registered.append(entry)
    _discovered = None


def games() -> tuple[GameEntry, ...]:
    """Every game: the built-in ones, then those of entry points, then those registered, by name once
    each (a later one replaces an earlier of the same name)."""
    global _discovered
    if _discovered is None:
        from importlib.metadata import entry_points
        installed = [point.load() for point in entry_points(group=ENTRY_POINTS)]
        _discovered = _once(*_builtin(), *installed, *_registered)
    return _discovered


@cache
def _builtin() -> tuple[GameEntry, ...]:
    return tuple(load(spec) for spec in BUILTIN)


def _once(*entries: GameEntry) -> tuple[GameEntry, ...]:
    """``entries`` by name once each, a later one replacing an earlier, in the order of first appearance."""
    return tuple({entry.name: entry for entry in entries}.values())


def _known() -> tuple[GameEntry, ...]:
    """The built-in games and those registered, without reading the entry points."""
    return _once(*_builtin(), *_registered)


def default() -> GameEntry:
    """The default game: the first built-in one."""
    return _known()[0]


def _named(name: object) -> GameEntry | None:
    return next((entry for entry in games() if entry.name == name), None)


def game(name: str) -> GameEntry:
    """The game called ``name``; :class:`~solver.core.errors.InputError` naming the games if there is none."""
    entry = _named(name)
    if entry is not None:
        return entry
    raise InputError(f"unknown game {quote(name)}; the games are {', '.join(entry.name for entry in games())}")


def program(name: str) -> GameEntry | None:
    """The game whose command is ``name``, if any; the entry points are read only if no built-in or
    registered game has that command."""
    for known in (_known, games):
        entry = next((entry for entry in known() if entry.program == name), None)
        if entry is not None:
            return entry
    return None


def of_table(attributes: Mapping[str, object], path: Path) -> GameEntry:
    """The game of the table at ``path`` whose attributes are ``attributes``: the one its ``game``
    attribute names (the default game's tables of the first format have none); :class:`~solver.core.errors.TableError` if
    no game has that name."""
    name = attributes.get("game", default().name)
    entry = _named(name)
    if entry is not None:
        return entry
    raise TableError(f"{path} is a table of no game this program knows ({quote(str(name))})")

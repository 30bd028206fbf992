"""What the games' tablebases share: tables opened on first use and kept, by game, in an object that is
a context manager (leaving it forgets them)."""

from __future__ import annotations

from types import TracebackType
from typing import Any, Callable, Generic, Hashable, TypeVar

Game = TypeVar("Game")
Table = TypeVar("Table")
Opened = TypeVar("Opened", bound="OpenedTables[Any, Any]")


class OpenedTables(Generic[Game, Table]):
    """The tables of games, each opened by ``opener`` the first time it is asked for, then kept under
    ``key(game)`` until :meth:`close`."""

    def __init__(self, opener: Callable[[Game], Table], key: Callable[[Game], Hashable] = lambda game: game) -> None:
        self._opener = opener
        self._key = key
        self._tables: dict[Hashable, Table] = {}

    def __enter__(self: Opened) -> Opened:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Forget the opened tables (they are reopened if asked for again)."""
        self._tables.clear()

    def table(self, game: Game) -> Table:
        """``game``'s table, opened on first use. Raises what the opener raises: for a missing table
        :class:`~solver.core.errors.MissingTableError` (a ``KeyError``), for one that cannot be used
        :class:`~solver.core.errors.TableError`."""
        key = self._key(game)
        if key not in self._tables:
            self._tables[key] = self._opener(game)
        return self._tables[key]


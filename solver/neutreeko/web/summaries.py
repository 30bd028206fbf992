"""The summaries of a server's Neutreeko tables (:attr:`Table.summary
<solver.neutreeko.tables.table.Table.summary>`, what ``neutreeko stats`` prints), each counted once while its
table stays open, the large ones in the background.

Why: a table's summary is counted by reading every chunk of it, in bounded memory but in time that grows
with the table, long on the larger boards. A request thread must not wait that long, so:

- a table of at most :data:`BACKGROUND_INDICES` indices (a board of at most 36 squares) is counted when it
  is first asked for, in the request's thread;
- a larger one is counted in a thread of its own, one count at a time for the server: the request that
  asks for it first, and any other before the count ends, get None at once (the page then shows the counts
  the table's attributes state, which its header's digest has verified, and asks again); a request for
  another large table while a count runs starts nothing, and its count starts at a request after the
  count under way has ended.

A summary (a few hundred bytes) is kept as long as its :class:`~solver.neutreeko.tables.table.Table` object
lives: the server's tables (:class:`~solver.web.tables.LiveTables`) open a table again when its file
changes, and the new object has no summary until it is counted. A count that fails (a damaged chunk) is
kept in the same way, as its error, so that a damaged table is not read again at every request.
"""

from __future__ import annotations

import threading
import weakref

from solver.core.errors import TableError
from solver.neutreeko.tables.stats import Summary
from solver.neutreeko.tables.table import Table
from solver.web.tables import reason

#: The most indices of a table counted in the request's thread: every board of at most 36 squares (6 x 6),
#: none larger (6 x 7, 7 x 7), whose count would keep a request waiting.
BACKGROUND_INDICES = 50_000_000


class Summaries:
    """The summaries of tables, counted once each (see the module docstring); those of more than
    ``background_indices`` indices in the background, one at a time. Safe to call from several threads."""

    def __init__(self, background_indices: int = BACKGROUND_INDICES) -> None:
        self._background_indices = background_indices
        self._lock = threading.Lock()  # guards the two fields below
        self._known: weakref.WeakKeyDictionary[Table, Summary | TableError] = weakref.WeakKeyDictionary()
        self._counting: Table | None = None

    def summary(self, table: Table) -> Summary | None:
        """``table``'s summary, or None while a thread counts it (started now if none is counting).

        Raises :class:`~solver.core.errors.TableError` if its data does not agree with its attributes
        (now, or when its count ended)."""
        with self._lock:
            known = self._known.get(table)
            if known is None and table.game.positions > self._background_indices:
                if self._counting is None:
                    self._counting = table
                    threading.Thread(target=self._count, args=(table,), name=f"summary of {table.game}",
                                     daemon=True).start()
                return None
        if known is None:
            known = self._count(table)
        if isinstance(known, TableError):
            raise known
        return known

    def _count(self, table: Table) -> Summary | TableError:
        """Count ``table``, keep what it gave (its summary or why not), and return it. In a thread of its
        own (its daemon flag set: a count only reads, and stopping the server need not wait for it), an
        error is kept for the requests to raise; so is one of the system's (memory, a read), in its
        words, so that a table that cannot be counted is not counted again at every request."""
        try:
            known: Summary | TableError = table.summary
        except TableError as error:
            known = error
        except Exception as error:
            known = TableError(f"cannot count the {table.game} table: {reason(error)}")
        with self._lock:
            self._known[table] = known
            if self._counting is table:
                self._counting = None
        return known

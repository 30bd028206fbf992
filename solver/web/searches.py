"""At most one search at a time per server: a search keeps a core busy for its whole thinking time, so
two at once would each get half of it, and many would starve the requests answered from tables.

A request arriving while a search runs waits for it, at most ``wait_seconds`` (by default as long as
the longest search may think, so that one request behind another is answered), then is refused with
:class:`~solver.web.tables.BusyError` (HTTP 503 and ``Retry-After``), saying why.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from solver.web.tables import BusyError


class OneSearch:
    """The gate every search of a server goes through, one at a time."""

    def __init__(self, wait_seconds: float) -> None:
        self._wait_seconds = wait_seconds
        self._lock = threading.Lock()

    @contextmanager
    def turn(self) -> Iterator[None]:
        """The block runs while no other search does; :class:`~solver.web.tables.BusyError` if another still runs after
        ``wait_seconds``."""
        if not self._lock.acquire(timeout=self._wait_seconds):
            raise BusyError(f"the search engine is thinking for another request (one search at a time), still after "
                            f"{self._wait_seconds:g} s; ask again in a few seconds")
        try:
            yield
        finally:
            self._lock.release()

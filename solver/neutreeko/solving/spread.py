"""A serial kernel run over a range on several threads, one contiguous piece of the range each: what
numba's ``prange`` does, without a parallel kernel, whose compiling costs a first run several times
the serial kernel's. The kernels release the interpreter's lock (``nogil``), so the pieces run at once."""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor


@functools.lru_cache(maxsize=None)
def _pool(threads: int) -> ThreadPoolExecutor:
    """The threads besides the calling one that run pieces, started on first use."""
    return ThreadPoolExecutor(threads - 1, thread_name_prefix="solve")


def spread(run: Callable[[int, int], object], first: int, last: int, threads: int) -> None:
    """Call ``run(a, b)`` on the pieces of ``first`` to ``last`` cut into at most ``threads``
    contiguous ones of about equal length, all at once, one in the calling thread; return once every
    piece has ended, raising the first failure."""
    pieces = max(0, min(threads, last - first))
    bounds = [first + (last - first) * k // max(pieces, 1) for k in range(pieces + 1)]
    others = [_pool(threads).submit(run, a, b) for a, b in zip(bounds[:-2], bounds[1:-1])] if pieces > 1 else []
    try:
        if pieces:
            run(bounds[-2], bounds[-1])
    finally:
        for piece in others:
            piece.result()

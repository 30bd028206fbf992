"""What every game of the package shares, and nothing that knows a game.

* :mod:`~solver.core.errors`: the errors a user can cause, and the exit codes they map to;
* :mod:`~solver.core.files`: files written so that nothing is lost;
* :mod:`~solver.core.games`: what a game tells the registry about itself;
* :mod:`~solver.core.conformance`: a game's rules on a small board, as the test of every game reads them;
* :mod:`~solver.core.httpio`: what HTTP's server and client share: numbers of headers, timed reads;
* :mod:`~solver.core.interrupts`: stopping cleanly on SIGINT and SIGTERM;
* :mod:`~solver.core.jit`: numba's ``njit`` for the kernels, with their cache;
* :mod:`~solver.core.storage`: the table container, chunks, releases and downloads;
* :mod:`~solver.core.answers`: notation, records, marks, reports and terminal sessions;
* :mod:`~solver.core.drawing`: pictures as shapes, drawn as SVG or PNG.
"""

__all__ = ["MAX_SEED", "errors", "files", "games", "conformance", "httpio", "interrupts", "jit", "storage", "answers", "drawing"]

#: Seeds of every sampling, search and engine, in both games and on every interface: 0 to this.
MAX_SEED = 2**32 - 1

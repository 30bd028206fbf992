"""Stopping a command cleanly on SIGINT (Ctrl-C) or SIGTERM.

After :func:`install`, either signal raises an exception in the main thread, :class:`KeyboardInterrupt`
for SIGINT and :class:`Terminated` (a ``KeyboardInterrupt`` too) for SIGTERM, so that the same
``finally`` blocks clean up after both (a temporary file is removed, see :mod:`solver.core.files`) and
the command line exits with :func:`exit_status`.

Python ignores an exception raised while it runs a weak-reference callback or a ``__del__`` method (it
prints "Exception ignored in ..." and carries on), and h5py runs such code all the time it writes. So the
signal is also remembered: :func:`check` raises it again, and :func:`solver.core.files.replacing` calls
it before renaming a file into place, so that an interrupted command never replaces its output, however
the exception was lost; Python's report of the lost exception is left out. Without :func:`install` (the
package used as a library) nothing changes.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM was received."""


_EXIT_STATUS = {signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated", 143)}
_received: int | None = None


def install() -> None:
    """Make SIGINT and SIGTERM raise (see the module docstring) and remember them."""
    for number in _EXIT_STATUS:
        signal.signal(number, _raise)
    sys.unraisablehook = _unraisable


def _unraisable(unraisable: Any) -> None:
    """Python's report of an exception it could not raise, but for a signal's: that one is remembered."""
    if not (isinstance(unraisable.exc_value, KeyboardInterrupt) and _received is not None):
        sys.__unraisablehook__(unraisable)


def _raise(number: int, frame: FrameType | None) -> None:
    global _received
    if _received is None:
        _received = number
    raise _exception(number)


def _exception(number: int) -> KeyboardInterrupt:
    return Terminated() if number == signal.SIGTERM else KeyboardInterrupt()


def check() -> None:
    """Raise the exception of the first signal received since :func:`install`, if any."""
    if _received is not None:
        raise _exception(_received)


def exit_status(error: KeyboardInterrupt) -> tuple[str, int]:
    """The message and exit code of a command stopped by ``error``: ("interrupted", 130) or
    ("terminated", 143)."""
    return _EXIT_STATUS[signal.SIGTERM if isinstance(error, Terminated) else signal.SIGINT]

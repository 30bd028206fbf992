"""Stopping a command cleanly on SIGINT (Ctrl-C) or SIGTERM.

After :func:`install`, either signal raises an exception in the main thread, :class:`KeyboardInterrupt`
for SIGINT and :class:`Terminated` (a ``KeyboardInterrupt`` too) for SIGTERM, so that the same
``finally`` blocks clean up after both (a temporary file is removed, see :mod:`solver.core.files`) and
the command line exits with :func:`exit_status`.

Python ignores an exception raised while it runs a weak-reference callback or a ``__del__`` method (it
prints "Exception ignored in ..." and carries on), and h5py runs such code all the time it writes. So the
signal is also remembered: :func:`check` raises it again, and :func:`solver.core.files.replacing` calls
it before renaming a file into place, so that an interrupted command never replaces its output, however
the exception was lost; Python's report of the lost exception is left out.

Once the command has ended, :func:`settle` ignores both signals: one arriving then can cut neither the
line that says how it ended nor Python's exit short (Python gives the signals their default action back
as it exits, and that action ends the process without a word). Without :func:`install` (the package used
as a library) nothing changes.
"""

from __future__ import annotations

import signal
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # not at run time: this module is imported before any handler is, so it imports little
    from types import FrameType
    from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM was received."""


_EXIT_STATUS = {signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated", 143)}
_received: int | None = None
_installed = False
_settled = False


def install() -> None:
    """Make SIGINT and SIGTERM raise (see the module docstring) and remember them."""
    global _installed, _settled
    _installed, _settled = True, False
    sys.unraisablehook = _unraisable
    for number in _EXIT_STATUS:
        signal.signal(number, _raise)


def settle() -> None:
    """From now on ignore SIGINT and SIGTERM: the command has ended (its outcome is known) and is
    about to say so and exit (see the module docstring). Does nothing without :func:`install`, or
    again."""
    global _settled
    if not _installed or _settled:
        return
    _settled = True  # first: a signal handled from here on does not raise
    for number in _EXIT_STATUS:
        try:
            signal.signal(number, signal.SIG_IGN)
        except ValueError:  # not the main thread, which alone may change handlers: the flag does
            return


def _unraisable(unraisable: Any) -> None:
    """Python's report of an exception it could not raise, but for a signal's: that one is remembered."""
    if not (isinstance(unraisable.exc_value, KeyboardInterrupt) and _received is not None):
        sys.__unraisablehook__(unraisable)


def _raise(number: int, frame: FrameType | None) -> None:
    global _received
    if _settled:
        return
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

"""Saved states of a long solve, so that one stopped by Ctrl-C, SIGTERM or a power cut continues where
it was (``neutreeko solve --resume``) and ends with the bytes of a solve never stopped.

A solve saves its :class:`~solver.neutreeko.solving.levels.State` at the start of a level, once :attr:`Checkpoints.every`
seconds of solving have passed since the last save (so a solve of a few minutes saves none), in one
file beside its table: ``neutreeko-9x9.h5.solving``. The file is written as every output is
(:func:`solver.core.files.replacing`: a temporary file, flushed to disk, renamed into place), so a stop
at any moment leaves the previous state whole, and it is removed once the table is written::

    neutreeko-solver solve state 1\\n
    {"board": "9x9", "rule": "connected", "unit": "classes", "index_scheme": 1, "canonical_form": ...,
     "plies": 12, "done": ..., "seconds": ..., "arrays": [["words", "<u8", n], ["decided", "|u1", n],
     ["fresh", "<i8", n]], "sha256": "<hex>"}\\n
    the arrays' bytes, one after another

    sha256: of the other fields (JSON, keys sorted), then of the arrays' bytes

Taking a state up checks all of it: the game, the unit (a state of the solve over positions does not
continue one over classes), the index scheme and canonical form, the arrays' types and lengths, and
the digest of every field and byte; anything else is refused with :class:`StateError`. (The kernels
trust a state taken up: the digest guards against damage, not forgery.)
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from solver.core import files
from solver.core.errors import InputError
from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.symmetry import CANONICAL_FORM
from solver.neutreeko.solving.levels import State, Unit

_MAGIC = b"neutreeko-solver solve state 1\n"
#: The description line is far shorter; a longer one is not ours.
_LONGEST_LINE = 1 << 16
#: Seconds of solving between two saves, unless told otherwise: a save of 9 x 9 over classes (about a
#: gigabyte) takes some seconds, a level there a minute or more.
EVERY = 600.0
_ARRAYS = ("words", "decided", "fresh")


class StateError(InputError):
    """A saved state that cannot be taken up: damaged, not one, or of another solve."""


def _digest_of(description: dict[str, Any]) -> Any:
    """A SHA-256 begun with ``description`` (but its digest), so that the digest covers every field."""
    return hashlib.sha256(json.dumps(description, sort_keys=True).encode())


def state_path(table: Path) -> Path:
    """Where the solve of the table at ``table`` saves its state."""
    return table.with_name(table.name + ".solving")


@dataclass(frozen=True)
class Checkpoints:
    """The saved state of the solve of ``game`` over ``unit`` at ``path``: saved every ``every`` seconds
    of solving, taken up if ``resume``."""

    path: Path
    game: Game
    unit: Unit
    every: float = EVERY
    resume: bool = False

    def _description(self) -> dict[str, Any]:
        return {"board": str(self.game.board), "rule": self.game.rule.name, "unit": self.unit,
                "index_scheme": index.INDEX_SCHEME, "canonical_form": CANONICAL_FORM}

    def save(self, state: State) -> None:
        """Write ``state`` (atomically, durably) in place of the one saved before."""
        description = {**self._description(), "plies": state.plies, "done": state.done, "seconds": state.seconds,
                       "arrays": [[name, getattr(state, name).dtype.str, len(getattr(state, name))] for name in _ARRAYS]}
        digest = _digest_of(description)
        for name in _ARRAYS:
            digest.update(getattr(state, name).data.cast("B"))
        description["sha256"] = digest.hexdigest()
        try:
            with files.replacing(self.path) as temporary, open(temporary, "wb") as file:
                file.write(_MAGIC + json.dumps(description).encode() + b"\n")
                for name in _ARRAYS:
                    file.write(getattr(state, name).data.cast("B"))
        except OSError as error:
            raise StateError(f"cannot save the solve's state to {self.path}: {error.strerror or error}") from None

    def load(self, like: State) -> State | None:
        """The saved state, if ``resume`` and there is one; its arrays must have the types and lengths of
        ``like``'s (a new solve's). Raises :class:`StateError` if it cannot be taken up."""
        if not self.resume or not os.path.exists(self.path):
            return None
        try:
            with open(self.path, "rb") as file:
                description = self._read_description(file)
                arrays: dict[str, np.ndarray] = {}
                digest = _digest_of({key: value for key, value in description.items() if key != "sha256"})
                for name, dtype, length in description["arrays"]:
                    expected = getattr(like, name)
                    if (name, dtype, length) != (name, expected.dtype.str, len(expected)):
                        raise self._refused(f"its {name} are {length:,} of {dtype}, not {len(expected):,} of "
                                            f"{expected.dtype.str}")
                    arrays[name] = np.empty(length, dtype=expected.dtype)
                    view = arrays[name].data.cast("B")
                    if file.readinto(view) != len(view):
                        raise self._refused("it is cut short")
                    digest.update(view)
                if file.read(1) or digest.hexdigest() != description["sha256"]:
                    raise self._refused("its bytes are not those it was saved with")
        except OSError as error:
            raise StateError(f"cannot read the saved state {self.path}: {error.strerror or error}") from None
        return State(arrays["words"], arrays["decided"], arrays["fresh"], int(description["plies"]),
                     int(description["done"]), float(description["seconds"]))

    def _read_description(self, file: BinaryIO) -> dict[str, Any]:
        read = file.readline
        if read(len(_MAGIC)) != _MAGIC:
            raise self._refused("it is not a saved state of neutreeko-solver")
        try:
            description = json.loads(read(_LONGEST_LINE))
        except ValueError:
            raise self._refused("its description does not parse") from None
        if not isinstance(description, dict) or [name for name, *_ in description.get("arrays", [])] != list(_ARRAYS):
            raise self._refused("its description is not one of a solve")
        mine = self._description()
        theirs = {key: description.get(key) for key in mine}
        if theirs != mine:
            raise StateError(f"{self.path} is the saved state of the solve over {theirs['unit']} of "
                             f"{theirs['board']} {theirs['rule']} (index scheme {theirs['index_scheme']}), "
                             f"not of this one over {self.unit} of {self.game}; remove it, or solve without "
                             f"--resume")
        return description

    def _refused(self, why: str) -> StateError:
        return StateError(f"the saved state {self.path} cannot be taken up: {why}; remove it, or solve "
                          f"without --resume")

    def discard(self) -> None:
        """Remove the saved state, if any (the solve has ended and its table is written)."""
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass

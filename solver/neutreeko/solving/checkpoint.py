"""Saved states of a long solve, so that one stopped by Ctrl-C, SIGTERM or a power cut continues where
it was (``neutreeko solve --resume``) and ends with the bytes of a solve never stopped.

A solve saves its :class:`~solver.neutreeko.solving.levels.State` at the start of a level, once
:attr:`Checkpoints.every` seconds of solving have passed since the last save, in one file beside its
table (:func:`state_path`: ``neutreeko-9x9.h5.solving``), written as every output is
(:func:`solver.core.files.replacing`) and removed once the table is written. Taking a state up checks
all of it (the game, the unit, every field, the arrays and their digest, and that the arrays are those
of a solve at the start of its level); anything else is refused with :class:`StateError`, a state of
another solve with :class:`StateMismatchError`. The digest guards against damage, not forgery: a table
solved from a state taken up is checked again before it is written
(:func:`solver.neutreeko.tables.build.build_table`).

The file's layout and what the checks cannot see: docs/design/solver.md.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Callable

import numpy as np

from solver.core import files
from solver.core.errors import TableError, TableMismatchError
from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.symmetry import CANONICAL_FORM
from solver.neutreeko.model.values import ILLEGAL, MAX_DISTANCE, encode_result
from solver.neutreeko.solving import EVERY
from solver.neutreeko.solving.levels import Layout, State, Unit

_MAGIC = b"neutreeko-solver solve state 1\n"
#: The description line is far shorter; a longer one is not ours.
_LONGEST_LINE = 1 << 16
_ARRAYS = ("words", "decided", "fresh")
#: In the directory of a solve's state on a cluster (:mod:`solver.neutreeko.solving.cluster`): which level it
#: saved last, and the digest of each partition's file.
CLUSTER_STATE = "state.json"
#: Items of a state checked at a time (whole rows), which bounds the temporaries of the check.
_CHECKED = 1 << 22


def _whole(value: Any, least: int, most: int) -> bool:
    return type(value) is int and least <= value <= most


#: The fields of a description besides the solve's, each with what it must be in words and a test of it
#: (given the number of items the solve decides).
_FIELDS: dict[str, tuple[str, Callable[[Any, int], bool]]] = {
    "plies": (f"a distance from 0 to {MAX_DISTANCE}", lambda value, items: _whole(value, 0, MAX_DISTANCE)),
    "done": ("a count of the items decided", lambda value, items: _whole(value, 0, items)),
    "seconds": ("a time in seconds", lambda value, items: type(value) is float and 0 <= value < math.inf),
    "arrays": (f"the arrays {', '.join(_ARRAYS)}, each [name, type, length]",
               lambda value, items: type(value) is list and len(value) == len(_ARRAYS) and all(
                   type(array) is list and len(array) == 3 and array[0] == name and type(array[1]) is str
                   and _whole(array[2], 0, 1 << 62) for array, name in zip(value, _ARRAYS))),
    "sha256": ("a SHA-256 in hexadecimal", lambda value, items: type(value) is str and len(value) == 64),
}


class StateError(TableError):
    """A saved state (of a table being solved) that cannot be taken up: damaged, or not one."""


class StateMismatchError(StateError, TableMismatchError):
    """A saved state of another solve: another board, rule or unit."""


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

    def load(self, like: State, layout: Layout) -> State | None:
        """The saved state, if ``resume`` and there is one; its arrays must have the types and lengths of
        ``like``'s (a new solve's) and hold its items as ``layout`` says. Raises :class:`StateError` if it
        cannot be taken up."""
        if not self.resume or not os.path.exists(self.path):
            return None
        try:
            with open(self.path, "rb") as file:
                description = self._read_description(file, 8 * len(like.decided))
                arrays: dict[str, np.ndarray] = {}
                digest = _digest_of({key: value for key, value in description.items() if key != "sha256"})
                for name, dtype, length in description["arrays"]:
                    expected = getattr(like, name)
                    if (dtype, length) != (expected.dtype.str, len(expected)):
                        raise self._refused(f"its {name} are {length:,} of {dtype[:20]}, not {len(expected):,} of "
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
        state = State(arrays["words"], arrays["decided"], arrays["fresh"], description["plies"], description["done"],
                      description["seconds"])
        why = _inconsistency(state, layout, self.unit)
        if why:
            raise self._refused(why)
        return state

    def _read_description(self, file: BinaryIO, items: int) -> dict[str, Any]:
        """The description line of the state open as ``file``, once every field is of its type and in its
        range (``done`` at most ``items``) and the game and unit are this solve's."""
        read = file.readline
        if read(len(_MAGIC)) != _MAGIC:
            raise self._refused("it is not a saved state of neutreeko-solver")
        try:
            description = json.loads(read(_LONGEST_LINE))
        except (ValueError, RecursionError):  # RecursionError: brackets nested deeper than the parser goes
            raise self._refused("its description does not parse") from None
        mine = self._description()
        if not isinstance(description, dict) or description.keys() != {*mine, *_FIELDS}:
            raise self._refused("its description is not one of a solve")
        theirs = {key: str(description[key])[:60] for key in mine}
        if {key: description[key] for key in mine} != mine:
            raise StateMismatchError(f"{self.path} is the saved state of the solve over {theirs['unit']} of "
                                     f"{theirs['board']} {theirs['rule']} (index scheme {theirs['index_scheme']}), "
                                     f"not of this one over {self.unit} of {self.game}; remove it, or solve "
                                     f"without --resume")
        for name, (what, accepts) in _FIELDS.items():
            if not accepts(description[name], items):
                raise self._refused(f"its {name} is {json.dumps(description[name])[:60]}, not {what}")
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


def _inconsistency(state: State, layout: Layout, unit: Unit) -> str:
    """Why the arrays of ``state``, laid out as ``layout`` says, are not those of a solve at the start of
    its level ``state.plies``, or "" if they are: every illegal item decided :data:`ILLEGAL`; every
    decided legal item at a distance from 0 to ``plies``; every undecided one counting from 1 to
    ``layout.most`` moves; ``fresh[row]`` the row's items at distance ``plies`` (so that the kernels,
    which look for that many in the row and then read them as indices, find them all); ``done`` those
    at smaller distances."""
    length, rows = layout.row_length, len(layout.illegal_rows)
    result, code = state.result(rows * length), encode_result(state.plies)
    done = 0
    step = max(1, _CHECKED // length)
    for first in range(0, rows, step):
        last = min(first + step, rows)
        begin, end = first * length, last * length
        bits = np.unpackbits(state.decided[begin >> 3:(end + 7) >> 3], bitorder="little")
        decided = bits[begin & 7:][:end - begin].view(bool)
        read = result[begin:end]
        legal = np.repeat(~layout.illegal_rows[first:last], length)
        legal[max(layout.legal_end - begin, 0):] = False
        if np.any(~legal & ~(decided & (read == ILLEGAL))):
            return f"some of its illegal {unit} are not decided illegal"
        reached = legal & decided
        if np.any(reached & ((read == 0) | (read > code))):
            return f"some {unit} it has decided are at no distance from 0 to its plies ({state.plies})"
        if np.any(legal & ~decided & ((read == 0) | (read > layout.most))):
            return f"some of its undecided {unit} count no move, or more than {layout.most}"
        found = np.count_nonzero((reached & (read == code)).reshape(last - first, length), axis=1)
        wrong = np.flatnonzero(found != state.fresh[first:last])
        if len(wrong):
            row = first + int(wrong[0])
            return (f"it counts {int(state.fresh[row]):,} {unit} at distance {state.plies} in row {row}, where "
                    f"there are {int(found[row - first]):,}")
        done += int(np.count_nonzero(reached & (read < code)))
    if done != state.done:
        return f"its done is {state.done:,}, but it has decided {done:,} {unit} at distances below {state.plies}"
    return ""

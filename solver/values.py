"""The one-byte result of a position, as the solver produces it and the tables store it.

Values are always from the point of view of the side to move::

    byte   0        draw (never decided by the analysis: best play repeats forever)
    byte   1..254   decided at distance d = byte - 1 plies:
                    d odd  -> the side to move wins in d plies (its own winning move included)
                    d even -> the side to move loses in d plies (0: the other side has just won,
                              or the side to move has no move)
    byte   255      not a legal position (the side to move already has a winning triple)

One byte holds both the value and the distance, because a distance's parity gives its value.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

UNDECIDED = 0
ILLEGAL = 255
MAX_DISTANCE = 253

#: Human-readable description of the encoding, stored in every table.
ENCODING = "uint8: 0 draw; 255 illegal; else distance+1 in plies, odd distance = side to move wins"

Value = Literal["win", "loss", "draw"]


def encode_result(distance: int) -> int:
    """The byte of a position decided at ``distance`` plies."""
    return distance + 1


def decode_result(byte: int) -> tuple[Value, int | None]:
    """(value, distance) of a legal position's byte; distance is None for a draw."""
    if byte == UNDECIDED:
        return "draw", None
    distance = int(byte) - 1
    return ("win" if distance % 2 else "loss"), distance


def value_text(value: Value, plies: int | None) -> str:
    """``"draw"``, ``"win in 3"``, ``"loss in 22"``: a value with its distance, tersely."""
    return value if plies is None else f"{value} in {plies}"


def value_codes(result: np.ndarray) -> np.ndarray:
    """Per result byte: 0 win, 1 draw, 2 loss (for the side to move), -1 not legal (int8)."""
    codes = np.where(result % 2 == 0, 0, 2).astype(np.int8)  # byte = distance + 1: even byte, odd distance
    codes[result == UNDECIDED] = 1
    codes[result == ILLEGAL] = -1
    return codes

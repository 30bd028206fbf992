"""Values of positions: the one-byte result the solver produces and the tables store, and the
:class:`~solver.neutreeko.model.values.Evaluation` every answer is given in.

Values are always from the point of view of the side to move::

    byte   0        draw (never decided by the analysis: best play repeats forever)
    byte   1..254   decided at distance d = byte - 1 plies:
                    d odd  -> the side to move wins in d plies (its own winning move included)
                    d even -> the side to move loses in d plies (0: the other side has just won,
                              or the side to move has no move)
    byte   255      not a legal position (the side to move already has a winning triple)

One byte holds both the value and the distance, because a distance's parity gives its value.

**Order.** For the side it belongs to, a win is better than a draw, a draw better than a loss; a faster
win is better than a slower one and a longer loss better than a shorter one. :data:`VALUES` lists the
values best first and :meth:`Evaluation.order_key` sorts evaluations best first; every ordering of
moves, codes and results in the package comes from these two.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from solver.core.answers.report import counted

#: The result byte of a position not decided yet (while solving; a draw once solved), of an illegal one,
#: and the longest distance a byte holds.
UNDECIDED, ILLEGAL, MAX_DISTANCE = 0, 255, 253

#: Human-readable description of the encoding, stored in every table.
ENCODING = "uint8: 0 draw; 255 illegal; else distance+1 in plies, odd distance = side to move wins"

Value = Literal["win", "draw", "loss"]
#: The values, best first for the side they belong to.
VALUES: tuple[Value, ...] = ("win", "draw", "loss")


def plies_text(count: int) -> str:
    """``1 ply``, ``4 plies``."""
    return counted(count, "ply", "plies")


@dataclass(frozen=True)
class Evaluation:
    """A value for one side and its distance in plies: ``plies`` is None exactly for a draw, odd for a
    win (the winning move included) and even for a loss. Build one with :meth:`win`, :meth:`loss`,
    :data:`~solver.neutreeko.model.values.DRAW` or :meth:`of_byte`; anything else raises :class:`ValueError`.

    >>> Evaluation.win(51), DRAW.terse(), Evaluation.loss(22).move_text(), Evaluation.win(3).label()
    (Evaluation(value='win', plies=51), 'draw', 'loses in 22', 'W3')
    """

    value: Value
    plies: int | None = None

    def __post_init__(self) -> None:
        if self.value not in VALUES:
            raise ValueError(f"a value is win, draw or loss, not {self.value!r}")
        if (self.plies is None) != (self.value == "draw"):
            raise ValueError("a draw has no distance and a win or loss has one")
        if self.plies is not None and (self.plies < 0 or self.plies % 2 != (self.value == "win")):
            raise ValueError(f"a {self.value} cannot take {self.plies} plies: wins take odd, losses even")

    @classmethod
    def win(cls, plies: int) -> Evaluation:
        return cls("win", plies)

    @classmethod
    def loss(cls, plies: int) -> Evaluation:
        return cls("loss", plies)

    @classmethod
    def of_byte(cls, byte: int) -> Evaluation:
        """The evaluation of a legal position's result byte (see the module docstring)."""
        if byte == UNDECIDED:
            return DRAW
        if not 0 < byte < ILLEGAL:
            raise ValueError(f"byte {byte} is not the result of a legal position")
        distance = int(byte) - 1
        return cls("win" if distance % 2 else "loss", distance)

    def byte(self) -> int:
        """The result byte of a position of this value (the inverse of :meth:`of_byte`)."""
        return UNDECIDED if self.plies is None else encode_result(self.plies)

    def for_mover(self) -> Evaluation:
        """The value of a move, for the player making it, that leads to a position of this value (for
        the opponent, who is to move there); its plies are counted from before the move."""
        if self.plies is None:
            return self
        return Evaluation("win" if self.value == "loss" else "loss", self.plies + 1)

    def order_key(self) -> tuple[int, int]:
        """Sort key, best first for the side this value belongs to: wins by fewest plies, then draws,
        then losses by most plies (the longest resistance)."""
        rank = VALUES.index(self.value)
        plies = self.plies or 0
        return rank, (plies if self.value == "win" else -plies)

    # -- wordings: one formatter each -----------------------------------------------------------

    def terse(self) -> str:
        """``"win in 3"``, ``"draw"``, ``"loss in 22"``."""
        return self.value if self.plies is None else f"{self.value} in {self.plies}"

    def move_text(self) -> str:
        """The value as a verb, e.g. of a move for the player making it: ``"wins in 3"``, ``"draw"``,
        ``"loses in 22"``."""
        if self.plies is None:
            return "draw"
        return f"{'wins' if self.value == 'win' else 'loses'} in {self.plies}"

    def label(self) -> str:
        """A short label: ``"W3"`` (wins in 3), ``"D"`` (draw), ``"L22"`` (loses in 22)."""
        return "D" if self.plies is None else f"{self.value[0].upper()}{self.plies}"

    def __str__(self) -> str:
        return self.terse()


#: The value of a drawn position.
DRAW = Evaluation("draw")


def encode_result(distance: int) -> int:
    """The byte of a position decided at ``distance`` plies."""
    return distance + 1


def _codes() -> npt.NDArray[np.int8]:
    codes = np.full(256, -1, dtype=np.int8)
    for byte in range(ILLEGAL):
        codes[byte] = VALUES.index(Evaluation.of_byte(byte).value)
    return codes


_CODES = _codes()


def value_codes(result: npt.NDArray[np.uint8]) -> npt.NDArray[np.int8]:
    """Per result byte, the value's place in :data:`VALUES` (0 win, 1 draw, 2 loss, for the side to
    move), or -1 where the position is not legal."""
    return _CODES[result]

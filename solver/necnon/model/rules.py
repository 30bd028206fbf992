"""NECNON's rules as data: the protocols, which cells they allow, and a game (a board and a protocol
for each player).

A player's **protocol** decides which empty cells it may lay a stone on, from the number of *enemy*
neighbours of the cell (its own stones never count):

=====  ======================  =====================================================
nec    "Not Even Close"        forbidden: an even, non-zero number (2, 4, 6)
non    "No Odd Neighbours"     forbidden: an odd number (1, 3, 5)
=====  ======================  =====================================================

A cell with no enemy neighbour is allowed under both. The ``--protocol`` of a game is ``nec``, ``non``
(both players), or ``nec-non`` / ``non-nec``: Black's protocol first, then Green's.

Play (``solver.necnon.model.position`` carries it out): the board starts empty; Black lays one stone on the
first turn, and from then on each turn lays two stones on two distinct cells allowed at the start of
the turn (one if exactly one is allowed; a pass if none is, and only then). The game ends when both
players have passed in consecutive turns or when the board is full; a group (stones of one colour
connected through neighbours) with no empty neighbour is then *smothered* and its owner's opponent
scores one point per stone of it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.core.answers.notation import checked, quote
from solver.core.errors import InputError
from solver.necnon.model.grid import Grid


class ProtocolError(InputError, ValueError):
    """An unknown protocol or protocol setting."""


class Protocol(enum.Enum):
    """A player's protocol (see the module docstring)."""

    NEC = "nec"
    NON = "non"

    def allows(self, enemies: int) -> bool:
        """Does this protocol allow an empty cell with ``enemies`` enemy neighbours?

        >>> [Protocol.NEC.allows(k) for k in range(7)]
        [True, True, False, True, False, True, False]
        >>> [Protocol.NON.allows(k) for k in range(7)]
        [True, False, True, False, True, False, True]
        """
        if self is Protocol.NEC:
            return enemies == 0 or enemies % 2 == 1
        return enemies % 2 == 0


#: The ``--protocol`` settings by their names: Black's protocol, then Green's.
SETTINGS: dict[str, tuple[Protocol, Protocol]] = {
    "nec": (Protocol.NEC, Protocol.NEC),
    "non": (Protocol.NON, Protocol.NON),
    "nec-non": (Protocol.NEC, Protocol.NON),
    "non-nec": (Protocol.NON, Protocol.NEC),
}

#: :func:`protocols` refuses longer text (``nec-non`` needs 7 characters).
MAX_PROTOCOL_LENGTH = 16


def protocols(setting: str) -> tuple[Protocol, Protocol]:
    """Black's and Green's protocols of a ``--protocol`` setting (any case; ``nec-nec`` is ``nec``);
    :class:`ProtocolError` for an unknown one, or for text that is not printable ASCII or is longer
    than :data:`MAX_PROTOCOL_LENGTH`.

    >>> protocols("NON-nec")
    (<Protocol.NON: 'non'>, <Protocol.NEC: 'nec'>)
    """
    text = checked(setting, "protocol", MAX_PROTOCOL_LENGTH, ProtocolError)
    names = text.lower().split("-")
    known = {protocol.value: protocol for protocol in Protocol}
    if not 1 <= len(names) <= 2 or not all(name in known for name in names):
        raise ProtocolError(f"unknown protocol {quote(text)}; known: {', '.join(SETTINGS)}")
    return known[names[0]], known[names[-1]]


@dataclass(frozen=True)
class Game:
    """NECNON on ``grid`` with Black playing ``black`` and Green ``green``. Build one with :meth:`of`."""

    grid: Grid
    black: Protocol
    green: Protocol

    @classmethod
    def of(cls, board: Grid | str = "4x4", setting: str = "nec") -> Game:
        """The game on a board (``Grid`` or ``"4x4"``, ``"hex3"``) under a ``--protocol`` setting.

        Raises :class:`~solver.core.errors.BoardError` or :class:`ProtocolError`.

        >>> print(Game.of("hex3", "non-nec"))
        hex3 non-nec
        """
        grid = board if isinstance(board, Grid) else Grid.parse(board)
        black, green = protocols(setting)
        return cls(grid, black, green)

    @property
    def setting(self) -> str:
        """The ``--protocol`` setting: ``nec``, ``non``, ``nec-non`` or ``non-nec``."""
        return self.black.value if self.black is self.green else f"{self.black.value}-{self.green.value}"

    @property
    def nec(self) -> npt.NDArray[np.bool_]:
        """Whether Black, then Green, plays NEC (else NON), as the kernels read it."""
        return np.array([self.black is Protocol.NEC, self.green is Protocol.NEC])

    def protocol(self, black: bool) -> Protocol:
        """The protocol of Black (``black``) or Green."""
        return self.black if black else self.green

    def __str__(self) -> str:
        return f"{self.grid} {self.setting}"

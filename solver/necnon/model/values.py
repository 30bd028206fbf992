"""Values of NECNON positions: the :class:`~solver.necnon.model.values.Evaluation` every answer is given in, and the one order of
turns that ranks them.

A position's **value** is the final margin, Black's points minus Green's, under perfect play: Black
maximises it, Green minimises it. It is always from Black's side, whoever is to move (positive: Black
wins by that many points; negative: Green wins; 0: a draw). Its **turns** are the turns left to the end
under perfect play, passes included (0 when the game is over). Among the ways to one margin:

* the player who wins hurries (the fewest turns) and the one who loses delays (the most turns);
* when the margin is 0, both take the fewest turns: neither gains by delaying a draw, and the rule
  is the same for both colours, so swapping them changes nothing.

:meth:`Evaluation.order_key` sorts the turns of a position best first for its mover in exactly this
order (the solver's choice), which every ranking, line and engine of the package uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from solver.core.answers.report import counted

Winner = Literal["black", "green"]


def turns_text(count: int) -> str:
    """``1 turn``, ``4 turns``."""
    return counted(count, "turn")


@dataclass(frozen=True, order=False)
class Evaluation:
    """A value (``margin``: Black's points minus Green's under perfect play) and the ``turns`` to the
    end under perfect play.

    >>> Evaluation(3, 5).terse(), Evaluation(-2, 4).terse(), Evaluation(0, 7).terse()
    ('Black by 3 in 5 turns', 'Green by 2 in 4 turns', 'draw in 7 turns')
    >>> Evaluation(3, 5).label(), Evaluation(-2, 4).label(), Evaluation(0, 7).label()
    ('+3', '-2', '0')
    """

    margin: int
    turns: int

    def __post_init__(self) -> None:
        if self.turns < 0:
            raise ValueError(f"turns cannot be negative: {self.turns}")

    @property
    def winner(self) -> Winner | None:
        """``"black"``, ``"green"``, or None for a draw."""
        return "black" if self.margin > 0 else "green" if self.margin < 0 else None

    def gain(self, black: bool) -> int:
        """The margin from the side of Black (``black``) or Green: what that player maximises."""
        return self.margin if black else -self.margin

    def order_key(self, black: bool) -> tuple[int, int]:
        """Sort key, best first for Black (``black``) or Green, of the positions a turn can lead to:
        the greater gain first; among equal gains the fewest turns when not losing, the most when
        losing (see the module docstring)."""
        gain = self.gain(black)
        return -gain, self.turns if gain >= 0 else -self.turns

    def after_turn(self) -> Evaluation:
        """The value of a turn leading to a position of this value: the same margin, one turn more."""
        return Evaluation(self.margin, self.turns + 1)

    # -- wordings: one formatter each -----------------------------------------------------------------

    def result(self) -> str:
        """``"Black wins by 3"``, ``"Green wins by 1"``, ``"draw"``."""
        if self.winner is None:
            return "draw"
        return f"{self.winner.capitalize()} wins by {abs(self.margin)}"

    def terse(self) -> str:
        """``"Black by 3 in 5 turns"``, ``"draw in 7 turns"``, ``"Green by 2, game over"`` (0 turns)."""
        head = "draw" if self.winner is None else f"{self.winner.capitalize()} by {abs(self.margin)}"
        return f"{head}, game over" if self.turns == 0 else f"{head} in {turns_text(self.turns)}"

    def label(self) -> str:
        """The margin with its sign: ``"+3"``, ``"-2"``, ``"0"``."""
        return f"{self.margin:+d}" if self.margin else "0"

    def __str__(self) -> str:
        return self.terse()

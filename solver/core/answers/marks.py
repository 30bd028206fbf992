"""How a move played compares with the best, in the signs of chess annotation: what every game's
annotation shares. Each game decides from its own values which mark a move gets (Neutreeko by how far
the move's value falls, NECNON by the points it gives away); the names, the signs and their colours in
pictures are the same for both.

==========  ====  ============================================================
best              as good as the best
inaccuracy  ?!    the same result, by a worse way (a slower win, a faster loss)
mistake     ?     a worse result, by one step
blunder     ??    a worse result, by more
==========  ====  ============================================================
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from solver.core.drawing.scene import Circle, Group, Shape, Text, text_width


class Mark(enum.Enum):
    """How a move compares with the best (see the module docstring).

    >>> [mark.symbol for mark in Mark], [mark.decisive for mark in Mark]
    (['', '?!', '?', '??'], [False, False, True, True])
    """

    BEST = "best"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def symbol(self) -> str:
        """The chess sign: ``""``, ``"?!"``, ``"?"``, ``"??"``."""
        return _SYMBOLS[self]

    @property
    def decisive(self) -> bool:
        """True for a mistake or a blunder: the move changed what the game is worth with best play."""
        return self in (Mark.MISTAKE, Mark.BLUNDER)

    @property
    def article(self) -> str:
        """``"an"`` or ``"a"``, for a verdict: ``"an inaccuracy"``, ``"a mistake"``."""
        return "an" if self is Mark.INACCURACY else "a"


_SYMBOLS = {Mark.BEST: "", Mark.INACCURACY: "?!", Mark.MISTAKE: "?", Mark.BLUNDER: "??"}


def some(names: Sequence[str], shown: int = 4) -> str:
    """At most ``shown`` of ``names`` (the best moves of a move annotated), and how many more.

    >>> some(["a1", "b2", "c3"], 2)
    'a1 b2 (+1)'
    """
    more = f" (+{len(names) - shown})" if len(names) > shown else ""
    return " ".join(names[:shown]) + more

#: The colour of a move's label by its mark, in every game's pictures (the best in the text's ink).
MARK_COLOURS = {Mark.BEST: "#222222", Mark.INACCURACY: "#b8860b", Mark.MISTAKE: "#e66100", Mark.BLUNDER: "#c00000"}


def chart_legend(left: float, y: float, caption: str, dots: Sequence[tuple[str, str]], font: float,
                 ink: str, faint_ink: str) -> list[Shape]:
    """The legend of a value-history chart, at ``left``, from ``y`` down: the ``caption``, then a row
    of the dots' colours with their names (``dots``: (colour, name) pairs) and the marks' signs."""
    entries: list[Shape] = [Text(left, y, caption, font - 1, faint_ink, anchor="start")]
    x = left
    for colour, name in dots:
        entries += [Circle(x + 5, y + 20, 4.2, colour), Text(x + 14, y + 20, name, font - 1, ink, anchor="start")]
        x += 20 + text_width(name, font - 1)
    x += 10
    for mark in (Mark.INACCURACY, Mark.MISTAKE, Mark.BLUNDER):
        text = f"{mark.symbol} {mark.value}"
        entries.append(Text(x, y + 20, text, font - 1, MARK_COLOURS[mark], anchor="start", bold=True))
        x += 14 + text_width(text, font - 1)
    return [Group("legend", tuple(entries))]

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

#: The colour of a move's label by its mark, in every game's pictures (the best in the text's ink).
MARK_COLOURS = {Mark.BEST: "#222222", Mark.INACCURACY: "#b8860b", Mark.MISTAKE: "#e66100", Mark.BLUNDER: "#c00000"}

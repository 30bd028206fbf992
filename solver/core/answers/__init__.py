"""What every game's answers share: notation, records, marks of moves played, reports, terminal sessions and play.

* :mod:`~solver.core.answers.notation`: what every game's notation shares;
* :mod:`~solver.core.answers.record`: what every game's records share;
* :mod:`~solver.core.answers.marks`: how a move played compares with the best;
* :mod:`~solver.core.answers.report`: what every game's reports share;
* :mod:`~solver.core.answers.console`: reading a person's line after a prompt;
* :mod:`~solver.core.answers.session`: the play loop, its commands and its record.
"""

__all__ = ["notation", "record", "marks", "report", "console", "session"]

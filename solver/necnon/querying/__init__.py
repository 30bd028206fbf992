"""Querying: a position's value, every turn ranked, lines, judging a turn, and what the commands print.

* :mod:`~solver.necnon.querying.probe`: the tablebase: probes, ranked turns and perfect-play lines;
* :mod:`~solver.necnon.querying.judge`: the value of a turn played against the best;
* :mod:`~solver.necnon.querying.report`: the JSON objects and text of query and line.
"""

__all__ = ["probe", "judge", "report"]

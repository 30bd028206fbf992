"""Querying tables: a position's value and every move ranked, lines, and what the commands print.

* :mod:`~solver.neutreeko.querying.probe`: the tablebase: probes, ranked moves and perfect-play lines;
* :mod:`~solver.neutreeko.querying.report`: the JSON objects and text of query, line and stats;
* :mod:`~solver.neutreeko.querying.bulk`: many positions in, one answer each.
"""

__all__ = ["probe", "report", "bulk"]

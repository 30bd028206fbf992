"""Checking tables: every value re-derived from its children, and the published figures.

* :mod:`~solver.neutreeko.checking.check`: the forward consistency check of a table;
* :mod:`~solver.neutreeko.checking.verify`: the published figures, checked.
"""

__all__ = ["check", "verify"]

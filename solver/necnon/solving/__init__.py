"""The exact solver: a memoised search over symmetry classes, with its numba kernel.

* :mod:`~solver.necnon.solving.solve`: the value and turns to the end of every reachable class.
"""

__all__ = ["solve"]

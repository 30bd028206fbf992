"""Tables: writing, opening and building them, and the figures of a solved game.

* :mod:`~solver.necnon.tables.table`: the HDF5 tables of each board and protocol setting;
* :mod:`~solver.necnon.tables.build`: solve a game and store it, or open the table;
* :mod:`~solver.necnon.tables.stats`: figures of a solved game from its records.
"""

__all__ = ["table", "build", "stats"]

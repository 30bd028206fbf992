"""Tables: writing, opening and building them, folded results, committed digests, statistics.

* :mod:`~solver.neutreeko.tables.table`: the HDF5 tables: where they live, how they are written, opened and checked;
* :mod:`~solver.neutreeko.tables.build`: solve a game and store it, or open the table already there;
* :mod:`~solver.neutreeko.tables.folding`: results folded to one byte per symmetry class;
* :mod:`~solver.neutreeko.tables.digests`: the committed digests of result bytes;
* :mod:`~solver.neutreeko.tables.stats`: statistics of a solved game from its result bytes.
"""

__all__ = ["table", "build", "folding", "digests", "stats"]

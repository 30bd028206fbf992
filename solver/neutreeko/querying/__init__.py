"""Querying tables: a position's value and every move ranked, lines, and what the commands print.

* :mod:`~solver.neutreeko.querying.probe`: the tablebase: probes, ranked moves and perfect-play lines;
* :mod:`~solver.neutreeko.querying.report`: the JSON objects and text of query, line and stats;
* :mod:`~solver.neutreeko.querying.bulk`: many positions in, one answer each.
"""

__all__ = ["BATCH_LINES", "LINES_PER_CHUNK", "probe", "report", "bulk"]

# Here rather than in bulk, so that the help of query, which shows them, imports no numpy.
#: At most this many lines are read before they are answered, while more are waiting (unless told
#: otherwise, see :func:`~solver.neutreeko.querying.bulk.default_batch_lines`): their positions are
#: looked up together, so that each chunk of the table is read and decompressed once a batch.
#: Random positions of 8 x 8 (5,721 chunks) touch nearly every chunk at 30,000 lines, so a smaller
#: batch would decompress the whole table again and again.
BATCH_LINES = 1 << 18
#: A batch for a table larger than the chunk cache holds by default this many lines for each chunk of
#: the table, when that is more than :data:`BATCH_LINES` (9 x 9: 3,169,408 lines, about 1.5 GB of
#: memory): reading the table once a batch then costs each line less than the rest of its answer.
LINES_PER_CHUNK = 128

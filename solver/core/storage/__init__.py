"""Storage: the digest-checked table container, reading it a chunk at a time (from a file or over HTTP), tables of the first format, releases and downloading them, and tablebases that keep tables open.

* :mod:`~solver.core.storage.container`: the table container every game stores its results in;
* :mod:`~solver.core.storage.chunks`: a table's dataset read a chunk at a time, with a bounded cache;
* :mod:`~solver.core.storage.remote`: the addresses of tables and releases, where a path is taken;
* :mod:`~solver.core.storage.remote_file`: a table at an address, read over HTTP or HTTPS;
* :mod:`~solver.core.storage.legacy`: reading tables of the first container format;
* :mod:`~solver.core.storage.release`: releases of tables: publishing and fetching them;
* :mod:`~solver.core.storage.download`: downloading over HTTP or HTTPS;
* :mod:`~solver.core.storage.tablebase`: tables opened on first use and kept, by game.
"""

__all__ = ["DEFAULT_CACHE_BYTES", "container", "chunks", "remote", "remote_file", "legacy", "release", "download", "tablebase"]

#: The chunk cache's default bound (:mod:`~solver.core.storage.chunks`): 128 MB of decompressed chunks.
#: Here, not there, so that the options that show it need not import numpy.
DEFAULT_CACHE_BYTES = 128 << 20

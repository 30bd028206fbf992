"""What a table's chunk size and compression level cost: for each choice, the size of the compressed
data relative to the raw bytes, the compression's speed (what writing a table pays) and the time to
decompress one chunk (what a probe whose chunk is not cached pays), on the same sampled stretches of a
real table for every choice.

Usage: ``python scripts/bench_chunk_size.py [--board 8x8] [--table PATH] [--sample-mb 32]``. The table
(full or folded: its stored bytes are sampled, a chunk at a time) is ``--table``, or else the board's
where ``neutreeko`` reads it. Tables are written with 256 KiB chunks at level 6
(``solver.core.storage.container``).
"""

from __future__ import annotations

import argparse
import statistics
import time
import zlib

import benchjson
import numpy as np

from solver.neutreeko.model.game import Game
from solver.neutreeko.tables.table import open_table

SIZES = (1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20)
LEVELS = (6, 9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="8x8")
    parser.add_argument("--table", default=None, help="the table sampled (default: the board's)")
    parser.add_argument("--sample-mb", type=int, default=32, help="raw bytes sampled per choice (default 32)")
    parser.add_argument("--seed", type=int, default=1)
    benchjson.add_option(parser)
    options = parser.parse_args()
    game = Game.of(options.board)
    table = open_table(game, options.table)
    stored = table.chunks
    # The same stretches of the table for every choice, so that the sizes compare like with like: whole
    # stored chunks, as many as make a stretch of the largest size.
    stretch = max(SIZES)
    per_stretch = max(1, stretch // stored.chunk_items)
    rng = np.random.default_rng(options.seed)
    picks = rng.choice(len(stored.entries) // per_stretch, size=max(1, (options.sample_mb << 20) // stretch),
                       replace=False)
    sample = np.concatenate([stored.chunk(int(pick) * per_stretch + k) for pick in np.sort(picks)
                             for k in range(per_stretch)])
    kind = "classes" if table.folded else "result bytes"
    print(f"{options.board}: {stored.length:,} {kind}, {len(picks)} stretches of {stretch >> 10} KiB sampled")
    table.close()
    for size in SIZES:
        chunks = [sample[first:first + size].tobytes() for first in range(0, len(sample), size)]
        for level in LEVELS:
            began = time.perf_counter()
            compressed = [zlib.compress(chunk, level) for chunk in chunks]
            speed = len(sample) / (time.perf_counter() - began) / 1e6
            times = []
            for stored in compressed:
                began = time.perf_counter()
                zlib.decompress(stored)
                times.append(time.perf_counter() - began)
            ratio = sum(map(len, compressed)) / sum(map(len, chunks))
            benchjson.record(f"chunk {size >> 10} KiB, level {level}: stored share of the raw bytes", ratio, "ratio")
            benchjson.record(f"chunk {size >> 10} KiB, level {level}: compressed, one thread", speed, "MB/s")
            benchjson.record(f"chunk {size >> 10} KiB, level {level}: one chunk decompressed",
                             [t * 1e6 for t in times], "us")
            print(f"chunk {size >> 10:>5} KiB, level {level}: {ratio:.4f} of the raw bytes, compressed at "
                  f"{speed:.1f} MB/s; one chunk decompressed in a median {statistics.median(times) * 1e6:,.0f} us "
                  f"({len(chunks)} chunks)")
    benchjson.write("bench_chunk_size", options)


if __name__ == "__main__":
    main()

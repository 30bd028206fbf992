"""What a table's chunk size and compression level cost: for each choice, the size of the compressed
data relative to the raw bytes, and the time to decompress one chunk (what a probe whose chunk is not
cached pays), on the same sampled stretches of a real table for every choice.

Usage: ``python scripts/bench_chunk_size.py [--board 8x8] [--sample-mb 32]``. The table is read from
where ``neutreeko`` reads it. Tables are written with 256 KiB chunks at level 6 (``solver.core.storage.container``).
"""

from __future__ import annotations

import argparse
import statistics
import time
import zlib

import benchjson
import numpy as np

from solver.neutreeko.model.game import Game
from solver.neutreeko.querying.probe import Tablebase

SIZES = (1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20)
LEVELS = (6, 9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="8x8")
    parser.add_argument("--sample-mb", type=int, default=32, help="raw bytes sampled per choice (default 32)")
    parser.add_argument("--seed", type=int, default=1)
    benchjson.add_option(parser)
    options = parser.parse_args()
    with Tablebase() as tablebase:
        result = tablebase.table(Game.of(options.board)).result
    rng = np.random.default_rng(options.seed)
    # The same stretches of the table for every choice, so that the sizes compare like with like.
    stretch = max(SIZES)
    picks = rng.choice(len(result) // stretch, size=max(1, (options.sample_mb << 20) // stretch), replace=False)
    sample = np.concatenate([result[pick * stretch:(pick + 1) * stretch] for pick in np.sort(picks)])
    print(f"{options.board}: {len(result):,} result bytes, {len(picks)} stretches of {stretch >> 10} KiB sampled")
    for size in SIZES:
        chunks = [sample[first:first + size].tobytes() for first in range(0, len(sample), size)]
        for level in LEVELS:
            compressed = [zlib.compress(chunk, level) for chunk in chunks]
            times = []
            for stored in compressed:
                began = time.perf_counter()
                zlib.decompress(stored)
                times.append(time.perf_counter() - began)
            ratio = sum(map(len, compressed)) / sum(map(len, chunks))
            benchjson.record(f"chunk {size >> 10} KiB, level {level}: stored share of the raw bytes", ratio, "ratio")
            benchjson.record(f"chunk {size >> 10} KiB, level {level}: one chunk decompressed",
                             [t * 1e6 for t in times], "us")
            print(f"chunk {size >> 10:>5} KiB, level {level}: {ratio:.4f} of the raw bytes; one chunk "
                  f"decompressed in a median {statistics.median(times) * 1e6:,.0f} us ({len(chunks)} chunks)")
    benchjson.write("bench_chunk_size", options)


if __name__ == "__main__":
    main()

"""The class solve on a Dask cluster, measured and projected: ``docs/benchmarks/cluster.md``, which
docs/scaling.md includes, written from ``docs/benchmarks/cluster-8x8.json`` and ``cluster-9x9.json``
(``scripts/bench_cluster.py --board B --json FILE``).

The measured table gives both runs of each file. The projection takes the 8 x 8 run on ``local:N``: its
analysis seconds per class per worker, the bytes sent per class the levels decide, and each worker's
peak memory beyond its share of the state; it scales them by the classes of 12 x 12 and 13 x 13 for 16,
64 and 256 workers of one core, over links of :data:`LINK` bytes a second. The class counts are the
solver's (docs/scaling.md's tables), not measurements.

Usage: ``python scripts/cluster_projection.py [--check]``; ``--check`` exits 1 if the file is not what
the measurements give.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "docs" / "benchmarks"
OUT = BENCHMARKS / "cluster.md"
#: Legal symmetry classes of 8 x 8, and those of its classes the levels decide (wins and losses).
CLASSES_8X8, DECIDED_8X8 = 186_694_213, 179_024_122
#: Legal classes of the boards projected (about: from the counts of the smaller boards).
PROJECTED = {"12 x 12": 27.9e9, "13 x 13": 74e9}
#: The share of the classes the levels decide, as on 11 x 11.
DECIDED_SHARE = 0.96
#: Bytes of state a class holds (its result byte and its decided bit).
STATE_BYTES = 1.125
#: Bytes a second of a worker's link (10 Gb/s).
LINK = 1.25e9
WORKERS = (16, 64, 256)


def _measured(board: str) -> dict[str, float]:
    data = json.loads((BENCHMARKS / f"cluster-{board}.json").read_text())
    figures = {entry["name"]: entry["median"] for entry in data["measurements"]}
    figures["workers"] = data["options"]["workers"]
    figures["load"] = data["machine"]["load_average"][0]
    return figures


def _seconds(value: float) -> str:
    text = f"{value:,.0f} s"
    return text + (f" ({value / 3600:.1f} h)" if value >= 7200 else f" ({value / 60:.0f} min)" if value >= 120 else "")


def render() -> str:
    """The Markdown of both tables, from the measurements' files."""
    lines = ["| board | run | analysis | whole command | peak RSS: command (client) | each worker | exchanged |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for board in ("8x8", "9x9"):
        m = _measured(board)
        peaks = (m[f"cluster: peak RSS of worker {n}"] for n in range(1, int(m["workers"]) + 1))
        workers = ", ".join(f"{peak:,.0f} MB" for peak in peaks)
        name, analysis = board.replace("x", " x "), "the solve's analysis"
        lines.append(f"| {name} | plain `--fold` | {m['plain: ' + analysis]:,.1f} s | {m['plain: the whole command']:,.1f} s "
                     f"| {m['plain: peak RSS of the command']:,.0f} MB | | |")
        lines.append(f"| {name} | `--cluster local:{m['workers']}` | {m['cluster: ' + analysis]:,.1f} s "
                     f"| {m['cluster: the whole command']:,.1f} s | {m['cluster: peak RSS of the command']:,.0f} MB "
                     f"| {workers} | {m['cluster: bytes exchanged, all levels']:,.1f} MB |")
    m = _measured("8x8")
    share = CLASSES_8X8 / m["workers"]
    per_class = m["cluster: the solve's analysis"] / share
    sent = m["cluster: bytes exchanged, all levels"] * 1e6 * m["workers"] / (m["workers"] - 1) / DECIDED_8X8
    base = max(m[f"cluster: peak RSS of worker {n}"] for n in range(1, int(m["workers"]) + 1)) * 2**20 - share * STATE_BYTES
    lines += ["", f"From the 8 x 8 run: {per_class * 1e6:.2f} us of analysis per class per worker, {sent:.0f} bytes "
              f"sent per decided class, {base / 1e9:.2f} GB per worker beside its state.", "",
              "| board, workers | classes per worker | memory per worker | analysis per worker | sent per worker "
              "| on the network |", "|---|---:|---:|---:|---:|---:|"]
    for board, classes in PROJECTED.items():
        for workers in WORKERS:
            held = classes / workers
            over = held * DECIDED_SHARE * sent * (workers - 1) / workers
            lines.append(f"| {board}, {workers} | {held / 1e6:,.0f} million | {(held * STATE_BYTES + base) / 1e9:.2f} GB "
                         f"| {_seconds(held * per_class)} | {over / 1e9:,.1f} GB | {_seconds(over / LINK)} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not what the measurements give")
    options = parser.parse_args()
    text = render()
    if options.check:
        sys.exit(0 if OUT.is_file() and OUT.read_text() == text else 1)
    OUT.write_text(text)
    print(f"written {OUT}")


if __name__ == "__main__":
    main()

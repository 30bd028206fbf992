"""Benchmark of the static explorer (``neutreeko site``): a position's value and every move answered by
the in-browser reader, timed by the browser itself (``performance.now()``), in headless Chromium, the
site served on loopback with ``Range`` (``solver.web.static_host.static_server``).

For each of ``--positions`` random legal positions of ``--board``: **cold**, the chunk cache emptied
first, so that the answer reads (and checks and inflates) every chunk it needs; then **warm**, the same
answer again from the cache. Also the table's opening (header and chunk map, the first answer's extra
cost), the bytes read from the table for a cold answer, and the size of the site's JavaScript,
uncompressed. Medians over the positions. Each answer is then compared with Python's (the value, the
plies, every move's value and order), and the script exits 1 at the first that differs.

    python scripts/bench_static.py --board 6x6 [--tables DIR] [--positions 50] [--json FILE]

The table is read from ``--tables`` (default: where ``neutreeko`` reads tables); the site is written into
a temporary directory by ``neutreeko site``. Needs ``/usr/bin/chromium`` and ``/usr/bin/chromedriver``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import benchjson
from screenshots import _browser  # the same headless Chromium as the pictures

from solver.core.storage.container import tables_dir
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import random_positions
from solver.neutreeko.querying.probe import Tablebase
from solver.neutreeko.querying.report import query_object
from solver.neutreeko.tables.table import open_table, table_path
from solver.web.site import SITE_FILE
from solver.web.static_host import static_server

# Times one answer of the page's reader for each position: [cold ms, warm ms, bytes read cold] each; the
# first answer opens the table, and is timed apart (open ms).
_MEASURE = """const [positions, board] = arguments, done = arguments[arguments.length - 1];
(async () => {
  const reader = await import(new URL("reader/api.js", document.baseURI).href);
  const table = await import(new URL("reader/table.js", document.baseURI).href);
  performance.setResourceTimingBufferSize(1e6);
  const read = () => performance.getEntriesByType("resource").filter(entry => entry.name.endsWith(".h5"))
    .reduce((sum, entry) => sum + entry.encodedBodySize, 0);
  let start = performance.now();
  await reader.answer("position", {position: "start", board});
  const open = performance.now() - start, rows = [], answers = [];
  for (const position of positions) {
    table.setCacheLimit(0);
    table.setCacheLimit(64 << 20);
    const before = read();
    start = performance.now();
    await reader.answer("position", {position, board});
    const cold = performance.now() - start;
    start = performance.now();
    const answer = await reader.answer("position", {position, board});
    rows.push([cold, performance.now() - start, read() - before]);
    answers.push(answer);
  }
  return {open, rows, answers};
})().then(done, error => done({error: String(error)}));"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="5x5", help="the board measured (its table must exist; default 5x5)")
    parser.add_argument("--tables", type=Path, default=None, help="the tables directory (default: neutreeko's)")
    parser.add_argument("--positions", type=int, default=50, help="random positions answered (default 50)")
    parser.add_argument("--seed", type=int, default=0)
    benchjson.add_option(parser)
    options = parser.parse_args()
    game = Game.of(options.board)
    table = (options.tables or tables_dir()) / table_path(game).name
    if not table.is_file():
        raise SystemExit(f"bench_static: no table at {table}")
    positions = [position.fen() for position in random_positions(game, options.positions, options.seed)]
    with tempfile.TemporaryDirectory() as work:
        site, only = Path(work) / "site", Path(work) / "tables"
        only.mkdir()
        (only / table.name).symlink_to(table.resolve())
        subprocess.run([sys.executable, "-m", "solver", "site", str(site), "--tables", str(only)], check=True,
                       stdout=subprocess.DEVNULL, timeout=3600)
        script_bytes = sum(path.stat().st_size for path in site.rglob("*.js"))
        driver = _browser(Path(work) / "profile")
        try:
            with static_server(site) as url:
                driver.get(f"{url}{SITE_FILE}")  # a page of the site that opens no table before the measures
                driver.set_script_timeout(600)
                measured = driver.execute_async_script(_MEASURE, positions, options.board)
        finally:
            driver.quit()
    if "error" in measured:
        raise SystemExit(f"bench_static: the page failed: {measured['error']}")
    with Tablebase(table.parent) as tablebase:
        for position, got in zip(random_positions(game, options.positions, options.seed), measured["answers"]):
            want = json.loads(json.dumps(query_object(position, tablebase.probe(position), tablebase.moves(position))))
            if got != want:
                raise SystemExit(f"bench_static: the page answers {position.fen()} otherwise than Python: {got}")
    cold, warm, read = (list(column) for column in zip(*measured["rows"]))
    opened = open_table(game, table)
    what = f"{options.board} ({'folded' if opened.folded else 'full'} table)"
    opened.close()
    print(f"static explorer, {what}, {len(positions)} positions; Chromium's own timings")
    print(f"  every answer equal to Python's: {len(positions)} positions")
    print(f"  opening the table (header, chunk map): {measured['open']:.1f} ms")
    print(f"  value and every move, cold chunks: median {statistics.median(cold):.1f} ms, "
          f"{statistics.median(read) / 1e3:.0f} kB read")
    print(f"  value and every move, cached: median {statistics.median(warm):.2f} ms")
    print(f"  JavaScript of the site, uncompressed: {script_bytes / 1e3:.1f} kB")
    benchjson.record(f"static {what}: opening the table, first answer", measured["open"], "ms")
    benchjson.record(f"static {what}: value and moves, cold chunks", cold, "ms")
    benchjson.record(f"static {what}: bytes read from the table, cold", [value / 1e3 for value in read], "kB")
    benchjson.record(f"static {what}: value and moves, chunks cached", warm, "ms")
    benchjson.record("static site: JavaScript, uncompressed", script_bytes / 1e3, "kB")
    benchjson.write("bench_static", options)


if __name__ == "__main__":
    main()

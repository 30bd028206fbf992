"""The serve and site commands: the tablebase explorer in a web browser (:mod:`solver.web`), served or
written as static files."""

from __future__ import annotations

import socket
import threading
import time
import webbrowser
from collections.abc import Callable
from functools import partial
from pathlib import Path

import click

from solver import registry
from solver.cli.common import fail
from solver.core.storage import DEFAULT_CACHE_BYTES


def _say(program: str, message: str) -> None:
    click.echo(f"{program} serve: {message}", err=True)


def _log(line: str) -> None:
    click.echo(f"{time.strftime('%H:%M:%S')} {line}", err=True)


def _open_browser(url: str, say: Callable[[str], None]) -> None:
    if not webbrowser.open(url):
        say(f"no web browser found: open {url} yourself")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 127.0.0.1 is this machine only, 0.0.0.0 every network.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the explorer in the web browser.")
@click.option("--quiet", is_flag=True, help="Do not log each request on standard error.")
@click.option("--cache-mb", type=click.IntRange(1, 1 << 20), default=DEFAULT_CACHE_BYTES >> 20,
              show_default=True, help="Bound on the table chunks kept in memory, in MiB, over every table "
                                      "(also $NEUTREEKO_CACHE_MB for every command).")
def serve(host: str, port: int, open_browser: bool, quiet: bool, cache_mb: int) -> None:
    """Explore the tables in a web browser: a page and a JSON API, for Neutreeko and NECNON.

    \b
    The page shows a board you play on by clicking or dragging, every move
    with its value, the game with its mistakes marked, and a chart of the
    value move by move; /necnon does the same for NECNON, with the search
    engine on boards without a table. The API answers as query, line and
    annotate --json:
      GET /api/position?position=start&moves=B1-C1&board=5x5&rule=connected
      GET /api/line?position=...   (the same parameters, and max_plies)
      GET /api/annotate?position=...   (the same; or POST a game record)
      GET /api/position?game=necnon&board=4x4&protocol=nec&moves=b2
      GET /api/search?game=necnon&board=hex4&seconds=1   (the engine)
      GET /api/games               (every board of both games, and its table)
    Every board and rule whose table exists is served; a missing table of
    a board up to 5 x 5 is built on first use. A probe reads only the
    chunks of a table it needs; at most --cache-mb of them stay in memory,
    whatever the tables' sizes. $NEUTREEKO_TABLES may be a release's
    https:// address: its tables are read there, none is built. Ctrl-C
    stops it (exit 0).

    \b
    Example (open the explorer in the browser, then ask the API):
      neutreeko serve --open
      curl 'http://127.0.0.1:8000/api/position?moves=C4-C3'
    """
    # The web stack (both games' APIs, the server) is imported here, not with the command line: every
    # other command starts without it.
    from solver.core.storage import chunks
    from solver.web.api import Explorer
    from solver.web.server import ExplorerServer

    chunks.set_cache_limit(cache_mb << 20)
    say = partial(_say, click.get_current_context().find_root().info_name or "")  # called from other threads too
    explorer = Explorer(announce=say)
    try:
        server = ExplorerServer(host, port, explorer, None if quiet else _log)
    except socket.gaierror as error:
        fail(f"cannot listen on {host}: {error.strerror}", 2)
    except OSError as error:
        fail(f"cannot listen on {host} port {port}: {error.strerror or error}", 1)
    with server:
        if not server.on_loopback:
            say(f"warning: listening on {server.host}, not on loopback: anyone who can reach this machine "
                 f"can use the explorer")
        click.echo(f"{registry.default().title} explorer at {server.url} (Ctrl-C to stop)")
        if open_browser:
            threading.Thread(target=_open_browser, args=(server.url, say), daemon=True).start()
        try:
            server.serve_forever()
        except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (solver.core.interrupts): the server's usual end
            say("stopped")
        finally:
            explorer.close()  # a build under way is killed and what it wrote removed


@click.command()
@click.argument("directory", type=click.Path(path_type=Path, file_okay=False))
@click.option("--tables", "tables", metavar="URL|DIR", default=None,
              help="Where the pages read the tables: the URL (http:// or https://) of a release (see publish), "
                   "or a directory whose tables are published into DIRECTORY/tables (default: the tables "
                   "directory).")
def site(directory: Path, tables: str | None) -> None:
    """Write the explorer as static files into DIRECTORY: the pages, their JavaScript and the release
    of tables they read, for any static web server that answers Range requests.

    \b
    The pages read the tables themselves (each chunk checked against its SHA-256):
    a position's value and every move, the game annotated, the perfect
    line, on every board whose table is in the release, folded tables and
    NECNON's solved boards too.
    What needs Python (building a missing table, NECNON's search engine)
    says so on the page.
    The pages need a secure context (https, or http on 127.0.0.1); a
    release on another host must allow them by CORS. To try a site on this
    machine: python -m solver.web.static_host DIRECTORY --port 8080 (a server
    with Range).

    \b
    Example (then serve site/ with a web server that answers Range requests):
      neutreeko site site/
    """
    from solver.cli.releases import publish_into  # the release machinery only for this command
    from solver.core.storage import container, remote
    from solver.web.site import write_site

    source = container.tables_dir() if tables is None else remote.location(tables)
    if isinstance(source, remote.Url):
        where = str(source)
    else:
        if not source.is_dir():
            fail(f"--tables {str(tables)[:60]!r} is neither an http(s) URL nor a directory", 2)
        try:
            (directory / "tables").mkdir(parents=True, exist_ok=True)
        except OSError as error:
            fail(f"cannot write {directory}: {error.strerror or error}", 1)
        publish_into(registry.default().program, directory / "tables",
                     sorted(source.glob("*.h5")), source)
        where = "tables/"
    try:
        written = write_site(directory, where)
    except OSError as error:
        fail(f"cannot write {directory}: {error.strerror or error}", 1)
    click.echo(f"wrote the explorer ({len(written)} files) into {directory}, reading the tables at {where}")

"""``python -m solver`` and the ``neutreeko`` command: :func:`main`; the ``necnon`` command: :func:`necnon`."""

import importlib
import sys

from solver.core import interrupts


def main() -> None:
    """Run the ``neutreeko`` command line. SIGINT and SIGTERM are handled from the first moment, so
    that one arriving while the command line is still being imported ends it like one arriving later:
    one line on standard error and exit 130 (143), no traceback."""
    _run("neutreeko", "solver.cli")


def necnon() -> None:
    """Run the ``necnon`` command line, with signals handled as :func:`main` handles them."""
    _run("necnon", "solver.cli.necnon")


def _run(program: str, module: str) -> None:
    """Install the signal handlers, import ``module``'s ``cli`` and run it as ``program``."""
    interrupts.install()
    try:
        cli = importlib.import_module(module).cli
    except KeyboardInterrupt as error:
        message, code = interrupts.exit_status(error)
        if sys.stderr is not None:
            sys.stderr.write(f"{program}: error: {message}\n")
        sys.exit(code)
    cli(prog_name=program)


if __name__ == "__main__":
    main()

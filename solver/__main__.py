"""``python -m solver`` and the ``neutreeko`` command: :func:`main`; the ``necnon`` command: :func:`necnon`."""

import importlib
import sys

# Light: what is imported before the handlers are installed is time in which a signal gets Python's traceback.
from solver.core import interrupts


def main() -> None:
    """Run the ``neutreeko`` command line. SIGINT and SIGTERM are handled from its first line, so that
    one arriving while the command line is still being imported ends it like one arriving later: one
    line on standard error and exit 130 (143), no traceback; one arriving once the command has ended is
    ignored, and the command exits as it would have. (Before that first line, while the interpreter
    starts and the console script imports this module, Python handles signals as for any program.)"""
    _run("neutreeko", "solver.cli")


def necnon() -> None:
    """Run the ``necnon`` command line, with signals handled as :func:`main` handles them."""
    _run("necnon", "solver.cli.necnon")


def _run(program: str, module: str) -> None:
    """Install the signal handlers, import ``module``'s ``cli`` and run it as ``program`` (it exits),
    then settle the signals (:func:`interrupts.settle`) however it ended, so that Python's exit is
    not cut short. An interrupt no command handled (one arriving during the imports, or after the
    command, before the signals were settled) is reported here."""
    try:
        try:
            interrupts.install()  # inside: a signal arriving as the second handler goes in is reported
            importlib.import_module(module).cli(prog_name=program)
        finally:
            interrupts.settle()
    except KeyboardInterrupt as error:
        interrupts.settle()  # again: the signal may have stopped the first one before it took effect
        message, code = interrupts.exit_status(error)
        if sys.stderr is not None:
            sys.stderr.write(f"{program}: error: {message}\n")
        sys.exit(code)


if __name__ == "__main__":
    main()

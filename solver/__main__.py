"""``python -m solver`` and the ``neutreeko`` command: :func:`main`."""

import sys

from solver.core import interrupts


def main() -> None:
    """Run the ``neutreeko`` command line. SIGINT and SIGTERM are handled from the first moment, so
    that one arriving while the command line is still being imported ends it like one arriving later:
    one line on standard error and exit 130 (143), no traceback."""
    interrupts.install()
    try:
        from solver.cli import cli
    except KeyboardInterrupt as error:
        message, code = interrupts.exit_status(error)
        if sys.stderr is not None:
            sys.stderr.write(f"neutreeko: error: {message}\n")
        sys.exit(code)
    cli(prog_name="neutreeko")


if __name__ == "__main__":
    main()

"""``python -m solver`` and every game's command: :func:`main` (a console script of each), :func:`run`."""

import os
import sys

# Light: what is imported before the handlers are installed is time in which a signal gets Python's traceback.
from solver.core import interrupts


def main() -> None:
    """Run the command line of the game whose command started this process (``neutreeko``, ``necnon``:
    the name the console script was invoked by), or of the default game (``python -m solver``). SIGINT
    and SIGTERM are handled from its first line, so that one arriving while the command line is still
    being imported ends it like one arriving later: one line on standard error and exit 130 (143), no
    traceback; one arriving once the command has ended is ignored, and the command exits as it would
    have. (Before that first line, while the interpreter starts and the console script imports this
    module, Python handles signals as for any program.)"""
    name = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    run(name.removesuffix("-script"))  # setuptools' launchers on Windows: necnon.exe, necnon-script.py


def run(invoked: str) -> None:
    """Install the signal handlers, import the command line and run the group of the game whose command
    is ``invoked`` (the default game's if none is; it exits), then settle the signals
    (:func:`interrupts.settle`) however it ended, so that Python's exit is not cut short. An interrupt
    no command handled (one arriving during the imports, or after the command, before the signals were
    settled) is reported here."""
    program = invoked
    try:
        try:
            interrupts.install()  # inside: a signal arriving as the second handler goes in is reported
            from solver import registry  # light: the games' entries, none of their code
            # python -m solver (this module run as __main__) is the default game's: no entry point is read.
            entry = None if invoked == "__main__" else registry.program(invoked)
            program = (entry or registry.default()).program
            from solver import cli
            cli.group(program)(prog_name=program)
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

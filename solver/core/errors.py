"""Exceptions a user can cause, shared by every game. The command line turns each into one line on
standard error and a non-zero exit (see :mod:`solver.cli.common`)."""


class InputError(Exception):
    """Base of every error caused by input: a board, variant, position, move, option or file."""


class BoardError(InputError, ValueError):
    """A board size or square name that is malformed or not supported."""


class NotationError(InputError, ValueError):
    """A position or move that does not parse, or describes something impossible."""


class IllegalMoveError(NotationError):
    """A well-formed move that the rules do not allow in the position."""


class IllegalPositionError(NotationError):
    """A well-formed position that cannot occur (in Neutreeko: the side to move already has a winning
    triple)."""


class ClusterError(InputError):
    """A compute cluster that cannot run the work asked of it: not installed, unreachable, without workers,
    with workers of another version or that do not reach a shared directory, or lost too often."""


class TableError(InputError):
    """A table file that cannot be used: not ours, damaged, or for another game or variant."""


class TableMismatchError(TableError):
    """A table file for another board or variant than the position or options given (an input error)."""


class TableExistsError(TableError):
    """A file (a valid table or not) is already at the destination and overwriting was not asked for."""


class MissingTableError(TableError, KeyError):
    """No table exists where one was looked for (a ``KeyError``, as for a missing dictionary entry)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "table not found"


class ReleaseError(TableError):
    """A release of tables that cannot be used: a mirror that cannot be reached, a manifest that cannot
    be read, a download that stopped, or a file that does not match what the manifest says of it."""

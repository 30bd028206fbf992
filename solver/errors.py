"""Exceptions a user can cause. The CLI turns each into a one-line message and a non-zero exit."""


class NeutreekoError(Exception):
    """Base of every error caused by input: a board, rule, position, move or table file."""


class BoardError(NeutreekoError, ValueError):
    """A board size or square name that is malformed or not supported."""


class RuleError(NeutreekoError, ValueError):
    """An unknown winning condition, or one not offered on the chosen board."""


class NotationError(NeutreekoError, ValueError):
    """A position or move that does not parse, or describes something impossible."""


class IllegalMoveError(NotationError):
    """A well-formed move that the rules do not allow in the position."""


class IllegalPositionError(NotationError):
    """A well-formed position that cannot occur: the side to move already has a winning triple."""


class TableError(NeutreekoError):
    """A table file that cannot be used: not ours, damaged, or for another board or rule."""


class TableMismatchError(TableError):
    """A table file for another board or rule than the position or options given (an input error)."""


class MissingTableError(TableError, KeyError):
    """No table exists where one was looked for (a ``KeyError``, as for a missing dictionary entry)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "table not found"

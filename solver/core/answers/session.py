"""What every game's play loop shares: a game played in a terminal, move by move, by persons and
machines, its record kept after every move and shown at the end.

A game's match is a :class:`Session`: it says who plays a side, how a machine moves, how a person's
line is read, when the game is over and how its end is shown; the loop, the commands ``undo``, ``save
FILE`` and ``help``, the record written after every move (``--record``) and the end shown when Ctrl-C
stops the game are written here once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Callable, ClassVar, Generic, TypeVar

from solver.core.answers.console import read_line, save_text, until_interrupted
from solver.core.answers.record import GameLine

Write = Callable[[str], None]
Ply = TypeVar("Ply")
Played = TypeVar("Played")

#: How a game stopped before its end: the commands and events that stop it.
QUIT, END_OF_INPUT, INTERRUPTED = "quit", "end of input", "interrupted"


class Session(ABC, Generic[Ply, Played]):
    """A game being played: ``plies``, the moves so far (each a game's own record of one), read from
    lines and written through ``write`` (see :mod:`solver.core.answers.console` for ``echo_input``);
    with ``record_path``, the record is written there after every move and at the end.

    A game names its ``program`` (in the end's last lines), its :attr:`commands` besides a move, the
    first line of its help (:attr:`how_to_move`) and what its board's marks mean (:attr:`marks`)."""

    program: ClassVar[str]
    commands: ClassVar[Mapping[str, str]]
    how_to_move: ClassVar[str]
    marks: ClassVar[str]

    def __init__(self, write: Write, echo_input: bool, record_path: Path | None) -> None:
        self.plies: list[Ply] = []
        self.echo_input = echo_input
        self.record_path = record_path
        self._write = write

    # -- what a game says ----------------------------------------------------------------------------

    @property
    @abstractmethod
    def position(self) -> Any:
        """The position now (it has ``side_to_move``)."""

    @abstractmethod
    def record(self) -> GameLine[Any, Any]:
        """The game so far as a record."""

    @abstractmethod
    def _counted(self, count: int) -> str:
        """``count`` moves in words: ``"3 plies"``, ``"1 turn"``."""

    @abstractmethod
    def _person_to_move(self) -> bool:
        """Whether a person plays the side to move."""

    @abstractmethod
    def _by_person(self, ply: Ply) -> bool:
        """Whether a person made ``ply``."""

    @abstractmethod
    def _name(self, ply: Ply) -> str:
        """``ply``'s move as written."""

    @abstractmethod
    def _over(self) -> bool:
        """Whether the rules end the game here."""

    @abstractmethod
    def _machine_move(self) -> None:
        """Play the move of the side to move, a machine's, and say it."""

    @abstractmethod
    def _command(self, text: str) -> str | None:
        """Carry out a person's line; return ``"move"``, the command it was, or None if it was not
        understood (:meth:`_shared_command` carries out those of every game)."""

    @abstractmethod
    def _check_tables(self) -> None:
        """Raise what opening the tables raises, before any play."""

    @abstractmethod
    def _introduction(self) -> str:
        """What is said first."""

    @abstractmethod
    def _board(self, status: bool = True) -> str:
        """The board now, with a line saying who is to move if ``status``."""

    @abstractmethod
    def _finish(self, stopped: str) -> Played:
        """Show the end of the game (over by the rules if ``stopped`` is ``""``, else stopped by
        :data:`QUIT`, :data:`END_OF_INPUT` or :data:`INTERRUPTED`) and return it."""

    # -- the loop ------------------------------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> Played:
        """Play until the game ends, reading the persons' input from ``lines`` (line ends optional).

        A :class:`KeyboardInterrupt` (Ctrl-C, not SIGTERM) during play shows the end of a game
        stopped, record included, and is raised again: the game is not lost, and the command still
        exits as interrupted."""
        read = iter(lines)
        self._check_tables()  # a missing or broken table fails here, before any play
        self._say(self._introduction())

        def stopped() -> None:
            self._write("\n")  # end the prompt's line (and the terminal's ^C)
            self._finish(INTERRUPTED)

        return until_interrupted(lambda: self._play(read), stopped)

    def _play(self, lines: Iterator[str]) -> Played:
        show_board = True
        while not self._over():
            if not self._person_to_move():
                self._machine_move()
                show_board = True
                continue
            if show_board:
                self._say(self._board())
                show_board = False
            text = read_line(lines, f"{self.position.side_to_move.capitalize()}> ", self._write, self.echo_input)
            if text is None:
                return self._finish(END_OF_INPUT)
            command = self._command(text)
            if command == QUIT:
                return self._finish(QUIT)
            show_board = command in ("move", "undo")
        return self._finish("")

    # -- the commands of every game ------------------------------------------------------------------

    def _shared_command(self, word: str, argument: str) -> str | None:
        """Carry out ``undo``, ``save FILE`` (``argument`` the file) or ``help`` (``word``); return it, or
        None if it could not be done."""
        if word == "undo":
            return word if self._undo() else None
        if word == "save":
            if not argument:
                self._say("save the record where? type save FILE")
                return None
            self._save(Path(argument))
        elif word == "help":
            self._say(self._help())
        return word

    def _undo(self) -> bool:
        """Take back moves up to the last one a person made (and any reply after it); False if there is
        none."""
        back = next((number for number in reversed(range(len(self.plies))) if self._by_person(self.plies[number])),
                    None)
        if back is None:
            self._say("nothing to undo")
            return False
        taken = [self._name(ply) for ply in self.plies[back:]]
        self._take_back(back)
        self._say(f"took back {' '.join(taken)}")
        self._keep_record()
        return True

    def _take_back(self, back: int) -> None:
        """Remove the plies from ``back`` on."""
        del self.plies[back:]

    def _help(self) -> str:
        width = max(len(name) for name in self.commands)
        return "\n".join([self.how_to_move, *(f"  {name:<{width}}  {text}" for name, text in self.commands.items()),
                          self.marks])

    # -- the record ----------------------------------------------------------------------------------

    def _keep_record(self) -> None:
        if self.record_path is not None:
            self._save(self.record_path, quiet=True)

    def _save(self, path: Path, quiet: bool = False) -> None:
        """Write the record to ``path``; say so unless ``quiet``, and say why not if it fails."""
        save_text(path, self.record().text(), self._say,
                  None if quiet else f"saved the record of {self._counted(len(self.plies))} to {path}")

    def _end(self, lines: list[str], stopped: str) -> None:
        """Say ``lines``, then the record; write it unless the game was interrupted (the file is up to
        date then, written after every move, and writing a file is refused: see
        :mod:`solver.core.interrupts`)."""
        record = self.record().text().rstrip("\n")
        lines += [f"the record ({self.program} annotate reads it, play --load continues it):", record]
        if stopped != INTERRUPTED:
            self._keep_record()
        self._say("\n".join(lines))

    def _say(self, text: str) -> None:
        self._write(text + "\n")

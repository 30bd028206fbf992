"""What a game tells the rest of the package about itself (:class:`~solver.core.games.GameEntry`), and how the parts it
names are loaded (:func:`~solver.core.games.load`).

A game is one package that defines ``GAME``, a :class:`GameEntry`, in its ``__init__``; the registry
(:mod:`solver.registry`) lists the packages. The entry names its parts as ``"module:attribute"``
strings, loaded only when used, so that listing the games imports no game's code.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameEntry:
    """One game, as the command line, the explorer and releases see it.

    ``name`` is the game's name in its tables' ``game`` attribute, in releases and in the explorer's
    ``game`` parameter; ``title`` its name in prose (``Neutreeko``); ``program`` is its command; ``example_table`` the file name of a
    small table, for examples in help (``neutreeko-5x5.h5``), and ``example_build`` the command that
    builds it if it is not built unasked (``""``: it is). The parts, as :func:`load` reads them:

    * ``commands``: the :class:`~solver.cli.common.CommandGroup` of the game's own commands;
    * ``web``: a callable ``(directory, builds) -> GameApi`` (see :mod:`solver.web.game_api`);
    * ``tables``: a module with ``convert_table(path, attributes, data) -> object`` (a table of the
      first container format rewritten, its game returned) and ``release_entry(path, attributes) ->
      (file name, table, committed digest or None)``: the name of the table at ``path`` in a release,
      the table opened (its ``describe()`` is the release's entry) and the digest its result bytes must
      have, if one is committed;
    * ``conformance``: the game on a small board, as the test that checks every registered game reads
      it: positions and their keys, children, parents, symmetries and values (a
      :class:`~solver.core.conformance.Conformance`);
    * ``pages`` (optional): a module with ``PAGES``, the game's page files by URL path (``{path: (file
      name, media type)}``, the files in ``static/`` beside the module), and ``palette()``, its
      diagrams' colours by CSS custom property name.
    """

    name: str
    title: str
    program: str
    example_table: str
    commands: str
    web: str
    tables: str
    conformance: str
    example_build: str = ""
    pages: str = ""


def load(spec: str) -> Any:
    """What ``spec`` names: the attribute of a ``"module:attribute"``, or the module of a plain
    ``"module"`` (imported on first use).

    >>> load("solver.core.games:load") is load, load("solver.core.games").__name__
    (True, 'solver.core.games')
    """
    module, _, attribute = spec.partition(":")
    imported = importlib.import_module(module)
    return getattr(imported, attribute) if attribute else imported

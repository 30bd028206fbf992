"""neutreeko-solver: exhaustive solutions of Neutreeko and its variants, and the tools to read them.

The package is layered; a module imports only from its own layer or the ones below:

* :mod:`solver.core`: what every game shares (errors, atomic files, the table container, drawings);
* :mod:`solver.neutreeko`: the game, its solver, tables, queries, analyses and pictures;
* :mod:`solver.cli`: the command line over the games.
"""

__version__ = "0.1.0"

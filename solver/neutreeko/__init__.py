"""Neutreeko: the game, its retrograde solver, its tables and everything that reads them.

* :mod:`~solver.neutreeko.model`: the board, rules, positions, their index and symmetry, values;
* :mod:`~solver.neutreeko.solving`: the retrograde solver over positions and over symmetry classes;
* :mod:`~solver.neutreeko.tables`: writing, opening and building tables, folding, digests, statistics;
* :mod:`~solver.neutreeko.checking`: values re-derived from children, and the published figures;
* :mod:`~solver.neutreeko.querying`: probes, ranked moves, lines, and what the commands print;
* :mod:`~solver.neutreeko.playing`: records, annotation, play, puzzles and training;
* :mod:`~solver.neutreeko.studies`: analyses, the survey of boards, fair starts, the draw graph;
* :mod:`~solver.neutreeko.cli`: its commands;
* :mod:`~solver.neutreeko.web`: its part of the explorer: API and pages;
* :mod:`~solver.neutreeko.drawing`: diagrams, charts and their files.
"""

from solver.core.games import GameEntry

__all__ = ["GAME", "model", "solving", "tables", "checking", "querying", "playing", "studies", "drawing", "cli", "web"]

#: The game, as the registry (:mod:`solver.registry`) lists it.
GAME = GameEntry(name="neutreeko", title="Neutreeko", program="neutreeko", example_table="neutreeko-5x5.h5",
                 commands="solver.neutreeko.cli:cli", web="solver.neutreeko.web.api:NeutreekoApi",
                 tables="solver.neutreeko.tables.table",
                 conformance="solver.neutreeko.model.conformance:CONFORMANCE", pages="solver.neutreeko.web.pages")

"""NECNON (Richard Moxham, 2018), a placement game related to Go on square and hexagonal grids.

* :mod:`~solver.necnon.model`: boards and cells, protocols, positions, keys and symmetry, values;
* :mod:`~solver.necnon.solving`: the exact solver over symmetry classes;
* :mod:`~solver.necnon.tables`: writing, opening and building tables, and their figures;
* :mod:`~solver.necnon.searching`: the search engine for boards too large to solve;
* :mod:`~solver.necnon.querying`: probes, ranked turns, lines, judging a turn, what the commands print;
* :mod:`~solver.necnon.playing`: records, annotation and play;
* :mod:`~solver.necnon.studies`: the survey of boards and protocol settings;
* :mod:`~solver.necnon.cli`: its commands;
* :mod:`~solver.necnon.web`: its part of the explorer: API and pages;
* :mod:`~solver.necnon.drawing`: diagrams and charts.
"""

from solver.core.games import GameEntry

__all__ = ["GAME", "model", "solving", "tables", "searching", "querying", "playing", "studies", "drawing", "cli", "web"]

#: The game, as the registry (:mod:`solver.registry`) lists it.
GAME = GameEntry(name="necnon", title="NECNON", program="necnon", example_table="necnon-3x3-nec.h5",
                 example_build="necnon stats --board 3x3", commands="solver.necnon.cli:cli",
                 web="solver.necnon.web.api:NecnonApi", tables="solver.necnon.tables.table",
                 conformance="solver.necnon.model.conformance:CONFORMANCE", pages="solver.necnon.web.pages")

"""Neutreeko: the game, its retrograde solver, its tables and everything that reads them.

* :mod:`~solver.neutreeko.model`: the board, rules, positions, their index and symmetry, values;
* :mod:`~solver.neutreeko.solving`: the retrograde solver over positions and over symmetry classes;
* :mod:`~solver.neutreeko.tables`: writing, opening and building tables, folding, digests, statistics;
* :mod:`~solver.neutreeko.checking`: values re-derived from children, and the published figures;
* :mod:`~solver.neutreeko.querying`: probes, ranked moves, lines, and what the commands print;
* :mod:`~solver.neutreeko.playing`: records, annotation, play, puzzles and training;
* :mod:`~solver.neutreeko.studies`: analyses, the survey of boards, fair starts, the draw graph;
* :mod:`~solver.neutreeko.drawing`: diagrams, charts and their files.
"""

__all__ = ["model", "solving", "tables", "checking", "querying", "playing", "studies", "drawing"]

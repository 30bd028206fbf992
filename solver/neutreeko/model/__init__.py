"""The game model: the board, the winning rules, positions, their dense index and symmetry, values, outcomes.

* :mod:`~solver.neutreeko.model.board`: squares, names and the eight sliding directions;
* :mod:`~solver.neutreeko.model.rules`: winning conditions and start positions, as data;
* :mod:`~solver.neutreeko.model.game`: a board and a rule, with the lookup arrays the solver and the probes share;
* :mod:`~solver.neutreeko.model.index`: the dense position index;
* :mod:`~solver.neutreeko.model.position`: positions and moves in the notation of the rules;
* :mod:`~solver.neutreeko.model.symmetry`: the board's symmetries and the canonical form of a position;
* :mod:`~solver.neutreeko.model.values`: the one-byte result and the value of a position;
* :mod:`~solver.neutreeko.model.outcome`: how a game or a line ends;
* :mod:`~solver.neutreeko.model.children`: every move of many positions at once, with numpy;
* :mod:`~solver.neutreeko.model.conformance`: the rules on a small board, for the test that checks every game.
"""

__all__ = ["board", "rules", "game", "index", "position", "symmetry", "values", "outcome", "children", "conformance"]

"""The game model: boards and cells, protocols, positions, their keys and symmetry, values.

* :mod:`~solver.necnon.model.grid`: square and hexhex boards, their cells and symmetries;
* :mod:`~solver.necnon.model.rules`: the protocols and a game, as data;
* :mod:`~solver.necnon.model.position`: positions and turns in the notation;
* :mod:`~solver.necnon.model.keys`: keys of positions and their canonical form;
* :mod:`~solver.necnon.model.values`: the evaluation every answer is given in;
* :mod:`~solver.necnon.model.conformance`: the rules on a small board, for the test that checks every game.
"""

__all__ = ["grid", "rules", "position", "keys", "values", "conformance"]

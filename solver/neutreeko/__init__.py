"""Neutreeko: the board and rules, positions and their index, the retrograde solver, the tables, and
everything that reads them (probes, reports, bulk queries, play, analyses, diagrams, the survey).

The modules, from the model up: ``board``, ``rules``, ``game``, ``index``, ``position``, ``symmetry``,
``values``, ``outcome``; ``kernel_inputs``, ``_kernel`` and ``solve``; ``folding``, ``stats``,
``table``, ``build``; ``probe``, ``report``, ``bulk``, ``play``, ``analysis``, ``diagram``,
``pictures``, ``verify``, ``survey``.
"""

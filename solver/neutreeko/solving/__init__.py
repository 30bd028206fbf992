"""The retrograde solver: over positions and over symmetry classes, its numba kernels, saved states.

* :mod:`~solver.neutreeko.solving.solve`: retrograde analysis over positions;
* :mod:`~solver.neutreeko.solving.solve_classes`: retrograde analysis over symmetry classes;
* :mod:`~solver.neutreeko.solving.cluster`: the solve over classes on a Dask cluster (the one module
  that imports Dask, an extra);
* :mod:`~solver.neutreeko.solving.levels`: the loop over levels both solves share;
* :mod:`~solver.neutreeko.solving.spread`: a serial kernel run over a range on several threads;
* :mod:`~solver.neutreeko.solving.kernel_inputs`: the arrays the position kernels read;
* :mod:`~solver.neutreeko.solving.class_inputs`: the arrays the class kernels read;
* :mod:`~solver.neutreeko.solving.checkpoint`: saved states of a long solve;
* :mod:`~solver.neutreeko.solving.memory`: whether a solve fits this machine's memory.
"""

__all__ = ["EVERY", "solve", "solve_classes", "levels", "kernel_inputs", "class_inputs", "checkpoint", "memory",
           "spread", "cluster"]

# Here rather than in checkpoint, so that the help of solve, which shows it, imports no numpy.
#: Seconds of solving between two saves of a solve's state (:mod:`~solver.neutreeko.solving.checkpoint`),
#: unless told otherwise: a save of 9 x 9 over classes (about a gigabyte) takes some seconds, a level
#: there a minute or more.
EVERY = 600.0

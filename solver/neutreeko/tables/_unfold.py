"""Numba kernel that unfolds a folded table a stretch of rows at a time. Private:
:func:`solver.neutreeko.tables.folding.unfolded_stretches` is the public wrapper.

Each index is taken to its class as the folding defines it, the smallest index among its images, with
the forward check's plain functions (:mod:`solver.neutreeko.checking._forward`), not the solver's class
tables. An image's index is its mover's rank times ``C(N - 3, 3)`` plus its other side's squeezed
rank, which is less than ``C(N - 3, 3)``: so only the symmetries that take the row's mover triple to
its smallest image can give the smallest index, and only those are tried (one for nearly every row).
"""

import numba as nb
import numpy as np

from solver.core.jit import njit
from solver.neutreeko.checking._forward import (
    _class_number,
    _lowest_images,
    _smallest_other,
    _squeezed_images,
    _unsqueeze,
)
from solver.neutreeko.model.values import ILLEGAL


@njit(cache=True, parallel=True, error_model="numpy")
def _unfold_rows(folded, first_row, triples, wins, symmetries, other_count, block_start, symmetric,
                 symmetric_indices, out):
    """Fill ``out`` (a whole number of rows of ``other_count`` bytes) with the result bytes of the
    indices from row (mover triple rank) ``first_row`` on: :data:`ILLEGAL` in a row whose mover has won,
    else the byte of the index's class in ``folded``."""
    for r in nb.prange(out.shape[0] // other_count):
        row = first_row + r
        base = r * np.int64(other_count)
        if wins[row]:
            out[base:base + other_count] = ILLEGAL
            continue
        m0, m1, m2 = triples[row, 0], triples[row, 1], triples[row, 2]
        chosen = np.empty(symmetries.shape[0], dtype=np.int64)
        lowest, count = _lowest_images(m0, m1, m2, symmetries, chosen)
        images = _squeezed_images(triples[lowest, 0], triples[lowest, 1], triples[lowest, 2], symmetries, chosen, count)
        for k in range(other_count):
            o0 = _unsqueeze(triples[k, 0], m0, m1, m2)
            o1 = _unsqueeze(triples[k, 1], m0, m1, m2)
            o2 = _unsqueeze(triples[k, 2], m0, m1, m2)
            within = _smallest_other(o0, o1, o2, images, other_count)
            out[base + k] = folded[_class_number(lowest, within, block_start, symmetric, symmetric_indices, other_count)]

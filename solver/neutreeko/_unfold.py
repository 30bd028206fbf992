"""Numba kernel that unfolds a folded table a stretch of rows at a time. Private:
:func:`solver.neutreeko.folding.unfolded_stretches` is the public wrapper.

Each index is taken to its class as the folding defines it, the smallest index among its images, with
the forward check's plain functions (:mod:`solver.neutreeko._forward`), not the solver's class
tables. An image's index is its mover's rank times ``C(N - 3, 3)`` plus its other side's squeezed
rank, which is less than ``C(N - 3, 3)``: so only the symmetries that take the row's mover triple to
its smallest image can give the smallest index, and only those are tried (one for nearly every row).
"""

import numba as nb
import numpy as np

from solver.neutreeko._forward import _class_number, _sorted3, _squeeze, _triple_rank, _unsqueeze
from solver.neutreeko.values import ILLEGAL


@nb.njit(cache=True, parallel=True, error_model="numpy")
def _unfold_rows(folded, first_row, triples, wins, symmetries, other_count, block_start, symmetric,
                 symmetric_indices, out):
    """Fill ``out`` (a whole number of rows of ``other_count`` bytes) with the result bytes of the
    indices from row (mover triple rank) ``first_row`` on: :data:`ILLEGAL` in a row whose mover has won,
    else the byte of the index's class in ``folded``."""
    group = symmetries.shape[0]
    for r in nb.prange(out.shape[0] // other_count):
        row = first_row + r
        base = r * np.int64(other_count)
        if wins[row]:
            out[base:base + other_count] = ILLEGAL
            continue
        m0, m1, m2 = triples[row, 0], triples[row, 1], triples[row, 2]
        # The symmetries taking the mover to its smallest image, and that image's squares.
        lowest = np.int64(1) << 62
        for g in range(group):
            a, b, c = _sorted3(symmetries[g, m0], symmetries[g, m1], symmetries[g, m2])
            lowest = min(lowest, _triple_rank(a, b, c))
        best = np.empty(group, dtype=np.int64)
        count = 0
        for g in range(group):
            a, b, c = _sorted3(symmetries[g, m0], symmetries[g, m1], symmetries[g, m2])
            if _triple_rank(a, b, c) == lowest:
                best[count] = g
                count += 1
        a, b, c = _sorted3(symmetries[best[0], m0], symmetries[best[0], m1], symmetries[best[0], m2])
        for k in range(other_count):
            o0 = _unsqueeze(triples[k, 0], m0, m1, m2)
            o1 = _unsqueeze(triples[k, 1], m0, m1, m2)
            o2 = _unsqueeze(triples[k, 2], m0, m1, m2)
            other = np.int64(other_count)
            for j in range(count):
                g = best[j]
                d, e, f = _sorted3(symmetries[g, o0], symmetries[g, o1], symmetries[g, o2])
                other = min(other, _triple_rank(_squeeze(d, a, b, c), _squeeze(e, a, b, c), _squeeze(f, a, b, c)))
            canonical = lowest * np.int64(other_count) + other
            out[base + k] = folded[_class_number(canonical, block_start, symmetric, symmetric_indices, other_count)]

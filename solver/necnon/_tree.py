"""The numba kernels of the search engine's tree: the choice of a decision at a node and the update of
its figures after a playout.

A node's figures are one array ``stats[row, k]`` (float64), a column for each of its decisions k (see
:class:`solver.necnon.engine.SearchEngine`): the rows :data:`COUNT` (playouts through the decision),
:data:`REWARD` (their reward summed, for the node's mover), :data:`MARGIN` (their final margins summed,
Black minus Green), :data:`WON` (how many the mover won), :data:`AMAF_COUNT` and :data:`AMAF_REWARD`
(the same for the playouts through the node in which the mover laid a stone on the decision's cell
later: "all moves as first").
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

COUNT, REWARD, MARGIN, WON, AMAF_COUNT, AMAF_REWARD = range(6)
ROWS = 6


@njit(cache=True)
def select(stats, visits, exploration, bias):
    """The decision of greatest value at a node of ``visits`` playouts: the mean reward of its n
    playouts blended with the mean of its m AMAF ones, the AMAF weighing ``m / (n + m + 4 bias**2 n m)``
    (Gelly and Silver's), plus ``exploration * sqrt(ln(visits + 1) / (n + 1))``. The first among equals."""
    logarithm = math.log(visits + 1)
    best, best_value = 0, -math.inf
    for k in range(stats.shape[1]):
        n, m = stats[COUNT, k], stats[AMAF_COUNT, k]
        mean = stats[REWARD, k] / n if n > 0 else 0.0
        value = mean
        if m > 0:
            weight = m / (n + m + 4 * bias * bias * n * m)
            value = (1 - weight) * mean + weight * stats[AMAF_REWARD, k] / m
        value += exploration * math.sqrt(logarithm / (n + 1))
        if value > best_value:
            best, best_value = k, value
    return best


@njit(cache=True)
def update(stats, k, decisions, final, stone, reward, margin, won):
    """Count a playout through decision ``k`` of a node: its ``reward`` for the mover, its ``margin``,
    whether the mover ``won``; and in the AMAF rows every decision whose cell holds the mover's
    ``stone`` on the playout's ``final`` board (no decision for a pass: ``stone`` 0)."""
    stats[COUNT, k] += 1
    stats[REWARD, k] += reward
    stats[MARGIN, k] += margin
    stats[WON, k] += won
    if stone == 0:
        return
    for j in range(len(decisions)):
        if final[decisions[j]] == stone:
            stats[AMAF_COUNT, j] += 1
            stats[AMAF_REWARD, j] += reward


@njit(cache=True)
def shuffled(cells):
    """``cells`` in a random order (numba's generator, which :func:`solver.necnon._playout.seed` seeds)."""
    order = cells.copy()
    for i in range(len(order) - 1, 0, -1):
        j = np.random.randint(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


@njit(cache=True)
def second_stones(allowed, first, decisions, stats):
    """The decisions of a second stone after the first stone ``first`` (a decision of a node of
    ``decisions`` and figures ``stats``): the ``allowed`` cells after it, shuffled; and their figures,
    zero but for the AMAF rows, copied from the first stone's node for the same cells (the same player
    laying a stone there)."""
    seconds = shuffled(allowed[allowed > first])
    figures = np.zeros((ROWS, len(seconds)))
    for k in range(len(seconds)):
        for j in range(len(decisions)):  # the last allowed cell is a second stone only: not found
            if decisions[j] == seconds[k]:
                figures[AMAF_COUNT, k] = stats[AMAF_COUNT, j]
                figures[AMAF_REWARD, k] = stats[AMAF_REWARD, j]
                break
    return seconds, figures

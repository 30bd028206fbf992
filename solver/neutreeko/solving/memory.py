"""Whether a solve fits this machine's memory: its state is 1.125 bytes an item (an index, or a
symmetry class; see :mod:`solver.neutreeko.solving._kernel`), and a state larger than the memory would have the
system stop the solve after a long wait, or slow the machine to a halt."""

from __future__ import annotations

import os

from solver.neutreeko.model.game import Game


def physical_memory() -> int | None:
    """This machine's memory in bytes, or None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def state_bytes(items: int) -> int:
    """The state of a solve of ``items`` indices or classes."""
    return items * 9 // 8


def fits_over_positions(game: Game) -> bool:
    """Does the solve of ``game`` over positions fit :func:`physical_memory` (or does the system not say)?"""
    memory = physical_memory()
    return memory is None or state_bytes(game.positions) <= memory

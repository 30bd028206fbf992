"""Every registered game, and the toy game of :mod:`tests.toy_game`, on a small board through its
``conformance`` part (:class:`solver.core.conformance.Conformance`): keys round trip, children and
parents agree, symmetry keeps values and moves, and every value the solver gives is the one the game's
rule derives from the values of the position's children."""

from __future__ import annotations

import pytest

from solver import registry
from solver.core.games import load
from tests import toy_game

pytestmark = pytest.mark.kernel

GAMES = [*registry.games(), toy_game.GAME]


@pytest.fixture(scope="module", params=GAMES, ids=[entry.name for entry in GAMES])
def game(request):
    """(conformance part, every position, children by key, values by key) of one game."""
    part = load(request.param.conformance)
    positions = part.positions()
    children = {part.encode(position): [part.encode(child) for child in part.children(position)]
                for position in positions}
    return part, positions, children, part.solve_small()


def test_keys_round_trip(game):
    part, positions, _, _ = game
    keys = [part.encode(position) for position in positions]
    assert len(set(keys)) == len(keys) > 1
    assert all(part.encode(part.decode(number)) == number for number in keys)


def test_children_and_parents_agree(game):
    part, positions, children, _ = game
    assert set().union(*map(set, children.values())) <= children.keys()  # no move leaves the positions
    if part.parents is None:
        pytest.skip("a game without unmoves: children only")
    parents = {part.encode(position): {part.encode(parent) for parent in part.parents(position)}
               for position in positions}
    assert set().union(*parents.values()) <= parents.keys()
    pairs = {(parent, child) for parent, kids in children.items() for child in kids}
    assert pairs == {(parent, child) for child, found in parents.items() for parent in found}


def test_symmetry_keeps_values_and_moves(game):
    part, positions, children, values = game
    for position in positions[::7]:
        images = part.images(position)
        assert part.encode(images[0]) == part.encode(position)
        kids = [part.images(part.decode(child)) for child in children[part.encode(position)]]
        for g, image in enumerate(images):
            assert values[part.encode(image)] == values[part.encode(position)]
            assert sorted(part.encode(child) for child in part.children(image)) == \
                sorted(part.encode(child[g]) for child in kids)


def test_every_value_follows_from_the_children(game):
    part, positions, children, values = game
    assert values.keys() == children.keys()
    for position in positions:
        number = part.encode(position)
        assert part.value(position, [values[child] for child in children[number]]) == values[number], position

"""The variations of records as every game reads them (:class:`solver.core.answers.record.TreeReader`),
through both games: a parenthesis out of place is refused in one line naming its line and the problem,
in the game's own words."""

from __future__ import annotations

import pytest

from solver.necnon.playing.record import parse_record as parse_necnon
from solver.neutreeko.playing.record import parse_record as parse_neutreeko
from tests.helpers import assert_record_refused

#: Each game's reader, the tags before the moves, a first move, another in its place and a reply to
#: that one, and what a move is called.
GAMES = {"neutreeko": (parse_neutreeko, "", "1. C4-C3", "1. B1-C1", "1... B5-A5", "move"),
         "necnon": (parse_necnon, '[Board "3x3"]\n', "1. b2", "1. a1", "2. a2,b3", "turn")}


@pytest.mark.parametrize("game", GAMES)
def test_misplaced_parentheses_name_the_line_and_the_problem(game):
    parse, tags, first, other, reply, unit = GAMES[game]
    line = tags.count("\n") + 1  # of the first moves
    cases = [(f"{first} ({other}\n{reply}", [f"line {line + 1}", "not closed", f"opened on line {line}"]),
             (f"{first} ) {reply}", [f"line {line}", ") closes no variation"]),
             (f"({first}) {other}", [f"line {line}", f"( must follow the {unit}"]),
             (f"{first} () {reply}", [f"line {line}", f"() has no {unit}s"])]
    for text, words in cases:
        assert_record_refused(parse, tags + text, words)

"""The search engine: its exact endgame (``solver.necnon.searching.endgame``) against the tables on sampled
positions of small boards, its budget and its resumption; the perfect turn in every sampled position
of 3 x 3 and hex2; the RAVE figures of its tree (``solver.necnon.searching._tree``); the reuse of its tree
between searches."""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.necnon.model.position import PASS, Position, Turn
from solver.necnon.model.rules import SETTINGS, Game
from solver.necnon.querying.probe import Tablebase
from solver.necnon.querying.report import search_object
from solver.necnon.searching import _playout, _tree
from solver.necnon.searching import engine as engine_module
from solver.necnon.searching import tree as tree_module
from solver.necnon.searching.endgame import MAX_EMPTY, EndgameSolver, Proven, board_bytes
from solver.necnon.searching.engine import SearchEngine
from solver.necnon.searching.tree import SearchTree, ranked
from solver.necnon.tables.build import build_table
from solver.necnon.tables.table import table_path

pytestmark = pytest.mark.kernel

#: Every protocol setting of the boards sampled: small enough to solve in a moment.
GAMES = tuple(Game.of(board, setting) for board in ("3x3", "hex2", "4x3") for setting in SETTINGS)


@pytest.fixture(scope="module")
def tablebase(tmp_path_factory) -> Tablebase:
    directory: Path = tmp_path_factory.mktemp("endgame-tables")
    for game in GAMES:
        build_table(game, directory / table_path(game).name)
    with Tablebase(directory) as tables:
        yield tables


def sampled(game: Game, count: int, seed: int) -> list[Position]:
    """``count`` positions of random games of ``game`` that are not over, each at a random point."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = Position.empty(game)
        stop = rng.randrange(game.grid.cells)
        while not position.over and (position.black | position.green).bit_count() < stop:
            position = position.play(rng.choice(position.turns()))
        if not position.over:
            positions.append(position)
    return positions


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("game", GAMES, ids=str)
def test_the_solver_agrees_with_the_table_and_its_turn_keeps_the_value(tablebase, game, threads):
    """Alone, or two searches at once sharing the table (its slots written by both threads)."""
    solver = EndgameSolver(game, table_bits=12, threads=threads)  # entries are overwritten, values stay exact
    for position in [Position.empty(game), *sampled(game, 25, seed=len(str(game)))]:
        solved = solver.solve(position, 10**8, threads=threads)
        assert solved is not None
        value = tablebase.probe(position).margin
        assert solved.margin == value, position.notation()
        assert solved.turn in position.turns()
        after = position.play(solved.turn)
        assert (after.margin() if after.over else tablebase.probe(after).margin) == value, position.notation()


def last_positions(game: Game, games: int, seed: int) -> list[Position]:
    """The positions with at most four empty cells, not over, of ``games`` random games of ``game``."""
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        position = Position.empty(game)
        while not position.over:
            if game.grid.cells - (position.black | position.green).bit_count() <= 4:
                positions.append(position)
            position = position.play(rng.choice(position.turns()))
    return positions


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_the_forced_ends_of_games_agree_with_the_table(tablebase, game):
    """With at most two cells empty every turn is forced, and the solver plays the game out: checked
    against the table on the last positions of random games, among them positions after a pass and
    positions whose mover must pass."""
    positions = last_positions(game, 40, seed=len(str(game)))
    assert any(position.passes == 1 for position in positions)
    assert any(position.turns() == (PASS,) for position in positions)
    for position in positions:
        solved = EndgameSolver(game, table_bits=12).solve(position, 10**6)
        assert solved is not None and solved.margin == tablebase.probe(position).margin, position.notation()


@pytest.mark.parametrize("share", [4, 300, 20_000])
def test_a_budget_too_small_returns_none_and_a_later_call_goes_on(tablebase, share):
    """A search cut into pieces of 1/``share`` of its nodes (down to a few nodes a piece, stopping at
    every depth) visits the nodes of one search at once, and finds the same value and turn."""
    game = Game.of("4x3", "non-nec")
    position = Position.empty(game)
    whole = EndgameSolver(game).solve(position, 10**8)
    assert whole is not None and whole.margin == tablebase.probe(position).margin == -1
    solver = EndgameSolver(game)
    piece = max(1, whole.nodes // share)
    # A few more pieces than the share: a piece that ends within a few nodes of a test's end leaves
    # the next test its own piece.
    pieces = [solver.solve(position, piece) for _ in range(share + 20)]
    assert pieces[0] is None  # a piece does not suffice
    solved = [piece for piece in pieces if piece is not None]
    assert solved and solved[0].margin == whole.margin and solved[0].turn == whole.turn
    assert solved[0].nodes == whole.nodes  # each piece went on where the last stopped: the same search


def test_a_search_stopped_by_the_clock_goes_on_where_it_stopped(tablebase):
    """Stopped by a deadline (a fifth of a millisecond a piece: the whole search takes a few
    milliseconds, so it is cut however fast the machine), the search resumes as from a budget: the same
    nodes as one search at once."""
    game = Game.of("4x3", "nec")
    position = Position.empty(game)
    whole = EndgameSolver(game).solve(position, None)
    solver = EndgameSolver(game)
    assert solver.solve(position, None, deadline=time.perf_counter()) is None  # the time is up at once
    pieces = 1
    solved = None
    while solved is None:
        solved = solver.solve(position, None, deadline=time.perf_counter() + 0.0002)
        pieces += 1
    assert whole is not None and pieces > 2
    assert (solved.margin, solved.turn, solved.nodes) == (whole.margin, whole.turn, whole.nodes)


def test_what_a_search_not_finished_has_proven_holds(tablebase):
    """Between pieces of a search, the turn of the proven floor is worth at least that floor, and no
    turn is worth more than the ceiling the table proves for it (both from the mover's side)."""
    game = Game.of("4x3", "non-nec")
    for position in [Position.empty(game).play_line("b2"), *sampled(game, 4, seed=3)]:
        solver = EndgameSolver(game)
        worth = {entry.turn: entry.evaluation.margin for entry in tablebase.turns(position)}  # Black minus Green
        mover = 1 if position.black_to_move else -1
        floors = 0
        while solver.solve(position, 500) is None:
            proven = solver.proven()
            if proven is not None:
                floors += 1
                assert mover * worth[proven.turn] >= proven.floor, position.notation()
            for turn, value in worth.items():
                ceiling = solver.ceiling(turn)
                assert ceiling is None or mover * value <= ceiling, (position.notation(), turn)
        assert floors or position != Position.empty(game).play_line("b2")


def test_a_turn_to_try_first_leaves_the_value_as_it_is(tablebase):
    """The value stays; the best turn first shortens the search; the worst first is refuted in every
    test, so that the table proves it worse than the value."""
    game = Game.of("4x3", "nec-non")
    position = Position.empty(game).play_line("b2")
    value = tablebase.probe(position).margin
    ranked = tablebase.turns(position)
    best, worst = ranked[0].turn, ranked[-1].turn
    plain = EndgameSolver(game).solve(position, 10**8)
    guided = EndgameSolver(game).solve(position, 10**8, first=best)
    solver = EndgameSolver(game)
    misled = solver.solve(position, 10**8, first=worst)
    assert plain is not None and guided is not None and misled is not None
    assert plain.margin == guided.margin == misled.margin == value
    assert guided.nodes < plain.nodes  # the best turn first: the others only need refuting
    assert -ranked[-1].evaluation.margin < -value  # Green to move: its worst turn loses points
    ceiling = solver.ceiling(worst)
    assert ceiling is not None and -ranked[-1].evaluation.margin <= ceiling < -value


def test_the_solver_refuses_a_finished_game_or_too_many_empty_cells():
    ended = Position.empty(Game.of("2x2")).play_line("a1 a2,b2 b1")
    with pytest.raises(ValueError, match="over"):
        EndgameSolver(ended.game).solve(ended, 100)
    large = Game.of("6x6")
    assert large.grid.cells - 1 > MAX_EMPTY
    with pytest.raises(ValueError, match=f"at most {MAX_EMPTY}"):
        EndgameSolver(large).solve(Position.empty(large).play_line("c3"), 100)


@pytest.mark.parametrize("board", ["3x3", "hex2"])
def test_the_engine_finds_the_perfect_turn_in_every_sampled_position(tablebase, board):
    for setting in SETTINGS:
        game = Game.of(board, setting)
        engine = SearchEngine(game, seed=1, iterations=200)
        for position in sampled(game, 20, seed=7):
            turn, verdict = engine.choose(position)
            after = position.play(turn)
            value = tablebase.probe(position).margin
            assert verdict.solved and verdict.turns[0].mean_margin == value
            assert (after.margin() if after.over else tablebase.probe(after).margin) == value, position.notation()


def test_a_solved_verdict_says_so():
    game = Game.of("3x3", "non")
    position = Position.empty(game).play_line("b2 a1,c3 a3,c1")
    verdict = SearchEngine(game, seed=1, iterations=10).search(position)
    # The playouts ran beside the endgame: the tree search looks whether it has ended every 32 playouts.
    assert verdict.solved and verdict.iterations == 10 and verdict.nodes > 0 and len(verdict.turns) == 1
    assert verdict.turns[0].mean_margin == 3 and verdict.turns[0].won == 0.0  # Green to move loses by 3
    assert "solved exactly" in verdict.lines()[0] and "keeps the perfect margin +3" in verdict.lines()[1]
    answer = search_object(position, verdict)
    assert answer["solved"] is True and answer["turns"][0]["mean_margin"] == 3 and answer["floor"] is None


def test_a_solved_endgame_ends_the_turn_before_its_time():
    """The tree search stops once the endgame, on its own thread, has solved the position."""
    game = Game.of("4x3", "nec-non")
    verdict = SearchEngine(game, seed=1, seconds=30).search(Position.empty(game).play_line("b2"))
    assert verdict.solved and verdict.seconds < 10


def test_a_failure_of_the_endgame_s_thread_reaches_the_caller(monkeypatch):
    def broken(*_, **__):
        raise RuntimeError("the endgame broke")

    monkeypatch.setattr(EndgameSolver, "solve", broken)
    game = Game.of("4x3", "nec")
    with pytest.raises(RuntimeError, match="the endgame broke"):
        SearchEngine(game, seed=1, iterations=50).search(Position.empty(game))


@pytest.mark.parametrize("ceiling", [0, 1])
def test_the_tree_s_choice_gives_way_only_to_a_turn_proven_better(monkeypatch, ceiling):
    """The endgame not finished: a turn it proved worth at least 1 replaces the tree's choice if the
    table proves that choice worth at most 0, not if at most 1."""
    game = Game.of("4x3", "nec")
    position = Position.empty(game).play_line("b2")
    monkeypatch.setattr(EndgameSolver, "solve", lambda *_, **__: None)
    choice = SearchEngine(game, seed=1, iterations=300).choose(position)[0]
    other = next(turn for turn in position.turns() if turn != choice)
    monkeypatch.setattr(EndgameSolver, "proven", lambda _: Proven(other, 1))
    monkeypatch.setattr(EndgameSolver, "ceiling", lambda _, turn: ceiling if turn == choice else None)
    turn, verdict = SearchEngine(game, seed=1, iterations=300).choose(position)
    if ceiling < 1:
        assert turn == other and verdict.floor == 1 and verdict.turns[1].turn == choice
        assert f"proved {other.name(game.grid)} worth at least +1" in "\n".join(verdict.lines())
    else:
        assert turn == choice and verdict.floor is None
    answer = search_object(position, verdict)
    assert answer["floor"] == verdict.floor and answer["turns"][0]["turn"] == turn.name(game.grid)


def test_the_endgame_s_table_serves_the_whole_game(tablebase):
    """One solver follows a game turn by turn, its table kept from one position to the next (and begun
    anew for a position of another game): every value is the table's, every turn keeps it."""
    game = Game.of("4x3", "non-nec")
    solver = EndgameSolver(game, table_bits=14)
    rng = random.Random(3)
    for _ in range(3):
        position = Position.empty(game)
        while not position.over:
            solved = solver.solve(position, 10**8)
            assert solved is not None and solved.margin == tablebase.probe(position).margin, position.notation()
            after = position.play(solved.turn)
            assert (after.margin() if after.over else tablebase.probe(after).margin) == solved.margin
            position = position.play(rng.choice(position.turns()))


def test_the_engine_is_reproducible_while_its_endgame_runs_beside_it():
    game = Game.of("hex3", "non-nec")

    def game_played() -> list[str]:
        engine, position, names = SearchEngine(game, seed=4, iterations=500), Position.empty(game), []
        while not position.over and len(names) < 4:
            turn, verdict = engine.choose(position)
            names.append(f"{turn.name(game.grid)} {verdict.solved} {verdict.turns[0].visits}")
            position = position.play(turn)
        return names

    assert game_played() == game_played()


def test_the_tree_search_decides_when_the_endgame_runs_out_of_nodes():
    """From hex3's empty board the endgame does not fit 200 nodes a playout: the playouts choose."""
    game = Game.of("hex3", "nec")
    verdict = SearchEngine(game, seed=1, iterations=300).search(Position.empty(game))
    assert not verdict.solved and verdict.iterations == 300 and len(verdict.turns) > 1


def test_a_search_reuses_the_tree_of_the_last_one():
    """The position after the engine's own turn is in its last tree: the next search counts those
    playouts again, reproducibly; a fresh engine, or a position not in the tree, starts afresh."""
    game = Game.of("hex4", "nec")
    position = Position.empty(game).play_line("d4 a1,a2")

    def two_searches() -> tuple[int, tuple]:
        engine = SearchEngine(game, seed=2, iterations=300)
        turn, first = engine.choose(position)
        chosen = first.turns[0].visits
        second = engine.search(position.play(turn))
        assert second.iterations == 300 and sum(entry.visits for entry in second.turns) > 300
        return chosen, second.turns

    assert two_searches() == two_searches()
    elsewhere = Position.empty(game).play_line("a1")
    engine = SearchEngine(game, seed=2, iterations=300)
    engine.search(position)
    assert sum(entry.visits for entry in engine.search(elsewhere).turns) <= 300


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["3x3", "hex3", "6x6", "hex5", "2x7"]), st.sampled_from(list(SETTINGS)),
       st.integers(0, 2**31 - 1))
def test_a_playout_plays_by_the_rules_to_the_end(board, setting, seed):
    """Every turn of a random playout, replayed from the turn number it gives each stone, is a turn of
    the position it was played in (a pass exactly when nothing is allowed), and the game it plays ends
    (after the passes that lay no stone) with the margin it returns."""
    game = Game.of(board, setting)
    position = sampled(game, 1, seed)[0]
    final, laid = np.empty(game.grid.cells, dtype=np.int8), np.empty(game.grid.cells, dtype=np.int64)
    _playout.seed(seed)
    margin = _playout.playout(board_bytes(position), position.black_to_move, position.passes, game.nec,
                              game.grid.neighbour_table, final, laid)
    assert set(np.flatnonzero(laid == 0)) == {cell for cell in range(game.grid.cells) if position.stone(cell)}
    for turn in range(1, int(laid.max()) + 1):
        played = Turn(tuple(int(cell) for cell in np.flatnonzero(laid == turn)))
        assert played in position.turns(), (position.notation(), played)
        position = position.play(played)
    for _ in range(2):  # the passes that end the game lay no stone
        if not position.over:
            assert position.turns() == (Turn(()),), position.notation()
            position = position.play(Turn(()))
    assert position.over and position.margin() == margin
    assert all(final[cell] == {None: 0, "black": 1, "green": 2}[position.stone(cell)] for cell in range(len(final)))


def test_a_full_tree_searches_on_without_growing(monkeypatch):
    """Once its arrays hold as many decisions as it may, a tree adds no node, yet every iteration still
    plays out and counts at the root; with room, the same search adds a node or two each time (and
    ranks the turns it went through)."""
    game = Game.of("hex4", "nec")
    position = Position.empty(game).play_line("d4 a1,a2")

    def searched() -> tuple[int, int]:
        tree = SearchTree(game, 0.1, 0.1)
        _playout.seed(5)
        tree.start(position, reuse=False)
        tree.run(400)
        return tree.nodes, tree.visits

    nodes, visits = searched()
    assert visits == 400 and nodes > 400
    tree = SearchTree(game, 0.1, 0.1)
    tree.start(position, reuse=False)
    tree.run(400)
    assert sum(entry.visits for entry in ranked([tree])) == 400
    monkeypatch.setattr(tree_module, "FIRST_NODES", 4)
    monkeypatch.setattr(tree_module, "MAX_DECISIONS", 4 * game.grid.cells)
    nodes, visits = searched()
    assert visits == 400 and nodes <= 4


def test_the_amaf_figures_count_the_mover_s_later_stones_and_guide_the_choice():
    decisions = np.array([4, 0, 2])
    stats = np.zeros((_tree.ROWS, 3))
    final = np.array([1, 0, 1, 2, 2], dtype=np.int8)  # Black laid cells 0 and 2, Green 3 and 4
    _tree.update(stats, 0, decisions, final, 1, -0.5, -3, False)  # Black tried cell 4 and lost
    assert stats[_tree.COUNT].tolist() == [1, 0, 0] and stats[_tree.REWARD, 0] == -0.5
    assert stats[_tree.AMAF_COUNT].tolist() == [0, 1, 1] and stats[_tree.AMAF_REWARD].tolist() == [0, -0.5, -0.5]
    _tree.update(stats, 1, decisions, np.array([1, 0, 0, 2, 2], dtype=np.int8), 1, 1.0, 2, True)
    # Cell 0 won once and lost once as AMAF, cell 2 only lost: with no exploration, the choice is cell 0
    assert _tree.select(stats, 2, 0.0, 0.1) == 1
    _tree.update(stats, 2, decisions, final, 0, 1.0, 2, True)  # a pass (no stone): no AMAF figures
    assert stats[_tree.AMAF_COUNT].tolist() == [0, 2, 1]


@pytest.mark.parametrize(("board", "line"), [("7x3", ""), ("6x6", ""), ("hex3", ""), ("3x3", "b2"), ("7x3", "d2"),
                                             ("4x4", "b2 c3,b3"), ("7x3", "c1")])
def test_a_new_root_lays_its_first_stones_only_where_no_symmetry_maps_lower(board, line):
    """A new root's first (or only) stones are the cells that no symmetry of its position maps to a lower
    cell, and every turn of the position is the image under such a symmetry of a turn among them: the
    root's own turns, their first stone on one of those cells and the second on any later one."""
    game = Game.of(board, "nec")
    position = Position.empty(game).play_line(line)
    tree = SearchTree(game, 0.1, 0.1)
    tree.start(position, reuse=False)
    tree.run(1)  # lists the root's decisions if the start has not
    firsts = set(tree._decisions(tree._root)[0].tolist())
    stones = board_bytes(position)
    fixing = [image for image in game.grid.symmetries if (stones[image] == stones).all()]
    lowest = {cell for cell in range(game.grid.cells) if all(image[cell] >= cell for image in fixing)}
    assert firsts == {min(turn.cells) for turn in position.turns()} & lowest
    for turn in position.turns():
        assert any(min(int(image[cell]) for cell in turn.cells) in firsts for image in fixing), turn.cells
    assert len(firsts) < len({min(turn.cells) for turn in position.turns()}) or len(fixing) == 1


def test_a_reused_root_keeps_its_first_stones_only_where_no_symmetry_maps_lower():
    """A root the last search's tree holds, and a symmetry maps to itself (3 x 3 after b2, under all
    eight): it keeps the decisions on the cells that no symmetry maps lower, each with its figures."""
    game = Game.of("3x3", "nec")
    empty = Position.empty(game)
    centre = next(turn for turn in empty.turns() if turn.name(game.grid) == "b2")
    tree = SearchTree(game, 0.1, 0.1)
    tree.start(empty, reuse=False)
    tree.run(2000)
    cells, _, stats = tree._decisions(tree._child_at(tree._root, centre.cells[0]))
    before = {cell: stats[:, k].tolist() for k, cell in enumerate(cells.tolist())}
    tree.start(empty.play(centre))
    cells, _, stats = tree._decisions(tree._root)
    after = {cell: stats[:, k].tolist() for k, cell in enumerate(cells.tolist())}
    assert set(after) == {0, 1} and len(before) == 7  # a1 and b1 of the seven first stones (c3 is never first)
    assert after == {cell: before[cell] for cell in after} and all(figures[0] > 0 for figures in after.values())


def test_thinking_for_a_time_the_engine_runs_the_endgame_only_where_it_may_finish():
    """On the empty 7 x 3 board (21 cells empty, more than SOLVING_EMPTY) the endgame runs beside a
    number of playouts, but not beside a time, which both cores then spend on the tree search."""
    game = Game.of("7x3", "non-nec")
    position = Position.empty(game)
    assert game.grid.cells > engine_module.SOLVING_EMPTY
    assert SearchEngine(game, seed=1, iterations=64).search(position).nodes > 0
    timed = SearchEngine(game, seed=1, seconds=0.3).search(position)
    assert timed.nodes == 0 and not timed.solved and timed.iterations > 0

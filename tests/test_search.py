"""Choosing moves: the rules layer vets the core, and the clock never gives a move all the time."""
from __future__ import annotations

import dataclasses
import logging
import random

import pytest

from engine import core, search
from engine.clock import Clock
from engine.games import SPECS
from engine.games.dvonn.rules import DvonnGame
from engine.games.tzaar.rules import TzaarGame
from engine.protocol.options import Options
from engine.search import think


class FakeResult:
    def __init__(self, moves):
        self.moves, self.score, self.depth, self.nodes, self.time_ms, self.pv = moves, 0, 1, 1, 1.0, []
        self.lines = []


@pytest.fixture
def core_suggests(monkeypatch):
    """Make the 'core' suggest exactly the given raw move tuples."""
    def install(moves):
        monkeypatch.setattr(search.core, "AVAILABLE", True)
        monkeypatch.setattr(search.core, "search", lambda *a, **k: FakeResult(moves))
    return install


@pytest.mark.parametrize("game, bad", [
    (DvonnGame(), [("move", 0, 1)]),                         # a stack move during placement
    (DvonnGame(), [("place", -1, 99)]),                      # no such point
    (TzaarGame(), [("capture", 0, 1)]),                      # A1xA2: own stack
    (TzaarGame(), [("stack", 0, 4), ("pass", -1, -1)]),      # two actions on White's opening turn
    (TzaarGame(), []),                                       # nothing at all
])
def test_an_illegal_core_suggestion_is_logged_and_replaced_by_a_legal_move(core_suggests, caplog, game, bad):
    core_suggests(bad)
    with caplog.at_level(logging.ERROR, logger="engine.search"):
        thought = think(game, Options(), Clock())
    assert thought.source == "python"
    game.check_move(thought.move)
    assert "illegal move" in caplog.text


def test_a_legal_core_suggestion_is_played_as_given(core_suggests):
    game = TzaarGame()
    core_suggests([("capture", 4, 3)])  # A5xA4, one of White's 42 opening captures
    thought = think(game, Options(), Clock())
    assert thought.source == "core"
    assert game.move_text(thought.move) == "A5xA4"


def test_python_player_option_bypasses_the_core(core_suggests):
    core_suggests([("capture", 0, 1)])
    thought = think(TzaarGame(), Options(player="python"), Clock())
    assert thought.source == "python"


@pytest.mark.parametrize("moves_to_go", [1, 2, 10, 80])
def test_clock_budget_is_a_share_never_the_whole_remaining_time(moves_to_go):
    clock = Clock()
    clock.set_game(5000.0)
    budget = clock.budget_ms(0, moves_to_go)
    assert 0 < budget <= 2500
    assert budget <= 5000 / moves_to_go


def test_clock_counts_spent_time_and_increment_per_side():
    clock = Clock()
    clock.set_game(10_000.0, increment_ms=500.0)
    clock.spend(0, 2_000.0)
    assert clock.remaining_ms == [8_500.0, 10_000.0]


def test_canadian_byo_yomi_spreads_the_period_over_its_stones():
    clock = Clock()
    clock.set_game(0.0, byo_yomi_ms=30_000.0, byo_yomi_stones=10)
    clock.spend(1, 0.0)  # main time is gone: the first period starts
    assert clock.stones_left[1] == 10
    assert clock.budget_ms(1, 40) <= 3_000


def test_time_left_from_the_controller_overrides_our_count():
    clock = Clock()
    clock.set_game(60_000.0)
    clock.set_left(1, 1_000.0, 0)
    assert clock.budget_ms(1, 5) <= 500


@pytest.mark.parametrize("moves_to_go, last", [(1, True), (2, True), (3, False), (40, False)])
def test_the_clocks_last_moves_are_those_it_gives_half_of_what_is_left(moves_to_go, last):
    clock = Clock()
    clock.set_game(5000.0)
    assert clock.last_moves(0, moves_to_go) is last
    assert (clock.budget_ms(0, moves_to_go) == clock.budget_ms(0, 1)) is last


def test_no_clock_and_byo_yomi_have_no_last_moves():
    assert not Clock().last_moves(0, 1)
    clock = Clock()
    clock.set_game(0.0, byo_yomi_ms=30_000.0, byo_yomi_stones=10)
    clock.spend(0, 0.0)  # main time is gone: a period starts afresh after its stones
    assert not clock.last_moves(0, 1)


def dvonn_stacking(max_stacks: int) -> DvonnGame:
    """A DVONN stacking position from random play with at most max_stacks stacks and a choice
    of moves."""
    for seed in range(100):
        rng, game = random.Random(seed), DvonnGame()
        while not game.over:
            moves = game.legal_moves()
            stacks = sum(1 for cell in game.cells if cell)
            if game.placed == 49 and stacks <= max_stacks and len(moves) > 1:
                return game
            game.push(rng.choice(moves))
    raise AssertionError("no such position in 100 random games")


@pytest.mark.skipif(not core.AVAILABLE, reason="compiled core unavailable")
def test_the_clocks_last_moves_may_start_iterations_until_their_budgets_end(monkeypatch):
    asked = []
    real = core.search
    monkeypatch.setattr(search.core, "search", lambda *a, **k: asked.append(k) or real(*a, **k))
    clock = Clock()
    clock.set_game(1000.0)
    for game in (dvonn_stacking(49), dvonn_stacking(26)):
        think(game, Options(), clock)
        think(game, Options(movetime=50), clock)  # the controller's time per move: the share
    first, first_movetime, last, last_movetime = asked
    assert first["soft_ms"] is None and first_movetime["soft_ms"] is None
    assert last["time_ms"] is not None and last["soft_ms"] == last["time_ms"]
    assert last_movetime["soft_ms"] is None


def test_no_limit_at_all_means_a_default_time_per_move():
    assert search.time_limit_ms(DvonnGame(), Options(), Clock()) == search.DEFAULT_MOVETIME_MS
    assert search.time_limit_ms(DvonnGame(), Options(depth=4), Clock()) is None
    assert search.time_limit_ms(DvonnGame(), Options(movetime=250), Clock()) == 250


@pytest.mark.skipif(not core.AVAILABLE, reason="compiled core unavailable")
@pytest.mark.parametrize("make", [DvonnGame, TzaarGame])
def test_core_moves_are_legal_through_whole_games(make):
    game = make()
    options = Options(depth=2)
    while not game.over:
        thought = think(game, options, Clock())
        assert thought.source in ("core", "solver", "forced")
        game.check_move(thought.move)
        game.push(thought.move)


def test_a_forced_dvonn_pass_is_answered_without_searching(core_suggests):
    # White's only stack (a red under a white on A1) has nothing two points away;
    # Black can still move onto H3: White must pass
    game = DvonnGame.from_position(
        "dvonn w move RW,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,R,R,B,-,-/"
        "-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-")
    assert game.legal_moves() == [("pass", -1, -1)]
    core_suggests([("move", 0, 1)])  # would be illegal: the core must not even be asked
    thought = think(game, Options(), Clock())
    assert thought.source == "forced"
    assert game.move_text(thought.move) == "pass"


# --- every kind of core failure falls back to the Python player --------------------------

def _movement_game() -> DvonnGame:
    game = DvonnGame()
    while game.phase == "placement":
        game.push(game.legal_moves()[0])
    return game


def _fails_over(game, caplog, options=None, on_progress=None) -> None:
    with caplog.at_level(logging.ERROR, logger="engine.search"):
        thought = think(game, options or Options(depth=2), Clock(), on_progress=on_progress)
    assert thought.source == "python"
    assert game.check_move(thought.move) == thought.move
    assert "the core failed" in caplog.text


needs_core = pytest.mark.skipif(not core.AVAILABLE, reason="the compiled core is unavailable")


@needs_core
def test_a_position_the_c_core_refuses_falls_back(monkeypatch, caplog):
    monkeypatch.setattr(core, "phase", lambda game: 9)  # no such phase in C
    _fails_over(_movement_game(), caplog)
    assert "bad position" in caplog.text


@needs_core
def test_a_position_the_bindings_cannot_encode_falls_back(monkeypatch, caplog):
    spec = SPECS["dvonn"]  # the red pieces have no code:
    monkeypatch.setattr(spec, "core", dataclasses.replace(spec.core, top_codes="WB"))
    _fails_over(_movement_game(), caplog)
    assert "bad piece 'R'" in caplog.text


@needs_core
def test_no_memory_for_the_hash_table_falls_back(caplog):
    _fails_over(_movement_game(), caplog, Options(depth=2, hash=(1 << 31) - 1))
    assert "no memory" in caplog.text
    assert think(_movement_game(), Options(depth=2), Clock()).source == "core"  # and recovers


@needs_core
def test_an_exception_in_the_progress_callback_falls_back(caplog):
    def broken(progress):
        raise RuntimeError("the GUI went away")
    _fails_over(_movement_game(), caplog, on_progress=broken)
    assert "RuntimeError: the GUI went away" in caplog.text


def test_an_unavailable_core_means_the_python_player(monkeypatch):
    monkeypatch.setattr(search.core, "AVAILABLE", False)
    thought = think(TzaarGame(), Options(), Clock())
    assert thought.source == "python"


@pytest.mark.parametrize("setup", [
    ["newgame dvonn", "time_control 5"],                        # 5 ms for the whole game
    ["newgame tzaar random 3", "time_control 60000", "time_left w 0 0", "time_left b 0 0"],
])
def test_a_clock_of_a_few_milliseconds_still_gets_a_legal_move(engine, setup):
    engine.ok("option info off")
    for line in setup:
        engine.ok(line)
    for _ in range(3):  # the clock is overdrawn after the first: each still gets a move
        side = engine.ok("genmove w")
        assert side and engine.ok("genmove b")


@pytest.mark.skipif(not core.AVAILABLE, reason="compiled core unavailable")
def test_a_forced_first_capture_still_searches_the_turns_second_action():
    # Black's only capture is D2xD7; what follows it (stack, capture or pass) is a real choice
    # that used to get a depth-1 search, as if the whole turn were forced
    game = TzaarGame.from_position(
        "tzaar b turn c,-,-,-,c/-,-,-,-,-,-/-,-,-,-,-,-,-/-,C,-,-,-,-,c,c/-,-,CCBB,-,abb,c,bba,-/"
        "-,-,-,-,-,-,c,-/-,-,-,-,-,-,-/B,C,CC,ccacac,-,-/-,-,-,-,CAABCA")
    assert len(core.legal_moves(game.name, game.cells, game.side, core.phase(game))) == 1
    result = core.search(game.name, game.cells, game.side, core.phase(game),
                         time_ms=3_600_000, depth=4)
    assert result.depth > 1 and len(result.moves) == 2

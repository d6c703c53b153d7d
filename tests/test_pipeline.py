"""One pipeline chooses every move (search.think): book, ponder hit, forced move, solver, core,
Python player, in that order; one core request for every search; ponder reads the PV as moves."""
from __future__ import annotations

import time

import pytest

from engine import book, core, search
from engine.clock import Clock
from engine.games import GAMES
from engine.levels import table
from engine.ponder import Ponder, predicted_reply
from engine.protocol.analysis_lines import book_line
from engine.protocol.options import Options
from engine.protocol.server import Server
from engine.search import Thought, Watch, core_request, think

needs_core = pytest.mark.skipif(not core.AVAILABLE, reason=core.UNAVAILABLE_REASON or "no core")


class FakePonder:
    """Ponder's two calls in the pipeline, recorded; `take` answers `taken`."""
    def __init__(self, taken=None):
        self.taken, self.calls = taken, []

    def take(self, game, options, clock):
        self.calls.append("take")
        return self.taken

    def cancel(self):
        self.calls.append("cancel")


class Steps:
    """Which later steps of the pipeline ran: each fails the test's expectations if reached."""
    def __init__(self, monkeypatch):
        self.ran: list[str] = []
        monkeypatch.setattr(core, "AVAILABLE", True)
        monkeypatch.setattr(core, "search", self.step("core"))
        monkeypatch.setattr(core, "solve", self.step("solver"))
        monkeypatch.setattr(search, "choose_move", self.step("python"))

    def step(self, name):
        def ran(*args, **kwargs):
            self.ran.append(name)
            raise RuntimeError(f"{name} reached")
        return ran


def booked(monkeypatch, game):
    """The book knows one move here: the first legal one."""
    move = game.check_move(core.to_move(game, [("place", -1, 24)]))
    entry = book.Entry(game.move_text(move), 12, 0.625)
    monkeypatch.setattr(book, "lookup", lambda g: (move, entry))
    return move


def test_the_book_comes_first_and_stops_pondering(monkeypatch):
    game = GAMES["dvonn"].start()
    move = booked(monkeypatch, game)
    steps, ponder, infos = Steps(monkeypatch), FakePonder(Thought("pondered")), []
    thought = think(game, Options(book="on", level=1), Clock(), book_on=True, ponder=ponder,
                    on_book=lambda text, entry: infos.append(book_line(text, entry.games, entry.score)))
    assert (thought.move, thought.source, thought.pv) == (move, "book", ["F3"])
    assert ponder.calls == ["cancel"] and steps.ran == []
    assert infos == ["info book F3 games 12 score 0.625"]  # the book plays at any level


def test_the_book_is_only_for_a_move_to_play_with_the_option_on(monkeypatch):
    game = GAMES["dvonn"].start()
    booked(monkeypatch, game)
    monkeypatch.setattr(game, "forced_move", lambda: "forced")
    for options, book_on in ((Options(book="on"), False), (Options(book="off"), True),
                             (Options(book="on", player="python"), True)):
        assert think(game, options, Clock(), book_on=book_on).source == "forced"


def test_a_ponder_hit_comes_before_the_forced_move(monkeypatch):
    game = GAMES["dvonn"].start()
    monkeypatch.setattr(game, "forced_move", lambda: "forced")
    steps, ponder = Steps(monkeypatch), FakePonder(Thought("pondered", source="core"))
    thought = think(game, Options(book="off"), Clock(), book_on=True, ponder=ponder)
    assert thought.move == "pondered" and ponder.calls == ["take"] and steps.ran == []


def test_after_a_ponder_miss_the_forced_move_comes_before_solver_and_core(monkeypatch):
    game = GAMES["dvonn"].start()
    monkeypatch.setattr(game, "forced_move", lambda: "forced")
    monkeypatch.setattr(game, "endgame_small", lambda: True)
    steps, ponder = Steps(monkeypatch), FakePonder(None)
    thought = think(game, Options(solver="on"), Clock(), book_on=True, ponder=ponder)
    assert (thought.move, thought.source) == ("forced", "forced")
    assert ponder.calls == ["take"] and steps.ran == []


def test_the_solver_comes_before_the_core_and_the_core_before_the_python_player(monkeypatch):
    game = GAMES["dvonn"].start()
    monkeypatch.setattr(game, "endgame_small", lambda: True)
    steps = Steps(monkeypatch)
    with pytest.raises(RuntimeError, match="python reached"):
        think(game, Options(solver="on", nodes=100), Clock())
    assert steps.ran == ["solver", "core", "python"]  # each failed: the next one answered


def test_server_think_passes_book_and_ponder_only_to_genmove(monkeypatch):
    server = Server()
    seen = []
    monkeypatch.setattr("engine.protocol.server.think", lambda *a, **k: seen.append(
        (k["book_on"], k["ponder"])) or Thought("x"))
    server.think()
    server.think(500)
    server.think(None, Watch())
    assert seen == [(True, server.ponder), (False, None), (False, None)]


OPTIONS = Options(depth=5, nodes=40_000, threads=2, hash=8, seed=7)


def test_the_core_request_maps_options_and_limits():
    stop = search.StopFlag()
    assert core_request(OPTIONS, time_ms=300.0, stop=stop, multipv=3, report_ms=50,
                        soft_ms=250.0) == dict(
        time_ms=300.0, depth=5, nodes=40_000, multipv=3, threads=2, hash_mb=8, seed=7,
        stop=stop, report_ms=50, soft_ms=250.0)
    assert core_request(Options()) == dict(time_ms=None, depth=None, nodes=None, multipv=1,
                                           threads=1, hash_mb=Options().hash, seed=0, stop=None,
                                           report_ms=0, soft_ms=None)


def test_a_level_request_takes_the_levels_limits_and_one_thread():
    level = table("dvonn")[1]
    request = core_request(OPTIONS, time_ms=200.0, multipv=4, level=level)
    assert request["threads"] == 1 and request["time_ms"] == 200.0
    assert request["multipv"] == min(level.multipv, core.MAX_MULTIPV)
    assert request["depth"] == min(d for d in (level.depth, 5) if d)


def test_search_and_ponder_send_the_same_core_request(monkeypatch):
    requests = []

    def recording_search(game, cells, side, phase, *, on_iteration=None, **kwargs):
        requests.append(kwargs)
        raise RuntimeError("recorded")

    monkeypatch.setattr(core, "AVAILABLE", True)
    monkeypatch.setattr(core, "search", recording_search)
    game = GAMES["dvonn"].start()
    ponder = Ponder()
    think(game, OPTIONS, Clock(), watch=Watch(stop=ponder.stop, untimed=True))
    ponder._search((game.name, list(game.cells), game.side, core.phase(game)), OPTIONS)
    assert len(requests) == 2 and requests[0] == requests[1] == core_request(OPTIONS,
                                                                             stop=ponder.stop)


def test_the_predicted_reply_is_read_from_core_actions():
    dvonn = GAMES["dvonn"].start()
    dvonn.push(dvonn.check_move(core.to_move(dvonn, [("place", -1, 24)])))
    assert dvonn.move_text(predicted_reply(dvonn, [("place", -1, 21)])) == "C3"
    assert predicted_reply(dvonn, [("place", -1, 24)]) is None  # an occupied point
    assert predicted_reply(dvonn, []) is None
    tzaar = GAMES["tzaar"].start()
    tzaar.push(tzaar.check_move(core.to_move(tzaar, [("capture", 56, 50)])))
    reply = predicted_reply(tzaar, [("capture", 55, 50), ("stack", 36, 37), ("pass", -1, -1)])
    assert tzaar.move_text(reply) == "I1xH2 F3+F4"  # a whole turn: two actions


@needs_core
def test_ponder_predicts_the_reply_from_the_pv_moves_not_the_text():
    game = GAMES["dvonn"].start()
    options = Options(depth=2, ponder="on")
    ours = game.check_move(core.to_move(game, [("place", -1, 24)]))
    thought = Thought(ours, pv=["F3", "A1"], source="core",
                      pv_moves=[("place", -1, 24), ("place", -1, 21)])
    game.push(ours)
    ponder = Ponder()
    try:
        ponder.start(game, options, thought)
        assert ponder.running
        game.play_text("C3")
        assert ponder.position == game.position()  # C3 (the moves), not A1 (the text)
    finally:
        ponder.cancel()


@needs_core
@pytest.mark.parametrize("name, share", [("dvonn", 0.60), ("tzaar", 0.45)])
def test_after_a_ponder_hit_no_iteration_starts_past_the_games_own_share(name, share):
    """The share is the game's `search_next_iteration`, read from the core (DVONN's 60, not the
    shared default of 45)."""
    assert core.next_iteration_share(name) == share
    game = GAMES[name].start()
    options = Options(depth=4, ponder="on")  # a PV that reaches the reply (TZAAR's two actions)
    thought = think(game, options, Clock())
    game.push(thought.move)
    ponder = Ponder()
    try:
        ponder.start(game, options, thought)
        assert ponder.thread is not None
        ponder.thread.join()  # a depth-4 search: done, so only the calls below read the clock
        ponder.budget_ms = 10_000.0
        for used, stops in ((share - 0.03, False), (share + 0.03, True)):
            ponder.stop.clear()
            ponder.hit_at = time.monotonic() - used * 10
            ponder._iteration(core.SearchResult(moves=[], score=0, depth=4, nodes=1, time_ms=1.0))
            assert ponder.stop.is_set() == stops, used
    finally:
        ponder.cancel()


@needs_core
def test_every_core_thought_carries_its_pv_as_moves():
    for name in GAMES:
        game = GAMES[name].start()
        thought = think(game, Options(depth=3), Clock())
        assert thought.source == "core" and len(thought.pv_moves) == len(thought.pv) >= 2
        assert [core.action_text(game, a) for a in thought.pv_moves] == thought.pv
        assert core.to_move(game, thought.pv_moves[:len(game.move_text(thought.move).split())]) \
            == thought.move

"""The compiled TZAAR core against the Python rules (engine/games/tzaar/rules.py)."""
from __future__ import annotations

import random

import pytest

from engine import core
from engine.rules import perft

pytestmark = pytest.mark.skipif(not core.has_game("tzaar"),
                                reason=core.UNAVAILABLE_REASON or "core built without TZAAR")

tzaar = pytest.importorskip("engine.games.tzaar.rules")




def phase_of(game) -> int:
    return core.phase(game)


def random_games(seed: int, games: int):
    """Turn-start positions along random games (fixed opening)."""
    rng = random.Random(seed)
    for _ in range(games):
        g = tzaar.TzaarGame()
        while not g.over:
            yield g
            g.push(rng.choice(g.legal_moves()))
        yield g


def test_opening_perft():
    g = tzaar.TzaarGame()
    assert core.perft("tzaar", g.cells, 0, 0, 1) == len(g.legal_moves())


def test_first_and_second_actions_match_rules():
    checked = 0
    for g in random_games(1, games=4):
        firsts = core.legal_moves("tzaar", list(g.cells), g.side, phase_of(g))
        expected = sorted({tuple(t[0]) for t in g.legal_moves()})
        assert sorted(firsts) == expected, g.position()
        assert core.perft("tzaar", list(g.cells), g.side, phase_of(g), 1) == len(g.legal_moves())
        if g.over or g.opening_turn:
            continue
        first = random.Random(checked).choice(g.captures(g.side))
        undo = g._do_action(first)
        try:
            if not g.over:
                seconds = core.legal_moves("tzaar", list(g.cells), g.side, 2)
                assert sorted(seconds) == sorted(tuple(a) for a in g.second_actions(g.side))
        finally:
            g._undo_action(first, undo)
        checked += 1
    assert checked > 40


def test_perft_two_turns_matches_python_late():
    done = 0
    for g in random_games(2, games=6):
        if g.over or g.opening_turn or len(g.legal_moves()) > 150:
            continue
        copy = tzaar.TzaarGame.from_position(g.position())
        assert core.perft("tzaar", list(g.cells), g.side, 1, 2) == perft(copy, 2), g.position()
        done += 1
        if done >= 6:
            break
    assert done > 0


def test_search_plays_a_whole_legal_turn():
    rng = random.Random(3)
    positions = [tzaar.TzaarGame.from_position(g.position())
                 for g in random_games(3, games=2) if not g.over]
    for g in rng.sample(positions, 10):
        res = core.search("tzaar", list(g.cells), g.side, phase_of(g), depth=3, hash_mb=8, seed=2)
        legal = {tuple(tuple(a) for a in t) for t in g.legal_moves()}
        assert tuple(res.moves) in legal, (g.position(), res.moves)


def test_search_finds_an_immediate_win():
    """A turn that wins at once exists: the search must see it and play a winning turn."""
    for g in random_games(4, games=8):
        if g.over or g.opening_turn:
            continue
        mover = g.side
        for turn in g.legal_moves():
            g.push(turn)
            won = g.over and g.winner == mover
            g.pop()
            if won:
                res = core.search("tzaar", list(g.cells), mover, 1, depth=2, hash_mb=8)
                assert res.score >= core.WIN and res.proven
                g.push(tuple(tzaar.Action(*a) for a in res.moves))
                assert g.over and g.winner == mover
                return
    pytest.skip("no immediate win met in these games")

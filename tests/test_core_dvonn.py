"""The compiled DVONN core against the Python rules (engine/games/dvonn/rules.py)."""
from __future__ import annotations

import random

import pytest

from engine import core
from engine.protocol.analysis_lines import progress_line
from engine.rules import perft
from engine.search import progress
from engine.stop_flag import StopFlag

pytestmark = pytest.mark.skipif(not core.AVAILABLE, reason=core.UNAVAILABLE_REASON or "no core")

dvonn = pytest.importorskip("engine.games.dvonn.rules")




def random_positions(seed: int, games: int = 6):
    """Positions along random games (placement and movement), as DvonnGame objects."""
    rng = random.Random(seed)
    for _ in range(games):
        g = dvonn.DvonnGame()
        while not g.over:
            yield g
            g.push(rng.choice(g.legal_moves()))
        yield g


def args(g):
    return list(g.cells), g.side, core.phase(g)


def test_empty_board_perft():
    empty = [""] * 49
    assert [core.perft("dvonn", empty, 0, 0, d) for d in range(4)] == [1, 49, 49 * 48, 49 * 48 * 47]


def test_legal_moves_match_rules_along_random_games():
    checked = 0
    for g in random_positions(1, games=10):
        assert sorted(core.legal_moves("dvonn", *args(g))) == sorted(tuple(m) for m in g.legal_moves())
        checked += 1
    assert checked > 500


@pytest.mark.parametrize("seed", [2, 3])
def test_perft_matches_python(seed):
    rng = random.Random(seed)
    positions = [g for g in random_positions(seed, games=3) if g.placed >= 44]
    for g in rng.sample(positions, 12):
        cells, side, phase = args(g)
        # A copy: the generator's game object keeps moving.
        copy = dvonn.DvonnGame.from_position(g.position())
        assert core.perft("dvonn", cells, side, phase, 3) == perft(copy, 3), g.position()


def test_last_placement_then_white_moves_again():
    g = next(p for p in random_positions(4, games=1) if p.placed == 48)
    assert g.side == 0
    cells, side, phase = args(g)
    copy = dvonn.DvonnGame.from_position(g.position())
    assert core.perft("dvonn", cells, side, phase, 2) == perft(copy, 2)


def test_search_returns_legal_moves():
    rng = random.Random(5)
    positions = [g for g in random_positions(5, games=2)]
    for g in rng.sample(positions, 15):
        legal = [tuple(m) for m in g.legal_moves()]
        res = core.search("dvonn", *args(g), depth=3, hash_mb=4, seed=1)
        if not legal:
            assert res.moves == []
            continue
        assert len(res.moves) == 1 and res.moves[0] in legal
        assert res.depth >= 1 and res.nodes > 0


def test_search_is_reproducible_single_threaded():
    g = dvonn.DvonnGame()
    rng = random.Random(6)
    for _ in range(52):
        g.push(rng.choice(g.legal_moves()))
    core_args = args(g)
    core.clear_hash()
    a = core.search("dvonn", *core_args, depth=4, hash_mb=4, seed=9)
    core.clear_hash()
    b = core.search("dvonn", *core_args, depth=4, hash_mb=4, seed=9)
    assert (a.moves, a.score, a.nodes) == (b.moves, b.score, b.nodes)


def test_endgame_is_solved_exactly():
    """Late positions: the search proves the result that a brute-force minimax gives."""
    def solve(game, maximiser):
        moves = game.legal_moves()
        if not moves:
            w, b = game.scores()
            return (w - b) if maximiser == 0 else (b - w)
        vals = []
        for m in moves:
            game.push(m)
            vals.append(solve(game, maximiser))
            game.pop()
        return max(vals) if game.side == maximiser else min(vals)

    found = 0
    for seed in range(20, 40):
        rng = random.Random(seed)
        g = dvonn.DvonnGame()
        while not g.over:
            g.push(rng.choice(g.legal_moves()))
        # back up to a position a few stack moves before the end
        for _ in range(4):
            if g.placed < 49 or not g.history or g.history[-1][0].kind == "place":
                break
            g.pop()
        if g.over or g.placed < 49:
            continue
        res = core.search("dvonn", *args(g), depth=60, hash_mb=4)
        assert res.proven
        if res.nodes > 1000:
            continue  # too big for the brute-force Python minimax below
        margin = solve(dvonn.DvonnGame.from_position(g.position()), g.side)
        if margin > 0:
            assert res.score >= core.WIN
        elif margin < 0:
            assert res.score <= -core.WIN
        else:
            assert res.score == 0
        # A proven win ends the search, so the margin is a bound: never more than the truth.
        if margin:
            reported = (abs(res.score) - core.WIN + 255) // 256
            assert 1 <= reported <= abs(margin)
        found += 1
    assert found >= 5


def test_on_iteration_reports_each_depth():
    g = dvonn.DvonnGame()
    rng = random.Random(7)
    for _ in range(60):
        g.push(rng.choice(g.legal_moves()))
    seen = []
    res = core.search("dvonn", *args(g), depth=4, hash_mb=4, on_iteration=seen.append)
    assert [it.depth for it in seen][:4] == list(range(1, 5))[:len(seen)]
    assert seen[-1].depth == res.depth
    line = progress_line(progress(g, seen[-1]))
    assert line.startswith("info depth ")


def test_two_threads_return_a_legal_move():
    g = dvonn.DvonnGame()
    rng = random.Random(8)
    for _ in range(55):
        g.push(rng.choice(g.legal_moves()))
    res = core.search("dvonn", *args(g), depth=5, threads=2, hash_mb=8)
    assert res.moves[0] in [tuple(m) for m in g.legal_moves()]


def test_node_limit_and_stop_flag_still_give_a_move():
    g = dvonn.DvonnGame()
    rng = random.Random(9)
    for _ in range(50):
        g.push(rng.choice(g.legal_moves()))
    legal = [tuple(m) for m in g.legal_moves()]
    res = core.search("dvonn", *args(g), nodes=5000, hash_mb=4)
    assert res.moves[0] in legal
    stop = StopFlag()
    stop.set()
    res = core.search("dvonn", *args(g), stop=stop, hash_mb=4)
    assert res.moves[0] in legal and res.depth >= 1


def test_stop_from_another_thread_ends_an_unlimited_search():
    import threading

    g = dvonn.DvonnGame()
    rng = random.Random(10)
    for _ in range(50):
        g.push(rng.choice(g.legal_moves()))
    stop = StopFlag()
    out = []
    worker = threading.Thread(target=lambda: out.append(
        core.search("dvonn", *args(g), stop=stop, hash_mb=4, on_iteration=lambda it: it.depth >= 3 and stop.set())))
    worker.start()
    worker.join(120)
    assert not worker.is_alive()
    assert out and out[0].moves[0] in [tuple(m) for m in g.legal_moves()]


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError):
        core.legal_moves("dvonn", ["X"] + [""] * 48, 0, 0)
    with pytest.raises(ValueError):
        core.perft("dvonn", [""] * 48, 0, 0, 1)

"""The exact endgame solver (csrc/core/solve*.{c,h}, core.solve) against plain minimax
over the Python rules, and through the protocol."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest
from conftest import REPO

from engine import core
from engine.games import GAMES
from engine.games.dvonn.rules import DvonnGame
from engine.games.tzaar.rules import TzaarGame
from engine.rules import BadPosition

pytestmark = pytest.mark.skipif(not core.AVAILABLE, reason=core.UNAVAILABLE_REASON or "no core")


def final_value(game) -> int:
    """The final score_white of a finished game, from the side to act's view."""
    if isinstance(game, DvonnGame):
        white, black = game.scores()
        value = white - black
    else:
        value = 1 if game.result() == "W+" else -1
    return value if game.side == 0 else -value


def minimax(game, memo: dict) -> int:
    """Plain full-width negamax over the rules layer: the exact final value."""
    if game.over:
        return final_value(game)
    key = game.position()
    if key not in memo:
        side, best = game.side, None
        for move in game.legal_moves():
            game.push(move)
            v = minimax(game, memo)
            v = v if game.side == side else -v
            game.pop()
            best = v if best is None else max(best, v)
        memo[key] = best
    return memo[key]


def endgame_positions(cls, seed: int, back: int) -> list[str]:
    """Positions 1..back moves before the end of a seeded random game."""
    rng = random.Random(seed)
    game, history = cls.start(opening_seed=seed) if cls.has_openings else cls.start(), []
    while not game.over:
        history.append(game.position())
        game.push(rng.choice(game.legal_moves()))
    return history[-back:]


def small_tzaar(seed: int, stacks: int = 12) -> str:
    """A TZAAR turn position with two visible stacks of every type a side (and a few
    buried pieces): small enough for plain minimax, not won at once."""
    rng = random.Random(seed)
    while True:
        cells = [""] * 60
        tops = list("abcABC") * 2 + [rng.choice("abcABC") for _ in range(stacks - 12)]
        for point, top in zip(rng.sample(range(60), stacks), tops):
            own = "abc" if top.islower() else "ABC"
            cells[point] = "".join(rng.choice(own) for _ in range(rng.choice((0, 0, 1, 2)))) + top
        columns, i = [], 0
        for n in (5, 6, 7, 8, 8, 8, 7, 6, 5):
            columns.append(",".join(c or "-" for c in cells[i:i + n]))
            i += n
        text = f"tzaar {rng.choice('wb')} turn {'/'.join(columns)}"
        try:
            if not TzaarGame.from_position(text).over:
                return text
        except BadPosition:
            continue


def solved_value_and_move_checked(cls, text: str) -> int:
    """The solver's value of a position, checked against minimax with its move."""
    game = cls.from_position(text)
    core.clear_hash()
    solution = core.solve(game.name, game.cells, game.side, core.phase(game))
    assert solution.solved, text
    expected = minimax(cls.from_position(text), {})
    assert solution.value == expected, text
    side = game.side
    game.push(game.check_move(core.to_move(game, solution.moves)))  # the move keeps that value
    after = minimax(game, {})
    assert (after if game.side == side else -after) == expected, text
    return expected


def test_dvonn_solver_equals_full_width_minimax():
    values = [solved_value_and_move_checked(DvonnGame, text)
              for seed in range(1, 5) for text in endgame_positions(DvonnGame, seed, 5)]
    assert len(set(values)) >= 4  # wins, losses, different margins


def test_tzaar_solver_equals_full_width_minimax():
    values = [solved_value_and_move_checked(TzaarGame, small_tzaar(seed))
              for seed in (101, 103, 104, 105, 106, 107)]
    assert set(values) == {-1, 1}


def test_dvonn_solver_is_consistent_further_from_the_end():
    """Too far out for Python minimax: the value is the best child's value, each solved
    from an empty table."""
    for seed in (1,):
        game = DvonnGame.from_position(endgame_positions(DvonnGame, seed, 9)[0])
        core.clear_hash()
        root = core.solve(game.name, game.cells, game.side, core.phase(game))
        chosen = game.check_move(core.to_move(game, root.moves))
        values = {}
        for move in game.legal_moves():
            game.push(move)
            core.clear_hash()
            child = core.solve(game.name, game.cells, game.side, core.phase(game))
            assert root.solved and child.solved
            values[move] = -child.value
            game.pop()
        assert root.value == max(values.values()) == values[chosen]


def test_the_score_carries_the_margin():
    solution = core.Solution(True, 7, [], [1, 2, 3], 10, 1.0)
    assert solution.score == core.WIN + 7 * core.MARGIN - 3 >= 999_000
    assert core.Solution(True, -2, [], [], 10, 1.0).score == -(core.WIN + 2 * core.MARGIN)
    assert core.Solution(True, 0, [], [], 10, 1.0).score == 0


def test_a_huge_time_budget_saturates_instead_of_overflowing():
    # the protocol accepts up to 15-digit millisecond counts; ms -> ns must not wrap into the past
    text = endgame_positions(DvonnGame, 1, 5)[0]
    game = DvonnGame.from_position(text)
    core.clear_hash()
    solution = core.solve(game.name, game.cells, game.side, core.phase(game),
                          time_ms=10_000_000_000_000)  # x 10^6 ns wraps negative in int64
    assert solution.solved


def test_a_budget_too_small_gives_unknown():
    text = endgame_positions(DvonnGame, 1, 25)[0]
    game = DvonnGame.from_position(text)
    core.clear_hash()
    solution = core.solve(game.name, game.cells, game.side, core.phase(game), nodes=1)
    assert not solution.solved and solution.moves == [] and solution.nodes >= 1


def test_the_solver_is_an_option_off_by_default(engine):
    assert "solver off choice off|on" in engine.ok("option").split("\n")
    engine.ok("option solver on")
    assert engine.error("option solver maybe") == "bad value 'maybe' for solver: one of off, on"


def test_endgame_small_asks_each_game():
    assert not any(cls.start().endgame_small() for cls in GAMES.values())
    assert DvonnGame.from_position(endgame_positions(DvonnGame, 2, 3)[0]).endgame_small()
    assert TzaarGame.from_position(endgame_positions(TzaarGame, 2, 1)[0]).endgame_small()


def winning_dvonn_position() -> tuple[str, int]:
    """A position a few moves from the end that the side to act wins, and its margin."""
    for seed in range(1, 20):
        for text in endgame_positions(DvonnGame, seed, 4)[:2]:
            value = minimax(DvonnGame.from_position(text), {})
            if value > 0 and DvonnGame.from_position(text).endgame_small():
                return text, value
    raise AssertionError("no won position found")


def run_engine(script: str) -> tuple[str, str]:
    proc = subprocess.run([sys.executable, "-m", "engine"], input=script, cwd=str(REPO),
                          capture_output=True, text=True, timeout=120)
    return proc.stdout, proc.stderr


def test_genmove_and_analyze_report_the_proven_margin():
    text, margin = winning_dvonn_position()
    out, err = run_engine(f"option solver on\nsetposition {text}\nanalyze 2000\nreg_genmove\n"
                          f"option solver off\noption depth 1\nanalyze\nquit\n")
    analyses = [block for block in out.split("\n\n") if "score" in block]
    solved, searched = analyses
    score = int(solved.split("score ")[1].split()[0])
    plies = len(solved.split("pv ")[1].split())
    assert score == core.WIN + margin * core.MARGIN - plies
    assert f"score {score} " in err  # the info line of the solve
    # With the solver off, one ply of search proves nothing here.
    assert abs(int(searched.split("score ")[1].split()[0])) < 999_000

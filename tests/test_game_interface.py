"""The game interface and its registry (engine/games, engine/rules.py), and the protocol
behaviours that hang on it: one error per kind of bad move, the hash table per game."""
from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest

from engine import core
from engine.games import GAMES
from engine.rules import UnreadableMove
from tests.conftest import REPO


@pytest.mark.skipif(not core.AVAILABLE, reason="the compiled core is unavailable")
def test_a_library_caller_finds_the_games_without_importing_them():
    """The built-in games load on the registry's first lookup: a fresh interpreter that imports
    only engine.core already knows them, and nothing imports a game before that lookup."""
    code = ("import sys; from engine import core; before = 'engine.games.dvonn' in sys.modules; "
            "print(before, core.has_game('dvonn'), core.has_game('tzaar'))")
    done = subprocess.run([sys.executable, "-c", code], cwd=str(REPO), capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "False True True\n", "")


def test_the_registry_lists_the_built_in_games_first_by_module_name():
    from engine import registry
    assert list(GAMES)[:2] == ["dvonn", "tzaar"] == [m.rpartition(".")[2] for m in registry.BUILT_IN]
    assert registry.DEFAULT_GAME == "dvonn" and registry.get_game("tzaar").rules is GAMES["tzaar"]
    with pytest.raises(ValueError, match="no game 'chess'; the games are dvonn, tzaar"):
        registry.get_game("chess")


@pytest.mark.parametrize("name", GAMES)
def test_each_registered_game_is_complete(name):
    cls = GAMES[name]
    assert cls.name == name and cls.title
    game = cls.start()
    assert game.is_start_position() and game.record_opening() is None
    assert cls.from_position(game.position()).position() == game.position()
    assert cls.from_opening(None).position() == game.position()
    rng = random.Random(5)
    while game.ply < 12 and not game.over:
        assert game.moves_to_go() > 0 and game.score_text()
        move = rng.choice(game.legal_moves())
        assert game.check_move(move) == move
        assert game.parse_move(game.move_text(move)) == move
        game.push(move)
    assert not game.is_start_position()
    with pytest.raises(UnreadableMove, match="^cannot read"):
        game.parse_move("Z9")


@pytest.mark.skipif(not core.AVAILABLE, reason="the compiled core is unavailable")
@pytest.mark.parametrize("name", GAMES)
def test_the_core_and_the_rules_agree_on_each_game(name):
    game = GAMES[name].start()
    assert core.has_game(name)
    assert core.perft(name, game.cells, game.side, core.phase(game), 1) == len(game.legal_moves())
    result = core.search(name, game.cells, game.side, core.phase(game), depth=2, hash_mb=1)
    assert game.check_move(core.to_move(game, result.moves)) in game.legal_moves()


@pytest.mark.parametrize("setup, line, reply", [
    ("newgame dvonn", "play w K9", "cannot read 'K9' as a DVONN move (a point like D3, "
                                   "a stack move like E3-F3, or pass)"),
    ("newgame dvonn", "play w E3-F3", "illegal move: placement phase: place a piece on an "
                                      "empty point (e.g. D3)"),
    ("newgame tzaar", "play w E5xE6", "cannot read 'E5xE6' as a TZAAR action: no such point: 'E5'"),
    ("newgame tzaar", "play w A1xA2", "illegal move: A1xA2: the stack on A1 is not yours"),
    ("newgame dvonn", "replay D3 K9", "move 2 (K9): cannot read 'K9' as a DVONN move (a point "
                                      "like D3, a stack move like E3-F3, or pass)"),
])
def test_unreadable_and_illegal_moves_get_distinct_errors(engine, setup, line, reply):
    engine.ok(setup)
    before = engine.ok("position")
    assert engine.error(line) == reply
    assert engine.ok("position") == before


def _nodes(engine) -> int:
    return int(re.search(r"^nodes (\d+)$", engine.ok("analyze"), re.M).group(1))


@pytest.mark.skipif(not core.AVAILABLE, reason="the compiled core is unavailable")
def test_the_hash_table_is_cleared_for_each_new_game_unless_kept(engine):
    engine.ok("option info off")
    engine.ok("option depth 3")  # at 4, a warm table costs the tuned TZAAR eval nodes
    counts = []
    for setup in ("newgame tzaar", "newgame tzaar", "clear_board",
                  "setposition " + GAMES["tzaar"].start().position()):
        engine.ok(setup)
        counts.append(_nodes(engine))
    assert len(set(counts)) == 1, counts  # the same search from the same start
    engine.ok("option keephash on")
    engine.ok("newgame tzaar")
    assert _nodes(engine) < counts[0]  # the kept table answers part of the search


def test_option_lists_keephash(engine):
    assert "keephash off choice off|on" in engine.ok("option").split("\n")
    assert engine.error("option keephash maybe") == "bad value 'maybe' for keephash: one of off, on"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_back_to_start_walks_the_moves_and_leaves_the_game_as_it_was(name):
    game = GAMES[name].start()
    for _ in range(6):
        game.push(game.legal_moves()[0])
    before = game.position()
    with game.back_to_start() as moves:
        assert game.ply == 0 and len(moves) == 6 and game.is_start_position()
        game.push(moves[0])
    assert game.position() == before and game.ply == 6  # the rest pushed again
    with pytest.raises(RuntimeError):
        with game.back_to_start() as moves:
            raise RuntimeError("a caller's error")
    assert game.position() == before

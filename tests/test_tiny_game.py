"""A third game registered from outside the engine (tests/games/tiny_hex.py), played through
the real protocol: the registry, --game-module, and the Python player for a game without a core."""
from __future__ import annotations

import subprocess
import sys

import pytest

from engine import core, records
from engine.games import GAMES, SPECS, GameSpec, load_module, register
from engine.player import choose_move
from engine.rules import perft
from tests.conftest import REPO, EngineClient

MODULE = "tests.games.tiny_hex"


@pytest.fixture
def tiny_hex():
    """The module, registered for one test only: other tests go over every registered game."""
    specs, games = dict(SPECS), dict(GAMES)
    sys.modules.pop(MODULE, None)
    assert load_module(MODULE) == ["tinyhex"]
    yield sys.modules[MODULE]
    sys.modules.pop(MODULE, None)
    SPECS.clear()
    SPECS.update(specs)
    GAMES.clear()
    GAMES.update(games)


@pytest.fixture
def tiny():
    client = EngineClient("--game-module", MODULE)
    yield client
    if not client.child.proc.stdout.closed:
        client.close()


def test_the_tiny_game_is_registered_through_the_same_spec(tiny_hex):
    TinyHexGame = tiny_hex.TinyHexGame
    assert SPECS["tinyhex"].rules is TinyHexGame and GAMES["tinyhex"] is TinyHexGame
    assert SPECS["tinyhex"].core is None and SPECS["tinyhex"].record_formats == ()
    assert not core.has_game("tinyhex")
    assert load_module(MODULE) == []  # imported already: registers nothing twice
    with pytest.raises(ValueError, match="already registered"):
        register(GameSpec(rules=type("Other", (TinyHexGame,), {})))
    with pytest.raises(ValueError, match="registered no game"):
        load_module("colorsys")


def test_the_tools_leave_out_a_game_that_declares_them_nothing(tiny_hex):
    from engine.gui.board import game_look
    from engine.tools import bench, bench_protocol, bench_solver, referee
    from engine.tools.littlegolem import notation as littlegolem_site
    assert game_look("tinyhex") is None  # drawn as grey pieces with their letters
    assert "tinyhex" not in bench.plans() and "tinyhex" not in bench_solver.record_games()
    assert not any(name.startswith("tinyhex") for name in bench_protocol.scenarios())
    assert "tinyhex" not in bench_protocol.big_turn_games() + littlegolem_site.played_games()
    assert "tinyhex" not in referee.codecup_games()
    with pytest.raises(ValueError, match="no LittleGolem move form for the game 'tinyhex'"):
        littlegolem_site.site_move("tinyhex", "A1")


def test_place_names_the_game_at_hand(tiny):
    tiny.ok("newgame tinyhex")
    tiny.ok("replay A1 B1 A2 B2 C2 B3 C3")
    assert tiny.ask("place A1") == (False, "place is for Tiny Hex's placement phase")
    tiny.ok("newgame tzaar")
    assert tiny.ask("place A1") == (False, "place is for a placement phase; TZAAR has none")


def test_the_tiny_rules(tiny_hex):
    TinyHexGame, board = tiny_hex.TinyHexGame, tiny_hex.BOARD
    game = TinyHexGame.start()
    assert board.size == 7 and len(board.neighbours[board.by_name["B2"]]) == 6
    assert perft(game, 2) == 7 * 6 and perft(game, 7) == 5040
    while not game.over:
        game.push(choose_move(game, 3))
    assert game.result() in ("0", "W+1", "W+2", "W+3", "W+4", "B+1", "B+2", "B+3")
    assert TinyHexGame.from_position(game.position()).position() == game.position()
    with pytest.raises(records.RecordError, match="Tiny Hex has no record format"):
        records.write_littlegolem(records.GameRecord(game="tinyhex"))


def test_the_tiny_game_through_the_protocol(tiny):
    assert "newgame tinyhex" in tiny.error("newgame")
    tiny.ok("newgame tinyhex")
    assert tiny.ok("status") == ("game=tinyhex to_act=w phase=placement ply=0 over=no result=- "
                                 "reason=-")
    assert tiny.ok("legal_moves").split("\n") == ["A1", "B1", "A2", "B2", "C2", "B3", "C3"]
    assert tiny.ok("play w b2") == "B2"
    assert tiny.error("play b B2") == "illegal move: B2 is occupied"
    assert tiny.error("play b Z9") == "cannot read 'Z9' as a move: a point such as B2"
    assert tiny.error("play w A1") == "it is black's turn, not white's"
    assert tiny.ok("showboard") == " . .\n. w .\n . .\nblack to act, placement"
    assert tiny.ok("position") == "tinyhex b placement -,-/-,w,-/-,-"
    tiny.ok("undo")
    assert tiny.ok("position") == "tinyhex w placement -,-/-,-,-/-,-"
    assert tiny.error("undo") == "cannot undo 1 move: only 0 played"
    for ply in range(7):  # the default player is the core's: the Python player answers
        legal = tiny.ok("legal_moves").split("\n")
        assert tiny.ok("genmove") in legal and f"ply={ply + 1}" in tiny.ok("status")
    status = tiny.ok("status")
    assert "over=yes" in status and "reason=the_board_is_full" in status
    assert tiny.ok("final_score") in status
    assert tiny.ok("showboard").split("\n")[-1].startswith("game over: ")
    assert tiny.error("genmove") == "the game is over"
    tiny.ok("undo 2")
    assert "ply=5" in tiny.ok("status")
    assert tiny.ok("perft 2") == "2"  # the Python count: there is no core to ask
    assert tiny.error("perft 1 core") in ("Tiny Hex has no compiled core",
                                          f"the compiled core is unavailable: {core.UNAVAILABLE_REASON}")
    assert "no compiled core" in tiny.error("weights")
    tiny.ok("newgame dvonn")  # the built-in games are still there
    assert "game=dvonn" in tiny.ok("status")
    assert tiny.close() == 0


def test_a_game_module_that_cannot_be_loaded_is_a_usage_error():
    for module, reason in (("no_such_module_xyz", "ModuleNotFoundError"), ("colorsys", "registered no game")):
        done = subprocess.run([sys.executable, "-m", "engine", "--game-module", module], cwd=REPO,
                              input="", capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.strip().splitlines()[-1].startswith(f"gipf-engine: error: --game-module {module}: ")
        assert reason in done.stderr


def test_analyze_live_says_the_python_player_answers(tiny):
    tiny.ok("newgame tinyhex")
    tiny.send_raw("analyze live\n")
    tiny.child.expect("info string (.*); bestmove from the Python player\n")
    assert tiny.child.match.group(1) in ("Tiny Hex has no compiled core",
                                         f"the compiled core is unavailable: {core.UNAVAILABLE_REASON}")
    tiny.child.expect("bestmove ([A-C][1-3])\n\n")  # the Python player's move ends it at once
    assert tiny.child.match.group(1) in tiny.ok("legal_moves").split("\n")
    assert tiny.ok("name") == "Gipfbot"


def test_the_game_names_counter_skips_comments_docstrings_and_the_games_folders(tmp_path):
    (tmp_path / "engine" / "games" / "dvonn").mkdir(parents=True)
    (tmp_path / "engine" / "games" / "dvonn" / "rules.py").write_text('NAME = "dvonn"\n')
    (tmp_path / "engine" / "tools").mkdir()
    (tmp_path / "engine" / "server.py").write_text(
        '"""DVONN in a docstring."""\n# TZAAR in a comment\nGAME = "dvonn"  # counted\n'
        'def f():\n    """tzaar again"""\n    return "Tzaar"\n')
    (tmp_path / "engine" / "tools" / "match.py").write_text('DEFAULT = "tzaar"\n')
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "codecup").write_text(  # a Python launcher: counted
        '#!/usr/bin/env python3\nfrom engine.games.dvonn.codecup import main\n')
    (tmp_path / "scripts" / "sanitize").write_text("#!/usr/bin/env bash\n# dvonn\ncp -r csrc/dvonn x\n")
    (tmp_path / "engine" / "gui" / "static").mkdir(parents=True)
    (tmp_path / "engine" / "gui" / "static" / "board.js").write_text(
        '// dvonn\nconst a = "tzaar"; /* dvonn\n dvonn */ const b = 1;\n')
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "game_names"), "--root", str(tmp_path),
                           "--list"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:4] == ['engine/gui/static/board.js:2: const a = "tzaar"; /* dvonn',
                         'engine/server.py:3: GAME = "dvonn"  # counted',
                         'engine/server.py:6: return "Tzaar"',
                         "3 code lines outside the games' folders and the tools: "
                         "engine/server.py 2, engine/gui/static/board.js 1"]
    assert lines[-3:] == ["engine/tools/match.py:1: DEFAULT = \"tzaar\"",  # the shell script not
                          "scripts/codecup:2: from engine.games.dvonn.codecup import main",
                          "2 code lines in the tools: engine/tools/match.py 1, scripts/codecup 1"]

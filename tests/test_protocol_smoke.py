"""The real process, end to end: a whole game of each game with genmove on both sides."""
import pytest

from engine import core


@pytest.mark.parametrize("setup", ["newgame dvonn", "newgame tzaar", "newgame tzaar random 7"])
def test_full_game_with_genmove_on_both_sides(engine, setup):
    engine.ok(setup)
    engine.ok("option depth 2")  # keeps the game fast
    for _ in range(400):
        status = engine.ok("status")
        if "over=yes" in status:
            break
        legal = engine.ok("legal_moves").split("\n")
        before = engine.ok("position")
        assert engine.ok("reg_genmove") in legal
        assert engine.ok("position") == before  # reg_genmove does not play
        assert engine.ok("genmove") in legal
    else:
        pytest.fail("game did not end")
    result = engine.ok("final_score")
    assert result in status
    assert engine.error("genmove") == "the game is over"


def test_replies_carry_ids_and_quit_exits_cleanly(engine):
    engine.send_raw("17 name\n")
    ok, cid, text = engine.read_reply()
    assert (ok, cid, text) == (True, "17", "Gipfbot")
    engine.send_raw("18 quit\n")
    assert engine.read_reply() == (True, "18", "")
    assert engine.child.wait() == 0


@pytest.mark.parametrize("setup", ["newgame dvonn", "newgame tzaar"])
def test_python_player_plays_whole_games_too(engine, setup):
    engine.ok(setup)
    engine.ok("option player python")
    while "over=no" in engine.ok("status"):
        engine.ok("genmove")
    assert engine.ok("final_score")


def test_version_says_whether_the_core_is_compiled(engine):
    version = engine.ok("version")
    assert ("core=compiled" in version) == core.AVAILABLE

"""The real process, end to end: a whole game of each game with genmove on both sides."""
import pytest


@pytest.mark.parametrize("setup", ["newgame dvonn", "newgame tzaar", "newgame tzaar random 7"])
def test_full_game_with_genmove_on_both_sides(engine, setup):
    engine.ok(setup)
    for _ in range(400):
        status = engine.ok("status")
        if "over=yes" in status:
            break
        legal = engine.ok("legal_moves").split("\n")
        move = engine.ok("reg_genmove")
        assert move in legal
        assert engine.ok("genmove") == move
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

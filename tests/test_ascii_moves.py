"""Moves and points are ASCII: str.upper() maps some other letters onto ASCII ones
(the dotless 'ı' becomes 'I'), so they must be refused before it, in every reader."""
from __future__ import annotations

import pytest

from engine.games.dvonn.board import DVONN_BOARD
from engine.games.dvonn.rules import DvonnGame
from engine.games.tzaar.board import TZAAR_BOARD
from engine.games.tzaar.rules import TzaarGame
from engine.rules import UnreadableMove


@pytest.mark.parametrize("text", ["ı3", "\u0131" + "3-C3", "C3-ı3"])
def test_dvonn_refuses_non_ascii_moves(text):
    with pytest.raises(UnreadableMove, match="not ASCII"):
        DvonnGame.start().parse_move(text)


def test_dvonn_still_reads_ascii_in_any_case():
    game = DvonnGame.start()
    assert game.parse_move("i3") == game.parse_move("I3")


@pytest.mark.parametrize("text", ["Iı1xI2", "A1xA2 ı1+I2"])
def test_tzaar_refuses_non_ascii_actions(text):
    with pytest.raises(UnreadableMove, match="not ASCII"):
        TzaarGame.start().parse_move(text)


@pytest.mark.parametrize("board", [DVONN_BOARD, TZAAR_BOARD])
def test_points_are_ascii(board):
    assert board.parse_point("i3") == board.parse_point("I3")
    with pytest.raises(ValueError):
        board.parse_point("ı3")

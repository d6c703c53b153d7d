"""The GUI's reading of `showboard` (engine/gui/board.py) against the real engine's drawings:
names, neighbours one unit apart, contents, edge labels outside the board."""
from __future__ import annotations

import math

import pytest

from conftest import EngineClient
from engine.gui.board import parse_showboard
from test_protocol import DVONN_POINTS, FIXED_TZAAR

DVONN_MIDGAME = ("dvonn b move R,W,W,B,B,-,-,-,R/-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-,-/"
                 "-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,RB,B")


@pytest.fixture(scope="module")
def engine():
    client = EngineClient()
    yield client
    client.close()


def board_of(engine, setup: str):
    engine.ok(setup)
    return parse_showboard(engine.ok("showboard"))


def neighbours(points, name: str) -> set[str]:
    here = next(p for p in points if p.name == name)
    return {p.name for p in points
            if p is not here and not p.hole and math.isclose(math.hypot(p.x - here.x, p.y - here.y), 1)}


def test_dvonn_points_contents_and_hex_neighbours(engine):
    board = board_of(engine, f"setposition {DVONN_MIDGAME}")
    points = board.points
    assert sorted(p.name for p in points) == sorted(DVONN_POINTS)
    assert neighbours(points, "E3") == {"D3", "F3", "E4", "F4", "D2", "E2"}  # protocol.md 3.1
    assert neighbours(points, "A1") == {"B1", "A2", "B2"}
    cells = {p.name: p for p in points}
    assert (cells["J5"].top, cells["J5"].height, cells["J5"].marked) == ("B", 2, True)
    assert (cells["A1"].top, cells["A1"].height, cells["A1"].marked) == ("R", 1, False)
    assert cells["E3"].top is None and cells["E3"].height == 0
    assert board.footer == "black to act, movement"


def test_tzaar_points_hole_and_neighbours(engine):
    board = board_of(engine, f"setposition {FIXED_TZAAR}")
    points = board.points
    names = [p.name for p in points if not p.hole]
    assert len(names) == 60 and "E5" not in names
    assert [p.name for p in points if p.hole] == ["E5"]
    # protocol.md 3.2: the column above and below, two points in each next column
    assert neighbours(points, "D3") == {"D2", "D4", "C2", "C3", "E3", "E4"}
    assert neighbours(points, "E4") == {"E3", "D3", "D4", "F3", "F4"}  # E5 is the hole
    cells = {p.name: p for p in points}
    position = FIXED_TZAAR.split()[3].split("/")
    assert cells["A1"].top == position[0].split(",")[0] and cells["I5"].top == position[8].split(",")[4]


@pytest.mark.parametrize("setup", [f"setposition {DVONN_MIDGAME}", f"setposition {FIXED_TZAAR}"])
def test_every_letter_and_number_is_labelled_off_the_board(engine, setup):
    board = board_of(engine, setup)
    texts = sorted(label["text"] for label in board.labels)
    letters = sorted({p.name[0] for p in board.points})
    numbers = sorted({p.name[1:] for p in board.points if not p.hole})
    assert texts == sorted(letters + numbers)
    for label in board.labels:
        nearest = min(math.hypot(p.x - label["x"], p.y - label["y"]) for p in board.points)
        assert nearest >= 0.99, label  # a label never sits on a point


@pytest.mark.parametrize("text", ["", "no drawing", "  X1  Y1\nfooter", " . .  A1-A1\nfooter"])
def test_drawings_it_cannot_read_are_refused(text):
    with pytest.raises(ValueError):
        parse_showboard(text)

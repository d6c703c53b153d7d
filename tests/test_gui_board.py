"""The GUI's reading of `showboard` (engine/gui/board.py) against the real engine's drawings:
names, neighbours one unit apart, contents, edge labels outside the board."""
from __future__ import annotations

import math

import pytest
from conftest import DVONN_POINTS, FIXED_TZAAR, EngineClient

from engine.gui.board import parse_showboard

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


def test_a_stack_of_ten_with_a_red_inside_fills_its_cell_and_touches_its_neighbour(engine):
    board = board_of(engine, "setposition dvonn w move R,RWWWWWWWWWW,R,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-/"
                             "-,-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-")
    cells = {p.name: p for p in board.points}
    assert (cells["B1"].top, cells["B1"].height, cells["B1"].marked) == ("W", 11, True)
    assert cells["A1"].top == cells["C1"].top == "R" and cells["D1"].top is None


def test_a_tall_tzaar_stack_runs_on_to_the_right_and_stays_in_its_column(engine):
    board = board_of(engine, "setposition tzaar w turn cccccccccccc,a,b,-,-/-,-,-,-,-,-/-,-,-,-,-,-,-/"
                             "-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-/"
                             "-,-,-,C,-,-/C,B,A,A,BB")
    cells = {p.name: p for p in board.points}
    assert (cells["A1"].top, cells["A1"].height) == ("c", 12)
    assert (cells["I5"].top, cells["I5"].height) == ("B", 2) and cells["H4"].top == "C"


@pytest.mark.parametrize("text", ["", "no drawing", "  ?1  .  A1-B1\nfooter", "  X1  Y1\nfooter",
                                  " . .  A1-A1\nfooter"])
def test_drawings_it_cannot_read_are_refused(text):
    with pytest.raises(ValueError):
        parse_showboard(text)


@pytest.mark.parametrize("game", ["newgame dvonn", "newgame tzaar random 7"])
def test_every_position_of_a_random_game_reads_back_as_its_position_string(engine, game):
    """Tops, heights and red marks of the drawing are the stacks of `position` (bottom to top)."""
    engine.ok(game)
    engine.ok("option player random")
    try:
        while True:
            board = parse_showboard(engine.ok("showboard"))
            stacks = [s for s in engine.ok("position").split()[3].replace("/", ",").split(",")
                      if s != "-"]
            drawn = [p for p in board.points if p.top]
            assert sorted(p.top for p in drawn) == sorted(s[-1] for s in stacks)
            assert sorted(p.height for p in drawn) == sorted(len(s) for s in stacks)
            assert sum(p.marked for p in drawn) == sum("R" in s[:-1] for s in stacks)
            if board.footer.startswith("game over"):
                break
            engine.ok("genmove")
    finally:
        engine.ok("option player core")

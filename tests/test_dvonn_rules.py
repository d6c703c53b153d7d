"""DVONN rules (dvonn-standard-v1): one test per rule and per listed common mistake.

Positions are built with ``DvonnGame.from_position`` from a dict of point
name -> stack (bottom to top, 'W' white, 'B' black, 'R' red).
"""
from __future__ import annotations

import pytest

from engine.games.dvonn.board import DVONN_BOARD as BOARD
from engine.games.dvonn.rules import PASS, ROW_LENGTHS, DvonnGame, Move
from engine.rules import BLACK, WHITE, BadPosition, IllegalMove, board_field

P = BOARD.by_name


def board_text(stacks: dict[str, str]) -> str:
    cells = [""] * BOARD.size
    for name, stack in stacks.items():
        cells[P[name]] = stack
    return board_field(cells, ROW_LENGTHS)


def game(stacks: dict[str, str], side: str = "w", phase: str = "move") -> DvonnGame:
    return DvonnGame.from_position(f"dvonn {side} {phase} {board_text(stacks)}")


def mv(text: str) -> Move:
    a, b = text.split("-")
    return Move("move", P[a], P[b])


def cell(g: DvonnGame, name: str) -> str:
    return g.cells[P[name]]


def moves_from(g: DvonnGame, name: str) -> set[str]:
    return {BOARD.names[m.dst] for m in g.legal_moves() if m.kind == "move" and m.src == P[name]}


def illegal(g: DvonnGame, move, *fragments: str) -> str:
    with pytest.raises(IllegalMove) as info:
        g.check_move(move)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


def fill_board(g: DvonnGame) -> None:
    """Place all 49 pieces on the points in canonical order."""
    while g.placed < 49:
        g.play_text(BOARD.names[g.placed])


# ---------------------------------------------------------------------------
# Board
# ---------------------------------------------------------------------------

def test_dvonn_board_has_49_points_in_rows_of_9_10_11_10_9():
    assert BOARD.size == 49
    rows = {}
    for name in BOARD.names:
        rows.setdefault(name[1], []).append(name)
    assert [len(rows[r]) for r in "12345"] == [9, 10, 11, 10, 9]


def test_dvonn_interior_point_has_six_neighbours_and_edge_points_fewer():
    assert len(BOARD.neighbours[P["E3"]]) == 6
    assert len(BOARD.neighbours[P["E1"]]) == 4
    assert len(BOARD.neighbours[P["A1"]]) == 3
    assert {BOARD.names[n] for n in BOARD.neighbours[P["E3"]]} == {"D3", "F3", "E2", "E4", "D2", "F4"}


# ---------------------------------------------------------------------------
# Placement phase
# ---------------------------------------------------------------------------

def test_dvonn_three_reds_are_placed_first_by_white_black_white():
    g = DvonnGame()
    for expected_side, point in zip((WHITE, BLACK, WHITE), ("A1", "E3", "K5")):
        assert g.side == expected_side
        g.play_text(point)
        assert cell(g, point) == "R"


def test_dvonn_black_places_the_first_ordinary_piece_then_white():
    g = DvonnGame()
    for point in ("A1", "E3", "K5"):
        g.play_text(point)
    assert g.side == BLACK
    g.play_text("C3")
    assert cell(g, "C3") == "B"
    assert g.side == WHITE
    g.play_text("D3")
    assert cell(g, "D3") == "W"
    assert g.side == BLACK


def test_dvonn_placement_alternates_and_white_places_the_49th_piece():
    g = DvonnGame()
    sides = []
    for k in range(49):
        sides.append(g.side)
        point = BOARD.names[k]
        g.play_text(point)
        expected_piece = "R" if k < 3 else ("B" if k % 2 == 1 else "W")
        assert cell(g, point) == expected_piece
    assert sides[:3] == [WHITE, BLACK, WHITE]
    assert sides[3] == BLACK
    assert sides[48] == WHITE
    assert all(sides[k] != sides[k + 1] for k in range(48))
    pieces = "".join(g.cells)
    assert (pieces.count("W"), pieces.count("B"), pieces.count("R")) == (23, 23, 3)


def test_dvonn_white_makes_the_first_stack_move_right_after_the_last_placement():
    g = DvonnGame()
    fill_board(g)
    assert g.phase == "movement"
    assert g.side == WHITE                      # White placed the 49th and acts again
    moves = g.legal_moves()
    assert moves and all(m.kind == "move" for m in moves)
    assert all(g.cells[m.src][-1] == "W" for m in moves)
    black_stack = next(m for m in g.stack_moves(BLACK))
    illegal(g, black_stack, "not yours")


def test_dvonn_placement_only_on_an_empty_point():
    g = DvonnGame()
    g.play_text("E3")
    illegal(g, Move("place", -1, P["E3"]), "occupied")
    assert Move("place", -1, P["E3"]) not in g.legal_moves()


def test_dvonn_placement_has_no_adjacency_or_connectivity_restriction():
    g = DvonnGame()
    g.play_text("E3")
    legal = g.legal_moves()
    assert len(legal) == 48
    assert {m.dst for m in legal} == set(range(49)) - {P["E3"]}
    g.play_text("A1")   # far from the first red
    g.play_text("K5")
    g.play_text("I1")   # an ordinary piece far from every red is fine during placement
    assert cell(g, "I1") == "B"


def test_dvonn_no_stack_move_or_pass_during_placement():
    g = DvonnGame()
    for point in ("E3", "F3", "G3"):
        g.play_text(point)
    illegal(g, mv("E3-F3"), "placement")
    illegal(g, PASS, "placement")


def test_dvonn_no_placement_after_the_board_is_full():
    g = DvonnGame()
    fill_board(g)
    illegal(g, Move("place", -1, P["E3"]), "all 49")


# ---------------------------------------------------------------------------
# Stack moves: exact height, straight lines, jumping, landing
# ---------------------------------------------------------------------------

def test_dvonn_stack_moves_exactly_its_height_not_less_or_more():
    # C3 holds two whites; D3 (1 away) and F3 (3 away) are occupied, E3 (2 away) too.
    g = game({"C3": "WW", "D3": "B", "E3": "R", "F3": "B", "A1": "R", "K5": "R"})
    assert moves_from(g, "C3") == {"E3", "A1"}
    g.check_move(mv("C3-E3"))
    illegal(g, mv("C3-D3"), "exactly 2", "not 1")
    illegal(g, mv("C3-F3"), "exactly 2", "not 3")


def test_dvonn_single_piece_moves_exactly_one_point():
    g = game({"D3": "W", "E3": "R", "F3": "B", "A1": "R", "K5": "R"})
    assert moves_from(g, "D3") == {"E3"}
    illegal(g, mv("D3-F3"), "exactly 1")


def test_dvonn_stack_may_jump_over_empty_points():
    g = game({"A3": "WWW", "D3": "R", "E3": "B", "A1": "R", "K5": "R", "A2": "B", "B2": "W"})
    assert not cell(g, "B3") and not cell(g, "C3")
    assert "D3" in moves_from(g, "A3")
    g.push(mv("A3-D3"))
    assert cell(g, "D3") == "RWWW" and cell(g, "A3") == ""


def test_dvonn_stack_may_jump_over_other_stacks():
    g = game({"A3": "WWW", "B3": "B", "C3": "BB", "D3": "R", "A1": "R", "K5": "R"})
    assert "D3" in moves_from(g, "A3")
    g.push(mv("A3-D3"))
    assert cell(g, "B3") == "B" and cell(g, "C3") == "BB" and cell(g, "D3") == "RWWW"


def test_dvonn_stack_cannot_land_on_an_empty_point():
    g = game({"A3": "WW", "B3": "B", "B2": "R", "A1": "R", "K5": "R"})
    assert "C3" not in moves_from(g, "A3")
    illegal(g, mv("A3-C3"), "empty")


def test_dvonn_stack_moves_only_along_a_straight_line():
    # E3 -> F5 is two points away but not on one of the six lines.
    g = game({"E3": "WW", "F5": "B", "F4": "R", "A1": "R", "K5": "R"})
    assert "F5" not in moves_from(g, "E3")
    illegal(g, mv("E3-F5"), "straight line")


def test_dvonn_stack_has_no_destination_beyond_the_board_edge():
    # B2 with height 3: three of its six lines run off the board within three points.
    g = game({"B2": "WWW", "A1": "R", "E2": "B", "E3": "R", "E4": "W", "E5": "B", "K5": "R"})
    assert moves_from(g, "B2") == {"E2", "E5"}
    g2 = game({"B2": "WWW", "A1": "R", "C3": "R", "K5": "R", "B3": "B"})
    assert g2.legal_moves() == [PASS]


def test_dvonn_stack_moves_whole_and_lands_on_top_of_the_destination():
    g = game({"C3": "BW", "E3": "RBW", "D3": "B", "A1": "R", "K5": "R"})
    g.push(mv("C3-E3"))
    assert cell(g, "E3") == "RBWBW"   # destination below, the moving stack intact on top
    assert cell(g, "C3") == ""


def test_dvonn_top_piece_decides_who_controls_a_stack():
    g = game({"C3": "BW", "D3": "WB", "E3": "R", "F3": "W", "A1": "R", "K5": "R"})
    assert moves_from(g, "C3") == {"E3", "A1"}
    assert moves_from(g, "D3") == set()
    illegal(g, mv("D3-F3"), "not yours")
    assert {BOARD.names[m.src] for m in g.stack_moves(BLACK)} == {"D3"}


def test_dvonn_cannot_move_an_opponents_stack_or_from_an_empty_point():
    g = game({"D3": "W", "E3": "R", "F3": "B", "A1": "R", "K5": "R"})
    illegal(g, mv("F3-E3"), "not yours")
    illegal(g, mv("G3-F3"), "empty")


# ---------------------------------------------------------------------------
# Surrounded stacks
# ---------------------------------------------------------------------------

SURROUNDED = {"E3": "W", "D3": "R", "F3": "B", "E4": "B", "E2": "B", "F4": "B", "D2": "B",
              "A1": "R", "K5": "R"}


def test_dvonn_stack_with_six_occupied_neighbours_is_surrounded_and_cannot_move():
    g = game(SURROUNDED)
    assert g.is_surrounded(P["E3"])
    assert g.legal_moves() == [PASS]
    illegal(g, mv("E3-F3"), "surrounded")


def test_dvonn_stack_with_one_empty_neighbour_is_not_surrounded():
    stacks = dict(SURROUNDED)
    del stacks["F4"]
    g = game(stacks)
    assert not g.is_surrounded(P["E3"])
    assert moves_from(g, "E3") == {"D3", "F3", "E4", "E2", "D2"}


def test_dvonn_surrounded_stack_of_any_height_cannot_move():
    stacks = dict(SURROUNDED, E3="BBW", G3="B", C3="B")
    g = game(stacks)
    assert g.is_surrounded(P["E3"])
    illegal(g, mv("E3-C3"), "surrounded")


def test_dvonn_edge_stack_with_all_existing_neighbours_occupied_is_not_surrounded():
    # E1 has only four neighbours on the board: D1, F1, E2, F2; all occupied.
    g = game({"E1": "W", "D1": "R", "F1": "B", "E2": "B", "F2": "B", "A1": "R", "K5": "R"})
    assert not g.is_surrounded(P["E1"])
    assert moves_from(g, "E1") == {"D1", "F1", "E2", "F2"}


def test_dvonn_corner_stack_with_its_three_neighbours_occupied_is_not_surrounded():
    g = game({"A1": "W", "B1": "R", "A2": "B", "B2": "B", "E3": "R", "K5": "R"})
    assert not g.is_surrounded(P["A1"])
    assert moves_from(g, "A1") == {"B1", "A2", "B2"}


# ---------------------------------------------------------------------------
# Red pieces
# ---------------------------------------------------------------------------

def test_dvonn_lone_red_piece_can_never_move():
    g = game({"D3": "R", "E3": "W", "F3": "B", "A1": "R", "K5": "R"})
    for side in (WHITE, BLACK):
        assert all(g.cells[m.src] != "R" for m in g.stack_moves(side))
    illegal(g, mv("D3-E3"), "red")
    g2 = game({"D3": "R", "E3": "W", "F3": "B", "A1": "R", "K5": "R"}, side="b")
    illegal(g2, mv("D3-E3"), "red")


def test_dvonn_stacks_may_land_on_a_lone_red():
    g = game({"D3": "R", "E3": "W", "F3": "B", "A1": "R", "K5": "R"})
    assert "D3" in moves_from(g, "E3")
    g.push(mv("E3-D3"))
    assert cell(g, "D3") == "RW"


def test_dvonn_red_under_a_players_piece_moves_with_the_whole_stack():
    g = game({"D3": "RW", "E3": "B", "F3": "B", "A1": "R", "K5": "R"})
    assert moves_from(g, "D3") == {"F3"}     # height two: exactly two points
    g.push(mv("D3-F3"))
    assert cell(g, "F3") == "BRW" and cell(g, "D3") == ""
    assert "".join(g.cells).count("R") == 3


def test_dvonn_red_stack_belongs_to_the_player_on_top():
    g = game({"D3": "RW", "E3": "B", "F3": "B", "A1": "R", "K5": "R"}, side="b")
    illegal(g, mv("D3-F3"), "not yours")


# ---------------------------------------------------------------------------
# Disconnection
# ---------------------------------------------------------------------------

BRIDGE = {"A3": "R", "B3": "W", "C3": "W", "D3": "B", "E3": "B", "I1": "R", "K5": "R"}


def test_dvonn_region_cut_off_from_every_red_is_removed_after_the_move():
    g = game(BRIDGE)
    g.push(mv("C3-B3"))          # C3 was the only bridge from D3/E3 to a red
    assert cell(g, "B3") == "WW"
    assert cell(g, "D3") == "" and cell(g, "E3") == ""
    assert cell(g, "A3") == "R"


def test_dvonn_stack_landing_in_a_cut_off_region_is_removed_with_it():
    # Land first, then remove: the mover lands on D3, and the hole it left at C3 cuts D3/E3 off.
    g = game(BRIDGE)
    before = g.position()
    g.push(mv("C3-D3"))
    assert cell(g, "C3") == "" and cell(g, "D3") == "" and cell(g, "E3") == ""
    assert g.scores() == (1, 0)
    g.pop()
    assert g.position() == before


def test_dvonn_disconnection_removes_stacks_of_both_colours_and_the_movers_own():
    stacks = {"A3": "R", "B3": "W", "C3": "W", "D3": "W", "E3": "B", "F3": "WB", "I1": "R", "K5": "R"}
    g = game(stacks)
    g.push(mv("C3-B3"))
    assert [cell(g, p) for p in ("D3", "E3", "F3")] == ["", "", ""]


def test_dvonn_lone_isolated_red_is_never_removed():
    g = game({"A3": "R", "B3": "W", "C3": "B", "D3": "W", "E3": "R", "K5": "R"})
    g.push(mv("D3-C3"))          # E3's red loses its only neighbour
    assert cell(g, "E3") == "R"
    assert "".join(g.cells).count("R") == 3


def test_dvonn_reds_need_not_be_connected_to_each_other():
    g = game({"A3": "R", "B3": "W", "C3": "B", "D3": "W", "E3": "R", "F3": "B", "G3": "W", "K5": "R"})
    g.push(mv("D3-C3"))          # splits the board into A3..C3 and E3..G3, each with a red
    assert [cell(g, p) for p in ("A3", "B3", "C3")] == ["R", "W", "BW"]
    assert [cell(g, p) for p in ("E3", "F3", "G3")] == ["R", "B", "W"]


def test_dvonn_stack_containing_a_red_anchors_its_region():
    g = game({"A3": "R", "B3": "W", "C3": "W", "D3": "W", "E3": "RB", "F3": "W", "K5": "R"})
    g.push(mv("D3-C3"))
    assert cell(g, "E3") == "RB" and cell(g, "F3") == "W"


def test_dvonn_hole_left_at_the_source_can_cut_off_the_movers_own_region():
    stacks = {"A3": "R", "B3": "B", "C3": "W", "D3": "W", "E3": "WW", "I1": "R", "K5": "R",
              "B2": "B"}
    g = game(stacks)
    g.push(mv("C3-B2"))          # White's own D3/E3 lose their link to A3
    assert cell(g, "D3") == "" and cell(g, "E3") == ""
    assert cell(g, "B2") == "BW"


# ---------------------------------------------------------------------------
# Passing and the end of the game
# ---------------------------------------------------------------------------

# Black's only piece E3 is surrounded; White can move, and F4-E4 opens E3 again.
BLOCKED_BLACK = {"E3": "B", "D3": "R", "F3": "W", "E4": "W", "E2": "W", "F4": "W", "D2": "W",
                 "A1": "R", "K5": "R"}


def test_dvonn_player_without_a_stack_move_must_pass():
    g = game(BLOCKED_BLACK, side="b")
    assert g.legal_moves() == [PASS]
    g.check_move(PASS)
    assert g.parse_move("pass") == PASS


def test_dvonn_pass_is_forbidden_while_a_stack_move_exists():
    g = game(BLOCKED_BLACK, side="w")
    assert PASS not in g.legal_moves()
    illegal(g, PASS, "only when")


def test_dvonn_forced_pass_does_not_end_the_game_while_the_opponent_can_move():
    g = game(BLOCKED_BLACK, side="b")
    assert not g.over
    g.play_text("pass")
    assert not g.over and g.side == WHITE and g.result() is None


def test_dvonn_play_resumes_after_a_pass_when_the_opponent_reopens_a_move():
    g = game(BLOCKED_BLACK, side="b")
    g.play_text("pass")
    g.play_text("F4-E4")
    assert g.side == BLACK
    assert "F3" in moves_from(g, "E3")
    illegal(g, PASS, "only when")


def test_dvonn_game_ends_when_neither_side_can_move():
    # D3-E3 is White's only move; afterwards RW (height 2) and BBB (height 3) are stuck.
    g = game({"D3": "W", "E3": "R", "F3": "BBB", "A1": "R", "K5": "R"})
    assert not g.over and g.legal_moves() == [mv("D3-E3")]
    g.play_text("D3-E3")
    assert g.over
    assert g.legal_moves() == []
    assert g.reason
    assert g.result() == "B+1"
    illegal(g, PASS, "over")


def test_dvonn_game_is_not_over_while_the_side_not_to_move_can_still_move():
    g = game({"D3": "W", "E3": "R", "F3": "BBB", "A1": "R", "K5": "R"}, side="b")
    assert g.legal_moves() == [PASS] and not g.over


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------

def test_dvonn_score_counts_every_layer_of_each_controlled_stack():
    # E3 is white-topped with black and red underneath; F3 and E4 are black-topped.
    g = game({"E3": "BRBW", "F3": "WWB", "E4": "BB", "A1": "R", "K5": "R"})
    assert g.over
    assert g.scores() == (4, 5)   # not own colour only (1, 3), not stack count (1, 2)
    assert g.result() == "B+1"


def test_dvonn_lone_reds_score_for_nobody():
    g = game({"E3": "BRBW", "F3": "WWB", "E4": "BB", "A1": "R", "K5": "R"})
    assert sum(g.scores()) == sum(len(s) for s in g.cells) - 2


def test_dvonn_higher_total_wins_with_the_margin_in_the_result():
    g = game({"A3": "WWWWW", "B3": "R", "A1": "R", "K5": "R"})
    assert g.over and g.result() == "W+5"


def test_dvonn_equal_totals_are_a_draw():
    g = game({"D3": "WWW", "E3": "R", "F3": "BBB", "A1": "R", "K5": "R"})
    assert g.over
    assert g.scores() == (3, 3)
    assert g.result() == "0"


def test_dvonn_result_is_none_until_the_game_is_over():
    g = game(BLOCKED_BLACK)
    assert g.result() is None and g.reason is None


# ---------------------------------------------------------------------------
# Undo
# ---------------------------------------------------------------------------

def test_dvonn_pop_restores_removed_regions_side_and_over_flag():
    g = game({"D3": "W", "E3": "R", "F3": "BBB", "A1": "R", "K5": "R", "B3": "B", "C3": "W"})
    before = (g.position(), g.side, g.over, list(g.cells))
    g.push(mv("C3-B3"))
    g.pop()
    assert (g.position(), g.side, g.over, list(g.cells)) == before


def test_dvonn_pop_through_the_phase_boundary():
    g = DvonnGame()
    fill_board(g)
    start = g.position()
    first = g.legal_moves()[0]
    g.push(first)
    assert g.pop() == first
    assert g.position() == start and g.side == WHITE
    g.pop()
    assert g.phase == "placement" and g.placed == 48 and g.side == WHITE
    assert g.cells[48] == ""


# ---------------------------------------------------------------------------
# Move text
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["E3-F3", "e3-f3", "E3F3", "e3f3", " E3 - F3 ", "E3 F3"])
def test_dvonn_parse_stack_move_in_any_case_with_or_without_dash(text):
    assert DvonnGame().parse_move(text) == mv("E3-F3")


@pytest.mark.parametrize("text", ["pass", "PASS", "Pass"])
def test_dvonn_parse_pass_in_any_case(text):
    assert DvonnGame().parse_move(text) == PASS


def test_dvonn_parse_placement_point_in_any_case():
    assert DvonnGame().parse_move("d3") == Move("place", -1, P["D3"])


@pytest.mark.parametrize("text", ["", "Z9", "A5", "E3-", "E3-F3-G3", "A5-B5", "E3-A5", "K1", "E33", "move"])
def test_dvonn_unreadable_move_text_raises_illegal_move_with_a_reason(text):
    with pytest.raises(IllegalMove) as info:
        DvonnGame().parse_move(text)
    assert "DVONN move" in str(info.value)


def test_dvonn_move_text_is_canonical_and_parses_back():
    g = DvonnGame()
    for move in (mv("E3-F3"), Move("place", -1, P["K5"]), PASS):
        text = g.move_text(move)
        assert g.parse_move(text) == move
    assert g.move_text(mv("e3-f3".upper())) == "E3-F3"
    assert g.move_text(PASS) == "pass"


# ---------------------------------------------------------------------------
# Position strings
# ---------------------------------------------------------------------------

def test_dvonn_empty_board_position():
    g = DvonnGame()
    assert g.position() == "dvonn w place " + "/".join(",".join("-" * n) for n in ROW_LENGTHS)


def test_dvonn_position_round_trips_in_both_phases():
    g = DvonnGame()
    for k in range(49):
        g.play_text(BOARD.names[(k * 17) % 49])
        if k in (0, 2, 3, 10, 47):
            copy = DvonnGame.from_position(g.position())
            assert copy.position() == g.position()
            assert copy.placed == g.placed and copy.side == g.side
            assert copy.legal_moves() == g.legal_moves()
    for _ in range(6):
        g.push(g.legal_moves()[0])
        copy = DvonnGame.from_position(g.position())
        assert copy.position() == g.position()
        assert copy.legal_moves() == g.legal_moves()
        assert copy.over == g.over


@pytest.mark.parametrize("text, fragment", [
    ("dvonn w place", "expected"),
    ("tzaar w place " + board_text({}), "expected"),
    ("dvonn x place " + board_text({}), "side"),
    ("dvonn w play " + board_text({}), "phase"),
    ("dvonn w place -,-,-/-,-", "five rows"),
    ("dvonn w move " + board_text({"E3": "R", "A1": "R", "K5": "R"}).replace("-", "X", 1), "bad point"),
])
def test_dvonn_malformed_position_is_rejected(text, fragment):
    with pytest.raises(BadPosition) as info:
        DvonnGame.from_position(text)
    assert fragment in str(info.value)


@pytest.mark.parametrize("stacks, side, phase, fragment", [
    ({"E3": "WW", "A1": "R", "K5": "R"}, "w", "place", "no stacks"),
    ({"E3": "W"}, "b", "place", "red"),                          # a white before the reds
    ({"E3": "R", "A1": "R", "K5": "R", "C3": "W"}, "w", "place", "1 black"),   # Black places first
    ({"E3": "R"}, "w", "place", "Black"),                        # placement 2 is Black's
    ({"E3": "R", "A1": "R", "K5": "R"}, "w", "place", "4 is Black"),  # placement 4 is Black's
    ({"E3": "R", "A1": "R", "D3": "W"}, "w", "move", "red"),     # reds are never removed
    ({"E3": "R", "A1": "R", "K5": "R", "D3": "W" * 24}, "w", "move", "23"),
    ({"E3": "R", "A1": "R", "K5": "R", "D3": "W", "H3": "B"}, "b", "move", "connected"),
])
def test_dvonn_impossible_position_is_rejected(stacks, side, phase, fragment):
    with pytest.raises(BadPosition) as info:
        game(stacks, side=side, phase=phase)
    assert fragment in str(info.value)


def test_dvonn_full_board_cannot_be_in_the_placement_phase():
    g = DvonnGame()
    fill_board(g)
    text = g.position().replace(" move ", " place ")
    with pytest.raises(BadPosition):
        DvonnGame.from_position(text)


def test_dvonn_red_on_top_of_a_stack_is_an_impossible_position():
    # A red never moves on its own, so it can only be on top when it is alone.
    with pytest.raises(BadPosition) as info:
        game({"E3": "WR", "D3": "W", "A1": "R", "K5": "R"})
    assert "red" in str(info.value)


def test_dvonn_check_move_rejects_a_move_of_unknown_kind():
    # such a move would otherwise be played as a silent pass
    g = game({"D3": "W", "E3": "R", "F3": "B", "A1": "R", "K5": "R"})
    illegal(g, Move("jump", P["D3"], P["E3"]), "unknown")
    illegal(DvonnGame(), Move("jump", -1, P["E3"]), "unknown")

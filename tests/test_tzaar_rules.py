"""TZAAR rules (tzaar-standard-2016-v1, the Chinese text is the authority).

One test per rule and per listed common mistake.  Positions are built with
``TzaarGame.from_position`` from a dict of point name -> stack, bottom to top:
'a' Tzaar, 'b' Tzarra, 'c' Tott for White; 'A', 'B', 'C' for Black.

Board lines used below (see engine/games/tzaar/board.py):
  A1 B2 C3 D4 (hole) F5 G5 H5 I5      A5 B5 C5 D5 (hole) F4 G3 H2 I1
  column E: E1 E2 E3 E4 (hole) E6 E7 E8 E9;  column A: A1 .. A5
"""
from __future__ import annotations

import pytest

from engine.games.tzaar.board import TZAAR_BOARD as BOARD
from engine.games.tzaar.rules import _COLUMN_LENGTHS, PASS, Action, TzaarGame
from engine.rules import BLACK, WHITE, BadPosition, IllegalMove, board_field

P = BOARD.by_name


def board_text(stacks: dict[str, str]) -> str:
    cells = [""] * BOARD.size
    for name, stack in stacks.items():
        cells[P[name]] = stack
    return board_field(cells, _COLUMN_LENGTHS)


def tz(stacks: dict[str, str], side: str = "w", phase: str = "turn") -> TzaarGame:
    return TzaarGame.from_position(f"tzaar {side} {phase} {board_text(stacks)}")


def act(text: str) -> Action:
    if text == "pass":
        return PASS
    for sign, kind in (("x", "capture"), ("+", "stack"), ("-", "any")):
        if sign in text:
            a, b = text.split(sign)
            return Action(kind, P[a], P[b])
    raise AssertionError(text)


def turn(*texts: str) -> tuple:
    return tuple(act(t) for t in texts)


def cell(g: TzaarGame, name: str) -> str:
    return g.cells[P[name]]


def first_actions(g: TzaarGame) -> set[str]:
    return {g.action_text(t[0]) for t in g.legal_moves()}


def second_actions_after(g: TzaarGame, first: str) -> set[str]:
    return {g.action_text(t[1]) for t in g.legal_moves()
            if g.action_text(t[0]) == first and len(t) == 2}


def illegal(g: TzaarGame, move: tuple, *fragments: str) -> str:
    with pytest.raises(IllegalMove) as info:
        g.check_move(move)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


# Pieces that keep every type of both sides on top, far from the action on the left.
RESERVE = {"G7": "a", "F8": "b", "E9": "c", "H6": "C", "I5": "B", "H5": "A"}


def with_reserve(**stacks: str) -> dict[str, str]:
    return {**RESERVE, **stacks}


# ---------------------------------------------------------------------------
# Board and turn structure
# ---------------------------------------------------------------------------

def test_tzaar_board_has_60_points_and_the_centre_is_a_hole():
    assert BOARD.size == 60
    assert "E5" not in P
    assert (0, 0) not in BOARD.index


def test_tzaar_white_opening_turn_is_a_single_capture():
    g = TzaarGame()
    assert g.side == WHITE and g.phase == "opening"
    turns = g.legal_moves()
    assert len(turns) == 42
    assert all(len(t) == 1 and t[0].kind == "capture" for t in turns)
    g.push(turns[0])
    assert g.side == BLACK and g.phase == "turn"


def test_tzaar_white_opening_turn_has_no_second_action():
    g = TzaarGame()
    first = g.legal_moves()[0][0]
    illegal(g, (first, PASS), "single capture")
    g.check_move((first,))


def test_tzaar_first_action_can_never_be_a_pass():
    illegal(TzaarGame(), (PASS,), "cannot be passed")
    g = TzaarGame()
    g.push(g.legal_moves()[0])
    illegal(g, (PASS, PASS), "cannot be passed")


def test_tzaar_first_action_must_be_a_capture_not_a_stacking():
    g = tz(with_reserve(A1="c", A2="c", B2="C"))
    assert "A1+A2" not in first_actions(g)
    illegal(g, turn("A1+A2", "pass"), "must be a capture")
    illegal(g, turn("A1-A2", "pass"), "must be a capture")


def test_tzaar_later_turns_are_a_capture_then_capture_stack_or_pass():
    g = TzaarGame()
    g.push(g.legal_moves()[0])
    turns = g.legal_moves()
    assert turns and all(len(t) == 2 and t[0].kind == "capture" for t in turns)
    kinds = {t[1].kind for t in turns}
    assert kinds == {"capture", "stack", "pass"}


def test_tzaar_turn_after_the_opening_needs_its_second_action():
    g = TzaarGame()
    g.push(g.legal_moves()[0])
    first = g.legal_moves()[0][0]
    illegal(g, (first,), "second action")


def test_tzaar_turn_has_at_most_two_actions_and_at_least_one():
    g = TzaarGame()
    g.push(g.legal_moves()[0])
    two = g.legal_moves()[0]
    illegal(g, two + (PASS,), "one or two")
    illegal(g, (), "one or two")
    illegal(TzaarGame(), (), "one or two")


def test_tzaar_second_capture_is_not_mandatory():
    # After A1xB2 White could capture again (C3xD4) but may pass instead.
    g = tz(with_reserve(A1="c", B2="C", C3="c", D4="C", A3="c"))
    seconds = second_actions_after(g, "A1xB2")
    assert {"C3xD4", "pass"} <= seconds
    g.check_move(turn("A1xB2", "pass"))
    g.check_move(turn("A1xB2", "C3xD4"))


def test_tzaar_second_action_may_be_a_stacking():
    g = tz(with_reserve(A1="c", B2="C", A3="c", A4="b"))
    assert "A3+A4" in second_actions_after(g, "A1xB2")
    g.play_text("A1xB2 A3+A4")
    assert cell(g, "A4") == "bc" and cell(g, "A3") == ""


def test_tzaar_second_action_is_generated_from_the_board_after_the_first_capture():
    # Before the turn B2 is Black's; after A1xB2 the white stack there can stack onto C3,
    # and C3 (own) is now the first stack on its line, so D4 behind it is out of reach.
    g = tz(with_reserve(A1="cc", B2="C", C3="a", D4="C", A3="c"))
    seconds = second_actions_after(g, "A1xB2")
    assert "B2+C3" in seconds
    assert "B2xD4" not in seconds


# ---------------------------------------------------------------------------
# Moving along lines
# ---------------------------------------------------------------------------

def test_tzaar_capture_crosses_any_number_of_empty_points():
    g = tz(with_reserve(A1="c", D4="C"))
    assert "A1xD4" in first_actions(g)            # three points away with height 1
    g.play_text("A1xD4 pass")
    assert cell(g, "D4") == "c" and cell(g, "A1") == ""


def test_tzaar_height_is_capture_strength_not_distance():
    g = tz(with_reserve(A1="ccc", B2="C", D4="C", A3="c", A4="C"))
    firsts = first_actions(g)
    assert "A1xB2" in firsts                       # height 3, one point away
    assert "A3xA4" in firsts
    # a tall stack does not move "height" points: D4 is three away but behind B2
    assert "A1xD4" not in firsts
    illegal(g, turn("A1xD4", "pass"), "in the way")


def test_tzaar_capture_cannot_jump_the_nearest_stack():
    # B2 (black, too tall) stands between A1 and the black stack on D4.
    g = tz(with_reserve(A1="c", B2="CC", D4="C"))
    assert "A1xD4" not in first_actions(g) and "A1xB2" not in first_actions(g)
    illegal(g, turn("A1xD4", "pass"), "in the way")


def test_tzaar_capture_cannot_jump_an_own_stack_either():
    g = tz(with_reserve(A1="c", B2="b", D4="C", A2="C"))
    assert "A1xD4" not in first_actions(g)
    illegal(g, turn("A1xD4", "pass"), "in the way")


@pytest.mark.parametrize("blocker", ["CC", "a"])
def test_tzaar_stacking_cannot_jump_the_nearest_stack(blocker):
    # A1 and A3 are White's, A2 stands between them; B2xC3 is the first capture.
    g = tz(with_reserve(A1="c", A2=blocker, A3="b", B2="c", C3="C"))
    seconds = second_actions_after(g, "B2xC3")
    assert "A1+A3" not in seconds
    illegal(g, turn("B2xC3", "A1+A3"), "in the way")


def test_tzaar_move_cannot_stop_on_an_empty_point():
    g = tz(with_reserve(A1="c", D4="C"))
    illegal(g, turn("A1xC3", "pass"), "empty")
    illegal(g, turn("A1-B2", "pass"), "empty")


def test_tzaar_move_must_follow_one_straight_line():
    g = tz(with_reserve(A1="c", B3="C", A2="C"))
    assert "A1xB3" not in first_actions(g)
    illegal(g, turn("A1xB3", "pass"), "straight line")


@pytest.mark.parametrize("near, far", [("D4", "F5"), ("E4", "E6"), ("D5", "F4"),
                                       ("F5", "D4"), ("E6", "E4"), ("F4", "D5")])
def test_tzaar_ray_ends_at_the_hole_no_capture_across_it(near, far):
    g = tz(with_reserve(**{near: "c", far: "C", "A1": "c", "B2": "C"}))
    assert f"{near}x{far}" not in first_actions(g)
    illegal(g, turn(f"{near}x{far}", "pass"), "hole")


def test_tzaar_ray_ends_at_the_hole_even_with_only_empty_points_beyond():
    # E4 looks straight up through the hole at nothing but E6..E9 far away.
    g = tz(with_reserve(E4="c", E8="C", A1="c", B2="C"))
    assert not any(t[0].src == P["E4"] for t in g.legal_moves())


def test_tzaar_ray_ends_at_the_board_edge():
    # A5 tops column A; B1 follows it in point order but is not on any line from A5.
    g = tz(with_reserve(A5="c", B1="C", A1="C"))
    assert {a for a in first_actions(g) if a.startswith("A5")} == {"A5xA1"}
    illegal(g, turn("A5xB1", "pass"), "straight line")


# ---------------------------------------------------------------------------
# Capturing
# ---------------------------------------------------------------------------

def test_tzaar_capture_needs_height_greater_or_equal_to_the_target():
    g = tz(with_reserve(A1="cc", B2="CC", A2="c", A3="CC", B1="cc", C2="C"))
    firsts = first_actions(g)
    assert "A1xB2" in firsts          # equal heights
    assert "B1xC2" in firsts          # taller onto shorter
    assert "A2xA3" not in firsts      # shorter onto taller
    illegal(g, turn("A2xA3", "pass"), "height 1", "height 2")


def test_tzaar_capture_removes_the_whole_target_and_the_mover_stays_unchanged():
    g = tz(with_reserve(A1="cb", D4="AC"))
    g.play_text("A1xD4 pass")
    assert cell(g, "D4") == "cb"            # not "ACcb": the target is not buried
    assert cell(g, "A1") == ""
    pieces = "".join(g.cells)
    assert pieces.count("A") == 1           # only the reserve Tzaar is left


def test_tzaar_capture_only_onto_an_enemy_stack():
    g = tz(with_reserve(A1="c", A2="b", B2="C"))
    assert "A1xA2" not in first_actions(g)
    illegal(g, turn("A1xA2", "pass"), "your own")


def test_tzaar_cannot_move_an_enemy_or_missing_stack():
    g = tz(with_reserve(A1="c", B2="C", C3="C"))
    illegal(g, turn("B2xA1", "pass"), "not yours")
    illegal(g, turn("A3xA4", "pass"), "empty")


# ---------------------------------------------------------------------------
# Stacking
# ---------------------------------------------------------------------------

def test_tzaar_stacking_only_onto_an_own_stack():
    g = tz(with_reserve(A1="c", A2="C", A3="CC"))
    assert "A2+A3" not in second_actions_after(g, "A1xA2")
    illegal(g, turn("A1xA2", "A2+A3"), "own stack")


def test_tzaar_stacking_puts_the_whole_mover_on_top():
    g = tz(with_reserve(A1="c", B2="C", A3="ab", A4="cc"))
    g.play_text("A1xB2 A3+A4")
    assert cell(g, "A4") == "ccab"          # target below, mover intact above
    assert cell(g, "A3") == ""
    assert g.tops["b"] == 2 and g.tops["c"] == 2   # A4 now shows the Tzarra


@pytest.mark.parametrize("mover, target", [("ccc", "a"), ("c", "aaa")])
def test_tzaar_stacking_has_no_height_restriction(mover, target):
    g = tz(with_reserve(A1="c", B2="C", A3=mover, A4=target))
    assert "A3+A4" in second_actions_after(g, "A1xB2")
    g.play_text("A1xB2 A3+A4")
    assert cell(g, "A4") == target + mover


def test_tzaar_stacking_is_resolved_from_a_dash_onto_an_own_stack():
    g = tz(with_reserve(A1="c", B2="C", A3="c", A4="b"))
    played = g.play_text("A1-B2 A3-A4")
    assert [a.kind for a in played] == ["capture", "stack"]


# ---------------------------------------------------------------------------
# Winning: types on top, immediate losses
# ---------------------------------------------------------------------------

def test_tzaar_capturing_the_last_visible_type_wins_at_once():
    # Black's only Tzaar-topped stack is B2.
    g = tz({"A1": "c", "B2": "A", "G7": "a", "F8": "b", "E9": "c", "H6": "C", "I5": "B"})
    g.play_text("A1xB2")
    assert g.over and g.winner == WHITE and g.result() == "W+"
    assert "Black" in g.reason and "Tzaar" in g.reason
    assert g.legal_moves() == []


def test_tzaar_game_ending_first_capture_ends_the_turn_with_no_second_action():
    g = tz({"A1": "c", "B2": "A", "A3": "c", "A4": "C", "G7": "a", "F8": "b", "E9": "c",
            "H6": "C", "I5": "B"})
    ending = [t for t in g.legal_moves() if g.action_text(t[0]) == "A1xB2"]
    assert ending == [turn("A1xB2")]
    illegal(g, turn("A1xB2", "pass"), "no second action")
    illegal(g, turn("A1xB2", "A3xA4"), "no second action")
    g.check_move(turn("A1xB2"))
    # a first capture that does not end the game still needs its second action
    illegal(g, turn("A3xA4"), "second action")


def test_tzaar_second_capture_can_also_win_at_once():
    g = tz({"A1": "c", "B2": "C", "A3": "c", "A4": "A", "G7": "a", "F8": "b", "E9": "c",
            "H6": "C", "I5": "B"})
    g.play_text("A1xB2 A3xA4")
    assert g.over and g.winner == WHITE


def test_tzaar_buried_pieces_do_not_keep_a_type_alive():
    # Black still owns a Tzaar, but it is buried under a Tott on C3.
    g = tz({"A1": "c", "B2": "A", "C3": "AC", "G7": "a", "F8": "b", "E9": "c", "H6": "C", "I5": "B"})
    assert g.visible_counts()["A"] == 1
    g.play_text("A1xB2")
    assert g.over and g.winner == WHITE


def test_tzaar_position_without_a_visible_type_is_already_decided():
    g = tz({"A1": "c", "C3": "AC", "G7": "a", "F8": "b", "E9": "c", "H6": "C", "I5": "B"})
    assert g.over and g.winner == WHITE and "Tzaar" in g.reason


def test_tzaar_stacking_that_buries_own_last_type_loses_at_once():
    # White's only Tzaar is A4; putting a Tott on it hides White's last Tzaar.
    g = tz({"A1": "c", "B2": "C", "A3": "c", "A4": "a", "F8": "b", "E9": "c",
            "H6": "C", "I5": "B", "H5": "A"})
    assert "A3+A4" in second_actions_after(g, "A1xB2")
    g.play_text("A1xB2 A3+A4")
    assert g.over and g.winner == BLACK and g.result() == "B+"
    assert "White" in g.reason and "Tzaar" in g.reason


def test_tzaar_stacking_the_same_type_onto_the_last_one_is_safe():
    g = tz({"A1": "c", "B2": "C", "A3": "a", "A4": "a", "F8": "b", "E9": "c",
            "H6": "C", "I5": "B", "H5": "A"})
    g.play_text("A1xB2 A3+A4")
    assert not g.over and cell(g, "A4") == "aa"


def test_tzaar_moving_the_last_type_on_top_of_another_stack_is_safe():
    g = tz({"A1": "c", "B2": "C", "A3": "a", "A4": "c", "F8": "b", "E9": "c",
            "H6": "C", "I5": "B", "H5": "A"})
    g.play_text("A1xB2 A3+A4")
    assert not g.over and g.tops["a"] == 1 and g.tops["c"] == 2


# Black (A1, A2, B1) is walled in by White's two-high stacks: it has no capture at all.
# White's E8xE9 does not end the game; A3+B3 would open A2's line to White's lone A5.
WALLED = {"A1": "A", "A2": "B", "B1": "C", "E9": "C",
          "B2": "ca", "B3": "cc", "A3": "cc", "C2": "cc", "C1": "cb", "E8": "c", "A5": "c"}


def test_tzaar_no_capture_is_checked_only_at_handover():
    g = tz(WALLED)
    first = act("E8xE9")
    undo = g._do_action(first)
    assert not g.has_capture(BLACK) and not g.over   # Black has no capture right now ...
    g._undo_action(first, undo)
    turns = [t for t in g.legal_moves() if g.action_text(t[0]) == "E8xE9"]
    assert turns and all(len(t) == 2 for t in turns)     # the second action still comes
    illegal(g, turn("E8xE9"), "second action")
    g.play_text("E8xE9 A3+B3")                           # opens a capture for Black
    assert not g.over and g.side == BLACK and g.has_capture(BLACK)


def test_tzaar_no_capture_at_handover_the_previous_player_wins():
    g = tz(WALLED)
    g.play_text("E8xE9 pass")
    assert g.over and g.winner == WHITE and g.result() == "W+"
    assert "Black" in g.reason and "capture" in g.reason


def test_tzaar_position_whose_mover_has_no_capture_is_won_by_the_other_side():
    stacks = {k: v for k, v in WALLED.items() if k not in ("E8", "E9")}
    g = tz({**stacks, "E9": "C"}, side="b")
    assert not g.over                       # Black's E9 can capture A5
    g = tz({**stacks, "E9": "c"}, side="b")
    assert g.over and g.winner == WHITE and "capture" in g.reason


def test_tzaar_has_no_draws_every_finished_game_has_a_winner():
    g = TzaarGame()
    while not g.over:
        turns = g.legal_moves()
        assert turns                      # a game that is not over always has a turn
        g.push(turns[len(g.history) * 7 % len(turns)])
    assert g.result() in ("W+", "B+") and g.winner in (WHITE, BLACK) and g.reason


# ---------------------------------------------------------------------------
# Undo
# ---------------------------------------------------------------------------

def test_tzaar_pop_takes_back_a_whole_two_action_turn():
    g = tz(with_reserve(A1="c", B2="C", A3="ab", A4="cc"))
    before = (g.position(), dict(g.tops), g.side, g.winner)
    g.play_text("A1xB2 A3+A4")
    assert len(g.history) == 1
    g.pop()
    assert (g.position(), dict(g.tops), g.side, g.winner) == before
    assert g.history == []


def test_tzaar_pop_takes_back_a_game_ending_turn_and_the_opening_turn():
    g = tz(WALLED)
    before = g.position()
    g.play_text("E8xE9 pass")
    g.pop()
    assert g.position() == before and not g.over and g.reason is None
    g = TzaarGame()
    g.push(g.legal_moves()[5])
    g.pop()
    assert g.position() == TzaarGame().position() and g.opening_turn


def test_tzaar_pop_takes_back_a_self_burial_loss():
    g = tz({"A1": "c", "B2": "C", "A3": "c", "A4": "a", "F8": "b", "E9": "c",
            "H6": "C", "I5": "B", "H5": "A"})
    before = (g.position(), dict(g.tops))
    g.play_text("A1xB2 A3+A4")
    g.pop()
    assert (g.position(), dict(g.tops)) == before and not g.over


# ---------------------------------------------------------------------------
# Move text
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["A1xB2 pass", "a1xb2 PASS", "A1XB2 Pass", "A1:B2 pass",
                                  "  A1xB2   pass  "])
def test_tzaar_parse_capture_in_any_case(text):
    assert TzaarGame().parse_move(text) == turn("A1xB2", "pass")


def test_tzaar_parse_stack_and_dash():
    g = TzaarGame()
    assert g.parse_move("A1xB2 c3+d4") == turn("A1xB2", "C3+D4")
    assert g.parse_move("A1-B2 C3-D4") == (Action("any", P["A1"], P["B2"]),
                                           Action("any", P["C3"], P["D4"]))


def test_tzaar_dash_is_resolved_to_a_capture_against_an_enemy_stack():
    g = tz(with_reserve(A1="c", B2="C", C3="c", D4="C"))
    played = g.play_text("A1-B2 C3-D4")
    assert played == turn("A1xB2", "C3xD4")
    assert g.move_text(g.history[-1][0]) == "A1xB2 C3xD4"


def test_tzaar_declared_kind_must_match_the_board():
    g = tz(with_reserve(A1="c", B2="C", A3="c", A4="b", A5="C"))
    illegal(g, turn("A1+B2", "pass"), "own stack")
    illegal(g, turn("A1xB2", "A3xA4"), "your own")
    illegal(g, turn("A1xB2", "A4+A5"), "own stack")


@pytest.mark.parametrize("text", ["", "A1xB2 pass pass", "A1xE5", "E5xE6", "J1xA1", "A1B2",
                                  "A1xB2x", "A1*B2", "xx", "A1xA6"])
def test_tzaar_unreadable_move_text_raises_illegal_move_with_a_reason(text):
    with pytest.raises(IllegalMove) as info:
        TzaarGame().parse_move(text)
    assert "TZAAR" in str(info.value) or "no such point" in str(info.value)


def test_tzaar_move_text_is_canonical_and_parses_back():
    g = TzaarGame()
    g.push(g.legal_moves()[0])
    for t in g.legal_moves()[:200]:
        text = g.move_text(t)
        assert g.parse_move(text) == t
        assert text == text.strip() and ("x" in text.split()[0])


# ---------------------------------------------------------------------------
# Position strings
# ---------------------------------------------------------------------------

def test_tzaar_position_round_trips():
    g = TzaarGame()
    for k in range(4):
        copy = TzaarGame.from_position(g.position())
        assert copy.position() == g.position()
        assert copy.phase == g.phase and copy.side == g.side and copy.tops == g.tops
        assert copy.legal_moves() == g.legal_moves()
        moves = g.legal_moves()
        g.push(moves[(k * 31) % len(moves)])


def test_tzaar_position_of_a_finished_game_round_trips_with_its_winner():
    for stacks, move in ((WALLED, "E8xE9 pass"),
                         ({"A1": "c", "B2": "C", "A3": "c", "A4": "a", "F8": "b", "E9": "c",
                           "H6": "C", "I5": "B", "H5": "A"}, "A1xB2 A3+A4")):
        g = tz(stacks)
        g.play_text(move)
        copy = TzaarGame.from_position(g.position())
        assert copy.over and copy.winner == g.winner


@pytest.mark.parametrize("text, fragment", [
    ("tzaar w turn", "expected"),
    ("dvonn w turn " + board_text(RESERVE), "expected"),
    ("tzaar x turn " + board_text(RESERVE), "side"),
    ("tzaar w middle " + board_text(RESERVE), "phase"),
    ("tzaar w turn -,-,-/-", "nine columns"),
    ("tzaar w turn " + board_text(with_reserve(A1="aA")), "one-colour"),
    ("tzaar w turn " + board_text(with_reserve(A1="q")), "bad point"),
    ("tzaar w turn " + board_text(with_reserve(A1="aaaaaa")), "too many"),
    ("tzaar w turn " + board_text(with_reserve(A1="CCCCCCCCCCCCCCC")), "too many"),
    ("tzaar b opening " + board_text(RESERVE), "White"),
    ("tzaar w opening " + board_text(RESERVE), "60"),
])
def test_tzaar_bad_or_impossible_position_is_rejected(text, fragment):
    with pytest.raises(BadPosition) as info:
        TzaarGame.from_position(text)
    assert fragment in str(info.value)


def test_tzaar_opening_position_with_a_stack_is_impossible():
    text = TzaarGame().position()
    columns = text.split()[3].split("/")
    first = columns[0].split(",")
    first[0], first[1] = first[0] + first[1], "-"
    bad = text.replace(columns[0], ",".join(first), 1)
    with pytest.raises(BadPosition):
        TzaarGame.from_position(bad)
    assert TzaarGame.from_position(text).position() == text


def test_tzaar_check_move_rejects_an_action_of_unknown_kind():
    # such an action would otherwise be played as a stacking
    g = tz(with_reserve(A1="c", B2="C", A3="c", A4="b"))
    illegal(g, (act("A1xB2"), Action("jump", P["A3"], P["A4"])), "unknown")
    illegal(g, (Action("jump", P["A1"], P["B2"]), PASS))

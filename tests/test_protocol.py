"""Every command through the real process (`python -m engine` over pipes).

Most tests share one engine per module (start-up costs ~0.3 s) and begin with
`newgame`; the tests of how the process ends start their own.  The rule
checked after every error reply: `position` and `status` are exactly as they
were before the command.
"""
from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest
from conftest import DVONN_POINTS, FIXED_TZAAR, REPO, EngineClient, transcript

BRIEF_COMMANDS = {
    "protocol_version", "name", "version", "known_command", "list_commands", "quit",
    "newgame", "clear_board", "place", "move", "play", "genmove", "reg_genmove", "undo",
    "score", "final_score", "showboard", "legal_moves", "status", "position", "setposition",
    "replay",
}
TZAAR_COLUMNS = (5, 6, 7, 8, 8, 8, 7, 6, 5)
DVONN_ROWS = (9, 10, 11, 10, 9)


def board(lengths, cells: dict[int, str]) -> str:
    """A position-string board: cells by canonical index, '-' elsewhere."""
    out, start = [], 0
    for n in lengths:
        out.append(",".join(cells.get(i, "-") for i in range(start, start + n)))
        start += n
    return "/".join(out)


# White to act in TZAAR's turn phase; A1xA2 takes Black's only Tzaar and ends the game.
TZAAR_ENDGAME = "tzaar w turn " + board(TZAAR_COLUMNS, {0: "a", 1: "A", 2: "b", 3: "B", 4: "c", 5: "C", 6: "B"})
# Only the three reds: nobody can ever move, the game is over (a draw) from the start.
DVONN_OVER = "dvonn w move " + board(DVONN_ROWS, {0: "R", 1: "R", 2: "R"})
EMPTY_DVONN = "dvonn w place " + board(DVONN_ROWS, {})


@pytest.fixture(scope="module")
def shared():
    client = EngineClient()
    if client.ok("known_command option") == "true":
        client.ok("option player python")  # quick and reproducible: reg_genmove == genmove
    yield client
    if not client.child.proc.stdout.closed:
        client.close()


@pytest.fixture
def e(shared):
    shared.ok("newgame dvonn")
    return shared


def snapshot(e) -> tuple[str, str]:
    return e.ok("position"), e.ok("status")


def refuse(e, line: str, *fragments: str) -> str:
    """Send a command that must fail; the state must not move; the message must say why."""
    before = snapshot(e)
    message = e.error(line)
    assert snapshot(e) == before, f"{line!r} failed ({message}) but changed the state"
    assert message and "internal error" not in message, f"{line!r}: {message}"
    for fragment in fragments:
        assert fragment in message, f"{line!r}: {message!r} lacks {fragment!r}"
    return message


def status_of(e) -> dict[str, str]:
    return dict(field.split("=", 1) for field in e.ok("status").split())


def legal(e) -> list[str]:
    text = e.ok("legal_moves")
    return text.split("\n") if text else []


# --- administrative ------------------------------------------------------------------------------

def test_protocol_version_name_version(e):
    assert e.ok("protocol_version") == "2"
    assert e.ok("name") == "Gipfbot"
    version = e.ok("version")
    assert version and "\n" not in version


def test_list_commands_and_known_command_agree(e):
    listed = e.ok("list_commands").split("\n")
    assert len(listed) == len(set(listed))
    assert BRIEF_COMMANDS <= set(listed), BRIEF_COMMANDS - set(listed)
    for name in listed:
        assert re.fullmatch(r"[a-z][a-z0-9_-]*", name), name  # GoGui names have a hyphen
        assert e.ok(f"known_command {name}") == "true"
    for name in ("frobnicate", "NAME", "list", "known_commands", "genmove_black"):
        assert e.ok(f"known_command {name}") == "false"


def test_the_command_table_is_the_modules_tables_joined():
    from engine.protocol import commands, record_commands, search_commands, server
    tables = (server.SERVER_COMMANDS, search_commands.COMMANDS, record_commands.COMMANDS)
    assert server.COMMANDS == {name: f for table in tables for name, f in table.items()}
    assert sum(map(len, tables)) == len(server.COMMANDS)
    with pytest.raises(ValueError, match="'name' has two handlers"):
        commands.join_tables(server.SERVER_COMMANDS, {"name": server.cmd_version})


def test_help_is_list_commands(e):
    # GNU Go's alias: the same reply, and listed itself
    assert e.ok("help") == e.ok("list_commands")
    assert "help" in e.ok("help").split("\n")


def test_ids_are_echoed_on_success_and_error(e):
    e.send_raw("42 name\n")
    assert e.read_reply() == (True, "42", "Gipfbot")
    e.send_raw("43 undo\n")
    ok, cid, _ = e.read_reply()
    assert (ok, cid) == (False, "43")
    e.send_raw("44 frobnicate\n")
    assert e.read_reply() == (False, "44", "unknown command: frobnicate")
    e.send_raw("0045\tlist_commands # trailing comment\n")
    ok, cid, text = e.read_reply()
    assert ok and cid == "0045" and "\n" in text


def test_unknown_command_is_an_error(e):
    refuse(e, "frobnicate", "unknown command")
    refuse(e, "Name", "unknown command")


# --- errors leave the state alone, in every kind of position ------------------------------------

SETUPS = {
    "dvonn-start": ["newgame dvonn"],
    "dvonn-placement": ["newgame dvonn", "replay D3 E3 F3 A1 B1"],
    "dvonn-movement": ["newgame dvonn", "replay " + " ".join(DVONN_POINTS)],
    "dvonn-over": [f"setposition {DVONN_OVER}"],
    "tzaar-opening": ["newgame tzaar"],
    "tzaar-turn": ["newgame tzaar random 7", "replay A5xA4"],
    "tzaar-over": [f"setposition {TZAAR_ENDGAME}", "play w A1xA2"],
}

ERRORS_ANYWHERE = [
    "protocol_version 2", "name x", "version x", "known_command", "known_command a b",
    "list_commands x", "help x", "newgame", "newgame chess", "newgame dvonn fixed", "newgame tzaar random",
    "newgame tzaar random x", "newgame tzaar random -1", "newgame tzaar random 1.5",
    "newgame tzaar random 18446744073709551616", "newgame tzaar shuffled", "newgame tzaar random 1 2",
    "newgame tzaar fixed 3", "clear_board now", "place", "place A1 B1", "move", "play", "play w",
    "play purple A1", "play w nowhere", "play b Z9", "play w A1xB2xC3", "genmove w b",
    "genmove purple", "reg_genmove w b", "reg_genmove purple", "undo x", "undo 0", "undo -1",
    "undo 1 2", "undo 1000", "undo 99999999999999999999999999", "score x", "final_score x",
    "showboard x", "legal_moves x", "status x", "position x", "setposition",
    "setposition chess w place x", "setposition dvonn", "setposition dvonn w place -,-",
    "setposition " + EMPTY_DVONN.replace(" w ", " x "),
    "setposition " + EMPTY_DVONN.replace(" place ", " moving "),
    "setposition " + EMPTY_DVONN.replace("-", "Q", 1),
    "setposition " + EMPTY_DVONN.replace("dvonn w", "dvonn b"),  # placement 1 is White's
    "setposition " + FIXED_TZAAR.replace(" w ", " b "),       # the opening turn is White's
    "setposition " + FIXED_TZAAR.replace("C,C,C,C,c", "C,C,C,C,C"),  # 16 black Totts
    "setposition " + FIXED_TZAAR.replace("C,C,C,C,c/", "C,C,C,C,c,C/"),  # column A of 6
    "setposition " + FIXED_TZAAR.replace(",c/c,B", ",cA/c,B"),  # a two-colour stack
    "setposition " + FIXED_TZAAR + " extra",
    "replay nonsense", "replay ZZ9", "replay A1 A1 A1 A1 A1 A1",
    "frobnicate",
]


def setup(e, name: str) -> None:
    for line in SETUPS[name]:
        e.ok(line)


@pytest.mark.parametrize("name", SETUPS)
def test_errors_leave_position_and_status_unchanged(e, name):
    setup(e, name)
    st = status_of(e)
    for line in ERRORS_ANYWHERE:
        refuse(e, line)
    if st["over"] == "no":
        refuse(e, "final_score", "not over")
        moves = legal(e)
        assert moves
        other = "b" if st["to_act"] == "w" else "w"
        other_long = {"w": "white", "b": "black"}[other]
        refuse(e, f"play {other} {moves[0]}", "turn")
        refuse(e, f"play {other_long.upper()} {moves[0]}", "turn")
        refuse(e, f"genmove {other}", "turn")
        refuse(e, f"reg_genmove {other_long}", "turn")
    else:
        assert legal(e) == []
        for line in ("play w pass", "play b pass", "move pass", "genmove", "genmove w",
                     "genmove b", "reg_genmove", "replay pass"):
            refuse(e, line)
        refuse(e, "genmove", "the game is over")


# --- setting up games ----------------------------------------------------------------------------

def test_newgame_dvonn(e):
    e.ok("newgame tzaar")
    assert e.ok("newgame dvonn") == ""
    assert e.ok("status") == "game=dvonn to_act=w phase=placement ply=0 over=no result=- reason=-"
    assert e.ok("position") == EMPTY_DVONN
    assert legal(e) == DVONN_POINTS
    assert e.ok("score") == "white 0 black 0"


def test_newgame_tzaar_fixed(e):
    assert e.ok("newgame tzaar") == ""
    assert e.ok("position") == FIXED_TZAAR
    assert status_of(e) == {"game": "tzaar", "to_act": "w", "phase": "opening", "ply": "0",
                            "over": "no", "result": "-", "reason": "-"}
    e.ok("newgame tzaar random 3")
    e.ok("newgame TZAAR FIXED")
    assert e.ok("position") == FIXED_TZAAR
    assert e.ok("score") == "white tzaar 6 tzarra 9 tott 15 black tzaar 6 tzarra 9 tott 15"
    opening = legal(e)
    assert len(opening) == len(set(opening)) == 42 and "A5xA4" in opening
    assert all(re.fullmatch(r"[A-I][1-9]x[A-I][1-9]", m) for m in opening)


class SplitMix64:
    """Written from protocol.md (and java.util.SplittableRandom), not copied from the engine."""

    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) % 2 ** 64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2 ** 64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2 ** 64
        return z ^ (z >> 31)


def expected_random_opening(seed: int) -> str:
    stock = list("a" * 6 + "b" * 9 + "c" * 15 + "A" * 6 + "B" * 9 + "C" * 15)
    rng = SplitMix64(seed)
    for i in range(59, 0, -1):
        j = rng.next() % (i + 1)
        stock[i], stock[j] = stock[j], stock[i]
    return "tzaar w opening " + board(TZAAR_COLUMNS, dict(enumerate(stock)))


@pytest.mark.parametrize("seed", [0, 1, 7, 2 ** 63, 2 ** 64 - 1])
def test_newgame_tzaar_random_is_the_specified_shuffle(e, seed):
    e.ok(f"newgame tzaar random {seed}")
    position = e.ok("position")
    assert position == expected_random_opening(seed)
    e.ok("newgame dvonn")
    e.ok(f"newgame tzaar Random {seed}")
    assert e.ok("position") == position


def test_clear_board_restarts_the_same_setup(e):
    e.ok("replay D3 E3 F3")
    e.ok("clear_board")
    assert e.ok("position") == EMPTY_DVONN
    e.ok("newgame tzaar random 12")
    start = e.ok("position")
    e.ok("play w " + legal(e)[3])
    assert e.ok("position") != start
    assert e.ok("clear_board") == ""
    assert e.ok("position") == start and status_of(e)["ply"] == "0"


def test_clear_board_after_setposition_starts_that_game_afresh(e):
    # protocol.md 5.2: setposition tzaar counts as newgame tzaar (fixed), setposition dvonn as newgame dvonn
    e.ok(f"setposition {TZAAR_ENDGAME}")
    e.ok("clear_board")
    assert e.ok("position") == FIXED_TZAAR and status_of(e)["ply"] == "0"
    e.ok("newgame tzaar random 8")
    e.ok(f"setposition {DVONN_OVER}")
    e.ok("clear_board")
    assert e.ok("position") == EMPTY_DVONN


# --- moves -----------------------------------------------------------------------------------------

def test_place_and_move_in_dvonn_placement(e):
    assert e.ok("place d3") == "D3"
    assert status_of(e)["to_act"] == "b"
    assert e.ok("move e3") == "E3"
    refuse(e, "place D3", "occupied")
    refuse(e, "move D3", "occupied")
    refuse(e, "place D3-E3")
    assert e.ok("play w F3") == "F3"
    assert status_of(e)["ply"] == "3"
    assert e.ok("position").startswith("dvonn b place ")


def test_place_is_only_for_dvonn_placement(e):
    setup(e, "dvonn-movement")
    refuse(e, "place A1", "placement")
    e.ok("newgame tzaar")
    refuse(e, "place A1", "placement")


def test_play_accepts_colour_words_in_any_case_and_answers_canonical_text(e):
    assert e.ok("play WHITE d3") == "D3"
    assert e.ok("play Black e3") == "E3"
    assert e.ok("play w f3") == "F3"
    assert e.ok("play b G3") == "G3"
    refuse(e, "play b H3", "it is white's turn")
    refuse(e, "play white D3", "occupied")


def test_dvonn_movement_moves(e):
    setup(e, "dvonn-movement")
    st = status_of(e)
    assert (st["phase"], st["to_act"], st["ply"]) == ("movement", "w", "49")
    moves = legal(e)
    assert "E1-F1" in moves and all(re.fullmatch(r"[A-K][1-5]-[A-K][1-5]", m) for m in moves)
    refuse(e, "play w A1-B1", "red")
    refuse(e, "play w D1-C1", "not yours")
    refuse(e, "play w E1-G1", "height")
    refuse(e, "play w pass", "pass")
    refuse(e, "play w D3", "placed")
    assert e.ok("play w e1 f1") == "E1-F1"
    refuse(e, "play w G1-H1", "turn")
    reply = legal(e)
    assert reply and e.ok(f"play b {reply[0]}") == reply[0]


def test_tzaar_turns(e):
    e.ok("newgame tzaar")
    refuse(e, "play w A5xA4 B1xB2", "opening")
    refuse(e, "play w pass", "capture")
    refuse(e, "play w A4xA5", "not yours")
    assert e.ok("play w a5-a4") == "A5xA4"  # '-' takes its kind from the board
    assert status_of(e)["phase"] == "turn"
    moves = legal(e)
    assert 5000 < len(moves) < 8000 and len(set(moves)) == len(moves)
    assert all(re.fullmatch(r"[A-I][1-9]x[A-I][1-9] ([A-I][1-9][x+][A-I][1-9]|pass)", m) for m in moves)
    first_action = moves[0].split()[0]
    refuse(e, f"play b {first_action}", "second action")
    refuse(e, "play b pass pass", "capture")
    refuse(e, f"play b {moves[0]} pass")
    for move in random.Random(5).sample(moves, 25):
        assert e.ok(f"play b {move}") == move
        refuse(e, f"play b {move}", "turn")
        e.ok("undo")


def test_tzaar_game_ending_capture_is_a_one_action_turn(e):
    e.ok(f"setposition {TZAAR_ENDGAME}")
    assert "A1xA2" in legal(e)
    refuse(e, "play w A1xA2 pass", "ended the game")
    assert e.ok("play w A1xA2") == "A1xA2"
    st = status_of(e)
    assert (st["over"], st["result"], st["to_act"], st["phase"]) == ("yes", "W+", "-", "over")
    assert e.ok("final_score") == "W+"
    assert legal(e) == []
    refuse(e, "play w A3xA4 pass", "the game is over")
    refuse(e, "play b A4xA5 pass")
    refuse(e, "genmove", "the game is over")
    refuse(e, "genmove w", "the game is over")
    refuse(e, "genmove b")
    refuse(e, "reg_genmove", "the game is over")
    e.ok("undo")
    assert status_of(e)["over"] == "no"


@pytest.mark.parametrize("line", ["play b A4xA5 pass", "genmove b", "reg_genmove b"])
def test_after_the_end_every_colour_hears_the_game_is_over(e, line):
    e.ok(f"setposition {TZAAR_ENDGAME}")
    e.ok("play w A1xA2")
    refuse(e, line, "the game is over")


# --- genmove ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["dvonn-start", "dvonn-placement", "dvonn-movement", "tzaar-opening"])
def test_genmove_plays_a_legal_move_and_reg_genmove_only_says_it(e, name):
    setup(e, name)
    before = snapshot(e)
    st = status_of(e)
    moves = legal(e)
    suggested = e.ok("reg_genmove")
    assert suggested in moves
    assert snapshot(e) == before, "reg_genmove changed the state"
    assert e.ok(f"reg_genmove {st['to_act']}") == suggested
    played = e.ok(f"genmove {st['to_act']}")
    assert played == suggested  # the module's engine uses the seeded Python player
    after = status_of(e)
    assert int(after["ply"]) == int(st["ply"]) + 1
    e.ok("undo")
    assert snapshot(e) == before
    assert e.ok(f"play {st['to_act']} {played}") == played


def test_genmove_with_the_compiled_core_is_legal():
    client = EngineClient()
    try:
        if client.ok("known_command option") != "true":
            pytest.skip("no option command")
        client.ok("option movetime 30")
        for setup_line in ("newgame dvonn", "newgame tzaar random 4"):
            client.ok(setup_line)
            for _ in range(3):
                moves = legal(client)
                assert client.ok("genmove") in moves
    finally:
        client.close()


# --- undo ----------------------------------------------------------------------------------------

def test_undo_one_and_many(e):
    positions = [e.ok("position")]
    for point in "D3 E3 F3 A1 B1".split():
        e.ok(f"move {point}")
        positions.append(e.ok("position"))
    assert e.ok("undo") == ""
    assert e.ok("position") == positions[4]
    assert e.ok("undo 2") == ""
    assert e.ok("position") == positions[2]
    refuse(e, "undo 3", "only 2")
    assert e.ok("undo 2") == ""
    assert e.ok("position") == positions[0]
    refuse(e, "undo", "only 0")
    refuse(e, "undo 1", "only 0")


def test_undo_restores_a_tzaar_turn_exactly(e):
    e.ok("newgame tzaar random 21")
    positions = [e.ok("position")]
    rng = random.Random(3)
    for _ in range(6):
        st = status_of(e)
        if st["over"] == "yes":
            break
        e.ok(f"play {st['to_act']} {rng.choice(legal(e))}")
        positions.append(e.ok("position"))
    for expected in reversed(positions[:-1]):
        e.ok("undo")
        assert e.ok("position") == expected
    refuse(e, "undo", "only 0")


def test_undo_after_setposition_cannot_go_behind_it(e):
    e.ok("replay D3 E3")
    e.ok(f"setposition {FIXED_TZAAR}")
    refuse(e, "undo", "only 0")


def test_move_history_lists_the_moves_newest_first_and_follows_undo(e):
    assert e.ok("move_history") == ""
    e.ok("replay D3 E3 F3")
    assert e.ok("move_history").split("\n") == ["white F3", "black E3", "white D3"]
    e.ok("undo")
    assert e.ok("move_history").split("\n") == ["black E3", "white D3"]
    e.ok("newgame tzaar")
    e.ok("replay d6-e7 F4-G4 G6-G5")
    assert e.ok("move_history").split("\n") == ["black F4xG4 G6xG5", "white D6xE7"]
    e.ok(f"setposition {FIXED_TZAAR}")
    assert e.ok("move_history") == ""
    refuse(e, "move_history 1", "usage: move_history")


# --- state ------------------------------------------------------------------------------------------

def test_status_fields(e):
    assert list(status_of(e)) == ["game", "to_act", "phase", "ply", "over", "result", "reason"]
    e.ok(f"setposition {DVONN_OVER}")
    st = status_of(e)
    assert (st["over"], st["result"], st["to_act"]) == ("yes", "0", "-")
    assert " " not in st["reason"] and st["reason"] != "-"
    assert e.ok("final_score") == "0"


def test_score(e):
    setup(e, "dvonn-movement")
    assert e.ok("score") == "white 23 black 23"
    e.ok("play w E1-F1")  # white on black: a white-topped stack of two
    assert e.ok("score") == "white 24 black 22"
    e.ok(f"setposition {TZAAR_ENDGAME}")
    assert e.ok("score") == "white tzaar 1 tzarra 1 tott 1 black tzaar 1 tzarra 2 tott 1"


@pytest.mark.parametrize("name", ["dvonn-placement", "dvonn-movement", "tzaar-opening", "tzaar-over"])
def test_showboard(e, name):
    setup(e, name)
    lines = e.ok("showboard").split("\n")
    assert len(lines) >= 6 and all(line.strip() for line in lines)
    footer = lines[-1]
    if "over" in name:
        assert footer.startswith("game over: W+")
    else:
        assert footer.startswith(("white to act", "black to act"))


# --- position and setposition -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["dvonn-start", "dvonn-placement", "dvonn-movement", "dvonn-over",
                                  "tzaar-opening", "tzaar-turn", "tzaar-over"])
def test_setposition_round_trips(e, name):
    setup(e, name)
    position, st, moves = e.ok("position"), status_of(e), e.ok("legal_moves")
    e.ok("newgame tzaar random 99" if name.startswith("dvonn") else "newgame dvonn")
    assert e.ok(f"setposition {position}") == ""
    assert e.ok("position") == position
    after = status_of(e)
    assert after["ply"] == "0"
    del st["ply"], after["ply"]
    assert after == st
    assert e.ok("legal_moves") == moves


def test_setposition_then_play_on(e):
    setup(e, "tzaar-turn")
    position = e.ok("position")
    move = legal(e)[100]
    e.ok(f"play b {move}")
    expected = e.ok("position")
    e.ok("newgame dvonn")
    e.ok(f"setposition {position}")
    assert e.ok(f"play b {move}") == move
    assert e.ok("position") == expected


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_setposition_round_trip_along_random_dvonn_games(e, seed):
    rng = random.Random(seed)
    for ply in range(200):
        st = status_of(e)
        if st["over"] == "yes":
            break
        moves = legal(e)
        e.ok(f"play {st['to_act']} {rng.choice(moves)}")
        if ply % 9 == 0 or ply > 48:
            position, status, legal_text = e.ok("position"), e.ok("status"), e.ok("legal_moves")
            e.ok(f"setposition {position}")
            assert e.ok("position") == position
            assert re.sub(r"ply=\d+", "", e.ok("status")) == re.sub(r"ply=\d+", "", status)
            assert e.ok("legal_moves") == legal_text
    assert status_of(e)["phase"] in ("movement", "over")


# --- replay ---------------------------------------------------------------------------------------

def test_replay_dvonn(e):
    assert e.ok("replay D3 E3, F3;A1") == "4"
    expected = e.ok("position")
    e.ok("newgame dvonn")
    for point in "D3 E3 F3 A1".split():
        e.ok(f"move {point}")
    assert e.ok("position") == expected
    assert e.ok("replay") == "0"
    assert e.ok("position") == expected


def test_replay_is_all_or_nothing_and_names_the_move(e):
    e.ok("replay D3 E3")
    before = snapshot(e)
    msg = refuse(e, "replay F3 G3 F3 H3", "move 3", "F3")
    assert "occupied" in msg
    refuse(e, "replay F3 G3 H3 I3 bogus J3", "move 5", "bogus")
    assert snapshot(e) == before
    assert e.ok("replay F3 G3") == "2"
    assert status_of(e)["ply"] == "4"


def test_replay_into_and_through_the_movement_phase(e):
    setup(e, "dvonn-movement")
    e.ok("play w E1-F1")
    black = legal(e)[0]
    expected = e.ok(f"play b {black}") and e.ok("position")
    e.ok("newgame dvonn")
    assert e.ok("replay " + " ".join(DVONN_POINTS) + f" E1-F1 {black}") == "51"
    assert status_of(e)["ply"] == "51" and e.ok("position") == expected
    e.ok("newgame dvonn")
    refuse(e, "replay " + " ".join(DVONN_POINTS) + " E1-F1 E1-F1", "move 51")
    assert e.ok("position") == EMPTY_DVONN


def random_tzaar_game(e, seed: int, turns: int) -> list[str]:
    rng = random.Random(seed)
    played = []
    for _ in range(turns):
        st = status_of(e)
        if st["over"] == "yes":
            break
        played.append(e.ok(f"play {st['to_act']} {rng.choice(legal(e))}"))
    return played


def test_tzaar_replay_groups_actions_into_turns(e):
    e.ok("newgame tzaar random 5")
    start = e.ok("position")
    turns = random_tzaar_game(e, 8, 7)
    assert len(turns) == 7 and " " not in turns[0] and all(" " in t for t in turns[1:])
    expected, expected_status = e.ok("position"), e.ok("status")
    e.ok("newgame tzaar random 5")
    assert e.ok("replay " + " ".join(turns)) == "7"
    assert (e.ok("position"), e.ok("status")) == (expected, expected_status)
    e.ok("newgame tzaar random 5")
    assert e.ok("replay " + ", ".join(turns)) == "7"
    assert e.ok("position") == expected
    assert e.ok("undo 7") == "" and e.ok("position") == start


@pytest.mark.parametrize("bad_turn", [2, 4, 6])
def test_tzaar_replay_failure_names_the_turn_and_changes_nothing(e, bad_turn):
    e.ok("newgame tzaar random 5")
    turns = random_tzaar_game(e, 8, 6)
    e.ok("newgame tzaar random 5")
    before = snapshot(e)
    broken = list(turns)
    first, second = broken[bad_turn - 1].split()
    broken[bad_turn - 1] = "pass " + second  # a turn cannot start with pass
    refuse(e, "replay " + " ".join(broken), f"move {bad_turn}")
    assert snapshot(e) == before


def test_tzaar_replay_with_a_game_ending_capture(e):
    e.ok(f"setposition {TZAAR_ENDGAME}")
    before = snapshot(e)
    refuse(e, "replay A1xA2 pass", "move 2", "over")
    assert snapshot(e) == before
    assert e.ok("replay A1xA2") == "1"
    assert status_of(e)["result"] == "W+"
    refuse(e, "replay A3xA4 pass", "move 1", "over")


def test_tzaar_replay_of_an_unfinished_turn_fails(e):
    e.ok("newgame tzaar")
    e.ok("play w A5xA4")
    first_action = legal(e)[0].split()[0]
    e.ok("newgame tzaar")
    refuse(e, f"replay A5xA4 {first_action}", "move 2", "second action")


# --- the process as a whole ---------------------------------------------------------------------

def run_engine(stdin: bytes, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine"], input=stdin, cwd=str(REPO),
                          capture_output=True, timeout=timeout)


def test_eof_ends_the_process_with_code_0_after_the_last_reply():
    done = run_engine(b"1 name\n2 newgame tzaar\n3 position\n4 frobnicate\n")
    assert done.returncode == 0
    out = done.stdout.decode()
    replies = transcript(out)
    assert [(ok, cid) for ok, cid, _ in replies] == [(True, "1"), (True, "2"), (True, "3"), (False, "4")]
    assert out.endswith("\n\n") and replies[2][2] == FIXED_TZAAR


def test_eof_in_the_middle_of_a_line_still_answers_it():
    done = run_engine(b"name\n7 version")
    assert done.returncode == 0
    assert [cid for _, cid, _ in transcript(done.stdout.decode())] == ["", "7"]


def test_empty_input_gives_empty_output():
    done = run_engine(b"")
    assert (done.returncode, done.stdout) == (0, b"")
    done = run_engine(b"\n# nothing to say\n\r\n\t\n")
    assert (done.returncode, done.stdout) == (0, b"")


def test_quit_answers_and_exits_0_without_waiting_for_eof():
    proc = subprocess.Popen([sys.executable, "-m", "engine"], cwd=str(REPO), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        proc.stdin.write(b"5 name\n6 quit\n7 name\n")
        proc.stdin.flush()
        assert proc.wait(timeout=30) == 0  # stdin is still open: quit alone ends it
        out = proc.stdout.read().decode()
        assert transcript(out) == [(True, "5", "Gipfbot"), (True, "6", "")]
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdin.close()
        proc.stdout.close()
        proc.stderr.close()
        proc.wait()


def test_quit_with_arguments_is_an_error_and_serving_goes_on():
    done = run_engine(b"1 quit now\n2 name\n3 quit\n4 name\n")
    assert done.returncode == 0
    replies = transcript(done.stdout.decode())
    assert [(ok, cid) for ok, cid, _ in replies] == [(False, "1"), (True, "2"), (True, "3")]
    assert "wrong number of arguments" in replies[0][2]


def test_stdout_carries_replies_only():
    lines = [
        "list_commands", "option player python" , "newgame dvonn", "showboard", "legal_moves",
        "genmove", "reg_genmove", "play w A1", "undo 5", "place", "frobnicate \u2603",
        "replay D3 E3 D3", "setposition garbage", "newgame tzaar random 3", "showboard",
        "legal_moves", "genmove", "status", "score", "final_score", "undo", "position",
        "\u00e9", "9999999999999999999999 name", "  # comment", "", "\t",
    ]
    data = ("\n".join(lines) + "\n").encode() + b"\xff\xfe bad bytes\n12 name\x00\r\n"
    done = run_engine(data)
    assert done.returncode == 0
    out = done.stdout.decode()
    replies = transcript(out)
    assert len(replies) == len(lines) - 3 + 2
    assert "Traceback" not in out and "info depth" not in out
    assert replies[-1] == (True, "12", "Gipfbot")
    assert replies[-2][0] is False and "UTF-8" in replies[-2][2]
    assert replies[-3][:2] == (True, "9999999999999999999999")
    assert replies[-4][0] is False and "unknown command" in replies[-4][2]


@pytest.mark.parametrize("setup, depth, count", [
    ("newgame dvonn", 2, 2352),
    ("newgame tzaar", 1, 42),
    ("newgame tzaar", 2, 260556),
    ("newgame tzaar\nreplay A5xA4", 2, 35848448),
])
def test_perft_through_the_protocol_counts_alike_with_core_and_python(engine, setup, depth, count):
    # protocol.md 6.4's numbers; the core's count goes through the interruptible perft.
    for line in setup.split("\n"):
        engine.ok(line)
    assert engine.ok(f"perft {depth}") == str(count)
    if count < 1_000_000:
        assert engine.ok(f"perft {depth} python") == str(count)

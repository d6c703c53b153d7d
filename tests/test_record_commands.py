"""loadrecord, printrecord and gogui-analyze_commands (engine/protocol/server.py, records section)."""
from __future__ import annotations

import pytest

from engine import records
from engine.games.tzaar.openings import random_opening
from engine.games.tzaar.rules import TzaarGame
from engine.protocol import gtp
from engine.protocol.server import COMMANDS, Server

DVONN_PLACEMENTS = ("G2 C1 F5 D1 H5 G5 I1 E1 F2 F1 E4 E5 J2 G1 B2 B1 H1 G4 D3 C2 E3 F4 C4 D4 A2 "
                    "A1 D2 E2 A3 G3 D5 F3 I5 C3 H2 H3 K3 H4 K5 I4 I3 J5 I2 B3 J4 J3 K4 B4").split()
DVONN_TEXT = ("Event [Test] Site [www.littlegolem.net] White [Ann] Black [Bob] "
              + " ".join(f"{i // 2 + 1}. {' '.join(m.lower() for m in DVONN_PLACEMENTS[i:i + 2])}"
                         for i in range(0, 48, 2))
              + " 25. a2b2 b3b2 26. resign")


def ask(server: Server, line: str) -> tuple[bool, str]:
    return server.handle(gtp.parse_line(line.encode()))


def ok(server: Server, line: str) -> str:
    success, text = ask(server, line)
    assert success, f"{line!r} failed: {text}"
    return text


def error(server: Server, line: str) -> str:
    success, text = ask(server, line)
    assert not success, f"{line!r} should fail, gave {text!r}"
    return text


@pytest.fixture
def dvonn_file(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(DVONN_TEXT)
    return path


def test_loadrecord_replays_and_reports_the_resignation(dvonn_file):
    server = Server()
    assert ok(server, f"loadrecord {dvonn_file}") == "51 moves; White resigned"
    assert "ply=51" in ok(server, "status")
    assert ok(server, "printrecord") == DVONN_TEXT


def test_loadrecord_with_a_move_count_stops_there(dvonn_file):
    server = Server()
    assert ok(server, f"loadrecord {dvonn_file} 10") == "10 moves"
    assert "ply=10" in ok(server, "status")
    record = records.read_record(ok(server, "printrecord"))
    assert record.moves == DVONN_PLACEMENTS[:10] and record.resigned_by is None
    assert (record.white, record.black) == ("Ann", "Bob")
    assert error(server, f"loadrecord {dvonn_file} 52") == "the record has only 51 moves, not 52"


def test_illegal_record_names_the_move_and_leaves_the_game_alone(tmp_path):
    bad = DVONN_TEXT.replace("25. a2b2", "25. a2k5")
    path = tmp_path / "bad.txt"
    path.write_text(bad)
    server = Server()
    ok(server, "newgame tzaar")
    ok(server, "genmove")
    before = ok(server, "position")
    message = error(server, f"loadrecord {path}")
    assert message.startswith("bad record: move 50 (A2-K5, White): ")
    assert ok(server, "position") == before
    assert "cannot read" in error(server, f"loadrecord {tmp_path / 'missing.txt'}")
    assert "usage" in error(server, "loadrecord")


def test_tzaar_pos_record_round_trip(tmp_path):
    game = TzaarGame(random_opening(11))
    for _ in range(5):
        game.push(game.legal_moves()[0])
    record = records.GameRecord("tzaar", [game.move_text(m) for m, _ in game.history],
                                white="W", black="B", opening=random_opening(11))
    text = records.write_littlegolem(record)
    path = tmp_path / "tzaar.sgf"
    path.write_text(text)
    server = Server()
    assert ok(server, f"loadrecord {path}") == "5 moves"
    assert ok(server, "position") == game.position()
    assert ok(server, "printrecord") == text


def test_printrecord_follows_newgame_moves_and_undo():
    server = Server()
    ok(server, "newgame dvonn")
    for move in DVONN_PLACEMENTS[:4]:
        ok(server, f"move {move}")
    ok(server, "undo")
    assert ok(server, "printrecord") == "Site [www.littlegolem.net] 1. g2 c1 2. f5"
    ok(server, "newgame tzaar random 5")
    ok(server, "genmove")
    text = ok(server, "printrecord")
    assert "POS[" + "".join(random_opening(5)) + "]" in text and ";W[" in text


def test_printrecord_needs_a_game_from_its_start():
    server = Server()
    ok(server, "newgame dvonn")
    ok(server, f"replay {' '.join(DVONN_PLACEMENTS[:6])}")
    mid = ok(server, "position")
    ok(server, f"setposition {mid}")
    assert "needs a game from its start" in error(server, "printrecord")
    # a set-up start layout is a start: the bridge relies on this for POS openings
    ok(server, "setposition " + TzaarGame(random_opening(3)).position())
    ok(server, "genmove")
    assert "POS[" + "".join(random_opening(3)) + "]" in ok(server, "printrecord")


def test_gogui_analyze_commands_lists_only_existing_commands():
    lines = ok(Server(), "gogui-analyze_commands").split("\n")
    assert "string/Analyze/analyze" in lines and "string/Legal moves/legal_moves" in lines
    for line in lines:
        kind, label, command = line.split("/", 2)
        assert kind in ("none", "string") and label
        assert command.split()[0] in COMMANDS


def test_commands_work_over_the_real_process(engine, dvonn_file):
    assert engine.ok(f"loadrecord {dvonn_file}") == "51 moves; White resigned"
    assert engine.ok("printrecord").endswith("26. resign")
    assert "string/Status/status" in engine.ok("gogui-analyze_commands")


@pytest.mark.parametrize("path", ["/", "/dev/zero", "a\x00b", "x" * 5000])
def test_loadrecord_refuses_what_is_not_a_record_file(path):
    message = error(Server(), f"loadrecord {path}")
    assert message.startswith("cannot read") and len(message) < 300


# --- hostile record files, through the real process ------------------------------------

def test_loadrecord_of_a_fifo_answers_at_once(engine, tmp_path):
    import os
    fifo = tmp_path / "pipe.sgf"
    os.mkfifo(fifo)  # nobody writes it: opening it for reading would wait forever
    assert engine.error(f"loadrecord {fifo}") == f"cannot read {fifo}: not a regular file"
    assert engine.ok("name")


HOSTILE_RECORDS = {  # 4 MiB crafted files: each is refused as a bad record, quickly
    "nested": ("(" * (4 << 20), "variations nested more than 1000 deep"),
    "empty nodes": ("(" + ";" * ((4 << 20) - 2) + ")", "more than 50000 nodes and values"),
    "properties": ("(;" + "A[b]" * ((4 << 20) // 4 - 1) + ")", "more than 50000 nodes and values"),
    "escapes": ("(;C[" + "\\]" * ((4 << 20) // 2 - 3) + "])", "neither Boardspace DVONN nor"),
    "tags": ("A [b] " * ((4 << 20) // 6), "more than 1000 tags"),
    "moves": ("1. d3 e3 " + " ".join(f"{i}. e3f3 f3e3" for i in range(2, 230_000)), "more than 10000 moves"),
    "long name": ("(;" + "P" * ((4 << 20) - 3) + ")", "has no value"),
    "long action": ("(;GM[dvonn];P0[1 " + "x" * ((4 << 20) - 30) + "])", "unknown action"),
}


@pytest.mark.parametrize("name", HOSTILE_RECORDS)
def test_a_hostile_record_is_a_bad_record_quoted_briefly(engine, tmp_path, name):
    text, reason = HOSTILE_RECORDS[name]
    path = tmp_path / "hostile.sgf"
    path.write_text(text)
    assert len(text) <= 4 << 20
    message = engine.error(f"loadrecord {path}")
    assert message.startswith("bad record: ") and reason in message, message
    assert len(message) < 200, message  # a bounded snippet of the file, never the file
    assert engine.ok("position").startswith("dvonn ")  # unchanged, and still serving
    engine.child.sendline("quit")
    rest = engine.child.read()
    assert "Traceback" not in rest and "RecursionError" not in rest

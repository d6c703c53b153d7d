"""What the page may ask (engine/gui/messages.py): closed choices and strict patterns, so that no
request can carry a second command line, a comment or an option the GUI does not use."""
from __future__ import annotations

import json

import pytest

from engine.gui.messages import MAX_RECORD_BYTES, BadRequest, parse_request


@pytest.mark.parametrize("request_, expected", [
    ({"type": "newgame", "game": "dvonn"}, {"game": "dvonn", "opening": None}),
    ({"type": "newgame", "game": "tzaar", "opening": "random", "seed": 2 ** 64 - 1},
     {"game": "tzaar", "opening": "random", "seed": 2 ** 64 - 1}),
    ({"type": "play", "move": "G4xC6 F2+F1"}, {"move": "G4xC6 F2+F1"}),
    ({"type": "players", "w": "engine", "b": "human"}, {"w": "engine", "b": "human"}),
    ({"type": "time", "mode": "game", "ms": 60000}, {"mode": "game", "ms": 60000}),
    ({"type": "analysis", "on": False, "multipv": 3}, {"on": False, "multipv": 3}),
    ({"type": "undo", "extra": "ignored"}, {}),
    ({"type": "review", "depth": 4}, {"depth": 4}),
    ({"type": "review", "movetime": 200}, {"movetime": 200}),
    ({"type": "view", "ply": 0}, {"ply": 0}),
    ({"type": "cut"}, {}), ({"type": "hint"}, {}),
    ({"type": "newgame", "game": "tzaar", "opening": "random"},  # the session draws a seed
     {"game": "tzaar", "opening": "random", "seed": None}),
    ({"type": "level", "level": 10}, {"level": 10}),
    ({"type": "level", "level": 0}, {"level": 0}),  # the session names the engine's range
    ({"type": "preview", "actions": ["A5xA4"]}, {"actions": ["A5xA4"]}),
    ({"type": "attention", "present": False}, {"present": False}),
])
def test_good_requests(request_, expected):
    assert parse_request(json.dumps(request_)) == {**expected, "type": request_["type"]}


@pytest.mark.parametrize("request_", [
    {"type": "play", "move": "D3\nquit"}, {"type": "play", "move": "D3 # comment"},
    {"type": "play", "move": "x" * 65}, {"type": "play", "move": 3},
    {"type": "newgame", "game": "DVONN"}, {"type": "newgame", "game": "tzaar", "opening": "random", "seed": "1"},
    {"type": "newgame", "game": "tzaar", "opening": "random", "seed": -1},
    {"type": "newgame", "game": "tzaar", "opening": "random", "seed": True},
    {"type": "players", "w": "robot", "b": "human"}, {"type": "time", "mode": "move", "ms": 9},
    {"type": "time", "mode": "move", "ms": 86_400_001}, {"type": "time", "mode": "hour", "ms": 100},
    {"type": "setposition", "position": "dvonn w place -;quit"},
    {"type": "setposition", "position": "option threads 64"},
    {"type": "loadrecord", "content": ""}, {"type": "loadrecord", "content": "x" * (MAX_RECORD_BYTES + 1)},
    {"type": "loadrecord", "content": "1. d3 \ud800"}, {"type": "level", "level": 10 ** 30},
    {"type": "level", "level": "5"}, {"type": "level", "level": True},
    {"type": "preview", "actions": []}, {"type": "preview", "actions": "A5xA4"},
    {"type": "preview", "actions": ["A5xA4 pass"]}, {"type": "preview", "actions": ["A5xA4\nquit"]},
    {"type": "preview", "actions": ["A5xA4"] * 4}, {"type": "attention", "present": 1},
    {"type": "analysis", "on": "yes"}, {"type": "analysis", "on": True, "multipv": 11},
    {"type": "review"}, {"type": "review", "depth": 4, "movetime": 200},
    {"type": "review", "depth": 9}, {"type": "review", "movetime": 5001},
    {"type": "review", "depth": "4"}, {"type": "view", "ply": -1},
    {"type": "view", "ply": True}, {"type": "review_show", "ply": 1},
    {"type": "quit"}, {"type": "option"}, {"no type": 1}, [1, 2],
])
def test_bad_requests_are_refused(request_):
    with pytest.raises(BadRequest):
        parse_request(json.dumps(request_))


def test_non_json_and_oversized_messages_are_refused():
    for raw in ("not json", "{", "x" * (3 << 20)):
        with pytest.raises(BadRequest):
            parse_request(raw)


def test_json_nested_thousands_deep_is_refused_not_a_crash():
    for raw in ("[" * 50_000 + "]" * 50_000, '{"a":' * 50_000 + "1" + "}" * 50_000):
        with pytest.raises(BadRequest, match="nested too deep"):
            parse_request(raw)


def test_a_record_with_a_lone_surrogate_is_refused_before_it_reaches_a_file():
    raw = '{"type": "loadrecord", "content": "1. d3 \\udc80 e3"}'
    assert json.loads(raw)["content"].endswith("\udc80 e3")
    with pytest.raises(BadRequest, match="lone surrogate"):
        parse_request(raw)


def test_a_record_above_the_engines_file_limit_is_refused_with_the_limit():
    with pytest.raises(BadRequest, match="too large: at most 4194304 bytes"):
        parse_request(json.dumps({"type": "loadrecord", "content": "é" * (MAX_RECORD_BYTES // 2 + 1)},
                                 ensure_ascii=False))

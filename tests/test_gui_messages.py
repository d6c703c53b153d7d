"""What the page may ask (engine/gui/messages.py): closed choices and strict patterns, so that no
request can carry a second command line, a comment or an option the GUI does not use."""
from __future__ import annotations

import json

import pytest

from engine.gui.messages import BadRequest, parse_request


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
    ({"type": "review_show", "ply": 0}, {"ply": 0}),
])
def test_good_requests(request_, expected):
    assert parse_request(json.dumps(request_)) == {**expected, "type": request_["type"]}


@pytest.mark.parametrize("request_", [
    {"type": "play", "move": "D3\nquit"}, {"type": "play", "move": "D3 # comment"},
    {"type": "play", "move": "x" * 65}, {"type": "play", "move": 3},
    {"type": "newgame", "game": "DVONN"}, {"type": "newgame", "game": "tzaar", "opening": "random"},
    {"type": "newgame", "game": "tzaar", "opening": "random", "seed": -1},
    {"type": "newgame", "game": "tzaar", "opening": "random", "seed": True},
    {"type": "players", "w": "robot", "b": "human"}, {"type": "time", "mode": "move", "ms": 9},
    {"type": "time", "mode": "move", "ms": 86_400_001}, {"type": "time", "mode": "hour", "ms": 100},
    {"type": "setposition", "position": "dvonn w place -;quit"},
    {"type": "setposition", "position": "option threads 64"},
    {"type": "loadrecord", "content": ""}, {"type": "loadrecord", "content": "x" * (1 << 20 + 1)},
    {"type": "analysis", "on": "yes"}, {"type": "analysis", "on": True, "multipv": 11},
    {"type": "review"}, {"type": "review", "depth": 4, "movetime": 200},
    {"type": "review", "depth": 9}, {"type": "review", "movetime": 5001},
    {"type": "review", "depth": "4"}, {"type": "review_show", "ply": -1},
    {"type": "review_show", "ply": True},
    {"type": "quit"}, {"type": "option"}, {"no type": 1}, [1, 2],
])
def test_bad_requests_are_refused(request_):
    with pytest.raises(BadRequest):
        parse_request(json.dumps(request_))


def test_non_json_and_oversized_messages_are_refused():
    for raw in ("not json", "{", "x" * (3 << 20)):
        with pytest.raises(BadRequest):
            parse_request(raw)
